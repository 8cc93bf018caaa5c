"""Read-only questions about a hand, asked by the kernel and the bots alike.

Every function reads a kind-count vector ``A[o : o + NK]`` (a seat's ``KC`` row in ``S``, or a
what-if copy in the scratch area), so a bot can ask "could I go out / what would I score"
about a hand it does not hold. The kernel owns every change of state.
"""

from sim.cardgame.layout import (
    K_DOUBLE,
    K_FP,
    K_GO,
    K_HOTEL,
    K_HOUSE,
    K_JAIL,
    K_JAILFREE,
    K_TOKEN,
    K_WILD,
    MAX_HOUSE_NO,
    N_BUILDABLE,
    NC,
    NK,
    R_CVAL,
    R_FP_VALUE,
    R_GO_VALUE,
    R_GVAL,
    R_HOTEL_FOUR,
    R_HOTEL_VALUE,
    R_HOUSES_NUMBERED,
    R_HVAL,
    R_IMPR_GOER,
    R_IMPR_ONE,
    R_INCOMPLETE,
    R_JAIL_BLOCKS,
    R_JAIL_VALUE,
    R_JAILFREE_VALUE,
    R_MAX_HOUSES,
    R_RAIL_MIN,
    R_RAIL_VAL,
    R_RU_GROUP,
    R_SIZE,
    R_TOKEN_NEEDS,
    R_TOKENS_IMPR,
    R_WILD_ANY_GROUP,
    RAIL,
)
from sim.core.jit import njit_inline, njit_no_refcount


@njit_no_refcount
def need_of(RB, c):
    """Cards that make group c complete (railroads: the rules' minimum)."""
    return RB[R_RAIL_MIN] if c == RAIL else RB[R_SIZE + c]


@njit_no_refcount
def full_value(RB, c, n):
    """Value of a complete group c of n cards."""
    if c == RAIL:
        return RB[R_RAIL_VAL + min(n, 4)]
    return RB[R_GVAL + c]


@njit_no_refcount
def n_houses(A, o):
    h = 0
    for i in range(MAX_HOUSE_NO):
        h += A[o + K_HOUSE + i]
    return h


@njit_inline
def chains_held(A, o, chains):
    """Numbered houses: the houses in the first `chains` chains 1, 2, ... (`chain_len` summed),
    and how many of those chains reach house 4. Without a loop per chain: house i is in chain j
    when every house number up to i is held more than j times."""
    usable = 0
    fewest = A[o + K_HOUSE]
    for i in range(MAX_HOUSE_NO):
        fewest = min(fewest, A[o + K_HOUSE + i])
        usable += min(fewest, chains)
    return usable, min(fewest, chains)


@njit_no_refcount
def chain_len(A, o, j):
    """Numbered houses: the length of the j-th chain 1, 2, ... (0-based j), the longest first."""
    n = 0
    for i in range(MAX_HOUSE_NO):
        if A[o + K_HOUSE + i] > j:
            n += 1
        else:
            break
    return n


@njit_no_refcount
def houses_in_order(A, o, RB, buildable):
    """Can the hand's house and hotel cards all stand on its `buildable` complete groups?"""
    hotels = A[o + K_HOTEL]
    if RB[R_HOUSES_NUMBERED]:
        prev = 1 << 30
        for i in range(MAX_HOUSE_NO):
            n = A[o + K_HOUSE + i]
            if n > prev:
                return False
            prev = n
        if A[o + K_HOUSE] > buildable:
            return False
        four = A[o + K_HOUSE + MAX_HOUSE_NO - 1]
    else:
        h = n_houses(A, o)
        if RB[R_MAX_HOUSES] > 0 and h > RB[R_MAX_HOUSES]:
            return False
        if h > 0 and buildable == 0:
            return False
        four = h // 4
    if hotels > 0:
        if hotels > buildable:
            return False
        if RB[R_HOTEL_FOUR] and hotels > four:
            return False
    return True


@njit_no_refcount
def can_go_out(A, o, RB):
    """Is this a complete hand: at least one complete group, every group held complete (Chance
    cards filling gaps), houses and hotels legal, no Go to Jail without its way out?"""
    missing = 0
    groups = 0
    buildable = 0
    for c in range(NC):
        n = A[o + c]
        if n == 0:
            continue
        missing += max(0, need_of(RB, c) - n)
        if c < N_BUILDABLE or RB[R_RU_GROUP]:
            groups += 1
        if c < N_BUILDABLE:
            buildable += 1
    return complete_from(A, o, RB, missing, groups, buildable)


