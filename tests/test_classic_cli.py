"""The classic Monopoly command line: real runs, JSON shapes and bad input (one line on stderr,
exit code 2, nothing written)."""

import json

import inprocess
import pandas as pd
import pytest


def monosim(*args):
    return inprocess.monosim(*args)


def one_line_error(r, needle):
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("monosim: error:") and needle in lines[0], lines[0]
    assert r.stdout == ""


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--seat", "nonsense"], "unknown policy 'nonsense'"),
        (["--seat", "trader q=1"], "unknown parameter 'q'"),
        (["--seat", "trader reserve=-5"], "outside [0, 5000]"),
        (["--seat", "strong bid=abc"], "not a number"),
        (["--players", "1"], "--players must be 2 to 8"),
        (["--players", "9"], "--players must be 2 to 8"),
        (["--games", "0"], "--games must be at least 1"),
        (["--seed", "-1"], "--seed must be between"),
        (["--rule", "starting_cash=abc"], "rule starting_cash: bad value"),
        (["--rule", "no_such_rule=1"], "unknown rule 'no_such_rule'"),
        (["--rule", "auctions=maybe"], "rule auctions: bad value"),
        (["--rule", "houses=-1"], "houses must not be negative"),
        (["--rule", "salary"], "write KEY=VALUE"),
        (["--players", "2", "--seat", "strong", "--seat", "strong", "--seat", "strong"], "3 --seat policies given for 2 players"),
    ],
)
def test_bad_simulate_input(tmp_path, args, needle):
    out = tmp_path / "run"
    r = monosim("classic", "simulate", "--games", "10", *args, "--out", str(out))
    one_line_error(r, needle)
    assert not out.exists()


def test_simulate_writes_a_complete_run_folder(tmp_path):
    out = tmp_path / "run"
    r = monosim("classic", "simulate", "--games", "400", "--seed", "5", "--players", "3", "--seat", "strong",
                "--seat", "trader", "--rule", "free_parking_jackpot=true", "--out", str(out), "--no-progress",
                "--check")
    assert r.returncode == 0, r.stderr
    assert "Win rate by seat" in r.stdout and "turn limit" in r.stdout
    names = {p.name for p in out.iterdir()}
    assert {"games.parquet", "seats.parquet", "manifest.json", "report.md", "win_rate_by_seat.png"} <= names
    games = pd.read_parquet(out / "games.parquet")
    assert len(games) == 400
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == 5 and manifest["rules"]["house"]["free_parking_jackpot"] is True


