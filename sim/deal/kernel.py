"""Monopoly Deal kernel: whole games in compiled code.

``play_batch`` plays games ``first .. first + n - 1`` of a run in parallel and writes one row
per game (and one per seat) into preallocated arrays. Game g draws only from generators seeded
by (seed, g): the table's stream shuffles the deck, each seat's policy has its own stream.

A game is one int32 array ``S``: the rules and the seats' bot kinds at its head, then the state
(offsets in sim/deal/layout.py). Every card is always in exactly one list (draw pile, discard pile, a
hand, a bank, a property group, or a building slot); the functions in the "moving cards"
section are the only ones that change those lists, and they keep ``WHERE / OWNER / GROUP /
POS`` and the cached group and bank totals in step. Bots (strategies/deal.py) decide; this
module checks that every decision is legal and carries it out.
"""

import numpy as np
from numba import njit, prange

from sim.core.decisions import add_legal, listed_answer, outside, resuming, snapshot, take_answer, yes_no
from sim.core.event_log import EV_GAME_END, EV_ROUND, EV_SEAT_STATE, EV_TURN, log_event
from sim.core.jit import njit_inline, njit_no_refcount, trailing_zeros
from sim.core.rng import seed_state, shuffle
from sim.deal.board import (
    can_build,
    can_take,
    compute_complete,
    compute_payable,
    ctype,
    cvalue,
    is_complete,
    list_collection,
    n_complete,
    play_legal,
    payable,
    rent_of,
    seat_after,
    wild_home_key,
)
from sim.deal.layout import (
    G_SKIP_DRAW,
    P_CARD,
    P_HAND_N,
    P_PLAYS,
    P_SEAT,
    P_TURN,
    P_UNSEEN,
    P_HAND,
    P_BANK,
    P_PROPERTY,
    P_BUILDING,
    P_DISCARD,
    R_MAX_DOUBLES,
    SCRATCH4,
    DK_COLOUR,
    DK_DISCARD,
    DK_JUST_SAY_NO,
    DK_PAY,
    DK_PLAY,
    G_QUIET,
    action_play,
    play_action,
    END_ERROR,
    END_SETS,
    END_STALLED,
    END_TURN_LIMIT,
    EV_BANK,
    EV_BUILD,
    EV_CHARGE,
    EV_DEAL_BREAKER,
    EV_DISCARD,
    EV_DOUBLE,
    EV_DRAW,
    EV_FORCED,
    EV_FORCED_GIVE,
    EV_GIVE,
    EV_JUST_SAY_NO,
    EV_MOVE_WILD,
    EV_PASS_GO,
    EV_PAY,
    EV_PLACE,
    EV_RENT,
    EV_SET,
    EV_RENT_CARD,
    EV_SLY,
    ANY_WILDS,
    ARRANGED_COLOURS,
    ARRANGED_VER,
    BANK,
    BANK_,
    BANK_N,
    BANK_VAL,
    BUILDING,
    BUILDINGS,
    COLL_VER,
    COMPLETE,
    COMPLETE_MASK,
    COUNTED_MASK,
    DISC_N,
    DISC_PILE,
    DISCARD,
    DRAW,
    DRAW_N,
    DRAW_PILE,
    G_AT_WIN,
    G_CURRENT,
    G_PLAYS_LEFT,
    G_RESHUFFLES,
    G_SETS_CHANGED,
    G_STATUS,
    G_TURN,
    G_WIN_OWN_TURN,
    G_WINNER,
    GROUP,
    GRP,
    GRP_N,
    GRP_ORD,
    GRP_VAL,
    GRP_VER,
    HELD_MASK,
    HAND,
    HAND_,
    HAND_N,
    HOTEL,
    HOUSE,
    LOOSE,
    MAX_CARDS,
    MAX_GROUP,
    MAX_HAND,
    N_SEAT_COLS,
    NC,
    NCOMP,
    NEAR_WIN_VER,
    NG,
    ORD_MASK,
    OWNER,
    PAYV,
    PLACE_MEMO_COLOUR,
    PLACE_MEMO_VER,
    POS,
    PROP,
    R_BIRTHDAY,
    R_BROKEN_BLD,
    R_BUILDABLE,
    R_CARD_C1,
    R_CARD_C2,
    R_CARD_SEAT,
    R_CARDS,
    R_COUNTER_USES_PLAY,
    R_DEBT,
    R_DECK,
    R_DRAW,
    R_DRAW_EMPTY,
    R_EXCESS_TO,
    R_HAND_LIMIT,
    R_KIND,
    R_MAX_TURNS,
    R_PASS_GO,
    R_PAY_BUILDINGS,
    R_PLAYERS,
    R_PLAYS,
    R_RESHUFFLE,
    R_SET_SIZE,
    R_SETS_TO_WIN,
    R_START_HAND,
    R_WIN_ANY_TURN,
    REPAIRED_VER,
    RNG_SIZE,
    RULES_SIZE,
    RNG_TABLE,
    SC_BANK,
    SC_BANKED,
    SC_BIRTHDAY,
    SC_BLOCKED,
    SC_COLLECTED,
    SC_DEAL_BREAKER,
    SC_DEBT,
    SC_DISCARDED,
    SC_DOUBLE,
    SC_DRAWN,
    SC_FORCED,
    SC_HOTEL,
    SC_HOUSE,
    SC_JSN,
    SC_PAID,
    SC_PASS_GO,
    SC_PLACED,
    SC_PLAYS,
    SC_PROPERTIES,
    SC_RENT,
    SC_RENT_COLLECTED,
    SC_RENT_PAID,
    SC_SETS,
    SC_SETS_MADE,
    SC_SHORT,
    SC_SLY,
    SC_STOLEN_FROM,
    SC_TURNS,
    SC_WIN,
    SCRATCH,
    SCRATCH2,
    SCRATCH3,
    STATE_SIZE,
    STATS,
    WHERE,
    WILD_MASK,
)
from sim.deal.rules import (
    BIRTHDAY,
    DEAL_BREAKER,
    DEBT_COLLECTOR,
    DOUBLE_RENT,
    FORCED_DEAL,
    HOTEL as T_HOTEL,
    HOUSE as T_HOUSE,
    JUST_SAY_NO,
    PASS_GO,
    PROPERTY,
    RENT,
    RENT_ANY,
    SLY_DEAL,
    WILD,
    WILD_ANY,
)
from strategies.deal import (
    M_ACTION,
    M_BANK,
    M_PLACE,
    plan_arrangement,
)

# The decision entry points: the built-in bots' (strategies/deal.py), or a user's bot's.
from sim.deal.bots import (
    choose_discard,
    choose_payment,
    choose_play,
    choose_received_colour,
    want_just_say_no,
)

# Per-game output columns.
(
    G_WINNER_OUT,
    G_TURNS_OUT,
    G_ROUNDS_OUT,
    G_CAPPED,
    G_STALLED,
    G_RESHUFFLES_OUT,
    G_OWN_TURN_WIN,
    G_STATUS_OUT,
    N_GAME_COLS,
) = range(9)
GAME_COLS = ("winner", "turns", "rounds", "hit_turn_limit", "stalled", "reshuffles", "won_on_own_turn", "status")

# Status codes: 0 is a clean game, anything else an invariant failure.
OK, ERR_CARDS, ERR_LISTS, ERR_GROUP, ERR_BANK, ERR_BUILDING, ERR_MONEY, ERR_ILLEGAL_PLAY, ERR_LOOP, PAUSED = range(10)
STATUS_NAMES = (
    "ok",
    "a card is lost, duplicated or in an unknown place",
    "a card's recorded place does not match its list",
    "a property group holds a card that cannot stand there, or its totals are wrong",
    "a bank holds a property, or its total is wrong",
    "a building stands where it may not",
    "money was created or lost in a payment",
    "a policy made an illegal play",
    "a turn did not terminate",
    "paused at a decision answered from outside (the step API; never in a batch run)",
)


@njit_inline
def recording(S):
    """Whether this game logs its events (a replay, sim/core/replay.py)."""
    return S.shape[0] > STATE_SIZE


@njit_inline
def log(S, kind, seat, card, amount, target):
    log_event(S, STATE_SIZE, kind, seat, card, amount, target)


@njit_no_refcount
def stat(p, col):
    return STATS + p * N_SEAT_COLS + col


# ---------------------------------------------------------------------------------------------
# Moving cards: the only functions that change the card lists


