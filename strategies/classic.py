"""Bot policies for classic Monopoly.

A policy is a kind (an integer) plus a float64 parameter vector (slots in PARAMS). The kernel
(sim/classic/kernel.py) calls the @njit decision functions below at every decision point, so
one compiled kernel serves every policy and parameter value. They read the game through the
game buffer ``S`` (rules, then state; offsets in sim/classic/layout.py); ``S[R_KIND + p]`` is
seat p's kind, ``pp[p]`` its parameters, ``pt`` a float table (the long-run landing frequency of
each square, from the exact Markov chain; the strong bot uses it). Random choices use seat p's
own stream, so changing one seat's bot never shifts another seat's luck.

Decisions: buy or pass (and whether to mortgage to buy); the most to bid in an auction (for a
deed, a deed another player sells or, in a shortage, a house); leave jail or stay; what to
build next (or stop), keeping a reserve; what to sell to other players, mortgage or sell back
to raise cash; what to unmortgage; whether to lift a mortgage on a deed just received; which
trade to propose, and whether to accept, reject or counter one.

The kernel checks every answer; an illegal one stops the game with a status code.
"""

from __future__ import annotations

import numpy as np

from sim.classic.board import (
    K_RAILROAD,
    K_STREET,
    can_build,
    can_build_on_group,
    can_mortgage,
    can_sell,
    cheapest_house,
    deed_mask,
    deed_tradable,
    group_buildings,
    group_min_max,
    group_mortgaged,
    group_sq,
    has_group,
    interest,
    trade_legal,
    trade_mark,
    unmortgage_cost,
    whole_mask,
)
from sim.classic.layout import (
    ALIVE,
    BANK_N,
    CASH,
    G_ALIVE_N,
    G_HOUSES,
    GOOJF,
    GOWN,
    HOTEL,
    LEVEL,
    MAX_PLAYERS,
    MEMO_CASH,
    MEMO_EXACT,
    MEMO_RENT,
    MORT,
    MORT_N,
    N_GROUPS,
    N_LEVELS,
    N_SQ,
    OWNER,
    P_BOARD,
    R_EVEN_BUILD,
    R_GROUP_SIZE,
    R_GROUP_STREETS,
    R_JAIL_FINE,
    R_KIND,
    R_PLAYERS,
    R_RR_RENT,
    R_SQ_GROUP,
    R_SQ_HOUSE,
    R_SQ_KIND,
    R_SQ_MORTGAGE,
    R_SQ_PRICE,
    R_SQ_RENT,
    R_UTIL_MULT,
    RENT_BOARD,
    RENT_MAX,
    TR_CASH,
    TR_GET,
    TR_GIVE,
    TR_JAIL_GET,
    TR_JAIL_GIVE,
    TR_N_GET,
    TR_N_GIVE,
    TRADE_STAMP,
    WHOLE_N,
    rng_policy,
)
from sim.core.jit import njit_inline, njit_no_refcount, trailing_zeros
from sim.core.rng import randint, uniform
from strategies.catalog import Catalog, Kind, Param, PolicyError  # noqa: F401 (PolicyError: re-exported)

RANDOM, BUY_ALL, THREE_HOUSES, JAIL_STAYER, TRADER, STRONG = range(6)
N_PARAMS = 13

# name -> Param(slot, low, high, meaning)
PARAMS = {
    "reserve": Param(0, 0.0, 5000.0, "cash kept back when buying, bidding and building"),
    "build_to": Param(1, 0.0, 5.0, "houses put on every monopoly before any goes further (5 = hotel)"),
    "bid": Param(2, 0.0, 5.0, "the most to bid in an auction, as a multiple of the printed price"),
    "trade_share": Param(3, 0.0, 2.0, "share of a set's value paid on top of the price to complete it (0: never propose)"),
    "danger": Param(4, 0.0, 5.0, "share of a set's value demanded for handing an opponent a monopoly"),
    "late_unowned": Param(5, -1.0, 28.0, "stay in jail once at most this many deeds are unowned (-1: never)"),
    "late_houses": Param(6, 0.0, 200.0, "stay in jail once opponents have this many building levels"),
    "p": Param(7, 0.0, 1.0, "random: chance of saying yes to each buy, build and trade"),
    "set_value": Param(8, 0.0, 5.0, "a set's value: this times the sum of its 3-house rents"),
    "unmortgage": Param(9, 0.0, 1.0, "1: lift mortgages when cash allows"),
    "fund": Param(10, 0.0, 1.0, "1: mortgage deeds outside complete groups to build a monopoly up to build_to, "
                                "or to buy a deed that completes or blocks a set"),
    "sell": Param(11, 0.0, 1.0, "1: when short, sell deeds outside complete groups to other players at the "
                                "printed price rather than mortgage complete groups or sell houses"),
    "trade_players": Param(12, 2.0, 8.0, "with fewer players than this in the game, propose only swaps that complete "
                                         "a set for each side, and pay no cash for a set (at three players or more, "
                                         "except to a partner with no colour set)"),
}
_BASE = {"reserve": 150.0, "build_to": 3.0, "bid": 1.0, "trade_share": 0.0, "danger": 0.6,
         "late_unowned": -1.0, "late_houses": 200.0, "p": 0.5, "set_value": 0.5, "unmortgage": 1.0,
         "fund": 0.0, "sell": 0.0, "trade_players": 4.0}
