"""What a classic Monopoly bot written in Python sees and decides (docs/bots.md).

A bot file does ``from sim.classic.bots import *`` and reads the game through the accessors
below, each taking the `view` its decision functions receive (the view itself is not to be
read: it also holds the order of the card decks). Everything on a Monopoly table is public:
cash, deeds, buildings, mortgages, positions and jail cards.

Squares are 0 (GO) .. 39; groups 0 .. 7 the colour groups, RAILROADS and UTILITIES; seats from
0. Everything is compiled by numba with the bot: numbers, booleans, tuples, lists, numpy arrays
and if/for/while.
"""

from __future__ import annotations

import strategies.classic as builtin
from sim.classic.board import can_build, rent, trade_legal
from sim.classic.layout import (
    ALIVE,
    CASH,
    G_HOTELS,
    G_HOUSES,
    G_ROUND,
    G_STATUS,
    GOOJF,
    GOWN,
    JAIL,
    LEVEL,
    MORT,
    N_GROUPS,
    N_SQ,
    OWNER,
    POS,
    R_GROUP_SIZE,
    R_JAIL_FINE,
    R_PLAYERS,
    R_SQ_GROUP,
    R_SQ_HOUSE,
    R_SQ_KIND,
    R_SQ_PRICE,
    STATE_SIZE,
    TR_CASH,
    TR_GET,
    TR_GIVE,
    TR_JAIL_GET,
    TR_JAIL_GIVE,
    TR_N_GET,
    TR_N_GIVE,
)
from sim.classic.rules import (
    RAILROAD,
    RAILROADS_GROUP,
    STREET,
    UTILITIES_GROUP,
    UTILITY,
)
from sim.core.botcall import ANSWERED, FALLBACK, ask, bot_yes_no, refuse, takes
from sim.core.jit import njit_inline, njit_no_refcount
from sim.core.userbot import BotApi, Decision
from strategies.classic import JAIL_CARD, JAIL_PAY, JAIL_ROLL, N_PARAMS

SQUARES, GROUPS = N_SQ, N_GROUPS

