"""What a Monopoly Deal bot written in Python sees and decides (docs/bots.md).

A bot file does ``from sim.deal.bots import *`` and reads the game through the accessors below,
each taking the `view` its decision functions receive (the view itself is not to be read: it
holds the whole state, other hands and the draw pile included). They show what a player at the
table sees: your hand, every collection, bank and building, hand sizes and pile counts.

Cards are numbered 0 .. (a card's number names it for the whole game); colours 0 .. 9 (a
card's colour1/colour2); seats from 0. A play is five numbers (k, mode, a, b, t): k your hand
position (-1 ends the turn), mode BANK, PLACE (a = colour) or ACTION, and for an action:
rent a colour, b Double the Rent cards added, t the target of an any-colour rent; Debt Collector
t; Sly Deal t and their card a; Forced Deal t, their card a, your card b; Deal Breaker t and
colour a; House or Hotel colour a; Birthday and Pass Go nothing more. ``legal(view, ...)`` says
whether a play is allowed now. Everything is compiled by numba with the bot: numbers, booleans,
tuples, lists, numpy arrays and if/for/while.
"""

from __future__ import annotations

import strategies.deal as builtin
from sim.core.botcall import ANSWERED, FALLBACK, ask, bot_yes_no, refuse, takes
from sim.core.jit import njit_inline, njit_no_refcount
from sim.core.userbot import BotApi, Decision
from sim.deal.board import (
    can_take,
    ctype,
    cvalue,
    is_complete,
    list_collection,
    n_complete,
    payable,
    play_legal,
    rent_of,
    stealable,
)
from sim.deal.layout import (
    BANK_,
    BUILDING,
    BANK_N,
    BANK_VAL,
    DRAW_N,
    G_PLAYS_LEFT,
    G_STATUS,
    GROUP,
    GRP,
    GRP_N,
    HAND_,
    HAND_N,
    HOTEL,
    HOUSE,
    M_ACTION,
    M_BANK,
    M_PLACE,
    MAX_CARDS,
    MAX_GROUP,
    MAX_HAND,
    NC,
    NG,
    OWNER,
    PROP,
    R_CARD_C1,
    R_CARD_C2,
    R_CARD_TYPE,
    R_CARD_VALUE,
    R_PLAYERS,
    R_SET_SIZE,
    R_SETS_TO_WIN,
    SCRATCH,
    SCRATCH3,
    STATE_SIZE,
    WHERE,
)
from sim.deal.rules import (  # noqa: F401 (offered to bots)
    BIRTHDAY,
    DEAL_BREAKER,
    DEBT_COLLECTOR,
    DOUBLE_RENT,
    FORCED_DEAL,
    HOTEL as HOTEL_CARD,
    HOUSE as HOUSE_CARD,
    JUST_SAY_NO,
    MONEY,
    PASS_GO,
    PROPERTY,
    RENT,
    RENT_ANY,
    SLY_DEAL,
    WILD,
    WILD_ANY,
)
from strategies.deal import N_PARAMS

BANK, PLACE, ACTION = M_BANK, M_PLACE, M_ACTION
COLOURS = NC

__all__ = [
    "FALLBACK",
    "BANK", "PLACE", "ACTION", "COLOURS", "MONEY", "PROPERTY", "WILD", "WILD_ANY", "RENT", "RENT_ANY", "DEAL_BREAKER",
    "JUST_SAY_NO", "SLY_DEAL", "FORCED_DEAL", "DEBT_COLLECTOR", "BIRTHDAY", "PASS_GO", "DOUBLE_RENT", "HOUSE_CARD",
    "HOTEL_CARD",
    "my_seat", "players", "plays_left", "sets_to_win", "draw_pile_size", "hand_size", "hand_card", "card_type",
    "card_value", "colour1", "colour2", "set_size", "colour_of", "owner", "properties", "property_card",
    "complete", "complete_sets", "has_house", "has_hotel", "rent", "bank_value", "bank_size", "bank_card",
    "can_pay", "can_steal", "fits", "legal", "candidate", "candidate_given",
]


@njit_inline
def View(S, p):
    return (S, p)


@njit_inline
def my_seat(view):
    """Your seat."""
    return view[1]


@njit_inline
def players(view):
    """The number of players."""
    return view[0][R_PLAYERS]


@njit_inline
def plays_left(view):
    """Plays left this turn."""
    return view[0][G_PLAYS_LEFT]


@njit_inline
def sets_to_win(view):
    """Complete sets that win the game."""
    return view[0][R_SETS_TO_WIN]


@njit_inline
def draw_pile_size(view):
    """Cards left in the draw pile."""
    return view[0][DRAW_N]


@njit_inline
def hand_size(view, seat):
    """How many cards a seat holds (anyone's count is public)."""
    return view[0][HAND_N + seat]


@njit_inline
def hand_card(view, k):
    """The card at position k of your hand, 0 <= k < hand_size(view, my_seat(view))."""
    return view[0][HAND_ + view[1] * MAX_HAND + k]