# name -> (kind, parameter defaults, meaning)
KINDS = {
    "random": (RANDOM, {"reserve": 0.0}, "random legal play: buy, build, bid, trade at random"),
    "buy_all": (BUY_ALL, {"reserve": 0.0, "build_to": 5.0, "bid": 1.0},
                "buys everything it can afford, builds as far as cash allows, leaves jail at once"),
    "three_houses": (THREE_HOUSES, {"reserve": 200.0, "build_to": 3.0, "trade_share": 0.7},
                     "the classic player: three houses on every monopoly, then hotels, keeping a reserve"),
    "jail_stayer": (JAIL_STAYER, {"reserve": 200.0, "late_unowned": 6.0, "late_houses": 3.0, "trade_share": 0.7},
                    "three_houses, but stays in jail once the board is bought up or built on"),
    "trader": (TRADER, {"reserve": 150.0, "trade_share": 1.0, "danger": 0.5, "sell": 1.0},
               "three_houses, and trades to complete sets, paying cash for the missing deeds"),
    "strong": (STRONG, {"reserve": 150.0, "trade_share": 0.7, "danger": 0.0, "late_unowned": 8.0,
                        "late_houses": 3.0, "bid": 1.3, "fund": 1.0, "sell": 1.0},
               "the strongest heuristic: landing-odds build order, risk-sized reserve, swaps and "
               "cash trades for sets, jail stays late"),
}


CATALOG = Catalog(
    N_PARAMS, PARAMS, {name: Kind(code, doc, _BASE | overrides) for name, (code, overrides, doc) in KINDS.items()}, game="classic"
)
parse_policy = CATALOG.parse


# ---------------------------------------------------------------------------------------------
# Valuation helpers


@njit_no_refcount
def coin(pp, p, rng):
    return uniform(rng, rng_policy(p)) < pp[p, 7]


@njit_inline
def set_value(pp, p, S, g):
    """What holding the whole of group g is worth to seat p, beyond the printed prices."""
    if S[R_GROUP_STREETS + g] == 0:
        return 0.0
    v = 0.0
    for k in range(S[R_GROUP_SIZE + g]):
        v += S[R_SQ_RENT + group_sq(S, g, k) * N_LEVELS + 3]
    return pp[p, 8] * v


@njit_no_refcount
def deal_value(pp, p, S, g):
    """What holding the whole of group g is worth to seat p in a trade: set_value for a colour
    group; for railroads and utilities, set_value's multiple of the full set's rent (a utility
    roll counted as 7), which is what makes them worth collecting."""
    if S[R_GROUP_STREETS + g] == 1:
        return set_value(pp, p, S, g)
    size = S[R_GROUP_SIZE + g]
    if S[R_SQ_KIND + group_sq(S, g, 0)] == K_RAILROAD:
        return pp[p, 8] * size * S[R_RR_RENT + size - 1]
    return pp[p, 8] * size * 7 * S[R_UTIL_MULT + size - 1]


@njit_no_refcount
def completes_deal(S, p, sq):
    """Owning sq would give p the whole of its group (any group, railroads and utilities too)."""
    g = S[R_SQ_GROUP + sq]
    return S[GOWN + p * N_GROUPS + g] == S[R_GROUP_SIZE + g] - 1 and S[OWNER + sq] != p


@njit_no_refcount
def completes_for(S, p, sq):
    """Owning sq would give p the whole group (p holds every other deed of it)."""
    g = S[R_SQ_GROUP + sq]
    if S[R_GROUP_STREETS + g] == 0:
        return False
    return S[GOWN + p * N_GROUPS + g] == S[R_GROUP_SIZE + g] - 1 and S[OWNER + sq] != p


@njit_no_refcount
def blocks(S, p, sq):
    """Another player holds every other deed of sq's group."""
    g = S[R_SQ_GROUP + sq]
    if S[R_GROUP_STREETS + g] == 0:
        return False
    for q in range(S[R_PLAYERS]):
        if q != p and S[ALIVE + q] == 1 and S[GOWN + q * N_GROUPS + g] == S[R_GROUP_SIZE + g] - 1:
            return True
    return False


@njit_no_refcount
def opponent_levels(S, p):
    """Building levels standing on opponents' streets (a hotel counts 5)."""
    n = 0
    for sq in range(N_SQ):
        o = S[OWNER + sq]
        if o >= 0 and o != p:
            n += S[LEVEL + sq]
    return n


@njit_no_refcount
def max_rent_of(S, o):
    """The highest street rent o's streets charge now."""
    best = 0
    m = deed_mask(S, o, 0)
    while m != 0:  # o's unmortgaged deeds
        sq = trailing_zeros(m)
        m &= m - 1
        if S[R_SQ_KIND + sq] == K_STREET:
            g = S[R_SQ_GROUP + sq]
            lv = S[LEVEL + sq]
            r = S[R_SQ_RENT + sq * N_LEVELS + lv]
            if lv == 0 and S[GOWN + o * N_GROUPS + g] == S[R_GROUP_SIZE + g]:
                r *= 2
            best = max(best, r)
    return best


