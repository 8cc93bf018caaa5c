"""Monopoly Chance: components and house rules as data.

The published rules leave several components unstated: the property spaces and their printed
values, how long each building is on the skyline rack, where the finish mark sits, the faces of
the die and seven of the eight Chance cards. Each is data here, with a default assumption
documented beside it (see docs/chance.md for the reasoning and the calibration run behind the
finish mark). The kernel never sees these objects, only the arrays that ``pack`` builds.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from sim.chance import layout as L
from sim.core import rule_changes
from sim.core.rule_changes import parse_bool

# ---------------------------------------------------------------------------------------------
# Card kinds in a token deck. The kernel branches on these codes.
CASH, BANKRUPT, LUCKY_BREAK, TOKEN, FLIP2, NOPE = range(6)
CARD_KIND_NAMES = ("cash", "bankrupt", "lucky_break", "token", "flip2", "nope")

# Corners a Token can be played to, in board order.
GO, FREE_PARKING, JUST_VISITING, GO_TO_JAIL = range(4)
CORNER_NAMES = ("go", "free_parking", "just_visiting", "go_to_jail")

# Chance card effects. ``param`` is the card's number (see CHANCE_EFFECTS_DOC).
(
    CH_STEAL_BUILDING,
    CH_EXTRA_FLIPS,
    CH_FEWER_FLIPS,
    CH_TAKE_LUCKY_BREAK,
    CH_GO,
    CH_JUST_VISITING,
    CH_GO_TO_JAIL,
    CH_LOSE_BUILDING,
) = range(8)
CHANCE_EFFECT_NAMES = (
    "steal_building",
    "extra_flips",
    "fewer_flips",
    "take_lucky_break",
    "go",
    "just_visiting",
    "go_to_jail",
    "lose_building",
)
CHANCE_EFFECTS_DOC = {
    "steal_building": "roll the die; on a number >= param take the shortest building from any "
    "opponent's skyline (the one printed card the rules describe, param 4)",
    "extra_flips": "flip up to param more cards than the number rolled this turn",
    "fewer_flips": "flip up to param fewer cards than the number rolled (at least 1)",
    "take_lucky_break": "take a Lucky Break from your draw pile into play this turn, then shuffle",
    "go": "the GO corner's action without a Token: play a Cash card chosen from your draw pile",
    "just_visiting": "the Just Visiting corner's action: play a Cash card from your discard pile",
    "go_to_jail": "the Go to Jail corner's action: send an opponent's top Cash card to their discards",
    "lose_building": "return your shortest building to the supply",
}

DIE_CHANCE = 0  # the '?' face is stored as 0; number faces are stored as themselves


@dataclass(frozen=True)
class Property:
    name: str
    colour: str
    value: int  # printed value: the first Cash card must be higher
    buildings: int  # buildings of this colour in the box
    building_length: int  # length of one such building on the skyline rack


# Assumption: one property space per colour (the box has eight building colours), printed
# values 1..8 in board order. This matches the text's anchors: Pennsylvania Avenue is 7,
# Boardwalk the most valuable, Baltic Avenue the least. Building lengths grow with the colour's
# value in steps of one per pair of colours; building counts are from the components list.
DEFAULT_PROPERTIES = (
    Property("Baltic Avenue", "brown", 1, 5, 1),
    Property("Oriental Avenue", "light_blue", 2, 5, 1),
    Property("St. Charles Place", "pink", 3, 4, 2),
    Property("New York Avenue", "orange", 4, 4, 2),
    Property("Illinois Avenue", "red", 5, 3, 3),
    Property("Marvin Gardens", "yellow", 6, 3, 3),
    Property("Pennsylvania Avenue", "green", 7, 2, 4),
    Property("Boardwalk", "dark_blue", 8, 2, 4),
)


def _default_deck() -> dict[str, int]:
    deck = {f"cash{v}": 1 for v in range(2, 13)}
    deck.update(bankrupt=4, lucky_break=2, token=1, flip2=1, nope=1)
    return deck


@dataclass(frozen=True)
class HouseRules:
    """Rule choices the text leaves open. Defaults follow the published FAQ answers."""

    # An empty draw pile means no more flips this round (FAQ). True: shuffle the discards
    # into a new draw pile when a flip is needed.
    reshuffle_empty_pile: bool = False
    # Several Flip 2 cards may be played on one player in one turn, one at a time (FAQ).
    # False: one per turn, counting one that was answered by a Nope!.
    multiple_flip2_per_turn: bool = True
    # A saved Token cannot be played on a turn that went bankrupt (FAQ).
    token_after_bankrupt: bool = False
    # Properties with no buildings left are ignored for the round-end trigger (FAQ).
    # True: they must still be covered.
    exhausted_properties_count: bool = False
    # A gray building for every two buildings of one colour (two pairs of brown earn two).
    # False: at most one gray per colour per player.
    gray_per_pair: bool = True
    # Flip 2 and Nope! cards held at the end of a round are shuffled back with the rest (the
    # text: "shuffle all of your cards together"). True: a player keeps them. A Token never
    # survives its round.
    keep_held_cards: bool = False


HOUSE_RULE_DOC = {
    "reshuffle_empty_pile": "an empty draw pile is rebuilt from the discards (default: no more flips)",
    "multiple_flip2_per_turn": "more than one Flip 2 may be played on a player in one turn (default: yes)",
    "token_after_bankrupt": "a saved Token may be played on a bankrupt turn (default: no)",
    "exhausted_properties_count": "properties without buildings must be covered to end the round (default: no)",
    "gray_per_pair": "one gray building per pair of a colour rather than per colour (default: per pair)",
    "keep_held_cards": "held Flip 2 / Nope! survive the round-end shuffle (default: no)",
}


@dataclass(frozen=True)
class ChanceRules(rule_changes.RulesMixin):
    """Everything that defines a game of Monopoly Chance, apart from the players' policies."""

    properties: tuple[Property, ...] = DEFAULT_PROPERTIES
    gray_buildings: int = 4
    gray_length: int = 2
    # Skyline length that ends the game at the end of a round. Calibrated so that a 4-player
    # game of default bots lasts 3-4 rounds (docs/chance.md shows the run).
    finish_mark: int = 23
    # Die faces; 0 is the '?' face. Assumption: a six-sided die with one '?' and 2..6 (the
    # one printed Chance card needs a 4, 5 or 6 on it, and a 1 would make a turn trivial).
    die: tuple[int, ...] = (0, 2, 3, 4, 5, 6)
    # Each player's token deck: card name -> copies. Names are cashN (N = value) or a kind.
    deck: dict[str, int] = field(default_factory=_default_deck)
    # Chance deck: (effect, param) per card. Only the first is printed in the rules text.
    chance_cards: tuple[tuple[str, int], ...] = (
        ("steal_building", 4),
        ("extra_flips", 2),
        ("fewer_flips", 2),
        ("take_lucky_break", 0),
        ("go", 0),
        ("just_visiting", 0),
        ("go_to_jail", 0),
        ("lose_building", 0),
    )
    house: HouseRules = HouseRules()
    # Safety limit: a game still running after this many rounds stops and is scored as it stands.
    max_rounds: int = 40

    def validate(self) -> None:
        if not self.properties:
            raise ValueError("rules: at least one property is needed")
        for p in self.properties:
            if p.buildings < 0 or p.building_length < 1 or p.value < 0:
                raise ValueError(f"rules: property {p.name!r} has a negative count or value")
        if self.finish_mark < 1:
            raise ValueError("rules: finish_mark must be at least 1")
        if not self.die or any(f < 0 for f in self.die) or all(f == DIE_CHANCE for f in self.die):
            raise ValueError("rules: die needs at least one number face (0 stands for '?')")
        if self.max_rounds < 1:
            raise ValueError("rules: max_rounds must be at least 1")
        for name, count in self.deck.items():
            card_kind_value(name)
            if count < 0:
                raise ValueError(f"rules: deck count for {name!r} is negative")
        if sum(self.deck.values()) < 1:
            raise ValueError("rules: a token deck needs at least one card")
        if sum(self.deck.values()) > L.MAX_DECK:
            raise ValueError(f"rules: a token deck may hold at most {L.MAX_DECK} cards")
        if len(self.properties) > L.MAX_PROPS:
            raise ValueError(f"rules: at most {L.MAX_PROPS} property spaces")
        if len(self.die) > L.MAX_FACES:
            raise ValueError(f"rules: a die has at most {L.MAX_FACES} faces")
        if len(self.chance_cards) > L.MAX_CHANCE:
            raise ValueError(f"rules: at most {L.MAX_CHANCE} Chance cards")
        if not self.chance_cards:
            raise ValueError("rules: the Chance deck needs at least one card")
        for effect, _ in self.chance_cards:
            if effect not in CHANCE_EFFECT_NAMES:
                raise ValueError(
                    f"rules: unknown Chance effect {effect!r}; known: {', '.join(CHANCE_EFFECT_NAMES)}"
                )

    def deck_cards(self) -> list[tuple[int, int]]:
        """The token deck as (kind, value) pairs, cash first by value, then other kinds."""
        cards = [card_kind_value(n) for n, c in self.deck.items() for _ in range(c)]
        return sorted(cards)


