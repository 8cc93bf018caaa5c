"""The event log a replayed game writes from inside its kernel (sim/core/replay.py reads it).

A game records its play-by-play only when its state array is longer than the game's own
STATE_SIZE: the tail is the log. Its first cell counts the events, the second holds the
capacity in rows, the third where a stepped game's decision channel starts (0: none;
sim/core/decisions.py), then come rows of EVENT_WIDTH cells: kind, seat, card, amount, target. In a
normal run the state has no tail, so each log call costs one comparison and writes nothing;
the game played is the same code either way.

Kinds below FIRST_GAME_KIND mean the same in every game; each game numbers its own from there
(EV_* in sim/<game>/layout.py).
"""

import numpy as np

from sim.core.jit import njit_inline

LOG_HEAD = 3  # cells before the first row: events counted, capacity in rows, decision channel
EVENT_WIDTH = 5
EVENT_FIELDS = ("kind", "seat", "card", "amount", "target")

# Kinds every game logs.
EV_TURN = 0  # seat's turn starts
EV_ROUND = 1  # amount: the round that starts (1 is the first)
EV_SEAT_STATE = 2  # a seat's standing at the end of a round; card, amount, target: the game's
EV_GAME_END = 3  # seat: the winner (-1: shared or none); amount: why it ended (the game's codes)
EV_REFUSED = 4  # a bot's refused answer, three of its numbers a row (card, amount, target), in order
FIRST_GAME_KIND = 8


@njit_inline
def log_event(S, state_size, kind, seat, card, amount, target):
    """Append an event to the log after S[:state_size], if S has one. Events past the capacity
    are counted, not written, so the reader can ask again with room for all."""
    if S.shape[0] > state_size:
        n = S[state_size]
        if n < S[state_size + 1]:
            row = state_size + LOG_HEAD + n * EVENT_WIDTH
            S[row] = kind
            S[row + 1] = seat
            S[row + 2] = card
            S[row + 3] = amount
            S[row + 4] = target
        S[state_size] = n + 1


def with_log(S: np.ndarray, state_size: int, rows: int) -> np.ndarray:
    """A copy of state S (its first state_size cells) followed by an empty log of `rows` rows:
    a scripted test's table that records what its kernel calls do."""
    out = np.zeros(state_size + LOG_HEAD + rows * EVENT_WIDTH, S.dtype)
    out[:state_size] = S[:state_size]
    out[state_size + 1] = rows
    return out
