"""Resume: a run killed at a random chunk (SIGKILL) or interrupted (Ctrl-C) and completed with
--resume ends with exactly the tables of an uninterrupted run."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from sim.cli import main
from sim.core import runs

SPEC = """
name = "r"
game = "chance"
seed = 5
players = 4
[sweep]
"seat.0" = ["smart", "max_flip"]
[run]
games = 12000
chunk_size = 1000
"""
TOTAL_CHUNKS = 24


def default_sigint():
    """Ctrl-C's default in the run's process: a shell without job control starts background
    commands with SIGINT ignored, and Python keeps an ignored SIGINT ignored, so a test run
    started that way would see the run finish instead of stopping."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def tables(run: Path) -> dict[str, pd.DataFrame]:
    out = {p.relative_to(run).as_posix(): pd.read_parquet(p) for p in sorted(run.glob("games/*/*.parquet"))}
    for name in ("summary.csv", "seats.csv", "pairs.csv", "usage.csv"):
        out[name] = pd.read_csv(run / name)
    return out


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, pd.DataFrame]:
    tmp = tmp_path_factory.mktemp("ref")
    (tmp / "spec.toml").write_text(SPEC)
    main(["run", str(tmp / "spec.toml"), "--out-root", str(tmp / "res"), "--no-progress"])
    (run,) = (tmp / "res" / "r").iterdir()
    return tables(run)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_run_resumes_to_identical_tables(tmp_path, reference, sig):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    root = tmp_path / "res"
    stop_after = random.Random(os.urandom(8)).randint(1, TOTAL_CHUNKS - 6)
    cmd = [sys.executable, "-m", "sim", "run", str(spec), "--out-root", str(root), "--no-progress"]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint
    )
    deadline = time.time() + 300
    while len(list(root.glob("r/*/games/*/chunk-*.parquet"))) < stop_after:
        assert proc.poll() is None and time.time() < deadline, "the run ended before it could be interrupted"
        time.sleep(0.005)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    (run,) = (root / "r").iterdir()
    kept = len(list(run.glob("games/*/chunk-*.parquet")))
    assert stop_after <= kept < TOTAL_CHUNKS, f"interrupted after chunk {stop_after}, kept {kept}"
    assert json.loads((run / "manifest.json").read_text())["status"] == "running"
    if sig == signal.SIGINT:
        assert proc.returncode == 130
        assert "--resume" in err.strip().splitlines()[-1]
    else:
        assert proc.returncode == -signal.SIGKILL

    r = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert str(run) in r.stdout
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "complete" and len(manifest["resumed"]) == 1
    got = tables(run)
    assert got.keys() == reference.keys()
    for name, table in reference.items():
        pd.testing.assert_frame_equal(got[name], table, obj=f"{name} (interrupted after chunk {stop_after})")
    assert not list(run.glob("games/*/.*.tmp"))


def test_resume_refuses_a_changed_spec(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    plan = runs.load_spec(spec)
    runs.create(plan, tmp_path / "res")  # started, never played
    spec.write_text(SPEC.replace("seed = 5", "seed = 6"))
    with pytest.raises(SystemExit) as exit_:
        main(["run", str(spec), "--out-root", str(tmp_path / "res"), "--resume"])
    assert exit_.value.code == 2
    assert "the spec has changed since" in capsys.readouterr().err


def test_stored_chunks_are_found_whatever_their_number(tmp_path):
    # chunk names grow past five digits at chunk 100,000 (1e9 games at the default chunk size)
    run = runs.RunDir(tmp_path)
    numbers = [0, 7, 99_999, 100_000, 123_456, 10**7]
    run.cell_dir(2).mkdir(parents=True)
    for k in numbers:
        run.chunk_path(2, k).write_bytes(b"")
    (run.cell_dir(2) / "chunk-0000007.parquet").write_bytes(b"")  # not a name chunk_path makes
    (run.cell_dir(2) / "chunk-12.parquet").write_bytes(b"")
    assert run.stored(2) == numbers
    assert run.chunk_path(2, 123_456).name == "chunk-123456.parquet"
