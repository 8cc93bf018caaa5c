"""Monopoly Chance kernel: whole games in compiled code.

``play_batch`` plays games ``first .. first + n - 1`` of a run in parallel and writes one row
per game into preallocated arrays. Game g draws only from generators seeded by (seed, g), so a
row never depends on the thread count or on how a run is cut into batches.

The state of a game is one int32 array ``S`` and the rules one int32 array ``RB``, addressed
through the offsets of sim/chance/layout.py. Every card is in exactly one location: the draw
pile, the discard pile, the board, in front of the player this turn, held for later (Flip 2,
Nope!, Token) or on a corner.
"""

import numpy as np
from numba import njit, prange

from sim.chance.layout import (
    BLDS_LEFT,
    BOARD,
    BUF_CARD,
    BUF_VALUE,
    BUF_VALUE2,
    BUF_VALUE3,
    CHANCE_ORDER,
    CORNER,
    CORNERS,
    D_FLIP,
    D_FLIP2,
    D_NOPE_CASH,
    D_NOPE_FLIP2,
    D_PLACE,
    D_TOKEN,
    DISCARD,
    DK_FLIP,
    DK_FLIP2,
    DK_JAIL,
    DK_NOPE_CASH,
    DK_NOPE_FLIP2,
    DK_PLACE,
    DK_TAKE_CASH,
    DK_TOKEN,
    DK_VICTIM,
    DRAW,
    DRAW_N,
    DRAW_PILE,
    END_ERROR,
    END_FINISH,
    END_NO_BUILDINGS,
    END_ROUND_LIMIT,
    EV_BUILDING,
    EV_BUST,
    EV_CHANCE,
    EV_FLIP,
    EV_FLIP2,
    EV_GRAY,
    EV_JAIL,
    EV_LOSE,
    EV_LUCKY_SAVE,
    EV_NOPE_CASH,
    EV_NOPE_FLIP2,
    EV_PLACE,
    EV_PLACE_FP,
    EV_ROLL,
    EV_ROUND_END,
    EV_STALLED,
    EV_STEAL,
    EV_STOP,
    EV_TAKE,
    EV_TOKEN,
    F_HEAD,
    F_N,
    F_QUEUE,
    G_BOARD_CHANGES,
    G_CHANCE_POS,
    G_CURRENT,
    G_DECISIONS,
    G_FIRST,
    G_GRAY_LEFT,
    G_HALF_SEEN,
    G_HIT_CAP,
    G_N_ROUNDS,
    G_N_STALLED,
    G_N_TURNS,
    G_PAUSED,
    G_QUIET,
    G_REMAINING,
    G_ROUND_ENDING,
    G_ROUND_TURNS,
    G_STATUS,
    G_TRIGGERED,
    HELD,
    MAX_DECISION_ROWS,
    MAX_DECK,
    MAX_PLAYERS,
    MAX_PROPS,
    MAX_STACK,
    N_BLD,
    N_CORNERS,
    N_KIND_SLOTS,
    N_SEAT_COLS,
    N_SIT,
    NO_TARGET,
    P_DRAW_COUNT,
    P_STAGE,
    PAIRS_DONE,
    R_CHANCE,
    R_CHANCE_EFFECT,
    R_CHANCE_PARAM,
    R_DECK_KIND,
    R_DECK_SIZE,
    R_DECK_VALUE,
    R_DIE,
    R_EXHAUSTED_COUNT,
    R_FACES,
    R_FINISH,
    R_GRAY,
    R_GRAY_LEN,
    R_GRAY_ORDER,
    R_GRAY_PER_PAIR,
    R_KEEP_HELD,
    R_KIND_FIRST,
    R_MAX_ROUNDS,
    R_MULTI_FLIP2,
    R_PLAYERS,
    R_PROP_BUILDINGS,
    R_PROP_LENGTH,
    R_PROP_VALUE,
    R_PROPS,
    R_RESHUFFLE,
    R_TOKEN_AFTER_BUST,
    RNG_SIZE,
    RNG_TABLE,
    S_AT_STAKE,
    S_BEST_OPP_SKY,
    S_CASH_N,
    S_CASH_SUM,
    S_FINISH,
    S_FLIPS_LEFT,
    S_FLIPS_TAKEN,
    S_LUCKY_HELD,
    S_MIN_TARGET,
    S_MY_SKY,
    S_PILE_BANKRUPT,
    S_PILE_CASH_N,
    S_PILE_CASH_SUM,
    S_PILE_LUCKY,
    S_PILE_N,
    S_ROUND_ENDING,
    S_USEFUL_CASH_SUM,
    S_USEFUL_PILE_SUM,
    SC_BUILDINGS,
    SC_BUSTS,
    SC_CASH_PLAYED,
    SC_CASH_WON,
    SC_CHANCE,
    SC_FLIP2_FORCED,
    SC_FLIP2_PLAYED,
    SC_FLIPPED,
    SC_FLIPS,
    SC_GRAYS,
    SC_LAST_AT_HALF,
    SC_LUCKY_SAVES,
    SC_NOPE_PLAYED,
    SC_SKY,
    SC_TOKENS,
    SC_TURNS,
    SC_WIN,
    SIT,
    SKY_COUNT,
    SKY_LEN,
    STACK,
    STACK_FP,
    STACK_N,
    STAGE_FLIP,
    STAGE_NEW_ROUND,
    STAGE_NEW_TURN,
    STAGE_TOKENS,
    STAGE_WINDOW,
    STATE_SIZE,
    STATS,
    T_BLOCKED,
    T_CHANGES_BEFORE,
    T_FLIPS,
    T_FP,
    T_LIMIT,
    T_LUCKY,
    T_N,
    T_WINDOW_FROM,
    TOP_OWNER,
    TOP_VALUE,
    TURN,
    TURN_CARDS,
    WHERE,
    rng_deck,
    rng_policy,
)
from sim.chance.rules import (
    BANKRUPT,
    CASH,
    CH_EXTRA_FLIPS,
    CH_FEWER_FLIPS,
    CH_GO,
    CH_GO_TO_JAIL,
    CH_JUST_VISITING,
    CH_LOSE_BUILDING,
    CH_STEAL_BUILDING,
    CH_TAKE_LUCKY_BREAK,
    FLIP2,
    FREE_PARKING,
    GO,
    GO_TO_JAIL,
    JUST_VISITING,
    LUCKY_BREAK,
    NOPE,
    TOKEN,
)
from sim.core.decisions import (
    add_legal,
    listed_answer,
    outside,
    resuming,
    snapshot,
    take_answer,
    yes_no,
)
from sim.core.event_log import (
    EV_GAME_END,
    EV_ROUND,
    EV_SEAT_STATE,
    EV_TURN,
    log_event,
)
from sim.core.jit import njit_inline, njit_no_refcount
from sim.core.rng import randint, seed_state, shuffle
from strategies.chance import (
    ROLLOUT,
    ROLLOUT_BASE,
    ROLLOUT_Z_SLOT,
    ROLLOUTS_SLOT,
    close_call,
    next_flip_busts,
    optimal_flip,
    p_bust_within,
)

# The decision entry points: the built-in bots' (strategies/chance.py), or a user's bot's.
from sim.chance.bots import (
    choose_cash_card,
    choose_jail_target,
    choose_play,
    choose_token,
    choose_victim,
    should_flip,
    want_flip2,
    want_nope_cash,
    want_nope_flip2,
)

MAX_TURNS_PER_ROUND = 400  # a round still open after this many turns is closed as stalled

# Per-game output columns.
G_WINNER, G_ROUNDS, G_TURNS, G_STALLED, G_CAPPED, G_STATUS_OUT, N_GAME_COLS = range(7)
GAME_COLS = ("winner", "rounds", "turns", "stalled_rounds", "hit_round_limit", "status")

# Status codes: 0 is a clean game, anything else an invariant failure.
OK, ERR_DECK, ERR_BOARD, ERR_CORNER, ERR_HELD, ERR_BUILDINGS, ERR_ILLEGAL_PLAY, ERR_LOOP, PAUSED = range(9)
STATUS_NAMES = (
    "ok",
    "a token card is lost, duplicated or misplaced",
    "board stack out of order or out of sync",
    "corner holds something other than a Token",
    "a held card is not Flip 2, Nope! or Token",
    "buildings created or lost",
    "a policy made an illegal play",
    "a turn did not terminate",
)