@njit_no_refcount
def refresh(S, p, g):
    """Bring the cached complete flag of seat p's group g up to date."""
    if g >= NC:
        return
    new = 1 if compute_complete(S, p, g) else 0
    old = S[COMPLETE + p * NC + g]
    if new != old:
        S[COMPLETE + p * NC + g] = new
        S[COMPLETE_MASK + p] ^= 1 << g
        n = S[NCOMP + p] + new - old
        S[NCOMP + p] = n
        S[G_SETS_CHANGED] = 1
        target = S[R_SETS_TO_WIN]
        # The placing memo's gains read the count only as "one more set wins" (place_gain).
        S[NEAR_WIN_VER + p] += int(n + 1 >= target) != int(n - new + old + 1 >= target)
        S[G_AT_WIN] += int(n >= target) - int(n - new + old >= target)


@njit_inline
def keep_plan(S, p, g):
    """Called as an ordinary property of colour g joins or leaves seat p's collection, before
    its COLL_VER is bumped: when p's last plan moved nothing and none of its wilds may stand in
    colour g, that plan stays as it was and still moves nothing, so it stays marked as such.
    The plan (strategies/deal.py plan_arrangement) reads a colour's counts and House only for
    colours some wild fits, and lists the wilds group by group (colour g holds none); an
    any-colour wild would cover every colour. Nor has the repair that follows a plan anything
    to do: with no any-colour wild only buildings are repaired, and a set losing a card is
    repaired at once (collect, the thefts), so every building stands on a complete set."""
    if S[ARRANGED_VER + p] == S[COLL_VER + p] and (S[ARRANGED_COLOURS + p] >> g) & 1 == 0:
        S[ARRANGED_VER + p] += 1


@njit_inline
def keep_repaired(S, p, g, c):
    """Called as property card c joins seat p's group g, before p's COLL_VER is bumped: when the
    last repair (kernel.repair) found nothing to do since the last change, it still finds
    nothing, so the collection stays marked as repaired, for a two-colour wild, an ordinary
    property when no any-colour wild waits in LOOSE (the first ordinary property would give
    it a home), and an any-colour wild joining a colour with an ordinary property, or LOOSE
    when no colour has one. A card joining takes no ordinary property from a wild, gives no
    waiting wild a home otherwise, and breaks no set a building stands on."""
    if S[REPAIRED_VER + p] == S[COLL_VER + p]:
        t = ctype(S, c)
        if t == WILD:
            S[REPAIRED_VER + p] += 1
        elif t == PROPERTY:
            if S[GRP_N + p * NG + LOOSE] == 0:
                S[REPAIRED_VER + p] += 1
        elif g < NC:
            if S[GRP_ORD + p * NG + g] > 0:
                S[REPAIRED_VER + p] += 1
        elif S[ORD_MASK + p] & ((1 << NC) - 1) == 0:
            S[REPAIRED_VER + p] += 1


@njit_inline
def keep_repaired_leaving(S, p, g):
    """Called as a property card leaves seat p's group g, after the group's counts went down and
    before p's COLL_VER is bumped: when the last repair found nothing to do since the last
    change, it still finds nothing unless the colour may now hold an any-colour wild without an
    ordinary property, or carries a House or Hotel on a set no longer complete. A card leaving
    gives no waiting wild a home, and a wild leaving LOOSE leaves nothing to repair."""
    if S[REPAIRED_VER + p] == S[COLL_VER + p]:
        if g >= NC:
            S[REPAIRED_VER + p] += 1
        else:
            stranded = S[ANY_WILDS + p] > 0 and S[GRP_ORD + p * NG + g] == 0 and S[GRP_N + p * NG + g] > 0
            built = S[HOUSE + p * NC + g] >= 0 or S[HOTEL + p * NC + g] >= 0
            if not stranded and not (built and not compute_complete(S, p, g)):
                S[REPAIRED_VER + p] += 1


@njit_inline
def swap_remove(S, first, count, k):
    """Remove item k of the card list S[first:first + S[count]]: its last card takes the place
    (and POS) of the removed one. Returns the new length."""
    n = S[count] - 1
    last = S[first + n]
    S[first + k] = last
    S[POS + last] = k
    S[count] = n
    return n


@njit_no_refcount
def take_out(S, c):
    """Remove card c from whatever list holds it (its WHERE is left for the caller to set).
    Returns the group (colour) it left, or -1. The caller repairs a group that lost a card
    (see after_group_loss)."""
    w = S[WHERE + c]
    k = S[POS + c]
    g = -1
    if w == DRAW:
        n = S[DRAW_N] - 1
        for j in range(k, n):  # keep the pile order
            moved = S[DRAW_PILE + j + 1]
            S[DRAW_PILE + j] = moved
            S[POS + moved] = j
        S[DRAW_N] = n
    elif w == DISCARD:
        swap_remove(S, DISC_PILE, DISC_N, k)
    elif w == HAND:
        take_from_hand(S, c)
    elif w == BANK:
        p = S[OWNER + c]
        swap_remove(S, BANK_ + p * MAX_CARDS, BANK_N + p, k)
        S[BANK_VAL + p] -= cvalue(S, c)
        S[PAYV + p] -= cvalue(S, c)
    elif w == PROP:
        p = S[OWNER + c]
        g = S[GROUP + c]
        gidx = p * NG + g
        n = swap_remove(S, GRP + gidx * MAX_GROUP, GRP_N + gidx, k)
        S[GRP_VAL + gidx] -= cvalue(S, c)
        S[PAYV + p] -= cvalue(S, c)
        if ctype(S, c) == PROPERTY:
            S[GRP_ORD + gidx] -= 1
            keep_plan(S, p, g)
        elif ctype(S, c) == WILD_ANY:
            S[ANY_WILDS + p] -= 1
        bit = 1 << g  # the group's bits in the masks, without a branch
        S[HELD_MASK + p] = (S[HELD_MASK + p] & ~bit) | (int(n > 0) << g)
        S[WILD_MASK + p] = (S[WILD_MASK + p] & ~bit) | (int(n != S[GRP_ORD + gidx]) << g)
        S[ORD_MASK + p] = (S[ORD_MASK + p] & ~bit) | (int(S[GRP_ORD + gidx] > 0) << g)
        keep_repaired_leaving(S, p, g)
        S[COLL_VER + p] += 1
        if g < NC:
            S[GRP_VER + p * NC + g] += 1
        refresh(S, p, g)
    elif w == BUILDING:
        p = S[OWNER + c]
        col = S[GROUP + c]
        if S[R_PAY_BUILDINGS] == 1:
            S[PAYV + p] -= cvalue(S, c)
        S[BUILDINGS + p] -= 1
        S[COLL_VER + p] += 1
        if ctype(S, c) == T_HOUSE:
            S[HOUSE + p * NC + col] = -1
        else:
            S[HOTEL + p * NC + col] = -1
    S[OWNER + c] = -1
    S[GROUP + c] = -1
    return g


@njit_inline
def take_from_hand(S, c):
    """take_out for a card known to be in a hand (the card played, a Double the Rent or Just
    Say No spent, a discard): the same changes without take_out's switch and call, small
    enough to inline at these frequent calls."""
    p = S[OWNER + c]
    swap_remove(S, HAND_ + p * MAX_HAND, HAND_N + p, S[POS + c])
    S[OWNER + c] = -1
    S[GROUP + c] = -1


@njit_no_refcount
def to_hand(S, p, c):
    n = S[HAND_N + p]
    S[HAND_ + p * MAX_HAND + n] = c
    S[HAND_N + p] = n + 1
    S[WHERE + c] = HAND
    S[OWNER + c] = p
    S[GROUP + c] = -1
    S[POS + c] = n


@njit_no_refcount
def to_bank(S, p, c):
    n = S[BANK_N + p]
    S[BANK_ + p * MAX_CARDS + n] = c
    S[BANK_N + p] = n + 1
    S[BANK_VAL + p] += cvalue(S, c)
    S[PAYV + p] += cvalue(S, c)
    S[WHERE + c] = BANK
    S[OWNER + c] = p
    S[GROUP + c] = -1
    S[POS + c] = n


