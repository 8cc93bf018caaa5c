"""Experiment specs and runs: validation, cells, paired statistics, precision stopping,
card values, report re-rendering and compare. Small runs (a few thousand 2-player games)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.chance.game import GAME
from sim.cli import main
from sim.core import analysis, runs
from sim.core.experiment import resolve
from sim.core.stats import wilson, z_value

BASE = """
name = "t"
game = "chance"
seed = 11
players = 2
seats = ["smart", "bust_threshold p=0.3"]
"""
RUN = """
[run]
games = 1200
chunk_size = 400
"""


def run_spec(tmp_path: Path, text: str, *args: str) -> Path:
    """Run a spec in-process through the CLI; returns its run folder."""
    spec = tmp_path / f"{len(list(tmp_path.glob('*.toml')))}.toml"
    spec.write_text(text)
    root = tmp_path / "res"
    before = set(root.glob("*/*")) if root.exists() else set()
    main(["run", str(spec), "--out-root", str(root), "--no-progress", *args])
    (new,) = set(root.glob("*/*")) - before
    return new


# ---- validation ---------------------------------------------------------------------------

BAD = [
    (BASE + "colour = 1\n", "colour: unknown key"),
    (BASE.replace("seed = 11", "seed = 'x'"), "seed: expected an integer"),
    (BASE.replace("seed = 11", "seed = -1"), "seed: must be between"),
    (BASE.replace('name = "t"', ""), "name: missing"),
    (BASE.replace('name = "t"', 'name = "a/b"'), "name: 'a/b' must be"),
    (BASE.replace('"chance"', '"go"'), "game: unknown game 'go'"),
    (BASE.replace('"bust_threshold p=0.3"', '"genius"'), "seats[1]: unknown policy 'genius'"),
    (BASE.replace("p=0.3", "q=0.3"), "seats[1]: policy bust_threshold: unknown parameter 'q'"),
    (BASE.replace("p=0.3", "p=3"), "seats[1]: policy bust_threshold: p=3 is outside [0, 1]"),
    (BASE.replace("players = 2", "players = 5"), "players: --players must be 2 to 4"),
    (BASE.replace("players = 2", "players = true"), "players: expected an integer"),
    (BASE.replace('"smart", ', '"smart", "smart", '), "seats: 3 --seat policies given for 2 players"),
    (BASE + "[rules]\nno_such = 1\n", "rules: unknown rule 'no_such'"),
    (BASE + "[rules]\nfinish_mark = true\n", "rules: rule finish_mark: expected an integer"),
    (BASE + "[rules]\nkeep_held_cards = 1\n", "rule keep_held_cards: expected true or false"),
    (BASE + "[rules]\ndie = '?'\n", "die needs at least one number face"),
    (BASE + "[rules]\n'deck.bankrupt' = 70\n", "a token deck may hold at most 64 cards"),
    (BASE + "[sweep]\ncolour = [1]\n", "sweep.colour: unknown axis"),
    (BASE + "[sweep]\nplayers = []\n", "sweep.players: expected a non-empty list"),
    (BASE + "[sweep]\nplayers = [2, 9]\n", "sweep.players: --players must be 2 to 4"),
    (BASE + "[sweep]\n'seat.1.q' = [0.1]\n", 'sweep."seat.1.q": policy bust_threshold: unknown parameter \'q\''),
    (BASE + "[sweep]\n'seat.0.risk' = ['high']\n", 'sweep."seat.0.risk": value: expected a number'),
    (BASE + "[sweep]\n'seat.4.p' = [0.1]\n", "seat.4.p: there is no seat 4 with 2 players"),
    (BASE + "[sweep]\n'seat.1' = ['smart', 'oracle']\n", "unknown policy 'oracle'"),
    (BASE + "[sweep]\n'rule.finish_mark' = [20, 0]\n", 'sweep."rule.finish_mark": rules: finish_mark must be at least 1'),
    (BASE + "[sweep]\n'rule.colour' = [1]\n", "unknown rule 'colour'"),
    (BASE + "[sweep]\ndeck = ['joker+1']\n", "unknown card 'joker'"),
    (BASE + "[sweep]\ndeck = ['flip2-2']\n", "deck count for 'flip2' is negative"),
    (BASE + "[sweep]\ndeck = ['more nope']\n", "write none, CARD+N or CARD-N"),
    (BASE + "[run]\ngames = 0\n", "run.games: must be 1 to 2**62"),
    (BASE + "[run]\nchunk_size = 0\n", "run.chunk_size: must be at least 1"),
    (BASE + "[run]\nprecision = 2\n", "run.precision: must be a width between 0 and 1"),
    (BASE + "[run]\ngmes = 10\n", "run.gmes: unknown key"),
    (BASE + "[run]\nkey_seat = 3\n", "run.key_seat: there is no seat 3 with 2 players"),
    (BASE + "[run]\nkey_policy = 'max_flip'\n", "run.key_policy: no seat plays 'max_flip'"),
    (BASE + "[run]\nkey_policy = 'smart'\nkey_seat = 0\n", "give key_seat or key_policy, not both"),
    (BASE + "[run]\nkey_policy = 'smart'\n[outputs]\ncard_values = true\n", "card_values: needs run.key_seat"),
    (BASE + "[run]\nbaseline_by = ['players']\n", "run.baseline_by: 'players' is not an axis of the sweep"),
    (BASE + "[run]\nbaseline_by = 'players'\n", "run.baseline_by: expected a list"),
    (BASE + "[outputs]\nplots = 'yes'\n", "outputs.plots: expected true or false"),
    (BASE + "[outputs]\npdf = true\n", "outputs.pdf: unknown key"),
    ("name = \n", "not valid TOML"),
]


@pytest.mark.parametrize("text, needle", BAD)
def test_bad_spec_is_one_line_exit_2_nothing_written(tmp_path, capsys, text, needle):
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    with pytest.raises(SystemExit) as exit_:
        main(["run", str(spec), "--out-root", str(tmp_path / "res")])
    err = capsys.readouterr()
    assert exit_.value.code == 2
    lines = err.err.strip().splitlines()
    assert len(lines) == 1, err.err
    assert lines[0].startswith("monosim: error: bad.toml: "), lines[0]
    assert needle in lines[0], lines[0]
    assert err.out == ""
    assert not (tmp_path / "res").exists()


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--workers", "0"], "--workers must be at least 1"),
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "--workers or --scheduler, not both"),
        (["--resume"], "no unfinished run of 't'"),
        (["--threads", "999"], "--threads must be between"),
    ],
)
def test_bad_run_options(tmp_path, capsys, args, needle):
    spec = tmp_path / "ok.toml"
    spec.write_text(BASE + RUN)
    with pytest.raises(SystemExit) as exit_:
        main(["run", str(spec), "--out-root", str(tmp_path / "res"), *args])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0], err
    assert not (tmp_path / "res").exists()


def test_missing_spec_file_from_the_command_line(tmp_path):
    """The whole path once in a real process: exit code 2, one line, nothing written."""
    r = subprocess.run(
        [sys.executable, "-m", "sim", "run", str(tmp_path / "nope.toml"), "--out-root", str(tmp_path / "res")],
        capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 2
    assert r.stderr.strip().startswith("monosim: error: spec ") and "cannot read it" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "res").exists()


# ---- cells --------------------------------------------------------------------------------


def test_cells_are_the_product_of_the_axes_in_order():
    import tomllib

    raw = tomllib.loads(
        BASE.replace("players = 2", "players = 3")
        + "[sweep]\n'seat.1.p' = [0.1, 0.2]\nrotate = [0, 1, 2]\n'rule.keep_held_cards' = [false, true]\n"
        + "[run]\nkey_policy = 'bust_threshold'\nbaseline_by = ['rotate']\n"
    )
    plan = resolve(raw)
    assert len(plan.cells) == 2 * 3 * 2
    first, last = plan.cells[0], plan.cells[-1]
    assert first["labels"] == {"seat.1.p": "0.1", "rotate": "0", "rule.keep_held_cards": "false"}
    assert first["seats"] == ["smart", "bust_threshold p=0.1", "cash_target v=15"]
    # rotation 2 moves the edited policy from seat 1 to seat 2 (seat s plays lineup[(s + 2) % 3])
    assert last["seats"] == ["cash_target v=15", "smart", "bust_threshold p=0.2"]
    assert last["rules"] == {"keep_held_cards": True}
    assert last["key_seats"] == [2] and first["key_seats"] == [1]
    assert [c["id"] for c in plan.cells] == list(range(12))
    # baseline_by = rotate: each cell is compared with the first cell of its rotation
    assert [c["baseline"] for c in plan.cells] == [0, 0, 2, 2, 4, 4, 0, 0, 2, 2, 4, 4]


def test_card_values_axis_lists_every_edit():
    import tomllib

    plan = resolve(tomllib.loads(BASE + "[outputs]\ncard_values = true\n"))
    edits = plan.spec["sweep"]["deck"]
    assert edits[0] == "none"
    assert {"lucky_break+1", "lucky_break-1", "flip2+1", "nope-1", "token+1", "bankrupt-1", "cash7+1", "cash12-1"} <= set(edits)
    assert "bankrupt+1" not in edits
    assert len(edits) == 1 + 2 * (11 + 4) + 1  # 11 Cash values and 4 other kinds, one fewer Bankrupt
    assert plan.cells[1]["deck_edits"] == {0: {edits[1][:-2]: int(edits[1][-2:])}}


# ---- runs and statistics -------------------------------------------------------------------

PAIRED = BASE + "[sweep]\n'seat.1.p' = [0.3, 0.15]\n'rule.finish_mark' = [23, 18]\n" + RUN


def test_paired_differences_match_a_direct_computation(tmp_path):
    run = run_spec(tmp_path, PAIRED)
    summary = pd.read_csv(run / "summary.csv")
    pairs = pd.read_csv(run / "pairs.csv")
    assert list(summary["games"]) == [1200] * 4
    # Cell 3 (p=0.15, mark 18) against cell 0, played directly with simulate.
    a = GAME.simulate(1200, 2, ["smart", "bust_threshold p=0.3"], GAME.rules_of({"finish_mark": 23}), seed=11)
    b = GAME.simulate(1200, 2, ["smart", "bust_threshold p=0.15"], GAME.rules_of({"finish_mark": 18}), seed=11)
    d = b["win_0"].to_numpy() - a["win_0"].to_numpy()
    half = z_value() * d.std(ddof=1) / np.sqrt(len(d))
    row = summary.iloc[3]
    assert row["diff"] == pytest.approx(d.mean(), abs=1e-12)
    assert row["diff_ci_high"] - row["diff_ci_low"] == pytest.approx(2 * half, rel=1e-9)
    assert pairs.set_index("cell_b").loc[3, "diff"] == pytest.approx(d.mean(), abs=1e-12)
    # The key win rate of cell 3 and its Wilson interval
    low, high = wilson(b["win_0"].sum(), 1200)
    assert (row["key_win_rate"], row["key_ci_low"], row["key_ci_high"]) == pytest.approx((b["win_0"].mean(), low, high))
    # Stored per-game rows are exactly the game's own table, chunk by chunk.
    stored = runs.RunDir(run).read_cell(3)
    pd.testing.assert_frame_equal(stored, b, check_categorical=False)
    m = json.loads((run / "manifest.json").read_text())
    assert m["status"] == "complete" and m["seed"] == 11 and m["finished"] and m["git_commit"] is not None
    assert m["rules_version"] == "chance-1" and "numpy" in m["versions"]
    report = (run / "report.md").read_text()
    assert "Common random numbers" in report and "![Key win rate by cell](key_win_rate.png)" in report
    assert (run / "key_win_rate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (run / "spec.toml").read_text() == PAIRED


class ReversePool(runs.LocalPool):
    """Finishes the most recently submitted chunk first: chunks complete out of order and
    some are played beyond a cell's stop, as on a cluster."""

    capacity = 5

    def wait_one(self, pending):
        return list(pending)[-1]