def card_kind_value(name: str) -> tuple[int, int]:
    """A token card's name (cashN or a kind) -> (kind, value); ValueError for a bad name."""
    if name.startswith("cash"):
        try:
            value = int(name[4:])
        except ValueError:
            value = -1
        if value < 1:
            raise ValueError(f"rules: bad cash card {name!r}; write cashN with N >= 1")
        return CASH, value
    if name in CARD_KIND_NAMES[1:]:
        return CARD_KIND_NAMES.index(name), 0
    raise ValueError(
        f"rules: unknown card {name!r}; use cashN or one of {', '.join(CARD_KIND_NAMES[1:])}"
    )


def pack(rules: ChanceRules, n_players: int, deck_edits=None) -> np.ndarray:
    """The rules buffer the kernel reads (layout in sim/chance/layout.py). ``deck_edits`` maps
    seat -> {card name: change in copies}, so one seat's deck can differ (card-value studies)."""
    rules.validate()
    if not 2 <= n_players <= L.MAX_PLAYERS:
        raise ValueError(f"rules: Monopoly Chance takes 2 to {L.MAX_PLAYERS} players (got {n_players})")
    props = rules.properties
    rb = np.zeros(L.RULES_SIZE, np.int32)
    rb[L.R_PLAYERS] = n_players
    rb[L.R_PROPS] = len(props)
    rb[L.R_FACES] = len(rules.die)
    rb[L.R_CHANCE] = len(rules.chance_cards)
    rb[L.R_FINISH] = rules.finish_mark
    rb[L.R_GRAY] = rules.gray_buildings
    rb[L.R_GRAY_LEN] = rules.gray_length
    rb[L.R_MAX_ROUNDS] = rules.max_rounds
    h = rules.house
    rb[L.R_RESHUFFLE] = h.reshuffle_empty_pile
    rb[L.R_MULTI_FLIP2] = h.multiple_flip2_per_turn
    rb[L.R_TOKEN_AFTER_BUST] = h.token_after_bankrupt
    rb[L.R_EXHAUSTED_COUNT] = h.exhausted_properties_count
    rb[L.R_GRAY_PER_PAIR] = h.gray_per_pair
    rb[L.R_KEEP_HELD] = h.keep_held_cards
    for i, p in enumerate(props):
        rb[L.R_PROP_VALUE + i] = p.value
        rb[L.R_PROP_BUILDINGS + i] = p.buildings
        rb[L.R_PROP_LENGTH + i] = p.building_length
    order = sorted(range(len(props)), key=lambda i: -props[i].value)  # stable: ties keep board order
    rb[L.R_GRAY_ORDER : L.R_GRAY_ORDER + len(props)] = order
    rb[L.R_DIE : L.R_DIE + len(rules.die)] = rules.die
    for seat in range(n_players):
        deck = dict(rules.deck)
        for name, change in (deck_edits or {}).get(seat, {}).items():
            deck[name] = deck.get(name, 0) + change
        seat_rules = dataclasses.replace(rules, deck=deck)
        seat_rules.validate()
        cards = seat_rules.deck_cards()
        for c, (kind, value) in enumerate(cards):
            rb[L.R_DECK_KIND + seat * L.MAX_DECK + c] = kind
            rb[L.R_DECK_VALUE + seat * L.MAX_DECK + c] = value
        rb[L.R_DECK_SIZE + seat] = len(cards)
        kinds = [kind for kind, _ in cards]
        for kind in range(len(CARD_KIND_NAMES) + 1):
            # cards are sorted by kind, so each kind is one contiguous range
            rb[L.R_KIND_FIRST + seat * L.N_KIND_SLOTS + kind] = sum(k < kind for k in kinds)
    for k, (effect, param) in enumerate(rules.chance_cards):
        rb[L.R_CHANCE_EFFECT + k] = CHANCE_EFFECT_NAMES.index(effect)
        rb[L.R_CHANCE_PARAM + k] = param
    return rb


def describe(rules: ChanceRules) -> dict:
    """A plain dict of the rules, for manifests and reports."""
    d = dataclasses.asdict(rules)
    d["properties"] = [dataclasses.asdict(p) for p in rules.properties]
    d["chance_cards"] = [list(c) for c in rules.chance_cards]
    return d


RULES_VERSION = "chance-1"


SCALAR_FIELDS = ("finish_mark", "gray_buildings", "gray_length", "max_rounds")


def _parse_die(raw: str) -> tuple[int, ...]:
    return tuple(DIE_CHANCE if f.strip() == "?" else int(f) for f in raw.split(","))


RULE_PARSERS = {name: int for name in SCALAR_FIELDS} | {name: parse_bool for name in HOUSE_RULE_DOC} | {"die": _parse_die}


def apply_rule_changes(rules: ChanceRules, changes: list[str]) -> ChanceRules:
    """Apply 'KEY=VALUE' changes: a scalar field, a house rule (true/false), ``die=?,2,3`` or
    ``deck.CARD=COUNT``. Raises UsageError naming the key on any mistake."""
    return rule_changes.apply_rule_changes(rules, changes, RULE_PARSERS)
