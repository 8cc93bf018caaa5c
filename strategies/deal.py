"""Bot policies for Monopoly Deal.

A policy is a kind (an integer) plus a float64 parameter vector, as for Monopoly Chance: one
compiled kernel serves every policy and parameter value, and a tuner can search the
parameters. The kernel (sim/deal/kernel.py) calls the @njit decision functions below and
checks every answer for legality; they read the table and the rules through ``S`` (offsets in
sim/deal/layout.py, questions in sim/deal/board.py). Random choices use the seat's own stream.

Decisions: which card to play next and how (bank, collection with a colour, action with its
colour / target / card / number of Double the Rent cards), when to stop; the colour of a
received wild; where wilds stand (rearranged on your own turn); whether to answer with Just
Say No (defending, or countering one); what to pay with; what to discard over the hand limit.

Every heuristic bot scores each legal play in "M-equivalents" and plays the best one while it
scores above zero; the kinds differ in their default weights (see KINDS and PARAMS, and
docs/deal.md), and ``smart`` also weighs how close each opponent is to winning.
"""

from __future__ import annotations

from sim.core.jit import njit_inline, njit_no_refcount, trailing_zeros
from sim.core.rng import randint, uniform
from sim.deal.board import (
    base_rent,
    can_build,
    can_place,
    can_take,
    completes_after_swap,
    complete_mask,
    ctype,
    cvalue,
    held_mask,
    is_complete,
    list_collection,
    n_complete,
    payable,
    rent_of,
    seat_after,
)
from sim.deal.layout import (
    M_ACTION,
    M_BANK,
    M_PLACE,
    BANK_VAL,
    BUILDING,
    COLL_VER,
    G_PLAYS_LEFT,
    GROUP,
    GRP,
    GRP_N,
    GRP_ORD,
    GRP_VER,
    HAND_,
    HAND_N,
    HOTEL,
    HOUSE,
    LOOSE,
    MAX_GROUP,
    MAX_HAND,
    MEMO_KINDS,
    NC,
    NEAR_WIN_VER,
    NG,
    ORD_MASK,
    PLACE_MEMO_COLOUR,
    PLACE_MEMO_GAIN,
    PLACE_MEMO_VER,
    R_BIRTHDAY,
    R_CARD_C1,
    R_CARD_C2,
    R_CARD_KIND,
    R_DEBT,
    R_FORCED_FROM_FULL,
    R_HOTEL_RENT,
    R_HOUSE_RENT,
    R_KIND,
    R_MAX_DOUBLES,
    R_NEEDS_PROPERTY,
    R_PAY_BUILDINGS,
    R_PLAYERS,
    R_PLAYS,
    R_SET_SIZE,
    R_SETS_TO_WIN,
    SCRATCH,
    SCRATCH2,
    SCRATCH3,
    SCRATCH4,
    SCRATCH5,
    STEAL_MEMO,
    STEAL_MEMO_SIZE,
    WHERE,
    WILD_MASK,
    load_float,
    rng_policy,
    store_float,
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
    MONEY,
    PASS_GO,
    PROPERTY,
    RENT,
    RENT_ANY,
    SLY_DEAL,
    WILD,
    WILD_ANY,
)
from strategies.catalog import Catalog, Kind, Param, PolicyError  # noqa: F401 (PolicyError: re-exported)

RANDOM, BANKER, SET_BUILDER, AGGRESSIVE, SMART = range(5)
N_PARAMS = 16
WIN_SCORE = 1000.0
ANY_BIT = 1 << 16  # marks an any-colour wild in plan_arrangement's colour masks
# Card names numbered below this have a bit in an int64 "already scored" mask (sign bit spared)
SEEN_KINDS = 62

# name -> Param(slot, low, high, meaning)
PARAMS = {
    "p_stop": Param(0, 0.0, 1.0, "random: chance to end the turn before each play"),
    "bank_weight": Param(1, 0.0, 10.0, "value of 1M banked while the bank is under bank_target"),
    "bank_target": Param(2, 0.0, 100.0, "bank reserve (M) wanted; above it banking counts 40%"),
    "prop_weight": Param(3, 0.0, 10.0, "value of a property's progress toward its set"),
    "set_bonus": Param(4, 0.0, 50.0, "extra value of completing a set"),
    "steal_weight": Param(5, 0.0, 10.0, "multiplier on what Sly Deal, Forced Deal and Deal Breaker gain"),
    "charge_weight": Param(6, 0.0, 10.0, "value of 1M collected by rent, Debt Collector or Birthday"),
    "jsn_stake": Param(7, 0.0, 100.0, "answer with Just Say No when at least this much is at stake"),
    "min_charge": Param(8, 0.0, 50.0, "least total a rent / Debt Collector / Birthday must collect to be played"),
    "pass_go": Param(9, 0.0, 20.0, "value of playing a Pass Go (times the share of plays left)"),
    "build_weight": Param(10, 0.0, 10.0, "value of 1M of rent a House or Hotel adds"),
    "keep_action": Param(11, 0.0, 5.0, "how much of an action card's worth is lost by banking it"),
    "pay_keep": Param(12, 0.0, 20.0, "how strongly payments spare properties that build sets"),
    "double_min": Param(13, 0.0, 50.0, "least extra a Double the Rent must collect to be played"),
    "threat": Param(14, 0.0, 5.0, "extra weight on hurting an opponent per complete set they hold"),
    "empty_hand": Param(15, 0.0, 20.0, "how far below zero a bank play may score and still be made when it helps play the whole hand out (an empty hand draws 5)"),
}