@njit_no_refcount
def to_group(S, p, g, c):
    gidx = p * NG + g
    n = S[GRP_N + gidx]
    S[GRP + gidx * MAX_GROUP + n] = c
    S[GRP_N + gidx] = n + 1
    S[GRP_VAL + gidx] += cvalue(S, c)
    S[PAYV + p] += cvalue(S, c)
    S[HELD_MASK + p] |= 1 << g
    if ctype(S, c) == PROPERTY:
        S[GRP_ORD + gidx] += 1
        S[ORD_MASK + p] |= 1 << g
        keep_plan(S, p, g)
    else:
        S[WILD_MASK + p] |= 1 << g
        if ctype(S, c) == WILD_ANY:
            S[ANY_WILDS + p] += 1
    keep_repaired(S, p, g, c)
    S[COLL_VER + p] += 1
    if g < NC:
        S[GRP_VER + p * NC + g] += 1
    S[WHERE + c] = PROP
    S[OWNER + c] = p
    S[GROUP + c] = g
    S[POS + c] = n
    refresh(S, p, g)


@njit_no_refcount
def to_discard(S, c):
    n = S[DISC_N]
    S[DISC_PILE + n] = c
    S[DISC_N] = n + 1
    S[WHERE + c] = DISCARD
    S[OWNER + c] = -1
    S[GROUP + c] = -1
    S[POS + c] = n


@njit_no_refcount
def to_draw_top(S, c):
    n = S[DRAW_N]
    S[DRAW_PILE + n] = c
    S[DRAW_N] = n + 1
    S[WHERE + c] = DRAW
    S[OWNER + c] = -1
    S[GROUP + c] = -1
    S[POS + c] = n


@njit_no_refcount
def to_draw_bottom(S, c):
    n = S[DRAW_N]
    for j in range(n, 0, -1):
        moved = S[DRAW_PILE + j - 1]
        S[DRAW_PILE + j] = moved
        S[POS + moved] = j
    S[DRAW_PILE] = c
    S[DRAW_N] = n + 1
    S[WHERE + c] = DRAW
    S[OWNER + c] = -1
    S[GROUP + c] = -1
    S[POS + c] = 0


@njit_no_refcount
def to_building(S, p, col, c):
    if ctype(S, c) == T_HOUSE:
        S[HOUSE + p * NC + col] = c
    else:
        S[HOTEL + p * NC + col] = c
    if S[R_PAY_BUILDINGS] == 1:
        S[PAYV + p] += cvalue(S, c)
    S[BUILDINGS + p] += 1
    # A House, or a Hotel over a House, on a complete set leaves a repair nothing to do.
    if S[REPAIRED_VER + p] == S[COLL_VER + p] and is_complete(S, p, col) and S[HOUSE + p * NC + col] >= 0:
        S[REPAIRED_VER + p] += 1
    S[COLL_VER + p] += 1
    S[WHERE + c] = BUILDING
    S[OWNER + c] = p
    S[GROUP + c] = col
    S[POS + c] = 0


# ---------------------------------------------------------------------------------------------
# Keeping a collection legal


@njit_no_refcount
def home_for_any_wild(S, p):
    """A colour where seat p's any-colour wild may stand (has an ordinary property), preferring
    the incomplete colour closest to completion (board.wild_home_key); LOOSE when there is none."""
    best = LOOSE
    best_key = 1 << 20
    for c in range(NC):
        if S[GRP_ORD + p * NG + c] > 0:
            key = wild_home_key(S, c, S[GRP_N + p * NG + c])
            if key < best_key:
                best = c
                best_key = key
    return best


@njit_no_refcount
def move_buildings_off(S, p, col, own_turn):
    """Seat p's set of colour col no longer carries buildings: each goes to another complete
    set when the house rule allows it now, else to p's bank."""
    rule = S[R_BROKEN_BLD]
    may_move = rule == 2 or (rule == 1 and own_turn)
    for hotel in (False, True):
        slot = (HOTEL if hotel else HOUSE) + p * NC + col
        b = S[slot]
        if b < 0:
            continue
        take_out(S, b)
        dest = -1
        if may_move:
            best = -1
            for c in range(NC):
                if c != col and can_build(S, p, c, hotel):
                    r = rent_of(S, p, c)
                    if r > best:
                        best = r
                        dest = c
        if dest >= 0:
            to_building(S, p, dest, b)
        else:
            to_bank(S, p, b)


@njit_no_refcount
def repair(S, p, own_turn):
    """After seat p lost or moved property cards: any-colour wilds left without an ordinary
    property go to a colour that has one (or LOOSE), loose ones come home when they can, and
    buildings leave sets that are no longer complete (or not buildable). Skipped when p's
    collection is as it was when the last repair found nothing to do. Only these checks are
    here, small enough to be inlined at the calls; the work is in repair_collection."""
    ver = S[COLL_VER + p]
    if S[REPAIRED_VER + p] == ver:
        return
    if S[ANY_WILDS + p] == 0 and S[BUILDINGS + p] == 0:
        S[REPAIRED_VER + p] = ver  # only any-colour wilds and buildings ever need a repair
        return
    repair_collection(S, p, own_turn)


@njit_no_refcount
def repair_collection(S, p, own_turn):
    """repair's work, for a seat with an any-colour wild or a building."""
    ver = S[COLL_VER + p]
    # A colour holding cards but no ordinary property holds a wild: visit only those (no wild
    # moved below goes to a colour without an ordinary property, so none is added).
    m = S[WILD_MASK + p] & ((1 << NC) - 1)
    while m != 0:
        c = trailing_zeros(m)
        m &= m - 1
        gidx = p * NG + c
        if S[GRP_ORD + gidx] == 0 and S[GRP_N + gidx] > 0:
            k = 0
            while k < S[GRP_N + gidx]:
                card = S[GRP + gidx * MAX_GROUP + k]
                if ctype(S, card) == WILD_ANY:
                    take_out(S, card)
                    home = home_for_any_wild(S, p)
                    log(S, EV_MOVE_WILD, p, card, 0, home)
                    to_group(S, p, home, card)
                else:
                    k += 1
    gidx = p * NG + LOOSE
    while S[GRP_N + gidx] > 0:
        home = home_for_any_wild(S, p)
        if home == LOOSE:
            break
        card = S[GRP + gidx * MAX_GROUP + S[GRP_N + gidx] - 1]
        log(S, EV_MOVE_WILD, p, card, 0, home)
        take_out(S, card)
        to_group(S, p, home, card)
    if S[BUILDINGS + p] > 0:  # else no House or Hotel to check (the wilds above move none)
        for c in range(NC):
            if (S[HOUSE + p * NC + c] >= 0 or S[HOTEL + p * NC + c] >= 0) and not is_complete(S, p, c):
                move_buildings_off(S, p, c, own_turn)
        for c in range(NC):  # a Hotel whose House left it (cannot happen above; kept as a guard)
            if S[HOTEL + p * NC + c] >= 0 and S[HOUSE + p * NC + c] < 0:
                move_buildings_off(S, p, c, own_turn)
    if S[COLL_VER + p] == ver:
        S[REPAIRED_VER + p] = ver


@njit_no_refcount
def receive_property(S, pp, rng, q, card):
    """Seat q receives a property card (payment, Sly Deal, Forced Deal): q's bot picks the
    colour of a wild; an any-colour wild with no ordinary property to join waits in LOOSE."""
    t = ctype(S, card)
    if t == PROPERTY:
        g = S[R_CARD_C1 + card]
    elif t == WILD:
        g = decide_colour(S, rng, q, card, choose_received_colour(pp, q, S, rng, card))
        if not can_take(S, card, g):
            S[G_STATUS] = ERR_ILLEGAL_PLAY
            g = S[R_CARD_C1 + card]
    else:
        g = home_for_any_wild(S, q)
    to_group(S, q, g, card)


@njit_no_refcount
def apply_arrangement(S, pp, rng, p):
    """On its own turn seat p may move its wilds between colours (free, any number of times).
    Skipped when p's collection is as it was when the last plan moved nothing: only this check
    is here, small enough to be inlined at the calls; the work is in rearrange."""
    if S[ARRANGED_VER + p] != S[COLL_VER + p]:
        if S[WILD_MASK + p] == 0:  # no wild: the plan is empty (rearrange's first case)
            S[ARRANGED_VER + p] = S[COLL_VER + p]
            S[ARRANGED_COLOURS + p] = 0
        else:
            rearrange(S, pp, rng, p)


