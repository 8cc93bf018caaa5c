"""Monopoly: The Card Game kernel: whole matches (every hand) in compiled code.

``play_batch`` plays matches ``first .. first + n - 1`` of a run in parallel and writes one
row per match, one per seat, and (when asked) one per hand into preallocated arrays. Match g
draws only from generators seeded by (seed, g): the table's stream shuffles, each seat's
policy has its own stream, so results do not depend on threads or chunks.

The state is one int32 array ``S`` and the rules one int32 array ``RB`` (offsets in
sim/cardgame/layout.py). Every card is always in exactly one list (draw pile, a hand, a
face-up pile); the functions in "moving cards" are the only ones that change those lists and
they keep ``WHERE / OWNER / POS`` and the hands' kind counts in step. Bots
(strategies/cardgame.py) decide; this module checks each decision and carries it out.
"""

import numpy as np
from numba import njit, prange

from sim.cardgame.board import can_go_out, complete_hand_bound, hand_score
from sim.cardgame.layout import (
    P_DEALER,
    P_HAND,
    P_HAND_N,
    P_HAND_NO,
    P_HTURN,
    P_LISTED,
    P_MONEY,
    P_PILE,
    P_PILE_N,
    P_POT,
    P_SEEN,
    A_DOUBLE3,
    A_DRAW,
    A_SWAP3,
    A_TRADE,
    DECK_KC,
    DK_DISCARD,
    DK_GO_OUT,
    DK_MOVE,
    DK_PASS,
    DRAW,
    DRAW_N,
    DRAW_PILE,
    END_ERROR,
    END_HAND_LIMIT,
    END_HANDS,
    END_TARGET,
    EV_DISCARD,
    EV_DRAW,
    EV_GIVE,
    EV_GO_OUT,
    EV_HAND,
    EV_JACKPOT,
    EV_PASS,
    EV_REWARD,
    EV_SPECIAL,
    EV_STALL,
    EV_TAKE,
    EV_TRADE,
    G_BANK_PAID,
    G_DEALER,
    G_HAND,
    G_HTURN,
    G_OUT,
    G_POT,
    G_POT_PAID,
    G_POT_WON,
    G_STALLED,
    G_STATUS,
    G_TURNS,
    H_DEALER,
    H_HAND,
    H_MONEY,
    H_OUT,
    H_POT,
    H_POT_WON,
    H_SCORE,
    H_STALLED,
    H_TURNS,
    HAND,
    HAND_,
    HAND_N,
    HSCORE,
    K_FP,
    K_MRM,
    K_WILD,
    KC,
    MAX_CARDS,
    MAX_HAND_ROWS,
    MONEY,
    N_ACTIONS,
    N_SEAT_COLS,
    NC,
    NK,
    OWNER,
    PARTS,
    PILE,
    PILE_,
    PILE_N,
    PLAN_SEAT,
    POS,
    R_BIG,
    R_BIG_REWARD,
    R_CARD_SEAT,
    R_CARDS,
    R_CHANCE_ZERO,
    R_DECK,
    R_EMPTY_DRAW,
    R_FACE_UP,
    R_GO_OUT_WHEN,
    R_HAND_LIMIT,
    R_HAND_SIZE,
    R_JACKPOT,
    R_JACKPOT_ADD,
    R_KIND,
    R_MAX_HANDS,
    R_MAX_TRADE,
    R_MAX_TURNS_HAND,
    R_MRM_BONUS,
    R_MRM_TIES,
    R_N_HANDS,
    R_N_PILES,
    R_PASS_LEFT,
    R_PLAYERS,
    R_REWARD,
    R_TARGET,
    RNG_SIZE,
    RNG_TABLE,
    SC_BEST_HAND,
    SC_BONUS_MONEY,
    SC_DOUBLED_MONEY,
    SC_DRAWS,
    SC_GROUP_MONEY,
    SC_HELD_WILD_END,
    SC_IMPR_MONEY,
    SC_JACKPOT_MONEY,
    SC_JACKPOTS,
    SC_MONEY,
    SC_OUTS,
    SC_SPECIAL,
    SC_TOP_HANDS,
    SC_TRADED_CARDS,
    SC_TRADES,
    SC_TURNS,
    SC_WILD_OUTS,
    SC_WILDS_DROPPED,
    SC_WIN,
    SC_ZERO_LOST,
    SC_ZEROED,
    SCRATCH3,
    SEEN,
    SEEN_BY,
    SEEN_PROPS,
    STATE_SIZE,
    STATS,
    WHERE,
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
from sim.core.rng import seed_state, shuffle
from strategies.cardgame import (
    MV_DOUBLE3,
    MV_DRAW,
    MV_SWAP3,
    MV_TRADE,
    legal_big_move,
    legal_move,
    seat_values,
)

# The decision entry points: the built-in bots' (strategies/cardgame.py), or a user's bot's.
from sim.cardgame.bots import choose_discard, choose_move, want_go_out

# Per-match output columns.
(G_WINNER_OUT, G_HANDS_OUT, G_TURNS_OUT, G_STALLED_OUT, G_CAPPED, G_TIE, G_STATUS_OUT, N_GAME_COLS) = range(8)
GAME_COLS = ("winner", "hands", "turns", "stalled_hands", "hit_hand_limit", "tie", "status")

OK, ERR_CARDS, ERR_LISTS, ERR_KINDS, ERR_MONEY, ERR_ILLEGAL, ERR_HAND, PAUSED = range(8)
STATUS_NAMES = (
    "ok",
    "a card is lost, duplicated or in an unknown place",
    "a card's recorded place does not match its list",
    "a hand's kind counts do not match its cards",
    "money was created outside the bank or went negative",
    "a policy chose an illegal move",
    "a hand is over the limit at the end of its owner's turn",
    "paused at a decision answered from outside (the step API; never in a batch run)",
)
# What a turn ended with.
T_ON, T_OUT, T_STALL = range(3)


@njit_no_refcount
def stat(p, col):
    return STATS + p * N_SEAT_COLS + col


@njit_inline
def recording(S):
    """Whether this match logs its events (a replay, sim/core/replay.py)."""
    return S.shape[0] > STATE_SIZE


@njit_inline
def log(S, kind, seat, card, amount, target):
    log_event(S, STATE_SIZE, kind, seat, card, amount, target)


# ---------------------------------------------------------------------------------------------
# Moving cards


@njit_no_refcount
def to_hand(S, RB, p, c):
    n = S[HAND_N + p]
    S[HAND_ + p * MAX_CARDS + n] = c
    S[HAND_N + p] = n + 1
    S[WHERE + c] = HAND
    S[OWNER + c] = p
    S[POS + c] = n
    S[KC + p * NK + RB[R_KIND + c]] += 1


@njit_no_refcount
def from_hand(S, RB, p, i):
    """Take the card at index i out of p's hand (the last card fills the gap)."""
    base = HAND_ + p * MAX_CARDS
    c = S[base + i]
    last = S[HAND_N + p] - 1
    moved = S[base + last]
    S[base + i] = moved
    S[POS + moved] = i
    S[HAND_N + p] = last
    S[KC + p * NK + RB[R_KIND + c]] -= 1
    return c


@njit_no_refcount
def pile_push(S, q, c):
    n = S[PILE_N + q]
    S[PILE_ + q * MAX_CARDS + n] = c
    S[PILE_N + q] = n + 1
    S[WHERE + c] = PILE
    S[OWNER + c] = q
    S[POS + c] = n


@njit_no_refcount
def pile_pop(S, q):
    n = S[PILE_N + q] - 1
    S[PILE_N + q] = n
    return S[PILE_ + q * MAX_CARDS + n]


@njit_no_refcount
def draw_push(S, c):
    n = S[DRAW_N]
    S[DRAW_PILE + n] = c
    S[DRAW_N] = n + 1
    S[WHERE + c] = DRAW
    S[OWNER + c] = -1
    S[POS + c] = n


@njit_no_refcount
def draw_pop(S):
    n = S[DRAW_N] - 1
    S[DRAW_N] = n
    return S[DRAW_PILE + n]


@njit_no_refcount
def note_seen(S, p, k, d):
    """Seat p's public record of kind k (SEEN) changes by d, and with it the count of seats seen
    collecting k and p's count of property cards seen collected. Another seat's discard plan,
    weighed with the old record, no longer holds."""
    if S[PLAN_SEAT] != p + 1:
        S[PLAN_SEAT] = 0
    i = SEEN + p * NK + k
    was = S[i]
    S[i] += d
    S[SEEN_BY + k] += int(S[i] > 0) - int(was > 0)
    if k < NC:
        S[SEEN_PROPS + p] += max(S[i], 0) - max(was, 0)


@njit_no_refcount
def discard(S, RB, p, i):
    """Card i of p's hand onto p's own pile, in view of everyone."""
    c = from_hand(S, RB, p, i)
    log(S, EV_DISCARD, p, c, 0, -1)
    k = RB[R_KIND + c]
    note_seen(S, p, k, -1)
    if k == K_WILD:
        S[stat(p, SC_WILDS_DROPPED)] += 1
    pile_push(S, p, c)


@njit_no_refcount
def take_top(S, RB, p, q):
    """The top card of pile q into p's hand, in view of everyone."""
    c = pile_pop(S, q)
    log(S, EV_TAKE, p, c, 0, q)
    to_hand(S, RB, p, c)
    note_seen(S, p, RB[R_KIND + c], 1)
    S[stat(p, SC_TRADED_CARDS)] += 1


@njit_no_refcount
def move_block(S, src, dst, k):
    """The top k cards of pile src onto pile dst, keeping their order."""
    n = S[PILE_N + src]
    for d in range(k):
        pile_push(S, dst, S[PILE_ + src * MAX_CARDS + n - k + d])
    S[PILE_N + src] = n - k


# ---------------------------------------------------------------------------------------------
# A hand


@njit_no_refcount
def deal_hand(S, RB, rng):
    """Gather every card, shuffle the deck and deal: hand_size to each seat, face_up onto every
    pile, then each seat's extra cards (deck edits) into its hand."""
    n_cards = RB[R_DECK]
    n = RB[R_PLAYERS]
    S[DRAW_N] = 0
    S[PLAN_SEAT] = 0
    for p in range(n):
        S[HAND_N + p] = 0
        S[SEEN_PROPS + p] = 0
        for k in range(NK):
            S[KC + p * NK + k] = 0
            S[SEEN + p * NK + k] = 0
    for k in range(NK):
        S[SEEN_BY + k] = 0
    for q in range(RB[R_N_PILES]):
        S[PILE_N + q] = 0
    for c in range(n_cards):
        S[DRAW_PILE + c] = c
    S[DRAW_N] = n_cards
    shuffle(rng, RNG_TABLE, S, DRAW_PILE, n_cards)
    for c in range(n_cards):
        S[WHERE + S[DRAW_PILE + c]] = DRAW
        S[OWNER + S[DRAW_PILE + c]] = -1
        S[POS + S[DRAW_PILE + c]] = c
    first = (S[G_DEALER] + 1) % n
    for _ in range(RB[R_HAND_SIZE]):
        for i in range(n):
            to_hand(S, RB, (first + i) % n, draw_pop(S))
    for _ in range(RB[R_FACE_UP]):
        for q in range(RB[R_N_PILES]):
            pile_push(S, q, draw_pop(S))
    for c in range(n_cards, RB[R_CARDS]):
        to_hand(S, RB, RB[R_CARD_SEAT + c], c)
    S[G_HTURN] = 0
    S[G_OUT] = -1
    S[G_POT_WON] = -1
    S[G_POT_PAID] = 0
    if RB[R_JACKPOT]:
        S[G_POT] += RB[R_JACKPOT_ADD]
        S[G_BANK_PAID] += RB[R_JACKPOT_ADD]


@njit_no_refcount
def reshuffle(S, RB, rng):
    """Every pile's cards under its top card become the new draw pile, shuffled."""
    for q in range(RB[R_N_PILES]):
        n = S[PILE_N + q]
        if n <= 1:
            continue
        top = S[PILE_ + q * MAX_CARDS + n - 1]
        for i in range(n - 1):
            draw_push(S, S[PILE_ + q * MAX_CARDS + i])
        S[PILE_ + q * MAX_CARDS] = top
        S[POS + top] = 0
        S[PILE_N + q] = 1
    shuffle(rng, RNG_TABLE, S, DRAW_PILE, S[DRAW_N])
    for i in range(S[DRAW_N]):
        S[POS + S[DRAW_PILE + i]] = i


@njit_no_refcount
def discard_down(S, RB, pk, pp, rng, p, at_least):
    """p discards (its own choice) until at most hand_limit cards, and at least `at_least`."""
    done = 0
    while S[HAND_N + p] > RB[R_HAND_LIMIT] or done < at_least:
        i = decide_discard(S, RB, pk, pp, rng, p, DK_DISCARD)
        if i < 0 or i >= S[HAND_N + p]:
            S[G_STATUS] = ERR_ILLEGAL
            return
        discard(S, RB, p, i)
        done += 1


@njit_no_refcount
def excess_plan(S, RB, p):
    """Next-turn going out: can p drop its cards over the hand limit and still hold a complete
    hand? Plans the drops in S[SCRATCH3:] (kind counts of the kept hand); True when it can."""
    if S[HAND_N + p] <= RB[R_HAND_LIMIT]:
        return can_go_out(S, KC + p * NK, RB)  # nothing to drop (the usual case)
    if complete_hand_bound(S, KC + p * NK, RB) < RB[R_HAND_LIMIT]:
        return False  # no complete hand of hand_limit cards exists, so the plan below would fail
    o = SCRATCH3
    for k in range(NK):
        S[o + k] = S[KC + p * NK + k]
    P = S[PARTS:PARTS + 4]
    drops = S[HAND_N + p] - RB[R_HAND_LIMIT]
    for i in range(drops):
        best = -1
        best_v = -1
        for k in range(NK):
            if S[o + k] == 0:
                continue
            S[o + k] -= 1
            if can_go_out(S, o, RB):
                v = hand_score(S, o, RB, True, P)
                if v > best_v:
                    best_v = v
                    best = k
            S[o + k] += 1
        if best < 0:
            if i == drops - 1:
                return False  # the last drop: none leaves a complete hand
            # No single drop keeps the hand complete: drop the least valuable card anyway.
            for k in range(NK):
                if S[o + k] == 0:
                    continue
                S[o + k] -= 1
                v = hand_score(S, o, RB, True, P)
                if v > best_v:
                    best_v = v
                    best = k
                S[o + k] += 1
        S[o + best] -= 1
    return can_go_out(S, o, RB)


@njit_no_refcount
def drop_planned(S, RB, p):
    """Discard the cards excess_plan dropped."""
    o = SCRATCH3
    i = 0
    while S[HAND_N + p] > RB[R_HAND_LIMIT]:
        k = RB[R_KIND + S[HAND_ + p * MAX_CARDS + i]]
        if S[KC + p * NK + k] > S[o + k]:
            discard(S, RB, p, i)
        else:
            i += 1


@njit_no_refcount
def score_hand(S, RB, goer, hand_row, kind_row, record):
    """Whoever went out takes the reward, every hand is scored and paid from the bank, Mr.
    Monopoly and the jackpot are awarded. goer -1: the hand ended with nobody out (no score)."""
    n = RB[R_PLAYERS]
    P = S[PARTS:PARTS + 4]
    if goer >= 0:
        if RB[R_BIG]:
            for q in range(n):
                if q == goer:
                    continue
                m = 1 if RB[R_BIG_REWARD] == 0 else S[PILE_N + q]
                for _ in range(min(m, S[PILE_N + q])):
                    c = pile_pop(S, q)
                    log(S, EV_REWARD, goer, c, 0, q)
                    to_hand(S, RB, goer, c)
        else:
            for _ in range(min(RB[R_REWARD], S[DRAW_N])):
                c = draw_pop(S)
                log(S, EV_REWARD, goer, c, 0, -1)
                to_hand(S, RB, goer, c)
        for p in range(n):
            o = KC + p * NK
            v = hand_score(S, o, RB, p == goer, P)
            if p != goer and RB[R_CHANCE_ZERO] and S[o + K_WILD] > 0:
                S[stat(p, SC_ZEROED)] += 1
                S[stat(p, SC_ZERO_LOST)] += v
                v = 0
            else:
                S[stat(p, SC_GROUP_MONEY)] += P[0]
                S[stat(p, SC_IMPR_MONEY)] += P[1]
                S[stat(p, SC_BONUS_MONEY)] += P[2]
                S[stat(p, SC_DOUBLED_MONEY)] += P[3]
            S[HSCORE + p] = v
        # Mr. Monopoly: the most cards among the hands that score at all.
        most = 0
        holders = 0
        for p in range(n):
            m = S[KC + p * NK + K_MRM]
            if m == 0 or (p != goer and RB[R_CHANCE_ZERO] and S[KC + p * NK + K_WILD] > 0):
                continue
            if m > most:
                most = m
                holders = 1
            elif m == most:
                holders += 1
        if most > 0 and (holders == 1 or RB[R_MRM_TIES]):
            for p in range(n):
                if S[KC + p * NK + K_MRM] == most and not (p != goer and RB[R_CHANCE_ZERO] and S[KC + p * NK + K_WILD] > 0):
                    S[HSCORE + p] += RB[R_MRM_BONUS]
                    S[stat(p, SC_BONUS_MONEY)] += RB[R_MRM_BONUS]
        top = 0
        for p in range(n):
            top = max(top, S[HSCORE + p])
            S[MONEY + p] += S[HSCORE + p]
            S[G_BANK_PAID] += S[HSCORE + p]
            S[stat(p, SC_BEST_HAND)] = max(S[stat(p, SC_BEST_HAND)], S[HSCORE + p])
            S[stat(p, SC_HELD_WILD_END)] += S[KC + p * NK + K_WILD] > 0
        for p in range(n):
            if S[HSCORE + p] == top:
                S[stat(p, SC_TOP_HANDS)] += 1
        S[stat(goer, SC_OUTS)] += 1
        S[stat(goer, SC_WILD_OUTS)] += S[KC + goer * NK + K_WILD] > 0
        if RB[R_JACKPOT]:
            most = 0
            holders = 0
            who = -1
            for p in range(n):
                m = S[KC + p * NK + K_FP]
                if m > most:
                    most = m
                    holders = 1
                    who = p
                elif m == most:
                    holders += 1
            if most > 0 and holders == 1:
                S[G_POT_WON] = who
                S[G_POT_PAID] = S[G_POT]
                S[MONEY + who] += S[G_POT]
                S[stat(who, SC_JACKPOTS)] += 1
                S[stat(who, SC_JACKPOT_MONEY)] += S[G_POT]
                S[G_POT] = 0
    else:
        for p in range(n):
            S[HSCORE + p] = 0
        S[G_STALLED] += 1
    if record and goer >= 0:
        # Per kind: hands that held it and what they scored, for whoever went out and the rest.
        for p in range(n):
            side = 0 if p == goer else 2
            for k in range(NK):
                if S[KC + p * NK + k] > 0:
                    kind_row[k, side] += 1
                    kind_row[k, side + 1] += S[HSCORE + p]
    if record and S[G_HAND] < MAX_HAND_ROWS:
        h = S[G_HAND]
        hand_row[h, H_HAND] = h
        hand_row[h, H_DEALER] = S[G_DEALER]
        hand_row[h, H_OUT] = goer
        hand_row[h, H_TURNS] = S[G_HTURN]
        hand_row[h, H_STALLED] = goer < 0
        hand_row[h, H_POT] = S[G_POT_PAID] if S[G_POT_WON] >= 0 else S[G_POT]
        hand_row[h, H_POT_WON] = S[G_POT_WON]
        for p in range(n):
            hand_row[h, H_SCORE + p] = S[HSCORE + p]
            hand_row[h, H_MONEY + p] = S[MONEY + p]


# ---------------------------------------------------------------------------------------------
# Decision points (sim/core/decisions.py): the seat's bot answers first, always; a seat played
# from outside then takes its answer from the step API, or the game pauses here.


@njit_no_refcount
def encode_move(RB, mv, q, k, pre):
    """A move as its action (layout.A_*); -1 for no move."""
    if mv == MV_DRAW:
        return A_DRAW
    if mv == MV_DOUBLE3:
        return A_DOUBLE3
    if mv == MV_SWAP3:
        return A_SWAP3 + q
    if mv == MV_TRADE:
        return A_TRADE + (q * 2 + pre) * MAX_CARDS + k - 1
    return -1


@njit_no_refcount
def decode_move(RB, a):
    """The move of an action, as choose_move gives it: (move, pile, cards, pre-discard)."""
    if a == A_DRAW:
        return MV_DRAW, 0, 0, 0
    if a == A_DOUBLE3:
        return MV_DOUBLE3, RB[R_PLAYERS], 2, 0
    if a < A_TRADE:
        return MV_SWAP3, a - A_SWAP3, 1, 0
    t = a - A_TRADE
    qp = t // MAX_CARDS
    return MV_TRADE, qp // 2, t % MAX_CARDS + 1, qp % 2


@njit_no_refcount
def list_moves(S, RB, p, big, write):
    """How many legal moves seat p has; with `write`, each listed as an action, in order."""
    n = 0
    for a in range(N_ACTIONS):
        mv, q, k, pre = decode_move(RB, a)
        if mv == MV_TRADE and (q >= RB[R_N_PILES] or k > RB[R_MAX_TRADE]):
            continue
        if legal_big_move(S, RB, p, mv, q, k, pre) if big else legal_move(S, RB, p, mv, q, k, pre):
            if write:
                add_legal(S, STATE_SIZE, a)
            n += 1
    return n


@njit_no_refcount
def decide_move(S, RB, pk, pp, rng, W, p, big):
    mv, q, k, pre = choose_move(pk[p], pp[p], p, S, RB, rng, W, big)
    if outside(S, STATE_SIZE, p) and list_moves(S, RB, p, big, False) > 0:
        bot = encode_move(RB, mv, q, k, pre)
        a = take_answer(S, STATE_SIZE, rng, DK_MOVE, p, bot)
        if a < 0:
            list_moves(S, RB, p, big, True)
            a = listed_answer(S, STATE_SIZE, G_STATUS, PAUSED)
        if a >= 0 and a != bot:
            mv, q, k, pre = decode_move(RB, a)
    return mv, q, k, pre


@njit_no_refcount
def decide_discard(S, RB, pk, pp, rng, p, kind):
    """Index in p's hand of the card to discard (DK_DISCARD) or pass left (DK_PASS); an action
    is a card kind, and of several cards of the bot's kind its own card is the one that goes."""
    i = choose_discard(pk[p], pp[p], p, S, RB, rng)
    n = S[HAND_N + p]
    if outside(S, STATE_SIZE, p) and n > 0:
        bot = RB[R_KIND + S[HAND_ + p * MAX_CARDS + i]] if 0 <= i < n else -1
        a = take_answer(S, STATE_SIZE, rng, kind, p, bot)
        if a < 0:
            for k in range(NK):
                if S[KC + p * NK + k] > 0:
                    add_legal(S, STATE_SIZE, k)
            a = listed_answer(S, STATE_SIZE, G_STATUS, PAUSED)
        if a >= 0 and a != bot:
            for j in range(n):
                if RB[R_KIND + S[HAND_ + p * MAX_CARDS + j]] == a:
                    i = j
                    break
    return i


@njit_no_refcount
def decide_go_out(S, RB, pk, pp, rng, p):
    """Go out now? (asked only when p can.)"""
    return yes_no(S, STATE_SIZE, rng, G_STATUS, PAUSED, DK_GO_OUT, p, want_go_out(pk[p], pp[p], p, S, RB, rng))


# ---------------------------------------------------------------------------------------------
# Turns


@njit_no_refcount
def do_move(S, RB, pk, pp, rng, p, mv, q, k, pre):
    """Carry out a legal move; returns the least number of discards that must follow."""
    if mv == MV_DRAW:
        c = draw_pop(S)
        log(S, EV_DRAW, p, c, 0, -1)
        to_hand(S, RB, p, c)
        S[stat(p, SC_DRAWS)] += 1
        return 1
    if mv == MV_TRADE:
        if pre:
            discard(S, RB, p, decide_discard(S, RB, pk, pp, rng, p, DK_DISCARD))
        S[stat(p, SC_TRADES)] += 1
        log(S, EV_TRADE, p, 0, k, q)
        n_q = S[PILE_N + q]
        if q < RB[R_PLAYERS]:
            # My top k into q's hand, q's top k into mine.
            for _ in range(k):
                c = pile_pop(S, p)
                log(S, EV_GIVE, p, c, 0, q)
                to_hand(S, RB, q, c)
            for _ in range(k):
                take_top(S, RB, p, q)
        else:
            # An imaginary player: take its top k, then my top k go onto its pile.
            start = n_q - k
            for d in range(k):
                c = S[PILE_ + q * MAX_CARDS + start + d]
                log(S, EV_TAKE, p, c, 0, q)
                to_hand(S, RB, p, c)
                note_seen(S, p, RB[R_KIND + c], 1)
                S[stat(p, SC_TRADED_CARDS)] += 1
            S[PILE_N + q] = start
            if recording(S):
                for d in range(k):
                    log(S, EV_GIVE, p, S[PILE_ + p * MAX_CARDS + S[PILE_N + p] - k + d], 0, q)
            move_block(S, p, q, k)
        return 0
    dummy = RB[R_PLAYERS]
    S[stat(p, SC_SPECIAL)] += 1
    log(S, EV_SPECIAL, p, 0 if mv == MV_SWAP3 else 1, 0, q if mv == MV_SWAP3 else dummy)
    if mv == MV_SWAP3:
        take_top(S, RB, p, q)
        pile_push(S, q, pile_pop(S, dummy))
        return 1
    # MV_DOUBLE3
    take_top(S, RB, p, dummy)
    c = draw_pop(S)
    log(S, EV_DRAW, p, c, 0, -1)
    to_hand(S, RB, p, c)
    move_block(S, p, dummy, 2)
    return 2


@njit_no_refcount
def go_out_check(S, RB, pk, pp, rng, p):
    return can_go_out(S, KC + p * NK, RB) and decide_go_out(S, RB, pk, pp, rng, p)


@njit_no_refcount
def play_turn(S, RB, pk, pp, rng, W, p):
    """One turn of seat p in a 2-4 player hand: T_ON, T_OUT (p went out) or T_STALL."""
    S[stat(p, SC_TURNS)] += 1
    log(S, EV_TURN, p, 0, 0, -1)
    if RB[R_GO_OUT_WHEN] == 0:
        # The wiki's timing: going out is the turn's move, after dropping cards over the limit.
        if excess_plan(S, RB, p) and decide_go_out(S, RB, pk, pp, rng, p):
            drop_planned(S, RB, p)
            return T_OUT
    if S[DRAW_N] == 0:
        if RB[R_EMPTY_DRAW] == 1:
            return T_STALL
        reshuffle(S, RB, rng)
    mv, q, k, pre = decide_move(S, RB, pk, pp, rng, W, p, False)
    if mv < 0:
        return T_STALL
    if not legal_move(S, RB, p, mv, q, k, pre):
        S[G_STATUS] = ERR_ILLEGAL
        return T_ON
    need = do_move(S, RB, pk, pp, rng, p, mv, q, k, pre)
    discard_down(S, RB, pk, pp, rng, p, need)
    if RB[R_GO_OUT_WHEN] == 1 and go_out_check(S, RB, pk, pp, rng, p):
        return T_OUT
    return T_ON


@njit_no_refcount
def play_big_turn(S, RB, pk, pp, rng, W, p):
    """A 5-6 player turn: a mandatory one-card trade with another seat, both discard one."""
    S[stat(p, SC_TURNS)] += 1
    log(S, EV_TURN, p, 0, 0, -1)
    mv, q, k, pre = decide_move(S, RB, pk, pp, rng, W, p, True)
    if not legal_big_move(S, RB, p, mv, q, k, pre):
        S[G_STATUS] = ERR_ILLEGAL
        return T_ON
    S[stat(p, SC_TRADES)] += 1
    log(S, EV_TRADE, p, 0, 1, q)
    c = pile_pop(S, p)
    log(S, EV_GIVE, p, c, 0, q)
    to_hand(S, RB, q, c)
    take_top(S, RB, p, q)
    discard_down(S, RB, pk, pp, rng, p, 1)
    discard_down(S, RB, pk, pp, rng, q, 1)
    if go_out_check(S, RB, pk, pp, rng, p):
        return T_OUT
    return T_ON


@njit_no_refcount
def pass_left(S, RB, pk, pp, rng):
    """Every seat passes one card (its own choice) to the seat on its left, all at once."""
    n = RB[R_PLAYERS]
    o = SCRATCH3
    for p in range(n):
        i = decide_discard(S, RB, pk, pp, rng, p, DK_PASS)
        S[o + p] = from_hand(S, RB, p, i)
        log(S, EV_PASS, p, S[o + p], 0, (p + 1) % n)
    for p in range(n):
        to_hand(S, RB, (p + 1) % n, S[o + p])


@njit_no_refcount
def round_end(S, RB, pk, pp, rng, first):
    """5-6 players, after every seat has had a turn: the second moment to go out (in turn
    order), then, if nobody did, every seat passes a card left. Returns who went out, or -1."""
    n = RB[R_PLAYERS]
    for j in range(n):
        q = (first + j) % n
        if go_out_check(S, RB, pk, pp, rng, q):
            return q
    if RB[R_PASS_LEFT]:
        pass_left(S, RB, pk, pp, rng)
    return -1


@njit_no_refcount
def play_hand(S, RB, pk, pp, rng, W, check, hand_row, kind_row, record):
    """Deal and play one hand to its end, then score it."""
    deal_hand(S, RB, rng)
    if check and S[G_STATUS] == 0:
        S[G_STATUS] = check_invariants(S, RB)
    run_hand(S, RB, pk, pp, rng, W, check, hand_row, kind_row, record)


@njit_no_refcount
def run_hand(S, RB, pk, pp, rng, W, check, hand_row, kind_row, record):
    """Play a dealt hand to its end, then score it."""
    n = RB[R_PLAYERS]
    first = (S[G_DEALER] + 1) % n
    goer = -1
    i = S[G_HTURN]  # 0, or the turn a stepped game resumes at
    while S[G_STATUS] == 0:
        snapshot(S, STATE_SIZE, rng, RNG_SIZE)
        if S[G_HTURN] >= RB[R_MAX_TURNS_HAND]:
            break
        p = (first + i) % n
        if RB[R_BIG]:
            r = play_big_turn(S, RB, pk, pp, rng, W, p)
        else:
            r = play_turn(S, RB, pk, pp, rng, W, p)
        S[G_HTURN] += 1
        S[G_TURNS] += 1
        if check and S[G_STATUS] == 0:
            S[G_STATUS] = check_invariants(S, RB)
            if S[G_STATUS] == 0 and r == T_ON and S[HAND_N + p] > RB[R_HAND_LIMIT]:
                S[G_STATUS] = ERR_HAND
        if r == T_OUT:
            goer = p
            break
        if r == T_STALL:
            break
        i += 1
        if RB[R_BIG] and i % n == 0:
            goer = round_end(S, RB, pk, pp, rng, first)
            if goer >= 0:
                break
    if S[G_STATUS] != 0:
        return
    S[G_OUT] = goer
    log(S, EV_GO_OUT if goer >= 0 else EV_STALL, goer, 0, 0, -1)
    if goer >= 0 and recording(S):
        for k in range(NK):
            if S[KC + goer * NK + k] > 0:
                log(S, EV_HAND, goer, k, S[KC + goer * NK + k], -1)
    score_hand(S, RB, goer, hand_row, kind_row, record)
    if recording(S):
        if S[G_POT_WON] >= 0:
            log(S, EV_JACKPOT, S[G_POT_WON], 0, S[G_POT_PAID], -1)
        for p in range(n):
            log(S, EV_SEAT_STATE, p, S[HSCORE + p], S[MONEY + p], S[HAND_N + p])
    if check:
        S[G_STATUS] = check_invariants(S, RB)


# ---------------------------------------------------------------------------------------------
# A match


@njit_no_refcount
def new_match(S, RB):
    n = RB[R_PLAYERS]
    S[:STATE_SIZE] = 0
    for c in range(MAX_CARDS):
        S[OWNER + c] = -1
    for c in range(RB[R_CARDS]):
        S[DECK_KC + RB[R_KIND + c]] += 1
    S[G_DEALER] = n - 1  # seat 0 plays first in the first hand
    S[G_OUT] = -1
    S[G_POT_WON] = -1


@njit_no_refcount
def setup_position(S, RB, S0, rng):
    """Start a new match's state at a position (sim/cardgame/layout.py P_*): money, the jackpot,
    the hand's dealer and turn, the cards it lists in hands and piles, the public record; the
    cards the seat to move cannot see dealt at random, to the other hands' sizes and the rest
    to the draw pile."""
    n = RB[R_PLAYERS]
    S[G_DEALER], S[G_HAND], S[G_HTURN], S[G_POT] = S0[P_DEALER], S0[P_HAND_NO], S0[P_HTURN], S0[P_POT]
    S[G_BANK_PAID] = S0[P_POT]
    for p in range(n):
        S[MONEY + p] = S0[P_MONEY + p]
        S[G_BANK_PAID] += S0[P_MONEY + p]
        for k in range(S0[P_LISTED + p]):
            to_hand(S, RB, p, S0[P_HAND + p * MAX_CARDS + k])
    for q in range(RB[R_N_PILES]):
        for k in range(S0[P_PILE_N + q]):
            pile_push(S, q, S0[P_PILE + q * MAX_CARDS + k])
    for c in range(RB[R_CARDS]):
        if S[OWNER + c] == -1:  # not placed: unseen
            S[DRAW_PILE + S[DRAW_N]] = c
            S[DRAW_N] += 1
    shuffle(rng, RNG_TABLE, S, DRAW_PILE, S[DRAW_N])
    for k in range(S[DRAW_N]):
        S[WHERE + S[DRAW_PILE + k]] = DRAW
        S[POS + S[DRAW_PILE + k]] = k
    for p in range(n):
        while S[HAND_N + p] < S0[P_HAND_N + p]:
            to_hand(S, RB, p, draw_pop(S))
        for k in range(NK):
            if S0[P_SEEN + p * NK + k] != 0:
                note_seen(S, p, k, S0[P_SEEN + p * NK + k])
    S[G_OUT] = -1
    S[G_POT_WON] = -1


@njit_no_refcount
def match_over(S, RB):
    if S[G_HAND] >= RB[R_MAX_HANDS]:
        return True
    if RB[R_TARGET] > 0:
        for p in range(RB[R_PLAYERS]):
            if S[MONEY + p] >= RB[R_TARGET]:
                return True
        return False
    return S[G_HAND] >= RB[R_N_HANDS]


@njit_no_refcount
def play_game(S, S0, RB, pk, pp, rng, W, seed, game, check, game_out, seat_out, hand_out, kind_out, row, hrow,
              record):
    """Play match number `game` of the run with master seed `seed` into output column `row`
    (and its hands into hand_out[hrow], per-kind sums into kind_out[hrow], when `record`), from
    the position S0 (empty: a new match); a stepped match resuming from a snapshot
    (sim/core/decisions.py) plays on from its turn."""
    n = RB[R_PLAYERS]
    mid_hand = resuming(S, STATE_SIZE)
    if not mid_hand:
        for s in range(RNG_SIZE // 4):
            seed_state(rng, 4 * s, seed, game, s)
        new_match(S, RB)
        if S0.size > 0:
            setup_position(S, RB, S0, rng)
            log(S, EV_ROUND, S[G_DEALER], 0, S[G_HAND] + 1, -1)
            if check:
                S[G_STATUS] = check_invariants(S, RB)
            mid_hand = True
    if mid_hand:
        run_hand(S, RB, pk, pp, rng, W, check, hand_out[hrow], kind_out[hrow], record)
        S[G_HAND] += 1
        S[G_DEALER] = (S[G_DEALER] + 1) % n
    while S[G_STATUS] == 0 and not match_over(S, RB):
        log(S, EV_ROUND, S[G_DEALER], 0, S[G_HAND] + 1, -1)
        play_hand(S, RB, pk, pp, rng, W, check, hand_out[hrow], kind_out[hrow], record)
        S[G_HAND] += 1
        S[G_DEALER] = (S[G_DEALER] + 1) % n
    best = -1
    tie = 0
    winner = -1
    for p in range(n):
        if S[MONEY + p] > best:
            best = S[MONEY + p]
            winner = p
            tie = 0
        elif S[MONEY + p] == best:
            tie = 1
    for p in range(n):
        S[stat(p, SC_WIN)] = 1 if S[MONEY + p] == best else 0
        S[stat(p, SC_MONEY)] = S[MONEY + p]
        for col in range(N_SEAT_COLS):
            seat_out[p, col, row] = S[stat(p, col)]
    capped = RB[R_TARGET] > 0 and best < RB[R_TARGET]
    game_out[G_WINNER_OUT, row] = -1 if tie else winner
    game_out[G_HANDS_OUT, row] = S[G_HAND]
    game_out[G_TURNS_OUT, row] = S[G_TURNS]
    game_out[G_STALLED_OUT, row] = S[G_STALLED]
    game_out[G_CAPPED, row] = capped
    game_out[G_TIE, row] = tie
    game_out[G_STATUS_OUT, row] = S[G_STATUS]
    if recording(S):
        reason = END_HANDS
        if S[G_STATUS] != 0:
            reason = END_ERROR
        elif RB[R_TARGET] > 0:
            reason = END_HAND_LIMIT if capped else END_TARGET
        log(S, EV_GAME_END, -1 if tie else winner, 0, reason, -1)


# ---------------------------------------------------------------------------------------------
# Invariants


@njit_no_refcount
def check_invariants(S, RB):
    """OK, or the code of the first broken invariant: every card in exactly one list with its
    recorded place matching, the hands' kind counts and the counts kept with the public record
    (`SEEN_BY`, `SEEN_PROPS`) right, and all money (seats plus the jackpot) equal to what the
    bank has paid out."""
    n_cards = RB[R_CARDS]
    n = RB[R_PLAYERS]
    counted = S[DRAW_N]
    for k in range(S[DRAW_N]):
        c = S[DRAW_PILE + k]
        if c < 0 or c >= n_cards or S[WHERE + c] != DRAW or S[POS + c] != k:
            return ERR_LISTS
    o = SCRATCH3
    for p in range(n):
        counted += S[HAND_N + p]
        for k in range(NK):
            S[o + k] = 0
        for k in range(S[HAND_N + p]):
            c = S[HAND_ + p * MAX_CARDS + k]
            if c < 0 or c >= n_cards or S[WHERE + c] != HAND or S[OWNER + c] != p or S[POS + c] != k:
                return ERR_LISTS
            S[o + RB[R_KIND + c]] += 1
        for k in range(NK):
            if S[o + k] != S[KC + p * NK + k]:
                return ERR_KINDS
    for k in range(NK):
        seen_by = 0
        for p in range(n):
            seen_by += S[SEEN + p * NK + k] > 0
        if seen_by != S[SEEN_BY + k]:
            return ERR_KINDS
    for p in range(n):
        props = 0
        for c in range(NC):
            props += max(S[SEEN + p * NK + c], 0)
        if props != S[SEEN_PROPS + p]:
            return ERR_KINDS
    for q in range(RB[R_N_PILES]):
        counted += S[PILE_N + q]
        for k in range(S[PILE_N + q]):
            c = S[PILE_ + q * MAX_CARDS + k]
            if c < 0 or c >= n_cards or S[WHERE + c] != PILE or S[OWNER + c] != q or S[POS + c] != k:
                return ERR_LISTS
    if counted != n_cards:
        return ERR_CARDS
    money = S[G_POT]
    for p in range(n):
        if S[MONEY + p] < 0:
            return ERR_MONEY
        money += S[MONEY + p]
    if money != S[G_BANK_PAID] or S[G_POT] < 0:
        return ERR_MONEY
    return OK


# ---------------------------------------------------------------------------------------------
# Batches


@njit(cache=True)
def new_state():
    """The state, the random streams and choose_move's float work array."""
    return np.zeros(STATE_SIZE, np.int32), np.zeros(RNG_SIZE, np.uint64), np.empty((2, NK))


@njit(cache=True, nogil=True)  # nogil: Ctrl-C ends a bot's endless decision (userbot.interruptible)
def play_steps(RB, S0, pk, pp, pt, seed, game, check, detail, game_out, seat_out, detail_out, S, rng, row):
    """Match `game` as play_batch plays it, into output column `row`, in the caller's state array S and random streams
    rng, up to the first decision that waits for an outside answer, from the start or from the
    snapshot of a turn's start in S[:STATE_SIZE] and rng[:RNG_SIZE] (snapshots go to
    rng[RNG_SIZE:]). S may have an event log and a decision channel after the state
    (sim/core/event_log.py, sim/core/decisions.py): a replay (core's PreparedRun.play_logged)
    or a stepped game."""
    hand_out, kind_out = detail_out
    W = np.empty((2, NK))
    play_game(S, S0, RB, pk, seat_values(RB, pp), rng, W, seed, game, check, game_out, seat_out, hand_out, kind_out,
              row, 0, detail)

@njit(cache=True, parallel=True, nogil=True)
def play_rollouts(RB, S0, pk, pp, pt, seed, game, check, game_out, seat_out, detail_out, Ss, rngs):
    """A search player's rollouts (sim/core/search.py): game `game` played on from each row of
    Ss, a stepped state (a turn's snapshot, the answers to give, then every seat's bot), with
    the random streams in the same row of rngs, into column r of game_out and seat_out."""
    for r in prange(Ss.shape[0]):
        play_steps(RB, S0, pk, pp, pt, seed, game, check, False, game_out, seat_out, detail_out, Ss[r], rngs[r], r)



@njit(cache=True, parallel=True, nogil=True)  # nogil: see play_steps
def play_batch(RB, S0, pk, pp, pt, seed, first, n_games, check, detail, game_out, seat_out, detail_out, row0):
    """The batch entry every game shares (sim/core/game.py): play matches first .. first +
    n_games - 1 into columns row0 .. of game_out and seat_out and, when `detail`, into rows
    row0 .. of detail_out = (hand_out[rows, MAX_HAND_ROWS, cols], kind_out[rows, NK, 4]) (hands
    holding the kind and their scores: went out, then the others); without `detail` those two
    may be any [1, ...] arrays. Contiguous blocks, one state each, every match from the position
    S0 (empty: a new match). The card game has no policy tables (pt)."""
    hand_out, kind_out = detail_out
    n_blocks = min(n_games, 256)
    pv = seat_values(RB, pp)
    for b in prange(n_blocks):
        S, rng, W = new_state()
        for row in range(b * n_games // n_blocks, (b + 1) * n_games // n_blocks):
            play_game(S, S0, RB, pk, pv, rng, W, seed, first + row, check, game_out, seat_out, hand_out, kind_out,
                      row0 + row, row0 + row if detail else 0, detail)
