"""Scripted Monopoly Deal situations for the rule tests.

A ``Table`` holds one game's buffer ``S`` (``RB`` is a view of its rules block), policies and
random streams, with every card in the draw pile and nothing dealt. A test puts the cards it
needs where it wants them by name (``hand``, ``bank``, ``prop``, ``build``, ``stack_draw``),
calls the kernel's rule functions (``play``, ``turn``, ``collect``, ``play_game``) and reads the
result back by name. A name that several cards share (money1, pass_go) takes the next copy still in
the draw pile. Colours are given by name ("red", "railroad").

The kernel's own card moves are used for every setup step, so the cached totals stay right
and ``invariants()`` must report "ok" after any scenario.
"""

from __future__ import annotations

import numpy as np

from sim.core.event_log import with_log
from sim.core.game import NO_START
from sim.deal import kernel
from sim.deal import layout as L
from sim.deal.rules import COLOUR_NAMES, DealRules, card_names, pack
from sim.core.rng import seed_state
from sim.core.userbot import stack_rows
from strategies.deal import M_ACTION, M_BANK, M_PLACE, parse_policy

MODES = {"bank": M_BANK, "place": M_PLACE, "action": M_ACTION}
PLACES = {L.DRAW: "draw", L.DISCARD: "discard", L.HAND: "hand", L.BANK: "bank", L.PROP: "prop", L.BUILDING: "building"}


def colour(name) -> int:
    if isinstance(name, int):
        return name
    return L.LOOSE if name == "loose" else COLOUR_NAMES.index(name)