_BASE = {
    "p_stop": 0.1, "bank_weight": 1.0, "bank_target": 8.0, "prop_weight": 2.0, "set_bonus": 6.0,
    "steal_weight": 1.5, "charge_weight": 1.2, "jsn_stake": 3.0, "min_charge": 2.0, "pass_go": 3.0,
    "build_weight": 1.0, "keep_action": 0.8, "pay_keep": 2.5, "double_min": 3.0, "threat": 0.0,
    "empty_hand": 6.0,
}
# name -> (kind, defaults that differ from _BASE, meaning)
KINDS = {
    "random": (RANDOM, {}, "random legal play: a random playable card, then a random legal way to play it"),
    "banker": (BANKER, {"bank_weight": 2.0, "bank_target": 10.0, "prop_weight": 1.0, "set_bonus": 3.0,
                        "steal_weight": 0.8, "charge_weight": 0.8, "keep_action": 0.2, "min_charge": 3.0,
                        "pay_keep": 1.0},
               "money first: banks money and most action cards, plays properties after"),
    "set_builder": (SET_BUILDER, {"bank_weight": 0.5, "bank_target": 5.0, "prop_weight": 4.0, "set_bonus": 10.0,
                                  "steal_weight": 2.0, "charge_weight": 0.6, "pass_go": 4.0, "pay_keep": 4.0},
                    "properties first: builds sets, steals what completes them, banks the rest"),
    "aggressive": (AGGRESSIVE, {"bank_weight": 0.7, "bank_target": 5.0, "prop_weight": 1.5, "set_bonus": 5.0,
                                "steal_weight": 2.5, "charge_weight": 2.0, "jsn_stake": 1.0, "min_charge": 1.0,
                                "keep_action": 1.5, "double_min": 1.0, "threat": 0.5},
                   "actions first: charges rent at every chance, steals, answers every action"),
    # Tuned one parameter at a time against the earlier smart (docs/deal.md shows the sweep).
    "smart": (SMART, {"threat": 1.0, "prop_weight": 0.5, "pay_keep": 8.0, "pass_go": 6.0, "bank_target": 14.0,
                      "jsn_stake": 6.0},
              "strongest heuristic: weighs set progress, bank reserve, rent and theft, targets the leader"),
}


CATALOG = Catalog(
    N_PARAMS, PARAMS, {name: Kind(code, doc, _BASE | overrides) for name, (code, overrides, doc) in KINDS.items()}, game="deal"
)
parse_policy = CATALOG.parse


# Parameter slots, for the compiled code.
P_STOP, P_BANK_W, P_BANK_TARGET, P_PROP_W, P_SET_BONUS, P_STEAL_W, P_CHARGE_W, P_JSN = range(8)
P_MIN_CHARGE, P_PASS_GO, P_BUILD_W, P_KEEP_ACTION, P_PAY_KEEP, P_DOUBLE_MIN, P_THREAT, P_EMPTY = range(8, 16)


# ---------------------------------------------------------------------------------------------
# Valuations shared by the heuristic bots


@njit_no_refcount
def action_worth(S, card):
    """A rough standing value of holding an action card (what banking it gives up)."""
    t = ctype(S, card)
    if t == DEAL_BREAKER:
        return 8.0
    if t == JUST_SAY_NO:
        return 6.0
    if t == SLY_DEAL or t == FORCED_DEAL:
        return 3.0
    if t == DEBT_COLLECTOR or t == RENT_ANY:
        return 3.0
    if t == BIRTHDAY or t == RENT or t == DOUBLE_RENT:
        return 1.5
    if t == T_HOUSE or t == T_HOTEL:
        return 2.0
    return 0.5  # Pass Go


@njit_no_refcount
def place_gain(S, pp, p, card, c):
    """What seat p gains by adding this property card to its colour-c group."""
    n = S[GRP_N + p * NG + c]
    size = S[R_SET_SIZE + c]
    if is_complete(S, p, c):
        return 0.2  # a spare: only a cushion against payments
    after = n + 1
    rent_gain = base_rent(S, c, after) - base_rent(S, c, n)
    g = pp[p, P_PROP_W] * (1.0 + 0.5 * rent_gain) * min(after, size) / size
    has_ord = S[GRP_ORD + p * NG + c] > 0 or ctype(S, card) == PROPERTY or S[R_NEEDS_PROPERTY] == 0
    if after >= size and has_ord:
        g += pp[p, P_SET_BONUS]
        if n_complete(S, p) + 1 >= S[R_SETS_TO_WIN]:
            g += WIN_SCORE
    return g


@njit_no_refcount
def best_colour(S, pp, p, card):
    """(colour, gain) of the best place for a property card seat p does not hold yet; (-1, 0)
    when it can stand nowhere (an any-colour wild without an ordinary property)."""
    t = ctype(S, card)
    best = -1
    best_g = -1.0
    if t == PROPERTY:
        c = S[R_CARD_C1 + card]
        return int(c), place_gain(S, pp, p, card, c)
    if t == WILD:
        for c in (S[R_CARD_C1 + card], S[R_CARD_C2 + card]):
            g = place_gain(S, pp, p, card, c)
            if g > best_g:
                best = int(c)
                best_g = g
        return best, best_g
    m = S[ORD_MASK + p] & ((1 << NC) - 1)  # the colours with an ordinary property, in order
    while m != 0:
        c = trailing_zeros(m)
        m &= m - 1
        g = place_gain(S, pp, p, card, c)
        if g > best_g:
            best = c
            best_g = g
    return best, max(best_g, 0.0)


@njit_no_refcount
def placing_key(S, p, card):
    """A number that is unchanged only while everything best_colour reads for this card name
    in seat p's collection is (nothing else it reads changes during a game): for a property or
    a two-colour wild, the counters of p's groups of its colours (a colour's complete flag
    changes only with its group) plus the counter of "one more complete set would win", the
    only way place_gain reads p's count of complete sets (each only grows, so the sum is
    unchanged only while each is); for an any-colour wild, which may stand in any colour, p's
    collection counter."""
    t = ctype(S, card)
    if t == WILD_ANY:
        return S[COLL_VER + p]
    key = S[NEAR_WIN_VER + p] + S[GRP_VER + p * NC + S[R_CARD_C1 + card]]
    if t == WILD:
        key += S[GRP_VER + p * NC + S[R_CARD_C2 + card]]
    return key


