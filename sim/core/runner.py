"""Run a game's batch kernel over many games, in chunks, with a progress bar.

Chunks pace the progress bar: game g is seeded from (seed, g), so the tables are identical for
any chunk size and any thread count. The kernels write each chunk straight into output arrays
allocated once for the whole run, so no chunk is copied afterwards.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator

import numba
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

DEFAULT_CHUNK = 100_000
MAX_SEED = 2**64 - 1

# What the running command has kept so far: the one line an interrupt (exit 130) or a full disk
# (exit 1) ends with, in sim.cli.main. Commands that keep work as they go say so (keeping).
NOTHING_KEPT = "nothing was kept"
_kept = [NOTHING_KEPT]


def keeping(note: str) -> None:
    """Say what an interrupt or a failure from now on leaves behind, and how to go on."""
    _kept[0] = note


def kept() -> str:
    return _kept[0]


class UsageError(ValueError):
    """Bad input from a user: reported as one line, exit code 2."""


MAX_INPUT_BYTES = 4 * 1024 * 1024  # a spec, position or bot file; larger is surely not one


def read_input(path, what: str) -> bytes:
    """The bytes of a file the user names (a spec, a position, a bot file): a regular file of at
    most MAX_INPUT_BYTES, so that a FIFO, a device or a huge file is refused at once rather
    than waited on or read into memory. UsageError names `what` and the path."""
    import os
    import stat
    from pathlib import Path

    path = Path(path)
    try:
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK)) as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise UsageError(f"{what} {path}: not a regular file")
            if info.st_size > MAX_INPUT_BYTES:
                raise UsageError(f"{what} {path}: {info.st_size:,} bytes is too large (at most "
                                 f"{MAX_INPUT_BYTES:,})")
            data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as e:
        raise UsageError(f"{what} {path}: cannot read it ({e.strerror or e})") from None
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"{what} {path}: too large (at most {MAX_INPUT_BYTES:,} bytes)")
    return data


def read_document(path, what: str) -> dict:
    """A TOML file (or JSON, by its suffix) as plain data; any problem is a UsageError that
    names `what` and the path."""
    import json
    import tomllib
    from pathlib import Path

    path = Path(path)
    try:
        text = read_input(path, what).decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{what} {path}: not UTF-8 text") from None
    is_json = path.suffix.lower() == ".json"
    try:
        return json.loads(text) if is_json else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as e:
        raise UsageError(f"{what} {path}: not valid {'JSON' if is_json else 'TOML'}: {str(e).splitlines()[0]}") from None
    except RecursionError:
        raise UsageError(f"{what} {path}: nested too deeply to be a {what}") from None


MAX_GAMES = 2**62  # game indices stay exact int64 seeds for the kernels (and replays) below this


def check_run_args(n_games: int, seed: int, chunk_size: int, threads: int | None) -> None:
    if n_games < 1:
        raise UsageError(f"--games must be at least 1 (got {n_games})")
    if n_games > MAX_GAMES:
        raise UsageError(f"--games must be at most 2**62 (got {n_games:,})")
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed must be between 0 and 2**64 - 1 (got {seed})")
    if chunk_size < 1:
        raise UsageError(f"--chunk-size must be at least 1 (got {chunk_size})")
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise UsageError(
            f"--threads must be between 1 and {numba.config.NUMBA_NUM_THREADS} (got {threads})"
        )


def memory_bytes() -> int:
    """The machine's physical memory in bytes (0 where the system does not say)."""
    import os

    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 0


def check_in_memory(n_games: int, bytes_per_game: int) -> None:
    """Refuse, before any game, a command that would hold more games in memory than half the
    machine's memory: it would end in MemoryError after a long wait, or swap."""
    total = memory_bytes()
    if total and n_games * bytes_per_game > total // 2:
        most = total // 2 // bytes_per_game
        raise UsageError(f"--games {n_games:,} is more than this command can hold in memory here (at most {most:,}: "
                         f"{bytes_per_game} bytes a game, half of {total / 2**30:.0f} GiB); simulate --out and run "
                         "specs stream any number of games")


@contextlib.contextmanager
def thread_count(threads: int | None) -> Iterator[None]:
    """Run the enclosed block with numba using `threads` threads (all when None)."""
    if threads is None:
        yield
        return
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(before)


PROGRESS_SECONDS = 0.25  # with a progress bar, games are played in slices of about this long


def run_chunks(
    play_chunk: Callable[[int, int, Callable[[int], None]], None],
    n_games: int,
    chunk_size: int = DEFAULT_CHUNK,
    threads: int | None = None,
    progress: bool = False,
    label: str = "games",
) -> None:
    """Call ``play_chunk(first, n, advance)`` over consecutive chunks of the games 0 .. n_games
    - 1; a chunk calls advance(k) as it plays k more games (see ``play_in_slices``)."""
    bar = progress_bar(progress)
    with thread_count(threads), bar:
        task = bar.add_task(label, total=n_games)
        for first in range(0, n_games, chunk_size):
            n = min(chunk_size, n_games - first)
            play_chunk(first, n, (lambda k: bar.advance(task, k)) if progress else None)


def play_in_slices(play: Callable[[int, int], None], n: int, advance: Callable[[int], None] | None) -> None:
    """play(offset, k) over slices of 0 .. n - 1 and advance(k) after each: the whole range at
    once without a progress bar (advance None); with one, slices of about PROGRESS_SECONDS, so
    the bar moves several times a second whatever the chunk size. Game g is seeded from (seed,
    g) alone, so the slicing never changes a result."""
    if advance is None:
        play(0, n)
        return
    done, size = 0, min(n, 256)
    while done < n:
        k = min(size, n - done)
        start = time.perf_counter()
        play(done, k)
        seconds = time.perf_counter() - start
        done += k
        advance(k)
        size = max(256, int(k * PROGRESS_SECONDS / max(seconds, 1e-6)))


class _Quiet:
    """Stands in for the progress bar when it is off."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def add_task(self, *args, **kwargs):
        return 0

    def advance(self, *args, **kwargs):
        pass

    def update(self, *args, **kwargs):
        pass


class _RateColumn(ProgressColumn):
    def render(self, task):
        return Text(f"{task.speed:,.0f} games/s" if task.speed else "")


def progress_bar(enabled: bool):
    """A rich progress bar on stderr (games done, rate, time left), or a silent stand-in. Shown on
    a terminal only: elsewhere (a log file, a pipe) it would leave a blank line behind."""
    if not enabled:
        return _Quiet()
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        transient=True,
        disable=not sys.stderr.isatty(),
    )
