"""Monopoly Chance from Python: simulate games, summarize them, plot them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.chance import kernel
from sim.chance.layout import MAX_PLAYERS as MAX_PLAYERS_LAYOUT
from sim.chance.layout import N_SEAT_COLS, SC_WIN, SEAT_COLS
from sim.chance.rules import RULES_VERSION, ChanceRules, describe, pack
from sim.core import summary as core
from sim.core import table
from sim.core.runner import DEFAULT_CHUNK, UsageError, check_run_args, run_chunks
from strategies.chance import CATALOG, FORCE_FLIP, FORCE_KEY_SLOT, FORCE_SLOT, FORCE_STOP, OPTIMAL

MIN_PLAYERS, MAX_PLAYERS = 2, MAX_PLAYERS_LAYOUT
NO_TABLES = np.zeros(0)
DEFAULT_TABLE = ("smart", "bust_threshold p=0.25", "cash_target v=15", "stop_after n=3")


def make_table(players: int, seats: list[str] | None = None) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Parse one policy spec per seat. Missing seats are filled from DEFAULT_TABLE."""
    return table.make_table("Monopoly Chance", CATALOG, DEFAULT_TABLE, players, seats, MIN_PLAYERS, MAX_PLAYERS)


def seat_decks(rules: ChanceRules, players: int, deck_edits=None) -> list[list[tuple[int, int]]]:
    """Each seat's token deck as (kind, value) pairs, after deck edits."""
    import dataclasses

    decks = []
    for seat in range(players):
        deck = dict(rules.deck)
        for name, change in (deck_edits or {}).get(seat, {}).items():
            deck[name] = deck.get(name, 0) + change
        decks.append(dataclasses.replace(rules, deck=deck).deck_cards())
    return decks


def policy_tables(rules: ChanceRules, players: int, kinds, params, deck_edits=None) -> np.ndarray:
    """The lookup table ``pt`` for table-driven policies (the turn-optimal policy: thresholds
    for each seat's own deck and objective), or an empty array when no seat needs one."""
    from sim.chance.optimal import build_table

    objectives = [int(params[p, 0]) if kinds[p] == OPTIMAL else None for p in range(players)]
    if all(o is None for o in objectives):
        return NO_TABLES
    return build_table(rules, players, kinds, objectives, seat_decks(rules, players, deck_edits))


def simulate(
    games: int = 10_000,
    players: int = 4,
    seats: list[str] | None = None,
    rules: ChanceRules | None = None,
    seed: int = 0,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    check: bool = False,
    progress: bool = False,
    deck_edits: dict[int, dict[str, int]] | None = None,
    first_game: int = 0,
    force: tuple[int, str, float] | None = None,
) -> pd.DataFrame:
    """Play `games` complete games and return one row per game.

    ``first_game`` offsets the game indices: games first_game .. first_game + games - 1 are
    played, so a long run can be played in independent pieces (experiments, resume, Dask).

    Columns: seed, game (the game index: game g is seeded from (seed, g) alone), winner (-1 for
    a shared win), rounds, turns, stalled_rounds,
    hit_round_limit, and for each seat s the columns ``<stat>_<s>`` for every stat in
    ``SEAT_COLS`` plus ``policy_<s>``. ``win_<s>`` is the seat's share of the win
    (1, or 1/k for a k-way tie). ``df.attrs`` holds the seed, policies and rules.

    ``force=(seat, "flip" | "stop", key)``: whenever that seat is about to decide in a
    situation matching ``key`` (strategies.chance.situation_key), it flips (or cashes out)
    whatever its policy says; ``situations_<seat>`` counts those decisions. Two runs that differ
    only in the forced action are paired game by game (common random numbers).
    """
    rules = rules or ChanceRules()
    check_run_args(games, seed, chunk_size, threads)
    specs, kinds, params = make_table(players, seats)
    try:
        packed = pack(rules, players, deck_edits)
    except ValueError as e:
        raise UsageError(str(e)) from None
    tables = policy_tables(rules, players, kinds, params, deck_edits)
    if force is not None:
        seat, action, key = force
        if not 0 <= seat < players or action not in ("flip", "stop"):
            raise UsageError(f"force: seat must be 0..{players - 1} and action flip or stop")
        params = params.copy()
        params[seat, FORCE_SLOT] = FORCE_FLIP if action == "flip" else FORCE_STOP
        params[seat, FORCE_KEY_SLOT] = key

    game_out = np.zeros((kernel.N_GAME_COLS, games), np.int64)
    seat_out = np.zeros((players, N_SEAT_COLS, games), np.int64)

    def play_chunk(first: int, n: int) -> None:
        kernel.play_batch(
            packed, kinds, params, tables, np.uint64(seed), first_game + first, n, check, game_out, seat_out, first
        )

    run_chunks(play_chunk, games, chunk_size, threads, progress)
    return _to_frame(game_out, seat_out, specs, seed, rules, deck_edits, first_game)


