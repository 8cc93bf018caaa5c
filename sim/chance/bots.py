"""What a Monopoly Chance bot written in Python sees and decides (docs/bots.md).

A bot file does ``from sim.chance.bots import *`` and reads the game through the accessors
below, each taking the `view` its decision functions receive (the view itself is not to be
read: it holds the whole state, hidden cards included). They show what a player at the table
sees: the board, every skyline, the cards held in front of each player, the Cash offered to
you, and your own pile only as counts. The order of any pile is never shown.

Seats are numbered from 0; properties 0 .. n_properties(view) - 1; corners GO, FREE_PARKING,
JUST_VISITING, GO_TO_JAIL. Everything is compiled by numba with the bot: numbers, booleans,
tuples, lists, numpy arrays and if/for/while.
"""

from __future__ import annotations

import strategies.chance as builtin
from sim.chance.layout import (
    BLDS_LEFT,
    BUF_VALUE,
    BUF_VALUE2,
    BUF_VALUE3,
    CORNERS,
    G_STATUS,
    HELD,
    MAX_DECK,
    N_BLD,
    N_CORNERS,
    R_DECK_KIND,
    R_DECK_SIZE,
    R_FINISH,
    R_PLAYERS,
    R_PROP_LENGTH,
    R_PROP_VALUE,
    R_PROPS,
    S_CASH_N,
    S_CASH_SUM,
    S_FLIPS_LEFT,
    S_FLIPS_TAKEN,
    S_LUCKY_HELD,
    S_PILE_BANKRUPT,
    S_PILE_N,
    S_ROUND_ENDING,
    S_USEFUL_CASH_SUM,
    SIT,
    SKY_LEN,
    STATE_SIZE,
    TOP_OWNER,
    TOP_VALUE,
    WHERE,
)
from sim.chance.rules import (  # noqa: F401 (offered to bots)
    FLIP2,
    FREE_PARKING,
    GO,
    GO_TO_JAIL,
    JUST_VISITING,
    LUCKY_BREAK,
    NOPE,
    TOKEN,
)
from sim.core.botcall import ANSWERED, FALLBACK, ask, bot_yes_no, refuse, takes
from sim.core.jit import njit_inline, njit_no_refcount
from sim.core.userbot import BotApi, Decision
from strategies.chance import (
    N_PARAMS,
    next_flip_busts,
    p_bust_within,
    requirement,
)

__all__ = [
    "FALLBACK",
    "GO", "FREE_PARKING", "JUST_VISITING", "GO_TO_JAIL", "LUCKY_BREAK", "TOKEN", "FLIP2", "NOPE",
    "my_seat", "players", "skyline", "my_skyline", "leader_skyline", "finish_mark", "buildings", "round_ending",
    "flips_taken", "flips_left", "cash_flipped", "cash_cards_flipped", "useful_cash", "lucky_breaks", "pile_size",
    "pile_bankrupts", "bust_chance", "bust_chance_within", "n_properties", "property_value", "property_length",
    "top_value", "top_owner", "buildings_left", "to_take", "corner_free", "held", "offered_cash", "draw_pile_cash",
    "discard_pile_cash",
]


@njit_inline
def View(S, RB, p):
    return (S, RB, p)


# ---- seats -----------------------------------------------------------------------------------


@njit_inline
def my_seat(view):
    """Your seat."""
    return view[2]


@njit_inline
def players(view):
    """The number of players."""
    return view[1][R_PLAYERS]


@njit_inline
def skyline(view, seat):
    """The length of a seat's skyline."""
    return view[0][SKY_LEN + seat]


@njit_inline
def my_skyline(view):
    """The length of your skyline."""
    return view[0][SKY_LEN + view[2]]


@njit_inline
def leader_skyline(view):
    """The longest skyline among your opponents."""
    best = 0
    for q in range(view[1][R_PLAYERS]):
        if q != view[2] and view[0][SKY_LEN + q] > best:
            best = view[0][SKY_LEN + q]
    return best


@njit_inline
def finish_mark(view):
    """The skyline length that ends the game."""
    return view[1][R_FINISH]


@njit_inline
def buildings(view, seat):
    """How many buildings a seat's skyline has."""
    return view[0][N_BLD + seat]


@njit_inline
def round_ending(view):
    """True on the last turns of a round: the round end has been triggered."""
    return view[0][SIT + S_ROUND_ENDING] == 1


