"""Classic Monopoly kernel: whole games in compiled code.

``play_batch`` plays games ``first .. first + n - 1`` of a run in parallel and writes one row
per game into preallocated arrays. Game g draws only from generators seeded by (seed, g): the
table's stream (dice, deck shuffles) and one stream per seat's policy, so a row never depends on
the thread count or on how a run is cut into chunks.

A game is one int32 array ``S``: the rules and the seats' bot kinds at its head, then the state
(offsets in sim/classic/layout.py). Every game starts from a copy of a starting state ``S0`` (the standard
start from ``start_state``, or a mid-game position read from a file), so the same code plays
fresh games and positions.

Money moves only through ``bank_pays`` and ``move_money``, which keep
``sum(cash) + pot + bank == 0``; deeds change hands only through ``set_owner``; buildings only
through ``build_one``, ``sell_one`` and bankruptcy. ``check_invariants`` verifies all of it.
"""

import numpy as np
from numba import njit, prange

from sim.classic.board import (
    K_CHANCE,
    K_CHEST,
    K_FREE_PARKING,
    K_GO_TO_JAIL,
    K_STREET,
    K_TAX,
    can_build,
    can_mortgage,
    can_sell,
    cheapest_house,
    deed_tradable,
    group_sq,
    has_group,
    interest,
    is_deed,
    liquid_value,
    management_key,
    net_worth,
    rent,
    sell_value,
    tax_worth,
    trade_legal,
    trade_mark,
    unmortgage_cost,
)
from sim.classic.layout import (
    DECK_DRAWS,
    DK_BID,
    DK_BUILD,
    DK_BUY,
    DK_COUNTER,
    DK_FUND,
    DK_HOUSE_BID,
    DK_JAIL,
    DK_LIFT,
    DK_LIFT_RECEIVED,
    DK_PROPOSE,
    DK_RAISE,
    DK_RESPOND,
    DK_SELL_DEED,
    MAX_DOLLARS,
    OFFER_ACTIONS,
    standard_offer,
    END_ERROR,
    END_LAST_STANDING,
    END_ROUND_LIMIT,
    EV_AUCTION,
    EV_BANKRUPT,
    EV_BID,
    EV_BUILD,
    EV_BUY,
    EV_CARD,
    EV_DEED_MOVES,
    EV_FEE,
    EV_JACKPOT,
    EV_JAIL,
    EV_JAIL_CHOICE,
    EV_LAND,
    EV_LEAVE_JAIL,
    EV_LIFT,
    EV_MORTGAGE,
    EV_OFFER,
    EV_ANSWER,
    EV_PAY_PLAYER,
    EV_ROLL,
    EV_RENT,
    EV_SALARY,
    EV_SELL,
    EV_INTEREST,
    EV_COMES_DOWN,
    EV_TRADE,
    EV_UNSOLD,
    ALIVE,
    BANK,
    BANK_N,
    BUF,
    CASH,
    DECK,
    DECK_HEAD,
    DECK_N,
    DICE_N,
    DICE_POS,
    DICE_SCRIPT,
    G_ALIVE_N,
    G_AUCTIONS,
    G_BANK,
    G_BOARD,
    G_CURRENT,
    G_DICE,
    G_EPOCH,
    G_HOTELS,
    G_HOUSES,
    G_POT,
    G_ROUND,
    G_SHORTAGE_AUCTIONS,
    G_START_TURN,
    G_STATUS,
    G_TRADES,
    G_TURN,
    GOOJF,
    GOWN,
    GS_FIRST_FULL,
    GS_FULL_SINCE,
    GS_FULL_TURNS,
    GS_INVEST,
    GS_RENT,
    GSTATS,
    HOTEL,
    JAIL,
    LAPPED,
    LEVEL,
    MAX_CARDS,
    MAX_PLAYERS,
    MEMO_BOARD,
    MORT,
    MORT_N,
    N_BUF,
    N_DECKS,
    N_GROUPS,
    N_GSTAT,
    N_SEAT_COLS,
    N_SQ,
    OWNER,
    P_BOARD,
    POS,
    POT,
    R_ANY_TIME,
    R_AUCTION_MIN,
    R_AUCTION_STEP,
    R_AUCTIONS,
    R_BANKRUPT_AUCTION,
    R_CARD_A,
    R_CARD_B,
    R_CARD_FX,
    R_DECK_SIZE,
    R_EVEN_BUILD,
    R_FIRST_LAP,
    R_FP_JACKPOT,
    R_FP_SEED,
    R_GO_LAND_BONUS,
    R_GOOJF_CARD,
    R_GROUP_SIZE,
    R_GROUP_STREETS,
    R_HOTELS,
    R_HOUSES,
    R_INCOME_PCT,
    R_INCOME_SQ,
    R_JAIL_FINE,
    R_JAIL_TURNS,
    R_KIND,
    R_MAX_ROUNDS,
    R_NEXT_RR,
    R_NEXT_UTIL,
    R_PLAYERS,
    R_SALARY,
    R_SNAKE_EYES,
    R_SPEEDING,
    R_SQ_GROUP,
    R_SQ_HOUSE,
    R_SQ_KIND,
    R_SQ_MORTGAGE,
    R_SQ_PRICE,
    R_START_CASH,
    R_TRADING,
    RENT_BOARD,
    RENT_MAX,
    RNG_SIZE,
    RNG_TABLE,
    RULES_SIZE,
    SC_AUCTIONS_WON,
    SC_BOUGHT,
    SC_CASH,
    SC_DEEDS,
    SC_HOTELS_BUILT,
    SC_HOUSES_BUILT,
    SC_JAIL_TURNS,
    SC_MONOPOLIES,
    SC_MORTGAGES,
    SC_NET_WORTH,
    SC_OUT_TURN,
    SC_RENT_PAID,
    SC_RENT_RECEIVED,
    SC_TRADES,
    SC_TURNS,
    SC_WIN,
    STATE_SIZE,
    STATS,
    TR_CASH,
    TR_GET,
    TR_GIVE,
    TR_JAIL_GET,
    TR_JAIL_GIVE,
    TR_N_GET,
    TR_N_GIVE,
    TRADE_SCAN,
    VERIFY_MEMOS,
    WHOLE_N,
)
from sim.classic.rules import (
    FX_ADVANCE,
    FX_BACK,
    FX_COLLECT,
    FX_COLLECT_EACH,
    FX_GOOJF,
    FX_JAIL,
    FX_NEAREST_RR,
    FX_NEAREST_UTIL,
    FX_PAY,
    FX_PAY_EACH,
    FX_REPAIRS,
    JAIL_SQUARE,
)
from sim.core.decisions import (
    add_legal,
    listed_answer,
    outside,
    played_from_outside,
    resuming,
    snapshot,
    take_answer,
)
from sim.core.event_log import EV_GAME_END, EV_ROUND, EV_SEAT_STATE, EV_TURN, log_event
from sim.core.jit import njit_inline, njit_no_refcount
from sim.core.rng import randint, seed_state, shuffle
from strategies.classic import (
    trade_balance,
    JAIL_CARD,
    JAIL_PAY,
    builds_at_random,
    choose_funding,
    choose_liquidation,
    choose_sale,
    choose_unmortgage,
    fund_purchase,
    house_bid,
    lift_received_mortgage,
    max_rent_of,
    note_settled,
)

# The decision entry points: the built-in bots' (strategies/classic.py), or a user's bot's.
from sim.classic.bots import (
    accept_counter,
    choose_build,
    jail_choice,
    management_settled,
    max_bid,
    never_proposes,
    propose_trade,
    respond_trade,
    want_buy,
)

# Per-game output columns.
(
    G_WINNER,
    G_ROUNDS_OUT,
    G_TURNS_OUT,
    G_CAPPED,
    G_AUCTIONS_OUT,
    G_TRADES_OUT,
    G_SHORTAGES_OUT,
    G_BANKRUPTCIES,
    G_STATUS_OUT,
    N_GAME_COLS,
) = range(10)
GAME_COLS = ("winner", "rounds", "turns", "hit_turn_limit", "auctions", "trades", "shortage_auctions",
             "bankruptcies", "status")

# Status codes: 0 is a clean game, anything else an invariant failure.
(OK, ERR_MONEY, ERR_CASH, ERR_DEEDS, ERR_BUILDINGS, ERR_EVEN, ERR_DECK, ERR_ILLEGAL, ERR_PLAYERS, ERR_MEMO,
 ERR_RENT_MEMO, PAUSED) = range(12)
STATUS_NAMES = (
    "ok",
    "money created or lost (players + pot + bank != 0)",
    "a player has negative cash",
    "deed ownership, mortgages or group counts out of order",
    "houses or hotels created or lost",
    "buildings on a street that may not carry them, or uneven",
    "a card lost or duplicated",
    "a policy made an illegal move",
    "a bankrupt player still holds something, or a position is out of range",
    "a window the management memo skipped would have changed the board (VERIFY_MEMOS)",
    "a remembered highest rent differs from a fresh scan",
    "stopped at a decision to be answered from outside (a stepped game)",
)

