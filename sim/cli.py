"""The monosim command line: one command group per registered game (sim/core/game.py), made by
sim/core/cli.py, plus the commands across games: run, tune, report, compare and bench."""

from __future__ import annotations

import errno
import os
import sys
import threading
import traceback
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.core.cli import AsJson, CheckReplay, EventsOut, GameIndex, Longest, Progress, Shortest, Threads, Where, add_game
from sim.core.cli import replay_game
from sim.core.json_output import emit, run_meta
from sim.core.game import GAME_NAMES
from sim.core.game import games as registered_games
from sim.core.runner import UsageError, keeping
from sim.core.userbot import KERNEL_THREAD

SpecSets = Annotated[Optional[list[str]], typer.Option(
    "--set", help="Change a spec entry, KEY=VALUE with KEY a dotted path and VALUE a TOML value "
                  "(run.games=1000, rules.finish_mark=18, sweep.players=[2,3]); repeatable.")]
OVERRULES_SHOWN = 5  # bench --search: the most frequent overrules shown for each decision kind

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Monte Carlo strategy simulator for the Monopoly family of games.",
)
for _game in registered_games():
    add_game(app, _game)


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
    progress: Progress = True,
    overrides: SpecSets = None,
) -> None:
    """Run an experiment spec: every cell of its sweep, under common random numbers."""
    from sim.core import analysis, results, runs
    from sim.core.runner import check_run_args

    if workers is not None and scheduler is not None:
        raise UsageError("give --workers or --scheduler, not both")
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1 (got {workers})")
    check_run_args(1, 0, 1, threads)
    plan, run_dir = runs.plan_for(spec, resume, out_root, overrides)
    results.check_writable(out_root / plan.name if run_dir is None else run_dir.path, "run folder")
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
        keeping(f"finished chunks are kept in {run_dir.path}; complete the run with: monosim run {run_dir.path} "
                "--resume")
        try:
            # A Dask worker runs one chunk per thread, so its chunks take one numba thread each.
            chunk_threads = threads if isinstance(pool, runs.LocalPool) else (threads or 1)
            runs.execute(plan, run_dir, pool, chunk_threads, progress)
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
    keeping(f"every game is kept in {run_dir.path}; complete the run with: monosim run {run_dir.path} --resume")
    report = analysis.finish(plan, run_dir)
    print(report, end="")
    print(f"\nWrote {run_dir.path}/ (report.md, summary.csv, games/, manifest.json)")


@app.command("tune")
def tune(
    spec: Annotated[Path, typer.Argument(help="Tune spec (TOML): game, table, [search], [goals], [race].")],
    out: Annotated[
        Optional[Path], typer.Option(help="Output folder (must not exist); default OUT_ROOT/NAME/tune-STAMP.")
    ] = None,
    out_root: Annotated[Path, typer.Option(help="Default outputs go to OUT_ROOT/NAME/tune-STAMP/.")] = Path("results"),
    resume: Annotated[
        bool, typer.Option(help="Finish an interrupted tune (the given --out, or the latest of this spec).")
    ] = False,
    save_preset: Annotated[
        bool, typer.Option(help="Bot tuning: add the tuned policy to the game's preset file under the spec's preset name.")
    ] = False,
    workers: Annotated[Optional[int], typer.Option(help="Start a local Dask cluster with this many workers.")] = None,
    threads: Threads = None,
    progress: Annotated[bool, typer.Option(help="Progress on stderr.")] = True,
    check: Annotated[bool, typer.Option(help="Check the spec and list the candidates and rungs; play nothing.")] = False,
    overrides: SpecSets = None,
) -> None:
    """Search house-rule or policy parameters for the values that meet a table's goals."""
    from sim.core import results, runs, userbot
    from sim.core import tune as tuner
    from sim.core.runner import check_run_args

    check_run_args(1, 0, 1, threads)
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1 (got {workers})")
    if check:  # the spec's bot files are read, not run
        with userbot.without_running():
            print(tuner.describe_plan(tuner.load(spec, overrides)), end="")
        return
    plan = tuner.load(spec, overrides)
    if save_preset and not plan.spec["preset"]:
        raise UsageError(f"--save-preset: {spec.name} names no preset (add preset = \"NAME\" to a bot tuning spec)")
    if resume:
        out = out if out is not None else tuner.find_partial(plan, out_root)
        if not (tuner.work_dir(out) / "tune.json").is_file():
            raise UsageError(f"--resume: {tuner.work_dir(out)} is not an unfinished tune")
    else:
        out = out if out is not None else tuner.default_out(plan, out_root)
        results.check_new_dir(out)
        results.check_new_dir(tuner.work_dir(out))
    log = tuner.stderr_log  # rung lines always; --no-progress hides only the bar
    race = plan.spec["race"]
    what = (f"{len(plan.candidates)} candidates" if race["proposer"] == "random"
            else f"{race['sample']} candidates to be proposed by NTBEA from {plan.spec['grid']:,}")
    log(f"{plan.spec['name']}: {what}; working in {tuner.work_dir(out)}/")
    pool = runs.DaskPool(workers, None) if workers else runs.LocalPool()
    keeping(f"finished games are kept in {tuner.work_dir(out)}; finish with: monosim tune {spec} --out {out} "
            "--resume")
    try:
        report = tuner.tune(plan, out, pool, threads if workers is None else (threads or 1), progress, resume,
                            save_preset, log)
    finally:
        pool.close()
    print(report, end="")
    print(f"\nWrote {out}/ (report.md, candidates.csv, tradeoff.png, games/, manifest.json)")


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


