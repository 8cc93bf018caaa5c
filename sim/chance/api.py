"""Monopoly Chance from Python: summaries, the report, and the turn-optimal policy's tables.
Playing goes through the registry: sim.core.game.simulate("chance", ...)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.chance.rules import ChanceRules
from sim.core import summary as core
from sim.core.game import NO_TABLES
from strategies.chance import OPTIMAL, ROLLOUT

LENGTH_COLS = ("rounds", "turns")
DEFAULT_TABLE = ("smart", "bust_threshold p=0.25", "cash_target v=15", "stop_after n=3")


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

    objectives = [int(params[p, 0]) if kinds[p] == OPTIMAL else 0 if kinds[p] == ROLLOUT else None
                  for p in range(players)]
    if all(o is None for o in objectives):
        return NO_TABLES
    return build_table(rules, players, kinds, objectives, seat_decks(rules, players, deck_edits))


def derived(games: pd.DataFrame) -> dict[str, pd.Series]:
    """The 0/1 columns the summary counts beyond the table's own."""
    return {"shared_win": games["winner"] < 0, "stalled_round": games["stalled_rounds"] > 0}


def summarize(t: core.Tally) -> dict[str, pd.DataFrame]:
    """Win rates with 95% intervals by seat and by policy, and game-length statistics."""
    by_seat = core.win_rate_by_seat(t, means=("skyline", "buildings"))
    turns = t.seat_sums("turns")
    by_seat["bust_rate"] = t.seat_sums("busts") / turns
    by_seat["flips_per_turn"] = t.seat_sums("flips") / turns
    flags = pd.DataFrame({"share": [t.mean("shared_win"), t.mean("stalled_round"), t.mean("hit_round_limit")]},
                         index=["shared_wins", "games_with_stalled_round", "hit_round_limit"])
    return {"by_seat": by_seat, "by_policy": core.win_rate_by_policy(t), "length": core.length_stats(t, LENGTH_COLS),
            "flags": flags}


def render_report(t: core.Tally, s: dict[str, pd.DataFrame]) -> str:
    """A readable plain-text (Markdown-compatible) report of a simulation."""
    a = t.attrs
    lines = [
        f"# Monopoly Chance: {t.n:,} games, {a.get('players')} players, seed {a.get('seed')}",
        *core.rules_lines(t),
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
