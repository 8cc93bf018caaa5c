"""Result folders: tables as Parquet, a manifest, a summary and plots, written atomically.

A run writes into a temporary sibling folder and renames it into place only when every file is
complete, so an interrupted or failed run leaves nothing half-written and never touches an
existing folder.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path

import pandas as pd

from sim.core.runner import UsageError

LIBRARIES = ("monosim", "numpy", "numba", "pandas", "pyarrow", "scipy", "matplotlib", "dask", "distributed")


def check_new_dir(out: Path) -> None:
    """Refuse, before any game runs, an output folder that cannot be written: no name, a symbolic
    link, one that already holds something, a file in its place, or a parent where no folder can
    be made (a file, not writable, a system folder such as /proc): a folder is made there and
    removed again to find out."""
    if Path(out).name in ("", ".", ".."):
        raise UsageError(f"output folder {str(out)!r}: give the folder a name of its own")
    if out.is_symlink():
        raise UsageError(f"output folder {out} is a symbolic link; give the folder itself")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"output folder {out} already exists and is not empty; choose another --out")
    parent = out.absolute().parent
    check_writable(parent, f"output folder {out}")
    existing = parent
    while not existing.exists():
        existing = existing.parent
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".monosim-probe.", dir=existing))
    except OSError as e:
        raise UsageError(f"output folder {out}: cannot make a folder in {existing} ({e.strerror})") from None


def check_writable(folder: Path, what: str) -> None:
    """Refuse a folder that cannot be created and written into: the nearest part of its path
    that exists must be a writable folder."""
    existing = Path(folder).absolute()
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise UsageError(f"{what}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError(f"{what}: {existing} is not writable")


def usual_mode(base: int) -> int:
    """`base` (0o777 for a folder, 0o666 for a file) less the process's umask: the mode mkdir()
    and open() give. Temporary files and folders are made private (0600, 0700); what they become
    should not be."""
    mask = os.umask(0)
    os.umask(mask)
    return base & ~mask


@contextlib.contextmanager
def new_dir(out: Path) -> Iterator[Path]:
    """A temporary folder beside `out` to write into, moved to `out` when the block ends
    without an error, and deleted otherwise."""
    check_new_dir(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    os.chmod(tmp, usual_mode(0o777))
    try:
        yield tmp
        if out.exists():
            out.rmdir()  # empty, checked above
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def write_dir(out: Path, writers: dict[str, Callable[[Path], None]]) -> Path:
    """Call each writer with its path inside a temporary folder, then move the folder to `out`."""
    with new_dir(out) as tmp:
        for name, write in writers.items():
            write(tmp / name)
    return out


class ParquetAppender:
    """A Parquet file written a table at a time (one row group each), so that a run's tables
    never need to be in memory whole. Each table is written on a thread of its own while the
    caller goes on (pyarrow encodes without holding the GIL), at most one at a time."""

    def __init__(self, path: Path):
        self.path, self.writer, self.pending = path, None, None
        self.thread = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    def append(self, table: pd.DataFrame) -> None:
        self.wait()
        self.pending = self.thread.submit(self._write, table)

    def _write(self, table: pd.DataFrame) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        arrow = pa.Table.from_pandas(table, preserve_index=False)
        if self.writer is None:  # zstd's fastest level: faster than snappy here, and smaller files
            self.writer = pq.ParquetWriter(self.path, arrow.schema, compression="zstd", compression_level=1)
        self.writer.write_table(arrow)

    def wait(self) -> None:
        """Until the table being written is written (its error, if any, raised here)."""
        if self.pending is not None:
            self.pending, pending = None, self.pending
            pending.result()

    def close(self) -> None:
        try:
            self.wait()
        finally:
            self.thread.shutdown()
            if self.writer is not None:
                self.writer.close()


def write_json(obj) -> Callable[[Path], None]:
    return lambda path: path.write_text(json.dumps(obj, indent=2, default=str) + "\n")


def write_text(text: str) -> Callable[[Path], None]:
    return lambda path: path.write_text(text)


def versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for lib in LIBRARIES:
        try:
            found[lib] = metadata.version(lib)
        except metadata.PackageNotFoundError:
            found[lib] = "not installed"
    return found


def git_commit() -> str | None:
    """The commit of the checkout the package runs from, when it is one."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def manifest(**fields) -> dict:
    return {
        "created": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join([Path(sys.argv[0]).name] + sys.argv[1:]),
        "versions": versions(),
        "git_commit": git_commit(),
        **fields,
    }