@njit_no_refcount
def rearrange(S, pp, rng, p):
    """apply_arrangement's work: plan seat p's wilds and move those the plan moves."""
    ver = S[COLL_VER + p]
    n = plan_arrangement(pp, p, S, rng)
    if n == 0:
        S[ARRANGED_VER + p] = ver
        S[ARRANGED_COLOURS + p] = 0
        return  # nothing to move (the random bot never rearranges)
    colours = 0  # where the planned wilds may stand
    for k in range(n):
        card = S[SCRATCH2 + k]
        g = S[SCRATCH3 + k]
        if S[WHERE + card] != PROP or S[OWNER + card] != p:
            S[G_STATUS] = ERR_ILLEGAL_PLAY
            return
        if ctype(S, card) == WILD:
            colours |= (1 << S[R_CARD_C1 + card]) | (1 << S[R_CARD_C2 + card])
        elif ctype(S, card) == WILD_ANY:
            colours = (1 << NC) - 1
        if g == S[GROUP + card]:
            continue
        if not (can_take(S, card, g) or (g == LOOSE and ctype(S, card) == WILD_ANY)):
            S[G_STATUS] = ERR_ILLEGAL_PLAY
            return
        log(S, EV_MOVE_WILD, p, card, 0, g)
        take_out(S, card)
        to_group(S, p, g, card)
    repair(S, p, True)
    if S[COLL_VER + p] == ver:
        S[ARRANGED_VER + p] = ver
        S[ARRANGED_COLOURS + p] = colours


# ---------------------------------------------------------------------------------------------
# Drawing


@njit_no_refcount
def reshuffle(S, rng):
    n = S[DISC_N]
    for k in range(n):
        c = S[DISC_PILE + k]
        to_draw_top(S, c)
    S[DISC_N] = 0
    shuffle(rng, RNG_TABLE, S, DRAW_PILE, S[DRAW_N])
    for k in range(S[DRAW_N]):
        S[POS + S[DRAW_PILE + k]] = k
    S[G_RESHUFFLES] += 1


@njit_no_refcount
def draw_cards(S, rng, p, n):
    for _ in range(n):
        if S[DRAW_N] == 0:
            if S[R_RESHUFFLE] == 1 and S[DISC_N] > 0:
                reshuffle(S, rng)
            else:
                return
        c = S[DRAW_PILE + S[DRAW_N] - 1]
        S[DRAW_N] -= 1
        to_hand(S, p, c)
        S[stat(p, SC_DRAWN)] += 1
        log(S, EV_DRAW, p, c, 0, -1)


# ---------------------------------------------------------------------------------------------
# Payments and Just Say No


@njit_no_refcount
def collect(S, pp, rng, debtor, creditor, amount, is_rent):
    """The debtor pays `amount` from the table to the creditor, no change given. A debtor who
    cannot cover it gives everything they could pay with and stays in the game."""
    if amount <= 0:
        return
    total = payable(S, debtor)
    # Candidate cards: the bank, then properties with a value and buildings when the rule
    # allows (list_collection). The bot lists the latter only if it may give one of them:
    # most debts are paid from the bank alone.
    n = S[BANK_N + debtor]
    for k in range(n):
        S[SCRATCH + k] = S[BANK_ + debtor * MAX_CARDS + k]
    if total <= amount:
        n = list_collection(S, debtor, n)
        for k in range(n):
            S[SCRATCH3 + k] = 1
        if total < amount:
            S[stat(debtor, SC_SHORT)] += 1
    else:
        n_bank = n
        n = choose_payment(pp, debtor, S, rng, n, amount, creditor)
        if outside(S, STATE_SIZE, debtor):
            n = decide_payment(S, rng, debtor, n_bank, n, amount)
    # Total the chosen cards and copy them out of the scratch area before moving them (bots
    # reuse it), in one pass: Houses last, so that a Hotel given with its House leaves first.
    paid = 0
    m = 0
    houses = 0
    for k in range(n):
        if S[SCRATCH3 + k] != 0:
            c = S[SCRATCH + k]
            paid += cvalue(S, c)
            if S[WHERE + c] == BUILDING and ctype(S, c) == T_HOUSE:
                houses += 1
            else:
                S[SCRATCH2 + m] = c
                m += 1
    if paid < min(amount, total):
        S[G_STATUS] = ERR_ILLEGAL_PLAY
        return
    log(S, EV_PAY, debtor, amount, paid, creditor)
    if houses > 0:
        for k in range(n):
            c = S[SCRATCH + k]
            if S[SCRATCH3 + k] != 0 and S[WHERE + c] == BUILDING and ctype(S, c) == T_HOUSE:
                S[SCRATCH2 + m] = c
                m += 1
    for k in range(m):
        c = S[SCRATCH2 + k]
        if S[WHERE + c] == BUILDING and ctype(S, c) == T_HOUSE and S[HOTEL + debtor * NC + S[GROUP + c]] >= 0:
            S[G_STATUS] = ERR_ILLEGAL_PLAY  # a House may not leave from under its Hotel
            return
        was_prop = S[WHERE + c] == PROP
        log(S, EV_GIVE, debtor, c, cvalue(S, c), creditor)
        take_out(S, c)
        if was_prop:
            receive_property(S, pp, rng, creditor, c)
        else:
            to_bank(S, creditor, c)
    repair(S, debtor, S[G_CURRENT] == debtor)
    repair(S, creditor, S[G_CURRENT] == creditor)
    S[stat(debtor, SC_PAID)] += paid
    S[stat(creditor, SC_COLLECTED)] += paid
    if is_rent:
        S[stat(debtor, SC_RENT_PAID)] += paid
        S[stat(creditor, SC_RENT_COLLECTED)] += paid


@njit_no_refcount
def find_in_hand(S, p, card_type):
    for k in range(S[HAND_N + p]):
        c = S[HAND_ + p * MAX_HAND + k]
        if ctype(S, c) == card_type:
            return c
    return -1


@njit_inline
def blocked_by_just_say_no(S, pp, rng, actor, victim, action, stake):
    """The victim may answer an action with a Just Say No, the actor may answer that with
    another, and so on. True when the action is cancelled for this victim. Only the check
    that the victim holds one is here, inlined at the calls (most victims hold none); the
    exchange is in just_say_no_exchange."""
    if find_in_hand(S, victim, JUST_SAY_NO) < 0:
        return False
    return just_say_no_exchange(S, pp, rng, actor, victim, action, stake)


@njit_no_refcount
def just_say_no_exchange(S, pp, rng, actor, victim, action, stake):
    """blocked_by_just_say_no's work, for a victim holding a Just Say No."""
    blocked = False
    side = victim
    for _ in range(64):
        c = find_in_hand(S, side, JUST_SAY_NO)
        if c < 0:
            break
        if side == actor and S[R_COUNTER_USES_PLAY] == 1 and S[G_PLAYS_LEFT] <= 0:
            break
        if not yes_no(S, STATE_SIZE, rng, G_STATUS, PAUSED, DK_JUST_SAY_NO, side,
                      want_just_say_no(pp, side, S, rng, actor, victim, action, stake, side == victim)):
            break
        log(S, EV_JUST_SAY_NO, side, c, 0, actor if side == victim else victim)
        take_from_hand(S, c)
        to_discard(S, c)
        S[stat(side, SC_JSN)] += 1
        if side == actor and S[R_COUNTER_USES_PLAY] == 1:
            S[G_PLAYS_LEFT] -= 1
        blocked = not blocked
        side = victim if side == actor else actor
    if blocked:
        S[stat(actor, SC_BLOCKED)] += 1
    return blocked


# ---------------------------------------------------------------------------------------------
# Decision points (sim/core/decisions.py): each takes the bot's answer and, for a seat played
# from outside, returns the outside answer instead (layout.DK_* says what the actions mean).
# Just Say No goes through yes_no where it is asked.


@njit_no_refcount
def canonical_play(S, p, k, mode, a, b, t):
    """A play (choose_play's numbers) as its action: the numbers its card's action does not
    use become 0; 0 for no play (k < 0), -1 for a hand position that is not one."""
    if k < 0:
        return 0
    if k >= S[HAND_N + p]:
        return -1
    c = S[HAND_ + p * MAX_HAND + k]
    typ = ctype(S, c)
    if mode == M_BANK:
        a = b = t = 0
    elif mode == M_PLACE or typ == T_HOUSE or typ == T_HOTEL:
        b = t = 0
    elif typ == RENT:
        t = 0
    elif typ == DEBT_COLLECTOR:
        a = b = 0
    elif typ == BIRTHDAY or typ == PASS_GO:
        a = b = t = 0
    elif typ == SLY_DEAL or typ == DEAL_BREAKER:
        b = 0
    return play_action(c, mode, a, b, t)