@njit_inline
def placing_option(S, pp, p, card):
    """best_colour, remembered per card name while its placing_key is unchanged."""
    kind = S[R_CARD_KIND + card]
    i = p * MEMO_KINDS + kind
    if kind < MEMO_KINDS and S[PLACE_MEMO_VER + i] == placing_key(S, p, card) + 1:
        return int(S[PLACE_MEMO_COLOUR + i]), load_float(S, PLACE_MEMO_GAIN + 2 * i)
    return remember_placing(S, pp, p, card, i if kind < MEMO_KINDS else -1)


@njit_no_refcount
def remember_placing(S, pp, p, card, i):
    """best_colour, kept in memo slot i (none when i < 0): placing_option's slow path, a
    function of its own so that the lookup stays small enough to be inlined."""
    c, g = best_colour(S, pp, p, card)
    if i >= 0:
        S[PLACE_MEMO_VER + i] = placing_key(S, p, card) + 1
        S[PLACE_MEMO_COLOUR + i] = c
        store_float(S, PLACE_MEMO_GAIN + 2 * i, g)
    return c, g


@njit_inline
def holding_value(S, pp, p, card):
    """What seat p loses if this property card (in its collection) leaves."""
    g = S[GROUP + card]
    if g >= NC:
        return 0.1
    if is_complete(S, p, g):
        return pp[p, P_SET_BONUS] * 2.0 + rent_of(S, p, g)
    size = S[R_SET_SIZE + g]
    return pp[p, P_PROP_W] * S[GRP_N + p * NG + g] / size + 0.5 * cvalue(S, card)


@njit_no_refcount
def threat(S, pp, p, t):
    """Weight on hurting opponent t: more for an opponent close to winning."""
    return 1.0 + pp[p, P_THREAT] * n_complete(S, t)


# ---------------------------------------------------------------------------------------------
# Choosing a play


@njit_no_refcount
def bank_score(S, pp, p, card):
    v = cvalue(S, card)
    w = pp[p, P_BANK_W] * v
    if S[BANK_VAL + p] >= pp[p, P_BANK_TARGET]:
        w *= 0.4
    if ctype(S, card) != MONEY:
        w -= pp[p, P_KEEP_ACTION] * action_worth(S, card)
    return w


@njit_no_refcount
def charge_total(S, p, amount, single):
    """What charging `amount` collects: from every opponent, or (single) from the best one.
    Returns (total, best target)."""
    n_players = S[R_PLAYERS]
    total = 0.0
    best_t = -1
    best_v = -1.0
    for j in range(1, n_players):
        q = seat_after(p, j, n_players)
        v = float(min(amount, payable(S, q)))
        total += v
        # ties go to the opponent with more complete sets
        key = v + 0.01 * n_complete(S, q)
        if key > best_v:
            best_v = key
            best_t = q
    if single:
        return float(min(amount, payable(S, best_t))), best_t
    return total, best_t


@njit_no_refcount
def n_in_hand(S, p, card_type):
    n = 0
    for k in range(S[HAND_N + p]):
        n += ctype(S, S[HAND_ + p * MAX_HAND + k]) == card_type
    return n


@njit_inline
def rent_option(S, pp, p, card):
    """Best (score, colour, doubles, target) for a rent card; score -1 when not worth playing."""
    t = ctype(S, card)
    single = t == RENT_ANY
    plays_left = S[G_PLAYS_LEFT]
    max_d = min(S[R_MAX_DOUBLES], plays_left - 1)
    if max_d > 0:  # else no Double the Rent can be played: the hand need not be counted
        max_d = min(max_d, n_in_hand(S, p, DOUBLE_RENT))
    best = (-1.0, -1, 0, -1)
    colours = (1 << NC) - 1 if single else (1 << S[R_CARD_C1 + card]) | (1 << S[R_CARD_C2 + card])
    m = colours & held_mask(S, p)
    while m != 0:
        c = trailing_zeros(m)
        m &= m - 1
        r = rent_of(S, p, c)
        got, target = charge_total(S, p, r, single)
        d = 0
        for dd in range(1, max_d + 1):
            more, tt = charge_total(S, p, r << dd, single)
            if more - got >= pp[p, P_DOUBLE_MIN] * (dd - d):
                got = more
                target = tt
                d = dd
        if got < pp[p, P_MIN_CHARGE]:
            continue
        score = pp[p, P_CHARGE_W] * got * (threat(S, pp, p, target) if single else 1.0)
        score -= 0.5 * d  # the Double the Rent cards spent
        if score > best[0]:
            best = (score, int(c), int(d), int(target))
    return best


@njit_no_refcount
def steal_option(S, pp, p, card, forced):
    """Best (score, their card, my card, target) for Sly Deal (forced False) or Forced Deal,
    remembered while no seat's collection changed: find_steal reads only the collections (and
    counts kept with them), the rules and the policy parameters. Each seat's COLL_VER only
    grows, so their sum is unchanged only while each is."""
    key = steal_key(S)
    m = STEAL_MEMO + (2 * p + int(forced)) * STEAL_MEMO_SIZE
    if S[m] == key + 1:
        return load_float(S, m + 1), int(S[m + 3]), int(S[m + 4]), int(S[m + 5])
    best = find_steal(S, pp, p, forced)
    S[m] = key + 1
    store_float(S, m + 1, best[0])
    S[m + 3] = best[1]
    S[m + 4] = best[2]
    S[m + 5] = best[3]
    return best


@njit_no_refcount
def steal_key(S):
    """The key of steal_option's memo: the sum of every seat's COLL_VER."""
    key = 0
    for q in range(S[R_PLAYERS]):
        key += S[COLL_VER + q]
    return key


