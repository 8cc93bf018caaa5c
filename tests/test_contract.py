"""The contract every registered game keeps (sim/core/game.py), tested once for all of them:
golden tables, determinism across threads and chunks, compiled against plain-Python play,
invariants under random house-rule combinations, a bounds-checked run, and the CLI shell.
Rule scenarios stay with each game (test_<game>_rules.py)."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest

import golden
from sim.core import rule_changes
from sim.core.game import GAME_NAMES, get

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = golden.load()
# Each game, the card game once per edition: (id, game, rule changes)
VARIANTS = [(name, name, []) for name in GAME_NAMES if not get(name).presets] + [
    (f"{name}-{p}", name, [f"edition={p}"]) for name in GAME_NAMES for p in get(name).presets]
IDS = [v[0] for v in VARIANTS]
THREADS = min(2, numba.config.NUMBA_NUM_THREADS)


@pytest.mark.parametrize("case", golden.CASES, ids=[c[0] for c in golden.CASES])
def test_golden_tables_are_unchanged(case):
    assert golden.differences(EXPECTED[case[0]], golden.compute(case)) == []


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_thread_count_and_chunk_size_change_nothing(variant, name, changes):
    game = get(name)
    rules = game.rules_from(changes)
    detail = game.detail_tables is not None
    base = game.simulate(600, 4, None, rules, seed=11, threads=1, chunk_size=600, check=True, detail=detail)
    other = game.simulate(600, 4, None, rules, seed=11, threads=THREADS, chunk_size=97, check=True, detail=detail)
    if detail:
        (base, base_detail), (other, other_detail) = base, other
        assert base_detail.keys() == other_detail.keys()
        for key in base_detail:
            a, b = base_detail[key], other_detail[key]
            if isinstance(a, pd.DataFrame):
                pd.testing.assert_frame_equal(a, b)
            else:
                np.testing.assert_array_equal(a, b)
    pd.testing.assert_frame_equal(base, other)


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_a_slice_of_games_is_the_same_games_in_a_longer_run(variant, name, changes):
    game = get(name)
    rules = game.rules_from(changes)
    long = game.simulate(500, 4, ["random"], rules, seed=3, chunk_size=100)
    middle = game.simulate(200, 4, ["random"], rules, seed=3, first_game=150)
    pd.testing.assert_frame_equal(middle, long.iloc[150:350].reset_index(drop=True))
    other_seed = game.simulate(200, 4, ["random"], rules, seed=4, first_game=150)
    assert not other_seed["turns"].equals(middle["turns"])


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_default_table_fills_every_seat(name):
    game = get(name)
    assert len(game.default_table) >= game.max_players
    for spec in game.default_table:
        assert game.check_policy(spec) == spec


def random_house_rules(game, rng: random.Random) -> list[str]:
    """A random combination of the game's true/false house rules."""
    switches = sorted(k for k, parse in game.rule_parsers.items() if parse is rule_changes.parse_bool)
    return [f"{k}={str(rng.random() < 0.5).lower()}" for k in switches]


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_invariants_hold_under_random_house_rule_combinations(variant, name, changes, long_run):
    game = get(name)
    rng = random.Random(variant)
    played = 0
    for k in range(24 if long_run else 6):
        combination = changes + random_house_rules(game, rng)
        rules = game.rules_from(combination)
        lo, hi = game.players_for_rules(rules)[:2] if game.players_for_rules else (game.min_players, game.max_players)
        players = rng.randint(lo, min(hi, 5))
        try:  # some combinations cannot be played (the rules say why); they are not the point here
            specs, kinds, params = game.make_table(players, ["random"], rules)
            game.inputs(rules, players, kinds, params, {})
        except ValueError:
            continue
        df = game.simulate(200, players, ["random"], rules, seed=k, threads=THREADS, check=True)
        assert len(df) == 200
        wins = sum(df[f"win_{s}"] for s in range(players))
        assert ((wins == 0) | np.isclose(wins, 1.0)).all()  # each game's win shared out once, or nobody won
        played += 1
    assert played >= 3


BOUNDS_CHECKED = """
import sys
from sim.core.game import get
game = get(sys.argv[1])
for players, seats in ((4, None), (3, ["random"] * 3)):
    game.simulate(200, players, seats, seed=11, check=True)
print("ok")
"""


