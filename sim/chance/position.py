"""Monopoly Chance positions: a game in progress, read from a TOML (or JSON) file.

A position says everything a player at the table can see, and what they cannot see only as
far as they can know it. The kernel plays it on (kernel.play_game with a start array S0) after
dealing the unseen afresh for each rollout: every draw pile's order and the order of the
Chance cards not yet drawn are shuffled, and the cards of a player whose piles are "unknown"
are split at random between draw pile (of the size given) and discards. So no rollout can
see an order nobody at the table knows. Example (experiments/chance-position.toml)::

    to_move = 0                   # the seat whose turn it is
    round = 2                     # rounds begun, this one included
    first = 1                     # the seat that began this round (default: turn)
    chance_drawn = ["go"]         # Chance cards drawn since their deck was last shuffled

    [[player]]
    policy = "optimal"
    skyline = { "Boardwalk" = 1, gray = 1 }
    held = ["nope"]               # Flip 2, Nope! or Token kept from an earlier turn
    draw = ["cash2", "bankrupt"]  # the draw pile's cards (any order: it is shuffled);
                                  # "fresh": every unseen card; "unknown" with draw_count = N
    [board]
    "Boardwalk" = [{ owner = 1, cash = 9 }]   # the cards on a property, bottom first
    [corners]
    go = 1                        # whose Token is on a corner
    [turn]
    stage = "flipping"            # flipping, flip2, tokens or placing
    flipped = ["cash7", "lucky_break"]
    flips_left = 2

Every mistake raises ``UsageError`` with one line that names the field. ``write`` gives the
file back in a fixed form that ``load`` reads to the same position.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.chance import kernel
from sim.chance import layout as L
from sim.chance.rules import (
    CARD_KIND_NAMES,
    CASH,
    CORNER_NAMES,
    LUCKY_BREAK,
    BANKRUPT,
    FLIP2,
    NOPE,
    TOKEN,
    ChanceRules,
    card_kind_value,
    pack,
)
from strategies.chance import requirement
from sim.core import positions
from sim.core.positions import whole_number
from sim.core.runner import UsageError

TOP_KEYS = ("to_move", "round", "first", "turns_left", "chance_drawn", "rules", "player", "board", "corners", "turn")
PLAYER_KEYS = ("policy", "skyline", "held", "draw", "draw_count", "discard")
TURN_KEYS = ("stage", "flipped", "flips_left", "free_parking", "blocked", "asker", "flip2_by", "placing")
STAGES = {"flipping": L.STAGE_FLIP, "flip2": L.STAGE_WINDOW, "tokens": L.STAGE_TOKENS, "placing": L.STAGE_PLACE}
GRAY = "gray"
HOLDABLE = (FLIP2, NOPE, TOKEN)


@dataclass
class Position:
    """A checked position: its rules and seats, the kernel's start array ``S0`` and the
    position as plain data (``doc``, what ``write`` writes)."""

    rules: ChanceRules
    policies: list[str]
    S0: np.ndarray
    doc: dict
    stage: str
    turn: int
    decision: str  # what the player to decide faces: flip, flip2, nope_flip2, token, place, nope_cash
    decider: int  # the seat that decides it
    options: list[tuple[str, list[tuple]]] = field(default_factory=list)  # (label, forced queue)

    @property
    def players(self) -> int:
        return len(self.policies)


def load(path: str | Path, rule_changes: list[str] | None = None) -> Position:
    """Read a position file (.toml or .json); rule_changes (KEY=VALUE) go on top of its [rules]."""
    return positions.for_advice(path, lambda data: parse(data, rule_changes))


# ---------------------------------------------------------------------------------------------
# Reading


def _bool(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise UsageError(f"{what} must be true or false (got {value!r})")
    return value


def _list(value, what: str) -> list:
    if not isinstance(value, list):
        raise UsageError(f"{what} must be a list (got {value!r})")
    return value


def _table(value, what: str) -> dict:
    if not isinstance(value, dict):
        raise UsageError(f"{what} must be a table")
    return value


def _keys(table: dict, known: tuple, what: str) -> None:
    for k in table:
        if k not in known:
            raise UsageError(f"{what}: unknown key {k!r}; known: {', '.join(dict.fromkeys(known))}")


def _card(name, what: str, deck: Counter) -> tuple[int, int]:
    """A card name (cashN or a kind) -> (kind, value), checked against the seat's deck."""
    if not isinstance(name, str):
        raise UsageError(f"{what}: a card is a name such as \"cash7\" or \"bankrupt\" (got {name!r})")
    try:
        card = card_kind_value(name)
    except ValueError as e:
        raise UsageError(f"{what}: {str(e).removeprefix('rules: ')}") from None
    if deck[card] == 0:
        raise UsageError(f"{what}: the deck has no {name}")
    return card


