"""A Monopoly Chance bot: take risks only while behind.

Play it:  monosim chance simulate --seat experiments/bots/chance_behind.py:Behind
"""

from sim.chance.bots import *


class Behind:
    """While it trails the leader, flips as long as the next flip's bust chance is below
    `risk`; when level or ahead, and for every other decision, it plays smart."""

    fallback = "smart"
    params = {"risk": (0.3, 0.0, 1.0, "the largest bust chance it takes while behind")}

    def flip(view, params):
        if my_skyline(view) < leader_skyline(view):
            return bust_chance(view) < params.risk
        return FALLBACK