@pytest.mark.parametrize("name", GAME_NAMES)
def test_games_stay_inside_their_arrays(name):
    """numba checks no bounds by default, and the project's code indexes without wrap-around
    (sim/core/jit.py), so an index outside an array would silently read or write the wrong
    memory. Under NUMBA_BOUNDSCHECK=1 every such index raises IndexError. The bounds-checked
    build is cached apart (numba's cache does not tell the two builds apart)."""
    cache = os.path.join(os.environ["NUMBA_CACHE_DIR"], "boundscheck")
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=cache)
    done = subprocess.run([sys.executable, "-c", BOUNDS_CHECKED, name], cwd=ROOT, env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


# Each game's kernel run as plain Python (NUMBA_DISABLE_JIT=1) in a child process, a few games
# with invariant checks on, then compared whole with the compiled run: numba's integer widths,
# the index wrap-around switched off in sim/core/jit.py, or an intrinsic's Python stand-in
# would show here.
PLAIN_RUN = """
import ast, sys, warnings
warnings.simplefilter("ignore")  # numpy warns on the random generators' intended uint64 wrap-around
from sim.core.game import get
game = get(sys.argv[1])
rules = game.rules_from(ast.literal_eval(sys.argv[2]))
extra = ast.literal_eval(sys.argv[4])
game.simulate(int(sys.argv[3]), 4, rules=rules, seed=11, threads=1, check=True, **extra).to_pickle(sys.argv[5])
"""
PLAIN_CASES = [("chance", [], 30, {}), ("deal", [], 30, {}),
               ("deal", [], 20, {"deck_edits": {1: {"wild_any": 1, "just_say_no": 1}}}),
               ("classic", [], 20, {}), ("cardgame", ["edition=wiki"], 20, {}), ("cardgame", ["edition=video"], 20, {}),
               ("cardgame", [], 15, {"deck_edits": {0: {"chance": 1}}})]


@pytest.mark.parametrize("name, changes, games, extra", PLAIN_CASES)
def test_compiled_games_are_the_games_of_the_plain_python_source(tmp_path, name, changes, games, extra):
    out = tmp_path / "plain.pkl"
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    subprocess.run([sys.executable, "-c", PLAIN_RUN, name, repr(changes), str(games), repr(extra), str(out)],
                   cwd=ROOT, env=env, check=True)
    game = get(name)
    compiled = game.simulate(games, 4, rules=game.rules_from(changes), seed=11, threads=1, check=True, **extra)
    pd.testing.assert_frame_equal(pd.read_pickle(out), compiled)


PLAIN_NUMBA = """
import re, sys
sys.path.insert(0, "tests")
import golden
from sim.core import jit
from sim.core.game import get
assert not jit.HOOKS_ON
for case in golden.CASES:
    if case[1] in sys.argv[1:]:
        print(case[0], golden.differences(golden.load()[case[0]], golden.compute(case)))
ir = "".join(lib.get_llvm_str() for cres in get(sys.argv[1]).kernel.play_batch.overloads.values()
             for lib in cres.library._linking_libraries if lib.name.startswith("__numba_parfor_gufunc"))
print("internal copies", len(re.findall(r"[.]batch", ir)))
"""


def test_plain_numba_plays_the_golden_games(tmp_path, long_run):
    """With every hook of sim/core/jit.py off, the same games: the hooks change speed and
    compile time only. Compiled afresh (so the batch loop's IR is at hand to show the hooks
    were off): Chance in the short run, every game under --long."""
    names = list(GAME_NAMES) if long_run else ["chance"]
    env = {**os.environ, "MONOSIM_PLAIN_NUMBA": "1", "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", PLAIN_NUMBA, *names], cwd=ROOT, env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    cases = [c[0] for c in golden.CASES if c[1] in names]
    assert lines[:-1] == [f"{c} []" for c in cases]
    assert lines[-1] == "internal copies 0"


# ---- the CLI shell, made once for every game ----

def monosim(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], cwd=ROOT, capture_output=True, text=True)


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_cli_simulate_json_rules_and_policies(variant, name, changes):
    game = get(name)
    edition = [f"--edition={changes[0].split('=')[1]}"] if changes else []
    done = monosim(name, "simulate", "--games", "40", "--seed", "3", "--json", "--no-progress", *edition)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert [r["seat"] for r in summary["by_seat"]] == list(range(game.default_players))
    assert sum(r["wins"] for r in summary["by_seat"]) <= 40
    shown = json.loads(monosim(name, "rules", "--json", *edition).stdout)
    assert shown == json.loads(json.dumps(game.describe_rules(game.rules_from(changes))))
    listing = monosim(name, "policies").stdout
    assert all(kind in listing for kind in game.catalog.kinds)


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


def test_the_readme_python_example_runs():
    text = (ROOT / "README.md").read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0].replace("100_000", "2_000")
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert len(namespace["games"]) == 2_000 and namespace["games"].attrs["rules"]["finish_mark"] == 20