MAX_OFFERS_PER_TURN = 2
BIG_SUPPLY = 1 << 20


@njit_no_refcount
def stat(p, col):
    return STATS + p * N_SEAT_COLS + col


@njit_inline
def recording(S):
    """Whether this game logs its events (a replay, sim/core/replay.py)."""
    return S.shape[0] > STATE_SIZE


@njit_inline
def log(S, kind, seat, card, amount, target):
    log_event(S, STATE_SIZE, kind, seat, card, amount, target)


@njit_no_refcount
def gstat(p, g, k):
    return GSTATS + (p * N_GROUPS + g) * N_GSTAT + k


# ---------------------------------------------------------------------------------------------
# Money and deeds


@njit_no_refcount
def bank_pays(S, p, amount):
    S[CASH + p] += amount
    S[G_BANK] -= amount


@njit_no_refcount
def move_money(S, p, amount, to):
    """p hands over `amount` it holds: to a player, the pot (POT) or the bank (BANK)."""
    S[CASH + p] -= amount
    if to >= 0:
        S[CASH + to] += amount
    elif to == POT:
        S[G_POT] += amount
    else:
        S[G_BANK] += amount


@njit_no_refcount
def fee_to(S):
    """Where taxes, fines and card fees go: the pot under the Free Parking jackpot."""
    return POT if S[R_FP_JACKPOT] == 1 else BANK


@njit_no_refcount
def board_changed(S, p):
    """Deeds, buildings or mortgages of p (-1: the bank's) changed: the memos keyed on the
    board (management, the highest rent faced) must look again."""
    S[G_BOARD] += 1
    if p >= 0:
        S[P_BOARD + p] += 1


@njit_no_refcount
def set_owner(S, sq, p):
    """Deed sq passes to p (-1: back to the bank, which clears its mortgage)."""
    old = S[OWNER + sq]
    if old == p:
        return
    g = S[R_SQ_GROUP + sq]
    size = S[R_GROUP_SIZE + g]
    t = S[G_TURN]
    if old < 0:
        S[BANK_N + g] -= 1
    else:
        if S[GOWN + old * N_GROUPS + g] == size:
            S[gstat(old, g, GS_FULL_TURNS)] += t - S[gstat(old, g, GS_FULL_SINCE)]
            S[WHOLE_N + old] -= S[R_GROUP_STREETS + g]
        S[GOWN + old * N_GROUPS + g] -= 1
        if S[MORT + sq] == 1:
            S[MORT_N + old] -= 1
    S[OWNER + sq] = p
    if p < 0:
        S[MORT + sq] = 0
        S[BANK_N + g] += 1
    else:
        S[GOWN + p * N_GROUPS + g] += 1
        if S[MORT + sq] == 1:
            S[MORT_N + p] += 1
        if S[GOWN + p * N_GROUPS + g] == size:
            S[WHOLE_N + p] += S[R_GROUP_STREETS + g]
            S[gstat(p, g, GS_FULL_SINCE)] = t
            if S[gstat(p, g, GS_FIRST_FULL)] == 0:
                S[gstat(p, g, GS_FIRST_FULL)] = t + 1
            S[stat(p, SC_MONOPOLIES)] |= 1 << g
    S[G_EPOCH] += 1
    board_changed(S, p)
    if old >= 0:
        S[P_BOARD + old] += 1


@njit_no_refcount
def mortgage(S, p, sq):
    log(S, EV_MORTGAGE, p, sq, S[R_SQ_MORTGAGE + sq], -1)
    S[MORT + sq] = 1
    S[MORT_N + p] += 1
    bank_pays(S, p, S[R_SQ_MORTGAGE + sq])
    S[stat(p, SC_MORTGAGES)] += 1
    board_changed(S, p)


@njit_no_refcount
def lift_mortgage(S, p, sq, cost):
    log(S, EV_LIFT, p, sq, cost, -1)
    move_money(S, p, cost, BANK)
    S[MORT + sq] = 0
    S[MORT_N + p] -= 1
    board_changed(S, p)


@njit_no_refcount
def build_one(S, p, sq, price):
    """Put one more level on street sq for `price` (the house cost, or an auction price)."""
    lv = S[LEVEL + sq]
    log(S, EV_BUILD, p, sq, price, lv + 1)
    if lv == HOTEL - 1:
        S[G_HOTELS] -= 1
        S[G_HOUSES] += HOTEL - 1
        S[stat(p, SC_HOTELS_BUILT)] += 1
    else:
        S[G_HOUSES] -= 1
        S[stat(p, SC_HOUSES_BUILT)] += 1
    S[LEVEL + sq] = lv + 1
    move_money(S, p, price, BANK)
    S[gstat(p, S[R_SQ_GROUP + sq], GS_INVEST)] += price
    board_changed(S, p)


@njit_no_refcount
def sell_one(S, p, sq):
    """Sell one level of street sq back to the bank at the sell price. A hotel breaks into four
    houses; when the bank has fewer than four, the group comes down (evenly, under even
    building) to the highest level the bank's houses allow, and every level removed is paid."""
    lv = S[LEVEL + sq]
    g = S[R_SQ_GROUP + sq]
    board_changed(S, p)
    if lv < HOTEL:
        log(S, EV_SELL, p, sq, sell_value(S, sq, 1), lv)
        S[LEVEL + sq] = lv - 1
        S[G_HOUSES] += 1
        bank_pays(S, p, sell_value(S, sq, 1))
    elif S[G_HOUSES] >= HOTEL - 1:
        log(S, EV_SELL, p, sq, sell_value(S, sq, 1), lv)
        S[LEVEL + sq] = HOTEL - 1
        S[G_HOUSES] -= HOTEL - 1
        S[G_HOTELS] += 1
        bank_pays(S, p, sell_value(S, sq, 1))
    elif S[R_EVEN_BUILD] == 0:
        new = S[G_HOUSES]
        log(S, EV_SELL, p, sq, sell_value(S, sq, HOTEL - new), lv)
        log(S, EV_COMES_DOWN, p, sq, sell_value(S, sq, HOTEL - new), new)
        S[G_HOUSES] -= new
        S[G_HOTELS] += 1
        S[LEVEL + sq] = new
        bank_pays(S, p, sell_value(S, sq, HOTEL - new))
    else:
        size = S[R_GROUP_SIZE + g]
        top = 0
        for t in range(HOTEL - 2, -1, -1):
            net = 0
            for k in range(size):
                lv2 = S[LEVEL + group_sq(S, g, k)]
                new = min(lv2, t)
                if lv2 == HOTEL:
                    net += new
                else:
                    net -= lv2 - new
            if net <= S[G_HOUSES]:
                top = t
                break
        money = 0
        for k in range(size):
            lv2 = S[LEVEL + group_sq(S, g, k)]
            money += sell_value(S, group_sq(S, g, k), lv2 - min(lv2, top))
        log(S, EV_SELL, p, sq, money, lv)
        for k in range(size):
            s2 = group_sq(S, g, k)
            lv2 = S[LEVEL + s2]
            new = min(lv2, top)
            if new != lv2:
                log(S, EV_COMES_DOWN, p, s2, sell_value(S, s2, lv2 - new), new)
            if lv2 == HOTEL:
                S[G_HOTELS] += 1
                S[G_HOUSES] -= new
            else:
                S[G_HOUSES] += lv2 - new
            S[LEVEL + s2] = new
        bank_pays(S, p, money)


# ---------------------------------------------------------------------------------------------
# Decision points (sim/core/decisions.py): the seat's bot always decides first; a seat played
# from outside the kernel then answers instead. Actions are the layout's DK_* codes' (listed
# in sim/classic/decisions.py).


@njit_inline
def answer(S, rng, kind, p, x, bot):
    """Seat p's action at a decision of `kind` about x (a square, or the other side of a
    trade): its bot's action `bot`, or for a seat played from outside, the outside answer."""
    if outside(S, STATE_SIZE, p):
        return outside_answer(S, rng, kind, p, x, bot)
    return bot


@njit_no_refcount
def outside_answer(S, rng, kind, p, x, bot):
    """The outside answer (see answer). A decision with one legal action is not asked: that
    action is taken. When the game pauses at the decision, it plays on with the bot's action
    until its next status check."""
    n, only = legal_actions(S, kind, p, x, bot, False)
    if n == 1:
        return only
    a = take_answer(S, STATE_SIZE, rng, kind, p, bot)
    if a < 0:
        legal_actions(S, kind, p, x, bot, True)
        a = listed_answer(S, STATE_SIZE, G_STATUS, PAUSED)
    return bot if a < 0 else a


@njit_no_refcount
def listed(S, n, a, write):
    if write:
        add_legal(S, STATE_SIZE, a)
    return n + 1


AMOUNTS = 9  # amounts a bid or counter-offer decision lists, at most