@njit_no_refcount
def max_opponent_rent(S, p):
    """The highest street rent an opponent's square charges now (the strong bot's reserve asks
    for it at every decision). Each owner's highest is remembered under its P_BOARD counter,
    which moves with its deeds, buildings and mortgages (kernel.check_invariants rescans)."""
    best = 0
    for q in range(S[R_PLAYERS]):
        if q != p:
            if S[RENT_BOARD + q] != S[P_BOARD + q]:
                S[RENT_MAX + q] = max_rent_of(S, q)
                S[RENT_BOARD + q] = S[P_BOARD + q]
            best = max(best, S[RENT_MAX + q])
    return best


@njit_no_refcount
def reserve(pp, p, S):
    """Cash seat p keeps back when buying, bidding or lifting a mortgage. The strong bot sizes it
    to the rents it may meet."""
    r = pp[p, 0]
    if S[R_KIND + p] == STRONG:
        r = max(r, 0.5 * max_opponent_rent(S, p))
    return r


@njit_no_refcount
def build_reserve(pp, p):
    """Cash seat p keeps back when building, and when mortgaging to build: the flat `reserve`,
    for every bot. Sized to the rents, as strong's `reserve` is, it held back houses that earn
    more than the rents they leave the bot exposed to."""
    return pp[p, 0]


@njit_no_refcount
def unowned_deeds(S):
    """Deeds the bank still holds."""
    n = 0
    for g in range(N_GROUPS):
        n += S[BANK_N + g]
    return n


# ---------------------------------------------------------------------------------------------
# Buying and bidding


@njit_no_refcount
def want_buy(pp, pt, p, S, rng, sq):
    """Buy deed sq at its printed price (the kernel has checked p can pay)?"""
    kind = S[R_KIND + p]
    price = S[R_SQ_PRICE + sq]
    cash = S[CASH + p]
    if kind == RANDOM:
        return coin(pp, p, rng)
    if kind == BUY_ALL:
        return True
    if completes_for(S, p, sq) or blocks(S, p, sq):
        return True
    return cash - price >= reserve(pp, p, S)


@njit_no_refcount
def max_bid(pp, pt, q, S, rng, sq):
    """The most seat q will pay for deed sq in an auction (the kernel caps it at q's cash)."""
    kind = S[R_KIND + q]
    price = S[R_SQ_PRICE + sq]
    cash = S[CASH + q]
    if kind == RANDOM:
        return int(uniform(rng, rng_policy(q)) * 2.0 * price)
    if kind == BUY_ALL:
        return min(cash, price)
    v = pp[q, 2] * price
    g = S[R_SQ_GROUP + sq]
    if completes_for(S, q, sq):
        v += 0.5 * set_value(pp, q, S, g)
    elif blocks(S, q, sq):
        v += 0.25 * set_value(pp, q, S, g)
    room = cash - 0.5 * reserve(pp, q, S)
    return int(max(0.0, min(v, room)))


@njit_no_refcount
def house_bid(pp, pt, q, S, rng, sq):
    """The most seat q pays for one scarce house to put on street sq (shortage auction)."""
    cost = S[R_SQ_HOUSE + sq]
    if S[R_KIND + q] == RANDOM:
        return int(cost * (1.0 + uniform(rng, rng_policy(q))))
    room = S[CASH + q] - reserve(pp, q, S)
    return int(max(0.0, min(2.0 * cost, room)))


# ---------------------------------------------------------------------------------------------
# Jail


JAIL_ROLL, JAIL_PAY, JAIL_CARD = range(3)


@njit_no_refcount
def jail_choice(pp, pt, p, S, rng):
    """JAIL_ROLL (try for doubles), JAIL_PAY (pay the fine) or JAIL_CARD (use a card)."""
    has_card = S[GOOJF + 2 * p] + S[GOOJF + 2 * p + 1] > 0
    can_pay = S[CASH + p] >= S[R_JAIL_FINE]
    kind = S[R_KIND + p]
    if kind == RANDOM:
        r = randint(rng, rng_policy(p), 3)
        if r == JAIL_CARD and has_card:
            return JAIL_CARD
        if r == JAIL_PAY and can_pay:
            return JAIL_PAY
        return JAIL_ROLL
    late = unowned_deeds(S) <= pp[p, 5] or opponent_levels(S, p) >= pp[p, 6]
    if late:
        return JAIL_ROLL
    if has_card:
        return JAIL_CARD
    if can_pay:
        return JAIL_PAY
    return JAIL_ROLL


# ---------------------------------------------------------------------------------------------
# Building


@njit_no_refcount
def build_gain(S, pt, sq, lv):
    """Extra rent per opponent roll from adding a level to sq, per dollar."""
    gain = S[R_SQ_RENT + sq * N_LEVELS + lv + 1] - S[R_SQ_RENT + sq * N_LEVELS + lv]
    if lv == 0:
        gain = S[R_SQ_RENT + sq * N_LEVELS + 1] - 2 * S[R_SQ_RENT + sq * N_LEVELS]
    freq = pt[sq] if pt.shape[0] > sq else 0.025
    return gain * freq / S[R_SQ_HOUSE + sq]