@njit_no_refcount
def complete_from(A, o, RB, missing, groups, buildable):
    """`can_go_out` given what it counts over the colour groups: the cards missing from held
    groups, the groups held that count as groups, and the buildable groups held."""
    wilds = A[o + K_WILD]
    if missing > wilds:
        return False
    if groups == 0:
        # Only spare wilds could make a group, and only where the rules let them stand alone.
        if not RB[R_WILD_ANY_GROUP] or wilds - missing < 2:
            return False
        buildable = 1
    if not houses_in_order(A, o, RB, buildable):
        return False
    return not (RB[R_JAIL_BLOCKS] and A[o + K_JAIL] > 0 and A[o + K_JAILFREE] == 0)


@njit_no_refcount
def complete_hand_bound(A, o, RB):
    """The most cards a complete hand made of some of these cards can hold: all of them but the
    properties of groups that even every Chance card could not complete (`can_go_out` needs
    each group it holds complete, the Chance cards filling the gaps)."""
    wilds = A[o + K_WILD]
    n = 0
    for k in range(NK):
        n += A[o + k]
    for c in range(NC):
        if 0 < A[o + c] < need_of(RB, c) - wilds:
            n -= A[o + c]
    return n


@njit_no_refcount
def wild_fits(A, o, RB, c, extra):
    """May a wild be counted in group c (which already has `extra` wilds in it)?"""
    n = A[o + c] + extra
    if A[o + c] == 0 and not RB[R_WILD_ANY_GROUP]:
        return False
    top = 4 if c == RAIL else RB[R_SIZE + c]
    return n < top


@njit_no_refcount
def wild_matters(A, o, RB, c, extra):
    """Does one more wild in group c (which already has `extra` wilds in it) change anything
    `score_placed` reads: whether the group is complete, or its value (railroads)? A placement
    with a wild that does not scores exactly what the placement without it scores."""
    n = A[o + c] + extra
    need = need_of(RB, c)
    return n + 1 >= need and (n < need or full_value(RB, c, n + 1) != full_value(RB, c, n))


@njit_no_refcount
def score_placed(A, o, RB, impr, w0, w1, P):
    """Score of a hand with its wilds (if any) placed in groups w0 and w1 (-1: unused);
    `impr`: the holder may score improvements. Writes (groups, improvements, bonus, doubling)
    into P[0:4] and returns the total."""
    groups = 0
    best_h = -1  # the complete buildable group with the highest house value
    used = 0  # bit mask of complete buildable groups already built on
    n_complete_b = 0
    for c in range(NC):
        n = A[o + c] + (1 if w0 == c else 0) + (1 if w1 == c else 0)
        if n == 0:
            continue
        if n >= need_of(RB, c):
            groups += full_value(RB, c, n)
            if c < N_BUILDABLE:
                n_complete_b += 1
                if best_h < 0 or RB[R_HVAL + c] > RB[R_HVAL + best_h]:
                    best_h = c
        elif RB[R_INCOMPLETE]:
            groups += A[o + c] * RB[R_CVAL + c]
    improvements = 0
    tokens = 0
    for c in range(NC):
        t = A[o + K_TOKEN + c]
        if t == 0:
            continue
        n = A[o + c] + (1 if w0 == c else 0) + (1 if w1 == c else 0)
        if RB[R_TOKEN_NEEDS] and n < need_of(RB, c):
            continue
        tokens += t * full_value(RB, c, 4)
    if RB[R_TOKENS_IMPR]:
        if impr:
            improvements += tokens
    else:
        improvements += tokens
    if impr and n_complete_b > 0:
        hotels = A[o + K_HOTEL]
        if RB[R_IMPR_ONE]:
            if RB[R_HOUSES_NUMBERED]:
                h = chain_len(A, o, 0)
            else:
                h = n_houses(A, o)
                if RB[R_MAX_HOUSES] > 0:
                    h = min(h, RB[R_MAX_HOUSES])
            improvements += h * RB[R_HVAL + best_h]
            if hotels > 0 and (h >= 4 or not RB[R_HOTEL_FOUR]):
                improvements += RB[R_HOTEL_VALUE]
        else:
            # Houses on several groups: the longest chain on the group with the highest house
            # value, and so on; a hotel tops each chain of four (or any group without that rule).
            left = n_houses(A, o)
            if RB[R_MAX_HOUSES] > 0:
                left = min(left, RB[R_MAX_HOUSES])
            j = 0
            while True:
                if RB[R_HOUSES_NUMBERED]:
                    h = chain_len(A, o, j)
                else:
                    h = min(left, 4)
                    left -= h
                if h == 0 and (hotels == 0 or RB[R_HOTEL_FOUR]):
                    break
                g = -1
                for c in range(N_BUILDABLE):
                    if (used >> c) & 1 or A[o + c] + (1 if w0 == c else 0) + (1 if w1 == c else 0) < need_of(RB, c):
                        continue
                    if g < 0 or RB[R_HVAL + c] > RB[R_HVAL + g]:
                        g = c
                if g < 0:
                    break
                used |= 1 << g
                improvements += h * RB[R_HVAL + g]
                if hotels > 0 and (h >= 4 or not RB[R_HOTEL_FOUR]):
                    improvements += RB[R_HOTEL_VALUE]
                    hotels -= 1
                j += 1
    bonus = A[o + K_GO] * RB[R_GO_VALUE] + A[o + K_FP] * RB[R_FP_VALUE]
    bonus += A[o + K_JAIL] * RB[R_JAIL_VALUE] + A[o + K_JAILFREE] * RB[R_JAILFREE_VALUE]
    total = groups + improvements + bonus
    doubled = 0
    for _ in range(min(A[o + K_DOUBLE], 4)):
        doubled += total + doubled
    P[0] = groups
    P[1] = improvements
    P[2] = bonus
    P[3] = doubled
    return total + doubled