@njit_no_refcount
def find_steal(S, pp, p, forced):
    """steal_option's work."""
    n_players = S[R_PLAYERS]
    best = (-1.0, -1, -1, -1)
    give = -1
    give_cost = 0.0
    if forced:  # the card of mine that costs least to give away
        give_cost = 1e9
        m = held_mask(S, p)
        if S[R_FORCED_FROM_FULL] == 0:
            m &= ~complete_mask(S, p)
        while m != 0:
            g = trailing_zeros(m)
            m &= m - 1
            for k in range(S[GRP_N + p * NG + g]):
                mine = S[GRP + (p * NG + g) * MAX_GROUP + k]
                cost = holding_value(S, pp, p, mine)
                if cost < give_cost:
                    give_cost = cost
                    give = mine
        if give < 0:
            return best
    for j in range(1, n_players):
        t = seat_after(p, j, n_players)
        w = threat(S, pp, p, t)
        m = held_mask(S, t) & ~complete_mask(S, t)
        while m != 0:
            g = trailing_zeros(m)
            m &= m - 1
            # Cards of one name in one group score alike and ties keep the first: score each
            # name once per group (bit `kind` of `seen`).
            seen = 0
            for k in range(S[GRP_N + t * NG + g]):
                theirs = S[GRP + (t * NG + g) * MAX_GROUP + k]
                kind = int(S[R_CARD_KIND + theirs])  # int: as plain Python, an int32 shift would wrap at 32
                if kind < SEEN_KINDS:
                    if (seen >> kind) & 1:
                        continue
                    seen |= 1 << kind
                if forced and S[GROUP + give] == g and g < NC and can_take(S, theirs, g):
                    continue  # swapping within one colour gains little
                _, gain = placing_option(S, pp, p, theirs)
                gain += 0.5 * w * holding_value(S, pp, t, theirs)
                score = pp[p, P_STEAL_W] * (gain - give_cost)
                # Never hand a victim a complete set (it may be the set that wins); asked only of
                # a card that would be chosen, since the question costs more than the score.
                if score > best[0] and not victim_completes(S, t, theirs, give):
                    best = (score, int(theirs), int(give), int(t))
    return best


@njit_no_refcount
def victim_completes(S, t, take, give):
    """Would seat t complete a set by losing card `take` and receiving `give` (-1: none), in any
    colour give may stand in (t chooses a two-colour wild's)? board.completes_after_swap
    follows the kernel's moves of the wilds this strands."""
    if give < 0 or ctype(S, give) == WILD_ANY:
        return completes_after_swap(S, t, take, give, -1)
    for c in range(NC):
        if can_take(S, give, c) and completes_after_swap(S, t, take, give, c):
            return True
    return False


@njit_no_refcount
def breaker_option(S, pp, p):
    """Best (score, colour, target) for a Deal Breaker."""
    n_players = S[R_PLAYERS]
    best = (-1.0, -1, -1)
    mine = n_complete(S, p)
    for j in range(1, n_players):
        t = seat_after(p, j, n_players)
        m = complete_mask(S, t)
        while m != 0:
            c = trailing_zeros(m)
            m &= m - 1
            gain = threat(S, pp, p, t) * (pp[p, P_SET_BONUS] + 0.5 * rent_of(S, t, c))
            if not is_complete(S, p, c):
                gain += 2.0 * pp[p, P_SET_BONUS]
                if mine + 1 >= S[R_SETS_TO_WIN]:
                    gain += WIN_SCORE
            score = pp[p, P_STEAL_W] * gain
            if score > best[0]:
                best = (score, int(c), int(t))
    return best


@njit_no_refcount
def choose_play(pp, p, S, rng):
    """Seat p's next play: (k, mode, a, b, t), k = -1 to end the turn.

    k is the hand position; mode M_BANK, M_PLACE (a = colour) or M_ACTION:
    rent: a colour, b Double the Rent cards, t target (any-colour rent); Debt Collector: t;
    Sly Deal: t and their card a; Forced Deal: t, their card a, my card b; Deal Breaker: t and
    colour a; House / Hotel: colour a; Birthday, Pass Go: nothing more."""
    if S[R_KIND + p] == RANDOM:
        return random_play(pp, p, S, rng)
    n_players = S[R_PLAYERS]
    best_s = 0.0
    best = (-1, 0, 0, 0, 0)
    bank_s = -1e9  # the best bank play, for playing the hand out
    bank_k = -1
    seen = 0  # bit `kind` set once a card of that kind was scored
    for k in range(S[HAND_N + p]):
        card = S[HAND_ + p * MAX_HAND + k]
        # A later copy of a card name scores exactly as the first did, and ties keep the first.
        kind = int(S[R_CARD_KIND + card])  # int: as plain Python, an int32 shift would wrap at 32
        if kind < SEEN_KINDS:
            if (seen >> kind) & 1:
                continue
            seen |= 1 << kind
        elif same_kind_earlier(S, p, k):
            continue
        t = ctype(S, card)
        if t == PROPERTY or t == WILD or t == WILD_ANY:
            c, g = placing_option(S, pp, p, card)
            if c >= 0 and g > best_s:
                best_s = g
                best = (k, M_PLACE, int(c), 0, 0)
            continue
        if cvalue(S, card) > 0:
            s = bank_score(S, pp, p, card)
            if s > best_s:
                best_s = s
                best = (k, M_BANK, 0, 0, 0)
            if s > bank_s:
                bank_s = s
                bank_k = k
        if t == RENT or t == RENT_ANY:
            s, c, d, tg = rent_option(S, pp, p, card)
            if s > best_s:
                best_s = s
                best = (k, M_ACTION, int(c), int(d), int(max(tg, 0)))
        elif t == DEBT_COLLECTOR or t == BIRTHDAY:
            amount = S[R_DEBT] if t == DEBT_COLLECTOR else S[R_BIRTHDAY]
            got, tg = charge_total(S, p, amount, t == DEBT_COLLECTOR)
            if got >= pp[p, P_MIN_CHARGE]:
                s = pp[p, P_CHARGE_W] * got
                if t == DEBT_COLLECTOR:
                    s *= threat(S, pp, p, tg)
                if s > best_s:
                    best_s = s
                    best = (k, M_ACTION, 0, 0, int(tg))
        elif t == PASS_GO:
            s = pp[p, P_PASS_GO] * S[G_PLAYS_LEFT] / S[R_PLAYS]
            if s > best_s:
                best_s = s
                best = (k, M_ACTION, 0, 0, 0)
        elif t == SLY_DEAL or t == FORCED_DEAL:
            s, theirs, mine, tg = steal_option(S, pp, p, card, t == FORCED_DEAL)
            if s > best_s:
                best_s = s
                best = (k, M_ACTION, int(theirs), int(mine), int(tg))
        elif t == DEAL_BREAKER:
            s, c, tg = breaker_option(S, pp, p)
            if s > best_s:
                best_s = s
                best = (k, M_ACTION, int(c), 0, int(tg))
        elif (t == T_HOUSE or t == T_HOTEL) and n_complete(S, p) > 0:
            hotel = t == T_HOTEL
            add = S[R_HOTEL_RENT] if hotel else S[R_HOUSE_RENT]
            for c in range(NC):
                if can_build(S, p, c, hotel):
                    s = pp[p, P_BUILD_W] * add * (n_players - 1) * 0.5
                    if s > best_s:
                        best_s = s
                        best = (k, M_ACTION, c, 0, 0)
                    break
    # Rather than end the turn, bank a card it would keep when every card left can still be
    # played this turn: a turn that starts with an empty hand draws more.
    if best[0] < 0 and bank_k >= 0 and S[HAND_N + p] <= S[G_PLAYS_LEFT] and bank_s > -pp[p, P_EMPTY]:
        return (bank_k, M_BANK, 0, 0, 0)
    return best