@njit_no_refcount
def choose_build(pp, pt, p, S, rng):
    """The street to add a level to next, or -1 to stop. Must be legal and affordable."""
    kind = S[R_KIND + p]
    cash = S[CASH + p]
    if kind == RANDOM:
        if not coin(pp, p, rng):
            return -1
        n = 0
        for sq in range(N_SQ):
            if can_build(S, p, sq, True):
                n += 1
        if n == 0:
            return -1
        k = randint(rng, rng_policy(p), n)
        for sq in range(N_SQ):
            if can_build(S, p, sq, True):
                if k == 0:
                    return sq
                k -= 1
        return -1
    cheapest = cheapest_house(S, p)
    if cheapest == 0 or cash < cheapest:
        return -1
    keep = build_reserve(pp, p)
    if cash - keep < cheapest:
        return -1
    limit = pp[p, 1]
    best = -1
    best_score = -1.0
    whole = whole_mask(S, p)
    while whole != 0:  # p's whole colour groups in order
        g = trailing_zeros(whole)
        whole &= whole - 1
        if group_mortgaged(S, g):
            continue
        lo, hi = group_min_max(S, g)
        for j in range(S[R_GROUP_SIZE + g]):
            sq = group_sq(S, g, j)
            if not can_build_on_group(S, p, sq, lo, True):
                continue
            if cash - S[R_SQ_HOUSE + sq] < keep:
                continue
            lv = S[LEVEL + sq]
            # below the build_to mark comes first; then the richest gain per dollar
            score = 0.0
            if lv < limit:
                score = 1000.0
            if kind == STRONG:
                score += build_gain(S, pt, sq, lv) * 1000.0
            else:
                score += S[R_SQ_HOUSE + sq] / 1000.0 + sq / 100000.0  # pricier groups first
            if score > best_score:
                best = sq
                best_score = score
    return best


# ---------------------------------------------------------------------------------------------
# Raising cash, mortgages


@njit_no_refcount
def choose_liquidation(pp, pt, p, S, rng, need):
    """To raise `need` more dollars: sq * 2 to sell one level at sq, sq * 2 + 1 to mortgage
    sq, -1 when nothing is left. Order: deeds outside complete groups (cheapest rent first),
    then deeds of complete unbuilt groups, then buildings of the cheapest group."""
    if S[R_KIND + p] == RANDOM:
        n = 0
        for sq in range(N_SQ):
            n += can_mortgage(S, p, sq) + can_sell(S, p, sq)
        if n > 0:
            k = randint(rng, rng_policy(p), n)
            for sq in range(N_SQ):
                if can_mortgage(S, p, sq):
                    if k == 0:
                        return sq * 2 + 1
                    k -= 1
                if can_sell(S, p, sq):
                    if k == 0:
                        return sq * 2
                    k -= 1
        return -1
    # One pass per group (what can_mortgage / can_sell would check per square); ties go to
    # the lower square, as a scan of the board in order would.
    best = -1
    best_sq = N_SQ
    best_score = 1 << 30
    even = S[R_EVEN_BUILD] == 1
    held = 0  # the groups p holds deeds of, found without branches
    for g in range(N_GROUPS):
        held |= int(S[GOWN + p * N_GROUPS + g] > 0) << g
    while held != 0:
        g = trailing_zeros(held)
        held &= held - 1
        size = S[R_GROUP_SIZE + g]
        streets = S[R_GROUP_STREETS + g] == 1
        built = 0
        hi = 0
        for k in range(size):
            lv = S[LEVEL + group_sq(S, g, k)]
            built += lv
            hi = max(hi, lv)
        whole = streets and S[GOWN + p * N_GROUPS + g] == size
        for k in range(size):
            sq = group_sq(S, g, k)
            if S[OWNER + sq] != p:
                continue
            lv = S[LEVEL + sq]
            score = -1
            code = -1
            if S[MORT + sq] == 0 and (not streets or built == 0):
                score = S[R_SQ_PRICE + sq] + (10000 if whole else 0)
                code = sq * 2 + 1
            elif lv > 0 and (lv == hi or not even):
                score = 100000 + S[R_SQ_HOUSE + sq] * 10 - lv
                code = sq * 2
            if code >= 0 and (score < best_score or (score == best_score and sq < best_sq)):
                best = code
                best_sq = sq
                best_score = score
    return best


@njit_no_refcount
def short_of_build_to(pp, p, S):
    """p holds a whole colour group without mortgages still below its build_to mark (a group
    with a mortgage cannot build: lifting it comes first)."""
    whole = whole_mask(S, p)
    while whole != 0:
        g = trailing_zeros(whole)
        whole &= whole - 1
        if group_mortgaged(S, g):
            continue
        for k in range(S[R_GROUP_SIZE + g]):
            sq = group_sq(S, g, k)
            if S[LEVEL + sq] < pp[p, 1]:
                return True
    return False


@njit_inline
def choose_funding(pp, pt, p, S, rng):
    """A deed to mortgage now to pay for houses, or -1. Bots with fund=1 mortgage the cheapest
    deed outside their complete groups while a complete group is below build_to and the cash
    (after the reserve) does not cover its next house."""
    if pp[p, 10] < 0.5 or S[R_KIND + p] == RANDOM:
        return -1
    need = funding_need(pp, p, S)
    if need == 0 or S[CASH + p] - build_reserve(pp, p) >= need:
        return -1
    return cheapest_funding_deed(S, p)


