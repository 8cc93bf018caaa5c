"""Monopoly: The Card Game positions: a seat's turn in a hand, as that seat sees it.

`monosim cardgame advise --position FILE` reads one (TOML, or JSON by its suffix). The keys are
those of the step API's observation (docs/decisions.md): the seat to move, its hand, every
face-up pile (bottom to top), the other hands' sizes, what each seat was seen taking from piles
this hand, money and the jackpot; `rules` chooses the edition and house rules. The cards it does
not place (the draw pile, and the other hands up to their sizes) are the ones the seat to move
cannot see: every match played from the position deals them afresh. Every mistake is a
UsageError with one line naming the field. Example (TOML)::

    seat = 0                  # the seat to move, at the start of its turn
    hand_number = 2           # optional (default 1)
    dealer = 2                # optional (default: the seat before the first to play)
    rules = { edition = "video" }

    [[player]]
    policy = "smart"
    money = 1500
    hand = ["orange", "orange", "chance", "house1", "go", "light blue", "red"]

    [[player]]
    policy = "smart"
    money = 2000
    hand_size = 7
    seen_taking = { green = 1 }

    [piles]
    "seat 0's pile" = ["go", "green"]      # bottom to top
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.cardgame import layout as L
from sim.cardgame.rules import KIND_NAMES, big_table, pack
from sim.core import positions
from sim.core.positions import whole_number
from sim.core.runner import UsageError

TOP_KEYS = {"seat", "hand_number", "dealer", "hand_turn", "jackpot", "piles", "rules", "player", "players"}
PLAYER_KEYS = {"policy", "money", "hand", "hand_size", "seen_taking"}


def for_advice(path: str | Path) -> tuple:
    """A position file as `advise --position` takes it (Game.position): the rules, the seats'
    policies, the options that start there, and the seat to move."""
    return positions.for_advice(path, parse)


def kind_index(name, what: str) -> int:
    key = str(name).strip().lower().replace(" ", "_")
    key = "house1" if key == "house" else key
    if key not in KIND_NAMES:
        raise UsageError(f"{what}: unknown card {name!r}; `monosim cardgame rules` lists the deck")
    return KIND_NAMES.index(key)


def _cards(value, what: str) -> list:
    """A list of card names, or a table of name = copies (as the observation's hand)."""
    if isinstance(value, dict):
        return [name for name, n in value.items() for _ in range(whole_number(n, f"{what}.{name}", 0, L.MAX_CARDS))]
    if not isinstance(value, list):
        raise UsageError(f"{what} must be a list of card names (or a table of name = copies)")
    return value


def parse(data: dict) -> tuple:
    """(rules, policies, {"start": S0}, seat to move) from a parsed document."""
    from sim.cardgame.game import GAME

    rules, players = positions.document(data, TOP_KEYS, GAME)
    n = len(players)
    lo, hi = rules.players_allowed()
    if not lo <= n <= hi:
        raise UsageError(f"the {rules.edition} edition takes {lo} to {hi} players (got {n})")
    rb = pack(rules, n)
    seat = positions.seat_to_move(data, n)
    dealer = whole_number(data.get("dealer", n - 1), "dealer", 0, n - 1)
    first = (dealer + 1) % n
    hand_no = whole_number(data.get("hand_number", 1), "hand_number", 1, int(rb[L.R_MAX_HANDS]))
    turn = whole_number(data.get("hand_turn", (seat - first) % n + 1), "hand_turn", 1, int(rb[L.R_MAX_TURNS_HAND]))
    if (first + turn - 1) % n != seat:
        raise UsageError(f"hand_turn: turn {turn} of a hand dealt by seat {dealer} is seat {(first + turn - 1) % n}'s, "
                         f"not seat {seat}'s")
    jackpot = whole_number(data.get("jackpot", 0), "jackpot", 0, 10**9)
    if jackpot and not rules.house.free_parking_jackpot:
        raise UsageError("jackpot: these rules have no Free Parking jackpot (rule free_parking_jackpot)")

    S0 = np.zeros(L.P_SIZE, np.int32)
    S0[L.P_DEALER], S0[L.P_HAND_NO], S0[L.P_HTURN], S0[L.P_POT] = dealer, hand_no - 1, turn - 1, jackpot
    start = L.POSITION.decode(S0)  # views into S0
    deck = positions.Cards([int(k) for k in rb[L.R_KIND:L.R_KIND + int(rb[L.R_CARDS])]], kind_index,
                           "monosim cardgame rules")

    limit = int(rb[L.R_HAND_LIMIT])
    policies = []
    for p, pl in enumerate(players):
        what = f"player {p}"
        pl = positions.player_table(pl, what, PLAYER_KEYS)
        policies.append(str(pl.get("policy", "smart")))
        money = whole_number(pl.get("money", 0), f"{what}.money", 0, 10**9)
        if rb[L.R_TARGET] > 0 and money >= rb[L.R_TARGET]:
            raise UsageError(f"{what}.money: {money} reaches the target of {int(rb[L.R_TARGET])}: "
                             "the match is over there")
        start["P_MONEY"][p] = money
        hand = _cards(pl.get("hand", []), f"{what}.hand")
        start["P_HAND_N"][p] = positions.hand_size(pl, what, p == seat, len(hand), limit)
        for k, name in enumerate(hand):
            start["P_HAND"][p, k] = deck.take(name, f"{what}.hand[{k}]")[0]
        start["P_LISTED"][p] = len(hand)
        seen = pl.get("seen_taking", {})
        if not isinstance(seen, dict):
            raise UsageError(f"{what}.seen_taking must be a table of card = times taken from a pile this hand")
        for name, times in seen.items():
            k = kind_index(name, f"{what}.seen_taking")
            start["P_SEEN"][p, k] = whole_number(times, f"{what}.seen_taking.{name}", -limit, limit)

    piles = data.get("piles", {})
    if not isinstance(piles, dict):
        raise UsageError("[piles] must be a table of pile = [card, ...] (bottom to top)")
    names = pile_names(rb)
    for pile, cards in piles.items():
        if pile not in names:
            raise UsageError(f"piles: unknown pile {pile!r}; the piles: {', '.join(names)}")
        q = names.index(pile)
        for k, name in enumerate(_cards(cards, f"piles.{pile}")):
            start["P_PILE"][q, k] = deck.take(name, f"piles.{pile}[{k}]")[0]
        start["P_PILE_N"][q] = len(cards)
    deck.check_room(int((start["P_HAND_N"] - start["P_LISTED"]).sum()))
    if big_table(rules, n) and start["P_PILE_N"][:n].min() == 0:
        raise UsageError("piles: at 5 or 6 players every seat's pile holds a card (the trades take its top)")
    return rules, policies, {"start": S0}, seat


def pile_names(rb: np.ndarray) -> list[str]:
    from sim.cardgame.decisions import pile_name

    return [pile_name(rb, q) for q in range(int(rb[L.R_N_PILES]))]
