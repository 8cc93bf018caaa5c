"""Reading a classic Monopoly position: rents, monopolies, what may be built, sold or
mortgaged, and what a player is worth. Compiled helpers shared by the kernel and the policies
(both import this module, which imports neither)."""

from sim.classic.layout import (
    CASH,
    G_EPOCH,
    G_HOTELS,
    G_HOUSES,
    G_ROUND,
    GOOJF,
    GOWN,
    HOTEL,
    JAIL,
    LEVEL,
    MAX_DEEDS,
    MAX_GROUP,
    MORT,
    N_GROUPS,
    N_LEVELS,
    N_SQ,
    OWNER,
    P_BOARD,
    R_EVEN_BUILD,
    R_GROUP_SIZE,
    R_GROUP_SQ,
    R_GROUP_STREETS,
    R_INTEREST_PCT,
    R_MONO_MULT,
    R_RENT_IN_JAIL,
    R_RR_RENT,
    R_SELL_PCT,
    R_SQ_GROUP,
    R_SQ_HOUSE,
    R_SQ_KIND,
    R_SQ_MORTGAGE,
    R_SQ_PRICE,
    R_SQ_RENT,
    R_UTIL_MULT,
    TR_CASH,
    TR_GET,
    TR_GIVE,
    TR_JAIL_GET,
    TR_JAIL_GIVE,
    TR_N_GET,
    TR_N_GIVE,
    WHOLE_N,
)
from sim.core.jit import njit_inline, njit_no_refcount, trailing_zeros

# square kinds (same codes as sim/classic/rules.py, which this module must not import)
K_GO, K_STREET, K_RAILROAD, K_UTILITY, K_CHANCE, K_CHEST, K_TAX, K_JAIL, K_FREE_PARKING, K_GO_TO_JAIL = range(10)


@njit_no_refcount
def is_deed(S, sq):
    k = S[R_SQ_KIND + sq]
    return k == K_STREET or k == K_RAILROAD or k == K_UTILITY


@njit_no_refcount
def group_sq(S, g, k):
    return S[R_GROUP_SQ + g * MAX_GROUP + k]


@njit_no_refcount
def has_group(S, p, g):
    """p holds every deed of group g."""
    return S[GOWN + p * N_GROUPS + g] == S[R_GROUP_SIZE + g]


@njit_no_refcount
def group_buildings(S, g):
    """Total building levels on group g (a hotel counts 5)."""
    n = 0
    for k in range(S[R_GROUP_SIZE + g]):
        n += S[LEVEL + group_sq(S, g, k)]
    return n


@njit_no_refcount
def group_mortgaged(S, g):
    for k in range(S[R_GROUP_SIZE + g]):
        if S[MORT + group_sq(S, g, k)] == 1:
            return True
    return False


@njit_inline
def group_min_max(S, g):
    lo = HOTEL
    hi = 0
    for k in range(S[R_GROUP_SIZE + g]):
        lv = S[LEVEL + group_sq(S, g, k)]
        lo = min(lo, lv)
        hi = max(hi, lv)
    return lo, hi


@njit_inline
def deed_mask(S, p, mort):
    """Bit sq set for each deed p holds with MORT == mort (1: mortgaged, 0: not). Built without
    branches: a scan of the board that tests each square mispredicts at p's deeds."""
    m = 0
    for sq in range(N_SQ):
        m |= int((S[OWNER + sq] == p) & (S[MORT + sq] == mort)) << sq
    return m


@njit_inline
def whole_mask(S, p):
    """Bit g set for each colour group (one that takes buildings) p holds whole, built without
    branches (see deed_mask); visited by its set bits, in group order."""
    m = 0
    for g in range(N_GROUPS):
        m |= int((S[GOWN + p * N_GROUPS + g] == S[R_GROUP_SIZE + g]) & (S[R_GROUP_STREETS + g] == 1)) << g
    return m


@njit_inline
def owned_mask(S, p):
    """Bit sq set for each deed p holds, built without branches (see deed_mask)."""
    m = 0
    for sq in range(N_SQ):
        m |= int(S[OWNER + sq] == p) << sq
    return m