PRECISE = BASE + "[sweep]\n'seat.1.p' = [0.3, 0.05]\n[run]\ngames = 4000\nchunk_size = 250\nprecision = 0.085\n"


def test_precision_target_stops_each_cell_at_the_same_chunk_whatever_the_order(tmp_path):
    run = run_spec(tmp_path, PRECISE)
    summary = pd.read_csv(run / "summary.csv")
    plan = runs.RunDir(run).plan()
    for cell, n in zip(plan.cells, summary["games"]):
        assert n % 250 == 0 and n < 4000
        df = runs.RunDir(run).read_cell(cell["id"])
        k = runs.key_win(df, cell["key_seats"])
        assert runs.interval_width(k.sum(), n) < 0.085
        if n > 250:  # not one chunk earlier
            assert runs.interval_width(k[: n - 250].sum(), n - 250) >= 0.085
    assert list(summary["games"]) == [750, 250]  # the two cells need different numbers of games

    other = runs.create(plan, tmp_path / "other")
    runs.execute(plan, other, ReversePool(), progress=False)
    for cell in plan.cells:
        assert other.stored(cell["id"]) == runs.RunDir(run).stored(cell["id"])
        pd.testing.assert_frame_equal(other.read_cell(cell["id"]), runs.RunDir(run).read_cell(cell["id"]))