def card_name(kind: int, value: int) -> str:
    return f"cash{value}" if kind == CASH else CARD_KIND_NAMES[kind]


class _Seat:
    """Assigns a seat's deck cards (indices of the packed deck) to the places the file names,
    so that a card named more often than the deck holds it is caught, with its places."""

    def __init__(self, RB: np.ndarray, p: int):
        self.p = p
        self.free: dict[tuple[int, int], list[int]] = {}
        for c in range(RB[L.R_DECK_SIZE + p]):
            card = (int(RB[L.R_DECK_KIND + p * L.MAX_DECK + c]), int(RB[L.R_DECK_VALUE + p * L.MAX_DECK + c]))
            self.free.setdefault(card, []).append(c)
        self.deck = Counter({card: len(cs) for card, cs in self.free.items()})
        self.placed: dict[tuple[int, int], list[str]] = {}

    def take(self, card: tuple[int, int], where: str) -> int:
        self.placed.setdefault(card, []).append(where)
        if not self.free.get(card):
            places = ", ".join(self.placed[card])
            raise UsageError(f"player {self.p}: {card_name(*card)} is in more places ({places}) than the deck "
                             f"holds ({self.deck[card]})")
        return self.free[card].pop(0)

    def unseen(self) -> list[int]:
        return sorted(c for cs in self.free.values() for c in cs)