@app.command("replay")
def replay(
    results_dir: Annotated[Path, typer.Argument(help="A run folder, results/NAME/RUN-ID, or a simulate --out folder.")],
    cell: Annotated[int, typer.Option(help="The cell (see the run's report) the game belongs to.")] = 0,
    game_index: GameIndex = None,
    where: Where = None,
    longest: Longest = False,
    shortest: Shortest = False,
    as_json: AsJson = False,
    out: EventsOut = None,
    check: CheckReplay = True,
) -> None:
    """Replay a game of a stored run (a `monosim run` folder, or a `<game> simulate --out` folder)
    turn by turn, with the run's own settings: --game G, or the first game matching --where, or
    the --longest or --shortest (default: game 0). The replay is checked against the row the run
    stored for that game."""
    from sim.core import runs
    from sim.core.cli import simulate_folder_run
    from sim.core.game import deck_edits_of
    from sim.core.replay import GamePicker

    picker = GamePicker(game_index, where, longest, shortest, "turns")
    if not runs.is_run_dir(results_dir):
        if cell != 0:
            raise UsageError("--cell: a simulate --out folder holds one cell, 0")
        run, games = simulate_folder_run(results_dir)
        if games is None and picker.choosing:
            raise UsageError(f"{results_dir} kept no games table (--keep none): give --game to replay one")

        def feed_table(p) -> None:
            import pyarrow.parquet as pq

            for batch in pq.ParquetFile(games).iter_batches(batch_size=65_536):
                p.add(batch.to_pandas())
                if p.found:
                    return

        replay_game(run, picker, feed_table if games is not None else None, as_json, out, check,
                    run_meta(run, run=str(results_dir)))
        return
    run_dir = runs.RunDir(results_dir)
    plan = run_dir.plan()
    run_dir.check_bot_files()
    cells = {c["id"]: c for c in plan.cells}
    game = plan.game
    if cell not in cells:
        raise UsageError(f"--cell must be one of the run's cells, {min(cells)} to {max(cells)} (got {cell})")
    c = cells[cell]
    chunks = run_dir.stored(cell)
    if not chunks:
        raise UsageError(f"{results_dir}: cell {cell} has no stored games yet")
    seed = plan.spec["seed"]
    run = game.prepare(1, c["players"], c["seats"], game.rules_of(c["rules"]), seed, None, None, deck_edits_of(c))

    def feed(p) -> None:
        for k in chunks:
            p.add(run_dir.read_chunk(cell, k))
            if p.found:
                return

    replay_game(run, picker, feed, as_json, out, check, run_meta(run, run=str(results_dir), cell=cell))


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
        emit("compare", {"a": str(a), "b": str(b)}, table)
    else:
        print(text, end="")


