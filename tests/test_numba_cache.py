"""The numba cache folder is keyed on the kernel sources, and only on them."""

import shutil
from pathlib import Path

import numba

import sim
from sim import kernel_sources_digest

ROOT = Path(sim.__file__).resolve().parent.parent


def test_cache_folder_is_named_by_the_kernel_digest():
    assert Path(numba.config.CACHE_DIR).name == kernel_sources_digest(ROOT)
    assert Path(numba.config.CACHE_DIR).is_absolute()


def test_digest_follows_kernel_and_policy_files_but_not_the_cli(tmp_path):
    for package in ("sim", "strategies"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    before = kernel_sources_digest(tmp_path)
    cli = tmp_path / "sim" / "cli.py"
    cli.write_text(cli.read_text() + "\n# a comment\n")
    assert kernel_sources_digest(tmp_path) == before
    policy = tmp_path / "strategies" / "chance.py"
    policy.write_text(policy.read_text() + "\n# a comment\n")
    assert kernel_sources_digest(tmp_path) != before