@njit_no_refcount
def hand_score(A, o, RB, goer, P):
    """A hand's score (before the table-wide Mr. Monopoly and jackpot awards). Whoever went out
    places its Chance cards where they score most; nobody else can use them. Every placement is
    tried: up to two cards by best_placement, more (deck.chance=3 or above, a card-value study)
    by score_with_many_wilds. So a hand that may go out (`can_go_out`) scores every group it
    holds as complete."""
    impr = goer or not RB[R_IMPR_GOER]
    wilds = A[o + K_WILD] if goer else 0
    if wilds > 2:
        return score_with_many_wilds(A, o, RB, impr, wilds, P)
    return best_placement(A, o, RB, impr, wilds, P)


@njit_no_refcount
def best_placement(A, o, RB, impr, wilds, P):
    """The best score with up to two wilds placed (every placement tried; see hand_score)."""
    best = score_placed(A, o, RB, impr, -1, -1, P)
    if wilds == 0:
        return best
    p0 = P[0]
    p1 = P[1]
    p2 = P[2]
    p3 = P[3]
    # A placement whose last wild changes nothing is skipped: it scores (every part of P
    # included) what the placement without that wild scored, which was tried before it, and
    # ties keep the first best.
    for w0 in range(NC):
        if not wild_fits(A, o, RB, w0, 0):
            continue
        if wild_matters(A, o, RB, w0, 0):
            v = score_placed(A, o, RB, impr, w0, -1, P)
            if v > best:
                best, p0, p1, p2, p3 = v, P[0], P[1], P[2], P[3]
        if wilds < 2:
            continue
        for w1 in range(w0, NC):
            extra = 1 if w1 == w0 else 0
            if not wild_fits(A, o, RB, w1, extra) or not wild_matters(A, o, RB, w1, extra):
                continue
            v = score_placed(A, o, RB, impr, w0, w1, P)
            if v > best:
                best, p0, p1, p2, p3 = v, P[0], P[1], P[2], P[3]
    P[0] = p0
    P[1] = p1
    P[2] = p2
    P[3] = p3
    return best


@njit_no_refcount
def wild_options(A, o, RB, c):
    """(first, count): the numbers of Chance cards worth placing in group c, besides none, are
    first .. first + count - 1: enough to complete it, and more only while a railroad group
    gains value (up to four cards). (0, 0) where no Chance card may stand."""
    if not wild_fits(A, o, RB, c, 0):
        return 0, 0
    n = A[o + c]
    top = 4 if c == RAIL else RB[R_SIZE + c]
    first = max(1, need_of(RB, c) - n)
    return first, max(0, top - n - first + 1)


@njit_no_refcount
def score_with_many_wilds(A, o, RB, impr, wilds, P):
    """hand_score for more than two Chance cards: every placement that gives each group either
    no Chance card or enough to complete it (wild_options), with no more cards than held. A
    placement is counted into A (and taken out again), which score_placed may read as real
    cards: every group given a card is complete, so no incomplete group is valued with one."""
    placements = 1
    for c in range(NC):
        placements *= 1 + wild_options(A, o, RB, c)[1]
    best = score_placed(A, o, RB, impr, -1, -1, P)  # no card placed (placement 0): ties keep it
    p0, p1, p2, p3 = P[0], P[1], P[2], P[3]
    for i in range(1, placements):
        fills = 0  # 4 bits per group: the cards placed in it
        used = 0
        rest = i
        for c in range(NC):
            first, count = wild_options(A, o, RB, c)
            digit = rest % (count + 1)
            rest //= count + 1
            if digit > 0:
                fills |= int(first + digit - 1) << (4 * c)  # int: as plain Python an int32 shift would wrap
                used += first + digit - 1
        if used > wilds:
            continue
        for c in range(NC):
            A[o + c] += (fills >> (4 * c)) & 15
        v = score_placed(A, o, RB, impr, -1, -1, P)
        for c in range(NC):
            A[o + c] -= (fills >> (4 * c)) & 15
        if v > best:
            best, p0, p1, p2, p3 = v, P[0], P[1], P[2], P[3]
    P[0] = p0
    P[1] = p1
    P[2] = p2
    P[3] = p3
    return best