@njit_no_refcount
def list_plays(S, p, write):
    """How many legal plays seat p has (ending the turn not counted); with `write`, action 0
    and each play's action listed, in order."""
    if write:
        add_legal(S, STATE_SIZE, 0)
    n = 0
    n_players = S[R_PLAYERS]
    for c in range(S[R_CARDS]):  # the hand in card order, so that the actions come in order
        if S[WHERE + c] != HAND or S[OWNER + c] != p:
            continue
        k = S[POS + c]
        typ = ctype(S, c)
        for mode in range(3):
            a_end = 1 if mode == M_BANK else NG if mode == M_PLACE else NC
            if mode == M_ACTION and (typ == SLY_DEAL or typ == FORCED_DEAL):
                a_end = S[R_CARDS]
            elif mode == M_ACTION and typ != RENT and typ != RENT_ANY and typ != DEAL_BREAKER \
                    and typ != T_HOUSE and typ != T_HOTEL:
                a_end = 1
            for a in range(a_end):
                if (typ == SLY_DEAL or typ == FORCED_DEAL) and mode == M_ACTION and (
                        S[WHERE + a] != PROP or S[OWNER + a] == p):
                    continue
                b_end = 1
                if mode == M_ACTION and (typ == RENT or typ == RENT_ANY):
                    b_end = S[R_MAX_DOUBLES] + 1
                elif mode == M_ACTION and typ == FORCED_DEAL:
                    b_end = S[R_CARDS]
                for b in range(b_end):
                    if typ == FORCED_DEAL and mode == M_ACTION and (S[WHERE + b] != PROP or S[OWNER + b] != p):
                        continue
                    t_end = n_players if mode == M_ACTION and typ != RENT and typ != BIRTHDAY and typ != PASS_GO \
                        and typ != T_HOUSE and typ != T_HOTEL else 1
                    for t in range(t_end):
                        if play_legal(S, p, k, mode, a, b, t):
                            if write:
                                add_legal(S, STATE_SIZE, play_action(c, mode, a, b, t))
                            n += 1
    return n


@njit_no_refcount
def decide_play(S, rng, p, k, mode, a, b, t):
    bot = canonical_play(S, p, k, mode, a, b, t)
    answer = take_answer(S, STATE_SIZE, rng, DK_PLAY, p, bot)
    if answer < 0:
        list_plays(S, p, True)
        answer = listed_answer(S, STATE_SIZE, G_STATUS, PAUSED)
    if answer < 0 or answer == bot:
        return k, mode, a, b, t
    if answer == 0:
        return -1, 0, 0, 0, 0
    c, mode, a, b, t = action_play(answer)
    return S[POS + c], mode, a, b, t


@njit_no_refcount
def decide_discard(S, rng, p, k):
    """The hand position of the card to discard (k, the bot's), or the outside one: an action
    is the card."""
    if outside(S, STATE_SIZE, p):
        bot = S[HAND_ + p * MAX_HAND + k] if 0 <= k < S[HAND_N + p] else -1
        answer = take_answer(S, STATE_SIZE, rng, DK_DISCARD, p, bot)
        if answer < 0:
            for c in range(S[R_CARDS]):
                if S[WHERE + c] == HAND and S[OWNER + c] == p:
                    add_legal(S, STATE_SIZE, c)
            answer = listed_answer(S, STATE_SIZE, G_STATUS, PAUSED)
        if answer >= 0:
            return S[POS + answer]
    return k


@njit_no_refcount
def decide_colour(S, rng, q, card, g):
    """The colour a two-colour wild takes for seat q (g, the bot's), or the outside one."""
    if outside(S, STATE_SIZE, q):
        answer = take_answer(S, STATE_SIZE, rng, DK_COLOUR, q, g)
        if answer < 0:
            c1, c2 = S[R_CARD_C1 + card], S[R_CARD_C2 + card]
            for c in range(NC):
                if (c == c1 or c == c2) and can_take(S, card, c):
                    add_legal(S, STATE_SIZE, c)
            answer = listed_answer(S, STATE_SIZE, G_STATUS, PAUSED)
        if answer >= 0:
            return answer
    return g


@njit_no_refcount
def may_give(S, p, k, n):
    """Whether payment candidate k may be given next: a House only once the Hotel over it
    is given (S[SCRATCH3 + j] marks the cards given)."""
    c = S[SCRATCH + k]
    if S[SCRATCH3 + k] != 0:
        return False
    if S[WHERE + c] != BUILDING or ctype(S, c) != T_HOUSE:
        return True
    hotel = S[HOTEL + p * NC + S[GROUP + c]]
    if hotel < 0:
        return True
    for j in range(n):
        if S[SCRATCH + j] == hotel:
            return S[SCRATCH3 + j] != 0
    return False


@njit_no_refcount
def decide_payment(S, rng, p, n_bank, n, amount):
    """Seat p, played from outside, pays `amount` card by card (one decision a card) from all
    its payment candidates until the debt is covered; the bot's choice (its marks in
    S[SCRATCH3:], over the n candidates it listed) gives each decision's bot answer. Returns
    the candidates listed; the cards given are marked as the bot marks them."""
    if n == n_bank:  # the bot paid from the bank alone: list the rest too
        n = list_collection(S, p, n_bank)
        for k in range(n_bank, n):
            S[SCRATCH3 + k] = 0
    for k in range(n):  # the bot's marks move to SCRATCH4; SCRATCH3 marks the outside's
        S[SCRATCH4 + k] = S[SCRATCH3 + k]
        S[SCRATCH3 + k] = 0
    paid = 0
    while paid < amount:
        bot = -1
        for k in range(n):
            if S[SCRATCH4 + k] != 0 and may_give(S, p, k, n):
                bot = S[SCRATCH + k]
                break
        answer = take_answer(S, STATE_SIZE, rng, DK_PAY, p, bot)
        if answer < 0:
            for c in range(S[R_CARDS]):
                for k in range(n):
                    if S[SCRATCH + k] == c and may_give(S, p, k, n):
                        add_legal(S, STATE_SIZE, c)
            answer = listed_answer(S, STATE_SIZE, G_STATUS, PAUSED)
        if answer < 0:  # paused: play on with the bot's choice
            for k in range(n):
                S[SCRATCH3 + k] = S[SCRATCH4 + k]
            return n
        for k in range(n):
            if S[SCRATCH + k] == answer:
                S[SCRATCH3 + k] = 1
                paid += cvalue(S, answer)
    return n


# ---------------------------------------------------------------------------------------------
# Playing one card


