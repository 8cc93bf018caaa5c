"""The numba cache folder is keyed on every kernel and policy source file."""

import hashlib
from pathlib import Path

import numba

import sim


def test_cache_folder_is_named_by_a_digest_of_the_sources():
    root = Path(sim.__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in ("sim", "strategies"):
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    assert Path(numba.config.CACHE_DIR).name == digest.hexdigest()[:16]
    assert Path(numba.config.CACHE_DIR).is_absolute()
