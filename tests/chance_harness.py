"""Scripted Monopoly Chance situations for the rule tests.

A ``Table`` holds one game's state buffer ``S``, rules buffer ``RB``, policies and random
streams, set up as at the start of a round (nothing on the board, no buildings won), with
every card in its owner's discard pile. A test then deals the cards it needs (``deal``,
``place``, ``put_corner``, ``give_building``), calls the kernel's rule functions (``turn``,
``draw_chance``, ``end_round``, ``play_game``) and reads the result back by card name
("cash7", "bankrupt", "lucky_break", "token", "flip2", "nope") and property index.

Cards are named, not numbered: ``deal(0, draw=["cash9", "bankrupt"])`` stacks seat 0's draw
pile so that cash9 is flipped first. A name that occurs several times in a deck (bankrupt)
takes the next unused copy.
"""

from __future__ import annotations

import numpy as np

from sim.chance import kernel
from sim.chance import layout as L
from sim.chance.rules import (
    CARD_KIND_NAMES,
    CASH,
    CHANCE_EFFECT_NAMES,
    ChanceRules,
    pack,
)
from sim.core.rng import randint, seed_state
from sim.core.userbot import stack_rows
from strategies.chance import parse_policy

# Property indices on the default board (printed values 1..8 in this order).
BALTIC, ORIENTAL, ST_CHARLES, NEW_YORK, ILLINOIS, MARVIN, PENNSYLVANIA, BOARDWALK = range(8)
LOCATIONS = {"draw": L.DRAW, "discard": L.DISCARD, "board": L.BOARD, "turn": L.TURN, "held": L.HELD, "corner": L.CORNER}
CORNER_INDEX = {"go": 0, "free_parking": 1, "just_visiting": 2, "go_to_jail": 3}


def card_name(kind: int, value: int) -> str:
    return f"cash{value}" if kind == CASH else CARD_KIND_NAMES[kind]