@njit_inline
def card_type(view, card):
    """MONEY, PROPERTY, WILD (two colours), WILD_ANY, RENT, RENT_ANY, an action, HOUSE_CARD or HOTEL_CARD."""
    return view[0][R_CARD_TYPE + card]


@njit_inline
def card_value(view, card):
    """What the card is worth as money (M)."""
    return view[0][R_CARD_VALUE + card]


@njit_inline
def colour1(view, card):
    """A property's colour; a wild's or rent's first colour; -1 for other cards."""
    return view[0][R_CARD_C1 + card]


@njit_inline
def colour2(view, card):
    """A two-colour wild's or rent's second colour, else -1."""
    return view[0][R_CARD_C2 + card]


@njit_inline
def set_size(view, colour):
    """Properties that make a complete set of a colour."""
    return view[0][R_SET_SIZE + colour]


@njit_inline
def colour_of(view, card):
    """The colour a property on the table stands in (-1 for a card elsewhere)."""
    S = view[0]
    return S[GROUP + card] if S[WHERE + card] == PROP else -1


@njit_inline
def owner(view, card):
    """The seat a card on the table belongs to (-1 in the piles; your own hand: you)."""
    return view[0][OWNER + card]


@njit_inline
def properties(view, seat, colour):
    """How many property cards a seat has in a colour."""
    return view[0][GRP_N + seat * NG + colour]


@njit_inline
def property_card(view, seat, colour, k):
    """A seat's k-th property card in a colour, 0 <= k < properties(view, seat, colour)."""
    return view[0][GRP + (seat * NG + colour) * MAX_GROUP + k]


@njit_inline
def complete(view, seat, colour):
    """Whether a seat's set of a colour is complete."""
    return is_complete(view[0], seat, colour)


@njit_inline
def complete_sets(view, seat):
    """How many complete sets a seat has."""
    return n_complete(view[0], seat)


@njit_inline
def has_house(view, seat, colour):
    """Whether a seat's set of a colour has a House."""
    return view[0][HOUSE + seat * NC + colour] >= 0


@njit_inline
def has_hotel(view, seat, colour):
    """Whether a seat's set of a colour has a Hotel."""
    return view[0][HOTEL + seat * NC + colour] >= 0


@njit_inline
def rent(view, seat, colour):
    """The rent a seat charges for a colour now (before Double the Rent)."""
    return rent_of(view[0], seat, colour)


@njit_inline
def bank_value(view, seat):
    """The money in a seat's bank (M)."""
    return view[0][BANK_VAL + seat]


@njit_inline
def bank_size(view, seat):
    """How many cards a seat's bank holds."""
    return view[0][BANK_N + seat]


@njit_inline
def bank_card(view, seat, k):
    """The card at position k of a seat's bank."""
    return view[0][BANK_ + seat * MAX_CARDS + k]


@njit_inline
def can_pay(view, seat):
    """The most a seat could pay: its bank, properties with a value, buildings if the rules allow."""
    return payable(view[0], seat)


@njit_inline
def can_steal(view, seat, card):
    """Whether Sly Deal or Forced Deal may take this card of a seat."""
    return stealable(view[0], seat, card)


@njit_inline
def fits(view, card, colour):
    """Whether a property card may stand in a colour."""
    return can_take(view[0], card, colour)


@njit_inline
def legal(view, k, mode, a, b, t):
    """Whether you may make this play now (the play decision's answer)."""
    return play_legal(view[0], view[1], k, mode, a, b, t)


@njit_inline
def candidate(view, k):
    """pay: the card of payment candidate k (your bank cards first, then properties and buildings)."""
    return view[0][SCRATCH + k]


@njit_inline
def candidate_given(view, k):
    """pay: whether candidate k is already given."""
    return view[0][SCRATCH3 + k] != 0


# ---- the decisions -----------------------------------------------------------------------------
# The kernel's decision entry points (sim/deal/kernel.py calls these, not strategies/deal.py): a
# seat that is a user's bot taking the decision is asked (sim/core/botcall.py), its answer checked;
# any other seat, or a FALLBACK, gets the built-in decision. Deal has no rules block apart from
# the state: the bot is passed S for it.

D_PLAY, D_PAY, D_DISCARD, D_JUST_SAY_NO, D_RECEIVED_COLOUR = range(5)


@njit_no_refcount
def choose_play(pp, p, S, rng):
    if takes(pp[p], N_PARAMS, D_PLAY):
        status, k, mode, a, b, t = ask(pp[p], N_PARAMS, D_PLAY, S, S, p)
        if status == ANSWERED and k == FALLBACK:
            pass
        elif status == ANSWERED and (k == -1 or play_legal(S, p, k, mode, a, b, t)):
            return k, mode, a, b, t
        else:
            card = S[HAND_ + p * MAX_HAND + k] if 0 <= k < S[HAND_N + p] else -1
            refuse(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_PLAY, status, card, 5, k, mode, a, b, t)
    return builtin.choose_play(pp, p, S, rng)