@njit_inline
def held(view, seat, kind):
    """How many cards of a kind (LUCKY_BREAK, TOKEN, FLIP2, NOPE) a seat holds in front of it."""
    S, RB = view[0], view[1]
    n = 0
    for c in range(RB[R_DECK_SIZE + seat]):
        if RB[R_DECK_KIND + seat * MAX_DECK + c] == kind and S[WHERE + seat * MAX_DECK + c] == HELD:
            n += 1
    return n


# ---- your turn: the flips so far and your pile (the flip decision) ---------------------------


@njit_inline
def flips_taken(view):
    """Cards flipped so far this turn."""
    return view[0][SIT + S_FLIPS_TAKEN]


@njit_inline
def flips_left(view):
    """Flips the die still allows this turn."""
    return view[0][SIT + S_FLIPS_LEFT]


@njit_inline
def cash_flipped(view):
    """The total of the Cash flipped this turn."""
    return view[0][SIT + S_CASH_SUM]


@njit_inline
def cash_cards_flipped(view):
    """How many Cash cards were flipped this turn."""
    return view[0][SIT + S_CASH_N]


@njit_inline
def useful_cash(view):
    """The Cash flipped this turn that can take some property (beats the cheapest on offer)."""
    return view[0][SIT + S_USEFUL_CASH_SUM]


@njit_inline
def lucky_breaks(view):
    """Lucky Breaks in front of you this turn, each saving you from one Bankrupt."""
    return view[0][SIT + S_LUCKY_HELD]


@njit_inline
def pile_size(view):
    """Cards left in your draw pile."""
    return view[0][SIT + S_PILE_N]


@njit_inline
def pile_bankrupts(view):
    """Bankrupt cards left in your draw pile."""
    return view[0][SIT + S_PILE_BANKRUPT]


@njit_inline
def bust_chance(view):
    """The chance that the next flip busts you (0 while you hold a Lucky Break)."""
    return next_flip_busts(view[0])


@njit_inline
def bust_chance_within(view, flips):
    """The chance that the next `flips` flips bust you, Lucky Breaks counted."""
    S = view[0]
    return p_bust_within(flips, S[SIT + S_PILE_N], S[SIT + S_PILE_BANKRUPT], S[SIT + S_LUCKY_HELD])


# ---- the board -------------------------------------------------------------------------------


@njit_inline
def n_properties(view):
    """Property spaces on the board."""
    return view[1][R_PROPS]


@njit_inline
def property_value(view, i):
    """The value printed on property i."""
    return view[1][R_PROP_VALUE + i]


@njit_inline
def property_length(view, i):
    """The length of the building property i gives."""
    return view[1][R_PROP_LENGTH + i]


@njit_inline
def top_value(view, i):
    """The value of the Cash card on top of property i, 0 when none."""
    return view[0][TOP_VALUE + i]


@njit_inline
def top_owner(view, i):
    """The seat whose Cash card is on top of property i, -1 when none."""
    return view[0][TOP_OWNER + i]


@njit_inline
def buildings_left(view, i):
    """Buildings still to be won on property i."""
    return view[0][BLDS_LEFT + i]


@njit_inline
def to_take(view, i):
    """The value a Cash card must beat to go on property i (the top card, or the printed value)."""
    top = view[0][TOP_VALUE + i]
    return top if top > 0 else view[1][R_PROP_VALUE + i]


@njit_inline
def corner_free(view, corner):
    """Whether a corner still has room for a Token."""
    return 0 <= corner < N_CORNERS and view[0][CORNERS + corner] < 0


# ---- Cash offered to a decision ----------------------------------------------------------------


@njit_inline
def offered_cash(view, k):
    """The value of Cash card k of those a decision offers you (place_cash, take_cash, and for
    token the cards flipped this turn)."""
    return view[0][BUF_VALUE + k]


@njit_inline
def draw_pile_cash(view, k):
    """token: the value of Cash card k of your draw pile (in no particular order)."""
    return view[0][BUF_VALUE2 + k]


@njit_inline
def discard_pile_cash(view, k):
    """token: the value of Cash card k of your discard pile."""
    return view[0][BUF_VALUE3 + k]


# ---- the decisions -----------------------------------------------------------------------------
# The kernel's decision entry points (sim/chance/kernel.py calls these, not strategies/chance.py):
# a seat that is a user's bot taking the decision is asked (sim/core/botcall.py), its answer
# checked; any other seat, or a FALLBACK, gets the built-in decision.

D_FLIP, D_PLACE_CASH, D_TAKE_CASH, D_FLIP2, D_NOPE_FLIP2, D_NOPE_CASH, D_TOKEN, D_JAIL_TARGET, D_VICTIM = range(9)