@njit_no_refcount
def funding_need(pp, p, S):
    """The price of the cheapest next house on p's whole colour groups (without mortgages)
    still below build_to, while the bank has houses; 0 when there is none."""
    need = 0
    if S[WHOLE_N + p] == 0:
        return need
    whole = whole_mask(S, p)
    while whole != 0:
        g = trailing_zeros(whole)
        whole &= whole - 1
        low = HOTEL
        mortgaged = False
        for k in range(S[R_GROUP_SIZE + g]):
            sq = group_sq(S, g, k)
            low = min(low, S[LEVEL + sq])
            mortgaged = mortgaged or S[MORT + sq] == 1
        if not mortgaged and low < pp[p, 1] and S[G_HOUSES] > 0:
            cost = S[R_SQ_HOUSE + group_sq(S, g, 0)]
            if need == 0 or cost < need:
                need = cost
    return need


@njit_no_refcount
def cheapest_funding_deed(S, p):
    """The cheapest deed p may mortgage outside its whole colour groups, or -1."""
    best = -1
    best_price = 1 << 30
    m = deed_mask(S, p, 0)
    while m != 0:  # p's unmortgaged deeds in board order
        sq = trailing_zeros(m)
        m &= m - 1
        if can_mortgage(S, p, sq):
            g = S[R_SQ_GROUP + sq]
            if S[R_GROUP_STREETS + g] == 1 and has_group(S, p, g):
                continue
            if S[R_SQ_PRICE + sq] < best_price:
                best = sq
                best_price = S[R_SQ_PRICE + sq]
    return best


@njit_no_refcount
def spare_mortgage_value(S, p):
    """What p raises by mortgaging every deed outside its complete colour groups (on groups
    without buildings): the deeds choose_liquidation mortgages first."""
    v = 0
    for g in range(N_GROUPS):
        mine = S[GOWN + p * N_GROUPS + g]
        if mine == 0:
            continue
        streets = S[R_GROUP_STREETS + g] == 1
        if streets and (mine == S[R_GROUP_SIZE + g] or group_buildings(S, g) > 0):
            continue
        for k in range(S[R_GROUP_SIZE + g]):
            sq = group_sq(S, g, k)
            if S[OWNER + sq] == p and S[MORT + sq] == 0:
                v += S[R_SQ_MORTGAGE + sq]
    return v


@njit_no_refcount
def fund_purchase(pp, pt, p, S, rng, sq):
    """p landed on deed sq and its cash is short of the price: mortgage deeds outside its
    complete groups to buy it? Bots with fund=1 do for a deed that completes or blocks a set
    when those mortgages cover the price."""
    if S[R_KIND + p] == RANDOM or pp[p, 10] < 0.5:
        return False
    if not (completes_for(S, p, sq) or blocks(S, p, sq)):
        return False
    return S[CASH + p] + spare_mortgage_value(S, p) >= S[R_SQ_PRICE + sq]


@njit_no_refcount
def covers_better(price, best_price, gap):
    """Choosing a deed to pay `gap` with: is one at `price` better than the best so far? The
    cheapest that covers the gap wins, else the dearest."""
    if price >= gap:
        return best_price < gap or price < best_price
    return best_price < gap and price > best_price


@njit_no_refcount
def choose_sale(pp, pt, p, S, rng, need):
    """A deed p offers the other players at its printed price to raise `need` dollars, or -1.
    Bots with sell=1 sell only when mortgaging the deeds outside their complete groups would
    not be enough (so a sale saves a monopoly or its houses), and only unmortgaged deeds
    outside complete groups that complete nobody's set: the cheapest that covers the need,
    else the dearest."""
    if S[R_KIND + p] == RANDOM or pp[p, 11] < 0.5 or need <= spare_mortgage_value(S, p):
        return -1
    best = -1
    best_price = 0
    for sq in range(N_SQ):
        if S[OWNER + sq] != p or S[MORT + sq] == 1 or not deed_tradable(S, sq, p):
            continue
        g = S[R_SQ_GROUP + sq]
        if has_group(S, p, g) or blocks(S, p, sq):
            continue
        price = S[R_SQ_PRICE + sq]
        if best < 0 or covers_better(price, best_price, need):
            best = sq
            best_price = price
    return best


@njit_inline
def choose_unmortgage(pp, pt, p, S, rng):
    """A mortgaged deed to lift now, or -1. Streets of p's own complete groups come first: a
    group with a mortgage cannot build. A bot that mortgages to build (fund=1) lifts other
    mortgages only once its buildable groups reach build_to."""
    if S[MORT_N + p] == 0 or pp[p, 9] < 0.5:
        return -1
    own_groups_only = pp[p, 10] >= 0.5 and short_of_build_to(pp, p, S)
    if S[R_KIND + p] == RANDOM and not coin(pp, p, rng):
        return -1
    room = S[CASH + p] - reserve(pp, p, S)
    best = -1
    best_score = -1.0
    m = deed_mask(S, p, 1)
    while m != 0:  # p's mortgaged deeds in board order
        sq = trailing_zeros(m)
        m &= m - 1
        g = S[R_SQ_GROUP + sq]
        if unmortgage_cost(S, sq) <= room and (has_group(S, p, g) or not own_groups_only):
            score = float(S[R_SQ_PRICE + sq])
            if has_group(S, p, g):
                score += 10000.0
            if score > best_score:
                best = sq
                best_score = score
    return best


