"""Compile (or load from the cache) the entries of these games' kernels that most tests play
through: the batch, the replay and the step entries. tests/conftest.py runs it before the test
workers start, two processes at a time, so that no kernel is compiled by both workers at once.

    python tests/warm_kernels.py chance classic
"""

import sys

from sim.core.game import simulate
from sim.core.play import new_game
from sim.core.replay import replay

for name in sys.argv[1:]:
    simulate(name, 1)
    replay(name, 0)
    new_game(name)
