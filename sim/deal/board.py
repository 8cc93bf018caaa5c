"""Read-only questions about a Monopoly Deal table, shared by the kernel and the bots.

Everything here only reads ``S``, the rules at its head included (layout in
sim/deal/layout.py), but list_collection, which writes the bots' scratch area; the kernel
owns every change of state. Colours are 0 .. NC - 1; a
property group g is a colour or LOOSE.
"""

from sim.core.jit import njit_no_refcount, trailing_zeros
from sim.deal.layout import (
    ANY_WILDS,
    G_PLAYS_LEFT,
    HAND_,
    HAND_N,
    M_ACTION,
    M_BANK,
    M_PLACE,
    MAX_HAND,
    R_CARDS,
    R_FORCED_FROM_FULL,
    R_MAX_DOUBLES,
    R_PLAYERS,
    BANK_VAL,
    COMPLETE,
    COMPLETE_MASK,
    GROUP,
    GRP,
    GRP_N,
    GRP_ORD,
    GRP_VAL,
    HELD_MASK,
    HOTEL,
    LOOSE,
    HOUSE,
    MAX_GROUP,
    MAX_RENT,
    NC,
    NCOMP,
    NG,
    OWNER,
    PAYV,
    PROP,
    R_BUILDABLE,
    R_CARD_C1,
    R_CARD_C2,
    R_CARD_TYPE,
    R_CARD_VALUE,
    R_HOTEL_RENT,
    R_HOTEL_REPLACES,
    R_HOUSE_RENT,
    R_NEEDS_PROPERTY,
    R_PAY_BUILDINGS,
    R_RENT,
    R_SET_SIZE,
    SCRATCH,
    WHERE,
)
from sim.deal.rules import (
    BIRTHDAY,
    DEAL_BREAKER,
    DEBT_COLLECTOR,
    DOUBLE_RENT,
    FORCED_DEAL,
    HOTEL as T_HOTEL,
    HOUSE as T_HOUSE,
    PASS_GO,
    PROPERTY,
    RENT,
    RENT_ANY,
    SLY_DEAL,
    WILD,
    WILD_ANY,
)


@njit_no_refcount
def wild_home_key(S, c, n):
    """How far colour c, holding n cards with an ordinary property among them, is from being a
    home for a stranded any-colour wild: the cards it lacks, and a complete colour only after
    every incomplete one (the smallest key wins; kernel.home_for_any_wild)."""
    key = S[R_SET_SIZE + c] - n
    return 1000 - key if key <= 0 else key


@njit_no_refcount
def completes_after_swap(S, t, take, give, give_colour):
    """Would seat t hold a complete set it does not hold now after losing property card `take`
    (Sly Deal, Forced Deal) and receiving card `give` in colour give_colour (Forced Deal; -1
    for no card)? Besides give itself, the any-colour wilds that losing `take` strands (its
    colour's last ordinary property gone), an any-colour wild received, and those waiting in
    LOOSE move at once to t's colour nearest completion (kernel.repair), and may complete it."""
    g_take = S[GROUP + take]
    lost_ord = g_take if ctype(S, take) == PROPERTY else -1
    if give >= 0 and ctype(S, give) == WILD_ANY:
        give_colour = -1  # it moves like a stranded wild
    got_ord = give_colour if give >= 0 and ctype(S, give) == PROPERTY else -1
    movers = 1 if give >= 0 and give_colour < 0 else 0
    if S[ANY_WILDS + t] > 0:  # else no wild of t's can move (the usual case)
        gidx = t * NG + g_take
        if lost_ord >= 0 and S[GRP_ORD + gidx] == 1:
            for k in range(S[GRP_N + gidx]):
                movers += int(ctype(S, S[GRP + gidx * MAX_GROUP + k]) == WILD_ANY)
        loose = t * NG + LOOSE
        for k in range(S[GRP_N + loose]):
            card = S[GRP + loose * MAX_GROUP + k]
            movers += int(card != take and ctype(S, card) == WILD_ANY)
    added = 0  # 4 bits per colour: the wilds moved into it
    for _ in range(movers):
        home = LOOSE
        best_key = 1 << 20
        for c in range(NC):
            if S[GRP_ORD + t * NG + c] - int(c == lost_ord) + int(c == got_ord) > 0:
                n = S[GRP_N + t * NG + c] - int(c == g_take) + int(c == give_colour) + ((added >> (4 * c)) & 15)
                key = wild_home_key(S, c, n)
                if key < best_key:
                    home = c
                    best_key = key
        if home == LOOSE:
            break
        added += 1 << (4 * home)
    # Only a colour that gained a card can become complete: give's, and the wilds' homes.
    gained = added | (1 << (4 * give_colour) if give_colour >= 0 else 0)
    for c in range(NC):
        if (gained >> (4 * c)) & 15 == 0 or is_complete(S, t, c):
            continue
        n = S[GRP_N + t * NG + c] - int(c == g_take) + int(c == give_colour) + ((added >> (4 * c)) & 15)
        n_ord = S[GRP_ORD + t * NG + c] - int(c == lost_ord) + int(c == got_ord)
        if n >= S[R_SET_SIZE + c] and (n_ord > 0 or S[R_NEEDS_PROPERTY] == 0):
            return True
    return False


