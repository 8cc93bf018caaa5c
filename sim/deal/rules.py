"""Monopoly Deal: components and house rules as data.

The 106-card deck, the colours with their set sizes and rents, the amounts printed on the
action cards and every rule the editions disagree on are data here; the kernel only sees the
int32 buffer that ``pack`` builds (layout in sim/deal/layout.py). docs/deal.md explains each
choice.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from sim.core import rule_changes
from sim.core.rule_changes import choice, parse_bool
from sim.deal import layout as L

# ---------------------------------------------------------------------------------------------
# Card types. The kernel branches on these codes.
(
    MONEY,
    PROPERTY,
    WILD,  # a two-colour wild property
    WILD_ANY,  # the any-colour wild: no value, cannot pay, needs an ordinary property in its set
    RENT,  # two-colour rent: charges every opponent
    RENT_ANY,  # any-colour rent: charges one chosen opponent
    DEAL_BREAKER,
    JUST_SAY_NO,
    SLY_DEAL,
    FORCED_DEAL,
    DEBT_COLLECTOR,
    BIRTHDAY,
    PASS_GO,
    DOUBLE_RENT,
    HOUSE,
    HOTEL,
) = range(16)
TYPE_NAMES = (
    "money",
    "property",
    "wild",
    "wild_any",
    "rent",
    "rent_any",
    "deal_breaker",
    "just_say_no",
    "sly_deal",
    "forced_deal",
    "debt_collector",
    "birthday",
    "pass_go",
    "double_rent",
    "house",
    "hotel",
)
ACTION_TYPES = (DEAL_BREAKER, JUST_SAY_NO, SLY_DEAL, FORCED_DEAL, DEBT_COLLECTOR, BIRTHDAY, PASS_GO, DOUBLE_RENT)


@dataclass(frozen=True)
class Colour:
    name: str
    set_size: int
    rents: tuple[int, ...]  # rent for 1, 2, ... set_size cards
    value: int  # printed value of its property cards
    buildable: bool = True  # Houses and Hotels may stand on a complete set


COLOURS = (
    Colour("brown", 2, (1, 2), 1),
    Colour("light_blue", 3, (1, 2, 3), 1),
    Colour("pink", 3, (1, 2, 4), 2),
    Colour("orange", 3, (1, 3, 5), 2),
    Colour("red", 3, (2, 3, 6), 3),
    Colour("yellow", 3, (2, 4, 6), 3),
    Colour("green", 3, (2, 4, 7), 4),
    Colour("dark_blue", 2, (3, 8), 4),
    Colour("railroad", 4, (1, 2, 3, 4), 2, buildable=False),
    Colour("utility", 2, (1, 2), 2, buildable=False),
)
COLOUR_NAMES = tuple(c.name for c in COLOURS)
assert len(COLOURS) == L.NC


def _catalogue() -> dict[str, tuple[int, int, int, int]]:
    """Every card name -> (type, value, colour 1, colour 2); colours are -1 when unused."""
    c = COLOUR_NAMES.index
    cards: dict[str, tuple[int, int, int, int]] = {}
    for col in COLOURS:
        cards[col.name] = (PROPERTY, col.value, c(col.name), -1)
    for a, b, v in (
        ("dark_blue", "green", 4),
        ("green", "railroad", 4),
        ("light_blue", "railroad", 4),
        ("railroad", "utility", 2),
        ("light_blue", "brown", 1),
        ("pink", "orange", 2),
        ("red", "yellow", 3),
    ):
        cards[f"wild_{a}_{b}"] = (WILD, v, c(a), c(b))
    cards["wild_any"] = (WILD_ANY, 0, -1, -1)
    for a, b in (("brown", "light_blue"), ("pink", "orange"), ("red", "yellow"), ("green", "dark_blue"), ("railroad", "utility")):
        cards[f"rent_{a}_{b}"] = (RENT, 1, c(a), c(b))
    cards["rent_any"] = (RENT_ANY, 3, -1, -1)
    for name, t, v in (
        ("deal_breaker", DEAL_BREAKER, 5),
        ("just_say_no", JUST_SAY_NO, 4),
        ("sly_deal", SLY_DEAL, 3),
        ("forced_deal", FORCED_DEAL, 3),
        ("debt_collector", DEBT_COLLECTOR, 3),
        ("birthday", BIRTHDAY, 2),
        ("pass_go", PASS_GO, 1),
        ("double_rent", DOUBLE_RENT, 1),
        ("house", HOUSE, 3),
        ("hotel", HOTEL, 4),
    ):
        cards[name] = (t, v, -1, -1)
    return cards


CATALOGUE = _catalogue()


def _default_deck() -> dict[str, int]:
    deck = {"brown": 2, "light_blue": 3, "pink": 3, "orange": 3, "red": 3, "yellow": 3, "green": 3,
            "dark_blue": 2, "railroad": 4, "utility": 2}
    deck.update({
        "wild_dark_blue_green": 1, "wild_green_railroad": 1, "wild_light_blue_railroad": 1,
        "wild_railroad_utility": 1, "wild_light_blue_brown": 1, "wild_pink_orange": 2,
        "wild_red_yellow": 2, "wild_any": 2,
    })
    deck.update({"rent_brown_light_blue": 2, "rent_pink_orange": 2, "rent_red_yellow": 2,
                 "rent_green_dark_blue": 2, "rent_railroad_utility": 2, "rent_any": 3})
    deck.update({"deal_breaker": 2, "just_say_no": 3, "sly_deal": 3, "forced_deal": 3,
                 "debt_collector": 3, "birthday": 3, "pass_go": 10, "double_rent": 2,
                 "house": 3, "hotel": 2})
    deck.update({"money1": 6, "money2": 5, "money3": 3, "money4": 3, "money5": 2, "money10": 1})
    return deck


def card_spec(name: str) -> tuple[int, int, int, int]:
    """(type, value, colour 1, colour 2) of a card name; moneyN is a money card worth N."""
    if name in CATALOGUE:
        return CATALOGUE[name]
    if name.startswith("money"):
        try:
            value = int(name[5:])
        except ValueError:
            value = 0
        if value >= 1:
            return MONEY, value, -1, -1
        raise ValueError(f"rules: bad money card {name!r}; write moneyN with N >= 1")
    raise ValueError(f"rules: unknown card {name!r}; see `monosim deal rules` for the card names")


# ---------------------------------------------------------------------------------------------
# House rules

EXCESS_CHOICES = ("discard_pile", "draw_bottom")
BROKEN_CHOICES = ("bank", "own_turn", "any_turn")


@dataclass(frozen=True)
class HouseRules:
    """Where editions disagree or the text is silent. Defaults: the newest edition and the text."""

    # Newest rules do not say a win must come on your own turn (the FAQ answer in the text):
    # three sets completed on another player's turn win at once. False: only on your own turn.
    win_on_any_turn: bool = True
    # Newest edition: House +3 and Hotel +4 add up to +7. True: older editions, the Hotel
    # replaces the House and adds its amount alone.
    hotel_replaces_house: bool = False
    # Cards discarded over the hand limit go to the discard pile; draw_bottom: under the draw pile.
    excess_discards: str = "discard_pile"
    # Buildings on a set that breaks: own_turn (the text): to the bank, or, on the owner's own
    # turn, moved to another complete set that can take them; bank: always to the bank;
    # any_turn: moved whenever another set can take them.
    broken_set_buildings: str = "own_turn"
    # An empty draw pile is rebuilt by shuffling the discards (standard play, not in the text).
    reshuffle_discards: bool = True
    # A Just Say No played by the active player to answer one (on their own turn) uses one of
    # their plays. Default: it does not (only cards played on your turn by choice are plays).
    counter_uses_play: bool = False
    # A set is complete only with at least one ordinary property in it (the text: "Each
    # Property set must have at least one non-Wild Property card"). False: two-colour wilds
    # alone may complete a set.
    complete_needs_property: bool = True
    # Houses and Hotels on the table may be given in payment (they go to the receiver's bank).
    # Default: no, the text lists bank and properties only.
    pay_with_buildings: bool = False
    # Forced Deal may give away a card from the active player's own complete set (the text
    # forbids complete sets only as the card taken). Default: no, complete sets are never touched.
    forced_deal_from_own_set: bool = False


HOUSE_RULE_DOC = {
    "win_on_any_turn": "three sets completed on another player's turn win at once (default: true; false: own turn only)",
    "hotel_replaces_house": "a Hotel replaces the House's rent instead of adding to it (default: false, +3 +4 = +7)",
    "excess_discards": "where cards over the hand limit go: discard_pile (default) or draw_bottom",
    "broken_set_buildings": "buildings of a broken set: own_turn (default: bank, or move on the owner's turn), bank, any_turn",
    "reshuffle_discards": "an empty draw pile is rebuilt from the shuffled discards (default: true)",
    "counter_uses_play": "a Just Say No the active player plays to answer one uses a play (default: false)",
    "complete_needs_property": "a set needs an ordinary property to count as complete (default: true)",
    "pay_with_buildings": "Houses and Hotels may be given in payment (default: false)",
    "forced_deal_from_own_set": "Forced Deal may give a card from your own complete set (default: false)",
}
HOUSE_CHOICES = {"excess_discards": EXCESS_CHOICES, "broken_set_buildings": BROKEN_CHOICES}


@dataclass(frozen=True)
class DealRules(rule_changes.RulesMixin):
    """Everything that defines a game of Monopoly Deal, apart from the players' policies."""

    colours: tuple[Colour, ...] = COLOURS
    deck: dict[str, int] = field(default_factory=_default_deck)
    start_hand: int = 5
    draw: int = 2
    draw_empty_hand: int = 5
    plays_per_turn: int = 3
    hand_limit: int = 7
    sets_to_win: int = 3
    debt_collector_amount: int = 5
    birthday_amount: int = 2
    pass_go_draw: int = 2
    house_rent: int = 3
    hotel_rent: int = 4
    # Double the Rent cards one rent card may carry (each is a play). Two stack to x4.
    max_doubles: int = 2
    # Safety limit: a game still running after this many turns (all seats) stops unwon.
    max_turns: int = 1000
    house: HouseRules = HouseRules()

    def validate(self) -> None:
        if len(self.colours) != L.NC:
            raise ValueError(f"rules: exactly {L.NC} colours")
        for c in self.colours:
            if not 1 <= c.set_size <= L.MAX_RENT or len(c.rents) != c.set_size or c.value < 0:
                raise ValueError(f"rules: colour {c.name!r} needs 1 to {L.MAX_RENT} cards and one rent per card")
        positive = ("start_hand", "plays_per_turn", "hand_limit", "sets_to_win", "max_turns")
        for name in positive:
            if getattr(self, name) < 1:
                raise ValueError(f"rules: {name} must be at least 1")
        for name in ("draw", "draw_empty_hand", "debt_collector_amount", "birthday_amount", "pass_go_draw",
                     "house_rent", "hotel_rent", "max_doubles"):
            if getattr(self, name) < 0:
                raise ValueError(f"rules: {name} must not be negative")
        if self.sets_to_win > L.NC:
            raise ValueError(f"rules: sets_to_win must be at most {L.NC}")
        if self.start_hand > 20 or self.draw > 20 or self.draw_empty_hand > 20 or self.pass_go_draw > 20:
            raise ValueError("rules: start_hand, draw, draw_empty_hand and pass_go_draw must be at most 20")
        if self.hand_limit > 20:
            raise ValueError("rules: hand_limit must be at most 20")
        for name, count in self.deck.items():
            card_spec(name)
            if count < 0:
                raise ValueError(f"rules: deck count for {name!r} is negative")
        h = self.house
        for name, choices in HOUSE_CHOICES.items():
            if getattr(h, name) not in choices:
                raise ValueError(f"rules: {name} must be one of {', '.join(choices)} (got {getattr(h, name)!r})")
        self.deck_cards()  # counts and group sizes

    def deck_cards(self, extras: dict[int, dict[str, int]] | None = None) -> list[tuple[str, int]]:
        """(name, seat) of every card in the game: the shared deck (seat -1), sorted by name,
        then each seat's extra cards. Raises ValueError on a deck the layout cannot hold."""
        cards = [(n, -1) for n in sorted(self.deck) for _ in range(self.deck[n])]
        cards += rule_changes.extra_cards(extras, card_spec, "opening hand")
        if len(cards) > L.MAX_CARDS:
            raise ValueError(f"rules: at most {L.MAX_CARDS} cards in a game (got {len(cards)})")
        for ci, col in enumerate(self.colours):
            fits = 0
            for name, _ in cards:
                t, _, c1, c2 = card_spec(name)
                fits += t == WILD_ANY or (t in (PROPERTY, WILD) and ci in (c1, c2))
            if fits > L.MAX_GROUP:
                raise ValueError(f"rules: at most {L.MAX_GROUP} cards may take colour {col.name}")
        shared = sum(1 for _, s in cards if s < 0)
        return cards if shared else _raise("rules: the deck needs at least one card")


