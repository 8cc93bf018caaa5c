"""Optimal stopping for a Monopoly Chance turn, by dynamic programming.

The player wants to maximize the expected reward of the turn: the *weight* of the Cash cards
kept, where a bust keeps nothing. Three objectives, i.e. three weightings of a Cash card of
value v:

    value   w = v          total Cash value kept
    count   w = 1          number of Cash cards kept
    board   w = v if v > t  Cash that beats the board: only cards that can take at least the
                            cheapest property still worth taking (t = the smallest value a card
                            must beat: a free property's printed value or the top card of an
                            opponent's property, S_MIN_TARGET in the kernel) count, at face value

Let s be the weight already flipped this turn, h the unused Lucky Breaks in front of the player
and f the flips left. With V_0 = s and V_f(pile, h, s) = max(s, C_f(pile, h, s)), where the
value of flipping C_f averages over the next card: a Cash card of weight w gives
V_{f-1}(pile - card, h, s + w); a Bankrupt gives V_{f-1}(pile - card, h - 1, s) when h > 0 and 0
(a bust) otherwise; a Lucky Break gives V_{f-1}(pile - card, h + 1, s); any other card
V_{f-1}(pile - card, h, s). An empty pile ends the turn.

Structure: C_f(pile, h, s) - s is non-increasing in s. (For any fixed way of continuing, the
reward is s P(no bust) + E[new weight; no bust], affine in s with slope at most 1; C_f is the
supremum of such functions, so C_f - s is a supremum of non-increasing functions.) The optimal
rule is therefore a threshold: flip while s < theta_f(pile, h), cash out from theta on. The
table stores theta for every sub-multiset of the deck (every pile the kernel can meet), every
h and every f up to F; ties cash out. ``tests/test_chance_optimal.py`` checks the threshold
against a direct Bellman recursion.

Layout of the policy table ``pt`` (float64; the kernel reads the threshold block as uint8):

    pt[0]                                       TABLE_MAGIC
    pt[SEAT_HDR0 + p * SEAT_HDR + ...]          per seat: block offset (uint8 index, -1: none),
                                                objective, levels, t_lo, F, H, piles
    pt[STRIDES + p * MAX_DECK + c]              pile-index stride of seat p's card c
    uint8 view from byte DATA0 * 8 on           theta[((level * F + f - 1) * H + h) * piles + pile]

A pile's index is the sum of its cards' strides (mixed radix over the deck's card types: each
distinct Cash value, Bankrupt, Lucky Break, and the other kinds together).
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
from numba import njit, prange

from sim.chance.layout import MAX_DECK, MAX_PLAYERS
from sim.chance.rules import BANKRUPT, CASH, LUCKY_BREAK, ChanceRules, CH_EXTRA_FLIPS, CHANCE_EFFECT_NAMES
from sim.core.runner import UsageError

OBJECTIVES = ("value", "count", "board")
OBJ_VALUE, OBJ_COUNT, OBJ_BOARD = range(3)
T_CASH, T_BANKRUPT, T_LUCKY, T_OTHER = range(4)

TABLE_MAGIC = 7031.0
SEAT_HDR0 = 1
SEAT_HDR = 8
H_OFFSET, H_OBJECTIVE, H_LEVELS, H_TLO, H_F, H_H, H_PILES = range(7)
STRIDES = SEAT_HDR0 + MAX_PLAYERS * SEAT_HDR
DATA0 = STRIDES + MAX_PLAYERS * MAX_DECK
MAX_THETA = 254  # thresholds are stored as uint8
MAX_TABLE_BYTES = 64 << 20
EPS = 1e-9


# ---------------------------------------------------------------------------------------------
# Card types of a deck


def deck_types(cards: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Card types of a deck given as (kind, value) pairs: (type kind, Cash value, count,
    stride, type of each card). Types: each distinct Cash value, then Bankrupt, Lucky Break,
    other (Token, Flip 2, Nope! together)."""
    cash = Counter(v for k, v in cards if k == CASH)
    values = sorted(cash)
    kinds = [T_CASH] * len(values) + [T_BANKRUPT, T_LUCKY, T_OTHER]
    vals = values + [0, 0, 0]
    counts = [cash[v] for v in values] + [
        sum(k == BANKRUPT for k, _ in cards),
        sum(k == LUCKY_BREAK for k, _ in cards),
        sum(k != CASH and k != BANKRUPT and k != LUCKY_BREAK for k, _ in cards),
    ]
    strides = []
    acc = 1
    for c in counts:
        strides.append(acc)
        acc *= c + 1
    card_type = []
    for k, v in cards:
        if k == CASH:
            card_type.append(values.index(v))
        elif k == BANKRUPT:
            card_type.append(len(values))
        elif k == LUCKY_BREAK:
            card_type.append(len(values) + 1)
        else:
            card_type.append(len(values) + 2)
    return (np.array(kinds, np.int64), np.array(vals, np.int64), np.array(counts, np.int64),
            np.array(strides, np.int64), np.array(card_type, np.int64))