@njit_no_refcount
def ctype(S, c):
    return S[R_CARD_TYPE + c]


@njit_no_refcount
def cvalue(S, c):
    return S[R_CARD_VALUE + c]


@njit_no_refcount
def is_complete(S, p, c):
    """Seat p's cards of colour c make a complete set (cached; see compute_complete)."""
    if c >= NC:
        return False
    return S[COMPLETE + p * NC + c] == 1


@njit_no_refcount
def compute_complete(S, p, c):
    """Seat p's cards of colour c make a complete set, computed from the group."""
    if c >= NC:
        return False
    n = S[GRP_N + p * NG + c]
    if n < S[R_SET_SIZE + c]:
        return False
    return S[GRP_ORD + p * NG + c] > 0 or S[R_NEEDS_PROPERTY] == 0


@njit_no_refcount
def held_mask(S, p):
    """Bit g set for each of seat p's groups (colours and LOOSE) holding a card (kept by the
    kernel's card moves, checked by check_invariants), for scans that visit the set bits."""
    return S[HELD_MASK + p]


@njit_no_refcount
def complete_mask(S, p):
    """Bit c set for each of seat p's complete sets (the cached flags of is_complete as one
    word, kept by kernel.refresh)."""
    return S[COMPLETE_MASK + p]


@njit_no_refcount
def n_complete(S, p):
    """Complete sets of different colours held by seat p (cached)."""
    return S[NCOMP + p]


@njit_no_refcount
def base_rent(S, c, n):
    """Rent of n cards of colour c, buildings aside (n is capped at the set size)."""
    if n <= 0:
        return 0
    size = S[R_SET_SIZE + c]
    return S[R_RENT + c * MAX_RENT + min(n, size) - 1]


@njit_no_refcount
def rent_of(S, p, c):
    """The rent seat p charges for colour c, with its House and Hotel on a complete set."""
    r = base_rent(S, c, S[GRP_N + p * NG + c])
    if r > 0 and is_complete(S, p, c):
        if S[HOTEL + p * NC + c] >= 0:
            if S[R_HOTEL_REPLACES] == 1:
                r += S[R_HOTEL_RENT]
            else:
                r += S[R_HOTEL_RENT] + S[R_HOUSE_RENT]
        elif S[HOUSE + p * NC + c] >= 0:
            r += S[R_HOUSE_RENT]
    return r


@njit_no_refcount
def building_value(S, p):
    v = 0
    for c in range(NC):
        if S[HOUSE + p * NC + c] >= 0:
            v += S[R_CARD_VALUE + S[HOUSE + p * NC + c]]
        if S[HOTEL + p * NC + c] >= 0:
            v += S[R_CARD_VALUE + S[HOTEL + p * NC + c]]
    return v


@njit_no_refcount
def payable(S, p):
    """Everything seat p could pay with: bank, properties (and buildings if the rule allows)."""
    return S[PAYV + p]


@njit_no_refcount
def compute_payable(S, p):
    """payable, computed from the bank, the groups and the buildings."""
    v = S[BANK_VAL + p]
    for g in range(NG):
        v += S[GRP_VAL + p * NG + g]
    if S[R_PAY_BUILDINGS] == 1:
        v += building_value(S, p)
    return v


@njit_no_refcount
def list_collection(S, p, n):
    """Seat p's payment candidates after its bank cards (which are S[SCRATCH:SCRATCH + n]):
    lists its properties with a value, then its buildings when the rule allows, and returns
    the new count. Listed only when needed (see kernel.collect)."""
    m = S[HELD_MASK + p]
    while m != 0:  # the groups holding a card, in order
        g = trailing_zeros(m)
        m &= m - 1
        gidx = p * NG + g
        for k in range(S[GRP_N + gidx]):
            c = S[GRP + gidx * MAX_GROUP + k]
            if cvalue(S, c) > 0:
                S[SCRATCH + n] = c
                n += 1
    if S[R_PAY_BUILDINGS] == 1:
        for c in range(NC):  # a Hotel is listed before the House under it
            for slot in (HOTEL, HOUSE):
                b = S[slot + p * NC + c]
                if b >= 0:
                    S[SCRATCH + n] = b
                    n += 1
    return n


@njit_no_refcount
def can_take(S, card, c):
    """The card may stand in colour c (any owner)."""
    t = S[R_CARD_TYPE + card]
    if t == PROPERTY:
        return S[R_CARD_C1 + card] == c
    if t == WILD:
        return S[R_CARD_C1 + card] == c or S[R_CARD_C2 + card] == c
    if t == WILD_ANY:
        return 0 <= c < NC
    return False