def test_simulate_json():
    r = monosim("classic", "simulate", "--games", "300", "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)["results"]
    assert abs(sum(row["win_rate"] for row in summary["by_seat"]) - 1) < 1e-9
    assert "hit_turn_limit" in summary["flags"]


def test_landing_json_shape():
    r = monosim("classic", "landing", "--jail", "long", "--rolls", "200000", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)["results"]
    assert len(rows) == 41 and [row["square"] for row in rows] == list(range(41))
    assert all(set(row) == {"square", "name", "simulated", "exact"} for row in rows)
    assert rows[40]["name"] == "In Jail" and rows[10]["name"] == "Just Visiting"
    assert abs(sum(row["exact"] for row in rows) - 1) < 1e-9


def test_landing_table_and_bad_input():
    r = monosim("classic", "landing", "--rolls", "100000")
    assert r.returncode == 0 and "Illinois Avenue" in r.stdout and "In Jail" in r.stdout
    one_line_error(monosim("classic", "landing", "--jail", "medium"), "--jail must be short or long")
    one_line_error(monosim("classic", "landing", "--rolls", "5"), "--rolls must be between")


POSITION = """
turn = 1
[[player]]
policy = "strong"
cash = 900
square = "Illinois Avenue"
jail_cards = ["chance"]
[[player]]
policy = "trader"
cash = 150
square = "In Jail"
jail_turns = 1
[[player]]
bankrupt = true
[properties]
"Park Place" = { owner = 0, houses = 3 }
"Boardwalk" = { owner = 0, houses = 3 }
"Reading Railroad" = { owner = 1, mortgaged = true }
"St. James Place" = { owner = 1 }
"""


def test_position_estimates_win_chances(tmp_path):
    f = tmp_path / "pos.toml"
    f.write_text(POSITION)
    r = monosim("classic", "position", str(f), "--games", "2000", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)["results"]
    assert len(rows) == 3 and rows[2]["win_chance"] == 0
    assert rows[0]["win_chance"] > rows[1]["win_chance"]
    assert abs(sum(row["win_chance"] for row in rows) - 1) < 1e-9
    assert all(row["ci"]["low"] <= row["win_chance"] <= row["ci"]["high"] for row in rows)
    j = tmp_path / "pos.json"
    import tomllib
    j.write_text(json.dumps(tomllib.loads(POSITION)))
    r2 = monosim("classic", "position", str(j), "--games", "2000", "--json")
    assert json.loads(r2.stdout)["results"] == rows  # same position, same seed: same playouts


@pytest.mark.parametrize(
    "text, needle",
    [
        ("turn = ", "not valid TOML"),
        ("turn = 0\n", "give the players as a list"),
        ("[[player]]\ncash = 10\n", "needs 2 to 8 players"),
        ("[[player]]\ncash = 10\n[[player]]\ncash = -1\n", "player 1 cash must be between"),
        ("[[player]]\ncash = 10\n[[player]]\ncash = 5\nsquare = 'Nowhere'\n", "unknown square 'Nowhere'"),
        ("[[player]]\ncash = 10\n[[player]]\ncash = 5\ncolour = 'red'\n", "unknown key 'colour'"),
        ("[[player]]\ncash = 10\n[[player]]\ncash = 5\n[properties]\nBoardwalk = { owner = 0, houses = 2 }\n",
         "houses need the whole dark_blue group"),
        ("[[player]]\ncash = 10\n[[player]]\ncash = 5\n[properties]\nBoardwalk = { owner = 3 }\n",
         "owner must be between 0 and 1"),
        ("[[player]]\ncash = 10\n[[player]]\ncash = 5\n[properties]\nAtlantis = { owner = 0 }\n", "unknown square 'Atlantis'"),
        ("[[player]]\ncash = 10\n[[player]]\ncash = 5\n[properties]\n'Income Tax' = { owner = 0 }\n", "is not a deed"),
        ("[[player]]\ncash = 10\njail_cards = ['chance']\n[[player]]\ncash = 5\njail_cards = ['chance']\n",
         "more Chance Get Out of Jail Free cards"),
        ("turn = 1\n[[player]]\ncash = 10\n[[player]]\nbankrupt = true\n", "needs at least 2 players"),
        ("[rules]\nnonsense = 1\n[[player]]\ncash = 1\n[[player]]\ncash = 1\n", "unknown rule 'nonsense'"),
        ("[[player]]\ncash = 10\npolicy = 'genius'\n[[player]]\ncash = 5\n", "unknown policy 'genius'"),
        ("[[player]]\ncash = 10\nsquare = 5\njail_turns = 1\n[[player]]\ncash = 5\n", "is in jail but stands on square 5"),
    ],
)
def test_bad_position_files(tmp_path, text, needle):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    one_line_error(monosim("classic", "position", str(f), "--games", "10"), needle)


def test_missing_and_bad_json_position(tmp_path):
    one_line_error(monosim("classic", "position", str(tmp_path / "none.toml")), "cannot read it")
    f = tmp_path / "bad.json"
    f.write_text("{not json")
    one_line_error(monosim("classic", "position", str(f)), "not valid JSON")


def test_rules_and_policies_listings():
    r = monosim("classic", "rules")
    assert r.returncode == 0 and "Boardwalk" in r.stdout and "free_parking_jackpot = false" in r.stdout
    assert "Advance to the nearest Railroad" in r.stdout and "50/200/600/1400/1700/2000" in r.stdout
    r = monosim("classic", "policies")
    assert r.returncode == 0 and "three_houses" in r.stdout and "trade_share" in r.stdout


def test_bench_classic_runs():
    r = monosim("bench", "--game", "classic", "--games", "2000", "--json")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)["results"]["classic"]
    assert result["games"] == 2000 and result["games_per_second"] > 0


def test_the_example_position_file_loads():
    from pathlib import Path

    from sim.classic import position

    pos = position.load(Path(__file__).resolve().parent.parent / "experiments" / "classic-position.toml")
    assert pos.players == 3 and pos.policies == ["strong", "strong", "trader"]
