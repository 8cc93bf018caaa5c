"""Bot policies for Monopoly Chance.

A policy is a kind (an integer) plus a float64 parameter vector. The kernel calls the @njit
decision functions below at every decision point, so one compiled kernel serves every policy
and every parameter value. A decision function reads the game through the state buffer ``S``
and rules buffer ``RB`` (offsets in sim/chance/layout.py); `pk[p]` is seat p's kind and
`pp[p]` its parameters; random choices use seat p's own policy stream. Parameter slots:

    0       the stopping parameter of the kind (p_stop, n, p, v or risk)
    1..5    table tactics shared by every kind: see TACTICS

The kinds and parameters are declared once in CATALOG (strategies/catalog.py).

Decisions: flip or cash out; where each Cash card goes (take a free space, outbid an opponent,
fortify your own); whether to play Flip 2 on a player who stopped; whether to answer with Nope!;
which corner a Token goes to and with which card; whom to hit with a Chance card.
"""

from __future__ import annotations

import numpy as np

from sim.chance.layout import (
    BLDS_LEFT,
    DRAW_N,
    DRAW_PILE,
    MAX_DECK,
    N_SEAT_COLS,
    S_CASH_N,
    S_FLIPS_LEFT,
    S_MIN_TARGET,
    SC_SITUATIONS,
    SC_SITUATIONS_OWN_FLIP,
    STATS,
    BUF_VALUE,
    BUF_VALUE2,
    BUF_VALUE3,
    CORNERS,
    N_BLD,
    N_CORNERS,
    R_EXHAUSTED_COUNT,
    R_GRAY_LEN,
    R_PROP_LENGTH,
    R_PROP_VALUE,
    R_PROPS,
    R_PLAYERS,
    G_GRAY_LEFT,
    MAX_PROPS,
    S_BEST_OPP_SKY,
    S_CASH_SUM,
    S_FINISH,
    S_FLIPS_TAKEN,
    S_LUCKY_HELD,
    S_MY_SKY,
    S_PILE_BANKRUPT,
    S_PILE_N,
    S_ROUND_ENDING,
    S_AT_STAKE,
    S_USEFUL_CASH_SUM,
    S_USEFUL_PILE_SUM,
    SIT,
    SKY_COUNT,
    SKY_LEN,
    TOP_OWNER,
    TOP_VALUE,
    rng_policy,
)
from sim.chance.optimal import (
    DATA0,
    H_F,
    H_H,
    H_LEVELS,
    H_OBJECTIVE,
    H_OFFSET,
    H_PILES,
    H_TLO,
    OBJ_BOARD,
    OBJ_COUNT,
    OBJECTIVES,
    SEAT_HDR,
    SEAT_HDR0,
    STRIDES,
)
from sim.core.jit import njit_inline, njit_no_refcount
from sim.core.rng import randint, uniform
from strategies.catalog import Catalog, Kind, Param, PolicyError  # noqa: F401 (PolicyError: re-exported)

RANDOM, MAX_FLIP, STOP_AFTER, BUST_THRESHOLD, CASH_TARGET, SMART, OPTIMAL, ROLLOUT = range(8)
N_PARAMS = 10
ROLLOUT_BASE = OPTIMAL  # what a rollout player plays inside its own rollouts, and outside its close calls
ROLLOUTS_SLOT, ROLLOUT_Z_SLOT = 8, 9

