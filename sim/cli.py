"""The monosim command line: one sub-command group per game, plus bench."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.core.runner import DEFAULT_CHUNK, UsageError

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Monte Carlo strategy simulator for the Monopoly family of games.",
)
chance_app = typer.Typer(no_args_is_help=True, help="Monopoly Chance: simulate, inspect the rules.")
app.add_typer(chance_app, name="chance")
classic_app = typer.Typer(
    no_args_is_help=True,
    help="Classic Monopoly: simulate, rules, policies, landing odds, positions, property values, house rules.",
)
app.add_typer(classic_app, name="classic")

Games = Annotated[int, typer.Option("--games", "-n", help="Number of complete games to play.")]
Seed = Annotated[int, typer.Option(help="Master seed; game g is seeded from (seed, g).")]
Threads = Annotated[Optional[int], typer.Option(help="Threads to use (default: all cores).")]
ChunkSize = Annotated[int, typer.Option(help="Games per chunk (progress and memory only).")]


@chance_app.command("simulate")
def chance_simulate(
    games: Games = 100_000,
    players: Annotated[int, typer.Option(help="Players at the table, 2 to 4.")] = 4,
    seat: Annotated[
        Optional[list[str]],
        typer.Option(help="Policy of the next seat, e.g. 'bust_threshold p=0.3'. Repeat per seat."),
    ] = None,
    rule: Annotated[
        Optional[list[str]],
        typer.Option(help="Rule change KEY=VALUE, e.g. finish_mark=18 or reshuffle_empty_pile=true."),
    ] = None,
    seed: Seed = 0,
    out: Annotated[Optional[Path], typer.Option(help="Write tables, manifest, report and plot here.")] = None,
    threads: Threads = None,
    chunk_size: ChunkSize = DEFAULT_CHUNK,
    check: Annotated[bool, typer.Option(help="Check invariants after every turn (slower).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    progress: Annotated[bool, typer.Option(help="Progress bar on stderr.")] = True,
) -> None:
    """Play many games between bots and print win rates with 95% intervals."""
    from sim.chance import api
    from sim.chance.rules import ChanceRules, apply_rule_changes
    from sim.core import results

    rules = apply_rule_changes(ChanceRules(), rule or [])
    if out is not None:
        results.check_new_dir(out)
    df = api.simulate(
        games, players, seat, rules, seed, threads, chunk_size, check, progress=progress and not as_json
    )
    summary = api.summarize(df)
    report = api.render_report(df, summary)
    if out is not None:
        results.write_dir(
            out,
            {
                "games.parquet": df.to_parquet,
                "seats.parquet": api.seat_table(df).to_parquet,
                "summary_by_seat.csv": lambda p: summary["by_seat"].to_csv(p, index=False),
                "summary_by_policy.csv": lambda p: summary["by_policy"].to_csv(p, index=False),
                "report.md": results.write_text(report),
                "win_rate_by_seat.png": lambda p: api.plot_win_rates(df, p, summary),
                "manifest.json": results.write_json(results.manifest(games=games, **df.attrs)),
            },
        )
    if as_json:
        print(json.dumps(_summary_json(summary), indent=2))
    else:
        print(report, end="")
        if out is not None:
            print(f"\nWrote {out}/ (games.parquet, report.md, win_rate_by_seat.png, manifest.json)")


def _summary_json(summary) -> dict:
    return {
        "by_seat": summary["by_seat"].to_dict(orient="records"),
        "by_policy": summary["by_policy"].to_dict(orient="records"),
        "length": summary["length"].to_dict(orient="index"),
        "flags": summary["flags"]["share"].to_dict(),
    }


@chance_app.command("rules")
def chance_rules(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Show the components and house rules, with their defaults."""
    from sim.chance.rules import CHANCE_EFFECTS_DOC, HOUSE_RULE_DOC, ChanceRules, describe

    rules = ChanceRules()
    if as_json:
        print(json.dumps(describe(rules), indent=2))
        return
    print("Properties (printed value, buildings, building length):")
    for p in rules.properties:
        print(f"  {p.name:<20} {p.colour:<10} value {p.value:>2}  buildings {p.buildings}  length {p.building_length}")
    print(f"Gray buildings: {rules.gray_buildings} of length {rules.gray_length}")
    print(f"Finish mark: {rules.finish_mark}   Die: {', '.join('?' if f == 0 else str(f) for f in rules.die)}")
    print("Token deck: " + ", ".join(f"{n} x{c}" for n, c in rules.deck.items()))
    print("Chance cards:")
    for effect, param in rules.chance_cards:
        print(f"  {effect} ({param}): {CHANCE_EFFECTS_DOC[effect]}")
    print("House rules (name = default):")
    for name, doc in HOUSE_RULE_DOC.items():
        print(f"  {name} = {str(getattr(rules.house, name)).lower()}: {doc}")