def test_report_is_rerendered_from_stored_tables(tmp_path, capsys):
    run = run_spec(tmp_path, PAIRED)
    capsys.readouterr()
    before = {name: (run / name).read_bytes() for name in ("report.md", "summary.csv", "seats.csv", "pairs.csv")}
    for name in before:
        (run / name).unlink()
    (run / "key_win_rate.png").unlink()
    main(["report", str(run)])
    assert capsys.readouterr().out == before["report.md"].decode()
    for name, content in before.items():
        assert (run / name).read_bytes() == content, name
    assert (run / "key_win_rate.png").exists()


def test_compare_pairs_matching_cells(tmp_path, capsys):
    a = run_spec(tmp_path, PAIRED)
    b = run_spec(tmp_path, PAIRED.replace("[0.3, 0.15]", "[0.15]"))  # B holds A's cells 2 and 3
    capsys.readouterr()
    main(["compare", str(a), str(b), "--json"])
    table = pd.DataFrame(json.loads(capsys.readouterr().out)["results"])
    assert list(zip(table.cell_a, table.cell_b)) == [(2, 0), (3, 1)]
    assert (table["diff"] == 0).all() and table["paired_ok"].all()  # the same games, played again
    main(["compare", str(a), str(b)])
    text = capsys.readouterr().out
    assert "same master seed" in text and "| 2 | 0 |" in text

    # Different rules everywhere: cells matched by position, still paired (same seed).
    c = run_spec(tmp_path, PAIRED.replace("[rules]", "").replace("[23, 18]", "[20, 16]"))
    text, table = analysis.compare(a, c)
    assert "matched by position" in text and len(table) == 4
    ga, gc = runs.RunDir(a).read_cell(1), runs.RunDir(c).read_cell(1)
    assert table["diff"].iloc[1] == pytest.approx((gc["win_0"] - ga["win_0"]).mean())
    # Length beside the key win rate: the paired difference of mean and median rounds and turns.
    assert table["rounds_diff"].iloc[1] == pytest.approx((gc["rounds"] - ga["rounds"]).mean())
    assert table["turns_median_diff"].iloc[1] == gc["turns"].median() - ga["turns"].median()
    low, high = table["turns_median_diff_low"].iloc[1], table["turns_median_diff_high"].iloc[1]
    assert low <= table["turns_median_diff"].iloc[1] <= high
    assert "Medians and unfinished games, B - A" in text