class Table:
    """One game set up for a scripted scenario. ``seats``: one policy spec per seat."""

    def __init__(self, seats, rules: ChanceRules | None = None, seed: int = 0, deck_edits=None):
        self.rules = rules or ChanceRules()
        self.n = len(seats)
        self.RB = pack(self.rules, self.n, deck_edits)
        self.n_props = int(self.RB[L.R_PROPS])
        self.gray = self.n_props  # building kind index of a gray building
        self.S, self.rng = kernel.new_state()
        parsed = [parse_policy(s) for s in seats]
        self.pk = np.array([k for _, k, _ in parsed], np.int64)
        self.pp = stack_rows("chance", [spec for spec, _, _ in parsed], [params for _, _, params in parsed])
        self.pt = np.zeros(0)
        self.seed = seed
        for s in range(L.RNG_SIZE // 4):  # as play_game seeds game 0 of a run
            seed_state(self.rng, 4 * s, np.uint64(seed), 0, s)
        # The names of each seat's cards, by deck index.
        self.names = [
            [
                card_name(self.RB[L.R_DECK_KIND + p * L.MAX_DECK + c], self.RB[L.R_DECK_VALUE + p * L.MAX_DECK + c])
                for c in range(self.RB[L.R_DECK_SIZE + p])
            ]
            for p in range(self.n)
        ]
        S, RB = self.S, self.RB
        S[:] = 0
        S[L.G_GRAY_LEFT] = RB[L.R_GRAY]
        for i in range(self.n_props):
            S[L.BLDS_LEFT + i] = RB[L.R_PROP_BUILDINGS + i]
            S[L.TOP_OWNER + i] = -1
        for k in range(RB[L.R_CHANCE]):
            S[L.CHANCE_ORDER + k] = k
        for c in range(L.N_CORNERS):
            S[L.CORNERS + c] = -1
        for p in range(self.n):
            for c in range(len(self.names[p])):
                S[L.WHERE + p * L.MAX_DECK + c] = L.DISCARD

    # ---- setting up ------------------------------------------------------------------------

    def card(self, p: int, name: str, loc: str | None = None) -> int:
        """Deck index of a card of seat p with this name (the first one at `loc` if given)."""
        for c, n in enumerate(self.names[p]):
            if n == name and (loc is None or self.S[L.WHERE + p * L.MAX_DECK + c] == LOCATIONS[loc]):
                return c
        raise KeyError(f"seat {p} has no {name} {'in ' + loc if loc else ''}")

    def deal(self, p: int, draw=(), held=()):
        """Seat p's draw pile is `draw` (flip order: first entry on top), `held` are kept for
        later turns; every other card of seat p goes to its discard pile."""
        S = self.S
        for c in range(len(self.names[p])):
            S[L.WHERE + p * L.MAX_DECK + c] = L.DISCARD
        for name in held:
            S[L.WHERE + p * L.MAX_DECK + self.card(p, name, "discard")] = L.HELD
        pile = []
        for name in draw:
            c = self.card(p, name, "discard")
            S[L.WHERE + p * L.MAX_DECK + c] = L.DRAW
            pile.append(c)
        for k, c in enumerate(reversed(pile)):  # the top of the pile is the last entry
            S[L.DRAW_PILE + p * L.MAX_DECK + k] = c
        S[L.DRAW_N + p] = len(pile)

    def place(self, i: int, p: int, name: str, free_parking: bool = False):
        """Put seat p's card `name` (from its discard pile) on top of property i."""
        kernel.push_card(self.S, self.RB, i, p, self.card(p, name, "discard"), int(free_parking))

    def clear_board(self):
        """Send every card on the board back to its owner's discard pile."""
        for i in range(self.n_props):
            while self.S[L.STACK_N + i] > 0:
                code = kernel.pop_card(self.S, self.RB, i)
                self.S[L.WHERE + code] = L.DISCARD

    def put_corner(self, corner: str, p: int):
        """Put seat p's Token (from its discard pile) on a corner."""
        c = self.card(p, "token", "discard")
        self.S[L.WHERE + p * L.MAX_DECK + c] = L.CORNER
        self.S[L.CORNERS + CORNER_INDEX[corner]] = p * L.MAX_DECK + c

    def give_building(self, p: int, b: int, n: int = 1):
        """Move n buildings of kind b (self.gray for gray) from the supply to seat p."""
        for _ in range(n):
            kernel.move_building(self.S, self.RB, -1, p, b)

    def chance_next(self, effect: str):
        """Make the next Chance card drawn the first one with this effect."""
        want = CHANCE_EFFECT_NAMES.index(effect)
        S, RB = self.S, self.RB
        pos = S[L.G_CHANCE_POS]
        for k in range(pos, RB[L.R_CHANCE]):
            if RB[L.R_CHANCE_EFFECT + S[L.CHANCE_ORDER + k]] == want:
                S[L.CHANCE_ORDER + pos], S[L.CHANCE_ORDER + k] = S[L.CHANCE_ORDER + k], S[L.CHANCE_ORDER + pos]
                return
        raise KeyError(effect)

    def script_rolls(self, *faces: int):
        """Reseed the table stream (die rolls) so that the next rolls show these faces."""
        die = list(self.rules.die)
        probe = np.zeros(4, np.uint64)
        for seed in range(100_000):
            seed_state(probe, 0, np.uint64(seed), 0, 0)
            if all(die[randint(probe, 0, len(die))] == f for f in faces):
                seed_state(self.rng, L.RNG_TABLE, np.uint64(seed), 0, 0)
                return
        raise ValueError(f"no seed rolls {faces}")

    def set_param(self, p: int, name: str, value: float):
        """Change a tactic of seat p's policy (flip2_stake, nope_stake, nope_length, token_gain, fortify)."""
        from strategies.chance import TACTICS

        self.pp[p, TACTICS[name].slot] = value

    # ---- rules in action -------------------------------------------------------------------

    def turn(self, p: int):
        kernel.play_turn(self.S, self.RB, self.pk, self.pp, self.pt, self.rng, p)

    def draw_chance(self, p: int) -> int:
        """Seat p draws the next Chance card; returns the change to its flip limit."""
        return int(kernel.draw_chance(self.S, self.RB, self.pk, self.pp, self.rng, p))

    def end_round(self, first: int = 0):
        kernel.end_round(self.S, self.RB, first)

    def play_game(self, seed: int = 0, game: int = 0, check: bool = True) -> dict:
        """A whole game (play_game resets the state). Returns the game columns as a dict, with
        the per-seat stats under "seat" (stat name -> list over seats). S keeps the final state."""
        game_out = np.zeros((kernel.N_GAME_COLS, 1), np.int64)
        seat_out = np.zeros((self.n, L.N_SEAT_COLS, 1), np.int64)
        kernel.play_game(
            self.S, self.RB, self.pk, self.pp, self.pt, self.rng, np.uint64(seed), game, check, game_out, seat_out, 0,
            np.zeros(0, np.int32), *kernel.rollout_scratch(self.pk), False,
            np.zeros((1, L.MAX_DECISION_ROWS, L.N_DECISION_COLS), np.int32)
        )
        out = {name: int(game_out[j, 0]) for j, name in enumerate(kernel.GAME_COLS)}
        out["seat"] = {name: [int(v) for v in seat_out[:, j, 0]] for j, name in enumerate(L.SEAT_COLS)}
        return out

    # ---- reading back ----------------------------------------------------------------------

    def at(self, p: int, loc: str) -> list[str]:
        """Names of seat p's cards at a location, sorted."""
        w = LOCATIONS[loc]
        return sorted(n for c, n in enumerate(self.names[p]) if self.S[L.WHERE + p * L.MAX_DECK + c] == w)

    def where(self, p: int, name: str) -> str:
        """Location of seat p's card `name` (a name with several copies: the first copy)."""
        w = self.S[L.WHERE + p * L.MAX_DECK + self.card(p, name)]
        return {v: k for k, v in LOCATIONS.items()}[w]

    def pile(self, p: int) -> list[str]:
        """Seat p's draw pile in flip order (top first)."""
        n = self.S[L.DRAW_N + p]
        return [self.names[p][self.S[L.DRAW_PILE + p * L.MAX_DECK + k]] for k in range(n - 1, -1, -1)]

    def stack(self, i: int) -> list[tuple[int, str]]:
        """Cards on property i as (seat, name), bottom first."""
        out = []
        for k in range(self.S[L.STACK_N + i]):
            code = self.S[L.STACK + i * L.MAX_STACK + k]
            out.append((code // L.MAX_DECK, self.names[code // L.MAX_DECK][code % L.MAX_DECK]))
        return out

    def top(self, i: int) -> tuple[int, int]:
        """(owner, value) of the top card on property i; (-1, 0) when empty."""
        return int(self.S[L.TOP_OWNER + i]), int(self.S[L.TOP_VALUE + i])

    def via_free_parking(self, i: int) -> list[int]:
        """The Free Parking flag of each card on property i, bottom first."""
        return [int(self.S[L.STACK_FP + i * L.MAX_STACK + k]) for k in range(self.S[L.STACK_N + i])]

    def corner(self, corner: str) -> int:
        """Seat whose Token is on the corner, -1 when free."""
        code = self.S[L.CORNERS + CORNER_INDEX[corner]]
        return -1 if code < 0 else int(code // L.MAX_DECK)

    def sky(self, p: int) -> int:
        return int(self.S[L.SKY_LEN + p])

    def n_buildings(self, p: int) -> int:
        return int(self.S[L.N_BLD + p])

    def buildings(self, p: int, b: int) -> int:
        """Seat p's buildings of kind b (self.gray for gray)."""
        return int(self.S[L.SKY_COUNT + p * (L.MAX_PROPS + 1) + b])

    def left(self, i: int) -> int:
        """Buildings still on property i."""
        return int(self.S[L.BLDS_LEFT + i])

    def gray_left(self) -> int:
        return int(self.S[L.G_GRAY_LEFT])

    def stat(self, p: int, name: str) -> int:
        return int(self.S[L.STATS + p * L.N_SEAT_COLS + L.SEAT_COLS.index(name)])

    @property
    def triggered(self) -> bool:
        return bool(self.S[L.G_TRIGGERED])

    def invariants(self) -> str:
        """The kernel's invariant check, as its status name ("ok" when consistent)."""
        return kernel.STATUS_NAMES[kernel.check_invariants(self.S, self.RB)]
