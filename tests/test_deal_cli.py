"""The Monopoly Deal command line: real runs and bad input (one line on stderr, exit code 2,
nothing written)."""

import json
import re

import inprocess
import pandas as pd
import pytest


def monosim(*args, cwd=None):
    return inprocess.monosim(*args, cwd=cwd)


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--seat", "nonsense"], "unknown policy 'nonsense'"),
        (["--seat", "smart q=0.2"], "unknown parameter 'q'"),
        (["--seat", "random p_stop=2"], "outside [0, 1]"),
        (["--seat", "banker bank_weight=abc"], "not a number"),
        (["--players", "1"], "--players must be 2 to 5"),
        (["--players", "6"], "--players must be 2 to 5"),
        (["--games", "0"], "--games must be at least 1"),
        (["--seed", "-1"], "--seed must be between"),
        (["--rule", "hand_limit=abc"], "rule hand_limit: bad value"),
        (["--rule", "no_such_rule=1"], "unknown rule 'no_such_rule'"),
        (["--rule", "hand_limit"], "write KEY=VALUE"),
        (["--rule", "deck.joker=1"], "unknown card 'joker'"),
        (["--rule", "excess_discards=floor"], "is not one of discard_pile, draw_bottom"),
        (["--rule", "win_on_any_turn=maybe"], "rule win_on_any_turn: bad value"),
        (["--rule", "sets_to_win=0"], "sets_to_win must be at least 1"),
        (["--rule", "deck.money1=-2"], "a count must be 0 to"),
        (["--players", "2", "--seat", "smart", "--seat", "smart", "--seat", "smart"], "3 --seat policies given for 2 players"),
        (["--games", "ten"], "Invalid value for '--games'"),
        (["--no-such-flag"], "No such option"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, needle):
    # In-process (sim.cli.main is the console script's entry point); one real subprocess run
    # of a mistake is below.
    from sim.cli import main

    out = tmp_path / "run"
    with pytest.raises(SystemExit) as e:
        main(["deal", "simulate", "--games", "10", *args, "--out", str(out)])
    err = capsys.readouterr()
    assert e.value.code == 2, err.err
    lines = err.err.strip().splitlines()
    assert len(lines) == 1, err.err
    assert needle in lines[0]
    assert lines[0].startswith("monosim: error:")
    assert not out.exists()
    assert err.out == ""


def test_a_mistake_in_a_real_process(tmp_path):
    out = tmp_path / "run"
    r = monosim("deal", "simulate", "--players", "7", "--out", str(out))
    assert r.returncode == 2 and r.stdout == "" and not out.exists()
    assert r.stderr.strip() == "monosim: error: --players must be 2 to 5 for Monopoly Deal (got 7)"


def test_simulate_writes_a_complete_run_folder(tmp_path):
    out = tmp_path / "run"
    r = monosim("deal", "simulate", "--games", "2000", "--seed", "5", "--players", "3",
                "--seat", "smart", "--seat", "random", "--rule", "win_on_any_turn=false",
                "--out", str(out), "--no-progress")
    assert r.returncode == 0, r.stderr
    assert "Win rate by seat" in r.stdout and "Action cards played per game" in r.stdout
    names = {p.name for p in out.iterdir()}
    assert {"games.parquet", "seats.parquet", "manifest.json", "report.md", "win_rate_by_seat.png",
            "summary_by_seat.csv", "summary_by_policy.csv", "actions_by_seat.csv"} <= names
    games = pd.read_parquet(out / "games.parquet")
    assert len(games) == 2000
    won = games["winner"] >= 0
    assert (games.loc[won, "won_on_own_turn"] == 1).all()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == "deal" and manifest["seed"] == 5 and manifest["players"] == 3
    assert manifest["policies"][:2] == ["smart", "random"]
    assert manifest["rules"]["house"]["win_on_any_turn"] is False
    assert (out / "win_rate_by_seat.png").read_bytes()[:4] == b"\x89PNG"


def test_json_summary_and_listings():
    r = monosim("deal", "simulate", "--games", "300", "--players", "5", "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)["results"]
    rates = [row["win_rate"] for row in summary["by_seat"]]
    assert len(rates) == 5 and 0.9 < sum(rates) <= 1.0 + 1e-9
    r = monosim("deal", "rules")
    assert r.returncode == 0 and "wild_any" in r.stdout and "win_on_any_turn = true" in r.stdout
    r = monosim("deal", "policies")
    assert r.returncode == 0 and "set_builder" in r.stdout and "jsn_stake" in r.stdout


def test_bench_rejects_an_unknown_game():
    r = monosim("bench", "--game", "poker")
    assert r.returncode == 2 and "--game 'poker' is not one of chance, deal" in r.stderr


def test_bench_reports_the_median_of_repeated_runs():
    r = monosim("bench", "--game", "deal", "--games", "500", "--repeat", "3", "--json")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)["results"]["deal"]
    runs = sorted(result["run_seconds"])
    assert len(runs) == 3 and result["seconds"] == runs[1] and result["games_per_second"] == 500 / runs[1]
    assert result["target_games_per_second"] == 100_000
    r = monosim("bench", "--game", "deal", "--games", "500", "--repeat", "2")
    assert r.returncode == 0 and "median of 2 runs; runs " in r.stdout
    speed = float(re.search(r"= ([\d,]+) games/s", r.stdout)[1].replace(",", ""))
    share = re.search(r"target 100,000 games/s on 2 threads of the 2-core development machine: (\d+)% of it", r.stdout)
    assert share and abs(int(share[1]) - 100 * speed / 100_000) <= 0.51, r.stdout  # the speed is printed rounded
    r = monosim("bench", "--game", "deal", "--repeat", "0")
    assert r.returncode == 2 and r.stderr.strip() == "monosim: error: --repeat must be at least 1 (got 0)"


def test_the_plot_copes_with_a_seat_that_never_wins(tmp_path):
    from sim.core import summary
    from sim.deal.game import GAME

    df = GAME.simulate(300, 3, ["smart", "smart", "random p_stop=1"], seed=1)
    assert df["win_2"].sum() == 0
    tally = GAME.tally(df)
    GAME.plot_win_rates(tally, GAME.report.summary(tally), tmp_path / "p.png")
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    by_seat = GAME.summarize(df)["by_seat"]
    assert (by_seat["ci_low"] <= by_seat["win_rate"] + 1e-12).all()
    assert summary.n_seats(df) == 3
    # A Wilson bound a rounding error past the rate (what crashed the CLI before the clip).
    import pandas as pd

    bad = pd.DataFrame({"seat": [0, 1], "policy": ["a", "b"], "win_rate": [0.0, 1.0],
                        "ci_low": [1e-17, 0.9], "ci_high": [0.1, 1.0 - 1e-16]})
    summary.plot_win_rates(bad, "t", tmp_path / "q.png")
