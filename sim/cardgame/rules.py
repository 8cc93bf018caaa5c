"""Monopoly: The Card Game: components and house rules as data, for both editions.

The two rule texts describe two editions of one game (docs/cardgame.md). Both are presets of
``CardGameRules``: ``CardGameRules.preset("wiki")`` (the default, Edition A) and
``preset("video")`` (Edition B). Neither text prints the card values or the full deck of the
second edition, so every number here is a documented default, and every point the texts
leave open is a named house rule. The kernel only sees the int32 buffer ``pack`` builds
(layout in sim/cardgame/layout.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from sim.cardgame import layout as L
from sim.core import rule_changes
from sim.core.rule_changes import choice, parse_bool

EDITIONS = ("wiki", "video")
COLOUR_NAMES = ("brown", "light_blue", "pink", "orange", "red", "yellow", "green", "dark_blue", "railroad", "utility")
GROUP_SIZES = (2, 3, 3, 3, 3, 3, 3, 2, 4, 2)
assert len(COLOUR_NAMES) == L.NC


def kind_of(name: str) -> int:
    """The kind code of a card name (see ``rules`` output for the names)."""
    if name in COLOUR_NAMES:
        return L.K_PROP + COLOUR_NAMES.index(name)
    if name == "chance":
        return L.K_WILD
    if name == "house":  # an unnumbered house (the video edition) counts as house 1
        return L.K_HOUSE
    if name.startswith("house") and name[5:] in ("1", "2", "3", "4"):
        return L.K_HOUSE + int(name[5:]) - 1
    if name == "hotel":
        return L.K_HOTEL
    if name.startswith("token_") and name[6:] in COLOUR_NAMES:
        return L.K_TOKEN + COLOUR_NAMES.index(name[6:])
    simple = {"go": L.K_GO, "mr_monopoly": L.K_MRM, "free_parking": L.K_FP, "go_to_jail": L.K_JAIL,
              "jail_free": L.K_JAILFREE, "bonus_double": L.K_DOUBLE}
    if name in simple:
        return simple[name]
    raise ValueError(f"rules: unknown card {name!r}; see `monosim cardgame rules` for the card names")


def kind_names() -> list[str]:
    """A readable name for each kind code."""
    names = list(COLOUR_NAMES) + ["chance"] + [f"house{i}" for i in range(1, 5)] + ["hotel"]
    names += [f"token_{c}" for c in COLOUR_NAMES]
    names += ["go", "mr_monopoly", "free_parking", "go_to_jail", "jail_free", "bonus_double"]
    assert len(names) == L.NK
    return names


KIND_NAMES = kind_names()


def _properties() -> dict[str, int]:
    return dict(zip(COLOUR_NAMES, GROUP_SIZES))


def _wiki_deck() -> dict[str, int]:
    # 28 properties, 15 numbered houses, 2 hotels, 6 tokens, 4 GO, 3 Mr. Monopoly, 2 Chance = 60.
    # The text lists 4 Mr. Monopoly cards, which makes 61; one is dropped (docs/cardgame.md).
    deck = _properties()
    deck.update({"chance": 2, "house1": 4, "house2": 4, "house3": 4, "house4": 3, "hotel": 2})
    for c in ("brown", "light_blue", "pink", "orange", "red", "yellow"):
        deck[f"token_{c}"] = 1
    deck.update({"go": 4, "mr_monopoly": 3})
    return deck


def _video_deck() -> dict[str, int]:
    # Not printed in the text: 28 properties, 2 Chance, 12 houses, 2 hotels, 4 tokens,
    # 5 Free Parking, 5 GO, 1 Go to Jail, 1 Get Out of Jail Free = 60.
    deck = _properties()
    deck.update({"chance": 2, "house": 12, "hotel": 2})
    for c in ("pink", "orange", "red", "yellow"):
        deck[f"token_{c}"] = 1
    deck.update({"free_parking": 5, "go": 5, "go_to_jail": 1, "jail_free": 1})
    return deck


GO_OUT_CHOICES = ("next_turn", "end_of_turn")
EMPTY_DRAW_CHOICES = ("reshuffle", "end_hand")
THREE_PLAYER_CHOICES = ("wiki_moves", "imaginary_pile")
BIG_REWARD_CHOICES = ("tops", "all")


@dataclass(frozen=True)
class HouseRules:
    """Points the texts leave open or where the editions differ; defaults are the wiki
    edition's (``preset('video')`` switches the edition's own)."""

    go_out_when: str = "next_turn"
    chance_zeroes_others: bool = True
    incomplete_groups_score: bool = False
    improvements_only_goer: bool = False
    improvements_one_group: bool = False
    houses_numbered: bool = True
    hotel_needs_four_houses: bool = True
    jail_blocks_going_out: bool = True
    rail_util_count_as_group: bool = True
    free_parking_jackpot: bool = False
    token_needs_group: bool = False
    tokens_are_improvements: bool = False
    mr_monopoly_ties_pay: bool = False
    pre_discard: bool = True
    empty_draw_pile: str = "reshuffle"
    three_players: str = "wiki_moves"
    pass_left: bool = True
    big_table_reward: str = "tops"
    wild_completes_any_group: bool = False


HOUSE_RULE_DOC = {
    "go_out_when": "when a complete hand may go out: next_turn (wiki: announced as the next turn's move) or end_of_turn (video)",
    "chance_zeroes_others": "a Chance card in the hand of anyone but the player who went out makes that hand score 0 (wiki: true)",
    "incomplete_groups_score": "cards of incomplete groups score their per-card value (video: true)",
    "improvements_only_goer": "only the player who went out scores houses, hotels (and tokens if they are improvements) (video: true)",
    "improvements_one_group": "improvements all go onto one chosen group (video: true); false: houses build on every complete group",
    "houses_numbered": "house cards carry numbers 1-4 and must be held in order (wiki: true); false: any houses, at most max_houses",
    "hotel_needs_four_houses": "a hotel counts (and may be held when going out) only over four houses (default: true)",
    "jail_blocks_going_out": "a Go to Jail card blocks going out unless Get Out of Jail Free is held too (default: true)",
    "rail_util_count_as_group": "railroads or utilities alone satisfy 'at least one complete group' (wiki: true, video: false)",
    "free_parking_jackpot": "the Free Parking jackpot: jackpot_add a hand, most Free Parking cards takes it, ties carry it (video: true)",
    "token_needs_group": "a token pays only if its colour group is complete in the same hand (default: false)",
    "tokens_are_improvements": "tokens follow the improvement rules (video: true)",
    "mr_monopoly_ties_pay": "tied holders of the most Mr. Monopoly cards each get the bonus (default: false, nobody does)",
    "pre_discard": "a trading player may first discard one hand card onto their pile (wiki: true)",
    "empty_draw_pile": "an empty draw pile: reshuffle (the piles under their top cards become the draw pile) or end_hand (nobody scores)",
    "three_players": "3 players: wiki_moves (the wiki's two moves with the 4th pile) or imaginary_pile (video: trade with it)",
    "pass_left": "5-6 players (wiki): everyone passes a card left after each round (default: true)",
    "big_table_reward": "5-6 players (wiki): the reward for going out is the top card of every other pile (tops) or all of them (all)",
    "wild_completes_any_group": "a Chance may complete a group of which no real card is held (default: false)",
}
HOUSE_CHOICES = {
    "go_out_when": GO_OUT_CHOICES,
    "empty_draw_pile": EMPTY_DRAW_CHOICES,
    "three_players": THREE_PLAYER_CHOICES,
    "big_table_reward": BIG_REWARD_CHOICES,
}


@dataclass(frozen=True)
class CardGameRules:
    """Everything that defines a match, apart from the players' policies (defaults: wiki)."""

    edition: str = "wiki"
    deck: dict[str, int] = field(default_factory=_wiki_deck)
    # Invented values (the cards print them but the texts do not): docs/cardgame.md.
    group_values: tuple[int, ...] = (100, 150, 200, 250, 300, 350, 400, 500, 400, 200)
    house_values: tuple[int, ...] = (100, 150, 200, 250, 300, 350, 400, 500, 0, 0)
    card_values: tuple[int, ...] = (50, 50, 70, 80, 100, 120, 130, 250, 50, 100)
    railroad_values: tuple[int, ...] = (0, 0, 200, 300, 400)  # by railroads held
    railroad_min: int = 4
    hotel_value: int = 500
    go_value: int = 200
    mr_monopoly_bonus: int = 1000
    free_parking_value: int = 0
    jail_value: int = 0
    jail_free_value: int = 0
    jackpot_add: int = 500
    hand_size: int = 10
    face_up: int = 1  # cards dealt onto each pile
    hand_limit: int = 10
    max_trade: int = 10  # cards in one trade (wiki: any number)
    reward_cards: int = 5
    target: int = 10_000  # first to this much money wins; 0: play n_hands hands
    target_big: int = 7_000  # the target with 5 or 6 players
    n_hands: int = 4
    hand_size_5: int = 11  # 5-6 players: the whole deck is dealt, one trade card each
    hand_size_6: int = 9
    max_houses: int = 0  # 0: no limit
    max_hands: int = 50
    max_turns_hand: int = 300
    house: HouseRules = HouseRules()

    @staticmethod
    def preset(edition: str) -> CardGameRules:
        if edition == "wiki":
            return CardGameRules()
        if edition == "video":
            return CardGameRules(
                edition="video",
                deck=_video_deck(),
                group_values=(60, 100, 140, 180, 220, 260, 300, 400, 0, 150),
                house_values=(30, 50, 70, 90, 110, 130, 150, 200, 0, 0),
                card_values=(20, 25, 35, 45, 55, 65, 75, 150, 25, 50),
                railroad_values=(0, 25, 100, 150, 200),
                railroad_min=2,
                hotel_value=200,
                go_value=100,
                face_up=2,
                max_trade=2,
                reward_cards=0,
                target=0,
                n_hands=4,
                max_houses=4,
                house=HouseRules(
                    go_out_when="end_of_turn", chance_zeroes_others=False, incomplete_groups_score=True,
                    improvements_only_goer=True, improvements_one_group=True, houses_numbered=False,
                    rail_util_count_as_group=False, free_parking_jackpot=True, tokens_are_improvements=True,
                    pre_discard=False, three_players="imaginary_pile",
                ),
            )
        raise ValueError(f"rules: edition must be one of {', '.join(EDITIONS)} (got {edition!r})")

    def replace(self, **changes) -> CardGameRules:
        """A checked copy with top-level fields or house rules (by name) changed; ``edition``
        first swaps in that edition's whole preset, which the other changes then modify."""
        base = self
        if "edition" in changes:
            base = CardGameRules.preset(changes.pop("edition"))
            if "deck" in changes:  # deck edits were made against this edition's deck: redo them on the new one
                old, new = self.deck, changes["deck"]
                deck = dict(base.deck)
                for name in set(old) | set(new):
                    if old.get(name) != new.get(name):
                        deck[name] = new.get(name, 0)
                changes["deck"] = deck
        return rule_changes.RulesMixin.replace(base, **changes)

    def players_allowed(self) -> tuple[int, int]:
        return (3, 6) if self.edition == "wiki" else (2, 4)

    def validate(self) -> None:
        if self.edition not in EDITIONS:
            raise ValueError(f"rules: edition must be one of {', '.join(EDITIONS)}")
        for name in ("group_values", "house_values", "card_values"):
            v = getattr(self, name)
            if len(v) != L.NC or min(v) < 0:
                raise ValueError(f"rules: {name} needs {L.NC} values of 0 or more")
        if len(self.railroad_values) != 5 or min(self.railroad_values) < 0:
            raise ValueError("rules: railroad_values needs 5 values (0 to 4 railroads) of 0 or more")
        if not 1 <= self.railroad_min <= 4:
            raise ValueError("rules: railroad_min must be 1 to 4")
        for name in ("hotel_value", "go_value", "mr_monopoly_bonus", "free_parking_value", "jail_value",
                     "jail_free_value", "jackpot_add", "reward_cards", "target", "target_big", "max_houses"):
            if getattr(self, name) < 0:
                raise ValueError(f"rules: {name} must not be negative")
        for name in ("hand_size", "hand_limit", "max_trade", "n_hands", "hand_size_5", "hand_size_6",
                     "max_hands", "max_turns_hand"):
            if getattr(self, name) < 1:
                raise ValueError(f"rules: {name} must be at least 1")
        if self.face_up < 1:
            raise ValueError("rules: face_up must be at least 1")
        if self.max_hands > L.MAX_HAND_ROWS:
            raise ValueError(f"rules: max_hands must be at most {L.MAX_HAND_ROWS}")
        if self.hand_limit < self.hand_size:
            raise ValueError("rules: hand_limit must be at least hand_size")
        if self.target == 0 and self.n_hands > self.max_hands:
            raise ValueError("rules: n_hands must be at most max_hands")
        h = self.house
        for name, choices in HOUSE_CHOICES.items():
            if getattr(h, name) not in choices:
                raise ValueError(f"rules: {name} must be one of {', '.join(choices)} (got {getattr(h, name)!r})")
        total = 0
        for name, count in self.deck.items():
            kind_of(name)
            if count < 0:
                raise ValueError(f"rules: deck count for {name!r} is negative")
            total += count
        if not 1 <= total <= L.MAX_CARDS:
            raise ValueError(f"rules: the deck must have 1 to {L.MAX_CARDS} cards (got {total})")

    def cards(self) -> list[str]:
        """The name of every card, in card-number order."""
        return [n for n in sorted(self.deck) for _ in range(self.deck[n])]


