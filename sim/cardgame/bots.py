"""What a Monopoly: The Card Game bot written in Python sees and decides (docs/bots.md).

A bot file does ``from sim.cardgame.bots import *`` and reads the game through the accessors
below, each taking the `view` its decision functions receive (the view itself is not to be
read: it holds other hands and the draw pile). They show what a player sees: your hand, every
pile's cards, the cards each seat was seen taking from piles, hand sizes and money.

A card has a kind: PROPERTY + colour (colours 0 .. 7, then RAILROADS, UTILITIES), CHANCE_CARD,
HOUSE + (number - 1), HOTEL, TOKEN + colour, GO, MR_MONOPOLY, FREE_PARKING, GO_TO_JAIL,
JAIL_FREE, DOUBLE. A move is four numbers (move, pile, cards, pre): DRAW; TRADE `cards` cards
with pile `pile`, having discarded one first when `pre` is 1 (when the rules allow); SWAP3 or
DOUBLE3 with the imaginary player's pile. In a 5-6 player hand the move is always a one-card
TRADE with another seat. ``legal(view, ...)`` says whether a move is allowed. Everything is
compiled by numba with the bot: numbers, booleans, tuples, lists, numpy arrays and if/for/while.
"""

from __future__ import annotations

import strategies.cardgame as builtin
from sim.cardgame.layout import (
    DRAW_N,
    G_STATUS,
    HAND_,
    HAND_N,
    K_DOUBLE,
    K_FP,
    K_GO,
    K_HOTEL,
    K_HOUSE,
    K_JAIL,
    K_JAILFREE,
    K_MRM,
    K_PROP,
    K_TOKEN,
    K_WILD,
    KC,
    MAX_CARDS,
    MONEY,
    NK,
    PILE_,
    PILE_N,
    PLAN_SEAT,
    R_GVAL,
    R_KIND,
    R_N_PILES,
    R_PLAYERS,
    R_SIZE,
    RAIL,
    SEEN,
    STATE_SIZE,
    UTIL,
)
from sim.core.botcall import ANSWERED, FALLBACK, ask, bot_yes_no, refuse, takes
from sim.core.jit import njit_inline, njit_no_refcount
from sim.core.userbot import BotApi, Decision
from strategies.cardgame import (
    MV_DOUBLE3,
    MV_DRAW,
    MV_SWAP3,
    MV_TRADE,
    N_VALUES,
    legal_big_move,
    legal_move,
    max_k,
    trade_partner_ok,
)

PROPERTY, CHANCE_CARD, HOUSE, HOTEL, TOKEN = K_PROP, K_WILD, K_HOUSE, K_HOTEL, K_TOKEN
GO, MR_MONOPOLY, FREE_PARKING, GO_TO_JAIL, JAIL_FREE, DOUBLE = K_GO, K_MRM, K_FP, K_JAIL, K_JAILFREE, K_DOUBLE
RAILROADS, UTILITIES, KINDS = RAIL, UTIL, NK
DRAW, TRADE, SWAP3, DOUBLE3 = MV_DRAW, MV_TRADE, MV_SWAP3, MV_DOUBLE3

__all__ = [
    "FALLBACK",
    "PROPERTY", "CHANCE_CARD", "HOUSE", "HOTEL", "TOKEN", "GO", "MR_MONOPOLY", "FREE_PARKING", "GO_TO_JAIL",
    "JAIL_FREE", "DOUBLE", "RAILROADS", "UTILITIES", "KINDS", "DRAW", "TRADE", "SWAP3", "DOUBLE3",
    "my_seat", "players", "piles", "draw_pile_size", "hand_size", "hand_card", "card_kind", "held", "pile_size",
    "pile_card", "seen", "money", "group_size", "group_value", "trade_limit", "can_trade_with", "legal",
]


@njit_inline
def View(S, RB, p):
    return (S, RB, p)


@njit_inline
def my_seat(view):
    """Your seat."""
    return view[2]


@njit_inline
def players(view):
    """The number of players."""
    return view[1][R_PLAYERS]


@njit_inline
def piles(view):
    """Piles on the table: one per seat, then any imaginary player's."""
    return view[1][R_N_PILES]


@njit_inline
def draw_pile_size(view):
    """Cards left in the draw pile."""
    return view[0][DRAW_N]


@njit_inline
def hand_size(view, seat):
    """How many cards a seat holds."""
    return view[0][HAND_N + seat]


@njit_inline
def hand_card(view, k):
    """The card at position k of your hand."""
    return view[0][HAND_ + view[2] * MAX_CARDS + k]


@njit_inline
def card_kind(view, card):
    """A card's kind (see the constants)."""
    return view[1][R_KIND + card]


@njit_inline
def held(view, kind):
    """How many cards of a kind your hand holds."""
    return view[0][KC + view[2] * NK + kind]