def test_a_run_report_gives_length_against_the_baseline(tmp_path):
    run = run_spec(tmp_path, PAIRED)
    summary = pd.read_csv(run / "summary.csv")
    cell0, cell1 = runs.RunDir(run).read_cell(0), runs.RunDir(run).read_cell(1)
    assert summary["rounds_diff"].iloc[1] == pytest.approx((cell1["rounds"] - cell0["rounds"]).mean())
    assert summary["turns_median_diff"].iloc[1] == cell1["turns"].median() - cell0["turns"].median()
    assert "unfinished_diff" in summary and "## Game length and unfinished games against the baseline" in (
        run / "report.md").read_text()


def test_card_values_and_usage(tmp_path):
    spec = BASE + "[sweep]\ndeck = ['none', 'lucky_break+1', 'nope-1']\n" + RUN
    run = run_spec(tmp_path, spec)
    cv = pd.read_csv(run / "card_values.csv")
    assert list(cv["edit"]) == ["lucky_break+1", "nope-1"]
    assert list(cv["diff"]) == sorted(cv["diff"], reverse=True)  # most valuable first
    from sim.core import analysis, runs as run_dirs

    title = analysis.plot_card_values(run_dirs.RunDir(run).plan(), cv).axes[0].get_title()
    assert title.endswith("what each card edit is worth")
    base = GAME.simulate(1200, 2, ["smart", "bust_threshold p=0.3"], seed=11)
    more = GAME.simulate(1200, 2, ["smart", "bust_threshold p=0.3"], seed=11, deck_edits={0: {"lucky_break": 1}})
    assert cv["diff"].iloc[0] == pytest.approx((more["win_0"] - base["win_0"]).mean())
    usage = pd.read_csv(run / "usage.csv")
    lucky = usage[(usage.counter == "flipped_lucky_break")].set_index("cell")["key_seat"]
    assert lucky[1] > lucky[0]  # three Lucky Breaks turn up more often than two
    nope = usage[(usage.counter == "flipped_nope")].set_index("cell")["key_seat"]
    assert nope[2] == 0 < nope[0]  # no Nope! left in seat 0's deck
    report = (run / "report.md").read_text()
    assert "## Card values (seat 0" in report and "| lucky_break+1 |" in report and "## Card usage" in report