@njit_no_refcount
def rent(S, sq, dice):
    """Rent due for landing on deed sq with a roll totalling `dice` (no card multipliers).
    0 when unowned or mortgaged, or when the owner is in jail under the no-rent house rule."""
    o = S[OWNER + sq]
    if o < 0 or S[MORT + sq] == 1:
        return 0
    if S[R_RENT_IN_JAIL] == 0 and S[JAIL + o] > 0:
        return 0
    kind = S[R_SQ_KIND + sq]
    g = S[R_SQ_GROUP + sq]
    n_own = S[GOWN + o * N_GROUPS + g]
    if kind == K_STREET:
        lv = S[LEVEL + sq]
        r = S[R_SQ_RENT + sq * N_LEVELS + lv]
        if lv == 0 and n_own == S[R_GROUP_SIZE + g]:
            r *= S[R_MONO_MULT]
        return r
    if kind == K_RAILROAD:
        return S[R_RR_RENT + n_own - 1]
    return S[R_UTIL_MULT + n_own - 1] * dice


@njit_no_refcount
def can_build(S, p, sq, need_cash):
    """p may add one level (a house, or a hotel on four houses) to street sq now. Checks the
    bank's supply, and p's cash if need_cash."""
    if S[R_SQ_KIND + sq] != K_STREET or S[OWNER + sq] != p:
        return False
    g = S[R_SQ_GROUP + sq]
    if not has_group(S, p, g) or group_mortgaged(S, g):
        return False
    lo, hi = group_min_max(S, g)
    return can_build_on_group(S, p, sq, lo, need_cash)


@njit_no_refcount
def can_build_on_group(S, p, sq, lo, need_cash):
    """can_build for a street of a group p holds whole without mortgages, whose lowest level
    `lo` the caller computed once for the whole group."""
    lv = S[LEVEL + sq]
    if lv >= HOTEL:
        return False
    if S[R_EVEN_BUILD] == 1 and lv != lo:
        return False
    if lv == HOTEL - 1:
        if S[G_HOTELS] <= 0:
            return False
    elif S[G_HOUSES] <= 0:
        return False
    return not need_cash or S[CASH + p] >= S[R_SQ_HOUSE + sq]


@njit_no_refcount
def can_sell(S, p, sq):
    """p may sell one level (a house, or break a hotel) from street sq now."""
    if S[OWNER + sq] != p or S[LEVEL + sq] == 0:
        return False
    if S[R_EVEN_BUILD] == 1:
        lo, hi = group_min_max(S, S[R_SQ_GROUP + sq])
        return S[LEVEL + sq] == hi
    return True


@njit_no_refcount
def can_mortgage(S, p, sq):
    if S[OWNER + sq] != p or S[MORT + sq] == 1:
        return False
    g = S[R_SQ_GROUP + sq]
    return S[R_GROUP_STREETS + g] == 0 or group_buildings(S, g) == 0


@njit_no_refcount
def unmortgage_cost(S, sq):
    m = S[R_SQ_MORTGAGE + sq]
    return m + interest(S, sq)


@njit_no_refcount
def interest(S, sq):
    """Interest on the mortgage of sq, rounded up to whole dollars."""
    return (S[R_SQ_MORTGAGE + sq] * S[R_INTEREST_PCT] + 99) // 100


@njit_no_refcount
def sell_value(S, sq, levels):
    """What the bank pays for `levels` building levels of street sq."""
    return levels * S[R_SQ_HOUSE + sq] * S[R_SELL_PCT] // 100


@njit_no_refcount
def liquid_value(S, p):
    """The most cash p can raise from the bank: cash, buildings sold back, deeds mortgaged."""
    v = S[CASH + p]
    m = owned_mask(S, p)
    while m != 0:
        sq = trailing_zeros(m)
        m &= m - 1
        v += sell_value(S, sq, S[LEVEL + sq])
        if S[MORT + sq] == 0:
            v += S[R_SQ_MORTGAGE + sq]
    return v


@njit_no_refcount
def net_worth(S, p):
    """Cash + deeds at printed price (less the mortgage for a mortgaged deed) + buildings at
    cost. The turn limit's winner is the player with the most."""
    v = S[CASH + p]
    for sq in range(N_SQ):
        if S[OWNER + sq] == p:
            v += S[R_SQ_PRICE + sq] + S[LEVEL + sq] * S[R_SQ_HOUSE + sq]
            if S[MORT + sq] == 1:
                v -= S[R_SQ_MORTGAGE + sq]
    return v


