"""Long-run landing frequencies of the 40 squares (and In Jail), exactly and by simulation.

One count per roll of the dice, at the square where the token rests after the roll and after
any card or Go To Jail move; In Jail (reported as square 40) is kept apart from Just Visiting
(square 10). The exact answer is the stationary distribution of a Markov chain whose states are

    (square, doubles rolled so far this turn)   for 40 squares x 0..2 doubles
    (In Jail, failed rolls for doubles so far)  0..jail_turns - 1

with one transition per roll. Two jail strategies: ``short`` leaves jail at once (pays or uses a
card, then rolls as usual), ``long`` stays as long as the rules allow (rolls for doubles; a
double moves out without rolling again; after the last failed roll the fine is paid and the
token moves by that roll). Cards are drawn as if each were equally likely every time (a
shuffled deck seen in the long run), and a Get Out of Jail Free card goes straight back; the
simulation draws cards the same way so that it estimates exactly what the chain computes.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from sim.classic import layout as L
from sim.classic.rules import (
    EFFECT_NAMES,
    IN_JAIL,
    JAIL_SQUARE,
    KIND_NAMES,
    ClassicRules,
)
from sim.core.rng import randint, seed_state

N_OUT = L.N_SQ + 1  # 40 squares and In Jail
JAIL_STRATEGIES = ("short", "long")


# ---------------------------------------------------------------------------------------------
# Exact chain


def _landing(rules: ClassicRules, sq: int) -> dict[int, float]:
    """Where a token that lands on sq comes to rest (IN_JAIL for jail), with probabilities."""
    kind = rules.board[sq].kind
    if kind == "go_to_jail":
        return {IN_JAIL: 1.0}
    if kind not in ("chance", "community_chest"):
        return {sq: 1.0}
    deck = rules.chance if kind == "chance" else rules.chest
    out: dict[int, float] = {}
    w = 1.0 / len(deck)
    for card in deck:
        if card.effect == "advance":
            dest = {card.a: 1.0}
        elif card.effect == "nearest_railroad":
            dest = {_nearest(rules, sq, "railroad"): 1.0}
        elif card.effect == "nearest_utility":
            dest = {_nearest(rules, sq, "utility"): 1.0}
        elif card.effect == "back":
            dest = _landing(rules, (sq - card.a) % L.N_SQ)
        elif card.effect == "go_to_jail":
            dest = {IN_JAIL: 1.0}
        else:
            dest = {sq: 1.0}
        for d, p in dest.items():
            out[d] = out.get(d, 0.0) + w * p
    return out


def _nearest(rules: ClassicRules, sq: int, kind: str) -> int:
    for step in range(1, L.N_SQ + 1):
        j = (sq + step) % L.N_SQ
        if rules.board[j].kind == kind:
            return j
    raise ValueError(f"no {kind} on the board")


def transition_matrix(rules: ClassicRules, jail: str) -> np.ndarray:
    """Row-stochastic matrix over the chain's states (see the module doc), one roll per step."""
    if jail not in JAIL_STRATEGIES:
        raise ValueError(f"jail strategy must be short or long (got {jail!r})")
    turns = rules.jail_turns if jail == "long" else 1
    n_states = 3 * L.N_SQ + turns
    jail0 = 3 * L.N_SQ
    speeding = rules.house.speeding
    land = [_landing(rules, sq) for sq in range(L.N_SQ)]
    P = np.zeros((n_states, n_states))

    def rest(row, sq_from, total, doubles_after, weight):
        for dest, p in land[(sq_from + total) % L.N_SQ].items():
            col = jail0 if dest == IN_JAIL else 3 * dest + doubles_after
            P[row, col] += weight * p

    for sq in range(L.N_SQ):
        for d in range(3):
            row = 3 * sq + d
            for a in range(1, 7):
                for b in range(1, 7):
                    w = 1.0 / 36.0
                    if a == b and d == 2 and speeding:
                        P[row, jail0] += w
                    elif a == b:
                        rest(row, sq, a + b, min(d + 1, 2) if speeding else 0, w)
                    else:
                        rest(row, sq, a + b, 0, w)
    for j in range(turns):
        row = jail0 + j
        if jail == "short":  # pay at once, then an ordinary first roll from square 10
            P[row] = P[3 * JAIL_SQUARE]
            continue
        for a in range(1, 7):
            for b in range(1, 7):
                w = 1.0 / 36.0
                if a == b or j == turns - 1:  # out on a double, or pay after the last failure
                    rest(row, JAIL_SQUARE, a + b, 0, w)
                else:
                    P[row, jail0 + j + 1] += w
    return P