@njit_no_refcount
def lift_received_mortgage(pp, pt, p, S, rng, sq):
    """Seat p has just received mortgaged deed sq (interest paid): lift the mortgage now?"""
    if S[R_KIND + p] == RANDOM:
        return coin(pp, p, rng) and S[CASH + p] >= S[R_SQ_MORTGAGE + sq]
    return S[CASH + p] - S[R_SQ_MORTGAGE + sq] >= reserve(pp, p, S) and pp[p, 9] >= 0.5


# ---------------------------------------------------------------------------------------------
# Trading


@njit_no_refcount
def main_holder(S, p, g):
    """The opponent holding most of the deeds of group g that p lacks, or -1 when p holds none
    or all of g, or some are still unowned. Ties go to the lower seat."""
    size = S[R_GROUP_SIZE + g]
    mine = S[GOWN + p * N_GROUPS + g]
    if mine == 0 or mine == size or S[BANK_N + g] > 0:
        return -1
    best = -1
    best_n = 0
    for q in range(S[R_PLAYERS]):
        if q == p:
            continue
        n = S[GOWN + q * N_GROUPS + g]
        if n > 0 and S[ALIVE + q] == 0:
            return -1
        if n > best_n:
            best = q
            best_n = n
    return best


@njit_no_refcount
def never_proposes(S, pp, p):
    """Seat p's bot never proposes a trade: a random bot, or one that pays no share of a set's
    value for it (trade_share 0)."""
    return S[R_KIND + p] == RANDOM or pp[p, 3] <= 0.0


@njit_no_refcount
def swaps_only(pp, p, q, S):
    """Seat p trades with q only by swapping two sets, paying no cash for a set: fewer players
    are in the game than p's trade_players, and the cash would go to the only opponent
    (heads-up) or to a partner with a colour set to build with (docs/classic.md)."""
    n = S[G_ALIVE_N]
    return n < pp[p, 12] and (n < 3 or S[WHOLE_N + q] > 0)


@njit_no_refcount
def builds_at_random(S, p):
    """choose_build draws random numbers for seat p's bot (a random bot), so asking it twice is
    not asking the same question twice."""
    return S[R_KIND + p] == RANDOM


@njit_inline
def propose_trade(pp, pt, p, S, rng):
    """Fill the trade scratch (TR_*) with an offer from p and return the partner, or -1.

    Only sets give a reason to trade: p asks the opponent holding most of the deeds it lacks in
    one group (a colour group, the railroads or the utilities) for all of them. When that
    completes the group, the offer is worth the set's value to p (deal_value); when other
    holders remain it is a step towards the set, worth less. p adds the deed that completes one
    of the partner's colour groups when it has one (a swap) and cash for the rest; when its
    cash is short it pays with up to two lone deeds (see spare_deed) and a jail card instead.
    With few players in the game (swaps_only) it offers only a swap that completes both
    groups, and no cash, unless the partner has no colour set to build with; the group is still
    chosen first (choosing among the groups a swap completes lost, docs/classic.md).
    p offers each partner at most once per change of the board (TRADE_STAMP), so refused offers
    are not repeated until something changes; and the partner gives up all its deeds of the
    group, so the number of holders of a group never grows by trading and deals cannot go
    round in circles."""
    if never_proposes(S, pp, p):
        return -1
    epoch_mark = trade_mark(S)
    best_g = -1
    best_q = -1
    best_v = 0.0
    # The groups main_holder can name a partner for (p holds some but not all, the bank none),
    # found without branches: tested one by one they mispredict, and most give nobody.
    cand = 0
    for g in range(N_GROUPS):
        mine = S[GOWN + p * N_GROUPS + g]
        cand |= int((mine > 0) & (mine < S[R_GROUP_SIZE + g]) & (S[BANK_N + g] == 0)) << g
    while cand != 0:  # in group order
        g = trailing_zeros(cand)
        cand &= cand - 1
        q = main_holder(S, p, g)
        if q < 0 or S[TRADE_STAMP + p * MAX_PLAYERS + q] == epoch_mark:
            continue
        v = deal_value(pp, p, S, g)
        if S[GOWN + p * N_GROUPS + g] + S[GOWN + q * N_GROUPS + g] < S[R_GROUP_SIZE + g]:
            v *= 0.3  # a step towards the set
        if v > best_v:
            best_v = v
            best_g = g
            best_q = q
    if best_g < 0:
        return -1
    g = best_g
    q = best_q
    keep = reserve(pp, p, S)
    S[TRADE_STAMP + p * MAX_PLAYERS + q] = epoch_mark
    S[TR_N_GIVE] = 0
    S[TR_N_GET] = 0
    S[TR_JAIL_GIVE] = 0
    S[TR_JAIL_GET] = 0
    price = 0
    cost = 0  # interest due on mortgaged deeds received
    for k in range(S[R_GROUP_SIZE + g]):
        sq = group_sq(S, g, k)
        if S[OWNER + sq] == q:
            S[TR_GET + S[TR_N_GET]] = sq
            S[TR_N_GET] += 1
            price += S[R_SQ_PRICE + sq]
            if S[MORT + sq] == 1:
                cost += interest(S, sq)
    # a swap: the deed of p that completes one of q's groups (groups without buildings)
    swap_value = 0.0
    for h in range(N_GROUPS):
        if h == g or S[R_GROUP_STREETS + h] == 0:
            continue
        if S[GOWN + q * N_GROUPS + h] != S[R_GROUP_SIZE + h] - 1 or group_buildings(S, h) > 0:
            continue
        sq_h = -1
        for k in range(S[R_GROUP_SIZE + h]):
            sq = group_sq(S, h, k)
            if S[OWNER + sq] != q:
                sq_h = sq
        if sq_h >= 0 and S[OWNER + sq_h] == p and S[MORT + sq_h] == 0:
            S[TR_GIVE] = sq_h
            S[TR_N_GIVE] = 1
            swap_value = S[R_SQ_PRICE + sq_h] + set_value(pp, p, S, h)
            break
    if swaps_only(pp, p, q, S):
        # only a swap of two sets, no cash (the partner's set is worth no more than p's: p
        # would have asked for it instead)
        if S[TR_N_GIVE] == 0 or S[GOWN + p * N_GROUPS + g] + S[TR_N_GET] < S[R_GROUP_SIZE + g]:
            return -1
        S[TR_CASH] = 0
        return q if trade_legal(S, p, q) else -1
    offer = price + 0.5 * pp[p, 3] * best_v - swap_value
    room = S[CASH + p] - cost - 0.5 * keep
    given = 0.0  # what the partner counts the lone deeds and jail card it receives as worth
    for _ in range(2):
        if room >= offer - given:
            break
        sq = spare_deed(S, p, q, g, offer - given - room)
        if sq < 0:
            break
        S[TR_GIVE + S[TR_N_GIVE]] = sq
        S[TR_N_GIVE] += 1
        given += S[R_SQ_PRICE + sq]
    if room < offer - given and S[GOOJF + 2 * p] + S[GOOJF + 2 * p + 1] > 0:
        S[TR_JAIL_GIVE] = 1
        given += S[R_JAIL_FINE]
    if S[TR_N_GIVE] + S[TR_JAIL_GIVE] == 0 and room < price:
        return -1  # cannot even pay the printed price
    S[TR_CASH] = int(max(0.0, min(offer - given, room)))
    if not trade_legal(S, p, q):
        return -1
    return q