def test_tables_added_up_chunk_by_chunk_equal_the_whole_cells(tmp_path):
    # Cells that stop at different chunks (precision), all pairs, usage: every table of the
    # streamed analysis against the same figures computed from each cell's whole table.
    spec = BASE + """
[sweep]
"seat.1.p" = [0.1, 0.3, 0.6]
[run]
games = 3000
chunk_size = 250
precision = 0.06
[outputs]
all_pairs = true
usage = true
"""
    run = runs.RunDir(run_spec(tmp_path, spec))
    plan = run.plan()
    tables = analysis.analyze(plan, run)
    whole = {c["id"]: run.read_cell(c["id"]) for c in plan.cells}
    assert len({len(df) for df in whole.values()}) > 1  # the cells did stop at different chunks
    for cell in plan.cells:
        df, row = whole[cell["id"]], tables["summary"].set_index("cell").loc[cell["id"]]
        k = runs.key_win(df, cell["key_seats"])
        assert row["games"] == len(df) and row["key_win_rate"] == pytest.approx(k.mean(), rel=1e-12)
        assert row["turns_mean"] == pytest.approx(df["turns"].mean(), rel=1e-12)
        seats = tables["seats"][tables["seats"]["cell"] == cell["id"]].reset_index(drop=True)
        direct = GAME.summarize(df)["by_seat"]
        np.testing.assert_allclose(seats["win_rate"], direct["win_rate"], rtol=1e-12)
        usage = tables["usage"][(tables["usage"]["cell"] == cell["id"]) & (tables["usage"]["counter"] == "busts")]
        busts = np.stack([df[f"busts_{s}"] for s in range(2)], axis=1)
        assert usage["per_seat"].iloc[0] == pytest.approx(busts.mean(), rel=1e-12)
    for r in tables["pairs"].itertuples():
        a, b = plan.cells[r.cell_a], plan.cells[r.cell_b]
        both = whole[r.cell_a][["game"]].assign(a=runs.key_win(whole[r.cell_a], a["key_seats"])).merge(
            whole[r.cell_b][["game"]].assign(b=runs.key_win(whole[r.cell_b], b["key_seats"])), on="game")
        diff, half = analysis.mean_ci((both["b"] - both["a"]).to_numpy())
        assert r.paired_games == len(both)
        assert r.diff == pytest.approx(diff, rel=1e-9, abs=1e-15)
        assert r.diff_ci_high - r.diff == pytest.approx(half, rel=1e-9)


def test_an_output_root_that_cannot_be_written_is_refused_before_playing(tmp_path, capsys):
    spec = tmp_path / "s.toml"
    spec.write_text(BASE + RUN)
    (tmp_path / "a_file").write_text("x")
    with pytest.raises(SystemExit) as stop:
        main(["run", str(spec), "--out-root", str(tmp_path / "a_file" / "res"), "--no-progress"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a file, not a folder" in err


def test_run_files_follow_the_umask(tmp_path):
    import os

    before = os.umask(0o027)
    try:
        run = run_spec(tmp_path, BASE + RUN)
    finally:
        os.umask(before)
    chunk = next((run / "games").rglob("chunk-*.parquet"))
    assert chunk.stat().st_mode & 0o777 == 0o640 and (run / "manifest.json").stat().st_mode & 0o777 == 0o640