def exact_frequencies(rules: ClassicRules | None = None, jail: str = "short") -> np.ndarray:
    """Long-run share of rolls that leave the token on each square (index 40: In Jail)."""
    rules = rules or ClassicRules()
    P = transition_matrix(rules, jail)
    n = P.shape[0]
    # solve pi (P - I) = 0 with sum(pi) = 1
    A = np.vstack([(P - np.eye(n)).T, np.ones(n)])
    rhs = np.zeros(n + 1)
    rhs[-1] = 1.0
    pi, *_ = np.linalg.lstsq(A, rhs, rcond=None)
    pi[np.abs(pi) < 1e-14] = 0.0  # unreachable states (Go To Jail) come out as +-1e-17
    pi /= pi.sum()
    out = np.zeros(N_OUT)
    for sq in range(L.N_SQ):
        out[sq] = pi[3 * sq : 3 * sq + 3].sum()
    out[IN_JAIL] = pi[3 * L.N_SQ :].sum()
    return out


# ---------------------------------------------------------------------------------------------
# Simulation


@njit(cache=True)
def _rest(RB, sq, rng):
    """Resolve a landing on sq: card and Go To Jail moves. Returns the square or IN_JAIL."""
    for _ in range(8):
        kind = RB[L.R_SQ_KIND + sq]
        if kind == 9:  # go to jail
            return IN_JAIL
        if kind != 4 and kind != 5:  # not a card square
            return sq
        d = 0 if kind == 4 else 1
        k = randint(rng, 0, RB[L.R_DECK_SIZE + d])
        fx = RB[L.R_CARD_FX + d * L.MAX_CARDS + k]
        a = RB[L.R_CARD_A + d * L.MAX_CARDS + k]
        if fx == _FX_ADVANCE:
            return a
        if fx == _FX_NEAREST_RR:
            return RB[L.R_NEXT_RR + sq]
        if fx == _FX_NEAREST_UTIL:
            return RB[L.R_NEXT_UTIL + sq]
        if fx == _FX_JAIL:
            return IN_JAIL
        if fx == _FX_BACK:
            sq = (sq - a + L.N_SQ) % L.N_SQ
            continue
        return sq
    return sq


_FX_ADVANCE = EFFECT_NAMES.index("advance")
_FX_NEAREST_RR = EFFECT_NAMES.index("nearest_railroad")
_FX_NEAREST_UTIL = EFFECT_NAMES.index("nearest_utility")
_FX_JAIL = EFFECT_NAMES.index("go_to_jail")
_FX_BACK = EFFECT_NAMES.index("back")
assert KIND_NAMES.index("go_to_jail") == 9 and KIND_NAMES.index("chance") == 4