@njit_no_refcount
def amount(kind, i, base, bot, cap):
    """The amounts listed, i = 0 .. AMOUNTS - 1, unsorted. A bid: nothing, 1/2, 3/4, 1, 5/4, 3/2
    and 2 times the base price, the bot's limit and all the cash, none above cap. A
    counter-offer: the bot's own (when it made one), and $50, $100, $250 and $500 more (0: none)."""
    if kind == DK_RESPOND:
        return bot if i == 0 else (50, 100, 250, 500)[i - 1] if i <= 4 else 0
    v = 0
    if 1 <= i <= 6:
        v = base * (2, 3, 4, 5, 6, 8)[i - 1] // 4
    elif i == 7:
        v = bot
    elif i == 8:
        v = cap
    return min(max(v, 0), cap)


@njit_no_refcount
def offer_cost(S, p, q, g):
    """The printed prices of q's deeds of group g and the interest p would owe on the mortgaged
    ones; the price is -1 when q holds none or one may not be traded."""
    price = 0
    owed = 0
    for k in range(S[R_GROUP_SIZE + g]):
        sq = group_sq(S, g, k)
        if S[OWNER + sq] == q:
            if not deed_tradable(S, sq, q):
                return -1, 0
            price += S[R_SQ_PRICE + sq]
            if S[MORT + sq] == 1:
                owed += interest(S, sq)
    return (price if price > 0 else -1), owed


@njit_no_refcount
def standard_offer_cash(price, premium):
    return price * 3 // 2 if premium else price


@njit_no_refcount
def fill_standard_offer(S, p, q, g, premium):
    """Write the standard offer to the trade scratch: all of q's deeds of g for cash."""
    price, owed = offer_cost(S, p, q, g)
    S[TR_N_GIVE] = 0
    S[TR_N_GET] = 0
    S[TR_JAIL_GIVE] = 0
    S[TR_JAIL_GET] = 0
    for k in range(S[R_GROUP_SIZE + g]):
        sq = group_sq(S, g, k)
        if S[OWNER + sq] == q:
            S[TR_GET + S[TR_N_GET]] = sq
            S[TR_N_GET] += 1
    S[TR_CASH] = standard_offer_cash(price, premium)


@njit_no_refcount
def legal_actions(S, kind, p, x, bot, write):
    """The legal actions of seat p's decision of `kind` about x, in increasing order: how many,
    and the last of them; each listed for the step API when `write`."""
    n = 0
    a = 0
    n = listed(S, n, a, write)  # 0: no, none, stop, nothing (DK_JAIL: roll; DK_RESPOND: reject)
    if kind == DK_BID or kind == DK_HOUSE_BID or kind == DK_RESPOND:  # amounts: action first + amount
        first = 0
        base = 0
        if kind == DK_RESPOND:  # 1 accepts; a counter's amount is paid from the proposer's (x's) cash
            a = 1
            n = listed(S, n, a, write)
            first = 2
            cap = min(S[CASH + x] - S[TR_CASH], MAX_DOLLARS)
        else:
            base = S[(R_SQ_PRICE if kind == DK_BID else R_SQ_HOUSE) + x]
            cap = min(S[CASH + p], MAX_DOLLARS)
        v = 0
        for _ in range(AMOUNTS):  # the amounts above 0 in increasing order, each once
            nxt = cap + 1
            for i in range(AMOUNTS):
                w = amount(kind, i, base, bot - first, cap)
                if v < w < nxt:
                    nxt = w
            if nxt > cap:
                break
            v = nxt
            a = first + v
            n = listed(S, n, a, write)
    elif kind == DK_PROPOSE:
        if bot == 1:
            a = 1
            n = listed(S, n, a, write)
        for q in range(S[R_PLAYERS]):
            if q == p or S[ALIVE + q] == 0:
                continue
            for g in range(N_GROUPS):
                if S[GOWN + p * N_GROUPS + g] == 0:
                    continue
                price, owed = offer_cost(S, p, q, g)
                for premium in range(2):
                    if price > 0 and S[CASH + p] >= standard_offer_cash(price, premium) + owed:
                        a = standard_offer(q, g, premium)
                        n = listed(S, n, a, write)
    elif kind == DK_RAISE:
        for sq in range(N_SQ):
            if can_sell(S, p, sq):
                a = 1 + 2 * sq
                n = listed(S, n, a, write)
            if can_mortgage(S, p, sq):
                a = 2 + 2 * sq
                n = listed(S, n, a, write)
    elif kind == DK_JAIL:
        if S[CASH + p] >= S[R_JAIL_FINE]:
            a = JAIL_PAY
            n = listed(S, n, a, write)
        if S[GOOJF + 2 * p] + S[GOOJF + 2 * p + 1] > 0:
            a = JAIL_CARD
            n = listed(S, n, a, write)
    elif kind == DK_BUY:
        price = S[R_SQ_PRICE + x]
        if S[CASH + p] >= price or liquid_value(S, p) >= price:
            a = 1
            n = listed(S, n, a, write)
    elif kind == DK_LIFT_RECEIVED or kind == DK_COUNTER:
        a = 1
        n = listed(S, n, a, write)
    else:  # a square or none
        for sq in range(N_SQ):
            if kind == DK_BUILD:
                ok = can_build(S, p, sq, True)
            elif kind == DK_FUND:
                ok = can_mortgage(S, p, sq)
            elif kind == DK_LIFT:
                ok = S[OWNER + sq] == p and S[MORT + sq] == 1 and S[CASH + p] >= unmortgage_cost(S, sq)
            else:  # DK_SELL_DEED
                ok = deed_tradable(S, sq, p) and S[MORT + sq] == 0
            if ok:
                a = 1 + sq
                n = listed(S, n, a, write)
    return n, a


# ---------------------------------------------------------------------------------------------
# Paying debts, raising cash, bankruptcy


@njit_no_refcount
def raise_cash(S, pp, pt, rng, p, amount):
    """p sells buildings and mortgages deeds (its policy chooses the order) until it holds
    `amount`. Nothing is sold when even everything would not be enough: the player is bankrupt
    and its assets pass as they stand."""
    if S[CASH + p] >= amount or liquid_value(S, p) < amount:
        return
    if S[R_TRADING] == 1:  # deeds sold to other players (trades for cash), if the bot likes
        for _ in range(N_SQ):
            if S[CASH + p] >= amount:
                return
            sq = answer(S, rng, DK_SELL_DEED, p, -1, 1 + choose_sale(pp, pt, p, S, rng, amount - S[CASH + p])) - 1
            if sq < 0:
                break
            if not deed_tradable(S, sq, p) or S[MORT + sq] == 1:
                S[G_STATUS] = ERR_ILLEGAL
                return
            if auction(S, pp, pt, rng, sq, (p + 1) % S[R_PLAYERS], p, S[R_SQ_PRICE + sq]) < 0:
                break
    for _ in range(4 * N_SQ * HOTEL):
        if S[CASH + p] >= amount:
            return
        a = answer(S, rng, DK_RAISE, p, -1, 1 + choose_liquidation(pp, pt, p, S, rng, amount - S[CASH + p])) - 1
        if a < 0:
            break
        sq = a // 2
        if a % 2 == 1:
            if not can_mortgage(S, p, sq):
                S[G_STATUS] = ERR_ILLEGAL
                return
            mortgage(S, p, sq)
        else:
            if not can_sell(S, p, sq):
                S[G_STATUS] = ERR_ILLEGAL
                return
            sell_one(S, p, sq)
    # The rules require raising what is owed before giving up: finish in a fixed order.
    for _ in range(4 * N_SQ * HOTEL):
        if S[CASH + p] >= amount:
            return
        done = False
        for sq in range(N_SQ):
            if can_mortgage(S, p, sq):
                mortgage(S, p, sq)
                done = True
                break
        if not done:
            for sq in range(N_SQ):
                if can_sell(S, p, sq):
                    sell_one(S, p, sq)
                    done = True
                    break
        if not done:
            return


@njit_no_refcount
def strip_buildings(S, p):
    """All of p's buildings go back to the bank at the sell price (the cash goes to p)."""
    for sq in range(N_SQ):
        if S[OWNER + sq] == p and S[LEVEL + sq] > 0:
            lv = S[LEVEL + sq]
            if lv == HOTEL:
                S[G_HOTELS] += 1
            else:
                S[G_HOUSES] += lv
            bank_pays(S, p, sell_value(S, sq, lv))
            S[LEVEL + sq] = 0
            board_changed(S, p)
        

@njit_no_refcount
def eliminate(S, p):
    S[ALIVE + p] = 0
    S[JAIL + p] = 0
    S[G_ALIVE_N] -= 1
    S[stat(p, SC_OUT_TURN)] = S[G_TURN] + 1


@njit_no_refcount
def return_jail_card(S, d):
    n_d = S[R_DECK_SIZE + d]
    base = DECK + d * MAX_CARDS
    S[base + (S[DECK_HEAD + d] + S[DECK_N + d]) % n_d] = S[R_GOOJF_CARD + d]
    S[DECK_N + d] += 1


