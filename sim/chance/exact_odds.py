"""Exact odds of a Monopoly Chance turn, by dynamic programming over draws without replacement.

A *situation* is what a player knows before the next flip: the cards left in their draw pile
(the Cash values still in it, Bankrupts, Lucky Breaks and other cards: Token, Flip 2, Nope!),
the Lucky Breaks already in front of them this turn, the Cash flipped this turn and the flips
left. ``odds`` answers, for each k = 1 .. flips left: if the player commits to flipping k more
cards (stopping early only on a bust, or when the pile runs out), what is the chance of going
bankrupt, and the expected number and total value of Cash cards kept (the Cash already flipped
counts, and a bust loses it too).

Why a small DP is exact. What happens depends only on the sequence of card *kinds*: a Bankrupt
busts the player unless a Lucky Break flipped earlier this turn (or held from before the next
flip) is still unused. So the DP walks over the counts of kinds drawn so far (cash c, Bankrupts b,
Lucky Breaks l, others o), each step drawing a kind with probability (cards of that kind left) /
(cards left). Given the kinds, the Cash cards drawn are a uniformly random c-subset of the Cash
in the pile, so their expected total is c times the pile's mean Cash value.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sim.chance.layout import MAX_DECK
from sim.chance.rules import BANKRUPT, CASH, LUCKY_BREAK, ChanceRules
from sim.core.runner import UsageError


@dataclass(frozen=True)
class Situation:
    """A player's position before the next flip (all counts are of cards, not kinds)."""

    cash: tuple[int, ...]  # Cash values left in the draw pile (a multiset, sorted)
    bankrupt: int  # Bankrupts left in the pile
    lucky: int  # Lucky Breaks left in the pile
    other: int  # Token, Flip 2, Nope! left in the pile
    held_lucky: int  # Lucky Breaks in front of the player, not yet used
    flipped: tuple[int, ...]  # Cash values flipped this turn (kept unless the turn busts)
    flips: int  # flips left this turn

    @property
    def pile_n(self) -> int:
        return len(self.cash) + self.bankrupt + self.lucky + self.other

    @property
    def cash_sum(self) -> int:
        return sum(self.flipped)


def deck_composition(rules: ChanceRules | None = None) -> tuple[Counter, int, int, int]:
    """A token deck as (Counter of Cash values, Bankrupts, Lucky Breaks, other cards)."""
    rules = rules or ChanceRules()
    cash: Counter = Counter()
    bankrupt = lucky = other = 0
    for kind, value in rules.deck_cards():
        if kind == CASH:
            cash[value] += 1
        elif kind == BANKRUPT:
            bankrupt += 1
        elif kind == LUCKY_BREAK:
            lucky += 1
        else:
            other += 1
    return cash, bankrupt, lucky, other


def make_situation(
    cash: list[int] | None = None,
    bankrupt: int | None = None,
    lucky: int | None = None,
    other: int | None = None,
    held_lucky: int = 0,
    flipped: list[int] | None = None,
    flips: int | None = None,
    rules: ChanceRules | None = None,
) -> Situation:
    """A checked situation. Pile counts not given are the fresh deck minus the cards the other
    arguments put in front of the player (the Cash in ``flipped``, the ``held_lucky`` Lucky
    Breaks and any Bankrupt they absorbed cannot be in the pile too); ``flips`` defaults to the
    largest die face (a turn that has just begun on the best roll). Raises UsageError for a
    situation the deck cannot produce."""
    rules = rules or ChanceRules()
    deck_cash, deck_b, deck_l, deck_o = deck_composition(rules)
    flipped = list(flipped or [])
    for name, n in (("--held-lucky", held_lucky), ("--bankrupt", bankrupt), ("--lucky", lucky),
                    ("--other", other), ("--flips", flips)):
        if n is not None and n < 0:
            raise UsageError(f"{name} must not be negative (got {n})")
        if n is not None and n > MAX_DECK:
            raise UsageError(f"{name} must be at most {MAX_DECK}, a token deck's largest size (got {n})")
    for v in list(cash or []) + flipped:
        if v < 1:
            raise UsageError(f"Cash values must be positive (got {v})")
    fl = Counter(flipped)
    for v, n in fl.items():
        if n > deck_cash[v]:
            raise UsageError(f"--flipped has {n} x Cash {v} but the deck holds {deck_cash[v]}")
    if cash is None:
        pile_cash = deck_cash - fl
    else:
        pile_cash = Counter(cash)
        for v, n in pile_cash.items():
            if n + fl[v] > deck_cash[v]:
                held = f" ({fl[v]} more flipped)" if fl[v] else ""
                raise UsageError(
                    f"--cash has {n} x Cash {v}{held} but the deck holds {deck_cash[v]}"
                )
    if held_lucky > deck_l:
        raise UsageError(f"--held-lucky {held_lucky} is more than the {deck_l} Lucky Breaks in the deck")
    if lucky is None:
        lucky = deck_l - held_lucky
    elif lucky + held_lucky > deck_l:
        raise UsageError(
            f"--lucky {lucky} plus --held-lucky {held_lucky} is more than the {deck_l} Lucky Breaks in the deck"
        )
    if bankrupt is None:
        bankrupt = deck_b
    elif bankrupt > deck_b:
        raise UsageError(f"--bankrupt {bankrupt} is more than the {deck_b} Bankrupts in the deck")
    if other is None:
        other = deck_o
    elif other > deck_o:
        raise UsageError(f"--other {other} is more than the {deck_o} other cards (Token, Flip 2, Nope!) in the deck")
    if flips is None:
        flips = max(rules.die)
    return Situation(
        cash=tuple(sorted(pile_cash.elements())),
        bankrupt=bankrupt,
        lucky=lucky,
        other=other,
        held_lucky=held_lucky,
        flipped=tuple(sorted(flipped)),
        flips=flips,
    )


