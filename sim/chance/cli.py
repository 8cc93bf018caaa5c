"""Monopoly Chance's own verbs: exact turn odds, cash-out advice and the cash-out study."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.core.cli import Seed, Threads
from sim.core.game import get
from sim.core.json_output import emit, game_meta, with_rules_line
from sim.core.runner import UsageError


def register(app: typer.Typer) -> None:
    """Add odds, advise, position and study to the `monosim chance` group."""
    app.command("odds")(chance_odds)
    app.command("advise")(chance_advise)
    app.command("position")(chance_position)
    app.command("study")(chance_study)


def _values(flag: str, raw: Optional[str]) -> Optional[list[int]]:
    """'7,11' -> [7, 11]; '' -> []; None stays None."""
    if raw is None:
        return None
    out = []
    for part in raw.split(","):
        part = part.strip()
        if not part:
            continue
        if not (part.isascii() and part.lstrip("+-").isdigit()):  # int() would read other scripts' digits too
            raise UsageError(f"{flag} takes comma-separated whole numbers such as 7,11 (got {raw!r})")
        out.append(int(part))
    return out


CashFlag = Annotated[Optional[str], typer.Option("--cash", help="Cash values left in the draw pile, e.g. 2,3,5,12 ('' for none). Default: the fresh deck minus --flipped.")]
BankruptFlag = Annotated[Optional[int], typer.Option("--bankrupt", help="Bankrupts left in the pile (default: all of the deck's).")]
LuckyFlag = Annotated[Optional[int], typer.Option("--lucky", help="Lucky Breaks left in the pile (default: the deck's minus --held-lucky).")]
OtherFlag = Annotated[Optional[int], typer.Option("--other", help="Token / Flip 2 / Nope! cards left in the pile (default: all).")]
HeldLuckyFlag = Annotated[int, typer.Option("--held-lucky", help="Unused Lucky Breaks in front of you this turn.")]
FlippedFlag = Annotated[Optional[str], typer.Option("--flipped", help="Cash already flipped this turn, e.g. 7,11.")]
PositionFlag = Annotated[Optional[Path], typer.Option("--position", help="A game in progress (.toml or .json; docs/chance.md): advise its decision from rollouts.")]
PrecisionFlag = Annotated[float, typer.Option("--precision", help="With --position: rollouts are added until each choice's paired difference to the best is known to within this many points (95%).")]
MAX_ROLLOUTS = 200_000  # sim.chance.advise.MAX_ROLLOUTS, known here before the heavy imports
RuleFlag = Annotated[Optional[list[str]], typer.Option("--rule", help="Rule change KEY=VALUE (deck.* changes the deck).")]


def _situation(cash, bankrupt, lucky, other, held_lucky, flipped, flips, rule):
    from sim.chance.exact_odds import make_situation
    from sim.chance.game import GAME

    rules = GAME.rules_from(rule)
    sit = make_situation(
        cash=_values("--cash", cash), bankrupt=bankrupt, lucky=lucky, other=other,
        held_lucky=held_lucky, flipped=_values("--flipped", flipped), flips=flips, rules=rules,
    )
    return sit, rules


def chance_odds(
    cash: CashFlag = None,
    bankrupt: BankruptFlag = None,
    lucky: LuckyFlag = None,
    other: OtherFlag = None,
    held_lucky: HeldLuckyFlag = 0,
    flipped: FlippedFlag = None,
    flips: Annotated[Optional[int], typer.Option("--flips", help="Flips left this turn (default: the largest die face).")] = None,
    rule: RuleFlag = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the odds as JSON.")] = False,
) -> None:
    """Exact odds of flipping k more cards (k = 1 .. flips left), and of the next flip busting."""
    from sim.chance.exact_odds import odds, render_odds

    sit, rules = _situation(cash, bankrupt, lucky, other, held_lucky, flipped, flips, rule)
    result = odds(sit)
    if as_json:
        emit("chance odds", game_meta(get("chance"), rules), result)
    else:
        print(render_odds(sit, result), end="")


def chance_advise(
    flipped: FlippedFlag = None,
    flips_left: Annotated[Optional[int], typer.Option("--flips-left", help="Flips left this turn (default: the largest die face).")] = None,
    held_lucky: HeldLuckyFlag = 0,
    cash: CashFlag = None,
    bankrupt: BankruptFlag = None,
    lucky: LuckyFlag = None,
    other: OtherFlag = None,
    objective: Annotated[str, typer.Option(help="What the turn should maximize: value, count or board.")] = "value",
    beat: Annotated[int, typer.Option(help="Board objective: a card counts only above this value (the cheapest property's requirement).")] = 0,
    games: Annotated[Optional[int], typer.Option("--games", "-n", help="Games per arm of the win-rate evidence (0: none; default 20,000); with --position, the most rollouts per choice (default 200,000).")] = None,
    players: Annotated[int, typer.Option(help="Players at the table, 2 to 4.")] = 4,
    policy: Annotated[Optional[str], typer.Option(help="Your policy in the simulated games, outside the situation (default optimal).")] = None,
    position: PositionFlag = None,
    precision: PrecisionFlag = 1.0,
    seed: Seed = 0,
    rule: RuleFlag = None,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the advice as JSON.")] = False,
) -> None:
    """Flip or cash out? Exact bust chance and expected gain, plus win-rate evidence from games;
    with --position, the choice at that position (flip, Flip 2, Nope!, Token or Cash card) from
    paired rollouts of the whole game."""
    from sim.core.runner import check_run_args

    if position is not None:
        given = [name for name, v in (("--flipped", flipped), ("--flips-left", flips_left), ("--cash", cash),
                                      ("--bankrupt", bankrupt), ("--lucky", lucky), ("--other", other),
                                      ("--policy", policy)) if v is not None]
        if held_lucky or given:
            raise UsageError(f"--position describes the whole game: leave out {(given or ['--held-lucky'])[0]} "
                             "(the file holds it)")
        _advise_position(position, precision, MAX_ROLLOUTS if games is None else games, seed, rule, threads, as_json)
        return
    games = 20_000 if games is None else games
    if policy is not None and not policy.strip():
        raise UsageError("--policy: give a policy (default: optimal)")
    policy = policy or "optimal"
    if beat < 0:
        raise UsageError(f"--beat must be 0 or more (got {beat})")

    OBJECTIVES = ("value", "count", "board")  # sim.chance.optimal.OBJECTIVES; checked before heavy imports
    if objective not in OBJECTIVES:
        raise UsageError(f"--objective must be one of {', '.join(OBJECTIVES)} (got {objective!r})")
    if games < 0:
        raise UsageError(f"--games must be 0 or more (got {games})")
    if not 2 <= players <= 4:
        raise UsageError(f"--players must be 2 to 4 for Monopoly Chance (got {players})")
    check_run_args(max(games, 1), seed, 1, threads)
    sit, rules = _situation(cash, bankrupt, lucky, other, held_lucky, flipped, flips_left, rule)
    if sit.cash_sum > 254 or len(sit.flipped) > 62 or sit.flips > 62:
        raise UsageError("the situation is too large to look for in games (at most 254 Cash, 62 cards or flips)")
    from strategies.chance import PolicyError, parse_policy

    try:
        parse_policy(policy)
    except PolicyError as e:
        raise UsageError(str(e)) from None
    from sim.chance.advise import advise, render_advice

    result = advise(sit, objective, beat, games, players, policy, seed, bankrupt is not None, rules, threads)
    if as_json:
        emit("chance advise", game_meta(get("chance"), rules, games=games, seed=seed, players=players,
                                        policies=[policy]), result)
    else:
        print(render_advice(result) if not rule else with_rules_line(render_advice(result), get("chance"), rules), end="")


def _precision(precision: float, max_rollouts: int) -> float:
    if not 0.05 <= precision <= 50:
        raise UsageError(f"--precision must be between 0.05 and 50 points (got {precision})")
    if not 100 <= max_rollouts <= 10_000_000:
        raise UsageError(f"--games (rollouts per choice) must be between 100 and 10,000,000 with --position "
                         f"(got {max_rollouts})")
    return precision / 100


def _advise_position(path: Path, precision: float, max_rollouts: int, seed: int, rule, threads, as_json: bool) -> None:
    from sim.chance import position as positions
    from sim.chance.advise import advise_position, render_position_advice
    from sim.chance.game import GAME
    from sim.core.runner import check_run_args

    share = _precision(precision, max_rollouts)
    check_run_args(1, seed, 1, threads)
    pos = positions.load(path, rule)
    result = advise_position(pos, share, max_rollouts, seed, threads)
    if as_json:
        emit("chance advise", game_meta(GAME, pos.rules, seed=seed, players=pos.players, policies=list(pos.policies),
                                        position=str(path)), result)
    else:
        print(with_rules_line(render_position_advice(result, pos, path), GAME, pos.rules), end="")


def chance_position(
    file: Annotated[Path, typer.Argument(help="Position file (.toml or .json; format in docs/chance.md).")],
    games: Annotated[int, typer.Option("--games", "-n", help="Rollouts: games played on from the position.")] = 20_000,
    seed: Seed = 0,
    rule: RuleFlag = None,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the win chances as JSON.")] = False,
) -> None:
    """Each player's chance to win from a game in progress, by playing it on many times."""
    from sim.chance import position as positions
    from sim.chance.advise import position_odds, render_position_odds
    from sim.chance.game import GAME
    from sim.core.runner import check_run_args

    check_run_args(games, seed, 1, threads)
    pos = positions.load(file, rule)
    result = position_odds(pos, games, seed, threads)
    if as_json:
        emit("chance position", game_meta(GAME, pos.rules, games=games, seed=seed, players=pos.players,
                                          policies=list(pos.policies), position=str(file)), result)
    else:
        print(with_rules_line(render_position_odds(result, pos, file), GAME, pos.rules), end="")


