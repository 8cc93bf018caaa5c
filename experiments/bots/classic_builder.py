"""A classic Monopoly bot: build to three houses on every street before any fourth.

Play it:  monosim classic simulate --seat experiments/bots/classic_builder.py:Builder
"""

from sim.classic.bots import *


class Builder:
    """Buys every deed it lands on while it keeps `reserve` dollars; builds evenly to three
    houses (the steep step in rent) on its cheapest streets first, keeping `reserve` too, and
    only then lets strong build further. Pays its way out of jail early in the game, while
    deeds are unowned. Auctions, trades and the rest are strong's."""

    fallback = "strong"
    params = {
        "reserve": (150.0, 0.0, 1000.0, "cash kept after buying or building"),
        "early": (6.0, 0.0, 28.0, "pay out of jail while at least this many deeds are unowned"),
    }

    def buy(view, params, square):
        return cash(view, my_seat(view)) - price(view, square) >= params.reserve

    def build(view, params):
        me = my_seat(view)
        best, best_cost = -1, 1 << 30
        for square in range(SQUARES):
            if level(view, square) < 3 and can_build_on(view, square):
                cost = house_cost(view, square)
                if cash(view, me) - cost >= params.reserve and cost < best_cost:
                    best, best_cost = square, cost
        return best if best >= 0 else FALLBACK

    def jail(view, params):
        unowned = 0
        for square in range(SQUARES):
            if group_of(view, square) >= 0 and owner(view, square) < 0:
                unowned += 1
        if unowned >= params.early and cash(view, my_seat(view)) >= jail_fine(view) + params.reserve:
            return JAIL_PAY
        return JAIL_ROLL
