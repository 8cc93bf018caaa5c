"""The experiment layer with Monopoly Deal and classic Monopoly: specs are checked with each
game's own rules and policies, and a run's stored rows are exactly the game's own table."""

from __future__ import annotations

import pandas as pd
import pytest

from sim.cli import main
from sim.core import runs
from sim.core.game import get
from test_experiment import run_spec

DEAL_SPEC = """
name = "d"
game = "deal"
seed = 5
players = 3
seats = ["smart", "banker", "random"]
[sweep]
"rule.win_on_any_turn" = [true, false]
deck = ["none", "just_say_no+1"]
[run]
games = 300
chunk_size = 100
"""
CLASSIC_SPEC = """
name = "c"
game = "classic"
seed = 5
players = 3
[rules]
free_parking_jackpot = true
[sweep]
"rule.starting_cash" = [1500, 2500]
[run]
games = 120
chunk_size = 40
"""


def test_deal_run_matches_direct_simulation(tmp_path):
    run = run_spec(tmp_path, DEAL_SPEC)
    summary = pd.read_csv(run / "summary.csv")
    assert list(summary["games"]) == [300] * 4
    # Cell 3: own-turn wins only, seat 0 dealt an extra Just Say No.
    rules = get("deal").rules_of({"win_on_any_turn": False})
    direct = get("deal").simulate(300, 3, ["smart", "banker", "random"], rules, seed=5, deck_edits={0: {"just_say_no": 1}})
    pd.testing.assert_frame_equal(runs.RunDir(run).read_cell(3), direct, check_categorical=False)
    cv = pd.read_csv(run / "card_values.csv")
    assert set(cv["edit"]) == {"just_say_no+1"}
    usage = pd.read_csv(run / "usage.csv")
    assert "just_say_no_played" in set(usage["counter"])


def test_classic_run_matches_direct_simulation(tmp_path):
    run = run_spec(tmp_path, CLASSIC_SPEC)
    rules = get("classic").default_rules().replace(free_parking_jackpot=True, starting_cash=2500)
    direct = get("classic").simulate(120, 3, None, rules, seed=5)
    pd.testing.assert_frame_equal(runs.RunDir(run).read_cell(1), direct, check_categorical=False)
    report = (run / "report.md").read_text()
    assert "classic Monopoly; 2 cells" in report


def test_deal_card_values_cover_every_non_property_card():
    edits = get("deal").experiment.card_edits({"rules": {}}, 0)
    assert "just_say_no+1" in edits and "wild_any+1" in edits and "money10+1" in edits and "rent_any+1" in edits
    assert not any(e.startswith(("brown", "railroad", "dark_blue")) for e in edits)
    assert all(e.endswith("+1") for e in edits)


BAD = [
    (DEAL_SPEC.replace('"random"]', '"genius"]'), "seats[2]: unknown policy 'genius'"),
    (DEAL_SPEC + "[rules]\nexcess_discards = 'floor'\n", "rule excess_discards: 'floor' is not one of"),
    (DEAL_SPEC + "[rules]\nwin_on_any_turn = 1\n", "rule win_on_any_turn: expected true or false"),
    (DEAL_SPEC.replace("players = 3", "players = 6"), "--players must be 2 to 5 for Monopoly Deal"),
    (DEAL_SPEC.replace('deck = ["none", "just_say_no+1"]', 'deck = ["just_say_no-1"]'), "a seat's edits add cards"),
    (CLASSIC_SPEC.replace("free_parking_jackpot = true", "auctions = 'no'"), "rule auctions: expected true or false"),
    (CLASSIC_SPEC.replace("[1500, 2500]", "[1500, 'lots']"), "rule starting_cash: expected an integer"),
    (CLASSIC_SPEC.replace("[1500, 2500]", '[1500, 2500]\ndeck = ["none", "go+1"]'), "no per-seat cards to edit"),
]


@pytest.mark.parametrize("text, needle", BAD)
def test_bad_game_specs_are_one_line_exit_2(tmp_path, capsys, text, needle):
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    with pytest.raises(SystemExit) as exit_:
        main(["run", str(spec), "--out-root", str(tmp_path / "res")])
    err = capsys.readouterr().err.strip()
    assert exit_.value.code == 2 and needle in err and "\n" not in err
    assert not (tmp_path / "res").exists()