@njit_inline
def pile_size(view, pile):
    """How many cards a pile holds."""
    return view[0][PILE_N + pile]


@njit_inline
def pile_card(view, pile, depth):
    """The kind of the card `depth` below the top of a pile (0: the top)."""
    S = view[0]
    return view[1][R_KIND + S[PILE_ + pile * MAX_CARDS + S[PILE_N + pile] - 1 - depth]]


@njit_inline
def seen(view, seat, kind):
    """Cards of a kind a seat was seen taking from piles this hand."""
    return view[0][SEEN + seat * NK + kind]


@njit_inline
def money(view, seat):
    """A seat's money from the hands scored so far."""
    return view[0][MONEY + seat]


@njit_inline
def group_size(view, colour):
    """Property cards that complete a colour group."""
    return view[1][R_SIZE + colour]


@njit_inline
def group_value(view, colour):
    """What a complete group scores."""
    return view[1][R_GVAL + colour]


@njit_inline
def trade_limit(view, pile, pre):
    """The most cards you may trade with a pile (pre: 1 after discarding one first)."""
    return max_k(view[0], view[1], view[2], pile, pre)


@njit_inline
def can_trade_with(view, pile):
    """Whether you may trade with a pile."""
    return trade_partner_ok(view[0], view[1], view[2], pile)


@njit_inline
def legal(view, move, pile, cards, pre, big):
    """Whether you may make this move now (the move decision's answer)."""
    if big:
        return legal_big_move(view[0], view[1], view[2], move, pile, cards, pre)
    return legal_move(view[0], view[1], view[2], move, pile, cards, pre)


# ---- the decisions -----------------------------------------------------------------------------
# The kernel's decision entry points (sim/cardgame/kernel.py calls these, not
# strategies/cardgame.py), given the deciding seat's kind and parameter row: a seat that is a
# user's bot taking the decision is asked (sim/core/botcall.py), its answer checked; any other
# seat, or a FALLBACK, gets the built-in decision.

D_MOVE, D_DISCARD, D_GO_OUT = range(3)


@njit_no_refcount
def choose_move(pk, pp, p, S, RB, rng, W, big):
    if takes(pp, N_VALUES, D_MOVE):
        status, mv, q, k, pre, _ = ask(pp, N_VALUES, D_MOVE, S, RB, p, big)
        if status == ANSWERED and mv == FALLBACK:
            return builtin.choose_move(pk, pp, p, S, RB, rng, W, big)
        S[PLAN_SEAT] = 0  # no discards planned: the discard decision weighs its own
        if status == ANSWERED and (legal_big_move(S, RB, p, mv, q, k, pre) if big else
                                   legal_move(S, RB, p, mv, q, k, pre) or (mv == -1 and S[DRAW_N] == 0)):
            return mv, q, k, pre
        refuse(S, STATE_SIZE, G_STATUS, pp, N_VALUES, D_MOVE, status, -1, 4, mv, q, k, pre, 0)
    return builtin.choose_move(pk, pp, p, S, RB, rng, W, big)


@njit_no_refcount
def choose_discard(pk, pp, p, S, RB, rng):
    if takes(pp, N_VALUES, D_DISCARD):
        status, i, _, _, _, _ = ask(pp, N_VALUES, D_DISCARD, S, RB, p)
        if status == ANSWERED and i == FALLBACK:
            pass
        elif status == ANSWERED and 0 <= i < S[HAND_N + p]:
            return i
        else:
            refuse(S, STATE_SIZE, G_STATUS, pp, N_VALUES, D_DISCARD, status, -1, 1, i, 0, 0, 0, 0)
    return builtin.choose_discard(pk, pp, p, S, RB, rng)


@njit_no_refcount
def want_go_out(pk, pp, p, S, RB, rng):
    if takes(pp, N_VALUES, D_GO_OUT):
        a = bot_yes_no(S, STATE_SIZE, G_STATUS, pp, N_VALUES, D_GO_OUT, RB, p)
        if a != FALLBACK:
            return a == 1
    return builtin.want_go_out(pk, pp, p, S, RB, rng)


API = BotApi(
    game="cardgame",
    slot=N_VALUES,
    view="View(S, RB, p)",
    fallback="smart",
    decisions=(  # in the order of the D_* numbers
        Decision("move", ("view", "params", "big"), "b", ("mv", "q", "k", "pre"),
                 "a move (move, pile, cards, pre) that legal() allows; (-1, 0, 0, 0) only with the draw pile empty",
                 "Your turn's move; big is True in a 5-6 player hand."),
        Decision("discard", ("view", "params"), "", ("i",), "a hand position",
                 "Which card to discard (over the hand limit, or before a trade), or to pass on."),
        Decision("go_out", ("view", "params"), "", ("go_out",), "True to go out", "Your hand can go out: do it now?"),
    ),
)