def n_piles(counts) -> int:
    return int(np.prod(np.asarray(counts) + 1))


def cash_weights(vals, kinds, objective: int, t: int) -> np.ndarray:
    w = np.zeros(len(vals), np.int64)
    for j in range(len(vals)):
        if kinds[j] == T_CASH:
            if objective == OBJ_VALUE:
                w[j] = vals[j]
            elif objective == OBJ_COUNT:
                w[j] = 1
            else:
                w[j] = vals[j] if vals[j] > t else 0
    return w


# ---------------------------------------------------------------------------------------------
# The DP (numba)


@njit(cache=True)
def _pile_info(P, kinds, counts, strides, weights):
    """(cards in pile, weight of Cash in pile, Lucky Breaks in pile) of pile index P."""
    n = 0
    w = 0
    lucky = 0
    for j in range(len(counts)):
        c = (P // strides[j]) % (counts[j] + 1)
        n += c
        w += c * weights[j]
        if kinds[j] == T_LUCKY:
            lucky = c
    return n, w, lucky


@njit(cache=True)
def _value(theta, off, buf, P, h, H, s):
    """V_{f-1}(P, h, s) from the previous layer."""
    k = P * H + h
    if s >= theta[k]:
        return float(s)
    return buf[off[k] + s]


@njit(cache=True, parallel=True)
def solve_thresholds(kinds, counts, strides, weights, F, H, out):
    """Fill out[(f - 1) * H * piles + h * piles + P] = theta_f(P, h) for f = 1..F.
    Returns the largest threshold met (callers check it fits in uint8)."""
    piles = 1
    for j in range(len(counts)):
        piles *= counts[j] + 1
    w_total = 0
    l_total = 0
    for j in range(len(counts)):
        w_total += counts[j] * weights[j]
        if kinds[j] == T_LUCKY:
            l_total = counts[j]
    # Offsets of each (pile, h) row of V values; a row holds s = 0 .. smax(P).
    off = np.zeros(piles * H, np.int64)
    total = 0
    for P in range(piles):
        n, w, lucky = _pile_info(P, kinds, counts, strides, weights)
        for h in range(H):
            off[P * H + h] = total
            total += w_total - w + 1
    theta_prev = np.zeros(piles * H, np.int64)  # f = 0: always stop
    buf_prev = np.empty(1, np.float64)
    biggest = 0
    for f in range(1, F + 1):
        theta = np.zeros(piles * H, np.int64)
        buf = np.empty(total, np.float64)
        for P in prange(piles):
            n, w, lucky = _pile_info(P, kinds, counts, strides, weights)
            smax = w_total - w
            cnt = np.empty(len(counts), np.int64)
            for j in range(len(counts)):
                cnt[j] = (P // strides[j]) % (counts[j] + 1)
            for h in range(H):
                k = P * H + h
                if n == 0 or h + lucky > l_total:
                    theta[k] = 0  # empty pile, or a state no deck reaches
                    continue
                th = smax + 1
                for s in range(smax + 1):
                    cont = 0.0
                    for j in range(len(counts)):
                        c = cnt[j]
                        if c == 0:
                            continue
                        Q = (P - strides[j]) * H
                        t = kinds[j]
                        if t == T_CASH:
                            q = Q + h
                            s2 = s + weights[j]
                        elif t == T_BANKRUPT:
                            if h == 0:
                                continue  # a bust keeps nothing
                            q = Q + h - 1
                            s2 = s
                        elif t == T_LUCKY:
                            q = Q + h + 1
                            s2 = s
                        else:
                            q = Q + h
                            s2 = s
                        if s2 >= theta_prev[q]:
                            cont += c * s2
                        else:
                            cont += c * buf_prev[off[q] + s2]
                    cont /= n
                    if cont <= s + EPS:
                        th = s
                        break
                    buf[off[k] + s] = cont
                theta[k] = th
        for k in range(piles * H):
            out[(f - 1) * piles * H + (k % H) * piles + k // H] = theta[k]
            biggest = max(biggest, theta[k])
        theta_prev = theta
        buf_prev = buf
    return biggest


# ---------------------------------------------------------------------------------------------
# Building the policy table for a run


def max_flips(rules: ChanceRules) -> int:
    """Flips a turn can offer: the largest die face plus the largest extra_flips card."""
    extra = [param for effect, param in rules.chance_cards if effect == CHANCE_EFFECT_NAMES[CH_EXTRA_FLIPS]]
    return max(rules.die) + max([0] + extra)


def objective_levels(vals, kinds, objective: int) -> tuple[int, int]:
    """(t_lo, levels): the board objective has one level per threshold t in t_lo .. t_lo +
    levels - 1 (below t_lo every card counts; from the largest value on none does)."""
    if objective != OBJ_BOARD:
        return 0, 1
    cash = [int(v) for v, k in zip(vals, kinds) if k == T_CASH]
    if not cash:
        return 0, 1
    return min(cash) - 1, max(cash) - min(cash) + 1


def _disk_path(cards, objective, F):
    """Where a built block is kept: next to the compiled Chance kernels, whose folder is keyed on
    a digest of their sources (sim/__init__.py), so a change to this DP never reuses a stale table."""
    import hashlib
    import os

    from sim import kernel_cache_dir

    key = hashlib.sha256(repr((cards, objective, F)).encode()).hexdigest()[:20]
    return os.path.join(kernel_cache_dir("chance"), "optimal_tables", f"{key}.npy")


@functools.lru_cache(maxsize=16)
def deck_block(cards: tuple[tuple[int, int], ...], objective: int, F: int) -> tuple[np.ndarray, int, int, int]:
    """Thresholds for one deck and objective: (uint8 array, t_lo, levels, H). Built once per
    machine (about 2 s for value or count, 15 s for board on the standard deck) and kept on disk."""
    import os

    path = _disk_path(cards, objective, F)
    kinds, vals, counts, _, _ = deck_types(list(cards))
    H = int(counts[kinds == T_LUCKY][0]) + 1
    t_lo, levels = objective_levels(vals, kinds, objective)
    if os.path.exists(path):
        try:
            block = np.load(path)
            if block.shape == (levels * F * H * n_piles(counts),):
                return block, t_lo, levels, H
        except (OSError, ValueError):
            pass
    block, t_lo, levels, H = _build_block(cards, objective, F)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp.npy"
        np.save(tmp, block)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache folder only costs a rebuild next time
    return block, t_lo, levels, H


def _build_block(cards, objective: int, F: int):
    kinds, vals, counts, strides, _ = deck_types(list(cards))
    piles = n_piles(counts)
    H = int(counts[kinds == T_LUCKY][0]) + 1
    t_lo, levels = objective_levels(vals, kinds, objective)
    size = levels * F * H * piles
    if size > MAX_TABLE_BYTES:
        raise UsageError(
            f"the optimal policy's table for this deck would take {size / 2**20:.0f} MB "
            f"(limit {MAX_TABLE_BYTES >> 20} MB): too many distinct cards"
        )
    block = np.zeros(size, np.uint8)
    part = F * H * piles
    for lev in range(levels):
        w = cash_weights(vals, kinds, objective, t_lo + lev)
        if int((w * counts).sum()) > MAX_THETA:
            raise UsageError(
                f"the optimal policy supports decks whose Cash weighs at most {MAX_THETA} in total"
            )
        out = np.zeros(part, np.int64)
        solve_thresholds(kinds, counts, strides, w, F, H, out)
        block[lev * part : (lev + 1) * part] = out
    return block, t_lo, levels, H


def build_table(rules: ChanceRules, players: int, kinds_by_seat, objectives_by_seat, deck_cards_by_seat) -> np.ndarray:
    """The float64 table ``pt`` for a run. ``objectives_by_seat[p]`` is None for seats that do
    not play the optimal policy. Seats with the same deck and objective share a block."""
    F = max_flips(rules)
    header = np.zeros(DATA0, np.float64)
    header[0] = TABLE_MAGIC
    blocks: list[np.ndarray] = []
    where: dict = {}
    used = 0
    for p in range(players):
        base = SEAT_HDR0 + p * SEAT_HDR
        header[base + H_OFFSET] = -1
        obj = objectives_by_seat[p]
        if obj is None:
            continue
        cards = tuple(deck_cards_by_seat[p])
        key = (cards, obj)
        block, t_lo, levels, H = deck_block(cards, obj, F)
        if key not in where:
            where[key] = used
            blocks.append(block)
            used += len(block)
        _, _, counts, strides, card_type = deck_types(list(cards))
        header[base + H_OFFSET] = where[key]
        header[base + H_OBJECTIVE] = obj
        header[base + H_LEVELS] = levels
        header[base + H_TLO] = t_lo
        header[base + H_F] = F
        header[base + H_H] = H
        header[base + H_PILES] = n_piles(counts)
        for c, j in enumerate(card_type):
            header[STRIDES + p * MAX_DECK + c] = strides[j]
    if not blocks:
        return np.zeros(0)
    data = np.concatenate(blocks)
    pad = (-len(data)) % 8
    data = np.concatenate([data, np.zeros(pad, np.uint8)])
    return np.concatenate([header, data.view(np.float64)])


# ---------------------------------------------------------------------------------------------
# Exact evaluation of one situation (Python; used by advise and the tests)


class TurnModel:
    """Exact expected reward of stopping rules from one situation. A state is the remaining
    pile (a tuple of counts per card type: each Cash value, Bankrupt, Lucky Break, other);
    flips left, Lucky Breaks in front and weight flipped follow from how it differs from the
    start, so the recursion memoizes on the pile alone."""

    def __init__(self, cash, bankrupt, lucky, other, held_lucky, flipped, flips, objective=OBJ_VALUE, t=0):
        cash_counts = Counter(cash)
        self.values = sorted(cash_counts)
        self.start = tuple(cash_counts[v] for v in self.values) + (bankrupt, lucky, other)
        self.h0 = held_lucky
        self.f0 = flips
        self.flipped = tuple(flipped)
        self.w = [self.weight(v, objective, t) for v in self.values]
        self.s0 = sum(self.weight(v, objective, t) for v in flipped)
        self.ncash = len(self.values)
        self._memo: dict = {}

    @classmethod
    def from_situation(cls, sit, objective=OBJ_VALUE, t=0):
        return cls(sit.cash, sit.bankrupt, sit.lucky, sit.other, sit.held_lucky, sit.flipped,
                   sit.flips, objective, t)

    @staticmethod
    def weight(v, objective, t):
        if objective == OBJ_VALUE:
            return v
        if objective == OBJ_COUNT:
            return 1
        return v if v > t else 0

    def state(self, pile) -> dict:
        n = self.ncash
        drawn = [a - b for a, b in zip(self.start, pile)]
        taken = sum(drawn)
        pile_n = sum(pile)
        h = self.h0 + drawn[n + 1] - drawn[n]  # every Bankrupt drawn so far was absorbed
        return {
            "taken": taken,
            "left": self.f0 - taken,
            "h": h,
            "s": self.s0 + sum(d * w for d, w in zip(drawn[:n], self.w)),
            "cash_sum": sum(self.flipped) + sum(d * v for d, v in zip(drawn[:n], self.values)),
            "cash_n": len(self.flipped) + sum(drawn[:n]),
            "pile_n": pile_n,
            "pile_bankrupt": pile[n],
            "p_bust_next": pile[n] / pile_n if h == 0 and pile_n else 0.0,
        }

    def successors(self, pile):
        """[(probability, next pile, or None for a bust)] of one flip."""
        n = sum(pile)
        h = self.state(pile)["h"]
        out = []
        for j, c in enumerate(pile):
            if c:
                nxt = pile[:j] + (c - 1,) + pile[j + 1 :]
                out.append((c / n, None if (j == self.ncash and h == 0) else nxt))
        return out

    def value(self, pile=None, decide=None, memo=None):
        """Expected reward from ``pile`` when flipping while ``decide(state)`` is true
        (decide None: the optimal rule, ties cash out)."""
        if memo is None:
            memo = self._memo if decide is None else {}
        pile = self.start if pile is None else pile

        def rec(pile):
            got = memo.get(pile)
            if got is not None:
                return got
            st = self.state(pile)
            stop = float(st["s"])
            if st["left"] <= 0 or st["pile_n"] == 0:
                val = stop
            elif decide is not None and not decide(st):
                val = stop
            else:
                cont = sum(q * rec(nxt) for q, nxt in self.successors(pile) if nxt is not None)
                val = cont if decide is not None else (cont if cont > stop + EPS else stop)
            memo[pile] = val
            return val

        return rec(pile)

    def should_flip(self, pile=None) -> bool:
        """The optimal decision at ``pile``: flip iff flipping beats cashing out."""
        pile = self.start if pile is None else pile
        st = self.state(pile)
        if st["left"] <= 0 or st["pile_n"] == 0:
            return False
        return self.flip_value(pile) > st["s"] + EPS

    def flip_value(self, pile=None) -> float:
        """Expected reward of flipping once now, then playing optimally."""
        pile = self.start if pile is None else pile
        return sum(q * self.value(nxt) for q, nxt in self.successors(pile) if nxt is not None)

    def one_flip_value(self, pile=None) -> float:
        """Expected reward of flipping exactly once more, then cashing out."""
        pile = self.start if pile is None else pile
        return sum(q * self.state(nxt)["s"] for q, nxt in self.successors(pile) if nxt is not None)

    def states(self):
        """Every pile reachable from the start while flips remain (alive states)."""
        seen = {self.start}
        todo = [self.start]
        while todo:
            pile = todo.pop()
            st = self.state(pile)
            if st["left"] <= 0 or st["pile_n"] == 0:
                continue
            for _, nxt in self.successors(pile):
                if nxt is not None and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen
