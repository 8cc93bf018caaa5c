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
deal_app = typer.Typer(no_args_is_help=True, help="Monopoly Deal: simulate, inspect the rules and bots.")
app.add_typer(deal_app, name="deal")

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


@deal_app.command("simulate")
def deal_simulate(
    games: Games = 100_000,
    players: Annotated[int, typer.Option(help="Players at the table, 2 to 5.")] = 4,
    seat: Annotated[
        Optional[list[str]],
        typer.Option(help="Policy of the next seat, e.g. 'smart jsn_stake=5'. Repeat per seat."),
    ] = None,
    rule: Annotated[
        Optional[list[str]],
        typer.Option(help="Rule change KEY=VALUE, e.g. win_on_any_turn=false or deck.just_say_no=5."),
    ] = None,
    seed: Seed = 0,
    out: Annotated[Optional[Path], typer.Option(help="Write tables, manifest, report and plot here.")] = None,
    threads: Threads = None,
    chunk_size: ChunkSize = DEFAULT_CHUNK,
    check: Annotated[bool, typer.Option(help="Check invariants after every play (slower).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    progress: Annotated[bool, typer.Option(help="Progress bar on stderr.")] = True,
) -> None:
    """Play many games between bots and print win rates with 95% intervals."""
    from sim.core import results
    from sim.deal import api
    from sim.deal.rules import DealRules, apply_rule_changes

    rules = apply_rule_changes(DealRules(), rule or [])
    api.make_table(players, seat)  # bad seats fail before anything is written
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
                "actions_by_seat.csv": lambda p: summary["actions"].to_csv(p, index=False),
                "report.md": results.write_text(report),
                "win_rate_by_seat.png": lambda p: api.plot_win_rates(df, p, summary),
                "manifest.json": results.write_json(results.manifest(games=games, **df.attrs)),
            },
        )
    if as_json:
        print(json.dumps(_deal_summary_json(summary), indent=2))
    else:
        print(report, end="")
        if out is not None:
            print(f"\nWrote {out}/ (games.parquet, report.md, win_rate_by_seat.png, manifest.json)")


def _deal_summary_json(summary) -> dict:
    return {
        "by_seat": summary["by_seat"].to_dict(orient="records"),
        "by_policy": summary["by_policy"].to_dict(orient="records"),
        "length": summary["length"].to_dict(orient="index"),
        "ended": summary["ended"]["share"].to_dict(),
        "actions": summary["actions"].to_dict(orient="records"),
    }


@deal_app.command("rules")
def deal_rules(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Show the deck, the colours, the numbers and the house rules, with their defaults."""
    from sim.deal.rules import HOUSE_RULE_DOC, SCALAR_FIELDS, TYPE_NAMES, DealRules, card_spec, describe

    rules = DealRules()
    if as_json:
        print(json.dumps(describe(rules), indent=2))
        return
    print("Colours (set size; rent by cards owned; value of each property card; buildings):")
    for c in rules.colours:
        rents = ", ".join(str(r) for r in c.rents)
        print(f"  {c.name:<11} {c.set_size}  rent {rents:<11} value {c.value}  {'houses' if c.buildable else 'no houses'}")
    print(f"Deck ({sum(rules.deck.values())} cards; name x copies (type, value)); change with deck.NAME=COUNT:")
    for name, count in rules.deck.items():
        t, v, _, _ = card_spec(name)
        print(f"  {name:<26} x{count:<3} ({TYPE_NAMES[t]}, {v}M)")
    print("Numbers:")
    print("  " + ", ".join(f"{k}={getattr(rules, k)}" for k in SCALAR_FIELDS))
    print("House rules (name = default):")
    for name, doc in HOUSE_RULE_DOC.items():
        value = getattr(rules.house, name)
        print(f"  {name} = {str(value).lower() if isinstance(value, bool) else value}: {doc}")


@deal_app.command("policies")
def deal_policies() -> None:
    """List the bot policies and their parameters."""
    from strategies.deal import KINDS, PARAMS, defaults

    for name, (_, _, doc) in KINDS.items():
        d = defaults(name)
        shown = "" if name == "random" else " " + " ".join(f"{k}={d[k]:g}" for k in PARAMS if k != "p_stop")
        if name == "random":
            shown = f" p_stop={d['p_stop']:g}"
        print(f"{name}{shown}\n    {doc}")
    print("Parameters (range): meaning")
    for name, (_, lo, hi, doc) in PARAMS.items():
        print(f"  {name} ([{lo:g}, {hi:g}]): {doc}")


@app.command("bench")
def bench(
    games: Games = 1_000_000,
    threads: Threads = None,
    game: Annotated[Optional[list[str]], typer.Option(help="Only this game (chance, deal); repeatable.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the measurements as JSON.")] = False,
) -> None:
    """Games per second for each game, 4 players, default bots; compile time shown apart."""
    from sim.core.bench import BENCHES
    from sim.core.runner import check_run_args

    chosen = game or list(BENCHES)
    for name in chosen:
        if name not in BENCHES:
            raise UsageError(f"--game {name!r} is not one of {', '.join(BENCHES)}")
    check_run_args(games, 0, 1, threads)
    result = {name: BENCHES[name](games, threads) for name in chosen}
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
