"""The contract every registered game keeps, part 3: the command-line shell made once for every
game (sim/core/cli.py): simulate, rules, policies, --json, the run folder and bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from sim.core.game import GAME_NAMES, get

ROOT = Path(__file__).resolve().parent.parent
import inprocess
from test_contract import IDS, VARIANTS


def monosim(*args: str) -> subprocess.CompletedProcess:
    return inprocess.monosim(*args, cwd=ROOT)


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_cli_simulate_json_rules_and_policies(variant, name, changes):
    game = get(name)
    edition = [f"--edition={changes[0].split('=')[1]}"] if changes else []
    done = monosim(name, "simulate", "--games", "40", "--seed", "3", "--json", "--no-progress", *edition)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)["results"]
    assert [r["seat"] for r in summary["by_seat"]] == list(range(game.rules.default_players))
    assert sum(r["wins"] for r in summary["by_seat"]) <= 40
    shown = json.loads(monosim(name, "rules", "--json", *edition).stdout)["results"]
    assert shown == json.loads(json.dumps(game.rules.describe(game.rules_from(changes))))
    listing = monosim(name, "policies").stdout
    assert all(kind in listing for kind in game.bots.catalog.kinds)


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("args, message", [
    (["--players", "99"], "--players must be"),
    (["--seat", "no_such_bot"], "no_such_bot"),
    (["--rule", "no_such_rule=1"], "no_such_rule"),
    (["--games", "0"], "--games must be at least 1"),
])
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, name, args, message):
    out = tmp_path / "out"
    done = monosim(name, "simulate", "--games", "10", *args, "--out", str(out)) if args[0] != "--games" else \
        monosim(name, "simulate", *args, "--out", str(out))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr and done.stderr.startswith("monosim: error: ")
    assert not out.exists()


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_cli_simulate_writes_a_complete_run_folder(tmp_path, variant, name, changes):
    game = get(name)
    out = tmp_path / "run"
    rules = [a for c in changes for a in ("--rule", c)]
    done = monosim(name, "simulate", "--games", "300", "--seed", "5", "--players", "3", "--seat", "random",
                   *rules, "--out", str(out), "--no-progress")
    assert done.returncode == 0, done.stderr
    assert "Win rate by seat" in done.stdout and f"Wrote {out}/" in done.stdout
    expected = {"games.parquet", "seats.parquet", "manifest.json", "report.md", "win_rate_by_seat.png",
                "summary_by_seat.csv", "summary_by_policy.csv"}
    expected |= {f"{t}_by_seat.csv" for t in game.report.seat_tables} | {f"{t}.parquet" for t in game.report.out_detail}
    assert {p.name for p in out.iterdir()} == expected
    games = pd.read_parquet(out / "games.parquet")
    assert len(games) == 300 and list(games["game"]) == list(range(300))
    assert len(pd.read_parquet(out / "seats.parquet")) == 900
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == name and manifest["seed"] == 5 and manifest["players"] == 3
    assert manifest["policies"][0] == "random" and manifest["rules"] == json.loads(
        json.dumps(game.rules.describe(game.rules_from(changes))))
    assert (out / "win_rate_by_seat.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_cli_leaves_an_existing_output_folder_alone(tmp_path, name):
    out = tmp_path / "run"
    out.mkdir()
    (out / "keep.txt").write_text("precious")
    done = monosim(name, "simulate", "--games", "10", "--out", str(out))
    assert done.returncode == 2 and "already exists" in done.stderr
    assert [p.name for p in out.iterdir()] == ["keep.txt"] and (out / "keep.txt").read_text() == "precious"


@pytest.mark.parametrize("keep, tables", [("none", set()), ("games", {"games"}), ("seats", {"games", "seats"})])
def test_cli_keeps_the_per_game_tables_asked_for(tmp_path, keep, tables):
    game = get("cardgame")  # the game with a detail table (hands), kept with the games table
    out = tmp_path / "run"
    done = monosim("cardgame", "simulate", "--games", "50", "--keep", keep, "--out", str(out), "--no-progress")
    assert done.returncode == 0, done.stderr
    if tables:
        tables |= set(game.report.out_detail)
    parquet = {p.stem for p in out.iterdir() if p.suffix == ".parquet"}
    assert parquet == tables and (out / "report.md").exists() and (out / "manifest.json").exists()
    if "seats" in tables:
        assert len(pd.read_parquet(out / "seats.parquet")) == 50 * 4


def test_cli_games_table_is_the_simulated_table_chunk_by_chunk(tmp_path):
    out = tmp_path / "run"
    done = monosim("deal", "simulate", "--games", "500", "--chunk-size", "120", "--seed", "4", "--out", str(out),
                   "--no-progress")
    assert done.returncode == 0, done.stderr
    stored = pd.read_parquet(out / "games.parquet")
    direct = get("deal").simulate(500, seed=4)
    pd.testing.assert_frame_equal(stored, direct, check_dtype=False, check_categorical=False)


@pytest.mark.parametrize("args, message", [
    (["--keep", "all"], "--keep must be one of none, games, seats"),
    (["--out", "{tmp}/a_file/run"], "is a file, not a folder"),
])
def test_cli_refuses_an_output_it_cannot_write_before_playing(tmp_path, args, message):
    (tmp_path / "a_file").write_text("x")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    done = monosim("chance", "simulate", "--games", "10000000", *args)  # minutes, had it started
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and message in done.stderr


def test_output_files_and_folders_follow_the_umask(tmp_path):
    out = tmp_path / "run"
    done = subprocess.run(["sh", "-c", f"umask 027 && {sys.executable} -m sim deal simulate --games 20 --out {out} "
                           "--no-progress"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert out.stat().st_mode & 0o777 == 0o750
    assert (out / "games.parquet").stat().st_mode & 0o777 == 0o640
