"""Bots written by users (sim/core/userbot.py, docs/bots.md): the example bots play compiled and
as plain Python with the same games; bad bot files are one line and exit code 2 with nothing
written; the compiled bot is cached; a bot works wherever a policy is accepted; the docs show
every decision and accessor, and the tested examples. (Exactness against the built-in bots:
tests/test_userbot_checks.py.)"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.bot_harness import EXAMPLES, FALLBACKS

ROOT = Path(__file__).resolve().parent.parent
def cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize("game", list(EXAMPLES))
def test_an_example_bot_plays_the_same_games_compiled_and_as_plain_python(game, monosim, tmp_path):
    args = [game, "simulate", "--games", "4", "--seed", "3", "--seat", EXAMPLES[game], "--seat", FALLBACKS[game],
            "--no-progress"]
    compiled = monosim(*args, "--out", str(tmp_path / "compiled"))
    assert compiled.returncode == 0, compiled.stderr
    plain = cli("--plain", *args, "--out", str(tmp_path / "plain"))
    assert plain.returncode == 0, plain.stderr
    a, b = (pd.read_parquet(tmp_path / run / "games.parquet") for run in ("compiled", "plain"))
    assert len(a) == 4 and a.equals(b)


BAD_FILES = [
    # (file text, the message's fragments: file:line and what is wrong)
    ("class A:\n    def flip(view, params)\n        return True\n", [":2: syntax error"]),
    ("class A:\n    def flipp(view, params):\n        return True\n", [":2: bot A: 'flipp' is not a decision"]),
    ("class A:\n    def flip(view):\n        return True\n", [":2: bot A: flip(view) must take 2 arguments"]),
    ("def helper(view):\n    return 1\n", ["defines no bot class"]),
    ("class A:\n    params = {'risk': (2.0, 0.0, 1.0)}\n    def flip(view, params):\n        return True\n",
     [":1: bot A: params['risk']: default 2 is outside [0, 1]"]),
    ("class A:\n    fallback = 'nobody'\n    def flip(view, params):\n        return True\n",
     ["bot A: fallback 'nobody': unknown policy 'nobody'"]),
    ("import no_such_module\n", [":1: loading the bot file failed: ModuleNotFoundError"]),
    ("from sim.chance.bots import *\n\nclass A:\n    def flip(view, params):\n        seen = {}\n"
     "        seen['a'] = 'x' + 1\n        return flips_taken(view) < 2\n",
     [":6: bot A, decision flip: numba cannot compile `seen['a'] = 'x' + 1`", "no implementation of add"]),
    ("from sim.chance.bots import *\n\nclass A:\n    def flip(view, params):\n        return no_such(view) < 2\n",
     [":5: bot A, decision flip: NameError: name 'no_such' is not defined"]),
    ("class A:\n    def place_cash(view, params, n_cash, free_parking, blocked):\n        return 3\n",
     [":2: bot A, decision place_cash: the answer must be (k, i)"]),
]


@pytest.mark.parametrize("text, fragments", BAD_FILES, ids=[f[0] for _, f in BAD_FILES])
def test_a_bad_bot_file_is_one_line_exit_2_and_writes_nothing(text, fragments, monosim, tmp_path):
    bot = tmp_path / "mine.py"
    bot.write_text(text)
    out = tmp_path / "out"
    r = monosim("chance", "simulate", "--games", "20", "--seat", str(bot), "--out", str(out))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stderr.startswith("monosim: error: "), r.stderr
    assert str(bot) in r.stderr
    for fragment in fragments:
        assert fragment in r.stderr, r.stderr
    assert not out.exists()


@pytest.mark.parametrize("seat, message", [
    ("tests/bots/nowhere.py", "tests/bots/nowhere.py: cannot read it (No such file"),
    ("tests/bots/chance_checks.py", "name the bot as chance_checks.py:NAME, one of: Fallback, StopAfter"),
    ("tests/bots/chance_checks.py:Nobody", "no bot class 'Nobody'"),
    ("tests/bots/chance_checks.py:StopAfter m=2", "unknown parameter 'm'; known: n"),
    ("tests/bots/chance_checks.py:StopAfter n=99", "n=99 is outside [0, 20]"),
])
def test_a_bad_bot_spec_is_one_line(seat, message, monosim):
    r = monosim("chance", "simulate", "--games", "20", "--seat", seat)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and message in r.stderr, r.stderr


def test_the_compile_time_is_reported_and_a_second_run_loads_the_bot_from_the_cache(tmp_path):
    bot = tmp_path / "fresh.py"  # a new file: no kernel compiled for it yet
    bot.write_text((ROOT / "experiments" / "bots" / "chance_behind.py").read_text())
    args = ["chance", "simulate", "--games", "200", "--seat", str(bot), "--no-progress", "--json"]
    first, second = cli(*args), cli(*args)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert "monosim: compiling the bots of fresh.py (chance), once" in first.stderr
    assert "monosim: compiled the bots of fresh.py in " in first.stderr
    assert "later runs load them from the cache" in first.stderr
    assert "compiled" not in second.stderr
    assert json.loads(first.stdout)["results"] == json.loads(second.stdout)["results"]


def test_bench_times_a_new_bot_file_and_leaves_nothing_compiled(monosim):
    from sim import cache_base

    def benched() -> set:  # the compiled bots of bench's files (other tests may compile bots meanwhile)
        found = (Path(cache_base()) / "bots").rglob("decisions.py")
        return {f.parent for f in found if "_hands_back.py" in f.read_text()}

    before = benched()
    r = monosim("bench", "--bots", "--game", "deal", "--games", "300", "--json")
    assert r.returncode == 0, r.stderr
    deal = json.loads(r.stdout)["results"]["deal"]
    assert deal["compile_seconds"] > 0 and deal["fallback"] == "smart" and deal["games"] == 300
    assert deal["slowdown"] == pytest.approx(deal["fallback_games_per_second"] / deal["bot_games_per_second"])
    assert benched() == before


@pytest.mark.parametrize("game", list(EXAMPLES))
def test_a_stepped_game_with_a_bot_file_answering_is_the_batch_game(game):
    """A bot file's seat played from outside, answered with its bot's own choice at every
    decision, plays the batch game: the step API asks the same decision entry points."""
    from sim.core.game import get
    from sim.core.play import new_game

    table = [EXAMPLES[game], FALLBACKS[game], FALLBACKS[game]]
    for k in range(3):
        s = new_game(game, seats=table, players=3, seed=k, game_index=k, outside=[0])
        while not s.is_terminal():
            s.apply(s.bot_action())
        batch = get(game).simulate(1, 3, table, seed=k, first_game=k)
        assert s.row().reset_index(drop=True).equals(batch.reset_index(drop=True))


def test_a_bot_file_is_the_base_of_a_search_player(monosim):
    r = monosim("deal", "simulate", "--games", "2", "--players", "2", "--seat",
                f"search rollouts=4 base={EXAMPLES['deal']}", "--seat", "smart", "--json")
    assert r.returncode == 0, r.stderr
    # by_policy is ordered by win rate: read seat 0's row, whatever the two games' outcome
    assert json.loads(r.stdout)["results"]["by_seat"][0]["policy"] == f"search rollouts=4 z=2 base={EXAMPLES['deal']}"


def test_a_bot_joins_a_ladder(monosim):
    r = monosim("chance", "ladder", "--players", "2", "--games", "100", "--seat", EXAMPLES["chance"], "--json")
    assert r.returncode == 0, r.stderr
    ranking = json.loads(r.stdout)["results"]["ranking"]
    assert EXAMPLES["chance"] in [row["policy"] for row in ranking]


def test_a_bot_plays_in_a_run_spec_and_its_parameter_is_tuned(monosim, tmp_path):
    table = f'game = "chance"\nseed = 4\nplayers = 2\nseats = ["{EXAMPLES["chance"]}", "smart"]\n'
    spec = tmp_path / "bots.toml"
    spec.write_text('name = "bots"\n' + table + '[run]\ngames = 400\n[sweep]\n"seat.0.risk" = [0.1, 0.5]\n')
    r = monosim("run", str(spec), "--out-root", str(tmp_path / "runs"), "--no-progress", "--threads", "1")
    assert r.returncode == 0, r.stderr
    summary = pd.read_csv(next((tmp_path / "runs" / "bots").iterdir()) / "summary.csv")
    assert sorted(summary["seat.0.risk"]) == [0.1, 0.5]
    tune = tmp_path / "tune.toml"
    tune.write_text('name = "bot"\n' + table + '[search]\n"seat.0.risk" = { step = 0.5 }\n'  # the file's range: 0 to 1
                    "[race]\nfirst_games = 200\nmax_games = 400\nfinalists = 1\nconfirm_games = 400\n")
    r = monosim("tune", str(tune), "--out", str(tmp_path / "tuned"), "--no-progress", "--threads", "1")
    assert r.returncode == 0, r.stderr
    candidates = pd.read_csv(tmp_path / "tuned" / "candidates.csv")
    assert set(candidates["seat.0.risk"].dropna()) >= {0.0, 0.5, 1.0}


@pytest.mark.parametrize("game", list(EXAMPLES))
def test_the_docs_list_every_decision_and_accessor(game):
    import importlib
    import inspect

    text = (ROOT / "docs" / "bots.md").read_text()
    bots = importlib.import_module(f"sim.{game}.bots")
    for d in bots.API.decisions:
        assert f"`{d.name}({', '.join(d.args)})`" in text, d.name
    for name in bots.__all__:
        value = getattr(bots, name)
        if name.isupper():
            assert f"`{name}`" in text, name
        else:
            args = ", ".join(inspect.signature(getattr(value, "py_func", value)).parameters)
            assert f"`{name}({args})`" in text, name


def test_the_bots_the_docs_show_are_the_tested_examples():
    examples = [p.read_text() for p in (ROOT / "experiments" / "bots").glob("*.py")]
    for doc in (ROOT / "README.md", ROOT / "docs" / "bots.md"):
        blocks = [b.split("```", 1)[0] for b in doc.read_text().split("```python\n")[1:]]
        shown = [b for b in blocks if "class " in b]
        assert shown, doc
        for block in shown:
            assert any(block in text for text in examples), f"{doc.name}: a bot that is not in experiments/bots/"
