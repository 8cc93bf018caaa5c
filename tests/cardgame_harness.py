"""Scripted Monopoly: The Card Game situations for the rule tests (stacked decks).

A ``Table`` holds one match's state buffer ``S``, rules buffer ``RB``, policies and random
streams, with every card in the draw pile and nothing dealt. A test puts the cards it needs
where it wants them by name (``hand``, ``pile``, ``stack_draw``), then calls the kernel's own
functions (``move``, ``turn``, ``score``, ``hand_over``...) and reads the result back by name.
A name that several cards share (house1, go) takes the next copy still in the draw pile.

Setup uses the kernel's card moves, so the kind counts stay right and ``invariants()`` must
report "ok" after any scenario.
"""

from __future__ import annotations

import numpy as np

from sim.cardgame import kernel
from sim.cardgame import layout as L
from sim.cardgame.board import can_go_out, hand_score
from sim.cardgame.rules import KIND_NAMES, CardGameRules, extra_cards, kind_of, pack
from sim.core.rng import seed_state
from sim.core.userbot import stack_rows
from strategies.cardgame import MV_DOUBLE3, MV_DRAW, MV_SWAP3, MV_TRADE, parse_policy, seat_values

MOVES = {"draw": MV_DRAW, "trade": MV_TRADE, "swap3": MV_SWAP3, "double3": MV_DOUBLE3}
PLACES = {L.DRAW: "draw", L.HAND: "hand", L.PILE: "pile"}


