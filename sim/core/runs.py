"""Run an experiment plan in chunks, into a resumable results folder, locally or on Dask.

Layout of a run folder (docs/experiments.md):

    results/NAME/RUN-ID/spec.toml, resolved.json, manifest.json
    results/NAME/RUN-ID/games/cell=003/chunk-00012.parquet

A chunk is games [k * chunk_size, (k + 1) * chunk_size) of one cell. Game g is seeded from
(seed, g) alone, so a chunk can be played anywhere, in any order, any number of times, and
always gives the same rows. A chunk file is written to a temporary name and renamed, so a
chunk is either on disk whole or not at all; resuming plays only the missing chunks.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import re
import tempfile
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core import results
from sim.core.experiment import OUTPUT_DEFAULTS, RUN_DEFAULTS, Plan, load_spec
from sim.core.game import get as get_game
from sim.core.runner import UsageError, progress_bar, read_input
from sim.core.stats import wilson

CHUNK_RE = re.compile(r"^chunk-(\d{5,})\.parquet$")  # five digits or more: chunk 100000 and on


def utc_now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def write_atomic(path: Path, write) -> None:
    """Call write(tmp) on a temporary file beside `path`, then rename it over `path`."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        os.chmod(tmp, results.usual_mode(0o666))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def same_cells(a: dict, b: dict) -> bool:
    """Two resolved plans describe the same games (compared as JSON, the form stored on disk)."""
    return json.dumps(a, sort_keys=True) == json.dumps(json.loads(json.dumps(b)), sort_keys=True)