def big_table(rules: CardGameRules, n_players: int) -> bool:
    """5 and 6 players in the wiki edition: the whole deck is dealt (mandatory trades)."""
    return rules.edition == "wiki" and n_players >= 5


def extra_cards(deck_edits: dict[int, dict[str, int]] | None) -> list[tuple[str, int]]:
    """(name, seat) of each seat's extra cards, numbered after the deck in this order."""
    return rule_changes.extra_cards(deck_edits, kind_of, "hand")


def pack(rules: CardGameRules, n_players: int, deck_edits: dict[int, dict[str, int]] | None = None) -> np.ndarray:
    """The rules buffer the kernel reads. Raises ValueError on an impossible table.
    ``deck_edits`` maps seat -> {card name: copies}: extra cards dealt into that seat's hand at
    the start of every hand, on top of the shared deck's deal (card-value studies)."""
    rules.validate()
    lo, hi = rules.players_allowed()
    if not lo <= n_players <= hi:
        raise ValueError(f"rules: the {rules.edition} edition takes {lo} to {hi} players (got {n_players})")
    h = rules.house
    cards = rules.cards()
    for seat in deck_edits or {}:
        if not 0 <= seat < n_players:
            raise ValueError(f"deck edit for seat {seat}: seats are 0 to {n_players - 1}")
    extras = extra_cards(deck_edits)
    if len(cards) + len(extras) > L.MAX_CARDS:
        raise ValueError(f"rules: at most {L.MAX_CARDS} cards in a match, extra cards included "
                         f"(got {len(cards) + len(extras)})")
    big = big_table(rules, n_players)
    hand = rules.hand_size
    dummies = 0
    if big:
        hand = rules.hand_size_5 if n_players == 5 else rules.hand_size_6
    elif n_players < 4:
        dummies = 4 - n_players
    face_up = 1 if big else rules.face_up
    dealt = n_players * (hand + face_up) + dummies * face_up
    if dealt > len(cards):
        raise ValueError(f"rules: the deck ({len(cards)} cards) is too small to deal {dealt} cards to {n_players} players")
    if max(hand + len(extras), rules.hand_limit) + 2 * rules.max_trade > L.MAX_CARDS:
        raise ValueError("rules: hand_limit (or a hand with its extra cards) plus twice max_trade is too large")
    rb = np.zeros(L.RULES_SIZE, np.int32)
    rb[L.R_PLAYERS] = n_players
    rb[L.R_CARDS] = len(cards) + len(extras)
    rb[L.R_DECK] = len(cards)
    rb[L.R_N_PILES] = n_players + dummies
    rb[L.R_HAND_SIZE] = hand
    rb[L.R_FACE_UP] = face_up
    rb[L.R_HAND_LIMIT] = hand if big else rules.hand_limit
    rb[L.R_MAX_TRADE] = 1 if big else rules.max_trade
    rb[L.R_REWARD] = rules.reward_cards
    rb[L.R_TARGET] = rules.target_big if big and rules.target > 0 else rules.target
    rb[L.R_N_HANDS] = rules.n_hands
    rb[L.R_MAX_HANDS] = rules.max_hands
    rb[L.R_MAX_TURNS_HAND] = rules.max_turns_hand
    rb[L.R_GO_OUT_WHEN] = 1 if big else GO_OUT_CHOICES.index(h.go_out_when)
    rb[L.R_CHANCE_ZERO] = h.chance_zeroes_others
    rb[L.R_INCOMPLETE] = h.incomplete_groups_score
    rb[L.R_IMPR_GOER] = h.improvements_only_goer
    rb[L.R_IMPR_ONE] = h.improvements_one_group
    rb[L.R_HOUSES_NUMBERED] = h.houses_numbered
    rb[L.R_MAX_HOUSES] = rules.max_houses
    rb[L.R_HOTEL_FOUR] = h.hotel_needs_four_houses
    rb[L.R_JAIL_BLOCKS] = h.jail_blocks_going_out
    rb[L.R_RU_GROUP] = h.rail_util_count_as_group
    rb[L.R_RAIL_MIN] = rules.railroad_min
    rb[L.R_JACKPOT] = h.free_parking_jackpot
    rb[L.R_TOKEN_NEEDS] = h.token_needs_group
    rb[L.R_TOKENS_IMPR] = h.tokens_are_improvements
    rb[L.R_MRM_TIES] = h.mr_monopoly_ties_pay
    rb[L.R_PRE_DISCARD] = h.pre_discard
    rb[L.R_EMPTY_DRAW] = EMPTY_DRAW_CHOICES.index(h.empty_draw_pile)
    if dummies:
        rb[L.R_DUMMY_MODE] = 1 if (n_players == 3 and rules.edition == "wiki" and h.three_players == "wiki_moves") else 2
    rb[L.R_BIG] = big
    rb[L.R_PASS_LEFT] = h.pass_left
    rb[L.R_BIG_REWARD] = BIG_REWARD_CHOICES.index(h.big_table_reward)
    rb[L.R_HOTEL_VALUE] = rules.hotel_value
    rb[L.R_GO_VALUE] = rules.go_value
    rb[L.R_MRM_BONUS] = rules.mr_monopoly_bonus
    rb[L.R_JACKPOT_ADD] = rules.jackpot_add
    rb[L.R_FP_VALUE] = rules.free_parking_value
    rb[L.R_JAIL_VALUE] = rules.jail_value
    rb[L.R_JAILFREE_VALUE] = rules.jail_free_value
    rb[L.R_WILD_ANY_GROUP] = h.wild_completes_any_group
    for c in range(L.NC):
        rb[L.R_SIZE + c] = GROUP_SIZES[c]
        rb[L.R_GVAL + c] = rules.group_values[c]
        rb[L.R_HVAL + c] = rules.house_values[c]
        rb[L.R_CVAL + c] = rules.card_values[c]
    for n in range(5):
        rb[L.R_RAIL_VAL + n] = rules.railroad_values[n]
    for i, name in enumerate(cards):
        rb[L.R_KIND + i] = kind_of(name)
    for i, (name, seat) in enumerate(extras, start=len(cards)):
        rb[L.R_KIND + i] = kind_of(name)
        rb[L.R_CARD_SEAT + i] = seat
    return rb