class Table:
    """One match set up for a scripted scenario. ``seats``: one policy spec per seat."""

    def __init__(self, seats, rules: CardGameRules | None = None, seed: int = 0, deck_edits=None):
        self.rules = rules or CardGameRules()
        self.n = len(seats)
        self.RB = pack(self.rules, self.n, deck_edits)
        self.names = self.rules.cards() + [name for name, _ in extra_cards(deck_edits)]
        self.S, self.rng, self.W = kernel.new_state()
        parsed = [parse_policy(s) for s in seats]
        self.pk = np.array([k for _, k, _ in parsed], np.int64)
        self.pp = seat_values(self.RB, stack_rows("cardgame", [spec for spec, _, _ in parsed],
                                                  [params for _, _, params in parsed]))
        for s in range(L.RNG_SIZE // 4):
            seed_state(self.rng, 4 * s, np.uint64(seed), 0, s)
        kernel.new_match(self.S, self.RB)
        for c in range(len(self.names)):
            kernel.draw_push(self.S, c)
        self.hand_row = np.zeros((L.MAX_HAND_ROWS, L.N_HAND_COLS), np.int64)
        self.kind_row = np.zeros((L.NK, 4), np.int64)

    # ---- setting up ------------------------------------------------------------------------

    def card(self, name: str, where: str = "draw", owner: int | None = None) -> int:
        for c, n in enumerate(self.names):
            if n == name and PLACES[int(self.S[L.WHERE + c])] == where:
                if owner is None or int(self.S[L.OWNER + c]) == owner:
                    return c
        raise KeyError(f"no {name} in {where}" + (f" of {owner}" if owner is not None else ""))

    def _take(self, name: str) -> int:
        """Lift a card out of the draw pile (from anywhere in it)."""
        S = self.S
        c = self.card(name)
        i = int(S[L.POS + c])
        n = int(S[L.DRAW_N])
        for j in range(i, n - 1):
            S[L.DRAW_PILE + j] = S[L.DRAW_PILE + j + 1]
            S[L.POS + S[L.DRAW_PILE + j]] = j
        S[L.DRAW_N] = n - 1
        return c

    def hand(self, p: int, *names):
        for name in names:
            kernel.to_hand(self.S, self.RB, p, self._take(name))

    def pile(self, q: int, *names):
        """Put cards on pile q in this order: the last name ends on top."""
        for name in names:
            kernel.pile_push(self.S, q, self._take(name))

    def stack_draw(self, *names):
        """Put these cards on top of the draw pile, the first name on top."""
        for name in reversed(names):
            kernel.draw_push(self.S, self._take(name))

    def empty_draw_pile(self, onto: int):
        """Move every card still in the draw pile onto pile `onto` (under nothing in particular)."""
        while self.S[L.DRAW_N] > 0:
            kernel.pile_push(self.S, onto, kernel.draw_pop(self.S))

    def set_param(self, p: int, name: str, value: float):
        from strategies.cardgame import PARAMS

        self.pp[p, PARAMS[name].slot] = value
        self.S[L.PLAN_SEAT] = 0  # a bot's discard plan was weighed with the old parameters

    # ---- rules in action -------------------------------------------------------------------

    def legal(self, p: int, move: str, q: int = 0, k: int = 0, pre: int = 0) -> bool:
        return bool(kernel.legal_move(self.S, self.RB, p, MOVES[move], q, k, pre))

    def move(self, p: int, move: str, q: int = 0, k: int = 0, pre: int = 0) -> int:
        """Carry out a move (asserting it is legal); returns the discards it requires."""
        assert self.legal(p, move, q, k, pre), f"illegal {move} {q} {k} {pre}"
        return int(kernel.do_move(self.S, self.RB, self.pk, self.pp, self.rng, p, MOVES[move], q, k, pre))

    def discard_down(self, p: int, at_least: int = 0):
        kernel.discard_down(self.S, self.RB, self.pk, self.pp, self.rng, p, at_least)

    def discard(self, p: int, name: str):
        c = self.card(name, "hand", p)
        kernel.discard(self.S, self.RB, p, int(self.S[L.POS + c]))

    def turn(self, p: int) -> str:
        """One whole turn of seat p (2-4 player hand): 'on', 'out' or 'stall'."""
        r = kernel.play_turn(self.S, self.RB, self.pk, self.pp, self.rng, self.W, p)
        return ("on", "out", "stall")[r]

    def big_turn(self, p: int) -> str:
        r = kernel.play_big_turn(self.S, self.RB, self.pk, self.pp, self.rng, self.W, p)
        return ("on", "out", "stall")[r]

    def round_end(self, first: int = 0) -> int:
        """5-6 players: the end-of-round moment (go out, else pass left); who went out or -1."""
        return int(kernel.round_end(self.S, self.RB, self.pk, self.pp, self.rng, first))

    def deal(self, dealer: int | None = None):
        """A real shuffled deal by the kernel (dealer: default the match's first)."""
        if dealer is not None:
            self.S[L.G_DEALER] = dealer
        kernel.deal_hand(self.S, self.RB, self.rng)

    def pass_left(self):
        kernel.pass_left(self.S, self.RB, self.pk, self.pp, self.rng)

    def hand_over(self, goer: int):
        """The hand ends with `goer` out (-1: nobody): reward, scores, bonuses, payment."""
        self.S[L.G_OUT] = goer
        kernel.score_hand(self.S, self.RB, goer, self.hand_row, self.kind_row, True)

    def can_go_out(self, p: int) -> bool:
        return bool(can_go_out(self.S, L.KC + p * L.NK, self.RB))

    def score(self, p: int, goer: bool) -> int:
        return int(hand_score(self.S, L.KC + p * L.NK, self.RB, goer, np.zeros(4, np.int64)))

    def invariants(self) -> str:
        return kernel.STATUS_NAMES[kernel.check_invariants(self.S, self.RB)]

    # ---- reading back ----------------------------------------------------------------------

    @property
    def fields(self) -> dict:
        """The state by name (sim/cardgame/layout.py's declaration), arrays as views."""
        return L.STATE.decode(self.S)

    def hand_of(self, p: int) -> list[str]:
        f = self.fields
        return sorted(self.names[c] for c in f["HAND_"][p, :f["HAND_N"][p]])

    def pile_of(self, q: int) -> list[str]:
        """Pile q bottom to top."""
        f = self.fields
        return [self.names[c] for c in f["PILE_"][q, :f["PILE_N"][q]]]

    def draw_top(self, n: int) -> list[str]:
        f = self.fields
        return [self.names[c] for c in f["DRAW_PILE"][:f["DRAW_N"]][::-1][:n]]

    def money(self, p: int) -> int:
        return int(self.fields["MONEY"][p])

    def hand_score_of(self, p: int) -> int:
        return int(self.fields["HSCORE"][p])

    def stat(self, p: int, name: str) -> int:
        return int(self.fields["STATS"][p, L.SEAT_COLS.index(name)])

    def seen(self, p: int, name: str) -> int:
        return int(self.fields["SEEN"][p, kind_of(name)])

    def kinds(self, p: int) -> dict[str, int]:
        return {KIND_NAMES[k]: int(n) for k, n in enumerate(self.fields["KC"][p]) if n}


def counts(rules: CardGameRules, **held) -> tuple[np.ndarray, np.ndarray]:
    """A kind-count vector for board queries without a table: counts(rules, red=3, house1=1)."""
    A = np.zeros(L.NK, np.int32)
    for name, n in held.items():
        A[kind_of(name)] += n
    return A, pack(rules, rules.players_allowed()[0] if rules.edition == "video" else 4)