@njit_no_refcount
def choose_payment(pp, p, S, rng, n_bank, amount, creditor):
    """Which candidates seat p gives: S[SCRATCH3 + k] set to 1 for each (see strategies/deal.py)."""
    if not takes(pp[p], N_PARAMS, D_PAY):
        return builtin.choose_payment(pp, p, S, rng, n_bank, amount, creditor)
    n = list_collection(S, p, n_bank)
    for k in range(n):
        S[SCRATCH3 + k] = 0
    paid = 0
    for _ in range(n):
        if paid >= amount:
            break
        status, k, _, _, _, _ = ask(pp[p], N_PARAMS, D_PAY, S, S, p, amount - paid, creditor, n)
        if status == ANSWERED and k == FALLBACK:
            return builtin.choose_payment(pp, p, S, rng, n_bank, amount, creditor)
        if status != ANSWERED or k < 0 or k >= n or S[SCRATCH3 + k] != 0:
            refuse(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_PAY, status, -1, 1, k, 0, 0, 0, 0)
            return builtin.choose_payment(pp, p, S, rng, n_bank, amount, creditor)
        S[SCRATCH3 + k] = 1
        paid += cvalue(S, S[SCRATCH + k])
    for k in range(n):  # a House leaves only with the Hotel on it
        c = S[SCRATCH + k]
        if S[SCRATCH3 + k] != 0 and S[WHERE + c] == BUILDING and ctype(S, c) == HOUSE_CARD:
            hotel = S[HOTEL + p * NC + S[GROUP + c]]
            with_hotel = hotel < 0
            for j in range(n):
                with_hotel = with_hotel or (S[SCRATCH + j] == hotel and S[SCRATCH3 + j] != 0)
            if not with_hotel:
                refuse(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_PAY, ANSWERED, c, 1, k, 0, 0, 0, 0)
                return builtin.choose_payment(pp, p, S, rng, n_bank, amount, creditor)
    return n


@njit_no_refcount
def choose_discard(pp, p, S, rng):
    if takes(pp[p], N_PARAMS, D_DISCARD):
        status, k, _, _, _, _ = ask(pp[p], N_PARAMS, D_DISCARD, S, S, p)
        if status == ANSWERED and k == FALLBACK:
            pass
        elif status == ANSWERED and 0 <= k < S[HAND_N + p]:
            return k
        else:
            refuse(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_DISCARD, status, -1, 1, k, 0, 0, 0, 0)
    return builtin.choose_discard(pp, p, S, rng)


@njit_no_refcount
def want_just_say_no(pp, s, S, rng, actor, victim, action, stake, defending):
    if takes(pp[s], N_PARAMS, D_JUST_SAY_NO):
        a = bot_yes_no(S, STATE_SIZE, G_STATUS, pp[s], N_PARAMS, D_JUST_SAY_NO, S, s, actor, victim, action, stake,
                       defending)
        if a != FALLBACK:
            return a == 1
    return builtin.want_just_say_no(pp, s, S, rng, actor, victim, action, stake, defending)


@njit_no_refcount
def choose_received_colour(pp, q, S, rng, card):
    if takes(pp[q], N_PARAMS, D_RECEIVED_COLOUR):
        status, c, _, _, _, _ = ask(pp[q], N_PARAMS, D_RECEIVED_COLOUR, S, S, q, card)
        if status == ANSWERED and c == FALLBACK:
            pass
        elif status == ANSWERED and c >= 0 and (c == S[R_CARD_C1 + card] or c == S[R_CARD_C2 + card]):
            return c
        else:
            refuse(S, STATE_SIZE, G_STATUS, pp[q], N_PARAMS, D_RECEIVED_COLOUR, status, card, 1, c, 0, 0, 0, 0)
    return builtin.choose_received_colour(pp, q, S, rng, card)


API = BotApi(
    game="deal",
    slot=N_PARAMS,
    view="View(S, p)",
    fallback="smart",
    decisions=(  # in the order of the D_* numbers
        Decision("play", ("view", "params"), "", ("k", "mode", "a", "b", "t"),
                 "a play (k, mode, a, b, t) that legal() allows, or (-1, 0, 0, 0, 0) to end the turn",
                 "Your next play this turn; asked while you have plays left."),
        Decision("pay", ("view", "params", "owed", "creditor", "n_candidates"), "iii", ("k",),
                 "a payment candidate not yet given",
                 "You owe `owed` more to `creditor` and can cover it: which of the n_candidates candidates "
                 "(candidate(view, k)) to give next. Asked until the debt is covered; no change is given. A "
                 "House goes only with the Hotel on it."),
        Decision("discard", ("view", "params"), "", ("k",),
                 "a hand position", "Over the hand limit at the end of your turn: which card to discard."),
        Decision("just_say_no", ("view", "params", "actor", "victim", "action", "stake", "defending"), "iiiib",
                 ("say_no",), "True to play Just Say No",
                 "Play a Just Say No? defending: you are the victim of `actor`'s `action` (a card type); else "
                 "you are the actor and the victim said no. stake: the amount charged, the card taken or the "
                 "colour of a Deal Breaker."),
        Decision("received_colour", ("view", "params", "card"), "i", ("c",), "one of the wild's two colours",
                 "A two-colour wild comes to you off your turn (paid or stolen): the colour it stands in."),
    ),
)
