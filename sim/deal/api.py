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


def card_values(games: int, players: int, seats, rules, seed: int = 0, threads: int | None = None,
                progress: bool = False) -> tuple[float, pd.DataFrame]:
    """What one more copy of each card (every card but the plain properties) in seat 0's
    opening hand is worth: seat 0's win rate with it against without it, on the same games
    (common random numbers), paired game by game. Returns seat 0's win rate without an extra
    card, and the table, most valuable card first."""
    from sim.core.runner import progress_bar
    from sim.core.stats import paired_diff
    from sim.deal.game import GAME
    from sim.deal.rules import PROPERTY, card_spec

    cards = [card for card in rules.deck if card_spec(card)[0] != PROPERTY]
    bar = progress_bar(progress)
    rows = []
    with bar:
        task = bar.add_task(f"{len(cards) + 1} hands", total=(len(cards) + 1) * games)
        base = GAME.simulate(games, players, seats, rules, seed, threads)["win_0"].to_numpy(float)
        bar.advance(task, games)
        for card in cards:
            won = GAME.simulate(games, players, seats, rules, seed, threads, deck_edits={0: {card: 1}})
            diff, half = paired_diff(won["win_0"], base)
            rows.append({"card": card, "win_rate": float(won["win_0"].mean()), "diff": diff,
                         "diff_low": diff - half, "diff_high": diff + half})
            bar.advance(task, games)
    table = pd.DataFrame(rows).sort_values("diff", ascending=False, kind="stable", ignore_index=True)
    return float(base.mean()), table


def render_card_values(base: float, t: pd.DataFrame, games: int, players: int, seats: list[str]) -> str:
    lines = [f"# Card values: Monopoly Deal, {games:,} games a card, {players} players ({', '.join(seats)})", "",
             f"Seat 0 ({seats[0]}) is dealt one more copy of the card into its opening hand, on top of the shared "
             f"deck; the same games are played with and without it, so the change in seat 0's win rate (from "
             f"{base:.1%}) is paired game by game, with its 95% interval. Most valuable first.", "",
             "| card | seat 0 wins | change (points) | 95% CI |", "|---|---:|---:|---|"]
    for r in t.itertuples():
        lines.append(f"| {r.card} | {r.win_rate:.1%} | {r.diff * 100:+.1f} | {r.diff_low * 100:+.1f} to "
                     f"{r.diff_high * 100:+.1f} |")
    return "\n".join(lines) + "\n"