def _raise(msg):
    raise ValueError(msg)


def pack(rules: DealRules, n_players: int, deck_edits=None) -> np.ndarray:
    """The rules block the kernel keeps at the head of each game's state (sim/deal/layout.py).
    ``deck_edits`` maps seat -> {card name: copies}: extra cards dealt into that seat's opening
    hand (card-value studies)."""
    rules.validate()
    if not 2 <= n_players <= L.MAX_PLAYERS:
        raise ValueError(f"rules: Monopoly Deal takes 2 to {L.MAX_PLAYERS} players (got {n_players})")
    for seat in deck_edits or {}:
        if not 0 <= seat < n_players:
            raise ValueError(f"deck edit for seat {seat}: seats are 0 to {n_players - 1}")
    cards = rules.deck_cards(deck_edits)
    shared = sum(1 for _, s in cards if s < 0)
    if shared < n_players * rules.start_hand:
        raise ValueError(f"rules: the deck ({shared} cards) is too small to deal {rules.start_hand} to {n_players} players")
    rb = np.zeros(L.RULES_SIZE, np.int32)
    rb[L.R_PLAYERS] = n_players
    rb[L.R_CARDS] = len(cards)
    rb[L.R_DECK] = shared
    rb[L.R_START_HAND] = rules.start_hand
    rb[L.R_DRAW] = rules.draw
    rb[L.R_DRAW_EMPTY] = rules.draw_empty_hand
    rb[L.R_PLAYS] = rules.plays_per_turn
    rb[L.R_HAND_LIMIT] = rules.hand_limit
    rb[L.R_SETS_TO_WIN] = rules.sets_to_win
    rb[L.R_DEBT] = rules.debt_collector_amount
    rb[L.R_BIRTHDAY] = rules.birthday_amount
    rb[L.R_PASS_GO] = rules.pass_go_draw
    rb[L.R_HOUSE_RENT] = rules.house_rent
    rb[L.R_HOTEL_RENT] = rules.hotel_rent
    rb[L.R_MAX_DOUBLES] = rules.max_doubles
    rb[L.R_MAX_TURNS] = rules.max_turns
    h = rules.house
    rb[L.R_WIN_ANY_TURN] = h.win_on_any_turn
    rb[L.R_HOTEL_REPLACES] = h.hotel_replaces_house
    rb[L.R_EXCESS_TO] = EXCESS_CHOICES.index(h.excess_discards)
    rb[L.R_BROKEN_BLD] = BROKEN_CHOICES.index(h.broken_set_buildings)
    rb[L.R_RESHUFFLE] = h.reshuffle_discards
    rb[L.R_COUNTER_USES_PLAY] = h.counter_uses_play
    rb[L.R_NEEDS_PROPERTY] = h.complete_needs_property
    rb[L.R_PAY_BUILDINGS] = h.pay_with_buildings
    rb[L.R_FORCED_FROM_FULL] = h.forced_deal_from_own_set
    for ci, col in enumerate(rules.colours):
        rb[L.R_SET_SIZE + ci] = col.set_size
        rb[L.R_BUILDABLE + ci] = col.buildable
        for k, r in enumerate(col.rents):
            rb[L.R_RENT + ci * L.MAX_RENT + k] = r
    kinds = {name: k for k, name in enumerate(sorted({name for name, _ in cards}))}
    for i, (name, seat) in enumerate(cards):
        t, v, c1, c2 = card_spec(name)
        if t == PROPERTY:
            v = rules.colours[c1].value
        rb[L.R_CARD_TYPE + i] = t
        rb[L.R_CARD_VALUE + i] = v
        rb[L.R_CARD_C1 + i] = c1
        rb[L.R_CARD_C2 + i] = c2
        rb[L.R_CARD_SEAT + i] = seat
        rb[L.R_CARD_KIND + i] = kinds[name]
    return rb


