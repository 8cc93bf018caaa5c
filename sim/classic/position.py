"""Mid-game positions: read a TOML or JSON file into a starting state for the kernel.

A position names, for each player: policy, cash, square (a number 0-39, a square's name, or
"In Jail"), jail state, Get Out of Jail Free cards held and whether it is already bankrupt; and
for each owned deed: owner, houses (5 or hotel = true for a hotel) and mortgaged. Whose turn
it is, the Free Parking pot and rule changes are optional. Every mistake raises
``UsageError`` with one line naming the field and what is wrong. Example (TOML)::

    turn = 1
    [rules]
    free_parking_jackpot = true

    [[player]]
    policy = "strong"
    cash = 820
    square = "Illinois Avenue"
    jail_cards = ["chance"]

    [[player]]
    policy = "trader"
    cash = 310
    square = "In Jail"
    jail_turns = 1          # failed rolls for doubles so far

    [properties]
    "Boardwalk" = { owner = 0, houses = 3 }
    "Park Place" = { owner = 0, houses = 3 }
    "Reading Railroad" = { owner = 1, mortgaged = true }
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.classic import kernel
from sim.classic import layout as L
from sim.classic.rules import (
    GROUP_NAMES,
    IN_JAIL,
    JAIL_SQUARE,
    ClassicRules,
    apply_rule_changes,
    pack,
    parse_bool,
    square_index,
)
from sim.core import positions
from sim.core.runner import UsageError

PLAYER_KEYS = {"policy", "cash", "square", "jail_turns", "in_jail", "jail_cards", "bankrupt"}
PROPERTY_KEYS = {"owner", "houses", "hotel", "mortgaged"}
TOP_KEYS = {"turn", "player", "players", "properties", "rules", "pot"}


class Position:
    """A parsed position: rules, one policy per seat and the starting state ``S0``."""

    def __init__(self, rules: ClassicRules, policies: list[str], S0: np.ndarray, names: list[str]):
        self.rules = rules
        self.policies = policies
        self.S0 = S0
        self.names = names

    @property
    def players(self) -> int:
        return len(self.policies)

    @property
    def turn(self) -> int:
        """The seat to move."""
        return int(self.S0[L.G_CURRENT])


def for_advice(path: str | Path) -> tuple:
    """A position file as `advise --position` takes it (Game.position)."""
    pos = load(path)
    return pos.rules, list(pos.policies), {"start": pos.S0}, pos.turn


def load(path: str | Path) -> Position:
    """Read a position file (.toml or .json)."""
    return positions.for_advice(path, parse)


def _int(value, what: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or int(value) != value:
        raise UsageError(f"{what} must be a whole number (got {value!r})")
    value = int(value)
    if lo is not None and value < lo or hi is not None and value > hi:
        raise UsageError(f"{what} must be between {lo} and {hi} (got {value})")
    return value


def _bool(value, what: str) -> bool:
    try:
        return parse_bool(value)
    except ValueError:
        raise UsageError(f"{what} must be true or false (got {value!r})") from None


def parse(data: dict) -> Position:
    """Build a Position from a parsed TOML/JSON document."""
    if not isinstance(data, dict):
        raise UsageError("the top level must be a table / object")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise UsageError(f"unknown key {sorted(unknown)[0]!r}; known: {', '.join(sorted(TOP_KEYS))}")
    rules = ClassicRules()
    rule_table = data.get("rules", {})
    if not isinstance(rule_table, dict):
        raise UsageError("[rules] must be a table of KEY = VALUE")
    rules = apply_rule_changes(rules, [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rule_table.items()])
    players = data.get("player", data.get("players"))
    if not isinstance(players, list) or not players:
        raise UsageError("give the players as a list: [[player]] tables in TOML, \"player\": [...] in JSON")
    n = len(players)
    if not L.MIN_PLAYERS <= n <= L.MAX_PLAYERS:
        raise UsageError(f"a position needs {L.MIN_PLAYERS} to {L.MAX_PLAYERS} players (got {n})")
    RB = pack(rules, n)
    S = kernel.start_state(RB)
    policies = []
    held = [0, 0]
    for p, pl in enumerate(players):
        what = f"player {p}"
        if not isinstance(pl, dict):
            raise UsageError(f"{what} must be a table / object")
        bad = set(pl) - PLAYER_KEYS
        if bad:
            raise UsageError(f"{what}: unknown key {sorted(bad)[0]!r}; known: {', '.join(sorted(PLAYER_KEYS))}")
        policies.append(str(pl.get("policy", "strong")))
        bankrupt = _bool(pl.get("bankrupt", False), f"{what} bankrupt")
        if bankrupt:
            S[L.ALIVE + p] = 0
            S[L.CASH + p] = 0
            if any(k in pl for k in ("cash", "jail_cards")) and (pl.get("cash", 0) or pl.get("jail_cards")):
                raise UsageError(f"{what} is bankrupt and cannot hold cash or cards")
            continue
        if "cash" not in pl:
            raise UsageError(f"{what}: cash is missing")
        S[L.CASH + p] = _int(pl["cash"], f"{what} cash", 0, 10_000_000)
        raw_sq = pl.get("square", 0)
        try:
            sq = square_index(rules, raw_sq) if isinstance(raw_sq, str) else _int(raw_sq, f"{what} square", 0, IN_JAIL)
        except ValueError as e:
            raise UsageError(f"{what}: {e}") from None
        jail_turns = pl.get("jail_turns")
        in_jail = sq == IN_JAIL or _bool(pl.get("in_jail", False), f"{what} in_jail") or jail_turns is not None
        if in_jail:
            if sq not in (IN_JAIL, JAIL_SQUARE):
                raise UsageError(f"{what} is in jail but stands on square {sq}")
            failed = _int(jail_turns if jail_turns is not None else 0, f"{what} jail_turns", 0, rules.jail_turns - 1)
            S[L.JAIL + p] = 1 + failed
            sq = JAIL_SQUARE
        S[L.POS + p] = sq
        S[L.LAPPED + p] = 1
        cards = pl.get("jail_cards", [])
        if isinstance(cards, (int, float)) and not isinstance(cards, bool):
            count = _int(cards, f"{what} jail_cards", 0, 2)
            cards = ["chance", "community_chest"][:count]
        if not isinstance(cards, list):
            raise UsageError(f"{what} jail_cards must be a list like [\"chance\"] or a count")
        for c in cards:
            d = {"chance": 0, "community_chest": 1, "chest": 1}.get(str(c).lower())
            if d is None:
                raise UsageError(f"{what} jail_cards: {c!r} is not chance or community_chest")
            held[d] += 1
            S[L.GOOJF + 2 * p + d] += 1
    for d in range(2):
        if held[d] > (1 if RB[L.R_GOOJF_CARD + d] >= 0 else 0):
            raise UsageError(f"more {'Chance' if d == 0 else 'Community Chest'} Get Out of Jail Free cards held than exist")
    alive = int(S[L.ALIVE : L.ALIVE + n].sum())
    if alive < 2:
        raise UsageError("a position needs at least 2 players who are not bankrupt")
    S[L.G_ALIVE_N] = alive
    turn = _int(data.get("turn", 0), "turn", 0, n - 1)
    if S[L.ALIVE + turn] == 0:
        raise UsageError(f"turn: player {turn} is bankrupt")
    S[L.G_CURRENT] = turn
    pot = _int(data.get("pot", rules.house.free_parking_seed if rules.house.free_parking_jackpot else 0), "pot", 0, 10_000_000)
    if pot and not rules.house.free_parking_jackpot:
        raise UsageError("pot: a Free Parking pot needs the free_parking_jackpot house rule in [rules]")
    S[L.G_POT] = pot
    # decks: a held jail card is out of its deck
    for d in range(2):
        k_goojf = RB[L.R_GOOJF_CARD + d]
        cards = [k for k in range(RB[L.R_DECK_SIZE + d]) if not (held[d] and k == k_goojf)]
        S[L.DECK + d * L.MAX_CARDS : L.DECK + d * L.MAX_CARDS + L.MAX_CARDS] = 0
        S[L.DECK + d * L.MAX_CARDS : L.DECK + d * L.MAX_CARDS + len(cards)] = cards
        S[L.DECK_N + d] = len(cards)
        S[L.DECK_HEAD + d] = 0
    props = data.get("properties", {})
    if not isinstance(props, dict):
        raise UsageError("[properties] must map deed names to {owner, houses, mortgaged}")
    houses = 0
    hotels = 0
    for name, spec in props.items():
        try:
            sq = square_index(rules, str(name))
        except ValueError as e:
            raise UsageError(f"properties: {e}") from None
        if sq >= L.N_SQ or rules.board[sq].kind not in ("street", "railroad", "utility"):
            raise UsageError(f"properties: {name!r} is not a deed")
        if not isinstance(spec, dict):
            spec = {"owner": spec}
        bad = set(spec) - PROPERTY_KEYS
        if bad:
            raise UsageError(f"properties {name!r}: unknown key {sorted(bad)[0]!r}; known: {', '.join(sorted(PROPERTY_KEYS))}")
        if "owner" not in spec:
            raise UsageError(f"properties {name!r}: owner is missing")
        owner = _int(spec["owner"], f"properties {name!r} owner", 0, n - 1)
        if S[L.ALIVE + owner] == 0:
            raise UsageError(f"properties {name!r}: owner {owner} is bankrupt")
        level = _int(spec.get("houses", 0), f"properties {name!r} houses", 0, 5)
        if _bool(spec.get("hotel", False), f"properties {name!r} hotel"):
            level = 5
        mortgaged = _bool(spec.get("mortgaged", False), f"properties {name!r} mortgaged")
        if level and rules.board[sq].kind != "street":
            raise UsageError(f"properties {name!r}: only streets carry houses")
        if level and mortgaged:
            raise UsageError(f"properties {name!r}: a mortgaged street cannot carry houses")
        kernel.set_owner(S, sq, owner)
        if mortgaged:
            S[L.MORT + sq] = 1
            S[L.MORT_N + owner] += 1
        S[L.LEVEL + sq] = level
        hotels += level == 5
        houses += level if level < 5 else 0
    for sq in range(L.N_SQ):
        if S[L.LEVEL + sq] == 0:
            continue
        g = RB[L.R_SQ_GROUP + sq]
        members = [RB[L.R_GROUP_SQ + g * L.MAX_GROUP + k] for k in range(RB[L.R_GROUP_SIZE + g])]
        name = rules.board[sq].name
        if any(S[L.OWNER + m] != S[L.OWNER + sq] for m in members):
            raise UsageError(f"properties {name!r}: houses need the whole {GROUP_NAMES[g]} group in one hand")
        if any(S[L.MORT + m] for m in members):
            raise UsageError(f"properties {name!r}: no houses on a group with a mortgaged deed")
        if rules.house.even_building and any(abs(int(S[L.LEVEL + m]) - int(S[L.LEVEL + sq])) > 1 for m in members):
            raise UsageError(f"properties {name!r}: houses must be even across the {GROUP_NAMES[g]} group")
    if houses > rules.houses or hotels > rules.hotels:
        raise UsageError(f"more buildings than the bank has ({houses} houses of {rules.houses}, {hotels} hotels of {rules.hotels})")
    S[L.G_HOUSES] = rules.houses - houses
    S[L.G_HOTELS] = rules.hotels - hotels
    S[L.G_BANK] = -int(S[L.CASH : L.CASH + L.MAX_PLAYERS].sum()) - pot
    S[L.STATS : L.BUF] = 0  # statistics count from the position on
    for p in range(n):
        for g in range(L.N_GROUPS):
            if S[L.GOWN + p * L.N_GROUPS + g] == RB[L.R_GROUP_SIZE + g]:
                S[kernel.gstat(p, g, L.GS_FIRST_FULL)] = 1
                S[kernel.stat(p, L.SC_MONOPOLIES)] |= 1 << g
    S[L.G_EPOCH] = 0
    status = kernel.check_invariants(S)
    if status != kernel.OK:
        raise UsageError(f"inconsistent position: {kernel.STATUS_NAMES[status]}")
    names = [f"player {p}" for p in range(n)]
    return Position(rules, policies, S, names)