# Table tactics shared by every kind (slots 1-5).
TACTICS = {
    "flip2_stake": Param(1, 0.0, 200.0, "play Flip 2 on a player risking at least this much useful Cash"),
    "nope_stake": Param(2, 0.0, 200.0, "answer a Flip 2 with Nope! when risking at least this much useful Cash"),
    "nope_length": Param(3, 0.0, 20.0, "block a Cash card with Nope! when the building at stake is at least this long"),
    "token_gain": Param(4, 0.0, 20.0, "use a Token when it gains at least this much skyline (always on the last turn)"),
    "fortify": Param(5, 0.0, 1.0, "1: leftover Cash raises the bar on your own properties"),
}
# token_gain 8 is more than a Token can gain on the standard board (7), so by default a Token is
# kept for the round's last turns: heads-up that wins 56% against the same bot at token_gain 2
# (docs/chance.md, "Tokens").
_TACTIC_DEFAULTS = {"flip2_stake": 8.0, "nope_stake": 8.0, "nope_length": 2.0, "token_gain": 8.0, "fortify": 1.0}
# Each kind's stopping parameter, all in slot 0.
STOPS = {
    "p_stop": Param(0, 0.0, 1.0, "random: chance to cash out before each flip"),
    "n": Param(0, 0.0, 20.0, "stop_after: flips before cashing out"),
    "p": Param(0, 0.0, 1.0, "bust_threshold: the largest next-flip bust chance taken"),
    "v": Param(0, 0.0, 200.0, "cash_target: Cash flipped this turn that ends the turn"),
    "risk": Param(0, 0.0, 10.0, "smart: weight of the expected loss against the expected gain"),
    "objective": Param(0, 0.0, 2.0, "optimal: what the stopping rule maximizes", names=OBJECTIVES),
    "margin": Param(0, 0.0, 60.0, "rollout: a close call is Cash within this much of the turn rule's threshold"),
}
ROLLOUT_PARAMS = {
    "rollouts": Param(ROLLOUTS_SLOT, 1.0, 1000.0, "rollout: games played out per choice at a close call"),
    "z": Param(ROLLOUT_Z_SLOT, 0.0, 10.0, "rollout: overrule the turn rule only when the rollouts' difference is z "
               "standard errors from 0"),
}


def _kind(code, doc, stop=None, default=0.0):
    return Kind(code, doc, ({stop: default} if stop else {}) | _TACTIC_DEFAULTS)


CATALOG = Catalog(
    N_PARAMS,
    STOPS | TACTICS | ROLLOUT_PARAMS,
    {
        "random": _kind(RANDOM, "random legal play; cash out with chance p_stop before each flip", "p_stop", 0.25),
        "max_flip": _kind(MAX_FLIP, "always flip to the number rolled"),
        "stop_after": _kind(STOP_AFTER, "cash out after n flips", "n", 2.0),
        "bust_threshold": _kind(BUST_THRESHOLD, "cash out when the next flip busts with chance above p (never with "
                                "nothing at stake)", "p", 0.2),
        "cash_target": _kind(CASH_TARGET, "cash out once the Cash flipped this turn reaches v", "v", 12.0),
        "smart": _kind(SMART, "flip while the expected gain of useful Cash beats risk x the expected loss", "risk", 1.0),
        "optimal": _kind(OPTIMAL, "the turn-optimal stopping rule (exact DP) for objective=value (total Cash kept), "
                         "count (Cash cards kept) or board (Cash that beats the cheapest property on offer)",
                         "objective", 0.0),
        "rollout": Kind(ROLLOUT, "optimal (objective value), except at a close call, where the Cash flipped is within "
                        "margin of the turn rule's threshold: there it plays the rest of the game out `rollouts` times "
                        "flipping and as often cashing out, from the position as the player sees it, and overrules "
                        "the turn rule where that clearly wins more (slow: see docs/chance.md)",
                        {"margin": 2.0, "rollouts": 40.0, "z": 2.0} | _TACTIC_DEFAULTS, slow=True),
    },
    game="chance",
    note="never cashes out with nothing at stake (no card flipped this turn, no saved Token that a bust would "
    "keep off the board on the round's last turns): flipping then cannot lose",
)
parse_policy = CATALOG.parse

# Forced decisions (simulate(..., force=...)): parameter slots 6 (action) and 7 (situation key).
FORCE_SLOT, FORCE_KEY_SLOT = 6, 7
FORCE_NONE, FORCE_FLIP, FORCE_STOP = range(3)
# The situation key packs fields, each with an "any" value (all ones): cash sum low and high
# (8 bits each), Cash cards flipped, flips taken, flips left, Bankrupts left (6 bits each),
# Lucky Breaks held (4 bits), distance to the finish mark in steps of DIST_STEP (4 bits).
KEY_FIELDS = (("cash_lo", 8), ("cash_hi", 8), ("cash_n", 6), ("taken", 6), ("left", 6), ("bankrupt", 6), ("lucky", 4),
              ("dist", 4))