@njit_no_refcount
def same_kind_earlier(S, p, k):
    """An earlier card in seat p's hand has the same name as the card at position k."""
    kind = S[R_CARD_KIND + S[HAND_ + p * MAX_HAND + k]]
    for j in range(k):
        if S[R_CARD_KIND + S[HAND_ + p * MAX_HAND + j]] == kind:
            return True
    return False


@njit_no_refcount
def random_target(S, p, rng, need_stealable, need_complete):
    """A random opponent with a stealable card / a complete set (-1 if none)."""
    n_players = S[R_PLAYERS]
    n = 0
    for j in range(1, n_players):
        q = seat_after(p, j, n_players)
        if opponent_ok(S, q, need_stealable, need_complete):
            n += 1
    if n == 0:
        return -1
    pick = randint(rng, rng_policy(p), n)
    for j in range(1, n_players):
        q = seat_after(p, j, n_players)
        if opponent_ok(S, q, need_stealable, need_complete):
            if pick == 0:
                return q
            pick -= 1
    return -1


@njit_no_refcount
def opponent_ok(S, q, need_stealable, need_complete):
    if need_complete:
        return n_complete(S, q) > 0
    if need_stealable:
        for g in range(NG):
            if S[GRP_N + q * NG + g] > 0 and not is_complete(S, q, g):
                return True
        return False
    return True


@njit_no_refcount
def random_group_card(S, q, rng, p, allow_complete):
    """A random property card of seat q outside complete sets (all, if allow_complete)."""
    n = 0
    for g in range(NG):
        if allow_complete or not is_complete(S, q, g):
            n += S[GRP_N + q * NG + g]
    if n == 0:
        return -1
    pick = randint(rng, rng_policy(p), n)
    for g in range(NG):
        if allow_complete or not is_complete(S, q, g):
            m = S[GRP_N + q * NG + g]
            if pick < m:
                return S[GRP + (q * NG + g) * MAX_GROUP + pick]
            pick -= m
    return -1


@njit_no_refcount
def random_colour(S, p, rng, card, place):
    """A random colour: where the card may stand (place), or a rent card's colours where p has
    properties. -1 if none."""
    n = 0
    for c in range(NC):
        n += colour_ok(S, p, card, c, place)
    if n == 0:
        return -1
    pick = randint(rng, rng_policy(p), n)
    for c in range(NC):
        if colour_ok(S, p, card, c, place):
            if pick == 0:
                return c
            pick -= 1
    return -1


@njit_no_refcount
def colour_ok(S, p, card, c, place):
    if place:
        return can_place(S, p, card, c)
    t = ctype(S, card)
    if t == RENT or t == RENT_ANY:
        if S[GRP_N + p * NG + c] == 0:
            return False
        return t == RENT_ANY or S[R_CARD_C1 + card] == c or S[R_CARD_C2 + card] == c
    if t == T_HOUSE or t == T_HOTEL:
        return can_build(S, p, c, t == T_HOTEL)
    return False


@njit_no_refcount
def action_legal(S, p, card):
    t = ctype(S, card)
    if t == RENT or t == RENT_ANY or t == T_HOUSE or t == T_HOTEL:
        for c in range(NC):
            if colour_ok(S, p, card, c, False):
                return True
        return False
    if t == DEBT_COLLECTOR or t == BIRTHDAY or t == PASS_GO:
        return True
    if t == SLY_DEAL:
        return random_target_exists(S, p, True, False)
    if t == FORCED_DEAL:
        if not random_target_exists(S, p, True, False):
            return False
        for g in range(NG):
            if S[GRP_N + p * NG + g] > 0 and (S[R_FORCED_FROM_FULL] == 1 or not is_complete(S, p, g)):
                return True
        return False
    if t == DEAL_BREAKER:
        return random_target_exists(S, p, False, True)
    return False


@njit_no_refcount
def random_target_exists(S, p, need_stealable, need_complete):
    n_players = S[R_PLAYERS]
    for j in range(1, n_players):
        if opponent_ok(S, seat_after(p, j, n_players), need_stealable, need_complete):
            return True
    return False


@njit_no_refcount
def play_modes(S, p, card):
    """Bit set of the legal modes of a hand card: 1 bank, 2 place, 4 action."""
    t = ctype(S, card)
    if t == PROPERTY or t == WILD or t == WILD_ANY:
        for c in range(NC):
            if can_place(S, p, card, c):
                return 2
        return 0
    m = 1 if cvalue(S, card) > 0 else 0
    if action_legal(S, p, card):
        m |= 4
    return m


@njit_no_refcount
def random_play(pp, p, S, rng):
    """A random playable card, a random legal mode for it, random legal details."""
    o = rng_policy(p)
    if uniform(rng, o) < pp[p, P_STOP]:
        return (-1, 0, 0, 0, 0)
    n = 0
    for k in range(S[HAND_N + p]):
        if play_modes(S, p, S[HAND_ + p * MAX_HAND + k]) != 0:
            n += 1
    if n == 0:
        return (-1, 0, 0, 0, 0)
    pick = randint(rng, o, n)
    k = 0
    for kk in range(S[HAND_N + p]):
        if play_modes(S, p, S[HAND_ + p * MAX_HAND + kk]) != 0:
            if pick == 0:
                k = kk
                break
            pick -= 1
    card = S[HAND_ + p * MAX_HAND + k]
    modes = play_modes(S, p, card)
    n_modes = (modes & 1) + ((modes >> 1) & 1) + ((modes >> 2) & 1)
    pick = randint(rng, o, n_modes)
    mode = -1
    for bit in range(3):
        if (modes >> bit) & 1:
            if pick == 0:
                mode = bit
                break
            pick -= 1
    if mode == M_BANK:
        return (k, M_BANK, 0, 0, 0)
    if mode == M_PLACE:
        return (k, M_PLACE, int(random_colour(S, p, rng, card, True)), 0, 0)
    t = ctype(S, card)
    n_players = S[R_PLAYERS]
    other = seat_after(p, 1 + randint(rng, o, n_players - 1), n_players)
    if t == RENT or t == RENT_ANY:
        c = random_colour(S, p, rng, card, False)
        max_d = min(S[R_MAX_DOUBLES], n_in_hand(S, p, DOUBLE_RENT), S[G_PLAYS_LEFT] - 1)
        d = randint(rng, o, max_d + 1) if max_d > 0 else 0
        return (k, M_ACTION, int(c), int(d), int(other))
    if t == T_HOUSE or t == T_HOTEL:
        return (k, M_ACTION, int(random_colour(S, p, rng, card, False)), 0, 0)
    if t == SLY_DEAL or t == FORCED_DEAL:
        tg = random_target(S, p, rng, True, False)
        theirs = random_group_card(S, tg, rng, p, False)
        mine = 0
        if t == FORCED_DEAL:
            mine = random_group_card(S, p, rng, p, S[R_FORCED_FROM_FULL] == 1)
        return (k, M_ACTION, int(theirs), int(mine), int(tg))
    if t == DEAL_BREAKER:
        tg = random_target(S, p, rng, False, True)
        n_sets = n_complete(S, tg)
        pick = randint(rng, o, n_sets)
        for c in range(NC):
            if is_complete(S, tg, c):
                if pick == 0:
                    return (k, M_ACTION, int(c), 0, int(tg))
                pick -= 1
    return (k, M_ACTION, 0, 0, int(other))  # Debt Collector, Birthday, Pass Go


# ---------------------------------------------------------------------------------------------
# Other decisions


@njit_no_refcount
def choose_received_colour(pp, q, S, rng, card):
    """Colour a two-colour wild takes when seat q receives it off its own turn."""
    c1 = S[R_CARD_C1 + card]
    c2 = S[R_CARD_C2 + card]
    if S[R_KIND + q] == RANDOM:
        return c1 if uniform(rng, rng_policy(q)) < 0.5 else c2
    return c1 if place_gain(S, pp, q, card, c1) >= place_gain(S, pp, q, card, c2) else c2


@njit_no_refcount
def stake_value(S, pp, victim, action, stake):
    """What the victim stands to lose: `stake` is the amount charged (rent, Debt Collector,
    Birthday), the card taken (Sly / Forced Deal) or the colour (Deal Breaker)."""
    if action == RENT or action == RENT_ANY or action == DEBT_COLLECTOR or action == BIRTHDAY:
        return float(min(stake, payable(S, victim)))
    if action == SLY_DEAL or action == FORCED_DEAL:
        return holding_value(S, pp, victim, stake) + 1.0
    return 100.0  # Deal Breaker


@njit_no_refcount
def want_just_say_no(pp, s, S, rng, actor, victim, action, stake, defending):
    """Seat s decides whether to play a Just Say No: defending (s is the victim) or countering
    (s is the actor answering the victim's Just Say No)."""
    if S[R_KIND + s] == RANDOM:
        return uniform(rng, rng_policy(s)) < 0.5
    at_stake = stake_value(S, pp, victim, action, stake)
    if S[R_KIND + s] == SMART:
        # A blow that would let the actor win is always worth a Just Say No.
        if defending and action == DEAL_BREAKER:
            return True
        if not defending and action == DEAL_BREAKER and n_complete(S, actor) + 1 >= S[R_SETS_TO_WIN]:
            return True
        # A property taken slows one set and speeds another: always worth blocking or forcing
        # through, whatever the card (learned from the search player: docs/deal.md).
        if action == SLY_DEAL or action == FORCED_DEAL:
            return True
    return at_stake >= pp[s, P_JSN]


@njit_no_refcount
def pay_cost(S, pp, p, card):
    """How much seat p minds giving this card, per the card's value."""
    v = cvalue(S, card)
    t = ctype(S, card)
    if t == PROPERTY or t == WILD:
        return v + pp[p, P_PAY_KEEP] * holding_value(S, pp, p, card)
    if t == T_HOUSE or t == T_HOTEL:
        if S[HOUSE + p * NC + S[GROUP + card]] == card or S[HOTEL + p * NC + S[GROUP + card]] == card:
            if t == T_HOUSE and S[HOTEL + p * NC + S[GROUP + card]] >= 0:
                return v + pp[p, P_PAY_KEEP] * 2.0 + 100.0  # only after its Hotel
            return v + pp[p, P_PAY_KEEP] * 2.0
    return float(v)


NO_COST = -(1 << 31)  # S[SCRATCH4 + k] of a payment candidate whose cost is not computed yet


@njit_no_refcount
def swap_cost(S, pp, p, k):
    """1000 x the cost of payment candidate k, computed on first use."""
    c = S[SCRATCH4 + k]
    if c == NO_COST:
        c = int(1000.0 * pay_cost(S, pp, p, S[SCRATCH + k]))
        S[SCRATCH4 + k] = c
    return c


@njit_no_refcount
def choose_payment(pp, p, S, rng, n_bank, amount, creditor):
    """Seat p pays `amount` with some of its payment candidates: its n_bank bank cards at
    S[SCRATCH:], then those board.list_collection lists after them (called here only when
    one of them may be given). Sets S[SCRATCH3 + k] to 1 for each card given and returns the
    number of candidates listed. The kernel checks the total covers the debt.
    Heuristic bots give the cards they mind least per M, then take back what is not needed."""
    val = SCRATCH5  # S[val + k]: candidate k's value
    # Paid from the bank alone (heuristic bots): the bank cards come first and each costs
    # exactly its value (1000 per M for all), so the order below gives only bank cards and
    # takes back only bank cards; the rest of the collection matters only to the swap search.
    bank_only = S[R_KIND + p] != RANDOM and S[BANK_VAL + p] >= amount
    n = n_bank if bank_only else list_collection(S, p, n_bank)
    # Order: random for the random bot, else by cost per M (S[SCRATCH2:] holds the order).
    for k in range(n):
        S[SCRATCH3 + k] = 0
        S[val + k] = cvalue(S, S[SCRATCH + k])
        S[SCRATCH2 + k] = k
    if n == 0:
        return n
    if S[R_KIND + p] == RANDOM:
        for i in range(n - 1, 0, -1):
            j = randint(rng, rng_policy(p), i + 1)
            tmp = S[SCRATCH2 + i]
            S[SCRATCH2 + i] = S[SCRATCH2 + j]
            S[SCRATCH2 + j] = tmp
    else:
        # Each card's cost, computed once: S[SCRATCH4 + k] = 1000 x cost (an int32 buffer).
        # The stable sort below leaves the bank prefix as it is and starts after it.
        for k in range(n_bank):
            S[SCRATCH4 + k] = 1000 * S[val + k]
        for k in range(n_bank, n):
            S[SCRATCH4 + k] = int(1000.0 * pay_cost(S, pp, p, S[SCRATCH + k]))
        for i in range(max(n_bank, 1), n):  # insertion sort by cost per M (cross-multiplied: no divisions)
            x = S[SCRATCH2 + i]
            cx = S[SCRATCH4 + x]
            vx = max(S[val + x], 1)
            j = i - 1
            while j >= 0:
                y = S[SCRATCH2 + j]
                if S[SCRATCH4 + y] * vx <= cx * max(S[val + y], 1):
                    break
                S[SCRATCH2 + j + 1] = y
                j -= 1
            S[SCRATCH2 + j + 1] = x
    paid = 0
    given = 0  # the cards given are the first `given` of the order
    top = 0  # and all have a candidate number below `top`
    while given < n and paid < amount:
        k = S[SCRATCH2 + given]
        S[SCRATCH3 + k] = 1
        paid += S[val + k]
        given += 1
        top = max(top, k + 1)
    if S[R_KIND + p] == RANDOM:
        if S[R_PAY_BUILDINGS] == 1:
            hotels_with_houses(S, p, n)
        return n
    # Take back cards not needed, the most valuable to keep first.
    for i in range(given - 1, -1, -1):
        k = S[SCRATCH2 + i]
        if paid - S[val + k] >= amount:
            S[SCRATCH3 + k] = 0
            paid -= S[val + k]
    # Swap one given card for a smaller one that still covers the debt and costs no more.
    if paid > amount:
        limit = paid - amount  # the most a swap can save
        best_i, best_j, best_save = best_swap(S, pp, p, top, 0, n, limit, -1, -1, 0)
        if bank_only:
            first = 0
            while S[SCRATCH3 + first] != 1:
                first += 1
            if best_save < limit or best_i > first:  # else no other card can do better
                n = list_collection(S, p, n_bank)
                for k in range(n_bank, n):
                    S[SCRATCH3 + k] = 0
                    S[val + k] = cvalue(S, S[SCRATCH + k])
                    S[SCRATCH4 + k] = NO_COST  # computed only if a swap asks (swap_cost)
                best_i, best_j, best_save = best_swap(S, pp, p, top, n_bank, n, limit, best_i, best_j, best_save)
        if best_i >= 0:
            S[SCRATCH3 + best_i] = 0
            S[SCRATCH3 + best_j] = 1
    if S[R_PAY_BUILDINGS] == 1:  # else no building is a candidate
        hotels_with_houses(S, p, n)
    return n


@njit_inline
def best_swap(S, pp, p, top, j0, n, limit, best_i, best_j, best_save):
    """choose_payment's swap search: give candidate j (j0 <= j < n, not given) instead of
    given card i (i < top), worth less and costing no more. The best swap saves the most (at
    most limit), then has the lowest i, then the lowest j: returns (best_i, best_j, best_save)
    improved by the swaps with such a j (all after the j of the swap passed in)."""
    for i in range(top):
        if S[SCRATCH3 + i] != 1:
            continue
        vi = S[SCRATCH5 + i]
        ci = S[SCRATCH4 + i]
        # j saves vi - vj: at most limit, and more than best_save (as much, for a lower i).
        lo = vi - limit
        hi = vi - best_save + (1 if best_save > 0 and i < best_i else 0)
        for j in range(j0, n):
            vj = S[SCRATCH5 + j]
            if (S[SCRATCH3 + j] == 0) & (vj >= lo) & (vj < hi):  # one branch: rarely true
                if swap_cost(S, pp, p, j) <= ci:
                    best_i = i
                    best_j = j
                    best_save = vi - vj
                    hi = vj
        if best_save == limit and best_i <= i:
            break  # nothing later can do better
    return best_i, best_j, best_save


@njit_no_refcount
def hotels_with_houses(S, p, n):
    """A House given while its Hotel stays would leave the Hotel on nothing: give the Hotel too."""
    for k in range(n):
        c = S[SCRATCH + k]
        if S[SCRATCH3 + k] == 1 and ctype(S, c) == T_HOUSE and S[WHERE + c] == BUILDING:
            hotel = S[HOTEL + p * NC + S[GROUP + c]]
            if hotel >= 0:
                for j in range(n):
                    if S[SCRATCH + j] == hotel:
                        S[SCRATCH3 + j] = 1


