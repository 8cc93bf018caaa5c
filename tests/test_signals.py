"""Interrupts and faults (issue 39): Ctrl-C ends every command with exit code 130 and one line
saying what was kept; a bot that loops for ever or raises ends cleanly; a full disk is one line.
The interrupt tests run monosim as a real process and send SIGINT to its process group, as a
terminal's Ctrl-C does."""

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_experiment_resume import default_sigint

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "bots"


def interrupted(args: list[str], after: float, cwd=ROOT, once=None) -> tuple[int, str, float]:
    """Start `monosim args`, send SIGINT to its process group after `after` seconds (counted from
    when `once()` is first true, if given): (exit code, stderr, seconds from the signal to the
    exit)."""
    proc = subprocess.Popen([sys.executable, "-m", "sim", *args], cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, preexec_fn=default_sigint)
    deadline = time.time() + 120
    while once is not None and not once() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(after)
    assert proc.poll() is None, proc.stderr.read()
    sent = time.time()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=120)
    finally:  # one that ignored the interrupt must not outlive the test, playing on
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    return proc.returncode, err, time.time() - sent


def warm(*args: str) -> None:
    """Compile (or load) what a command needs first, so that the interrupt lands in its games."""
    done = subprocess.run([sys.executable, "-m", "sim", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("after", [0.2, 0.5])
def test_ctrl_c_while_monosim_loads_exits_130_in_one_line(after):
    """Its imports take about a second (numba's most of it): a Ctrl-C then started nothing."""
    code, err, _ = interrupted(["chance", "simulate", "-n", "1000000000", "--no-progress"], after=after)
    assert code == 130 and err.strip().splitlines() == ["monosim: interrupted; nothing was kept"], err


@pytest.mark.parametrize("out", [False, True])
def test_ctrl_c_during_simulate_exits_130_and_says_what_was_kept(tmp_path, out):
    warm("chance", "simulate", "-n", "10", "--no-progress")
    target = tmp_path / "run"
    code, err, _ = interrupted(["chance", "simulate", "-n", "1000000000", "--no-progress",
                                *(["--out", str(target)] if out else [])], after=3)
    assert code == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("monosim: interrupted; nothing was kept")
    assert not target.exists() and not list(tmp_path.iterdir())


def test_ctrl_c_during_a_ladder_and_a_run_spec(tmp_path):
    warm("deal", "ladder", "--games", "5", "--players", "2")
    code, err, _ = interrupted(["deal", "ladder", "--games", "20000000", "--players", "2"], after=3)
    assert code == 130 and err.strip().endswith("monosim: interrupted; nothing was kept"), err
    spec = tmp_path / "long.toml"
    spec.write_text('name = "long"\ngame = "deal"\nplayers = 2\n[run]\ngames = 100000000\nchunk_size = 2000\n')
    runs = tmp_path / "res" / "long"
    code, err, _ = interrupted(["run", str(spec), "--out-root", str(tmp_path / "res"), "--no-progress"], after=1,
                               once=lambda: runs.is_dir() and any(runs.iterdir()))
    run = next(runs.iterdir())
    assert code == 130 and f"finished chunks are kept in {run}; complete the run with: monosim run {run} --resume" in err


def test_a_bot_decision_that_never_returns_ends_at_the_first_ctrl_c():
    bot = f"{BOTS / 'chance_checks.py'}:Forever"
    warm("chance", "simulate", "-n", "2", "--seat", f"{BOTS / 'chance_checks.py'}:CashTarget", "--no-progress")
    code, err, seconds = interrupted(["chance", "simulate", "-n", "10", "--seat", bot, "--no-progress"], after=4)
    assert code == 130 and "monosim: interrupted; nothing was kept" in err, err
    assert seconds < 10
    code, err, seconds = interrupted(["--plain", "chance", "simulate", "-n", "10", "--seat", bot, "--no-progress"],
                                     after=8)
    assert code == 130 and "monosim: interrupted" in err and seconds < 10, err


def test_a_bot_that_raises_names_its_file_and_decision(monosim):
    r = monosim("chance", "simulate", "-n", "20", "--seat", f"{BOTS / 'chance_checks.py'}:Raises", "--no-progress")
    assert r.returncode == 2, r.stderr
    error = [line for line in r.stderr.splitlines() if line.startswith("monosim: error")]
    assert len(error) == 1 and "chance_checks.py:" in error[0] and "in game 0 of seed 0" in error[0]
    assert "bot Raises, decision flip raised an exception" in error[0]
    plain = subprocess.run([sys.executable, "-m", "sim", "--plain", "chance", "simulate", "-n", "2", "--seat",
                            f"{BOTS / 'chance_checks.py'}:Raises", "--no-progress"], cwd=ROOT, capture_output=True,
                           text=True, timeout=600)
    assert plain.returncode == 2 and "bot Raises, decision flip: ValueError: never" in plain.stderr, plain.stderr


def test_a_full_disk_is_one_line_and_keeps_nothing(monosim, monkeypatch, tmp_path):
    from sim.core import results

    def full(self, df):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(results.ParquetAppender, "append", full)
    out = tmp_path / "run"
    r = monosim("deal", "simulate", "-n", "50", "--out", str(out), "--no-progress")
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(f"monosim: error: the disk is full; nothing was kept: {out} is written only once")
    assert not out.exists() and not list(tmp_path.iterdir())