FLIP_OK, FLIP_BUST, FLIP_NONE = range(3)


# ---------------------------------------------------------------------------------------------
# Small accessors


@njit_no_refcount
def card_kind(RB, p, c):
    return RB[R_DECK_KIND + p * MAX_DECK + c]


@njit_no_refcount
def card_value(RB, p, c):
    return RB[R_DECK_VALUE + p * MAX_DECK + c]


@njit_no_refcount
def building_length(RB, b):
    """Length of a building of kind b (b == n_props is a gray building)."""
    return RB[R_GRAY_LEN] if b == RB[R_PROPS] else RB[R_PROP_LENGTH + b]


@njit_no_refcount
def kind_range(RB, p, kind):
    """Deck indices [first, end) of seat p's cards of one kind."""
    k = R_KIND_FIRST + p * N_KIND_SLOTS + kind
    return RB[k], RB[k + 1]


@njit_no_refcount
def find_card(S, RB, p, kind, loc):
    """A card of seat p of the given kind at the given location, or -1."""
    first, end = kind_range(RB, p, kind)
    for c in range(first, end):
        if S[WHERE + p * MAX_DECK + c] == loc:
            return c
    return -1


@njit_no_refcount
def has_cards_at(S, RB, p, loc):
    for c in range(RB[R_DECK_SIZE + p]):
        if S[WHERE + p * MAX_DECK + c] == loc:
            return True
    return False


@njit_no_refcount
def list_cash(S, RB, p, loc, values_at):
    """Write seat p's Cash values at a location to S[values_at:] and their card indices to
    S[BUF_CARD:]; return how many."""
    n = 0
    first, end = kind_range(RB, p, CASH)
    for c in range(first, end):
        if S[WHERE + p * MAX_DECK + c] == loc:
            S[values_at + n] = RB[R_DECK_VALUE + p * MAX_DECK + c]
            S[BUF_CARD + n] = c
            n += 1
    return n


# ---------------------------------------------------------------------------------------------
# Piles, board and buildings


@njit_no_refcount
def push_card(S, RB, i, p, c, fp):
    """Put seat p's card c on top of property i (fp: placed through Free Parking)."""
    k = i * MAX_STACK + S[STACK_N + i]
    S[STACK + k] = p * MAX_DECK + c
    S[STACK_FP + k] = fp
    S[STACK_N + i] += 1
    S[TOP_VALUE + i] = card_value(RB, p, c)
    S[TOP_OWNER + i] = p
    S[WHERE + p * MAX_DECK + c] = BOARD
    S[G_BOARD_CHANGES] += 1