@njit_no_refcount
def tax_worth(S, p):
    """Worth for the old 10% Income Tax: cash + deeds at printed price (mortgaged or not) +
    buildings at cost."""
    v = S[CASH + p]
    for sq in range(N_SQ):
        if S[OWNER + sq] == p:
            v += S[R_SQ_PRICE + sq] + S[LEVEL + sq] * S[R_SQ_HOUSE + sq]
    return v


@njit_no_refcount
def trade_interest(S, receiver_gets_give):
    """Interest due on the mortgaged deeds one side receives (TR_GIVE if receiver_gets_give)."""
    total = 0
    if receiver_gets_give:
        for k in range(S[TR_N_GIVE]):
            sq = S[TR_GIVE + k]
            if S[MORT + sq] == 1:
                total += interest(S, sq)
    else:
        for k in range(S[TR_N_GET]):
            sq = S[TR_GET + k]
            if S[MORT + sq] == 1:
                total += interest(S, sq)
    return total


@njit_no_refcount
def deed_tradable(S, sq, owner):
    if sq < 0 or sq >= N_SQ or not is_deed(S, sq) or S[OWNER + sq] != owner:
        return False
    g = S[R_SQ_GROUP + sq]
    if S[R_GROUP_STREETS + g] == 1:
        for k in range(S[R_GROUP_SIZE + g]):
            if S[LEVEL + group_sq(S, g, k)] > 0:
                return False
    return True


@njit_no_refcount
def trade_legal(S, p, q):
    """The offer in the scratch is a legal trade from p to q: p gives TR_GIVE, TR_JAIL_GIVE
    jail cards and TR_CASH dollars (q pays if negative) for TR_GET and TR_JAIL_GET. Deeds
    belong to the giver and no building stands on their groups; both sides can pay the cash
    and the interest on mortgaged deeds received; each side gives something (no gifts)."""
    ng = S[TR_N_GIVE]
    nr = S[TR_N_GET]
    if ng < 0 or nr < 0 or ng > MAX_DEEDS or nr > MAX_DEEDS:
        return False
    for k in range(ng):
        if not deed_tradable(S, S[TR_GIVE + k], p):
            return False
        for j in range(k):
            if S[TR_GIVE + j] == S[TR_GIVE + k]:
                return False
    for k in range(nr):
        if not deed_tradable(S, S[TR_GET + k], q):
            return False
        for j in range(k):
            if S[TR_GET + j] == S[TR_GET + k]:
                return False
    jg = S[TR_JAIL_GIVE]
    jr = S[TR_JAIL_GET]
    if jg < 0 or jr < 0 or jg > S[GOOJF + 2 * p] + S[GOOJF + 2 * p + 1]:
        return False
    if jr > S[GOOJF + 2 * q] + S[GOOJF + 2 * q + 1]:
        return False
    cash = S[TR_CASH]
    if S[CASH + p] - cash - trade_interest(S, False) < 0:
        return False
    if S[CASH + q] + cash - trade_interest(S, True) < 0:
        return False
    gives = ng + jg + (1 if cash > 0 else 0)
    gets = nr + jr + (1 if cash < 0 else 0)
    return gives > 0 and gets > 0


@njit_no_refcount
def trade_mark(S):
    """Trade memory stamp: changes when a deed changes hands, and every 8 rounds. A player
    offers a partner at most one trade per stamp, so refused offers are repeated at most every
    8 rounds while nothing changes hands."""
    return S[G_EPOCH] * 64 + (S[G_ROUND] // 8) % 64 + 1


@njit_inline
def cheapest_house(S, p):
    """The lowest house price on the colour groups p holds whole (0 when none)."""
    best = 0
    if S[WHOLE_N + p] == 0:
        return best
    m = whole_mask(S, p)
    while m != 0:
        g = trailing_zeros(m)
        m &= m - 1
        cost = S[R_SQ_HOUSE + group_sq(S, g, 0)]
        if best == 0 or cost < best:
            best = cost
    return best


@njit_no_refcount
def management_key(S, p):
    """What p's building and lifting choices depend on besides cash and the rents it faces:
    its own deeds, buildings and mortgages, and whether the bank has houses and hotels."""
    return S[P_BOARD + p] * 4 + (S[G_HOUSES] > 0) + 2 * (S[G_HOTELS] > 0)