def parse(data: dict, rule_changes: list[str] | None = None) -> Position:
    """Build a Position from a parsed TOML/JSON document."""
    from sim.chance.game import GAME
    from strategies.chance import PolicyError

    data = _table(data, "the top level")
    _keys(data, TOP_KEYS, "the top level")
    rules_doc = _table(data.get("rules", {}), "[rules]")
    rules = GAME.rules_from([f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules_doc.items()]
                            + list(rule_changes or []))
    players = _list(data.get("player", []), "[[player]]")
    n = len(players)
    if not 2 <= n <= L.MAX_PLAYERS:
        raise UsageError(f"a position needs 2 to {L.MAX_PLAYERS} [[player]] tables (got {n})")
    RB = pack(rules, n)
    props = [p.name for p in rules.properties]
    n_props = len(props)
    S = np.zeros(L.POSITION_SIZE, np.int32)
    doc: dict = {}
    turn = whole_number(data.get("to_move", 0), "to_move", 0, n - 1)
    first = whole_number(data.get("first", turn), "first", 0, n - 1)
    rnd = whole_number(data.get("round", 1), "round", 1, rules.max_rounds)
    doc.update(to_move=turn, round=rnd, first=first)
    policies = []
    seats = [_Seat(RB, p) for p in range(n)]

    def prop_index(name, what: str) -> int:
        if name not in props:
            raise UsageError(f"{what}: unknown property {name!r}; known: {', '.join(props)}")
        return props.index(name)

    # Skylines and the buildings left.
    S[L.G_GRAY_LEFT] = rules.gray_buildings
    for i in range(n_props):
        S[L.BLDS_LEFT + i] = rules.properties[i].buildings
    player_docs = []
    for p, pl in enumerate(players):
        what = f"player {p}"
        pl = _table(pl, what)
        _keys(pl, PLAYER_KEYS, what)
        policy = pl.get("policy", GAME.bots.default_table[p])
        if not isinstance(policy, str):
            raise UsageError(f"{what} policy must be a string such as \"optimal\"")
        try:
            GAME.bots.catalog.parse(policy)
        except PolicyError as e:
            raise UsageError(f"{what} policy: {e}") from None
        policies.append(policy)
        sky = _table(pl.get("skyline", {}), f"{what} skyline")
        sky_doc = {}
        for name, count in sky.items():
            count = whole_number(count, f"{what} skyline {name!r}", 0, 64)
            b = n_props if name == GRAY else prop_index(name, f"{what} skyline")
            if count == 0:
                continue
            sky_doc[name] = count
            S[L.SKY_COUNT + p * (L.MAX_PROPS + 1) + b] = count
            S[L.N_BLD + p] += count
            S[L.SKY_LEN + p] += count * (rules.gray_length if b == n_props else rules.properties[b].building_length)
            if b == n_props:
                S[L.G_GRAY_LEFT] -= count
            else:
                S[L.BLDS_LEFT + b] -= count
                # A pair already on the skyline has had its gray building (or found none left).
                S[L.PAIRS_DONE + p * L.MAX_PROPS + b] = count // 2 if rules.house.gray_per_pair else int(count >= 2)
        player_docs.append({"policy": policy, "skyline": {k: sky_doc[k] for k in [*props, GRAY] if k in sky_doc}})
    for i in range(n_props):
        if S[L.BLDS_LEFT + i] < 0:
            raise UsageError(f"skylines hold more {props[i]} buildings than the box ({rules.properties[i].buildings})")
    if S[L.G_GRAY_LEFT] < 0:
        raise UsageError(f"skylines hold more gray buildings than the box ({rules.gray_buildings})")

    # The board, bottom card first.
    board = _table(data.get("board", {}), "[board]")
    S[L.TOP_OWNER : L.TOP_OWNER + L.MAX_PROPS] = -1
    board_doc = {}
    for name, stack in board.items():
        i = prop_index(name, "[board]")
        stack = [stack] if isinstance(stack, dict) else _list(stack, f"[board] {name!r}")
        entries = []
        for k, entry in enumerate(stack):
            what = f"[board] {name!r} card {k + 1}"
            entry = _table(entry, what)
            _keys(entry, ("owner", "cash", "free_parking"), what)
            if "owner" not in entry or "cash" not in entry:
                raise UsageError(f"{what}: give owner and cash, e.g. {{ owner = 1, cash = 9 }}")
            o = whole_number(entry["owner"], f"{what} owner", 0, n - 1)
            v = whole_number(entry["cash"], f"{what} cash", 1, 1000)
            fp = _bool(entry.get("free_parking", False), f"{what} free_parking")
            need = requirement(S, RB, i)
            if v <= need and not fp:
                raise UsageError(f"{what}: Cash {v} does not beat the {need} below it (set free_parking = true "
                                 "if it went down through Free Parking)")
            c = seats[o].take(_card(f"cash{v}", what, seats[o].deck), f"board {name}")
            kernel.push_card(S, RB, i, o, c, int(fp))
            entries.append({"owner": o, "cash": v} | ({"free_parking": True} if fp else {}))
        if entries:
            board_doc[name] = entries
    S[L.G_BOARD_CHANGES] = 0
    for corner in range(L.N_CORNERS):
        S[L.CORNERS + corner] = -1
    corners = _table(data.get("corners", {}), "[corners]")
    corner_doc = {}
    for name, o in corners.items():
        if name not in CORNER_NAMES:
            raise UsageError(f"[corners]: unknown corner {name!r}; known: {', '.join(CORNER_NAMES)}")
        o = whole_number(o, f"[corners] {name}", 0, n - 1)
        c = seats[o].take(_card("token", f"[corners] {name}", seats[o].deck), f"corner {name}")
        S[L.CORNERS + CORNER_NAMES.index(name)] = o * L.MAX_DECK + c
        S[L.WHERE + o * L.MAX_DECK + c] = L.CORNER
        corner_doc[name] = o


    # Cards held from earlier turns, and the cards in front of the player to move.
    for p, pl in enumerate(players):
        held = []
        for name in _list(pl.get("held", []), f"player {p} held"):
            card = _card(name, f"player {p} held", seats[p].deck)
            if card[0] not in HOLDABLE:
                raise UsageError(f"player {p} held: only flip2, nope and token cards are kept between turns (got {name})")
            S[L.WHERE + p * L.MAX_DECK + seats[p].take(card, "held")] = L.HELD
            held.append(name)
        if held:
            player_docs[p]["held"] = sorted(held)
    tdoc = _table(data.get("turn", {}), "[turn]")
    _keys(tdoc, TURN_KEYS, "[turn]")
    stage = tdoc.get("stage", "flipping")
    if stage not in STAGES:
        raise UsageError(f"[turn] stage: unknown stage {stage!r}; known: {', '.join(STAGES)}")
    turn_doc: dict = {"stage": stage}
    me = seats[turn]
    lucky = 0
    flipped = [str(x) for x in _list(tdoc.get("flipped", []), "[turn] flipped")]
    for k, name in enumerate(flipped):
        card = _card(name, "[turn] flipped", me.deck)
        c = me.take(card, "flipped this turn")
        S[L.WHERE + turn * L.MAX_DECK + c] = L.TURN
        S[L.TURN_CARDS + k] = c
        lucky += (card[0] == LUCKY_BREAK) - (card[0] == BANKRUPT)
        if lucky < 0:
            raise UsageError("[turn] flipped: a Bankrupt with no Lucky Break in front ends the turn; such a turn has "
                             "nothing left to decide")
    S[L.T_N] = len(flipped)
    S[L.T_LUCKY] = lucky
    flips_left = whole_number(tdoc.get("flips_left", 0), "[turn] flips_left", 0, 62)
    S[L.T_FLIPS] = len(flipped)
    S[L.T_LIMIT] = len(flipped) + flips_left
    S[L.T_WINDOW_FROM] = 1
    turn_doc.update(flipped=flipped, flips_left=flips_left)
    for key, stages in (("free_parking", ("tokens", "placing")), ("blocked", ("placing",)), ("asker", ("flip2",)),
                        ("flip2_by", ("flip2",)), ("placing", ("placing",))):
        if key in tdoc and stage not in stages:
            raise UsageError(f"[turn] {key} belongs to the stage{'s' if len(stages) > 1 else ''} {' or '.join(stages)}")
    if _bool(tdoc.get("free_parking", False), "[turn] free_parking"):
        S[L.T_FP] = 1
        turn_doc["free_parking"] = True
    blocked = [str(b) for b in _list(tdoc.get("blocked", []), "[turn] blocked")]
    for b in blocked:
        S[L.T_BLOCKED] |= 1 << prop_index(b, "[turn] blocked")
    if blocked:
        turn_doc["blocked"] = sorted(set(blocked), key=props.index)

    # The draw and discard piles: what no other place holds.
    for p, pl in enumerate(players):
        what = f"player {p}"
        draw, discard = pl.get("draw"), pl.get("discard")
        pd_ = player_docs[p]
        S[L.P_DRAW_COUNT + p] = -1
        if draw is None and discard is None:
            draw = "fresh"
        if isinstance(draw, str):
            if draw not in ("fresh", "unknown"):
                raise UsageError(f"{what} draw: a list of cards, \"fresh\" or \"unknown\" (got {draw!r})")
            if discard is not None:
                raise UsageError(f"{what}: draw = \"{draw}\" leaves no discard list to give")
            pile, discards = seats[p].unseen(), []
            pd_["draw"] = draw
            if draw == "unknown":
                if "draw_count" not in pl:
                    raise UsageError(f"{what}: draw = \"unknown\" needs draw_count, the number of cards in the draw pile")
                S[L.P_DRAW_COUNT + p] = whole_number(pl["draw_count"], f"{what} draw_count", 0, len(pile))
                pd_["draw_count"] = int(S[L.P_DRAW_COUNT + p])
        else:
            listed = {}
            for key, cards in (("draw", draw), ("discard", discard)):
                if cards is None:
                    continue
                listed[key] = [seats[p].take(_card(x, f"{what} {key}", seats[p].deck), f"{key} pile")
                               for x in _list(cards, f"{what} {key}")]
            rest = seats[p].unseen()
            if draw is not None and discard is not None and rest:
                names = ", ".join(card_name(*_kind_value(RB, p, c)) for c in rest)
                raise UsageError(f"{what}: {names} {'is' if len(rest) == 1 else 'are'} in no place; add them to draw "
                                 "or discard")
            pile = listed.get("draw", rest)
            discards = listed.get("discard", rest)
            pd_["draw"] = [card_name(*_kind_value(RB, p, c)) for c in sorted(pile)]
            pd_["discard"] = [card_name(*_kind_value(RB, p, c)) for c in sorted(discards)]
        if "draw_count" in pl and pd_["draw"] != "unknown":
            raise UsageError(f"{what}: draw_count goes with draw = \"unknown\" only")
        for k, c in enumerate(sorted(pile)):  # sorted: the file's order must not matter
            S[L.DRAW_PILE + p * L.MAX_DECK + k] = c
            S[L.WHERE + p * L.MAX_DECK + c] = L.DRAW
        S[L.DRAW_N + p] = len(pile)
        for c in discards:
            S[L.WHERE + p * L.MAX_DECK + c] = L.DISCARD

    # The Chance cards drawn since their deck was last shuffled.
    drawn = [str(x) for x in _list(data.get("chance_drawn", []), "chance_drawn")]
    effects = [effect for effect, _ in rules.chance_cards]
    left = list(range(len(effects)))
    order = []
    for e in drawn:
        k = next((k for k in left if effects[k] == e), None)
        if k is None:
            if e not in effects:
                raise UsageError(f"chance_drawn: unknown Chance card {e!r}; known: {', '.join(dict.fromkeys(effects))}")
            raise UsageError(f"chance_drawn: {e} is drawn more often than the Chance deck holds it")
        left.remove(k)
        order.append(k)
    S[L.CHANCE_ORDER : L.CHANCE_ORDER + len(effects)] = order + left
    S[L.G_CHANCE_POS] = len(drawn)

    # Where the round and the game stand.
    best = max(int(S[L.SKY_LEN + p]) for p in range(n))
    if best >= rules.finish_mark:
        raise UsageError(f"a skyline of {best} has reached the finish mark ({rules.finish_mark}): the game is over")
    S[L.G_CURRENT], S[L.G_FIRST], S[L.G_N_ROUNDS], S[L.G_ROUND_TURNS] = turn, first, rnd, 1
    S[L.G_HALF_SEEN] = int(2 * best >= rules.finish_mark)
    S[L.G_REMAINING] = -1
    if "turns_left" in data:
        left_n = whole_number(data["turns_left"], "turns_left", 1, n)
        S[L.G_TRIGGERED], S[L.G_REMAINING], S[L.G_ROUND_ENDING] = 1, left_n, int(left_n < n)
        doc["turns_left"] = left_n
    elif kernel.all_covered(S, RB):
        raise UsageError(f"the board is covered, so the round's end has come: give turns_left, the turns left in "
                         f"this round with this one (1 to {n}; {n} when this turn covered the board)")
    S[L.P_STAGE] = STAGES[stage]
    check = S.copy()
    where = check[L.WHERE : L.WHERE + L.MAX_PLAYERS * L.MAX_DECK]
    where[where == L.TURN] = L.DISCARD  # as between turns
    status = kernel.check_invariants(check, RB)
    if status != kernel.OK:
        raise UsageError(f"inconsistent position: {kernel.STATUS_NAMES[status]}")

    pos = Position(rules, policies, S, doc, stage, turn, "", turn)
    _decision(pos, tdoc, turn_doc, RB, props)
    doc.update(chance_drawn=drawn, rules=dict(rules_doc), player=player_docs, board=board_doc, corners=corner_doc,
               turn=turn_doc)
    return pos