@njit_no_refcount
def spare_deed(S, p, q, g, gap):
    """A deed p can add to an offer to q for group g instead of `gap` dollars, or -1: an
    unmortgaged deed of another group of which p holds only this one, on a group without
    buildings, that does not complete a set for q and is not in the offer yet. The cheapest
    that covers the gap, else the dearest."""
    best = -1
    best_price = 0
    # the groups other than g of which p holds one deed, found without branches
    lone = 0
    for h in range(N_GROUPS):
        lone |= int((S[GOWN + p * N_GROUPS + h] == 1) & (h != g)) << h
    while lone != 0:  # by group, not square: ties go to the lower square explicitly
        h = trailing_zeros(lone)
        lone &= lone - 1
        for j in range(S[R_GROUP_SIZE + h]):
            sq = group_sq(S, h, j)
            if S[OWNER + sq] != p or S[MORT + sq] == 1 or completes_deal(S, q, sq):
                continue
            if not deed_tradable(S, sq, p):
                continue
            dup = False
            for k in range(S[TR_N_GIVE]):
                dup = dup or S[TR_GIVE + k] == sq
            if dup:
                continue
            price = S[R_SQ_PRICE + sq]
            if best < 0 or covers_better(price, best_price, gap) or (price == best_price and sq < best):
                best = sq
                best_price = price
    return best


@njit_no_refcount
def trade_balance(pp, q, p, S):
    """How much better off seat q (the partner) is after the trade in the scratch, as q sees
    it: cash and deeds received minus deeds given, where handing p a complete group costs
    `danger` times its value and completing one of q's own groups is worth its value."""
    gain = float(S[TR_CASH])
    for k in range(S[TR_N_GIVE]):  # q receives these
        sq = S[TR_GIVE + k]
        gain += S[R_SQ_PRICE + sq]
        if S[MORT + sq] == 1:
            gain -= S[R_SQ_MORTGAGE + sq]
        if completes_deal(S, q, sq):
            gain += deal_value(pp, q, S, S[R_SQ_GROUP + sq])
    near = 0  # the groups q was one deed away from completing itself, counted once each
    for k in range(S[TR_N_GET]):  # q gives these
        sq = S[TR_GET + k]
        gain -= S[R_SQ_PRICE + sq]
        g = S[R_SQ_GROUP + sq]
        mine = S[GOWN + q * N_GROUPS + g]
        if mine >= S[R_GROUP_SIZE + g] - 1 and mine > S[GOWN + p * N_GROUPS + g] and not near >> g & 1:
            near |= 1 << g
            gain -= 0.5 * deal_value(pp, q, S, g)
        if S[MORT + sq] == 1:
            gain += S[R_SQ_MORTGAGE + sq]
    # does p end with a complete group it did not have?
    for k in range(S[TR_N_GET]):
        g = S[R_SQ_GROUP + S[TR_GET + k]]
        if has_group(S, p, g):
            continue
        n_after = S[GOWN + p * N_GROUPS + g]
        for j in range(S[TR_N_GET]):
            n_after += S[R_SQ_GROUP + S[TR_GET + j]] == g
        if n_after == S[R_GROUP_SIZE + g]:
            gain -= pp[q, 4] * deal_value(pp, q, S, g)
            break
    gain += float(S[R_JAIL_FINE]) * (S[TR_JAIL_GIVE] - S[TR_JAIL_GET])  # a card saves the fine
    return gain