@njit_no_refcount
def can_place(S, p, card, c):
    """Seat p may put this property card in its colour-c group now: an any-colour wild needs
    an ordinary property of that colour already there."""
    if not can_take(S, card, c):
        return False
    if S[R_CARD_TYPE + card] == WILD_ANY:
        return S[GRP_ORD + p * NG + c] > 0
    return True


@njit_no_refcount
def stealable(S, t, card):
    """Sly Deal / Forced Deal may take this card of seat t: a property not in a complete set. A
    card beyond a full set is not part of it (one reading for both cards: Deal Breaker takes a
    set's worth and leaves it behind, see beyond_set)."""
    if S[WHERE + card] != PROP or S[OWNER + card] != t:
        return False
    g = S[GROUP + card]
    return not is_complete(S, t, g) or beyond_set(S, t, g, card)


@njit_no_refcount
def beyond_set(S, t, g, card):
    """In seat t's complete group g, the card is one Deal Breaker would leave behind: it takes
    ordinary properties first, then two-colour wilds, then any-colour wilds, each in the group's
    order, until it has a set's worth (kernel.steal_set)."""
    rank = type_rank(S, card)
    taken_first = 0  # cards Deal Breaker would take before this one
    seen = False
    for k in range(S[GRP_N + t * NG + g]):
        other = S[GRP + (t * NG + g) * MAX_GROUP + k]
        seen = seen or other == card
        r = type_rank(S, other)
        taken_first += r < rank or (r == rank and not seen)
    return taken_first >= S[R_SET_SIZE + g]


@njit_no_refcount
def type_rank(S, card):
    """The order in which Deal Breaker takes a set's cards: properties, wilds, any-colour wilds."""
    t = S[R_CARD_TYPE + card]
    return 0 if t == PROPERTY else 1 if t == WILD else 2


@njit_no_refcount
def can_build(S, p, c, hotel):
    """A House (hotel=False) or Hotel may go on seat p's colour c now."""
    if c < 0 or c >= NC or S[R_BUILDABLE + c] == 0 or not is_complete(S, p, c):
        return False
    if hotel:
        return S[HOUSE + p * NC + c] >= 0 and S[HOTEL + p * NC + c] < 0
    return S[HOUSE + p * NC + c] < 0


@njit_no_refcount
def seat_after(p, j, n_players):
    """The seat j places after seat p in turn order (0 <= j < n_players): (p + j) % n_players
    without a division."""
    q = p + j
    return q - n_players if q >= n_players else q


@njit_no_refcount
def in_hand(S, p, card_type):
    """How many cards of a type seat p holds."""
    n = 0
    for k in range(S[HAND_N + p]):
        n += S[R_CARD_TYPE + S[HAND_ + p * MAX_HAND + k]] == card_type
    return n


@njit_no_refcount
def play_legal(S, p, k, mode, a, b, t):
    """Whether seat p may play its hand card number k so (see strategies/deal.py choose_play for
    mode, a, b, t) now. kernel.play_card plays only a legal play."""
    if k < 0 or k >= S[HAND_N + p]:
        return False
    c = S[HAND_ + p * MAX_HAND + k]
    typ = S[R_CARD_TYPE + c]
    n_players = S[R_PLAYERS]
    is_property = typ == PROPERTY or typ == WILD or typ == WILD_ANY
    if mode == M_BANK:
        return not is_property and S[R_CARD_VALUE + c] > 0
    if mode == M_PLACE:
        return is_property and can_place(S, p, c, a)
    if mode != M_ACTION:
        return False
    opponent = 0 <= t < n_players and t != p
    if typ == RENT or typ == RENT_ANY:
        if a < 0 or a >= NC or S[GRP_N + p * NG + a] == 0:
            return False
        if typ == RENT and S[R_CARD_C1 + c] != a and S[R_CARD_C2 + c] != a:
            return False
        return ((typ == RENT or opponent) and 0 <= b <= S[R_MAX_DOUBLES] and b <= S[G_PLAYS_LEFT] - 1
                and b <= in_hand(S, p, DOUBLE_RENT))
    if typ == DEBT_COLLECTOR:
        return opponent
    if typ == BIRTHDAY or typ == PASS_GO:
        return True
    if typ == SLY_DEAL or typ == FORCED_DEAL:
        if not opponent or a < 0 or a >= S[R_CARDS] or not stealable(S, t, a):
            return False
        if typ == FORCED_DEAL:
            if b < 0 or b >= S[R_CARDS] or S[WHERE + b] != PROP or S[OWNER + b] != p:
                return False
            return S[R_FORCED_FROM_FULL] == 1 or not is_complete(S, p, S[GROUP + b])
        return True
    if typ == DEAL_BREAKER:
        return opponent and 0 <= a < NC and is_complete(S, t, a)
    if typ == T_HOUSE or typ == T_HOTEL:
        return can_build(S, p, a, typ == T_HOTEL)
    return False  # Just Say No and Double the Rent have no action of their own