def _kind_value(RB: np.ndarray, p: int, c: int) -> tuple[int, int]:
    return int(RB[L.R_DECK_KIND + p * L.MAX_DECK + c]), int(RB[L.R_DECK_VALUE + p * L.MAX_DECK + c])


def _holds(S: np.ndarray, RB: np.ndarray, p: int, kind: int) -> bool:
    """Whether the player to move has a card of this kind to play: held, or flipped this turn."""
    return kernel.find_card(S, RB, p, kind, L.HELD) >= 0 or kernel.find_card(S, RB, p, kind, L.TURN) >= 0


def _decision(pos: Position, tdoc: dict, turn_doc: dict, RB: np.ndarray, props: list[str]) -> None:
    """The decision the position poses, who takes it and its choices (each a forced queue);
    also the window's first seat. A position with no choice still plays on (`position`)."""
    S, p, n = pos.S0, pos.turn, pos.players
    if pos.stage == "flipping":
        pos.decision = "flip"
        can_flip = S[L.DRAW_N + p] > 0 or (pos.rules.house.reshuffle_empty_pile
                                           and kernel.has_cards_at(S, RB, p, L.DISCARD))
        if S[L.T_LIMIT] > S[L.T_FLIPS] and can_flip:
            pos.options = [("flip", [(L.D_FLIP, p, 1, 0)]), ("cash out", [(L.D_FLIP, p, 0, 0)])]
    elif pos.stage == "flip2":
        pos.decision = "flip2"  # until asker or flip2_by says more
        if "asker" in tdoc and "flip2_by" in tdoc:
            raise UsageError("[turn]: give asker (who may play Flip 2 now) or flip2_by (who played it), not both")
        if S[L.T_N] == 0:
            raise UsageError("[turn] stage flip2: the player has flipped nothing, so the Flip 2 window does not open")
        for key in ("asker", "flip2_by"):
            if key not in tdoc:
                continue
            o = whole_number(tdoc[key], f"[turn] {key}", 0, n - 1)
            turn_doc[key] = o
            if o == p:
                raise UsageError(f"[turn] {key}: the player to move cannot play Flip 2 on themselves")
            if kernel.find_card(S, RB, o, FLIP2, L.HELD) < 0:
                raise UsageError(f"[turn] {key}: player {o} holds no Flip 2")
            S[L.T_WINDOW_FROM] = (o - p) % n
            if key == "asker":
                pos.decision, pos.decider = "flip2", o
                pos.options = [("play Flip 2", [(L.D_FLIP2, o, 1, 0)]), ("pass", [(L.D_FLIP2, o, 0, 0)])]
            else:
                pos.decision = "nope_flip2"
                if _holds(S, RB, p, NOPE):
                    pos.options = [(label, [(L.D_FLIP2, o, 1, 0), (L.D_NOPE_FLIP2, p, a, 0)])
                                   for label, a in (("Nope!", 1), ("take the two flips", 0))]
    elif pos.stage == "tokens":
        pos.decision = "token"
        if _holds(S, RB, p, TOKEN):
            pos.options = [(f"Token to {CORNER_NAMES[c]}", [(L.D_TOKEN, p, c, 0)])
                           for c in range(L.N_CORNERS) if S[L.CORNERS + c] < 0]
            if pos.options:
                pos.options.append(("keep the Token", [(L.D_TOKEN, p, -1, 0)]))
    else:
        fp = S[L.T_FP] == 1
        cash = {}  # value -> a card in front of the player
        for k in range(S[L.T_N]):
            c = int(S[L.TURN_CARDS + k])
            kind, v = _kind_value(RB, p, c)
            if kind == CASH:
                cash.setdefault(v, c)

        def legal(v: int, i: int) -> bool:
            return not (S[L.T_BLOCKED] >> i) & 1 and (v > requirement(S, RB, i) or fp)

        if "placing" in tdoc:
            what = "[turn] placing"
            spec = _table(tdoc["placing"], what)
            _keys(spec, ("cash", "property"), what)
            if "cash" not in spec or "property" not in spec:
                raise UsageError(f"{what}: give cash and property, e.g. {{ cash = 9, property = \"Boardwalk\" }}")
            v = whole_number(spec["cash"], f"{what} cash", 1, 1000)
            if v not in cash:
                raise UsageError(f"{what}: no Cash {v} is in front of the player")
            if spec["property"] not in props:
                raise UsageError(f"{what}: unknown property {spec['property']!r}; known: {', '.join(props)}")
            i = props.index(spec["property"])
            if not legal(v, i):
                raise UsageError(f"{what}: Cash {v} cannot go on {props[i]}")
            o = int(S[L.TOP_OWNER + i])
            if o < 0 or o == p:
                raise UsageError(f"{what}: only an opponent on top of {props[i]} can answer with Nope!")
            turn_doc["placing"] = {"cash": v, "property": props[i]}
            pos.decision, pos.decider = "nope_cash", o
            if kernel.find_card(S, RB, o, NOPE, L.HELD) >= 0:
                pos.options = [(label, [(L.D_PLACE, p, cash[v], i), (L.D_NOPE_CASH, o, a, 0)])
                               for label, a in (("Nope!", 1), ("let it in", 0))]
        else:
            pos.decision = "place"
            pos.options = [(f"cash{v} on {props[i]}", [(L.D_PLACE, p, c, i)])
                           for v, c in sorted(cash.items()) for i in range(len(props)) if legal(v, i)]
            if pos.options:
                pos.options.append(("discard the rest", [(L.D_PLACE, p, -1, -1)]))


