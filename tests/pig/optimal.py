"""Optimal play of two-player Pig by value iteration (Neller and Presser, "Optimal Play of the
Dice Game Pig", 2004): P[i, j, k], the chance that the player to move wins with score i
against j and turn total k, is the better of rolling and holding,

    roll: (1 - P[j, i, 0]) / die + sum over r = 2 .. die of P[i, j, k + r] / die
    hold: 1 - P[j, i + k, 0]

with P = 1 once i + k reaches the goal. With the goal 100 and a six-sided die the first
player wins 0.5306 of the games when both play it.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit


@functools.lru_cache(maxsize=4)
def solve(goal: int = 100, die: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """(P, roll): the win chances P[i, j, k] and the optimal choice roll[i, j, k] (True: roll)
    for scores i, j < goal and turn totals k < goal."""
    P = np.zeros((goal, goal, goal + die))
    rolls = np.zeros((goal, goal, goal), np.bool_)
    _solve(P, rolls, goal, die, 1e-13)
    return P[:, :, :goal], rolls


@njit(cache=True)
def _solve(P, rolls, goal, die, tolerance):
    """A state's chances depend on those of its own score sum i + j (a 1 rolled hands the turn
    over at the same scores) and of higher sums only: solve the sums from the highest down, each
    by value iteration, the turn totals of a pair of scores from the highest down (so that one
    sweep settles all but the chances after a 1)."""
    for i in range(goal):
        for k in range(goal - i, goal + die):
            P[i, :, k] = 1.0
    for total in range(2 * goal - 2, -1, -1):
        for _ in range(100_000):
            delta = 0.0
            for i in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
                j = total - i
                for k in range(goal - i - 1, -1, -1):
                    roll = (1.0 - P[j, i, 0]) / die
                    for r in range(2, die + 1):
                        roll += P[i, j, k + r] / die
                    hold = 1.0 - P[j, i + k, 0]
                    best = max(roll, hold)
                    delta = max(delta, abs(best - P[i, j, k]))
                    P[i, j, k] = best
                    rolls[i, j, k] = roll > hold
            if delta < tolerance:
                break


def policy_table(goal: int, die: int) -> np.ndarray:
    """The optimal choice as the table the kernel's `table` bot reads: pt[(i * goal + j) * goal
    + k] is 1.0 to roll."""
    return solve(goal, die)[1].astype(np.float64).ravel()