def commit_odds(sit: Situation, k: int) -> tuple[float, float, float]:
    """(P(bust), E[Cash cards kept], E[Cash value kept]) for committing to k more flips."""
    C, B, Lk, O = len(sit.cash), sit.bankrupt, sit.lucky, sit.other
    N = C + B + Lk + O
    mean_cash = sum(sit.cash) / C if C else 0.0
    h = sit.held_lucky
    # alive[(c, b, l, o)] = probability of having drawn these kinds without busting
    alive = {(0, 0, 0, 0): 1.0}
    bust = 0.0
    for j in range(min(k, N)):
        nxt: dict[tuple[int, int, int, int], float] = {}
        left = N - j
        for (c, b, l, o), pr in alive.items():
            if C - c:
                key = (c + 1, b, l, o)
                nxt[key] = nxt.get(key, 0.0) + pr * (C - c) / left
            if B - b:
                q = pr * (B - b) / left
                if h + l - b > 0:  # an unused Lucky Break absorbs it
                    key = (c, b + 1, l, o)
                    nxt[key] = nxt.get(key, 0.0) + q
                else:
                    bust += q
            if Lk - l:
                key = (c, b, l + 1, o)
                nxt[key] = nxt.get(key, 0.0) + pr * (Lk - l) / left
            if O - o:
                key = (c, b, l, o + 1)
                nxt[key] = nxt.get(key, 0.0) + pr * (O - o) / left
        alive = nxt
    n0 = len(sit.flipped)
    s0 = sit.cash_sum
    e_cards = sum(pr * (n0 + c) for (c, _, _, _), pr in alive.items())
    e_value = sum(pr * (s0 + c * mean_cash) for (c, _, _, _), pr in alive.items())
    return bust, e_cards, e_value


def p_bust_next(sit: Situation) -> float:
    """Chance that the very next flip busts: a Bankrupt with no Lucky Break in front."""
    if sit.flips < 1 or sit.pile_n == 0 or sit.held_lucky > 0:
        return 0.0
    return sit.bankrupt / sit.pile_n


def odds(sit: Situation | None = None, **kwargs) -> dict:
    """The odds of a situation (or of ``make_situation(**kwargs)``), in the shape of
    ``monosim chance odds --json``:
    ``{"p_bust_next": x, "flips": [{"k", "p_bust", "expected_cash_cards", "expected_cash_value"}]}``."""
    if sit is None:
        sit = make_situation(**kwargs)
    elif kwargs:
        raise TypeError("give a Situation or keyword arguments, not both")
    rows = []
    for k in range(1, sit.flips + 1):
        pb, ec, ev = commit_odds(sit, k)
        rows.append({"k": k, "p_bust": pb, "expected_cash_cards": ec, "expected_cash_value": ev})
    return {"p_bust_next": p_bust_next(sit), "flips": rows}


def describe_situation(sit: Situation) -> str:
    cash = ",".join(map(str, sit.cash)) or "none"
    flipped = ",".join(map(str, sit.flipped)) or "none"
    return (
        f"pile {sit.pile_n} cards: Cash {cash}; {sit.bankrupt} Bankrupt, {sit.lucky} Lucky Break, "
        f"{sit.other} other | in front: Cash {flipped} (sum {sit.cash_sum}), "
        f"{sit.held_lucky} Lucky Break | {sit.flips} flips left"
    )


def render_odds(sit: Situation, result: dict) -> str:
    lines = [
        describe_situation(sit),
        f"Next flip busts: {result['p_bust_next']:.1%}",
        "",
        "| flip k more | P(bust) | E[Cash cards kept] | E[Cash value kept] |",
        "|---:|---:|---:|---:|",
    ]
    lines.append(f"| 0 (cash out) | 0.0% | {len(sit.flipped):.2f} | {sit.cash_sum:.2f} |")
    for r in result["flips"]:
        lines.append(
            f"| {r['k']} | {r['p_bust']:.1%} | {r['expected_cash_cards']:.2f} | {r['expected_cash_value']:.2f} |"
        )
    return "\n".join(lines) + "\n"