@njit(cache=True)
def _walk(RB, long_jail, speeding, jail_turns, n_rolls, burn_in, seed, chain, counts, row):
    """One token rolling n_rolls times (after burn_in uncounted rolls) into counts[row]."""
    rng = np.zeros(4, np.uint64)
    seed_state(rng, 0, seed, chain, 0)
    sq = 0
    doubles = 0
    jailed = -1  # failed rolls in jail so far, -1 when not in jail
    for t in range(burn_in + n_rolls):
        a = randint(rng, 0, 6) + 1
        b = randint(rng, 0, 6) + 1
        if jailed >= 0 and long_jail:
            if a == b or jailed == jail_turns - 1:
                jailed = -1
                doubles = 0
                sq = _rest(RB, (JAIL_SQUARE + a + b) % L.N_SQ, rng)
                if sq == IN_JAIL:
                    jailed = 0
            else:
                jailed += 1
        else:
            if jailed >= 0:  # short: pay at once and roll as usual
                jailed = -1
                sq = JAIL_SQUARE
                doubles = 0
            if a == b:
                doubles += 1
            else:
                doubles = 0
            if doubles == 3 and speeding:
                jailed = 0
                doubles = 0
            else:
                sq = _rest(RB, (sq + a + b) % L.N_SQ, rng)
                if sq == IN_JAIL:
                    jailed = 0
                    doubles = 0
                elif not speeding:
                    doubles = 0
        if t >= burn_in:
            counts[row, IN_JAIL if jailed >= 0 else sq] += 1


@njit(cache=True, parallel=True)
def simulate_counts(RB, long_jail, speeding, jail_turns, rolls_per_chain, seed, counts):
    """counts[c, square]: rolls of independent chain c resting on each square."""
    for c in prange(counts.shape[0]):
        _walk(RB, long_jail, speeding, jail_turns, rolls_per_chain, 100, seed, c, counts, c)


def simulated_frequencies(rules: ClassicRules | None = None, jail: str = "short", rolls: int = 1_000_000,
                          seed: int = 0, chains: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """Share of `rolls` rolls resting on each square, and its standard error (from the spread
    between `chains` independent chains of equal length)."""
    from sim.classic.rules import pack

    rules = rules or ClassicRules()
    if jail not in JAIL_STRATEGIES:
        raise ValueError(f"jail strategy must be short or long (got {jail!r})")
    RB = pack(rules, 2)
    per_chain = max(1, rolls // chains)
    counts = np.zeros((chains, N_OUT), np.int64)
    simulate_counts(RB, jail == "long", rules.house.speeding, rules.jail_turns, per_chain, np.uint64(seed), counts)
    shares = counts / per_chain
    mean = shares.mean(axis=0)
    se = shares.std(axis=0, ddof=1) / np.sqrt(chains)
    return mean, se


def landing_table(rules: ClassicRules | None = None, jail: str = "short", rolls: int = 1_000_000,
                  seed: int = 0) -> list[dict]:
    """41 rows {"square", "name", "simulated", "exact"} (plus "se", the simulation's standard
    error), square 40 being In Jail."""
    rules = rules or ClassicRules()
    exact = exact_frequencies(rules, jail)
    sim, se = simulated_frequencies(rules, jail, rolls, seed)
    names = [s.name for s in rules.board]
    names[JAIL_SQUARE] = "Just Visiting"
    names.append("In Jail")
    return [
        {"square": i, "name": names[i], "simulated": float(sim[i]), "exact": float(exact[i]), "se": float(se[i])}
        for i in range(N_OUT)
    ]


def render_landing(rows: list[dict], jail: str, rolls: int) -> str:
    lines = [
        f"# Landing frequencies, jail strategy {jail!r} ({rolls:,} simulated rolls)",
        "",
        "| square | name | simulated | exact | difference | z |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        diff = r["simulated"] - r["exact"]
        z = diff / r["se"] if r["se"] > 0 else 0.0
        lines.append(f"| {r['square']} | {r['name']} | {r['simulated']:.4%} | {r['exact']:.4%} | {diff:+.4%} | {z:+.1f} |")
    top = sorted(rows, key=lambda r: -r["exact"])[:5]
    lines += ["", "Most visited (exact): " + ", ".join(f"{r['name']} {r['exact']:.2%}" for r in top)]
    return "\n".join(lines) + "\n"
