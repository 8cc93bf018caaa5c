"""Compile (or load from the cache) the entries of these games' kernels that most tests play
through: play_batch, play_steps (replays and stepped games) and play_rollouts (the search
player). tests/conftest.py runs it before the test workers start, two processes at a time, so
that no kernel is compiled by both workers at once.

    python tests/warm_kernels.py chance classic
"""

import sys

from sim.core.game import simulate
from sim.core.play import new_game, playouts
from sim.core.replay import replay

for name in sys.argv[1:]:
    simulate(name, 1)
    replay(name, 0)  # play_steps, with the event log on
    state = new_game(name)  # play_steps, with the decision channel too
    playouts([(state, state.legal_actions()[0])])  # play_rollouts
