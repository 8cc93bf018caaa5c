"""The contract every registered game keeps, part 3: each game bounds-checked. In a file of its
own so that the test workers compile these builds beside the other tests."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.core.game import GAME_NAMES

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
