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


@app.command("run")
def run(
    spec: Annotated[Path, typer.Argument(help="Experiment spec (TOML), or a run folder to complete with --resume.")],
    resume: Annotated[
        bool, typer.Option(help="Complete the latest unfinished run of this spec (or the run folder given).")
    ] = False,
    out_root: Annotated[Path, typer.Option(help="Runs go to OUT_ROOT/NAME/RUN-ID/.")] = Path("results"),
    workers: Annotated[Optional[int], typer.Option(help="Start a local Dask cluster with this many workers.")] = None,
    scheduler: Annotated[
        Optional[str], typer.Option(help="Send chunks to a running Dask scheduler, e.g. tcp://host:8786.")
    ] = None,
    threads: Threads = None,
    progress: Annotated[bool, typer.Option(help="Progress bar on stderr.")] = True,
) -> None:
    """Run an experiment spec: every cell of its sweep, under common random numbers."""
    from sim.core import analysis, runs
    from sim.core.runner import check_run_args

    if workers is not None and scheduler is not None:
        raise UsageError("give --workers or --scheduler, not both")
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1 (got {workers})")
    check_run_args(1, 0, 1, threads)
    plan, run_dir = runs.plan_for(spec, resume, out_root)
    # Everything is checked and the cluster reached before the run folder is created.
    pool = runs.DaskPool(workers, scheduler) if workers or scheduler else runs.LocalPool()
    try:
        if run_dir is None:
            run_dir = runs.create(plan, out_root)
        else:
            runs.remove_stray_temp_files(run_dir)
            m = run_dir.manifest()
            m["resumed"] = m.get("resumed", []) + [runs.utc_now()]
            run_dir.write_manifest(m)
        print(f"{plan.name}: {len(plan.cells)} cells, {pool.description}; writing {run_dir.path}/", file=sys.stderr)
        try:
            # A Dask worker runs one chunk per thread, so its chunks take one numba thread each.
            chunk_threads = threads if isinstance(pool, runs.LocalPool) else (threads or 1)
            runs.execute(plan, run_dir, pool, chunk_threads, progress)
        except KeyboardInterrupt:
            print(
                f"monosim: interrupted; finished chunks are kept in {run_dir.path}; "
                f"complete the run with: monosim run {spec} --resume",
                file=sys.stderr,
            )
            sys.exit(130)
        except Exception as e:
            if isinstance(pool, runs.LocalPool):
                raise  # a bug in process: keep the traceback
            # A worker or scheduler failed (often a different monosim on the cluster).
            print(
                f"monosim: error: a chunk failed on the cluster: {str(e).splitlines()[0]}; finished chunks "
                f"are kept in {run_dir.path}; complete the run with: monosim run {spec} --resume",
                file=sys.stderr,
            )
            sys.exit(1)
    finally:
        pool.close()
    report = analysis.finish(plan, run_dir)
    print(report, end="")
    print(f"\nWrote {run_dir.path}/ (report.md, summary.csv, games/, manifest.json)")


@app.command("report")
def report(results_dir: Annotated[Path, typer.Argument(help="A run folder, results/NAME/RUN-ID.")]) -> None:
    """Re-render report.md, the summary tables and the plots of a run from its stored games."""
    from sim.core import analysis, runs

    if not runs.is_run_dir(results_dir):
        raise UsageError(f"{results_dir} is not a run folder (no resolved.json / manifest.json)")
    run_dir = runs.RunDir(results_dir)
    if run_dir.manifest().get("status") != "complete":
        raise UsageError(f"{results_dir} is not complete; finish it with `monosim run {results_dir} --resume`")
    print(analysis.write_outputs(run_dir.plan(), run_dir), end="")


@app.command("compare")
def compare(
    a: Annotated[Path, typer.Argument(help="Run folder A.")],
    b: Annotated[Path, typer.Argument(help="Run folder B.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
) -> None:
    """Two runs side by side: matching cells and B - A differences with 95% intervals."""
    from sim.core import analysis

    text, table = analysis.compare(a, b)
    if as_json:
        print(table.to_json(orient="records", indent=2))
    else:
        print(text, end="")


@app.command("bench")
def bench(
    games: Games = 1_000_000,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the measurements as JSON.")] = False,
) -> None:
    """Games per second for each game, 4 players, default bots; compile time shown apart."""
    from sim.core.bench import bench_chance

    result = {"chance": bench_chance(games, threads)}
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