@njit_no_refcount
def should_flip(pk, pp, pt, p, S, RB, rng):
    if not takes(pp[p], N_PARAMS, D_FLIP):
        return builtin.should_flip(pk, pp, pt, p, S, RB, rng)
    own = bot_yes_no(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_FLIP, RB, p)
    if own == FALLBACK:
        return builtin.should_flip(pk, pp, pt, p, S, RB, rng)
    return builtin.forced_flip(pp, p, S, own == 1)


@njit_no_refcount
def choose_play(pk, pp, p, S, RB, rng, n_cash, fp_available, blocked_mask):
    if takes(pp[p], N_PARAMS, D_PLACE_CASH):
        status, k, i, _, _, _ = ask(pp[p], N_PARAMS, D_PLACE_CASH, S, RB, p, n_cash, fp_available, blocked_mask)
        if status == ANSWERED and k == FALLBACK:
            pass
        elif status == ANSWERED and (k == -1 or (0 <= k < n_cash and 0 <= i < RB[R_PROPS]
                                                 and not (blocked_mask >> i) & 1
                                                 and (fp_available or S[BUF_VALUE + k] > requirement(S, RB, i)))):
            return k, i
        else:
            refuse(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_PLACE_CASH, status, -1, 2, k, i, 0, 0, 0)
    return builtin.choose_play(pk, pp, p, S, RB, rng, n_cash, fp_available, blocked_mask)


@njit_no_refcount
def choose_cash_card(pk, pp, p, S, RB, rng, n_cash):
    if takes(pp[p], N_PARAMS, D_TAKE_CASH):
        status, k, _, _, _, _ = ask(pp[p], N_PARAMS, D_TAKE_CASH, S, RB, p, n_cash)
        if status == ANSWERED and k == FALLBACK:
            pass
        elif status == ANSWERED and (0 <= k < n_cash or (k == -1 and n_cash == 0)):
            return k
        else:
            refuse(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_TAKE_CASH, status, -1, 1, k, 0, 0, 0, 0)
    return builtin.choose_cash_card(pk, pp, p, S, RB, rng, n_cash)


@njit_no_refcount
def want_flip2(pk, pp, o, stake, p_bust2, target_sky, rng, S, RB):
    if takes(pp[o], N_PARAMS, D_FLIP2):
        a = bot_yes_no(S, STATE_SIZE, G_STATUS, pp[o], N_PARAMS, D_FLIP2, RB, o, stake, p_bust2, target_sky)
        if a != FALLBACK:
            return a == 1
    return builtin.want_flip2(pk, pp, o, stake, p_bust2, target_sky, rng, S, RB)


@njit_no_refcount
def want_nope_flip2(pk, pp, p, stake, p_bust2, rng, S, RB):
    if takes(pp[p], N_PARAMS, D_NOPE_FLIP2):
        a = bot_yes_no(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_NOPE_FLIP2, RB, p, stake, p_bust2)
        if a != FALLBACK:
            return a == 1
    return builtin.want_nope_flip2(pk, pp, p, stake, p_bust2, rng, S, RB)


@njit_no_refcount
def want_nope_cash(pk, pp, o, length_at_stake, rng, S, RB):
    if takes(pp[o], N_PARAMS, D_NOPE_CASH):
        a = bot_yes_no(S, STATE_SIZE, G_STATUS, pp[o], N_PARAMS, D_NOPE_CASH, RB, o, length_at_stake)
        if a != FALLBACK:
            return a == 1
    return builtin.want_nope_cash(pk, pp, o, length_at_stake, rng, S, RB)


@njit_no_refcount
def choose_token(pk, pp, p, S, RB, rng, n_flipped, n_draw, n_discard, last_chance):
    if takes(pp[p], N_PARAMS, D_TOKEN):
        status, c, _, _, _, _ = ask(pp[p], N_PARAMS, D_TOKEN, S, RB, p, n_flipped, n_draw, n_discard, last_chance)
        if status == ANSWERED and c == FALLBACK:
            pass
        elif status == ANSWERED and (c == -1 or (0 <= c < N_CORNERS and S[CORNERS + c] < 0)):
            return c
        else:
            refuse(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_TOKEN, status, -1, 1, c, 0, 0, 0, 0)
    return builtin.choose_token(pk, pp, p, S, RB, rng, n_flipped, n_draw, n_discard, last_chance)