@njit_no_refcount
def pop_card(S, RB, i):
    """Take the top card off property i; return its code."""
    S[G_BOARD_CHANGES] += 1
    S[STACK_N + i] -= 1
    code = S[STACK + i * MAX_STACK + S[STACK_N + i]]
    if S[STACK_N + i] > 0:
        below = S[STACK + i * MAX_STACK + S[STACK_N + i] - 1]
        S[TOP_VALUE + i] = card_value(RB, below // MAX_DECK, below % MAX_DECK)
        S[TOP_OWNER + i] = below // MAX_DECK
    else:
        S[TOP_VALUE + i] = 0
        S[TOP_OWNER + i] = -1
    return code


@njit_no_refcount
def all_covered(S, RB):
    """Every property that still counts for the round end has a card on it."""
    count_exhausted = RB[R_EXHAUSTED_COUNT] == 1
    for i in range(RB[R_PROPS]):
        if S[STACK_N + i] == 0 and (S[BLDS_LEFT + i] > 0 or count_exhausted):
            return False
    return True


@njit_no_refcount
def rebuild_pile(S, RB, rng, p, from_discard, from_board, from_held):
    """Gather seat p's cards from the chosen locations into its draw pile and shuffle it.
    A held Token always goes back with the board cards: it is good for one round only."""
    n = 0
    for c in range(RB[R_DECK_SIZE + p]):
        w = S[WHERE + p * MAX_DECK + c]
        if (
            (w == DISCARD and from_discard)
            or ((w == BOARD or w == CORNER) and from_board)
            or (w == HELD and (from_held or (from_board and card_kind(RB, p, c) == TOKEN)))
        ):
            w = DRAW
            S[WHERE + p * MAX_DECK + c] = DRAW
        if w == DRAW:
            S[DRAW_PILE + p * MAX_DECK + n] = c
            n += 1
    S[DRAW_N + p] = n
    shuffle(rng, rng_deck(p), S, DRAW_PILE + p * MAX_DECK, n)


@njit_no_refcount
def take_from_pile(S, p, c):
    """Remove card c from seat p's draw pile (order is not kept; callers shuffle after)."""
    base = DRAW_PILE + p * MAX_DECK
    n = S[DRAW_N + p]
    for k in range(n):
        if S[base + k] == c:
            S[base + k] = S[base + n - 1]
            S[DRAW_N + p] = n - 1
            return


@njit_no_refcount
def move_building(S, RB, src, dst, b):
    """Move one building of kind b (n_props = gray) from seat src to seat dst; -1 is the supply."""
    n_props = RB[R_PROPS]
    length = building_length(RB, b)
    if src >= 0:
        S[SKY_COUNT + src * (MAX_PROPS + 1) + b] -= 1
        S[SKY_LEN + src] -= length
        S[N_BLD + src] -= 1
    elif b == n_props:
        S[G_GRAY_LEFT] -= 1
    else:
        S[BLDS_LEFT + b] -= 1
    if dst >= 0:
        S[SKY_COUNT + dst * (MAX_PROPS + 1) + b] += 1
        S[SKY_LEN + dst] += length
        S[N_BLD + dst] += 1
    elif b == n_props:
        S[G_GRAY_LEFT] += 1
    else:
        S[BLDS_LEFT + b] += 1


@njit_no_refcount
def shortest_building(S, RB, p):
    """Seat p's shortest building kind (n_props = gray), or -1; ties go to the cheaper colour."""
    best = -1
    best_len = 1 << 30
    for b in range(RB[R_PROPS] + 1):
        if S[SKY_COUNT + p * (MAX_PROPS + 1) + b] > 0 and building_length(RB, b) < best_len:
            best = b
            best_len = building_length(RB, b)
    return best


@njit_no_refcount
def stat(S, p, col):
    return STATS + p * N_SEAT_COLS + col


@njit_inline
def recording(S):
    """Whether this game logs its events (a replay, sim/core/replay.py)."""
    return S.shape[0] > STATE_SIZE


@njit_inline
def log(S, kind, seat, card, amount, target):
    log_event(S, STATE_SIZE, kind, seat, card, amount, target)


@njit_no_refcount
def take_forced(S, decision, seat):
    """Where the forced answer to this decision of this seat is (its answers at S[k + 2] and
    S[k + 3]), taken off the queue; -1 when nothing is forced and the policy decides."""
    h = S[F_HEAD]
    if h >= S[F_N]:
        return -1
    k = F_QUEUE + 4 * h
    if S[k] != decision or S[k + 1] != seat:
        return -1
    S[F_HEAD] = h + 1
    return k


@njit_no_refcount
def push_forced(S, decision, seat, a, b):
    """Queue a forced answer (see layout.F_QUEUE); a queue answered to its end starts afresh."""
    if S[F_HEAD] == S[F_N]:
        S[F_N] = 0
        S[F_HEAD] = 0
    k = F_QUEUE + 4 * S[F_N]
    S[k] = decision
    S[k + 1] = seat
    S[k + 2] = a
    S[k + 3] = b
    S[F_N] += 1


@njit_no_refcount
def bust_permille(n_flips, S, RB, p):
    """Seat p's chance to bust within n_flips flips now, in tenths of a percent (for the log)."""
    return int(1000 * p_bust_within(n_flips, S[DRAW_N + p], pile_bankrupts(S, RB, p), S[T_LUCKY]) + 0.5)


# ---------------------------------------------------------------------------------------------
# Decision points (sim/core/decisions.py): each takes the bot's answer and, for a seat played
# from outside, returns the outside answer instead (layout.DK_* says what the actions mean).
# The yes-or-no ones go through yes_no where they are asked.


@njit_no_refcount
def may_place(S, RB, i, v, fp_avail):
    """Whether a Cash card worth v may go on property i now (Free Parking allows any)."""
    need = S[TOP_VALUE + i] if S[TOP_VALUE + i] > 0 else RB[R_PROP_VALUE + i]
    return not (S[T_BLOCKED] >> i) & 1 and (v > need or fp_avail)


@njit_no_refcount
def decide_place(S, rng, RB, p, first, n_cards, n, fp_avail, pick, i):
    """place_cards' choice (pick into its list of n cards, property i), or the outside one."""
    bot = 0 if pick < 0 else 1 + S[first + S[BUF_CARD + pick]] * MAX_PROPS + i
    a = take_answer(S, STATE_SIZE, rng, DK_PLACE, p, bot)
    if a < 0:
        add_legal(S, STATE_SIZE, 0)
        for c in range(MAX_DECK):  # in deck order, so that the actions come in order
            for k in range(n_cards):
                if S[first + k] == c:
                    v = card_value(RB, p, c)
                    for j in range(RB[R_PROPS]):
                        if may_place(S, RB, j, v, fp_avail):
                            add_legal(S, STATE_SIZE, 1 + c * MAX_PROPS + j)
        a = listed_answer(S, STATE_SIZE, G_STATUS, PAUSED)
    if a < 0 or a == bot:
        return pick, i
    if a == 0:
        return -1, -1
    c = (a - 1) // MAX_PROPS
    for m in range(n):
        if S[first + S[BUF_CARD + m]] == c:
            return m, (a - 1) % MAX_PROPS
    return -1, -1


@njit_no_refcount
def decide_take_cash(S, rng, p, n, k):
    """play_from's choice among the n Cash cards list_cash listed (k, or -1 for none), or the
    outside one."""
    if outside(S, STATE_SIZE, p) and n > 0:
        a = take_answer(S, STATE_SIZE, rng, DK_TAKE_CASH, p, 1 + S[BUF_CARD + k] if k >= 0 else 0)
        if a < 0:
            add_legal(S, STATE_SIZE, 0)
            for j in range(n):
                add_legal(S, STATE_SIZE, 1 + S[BUF_CARD + j])
            a = listed_answer(S, STATE_SIZE, G_STATUS, PAUSED)
        if a >= 0:
            for j in range(n):
                if 1 + S[BUF_CARD + j] == a:
                    return j
            return -1
    return k


@njit_no_refcount
def decide_jail(S, rng, RB, p, i):
    """go_to_jail's target property (i, or -1 for none), or the outside one."""
    if outside(S, STATE_SIZE, p):
        a = take_answer(S, STATE_SIZE, rng, DK_JAIL, p, i + 1)
        if a < 0:
            add_legal(S, STATE_SIZE, 0)
            for j in range(RB[R_PROPS]):
                if S[TOP_OWNER + j] >= 0 and S[TOP_OWNER + j] != p:
                    add_legal(S, STATE_SIZE, 1 + j)
            a = listed_answer(S, STATE_SIZE, G_STATUS, PAUSED)
        if a >= 0:
            return a - 1
    return i


@njit_no_refcount
def decide_victim(S, rng, RB, p, v):
    """The seat that loses a building (v; asked when anyone has one), or the outside one."""
    if outside(S, STATE_SIZE, p) and v >= 0:
        a = take_answer(S, STATE_SIZE, rng, DK_VICTIM, p, v)
        if a < 0:
            for q in range(RB[R_PLAYERS]):
                if q != p and S[N_BLD + q] > 0:
                    add_legal(S, STATE_SIZE, q)
            a = listed_answer(S, STATE_SIZE, G_STATUS, PAUSED)
        if a >= 0:
            return a
    return v


@njit_no_refcount
def decide_token(S, rng, p, corner):
    """use_tokens' corner for a Token (-1 keeps it), or the outside one."""
    if outside(S, STATE_SIZE, p):
        a = take_answer(S, STATE_SIZE, rng, DK_TOKEN, p, corner + 1)
        if a < 0:
            add_legal(S, STATE_SIZE, 0)
            for c in range(N_CORNERS):
                if S[CORNERS + c] < 0:
                    add_legal(S, STATE_SIZE, 1 + c)
            a = listed_answer(S, STATE_SIZE, G_STATUS, PAUSED)
        if a >= 0:
            return a - 1
    return corner


# ---------------------------------------------------------------------------------------------
# Playing Cash cards


@njit_no_refcount
def place_cards(S, RB, pk, pp, rng, p, first, n_cards, allow_fp):
    """Seat p plays its cards S[first : first + n_cards] (deck indices) one at a time where its
    policy says. A played card's entry becomes -1; the caller disposes of the rest."""
    for _ in range(n_cards + RB[R_PROPS] + 1):
        n = 0
        for k in range(n_cards):
            c = S[first + k]
            if c >= 0:
                S[BUF_VALUE + n] = card_value(RB, p, c)
                S[BUF_CARD + n] = k
                n += 1
        if n == 0:
            return
        fp_avail = allow_fp and S[T_FP] == 1
        f = take_forced(S, D_PLACE, p)
        if f >= 0:
            pick = -1
            i = S[f + 3]
            for m in range(n):
                if i >= 0 and S[first + S[BUF_CARD + m]] == S[f + 2]:
                    pick = m
        else:
            pick, i = choose_play(pk, pp, p, S, RB, rng, n, fp_avail, S[T_BLOCKED])
            if outside(S, STATE_SIZE, p):
                pick, i = decide_place(S, rng, RB, p, first, n_cards, n, fp_avail, pick, i)
        if pick < 0:
            return
        k = S[BUF_CARD + pick]
        c = S[first + k]
        v = card_value(RB, p, c)
        need = S[TOP_VALUE + i] if S[TOP_VALUE + i] > 0 else RB[R_PROP_VALUE + i]
        if not may_place(S, RB, i, v, fp_avail):
            S[G_STATUS] = ERR_ILLEGAL_PLAY
            return
        # The player holding the property may block the card with a Nope!.
        o = S[TOP_OWNER + i]
        if o >= 0 and o != p:
            nope = find_card(S, RB, o, NOPE, HELD)
            at_stake = RB[R_PROP_LENGTH + i] if S[BLDS_LEFT + i] > 0 else 0
            f = take_forced(S, D_NOPE_CASH, o) if nope >= 0 else -1
            if nope >= 0 and (S[f + 2] == 1 if f >= 0 else yes_no(
                    S, STATE_SIZE, rng, G_STATUS, PAUSED, DK_NOPE_CASH, o, want_nope_cash(pk, pp, o, at_stake, rng, S, RB))):
                log(S, EV_NOPE_CASH, o, i, v, p)
                S[WHERE + o * MAX_DECK + nope] = DISCARD
                S[stat(S, o, SC_NOPE_PLAYED)] += 1
                S[T_BLOCKED] |= 1 << i
                continue
        use_fp = v <= need
        if use_fp:
            S[T_FP] = 2  # spent
        log(S, EV_PLACE_FP if use_fp else EV_PLACE, p, c, v, i)
        push_card(S, RB, i, p, c, use_fp)
        S[first + k] = -1
        S[stat(S, p, SC_CASH_PLAYED)] += 1
        if S[G_TRIGGERED] == 0 and all_covered(S, RB):
            S[G_TRIGGERED] = 1
    S[G_STATUS] = ERR_LOOP


@njit_no_refcount
def play_from(S, RB, pk, pp, rng, p, loc):
    """GO / Just Visiting: seat p chooses one Cash card from its draw (loc DRAW, which is then
    shuffled) or discard pile and plays it at once; a card that finds no place is discarded."""
    n = list_cash(S, RB, p, loc, BUF_VALUE)
    k = decide_take_cash(S, rng, p, n, choose_cash_card(pk, pp, p, S, RB, rng, n))
    c = S[BUF_CARD + k] if k >= 0 else -1
    if loc == DRAW:
        if c >= 0:
            take_from_pile(S, p, c)
        shuffle(rng, rng_deck(p), S, DRAW_PILE + p * MAX_DECK, S[DRAW_N + p])
    if c < 0:
        return
    log(S, EV_TAKE, p, c, card_value(RB, p, c), 0 if loc == DRAW else 1)
    S[WHERE + p * MAX_DECK + c] = TURN  # in hand while it is played
    slot = BUF_VALUE3 + MAX_DECK * MAX_PLAYERS - 1  # a scratch cell the policy never reads
    S[slot] = c
    place_cards(S, RB, pk, pp, rng, p, slot, 1, False)
    if S[slot] >= 0:
        S[WHERE + p * MAX_DECK + c] = DISCARD


@njit_no_refcount
def go_to_jail(S, RB, pk, pp, rng, p):
    """Send an opponent's top Cash card on one property back to its owner's discard pile."""
    i = decide_jail(S, rng, RB, p, choose_jail_target(pk, pp, p, S, RB, rng))
    if i < 0:
        return
    if S[TOP_OWNER + i] < 0 or S[TOP_OWNER + i] == p:
        S[G_STATUS] = ERR_ILLEGAL_PLAY
        return
    log(S, EV_JAIL, p, i, 0, S[TOP_OWNER + i])
    code = pop_card(S, RB, i)
    S[WHERE + code] = DISCARD  # a card code is also its WHERE index


@njit_no_refcount
def corner_action(S, RB, pk, pp, rng, p, corner):
    """Carry out a corner's action for seat p, from a Token or from the Chance card naming it."""
    if corner == GO:
        play_from(S, RB, pk, pp, rng, p, DRAW)
    elif corner == JUST_VISITING:
        play_from(S, RB, pk, pp, rng, p, DISCARD)
    elif corner == GO_TO_JAIL:
        go_to_jail(S, RB, pk, pp, rng, p)
    elif corner == FREE_PARKING and S[T_FP] == 0:
        S[T_FP] = 1


# ---------------------------------------------------------------------------------------------
# A turn


@njit_no_refcount
def flip_one(S, RB, rng, p):
    """Flip seat p's top card into the turn area: FLIP_OK, FLIP_BUST or FLIP_NONE (no card)."""
    if S[DRAW_N + p] == 0:
        if RB[R_RESHUFFLE] == 1 and has_cards_at(S, RB, p, DISCARD):
            rebuild_pile(S, RB, rng, p, True, False, False)
        else:
            return FLIP_NONE
    if recording(S):
        log(S, EV_FLIP, p, S[DRAW_PILE + p * MAX_DECK + S[DRAW_N + p] - 1], bust_permille(1, S, RB, p), -1)
    S[DRAW_N + p] -= 1
    c = S[DRAW_PILE + p * MAX_DECK + S[DRAW_N + p]]
    S[WHERE + p * MAX_DECK + c] = TURN
    S[TURN_CARDS + S[T_N]] = c
    S[T_N] += 1
    S[stat(S, p, SC_FLIPS)] += 1
    kind = card_kind(RB, p, c)
    S[stat(S, p, SC_FLIPPED + kind)] += 1
    if kind == BANKRUPT:
        if S[T_LUCKY] > 0:
            S[T_LUCKY] -= 1
            S[stat(S, p, SC_LUCKY_SAVES)] += 1
            log(S, EV_LUCKY_SAVE, p, c, 0, -1)
            return FLIP_OK
        S[stat(S, p, SC_BUSTS)] += 1
        log(S, EV_BUST, p, c, 0, -1)
        return FLIP_BUST
    if kind == LUCKY_BREAK:
        S[T_LUCKY] += 1
    return FLIP_OK


@njit_no_refcount
def min_target(S, RB, p):
    """Smallest value a Cash card must beat to take a property worth taking (NO_TARGET if none)."""
    best = NO_TARGET
    for i in range(RB[R_PROPS]):
        if S[BLDS_LEFT + i] > 0 and S[TOP_OWNER + i] != p:
            need = S[TOP_VALUE + i] if S[TOP_VALUE + i] > 0 else RB[R_PROP_VALUE + i]
            best = min(best, need)
    return best


@njit_no_refcount
def fill_situation(S, RB, p, flips, limit):
    """Summarize seat p's turn for its flip decision into S[SIT:]."""
    for k in range(N_SIT):
        S[SIT + k] = 0
    S[SIT + S_FLIPS_TAKEN] = flips
    S[SIT + S_FLIPS_LEFT] = limit - flips
    S[SIT + S_LUCKY_HELD] = S[T_LUCKY]
    mt = min_target(S, RB, p)
    S[SIT + S_MIN_TARGET] = mt
    for k in range(S[T_N]):
        c = S[TURN_CARDS + k]
        if card_kind(RB, p, c) == CASH:
            v = card_value(RB, p, c)
            S[SIT + S_CASH_SUM] += v
            S[SIT + S_CASH_N] += 1
            if v > mt:
                S[SIT + S_USEFUL_CASH_SUM] += v
    n = S[DRAW_N + p]
    S[SIT + S_PILE_N] = n
    for k in range(n):
        c = S[DRAW_PILE + p * MAX_DECK + k]
        kind = card_kind(RB, p, c)
        if kind == BANKRUPT:
            S[SIT + S_PILE_BANKRUPT] += 1
        elif kind == LUCKY_BREAK:
            S[SIT + S_PILE_LUCKY] += 1
        elif kind == CASH:
            v = card_value(RB, p, c)
            S[SIT + S_PILE_CASH_N] += 1
            S[SIT + S_PILE_CASH_SUM] += v
            if v > mt:
                S[SIT + S_USEFUL_PILE_SUM] += v
    S[SIT + S_MY_SKY] = S[SKY_LEN + p]
    best = 0
    for q in range(RB[R_PLAYERS]):
        if q != p:
            best = max(best, S[SKY_LEN + q])
    S[SIT + S_BEST_OPP_SKY] = best
    S[SIT + S_FINISH] = RB[R_FINISH]
    S[SIT + S_ROUND_ENDING] = S[G_ROUND_ENDING]
    # A bust keeps a held Token off the board this turn (token_after_bankrupt off); before the
    # round's end has come that only puts its play off to a later turn, so it costs nothing.
    token_at_stake = (RB[R_TOKEN_AFTER_BUST] == 0 and S[G_TRIGGERED] == 1
                      and find_card(S, RB, p, TOKEN, HELD) >= 0)
    S[SIT + S_AT_STAKE] = 1 if S[T_N] > 0 or token_at_stake else 0


@njit_no_refcount
def note_flip(S, RB, p, c, flips):
    """Update the flip situation after seat p flipped card c (cheaper than fill_situation:
    the board does not change while a player flips)."""
    S[SIT + S_FLIPS_TAKEN] = flips
    S[SIT + S_FLIPS_LEFT] -= 1
    S[SIT + S_AT_STAKE] = 1
    S[SIT + S_LUCKY_HELD] = S[T_LUCKY]
    S[SIT + S_PILE_N] -= 1
    kind = card_kind(RB, p, c)
    if kind == BANKRUPT:
        S[SIT + S_PILE_BANKRUPT] -= 1
    elif kind == LUCKY_BREAK:
        S[SIT + S_PILE_LUCKY] -= 1
    elif kind == CASH:
        v = card_value(RB, p, c)
        S[SIT + S_PILE_CASH_N] -= 1
        S[SIT + S_PILE_CASH_SUM] -= v
        S[SIT + S_CASH_SUM] += v
        S[SIT + S_CASH_N] += 1
        if v > S[SIT + S_MIN_TARGET]:
            S[SIT + S_USEFUL_PILE_SUM] -= v
            S[SIT + S_USEFUL_CASH_SUM] += v


@njit_no_refcount
def draw_chance(S, RB, pk, pp, rng, p):
    """Draw the top Chance card (reshuffling the deck when it runs out) and carry it out.
    Returns the change to this turn's flip limit."""
    n_chance = RB[R_CHANCE]
    if S[G_CHANCE_POS] == n_chance:
        shuffle(rng, RNG_TABLE, S, CHANCE_ORDER, n_chance)
        S[G_CHANCE_POS] = 0
    card = S[CHANCE_ORDER + S[G_CHANCE_POS]]
    S[G_CHANCE_POS] += 1
    S[stat(S, p, SC_CHANCE)] += 1
    log(S, EV_CHANCE, p, card, 0, -1)
    effect = RB[R_CHANCE_EFFECT + card]
    param = RB[R_CHANCE_PARAM + card]
    if effect == CH_EXTRA_FLIPS:
        return param
    if effect == CH_FEWER_FLIPS:
        return -param
    if effect == CH_STEAL_BUILDING:
        face = RB[R_DIE + randint(rng, RNG_TABLE, RB[R_FACES])]
        if face > 0 and face >= param:
            v = decide_victim(S, rng, RB, p, choose_victim(pk, pp, p, S, RB, rng))
            if v >= 0:
                b = shortest_building(S, RB, v)
                log(S, EV_STEAL, p, b, 0, v)
                move_building(S, RB, v, p, b)
    elif effect == CH_LOSE_BUILDING:
        b = shortest_building(S, RB, p)
        if b >= 0:
            log(S, EV_LOSE, p, b, 0, -1)
            move_building(S, RB, p, -1, b)
    elif effect == CH_TAKE_LUCKY_BREAK:
        c = find_card(S, RB, p, LUCKY_BREAK, DRAW)
        if c >= 0:
            take_from_pile(S, p, c)
            shuffle(rng, rng_deck(p), S, DRAW_PILE + p * MAX_DECK, S[DRAW_N + p])
            S[WHERE + p * MAX_DECK + c] = TURN
            S[TURN_CARDS + S[T_N]] = c
            S[T_N] += 1
            S[T_LUCKY] += 1
    elif effect == CH_GO:
        corner_action(S, RB, pk, pp, rng, p, GO)
    elif effect == CH_JUST_VISITING:
        corner_action(S, RB, pk, pp, rng, p, JUST_VISITING)
    elif effect == CH_GO_TO_JAIL:
        corner_action(S, RB, pk, pp, rng, p, GO_TO_JAIL)
    return 0


@njit_no_refcount
def pile_bankrupts(S, RB, p):
    n = 0
    for k in range(S[DRAW_N + p]):
        if card_kind(RB, p, S[DRAW_PILE + p * MAX_DECK + k]) == BANKRUPT:
            n += 1
    return n


@njit_no_refcount
def flip2_window(S, RB, pk, pp, rng, p):
    """After seat p stops, opponents in turn order may play held Flip 2 cards on p, one at a
    time, passing round the table again while any is played; p may answer each with a Nope!,
    and a seat whose Flip 2 was answered sits out the rest of the turn (the card stays in its
    hand). The first pass starts at seat p + S[T_WINDOW_FROM] (a position may be part-way
    through it). Returns True if p went bankrupt."""
    n_players = RB[R_PLAYERS]
    answered = 0  # bit o: seat o's Flip 2 met a Nope! this turn
    start = S[T_WINDOW_FROM]
    while True:
        played = False
        for j in range(start, n_players):
            o = (p + j) % n_players
            if (answered >> o) & 1:
                continue
            f2 = find_card(S, RB, o, FLIP2, HELD)
            if f2 < 0:
                continue
            mt = min_target(S, RB, p)
            stake = 0
            for k in range(S[T_N]):
                c = S[TURN_CARDS + k]
                if card_kind(RB, p, c) == CASH and card_value(RB, p, c) > mt:
                    stake += card_value(RB, p, c)
            p2 = p_bust_within(2, S[DRAW_N + p], pile_bankrupts(S, RB, p), S[T_LUCKY])
            f = take_forced(S, D_FLIP2, o)
            if not (S[f + 2] == 1 if f >= 0 else yes_no(S, STATE_SIZE, rng, G_STATUS, PAUSED, DK_FLIP2, o,
                                                         want_flip2(pk, pp, o, stake, p2, S[SKY_LEN + p], rng, S, RB))):
                continue
            played = True
            log(S, EV_FLIP2, o, f2, int(1000 * p2 + 0.5), p)
            S[stat(S, o, SC_FLIP2_PLAYED)] += 1
            nope = find_card(S, RB, p, NOPE, HELD)
            if nope < 0:
                nope = find_card(S, RB, p, NOPE, TURN)
            f = take_forced(S, D_NOPE_FLIP2, p) if nope >= 0 else -1
            if nope >= 0 and (S[f + 2] == 1 if f >= 0 else yes_no(S, STATE_SIZE, rng, G_STATUS, PAUSED, DK_NOPE_FLIP2, p,
                                                                   want_nope_flip2(pk, pp, p, stake, p2, rng, S, RB))):
                log(S, EV_NOPE_FLIP2, p, nope, 0, o)
                S[WHERE + p * MAX_DECK + nope] = DISCARD
                S[stat(S, p, SC_NOPE_PLAYED)] += 1
                answered |= 1 << o
            else:
                S[WHERE + o * MAX_DECK + f2] = DISCARD
                S[stat(S, p, SC_FLIP2_FORCED)] += 1
                for _ in range(2):
                    r = flip_one(S, RB, rng, p)
                    if r == FLIP_BUST:
                        return True
                    if r == FLIP_NONE:
                        break
            if RB[R_MULTI_FLIP2] == 0:
                return False
        if not played:
            return False
        start = 1


@njit_no_refcount
def use_tokens(S, RB, pk, pp, rng, p, busted, placed):
    """Seat p may play Tokens (held from earlier turns, or flipped this turn) to free corners.
    After a bust, or once this turn's Cash is placed, no flipped Cash can be placed any more,
    so the bot is offered none (and Free Parking gains it nothing)."""
    # A Token never outlives its round. Once the round end is triggered, every turn is the
    # player's last of the round; once no player can flip, only Tokens and Chance cards can
    # cover what is left, and a round that changes nothing is closed: waiting gains nothing.
    last_chance = S[G_TRIGGERED] == 1 or stalled(S, RB)
    for _ in range(N_CORNERS):
        tok = find_card(S, RB, p, TOKEN, HELD)
        if tok < 0 and not busted:
            tok = find_card(S, RB, p, TOKEN, TURN)
        if tok < 0:
            return
        any_free = False
        for c in range(N_CORNERS):
            any_free = any_free or S[CORNERS + c] < 0
        if not any_free:
            return
        n_flip = 0 if busted or placed else list_cash(S, RB, p, TURN, BUF_VALUE)
        n_draw = list_cash(S, RB, p, DRAW, BUF_VALUE2)
        n_disc = list_cash(S, RB, p, DISCARD, BUF_VALUE3)
        f = take_forced(S, D_TOKEN, p)
        corner = S[f + 2] if f >= 0 else decide_token(
            S, rng, p, choose_token(pk, pp, p, S, RB, rng, n_flip, n_draw, n_disc, last_chance))
        if corner < 0:
            return
        if S[CORNERS + corner] >= 0:
            S[G_STATUS] = ERR_ILLEGAL_PLAY
            return
        log(S, EV_TOKEN, p, tok, 0, corner)
        S[WHERE + p * MAX_DECK + tok] = CORNER
        S[CORNERS + corner] = p * MAX_DECK + tok
        S[stat(S, p, SC_TOKENS)] += 1
        corner_action(S, RB, pk, pp, rng, p, corner)


@njit_no_refcount
def play_turn(S, RB, pk, pp, pt, rng, p):
    """Seat p's whole turn: its roll, then the rest (continue_turn)."""
    start_turn(S, RB, pk, pp, rng, p)
    if S[G_STATUS] == OK:
        continue_turn(S, RB, pk, pp, pt, rng, p, STAGE_FLIP)


@njit_no_refcount
def start_turn(S, RB, pk, pp, rng, p):
    """Seat p's turn up to its flips: roll (each '?' draws a Chance card and rolls again)."""
    S[T_N] = 0
    S[T_LUCKY] = 0
    S[T_FP] = 0
    S[T_BLOCKED] = 0
    S[T_WINDOW_FROM] = 1
    S[stat(S, p, SC_TURNS)] += 1
    log(S, EV_TURN, p, 0, 0, -1)
    bonus = 0
    face = 0
    for _ in range(64):
        face = RB[R_DIE + randint(rng, RNG_TABLE, RB[R_FACES])]
        log(S, EV_ROLL, p, face, face, -1)
        if face != 0:
            break
        bonus += draw_chance(S, RB, pk, pp, rng, p)
        if S[G_STATUS] != OK:
            return
    S[T_FLIPS] = 0
    S[T_LIMIT] = max(1, face + bonus) if face > 0 else 0


@njit_no_refcount
def flip_cards(S, RB, pk, pp, pt, rng, p):
    """Seat p flips one card at a time until it cashes out, reaches the turn's limit or busts;
    FLIP_BUST if it busted. A rollout player's close call pauses the game (G_PAUSED) before
    the decision: play_game decides it and the turn goes on from here."""
    flips = S[T_FLIPS]
    limit = S[T_LIMIT]
    fill_situation(S, RB, p, flips, limit)
    while flips < limit:
        if S[DRAW_N + p] == 0 and RB[R_RESHUFFLE] == 0:
            break
        f = take_forced(S, D_FLIP, p)
        if f >= 0:
            go = S[f + 2] == 1
        elif pk[p] == ROLLOUT and close_call(pp, pt, p, S) and not outside(S, STATE_SIZE, p):
            S[G_PAUSED] = 1
            return FLIP_OK
        else:
            go = yes_no(S, STATE_SIZE, rng, G_STATUS, PAUSED, DK_FLIP, p, should_flip(pk, pp, pt, p, S, RB, rng))
        if not go:
            if recording(S):
                log(S, EV_STOP, p, 0, bust_permille(1, S, RB, p), limit - flips)
            break
        pile_before = S[DRAW_N + p]
        r = flip_one(S, RB, rng, p)
        if r == FLIP_NONE:
            break
        flips += 1
        S[T_FLIPS] = flips
        if r == FLIP_BUST:
            return FLIP_BUST
        if pile_before == 0:  # the discards became a new pile
            fill_situation(S, RB, p, flips, limit)
        else:
            note_flip(S, RB, p, S[TURN_CARDS + S[T_N] - 1], flips)
    return FLIP_OK


@njit_no_refcount
def continue_turn(S, RB, pk, pp, pt, rng, p, stage):
    """Seat p's turn from `stage` (STAGE_FLIP .. STAGE_PLACE) to its end: flips, the Flip 2
    window, Tokens, placing the Cash, clearing the turn area. Returns at once if the game
    paused in the flips."""
    busted = False
    if stage == STAGE_FLIP:
        busted = flip_cards(S, RB, pk, pp, pt, rng, p) == FLIP_BUST
        if S[G_PAUSED] == 1:
            return
    if stage <= STAGE_WINDOW and not busted and S[T_N] > 0:
        busted = flip2_window(S, RB, pk, pp, rng, p)
    if stage <= STAGE_TOKENS and (not busted or RB[R_TOKEN_AFTER_BUST] == 1):
        use_tokens(S, RB, pk, pp, rng, p, busted, False)
    if not busted and S[G_STATUS] == OK:
        # The Cash flipped this turn, as a list in BUF_VALUE2 (free during placement).
        n = 0
        for k in range(S[T_N]):
            c = S[TURN_CARDS + k]
            if S[WHERE + p * MAX_DECK + c] == TURN and card_kind(RB, p, c) == CASH:
                S[BUF_VALUE2 + n] = c
                n += 1
        triggered_before = S[G_TRIGGERED]
        place_cards(S, RB, pk, pp, rng, p, BUF_VALUE2, n, True)
        if S[G_TRIGGERED] == 1 and triggered_before == 0:
            use_tokens(S, RB, pk, pp, rng, p, busted, True)  # this turn is now the player's last
    # Clear the turn area: Flip 2, Nope! and Token are kept, the rest is discarded.
    for k in range(S[T_N]):
        c = S[TURN_CARDS + k]
        if S[WHERE + p * MAX_DECK + c] == TURN:
            kind = card_kind(RB, p, c)
            keep = (kind == TOKEN or kind == FLIP2 or kind == NOPE) and not busted
            S[WHERE + p * MAX_DECK + c] = HELD if keep else DISCARD
    S[T_N] = 0
    S[F_N] = 0  # a forced answer holds for its turn only
    S[F_HEAD] = 0


# ---------------------------------------------------------------------------------------------
# Rounds and whole games


@njit_no_refcount
def stalled(S, RB):
    """No player can flip any more this round."""
    for p in range(RB[R_PLAYERS]):
        if S[DRAW_N + p] > 0 or (RB[R_RESHUFFLE] == 1 and has_cards_at(S, RB, p, DISCARD)):
            return False
    return True


@njit_no_refcount
def end_round(S, RB, first):
    """Award a building for each covered property, then gray buildings for new colour sets,
    most valuable colour first, while grays last."""
    n_players = RB[R_PLAYERS]
    n_props = RB[R_PROPS]
    for i in range(n_props):
        if S[STACK_N + i] > 0 and S[BLDS_LEFT + i] > 0:
            o = S[TOP_OWNER + i]
            log(S, EV_BUILDING, o, i, 0, -1)
            move_building(S, RB, -1, o, i)
            S[stat(S, o, SC_CASH_WON)] += 1
    per_pair = RB[R_GRAY_PER_PAIR] == 1
    for k in range(n_props):
        i = RB[R_GRAY_ORDER + k]
        for j in range(n_players):
            o = (first + j) % n_players
            count = S[SKY_COUNT + o * (MAX_PROPS + 1) + i]
            done = S[PAIRS_DONE + o * MAX_PROPS + i]
            if per_pair:
                due = count // 2 - done
            else:
                due = 1 if count >= 2 and done == 0 else 0
            if due <= 0:
                continue
            S[PAIRS_DONE + o * MAX_PROPS + i] += due  # a set passed over for want of grays stays passed
            for _ in range(due):
                if S[G_GRAY_LEFT] > 0:
                    log(S, EV_GRAY, o, i, 0, -1)
                    move_building(S, RB, -1, o, n_props)
                    S[stat(S, o, SC_GRAYS)] += 1


@njit_no_refcount
def check_invariants(S, RB):
    """OK, or the code of the first broken invariant."""
    n_players = RB[R_PLAYERS]
    n_props = RB[R_PROPS]
    for p in range(n_players):
        n_draw = 0
        for c in range(RB[R_DECK_SIZE + p]):
            w = S[WHERE + p * MAX_DECK + c]
            kind = card_kind(RB, p, c)
            if w < DRAW or w > CORNER or w == TURN:
                return ERR_DECK
            n_draw += w == DRAW
            if (w == HELD or w == CORNER) and kind != TOKEN and kind != FLIP2 and kind != NOPE:
                return ERR_HELD
            if w == CORNER and kind != TOKEN:
                return ERR_CORNER
        if n_draw != S[DRAW_N + p]:
            return ERR_DECK
        seen = 0  # bit c: card c already met in the pile
        for k in range(S[DRAW_N + p]):
            c = S[DRAW_PILE + p * MAX_DECK + k]
            if (seen >> c) & 1 or S[WHERE + p * MAX_DECK + c] != DRAW:
                return ERR_DECK
            seen |= 1 << c
    n_board = 0
    for i in range(n_props):
        for k in range(S[STACK_N + i]):
            code = S[STACK + i * MAX_STACK + k]
            p = code // MAX_DECK
            c = code % MAX_DECK
            if S[WHERE + code] != BOARD or card_kind(RB, p, c) != CASH:
                return ERR_BOARD
            if k == 0:
                need = RB[R_PROP_VALUE + i]
            else:
                below = S[STACK + i * MAX_STACK + k - 1]
                need = card_value(RB, below // MAX_DECK, below % MAX_DECK)
            if card_value(RB, p, c) <= need and S[STACK_FP + i * MAX_STACK + k] == 0:
                return ERR_BOARD
        n = S[STACK_N + i]
        n_board += n
        top_v = 0
        top_o = -1
        if n > 0:
            top = S[STACK + i * MAX_STACK + n - 1]
            top_v = card_value(RB, top // MAX_DECK, top % MAX_DECK)
            top_o = top // MAX_DECK
        if S[TOP_VALUE + i] != top_v or S[TOP_OWNER + i] != top_o:
            return ERR_BOARD
    on_board = 0
    on_corner = 0
    for p in range(n_players):
        for c in range(RB[R_DECK_SIZE + p]):
            on_board += S[WHERE + p * MAX_DECK + c] == BOARD
            on_corner += S[WHERE + p * MAX_DECK + c] == CORNER
    if on_board != n_board:
        return ERR_BOARD
    n_corner = 0
    for corner in range(N_CORNERS):
        code = S[CORNERS + corner]
        if code >= 0:
            n_corner += 1
            if S[WHERE + code] != CORNER:
                return ERR_CORNER
    if n_corner != on_corner:
        return ERR_CORNER
    gray = S[G_GRAY_LEFT]
    for p in range(n_players):
        length = 0
        count = 0
        for b in range(n_props + 1):
            have = S[SKY_COUNT + p * (MAX_PROPS + 1) + b]
            length += have * building_length(RB, b)
            count += have
        gray += S[SKY_COUNT + p * (MAX_PROPS + 1) + n_props]
        if length != S[SKY_LEN + p] or count != S[N_BLD + p]:
            return ERR_BUILDINGS
    if gray != RB[R_GRAY] or S[G_GRAY_LEFT] < 0:
        return ERR_BUILDINGS
    for i in range(n_props):
        total = S[BLDS_LEFT + i]
        for p in range(n_players):
            total += S[SKY_COUNT + p * (MAX_PROPS + 1) + i]
        if total != RB[R_PROP_BUILDINGS + i] or S[BLDS_LEFT + i] < 0:
            return ERR_BUILDINGS
    return OK


@njit_no_refcount
def play_rounds(S, RB, pk, pp, pt, rng, check, stage):
    """Play on from `stage` (a STAGE_*; the turn part-way through is seat G_CURRENT's) until
    the game ends, or pauses at a rollout player's close call (G_PAUSED)."""
    n_players = RB[R_PLAYERS]
    n_props = RB[R_PROPS]
    while True:
        if stage == STAGE_NEW_ROUND:
            any_left = False  # with no buildings left to win, nothing can change any more
            for i in range(n_props):
                any_left = any_left or S[BLDS_LEFT + i] > 0
            if not any_left:
                return
            S[G_N_ROUNDS] += 1
            log(S, EV_ROUND, -1, 0, S[G_N_ROUNDS], -1)
            for p in range(n_players):
                rebuild_pile(S, RB, rng, p, True, True, RB[R_KEEP_HELD] == 0)
            for i in range(n_props):
                S[STACK_N + i] = 0
                S[TOP_VALUE + i] = 0
                S[TOP_OWNER + i] = -1
            for corner in range(N_CORNERS):
                S[CORNERS + corner] = -1
            S[G_TRIGGERED] = 0
            S[G_ROUND_ENDING] = 0
            S[G_FIRST] = S[G_CURRENT]
            S[G_REMAINING] = -1
            S[G_QUIET] = 0
            S[G_ROUND_TURNS] = 0
            stage = STAGE_NEW_TURN
        while True:
            if stage == STAGE_NEW_TURN:
                snapshot(S, STATE_SIZE, rng, RNG_SIZE)
                # With every draw pile empty, Chance cards and Tokens can still move cards, so a
                # round is only given up after two full circuits of turns that changed nothing.
                if S[G_ROUND_TURNS] == MAX_TURNS_PER_ROUND or (S[G_REMAINING] < 0 and S[G_QUIET] >= 2 * n_players):
                    S[G_N_STALLED] += 1
                    log(S, EV_STALLED, -1, 0, 0, -1)
                    break
                S[G_ROUND_TURNS] += 1
                S[T_CHANGES_BEFORE] = S[G_BOARD_CHANGES]
                play_turn(S, RB, pk, pp, pt, rng, S[G_CURRENT])
            else:
                continue_turn(S, RB, pk, pp, pt, rng, S[G_CURRENT], stage)
            if S[G_PAUSED] == 1:
                return
            stage = STAGE_NEW_TURN
            S[G_N_TURNS] += 1
            if stalled(S, RB) and S[G_BOARD_CHANGES] == S[T_CHANGES_BEFORE]:
                S[G_QUIET] += 1
            else:
                S[G_QUIET] = 0
            if S[G_STATUS] == OK and check:
                S[G_STATUS] = check_invariants(S, RB)
            if S[G_STATUS] != OK:
                return
            if S[G_TRIGGERED] == 1 and S[G_REMAINING] < 0:
                S[G_REMAINING] = n_players - 1
                S[G_ROUND_ENDING] = 1
            elif S[G_REMAINING] > 0:
                S[G_REMAINING] -= 1
            S[G_CURRENT] = (S[G_CURRENT] + 1) % n_players
            if S[G_REMAINING] == 0:
                break
        log(S, EV_ROUND_END, -1, 0, S[G_N_ROUNDS], -1)
        end_round(S, RB, S[G_FIRST])
        for p in range(n_players):
            log(S, EV_SEAT_STATE, p, S[N_BLD + p], S[SKY_LEN + p], RB[R_FINISH])
        if check:
            S[G_STATUS] = check_invariants(S, RB)
            if S[G_STATUS] != OK:
                return
        lead = 0
        low = S[SKY_LEN]
        for p in range(n_players):
            lead = max(lead, S[SKY_LEN + p])
            low = min(low, S[SKY_LEN + p])
        if S[G_HALF_SEEN] == 0 and 2 * lead >= RB[R_FINISH]:
            S[G_HALF_SEEN] = 1
            for p in range(n_players):
                S[stat(S, p, SC_LAST_AT_HALF)] = S[SKY_LEN + p] == low and low < lead
        if lead >= RB[R_FINISH]:
            return
        if S[G_N_ROUNDS] >= RB[R_MAX_ROUNDS]:
            S[G_HIT_CAP] = 1
            return
        stage = STAGE_NEW_ROUND


@njit_no_refcount
def best_seat(S, RB):
    """The seat with the longest skyline, ties going to fewer buildings (the lowest seat of a
    tie on both; every seat level with it on both shares the win)."""
    best = 0
    for p in range(1, RB[R_PLAYERS]):
        if S[SKY_LEN + p] > S[SKY_LEN + best] or (
            S[SKY_LEN + p] == S[SKY_LEN + best] and S[N_BLD + p] < S[N_BLD + best]
        ):
            best = p
    return best


@njit_no_refcount
def wins(S, p, best):
    return S[SKY_LEN + p] == S[SKY_LEN + best] and S[N_BLD + p] == S[N_BLD + best]


@njit_no_refcount
def sort_cells(S, start, n):
    """Sort S[start : start + n] in place (insertion sort: a pile is short)."""
    for i in range(start + 1, start + n):
        x = S[i]
        j = i - 1
        while j >= start and S[j] > x:
            S[j + 1] = S[j]
            j -= 1
        S[j + 1] = x


@njit_no_refcount
def shuffle_unseen(S, RB, rng):
    """Deal afresh what nobody at the table can see the order of: every draw pile and the
    Chance cards not yet drawn. Their contents stay (a player who watches can count them);
    each is sorted first, so what comes out depends on the contents alone, never on the order
    the cards really lie in."""
    for p in range(RB[R_PLAYERS]):
        sort_cells(S, DRAW_PILE + p * MAX_DECK, S[DRAW_N + p])
        shuffle(rng, rng_deck(p), S, DRAW_PILE + p * MAX_DECK, S[DRAW_N + p])
    pos = S[G_CHANCE_POS]
    sort_cells(S, CHANCE_ORDER + pos, RB[R_CHANCE] - pos)
    shuffle(rng, RNG_TABLE, S, CHANCE_ORDER + pos, RB[R_CHANCE] - pos)


@njit_no_refcount
def decide_by_rollouts(S, RB, pk, pp, pt, rng, p, S2, rng2, pk2):
    """A rollout player's flip decision at a close call: play the rest of the game from a copy
    of the position, once flipping and once cashing out, `rollouts` times each (the pairs on
    common random numbers, the unseen orders shuffled anew for each pair, every seat playing
    its base policy). Returns (won, differ): the rollouts won flipping less those won cashing
    out, and the pairs whose two games ended differently for the player."""
    key = randint(rng, rng_policy(p), 1 << 30)  # this decision's rollouts are seeded from it
    won = 0
    differ = 0
    for r in range(int(pp[p, ROLLOUTS_SLOT])):
        pair = 0
        for go in range(2):
            for k in range(STATE_SIZE):
                S2[k] = S[k]
            for s in range(RNG_SIZE // 4):
                seed_state(rng2, 4 * s, key, r, s)
            shuffle_unseen(S2, RB, rng2)
            S2[F_N] = 0
            S2[F_HEAD] = 0
            push_forced(S2, D_FLIP, p, go, 0)
            play_rounds(S2, RB, pk2, pp, pt, rng2, False, STAGE_FLIP)
            if wins(S2, p, best_seat(S2, RB)):
                pair += 1 if go == 1 else -1
        won += pair
        differ += pair != 0
    return won, differ


@njit_no_refcount
def record_decision(S, p, decisions, row, won, differ, rule_flips, flips, rollouts):
    """A close call's row of the detail table (layout.DECISION_COLS)."""
    k = S[G_DECISIONS]
    if k >= MAX_DECISION_ROWS:
        return
    out = decisions[row, k]
    out[0] = p
    out[1] = S[SIT + S_CASH_SUM]
    out[2] = S[SIT + S_USEFUL_CASH_SUM]
    out[3] = S[SIT + S_FLIPS_LEFT]
    out[4] = int(1000 * next_flip_busts(S) + 0.5)
    out[5] = S[SIT + S_MY_SKY]
    out[6] = S[SIT + S_BEST_OPP_SKY]
    out[7] = S[SIT + S_ROUND_ENDING]
    out[8] = rule_flips
    out[9] = flips
    out[10] = won
    out[11] = differ
    out[12] = rollouts


@njit_no_refcount
def deal_unseen(S, RB, rng, S0):
    """A position's unseen cards for one rollout: shuffle them (shuffle_unseen); a seat whose
    draw and discard piles are unknown apart from the draw pile's size k (S0[P_DRAW_COUNT + p]
    >= 0) holds all of its unseen cards in its draw pile, so the first k after the shuffle
    stay there and the rest are its discards."""
    shuffle_unseen(S, RB, rng)
    for p in range(RB[R_PLAYERS]):
        k = S0[P_DRAW_COUNT + p]
        if k >= 0:
            for j in range(k, S[DRAW_N + p]):
                S[WHERE + p * MAX_DECK + S[DRAW_PILE + p * MAX_DECK + j]] = DISCARD
            S[DRAW_N + p] = k


@njit_no_refcount
def play_game(S, RB, pk, pp, pt, rng, seed, game, check, game_out, seat_out, row, S0, S2, rng2, pk2, detail,
              decisions):
    """Play game number `game` of the run with master seed `seed` into output column `row`:
    from the start, or with a position S0 (sim/chance/position.py) from there, its unseen
    cards dealt afresh. S2, rng2 and pk2 are the rollout player's scratch (decide_by_rollouts);
    with `detail`, its close calls go to decisions[row]."""
    n_players = RB[R_PLAYERS]
    if resuming(S, STATE_SIZE):  # a stepped game, from the snapshot of a turn's start
        stage = STAGE_NEW_TURN
    elif S0.shape[0] == 0:
        for s in range(RNG_SIZE // 4):
            seed_state(rng, 4 * s, seed, game, s)
        S[:STACK] = 0
        S[STACK_N:BUF_VALUE] = 0
        S[G_GRAY_LEFT] = RB[R_GRAY]
        for i in range(RB[R_PROPS]):
            S[BLDS_LEFT + i] = RB[R_PROP_BUILDINGS + i]
        for k in range(RB[R_CHANCE]):
            S[CHANCE_ORDER + k] = k
        shuffle(rng, RNG_TABLE, S, CHANCE_ORDER, RB[R_CHANCE])
        stage = STAGE_NEW_ROUND
    else:
        for s in range(RNG_SIZE // 4):
            seed_state(rng, 4 * s, seed, game, s)
        for k in range(STATE_SIZE):
            S[k] = S0[k]
        deal_unseen(S, RB, rng, S0)
        stage = S0[P_STAGE]
    while True:
        play_rounds(S, RB, pk, pp, pt, rng, check, stage)
        if S[G_PAUSED] == 0:
            break
        S[G_PAUSED] = 0
        p = S[G_CURRENT]
        won, differ = decide_by_rollouts(S, RB, pk, pp, pt, rng, p, S2, rng2, pk2)
        rule_flips = optimal_flip(pt, p, S)
        # The rollouts overrule the turn rule only when their difference is clear: `z` standard
        # errors from 0 (each pair that ended differently adds one unit of variance).
        clear = abs(won) > pp[p, ROLLOUT_Z_SLOT] * np.sqrt(differ)
        flips = won > 0 if clear else rule_flips
        if detail:
            record_decision(S, p, decisions, row, won, differ, rule_flips, flips, int(pp[p, ROLLOUTS_SLOT]))
        S[G_DECISIONS] += 1
        push_forced(S, D_FLIP, p, 1 if flips else 0, 0)
        stage = STAGE_FLIP
    best = best_seat(S, RB)
    n_best = 0
    for p in range(n_players):
        win = wins(S, p, best)
        n_best += win
        S[stat(S, p, SC_WIN)] = win
        S[stat(S, p, SC_SKY)] = S[SKY_LEN + p]
        S[stat(S, p, SC_BUILDINGS)] = S[N_BLD + p]
        for col in range(N_SEAT_COLS):
            seat_out[p, col, row] = S[stat(S, p, col)]
    game_out[G_WINNER, row] = best if n_best == 1 else -1
    if recording(S):
        lead = 0
        for p in range(n_players):
            lead = max(lead, S[SKY_LEN + p])
        reason = END_FINISH if lead >= RB[R_FINISH] else END_ROUND_LIMIT if S[G_HIT_CAP] else END_NO_BUILDINGS
        log(S, EV_GAME_END, best if n_best == 1 else -1, 0, END_ERROR if S[G_STATUS] != OK else reason, -1)
    game_out[G_ROUNDS, row] = S[G_N_ROUNDS]
    game_out[G_TURNS, row] = S[G_N_TURNS]
    game_out[G_STALLED, row] = S[G_N_STALLED]
    game_out[G_CAPPED, row] = S[G_HIT_CAP]
    game_out[G_STATUS_OUT, row] = S[G_STATUS]


@njit(cache=True)
def new_state():
    return np.zeros(STATE_SIZE, np.int32), np.zeros(RNG_SIZE, np.uint64)


@njit(cache=True)
def rollout_scratch(pk):
    """The rollout player's scratch: a state, a generator, and the seats' kinds as the
    rollouts play them (a rollout player plays its base policy there)."""
    pk2 = pk.copy()
    for p in range(pk.shape[0]):
        if pk2[p] == ROLLOUT:
            pk2[p] = ROLLOUT_BASE
    return np.zeros(STATE_SIZE, np.int32), np.zeros(RNG_SIZE, np.uint64), pk2


@njit(cache=True, nogil=True)  # nogil: Ctrl-C ends a bot's endless decision (userbot.interruptible)
def play_steps(RB, S0, pk, pp, pt, seed, game, check, detail, game_out, seat_out, detail_out, S, rng, row):
    """Game `game` as play_batch plays it, into output column `row`, in the caller's state array S and random streams
    rng, up to the first decision that waits for an outside answer, from the start or from the
    snapshot of a turn's start in S[:STATE_SIZE] and rng[:RNG_SIZE] (snapshots go to
    rng[RNG_SIZE:]). S may have an event log and a decision channel after the state
    (sim/core/event_log.py, sim/core/decisions.py): a replay (core's PreparedRun.play_logged)
    or a stepped game."""
    S2, rng2, pk2 = rollout_scratch(pk)
    play_game(S, RB, pk, pp, pt, rng, seed, game, check, game_out, seat_out, row, S0, S2, rng2, pk2, detail,
              detail_out[0])

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
    state per block. pt: the lookup tables that table-driven policies read (float64, may be
    empty); S0: a position to play on from (empty: a new game); with `detail`, detail_out[0]
    gets the rollout players' close calls."""
    n_blocks = min(n_games, 256)
    for b in prange(n_blocks):
        S, rng = new_state()
        S2, rng2, pk2 = rollout_scratch(pk)
        for row in range(b * n_games // n_blocks, (b + 1) * n_games // n_blocks):
            play_game(S, RB, pk, pp, pt, rng, seed, first + row, check, game_out, seat_out, row0 + row,
                      S0, S2, rng2, pk2, detail, detail_out[0])