def card_names(rules: DealRules, deck_edits=None) -> list[str]:
    """The name of each card number, as ``pack`` numbers them."""
    return [name for name, _ in rules.deck_cards(deck_edits)]


def describe(rules: DealRules) -> dict:
    """A plain dict of the rules, for manifests and reports."""
    d = dataclasses.asdict(rules)
    d["colours"] = [dataclasses.asdict(c) for c in rules.colours]
    return d


RULES_VERSION = "deal-1"

SCALAR_FIELDS = (
    "start_hand", "draw", "draw_empty_hand", "plays_per_turn", "hand_limit", "sets_to_win",
    "debt_collector_amount", "birthday_amount", "pass_go_draw", "house_rent", "hotel_rent",
    "max_doubles", "max_turns",
)


RULE_PARSERS = (
    {name: int for name in SCALAR_FIELDS}
    | {name: parse_bool for name in HOUSE_RULE_DOC}
    | {name: choice(options) for name, options in HOUSE_CHOICES.items()}
)


def apply_rule_changes(rules: DealRules, changes: list[str]) -> DealRules:
    """Apply 'KEY=VALUE' changes: a scalar field, a house rule (true/false or its choice) or
    ``deck.CARD=COUNT``. Raises UsageError naming the key on any mistake."""
    return rule_changes.apply_rule_changes(rules, changes, RULE_PARSERS)
