"""monosim: Monte Carlo strategy simulator for the Monopoly family of games."""

import hashlib
import os
from pathlib import Path

__version__ = "0.1.0"


def _configure_numba_cache() -> None:
    """Key numba's on-disk cache on the source of every kernel and policy.

    numba checks only the file of a cached function for changes, not the files of the
    functions it calls, so a kernel cached before a change to a policy in strategies/ would
    keep running the old policy. Caching under a digest of all the sources rules that out.
    The base folder is NUMBA_CACHE_DIR when set (the Makefile sets it inside the checkout),
    else ~/.cache/monosim/numba.
    """
    import numba

    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in ("sim", "strategies"):
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "monosim", "numba"
    )
    numba.config.CACHE_DIR = os.path.join(os.path.abspath(base), digest.hexdigest()[:16])


_configure_numba_cache()