def chance_study(
    out: Annotated[Optional[Path], typer.Option(
        help="Folder for the tables, plots and report.md (new or empty); default results/cash_out-STAMP.")] = None,
    games: Annotated[int, typer.Option(help="Games per tournament cell (split over the focal seats).")] = 24_000,
    map_games: Annotated[int, typer.Option(help="Games per arm of each stop/flip map cell (0: no maps).")] = 8_000,
    rollout_games: Annotated[int, typer.Option(help="Games per player count for the position-aware player (0: none).")] = 12_000,
    players: Annotated[Optional[list[int]], typer.Option(help="Player counts (repeat); default 2, 3 and 4.")] = None,
    seed: Seed = 2026,
    threads: Threads = None,
) -> None:
    """The cash-out study: stopping rules in full games, the stop/flip map, and the
    position-aware player against the turn-optimal rule."""
    from sim.chance.study import MAPS, StudyConfig, run_study

    if games < 1 or map_games < 0 or rollout_games < 0:
        raise UsageError("--games must be at least 1, --map-games and --rollout-games 0 or more")
    for n in players or []:
        if not 2 <= n <= 4:
            raise UsageError(f"--players must be 2 to 4 for Monopoly Chance (got {n})")
    from sim.core.runner import check_run_args

    check_run_args(games, seed, 1, threads)
    from sim.core import results
    from sim.core.runs import utc_now

    out = out or Path("results") / f"cash_out-{utc_now().replace(':', '').replace('-', '')[:15]}"
    results.check_new_dir(out)
    cfg = StudyConfig(games=games, map_games=max(map_games, 1), players=tuple(players or (2, 3, 4)), seed=seed,
                      threads=threads, maps=tuple(MAPS) if map_games > 0 else (), rollout_games=rollout_games)
    res = run_study(cfg, out, progress=lambda msg: print(msg, file=sys.stderr))
    print(f"Wrote {out}/ (report.md, tournament.csv, stop_flip_map.csv, plots) in {res['seconds'] / 60:.1f} min")
