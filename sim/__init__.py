"""monosim: Monte Carlo strategy simulator for the Monopoly family of games."""

import functools
import hashlib
import os
import sys
from pathlib import Path

__version__ = "0.1.0"

ROOT = Path(__file__).resolve().parent.parent
DIGEST_CHARS = 16  # hex characters of a kernel sources digest, the name of its cache folder


@functools.lru_cache(maxsize=None)  # asked twice for each compiled function, by file
def kernel_group(path: str | Path, root: Path = ROOT) -> str | None:
    """Which group of kernel sources a file belongs to: "core" for sim/core, the game for
    sim/<game>/ and strategies/<game>.py, None for anything else."""
    try:
        parts = Path(path).resolve().relative_to(root).parts
    except ValueError:
        return None
    if len(parts) >= 3 and parts[0] == "sim":
        return parts[1]
    if len(parts) == 2 and parts[0] == "strategies" and parts[1].endswith(".py"):
        return parts[1][:-3]
    return None


def kernel_sources_digest(root: Path, group: str | None = None) -> str:
    """Digest of the files a group's compiled kernels depend on (modules with @njit code, and
    the rules and layout modules whose constants kernels read): sim/core's, plus for a game
    sim/<game>/'s and strategies/<game>.py's. Without a group: every such file."""
    if group is None:
        paths = [p for package in ("sim", "strategies") for p in sorted((root / package).rglob("*.py"))]
    else:
        paths = sorted((root / "sim" / "core").rglob("*.py"))
        if group != "core":
            paths += sorted((root / "sim" / group).rglob("*.py")) + [root / "strategies" / f"{group}.py"]
    digest = hashlib.sha256()
    for path in paths:
        if not path.is_file():  # a game without a strategies module
            continue
        text = path.read_bytes()
        if b"njit" in text or path.name in ("rules.py", "layout.py"):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(text)
    return digest.hexdigest()[:DIGEST_CHARS]


def cache_base() -> str:
    """NUMBA_CACHE_DIR when set (the Makefile and the tests set it inside the checkout), else
    ~/.cache/monosim/numba; on plain numba (sim.core.jit.HOOKS_ON false) a folder "plain-numba"
    inside it, since numba's cache would not tell its builds from the hooked ones."""
    from sim.core import jit

    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "monosim", "numba")
    return os.path.abspath(base if jit.HOOKS_ON else os.path.join(base, "plain-numba"))


@functools.lru_cache(maxsize=None)
def kernel_cache_dir(group: str) -> str:
    """Where a group's compiled kernels (and anything built from them) are kept: a folder per
    group and digest, so an edit to one game's sources leaves the other games' caches alone."""
    return os.path.join(cache_base(), group, kernel_sources_digest(ROOT, group))


def _is_digest(name: str) -> bool:
    return len(name) == DIGEST_CHARS and all(c in "0123456789abcdef" for c in name)


def prune_kernel_caches(base: str | Path | None = None, root: Path = ROOT) -> list[Path]:
    """Delete the compiled kernels of sources that have since changed: every `<group>/<digest>`
    folder under `base` (default `cache_base()`, nested ones too, such as the tests'
    boundscheck build) whose digest is not the group's current one, and the bot files' compiled
    decisions of old sources (`bots/<digest>`). Returns what it deleted."""
    import shutil

    base = Path(base or cache_base())
    groups = [p.name for p in (root / "sim").iterdir() if (p / "__init__.py").is_file()]
    current = {g: kernel_sources_digest(root, g) for g in groups}
    current["all"] = current["bots"] = kernel_sources_digest(root)  # bots: sim/core/userbot.py's modules
    stale = [d for g, digest in current.items() for parent in base.rglob(g) if parent.is_dir()
             for d in parent.iterdir() if d.is_dir() and d.name != digest and _is_digest(d.name)]
    # The bots' modules of before 2026-11-28 lay in bots/<game>_<digest>, of any sources.
    stale += [d for d in (base / "bots").glob("*_*") if d.is_dir() and _is_digest(d.name.rpartition("_")[2])]
    for d in stale:
        shutil.rmtree(d, ignore_errors=True)
    return stale


def _configure_numba_cache() -> None:
    """Key numba's on-disk cache on the kernel sources.

    numba checks only the file of a cached function for changes, not the files of the
    functions it calls, so a kernel cached before a change to a policy in strategies/ would
    keep running the old policy. Each function of sim/ and strategies/ is therefore cached under
    a digest of its group's sources (`kernel_cache_dir`), and any other cached function under a
    digest of all of them; edits elsewhere (the CLI, reports) keep the cache. numba has no
    public hook for the first: on plain numba (sim.core.jit) every function takes the folder of
    all sources, which is as correct and recompiles more often.
    """
    import numba

    from sim.core import jit

    numba.config.CACHE_DIR = os.path.join(cache_base(), "all", kernel_sources_digest(ROOT))
    if not jit.HOOKS_ON:
        return

    class GroupCacheLocator(jit.USER_CACHE_LOCATOR):
        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            self._cache_path = os.path.join(
                kernel_cache_dir(kernel_group(py_file)), self.get_suitable_cache_subpath(py_file)
            )

        @classmethod
        def from_function(cls, py_func, py_file):
            if kernel_group(py_file) is None:
                return None
            return super().from_function(py_func, py_file)

    jit.CACHE_IMPL._locator_classes = [GroupCacheLocator, *jit.CACHE_IMPL._locator_classes]


def _check_environment() -> None:
    """numba reads NUMBA_NUM_THREADS when it is imported and fails with a traceback on a bad
    value: say it in one line, with the exit code of a user's mistake (2), before that."""
    threads = os.environ.get("NUMBA_NUM_THREADS")
    if threads is not None and not (threads.strip().isdigit() and int(threads) >= 1):
        print(f"monosim: error: NUMBA_NUM_THREADS must be a whole number of threads, 1 or more (got {threads!r})",
              file=sys.stderr)
        sys.exit(2)


# Said by the monosim command when Ctrl-C comes before any work started.
INTERRUPTED_AT_START = "monosim: interrupted; nothing was kept"


def _is_the_command() -> bool:
    """Whether this process is the monosim command: the console script, or `python -m sim`
    (whose package is imported while sys.argv[0] is still "-m")."""
    first = sys.argv[0] if sys.argv else ""
    return first == "-m" or Path(first).name == "monosim"


# Before anything compiles, whichever module is imported first: the shared compile options
# (sim/core/jit.py hooks numba's code generation), then the cache folders. numba's import takes
# most of a second: a Ctrl-C meanwhile ends the command as any other interrupt does (sim/__main__.py).
try:
    _check_environment()
    _configure_numba_cache()
except KeyboardInterrupt:
    if not _is_the_command():
        raise
    print(INTERRUPTED_AT_START, file=sys.stderr)
    sys.exit(130)
