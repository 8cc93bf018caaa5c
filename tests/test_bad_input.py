"""The bad-input table: for every command, input it cannot use gets one line on stderr and exit
code 2, before any work, and nothing is written. Grow it whenever a traceback is found."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.cli import main

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "experiments" / "seat_advantage.toml"

# (arguments, a fragment of the message); OUT in an argument is a path that must stay unwritten.
TABLE = [
    # simulate, the same for every game
    (["chance", "simulate", "--games", "0"], "--games must be at least 1"),
    (["chance", "simulate", "--seed", "-1"], "--seed must be"),
    (["chance", "simulate", "--threads", "0"], "--threads must be"),
    (["chance", "simulate", "--chunk-size", "0"], "--chunk-size must be"),
    (["chance", "simulate", "--keep", "all", "--out", "OUT"], "--keep must be one of"),
    (["chance", "simulate", "--rule", "finish_mark=99999999999999999999", "--out", "OUT"], "out of range"),
    (["chance", "simulate", "--rule", "finish_mark=ten"], "bad value"),
    (["chance", "simulate", "--rule", "nonsense"], "write KEY=VALUE"),
    (["chance", "simulate", "--rule", "deck.cash5=1000000000"], "a count must be 0 to"),
    (["deal", "simulate", "--rule", "deck.just_say_no=1000000000", "--out", "OUT"], "a count must be 0 to"),
    (["deal", "simulate", "--rule", "deck.just_say_no=150"], "cards in a game"),
    (["deal", "simulate", "--players", "1"], "--players must be"),
    (["classic", "simulate", "--seat", "strong nope=1"], "nope"),
    (["classic", "simulate", "--rule", "starting_cash=99999999999"], "starting_cash"),
    (["cardgame", "simulate", "--rule", "target=99999999999"], "out of range"),
    (["cardgame", "simulate", "--edition", "tv"], "--edition must be one of"),
    (["cardgame", "simulate", "--players", "2"], "--players must be 3 to 6"),
    (["deal", "simulate", "--seat", "search rollouts=0"], "rollouts must be a whole number"),
    (["deal", "simulate", "--seat", "search z=-1"], "z must be a number"),
    (["deal", "simulate", "--seat", "search depth=3"], "unknown setting 'depth=3'"),
    (["deal", "simulate", "--seat", "search method=mcts"], "method must be flat or ismcts"),
    (["bench", "--search", "1", "--method", "mcts"], "--method must be flat or ismcts"),
    (["classic", "simulate", "--seat", "search kinds=buy,sell"], "unknown decision kind 'sell'"),
    (["cardgame", "simulate", "--seat", "search base=search"], "not another search player"),
    (["chance", "simulate", "--seat", "search base=nobody"], "unknown policy 'nobody'"),
    (["cardgame", "simulate", "--seat", "search rollouts=8", "--seat", "smart", "--seat", "smart", "--players", "3",
      "--games", "2", "--out", "OUT"],
     "not kept for a table with a search player"),
    # rules and replay
    (["deal", "rules", "--edition", "x"], "No such option"),
    (["chance", "replay", "--game", "-5"], "--game must be a game number"),
    (["deal", "replay", "--where", "turns >", "--games", "10"], "cannot read it"),
    (["replay", "OUT"], "is not a run folder"),
    # Chance's own commands
    (["chance", "odds", "--flips", "1000000"], "--flips must be at most 64"),
    (["chance", "odds", "--flipped", "99"], "deck holds 0"),
    (["chance", "advise", "--games", "-1"], "--games must be 0 or more"),
    (["chance", "advise", "--objective", "fun"], "--objective must be one of"),
    (["chance", "advise", "--policy", "nobody"], "nobody"),
    (["chance", "study", "--games", "0", "--out", "OUT"], "--games must be at least 1"),
    (["chance", "study", "--players", "5", "--out", "OUT"], "--players must be 2 to 4"),
    # classic's own commands
    (["classic", "landing", "--jail", "maybe"], "--jail must be short or long"),
    (["classic", "landing", "--rolls", "5"], "--rolls must be between"),
    (["classic", "position", "OUT"], "cannot read it"),
    (["classic", "values", "--games", "0"], "--games must be at least 1"),
    (["classic", "house-rules", "--players", "1"], "--players must be"),
    # the card game's own commands
    (["cardgame", "values", "--players", "9"], "--players must be"),
    (["cardgame", "seats", "--policy", "nobody"], "nobody"),
    (["cardgame", "house-rules", "--games", "0"], "--games must be at least 1"),
    (["chance", "ladder", "--players", "9"], "--players must be"),
    (["deal", "ladder", "--games", "0"], "--games must be at least 1"),
    # hostile or impossible input (issue 39): --where is a condition, never code
    (["chance", "replay", "--games", "20", "--where", "@pd.io.common.os.system('touch OUT') == 0"], "cannot read it"),
    (["chance", "replay", "--games", "20", "--where", "__import__('os').system('touch OUT') == 0"], "a call is not allowed"),
    (["chance", "replay", "--games", "20", "--where", "winner.__class__ == 1"], "an attribute is not allowed"),
    (["chance", "replay", "--games", "20", "--where", "turns[0] == 1"], "a subscript is not allowed"),
    (["chance", "replay", "--games", "20", "--where", "(lambda: 1)() == 1"], "not allowed"),
    (["chance", "replay", "--games", "20", "--where", "winner"], "is not a condition"),
    (["chance", "replay", "--games", "20", "--where", "turns*0"], "is not a condition"),
    (["chance", "replay", "--games", "20", "--where", "nothing == 1"], "has no column 'nothing'"),
    (["chance", "simulate", "--games", str(2**63)], "--games must be at most 2**62"),
    (["chance", "advise", "--games", str(10**13)], "more than this command can hold in memory"),
    (["deal", "ladder", "--games", str(10**13)], "more than this command can hold in memory"),
    (["bench", "--games", str(10**14), "--game", "deal"], "more than this command can hold in memory"),
    (["chance", "position", "experiments/chance-position.toml", "-n", str(10**13)], "can hold in memory"),
    (["chance", "simulate", "--seat", "bust_threshold p=0.1 p=0.9"], "p given more than once"),
    (["chance", "advise", "--policy", ""], "--policy: give a policy"),
    (["chance", "advise", "--beat", "-1"], "--beat must be 0 or more"),
    (["chance", "odds", "--flipped", "\u0667,11"], "comma-separated whole numbers"),
    (["chance", "simulate", "--games", "10", "--chunk-size", "100"], "a chunk is at most the whole run"),
    (["chance", "simulate", "--keep", "", "--out", "OUT"], "--keep must be one of"),
    (["chance", "simulate", "--rule", "die=3000000000", "--out", "OUT"], "out of range"),
    (["chance", "simulate", "--rule", "deck.cash3000000000=1", "--out", "OUT"], "out of range"),
    (["cardgame", "simulate", "--rule", "group_values=3000000000,150,200,250,300,350,400,500,400,200", "--out", "OUT"],
     "out of range"),
    (["chance", "simulate", "--out", ""], "give the folder a name of its own"),
    (["chance", "simulate", "--out", "/proc/monosim-out"], "cannot make a folder in /proc"),
    # the commands across games
    (["run", "OUT"], "cannot read it"),
    (["run", str(SPEC), "--workers", "0", "--out-root", "OUT"], "--workers must be at least 1"),
    (["run", str(SPEC), "--workers", "1", "--scheduler", "tcp://x:1", "--out-root", "OUT"], "not both"),
    (["tune", "OUT"], "cannot read it"),
    (["report", "OUT"], "is not a run folder"),
    (["compare", "OUT", "OUT"], "is not a run folder"),
    (["bench", "--games", "0"], "--games must be at least 1"),
    (["bench", "--game", "poker"], "is not one of"),
    (["bench", "--repeat", "0"], "--repeat must be at least 1"),
]


def run_main(capsys, args: list[str]) -> tuple[int, str]:
    try:
        main(args)
        code = 0
    except SystemExit as e:
        code = e.code
    return code, capsys.readouterr().err


@pytest.mark.parametrize("args, message", TABLE, ids=[" ".join(a)[:60] for a, _ in TABLE])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, monkeypatch, args, message):
    def no_games(*a):  # refused before any work: no kernel is called (nor compiled)
        raise AssertionError("a game was played before the input was refused")

    monkeypatch.setattr("sim.core.game.PreparedRun.kernel_call", no_games)
    out = tmp_path / "out"
    code, err = run_main(capsys, [str(out) if a == "OUT" else a for a in args])
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("monosim: error: ") and message in err, err
    assert not out.exists()


def write(tmp_path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_files_monosim_cannot_read_are_one_line(tmp_path, capsys):
    cases = [
        (["run", write(tmp_path, "latin1.toml", b'name = "caf\xe9"\n')], "not UTF-8 text"),
        (["tune", write(tmp_path, "latin1b.toml", b'name = "caf\xe9"\n')], "not UTF-8 text"),
        (["classic", "position", write(tmp_path, "p.toml", b"players = 2 \xff\n")], "not UTF-8 text"),
        (["run", write(tmp_path, "long.toml", f'name = "{"x" * 300}"\ngame = "chance"\n'.encode())], "name"),
    ]
    for args, message in cases:
        code, err = run_main(capsys, [str(a) for a in args])
        assert code == 2 and err.count("\n") == 1 and message in err, (args, err)


def test_damaged_run_folders_are_one_line(tmp_path, capsys):
    spec = write(tmp_path, "t.toml", b'name = "t"\ngame = "deal"\nseed = 1\nplayers = 2\n[run]\ngames = 30\n'
                 b'chunk_size = 10\n[outputs]\nplots = false\n')
    other = write(tmp_path, "o.toml", b'name = "o"\ngame = "chance"\nseed = 1\nplayers = 2\n[run]\ngames = 20\n'
                  b'chunk_size = 10\n[outputs]\nplots = false\n')
    for s in (spec, other):
        assert run_main(capsys, ["run", str(s), "--out-root", str(tmp_path / "r"), "--no-progress"])[0] == 0
    deal_run = next((tmp_path / "r" / "t").iterdir())
    chance_run = next((tmp_path / "r" / "o").iterdir())
    code, err = run_main(capsys, ["compare", str(deal_run), str(chance_run)])
    assert code == 2 and "compare runs of one game" in err
    chunk = next((deal_run / "games" / "cell=000").iterdir())
    chunk.write_bytes(b"not parquet")
    for args in (["report", str(deal_run)], ["replay", str(deal_run), "--longest"]):
        code, err = run_main(capsys, args)
        assert code == 2 and err.count("\n") == 1 and "the run folder is damaged" in err, (args, err)
    (deal_run / "resolved.json").write_text("{broken")
    for args in (["report", str(deal_run)], ["run", str(deal_run), "--resume"], ["replay", str(deal_run)]):
        code, err = run_main(capsys, args)
        assert code == 2 and err.count("\n") == 1 and "damaged" in err, (args, err)


def test_a_study_refuses_a_folder_that_is_not_empty(tmp_path, capsys):
    out = tmp_path / "study"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    code, err = run_main(capsys, ["chance", "study", "--games", "10", "--out", str(out)])
    assert code == 2 and "not empty" in err
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


@pytest.mark.parametrize("value", ["0", "-2", "many"])
def test_a_bad_thread_count_in_the_environment_is_one_line(value):
    env = {**os.environ, "NUMBA_NUM_THREADS": value}
    done = subprocess.run([sys.executable, "-m", "sim", "chance", "simulate", "-n", "10"], cwd=ROOT,
                          capture_output=True, text=True, env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "NUMBA_NUM_THREADS" in done.stderr


def test_a_bug_is_one_line_with_exit_1_and_the_traceback_on_request(monkeypatch, capsys):
    from sim.core import game

    def broken(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(game.Game, "prepare", broken)
    code, err = run_main(capsys, ["chance", "simulate", "-n", "5"])
    assert code == 1 and err.count("\n") == 1 and "internal error: RuntimeError: boom" in err
    monkeypatch.setenv("MONOSIM_DEBUG", "1")
    with pytest.raises(RuntimeError):
        main(["chance", "simulate", "-n", "5"])


def test_files_that_are_not_regular_files_or_too_deep_are_refused(tmp_path, capsys):
    """A FIFO would block the read, a device would never end, deep nesting would overflow the
    parser's stack: each is one line, at once."""
    fifo = tmp_path / "spec.toml"
    os.mkfifo(fifo)
    deep_json = write(tmp_path, "deep.json", b"[" * 100_000 + b"]" * 100_000)
    deep_toml = write(tmp_path, "deep.toml", b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    cases = [
        (["run", str(fifo)], "not a regular file"),
        (["tune", "/dev/zero"], "not a regular file"),
        (["classic", "position", str(fifo)], "not a regular file"),
        (["chance", "position", "/dev/urandom"], "not a regular file"),
        (["chance", "simulate", "-n", "5", "--seat", f"{fifo}.py"], "not a regular file"),
        (["chance", "position", str(deep_json)], "nested too deeply"),
        (["classic", "position", str(deep_toml)], "nested too deeply"),
        (["run", str(deep_toml)], "nested too deeply"),
    ]
    os.mkfifo(f"{fifo}.py")
    for args, message in cases:
        code, err = run_main(capsys, args)
        assert code == 2 and err.count("\n") == 1 and message in err, (args, err)


def test_a_symlinked_or_dangling_out_folder_is_refused_before_playing(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    (tmp_path / "link").symlink_to(empty)
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    for name in ("link", "dangling"):
        code, err = run_main(capsys, ["chance", "simulate", "-n", "10", "--out", str(tmp_path / name)])
        assert code == 2 and "is a symbolic link" in err, err
    assert not list(empty.iterdir()) and not (tmp_path / "nowhere").exists()


def test_damaged_run_folders_name_the_file(tmp_path, capsys):
    import json

    import pandas as pd

    spec = write(tmp_path, "d.toml", b'name = "d"\ngame = "deal"\nseed = 1\nplayers = 2\n[run]\ngames = 40\n'
                 b'chunk_size = 20\n[outputs]\nplots = false\n')
    assert run_main(capsys, ["run", str(spec), "--out-root", str(tmp_path / "r"), "--no-progress"])[0] == 0
    run = next((tmp_path / "r" / "d").iterdir())
    resolved = json.loads((run / "resolved.json").read_text())

    def damaged(change) -> str:
        data = json.loads(json.dumps(resolved))
        change(data)
        (run / "resolved.json").write_text(json.dumps(data))
        errors = []
        for args in (["report", str(run)], ["replay", str(run)], ["compare", str(run), str(run)]):
            code, err = run_main(capsys, args)
            assert code == 2 and err.count("\n") == 1, (args, err)
            errors.append(err)
        return errors[0]

    assert "no cells" in damaged(lambda d: d.update(cells=[]))
    assert "seed 'x'" in damaged(lambda d: d["spec"].update(seed="x"))
    (run / "resolved.json").write_text(json.dumps(resolved))
    chunk = run / "games" / "cell=000" / "chunk-00000.parquet"
    pd.read_parquet(chunk).rename(columns={"winner": "victor"}).to_parquet(chunk)
    for args in (["report", str(run)], ["replay", str(run), "--longest"]):
        code, err = run_main(capsys, args)
        assert code == 2 and f"{chunk}: no column winner" in err, (args, err)