DIST_STEP = 4  # dist field d: the player's skyline is (d * 4 .. d * 4 + 3) short of the finish mark

# ---------------------------------------------------------------------------------------------
# Reading the board


@njit_no_refcount
def requirement(S, RB, i):
    """The value a Cash card must beat to be played on property i."""
    top = S[TOP_VALUE + i]
    return top if top > 0 else RB[R_PROP_VALUE + i]


@njit_no_refcount
def property_gain(S, RB, p, i):
    """Skyline length seat p gains by holding property i at the round end (a new pair of a
    colour adds a gray building); taking it from an opponent counts a little extra."""
    owner = S[TOP_OWNER + i]
    if owner == p:
        return 0.0
    if S[BLDS_LEFT + i] <= 0:
        # Nothing to win; but when such properties must be covered to end the round, a spare
        # card covering one brings the round end closer.
        return 0.1 if RB[R_EXHAUSTED_COUNT] == 1 and owner < 0 else 0.0
    length = RB[R_PROP_LENGTH + i]
    gain = float(length)
    if S[SKY_COUNT + p * (MAX_PROPS + 1) + i] % 2 == 1 and S[G_GRAY_LEFT] > 0:
        gain += RB[R_GRAY_LEN]
    if owner >= 0:
        gain += 0.25 * length
    return gain


@njit_no_refcount
def best_single_play(S, RB, p, v, free_parking):
    """Best property for one Cash card of value v, and its gain ((-1, 0.0) when none)."""
    best = -1
    best_gain = 0.0
    for i in range(RB[R_PROPS]):
        if not free_parking and v <= requirement(S, RB, i):
            continue
        g = property_gain(S, RB, p, i)
        if g > best_gain:
            best = i
            best_gain = g
    return best, best_gain


@njit_no_refcount
def max_value(S, first, n):
    """Largest of S[first : first + n] (n >= 1)."""
    best = S[first]
    for k in range(1, n):
        best = max(best, S[first + k])
    return best


@njit_no_refcount
def p_bust_within(n_flips, pile_n, pile_bankrupt, lucky_held):
    """Chance that n forced flips from a pile holding pile_bankrupt Bankrupts among pile_n
    cards draw more Bankrupts than the Lucky Breaks held (hypergeometric tail). The tail's
    terms are summed, not subtracted from 1, so a bust that cannot happen has chance exactly 0
    (decisions compare it with 0)."""
    n = min(n_flips, pile_n)
    p_bust = 0.0
    for k in range(lucky_held + 1, min(pile_bankrupt, n) + 1):
        # C(B, k) C(N - B, n - k) / C(N, n)
        term = 1.0
        for j in range(k):
            term *= (pile_bankrupt - j) / (j + 1.0)
        for j in range(n - k):
            term *= (pile_n - pile_bankrupt - j) / (j + 1.0)
        for j in range(n):
            term /= (pile_n - j) / (j + 1.0)
        p_bust += term
    return min(1.0, p_bust)


@njit_inline
def next_flip_busts(S):
    """The chance that the next flip of the situation at S[SIT:] busts: 0 while a Lucky Break
    is held or the pile is empty."""
    pile_n = S[SIT + S_PILE_N]
    if S[SIT + S_LUCKY_HELD] > 0 or pile_n == 0:
        return 0.0
    return S[SIT + S_PILE_BANKRUPT] / pile_n


# ---------------------------------------------------------------------------------------------
# Decisions


def situation_key(cash_lo=None, cash_hi=None, cash_n=None, taken=None, left=None, bankrupt=None, lucky=None,
                  dist=None) -> float:
    """Pack a situation pattern (None = any) into the float stored in parameter slot 7."""
    values = dict(cash_lo=cash_lo, cash_hi=cash_hi, cash_n=cash_n, taken=taken, left=left, bankrupt=bankrupt,
                  lucky=lucky, dist=dist)
    key = 0
    shift = 0
    for name, bits in KEY_FIELDS:
        v = values[name]
        full = (1 << bits) - 1
        if v is None:
            v = full
        elif not 0 <= v < full:
            raise ValueError(f"situation {name}={v} is out of range 0..{full - 1}")
        key |= v << shift
        shift += bits
    return float(key)