class RunDir:
    """One run folder: its header files, its chunk files, its manifest."""

    def __init__(self, path: Path):
        self.path = Path(path)

    def cell_dir(self, cell: int) -> Path:
        return self.path / "games" / f"cell={cell:03d}"

    def chunk_path(self, cell: int, k: int) -> Path:
        return self.cell_dir(cell) / f"chunk-{k:05d}.parquet"

    def stored(self, cell: int) -> list[int]:
        d = self.cell_dir(cell)
        if not d.is_dir():
            return []
        found = ((int(m.group(1)), p.name) for p in d.iterdir() if (m := CHUNK_RE.match(p.name)))
        return sorted(k for k, name in found if name == self.chunk_path(cell, k).name)  # only names it makes

    def write_chunk(self, cell: int, k: int, df: pd.DataFrame) -> None:
        self.cell_dir(cell).mkdir(parents=True, exist_ok=True)
        write_atomic(self.chunk_path(cell, k), lambda p: df.to_parquet(p, index=False, compression="zstd"))

    def read_cell(self, cell: int, columns=None) -> pd.DataFrame:
        parts = [self.read_chunk(cell, k, columns) for k in self.stored(cell)]
        return pd.concat(parts, ignore_index=True)

    def read_chunk(self, cell: int, k: int, columns=None) -> pd.DataFrame:
        """Chunk k of a cell (only `columns`, if given); a file that is not what monosim wrote
        there (unreadable, or without the columns every games table has) is a UsageError."""
        path = self.chunk_path(cell, k)
        try:
            df = pd.read_parquet(path, columns=columns)
        except (OSError, ValueError) as e:  # pyarrow's errors for a damaged file are both kinds
            raise UsageError(f"{path}: cannot read it ({type(e).__name__}); the run folder is damaged "
                             "(delete the file and --resume to play that chunk again)") from None
        if columns is None:
            missing = self.expected_columns(cell) - set(df.columns)
            if missing:
                raise UsageError(f"{path}: no column {', '.join(sorted(missing)[:3])}: not a games table monosim "
                                 "wrote; the run folder is damaged (delete the file and --resume to play that "
                                 "chunk again)")
        return df

    def expected_columns(self, cell: int) -> set[str]:
        """Columns every games table of the cell has: game, seed, winner, length, each seat's win
        (none known in a tuning's folder, which keeps its plan elsewhere)."""
        if not (self.path / "resolved.json").is_file():
            return set()
        if not hasattr(self, "_expected"):
            plan = self.plan()
            players = {c["id"]: c["players"] for c in plan.cells}
            g = plan.game
            self._expected = {i: {"seed", "game", "winner", *g.experiment.length_cols, *(f"win_{s}" for s in range(n))}
                              for i, n in players.items()}
        return self._expected.get(cell, set())

    def read_json(self, name: str) -> dict:
        try:
            data = json.loads((self.path / name).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise UsageError(f"{self.path / name}: cannot read it ({type(e).__name__}); the run folder is "
                             "damaged") from None
        if not isinstance(data, dict):
            raise UsageError(f"{self.path / name}: not what monosim writes there; the run folder is damaged")
        return data

    def manifest(self) -> dict:
        return self.read_json("manifest.json")

    def write_manifest(self, m: dict) -> None:
        write_atomic(self.path / "manifest.json", results.write_json(m))

    def resolved(self) -> dict:
        return self.read_json("resolved.json")

    def check_bot_files(self) -> None:
        """Refuse, before any of them runs, a bot file that is not the one the run recorded."""
        from sim.core.userbot import check_unchanged

        recorded = self.resolved().get("bot_files", {})
        if not isinstance(recorded, dict):
            raise UsageError(f"{self.path / 'resolved.json'}: not what monosim writes there; the run folder is damaged")
        check_unchanged(recorded, f"the run {self.path}")

    def plan(self) -> Plan:
        """The plan stored with the run (cells exactly as they were resolved at the start)."""
        r = self.resolved()
        try:
            spec = r["spec"]
            # Keys added to the format after the run was made take their defaults.
            spec["run"] = {**RUN_DEFAULTS, **spec["run"]}
            spec["outputs"] = {**OUTPUT_DEFAULTS, **spec["outputs"]}
            plan = Plan(spec=spec, cells=r["cells"], source=(self.path / "spec.toml").read_text(encoding="utf-8"))
            get_game(plan.spec["game"])
            if not isinstance(plan.cells, list) or not plan.cells:
                raise ValueError("no cells")
            for c in plan.cells:
                if not {"id", "players", "seats", "rules"} <= c.keys():
                    raise KeyError("a cell without id, players, seats or rules")
                if not (type(c["id"]) is int and type(c["players"]) is int and isinstance(c["seats"], list)
                        and isinstance(c["rules"], dict)):
                    raise TypeError("a cell's id, players, seats or rules of the wrong kind")
            for key in ("seed", "games", "chunk_size"):
                value = spec["seed"] if key == "seed" else spec["run"][key]
                if type(value) is not int or value < 0:
                    raise TypeError(f"{key} {value!r} is not a whole number")
            return plan
        except (KeyError, TypeError, AttributeError, OSError, ValueError) as e:
            if isinstance(e, UsageError):
                raise
            raise UsageError(f"{self.path}: resolved.json or spec.toml is not what monosim writes "
                             f"({type(e).__name__}: {e}); the run folder is damaged") from None


def is_run_dir(path: Path) -> bool:
    return (Path(path) / "resolved.json").is_file() and (Path(path) / "manifest.json").is_file()


def create(plan: Plan, out_root: Path) -> RunDir:
    """A new run folder with the spec, the resolved plan and a 'running' manifest."""
    parent = Path(out_root) / plan.name
    parent.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    run_id, n = stamp, 1
    while (parent / run_id).exists():
        n += 1
        run_id = f"{stamp}-{n}"
    game = plan.game
    m = results.manifest(
        name=plan.name,
        run_id=run_id,
        game=game.name,
        rules_version=game.rules.version,
        seed=plan.spec["seed"],
        cells=len(plan.cells),
        common_random_numbers=True,
        status="running",
        started=utc_now(),
        finished=None,
        resumed=[],
    )
    # The header appears complete or not at all: built aside, then renamed into place.
    return RunDir(
        results.write_dir(
            parent / run_id,
            {
                "spec.toml": results.write_text(plan.source),
                "resolved.json": results.write_json(plan.resolved()),
                "manifest.json": results.write_json(m),
            },
        )
    )


def latest_unfinished(out_root: Path, name: str) -> RunDir | None:
    """The latest run of the spec called `name` under out_root that is not complete, if any."""
    parent = Path(out_root) / name
    runs = sorted((p for p in parent.iterdir() if is_run_dir(p)), reverse=True) if parent.is_dir() else []
    return next((RunDir(p) for p in runs if RunDir(p).manifest().get("status") != "complete"), None)


def find_unfinished(plan: Plan, out_root: Path) -> RunDir:
    """The latest run of this spec that is not complete (for --resume)."""
    run = latest_unfinished(out_root, plan.name)
    if run is None:
        raise UsageError(f"--resume: no unfinished run of {plan.name!r} under {Path(out_root) / plan.name}; run "
                         "without --resume")
    run.check_bot_files()
    if not same_cells(run.resolved(), plan.resolved()):
        raise UsageError(f"--resume: the spec has changed since {run.path} was started; run it without --resume "
                         "to start a new run")
    return run


def spec_name(path: Path):
    """The `name` of a spec file, read without checking the rest (None if it cannot be read)."""
    import tomllib

    try:
        return tomllib.loads(read_input(path, "spec").decode("utf-8")).get("name")
    except (UsageError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return None


def open_for_resume(path: Path) -> RunDir:
    run = RunDir(path)
    if not is_run_dir(path):
        raise UsageError(f"{path} is not a run folder (no resolved.json / manifest.json)")
    if run.manifest().get("status") == "complete":
        raise UsageError(f"{path} is already complete; `monosim report {path}` re-renders its report")
    run.check_bot_files()
    return run


# ---- where the work runs ---------------------------------------------------------------------


def play_chunk(game: str, cell: dict, seed: int, first: int, n: int, threads: int | None) -> pd.DataFrame:
    """One chunk of one cell; a plain top-level function so Dask can ship it to a worker."""
    return get_game(game).play(cell, seed, first, n, threads)


class _Done:
    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value


class LocalPool:
    """In-process, one chunk at a time (numba's threads share out each chunk)."""

    capacity = 1
    description = "in process"

    def submit(self, fn, *args):
        return _Done(fn(*args))

    def wait_one(self, pending):
        return next(iter(pending))

    def close(self):
        pass


class DaskPool:
    """Chunks as dask.distributed tasks, on a new LocalCluster or a running scheduler."""

    def __init__(self, workers: int | None = None, scheduler: str | None = None):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:  # pragma: no cover - dask is a declared dependency
            raise UsageError("--workers / --scheduler need dask[distributed]: pip install 'dask[distributed]'") from None
        self.cluster = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout="10s")
            except (OSError, ValueError, TypeError) as e:  # unreachable, or not an address at all
                raise UsageError(f"--scheduler: cannot reach {scheduler}: {e}") from None
            self.description = f"Dask scheduler {scheduler}"
        else:
            self.cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            )
            self.client = Client(self.cluster)
            self.description = f"Dask LocalCluster, {workers} workers"
        # Keep every worker busy with one chunk queued behind the running one.
        self.capacity = 2 * max(1, sum(self.client.nthreads().values()))

    def submit(self, fn, *args):
        return self.client.submit(fn, *args, pure=False)

    def wait_one(self, pending):
        from dask.distributed import wait

        done, _ = wait(list(pending), return_when="FIRST_COMPLETED")
        return next(iter(done))

    def close(self):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


