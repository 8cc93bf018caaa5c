"""A Monopoly Deal bot: charge rent first, and keep Just Say No for the big blows.

Play it:  monosim deal simulate --seat experiments/bots/deal_rent_first.py:RentFirst
"""

from sim.deal.bots import *


def best_rent(view):
    """(hand position, colour, rent) of the rent card in hand that charges most, with
    (-1, 0, 0) when none charges anything."""
    me = my_seat(view)
    best_k, best_colour, best = -1, 0, 0
    for k in range(hand_size(view, me)):
        card = hand_card(view, k)
        kind = card_type(view, card)
        if kind != RENT and kind != RENT_ANY:
            continue
        for colour in range(COLOURS):
            if kind == RENT and colour != colour1(view, card) and colour != colour2(view, card):
                continue
            if rent(view, me, colour) > best:
                best_k, best_colour, best = k, colour, rent(view, me, colour)
    return best_k, best_colour, best


def richest_opponent(view):
    me = my_seat(view)
    best, best_bank = -1, -1
    for seat in range(players(view)):
        if seat != me and bank_value(view, seat) > best_bank:
            best, best_bank = seat, bank_value(view, seat)
    return best


class RentFirst:
    """Plays its richest rent card first when it charges at least `min_rent` (an any-colour
    rent on the opponent with the biggest bank), and answers only Deal Breakers and debts of
    at least `guard` with Just Say No. Every other play is smart's."""

    fallback = "smart"
    params = {
        "min_rent": (3.0, 1.0, 10.0, "the least rent worth a play"),
        "guard": (4.0, 1.0, 10.0, "the least debt worth a Just Say No"),
    }

    def play(view, params):
        k, colour, amount = best_rent(view)
        if k >= 0 and amount >= params.min_rent:
            target = richest_opponent(view)
            if legal(view, k, ACTION, colour, 0, target):
                return (k, ACTION, colour, 0, target)
        return (FALLBACK, 0, 0, 0, 0)

    def just_say_no(view, params, actor, victim, action, stake, defending):
        if not defending:
            return FALLBACK
        if action == DEAL_BREAKER:
            return True
        is_debt = action == RENT or action == RENT_ANY or action == DEBT_COLLECTOR or action == BIRTHDAY
        return is_debt and stake >= params.guard