@njit_no_refcount
def _field(key, shift, bits):
    return (key >> shift) & ((1 << bits) - 1)


@njit_no_refcount
def _matches(value, key, shift, bits):
    f = _field(key, shift, bits)
    return f == (1 << bits) - 1 or f == value


@njit_no_refcount
def situation_matches(S, keyf):
    """Does the flip situation at S[SIT:] match the packed pattern (see situation_key)?"""
    key = np.int64(keyf)
    s = S[SIT + S_CASH_SUM]
    lo = _field(key, 0, 8)
    hi = _field(key, 8, 8)
    if lo != 255 and s < lo:
        return False
    if hi != 255 and s > hi:
        return False
    return (
        _matches(S[SIT + S_CASH_N], key, 16, 6)
        and _matches(S[SIT + S_FLIPS_TAKEN], key, 22, 6)
        and _matches(S[SIT + S_FLIPS_LEFT], key, 28, 6)
        and _matches(S[SIT + S_PILE_BANKRUPT], key, 34, 6)
        and _matches(S[SIT + S_LUCKY_HELD], key, 40, 4)
        and _matches(min(max(S[SIT + S_FINISH] - S[SIT + S_MY_SKY], 0) // 4, 14), key, 44, 4)
    )


@njit_no_refcount
def optimal_threshold(pt, p, pile, f, h, t):
    """The turn-optimal threshold for seat p (flip while the objective's weight flipped is
    below it; 0 cashes out) at pile index `pile`, f flips left, h Lucky Breaks in front and
    board requirement t (board objective only). Layout in sim/chance/optimal.py."""
    if pt.shape[0] == 0 or f <= 0:
        return 0
    base = SEAT_HDR0 + p * SEAT_HDR
    off = pt[base + H_OFFSET]
    if off < 0:
        return 0
    F = int(pt[base + H_F])
    H = int(pt[base + H_H])
    piles = int(pt[base + H_PILES])
    lev = 0
    if int(pt[base + H_OBJECTIVE]) == OBJ_BOARD:
        t_lo = int(pt[base + H_TLO])
        lev = max(t, t_lo) - t_lo
        if lev >= int(pt[base + H_LEVELS]):
            return 0  # no Cash card can take anything: nothing to flip for
    f = min(f, F)  # more flips than the table holds: rare (two extra_flips cards in one turn)
    h = min(h, H - 1)
    u = pt.view(np.uint8)
    return int(u[DATA0 * 8 + int(off) + ((lev * F + f - 1) * H + h) * piles + pile])


@njit_no_refcount
def optimal_flip(pt, p, S):
    """The turn-optimal decision from the policy table for the situation at S[SIT:]."""
    if pt.shape[0] == 0 or S[SIT + S_PILE_N] == 0:
        return False
    s, th = optimal_stake(pt, p, S)
    return s < th


@njit_no_refcount
def close_call(pp, pt, p, S):
    """Whether seat p, a rollout player, faces a close call: the stake the turn rule weighs
    is within `margin` of its threshold (and there is a card to flip, and something at stake)."""
    if pt.shape[0] == 0 or S[SIT + S_PILE_N] == 0 or S[SIT + S_AT_STAKE] == 0:
        return False
    s, th = optimal_stake(pt, p, S)
    return abs(th - s) <= pp[p, 0]


@njit_no_refcount
def optimal_stake(pt, p, S):
    """(stake, threshold) of the turn-optimal rule at S[SIT:]: it flips while stake < threshold."""
    pile = 0
    for k in range(S[DRAW_N + p]):
        c = S[DRAW_PILE + p * MAX_DECK + k]
        pile += int(pt[STRIDES + p * MAX_DECK + c])
    obj = int(pt[SEAT_HDR0 + p * SEAT_HDR + H_OBJECTIVE])
    if obj == OBJ_COUNT:
        s = S[SIT + S_CASH_N]
    elif obj == OBJ_BOARD:
        s = S[SIT + S_USEFUL_CASH_SUM]
    else:
        s = S[SIT + S_CASH_SUM]
    th = optimal_threshold(pt, p, pile, S[SIT + S_FLIPS_LEFT], S[SIT + S_LUCKY_HELD], S[SIT + S_MIN_TARGET])
    return s, th


@njit_no_refcount
def should_flip(pk, pp, pt, p, S, RB, rng):
    """True to flip another card, False to cash out. Reads the situation at S[SIT:];
    `pt` holds lookup tables for table-driven policies."""
    return forced_flip(pp, p, S, policy_flip(pk, pp, pt, p, S, rng))


@njit_inline
def forced_flip(pp, p, S, own):
    """Seat p's own choice `own`, unless the seat is forced in this situation (advice: the
    FORCE_* slots): then the forced one, with the situation and the own choice counted."""
    if pp[p, FORCE_SLOT] > 0 and situation_matches(S, pp[p, FORCE_KEY_SLOT]):
        S[STATS + p * N_SEAT_COLS + SC_SITUATIONS] += 1
        if own:
            S[STATS + p * N_SEAT_COLS + SC_SITUATIONS_OWN_FLIP] += 1
        return pp[p, FORCE_SLOT] == FORCE_FLIP
    return own


@njit_no_refcount
def policy_flip(pk, pp, pt, p, S, rng):
    """The decision of seat p's own policy (should_flip without a forced situation). No kind
    cashes out with nothing at stake: flipping then loses nothing (a Bankrupt only leaves the
    pile) and may win a card."""
    if S[SIT + S_AT_STAKE] == 0:
        return True
    kind = pk[p]
    stop = pp[p, 0]
    if kind == OPTIMAL or kind == ROLLOUT:
        return optimal_flip(pt, p, S)
    if kind == RANDOM:
        return uniform(rng, rng_policy(p)) >= stop
    if kind == MAX_FLIP:
        return True
    if kind == STOP_AFTER:
        return S[SIT + S_FLIPS_TAKEN] < stop
    pile_n = S[SIT + S_PILE_N]
    p_bust = next_flip_busts(S)
    if kind == BUST_THRESHOLD:
        return p_bust <= stop
    if kind == CASH_TARGET:
        return S[SIT + S_CASH_SUM] < stop
    # SMART: one-step lookahead counting only Cash that can take something. A Bankrupt met
    # while holding a Lucky Break costs the Lucky Break, valued as half the cash it protects.
    if pile_n == 0:
        return False
    at_risk = float(S[SIT + S_USEFUL_CASH_SUM])
    gain = S[SIT + S_USEFUL_PILE_SUM] / pile_n
    lucky = S[SIT + S_LUCKY_HELD]
    if lucky > 0:
        loss = S[SIT + S_PILE_BANKRUPT] / pile_n * 0.5 * at_risk / lucky
    else:
        loss = p_bust * at_risk
    if S[SIT + S_ROUND_ENDING] == 1 and S[SIT + S_MY_SKY] < S[SIT + S_BEST_OPP_SKY]:
        loss *= 0.5  # behind on the last turns of a round: take more risk
    return gain > stop * loss


@njit_no_refcount
def want_flip2(pk, pp, o, stake, p_bust2, target_sky, rng, S, RB):
    """Seat o decides whether to play its Flip 2 on a player who stopped with `stake` useful
    Cash in front of them; two more flips bust them with chance p_bust2."""
    kind = pk[o]
    if kind == RANDOM:
        return uniform(rng, rng_policy(o)) < 0.5
    if p_bust2 <= 0.0:
        return False
    if kind == SMART:
        bonus = 1.5 if target_sky >= S[SKY_LEN + o] else 1.0
        return stake * p_bust2 * bonus >= pp[o, 1] * 0.25
    return stake >= pp[o, 1]


@njit_no_refcount
def want_nope_flip2(pk, pp, p, stake, p_bust2, rng, S, RB):
    """Seat p decides whether to answer a Flip 2 played on it with a Nope!."""
    kind = pk[p]
    if kind == RANDOM:
        return uniform(rng, rng_policy(p)) < 0.5
    if p_bust2 <= 0.0:
        return False
    if kind == SMART:
        return stake * p_bust2 >= pp[p, 2] * 0.25
    return stake >= pp[p, 2]


@njit_no_refcount
def want_nope_cash(pk, pp, o, length_at_stake, rng, S, RB):
    """Seat o decides whether to block a Cash card played on a property it holds."""
    if pk[o] == RANDOM:
        return uniform(rng, rng_policy(o)) < 0.5
    return length_at_stake >= pp[o, 3]


@njit_no_refcount
def choose_play(pk, pp, p, S, RB, rng, n_cash, fp_available, blocked_mask):
    """Next Cash card to play and where: (k, i) plays S[BUF_VALUE + k] on property i, (-1, -1)
    stops (the rest is discarded). Properties whose bit is set in blocked_mask are closed to
    this player. A play that is only legal through Free Parking uses it."""
    n_props = RB[R_PROPS]
    if n_cash == 0:
        return -1, -1
    if pk[p] == RANDOM:
        # Every legal (card, property) pair is equally likely; stopping is one more option.
        n_legal = 0
        for k in range(n_cash):
            for i in range(n_props):
                if not (blocked_mask >> i) & 1 and (fp_available or S[BUF_VALUE + k] > requirement(S, RB, i)):
                    n_legal += 1
        pick = randint(rng, rng_policy(p), n_legal + 1)
        for k in range(n_cash):
            for i in range(n_props):
                if not (blocked_mask >> i) & 1 and (fp_available or S[BUF_VALUE + k] > requirement(S, RB, i)):
                    if pick == 0:
                        return k, i
                    pick -= 1
        return -1, -1
    # Greedy: the most valuable property any card can take, with the cheapest card that does.
    best_i = -1
    best_k = -1
    best_gain = 0.0
    fp_i = -1
    fp_gain = 0.0
    for i in range(n_props):
        if (blocked_mask >> i) & 1:
            continue
        g = property_gain(S, RB, p, i)
        if g <= 0.0:
            continue
        need = requirement(S, RB, i)
        k_best = -1
        for k in range(n_cash):
            v = S[BUF_VALUE + k]
            if v > need and (k_best < 0 or v < S[BUF_VALUE + k_best]):
                k_best = k
        if k_best >= 0:
            if g > best_gain:
                best_i = i
                best_k = k_best
                best_gain = g
        elif g > fp_gain:
            fp_i = i
            fp_gain = g
    if fp_available and fp_i >= 0 and fp_gain > best_gain:
        # Free Parking: the smallest card takes the best property no card can take normally.
        k_min = 0
        for k in range(1, n_cash):
            if S[BUF_VALUE + k] < S[BUF_VALUE + k_min]:
                k_min = k
        return k_min, fp_i
    if best_i >= 0:
        return best_k, best_i
    if pp[p, 5] >= 0.5:
        # Fortify: the largest leftover card on top of my own, where the building is longest.
        k_max = 0
        for k in range(1, n_cash):
            if S[BUF_VALUE + k] > S[BUF_VALUE + k_max]:
                k_max = k
        f_best = -1
        f_len = 0
        for i in range(n_props):
            if (blocked_mask >> i) & 1 or S[TOP_OWNER + i] != p or S[BLDS_LEFT + i] <= 0:
                continue
            if S[BUF_VALUE + k_max] > S[TOP_VALUE + i] and RB[R_PROP_LENGTH + i] > f_len:
                f_best = i
                f_len = RB[R_PROP_LENGTH + i]
        if f_best >= 0:
            return k_max, f_best
    return -1, -1


@njit_no_refcount
def choose_token(pk, pp, p, S, RB, rng, n_flipped, n_draw, n_discard, last_chance):
    """Corner for a Token (0 GO, 1 Free Parking, 2 Just Visiting, 3 Go to Jail) or -1 to keep
    it. Cash values on offer: flipped this turn at BUF_VALUE, in the draw pile at BUF_VALUE2,
    in the discard pile at BUF_VALUE3. `last_chance`: the round's last turns (its end has come, or
    no player can flip any more): a Token kept is lost or waits for nothing."""
    if pk[p] == RANDOM:
        n_free = 0
        for c in range(N_CORNERS):
            n_free += S[CORNERS + c] < 0
        pick = randint(rng, rng_policy(p), n_free + 1)
        for c in range(N_CORNERS):
            if S[CORNERS + c] < 0:
                if pick == 0:
                    return c
                pick -= 1
        return -1
    # A higher card can take every property a lower one can, so each pile's best play is the
    # best play of its highest card.
    gain_go = 0.0
    if n_draw > 0:
        gain_go = best_single_play(S, RB, p, max_value(S, BUF_VALUE2, n_draw), False)[1]
    gain_visit = 0.0
    if n_discard > 0:
        gain_visit = best_single_play(S, RB, p, max_value(S, BUF_VALUE3, n_discard), False)[1]
    gain_fp = 0.0
    if n_flipped > 0:
        best_normal = best_single_play(S, RB, p, max_value(S, BUF_VALUE, n_flipped), False)[1]
        gain_fp = best_single_play(S, RB, p, 0, True)[1] - best_normal
    gain_jail = 0.0
    for i in range(RB[R_PROPS]):
        owner = S[TOP_OWNER + i]
        if owner >= 0 and owner != p and S[BLDS_LEFT + i] > 0:
            gain_jail = max(gain_jail, 0.6 * RB[R_PROP_LENGTH + i])
    best = -1
    best_gain = 0.0
    for c in range(N_CORNERS):
        g = gain_go if c == 0 else gain_fp if c == 1 else gain_visit if c == 2 else gain_jail
        if S[CORNERS + c] < 0 and g > best_gain:
            best = c
            best_gain = g
    if best >= 0 and (best_gain >= pp[p, 4] or last_chance):
        return best
    return -1


@njit_no_refcount
def choose_cash_card(pk, pp, p, S, RB, rng, n_cash):
    """Which of the Cash values at S[BUF_VALUE:] to take from a pile (GO / Just Visiting):
    the one with the best single play, the smaller between equals; -1 when there is none."""
    if n_cash == 0:
        return -1
    if pk[p] == RANDOM:
        return randint(rng, rng_policy(p), n_cash)
    best_k = -1
    best_gain = 0.0
    for k in range(n_cash):
        g = best_single_play(S, RB, p, S[BUF_VALUE + k], False)[1]
        if g > best_gain or (g == best_gain and g > 0 and S[BUF_VALUE + k] < S[BUF_VALUE + best_k]):
            best_k = k
            best_gain = g
    if best_k < 0:
        best_k = 0
        for k in range(1, n_cash):
            if S[BUF_VALUE + k] > S[BUF_VALUE + best_k]:
                best_k = k
    return best_k


@njit_no_refcount
def choose_jail_target(pk, pp, p, S, RB, rng):
    """Property whose top Cash card (an opponent's) goes back to its owner, or -1."""
    n_props = RB[R_PROPS]
    n_legal = 0
    for i in range(n_props):
        if S[TOP_OWNER + i] >= 0 and S[TOP_OWNER + i] != p:
            n_legal += 1
    if n_legal == 0:
        return -1
    if pk[p] == RANDOM:
        pick = randint(rng, rng_policy(p), n_legal)
        for i in range(n_props):
            if S[TOP_OWNER + i] >= 0 and S[TOP_OWNER + i] != p:
                if pick == 0:
                    return i
                pick -= 1
    best = -1
    best_score = -1.0
    for i in range(n_props):
        owner = S[TOP_OWNER + i]
        if owner >= 0 and owner != p:
            length = RB[R_PROP_LENGTH + i] if S[BLDS_LEFT + i] > 0 else 0
            score = length + 0.01 * S[SKY_LEN + owner]
            if score > best_score:
                best = i
                best_score = score
    return best


@njit_no_refcount
def choose_victim(pk, pp, p, S, RB, rng):
    """Opponent who loses a building to a Chance card: the leader (-1 when nobody has one)."""
    n = RB[R_PLAYERS]
    n_legal = 0
    for q in range(n):
        if q != p and S[N_BLD + q] > 0:
            n_legal += 1
    if n_legal == 0:
        return -1
    if pk[p] == RANDOM:
        pick = randint(rng, rng_policy(p), n_legal)
        for q in range(n):
            if q != p and S[N_BLD + q] > 0:
                if pick == 0:
                    return q
                pick -= 1
    best = -1
    for q in range(n):
        if q != p and S[N_BLD + q] > 0 and (best < 0 or S[SKY_LEN + q] > S[SKY_LEN + best]):
            best = q
    return best