@njit_no_refcount
def play_card(S, pp, rng, p, k, mode, a, b, t):
    """Seat p plays its hand card number k: to the bank, to its collection as colour a, or for
    its action (a, b, t: see strategies/deal.py choose_play). False if the play is illegal
    (board.play_legal), and then nothing changes."""
    if not play_legal(S, p, k, mode, a, b, t):
        return False
    c = S[HAND_ + p * MAX_HAND + k]
    typ = ctype(S, c)
    n_players = S[R_PLAYERS]
    if mode == M_BANK:
        log(S, EV_BANK, p, c, cvalue(S, c), -1)
        take_from_hand(S, c)
        to_bank(S, p, c)
        S[G_PLAYS_LEFT] -= 1
        S[stat(p, SC_BANKED)] += 1
        return True
    if mode == M_PLACE:
        log(S, EV_PLACE, p, c, 0, a)
        take_from_hand(S, c)
        to_group(S, p, a, c)  # keeps the plan marked as moving nothing when it can (keep_plan)
        S[G_PLAYS_LEFT] -= 1
        S[stat(p, SC_PLACED)] += 1
        return True
    if typ == RENT or typ == RENT_ANY:
        amount = rent_of(S, p, a)
        log(S, EV_RENT_CARD, p, c, 0, -1)
        log(S, EV_RENT, p, a, amount << b, t if typ == RENT_ANY else -1)
        take_from_hand(S, c)
        to_discard(S, c)
        for _ in range(b):
            d = find_in_hand(S, p, DOUBLE_RENT)
            log(S, EV_DOUBLE, p, d, 0, -1)
            take_from_hand(S, d)
            to_discard(S, d)
            amount *= 2
            S[stat(p, SC_DOUBLE)] += 1
        S[G_PLAYS_LEFT] -= 1 + b
        S[stat(p, SC_RENT)] += 1
        for j in range(1, n_players):
            q = seat_after(p, j, n_players)
            if typ == RENT_ANY and q != t:
                continue
            if not blocked_by_just_say_no(S, pp, rng, p, q, typ, amount):
                collect(S, pp, rng, q, p, amount, True)
        return True
    if typ == DEBT_COLLECTOR or typ == BIRTHDAY:
        amount = S[R_DEBT] if typ == DEBT_COLLECTOR else S[R_BIRTHDAY]
        log(S, EV_CHARGE, p, c, amount, t if typ == DEBT_COLLECTOR else -1)
        take_from_hand(S, c)
        to_discard(S, c)
        S[G_PLAYS_LEFT] -= 1
        S[stat(p, SC_DEBT if typ == DEBT_COLLECTOR else SC_BIRTHDAY)] += 1
        for j in range(1, n_players):
            q = seat_after(p, j, n_players)
            if typ == DEBT_COLLECTOR and q != t:
                continue
            if not blocked_by_just_say_no(S, pp, rng, p, q, typ, amount):
                collect(S, pp, rng, q, p, amount, False)
        return True
    if typ == PASS_GO:
        log(S, EV_PASS_GO, p, c, 0, -1)
        take_from_hand(S, c)
        to_discard(S, c)
        S[G_PLAYS_LEFT] -= 1
        S[stat(p, SC_PASS_GO)] += 1
        draw_cards(S, rng, p, S[R_PASS_GO])
        return True
    if typ == SLY_DEAL or typ == FORCED_DEAL:
        log(S, EV_SLY if typ == SLY_DEAL else EV_FORCED, p, a, 0, t)
        if typ == FORCED_DEAL:
            log(S, EV_FORCED_GIVE, p, b, 0, t)
        take_from_hand(S, c)
        to_discard(S, c)
        S[G_PLAYS_LEFT] -= 1
        S[stat(p, SC_SLY if typ == SLY_DEAL else SC_FORCED)] += 1
        if blocked_by_just_say_no(S, pp, rng, p, t, typ, a):
            return True
        take_out(S, a)
        S[stat(t, SC_STOLEN_FROM)] += 1
        if typ == FORCED_DEAL:
            take_out(S, b)
            receive_property(S, pp, rng, t, b)
        receive_property(S, pp, rng, p, a)
        repair(S, t, False)
        repair(S, p, True)
        return True
    if typ == DEAL_BREAKER:
        log(S, EV_DEAL_BREAKER, p, a, 0, t)
        take_from_hand(S, c)
        to_discard(S, c)
        S[G_PLAYS_LEFT] -= 1
        S[stat(p, SC_DEAL_BREAKER)] += 1
        if blocked_by_just_say_no(S, pp, rng, p, t, typ, a):
            return True
        steal_set(S, p, t, a)
        return True
    if typ == T_HOUSE or typ == T_HOTEL:
        log(S, EV_BUILD, p, c, 0, a)
        take_from_hand(S, c)
        to_building(S, p, a, c)
        S[G_PLAYS_LEFT] -= 1
        S[stat(p, SC_HOUSE if typ == T_HOUSE else SC_HOTEL)] += 1
        return True
    return False  # not reached: play_legal allows no other play


@njit_no_refcount
def steal_set(S, p, t, col):
    """Deal Breaker: seat p takes seat t's complete set of colour col with its buildings. From an
    over-full group p takes a complete set (ordinary properties first, then two-colour wilds,
    then any-colour wilds) and t keeps the rest."""
    size = S[R_SET_SIZE + col]
    gidx = t * NG + col
    taken = 0
    for want in (PROPERTY, WILD, WILD_ANY):
        k = 0
        while k < S[GRP_N + gidx] and taken < size:
            card = S[GRP + gidx * MAX_GROUP + k]
            if ctype(S, card) == want:
                take_out(S, card)
                to_group(S, p, col, card)
                taken += 1
            else:
                k += 1
    S[stat(t, SC_STOLEN_FROM)] += taken
    for hotel in (False, True):
        slot = (HOTEL if hotel else HOUSE) + t * NC + col
        bld = S[slot]
        if bld >= 0:
            take_out(S, bld)
            if can_build(S, p, col, hotel):
                to_building(S, p, col, bld)
            else:
                to_bank(S, p, bld)  # p's set of this colour already has one
    repair(S, t, False)
    repair(S, p, True)


# ---------------------------------------------------------------------------------------------
# Turns and games


@njit_no_refcount
def note_sets(S):
    """Count newly completed sets for each seat (the sets_made statistic)."""
    S[G_SETS_CHANGED] = 0
    for p in range(S[R_PLAYERS]):  # the complete sets against the last count, as bit masks
        done = S[COMPLETE_MASK + p]
        made = done & ~S[COUNTED_MASK + p]
        if recording(S):
            for col in range(NC):
                if (made >> col) & 1:
                    log(S, EV_SET, p, col, 0, -1)
        while made != 0:
            made &= made - 1
            S[stat(p, SC_SETS_MADE)] += 1
        S[COUNTED_MASK + p] = done


@njit_inline
def check_win(S, p):
    """After anything happened on seat p's turn: p wins with enough complete sets; with
    win_on_any_turn another seat may win too (p first, then the others in turn order)."""
    n_players = S[R_PLAYERS]
    for j in range(n_players):
        q = seat_after(p, j, n_players)
        if j > 0 and S[R_WIN_ANY_TURN] == 0:
            break
        if n_complete(S, q) >= S[R_SETS_TO_WIN]:
            S[G_WINNER] = q
            S[G_WIN_OWN_TURN] = 1 if q == p else 0
            return


@njit_inline
def after_play(S, p, check):
    if S[G_SETS_CHANGED] == 1:  # else no complete flag moved since the last count
        note_sets(S)
    if S[G_STATUS] == OK and check:
        S[G_STATUS] = check_invariants(S)
    if S[G_STATUS] == OK and S[G_AT_WIN] > 0:  # else no seat can win
        check_win(S, p)


@njit_no_refcount
def play_turn(S, pp, rng, p, check):
    S[G_CURRENT] = p
    S[stat(p, SC_TURNS)] += 1
    log(S, EV_TURN, p, 0, 0, -1)
    if S[G_SKIP_DRAW] == 1:  # a position's first turn: drawn already, its plays left given
        S[G_SKIP_DRAW] = 0
    else:
        n = S[R_DRAW_EMPTY] if S[HAND_N + p] == 0 else S[R_DRAW]
        draw_cards(S, rng, p, n)
        S[G_PLAYS_LEFT] = S[R_PLAYS]
    apply_arrangement(S, pp, rng, p)
    after_play(S, p, check)
    if S[G_WINNER] >= 0 or S[G_STATUS] != OK:
        return
    for _ in range(S[R_PLAYS] + 1):
        if S[G_PLAYS_LEFT] <= 0:
            break
        k, mode, a, b, t = choose_play(pp, p, S, rng)
        if outside(S, STATE_SIZE, p):
            k, mode, a, b, t = decide_play(S, rng, p, k, mode, a, b, t)
        if k < 0:
            break
        plays_left = S[G_PLAYS_LEFT]
        if not play_card(S, pp, rng, p, k, mode, a, b, t):
            S[G_STATUS] = ERR_ILLEGAL_PLAY
            return
        S[stat(p, SC_PLAYS)] += plays_left - S[G_PLAYS_LEFT]  # a Double the Rent is a play too
        if S[G_STATUS] == OK:
            apply_arrangement(S, pp, rng, p)
        after_play(S, p, check)
        if S[G_WINNER] >= 0 or S[G_STATUS] != OK:
            return
    # Hand limit at the end of the turn.
    for _ in range(MAX_HAND):
        if S[HAND_N + p] <= S[R_HAND_LIMIT]:
            break
        k = decide_discard(S, rng, p, choose_discard(pp, p, S, rng))
        if k < 0 or k >= S[HAND_N + p]:
            S[G_STATUS] = ERR_ILLEGAL_PLAY
            return
        c = S[HAND_ + p * MAX_HAND + k]
        log(S, EV_DISCARD, p, c, 0, -1)
        take_from_hand(S, c)
        if S[R_EXCESS_TO] == 1:
            to_draw_bottom(S, c)
        else:
            to_discard(S, c)
        S[stat(p, SC_DISCARDED)] += 1
    after_play(S, p, check)