@app.command("bench")
def bench(
    games: Annotated[
        Optional[int], typer.Option("--games", "-n", help="Games a run (default: 1M Chance, 200k Deal and classic, 20k / 100k card game wiki / video).")
    ] = None,
    threads: Threads = None,
    game: Annotated[
        Optional[list[str]], typer.Option(help="Only this game (chance, deal, classic, cardgame); repeatable.")
    ] = None,
    repeat: Annotated[int, typer.Option(help="Timed runs per game; the median run is reported.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the measurements as JSON.")] = False,
    steps: Annotated[Optional[int], typer.Option(
        help="Time the step API instead: this many decisions a game, answered from Python by a random agent, "
             "on one core (the games with decision points).")] = None,
    search: Annotated[Optional[int], typer.Option(
        help="Measure the search player instead: this many games with it in each seat against the game's "
             "strongest bot, paired with the same games between those bots (docs/ladders.md).")] = None,
    rollouts: Annotated[Optional[list[int]], typer.Option(
        help="With --search: the search player's playouts a decision; repeatable (default 64 and 256).")] = None,
    method: Annotated[Optional[list[str]], typer.Option(
        help="With --search: how its playouts race the actions, flat or ismcts; repeatable (default flat).")] = None,
    bots: Annotated[bool, typer.Option(
        "--bots", help="Time a bot file instead: the first compile of a new one that hands every decision to its "
                       "fallback, and its games against the fallback's own (docs/bots.md).")] = False,
) -> None:
    """Games per second for each game (the card game in each edition), 4 players, default bots,
    against the game's target; compile time shown apart. With --steps, decisions per second
    through the step API instead; with --search, the search player's strength and cost; with
    --bots, what a bot file costs."""
    from sim.core import bench as benchmarks
    from sim.core.runner import check_run_args

    chosen = game or list(GAME_NAMES)
    for name in chosen:
        if name not in GAME_NAMES:
            raise UsageError(f"--game {name!r} is not one of {', '.join(GAME_NAMES)}")
    check_run_args(1 if games is None else games, 0, 1, threads)
    if repeat < 1:
        raise UsageError(f"--repeat must be at least 1 (got {repeat})")
    if search is not None:
        from sim.core.search import METHODS

        budgets, methods = rollouts or [64, 256], method or [METHODS[0]]
        if search < 1 or any(not 1 <= r <= 1_000_000 for r in budgets):
            raise UsageError("--search must be at least 1 and --rollouts 1 to 1,000,000")
        if any(m not in METHODS for m in methods):
            raise UsageError(f"--method must be {' or '.join(METHODS)}")
        result = {label: r for name in chosen for m in methods for budget in budgets
                  for label, r in benchmarks.bench_search(name, search, budget, threads, m).items()}
        if as_json:
            emit("bench", {"search": search, "rollouts": budgets, "method": methods, "threads": threads}, result)
            return
        print("| game | players | search over | games | its win rate | gain over its base | decisions searched "
              "| base overruled | decisions/s |")
        print("|---|---:|---|---:|---|---|---:|---:|---:|")
        for label, r in result.items():
            (w, hw), (d, dw) = r["win_rate"], r["gain"]
            print(f"| {label} | {r['players']} | {r['base']} | {r['games']:,} | {w:.1%} ± {hw:.1%} | {d:+.1%} ± {dw:.1%} "
                  f"| {r['decisions_searched']:,} | {r['overruled'] / max(r['decisions_searched'], 1):.1%} "
                  f"| {r['decisions_per_second']:,.1f} on {r['threads']} threads |")
        print("\nWhere the search overruled its base, by decision kind (overruled / searched):\n")
        for label, r in result.items():
            kinds = sorted(r["by_kind"].items(), key=lambda kv: -kv[1][1])
            print(f"- {label}: " + ", ".join(f"{kind} {o:,} / {n:,}" for kind, (n, o) in kinds))
        print(f"\nIts most frequent overrules (the base's action -> the search's, times), {OVERRULES_SHOWN} a kind:\n")
        for label, r in result.items():
            print(f"- {label}:")
            for kind, pairs in r["overrules"].items():
                shown = pairs[:OVERRULES_SHOWN]
                print(f"  - {kind}: " + "; ".join(f"{bot} -> {taken} ({n})" for bot, taken, n in shown))
        return
    if bots:
        result = {label: benchmarks.bench_bots(name, n, threads, repeat, rules) for name in chosen
                  for label, (rules, n, _) in benchmarks.timed_runs(name, games).items()}
        if as_json:
            emit("bench", {"bots": True, "games": games, "threads": threads, "repeat": repeat}, result)
            return
        for label, r in result.items():
            print(f"{label}: a new bot file compiled in {r['compile_seconds']:.1f} s (target "
                  f"{r['compile_target_seconds']:g} s); {r['games']:,} games with it in every seat at "
                  f"{r['bot_games_per_second']:,.0f} games/s, its fallback {r['fallback']} at "
                  f"{r['fallback_games_per_second']:,.0f}: {r['slowdown']:.2f}x the time "
                  f"(target {r['slowdown_target']:g}x)")
        return
    if steps is not None:
        if steps < 1:
            raise UsageError(f"--steps must be at least 1 (got {steps})")
        stepped = [name for name in chosen if benchmarks.get(name).decisions is not None]
        if not stepped:
            raise UsageError(f"none of {', '.join(chosen)} has decision points yet")
        result = {label: benchmarks.bench_steps(name, steps, rules) for name in stepped
                  for label, (rules, _, _) in benchmarks.timed_runs(name).items()}
        if as_json:
            emit("bench", {"steps": steps}, result)
            return
        for label, r in result.items():
            print(f"{label}: {r['decisions']:,} decisions ({r['games']} games) in {r['seconds']:.2f} s = "
                  f"{r['decisions_per_second']:,.0f} decisions/s from Python on one core (first call "
                  f"{r['compile_seconds']:.2f} s); target {r['target_decisions_per_second']:,}: "
                  f"{r['decisions_per_second'] / r['target_decisions_per_second']:.0%} of it")
        return
    for name in chosen:
        for _, n, _ in benchmarks.timed_runs(name, games).values():
            benchmarks.get(name).check_in_memory(n, 4)
    result = {
        label: benchmarks.bench(name, n, threads, repeat, rules) | {"target_games_per_second": target}
        for name in chosen
        for label, (rules, n, target) in benchmarks.timed_runs(name, games).items()
    }
    if as_json:
        emit("bench", {"games": games, "threads": threads, "repeat": repeat}, result)
        return
    for name, r in result.items():
        print(
            f"{name}: {r['games']:,} games of {r['players']} players in {r['seconds']:.2f} s = "
            f"{r['games_per_second']:,.0f} games/s on {r['threads']} threads "
            f"(compile or cache load {r['compile_seconds']:.2f} s; {r['mean_turns']:.0f} turns a game)"
        )
        if repeat > 1:
            speeds = sorted(r["games"] / s for s in r["run_seconds"])
            print(f"  median of {repeat} runs; runs {', '.join(f'{v:,.0f}' for v in speeds)} games/s")
        target = r["target_games_per_second"]
        print(f"  target {target:,} games/s on 2 threads of the 2-core development machine: "
              f"{r['games_per_second'] / target:.0%} of it")


