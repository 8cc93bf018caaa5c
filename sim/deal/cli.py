"""Monopoly Deal's own verb: what each card is worth."""

from __future__ import annotations

from typing import Annotated

import typer

from sim.core.cli import AsJson, Progress, Rules, Seats, Seed, Threads
from sim.core.json_output import emit, game_meta, with_rules_line
from sim.core.runner import check_run_args
from sim.deal.game import GAME


def register(app: typer.Typer) -> None:
    """Add values to the `monosim deal` group."""
    app.command("values")(deal_values)


def deal_values(
    games: Annotated[int, typer.Option("--games", "-n", help="Games a card (and as many without it).")] = 10_000,
    players: Annotated[int, typer.Option(help="Players at the table, 2 to 5.")] = GAME.rules.default_players,
    seat: Seats = None,
    rule: Rules = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: AsJson = False,
    progress: Progress = True,
) -> None:
    """What one more copy of each card in seat 0's opening hand is worth: its change to seat 0's
    win rate, paired on the same games, most valuable first."""
    from sim.deal import api

    rules = GAME.rules_from(rule)
    seats = GAME.make_table(players, seat, rules)[0]  # the table is checked before any game
    check_run_args(games, seed, 1, threads)
    base, t = api.card_values(games, players, seats, rules, seed, threads, progress and not as_json)
    if as_json:
        emit("deal values", game_meta(GAME, rules, games=games, seed=seed, players=players, policies=seats),
             {"seat0_win_rate": base, "cards": t})
    else:
        print(with_rules_line(api.render_card_values(base, t, games, players, seats), GAME, rules), end="")
