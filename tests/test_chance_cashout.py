"""`monosim chance advise`, the cash-out study and its notebook."""

import json
import os
from pathlib import Path

import inprocess
import pandas as pd
import pytest

from sim.chance.exact_odds import make_situation, odds
from sim.chance.optimal import TurnModel
from sim.chance.study import StudyConfig, run_study

ROOT = Path(__file__).resolve().parent.parent


def monosim(*args):
    return inprocess.monosim(*args, cwd=ROOT)


def test_advise_agrees_with_the_exact_odds_and_the_turn_optimal_rule():
    r = monosim("chance", "advise", "--flipped", "7,11", "--flips-left", "2", "--games", "3000", "--json")
    assert r.returncode == 0, r.stderr
    a = json.loads(r.stdout)["results"]
    sit = make_situation(flipped=[7, 11], flips=2)
    o = odds(sit)
    assert a["p_bust_next"] == pytest.approx(o["p_bust_next"])
    # "one more flip, then cash out" is "commit to k = 1"
    assert a["one_more_flip"] == pytest.approx(o["flips"][0]["expected_cash_value"])
    assert a["advice"] == ("flip" if TurnModel.from_situation(sit).should_flip() else "cash out")
    assert a["advice"] == "cash out"  # 18 in hand, 22% bust: one flip loses 0.72 on average
    ev = a["simulation"]
    assert ev["games_with_situation"] > 50
    lo, hi = ev["win_diff_flip_minus_stop_ci"]["low"], ev["win_diff_flip_minus_stop_ci"]["high"]
    assert lo <= ev["win_diff_flip_minus_stop"] <= hi
    r = monosim("chance", "advise", "--flipped", "2", "--flips-left", "3", "--held-lucky", "1", "--games", "0")
    assert r.returncode == 0 and "Advice: FLIP" in r.stdout and "busts: 0.0%" in r.stdout


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--flipped", "13"], "deck holds 0"),
        (["--flipped", "7,7"], "2 x Cash 7"),
        (["--objective", "luck"], "--objective must be one of"),
        (["--flips-left", "-1"], "must not be negative"),
        (["--games", "-1"], "--games must be 0 or more"),
        (["--players", "5"], "--players must be 2 to 4"),
        (["--policy", "nonsense"], "unknown policy 'nonsense'"),
        (["--held-lucky", "3"], "more than the 2 Lucky Breaks"),
        (["--bankrupt", "x"], "Invalid value for '--bankrupt'"),
    ],
)
def test_advise_bad_input_is_one_line_and_exit_2(args, needle):
    r = monosim("chance", "advise", *args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("monosim: error:") and needle in lines[0], r.stderr
    assert r.stdout == ""


SMALL = StudyConfig(games=400, map_games=200, players=(2, 3), map_players=2,
                    candidates=("stop_after n=2", "bust_threshold p=0.2", "cash_target v=16", "optimal"),
                    opponents=("mixed",), maps=("flips_left", "finish_distance"),
                    cash_buckets=((0, 9), (10, 254)), seed=5, rollout_games=60,
                    rollout_player="rollout rollouts=8 margin=3 z=1")


@pytest.fixture(scope="module")
def small_study(tmp_path_factory):
    out = tmp_path_factory.mktemp("cash_out")
    res = run_study(SMALL, out, progress=lambda m: None)
    return out, res


def test_small_study_writes_its_tables_report_and_plots(small_study):
    out, res = small_study
    t, m = res["tournament"], res["map"]
    assert len(t) == 2 * 4 and set(t["players"]) == {2, 3}
    assert ((t["ci_low"] <= t["win_rate"]) & (t["win_rate"] <= t["ci_high"])).all()
    base = t[t["policy"] == "optimal"]
    assert (base["diff_vs_optimal"] == 0).all()  # the baseline against itself, game by game
    assert (t["diff_low"] <= t["diff_vs_optimal"]).all() and (t["diff_vs_optimal"] <= t["diff_high"]).all()
    assert len(m) == 4 * 2 + 6 * 2
    assert ((m["dp_flip_share"] >= 0) & (m["dp_flip_share"] <= 1)).all()
    for name in ("report.md", "tournament.csv", "stop_flip_map.csv", "win_rate_by_threshold.png",
                 "stop_flip_map_flips_left.png", "stop_flip_map_finish_distance.png", "manifest.json"):
        assert (out / name).stat().st_size > 0, name
    assert "Which rule wins" in (out / "report.md").read_text()


def test_small_study_measures_the_rollout_player(small_study):
    out, res = small_study
    g, calls = res["rollout_player"], res["close_calls"]
    assert list(g["players"]) == [2, 2, 3, 3] and list(g["against"]) == ["optimal", "smart"] * 2
    assert ((g["gain_low"] <= g["gain"]) & (g["gain"] <= g["gain_high"])).all()
    # The rollout player and the turn-optimal rule play the same games until the first close call.
    assert (g["close_calls_per_game"] > 0).all() and len(calls) > 0
    assert set(calls["players"]) == {2, 3} and (calls["rollouts"] == 8).all()
    kinds = pd.read_csv(out / "rollout_close_calls.csv")
    assert kinds["calls"].sum() == len(calls) and abs(kinds["share_of_calls"].sum() - 1) < 1e-9
    assert "A position-aware player" in (out / "report.md").read_text()


def test_notebook_executes_on_a_small_study(small_study):
    import nbformat
    from nbclient import NotebookClient

    out, _ = small_study
    nb = nbformat.read(ROOT / "notebooks" / "cash_out.ipynb", as_version=4)
    os.environ["CASH_OUT_RESULTS"] = str(out)
    try:
        NotebookClient(nb, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    finally:
        del os.environ["CASH_OUT_RESULTS"]
    text = "".join(
        o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
    )
    assert "Best stopping rule" in text
    assert not any(o.get("output_type") == "error" for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