PLAIN_FLAG = "--plain"


def _print_version(asked: bool) -> None:
    if asked:
        from sim import __version__
        from sim.core.results import git_commit

        commit = git_commit()
        print(f"monosim {__version__}" + (f" (git {commit[:12]})" if commit else ""))
        raise typer.Exit(0)


@app.callback()
def options(
    plain: Annotated[bool, typer.Option(
        PLAIN_FLAG, help="Run everything as plain Python, not compiled (NUMBA_DISABLE_JIT=1): slow, for stepping "
                         "through your own bot in a debugger with a handful of games; the same games as compiled.")]
        = False,
    version: Annotated[bool, typer.Option("--version", help="Print monosim's version and exit.", is_eager=True,
                                          callback=_print_version)] = False,
) -> None:
    """Monte Carlo strategy simulator for the Monopoly family of games."""


def main(argv: list[str] | None = None) -> None:
    """Entry point: user mistakes become one line on stderr and exit code 2; an interrupt, one
    line saying what was kept and exit code 130."""
    from sim.core.runner import NOTHING_KEPT, kept

    keeping(NOTHING_KEPT)
    args = sys.argv[1:] if argv is None else list(argv)
    if PLAIN_FLAG in args[:1] and os.environ.get("NUMBA_DISABLE_JIT") != "1":
        # numba reads the switch when it is imported, long before the options: start again with
        # it. Ctrl-C reaches both processes; the child says what it kept, and this one waits.
        import signal
        import subprocess

        env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
        child = subprocess.Popen([sys.executable, "-m", "sim", *args], env=env)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        code = child.wait()
        sys.exit(128 - code if code < 0 else code)  # killed by signal N: 128 + N, as a shell says
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        import warnings

        # The random number generator relies on 64-bit wrap-around, which numpy reports.
        warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)
    command = typer.main.get_command(app)
    try:
        code = command.main(args=args, prog_name="monosim", standalone_mode=False)
    except typer.Exit as e:
        code = e.exit_code
    except typer.Abort:
        code = 130
    except typer.TyperException as e:  # typer's parsing errors: bad option, bad value
        print(f"monosim: error: {e.format_message()}", file=sys.stderr)
        sys.exit(2)
    except UsageError as e:
        print(f"monosim: error: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        code = 130
    except OSError as e:
        if e.errno != errno.ENOSPC:
            _internal_error(e)
        where = f" while writing {e.filename}" if e.filename else ""
        print(f"monosim: error: the disk is full{where}; {kept()}", file=sys.stderr)
        sys.exit(1)
    except Exception as e:  # a bug, not the user's mistake: one line, the traceback on request
        _internal_error(e)
    if code == 130:  # typer turns Ctrl-C into this code
        print(f"monosim: interrupted; {kept()}", file=sys.stderr)
        sys.stderr.flush()
        if any(t.name == KERNEL_THREAD for t in threading.enumerate()):
            os._exit(130)  # a bot's decision still running in its kernel thread would hold the exit up
    if isinstance(code, int) and code != 0:
        sys.exit(code)


def _internal_error(e: Exception) -> None:
    if os.environ.get("MONOSIM_DEBUG"):
        raise e
    where = traceback.extract_tb(e.__traceback__)[-1]
    first_line = (str(e).splitlines() or [""])[0]
    print(f"monosim: internal error: {type(e).__name__}: {first_line} (at {Path(where.filename).name}:{where.lineno}; "
          "MONOSIM_DEBUG=1 shows the traceback; please report it)", file=sys.stderr)
    sys.exit(1)