@chance_app.command("policies")
def chance_policies() -> None:
    """List the bot policies and their parameters."""
    from strategies.chance import KINDS, TACTICS

    for name, (_, stop, default, lo, hi, doc) in KINDS.items():
        arg = f" {stop}={default:g} (in [{lo:g}, {hi:g}])" if stop else ""
        print(f"{name}{arg}\n    {doc}")
    print("Tactics shared by every policy (key=default):")
    for name, (_, default, lo, hi, doc) in TACTICS.items():
        print(f"  {name}={default:g} (in [{lo:g}, {hi:g}]): {doc}")


# ---- classic Monopoly -------------------------------------------------------------------------

ClassicRule = Annotated[
    Optional[list[str]],
    typer.Option("--rule", help="Rule change KEY=VALUE, e.g. free_parking_jackpot=true or starting_cash=2000."),
]
ClassicSeat = Annotated[
    Optional[list[str]],
    typer.Option("--seat", help="Policy of the next seat, e.g. 'trader reserve=100'. Repeat per seat."),
]


@classic_app.command("simulate")
def classic_simulate(
    games: Games = 100_000,
    players: Annotated[int, typer.Option(help="Players at the table, 2 to 8.")] = 4,
    seat: ClassicSeat = None,
    rule: ClassicRule = None,
    seed: Seed = 0,
    out: Annotated[Optional[Path], typer.Option(help="Write tables, manifest, report and plot here.")] = None,
    threads: Threads = None,
    chunk_size: ChunkSize = 20_000,
    check: Annotated[bool, typer.Option(help="Check invariants after every turn (slower).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    progress: Annotated[bool, typer.Option(help="Progress bar on stderr.")] = True,
) -> None:
    """Play many games between bots and print win rates with 95% intervals."""
    from sim.classic import api
    from sim.classic.rules import ClassicRules, apply_rule_changes
    from sim.core import results

    rules = apply_rule_changes(ClassicRules(), rule or [])
    if out is not None:
        results.check_new_dir(out)
    df = api.simulate(games, players, seat, rules, seed, threads, chunk_size, check,
                      progress=progress and not as_json)
    summary = api.summarize(df)
    report = api.render_report(df, summary)
    if out is not None:
        results.write_dir(
            out,
            {
                "games.parquet": df.to_parquet,
                "seats.parquet": api.seat_table(df).to_parquet,
                "summary_by_seat.csv": lambda p: summary["by_seat"].to_csv(p, index=False),
                "summary_by_policy.csv": lambda p: summary["by_policy"].to_csv(p, index=False),
                "report.md": results.write_text(report),
                "win_rate_by_seat.png": lambda p: api.plot_win_rates(df, p, summary),
                "manifest.json": results.write_json(results.manifest(games=games, **df.attrs)),
            },
        )
    if as_json:
        print(json.dumps(_classic_json(summary), indent=2))
    else:
        print(report, end="")
        if out is not None:
            print(f"\nWrote {out}/ (games.parquet, report.md, win_rate_by_seat.png, manifest.json)")


def _classic_json(summary) -> dict:
    return {
        "by_seat": summary["by_seat"].to_dict(orient="records"),
        "by_policy": summary["by_policy"].to_dict(orient="records"),
        "length": summary["length"].to_dict(orient="index"),
        "flags": summary["flags"]["share"].to_dict(),
        "per_game": summary["means"].to_dict(),
    }


@classic_app.command("rules")
def classic_rules(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Show the board, the cards and the house rules, with their defaults."""
    from sim.classic.rules import HOUSE_RULE_DOC, SCALAR_FIELDS, ClassicRules, describe

    rules = ClassicRules()
    if as_json:
        print(json.dumps(describe(rules), indent=2))
        return
    print("Board (square, name, price, rents base/1-4 houses/hotel, house cost, mortgage):")
    for i, s in enumerate(rules.board):
        extra = ""
        if s.kind == "street":
            extra = f"  ${s.price}  rent {'/'.join(map(str, s.rents))}  house ${s.house_cost}  mortgage ${s.mortgage}"
        elif s.kind in ("railroad", "utility"):
            extra = f"  ${s.price}  mortgage ${s.mortgage}"
        elif s.kind == "tax":
            extra = f"  pay ${s.price}"
        print(f"  {i:>2} {s.name:<22} {s.group or s.kind:<16}{extra}")
    print(f"Railroad rents by number owned: {', '.join(map(str, rules.railroad_rents))}; "
          f"utilities: {' or '.join(f'{m}x' for m in rules.utility_multipliers)} the dice")
    for title, deck in (("Chance", rules.chance), ("Community Chest", rules.chest)):
        print(f"{title} ({len(deck)} cards):")
        for c in deck:
            print(f"  {c.text}  [{c.effect} {c.a} {c.b}]")
    print("Numbers (name = default):")
    for name in SCALAR_FIELDS:
        print(f"  {name} = {getattr(rules, name)}")
    print("House rules (name = default):")
    for name, doc in HOUSE_RULE_DOC.items():
        value = getattr(rules.house, name)
        print(f"  {name} = {str(value).lower() if isinstance(value, bool) else value}: {doc}")


@classic_app.command("policies")
def classic_policies() -> None:
    """List the bot policies and their parameters."""
    from strategies.classic import KINDS, PARAMS, policy_defaults

    for name, (_, _, doc) in KINDS.items():
        d = policy_defaults(name)
        print(f"{name}\n    {doc}\n    " + " ".join(f"{k}={v:g}" for k, v in d.items()))
    print("Parameters (key: range, meaning):")
    for key, (_, lo, hi, doc) in PARAMS.items():
        print(f"  {key}: [{lo:g}, {hi:g}] {doc}")


@classic_app.command("landing")
def classic_landing(
    jail: Annotated[str, typer.Option(help="Jail strategy: short (leave at once) or long (stay while allowed).")] = "short",
    rolls: Annotated[int, typer.Option(help="Rolls to simulate.")] = 10_000_000,
    seed: Seed = 0,
    rule: ClassicRule = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print 41 objects {square, name, simulated, exact}.")] = False,
) -> None:
    """Long-run landing frequency of every square, simulated and exact (Markov chain)."""
    from sim.classic import landing
    from sim.classic.rules import ClassicRules, apply_rule_changes

    if jail not in landing.JAIL_STRATEGIES:
        raise UsageError(f"--jail must be short or long (got {jail!r})")
    if not 1000 <= rolls <= 10**11:
        raise UsageError(f"--rolls must be between 1000 and 10^11 (got {rolls})")
    if not 0 <= seed < 2**64:
        raise UsageError(f"--seed must be between 0 and 2**64 - 1 (got {seed})")
    rules = apply_rule_changes(ClassicRules(), rule or [])
    rows = landing.landing_table(rules, jail, rolls, seed)
    if as_json:
        print(json.dumps([{k: r[k] for k in ("square", "name", "simulated", "exact")} for r in rows], indent=2))
    else:
        print(landing.render_landing(rows, jail, rolls), end="")


@classic_app.command("position")
def classic_position(
    file: Annotated[Path, typer.Argument(help="Position file (.toml or .json).")],
    games: Games = 20_000,
    seat: ClassicSeat = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the estimates as JSON.")] = False,
    progress: Annotated[bool, typer.Option(help="Progress bar on stderr.")] = True,
) -> None:
    """Each player's chance to win from a mid-game position, by playing it out many times."""
    from sim.classic import api, position

    pos = position.load(file)
    if seat:
        if len(seat) > pos.players:
            raise UsageError(f"{len(seat)} --seat policies given for {pos.players} players")
        pos.policies[: len(seat)] = seat
    df = api.simulate(games, pos.players, pos.policies, pos.rules, seed, threads, check=False,
                      progress=progress and not as_json, start=pos.S0)
    table = api.position_odds(df, pos)
    if as_json:
        print(json.dumps(table.to_dict(orient="records"), indent=2))
    else:
        print(api.render_position(table, df, file), end="")


@classic_app.command("values")
def classic_values(
    games: Games = 50_000,
    players: Annotated[Optional[list[int]], typer.Option(help="Player counts (repeat); default 2, 3, 4.")] = None,
    seat: ClassicSeat = None,
    rule: ClassicRule = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    progress: Annotated[bool, typer.Option(help="Progress bar on stderr.")] = True,
) -> None:
    """Property value report: each set's effect on win rate, rent per game and payback time."""
    from sim.classic import api
    from sim.classic.rules import ClassicRules, apply_rule_changes

    rules = apply_rule_changes(ClassicRules(), rule or [])
    result = {}
    for n in players or [2, 3, 4]:
        df = api.simulate(games, n, seat, rules, seed, threads, progress=progress and not as_json, detail=True)
        result[n] = api.property_values(df)
    if as_json:
        print(json.dumps({str(n): t.to_dict(orient="records") for n, t in result.items()}, indent=2))
    else:
        print(api.render_property_values(result), end="")


@classic_app.command("house-rules")
def classic_house_rules(
    games: Games = 20_000,
    players: Annotated[int, typer.Option(help="Players at the table, 2 to 8.")] = 4,
    seat: ClassicSeat = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    progress: Annotated[bool, typer.Option(help="Progress bar on stderr.")] = True,
) -> None:
    """Effect of each house rule on game length, seat advantage and never-ending games (same bot
    in every seat unless --seat is given: default strong)."""
    from sim.classic import api

    t = api.house_rule_effects(games, players, seat, seed, threads, progress=progress and not as_json)
    if as_json:
        print(json.dumps(t.to_dict(orient="records"), indent=2))
    else:
        print(api.render_house_rules(t, games, players), end="")


@app.command("bench")
def bench(
    games: Games = 1_000_000,
    threads: Threads = None,
    game: Annotated[str, typer.Option(help="all, chance or classic.")] = "all",
    classic_games: Annotated[int, typer.Option(help="Classic Monopoly games to time.")] = 200_000,
    as_json: Annotated[bool, typer.Option("--json", help="Print the measurements as JSON.")] = False,
) -> None:
    """Games per second for each game, 4 players, default bots; compile time shown apart."""
    from sim.core.bench import bench_chance, bench_classic

    if game not in ("all", "chance", "classic"):
        raise UsageError(f"--game must be all, chance or classic (got {game!r})")
    result = {}
    if game in ("all", "chance"):
        result["chance"] = bench_chance(games, threads)
    if game in ("all", "classic"):
        result["classic"] = bench_classic(classic_games, threads)
    if as_json:
        print(json.dumps(result, indent=2))
        return
    for game, r in result.items():
        print(
            f"{game}: {r['games']:,} games of {r['players']} players in {r['seconds']:.2f} s = "
            f"{r['games_per_second']:,.0f} games/s on {r['threads']} threads "
            f"(compile or cache load {r['compile_seconds']:.2f} s)"
        )


def main(argv: list[str] | None = None) -> None:
    """Entry point: user mistakes become one line on stderr and exit code 2."""
    command = typer.main.get_command(app)
    try:
        command.main(args=argv, prog_name="monosim", standalone_mode=False)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except typer.Abort:
        print("monosim: interrupted", file=sys.stderr)
        sys.exit(130)
    except typer.TyperException as e:  # typer's parsing errors: bad option, bad value
        print(f"monosim: error: {e.format_message()}", file=sys.stderr)
        sys.exit(2)
    except UsageError as e:
        print(f"monosim: error: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
