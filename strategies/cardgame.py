"""Bot policies for Monopoly: The Card Game.

A policy is a kind (an integer) plus a float64 parameter vector, as for the other games: one
compiled kernel serves every policy and parameter value, and a tuner can search the
parameters (``PARAMS`` gives each one's slot and range). The kernel (sim/cardgame/kernel.py)
calls the @njit decision functions below and checks each answer; they read the table through
``S`` / ``RB`` (offsets in sim/cardgame/layout.py, hand questions in sim/cardgame/board.py).
Random choices use the seat's own stream.

Decisions: the move (draw, trade with whom and how many cards, the 3-player moves with the
imaginary pile, the partner of a mandatory trade), what to discard or pass, and whether to
go out now or wait. The heuristic bots value a hand with ``evaluate`` (money-like units:
progress toward complete groups, minus what still blocks going out, plus bonus cards) and
differ in what they look at:

- greedy: draw or take the top card of a pile, whichever helps most now; goes out at once.
- cautious: greedy, but drops its Chance cards once an opponent looks close to going out
  (wiki scoring: a Chance in a loser's hand makes it worth nothing).
- trader: reads every visible pile, trades up to two cards, and will not feed an opponent
  (give or discard) a kind they have been seen collecting.
- smart: trader + cautious + trades of any size + the expected value of a draw from the unseen
  cards + waiting to go out with a bigger hand while nobody looks close.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.cardgame.board import (
    chains_held,
    complete_from,
    full_value,
    hand_score,
    n_houses,
    need_of,
)
from sim.cardgame.layout import (
    DECK_KC,
    DRAW_N,
    G_HTURN,
    HAND_,
    HAND_N,
    K_DOUBLE,
    K_FP,
    K_GO,
    K_HOTEL,
    K_JAIL,
    K_JAILFREE,
    K_MRM,
    K_TOKEN,
    K_WILD,
    KC,
    MAX_CARDS,
    N_BUILDABLE,
    NC,
    NK,
    PARTS,
    PILE_,
    PILE_N,
    PLAN_DANGER,
    PLAN_KC,
    PLAN_KIND,
    PLAN_N,
    PLAN_SEAT,
    R_CHANCE_ZERO,
    R_CVAL,
    R_DUMMY_MODE,
    R_GO_VALUE,
    R_HAND_LIMIT,
    R_HOTEL_VALUE,
    R_HOUSES_NUMBERED,
    R_HVAL,
    R_INCOMPLETE,
    R_JACKPOT,
    R_JAIL_BLOCKS,
    R_KIND,
    R_MAX_HOUSES,
    R_MAX_TRADE,
    R_N_PILES,
    R_PLAYERS,
    R_PRE_DISCARD,
    R_RU_GROUP,
    SCRATCH,
    SCRATCH2,
    SEEN,
    SEEN_BY,
    SEEN_PROPS,
    rng_policy,
)
from sim.core.jit import njit_inline, njit_no_refcount, positive_bits32, trailing_zeros
from sim.core.rng import randint, uniform
from strategies.catalog import Catalog, Kind, Param, PolicyError  # noqa: F401 (PolicyError re-exported)

RANDOM, GREEDY, CAUTIOUS, TRADER, SMART = range(5)
# Moves.
MV_DRAW, MV_TRADE, MV_SWAP3, MV_DOUBLE3 = range(4)
N_PARAMS = 20

# name -> Param(slot, low, high, meaning)
PARAMS = {
    "p_go": Param(0, 0.0, 1.0, "random: chance to go out when the hand allows it"),
    "progress": Param(1, 0.0, 3.0, "weight of an incomplete group's value, times the share of it held"),
    "complete": Param(2, 0.0, 5.0, "weight of a complete group's value"),
    "missing": Param(3, 0.0, 10.0, "cost (x100) of each card still missing from a held group"),
    "wild": Param(4, 0.0, 10.0, "worth (x100) of a Chance card that can fill a gap"),
    "wild_risk": Param(5, 0.0, 20.0, "cost (x100) of holding a Chance when an opponent looks close"),
    "house": Param(6, 0.0, 3.0, "weight of a usable house's value"),
    "bonus": Param(7, 0.0, 3.0, "weight of tokens, GO and other bonus cards"),
    "mr_monopoly": Param(8, 0.0, 10.0, "worth (x100) of a Mr. Monopoly card"),
    "free_parking": Param(9, 0.0, 10.0, "worth (x100) of a Free Parking card when there is a jackpot"),
    "ready": Param(10, 0.0, 20.0, "worth (x100) of holding a hand that may go out"),
    "draw": Param(11, 0.0, 5.0, "expected gain (x100) of a blind draw (all but smart)"),
    "danger_turn": Param(12, 0.0, 30.0, "rounds into a hand after which an opponent is assumed close"),
    "danger_seen": Param(13, 0.0, 10.0, "cards an opponent has taken from piles that make them look close"),
    "feed": Param(14, 0.0, 10.0, "cost (x100) of giving an opponent a kind they have been seen collecting"),
    "trade_depth": Param(15, 1.0, 10.0, "most cards the bot considers in one trade (the rules' max_trade caps it)"),
    "wait_min": Param(16, 0.0, 50.0, "smart: go out only with a hand worth at least this (x100) unless someone looks close"),
    "draw_exact": Param(17, 0.0, 1.0, "smart: weight of the draw's expected worth over the unseen cards (vs the flat guess)"),
    "bad_hotel": Param(18, 0.0, 5.0, "cost of a hotel that cannot stand, in missing cards (it blocks going out)"),
    "bad_house": Param(19, 0.0, 5.0, "cost of a house that cannot stand, in missing cards (it blocks going out)"),
}

_BASE = {
    "p_go": 0.5, "progress": 0.6, "complete": 1.5, "missing": 1.0, "wild": 2.0, "wild_risk": 0.0,
    "house": 1.0, "bonus": 1.0, "mr_monopoly": 3.0, "free_parking": 1.5, "ready": 3.0, "draw": 0.5,
    "danger_turn": 30.0, "danger_seen": 10.0, "feed": 0.0, "trade_depth": 1.0, "wait_min": 0.0,
    "draw_exact": 0.0, "bad_hotel": 2.0, "bad_house": 1.25,
}
# name -> (kind, defaults that differ from _BASE, meaning)
KINDS = {
    "random": (RANDOM, {}, "random legal play: a random move, random discards, goes out with chance p_go"),
    "greedy": (GREEDY, {}, "set completer: the draw or pile top that helps most now, goes out at once"),
    "cautious": (CAUTIOUS, {"wild_risk": 6.0, "danger_turn": 4.0, "danger_seen": 3.0},
                 "greedy, but drops Chance cards when an opponent looks close to going out"),
    "trader": (TRADER, {"feed": 2.0, "trade_depth": 2.0},
               "reads the visible piles: trades up to two cards, avoids feeding a kind an opponent collects"),
    # smart's first six weights come from a tuner run (experiments/tune_cardgame_bot.toml, docs/tuning.md);
    # bad_house: 0.5-1.5 measure alike for it (docs/cardgame.md), so it keeps the one-missing-card cost.
    # trade_depth: weighing every trade size the rules allow won +4 points at three players (docs/cardgame.md).
    "smart": (SMART, {"wild_risk": 6.0, "danger_turn": 5.0, "danger_seen": 3.0, "trade_depth": 10.0, "draw_exact": 1.0,
                      "progress": 0.3, "complete": 3.0, "missing": 0.5, "feed": 0.25, "ready": 12.0, "wait_min": 2.0,
                      "bad_house": 1.0},
              "strongest heuristic: trader + cautious + trades of any size + the expected worth of a draw from the "
              "unseen cards"),
}

CATALOG = Catalog(
    N_PARAMS, PARAMS, {name: Kind(code, doc, _BASE | overrides) for name, (code, overrides, doc) in KINDS.items()},
    game="cardgame",
)
parse_policy = CATALOG.parse


(P_GO, P_PROGRESS, P_COMPLETE, P_MISSING, P_WILD, P_WILD_RISK, P_HOUSE, P_BONUS, P_MRM, P_FP, P_READY,
 P_DRAW, P_DANGER_TURN, P_DANGER_SEEN, P_FEED, P_DEPTH, P_WAIT, P_DRAW_EXACT, P_BAD_HOTEL, P_BAD_HOUSE) = range(N_PARAMS)

# A seat's row of `pp` as the bots read it: its N_PARAMS parameters, then the terms of
# `evaluate` that depend only on them and the rules, worked out once (`seat_values`).
GROUP_N = 5  # group_worth of n cards for n = 0 .. 4; every group is complete at 4 cards, so 4 stands for more
V_GROUP = N_PARAMS  # [c * GROUP_N + min(n, 4)] group_worth
V_FIXED = V_GROUP + NC * GROUP_N  # [k] fixed_worth
# worth_units: a missing card, a Chance card's worth and its risk, a usable hotel, a hotel that
# cannot stand, a Go to Jail that blocks, a hand that may go out, a house that cannot stand.
V_MISSING, V_WILD, V_WILD_RISK, V_HOTEL, V_BAD_HOTEL, V_JAIL, V_READY, V_BAD_HOUSE = range(V_FIXED + NK, V_FIXED + NK + 8)
N_VALUES = V_BAD_HOUSE + 1


# ---------------------------------------------------------------------------------------------
# Valuation
#
# `evaluate` is a sum of terms, each rounded to a multiple of 1/GRID. Such sums are exact in
# float64 (every total here is far below 2**40), so they do not depend on the order of the
# additions: the worth of a what-if hand that differs from a hand in one card, computed from
# the hand's totals (`hand_totals`, `what_if`), is bit for bit the worth a fresh `evaluate`
# gives. A bot weighs dozens of such hands a turn, and this makes each one O(1).

GRID = 4096.0


@njit_inline
def on_grid(x):
    return np.floor(x * GRID + 0.5) / GRID


@njit_no_refcount
def group_worth_of(RB, pp, c, n):
    """`evaluate`'s term for n cards of colour group c: a complete group's value, or progress
    toward it (plus the cards' own value when incomplete groups score)."""
    if n == 0:
        return 0.0
    s = need_of(RB, c)
    g = full_value(RB, c, max(n, s))
    if n >= s:
        return on_grid(g * pp[P_COMPLETE])
    v = g * pp[P_PROGRESS] * n / s
    if RB[R_INCOMPLETE]:
        v += n * RB[R_CVAL + c]
    return on_grid(v)


@njit_inline
def group_worth(pp, c, n):
    return pp[V_GROUP + c * GROUP_N + min(n, GROUP_N - 1)]


@njit_no_refcount
def fixed_worth_of(RB, pp, k):
    """What `evaluate` gives one card of kind k when that is a constant (bonus cards), else -1."""
    if k == K_GO:
        return on_grid(pp[P_BONUS] * RB[R_GO_VALUE])
    if k == K_MRM:
        return on_grid(pp[P_MRM] * 100.0)
    if k == K_FP:
        return on_grid(pp[P_FP] * 100.0) if RB[R_JACKPOT] else 0.0
    if k == K_DOUBLE:
        return on_grid(pp[P_BONUS] * 500.0)
    if K_TOKEN <= k < K_TOKEN + NC:
        return on_grid(pp[P_BONUS] * full_value(RB, k - K_TOKEN, 4))
    return -1.0


@njit_inline
def fixed_worth(pp, k):
    return pp[V_FIXED + k]


@njit(cache=True)
def seat_values(RB, params):
    """Each seat's parameter row (params[seat]) followed by the terms of `evaluate` that depend
    only on it and the rules (the V_* slots): the rows the bots read as `pp`."""
    # A user bot's columns (sim/core/userbot.py) follow the seat's parameters: kept after the terms.
    extra = params.shape[1] - N_PARAMS
    pv = np.empty((params.shape[0], N_VALUES + extra))
    for p in range(params.shape[0]):
        pp = pv[p]
        pp[:N_PARAMS] = params[p, :N_PARAMS]
        pp[N_VALUES:] = params[p, N_PARAMS:]
        for c in range(NC):
            for n in range(GROUP_N):
                pp[V_GROUP + c * GROUP_N + n] = group_worth_of(RB, pp, c, n)
        for k in range(NK):
            pp[V_FIXED + k] = fixed_worth_of(RB, pp, k)
        pp[V_MISSING] = on_grid(pp[P_MISSING] * 100.0)
        pp[V_WILD] = on_grid(pp[P_WILD] * 100.0)
        pp[V_WILD_RISK] = on_grid(pp[P_WILD_RISK] * 100.0)
        pp[V_HOTEL] = on_grid(pp[P_HOUSE] * RB[R_HOTEL_VALUE])
        pp[V_BAD_HOTEL] = on_grid(pp[P_MISSING] * 100.0 * pp[P_BAD_HOTEL])
        pp[V_JAIL] = on_grid(pp[P_MISSING] * 200.0)
        pp[V_READY] = on_grid(pp[P_READY] * 100.0)
        pp[V_BAD_HOUSE] = on_grid(pp[P_MISSING] * 100.0 * pp[P_BAD_HOUSE])
    return pv


@njit_inline
def kinds_held(A, o):
    """The kinds the hand A[o:o+NK] holds, as a bit mask built without branches (one vector
    compare): visiting its set bits spares a hard-to-predict branch on each kind."""
    return positive_bits32(A, o)


@njit_inline
def hand_totals(A, o, RB, pp, held):
    """What `evaluate` sums over the hand's colour groups and bonus cards: (groups' worth,
    bonus cards' worth, cards missing from held groups, complete buildable groups, the highest
    and second-highest house value among those (at least 50) and the group with the highest,
    groups held, buildable groups held); `held`: `kinds_held` of the hand. A what-if hand with
    one card more or fewer changes them in O(1) (`what_if`)."""
    vg = 0.0
    missing = 0
    complete_b = 0
    top, top_c, second = 50, -1, 50
    groups = 0
    buildable = 0
    colours = held & ((1 << NC) - 1)
    while colours:
        c = trailing_zeros(colours)
        colours &= colours - 1
        n = A[o + c]
        vg += group_worth(pp, c, n)
        s = need_of(RB, c)
        missing += max(s - n, 0)
        if c < N_BUILDABLE:
            groups += 1
            buildable += 1
            if n >= s:
                complete_b += 1
                h = RB[R_HVAL + c]
                if h > top:
                    top, top_c, second = h, c, top
                elif h > second:
                    second = h
        elif RB[R_RU_GROUP]:
            groups += 1
    bonus = 0.0
    others = held >> K_TOKEN
    while others:
        k = K_TOKEN + trailing_zeros(others)
        others &= others - 1
        w = fixed_worth(pp, k)
        if w > 0.0:
            bonus += A[o + k] * w
    return vg, bonus, missing, complete_b, top, top_c, second, groups, buildable


@njit_inline
def worth_units(RB, pp, danger):
    """`evaluate`'s per-card weights for this decision: a card missing from a held group; the
    Chance cards as (at risk, weight): at risk when an opponent looks close and a Chance would
    zero the hand, the weight then being its cost, else its worth; a usable hotel; a hotel that
    cannot stand; a Go to Jail that blocks; a hand that may go out; a house that cannot stand."""
    at_risk = danger and RB[R_CHANCE_ZERO] != 0
    return (pp[V_MISSING], (at_risk, pp[V_WILD_RISK] if at_risk else pp[V_WILD]), pp[V_HOTEL], pp[V_BAD_HOTEL],
            pp[V_JAIL], pp[V_READY], pp[V_BAD_HOUSE])


@njit_inline
def building_worth(A, o, RB, pp, complete_b, best_h, units):
    """`evaluate`'s terms for houses, hotels and Go to Jail: usable houses and hotels add their
    value, ones that cannot stand (or a Go to Jail without its way out) block going out."""
    _, _, hotel_unit, bad_hotel_unit, jail_unit, _, bad_house_unit = units
    total_h = n_houses(A, o)
    if RB[R_HOUSES_NUMBERED]:
        usable, fours = chains_held(A, o, max(complete_b, 1))
    else:
        usable = total_h if RB[R_MAX_HOUSES] == 0 else min(total_h, RB[R_MAX_HOUSES])
        fours = usable // 4
    v = on_grid(pp[P_HOUSE] * best_h) * usable - bad_house_unit * (total_h - usable)
    hotels = A[o + K_HOTEL]
    good = min(hotels, fours)
    v += hotel_unit * good - bad_hotel_unit * (hotels - good)
    if RB[R_JAIL_BLOCKS] and A[o + K_JAIL] > 0 and A[o + K_JAILFREE] == 0:
        v -= jail_unit
    return v


@njit_inline
def gap_worth(A, o, RB, missing, groups, buildable, units):
    """`evaluate`'s terms for the cards missing from held groups, the Chance cards that may fill
    them, and a hand that may go out."""
    missing_unit, (at_risk, wild_unit), _, _, _, ready_unit, _ = units
    wilds = A[o + K_WILD]
    gap = missing - wilds
    v = 0.0
    if gap > 0:
        v -= missing_unit * gap
    if wilds > 0:
        if at_risk:
            v -= wild_unit * wilds
        else:
            v += wild_unit * min(wilds, max(missing, 1))
    if gap <= 0 and complete_from(A, o, RB, missing, groups, buildable):
        v += ready_unit
    return v


@njit_inline
def hand_context(A, o, RB, pp, danger):
    """`evaluate` of the hand A[o:o+NK], and what `what_if` needs to value the hand with one
    card more or fewer: its `kinds_held`, `hand_totals`, `worth_units` and `building_worth`."""
    held = kinds_held(A, o)
    totals = hand_totals(A, o, RB, pp, held)
    vg, bonus, missing, complete_b, top, _, _, groups, buildable = totals
    units = worth_units(RB, pp, danger)
    buildings = building_worth(A, o, RB, pp, complete_b, top, units)
    v = vg + bonus + buildings + gap_worth(A, o, RB, missing, groups, buildable, units)
    return v, (held, totals, units, buildings)


@njit_no_refcount
def evaluate(A, o, RB, pp, danger):
    """A heuristic worth of the hand A[o:o+NK] (money-like units)."""
    return hand_context(A, o, RB, pp, danger)[0]


@njit_inline
def what_if(A, o, RB, pp, v0, context, k, d):
    """`evaluate` of the hand A[o:o+NK] with d (+1 or -1) cards of kind k, from the hand's
    `evaluate` v0 and `hand_context`."""
    _, totals, units, buildings = context
    vg, bonus, missing, complete_b, top, top_c, second, groups, buildable = totals
    if k >= NC:
        w = fixed_worth(pp, k)
        if w >= 0.0:
            return v0 + d * w  # bonus cards add a constant and never block going out
        A[o + k] += d
        v = (vg + bonus + building_worth(A, o, RB, pp, complete_b, top, units)
             + gap_worth(A, o, RB, missing, groups, buildable, units))
        A[o + k] -= d
        return v
    # A property card: its group's terms change, and the buildings' only when the complete
    # buildable groups do.
    n = A[o + k]
    n2 = n + d
    s = need_of(RB, k)
    vg += group_worth(pp, k, n2) - group_worth(pp, k, n)
    missing += (max(s - n2, 0) if n2 > 0 else 0) - (max(s - n, 0) if n > 0 else 0)
    group_change = int(n2 > 0) - int(n > 0)  # the group starts or stops being held
    if k < N_BUILDABLE:
        buildable += group_change
        groups += group_change
    elif RB[R_RU_GROUP]:
        groups += group_change
    if k < N_BUILDABLE and (n >= s) != (n2 >= s):
        if n2 >= s:
            complete_b += 1
            best_h = max(top, RB[R_HVAL + k])
        else:
            complete_b -= 1
            best_h = second if k == top_c else top
        buildings = building_worth(A, o, RB, pp, complete_b, best_h, units)
    return vg + bonus + buildings + gap_worth(A, o, RB, missing, groups, buildable, units)


@njit_no_refcount
def danger_now(S, RB, pp, p):
    """Does an opponent look close to going out (public information only)?"""
    n = RB[R_PLAYERS]
    if S[G_HTURN] >= pp[P_DANGER_TURN] * n:
        return True
    for q in range(n):
        if q != p and S[SEEN_PROPS + q] >= pp[P_DANGER_SEEN]:
            return True
    return False


@njit_no_refcount
def copy_hand(S, p, dst):
    for k in range(NK):
        S[dst + k] = S[KC + p * NK + k]


@njit_no_refcount
def feed_cost(S, pp, p, kind):
    """What handing `kind` to the table costs: the number of opponents seen collecting it."""
    if pp[P_FEED] == 0.0:
        return 0.0
    return pp[P_FEED] * 100.0 * (S[SEEN_BY + kind] - int(S[SEEN + p * NK + kind] > 0))


@njit_no_refcount
def worst_kind(S, RB, pp, p, o, danger, use_feed):
    """The kind in the what-if hand S[o:o+NK] whose loss costs least, and the value of the
    hand without it (less what discarding it would feed the opponents, with `use_feed`)."""
    v0, context = hand_context(S, o, RB, pp, danger)
    return worst_in_context(S, RB, pp, p, o, v0, context, use_feed)


@njit_inline
def worst_in_context(S, RB, pp, p, o, v0, context, use_feed):
    """`worst_kind` of a hand whose `evaluate` v0 and `hand_context` the caller has."""
    best_k = -1
    best_v = -1e18
    held = context[0]
    while held:
        k = trailing_zeros(held)
        held &= held - 1
        v = what_if(S, o, RB, pp, v0, context, k, -1)
        if use_feed:
            v -= feed_cost(S, pp, p, k)
        if v > best_v:
            best_v = v
            best_k = k
    return best_k, best_v


@njit_no_refcount
def after_discards(S, RB, pp, p, o, r, danger, use_feed):
    """Value of the what-if hand at S[o:] after the r best discards (greedy, one at a time)."""
    if r == 0:
        return evaluate(S, o, RB, pp, danger)
    for _ in range(r):
        k, v = worst_kind(S, RB, pp, p, o, danger, use_feed)
        S[o + k] -= 1
    return v


@njit_no_refcount
def pile_kind(S, RB, q, depth):
    """Kind of the card `depth` below the top of pile q."""
    return RB[R_KIND + S[PILE_ + q * MAX_CARDS + S[PILE_N + q] - 1 - depth]]


# ---------------------------------------------------------------------------------------------
# Decisions


@njit_no_refcount
def trade_partner_ok(S, RB, p, q):
    """May seat p trade with pile q: another seat's pile, or an imaginary player's in the
    imaginary-pile mode."""
    if q == p:
        return False
    if q >= RB[R_PLAYERS]:
        return RB[R_DUMMY_MODE] == 2
    return True


@njit_no_refcount
def max_k(S, RB, p, q, pre):
    """Most cards p may trade with pile q (pre: after discarding one card first)."""
    return min(RB[R_MAX_TRADE], S[PILE_N + q], S[PILE_N + p] + pre)


@njit_no_refcount
def legal_move(S, RB, p, mv, q, k, pre):
    """Whether seat p may make this move (choose_move's answer) in a 2-4 player hand."""
    if mv == MV_DRAW:
        return S[DRAW_N] > 0
    if mv == MV_TRADE:
        if q < 0 or q >= RB[R_N_PILES] or not trade_partner_ok(S, RB, p, q):
            return False
        if pre and not RB[R_PRE_DISCARD]:
            return False
        return 1 <= k <= max_k(S, RB, p, q, 1 if pre else 0)
    if RB[R_DUMMY_MODE] != 1:
        return False
    dummy = RB[R_PLAYERS]
    if mv == MV_SWAP3:
        return 0 <= q < RB[R_PLAYERS] and q != p and S[PILE_N + q] > 0 and S[PILE_N + dummy] > 0
    if mv == MV_DOUBLE3:
        return S[PILE_N + dummy] > 0 and S[DRAW_N] > 0 and S[PILE_N + p] >= 2
    return False


@njit_no_refcount
def legal_big_move(S, RB, p, mv, q, k, pre):
    """The same in a 5-6 player hand: a one-card trade with another seat, both piles not empty."""
    return (mv == MV_TRADE and k == 1 and not pre and 0 <= q < RB[R_PLAYERS] and q != p and S[PILE_N + q] > 0
            and S[PILE_N + p] > 0)


@njit_no_refcount
def random_move(S, RB, p, rng, big):
    """A uniformly random legal move, as (move, pile, cards, pre-discard)."""
    o = rng_policy(p)
    n_piles = RB[R_N_PILES]
    if big:
        while True:
            q = randint(rng, o, RB[R_PLAYERS])
            if q != p and S[PILE_N + q] > 0:
                return MV_TRADE, q, 1, 0
    # Count the options, then pick one: draw, each (pile, k, pre), the special moves.
    count = 1 if S[DRAW_N] > 0 else 0
    pre_max = 1 if RB[R_PRE_DISCARD] else 0
    for q in range(n_piles):
        if trade_partner_ok(S, RB, p, q):
            for pre in range(pre_max + 1):
                count += max(0, max_k(S, RB, p, q, pre))
    special = RB[R_DUMMY_MODE] == 1
    dummy = RB[R_PLAYERS]
    if special:
        for q in range(RB[R_PLAYERS]):
            if q != p and S[PILE_N + q] > 0 and S[PILE_N + dummy] > 0:
                count += 1
        if S[PILE_N + dummy] > 0 and S[DRAW_N] > 0 and S[PILE_N + p] >= 2:
            count += 1
    if count == 0:
        return -1, 0, 0, 0
    pick = randint(rng, o, count)
    if S[DRAW_N] > 0:
        if pick == 0:
            return MV_DRAW, 0, 0, 0
        pick -= 1
    for q in range(n_piles):
        if trade_partner_ok(S, RB, p, q):
            for pre in range(pre_max + 1):
                m = max(0, max_k(S, RB, p, q, pre))
                if pick < m:
                    return MV_TRADE, q, pick + 1, pre
                pick -= m
    for q in range(RB[R_PLAYERS]):
        if q != p and S[PILE_N + q] > 0 and S[PILE_N + dummy] > 0:
            if pick == 0:
                return MV_SWAP3, q, 1, 0
            pick -= 1
    return MV_DOUBLE3, dummy, 2, 0


@njit_no_refcount
def draw_value(S, RB, pp, p, pk, danger):
    """Expected worth of drawing one card and discarding the worst. Smart: averaged over the
    kinds not visible to p (neither in its hand nor in any pile); others: a flat guess."""
    o = SCRATCH
    copy_hand(S, p, o)
    base, context = hand_context(S, o, RB, pp, danger)
    flat = base + pp[P_DRAW] * 100.0
    x = pp[P_DRAW_EXACT] if pk == SMART else 0.0
    if x == 0.0:
        return flat
    # Unseen kinds: the deck less p's hand and every pile.
    u = SCRATCH2
    for k in range(NK):
        S[u + k] = S[DECK_KC + k] - S[KC + p * NK + k]
    for q in range(RB[R_N_PILES]):
        for i in range(S[PILE_N + q]):
            S[u + RB[R_KIND + S[PILE_ + q * MAX_CARDS + i]]] -= 1
    total = 0
    acc = 0.0
    _, lose = worst_in_context(S, RB, pp, p, o, base, context, False)
    floor = lose - base  # what the worst discard of the current hand costs (<= 0)
    # The drawn card itself may be the one discarded, leaving the hand as it is, when the draw
    # takes the hand just one over the limit (else at least one card of the hand goes too).
    keep = 0.0 if S[HAND_N + p] <= RB[R_HAND_LIMIT] else floor
    for k in range(NK):
        m = S[u + k]
        if m > 0:
            gain = what_if(S, o, RB, pp, base, context, k, 1) - base
            acc += m * max(gain + floor, keep)
            total += m
    exact = base + keep if total == 0 else base + acc / total
    return x * exact + (1.0 - x) * flat


@njit_no_refcount
def trade_value(S, RB, pp, p, q, k, pre, danger, use_feed, plus_one, pre_kind):
    """Worth of p's hand after trading k cards with pile q (pre: after first discarding its
    worst card, of kind `pre_kind`), less what the cards given away would feed q, and the two
    discards it was weighed with: (the pre-discard, -1), or the k (at most 2) discards after the
    trade (first -1 when not recorded).
    `plus_one[:, t]`: the value of the hand plus one card of kind t after its best discard and
    that discard's kind, NaN until weighed (shared by every trade weighed in one choice, as the
    danger and feed inputs are the same)."""
    o = SCRATCH
    copy_hand(S, p, o)
    cost = 0.0
    d0 = -1
    if pre:
        d0 = pre_kind
        S[o + pre_kind] -= 1
        if use_feed and q < RB[R_PLAYERS]:
            cost += feed_cost(S, pp, p, pre_kind)
    for d in range(k):
        S[o + pile_kind(S, RB, q, d)] += 1
    if use_feed and q < RB[R_PLAYERS]:
        for d in range(k - pre):
            cost += feed_cost(S, pp, p, pile_kind(S, RB, p, d))
    if pre or k > 2:
        return after_discards(S, RB, pp, p, o, k - pre, danger, use_feed) - cost, d0, -1
    # k received cards and k discards; once the first of two discards is one of the received
    # cards, what is left is the hand plus the other one, which an earlier trade may have weighed.
    t = pile_kind(S, RB, q, 0)
    if k == 2:
        w, _ = worst_kind(S, RB, pp, p, o, danger, use_feed)
        S[o + w] -= 1
        d0 = w
        t1 = pile_kind(S, RB, q, 1)
        t = t1 if w == t else (t if w == t1 else -1)
    if t >= 0 and not np.isnan(plus_one[0, t]):
        w = int(plus_one[1, t])
        v = plus_one[0, t]
    else:
        w, v = worst_kind(S, RB, pp, p, o, danger, use_feed)
        if t >= 0:
            plus_one[0, t] = v
            plus_one[1, t] = w
    if k == 1:
        return v - cost, w, -1
    return v - cost, d0, w


@njit_no_refcount
def plan_discards(S, RB, p, q, k, pre, danger, d0, d1):
    """Remember the discards a chosen k-card trade with pile q was weighed with (see layout.py):
    the pre-discard d0, or the discards d0 (and d1) after the trade."""
    S[PLAN_SEAT] = 0
    if d0 < 0:
        return
    copy_hand(S, p, PLAN_KC)
    n = 1 if pre else k
    if not pre:
        for d in range(k):
            S[PLAN_KC + pile_kind(S, RB, q, d)] += 1
    S[PLAN_N] = n
    S[PLAN_KIND + 2 - n] = d0
    if n == 2:
        S[PLAN_KIND + 1] = d1
    S[PLAN_DANGER] = danger
    S[PLAN_SEAT] = p + 1


@njit_no_refcount
def planned_discard(S, p, danger):
    """The next planned kind to discard when p's hand is the one it was planned for, else -1."""
    n = S[PLAN_N]
    if S[PLAN_SEAT] != p + 1 or n == 0 or S[PLAN_DANGER] != danger:
        return -1
    for k in range(NK):
        if S[PLAN_KC + k] != S[KC + p * NK + k]:
            S[PLAN_SEAT] = 0
            return -1
    w = S[PLAN_KIND + 2 - n]
    S[PLAN_KC + w] -= 1
    S[PLAN_N] = n - 1
    return w


@njit_no_refcount
def same_trade_earlier(S, RB, p, q, k, pre, depth):
    """Was a k-card trade with an earlier pile already weighed that `trade_value` must score the
    same: the same top k kinds, and both piles a seat's or both an imaginary player's?"""
    real = q < RB[R_PLAYERS]
    for q2 in range(q):
        if not trade_partner_ok(S, RB, p, q2) or (q2 < RB[R_PLAYERS]) != real:
            continue
        if k > min(depth, max_k(S, RB, p, q2, pre)):
            continue
        same = True
        for d in range(k):
            if pile_kind(S, RB, q2, d) != pile_kind(S, RB, q, d):
                same = False
                break
        if same:
            return True
    return False


@njit_no_refcount
def choose_move(pk, pp, p, S, RB, rng, W, big):
    """The turn's move: (MV_*, pile, cards, pre-discard); -1 when there is none. W: a float
    work array [2, NK] (`plus_one`, see trade_value)."""
    if pk == RANDOM:
        return random_move(S, RB, p, rng, big)
    danger = (pk == CAUTIOUS or pk == SMART) and danger_now(S, RB, pp, p)
    use_feed = pk == TRADER or pk == SMART
    depth = int(pp[P_DEPTH]) if use_feed else 1
    best = -1e18
    mv, bq, bk, bpre = -1, 0, 0, 0
    W[:] = np.nan
    if not big and S[DRAW_N] > 0:
        best = draw_value(S, RB, pp, p, pk, danger)
        mv = MV_DRAW
    n_piles = RB[R_PLAYERS] if big else RB[R_N_PILES]
    pre_max = 1 if (RB[R_PRE_DISCARD] and not big) else 0
    best_d0 = best_d1 = -1
    pre_kind = -1
    for q in range(n_piles):
        if not trade_partner_ok(S, RB, p, q):
            continue
        for pre in range(pre_max + 1):
            for k in range(1, min(depth, max_k(S, RB, p, q, pre)) + 1):
                if pre and k <= S[PILE_N + p]:
                    continue  # discard first only when the pile is too short (halves the search; no measurable loss)
                if same_trade_earlier(S, RB, p, q, k, pre, depth):
                    continue  # scores exactly what an earlier pile scored, and ties keep the first
                if pre and pre_kind < 0:
                    # The card to discard first is the same for every pile and k: find it once.
                    copy_hand(S, p, SCRATCH)
                    pre_kind, _ = worst_kind(S, RB, pp, p, SCRATCH, danger, use_feed)
                v, d0, d1 = trade_value(S, RB, pp, p, q, k, pre, danger, use_feed, W, pre_kind)
                if v > best:
                    best = v
                    mv, bq, bk, bpre = MV_TRADE, q, k, pre
                    best_d0, best_d1 = d0, d1
    if RB[R_DUMMY_MODE] == 1 and not big:
        dummy = RB[R_PLAYERS]
        if S[PILE_N + dummy] > 0:
            for q in range(RB[R_PLAYERS]):
                if q == p or S[PILE_N + q] == 0:
                    continue
                o = SCRATCH
                copy_hand(S, p, o)
                S[o + pile_kind(S, RB, q, 0)] += 1
                v = after_discards(S, RB, pp, p, o, 1, danger, use_feed)
                # Smart breaks a tie with the one-card trade with q, which takes the same card, for
                # the swap: it hands q none of its cards (docs/cardgame.md, found by the search).
                if v > best or (v == best and pk == SMART and mv == MV_TRADE and bq == q and bk == 1):
                    best = v
                    mv, bq, bk, bpre = MV_SWAP3, q, 1, 0
            if S[DRAW_N] > 0 and S[PILE_N + p] >= 2:
                # The draw is blind: value the dummy's top card plus the flat draw guess.
                o = SCRATCH
                copy_hand(S, p, o)
                S[o + pile_kind(S, RB, dummy, 0)] += 1
                v = after_discards(S, RB, pp, p, o, 1, danger, use_feed) + pp[P_DRAW] * 100.0
                if v > best:
                    best = v
                    mv, bq, bk, bpre = MV_DOUBLE3, dummy, 2, 0
    if mv < 0 and big:
        return random_move(S, RB, p, rng, big)
    if mv == MV_TRADE:
        plan_discards(S, RB, p, bq, bk, bpre, danger, best_d0, best_d1)
    else:
        S[PLAN_SEAT] = 0
    return mv, bq, bk, bpre


@njit_no_refcount
def choose_discard(pk, pp, p, S, RB, rng):
    """Index in p's hand of the card to discard (or pass)."""
    n = S[HAND_N + p]
    if pk == RANDOM:
        return randint(rng, rng_policy(p), n)
    danger = (pk == CAUTIOUS or pk == SMART) and danger_now(S, RB, pp, p)
    use_feed = pk == TRADER or pk == SMART
    k = planned_discard(S, p, danger)
    if k < 0:
        o = SCRATCH
        copy_hand(S, p, o)
        k, _ = worst_kind(S, RB, pp, p, o, danger, use_feed)
    for i in range(n):
        if RB[R_KIND + S[HAND_ + p * MAX_CARDS + i]] == k:
            return i
    return 0


@njit_no_refcount
def want_go_out(pk, pp, p, S, RB, rng):
    """Go out now (the hand is complete)? Random: with chance p_go; smart: once the hand is
    worth wait_min or someone looks close; the others: always."""
    if pk == RANDOM:
        return uniform(rng, rng_policy(p)) < pp[P_GO]
    if pk != SMART:
        return True
    if danger_now(S, RB, pp, p):
        return True
    o = SCRATCH2
    copy_hand(S, p, o)
    return hand_score(S, o, RB, True, S[PARTS:PARTS + 4]) >= pp[P_WAIT] * 100.0
