"""Scripted classic Monopoly situations for the rule tests.

A ``Table`` holds one game's buffer ``S`` (``RB`` is a view of its rules block), policies and random
streams, set up as at the start of a game. A test arranges the position it needs (``own``,
``build``, ``cash``, ``at``, ``jail``, ``give_jail_card``), scripts the dice (``dice(3, 4, 6,
6)``: each number is one die, in order) and stacks the decks (``stack("chance", "Go Back 3
Spaces")``: those cards are drawn first), then calls the kernel's own functions (``turn``,
``land``, ``draw``, ``pay``) and reads the state back by name.

After any direct edit the harness calls ``sync`` so that derived fields (group counts,
mortgages held, the bank's houses and balance) agree with the edit; the money invariant is
then "sum of cash + pot + bank == 0" from that point on.
"""

from __future__ import annotations

import numpy as np

from sim.classic import kernel
from sim.classic import layout as L
from sim.classic.api import landing_weights
from sim.classic.rules import IN_JAIL, ClassicRules, pack, square_index
from sim.core.event_log import with_log
from sim.core.rng import seed_state
from sim.core.userbot import stack_rows
from strategies.classic import parse_policy

# Square numbers by name, for readable tests
SQ = {s.name: i for i, s in enumerate(ClassicRules().board) if s.kind not in ("chance", "community_chest")}
CHANCE_SQUARES = (7, 22, 36)
CHEST_SQUARES = (2, 17, 33)
DECKS = {"chance": 0, "chest": 1}


