"""Monopoly Deal from Python: summaries and the report. Playing goes through the registry:
sim.core.game.simulate("deal", ...)."""

from __future__ import annotations

import pandas as pd

from sim.core import summary as core

LENGTH_COLS = ("turns", "rounds")
DEFAULT_TABLE = ("smart", "set_builder", "aggressive", "banker", "random")
ACTION_COLS = (
    "rent_played",
    "double_rent_played",
    "deal_breaker_played",
    "sly_deal_played",
    "forced_deal_played",
    "debt_collector_played",
    "birthday_played",
    "pass_go_played",
    "house_played",
    "hotel_played",
    "just_say_no_played",
)


def derived(games: pd.DataFrame) -> dict[str, pd.Series]:
    """The 0/1 columns the summary counts beyond the table's own."""
    won = games["winner"] >= 0
    return {"won_own_turn": won & (games["won_on_own_turn"] == 1),
            "won_other_turn": won & (games["won_on_own_turn"] == 0)}


def summarize(t: core.Tally) -> dict[str, pd.DataFrame]:
    """Win rates with 95% intervals by seat and by policy, game length, how games ended, and
    the action cards each seat played per game."""
    by_seat = core.win_rate_by_seat(
        t, means=("sets", "sets_made", "rent_collected", "rent_paid", "collected", "paid", "plays", "turns"))
    ended = pd.DataFrame(
        {"share": [t.mean("won_own_turn"), t.mean("won_other_turn"), t.mean("stalled"),
                   t.mean("hit_turn_limit")]},
        index=["won_on_own_turn", "won_on_another_turn", "stalled", "hit_turn_limit"],
    )
    return {"by_seat": by_seat, "by_policy": core.win_rate_by_policy(t), "length": core.length_stats(t, LENGTH_COLS),
            "ended": ended, "actions": core.seat_means(t, ACTION_COLS)}


def render_report(t: core.Tally, s: dict[str, pd.DataFrame]) -> str:
    """A readable plain-text (Markdown-compatible) report of a simulation."""
    a = t.attrs
    lines = [
        f"# Monopoly Deal: {t.n:,} games, {a.get('players')} players, seed {a.get('seed')}",
        *core.rules_lines(t),
        "",
        "## Win rate by seat (95% interval)",
        "",
        "| seat | policy | win rate | 95% CI | sets at end | rent collected | rent paid | all collected | all paid |",
        "|---:|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for r in s["by_seat"].itertuples():
        lines.append(
            f"| {r.seat} | {r.policy} | {r.win_rate:.1%} | {r.ci_low:.1%} - {r.ci_high:.1%} | {r.sets:.2f} "
            f"| {r.rent_collected:.1f} | {r.rent_paid:.1f} | {r.collected:.1f} | {r.paid:.1f} |"
        )
    lines += core.policy_and_length_lines(s)
    e = s["ended"]["share"]
    lines += [
        "",
        f"Won on the winner's own turn: {e['won_on_own_turn']:.2%}; on another player's turn: "
        f"{e['won_on_another_turn']:.2%}; stalled with every card on the table: {e['stalled']:.2%}; "
        f"stopped at the turn limit: {e['hit_turn_limit']:.2%}.",
        "",
        "## Action cards played per game",
        "",
        "| seat | policy | rent | double | deal breaker | sly | forced | debt | birthday | pass go | house | hotel | just say no |",
        "|---:|---|" + "---:|" * len(ACTION_COLS),
    ]
    for r in s["actions"].itertuples(index=False):
        vals = " | ".join(f"{getattr(r, c):.2f}" for c in ACTION_COLS)
        lines.append(f"| {r.seat} | {r.policy} | {vals} |")
    return "\n".join(lines) + "\n"