@njit_no_refcount
def no_cards_in_play(S):
    """No card in the draw pile, the discards or any hand."""
    if S[DRAW_N] > 0 or S[DISC_N] > 0:
        return False
    for p in range(S[R_PLAYERS]):
        if S[HAND_N + p] > 0:
            return False
    return True


@njit_no_refcount
def clear_state(S):
    """No card anywhere and nothing counted (the rules at the head of S stay as they are)."""
    # Everything but the card lists and scratch areas starts at zero; those (about two thirds
    # of the state) are only read below their counts, or after being written, so the last
    # game's cards left there are never seen.
    S[RULES_SIZE:DISC_PILE] = 0
    S[DISC_N] = 0
    S[HAND_N:BANK_] = 0
    S[BANK_N:GRP] = 0
    S[GRP_N:SCRATCH] = 0
    S[PLACE_MEMO_VER:PLACE_MEMO_COLOUR] = 0  # the memos' gains are read only under a valid key
    n_cards = S[R_CARDS]
    n_players = S[R_PLAYERS]
    for c in range(n_cards):
        S[OWNER + c] = -1
        S[GROUP + c] = -1
    for i in range(n_players * NC):
        S[HOUSE + i] = -1
        S[HOTEL + i] = -1
    for p in range(n_players):
        S[ARRANGED_VER + p] = -1
        S[REPAIRED_VER + p] = -1


@njit_no_refcount
def shuffled_draw_pile(S, rng, n):
    """The n cards listed at DRAW_PILE become the draw pile, shuffled."""
    for k in range(n):
        S[WHERE + S[DRAW_PILE + k]] = DRAW
    S[DRAW_N] = n
    shuffle(rng, RNG_TABLE, S, DRAW_PILE, n)
    for k in range(n):
        S[POS + S[DRAW_PILE + k]] = k


@njit_no_refcount
def setup_game(S, rng):
    """Shuffle the shared deck, deal the opening hands one card at a time, then any extra cards
    (the rules at the head of S stay as they are)."""
    clear_state(S)
    n_cards = S[R_CARDS]
    n_players = S[R_PLAYERS]
    for c in range(S[R_DECK]):
        S[DRAW_PILE + c] = c
    shuffled_draw_pile(S, rng, S[R_DECK])
    for _ in range(S[R_START_HAND]):
        for p in range(n_players):
            c = S[DRAW_PILE + S[DRAW_N] - 1]
            S[DRAW_N] -= 1
            to_hand(S, p, c)
    for c in range(S[R_DECK], n_cards):
        to_hand(S, S[R_CARD_SEAT + c], c)
    S[G_WINNER] = -1


@njit_no_refcount
def setup_position(S, S0, rng):
    """Start at a position (sim/deal/layout.py P_*): the cards it places where it places them
    (properties before buildings, which stand on complete sets), and the cards the seat to move
    cannot see dealt at random, to the other hands' sizes and the rest to the draw pile. The
    seat to move has drawn and has the plays left the position gives."""
    clear_state(S)
    n_cards = S[R_CARDS]
    unseen = 0
    for c in range(n_cards):
        if S0[P_CARD + 3 * c] == P_UNSEEN:
            S[DRAW_PILE + unseen] = c
            unseen += 1
    shuffled_draw_pile(S, rng, unseen)
    for building in range(2):
        for c in range(n_cards):
            place, p, g = S0[P_CARD + 3 * c], S0[P_CARD + 3 * c + 1], S0[P_CARD + 3 * c + 2]
            if building == 1:
                if place == P_BUILDING:
                    to_building(S, p, g, c)
            elif place == P_HAND:
                to_hand(S, p, c)
            elif place == P_BANK:
                to_bank(S, p, c)
            elif place == P_PROPERTY:
                to_group(S, p, g, c)
            elif place == P_DISCARD:
                to_discard(S, c)
    for p in range(S[R_PLAYERS]):
        while S[HAND_N + p] < S0[P_HAND_N + p]:
            c = S[DRAW_PILE + S[DRAW_N] - 1]
            S[DRAW_N] -= 1
            to_hand(S, p, c)
    S[G_TURN] = S0[P_TURN]
    S[G_CURRENT] = S0[P_SEAT]
    S[G_PLAYS_LEFT] = S0[P_PLAYS]
    S[G_SKIP_DRAW] = 1
    S[G_WINNER] = -1
    for p in range(S[R_PLAYERS]):  # sets complete at the position were not made in this game
        S[COUNTED_MASK + p] = S[COMPLETE_MASK + p]
    S[G_SETS_CHANGED] = 0


@njit_no_refcount
def log_standings(S):
    """Each seat's complete sets, bank and properties on the table, into the log."""
    for p in range(S[R_PLAYERS]):
        props = 0
        for g in range(NG):
            props += S[GRP_N + p * NG + g]
        log(S, EV_SEAT_STATE, p, n_complete(S, p), S[BANK_VAL + p], props)


