"""The kernels never index outside their arrays: games played with numba's bounds checks on.

The project's code is compiled without negative-index wrap-around (sim/core/jit.py), and
numba checks no bounds by default, so an index outside an array would silently read or
write the wrong memory. Under NUMBA_BOUNDSCHECK=1 every such index raises IndexError.
Bounds-checked code is compiled in a process of its own, with a cache folder of its own
(numba's cache does not tell the two builds apart). Compiling is the cost (one to three and
a half minutes a game): the short run checks the kernel that compiles fastest, --long all four.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHORT = ["chance"]
ALL = SHORT + ["cardgame", "deal", "classic"]

PLAY = """
import importlib, sys
api = importlib.import_module(f"sim.{sys.argv[1]}.api")
for players, seats in ((4, None), (3, None), (4, ["random"] * 4)):
    api.simulate(300, players, seats=seats, seed=11, check=True)
print("ok")
"""


def pytest_generate_tests(metafunc):
    if "game" in metafunc.fixturenames:
        metafunc.parametrize("game", ALL if metafunc.config.getoption("--long") else SHORT)


def test_games_stay_inside_their_arrays(game):
    cache = os.path.join(os.environ["NUMBA_CACHE_DIR"], "boundscheck")
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=cache)
    done = subprocess.run(
        [sys.executable, "-c", PLAY, game], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