@njit_no_refcount
def auction(S, pp, pt, rng, sq, first, seller, lo):
    """An English auction for deed sq among the players still in, starting with seat `first`.
    Each bids while the price is below the most it will pay (its policy's answer, capped at
    its cash), so the deed goes to the highest limit at one step above the second highest
    (at least the minimum bid `lo`; an equal limit loses to the earlier bidder). The bank
    sells (seller -1), or a player raising cash offers its deed to the others (a trade for
    cash, at no less than `lo`). Unsold: it stays where it was. Returns the buyer or -1. A bid is
    at least $1 whatever `lo` is: a player who will pay nothing has not bid."""
    lo = max(lo, 1)
    n = S[R_PLAYERS]
    best = -1
    best_v = -1
    second = -1
    for i in range(n):
        q = (first + i) % n
        if q == seller or S[ALIVE + q] == 0 or (S[R_FIRST_LAP] == 1 and S[LAPPED + q] == 0):
            continue
        v = min(max_bid(pp, pt, q, S, rng, sq), S[CASH + q])
        if outside(S, STATE_SIZE, q):
            v = outside_answer(S, rng, DK_BID, q, sq, max(0, min(v, MAX_DOLLARS)))
        log(S, EV_BID, q, sq, v, -1)
        if v > best_v:
            second = best_v
            best_v = v
            best = q
        elif v > second:
            second = v
    if best < 0 or best_v < lo:
        log(S, EV_UNSOLD, -1, sq, 0, seller)
        return -1
    price = lo if second < lo else min(best_v, second + S[R_AUCTION_STEP])
    log(S, EV_AUCTION, best, sq, price, seller)
    S[gstat(best, S[R_SQ_GROUP + sq], GS_INVEST)] += price
    if seller >= 0:
        move_money(S, best, price, seller)
        set_owner(S, sq, best)
        count_trade(S, seller, best)
        return best
    move_money(S, best, price, BANK)
    set_owner(S, sq, best)
    S[stat(best, SC_AUCTIONS_WON)] += 1
    S[G_AUCTIONS] += 1
    return best


@njit_no_refcount
def count_trade(S, p, q):
    S[stat(p, SC_TRADES)] += 1
    S[stat(q, SC_TRADES)] += 1
    S[G_TRADES] += 1


@njit_no_refcount
def bankrupt_to_bank(S, pp, pt, rng, p, to):
    """p cannot pay the bank (or the pot): everything it has goes back. Buildings return to the
    bank, its cash goes where the debt was owed, mortgages are cancelled, jail cards go under
    their decks and the deeds are auctioned among the others (or stay with the bank)."""
    log(S, EV_BANKRUPT, p, 0, S[CASH + p], -1)
    strip_buildings(S, p)
    move_money(S, p, S[CASH + p], to)
    eliminate(S, p)
    for d in range(N_DECKS):
        for _ in range(S[GOOJF + 2 * p + d]):
            return_jail_card(S, d)
        S[GOOJF + 2 * p + d] = 0
    for sq in range(N_SQ):
        if S[OWNER + sq] == p:
            set_owner(S, sq, -1)
            if S[R_BANKRUPT_AUCTION] == 1 and S[R_AUCTIONS] == 1:
                auction(S, pp, pt, rng, sq, (p + 1) % S[R_PLAYERS], -1, S[R_AUCTION_MIN])


@njit_no_refcount
def pay_bank_or_fold(S, pp, pt, rng, p, amount):
    """p owes the bank; raises the cash or goes bankrupt to the bank. True when paid."""
    raise_cash(S, pp, pt, rng, p, amount)
    if S[CASH + p] >= amount:
        move_money(S, p, amount, BANK)
        return True
    bankrupt_to_bank(S, pp, pt, rng, p, BANK)
    return False


@njit_no_refcount
def receive_mortgaged(S, pp, pt, rng, c, sq):
    """c has just received mortgaged deed sq: it pays the interest at once and may lift the
    mortgage at once (paying the principal too). False if c went bankrupt paying."""
    log(S, EV_INTEREST, c, sq, interest(S, sq), -1)
    if not pay_bank_or_fold(S, pp, pt, rng, c, interest(S, sq)):
        return False
    if S[CASH + c] >= S[R_SQ_MORTGAGE + sq] and answer(
            S, rng, DK_LIFT_RECEIVED, c, sq, 1 if lift_received_mortgage(pp, pt, c, S, rng, sq) else 0) == 1:
        lift_mortgage(S, c, sq, S[R_SQ_MORTGAGE + sq])
    return True


@njit_no_refcount
def bankrupt_to_player(S, pp, pt, rng, p, c):
    """p cannot pay player c: buildings are sold to the bank at half price, then c receives
    p's cash, deeds and jail cards, and pays the interest on every mortgaged deed at once
    (lifting the mortgage at once if it likes)."""
    log(S, EV_BANKRUPT, p, 0, S[CASH + p], c)
    strip_buildings(S, p)
    move_money(S, p, S[CASH + p], c)
    eliminate(S, p)
    for d in range(N_DECKS):
        S[GOOJF + 2 * c + d] += S[GOOJF + 2 * p + d]
        S[GOOJF + 2 * p + d] = 0
    n_mort = 0
    for sq in range(N_SQ):
        if S[OWNER + sq] == p:
            if S[MORT + sq] == 1:
                S[BUF + n_mort] = sq
                n_mort += 1
            set_owner(S, sq, c)
    for k in range(n_mort):
        sq = S[BUF + k]
        if S[ALIVE + c] == 0 or S[OWNER + sq] != c:
            break
        if not receive_mortgaged(S, pp, pt, rng, c, sq):
            break


@njit_no_refcount
def pay(S, pp, pt, rng, p, amount, to):
    """p pays `amount` to a player, the pot or the bank, raising cash if it must; a player who
    cannot is bankrupt to the creditor. True when paid in full."""
    if amount <= 0:
        return True
    if S[CASH + p] < amount:
        raise_cash(S, pp, pt, rng, p, amount)
    if S[CASH + p] >= amount:
        move_money(S, p, amount, to)
        return True
    if to >= 0:
        bankrupt_to_player(S, pp, pt, rng, p, to)
    else:
        bankrupt_to_bank(S, pp, pt, rng, p, to)
    return False


# ---------------------------------------------------------------------------------------------
# Moving


@njit_no_refcount
def roll_die(S, rng):
    if S[DICE_POS] < S[DICE_N]:  # scripted dice (tests)
        S[DICE_POS] += 1
        return S[DICE_SCRIPT + S[DICE_POS] - 1]
    return randint(rng, RNG_TABLE, 6) + 1


@njit_no_refcount
def pass_go(S, p, landed):
    log(S, EV_SALARY, p, 0, S[R_SALARY] + (S[R_GO_LAND_BONUS] if landed else 0), -1)
    bank_pays(S, p, S[R_SALARY])
    if landed:
        bank_pays(S, p, S[R_GO_LAND_BONUS])
    S[LAPPED + p] = 1


@njit_no_refcount
def advance_by(S, p, steps):
    sq = S[POS + p] + steps
    if sq >= N_SQ:
        sq -= N_SQ
        pass_go(S, p, sq == 0)
    S[POS + p] = sq


@njit_no_refcount
def advance_to(S, p, target):
    """Move forward to `target`, collecting the salary when passing or landing on GO."""
    if target < S[POS + p] or (target == 0 and S[POS + p] != 0):
        pass_go(S, p, target == 0)
    S[POS + p] = target


@njit_no_refcount
def send_to_jail(S, p):
    log(S, EV_JAIL, p, 0, 0, -1)
    S[POS + p] = JAIL_SQUARE
    S[JAIL + p] = 1


@njit_no_refcount
def offer_deed(S, pp, pt, rng, p, sq):
    """p landed on unowned deed sq: buys it at the printed price (mortgaging other deeds first
    if its bot likes) or it is auctioned."""
    price = S[R_SQ_PRICE + sq]
    allowed = S[R_FIRST_LAP] == 0 or S[LAPPED + p] == 1
    buy = False
    if allowed:
        short = S[CASH + p] < price
        # a bot short of cash says whether it raises the cash to buy
        bot = fund_purchase(pp, pt, p, S, rng, sq) if short else want_buy(pp, pt, p, S, rng, sq)
        buy = answer(S, rng, DK_BUY, p, sq, 1 if bot else 0) == 1
        if buy and short:
            raise_cash(S, pp, pt, rng, p, price)
            buy = S[CASH + p] >= price
    if buy:
        log(S, EV_BUY, p, sq, price, -1)
        move_money(S, p, price, BANK)
        set_owner(S, sq, p)
        S[stat(p, SC_BOUGHT)] += 1
        S[gstat(p, S[R_SQ_GROUP + sq], GS_INVEST)] += price
    elif S[R_AUCTIONS] == 1:
        auction(S, pp, pt, rng, sq, p, -1, S[R_AUCTION_MIN])


