"""The command line: real runs and bad input (one line on stderr, exit code 2, nothing written)."""

import json
import subprocess
import sys

import pandas as pd
import pytest


def monosim(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=600
    )


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--seat", "nonsense"], "unknown policy 'nonsense'"),
        (["--seat", "bust_threshold q=0.2"], "unknown parameter 'q'"),
        (["--seat", "bust_threshold p=2"], "outside [0, 1]"),
        (["--seat", "stop_after n=abc"], "not a number"),
        (["--players", "1"], "--players must be 2 to 4"),
        (["--players", "5"], "--players must be 2 to 4"),
        (["--games", "-5"], "--games must be at least 1"),
        (["--games", "0"], "--games must be at least 1"),
        (["--seed", "-1"], "--seed must be between"),
        (["--rule", "finish_mark=abc"], "rule finish_mark: bad value"),
        (["--rule", "no_such_rule=1"], "unknown rule 'no_such_rule'"),
        (["--rule", "finish_mark"], "write KEY=VALUE"),
        (["--rule", "deck.joker=1"], "unknown card 'joker'"),
        (["--players", "2", "--seat", "smart", "--seat", "smart", "--seat", "smart"], "3 --seat policies given for 2 players"),
        (["--games", "ten"], "Invalid value for '--games'"),
        (["--no-such-flag"], "No such option"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, needle):
    out = tmp_path / "run"
    r = monosim("chance", "simulate", "--games", "10", *args, "--out", str(out))
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert needle in lines[0]
    assert lines[0].startswith("monosim: error:")
    assert not out.exists()
    assert r.stdout == ""


def test_existing_output_folder_is_left_alone(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "keep.txt").write_text("precious")
    r = monosim("chance", "simulate", "--games", "10", "--out", str(out))
    assert r.returncode == 2
    assert "already exists" in r.stderr
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert (out / "keep.txt").read_text() == "precious"


def test_simulate_writes_a_complete_run_folder(tmp_path):
    out = tmp_path / "run"
    r = monosim("chance", "simulate", "--games", "2000", "--seed", "5", "--players", "3",
                "--seat", "smart", "--seat", "max_flip", "--out", str(out), "--no-progress")
    assert r.returncode == 0, r.stderr
    assert "Win rate by seat" in r.stdout
    names = {p.name for p in out.iterdir()}
    assert {"games.parquet", "seats.parquet", "manifest.json", "report.md",
            "win_rate_by_seat.png", "summary_by_seat.csv", "summary_by_policy.csv"} <= names
    games = pd.read_parquet(out / "games.parquet")
    assert len(games) == 2000
    assert games["win_0"].add(games["win_1"]).add(games["win_2"]).round(9).eq(1).all()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == 5 and manifest["players"] == 3
    assert manifest["policies"][:2] == ["smart", "max_flip"]
    assert manifest["versions"]["numba"]
    assert (out / "win_rate_by_seat.png").read_bytes()[:4] == b"\x89PNG"


def test_json_summary():
    r = monosim("chance", "simulate", "--games", "500", "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    rates = [row["win_rate"] for row in summary["by_seat"]]
    assert len(rates) == 4 and abs(sum(rates) - 1) < 1e-9


def test_rules_and_policies_listings():
    r = monosim("chance", "rules")
    assert r.returncode == 0 and "Boardwalk" in r.stdout and "reshuffle_empty_pile" in r.stdout
    r = monosim("chance", "policies")
    assert r.returncode == 0 and "bust_threshold p=0.2" in r.stdout