def describe(rules: CardGameRules) -> dict:
    """A plain dict of the rules, for manifests and reports."""
    return dataclasses.asdict(rules)


RULES_VERSION = "cardgame-1"

SCALAR_FIELDS = (
    "railroad_min", "hotel_value", "go_value", "mr_monopoly_bonus", "free_parking_value", "jail_value",
    "jail_free_value", "jackpot_add", "hand_size", "face_up", "hand_limit", "max_trade", "reward_cards", "target",
    "target_big", "n_hands", "hand_size_5", "hand_size_6", "max_houses", "max_hands", "max_turns_hand",
)
TUPLE_FIELDS = ("group_values", "house_values", "card_values", "railroad_values")


def _int_tuple(raw: str) -> tuple[int, ...]:
    return tuple(int(x) for x in str(raw).split(","))


RULE_PARSERS = (
    {"edition": choice(EDITIONS)}
    | {name: int for name in SCALAR_FIELDS}
    | {name: _int_tuple for name in TUPLE_FIELDS}
    | {name: parse_bool for name in HOUSE_RULE_DOC if name not in HOUSE_CHOICES}
    | {name: choice(options) for name, options in HOUSE_CHOICES.items()}
)


def apply_rule_changes(rules: CardGameRules, changes: list[str]) -> CardGameRules:
    """Apply 'KEY=VALUE' changes: ``edition=wiki|video`` (whatever its place: it swaps the whole
    preset the other changes modify), a number, a list of numbers (``group_values=1,2,...``), a
    house rule or ``deck.CARD=COUNT``. Raises UsageError naming the key on any mistake."""
    return rule_changes.apply_rule_changes(rules, changes, RULE_PARSERS)
