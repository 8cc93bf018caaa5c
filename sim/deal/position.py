"""Monopoly Deal positions: a seat's turn, after its draw, as that seat sees it.

`monosim deal advise --position FILE` reads one (TOML, or JSON by its suffix). The keys are
those of the step API's observation (docs/decisions.md): the seat to move, its hand, every
seat's bank, properties by colour and buildings, the other hands' sizes and the discards. The
cards it does not place (the draw pile, and the other hands up to their sizes) are the ones the
seat to move cannot see: every game played from the position deals them afresh. Every mistake
is a UsageError with one line naming the field. Example (TOML)::

    seat = 0                # the seat to move: it has drawn, its plays are left
    round = 6               # optional (default 1)
    plays_left = 3          # optional (default: the rules' plays per turn)
    discards = ["pass go"]  # optional

    [[player]]
    policy = "smart"
    hand = ["sly deal", "green", "5M", "rent green dark blue"]
    bank = ["3M"]
    properties = { green = ["green", "wild green railroad"], dark_blue = ["dark blue"] }

    [[player]]
    policy = "smart"
    hand_size = 5
    properties = { dark_blue = ["dark blue"], orange = ["orange", "orange", "orange"] }
    buildings = { orange = ["house"] }
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.core import positions
from sim.core.positions import whole_number
from sim.core.runner import UsageError
from sim.deal import layout as L
from sim.deal.rules import (
    COLOUR_NAMES,
    COLOURS,
    HOTEL,
    HOUSE,
    PROPERTY,
    WILD,
    WILD_ANY,
    DealRules,
    card_names,
    card_spec,
)

TOP_KEYS = {"seat", "round", "plays_left", "discards", "rules", "player", "players"}
PLAYER_KEYS = {"policy", "hand", "hand_size", "bank", "properties", "buildings"}


def for_advice(path: str | Path) -> tuple:
    """A position file as `advise --position` takes it (Game.position): the rules, the seats'
    policies, the options that start there, and the seat to move."""
    return positions.for_advice(path, parse)


def card_key(name, what: str = "") -> str:
    """A card's name as the rules spell it, from the way events and observations print it
    ("5M" is money5, "wild pink orange" is wild_pink_orange)."""
    key = str(name).strip().lower().replace(" ", "_").replace("-", "_")
    return f"money{key[:-1]}" if key.endswith("m") and key[:-1].isdigit() else key


def colour_index(name, what: str) -> int:
    key = str(name).strip().lower().replace(" ", "_")
    if key not in COLOUR_NAMES:
        raise UsageError(f"{what}: unknown colour {name!r}; colours: {', '.join(COLOUR_NAMES)}")
    return COLOUR_NAMES.index(key)


def _list(value, what: str) -> list:
    if not isinstance(value, list):
        raise UsageError(f"{what} must be a list of card names")
    return value


def parse(data: dict) -> tuple:
    """(rules, policies, {"start": S0}, seat to move) from a parsed document."""
    from sim.deal.game import GAME

    rules, players = positions.document(data, TOP_KEYS, GAME)
    n = len(players)
    if not GAME.rules.min_players <= n <= GAME.rules.max_players:
        raise UsageError(f"a position needs {GAME.rules.min_players} to {GAME.rules.max_players} players (got {n})")
    seat = positions.seat_to_move(data, n)
    round_ = whole_number(data.get("round", 1), "round", 1, rules.max_turns // n + 1)
    plays = whole_number(data.get("plays_left", rules.plays_per_turn), "plays_left", 1, rules.plays_per_turn)

    S0 = np.zeros(L.P_SIZE, np.int32)
    S0[L.P_SEAT], S0[L.P_TURN], S0[L.P_PLAYS] = seat, (round_ - 1) * n + seat, plays
    start = L.POSITION.decode(S0)  # views into S0
    deck = positions.Cards(card_names(rules), card_key, "monosim deal rules")

    def place(c: int, where: int, p: int = -1, colour: int = -1) -> None:
        start["P_CARD"][c] = where, p, colour

    for k, name in enumerate(_list(data.get("discards", []), "discards")):
        place(deck.take(name, f"discards[{k}]")[0], L.P_DISCARD)
    policies, complete = [], []
    for p, pl in enumerate(players):
        what = f"player {p}"
        pl = positions.player_table(pl, what, PLAYER_KEYS)
        policies.append(str(pl.get("policy", "smart")))
        hand = _list(pl.get("hand", []), f"{what}.hand")
        start["P_HAND_N"][p] = positions.hand_size(pl, what, p == seat, len(hand), L.MAX_HAND)
        for k, name in enumerate(hand):
            place(deck.take(name, f"{what}.hand[{k}]")[0], L.P_HAND, p)
        for k, name in enumerate(_list(pl.get("bank", []), f"{what}.bank")):
            c, key = deck.take(name, f"{what}.bank[{k}]")
            if card_spec(key)[0] in (PROPERTY, WILD, WILD_ANY):
                raise UsageError(f"{what}.bank[{k}]: {name!r} is a property; properties are never banked")
            place(c, L.P_BANK, p)
        complete.append(_properties(pl.get("properties", {}), what, p, deck, place, rules))
        _buildings(pl.get("buildings", {}), what, p, deck, place, complete[-1], rules)
    for p, sets in enumerate(complete):
        if len(sets) >= rules.sets_to_win:
            raise UsageError(f"player {p} already has {len(sets)} complete sets: the game is over there")
    deck.check_room(sum(int(start["P_HAND_N"][p]) - len(players[p].get("hand", [])) for p in range(n)))
    return rules, policies, {"start": S0}, seat


def _properties(table, what: str, p: int, deck: positions.Cards, place, rules: DealRules) -> set[int]:
    """Place seat p's properties; the colours whose set is complete."""
    if not isinstance(table, dict):
        raise UsageError(f"{what}.properties must be a table of colour = [card, ...]")
    complete = set()
    for colour_name, cards in table.items():
        col = colour_index(colour_name, f"{what}.properties")
        where = f"{what}.properties.{COLOUR_NAMES[col]}"
        cards = _list(cards, where)
        if len(cards) > L.MAX_GROUP:
            raise UsageError(f"{where}: at most {L.MAX_GROUP} cards")
        ordinary = 0
        for k, name in enumerate(cards):
            c, key = deck.take(name, f"{where}[{k}]")
            kind, _, c1, c2 = card_spec(key)
            if kind not in (PROPERTY, WILD, WILD_ANY):
                raise UsageError(f"{where}[{k}]: {name!r} is not a property")
            if kind != WILD_ANY and col not in (c1, c2):
                raise UsageError(f"{where}[{k}]: {name!r} cannot stand in {COLOUR_NAMES[col]}")
            ordinary += kind != WILD_ANY
            place(c, L.P_PROPERTY, p, col)
        if cards and not ordinary:
            raise UsageError(f"{where}: an any-colour wild cannot stand without a property of the colour")
        if len(cards) >= COLOURS[col].set_size:
            complete.add(col)
    return complete


def _buildings(table, what: str, p: int, deck: positions.Cards, place, complete: set[int], rules: DealRules) -> None:
    if not isinstance(table, dict):
        raise UsageError(f"{what}.buildings must be a table of colour = [\"house\"] or [\"house\", \"hotel\"]")
    for colour_name, cards in table.items():
        col = colour_index(colour_name, f"{what}.buildings")
        where = f"{what}.buildings.{COLOUR_NAMES[col]}"
        kinds = []
        for k, name in enumerate(_list(cards, where)):
            c, key = deck.take(name, f"{where}[{k}]")
            kinds.append(card_spec(key)[0])
            if kinds[-1] not in (HOUSE, HOTEL):
                raise UsageError(f"{where}[{k}]: {name!r} is not a House or a Hotel")
            place(c, L.P_BUILDING, p, col)
        if not COLOURS[col].buildable:
            raise UsageError(f"{where}: {COLOUR_NAMES[col]} takes no buildings")
        if col not in complete:
            raise UsageError(f"{where}: buildings stand only on a complete set")
        if sorted(kinds) != sorted([HOUSE] + [HOTEL] * (len(kinds) - 1)) or len(kinds) > 2:
            raise UsageError(f"{where}: a set takes one House, then one Hotel")
