"""A Monopoly Chance bot: smart, but careful when a round's end is near and it is not behind.

The rollout player's lesson (docs/chance.md, "A position-aware player"): where playing the game
out overrules the turn rule, it mostly says cash out, and most often on the round's last turns
when the player is level with or ahead of every opponent, with a good stake in hand. This bot
is that lesson as one cheap rule.

Play it:  monosim chance simulate --seat experiments/bots/chance_careful_leader.py:CarefulLeader
"""

from sim.chance.bots import *


class CarefulLeader:
    """On the round's last turns, when level with or ahead of the leading opponent, cashes out
    once the Cash in hand that can take a property reaches `stake`; otherwise plays smart."""

    fallback = "smart"
    params = {"stake": (12.0, 0.0, 60.0, "useful Cash that ends the turn on the round's last turns, when not behind")}

    def flip(view, params):
        if round_ending(view) and my_skyline(view) >= leader_skyline(view) and useful_cash(view) >= params.stake:
            return False
        return FALLBACK