@njit_no_refcount
def play_game(S, S0, pp, rng, seed, game, check, game_out, seat_out, row):
    """Play game number `game` of the run with master seed `seed` into output column `row`,
    from the position S0 (empty: a new deal)."""
    n_players = S[R_PLAYERS]
    if not resuming(S, STATE_SIZE):  # else a stepped game, from the snapshot of a turn's start
        for s in range(RNG_SIZE // 4):
            seed_state(rng, 4 * s, seed, game, s)
        if S0.size > 0:
            setup_position(S, S0, rng)
        else:
            setup_game(S, rng)
        S[G_QUIET] = 0
        if check:
            S[G_STATUS] = check_invariants(S)
    turns = S[G_TURN]
    current = turns % n_players
    capped = 0
    stalled = 0
    standings_at = turns - current  # the turn after which the log last had the standings
    while S[G_STATUS] == OK:
        snapshot(S, STATE_SIZE, rng, RNG_SIZE)
        if turns >= S[R_MAX_TURNS]:
            capped = 1
            break
        if current == 0:
            log(S, EV_ROUND, -1, 0, turns // n_players + 1, -1)
        play_turn(S, pp, rng, current, check)
        turns += 1
        S[G_TURN] = turns
        if current == n_players - 1 and recording(S):
            log_standings(S)
            standings_at = turns
        if S[G_WINNER] >= 0:
            break
        # Every card on the table for a whole round (each seat could rearrange its wilds):
        # nothing can be drawn, played or paid any more, so the game is over without a winner.
        if no_cards_in_play(S):
            S[G_QUIET] += 1
            if S[G_QUIET] >= n_players:
                stalled = 1
                break
        else:
            S[G_QUIET] = 0
        current = seat_after(current, 1, n_players)
    w = S[G_WINNER]
    for p in range(n_players):
        S[stat(p, SC_WIN)] = 1 if p == w else 0
        S[stat(p, SC_SETS)] = n_complete(S, p)
        props = 0
        for g in range(NG):
            props += S[GRP_N + p * NG + g]
        S[stat(p, SC_PROPERTIES)] = props
        S[stat(p, SC_BANK)] = S[BANK_VAL + p]
        for col in range(N_SEAT_COLS):
            seat_out[p, col, row] = S[stat(p, col)]
    game_out[G_WINNER_OUT, row] = w
    if recording(S):
        if standings_at != turns:
            log_standings(S)  # the last round's, cut short
        reason = END_SETS if w >= 0 else END_TURN_LIMIT if capped else END_STALLED if stalled else END_ERROR
        log(S, EV_GAME_END, w, 0, END_ERROR if S[G_STATUS] != OK else reason, -1)
    game_out[G_TURNS_OUT, row] = turns
    game_out[G_ROUNDS_OUT, row] = (turns + n_players - 1) // n_players
    game_out[G_CAPPED, row] = capped
    game_out[G_STALLED, row] = stalled
    game_out[G_RESHUFFLES_OUT, row] = S[G_RESHUFFLES]
    game_out[G_OWN_TURN_WIN, row] = S[G_WIN_OWN_TURN] if w >= 0 else 0
    game_out[G_STATUS_OUT, row] = S[G_STATUS]


# ---------------------------------------------------------------------------------------------
# Invariants


@njit_no_refcount
def check_invariants(S):
    """OK, or the code of the first broken invariant: every card in exactly one list and its
    recorded place matching; group and bank totals right; wilds only where they may stand;
    buildings only on complete buildable sets (a Hotel over a House); money conserved."""
    n_cards = S[R_CARDS]
    n_players = S[R_PLAYERS]
    counted = S[DRAW_N] + S[DISC_N]
    for k in range(S[DRAW_N]):
        c = S[DRAW_PILE + k]
        if c < 0 or c >= n_cards or S[WHERE + c] != DRAW or S[POS + c] != k:
            return ERR_LISTS
    for k in range(S[DISC_N]):
        c = S[DISC_PILE + k]
        if c < 0 or c >= n_cards or S[WHERE + c] != DISCARD or S[POS + c] != k:
            return ERR_LISTS
    paid = 0
    collected = 0
    at_win = 0
    for p in range(n_players):
        counted += S[HAND_N + p] + S[BANK_N + p]
        for k in range(S[HAND_N + p]):
            c = S[HAND_ + p * MAX_HAND + k]
            if c < 0 or c >= n_cards or S[WHERE + c] != HAND or S[OWNER + c] != p or S[POS + c] != k:
                return ERR_LISTS
        bank = 0
        for k in range(S[BANK_N + p]):
            c = S[BANK_ + p * MAX_CARDS + k]
            if c < 0 or c >= n_cards or S[WHERE + c] != BANK or S[OWNER + c] != p or S[POS + c] != k:
                return ERR_LISTS
            t = ctype(S, c)
            if t == PROPERTY or t == WILD or t == WILD_ANY:
                return ERR_BANK
            bank += cvalue(S, c)
        if bank != S[BANK_VAL + p]:
            return ERR_BANK
        for g in range(NG):
            gidx = p * NG + g
            n = S[GRP_N + gidx]
            counted += n
            n_ord = 0
            value = 0
            for k in range(n):
                c = S[GRP + gidx * MAX_GROUP + k]
                if c < 0 or c >= n_cards or S[WHERE + c] != PROP or S[OWNER + c] != p:
                    return ERR_LISTS
                if S[GROUP + c] != g or S[POS + c] != k:
                    return ERR_LISTS
                t = ctype(S, c)
                if g == LOOSE:
                    if t != WILD_ANY:
                        return ERR_GROUP
                elif not can_take(S, c, g):
                    return ERR_GROUP
                n_ord += t == PROPERTY
                value += cvalue(S, c)
            if n_ord != S[GRP_ORD + gidx] or value != S[GRP_VAL + gidx]:
                return ERR_GROUP
            if g < NC and n_ord == 0:
                for k in range(n):  # an any-colour wild needs an ordinary property beside it
                    if ctype(S, S[GRP + gidx * MAX_GROUP + k]) == WILD_ANY:
                        return ERR_GROUP
            if ((S[HELD_MASK + p] >> g) & 1) != (n > 0) or ((S[WILD_MASK + p] >> g) & 1) != (n != n_ord):
                return ERR_GROUP
            if ((S[ORD_MASK + p] >> g) & 1) != (n_ord > 0):
                return ERR_GROUP
        for c in range(NC):
            h = S[HOUSE + p * NC + c]
            ht = S[HOTEL + p * NC + c]
            for b in (h, ht):
                if b >= 0:
                    counted += 1
                    if S[WHERE + b] != BUILDING or S[OWNER + b] != p or S[GROUP + b] != c:
                        return ERR_LISTS
                    if not is_complete(S, p, c) or S[R_BUILDABLE + c] == 0:
                        return ERR_BUILDING
            if (h >= 0 and ctype(S, h) != T_HOUSE) or (ht >= 0 and (ctype(S, ht) != T_HOTEL or h < 0)):
                return ERR_BUILDING
        n_comp = 0
        for c in range(NC):
            done = compute_complete(S, p, c)
            n_comp += done
            if S[COMPLETE + p * NC + c] != (1 if done else 0) or ((S[COMPLETE_MASK + p] >> c) & 1) != done:
                return ERR_GROUP
        if n_comp != S[NCOMP + p] or compute_payable(S, p) != S[PAYV + p]:
            return ERR_GROUP
        at_win += n_comp >= S[R_SETS_TO_WIN]
        any_wilds = 0
        for g in range(NG):
            for k in range(S[GRP_N + p * NG + g]):
                any_wilds += ctype(S, S[GRP + (p * NG + g) * MAX_GROUP + k]) == WILD_ANY
        if any_wilds != S[ANY_WILDS + p]:
            return ERR_GROUP
        buildings = 0
        for c in range(NC):
            buildings += int(S[HOUSE + p * NC + c] >= 0) + int(S[HOTEL + p * NC + c] >= 0)
        if buildings != S[BUILDINGS + p]:
            return ERR_BUILDING
        paid += S[stat(p, SC_PAID)]
        collected += S[stat(p, SC_COLLECTED)]
    if counted != n_cards:
        return ERR_CARDS
    for c in range(n_cards):  # every recorded place is a real one
        w = S[WHERE + c]
        if w < DRAW or w > BUILDING:
            return ERR_CARDS
        if w == BUILDING:
            col = S[GROUP + c]
            o = S[OWNER + c]
            if col < 0 or col >= NC or o < 0 or o >= n_players:
                return ERR_LISTS
            if S[HOUSE + o * NC + col] != c and S[HOTEL + o * NC + col] != c:
                return ERR_LISTS
    if paid != collected:
        return ERR_MONEY
    if at_win != S[G_AT_WIN]:
        return ERR_GROUP
    return OK


# ---------------------------------------------------------------------------------------------
# Batches


@njit(cache=True)
def new_state(RB, pk):
    """A state with the rules RB (rules.pack) and the seats' bot kinds pk at its head, and its
    random streams."""
    S = np.zeros(STATE_SIZE, np.int32)
    S[:RULES_SIZE] = RB
    for p in range(S[R_PLAYERS]):
        S[R_KIND + p] = pk[p]
    return S, np.zeros(RNG_SIZE, np.uint64)


@njit(cache=True, nogil=True)  # nogil: Ctrl-C ends a bot's endless decision (userbot.interruptible)
def play_steps(RB, S0, pk, pp, pt, seed, game, check, detail, game_out, seat_out, detail_out, S, rng, row):
    """Game `game` as play_batch plays it, into output column `row`, in the caller's state array S and random streams
    rng, up to the first decision that waits for an outside answer, from the start or from the
    snapshot of a turn's start in S[:STATE_SIZE] and rng[:RNG_SIZE] (snapshots go to
    rng[RNG_SIZE:]). S may have an event log and a decision channel after the state
    (sim/core/event_log.py, sim/core/decisions.py): a replay (core's PreparedRun.play_logged)
    or a stepped game. The rules and the seats' bot kinds are written into S's head here."""
    if not resuming(S, STATE_SIZE):
        S[:RULES_SIZE] = RB
        for p in range(S[R_PLAYERS]):
            S[R_KIND + p] = pk[p]
    play_game(S, S0, pp, rng, seed, game, check, game_out, seat_out, row)

@njit(cache=True, parallel=True, nogil=True)
def play_rollouts(RB, S0, pk, pp, pt, seed, game, check, game_out, seat_out, detail_out, Ss, rngs):
    """A search player's rollouts (sim/core/search.py): game `game` played on from each row of
    Ss, a stepped state (a turn's snapshot, the answers to give, then every seat's bot), with
    the random streams in the same row of rngs, into column r of game_out and seat_out."""
    for r in prange(Ss.shape[0]):
        play_steps(RB, S0, pk, pp, pt, seed, game, check, False, game_out, seat_out, detail_out, Ss[r], rngs[r], r)



@njit(cache=True, parallel=True, nogil=True)  # nogil: see play_steps
def play_batch(RB, S0, pk, pp, pt, seed, first, n_games, check, detail, game_out, seat_out, detail_out, row0):
    """The batch entry every game shares (sim/core/game.py): play games first .. first +
    n_games - 1 into columns row0 .. of game_out and seat_out, contiguous blocks of games, one
    state per block, from the position S0 (empty: a new deal each game). Deal has no policy
    tables (pt) and no detail tables (detail, detail_out)."""
    n_blocks = min(n_games, 256)
    for b in prange(n_blocks):
        S, rng = new_state(RB, pk)
        for row in range(b * n_games // n_blocks, (b + 1) * n_games // n_blocks):
            play_game(S, S0, pp, rng, seed, first + row, check, game_out, seat_out, row0 + row)
