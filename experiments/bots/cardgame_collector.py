"""A Monopoly: The Card Game bot: take from the piles what it already collects.

Play it:  monosim cardgame simulate --seat experiments/bots/cardgame_collector.py:Collector
"""

from sim.cardgame.bots import *


class Collector:
    """Trades one card for a pile's top card when that is a property of a colour it already
    holds at least `min_held` of, and goes out as soon as its hand can. Every other move and
    every discard is smart's."""

    fallback = "smart"
    params = {"min_held": (2.0, 1.0, 4.0, "property cards of a colour held before it trades for more")}

    def move(view, params, big):
        if big:
            return (FALLBACK, 0, 0, 0)
        for pile in range(piles(view)):
            if not can_trade_with(view, pile) or pile_size(view, pile) == 0:
                continue
            kind = pile_card(view, pile, 0)
            if PROPERTY <= kind < PROPERTY + 10 and held(view, kind) >= params.min_held:
                if legal(view, TRADE, pile, 1, 0, False):
                    return (TRADE, pile, 1, 0)
        return (FALLBACK, 0, 0, 0)

    def go_out(view, params):
        return True