@njit_no_refcount
def respond_trade(pp, pt, q, p, S, rng):
    """Seat q's answer to p's offer in the scratch: 0 accept, -1 reject, or c > 0: accept for
    c more dollars (a counter-offer p may take or leave)."""
    if S[R_KIND + q] == RANDOM:
        return 0 if coin(pp, q, rng) else -1
    gain = trade_balance(pp, q, p, S)
    if gain >= 0.0:
        return 0
    need = int(-gain) + 1
    need = (need + 9) // 10 * 10
    if S[CASH + p] - S[TR_CASH] < need:
        return -1
    return need


@njit_no_refcount
def accept_counter(pp, pt, p, q, S, rng, extra):
    """Proposer p takes q's counter (extra dollars on top of its offer)?"""
    if S[R_KIND + p] == RANDOM:
        return coin(pp, p, rng)
    if swaps_only(pp, p, q, S):
        return False  # it pays no cash for a set
    total = S[TR_CASH] + extra
    g = S[R_SQ_GROUP + S[TR_GET]]
    price = 0
    for k in range(S[TR_N_GET]):
        price += S[R_SQ_PRICE + S[TR_GET + k]]
    swap = float(S[R_JAIL_FINE] * S[TR_JAIL_GIVE])
    for k in range(S[TR_N_GIVE]):  # a deed completing q's set costs p that set's value too
        sq = S[TR_GIVE + k]
        swap += S[R_SQ_PRICE + sq]
        if completes_deal(S, q, sq):
            swap += deal_value(pp, p, S, S[R_SQ_GROUP + sq])
    v = deal_value(pp, p, S, g)
    if S[GOWN + p * N_GROUPS + g] + S[TR_N_GET] < S[R_GROUP_SIZE + g]:
        v *= 0.3
    limit = price + pp[p, 3] * v - swap
    room = S[CASH + p] - 0.5 * reserve(pp, p, S)
    return total <= limit and total <= room


@njit_no_refcount
def action_cash(pp, p, S):
    """The least cash with which seat p (a bot that does not mortgage to build) would lift a
    mortgage or build on the present board: the reserve plus the cheapest lift, or the build
    reserve plus the cheapest house it may put up (choose_unmortgage and choose_build act
    exactly when cash reaches it). 1 << 30 when nothing could be done with any cash."""
    keep = reserve(pp, p, S)
    least = float(1 << 30)
    if S[MORT_N + p] > 0 and pp[p, 9] >= 0.5:
        m = deed_mask(S, p, 1)
        while m != 0:
            sq = trailing_zeros(m)
            m &= m - 1
            least = min(least, keep + unmortgage_cost(S, sq))
    if S[WHOLE_N + p] == 0:  # no whole colour group: nothing to build
        return int(np.ceil(least))
    whole = whole_mask(S, p)
    while whole != 0:
        g = trailing_zeros(whole)
        whole &= whole - 1
        if not group_mortgaged(S, g):
            lo, hi = group_min_max(S, g)
            for j in range(S[R_GROUP_SIZE + g]):
                sq = group_sq(S, g, j)
                if can_build_on_group(S, p, sq, lo, False):
                    least = min(least, build_reserve(pp, p) + S[R_SQ_HOUSE + sq])
    return int(np.ceil(least))


@njit_inline
def note_settled(pp, p, S):
    """Seat p found nothing to lift or build: remember what else the answer depended on (the
    cash at which it would act or, for a bot that mortgages to build and could, its cash
    itself)."""
    if S[R_KIND + p] == RANDOM:
        return
    # A bot that mortgages to build decides differently with less cash, unless it has no group
    # to fund or no deed to mortgage for it: then, as any other bot, it acts from action_cash up.
    exact = pp[p, 10] >= 0.5 and funding_need(pp, p, S) > 0 and cheapest_funding_deed(S, p) >= 0
    S[MEMO_EXACT + p] = 1 if exact else 0
    S[MEMO_CASH + p] = S[CASH + p] if exact else action_cash(pp, p, S)
    S[MEMO_RENT + p] = max_opponent_rent(S, p) if S[R_KIND + p] == STRONG else 0


@njit_inline
def management_settled(pp, p, S):
    """Seat p found nothing to lift or build with its own deeds and the bank's supply as they
    are now (the kernel checked management_key): is the answer still nothing? Yes while its
    cash stays below the cash at which it would act; a bot that mortgages to build (fund=1)
    and could do so now decides differently with less cash too, so only while its cash is the
    same (MEMO_EXACT). The strong bot's reserve follows the highest rent it faces, so that
    must not have changed either. Random bots are always asked again."""
    if S[R_KIND + p] == RANDOM:
        return False
    if S[R_KIND + p] == STRONG and max_opponent_rent(S, p) != S[MEMO_RENT + p]:
        return False
    cash = S[CASH + p]
    if S[MEMO_EXACT + p] == 1:
        return cash == S[MEMO_CASH + p]
    return cash < S[MEMO_CASH + p]