@njit_no_refcount
def keep_score(S, pp, p, card):
    """How much seat p wants to keep a hand card (the lowest is discarded)."""
    t = ctype(S, card)
    if t == PROPERTY or t == WILD or t == WILD_ANY:
        _, g = best_colour(S, pp, p, card)
        return g + 0.5
    if t == MONEY:
        return 0.3 * cvalue(S, card)
    return action_worth(S, card) + 0.1 * cvalue(S, card)


@njit_no_refcount
def choose_discard(pp, p, S, rng):
    """Hand position of the card seat p discards over the hand limit."""
    n = S[HAND_N + p]
    if S[R_KIND + p] == RANDOM:
        return randint(rng, rng_policy(p), n)
    best = 0
    best_s = 1e18
    for k in range(n):
        s = keep_score(S, pp, p, S[HAND_ + p * MAX_HAND + k])
        if s < best_s:
            best_s = s
            best = k
    return best


# ---------------------------------------------------------------------------------------------
# Rearranging wilds


@njit_no_refcount
def plan_arrangement(pp, p, S, rng):
    """Where seat p's wilds should stand: writes (card, colour) pairs to S[SCRATCH2:] and
    S[SCRATCH3:] and returns how many. The random bot leaves its wilds where they are.

    Greedy: first complete as many sets as possible, cheapest first (sets carrying buildings
    first among equals); then each leftover two-colour wild joins the fuller of its colours,
    each leftover any-colour wild the fullest incomplete colour with an ordinary property.
    Only the colours a two-colour wild may stand in matter, or every colour when the seat has
    an any-colour wild (kernel.keep_plan relies on this)."""
    if S[R_KIND + p] == RANDOM:
        return 0
    # The scans below go through bit masks built without a branch per colour or group, and
    # visit their set bits in ascending order: a test per colour mispredicts, as most fail.
    wild_groups = S[WILD_MASK + p]  # bit g: group g holds a wild
    if wild_groups == 0:
        return 0
    cnt = SCRATCH  # S[SCRATCH + c]: cards per colour as planned
    fits = SCRATCH4  # S[fits + i]: bit c set when wild i may stand in colour c; ANY_BIT: any-colour
    ord_mask = S[ORD_MASK + p]  # colours with an ordinary property (where an any-colour wild may stand)
    n = 0
    fit_union = 0  # colours some wild may stand in
    while wild_groups != 0:
        g = trailing_zeros(wild_groups)
        wild_groups &= wild_groups - 1
        for k in range(S[GRP_N + p * NG + g]):
            card = S[GRP + (p * NG + g) * MAX_GROUP + k]
            t = ctype(S, card)
            if t != PROPERTY:
                S[SCRATCH2 + n] = card
                S[SCRATCH3 + n] = -1
                if t == WILD_ANY:
                    S[fits + n] = ord_mask | ANY_BIT
                else:
                    S[fits + n] = (1 << S[R_CARD_C1 + card]) | (1 << S[R_CARD_C2 + card])
                fit_union |= S[fits + n]
                n += 1
    # Only the colours some wild fits are read below (their counts and complete flags).
    done = 0  # bit c: colour c complete as planned
    m = fit_union & ((1 << NC) - 1)
    while m != 0:
        c = trailing_zeros(m)
        m &= m - 1
        n_ord = S[GRP_ORD + p * NG + c]
        S[cnt + c] = n_ord
        done |= int((n_ord >= S[R_SET_SIZE + c]) & (n_ord > 0)) << c
    # The colours a pass may complete: an incomplete colour needs at least one wild that fits
    # it (and with complete_needs_property, an ordinary property).
    open_mask = fit_union & ((1 << NC) - 1) & ~done
    if S[R_NEEDS_PROPERTY] == 1:
        open_mask &= ord_mask
    while open_mask != 0:
        best_c = -1
        best_key = 1e9
        m = open_mask
        while m != 0:
            c = trailing_zeros(m)
            m &= m - 1
            need = S[R_SET_SIZE + c] - S[cnt + c]
            avail = 0
            for i in range(n):  # unplanned (S[SCRATCH3 + i] is -1) and fits colour c; no branch
                avail += (S[SCRATCH3 + i] >> 31) & (S[fits + i] >> c) & 1
            if avail < need:
                continue
            key = need - 0.01 * base_rent(S, c, S[R_SET_SIZE + c])
            if S[HOUSE + p * NC + c] >= 0:
                key -= 0.5
            if key < best_key:
                best_key = key
                best_c = c
        if best_c < 0:
            break
        need = S[R_SET_SIZE + best_c] - S[cnt + best_c]
        for any_pass in (0, ANY_BIT):  # two-colour wilds before any-colour wilds
            for i in range(n):
                if need <= 0:
                    break
                f = S[fits + i]
                if S[SCRATCH3 + i] < 0 and (f & ANY_BIT) == any_pass and (f >> best_c) & 1:
                    S[SCRATCH3 + i] = best_c
                    S[cnt + best_c] += 1
                    need -= 1
        done |= 1 << best_c
        open_mask &= ~(1 << best_c)
    for i in range(n):
        if S[SCRATCH3 + i] >= 0:
            continue
        best_c = -1
        best_key = -1e9
        m = S[fits + i] & ((1 << NC) - 1)
        while m != 0:
            c = trailing_zeros(m)
            m &= m - 1
            key = S[cnt + c] + 0.01 * base_rent(S, c, S[R_SET_SIZE + c])
            if (done >> c) & 1:
                key -= 100.0  # a spare on a complete set only when nothing else
            if key > best_key:
                best_key = key
                best_c = c
        if best_c < 0:
            best_c = LOOSE
        else:
            S[cnt + best_c] += 1
        S[SCRATCH3 + i] = best_c
    return n
