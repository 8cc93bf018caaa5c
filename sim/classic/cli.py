"""Classic Monopoly's own verbs: landing odds, win odds from a position, property values and
house-rule effects."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.core.cli import Games, Progress, Seed, Threads
from sim.core.runner import UsageError
from sim.core.json_output import emit, game_meta, with_rules_line


def register(app: typer.Typer) -> None:
    """Add landing, position and values to the `monosim classic` group."""
    app.command("landing")(classic_landing)
    app.command("position")(classic_position)
    app.command("values")(classic_values)


ClassicRule = Annotated[
    Optional[list[str]],
    typer.Option("--rule", help="Rule change KEY=VALUE, e.g. free_parking_jackpot=true or starting_cash=2000."),
]
ClassicSeat = Annotated[
    Optional[list[str]],
    typer.Option("--seat", help="Policy of the next seat, e.g. 'trader reserve=100'. Repeat per seat."),
]


def classic_landing(
    jail: Annotated[str, typer.Option(help="Jail strategy: short (leave at once) or long (stay while allowed).")] = "short",
    rolls: Annotated[int, typer.Option(help="Rolls to simulate.")] = 10_000_000,
    seed: Seed = 0,
    rule: ClassicRule = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print 41 objects {square, name, simulated, exact}.")] = False,
) -> None:
    """Long-run landing frequency of every square, simulated and exact (Markov chain)."""
    from sim.classic import landing
    from sim.classic.game import GAME

    if jail not in landing.JAIL_STRATEGIES:
        raise UsageError(f"--jail must be short or long (got {jail!r})")
    if not 1000 <= rolls <= 10**11:
        raise UsageError(f"--rolls must be between 1000 and 10^11 (got {rolls})")
    if not 0 <= seed < 2**64:
        raise UsageError(f"--seed must be between 0 and 2**64 - 1 (got {seed})")
    rules = GAME.rules_from(rule)
    rows = landing.landing_table(rules, jail, rolls, seed)
    if as_json:
        emit("classic landing", game_meta(GAME, rules, seed=seed, rolls=rolls, jail=jail),
             [{k: r[k] for k in ("square", "name", "simulated", "exact")} for r in rows])
    else:
        print(with_rules_line(landing.render_landing(rows, jail, rolls), GAME, rules), end="")


def classic_position(
    file: Annotated[Path, typer.Argument(help="Position file (.toml or .json).")],
    games: Games = 20_000,
    seat: ClassicSeat = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the estimates as JSON.")] = False,
    progress: Progress = True,
) -> None:
    """Each player's chance to win from a mid-game position, by playing it out many times."""
    from sim.classic import api, position
    from sim.classic.game import GAME

    pos = position.load(file)
    if seat:
        if len(seat) > pos.players:
            raise UsageError(f"{len(seat)} --seat policies given for {pos.players} players")
        pos.policies[: len(seat)] = seat
    df = GAME.simulate(games, pos.players, pos.policies, pos.rules, seed, threads, check=False,
                       progress=progress and not as_json, start=pos.S0)
    table = api.position_odds(df, pos)
    if as_json:
        emit("classic position", game_meta(GAME, pos.rules, games=games, seed=seed, players=pos.players,
                                           policies=list(pos.policies), position=str(file)), table)
    else:
        print(with_rules_line(api.render_position(table, df, file), GAME, pos.rules), end="")


def classic_values(
    games: Games = 50_000,
    players: Annotated[Optional[list[int]], typer.Option(help="Player counts (repeat); default 2, 3, 4.")] = None,
    seat: ClassicSeat = None,
    rule: ClassicRule = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    progress: Progress = True,
) -> None:
    """Property value report: each set's effect on win rate, rent per game and payback time."""
    from sim.classic import api
    from sim.classic.game import GAME

    rules = GAME.rules_from(rule)
    result = {}
    for n in players or [2, 3, 4]:
        df, detail = GAME.simulate(games, n, seat, rules, seed, threads, progress=progress and not as_json,
                                   detail=True)
        result[n] = api.property_values(df, detail["groups"])
    if as_json:
        emit("classic values", game_meta(GAME, rules, games=games, seed=seed, players_counted=list(result),
                                         policies=list(seat or [])), {str(n): t for n, t in result.items()})
    else:
        print(with_rules_line(api.render_property_values(result), GAME, rules), end="")