__all__ = [
    "FALLBACK",
    "SQUARES", "GROUPS", "STREET", "RAILROAD", "UTILITY", "RAILROADS_GROUP", "UTILITIES_GROUP", "JAIL_ROLL", "JAIL_PAY",
    "JAIL_CARD",
    "my_seat", "players", "round_number", "cash", "position", "in_jail", "alive", "jail_cards", "jail_fine",
    "square_kind", "group_of", "price", "house_cost", "owner", "mortgaged", "level", "rent_now", "group_size",
    "deeds_in_group", "whole_group", "houses_left", "hotels_left", "can_build_on", "offer_cash", "offer_gives",
    "offer_given", "offer_asks", "offer_asked", "offer_jail_cards_given", "offer_jail_cards_asked",
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
def round_number(view):
    """Rounds played so far."""
    return view[0][G_ROUND]


@njit_inline
def cash(view, seat):
    """A seat's cash."""
    return view[0][CASH + seat]


@njit_inline
def position(view, seat):
    """The square a seat stands on."""
    return view[0][POS + seat]


@njit_inline
def in_jail(view, seat):
    """Whether a seat is in jail."""
    return view[0][JAIL + seat] > 0


@njit_inline
def alive(view, seat):
    """False once a seat is bankrupt."""
    return view[0][ALIVE + seat] == 1


@njit_inline
def jail_cards(view, seat):
    """Get Out of Jail Free cards a seat holds."""
    return view[0][GOOJF + 2 * seat] + view[0][GOOJF + 2 * seat + 1]


@njit_inline
def jail_fine(view):
    """The fine that frees a player from jail."""
    return view[0][R_JAIL_FINE]


@njit_inline
def square_kind(view, square):
    """STREET, RAILROAD, UTILITY, or another number for a square that is not a deed."""
    return view[0][R_SQ_KIND + square]


@njit_inline
def group_of(view, square):
    """A deed's group, -1 for other squares."""
    return view[0][R_SQ_GROUP + square]


@njit_inline
def price(view, square):
    """A deed's printed price."""
    return view[0][R_SQ_PRICE + square]


@njit_inline
def house_cost(view, square):
    """What a house (or the hotel) costs on a street."""
    return view[0][R_SQ_HOUSE + square]


@njit_inline
def owner(view, square):
    """The seat owning a deed, -1 for the bank."""
    return view[0][OWNER + square]


@njit_inline
def mortgaged(view, square):
    """Whether a deed is mortgaged."""
    return view[0][MORT + square] == 1


@njit_inline
def level(view, square):
    """Buildings on a street: 0-4 houses, 5 a hotel."""
    return view[0][LEVEL + square]


@njit_inline
def rent_now(view, square, dice):
    """The rent for landing on a deed now with a roll of `dice` (0 if unowned or mortgaged)."""
    return rent(view[0], square, dice)


@njit_inline
def group_size(view, group):
    """How many deeds a group has."""
    return view[0][R_GROUP_SIZE + group]


@njit_inline
def deeds_in_group(view, seat, group):
    """How many deeds of a group a seat owns."""
    return view[0][GOWN + seat * N_GROUPS + group]


@njit_inline
def whole_group(view, seat, group):
    """Whether a seat owns every deed of a group."""
    return view[0][GOWN + seat * N_GROUPS + group] == view[0][R_GROUP_SIZE + group]


@njit_inline
def houses_left(view):
    """Houses in the bank."""
    return view[0][G_HOUSES]


@njit_inline
def hotels_left(view):
    """Hotels in the bank."""
    return view[0][G_HOTELS]


@njit_inline
def can_build_on(view, square):
    """Whether you may add a level to a street now, and can pay for it."""
    return can_build(view[0], view[1], square, True)


# ---- a trade offered to you (answer_trade, take_counter) ---------------------------------------


@njit_inline
def offer_cash(view):
    """Cash the proposer adds (negative: cash the proposer asks for)."""
    return view[0][TR_CASH]


@njit_inline
def offer_gives(view):
    """How many deeds the proposer gives."""
    return view[0][TR_N_GIVE]


@njit_inline
def offer_given(view, k):
    """The square of the k-th deed the proposer gives."""
    return view[0][TR_GIVE + k]


@njit_inline
def offer_asks(view):
    """How many deeds the proposer asks for."""
    return view[0][TR_N_GET]


@njit_inline
def offer_asked(view, k):
    """The square of the k-th deed the proposer asks for."""
    return view[0][TR_GET + k]


@njit_inline
def offer_jail_cards_given(view):
    """Get Out of Jail Free cards the proposer gives."""
    return view[0][TR_JAIL_GIVE]


@njit_inline
def offer_jail_cards_asked(view):
    """Get Out of Jail Free cards the proposer asks for."""
    return view[0][TR_JAIL_GET]


# ---- the decisions -----------------------------------------------------------------------------
# The kernel's decision entry points (sim/classic/kernel.py calls these, not strategies/classic.py):
# a seat that is a user's bot taking the decision is asked (sim/core/botcall.py), its answer
# checked; any other seat, or a FALLBACK, gets the built-in decision. Classic's rules are in the
# state: the bot is passed S for the rules block.

D_BUY, D_BID, D_BUILD, D_JAIL, D_PROPOSE_TRADE, D_ANSWER_TRADE, D_TAKE_COUNTER = range(7)


@njit_no_refcount
def want_buy(pp, pt, p, S, rng, sq):
    if takes(pp[p], N_PARAMS, D_BUY):
        a = bot_yes_no(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_BUY, S, p, sq)
        if a != FALLBACK:
            return a == 1
    return builtin.want_buy(pp, pt, p, S, rng, sq)


@njit_no_refcount
def max_bid(pp, pt, q, S, rng, sq):
    if takes(pp[q], N_PARAMS, D_BID):
        status, v, _, _, _, _ = ask(pp[q], N_PARAMS, D_BID, S, S, q, sq)
        if status == ANSWERED and v == FALLBACK:
            pass
        elif status == ANSWERED and v >= 0:
            return v
        else:
            refuse(S, STATE_SIZE, G_STATUS, pp[q], N_PARAMS, D_BID, status, -1, 1, v, 0, 0, 0, 0)
    return builtin.max_bid(pp, pt, q, S, rng, sq)


@njit_no_refcount
def choose_build(pp, pt, p, S, rng):
    if takes(pp[p], N_PARAMS, D_BUILD):
        status, sq, _, _, _, _ = ask(pp[p], N_PARAMS, D_BUILD, S, S, p)
        if status == ANSWERED and sq == FALLBACK:
            pass
        elif status == ANSWERED and (sq == -1 or (0 <= sq < N_SQ and can_build(S, p, sq, True))):
            return sq
        else:
            refuse(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_BUILD, status, -1, 1, sq, 0, 0, 0, 0)
    return builtin.choose_build(pp, pt, p, S, rng)


@njit_no_refcount
def hands_back(pp, p, d, S):
    """Whether seat p's bot, asked decision d now, hands it to its fallback. A bot answers from
    what it sees, so the answer is the one the decision itself would get here."""
    status, a, _, _, _, _ = ask(pp[p], N_PARAMS, d, S, S, p)
    return status == ANSWERED and a == FALLBACK


@njit_no_refcount
def management_settled(pp, p, S):
    """A built-in bot is not asked to build again until its cash reaches what it would act on; a
    bot with a build rule of its own, only while that rule hands building to the fallback."""
    return builtin.management_settled(pp, p, S) and (not takes(pp[p], N_PARAMS, D_BUILD)
                                                      or hands_back(pp, p, D_BUILD, S))


@njit_no_refcount
def jail_choice(pp, pt, p, S, rng):
    if takes(pp[p], N_PARAMS, D_JAIL):
        status, c, _, _, _, _ = ask(pp[p], N_PARAMS, D_JAIL, S, S, p)
        if status == ANSWERED and c == FALLBACK:
            pass
        elif status == ANSWERED and (c == JAIL_ROLL or (c == JAIL_PAY and S[CASH + p] >= S[R_JAIL_FINE])
                                     or (c == JAIL_CARD and S[GOOJF + 2 * p] + S[GOOJF + 2 * p + 1] > 0)):
            return c
        else:
            refuse(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_JAIL, status, -1, 1, c, 0, 0, 0, 0)
    return builtin.jail_choice(pp, pt, p, S, rng)


@njit_no_refcount
def propose_trade(pp, pt, p, S, rng):
    """The partner of seat p's offer, written to S[TR_*], or -1 for none."""
    if takes(pp[p], N_PARAMS, D_PROPOSE_TRADE):
        status, q, get, give, cash, _ = ask(pp[p], N_PARAMS, D_PROPOSE_TRADE, S, S, p)
        if status == ANSWERED and q == FALLBACK:
            return builtin.propose_trade(pp, pt, p, S, rng)
        if status == ANSWERED and q == -1:
            return -1
        if status == ANSWERED:
            S[TR_N_GET] = 1
            S[TR_GET] = get
            S[TR_N_GIVE] = 1 if give >= 0 else 0
            S[TR_GIVE] = give
            S[TR_CASH] = cash
            S[TR_JAIL_GIVE] = 0
            S[TR_JAIL_GET] = 0
            if (0 <= q < S[R_PLAYERS] and q != p and S[ALIVE + q] == 1 and 0 <= get < N_SQ and -1 <= give < N_SQ
                    and trade_legal(S, p, q)):
                return q
        refuse(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_PROPOSE_TRADE, status, -1, 4, q, get, give, cash, 0)
    return builtin.propose_trade(pp, pt, p, S, rng)


@njit_no_refcount
def never_proposes(S, pp, p):
    """Whether a seat's bot kind never offers a trade; for a bot with a trade rule of its own,
    only while that rule hands trading to the fallback."""
    return builtin.never_proposes(S, pp, p) and (not takes(pp[p], N_PARAMS, D_PROPOSE_TRADE)
                                                 or hands_back(pp, p, D_PROPOSE_TRADE, S))


@njit_no_refcount
def respond_trade(pp, pt, q, p, S, rng):
    if takes(pp[q], N_PARAMS, D_ANSWER_TRADE):
        status, a, _, _, _, _ = ask(pp[q], N_PARAMS, D_ANSWER_TRADE, S, S, q, p)
        if status == ANSWERED and a == FALLBACK:
            pass
        elif status == ANSWERED and a >= -1:
            return a
        else:
            refuse(S, STATE_SIZE, G_STATUS, pp[q], N_PARAMS, D_ANSWER_TRADE, status, -1, 1, a, 0, 0, 0, 0)
    return builtin.respond_trade(pp, pt, q, p, S, rng)


@njit_no_refcount
def accept_counter(pp, pt, p, q, S, rng, extra):
    if takes(pp[p], N_PARAMS, D_TAKE_COUNTER):
        a = bot_yes_no(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_TAKE_COUNTER, S, p, q, extra)
        if a != FALLBACK:
            return a == 1
    return builtin.accept_counter(pp, pt, p, q, S, rng, extra)


API = BotApi(
    game="classic",
    slot=N_PARAMS,
    view="View(S, p)",
    fallback="strong",
    decisions=(  # in the order of the D_* numbers
        Decision("buy", ("view", "params", "square"), "i", ("buy",), "True to buy",
                 "You landed on an unowned deed you can afford: buy it at its price (else it is auctioned, when "
                 "the rules auction)?"),
        Decision("bid", ("view", "params", "square"), "i", ("v",), "a whole number of dollars, 0 or more",
                 "An auction of a deed: the most you will pay (capped at your cash)."),
        Decision("build", ("view", "params"), "", ("sq",), "a street can_build_on allows, or -1 to stop",
                 "Building time: the street to add a level to next; asked until it says -1."),
        Decision("jail", ("view", "params"), "", ("c",),
                 "JAIL_ROLL, JAIL_PAY (with the fine in cash) or JAIL_CARD (with a card)",
                 "In jail at the start of your turn: roll for doubles, pay the fine or use a card."),
        Decision("propose_trade", ("view", "params"), "", ("q", "get", "give", "cash"),
                 "(partner, asked, given, cash): ask the partner for deed `asked`, giving deed `given` (-1: "
                 "none) and `cash` dollars (negative: asking for cash); (-1, 0, 0, 0) for no offer",
                 "Trading time on your turn: a trade to offer, if any. Asked up to twice a turn, and "
                 "after an answer of no offer again only once deeds have changed hands. Each side must give "
                 "something, deeds must carry no buildings on their group, and both sides must afford it."),
        Decision("answer_trade", ("view", "params", "proposer"), "i", ("a",),
                 "0 to accept, -1 to refuse, or c > 0 to ask c dollars more",
                 "A trade offered to you (offer_* accessors): accept, refuse or counter."),
        Decision("take_counter", ("view", "params", "partner", "extra"), "ii", ("take",), "True to accept",
                 "Your offer met a counter asking `extra` dollars more: take it?"),
    ),
)