class Table:
    """One game set up for a scripted scenario. ``seats``: one policy spec per seat."""

    def __init__(self, seats, rules: DealRules | None = None, seed: int = 0, deck_edits=None, current: int = 0,
                 log_rows: int = 0):
        """``log_rows`` > 0 gives the state an event log of that many rows (``events``)."""
        self.rules = rules or DealRules()
        self.n = len(seats)
        self.names = card_names(self.rules, deck_edits)
        parsed = [parse_policy(s) for s in seats]
        kinds = np.array([k for _, k, _ in parsed], np.int64)
        self.S, self.rng = kernel.new_state(pack(self.rules, self.n, deck_edits), kinds)
        self.RB = self.S[: L.RULES_SIZE]  # the rules block (a view: writes change the game's rules)
        self.pp = stack_rows("deal", [spec for spec, _, _ in parsed], [params for _, _, params in parsed])
        for s in range(L.RNG_SIZE // 4):
            seed_state(self.rng, 4 * s, np.uint64(seed), 0, s)
        S = self.S
        S[L.RULES_SIZE :] = 0
        for c in range(L.MAX_CARDS):
            S[L.OWNER + c] = -1
            S[L.GROUP + c] = -1
        S[L.HOUSE : L.HOUSE + L.MAX_PLAYERS * L.NC] = -1
        S[L.HOTEL : L.HOTEL + L.MAX_PLAYERS * L.NC] = -1
        S[L.ARRANGED_VER : L.ARRANGED_VER + L.MAX_PLAYERS] = -1
        S[L.REPAIRED_VER : L.REPAIRED_VER + L.MAX_PLAYERS] = -1
        for c in range(len(self.names)):
            kernel.to_draw_top(S, c)
        S[L.G_WINNER] = -1
        S[L.G_CURRENT] = current
        S[L.G_PLAYS_LEFT] = self.rules.plays_per_turn
        if log_rows:
            self.S = with_log(S, L.STATE_SIZE, log_rows)
            self.RB = self.S[: L.RULES_SIZE]

    # ---- setting up ------------------------------------------------------------------------

    def card(self, name: str, where: str = "draw", owner: int | None = None) -> int:
        """Number of a card with this name at a place (and owner), the first copy found."""
        for c, n in enumerate(self.names):
            if n == name and PLACES[int(self.S[L.WHERE + c])] == where:
                if owner is None or int(self.S[L.OWNER + c]) == owner:
                    return c
        raise KeyError(f"no {name} in {where}" + (f" of seat {owner}" if owner is not None else ""))

    def _take(self, name):
        c = self.card(name)
        kernel.take_out(self.S, c)
        return c

    def hand(self, p: int, *names):
        for name in names:
            kernel.to_hand(self.S, p, self._take(name))

    def bank(self, p: int, *names):
        for name in names:
            kernel.to_bank(self.S, p, self._take(name))

    def prop(self, p: int, col, *names):
        for name in names:
            kernel.to_group(self.S, p, colour(col), self._take(name))

    def build(self, p: int, col, *names):
        for name in names:
            kernel.to_building(self.S, p, colour(col), self._take(name))

    def discard(self, *names):
        for name in names:
            kernel.to_discard(self.S, self._take(name))

    def stack_draw(self, *names):
        """Put these cards on top of the draw pile, the first name on top."""
        for name in reversed(names):
            kernel.to_draw_top(self.S, self._take(name))

    def empty_draw_pile(self):
        """Move every card still in the draw pile to the discards."""
        while self.S[L.DRAW_N] > 0:
            c = int(self.S[L.DRAW_PILE + self.S[L.DRAW_N] - 1])
            kernel.take_out(self.S, c)
            kernel.to_discard(self.S, c)

    def set_param(self, p: int, name: str, value: float):
        from strategies.deal import PARAMS

        self.pp[p, PARAMS[name].slot] = value

    # ---- rules in action -------------------------------------------------------------------

    def play(self, p: int, name: str, mode: str, a=0, b=0, t=0) -> bool:
        """Seat p plays the named card from its hand. ``a`` may be a colour name or a card
        given as (name, place, owner); ``b`` likewise (Forced Deal's own card)."""
        c = self.card(name, "hand", p)
        k = int(self.S[L.POS + c])
        self.S[L.G_CURRENT] = p
        a = self._arg(a)
        b = self._arg(b)
        ok = bool(kernel.play_card(self.S, self.pp, self.rng, p, k, MODES[mode], a, b, t))
        kernel.after_play(self.S, p, True)
        return ok

    def _arg(self, x):
        if isinstance(x, str):
            return colour(x)
        if isinstance(x, tuple):
            return self.card(*x)
        return x

    def turn(self, p: int):
        kernel.play_turn(self.S, self.pp, self.rng, p, True)

    def collect(self, debtor: int, creditor: int, amount: int, rent: bool = False):
        kernel.collect(self.S, self.pp, self.rng, debtor, creditor, amount, rent)

    def play_game(self, seed: int = 0, game: int = 0, check: bool = True) -> dict:
        """A whole game (play_game resets the state). Returns the game columns as a dict, with
        the per-seat stats under "seat" (stat name -> list over seats)."""
        game_out = np.zeros((kernel.N_GAME_COLS, 1), np.int64)
        seat_out = np.zeros((self.n, L.N_SEAT_COLS, 1), np.int64)
        kernel.play_game(self.S, NO_START, self.pp, self.rng, np.uint64(seed), game, check, game_out, seat_out, 0)
        out = {name: int(game_out[j, 0]) for j, name in enumerate(kernel.GAME_COLS)}
        out["seat"] = {name: [int(v) for v in seat_out[:, j, 0]] for j, name in enumerate(L.SEAT_COLS)}
        return out

    # ---- reading back ----------------------------------------------------------------------

    @property
    def fields(self) -> dict:
        """The state by name (sim/deal/layout.py's declaration), arrays as views."""
        return L.STATE.decode(self.S)

    def _names_where(self, p, where, col=None):
        out = []
        for c, n in enumerate(self.names):
            if int(self.S[L.WHERE + c]) != where:
                continue
            if p is not None and int(self.S[L.OWNER + c]) != p:
                continue
            if col is not None and int(self.S[L.GROUP + c]) != colour(col):
                continue
            out.append(n)
        return sorted(out)

    def hand_of(self, p):
        return self._names_where(p, L.HAND)

    def bank_of(self, p):
        return self._names_where(p, L.BANK)

    def group(self, p, col):
        return self._names_where(p, L.PROP, col)

    def discards(self):
        return self._names_where(None, L.DISCARD)

    def house(self, p, col) -> bool:
        return int(self.fields["HOUSE"][p, colour(col)]) >= 0

    def hotel(self, p, col) -> bool:
        return int(self.fields["HOTEL"][p, colour(col)]) >= 0

    def bank_value(self, p) -> int:
        return int(self.fields["BANK_VAL"][p])

    def complete_sets(self, p) -> int:
        return int(self.fields["NCOMP"][p])

    def draw_n(self) -> int:
        return self.fields["DRAW_N"]

    def draw_top(self, k=1) -> list[str]:
        n = self.draw_n()
        return [self.names[int(self.S[L.DRAW_PILE + n - 1 - i])] for i in range(k)]

    def draw_bottom(self) -> str:
        return self.names[int(self.S[L.DRAW_PILE])]

    @property
    def winner(self) -> int:
        return self.fields["G_WINNER"]

    @property
    def plays_left(self) -> int:
        return self.fields["G_PLAYS_LEFT"]

    def stat(self, p, name) -> int:
        return int(self.fields["STATS"][p, L.SEAT_COLS.index(name)])

    def status(self) -> str:
        return kernel.STATUS_NAMES[self.fields["G_STATUS"]]

    def invariants(self) -> str:
        return kernel.STATUS_NAMES[kernel.check_invariants(self.S)]

    def events(self) -> list[str]:
        """The sentences of the events logged so far (a table made with ``log_rows``)."""
        from sim.core.replay import logged_sentences
        from sim.deal.events import EVENTS

        return logged_sentences(EVENTS, self.rules, self.RB, self.S[L.STATE_SIZE:])