class Table:
    def __init__(self, seats, rules: ClassicRules | None = None, seed: int = 0, log_rows: int = 0):
        """``log_rows`` > 0 gives the state an event log of that many rows (``events``)."""
        self.rules = rules or ClassicRules()
        self.n = len(seats)
        self.S = kernel.start_state(pack(self.rules, self.n))
        if log_rows:
            self.S = with_log(self.S, L.STATE_SIZE, log_rows)
        self.RB = self.S[: L.RULES_SIZE]  # the rules block (a view: writes change the game's rules)
        parsed = [parse_policy(s) for s in seats]
        self.S[L.R_KIND : L.R_KIND + self.n] = [k for _, k, _ in parsed]
        self.pp = stack_rows("classic", [spec for spec, _, _ in parsed], [params for _, _, params in parsed])
        self.pt = landing_weights(self.rules)
        self.rng = np.zeros(L.RNG_SIZE, np.uint64)
        for s in range(L.RNG_SIZE // 4):
            seed_state(self.rng, 4 * s, np.uint64(seed), 0, s)
        self.sync()

    # ---- reading ---------------------------------------------------------------------------
    def sq(self, name) -> int:
        return name if isinstance(name, int) else square_index(self.rules, name)

    def cash(self, p) -> int:
        return int(self.S[L.CASH + p])

    def pos(self, p) -> int:
        return int(self.S[L.POS + p])

    def owner(self, name) -> int:
        return int(self.S[L.OWNER + self.sq(name)])

    def level(self, name) -> int:
        return int(self.S[L.LEVEL + self.sq(name)])

    def mortgaged(self, name) -> bool:
        return bool(self.S[L.MORT + self.sq(name)])

    def alive(self, p) -> bool:
        return bool(self.S[L.ALIVE + p])

    def in_jail(self, p) -> bool:
        return bool(self.S[L.JAIL + p])

    def jail_cards(self, p) -> int:
        return int(self.S[L.GOOJF + 2 * p] + self.S[L.GOOJF + 2 * p + 1])

    @property
    def houses_left(self) -> int:
        return int(self.S[L.G_HOUSES])

    @property
    def hotels_left(self) -> int:
        return int(self.S[L.G_HOTELS])

    @property
    def pot(self) -> int:
        return int(self.S[L.G_POT])

    @property
    def bank(self) -> int:
        return int(self.S[L.G_BANK])

    def stat(self, p, col) -> int:
        return int(self.S[kernel.stat(p, col)])

    def deck_order(self, deck: str) -> list[int]:
        d = DECKS[deck]
        n_d = self.RB[L.R_DECK_SIZE + d]
        head = self.S[L.DECK_HEAD + d]
        return [int(self.S[L.DECK + d * L.MAX_CARDS + (head + i) % n_d]) for i in range(self.S[L.DECK_N + d])]

    def card_index(self, deck: str, text: str) -> int:
        cards = self.rules.chance if deck == "chance" else self.rules.chest
        for k, c in enumerate(cards):
            if c.text.lower().startswith(text.lower()):
                return k
        raise KeyError(f"no {deck} card starting {text!r}")

    # ---- arranging -------------------------------------------------------------------------
    def sync(self):
        """Recompute derived fields after direct edits."""
        S, RB = self.S, self.RB
        S[L.GOWN : L.GOWN + L.MAX_PLAYERS * L.N_GROUPS] = 0
        S[L.MORT_N : L.MORT_N + L.MAX_PLAYERS] = 0
        S[L.WHOLE_N : L.WHOLE_N + L.MAX_PLAYERS] = 0
        houses = hotels = 0
        for sq in range(L.N_SQ):
            o = S[L.OWNER + sq]
            if o >= 0:
                S[L.GOWN + o * L.N_GROUPS + RB[L.R_SQ_GROUP + sq]] += 1
                S[L.MORT_N + o] += S[L.MORT + sq]
            lv = S[L.LEVEL + sq]
            hotels += lv == 5
            houses += lv if lv < 5 else 0
        for g in range(L.N_GROUPS):
            members = RB[L.R_GROUP_SQ + g * L.MAX_GROUP : L.R_GROUP_SQ + g * L.MAX_GROUP + RB[L.R_GROUP_SIZE + g]]
            S[L.BANK_N + g] = int((S[L.OWNER + members] < 0).sum())
        for p in range(L.MAX_PLAYERS):
            for g in range(L.N_GROUPS):
                if RB[L.R_GROUP_STREETS + g] and S[L.GOWN + p * L.N_GROUPS + g] == RB[L.R_GROUP_SIZE + g]:
                    S[L.WHOLE_N + p] += 1
        S[L.G_HOUSES] = RB[L.R_HOUSES] - houses
        S[L.G_HOTELS] = RB[L.R_HOTELS] - hotels
        S[L.G_ALIVE_N] = int(S[L.ALIVE : L.ALIVE + self.n].sum())
        S[L.G_BANK] = -int(S[L.CASH : L.CASH + L.MAX_PLAYERS].sum()) - int(S[L.G_POT])
        S[L.MEMO_BOARD : L.MEMO_BOARD + L.MAX_PLAYERS] = -1  # edits: bots look at the board again
        S[L.RENT_BOARD : L.RENT_BOARD + L.MAX_PLAYERS] = -1

    def set_cash(self, p, amount):
        self.S[L.CASH + p] = amount
        self.sync()

    def own(self, p, *names, mortgaged=False):
        for name in names:
            sq = self.sq(name)
            self.S[L.OWNER + sq] = p
            self.S[L.MORT + sq] = int(mortgaged)
        self.sync()

    def build(self, name, level):
        self.S[L.LEVEL + self.sq(name)] = level
        self.sync()

    def set_supply(self, houses=None, hotels=None):
        """Take buildings out of the bank (as if standing elsewhere) by lowering the supply."""
        if houses is not None:
            self.RB[L.R_HOUSES] -= self.S[L.G_HOUSES] - houses
        if hotels is not None:
            self.RB[L.R_HOTELS] -= self.S[L.G_HOTELS] - hotels
        self.sync()

    def at(self, p, name):
        sq = self.sq(name)
        if sq == IN_JAIL:
            self.jail(p)
        else:
            self.S[L.POS + p] = sq

    def jail(self, p, failed=0):
        self.S[L.POS + p] = 10
        self.S[L.JAIL + p] = 1 + failed

    def give_jail_card(self, p, deck="chance"):
        d = DECKS[deck]
        k = self.RB[L.R_GOOJF_CARD + d]
        order = [c for c in self.deck_order(deck) if c != k]
        self._set_deck(d, order)
        self.S[L.GOOJF + 2 * p + d] += 1

    def stack(self, deck, *texts):
        """Put these cards (by the start of their text) on top of the deck, in this order."""
        d = DECKS[deck]
        first = [self.card_index(deck, t) for t in texts]
        rest = [c for c in self.deck_order(deck) if c not in first]
        self._set_deck(d, first + rest)

    def _set_deck(self, d, order):
        base = L.DECK + d * L.MAX_CARDS
        self.S[base : base + L.MAX_CARDS] = 0
        self.S[base : base + len(order)] = order
        self.S[L.DECK_HEAD + d] = 0
        self.S[L.DECK_N + d] = len(order)

    def dice(self, *faces):
        """Script the next dice: each number is one die, in the order rolled."""
        self.S[L.DICE_N] = len(faces)
        self.S[L.DICE_POS] = 0
        self.S[L.DICE_SCRIPT : L.DICE_SCRIPT + len(faces)] = faces

    def dice_left(self) -> int:
        return int(self.S[L.DICE_N] - self.S[L.DICE_POS])

    # ---- acting ----------------------------------------------------------------------------
    def _args(self):
        return self.S, self.pp, self.pt, self.rng

    def turn(self, p):
        kernel.play_turn(*self._args(), p)
        self.S[L.G_TURN] += 1
        return self

    def land(self, p, name, mode=0, mult=0):
        self.at(p, name)
        kernel.land(*self._args(), p, mode, mult)
        return self

    def draw(self, p, deck):
        kernel.draw_card(*self._args(), p, DECKS[deck])
        return self

    def pay(self, p, amount, to):
        return kernel.pay(*self._args(), p, amount, to)

    def manage(self, p):
        kernel.manage(*self._args(), p)
        return self

    def check(self):
        status = kernel.check_invariants(self.S)
        assert status == kernel.OK, kernel.STATUS_NAMES[status]
        assert self.S[L.G_STATUS] == kernel.OK, kernel.STATUS_NAMES[self.S[L.G_STATUS]]
        return self

    def events(self) -> list[str]:
        """The sentences of the events logged so far (a table made with ``log_rows``)."""
        from sim.classic.events import EVENTS
        from sim.core.replay import logged_sentences

        return logged_sentences(EVENTS, self.rules, self.RB, self.S[L.STATE_SIZE:])

    def total_money(self) -> int:
        return int(self.S[L.CASH : L.CASH + L.MAX_PLAYERS].sum() + self.S[L.G_POT] + self.S[L.G_BANK])
