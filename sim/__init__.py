"""monosim: Monte Carlo strategy simulator for the Monopoly family of games."""

import hashlib
import os
from pathlib import Path

__version__ = "0.1.0"


def kernel_sources_digest(root: Path) -> str:
    """Digest of the files compiled kernels depend on: every module with @njit code, and the
    rules and layout modules whose constants the kernels read."""
    digest = hashlib.sha256()
    for package in ("sim", "strategies"):
        for path in sorted((root / package).rglob("*.py")):
            text = path.read_bytes()
            if b"njit" in text or path.name in ("rules.py", "layout.py"):
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(text)
    return digest.hexdigest()[:16]


def _configure_numba_cache() -> None:
    """Key numba's on-disk cache on the kernel sources.

    numba checks only the file of a cached function for changes, not the files of the
    functions it calls, so a kernel cached before a change to a policy in strategies/ would
    keep running the old policy. Caching under a digest of the kernel sources rules that out,
    while edits elsewhere (the CLI, reports) keep the cache.
    The base folder is NUMBA_CACHE_DIR when set (the Makefile sets it inside the checkout),
    else ~/.cache/monosim/numba.
    """
    import numba

    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "monosim", "numba"
    )
    root = Path(__file__).resolve().parent.parent
    numba.config.CACHE_DIR = os.path.join(os.path.abspath(base), kernel_sources_digest(root))


_configure_numba_cache()

# The shared compile options (sim/core/jit.py) hook numba's code generation: load them before
# anything compiles, whichever module is imported first.
import sim.core.jit  # noqa: E402,F401