@njit_no_refcount
def choose_jail_target(pk, pp, p, S, RB, rng):
    if takes(pp[p], N_PARAMS, D_JAIL_TARGET):
        status, i, _, _, _, _ = ask(pp[p], N_PARAMS, D_JAIL_TARGET, S, RB, p)
        if status == ANSWERED and i == FALLBACK:
            pass
        elif status == ANSWERED and jail_target_legal(S, RB, p, i):
            return i
        else:
            refuse(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_JAIL_TARGET, status, -1, 1, i, 0, 0, 0, 0)
    return builtin.choose_jail_target(pk, pp, p, S, RB, rng)


@njit_no_refcount
def choose_victim(pk, pp, p, S, RB, rng):
    if takes(pp[p], N_PARAMS, D_VICTIM):
        status, q, _, _, _, _ = ask(pp[p], N_PARAMS, D_VICTIM, S, RB, p)
        if status == ANSWERED and q == FALLBACK:
            pass
        elif status == ANSWERED and victim_legal(S, RB, p, q):
            return q
        else:
            refuse(S, STATE_SIZE, G_STATUS, pp[p], N_PARAMS, D_VICTIM, status, -1, 1, q, 0, 0, 0, 0)
    return builtin.choose_victim(pk, pp, p, S, RB, rng)


@njit_inline
def jail_target_legal(S, RB, p, i):
    """A property topped by an opponent's card, or -1 when there is none."""
    if i != -1:
        return 0 <= i < RB[R_PROPS] and S[TOP_OWNER + i] >= 0 and S[TOP_OWNER + i] != p
    for j in range(RB[R_PROPS]):
        if S[TOP_OWNER + j] >= 0 and S[TOP_OWNER + j] != p:
            return False
    return True


@njit_inline
def victim_legal(S, RB, p, q):
    """An opponent with a building, or -1 when there is none."""
    if q != -1:
        return 0 <= q < RB[R_PLAYERS] and q != p and S[N_BLD + q] > 0
    for j in range(RB[R_PLAYERS]):
        if j != p and S[N_BLD + j] > 0:
            return False
    return True


API = BotApi(
    game="chance",
    slot=N_PARAMS,
    view="View(S, RB, p)",
    fallback="smart",
    decisions=(  # in the order of the D_* numbers
        Decision("flip", ("view", "params"), "", ("flip",), "True to flip, False to cash out",
                 "Flip another card (True) or cash out (False); asked before every flip."),
        Decision("place_cash", ("view", "params", "n_cash", "free_parking", "blocked"), "ibi", ("k", "i"),
                 "(k, i): offered Cash card k on property i, or (-1, -1) to stop",
                 "Where the next Cash card goes: offered_cash(view, k) for k < n_cash are the cards in hand; a card "
                 "must beat to_take(view, i), unless free_parking (the Free Parking Token lets one card go anywhere); "
                 "properties whose bit is set in `blocked` are closed by a Nope!. Asked until it stops."),
        Decision("take_cash", ("view", "params", "n_cash"), "i", ("k",),
                 "k, an offered Cash card (-1 only when n_cash is 0)",
                 "GO or Just Visiting: which of the n_cash offered Cash cards to take and play at once."),
        Decision("flip2", ("view", "params", "stake", "bust_chance", "target_skyline"), "ifi", ("flip2",),
                 "True to play Flip 2", "Play your Flip 2 on the player who just cashed out with `stake` of useful "
                 "Cash? Two more flips bust them with chance bust_chance."),
        Decision("nope_flip2", ("view", "params", "stake", "bust_chance"), "if", ("nope",), "True to play Nope!",
                 "Answer a Flip 2 played on you with a Nope!?"),
        Decision("nope_cash", ("view", "params", "length_at_stake"), "i", ("nope",), "True to play Nope!",
                 "Block a Cash card played on your property with a Nope!? length_at_stake is the building the "
                 "property still gives."),
        Decision("token", ("view", "params", "n_flipped", "n_draw", "n_discard", "last_chance"), "iiib", ("c",),
                 "a free corner for the Token, or -1 to keep it",
                 "Where to play a Token: GO takes a Cash card from your draw pile (draw_pile_cash), Just Visiting "
                 "from your discard pile (discard_pile_cash), Free Parking lets a flipped card (offered_cash) go "
                 "anywhere, Go to Jail sends an opponent's top card home. last_chance: the round's last turns (its end "
                 "has come, or no player can flip any more): a Token kept is lost or waits for nothing."),
        Decision("jail_target", ("view", "params"), "", ("i",),
                 "a property topped by an opponent's card (-1 only when there is none)",
                 "Go to Jail: whose top Cash card goes back to its owner."),
        Decision("victim", ("view", "params"), "", ("q",), "an opponent with a building (-1 only when there is none)",
                 "A Chance card takes a building from an opponent: whom."),
    ),
)