@njit_no_refcount
def charge_rent(S, pp, pt, rng, p, sq, amount):
    o = S[OWNER + sq]
    paid = amount if S[CASH + p] >= amount else min(amount, liquid_value(S, p))
    S[stat(p, SC_RENT_PAID)] += paid
    S[stat(o, SC_RENT_RECEIVED)] += paid
    S[gstat(o, S[R_SQ_GROUP + sq], GS_RENT)] += paid
    if amount > 0:
        log(S, EV_RENT, p, sq, amount, o)
    pay(S, pp, pt, rng, p, amount, o)


@njit_no_refcount
def land(S, pp, pt, rng, p, mode, mult):
    """Act on the square p stands on. mode 0: a roll; 1: a card's nearest railroad (rent x
    mult); 2: a card's nearest utility (mult x a fresh roll). A card that moves the token
    makes it act on its new square (a loop, not recursion: numba cannot cache mutually
    recursive functions)."""
    for _ in range(8):
        sq = S[POS + p]
        kind = S[R_SQ_KIND + sq]
        log(S, EV_LAND, p, sq, 0, -1)
        if kind == K_CHANCE or kind == K_CHEST:
            code = draw_card(S, pp, pt, rng, p, 0 if kind == K_CHANCE else 1)
            if code < 0 or S[ALIVE + p] == 0 or S[JAIL + p] > 0:
                return
            mode = code // 1000
            mult = code % 1000
            continue
        if is_deed(S, sq):
            o = S[OWNER + sq]
            if o < 0:
                offer_deed(S, pp, pt, rng, p, sq)
            elif o != p:
                if mode == 2:  # owned and charging: roll again, pay mult x the dice
                    r = rent(S, sq, 1)
                    if r > 0:
                        r = mult * (roll_die(S, rng) + roll_die(S, rng))
                else:
                    r = rent(S, sq, S[G_DICE])
                    if mode == 1:
                        r *= mult
                charge_rent(S, pp, pt, rng, p, sq, r)
        elif kind == K_TAX:
            amount = S[R_SQ_PRICE + sq]
            if S[R_INCOME_PCT] == 1 and sq == S[R_INCOME_SQ]:
                amount = min(amount, tax_worth(S, p) // 10)
            log(S, EV_FEE, p, sq, amount, -1)
            pay(S, pp, pt, rng, p, amount, fee_to(S))
        elif kind == K_GO_TO_JAIL:
            send_to_jail(S, p)
        elif kind == K_FREE_PARKING and S[R_FP_JACKPOT] == 1:
            log(S, EV_JACKPOT, p, 0, S[G_POT], -1)
            S[CASH + p] += S[G_POT]
            S[G_POT] = S[R_FP_SEED]
            S[G_BANK] -= S[R_FP_SEED]
        return


@njit_no_refcount
def draw_card(S, pp, pt, rng, p, d):
    """p draws the top card of deck d (0 Chance, 1 Community Chest) and follows it. A card goes
    under the deck at once, except a Get Out of Jail Free card, which p keeps. Returns -1, or
    mode * 1000 + mult when the card moved the token and ``land`` must act on the new square."""
    n_d = S[R_DECK_SIZE + d]
    if S[DECK_N + d] == 0:
        return -1
    base = DECK + d * MAX_CARDS
    k = S[base + S[DECK_HEAD + d]]
    S[DECK_HEAD + d] = (S[DECK_HEAD + d] + 1) % n_d
    S[DECK_N + d] -= 1
    S[DECK_DRAWS + d] += 1
    log(S, EV_CARD, p, d * MAX_CARDS + k, 0, -1)
    fx = S[R_CARD_FX + d * MAX_CARDS + k]
    a = S[R_CARD_A + d * MAX_CARDS + k]
    b = S[R_CARD_B + d * MAX_CARDS + k]
    if fx == FX_GOOJF:
        S[GOOJF + 2 * p + d] += 1
        return -1
    S[base + (S[DECK_HEAD + d] + S[DECK_N + d]) % n_d] = k
    S[DECK_N + d] += 1
    if fx == FX_ADVANCE:
        advance_to(S, p, a)
        return 0
    elif fx == FX_NEAREST_RR:
        advance_to(S, p, S[R_NEXT_RR + S[POS + p]])
        return 1000 + a
    elif fx == FX_NEAREST_UTIL:
        advance_to(S, p, S[R_NEXT_UTIL + S[POS + p]])
        return 2000 + a
    elif fx == FX_COLLECT:
        bank_pays(S, p, a)
    elif fx == FX_PAY:
        log(S, EV_FEE, p, -1, a, -1)
        pay(S, pp, pt, rng, p, a, fee_to(S))
    elif fx == FX_BACK:
        S[POS + p] = (S[POS + p] - a + N_SQ) % N_SQ
        return 0
    elif fx == FX_JAIL:
        send_to_jail(S, p)
    elif fx == FX_REPAIRS:
        total = 0
        for sq in range(N_SQ):
            if S[OWNER + sq] == p:
                lv = S[LEVEL + sq]
                total += b if lv == HOTEL else a * lv
        if total > 0:  # nothing built: the card costs nothing
            log(S, EV_FEE, p, -1, total, -1)
        pay(S, pp, pt, rng, p, total, fee_to(S))
    elif fx == FX_PAY_EACH:
        for i in range(1, S[R_PLAYERS]):
            q = (p + i) % S[R_PLAYERS]
            if S[ALIVE + q] == 1 and S[ALIVE + p] == 1:
                log(S, EV_PAY_PLAYER, p, 0, a, q)
                pay(S, pp, pt, rng, p, a, q)
    elif fx == FX_COLLECT_EACH:
        for i in range(1, S[R_PLAYERS]):
            q = (p + i) % S[R_PLAYERS]
            if S[ALIVE + q] == 1 and S[ALIVE + p] == 1:
                log(S, EV_PAY_PLAYER, q, 0, a, p)
                pay(S, pp, pt, rng, q, a, p)
    return -1


# ---------------------------------------------------------------------------------------------
# Building, mortgages and trades between rolls


@njit_no_refcount
def builds_wanted(S, pp, pt, rng, q):
    """How many houses and hotels q would buy now if the bank had plenty: a dry run of its
    build decisions, undone afterwards. Returns (houses, hotels)."""
    houses_left = S[G_HOUSES]
    hotels_left = S[G_HOTELS]
    cash = S[CASH + q]
    S[G_HOUSES] = BIG_SUPPLY
    S[G_HOTELS] = BIG_SUPPLY
    n = 0
    houses = 0
    hotels = 0
    while n < N_BUF:
        sq = choose_build(pp, pt, q, S, rng)
        if sq < 0 or not can_build(S, q, sq, True):
            break
        if S[LEVEL + sq] == HOTEL - 1:
            hotels += 1
        else:
            houses += 1
        S[LEVEL + sq] += 1
        S[CASH + q] -= S[R_SQ_HOUSE + sq]
        S[BUF + n] = sq
        n += 1
    for k in range(n):
        S[LEVEL + S[BUF + k]] -= 1
    S[CASH + q] = cash
    S[G_HOUSES] = houses_left
    S[G_HOTELS] = hotels_left
    return houses, hotels


@njit_no_refcount
def shortage_auctions(S, pp, pt, rng, p, hotel):
    """The bank has fewer houses (hotel=False) or hotels than the players want: they go one at
    a time to the highest bidder among the players wanting one (at least the bidder's own
    building price). Stops when one bidder is left; that player then builds as usual."""
    n = S[R_PLAYERS]
    supply = G_HOTELS if hotel else G_HOUSES
    for _ in range(BIG_SUPPLY):
        if S[supply] <= 0:
            return
        best = -1
        best_v = -1
        best_sq = -1
        second = -1
        bidders = 0
        for i in range(n):
            q = (p + i) % n
            if S[ALIVE + q] == 0 or S[WHOLE_N + q] == 0:
                continue
            sq = choose_build(pp, pt, q, S, rng)
            if sq < 0 or not can_build(S, q, sq, True) or (S[LEVEL + sq] == HOTEL - 1) != hotel:
                continue
            cost = S[R_SQ_HOUSE + sq]
            v = min(house_bid(pp, pt, q, S, rng, sq), S[CASH + q])
            if outside(S, STATE_SIZE, q):
                v = outside_answer(S, rng, DK_HOUSE_BID, q, sq, max(0, min(v, MAX_DOLLARS)))
            if v < cost:
                continue
            bidders += 1
            if v > best_v:
                second = best_v
                best_v = v
                best = q
                best_sq = sq
            elif v > second:
                second = v
        if bidders < 2:
            return
        cost = S[R_SQ_HOUSE + best_sq]
        price = max(cost, min(best_v, second + S[R_AUCTION_STEP]))
        build_one(S, best, best_sq, price)
        S[G_SHORTAGE_AUCTIONS] += 1


@njit_no_refcount
def shortage_possible(S, p):
    """The players holding a whole colour group could together afford more houses (or hotels)
    than the bank has left: only then is it worth asking who wants how many."""
    could = 0
    for q in range(S[R_PLAYERS]):
        if S[ALIVE + q] == 1 and S[WHOLE_N + q] > 0:
            cheapest = cheapest_house(S, q)
            if cheapest > 0:
                could += S[CASH + q] // cheapest
    return (0 < S[G_HOUSES] < could) or (0 < S[G_HOTELS] < could)


@njit_inline
def build_phase(S, pp, pt, rng, p):
    cheapest = cheapest_house(S, p)
    if cheapest == 0 or S[CASH + p] < cheapest:
        return
    for _ in range(N_SQ):  # bots that mortgage to build raise the money first
        sq = answer(S, rng, DK_FUND, p, -1, 1 + choose_funding(pp, pt, p, S, rng)) - 1
        if sq < 0:
            break
        if not can_mortgage(S, p, sq):
            S[G_STATUS] = ERR_ILLEGAL
            return
        mortgage(S, p, sq)
    sq = answer(S, rng, DK_BUILD, p, -1, 1 + choose_build(pp, pt, p, S, rng)) - 1
    if sq < 0:  # the common case: nothing wanted now
        return
    board = S[G_BOARD]
    # A shortage: the players who want a building want more of it together than the bank has
    # (p among them). Possible only when they could afford more than the bank has.
    if shortage_possible(S, p):
        houses, hotels = builds_wanted(S, pp, pt, rng, p)
        for hotel in (False, True):
            wanted = hotels if hotel else houses
            left = S[G_HOTELS] if hotel else S[G_HOUSES]
            if left <= 0 or wanted == 0:
                continue
            others = 0
            for i in range(1, S[R_PLAYERS]):
                q = (p + i) % S[R_PLAYERS]
                if S[ALIVE + q] == 1 and S[WHOLE_N + q] > 0:
                    h2, t2 = builds_wanted(S, pp, pt, rng, q)
                    others += t2 if hotel else h2
            if others > 0 and wanted + others > left:
                shortage_auctions(S, pp, pt, rng, p, hotel)
    # On the same board a bot that chooses without random numbers would choose sq again.
    if S[G_BOARD] != board or builds_at_random(S, p):
        sq = answer(S, rng, DK_BUILD, p, -1, 1 + choose_build(pp, pt, p, S, rng)) - 1
    for _ in range(N_SQ * HOTEL):
        if sq < 0:
            return
        if not can_build(S, p, sq, True):
            S[G_STATUS] = ERR_ILLEGAL
            return
        build_one(S, p, sq, S[R_SQ_HOUSE + sq])
        sq = answer(S, rng, DK_BUILD, p, -1, 1 + choose_build(pp, pt, p, S, rng)) - 1


@njit_no_refcount
def move_jail_cards(S, src, dst, n):
    for _ in range(n):
        d = 0 if S[GOOJF + 2 * src] > 0 else 1
        S[GOOJF + 2 * src + d] -= 1
        S[GOOJF + 2 * dst + d] += 1


@njit_no_refcount
def execute_trade(S, pp, pt, rng, p, q):
    ng = S[TR_N_GIVE]
    nr = S[TR_N_GET]
    cash = S[TR_CASH]
    if recording(S):
        log(S, EV_TRADE, p, S[TR_JAIL_GIVE] - S[TR_JAIL_GET], cash, q)
        for k in range(ng):
            log(S, EV_DEED_MOVES, q, S[TR_GIVE + k], 0, p)
        for k in range(nr):
            log(S, EV_DEED_MOVES, p, S[TR_GET + k], 0, q)
    if cash > 0:
        move_money(S, p, cash, q)
    elif cash < 0:
        move_money(S, q, -cash, p)
    move_jail_cards(S, p, q, S[TR_JAIL_GIVE])
    move_jail_cards(S, q, p, S[TR_JAIL_GET])
    for k in range(ng):
        set_owner(S, S[TR_GIVE + k], q)
    for k in range(nr):
        set_owner(S, S[TR_GET + k], p)
    count_trade(S, p, q)
    # interest on mortgaged deeds received was checked affordable: pay it, maybe lift
    for k in range(ng):
        sq = S[TR_GIVE + k]
        if S[MORT + sq] == 1:
            receive_mortgaged(S, pp, pt, rng, q, sq)
    for k in range(nr):
        sq = S[TR_GET + k]
        if S[MORT + sq] == 1:
            receive_mortgaged(S, pp, pt, rng, p, sq)


@njit_inline
def trade_phase(S, pp, pt, rng, p):
    """p may propose up to MAX_OFFERS_PER_TURN trades; each partner answers, possibly with a
    counter-offer (more cash) that p takes or leaves. Called when ``trade_scan_due``: a player
    who found nothing to propose does not look again until the trade mark changes."""
    n = S[R_PLAYERS]
    for _ in range(MAX_OFFERS_PER_TURN):
        q = propose_trade(pp, pt, p, S, rng)
        if outside(S, STATE_SIZE, p):
            q = outside_offer(S, rng, p, q)
        if q < 0:
            S[TRADE_SCAN + p] = trade_mark(S)
            return
        if q >= n or q == p or S[ALIVE + q] == 0 or not trade_legal(S, p, q):
            S[G_STATUS] = ERR_ILLEGAL
            return
        reply = respond_trade(pp, pt, q, p, S, rng)
        if outside(S, STATE_SIZE, q):
            a = outside_answer(S, rng, DK_RESPOND, q, p, 0 if reply < 0 else 1 if reply == 0 else 2 + reply)
            reply = -1 if a == 0 else 0 if a == 1 else a - 2
        if recording(S):
            log(S, EV_OFFER, p, S[TR_GET], S[TR_CASH], q)
            log(S, EV_ANSWER, q, reply, int(trade_balance(pp, q, p, S)), p)
        if reply > 0:
            take = accept_counter(pp, pt, p, q, S, rng, reply)
            if answer(S, rng, DK_COUNTER, p, q, 1 if take else 0) == 0:
                continue
            S[TR_CASH] += reply
            if not trade_legal(S, p, q):
                continue
        elif reply < 0:
            continue
        execute_trade(S, pp, pt, rng, p, q)


@njit_inline
def trade_scan_due(S, pp, p):
    """Trading is on, and the trade mark changed since p last found nothing to propose and p's
    bot makes offers at all (with VERIFY_MEMOS, also one that never does: it must find nothing),
    or p is played from outside."""
    return S[R_TRADING] == 1 and ((S[TRADE_SCAN + p] != trade_mark(S)
                                   and (S[VERIFY_MEMOS] != 0 or not never_proposes(S, pp, p)))
                                  or played_from_outside(S, STATE_SIZE, p))


@njit_no_refcount
def outside_offer(S, rng, p, q):
    """The trade offer of seat p, played from outside, whose bot would offer partner q (-1:
    none) the trade in the scratch: that one, none, or a standard offer written to the scratch.
    Returns the partner."""
    a = outside_answer(S, rng, DK_PROPOSE, p, -1, 1 if q >= 0 else 0)
    if a == 0:
        return -1
    if a == 1:
        return q
    k = a - OFFER_ACTIONS
    q = k // 2 // N_GROUPS
    fill_standard_offer(S, p, q, k // 2 % N_GROUPS, k % 2)
    return q


@njit_inline
def nothing_to_manage(S, p):
    """p has no mortgage to lift and no whole colour group to build on: ``manage`` would ask
    its bot nothing, whatever its cash."""
    return S[MORT_N + p] == 0 and S[WHOLE_N + p] == 0


@njit_inline
def management_memo_holds(S, pp, p):
    """p had nothing to lift or build, and nothing that would change that has changed (and p is
    not played from outside, which is asked every time); or p has nothing to lift or build on
    at all."""
    return ((S[MEMO_BOARD + p] == management_key(S, p) and management_settled(pp, p, S)
             and not played_from_outside(S, STATE_SIZE, p)) or nothing_to_manage(S, p))


@njit_inline
def window_idle(S, pp, p):
    """p's window would do nothing (``manage`` would return at once). Most windows are idle,
    and these checks cost less than the call of ``manage`` with its six array arguments."""
    return not trade_scan_due(S, pp, p) and S[VERIFY_MEMOS] == 0 and management_memo_holds(S, pp, p)


@njit_no_refcount
def manage(S, pp, pt, rng, p):
    """A window for trades, lifting mortgages and building. A bot that had nothing to lift or
    build is not asked again until its own deeds, the bank's supply or (as its policy says,
    ``management_settled``) its cash or the rents it faces make a difference: the answer
    would be the same, so this only saves time. With VERIFY_MEMOS set (tests) the skipped
    windows are played anyway and must change nothing."""
    if trade_scan_due(S, pp, p):
        trade_phase(S, pp, pt, rng, p)
    if S[G_STATUS] != OK or S[ALIVE + p] == 0:
        return
    settled = management_memo_holds(S, pp, p)
    if settled and S[VERIFY_MEMOS] == 0:
        return
    board = S[G_BOARD]
    for _ in range(N_SQ):
        if S[G_STATUS] != OK or S[ALIVE + p] == 0:
            return
        sq = answer(S, rng, DK_LIFT, p, -1, 1 + choose_unmortgage(pp, pt, p, S, rng)) - 1
        if sq < 0:
            break
        cost = unmortgage_cost(S, sq)
        if S[OWNER + sq] != p or S[MORT + sq] == 0 or S[CASH + p] < cost:
            S[G_STATUS] = ERR_ILLEGAL
            return
        lift_mortgage(S, p, sq, cost)
    if S[G_STATUS] == OK:
        build_phase(S, pp, pt, rng, p)
    if settled and S[G_BOARD] != board and S[G_STATUS] == OK:
        S[G_STATUS] = ERR_MEMO
    if S[G_BOARD] == board:
        S[MEMO_BOARD + p] = management_key(S, p)
        note_settled(pp, p, S)
    else:
        S[MEMO_BOARD + p] = -1


# ---------------------------------------------------------------------------------------------
# A turn


@njit_no_refcount
def move_and_land(S, pp, pt, rng, p, d1, d2):
    S[G_DICE] = d1 + d2
    advance_by(S, p, d1 + d2)
    land(S, pp, pt, rng, p, 0, 0)


@njit_no_refcount
def snake_eyes(S, p, d1, d2):
    if d1 == 1 and d2 == 1 and S[R_SNAKE_EYES] > 0:
        bank_pays(S, p, S[R_SNAKE_EYES])


@njit_no_refcount
def play_turn(S, pp, pt, rng, p):
    """Seat p's whole turn: leaving jail or trying to, rolls (doubles roll again; the third
    double goes to jail), then trades, mortgages and building; under the official "at any
    time" rule (deal_any_time) every other player then gets the same window."""
    S[stat(p, SC_TURNS)] += 1
    log(S, EV_TURN, p, 0, S[CASH + p], -1)
    free_roll = True
    if S[JAIL + p] > 0:
        S[stat(p, SC_JAIL_TURNS)] += 1
        choice = answer(S, rng, DK_JAIL, p, -1, jail_choice(pp, pt, p, S, rng))
        log(S, EV_JAIL_CHOICE, p, 0 if choice == JAIL_CARD else 1 if choice == JAIL_PAY else 2, 0, -1)
        if choice == JAIL_CARD:
            if S[GOOJF + 2 * p] + S[GOOJF + 2 * p + 1] == 0:
                S[G_STATUS] = ERR_ILLEGAL
                return
            d = 0 if S[GOOJF + 2 * p] > 0 else 1
            S[GOOJF + 2 * p + d] -= 1
            return_jail_card(S, d)
            S[JAIL + p] = 0
            log(S, EV_LEAVE_JAIL, p, 0, 0, -1)
        elif choice == JAIL_PAY:
            if S[CASH + p] < S[R_JAIL_FINE]:
                S[G_STATUS] = ERR_ILLEGAL
                return
            move_money(S, p, S[R_JAIL_FINE], fee_to(S))
            S[JAIL + p] = 0
            log(S, EV_LEAVE_JAIL, p, 0, 0, -1)
        else:
            free_roll = False
            d1 = roll_die(S, rng)
            d2 = roll_die(S, rng)
            log(S, EV_ROLL, p, d1, d1 + d2, d2)
            if d1 == d2:  # out, moving by this roll, but no roll again
                S[JAIL + p] = 0
                log(S, EV_LEAVE_JAIL, p, 0, 0, -1)
                snake_eyes(S, p, d1, d2)
                move_and_land(S, pp, pt, rng, p, d1, d2)
            elif S[JAIL + p] >= S[R_JAIL_TURNS]:  # last try failed: pay, then move
                log(S, EV_FEE, p, JAIL_SQUARE, S[R_JAIL_FINE], -1)
                if pay(S, pp, pt, rng, p, S[R_JAIL_FINE], fee_to(S)):
                    S[JAIL + p] = 0
                    log(S, EV_LEAVE_JAIL, p, 0, 0, -1)
                    move_and_land(S, pp, pt, rng, p, d1, d2)
            else:
                S[JAIL + p] += 1
    if free_roll:
        doubles = 0
        for _ in range(1000):
            d1 = roll_die(S, rng)
            d2 = roll_die(S, rng)
            log(S, EV_ROLL, p, d1, d1 + d2, d2)
            if d1 == d2:
                doubles += 1
                snake_eyes(S, p, d1, d2)
                if doubles == 3 and S[R_SPEEDING] == 1:
                    send_to_jail(S, p)
                    break
            move_and_land(S, pp, pt, rng, p, d1, d2)
            if S[ALIVE + p] == 0 or S[JAIL + p] > 0 or d1 != d2 or S[G_STATUS] != OK:
                break
    if S[ALIVE + p] == 1 and S[G_STATUS] == OK and not window_idle(S, pp, p):
        manage(S, pp, pt, rng, p)
    if S[R_ANY_TIME] == 1:  # "at any time": everyone else's window, in seat order after p
        n = S[R_PLAYERS]
        q = p
        for _ in range(n - 1):
            q = q + 1 if q + 1 < n else 0  # (p + i) % n without a division
            if S[G_STATUS] != OK or S[G_ALIVE_N] < 2:
                break
            if S[ALIVE + q] == 1 and not window_idle(S, pp, q):
                manage(S, pp, pt, rng, q)


# ---------------------------------------------------------------------------------------------
# Invariants


@njit_no_refcount
def check_invariants(S):
    """OK, or the code of the first broken invariant."""
    n = S[R_PLAYERS]
    money = S[G_POT] + S[G_BANK]
    for p in range(MAX_PLAYERS):
        money += S[CASH + p]
        if S[CASH + p] < 0:
            return ERR_CASH
    if money != 0 or S[G_POT] < 0:
        return ERR_MONEY
    alive = 0
    for p in range(n):
        alive += S[ALIVE + p]
        if S[POS + p] < 0 or S[POS + p] >= N_SQ or S[JAIL + p] < 0 or S[JAIL + p] > S[R_JAIL_TURNS]:
            return ERR_PLAYERS
        if S[ALIVE + p] == 0 and (S[CASH + p] != 0 or S[GOOJF + 2 * p] + S[GOOJF + 2 * p + 1] != 0):
            return ERR_PLAYERS
    if alive != S[G_ALIVE_N]:
        return ERR_PLAYERS
    # deeds and group counts
    for p in range(n):
        mort = 0
        whole = 0
        for g in range(N_GROUPS):
            cnt = 0
            for k in range(S[R_GROUP_SIZE + g]):
                sq = group_sq(S, g, k)
                if S[OWNER + sq] == p:
                    cnt += 1
                    mort += S[MORT + sq]
            if cnt != S[GOWN + p * N_GROUPS + g]:
                return ERR_DEEDS
            if S[R_GROUP_STREETS + g] == 1 and cnt == S[R_GROUP_SIZE + g]:
                whole += 1
        if mort != S[MORT_N + p] or whole != S[WHOLE_N + p]:
            return ERR_DEEDS
    for g in range(N_GROUPS):
        free = 0
        for k in range(S[R_GROUP_SIZE + g]):
            free += S[OWNER + group_sq(S, g, k)] < 0
        if free != S[BANK_N + g]:
            return ERR_DEEDS
    houses = S[G_HOUSES]
    hotels = S[G_HOTELS]
    for sq in range(N_SQ):
        o = S[OWNER + sq]
        lv = S[LEVEL + sq]
        if not is_deed(S, sq):
            if o != -1 or lv != 0 or S[MORT + sq] != 0:
                return ERR_DEEDS
            continue
        if o < -1 or o >= n or (o >= 0 and S[ALIVE + o] == 0):
            return ERR_DEEDS
        if (o < 0 and S[MORT + sq] != 0) or S[MORT + sq] < 0 or S[MORT + sq] > 1:
            return ERR_DEEDS
        if lv < 0 or lv > HOTEL:
            return ERR_BUILDINGS
        if lv == HOTEL:
            hotels += 1
        else:
            houses += lv
        if lv > 0:
            g = S[R_SQ_GROUP + sq]
            if S[R_SQ_KIND + sq] != K_STREET or o < 0 or not has_group(S, o, g):
                return ERR_EVEN
            for k in range(S[R_GROUP_SIZE + g]):
                s2 = group_sq(S, g, k)
                if S[MORT + s2] == 1:
                    return ERR_EVEN
                if S[R_EVEN_BUILD] == 1 and abs(S[LEVEL + s2] - lv) > 1:
                    return ERR_EVEN
    if houses != S[R_HOUSES] or hotels != S[R_HOTELS] or S[G_HOUSES] < 0 or S[G_HOTELS] < 0:
        return ERR_BUILDINGS
    # cards: each card of each deck in the deck exactly once, or held (jail cards)
    for d in range(N_DECKS):
        n_d = S[R_DECK_SIZE + d]
        held = 0
        for p in range(n):
            held += S[GOOJF + 2 * p + d]
        if S[DECK_N + d] + held != n_d or held > (1 if S[R_GOOJF_CARD + d] >= 0 else 0):
            return ERR_DECK
        seen = 0
        for i in range(S[DECK_N + d]):
            k = S[DECK + d * MAX_CARDS + (S[DECK_HEAD + d] + i) % n_d]
            if k < 0 or k >= n_d or (seen >> k) & 1:
                return ERR_DECK
            seen |= 1 << k
        if held == 1 and (seen >> S[R_GOOJF_CARD + d]) & 1:
            return ERR_DECK
    for p in range(n):
        if S[RENT_BOARD + p] == S[P_BOARD + p] and S[RENT_MAX + p] != max_rent_of(S, p):
            return ERR_RENT_MEMO
    return OK


# ---------------------------------------------------------------------------------------------
# Games


@njit(cache=True)
def start_state(RB):
    """The state at the start of a game under the rules RB (rules.pack), which it holds at its
    head: everyone on GO with the starting cash, every deed with the bank, decks in printed
    order (play_game shuffles them and writes the seats' kinds)."""
    S = np.zeros(STATE_SIZE, np.int32)
    S[:RULES_SIZE] = RB
    n = S[R_PLAYERS]
    for p in range(n):
        S[CASH + p] = S[R_START_CASH]
        S[ALIVE + p] = 1
    S[G_BANK] = -n * S[R_START_CASH] - S[R_FP_SEED]
    S[G_POT] = S[R_FP_SEED]
    S[G_ALIVE_N] = n
    for sq in range(N_SQ):
        S[OWNER + sq] = -1
    for g in range(N_GROUPS):
        S[BANK_N + g] = S[R_GROUP_SIZE + g]
    S[G_HOUSES] = S[R_HOUSES]
    S[G_HOTELS] = S[R_HOTELS]
    for p in range(n):
        S[MEMO_BOARD + p] = -1
        S[RENT_BOARD + p] = -1
    for d in range(N_DECKS):
        for k in range(S[R_DECK_SIZE + d]):
            S[DECK + d * MAX_CARDS + k] = k
        S[DECK_N + d] = S[R_DECK_SIZE + d]
    return S


@njit_no_refcount
def finish(S, capped, detail, game_out, seat_out, group_out, row):
    n = S[R_PLAYERS]
    t = S[G_TURN]
    best = -1
    best_w = 0
    for p in range(n):
        if S[ALIVE + p] == 1:
            w = net_worth(S, p)
            S[stat(p, SC_NET_WORTH)] = w
            if best < 0 or w > best_w:
                best = p
                best_w = w
    n_best = 0
    for p in range(n):
        win = S[ALIVE + p] == 1 and S[stat(p, SC_NET_WORTH)] == best_w
        S[stat(p, SC_WIN)] = win
        n_best += win
        S[stat(p, SC_CASH)] = S[CASH + p]
        deeds = 0
        for sq in range(N_SQ):
            deeds += S[OWNER + sq] == p
        S[stat(p, SC_DEEDS)] = deeds
        for col in range(N_SEAT_COLS):
            seat_out[p, col, row] = S[stat(p, col)]
        if detail:
            for g in range(N_GROUPS):
                if S[ALIVE + p] == 1 and has_group(S, p, g):
                    S[gstat(p, g, GS_FULL_TURNS)] += t - S[gstat(p, g, GS_FULL_SINCE)]
                for k in range(N_GSTAT - 1):
                    group_out[row, p, g, k] = S[gstat(p, g, k)]
    game_out[G_WINNER, row] = best if n_best == 1 else -1
    game_out[G_ROUNDS_OUT, row] = S[G_ROUND]
    game_out[G_TURNS_OUT, row] = t - S[G_START_TURN]
    game_out[G_CAPPED, row] = capped
    game_out[G_AUCTIONS_OUT, row] = S[G_AUCTIONS]
    game_out[G_TRADES_OUT, row] = S[G_TRADES]
    game_out[G_SHORTAGES_OUT, row] = S[G_SHORTAGE_AUCTIONS]
    bankrupt = 0
    for p in range(n):
        bankrupt += S[ALIVE + p] == 0
    game_out[G_BANKRUPTCIES, row] = bankrupt
    game_out[G_STATUS_OUT, row] = S[G_STATUS]


@njit_no_refcount
def play_game(S, S0, pk, pp, pt, rng, seed, game, check, detail, game_out, seat_out, group_out, row):
    """Play game number `game` of the run with master seed `seed` from the state S0 (rules
    included), seat p's bot being of kind pk[p] with parameters pp[p], into output column `row`
    (row `row` of group_out)."""
    if not resuming(S, STATE_SIZE):  # else a stepped game, from the snapshot of a turn's start
        for s in range(RNG_SIZE // 4):
            seed_state(rng, 4 * s, seed, game, s)
        for i in range(STATE_SIZE):
            S[i] = S0[i]
        for p in range(S[R_PLAYERS]):
            S[R_KIND + p] = pk[p]
        for d in range(N_DECKS):
            shuffle(rng, RNG_TABLE, S, DECK + d * MAX_CARDS + S[DECK_HEAD + d], S[DECK_N + d])
        S[G_START_TURN] = S[G_TURN]
        if check:
            S[G_STATUS] = check_invariants(S)
    n = S[R_PLAYERS]
    cur = S[G_CURRENT]
    capped = 0
    while S[G_ALIVE_N] > 1 and S[G_STATUS] == OK:
        S[G_CURRENT] = cur
        snapshot(S, STATE_SIZE, rng, RNG_SIZE)
        if cur == 0:
            log(S, EV_ROUND, -1, 0, S[G_ROUND] + 1, -1)
        if S[ALIVE + cur] == 1:
            play_turn(S, pp, pt, rng, cur)
            S[G_TURN] += 1
            if check and S[G_STATUS] == OK:
                S[G_STATUS] = check_invariants(S)
        cur += 1
        if cur == n:
            if recording(S):
                log_standings(S)
            cur = 0
            S[G_ROUND] += 1
            if S[G_ROUND] >= S[R_MAX_ROUNDS] and S[G_ALIVE_N] > 1:
                capped = 1
                break
    finish(S, capped, detail, game_out, seat_out, group_out, row)
    if recording(S):
        if cur != 0:
            log_standings(S)  # the last round's, cut short
        reason = END_ERROR if S[G_STATUS] != OK else END_ROUND_LIMIT if capped else END_LAST_STANDING
        log(S, EV_GAME_END, game_out[G_WINNER, row], 0, reason, -1)


@njit_no_refcount
def log_standings(S):
    """Each seat's deeds, cash and net worth (0 once out), into the log."""
    for p in range(S[R_PLAYERS]):
        deeds = 0
        for sq in range(N_SQ):
            deeds += S[OWNER + sq] == p
        log(S, EV_SEAT_STATE, p, deeds, S[CASH + p], net_worth(S, p) if S[ALIVE + p] == 1 else 0)


@njit(cache=True)
def new_buffers():
    return np.zeros(STATE_SIZE, np.int32), np.zeros(RNG_SIZE, np.uint64)


@njit(cache=True, nogil=True)  # nogil: Ctrl-C ends a bot's endless decision (userbot.interruptible)
def play_steps(RB, S0, pk, pp, pt, seed, game, check, detail, game_out, seat_out, detail_out, S, rng, row):
    """Game `game` as play_batch plays it, into output column `row`, in the caller's state array S and random streams
    rng, up to the first decision that waits for an outside answer, from the start or from the
    snapshot of a turn's start in S[:STATE_SIZE] and rng[:RNG_SIZE] (snapshots go to
    rng[RNG_SIZE:]). S may have an event log and a decision channel after the state
    (sim/core/event_log.py, sim/core/decisions.py): a replay (core's PreparedRun.play_logged)
    or a stepped game."""
    if S0.size == 0:
        S0 = start_state(RB)
    play_game(S, S0, pk, pp, pt, rng, seed, game, check, detail, game_out, seat_out, detail_out[0], row)

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
    n_games - 1 from the position S0 (which holds the rules RB at its head; empty: the standard
    start) into columns row0 .. of game_out and seat_out and, when detail, rows row0 .. of
    detail_out = (group_out[rows, players, N_GROUPS, 4],): contiguous blocks of games, one state
    buffer per block. pt: each square's long-run landing frequency (the strong bot's table)."""
    if S0.size == 0:
        S0 = start_state(RB)
    group_out = detail_out[0]
    n_blocks = min(n_games, 256)
    for b in prange(n_blocks):
        S, rng = new_buffers()
        for row in range(b * n_games // n_blocks, (b + 1) * n_games // n_blocks):
            play_game(S, S0, pk, pp, pt, rng, seed, first + row, check, detail, game_out, seat_out,
                      group_out, row0 + row)