# ---- playing the chunks ----------------------------------------------------------------------


def key_win(df: pd.DataFrame, key_seats: list[int]) -> np.ndarray:
    """Per game, the key win indicator: the mean win share of the key seats."""
    return df[[f"win_{s}" for s in key_seats]].to_numpy(float).mean(axis=1)


def unfinished(df: pd.DataFrame, cols) -> np.ndarray:
    """Per game, whether it never ended properly: any of its unfinished flags `cols` set (a
    game's unfinished_cols; all False without any)."""
    return (df[list(cols)].to_numpy() > 0).any(axis=1) if len(cols) else np.zeros(len(df), bool)


@dataclass
class CellProgress:
    """Completed chunks of one cell and where it stops. The stop is decided only from the
    completed prefix of chunks 0, 1, 2, ..., so it is the same whatever order chunks finish in."""

    n_chunks: int
    precision: float | None
    done: dict[int, tuple[float, int]] = field(default_factory=dict)  # chunk -> (key wins, games)
    prefix: int = -1  # chunks 0..prefix are all done
    wins: float = 0.0
    games: int = 0
    stop: int | None = None  # last chunk of the cell once known

    def advance(self) -> None:
        while self.stop is None and self.prefix + 1 in self.done:
            self.prefix += 1
            w, n = self.done[self.prefix]
            self.wins += w
            self.games += n
            if self.prefix == self.n_chunks - 1 or (
                self.precision is not None and interval_width(self.wins, self.games) < self.precision
            ):
                self.stop = self.prefix

    @property
    def complete(self) -> bool:
        return self.stop is not None

    def wanted(self, k: int) -> bool:
        return k not in self.done and (self.stop is None or k <= self.stop)


def interval_width(wins: float, games: int) -> float:
    low, high = wilson(wins, games)
    return float(high - low)


