"""The contract every registered game keeps, part 2: the builds. Each game bounds-checked,
compiled against its plain-Python source, and on plain numba (sim/core/jit.py's hooks off).
Each build compiles every game again (minutes on a fresh machine), so `make test` leaves them to
`make test-builds`, which CI runs after it (the `builds` mark)."""

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import golden
from sim.core.game import GAME_NAMES, get

ROOT = Path(__file__).resolve().parent.parent


BOUNDS_CHECKED = """
import sys
from sim.core.game import get
game = get(sys.argv[1])
for players, seats in ((4, None), (3, ["random"] * 3)):
    game.simulate(200, players, seats, seed=11, check=True)
if game.name == "chance":  # games that pause for rollouts, and games played on from a position
    from sim.chance import position
    from sim.chance.advise import advise_position
    game.simulate(20, 3, ["rollout rollouts=4 z=0.5"], seed=11, check=True)
    advise_position(position.load("experiments/chance-position.toml"), precision=0.2)
print("ok")
"""


@pytest.mark.builds
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
# Every registered game, each of its editions, and the deck edits of the games that have them.
PLAIN_CASES = [(name, [f"edition={p}"] if p else [], 20, {}) for name in GAME_NAMES
               for p in (get(name).rules.presets or [None])] + [
    ("deal", [], 20, {"deck_edits": {1: {"wild_any": 1, "just_say_no": 1}}}),
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
ir = "".join(lib.get_llvm_str() for cres in get(sys.argv[1]).kernel.module.play_batch.overloads.values()
             for lib in cres.library._linking_libraries if lib.name.startswith("__numba_parfor_gufunc"))
print("internal copies", len(re.findall(r"[.]batch", ir)))
"""


@pytest.mark.builds
def test_plain_numba_plays_the_golden_games(tmp_path):
    """With every hook of sim/core/jit.py off, the same games of every game: the hooks change
    speed and compile time only. Compiled afresh (so the batch loop's IR is at hand to show the
    hooks were off)."""
    names = list(GAME_NAMES)
    env = {**os.environ, "MONOSIM_PLAIN_NUMBA": "1", "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", PLAIN_NUMBA, *names], cwd=ROOT, env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    cases = [c[0] for c in golden.CASES if c[1] in names]
    assert lines[:-1] == [f"{c} []" for c in cases]
    assert lines[-1] == "internal copies 0"