def start_array(pos: Position, option: int | None = None) -> np.ndarray:
    """The kernel's start array for the position, with one choice's answers forced (None: every
    decision is the policies')."""
    S0 = pos.S0.copy()
    for k, (decision, seat, a, b) in enumerate(pos.options[option][1] if option is not None else []):
        S0[L.F_QUEUE + 4 * k : L.F_QUEUE + 4 * k + 4] = (decision, seat, a, b)
        S0[L.F_N] = k + 1
    return S0


# ---------------------------------------------------------------------------------------------
# Writing


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() and k.isascii() else json.dumps(k)


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }" if v else "{}"


def write(pos: Position) -> str:
    """The position as TOML in a fixed form (load(write(pos)) is the same position)."""
    d = pos.doc
    lines = [f"to_move = {d['to_move']}", f"round = {d['round']}", f"first = {d['first']}"]
    if "turns_left" in d:
        lines.append(f"turns_left = {d['turns_left']}")
    if d["chance_drawn"]:
        lines.append(f"chance_drawn = {_value(d['chance_drawn'])}")
    if d["rules"]:
        lines += ["", "[rules]"] + [f"{_key(k)} = {_value(v)}" for k, v in d["rules"].items()]
    for pl in d["player"]:
        lines += ["", "[[player]]"] + [f"{k} = {_value(pl[k])}" for k in PLAYER_KEYS if k in pl]
    for table in ("board", "corners"):
        if d[table]:
            lines += ["", f"[{table}]"] + [f"{_key(k)} = {_value(v)}" for k, v in d[table].items()]
    lines += ["", "[turn]"] + [f"{k} = {_value(d['turn'][k])}" for k in TURN_KEYS if k in d["turn"]]
    return "\n".join(lines) + "\n"