def chunk_span(spec: dict, k: int) -> tuple[int, int]:
    size, games = spec["run"]["chunk_size"], spec["run"]["games"]
    return k * size, min(size, games - k * size)


def execute(plan: Plan, run: RunDir, pool, threads: int | None = None, progress: bool = True) -> None:
    """Play every missing chunk of every cell; chunk-major order, so partial runs are balanced."""
    spec = plan.spec
    n_chunks = math.ceil(spec["run"]["games"] / spec["run"]["chunk_size"])
    cells = [CellProgress(n_chunks, spec["run"]["precision"]) for _ in plan.cells]
    for cell, state in zip(plan.cells, cells):
        for k in run.stored(cell["id"]):
            df = run.read_chunk(cell["id"], k, columns=[f"win_{s}" for s in cell["key_seats"]])
            state.done[k] = (float(key_win(df, cell["key_seats"]).sum()), len(df))
        _settle(run, cell["id"], state)

    def planned(state: CellProgress) -> int:
        last = state.stop if state.stop is not None else n_chunks - 1
        return sum(chunk_span(spec, k)[1] for k in range(last + 1))

    todo = deque((c, k) for k in range(n_chunks) for c in range(len(plan.cells)))
    pending: dict = {}
    bar = progress_bar(progress)
    with bar:
        task = bar.add_task(
            f"{plan.name}: {len(plan.cells)} cells",
            total=sum(planned(s) for s in cells),
            completed=sum(n for s in cells for k, (_, n) in s.done.items() if s.stop is None or k <= s.stop),
        )
        while True:
            while len(pending) < pool.capacity and todo:
                c, k = todo.popleft()
                if cells[c].wanted(k):
                    first, n = chunk_span(spec, k)
                    future = pool.submit(play_chunk, spec["game"], plan.cells[c], spec["seed"], first, n, threads)
                    pending[future] = (c, k)
            if not pending:
                break
            future = pool.wait_one(pending)
            c, k = pending.pop(future)
            df = future.result()
            state = cells[c]
            if not state.wanted(k):  # played ahead of a stop that is now known
                continue
            run.write_chunk(plan.cells[c]["id"], k, df)
            state.done[k] = (float(key_win(df, plan.cells[c]["key_seats"]).sum()), len(df))
            bar.advance(task, len(df))
            if _settle(run, plan.cells[c]["id"], state):
                bar.update(task, total=sum(planned(s) for s in cells))


def _settle(run: RunDir, cell: int, state: CellProgress) -> bool:
    """Advance the cell's stop; delete chunks beyond it (played ahead, or before a kill).
    True when the cell has just completed."""
    was = state.complete
    state.advance()
    if state.complete:
        for k in run.stored(cell):
            if k > state.stop:
                run.chunk_path(cell, k).unlink()
                state.done.pop(k, None)
    return state.complete and not was


def check_complete(plan: Plan, run: RunDir) -> None:
    """Every cell holds chunks 0..stop with no gap (a guard before the tables are summarized)."""
    for cell in plan.cells:
        ks = run.stored(cell["id"])
        if not ks or ks != list(range(len(ks))):
            raise RuntimeError(f"{run.path}: cell {cell['id']} has chunks {ks}, not a complete prefix")


def remove_stray_temp_files(run: RunDir) -> None:
    """Temporary chunk files left by a killed process (never renamed, so never counted)."""
    games = run.path / "games"
    if games.is_dir():
        for p in games.glob("cell=*/.*.tmp"):
            p.unlink(missing_ok=True)


def plan_for(spec_or_run: Path, resume: bool, out_root: Path,
             overrides: list[str] | None = None) -> tuple[Plan, RunDir | None]:
    """The plan to run (the spec with its --set overrides) and, for --resume, the run folder to
    complete. A run folder given as the argument is resumed from its own stored plan."""
    path = Path(spec_or_run)
    if path.is_dir():
        if not resume:
            raise UsageError(f"{path} is a folder; give a spec file, or add --resume to complete that run")
        if overrides:
            raise UsageError("--set changes a spec; a run folder is resumed as it was started")
        run = open_for_resume(path)
        return run.plan(), run
    if resume:  # the bot files the unfinished run recorded are checked before the spec runs any
        name = spec_name(path)
        run = latest_unfinished(out_root, name) if isinstance(name, str) and name else None
        if run is not None:
            run.check_bot_files()
    plan = load_spec(path, overrides)
    return plan, (find_unfinished(plan, out_root) if resume else None)
