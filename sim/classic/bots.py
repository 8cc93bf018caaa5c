"""What a classic Monopoly bot written in Python sees and decides (docs/bots.md).

A bot file does ``from sim.classic.bots import *`` and reads the game through the accessors
below, each taking the `view` its decision functions receive (the view itself is not to be
read: it also holds the order of the card decks). Everything on a Monopoly table is public:
cash, deeds, buildings, mortgages, positions and jail cards.

Squares are 0 (GO) .. 39; groups 0 .. 7 the colour groups, RAILROADS and UTILITIES; seats from
0. Everything is compiled by numba with the bot: numbers, booleans, tuples and if/for/while; no
arrays or lists.
"""

from __future__ import annotations

from sim.classic.board import can_build, rent, trade_legal  # noqa: F401 (trade_legal: the wrappers' code)
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
    TR_CASH,
    TR_GET,
    TR_GIVE,
    TR_JAIL_GET,
    TR_JAIL_GIVE,
    TR_N_GET,
    TR_N_GIVE,
)
from sim.classic.rules import RAILROAD, RAILROADS_GROUP, STREET, UTILITIES_GROUP, UTILITY
from sim.core.jit import njit_inline
from sim.core.userbot import FALLBACK, BotApi, Decision, checked, yes_no
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


_PROPOSE = """
q, get, give, cash = {bot}(View(S, p), {params})
if q == FALLBACK:
    return {builtin}
if q == -1:
    return -1
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
{refuse}
return {builtin}
"""

API = BotApi(
    game="classic",
    slot=N_PARAMS,
    status=G_STATUS,
    fallback="strong",
    decisions=(
        Decision("buy", "want_buy", "p", ("view", "params", "square"),
                 yes_no("View(S, p), {params}, sq"), "True to buy",
                 "You landed on an unowned deed you can afford: buy it at its price (else it is auctioned, when "
                 "the rules auction)?"),
        Decision("bid", "max_bid", "q", ("view", "params", "square"),
                 checked("v", "View(S, q), {params}, sq", "v >= 0"), "a whole number of dollars, 0 or more",
                 "An auction of a deed: the most you will pay (capped at your cash)."),
        Decision("build", "choose_build", "p", ("view", "params"),
                 checked("sq", "View(S, p), {params}", "sq == -1 or (0 <= sq < N_SQ and can_build(S, p, sq, True))"),
                 "a street can_build_on allows, or -1 to stop",
                 "Building time: the street to add a level to next; asked until it says -1."),
        Decision("jail", "jail_choice", "p", ("view", "params"),
                 checked("c", "View(S, p), {params}",
                         "c == JAIL_ROLL or (c == JAIL_PAY and S[CASH + p] >= S[R_JAIL_FINE]) or "
                         "(c == JAIL_CARD and S[GOOJF + 2 * p] + S[GOOJF + 2 * p + 1] > 0)"),
                 "JAIL_ROLL, JAIL_PAY (with the fine in cash) or JAIL_CARD (with a card)",
                 "In jail at the start of your turn: roll for doubles, pay the fine or use a card."),
        Decision("propose_trade", "propose_trade", "p", ("view", "params"), _PROPOSE,
                 "(partner, asked, given, cash): ask the partner for deed `asked`, giving deed `given` (-1: "
                 "none) and `cash` dollars (negative: asking for cash); (-1, 0, 0, 0) for no offer",
                 "Trading time on your turn: a trade to offer, if any. Asked up to twice a turn, and "
                 "after an answer of no offer again only once deeds have changed hands. Each side must give "
                 "something, deeds must carry no buildings on their group, and both sides must afford it."),
        Decision("answer_trade", "respond_trade", "q", ("view", "params", "proposer"),
                 checked("a", "View(S, q), {params}, p", "a >= -1"),
                 "0 to accept, -1 to refuse, or c > 0 to ask c dollars more",
                 "A trade offered to you (offer_* accessors): accept, refuse or counter."),
        Decision("take_counter", "accept_counter", "p", ("view", "params", "partner", "extra"),
                 yes_no("View(S, p), {params}, q, extra"), "True to accept",
                 "Your offer met a counter asking `extra` dollars more: take it?"),
    ),
    also=(
        # A built-in bot is not asked to build again until its cash reaches what it would act
        # on, nor to trade when its kind never trades: a bot's own rule is always asked.
        Decision("build", "management_settled", "p", ("view", "params"), "return False", "", ""),
        Decision("propose_trade", "never_proposes", "p", ("view", "params"), "return False", "", ""),
    ),
)
