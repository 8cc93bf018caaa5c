"""Monopoly: The Card Game's own verbs: card values, seat advantage, house-rule effects."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from sim.cardgame.game import GAME
from sim.core.json_output import emit, game_meta, with_rules_line
from sim.core.cli import AsJson, Games, Progress, Seats, Seed, Threads, preset_option, rules_with_preset

CardEdition = preset_option(GAME)
CardPlayers = Annotated[int, typer.Option(help="Players: 3 to 6 (wiki edition) or 2 to 4 (video).")]
CardRule = Annotated[
    Optional[list[str]],
    typer.Option("--rule", help="Rule change KEY=VALUE after the edition's preset, e.g. chance_zeroes_others=false."),
]


def register(app: typer.Typer) -> None:
    """Add values and seats to the `monosim cardgame` group."""
    app.command("values")(cardgame_values)
    app.command("seats")(cardgame_seats)


def _card_rules(edition: str, rule):
    return rules_with_preset(GAME, edition, rule)


def cardgame_values(
    games: Games = 20_000,
    players: CardPlayers = 4,
    edition: CardEdition = "wiki",
    seat: Seats = None,
    rule: CardRule = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: AsJson = False,
    progress: Progress = True,
) -> None:
    """Card-value report: each card kind in the hands that went out and the others, and the
    Chance card's risk and reward."""
    from sim.cardgame import api

    rules = _card_rules(edition, rule)
    policies = GAME.make_table(players, seat, rules)[0]  # checks the table before any game
    v = api.card_values(games, players, seat, rules, seed, threads, progress=progress and not as_json)
    if as_json:
        emit("cardgame values", game_meta(GAME, rules, games=games, seed=seed, players=players, policies=policies), v)
    else:
        print(with_rules_line(api.render_card_values(v), GAME, rules), end="")


def cardgame_seats(
    games: Games = 20_000,
    players: Annotated[Optional[list[int]], typer.Option(help="Player counts (repeat); default every count the edition allows.")] = None,
    edition: CardEdition = "wiki",
    policy: Annotated[str, typer.Option(help="The bot in every seat.")] = "smart",
    rule: CardRule = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: AsJson = False,
    progress: Progress = True,
) -> None:
    """Seat advantage by player count: the same bot in every seat, win rate of each seat."""
    from sim.cardgame import api

    rules = _card_rules(edition, rule)
    lo, hi = rules.players_allowed()
    counts = players or list(range(lo, hi + 1))
    for n in counts:
        GAME.make_table(n, [policy] * n, rules)
    t = api.seat_advantage(games, counts, policy, rules, seed, threads, progress=progress and not as_json)
    if as_json:
        emit("cardgame seats", game_meta(GAME, rules, games=games, seed=seed, players_counted=counts,
                                         policies=[policy]), t)
    else:
        print(with_rules_line(api.render_seat_advantage(t, games, policy, rules.edition), GAME, rules), end="")
