"""What a Monopoly Chance bot written in Python sees and decides (docs/bots.md).

A bot file does ``from sim.chance.bots import *`` and reads the game through the accessors
below, each taking the `view` its decision functions receive (the view itself is not to be
read: it holds the whole state, hidden cards included). They show what a player at the table
sees: the board, every skyline, the cards held in front of each player, the Cash offered to
you, and your own pile only as counts. The order of any pile is never shown.

Seats are numbered from 0; properties 0 .. n_properties(view) - 1; corners GO, FREE_PARKING,
JUST_VISITING, GO_TO_JAIL. Everything is compiled by numba with the bot, so a bot uses numbers,
booleans and if/for/while, and may not create arrays or lists.
"""

from __future__ import annotations

from sim.chance.layout import (  # noqa: F401 (STATS, N_SEAT_COLS, SC_*: the wrappers' code)
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
    N_SEAT_COLS,
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
    SC_SITUATIONS,
    SC_SITUATIONS_OWN_FLIP,
    SKY_LEN,
    STATS,
    TOP_OWNER,
    TOP_VALUE,
    WHERE,
)
from sim.chance.rules import FLIP2, FREE_PARKING, GO, GO_TO_JAIL, JUST_VISITING, LUCKY_BREAK, NOPE, TOKEN  # noqa: F401
from sim.core.jit import njit_inline
from sim.core.userbot import FALLBACK, BotApi, Decision, checked, yes_no
from strategies.chance import (  # noqa: F401 (FORCE_*, requirement, situation_matches: the wrappers' code)
    FORCE_FLIP,
    FORCE_KEY_SLOT,
    FORCE_SLOT,
    N_PARAMS,
    next_flip_busts,
    p_bust_within,
    requirement,
    situation_matches,
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
# Each body runs for a seat of the bot; `{refuse}` marks a refused move, whose place the built-in
# decision then takes.

_FLIP = """
own = {bot}(View(S, RB, p), {params})
if own == FALLBACK:
    own = builtin.policy_flip(pk, pp, pt, p, S, rng)
if pp[p, FORCE_SLOT] > 0 and situation_matches(S, pp[p, FORCE_KEY_SLOT]):
    S[STATS + p * N_SEAT_COLS + SC_SITUATIONS] += 1
    if own:
        S[STATS + p * N_SEAT_COLS + SC_SITUATIONS_OWN_FLIP] += 1
    return pp[p, FORCE_SLOT] == FORCE_FLIP
return bool(own)
"""

# The checks of two answers (the wrappers' code).


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
    status=G_STATUS,
    fallback="smart",
    decisions=(
        Decision("flip", "should_flip", "p", ("view", "params"), _FLIP, "True to flip, False to cash out",
                 "Flip another card (True) or cash out (False); asked before every flip."),
        Decision("place_cash", "choose_play", "p", ("view", "params", "n_cash", "free_parking", "blocked"),
                 checked("k, i", "View(S, RB, p), {params}, n_cash, fp_available, blocked_mask",
                         "k == -1 or (0 <= k < n_cash and 0 <= i < RB[R_PROPS] and not (blocked_mask >> i) & 1 "
                         "and (fp_available or S[BUF_VALUE + k] > requirement(S, RB, i)))"),
                 "(k, i): offered Cash card k on property i, or (-1, -1) to stop",
                 "Where the next Cash card goes: offered_cash(view, k) for k < n_cash are the cards in hand; a card "
                 "must beat to_take(view, i), unless free_parking (the Free Parking Token lets one card go anywhere); "
                 "properties whose bit is set in `blocked` are closed by a Nope!. Asked until it stops."),
        Decision("take_cash", "choose_cash_card", "p", ("view", "params", "n_cash"),
                 checked("k", "View(S, RB, p), {params}, n_cash", "0 <= k < n_cash or (k == -1 and n_cash == 0)"),
                 "k, an offered Cash card (-1 only when n_cash is 0)",
                 "GO or Just Visiting: which of the n_cash offered Cash cards to take and play at once."),
        Decision("flip2", "want_flip2", "o", ("view", "params", "stake", "bust_chance", "target_skyline"),
                 yes_no("View(S, RB, o), {params}, stake, p_bust2, target_sky"),
                 "True to play Flip 2", "Play your Flip 2 on the player who just cashed out with `stake` of useful "
                 "Cash? Two more flips bust them with chance bust_chance."),
        Decision("nope_flip2", "want_nope_flip2", "p", ("view", "params", "stake", "bust_chance"),
                 yes_no("View(S, RB, p), {params}, stake, p_bust2"), "True to play Nope!",
                 "Answer a Flip 2 played on you with a Nope!?"),
        Decision("nope_cash", "want_nope_cash", "o", ("view", "params", "length_at_stake"),
                 yes_no("View(S, RB, o), {params}, length_at_stake"), "True to play Nope!",
                 "Block a Cash card played on your property with a Nope!? length_at_stake is the building the "
                 "property still gives."),
        Decision("token", "choose_token", "p",
                 ("view", "params", "n_flipped", "n_draw", "n_discard", "last_chance"),
                 checked("c", "View(S, RB, p), {params}, n_flipped, n_draw, n_discard, last_chance",
                         "c == -1 or (0 <= c < N_CORNERS and S[CORNERS + c] < 0)"),
                 "a free corner for the Token, or -1 to keep it",
                 "Where to play a Token: GO takes a Cash card from your draw pile (draw_pile_cash), Just Visiting "
                 "from your discard pile (discard_pile_cash), Free Parking lets a flipped card (offered_cash) go "
                 "anywhere, Go to Jail sends an opponent's top card home. last_chance: a Token kept now is lost."),
        Decision("jail_target", "choose_jail_target", "p", ("view", "params"),
                 checked("i", "View(S, RB, p), {params}", "jail_target_legal(S, RB, p, i)"),
                 "a property topped by an opponent's card (-1 only when there is none)",
                 "Go to Jail: whose top Cash card goes back to its owner."),
        Decision("victim", "choose_victim", "p", ("view", "params"),
                 checked("q", "View(S, RB, p), {params}", "victim_legal(S, RB, p, q)"),
                 "an opponent with a building (-1 only when there is none)",
                 "A Chance card takes a building from an opponent: whom."),
    ),
)