def _to_frame(game_out, seat_out, specs, seed, rules, deck_edits, first_game=0) -> pd.DataFrame:
    return table.games_frame(
        kernel, game_out, seat_out, SEAT_COLS, SC_WIN, specs, seed, first_game,
        game="chance", rules=describe(rules), rules_version=RULES_VERSION,
        deck_edits={str(k): v for k, v in (deck_edits or {}).items()},
    )


def seat_table(games: pd.DataFrame) -> pd.DataFrame:
    """The per-game table in long form: one row per (game, seat)."""
    return core.seat_table(games, SEAT_COLS)


def summarize(games: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Win rates with 95% intervals by seat and by policy, and game-length statistics."""
    seats = seat_table(games)
    n = len(games)
    by_seat = core.win_rate_by_seat(seats, n, means=("skyline", "buildings"))
    totals = seats.groupby(["seat", "policy"], sort=True)[["turns", "flips", "busts"]].sum().reset_index()
    by_seat["bust_rate"] = totals["busts"] / totals["turns"]
    by_seat["flips_per_turn"] = totals["flips"] / totals["turns"]
    by_policy = core.win_rate_by_policy(seats, core.n_seats(games))
    extras = pd.DataFrame(
        {
            "share": [
                float((games["winner"] < 0).mean()),
                float((games["stalled_rounds"] > 0).mean()),
                float(games["hit_round_limit"].mean()),
            ]
        },
        index=["shared_wins", "games_with_stalled_round", "hit_round_limit"],
    )
    length = core.length_stats(games, ("rounds", "turns"))
    return {"by_seat": by_seat, "by_policy": by_policy, "length": length, "flags": extras}


def render_report(games: pd.DataFrame, summary: dict[str, pd.DataFrame] | None = None) -> str:
    """A readable plain-text (Markdown-compatible) report of a simulation."""
    s = summary or summarize(games)
    a = games.attrs
    lines = [
        f"# Monopoly Chance: {len(games):,} games, {a.get('players')} players, seed {a.get('seed')}",
        "",
        "## Win rate by seat (95% interval)",
        "",
        "| seat | policy | win rate | 95% CI | skyline | bust rate | flips/turn |",
        "|---:|---|---:|---|---:|---:|---:|",
    ]
    for r in s["by_seat"].itertuples():
        lines.append(
            f"| {r.seat} | {r.policy} | {r.win_rate:.1%} | {r.ci_low:.1%} - {r.ci_high:.1%} "
            f"| {r.skyline:.1f} | {r.bust_rate:.1%} | {r.flips_per_turn:.2f} |"
        )
    lines += core.policy_and_length_lines(s)
    f = s["flags"]["share"]
    lines += [
        "",
        f"Shared wins: {f['shared_wins']:.2%}; games with a stalled round: "
        f"{f['games_with_stalled_round']:.2%}; games stopped at the round limit: {f['hit_round_limit']:.2%}.",
    ]
    return "\n".join(lines) + "\n"


def plot_win_rates(games: pd.DataFrame, path, summary: dict[str, pd.DataFrame] | None = None) -> None:
    """Bar chart of win rate by seat with 95% error bars and the fair-share line."""
    by_seat = (summary or summarize(games))["by_seat"]
    core.plot_win_rates(by_seat, path, f"Monopoly Chance: win rate by seat ({len(games):,} games, 95% CI)")
