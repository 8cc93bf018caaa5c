"""A ladder: every built-in bot and preset of a game (and any bot you add) rated against all the others.
A bot too slow for that (Chance's rollout player) joins only when added.

Each table seats `players` different bots; the ladder plays every such table in every seat
rotation (for two players, every ordered pair), the same games at each table (common random
numbers: game g of the seed). Every game gives pairwise results: of two seats, the one that won
beat the other (a shared win splits the point; when neither won, there is no result). A
Bradley-Terry model (sim/core/ranking.py) fits the pairwise results with an earlier-seat effect
and rates each bot with a 95% interval (widened for the several results one game gives); the
head-to-head table gives each bot's share of the results against each other bot.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.core.ranking import bradley_terry
from sim.core.runner import UsageError, progress_bar


def bots(game) -> list[str]:
    """Every built-in bot (its default parameters), except the slow ones, and every preset of
    the game."""
    return [name for name, kind in game.bots.catalog.kinds.items() if not kind.slow] + list(game.bots.catalog.presets())


def tables(names: list[str], players: int) -> list[tuple[str, ...]]:
    """Every table of `players` different bots, in every rotation of its seats."""
    out = []
    for group in itertools.combinations(names, players):
        for r in range(players if players > 2 else 1):
            out.append(group[r:] + group[:r])
    if players == 2:
        out += [(b, a) for a, b in out]
    return out


@dataclass
class Ladder:
    game: str
    players: int
    games_per_table: int
    tables: int
    ranking: pd.DataFrame  # rank, policy, strength (with interval), win_vs_average
    head_to_head: pd.DataFrame  # row bot's share of the results against the column bot
    seat_edge: dict  # the earlier seat's edge in the pairwise results (log-odds, with interval)

    def report(self, title: str) -> str:
        lines = [f"# {title}: ladder of {len(self.ranking)} bots", "",
                 f"{self.players} players a table; {self.tables} tables (every choice of bots, every "
                 f"rotation of the seats), {self.games_per_table:,} games each, the same seeds at every "
                 "table. Strength: log-odds of beating an average bot of this field in a pairwise "
                 "result (of two seats, the one that won), Bradley-Terry with an earlier-seat "
                 "effect, 95% intervals.", "",
                 "| rank | bot | strength | 95% CI | beats an average bot |", "|---:|---|---:|---|---:|"]
        for r in self.ranking.itertuples():
            lines.append(f"| {r.rank} | {r.policy} | {r.strength:+.2f} | {r.strength_low:+.2f} to "
                         f"{r.strength_high:+.2f} | {r.win_vs_average:.1%} |")
        order = list(self.ranking["policy"])
        h2h = self.head_to_head.loc[order, order]
        lines += ["", "Head to head: the row bot's share of the pairwise results against the column bot.", "",
                  "| | " + " | ".join(order) + " |", "|---|" + "---:|" * len(order)]
        for name, row in h2h.iterrows():
            lines.append(f"| {name} | " + " | ".join("" if np.isnan(v) else f"{v:.0%}" for v in row) + " |")
        return "\n".join(lines) + "\n"

    def plot(self, title: str):
        """The head-to-head table as a heatmap (a Figure)."""
        from sim.core.summary import figure

        order = list(self.ranking["policy"])
        h2h = self.head_to_head.loc[order, order].to_numpy()
        fig = figure(figsize=(2.5 + 0.9 * len(order), 1.8 + 0.6 * len(order)))
        ax = fig.subplots()
        image = ax.imshow(h2h, cmap="RdBu", vmin=0, vmax=1)
        for (i, j), v in np.ndenumerate(h2h):
            if not np.isnan(v):
                ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=7,
                        color="black" if 0.25 < v < 0.75 else "white")
        ax.set_xticks(range(len(order)), order, rotation=30, ha="right", fontsize=7)
        ax.set_yticks(range(len(order)), order, fontsize=7)
        ax.set_title(f"{title}: head to head (row beats column)", fontsize=9)
        fig.colorbar(image, ax=ax, fraction=0.04)
        fig.tight_layout()
        return fig


def pairwise(df: pd.DataFrame, seats: tuple[str, ...]) -> list[tuple[str, str, float, float]]:
    """(earlier seat's bot, later seat's bot, the earlier one's wins, results) for every pair of
    seats over a table's games."""
    wins = np.stack([df[f"win_{s}"].to_numpy(float) for s in range(len(seats))])
    out = []
    for a, b in itertools.combinations(range(len(seats)), 2):
        total = wins[a] + wins[b]
        decided = total > 0
        share = np.divide(wins[a], total, out=np.zeros_like(total), where=decided)
        out.append((seats[a], seats[b], float(share.sum()), float(decided.sum())))
    return out


def play_ladder(game, players: int | None = None, games: int = 2000, seed: int = 0, rules=None,
                threads: int | None = None, progress: bool = False, entrants: list[str] | None = None) -> Ladder:
    """Play a game's ladder: every table of its bots (see the module's docstring), with
    `entrants` (policy specs: your own bots, other parameters) joining the built-in ones."""
    names = bots(game)
    for spec in entrants or []:
        spec = game.check_policy(spec)
        if spec in names:
            raise UsageError(f"--seat {spec!r} is in the ladder already")
        names.append(spec)
    rules = game.default_rules() if rules is None else rules
    lo, hi, _ = game.player_range(rules)
    players = players or min(game.rules.default_players, len(names))
    if not lo <= players <= min(hi, len(names)):
        raise UsageError(f"--players must be {lo} to {min(hi, len(names))} for a ladder of {game.title} (got {players})")
    if games < 1:
        raise UsageError(f"--games must be at least 1 (got {games})")
    rows = []
    plan = tables(names, players)
    bar = progress_bar(progress)
    with bar:
        task = bar.add_task(f"{len(plan)} tables", total=len(plan) * games)
        for seats in plan:
            df = game.simulate(games, players, list(seats), rules, seed=seed, threads=threads)
            rows += pairwise(df, seats)
            bar.advance(task, games)
    results = pd.DataFrame(rows, columns=["first", "second", "wins", "games"])
    results = results.groupby(["first", "second"], as_index=False).sum()
    decided = results[results["games"] > 0]
    ranking, edge = bradley_terry(decided, results_per_game=players - 1)
    h2h = pd.DataFrame(np.nan, index=names, columns=names)
    both = pd.concat([results, results.rename(columns={"first": "second", "second": "first"}).assign(
        wins=results["games"] - results["wins"])]).groupby(["first", "second"]).sum()
    for (a, b), r in both.iterrows():
        h2h.loc[a, b] = r["wins"] / r["games"] if r["games"] > 0 else np.nan
    return Ladder(game.name, players, games, len(plan), ranking, h2h, edge)
