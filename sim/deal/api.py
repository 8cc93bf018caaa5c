"""Monopoly Deal from Python: simulate games, summarize them, plot them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.core import summary as core
from sim.core import table
from sim.core.runner import DEFAULT_CHUNK, UsageError, check_run_args, run_chunks
from sim.deal import kernel
from sim.deal.layout import MAX_PLAYERS as MAX_PLAYERS_LAYOUT
from sim.deal.layout import N_SEAT_COLS, SC_WIN, SEAT_COLS
from sim.deal.rules import RULES_VERSION, DealRules, describe, pack
from strategies.deal import CATALOG

MIN_PLAYERS, MAX_PLAYERS = 2, MAX_PLAYERS_LAYOUT
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


def make_table(players: int, seats: list[str] | None = None) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Parse one policy spec per seat. Missing seats are filled from DEFAULT_TABLE."""
    return table.make_table("Monopoly Deal", CATALOG, DEFAULT_TABLE, players, seats, MIN_PLAYERS, MAX_PLAYERS)


def simulate(
    games: int = 10_000,
    players: int = 4,
    seats: list[str] | None = None,
    rules: DealRules | None = None,
    seed: int = 0,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    check: bool = False,
    progress: bool = False,
    deck_edits: dict[int, dict[str, int]] | None = None,
    first_game: int = 0,
) -> pd.DataFrame:
    """Play `games` complete games and return one row per game.

    Columns: game, winner (-1 when nobody won: the turn limit or a stalled table), turns,
    rounds, hit_turn_limit, stalled, reshuffles, won_on_own_turn, and for each seat s the
    columns ``<stat>_<s>`` for every stat in ``SEAT_COLS`` plus ``policy_<s>``.

    ``deck_edits`` maps seat -> {card name: copies}: extra cards dealt into that seat's opening
    hand on top of the shared deck (for card-value studies: compare with the same seeds
    without the edit). ``df.attrs`` holds the seed, policies, rules and deck edits.
    ``first_game`` offsets the game indices, so a long run can be played in pieces.
    """
    rules = rules or DealRules()
    check_run_args(games, seed, chunk_size, threads)
    specs, kinds, params = make_table(players, seats)
    try:
        packed = pack(rules, players, deck_edits)
    except ValueError as e:
        raise UsageError(str(e)) from None

    game_out = np.zeros((kernel.N_GAME_COLS, games), np.int64)
    seat_out = np.zeros((players, N_SEAT_COLS, games), np.int64)

    def play_chunk(first: int, n: int) -> None:
        kernel.play_batch(packed, kinds, params, np.uint64(seed), first_game + first, n, check, game_out, seat_out,
                          first)

    run_chunks(play_chunk, games, chunk_size, threads, progress)
    return _to_frame(game_out, seat_out, specs, seed, rules, deck_edits, first_game)


def _to_frame(game_out, seat_out, specs, seed, rules, deck_edits, first_game) -> pd.DataFrame:
    return table.games_frame(
        kernel, game_out, seat_out, SEAT_COLS, SC_WIN, specs, seed, first_game,
        game="deal", rules=describe(rules), rules_version=RULES_VERSION,
        deck_edits={str(k): v for k, v in (deck_edits or {}).items()},
    )


def seat_table(games: pd.DataFrame) -> pd.DataFrame:
    """The per-game table in long form: one row per (game, seat)."""
    return core.seat_table(games, SEAT_COLS)


def summarize(games: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Win rates with 95% intervals by seat and by policy, game length, how games ended, and
    the action cards each seat played per game."""
    seats = seat_table(games)
    n = len(games)
    players = core.n_seats(games)
    by_seat = core.win_rate_by_seat(
        seats, n, means=("sets", "sets_made", "rent_collected", "rent_paid", "collected", "paid", "plays", "turns")
    )
    by_policy = core.win_rate_by_policy(seats, players)
    length = core.length_stats(games, ("turns", "rounds"))
    won = games["winner"] >= 0
    ended = pd.DataFrame(
        {
            "share": [
                float((won & (games["won_on_own_turn"] == 1)).mean()),
                float((won & (games["won_on_own_turn"] == 0)).mean()),
                float(games["stalled"].mean()),
                float(games["hit_turn_limit"].mean()),
            ]
        },
        index=["won_on_own_turn", "won_on_another_turn", "stalled", "hit_turn_limit"],
    )
    actions = seats.groupby(["seat", "policy"], sort=True)[list(ACTION_COLS)].mean().reset_index()
    return {"by_seat": by_seat, "by_policy": by_policy, "length": length, "ended": ended, "actions": actions}


def render_report(games: pd.DataFrame, summary: dict[str, pd.DataFrame] | None = None) -> str:
    """A readable plain-text (Markdown-compatible) report of a simulation."""
    s = summary or summarize(games)
    a = games.attrs
    lines = [
        f"# Monopoly Deal: {len(games):,} games, {a.get('players')} players, seed {a.get('seed')}",
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


def plot_win_rates(games: pd.DataFrame, path, summary: dict[str, pd.DataFrame] | None = None) -> None:
    """Bar chart of win rate by seat with 95% error bars and the fair-share line."""
    s = (summary or summarize(games))["by_seat"]
    core.plot_win_rates(s, path, f"Monopoly Deal: win rate by seat ({len(games):,} games, 95% CI)")
