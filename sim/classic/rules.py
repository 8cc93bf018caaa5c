"""Classic Monopoly (US edition): board, cards and house rules as data.

The standard US board (40 squares with their prices, rents, house costs and mortgage values),
the 16 Chance and 16 Community Chest cards of the current edition, and every house rule as a
named switch whose default is the official rule. The kernel never sees these objects, only the
int32 buffer that ``pack`` builds (offsets in sim/classic/layout.py); see docs/classic.md for
the rules as simulated and every choice the official text leaves open.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from sim.classic import layout as L
from sim.core import rule_changes
from sim.core.rule_changes import parse_bool

# ---- square kinds ---------------------------------------------------------------------------
GO, STREET, RAILROAD, UTILITY, CHANCE, CHEST, TAX, JAIL, FREE_PARKING, GO_TO_JAIL = range(10)
KIND_NAMES = ("go", "street", "railroad", "utility", "chance", "community_chest", "tax", "jail",
              "free_parking", "go_to_jail")

# ---- colour groups (railroads and utilities are groups too, without buildings) -------------
GROUP_NAMES = ("brown", "light_blue", "pink", "orange", "red", "yellow", "green", "dark_blue",
               "railroads", "utilities")
RAILROADS_GROUP, UTILITIES_GROUP = 8, 9
NO_GROUP = -1


@dataclass(frozen=True)
class Square:
    name: str
    kind: str  # one of KIND_NAMES
    group: str = ""  # one of GROUP_NAMES for deeds
    price: int = 0  # purchase price; the amount due on a tax square
    rents: tuple[int, ...] = ()  # streets: base, 1-4 houses, hotel
    house_cost: int = 0  # streets: price of one house (a hotel costs the same plus 4 houses)
    mortgage: int = 0  # mortgage value printed on the deed


def _street(name, group, price, rents, house, mortgage):
    return Square(name, "street", group, price, rents, house, mortgage)


def _rail(name):
    return Square(name, "railroad", "railroads", 200, (), 0, 100)


def _util(name):
    return Square(name, "utility", "utilities", 150, (), 0, 75)


# The standard US board, GO = 0, clockwise.
US_BOARD = (
    Square("GO", "go"),
    _street("Mediterranean Avenue", "brown", 60, (2, 10, 30, 90, 160, 250), 50, 30),
    Square("Community Chest", "community_chest"),
    _street("Baltic Avenue", "brown", 60, (4, 20, 60, 180, 320, 450), 50, 30),
    Square("Income Tax", "tax", price=200),
    _rail("Reading Railroad"),
    _street("Oriental Avenue", "light_blue", 100, (6, 30, 90, 270, 400, 550), 50, 50),
    Square("Chance", "chance"),
    _street("Vermont Avenue", "light_blue", 100, (6, 30, 90, 270, 400, 550), 50, 50),
    _street("Connecticut Avenue", "light_blue", 120, (8, 40, 100, 300, 450, 600), 50, 60),
    Square("Jail / Just Visiting", "jail"),
    _street("St. Charles Place", "pink", 140, (10, 50, 150, 450, 625, 750), 100, 70),
    _util("Electric Company"),
    _street("States Avenue", "pink", 140, (10, 50, 150, 450, 625, 750), 100, 70),
    _street("Virginia Avenue", "pink", 160, (12, 60, 180, 500, 700, 900), 100, 80),
    _rail("Pennsylvania Railroad"),
    _street("St. James Place", "orange", 180, (14, 70, 200, 550, 750, 950), 100, 90),
    Square("Community Chest", "community_chest"),
    _street("Tennessee Avenue", "orange", 180, (14, 70, 200, 550, 750, 950), 100, 90),
    _street("New York Avenue", "orange", 200, (16, 80, 220, 600, 800, 1000), 100, 100),
    Square("Free Parking", "free_parking"),
    _street("Kentucky Avenue", "red", 220, (18, 90, 250, 700, 875, 1050), 150, 110),
    Square("Chance", "chance"),
    _street("Indiana Avenue", "red", 220, (18, 90, 250, 700, 875, 1050), 150, 110),
    _street("Illinois Avenue", "red", 240, (20, 100, 300, 750, 925, 1100), 150, 120),
    _rail("B. & O. Railroad"),
    _street("Atlantic Avenue", "yellow", 260, (22, 110, 330, 800, 975, 1150), 150, 130),
    _street("Ventnor Avenue", "yellow", 260, (22, 110, 330, 800, 975, 1150), 150, 130),
    _util("Water Works"),
    _street("Marvin Gardens", "yellow", 280, (24, 120, 360, 850, 1025, 1200), 150, 140),
    Square("Go To Jail", "go_to_jail"),
    _street("Pacific Avenue", "green", 300, (26, 130, 390, 900, 1100, 1275), 200, 150),
    _street("North Carolina Avenue", "green", 300, (26, 130, 390, 900, 1100, 1275), 200, 150),
    Square("Community Chest", "community_chest"),
    _street("Pennsylvania Avenue", "green", 320, (28, 150, 450, 1000, 1200, 1400), 200, 160),
    _rail("Short Line"),
    Square("Chance", "chance"),
    _street("Park Place", "dark_blue", 350, (35, 175, 500, 1100, 1300, 1500), 200, 175),
    Square("Luxury Tax", "tax", price=100),
    _street("Boardwalk", "dark_blue", 400, (50, 200, 600, 1400, 1700, 2000), 200, 200),
)
JAIL_SQUARE = 10  # In Jail and Just Visiting share this square
IN_JAIL = 40  # the landing analyses report In Jail as square 40

# ---- cards ----------------------------------------------------------------------------------
# A card is (effect, a, b). The kernel branches on the effect's index in CARD_EFFECTS.
CARD_EFFECTS = {
    "advance": "advance to square a, collecting the salary when passing GO",
    "nearest_railroad": "advance to the nearest railroad ahead; unowned: may buy; owned: pay a x the rent",
    "nearest_utility": "advance to the nearest utility ahead; unowned: may buy; owned: roll and pay a x the dice",
    "collect": "collect a from the bank",
    "pay": "pay a to the bank (to the pot under the Free Parking jackpot)",
    "get_out_of_jail": "Get Out of Jail Free: keep (or trade) it until used, then it goes under its deck",
    "back": "move back a squares (no salary), then act on the square",
    "go_to_jail": "go directly to jail, not passing GO",
    "repairs": "pay a per house and b per hotel",
    "pay_each": "pay a to every other player",
    "collect_each": "collect a from every other player",
}
EFFECT_NAMES = tuple(CARD_EFFECTS)
(
    FX_ADVANCE,
    FX_NEAREST_RR,
    FX_NEAREST_UTIL,
    FX_COLLECT,
    FX_PAY,
    FX_GOOJF,
    FX_BACK,
    FX_JAIL,
    FX_REPAIRS,
    FX_PAY_EACH,
    FX_COLLECT_EACH,
) = range(len(EFFECT_NAMES))


@dataclass(frozen=True)
class Card:
    text: str
    effect: str
    a: int = 0
    b: int = 0


# Current US edition (2008 graphic redesign onwards).
CHANCE_CARDS = (
    Card("Advance to Boardwalk", "advance", 39),
    Card("Advance to Go (Collect $200)", "advance", 0),
    Card("Advance to Illinois Avenue. If you pass Go, collect $200", "advance", 24),
    Card("Advance to St. Charles Place. If you pass Go, collect $200", "advance", 11),
    Card("Advance to the nearest Railroad; pay the owner twice the rental", "nearest_railroad", 2),
    Card("Advance to the nearest Railroad; pay the owner twice the rental", "nearest_railroad", 2),
    Card("Advance to the nearest Utility; if owned, throw dice and pay ten times the amount thrown",
         "nearest_utility", 10),
    Card("Bank pays you dividend of $50", "collect", 50),
    Card("Get Out of Jail Free", "get_out_of_jail"),
    Card("Go Back 3 Spaces", "back", 3),
    Card("Go to Jail. Go directly to Jail, do not pass Go, do not collect $200", "go_to_jail"),
    Card("Make general repairs on all your property: $25 per house, $100 per hotel", "repairs", 25, 100),
    Card("Speeding fine $15", "pay", 15),
    Card("Take a trip to Reading Railroad. If you pass Go, collect $200", "advance", 5),
    Card("You have been elected Chairman of the Board. Pay each player $50", "pay_each", 50),
    Card("Your building loan matures. Collect $150", "collect", 150),
)
CHEST_CARDS = (
    Card("Advance to Go (Collect $200)", "advance", 0),
    Card("Bank error in your favor. Collect $200", "collect", 200),
    Card("Doctor's fee. Pay $50", "pay", 50),
    Card("From sale of stock you get $50", "collect", 50),
    Card("Get Out of Jail Free", "get_out_of_jail"),
    Card("Go to Jail. Go directly to jail, do not pass Go, do not collect $200", "go_to_jail"),
    Card("Holiday fund matures. Receive $100", "collect", 100),
    Card("Income tax refund. Collect $20", "collect", 20),
    Card("It is your birthday. Collect $10 from every player", "collect_each", 10),
    Card("Life insurance matures. Collect $100", "collect", 100),
    Card("Pay hospital fees of $100", "pay", 100),
    Card("Pay school fees of $50", "pay", 50),
    Card("Receive $25 consultancy fee", "collect", 25),
    Card("You are assessed for street repair: $40 per house, $115 per hotel", "repairs", 40, 115),
    Card("You have won second prize in a beauty contest. Collect $10", "collect", 10),
    Card("You inherit $100", "collect", 100),
)


# ---- house rules ----------------------------------------------------------------------------
@dataclass(frozen=True)
class HouseRules:
    """Named switches; every default is the official rule."""

    # Taxes, card fees and jail fines go into a pot on Free Parking; landing there takes it.
    free_parking_jackpot: bool = False
    # Money the bank puts into the pot at the start and after each collection (jackpot only).
    free_parking_seed: int = 0
    # An unbought property is auctioned (official). False: it stays with the bank.
    auctions: bool = True
    # Landing exactly on GO pays twice the salary.
    double_go_salary: bool = False
    # Houses must be built and sold evenly across a colour group (official).
    even_building: bool = True
    # Owners in jail still collect rent (official). False: no rent while in jail.
    rent_in_jail: bool = True
    # A third double in one turn sends the player to jail (official).
    speeding: bool = True
    # Players may trade (official). False: no trades at all.
    trading: bool = True
    # Properties of a player bankrupt to the bank are auctioned (official). False: they
    # return to the bank unowned, to be bought by the next lander.
    bankrupt_auction: bool = True
    # Nobody may buy property before passing GO once.
    first_lap_no_buying: bool = False
    # The pre-2008 Income Tax choice: pay the flat tax or 10% of net worth, whichever is less.
    income_tax_percent: bool = False
    # Rolling double ones pays this bonus (0: off).
    snake_eyes_bonus: int = 0
    # Unimproved streets of a complete group charge double rent (official). False: base rent.
    double_rent_on_monopoly: bool = True
    # Building, lifting mortgages and trading "at any time" (official): every player gets a
    # window for them after each turn. False: only on one's own turn (a common simplification).
    deal_any_time: bool = True


HOUSE_RULE_DOC = {
    "free_parking_jackpot": "taxes, card fees and jail fines go to a pot that Free Parking pays out (default: off)",
    "free_parking_seed": "money the bank adds to the pot at the start and after each payout (default: 0)",
    "auctions": "an unbought property is auctioned among all players (default: on; off: it stays with the bank)",
    "double_go_salary": "landing exactly on GO pays twice the salary (default: off)",
    "even_building": "build and sell houses evenly within a group (default: on)",
    "rent_in_jail": "players in jail still collect rent (default: on)",
    "speeding": "a third double in one turn goes to jail (default: on)",
    "trading": "players may trade properties, cash and jail cards (default: on)",
    "bankrupt_auction": "a bankrupt-to-bank player's deeds are auctioned (default: on; off: back to the bank)",
    "first_lap_no_buying": "no buying until a player has passed GO once (default: off)",
    "income_tax_percent": "Income Tax is the flat amount or 10% of net worth, whichever is less (default: off)",
    "snake_eyes_bonus": "bonus paid for rolling double ones (default: 0, off)",
    "double_rent_on_monopoly": "unimproved streets of a complete group charge double rent (default: on)",
    "deal_any_time": "every player may build, lift mortgages and trade after any turn (default: on; off: own turn only)",
}


@dataclass(frozen=True)
class ClassicRules(rule_changes.RulesMixin):
    """Everything that defines a game of classic Monopoly, apart from the players' policies."""

    board: tuple[Square, ...] = US_BOARD
    chance: tuple[Card, ...] = CHANCE_CARDS
    chest: tuple[Card, ...] = CHEST_CARDS
    railroad_rents: tuple[int, ...] = (25, 50, 100, 200)  # by railroads owned
    utility_multipliers: tuple[int, ...] = (4, 10)  # by utilities owned
    starting_cash: int = 1500
    salary: int = 200
    jail_fine: int = 50
    jail_turns: int = 3  # rolls for doubles before the fine is forced
    houses: int = 32
    hotels: int = 12
    mortgage_interest_pct: int = 10
    building_sell_pct: int = 50
    auction_min_bid: int = 10  # the text: bidding starts at 10 and rises by at least 1
    auction_step: int = 1
    # Safety limit: a game still running after this many rounds stops; the richest player (by
    # net worth) wins and the game is flagged.
    max_rounds: int = 500
    house: HouseRules = HouseRules()

    def validate(self) -> None:
        if len(self.board) != L.N_SQ:
            raise ValueError(f"rules: the board must have {L.N_SQ} squares")
        kinds = [s.kind for s in self.board]
        for s in self.board:
            if s.kind not in KIND_NAMES:
                raise ValueError(f"rules: square {s.name!r} has unknown kind {s.kind!r}")
            if s.kind in ("street", "railroad", "utility"):
                if s.group not in GROUP_NAMES:
                    raise ValueError(f"rules: square {s.name!r} has unknown group {s.group!r}")
                if s.price <= 0 or s.mortgage < 0:
                    raise ValueError(f"rules: square {s.name!r} needs a positive price")
            if s.kind == "street" and (len(s.rents) != 6 or s.house_cost <= 0):
                raise ValueError(f"rules: street {s.name!r} needs 6 rents and a house cost")
        if kinds[0] != "go" or kinds[JAIL_SQUARE] != "jail" or kinds.count("go_to_jail") != 1:
            raise ValueError("rules: GO must be square 0, Jail square 10, and one Go To Jail square")
        for g in GROUP_NAMES:
            n = sum(s.group == g for s in self.board)
            if n > L.MAX_GROUP:
                raise ValueError(f"rules: group {g} has more than {L.MAX_GROUP} squares")
        if len(self.railroad_rents) != sum(k == "railroad" for k in kinds):
            raise ValueError("rules: one railroad rent per railroad on the board")
        if len(self.utility_multipliers) != sum(k == "utility" for k in kinds):
            raise ValueError("rules: one utility multiplier per utility on the board")
        for name, deck in (("chance", self.chance), ("chest", self.chest)):
            if not 1 <= len(deck) <= L.MAX_CARDS:
                raise ValueError(f"rules: the {name} deck needs 1 to {L.MAX_CARDS} cards")
            if sum(c.effect == "get_out_of_jail" for c in deck) > 1:
                raise ValueError(f"rules: at most one Get Out of Jail Free card per deck ({name})")
            for c in deck:
                if c.effect not in CARD_EFFECTS:
                    raise ValueError(f"rules: unknown card effect {c.effect!r}; known: {', '.join(EFFECT_NAMES)}")
                if c.effect in ("advance", "back") and not 0 <= c.a < L.N_SQ:
                    raise ValueError(f"rules: card {c.text!r} moves to a square off the board")
                if c.effect in ("nearest_railroad", "nearest_utility") and not 0 <= c.a <= 999:
                    raise ValueError(f"rules: card {c.text!r}: the multiplier must be 0 to 999")
                if not (0 <= c.a <= 1_000_000 and 0 <= c.b <= 1_000_000):
                    raise ValueError(f"rules: card {c.text!r}: amounts must be 0 to 1000000")
        for name in ("starting_cash", "salary", "jail_fine", "houses", "hotels", "mortgage_interest_pct",
                     "building_sell_pct", "auction_min_bid"):
            if getattr(self, name) < 0:
                raise ValueError(f"rules: {name} must not be negative")
        if self.auction_step < 1:
            raise ValueError("rules: auction_step must be at least 1")
        if not 1 <= self.jail_turns <= 10:
            raise ValueError("rules: jail_turns must be 1 to 10")
        if not 1 <= self.max_rounds <= 100_000:
            raise ValueError("rules: max_rounds must be 1 to 100000")
        if self.starting_cash > 1_000_000 or self.salary > 100_000:
            raise ValueError("rules: starting_cash at most 1000000 and salary at most 100000")
        if self.house.free_parking_seed < 0 or self.house.snake_eyes_bonus < 0:
            raise ValueError("rules: free_parking_seed and snake_eyes_bonus must not be negative")

    def deed_squares(self) -> list[int]:
        return [i for i, s in enumerate(self.board) if s.kind in ("street", "railroad", "utility")]


def square_index(rules: ClassicRules, name: str) -> int:
    """Square index for a name (case-insensitive; 'in jail' is 40) or a number."""
    key = name.strip().lower()
    if key.isdigit():
        i = int(key)
        if 0 <= i <= IN_JAIL:
            return i
    if key in ("in jail", "jail"):
        return IN_JAIL
    if key == "just visiting":  # the name the landing table prints for square 10
        return JAIL_SQUARE
    for i, s in enumerate(rules.board):
        if s.name.lower() == key:
            return i
    raise ValueError(f"unknown square {name!r}")


def pack(rules: ClassicRules, n_players: int) -> np.ndarray:
    """The int32 rules buffer the kernel reads (layout in sim/classic/layout.py)."""
    rules.validate()
    if not L.MIN_PLAYERS <= n_players <= L.MAX_PLAYERS:
        raise ValueError(
            f"rules: classic Monopoly takes {L.MIN_PLAYERS} to {L.MAX_PLAYERS} players (got {n_players})"
        )
    h = rules.house
    rb = np.zeros(L.RULES_SIZE, np.int32)
    rb[L.R_PLAYERS] = n_players
    rb[L.R_START_CASH] = rules.starting_cash
    rb[L.R_SALARY] = rules.salary
    rb[L.R_GO_LAND_BONUS] = rules.salary if h.double_go_salary else 0
    rb[L.R_JAIL_FINE] = rules.jail_fine
    rb[L.R_JAIL_TURNS] = rules.jail_turns
    rb[L.R_HOUSES] = rules.houses
    rb[L.R_HOTELS] = rules.hotels
    rb[L.R_MAX_ROUNDS] = rules.max_rounds
    rb[L.R_INTEREST_PCT] = rules.mortgage_interest_pct
    rb[L.R_SELL_PCT] = rules.building_sell_pct
    rb[L.R_AUCTION_MIN] = rules.auction_min_bid
    rb[L.R_AUCTION_STEP] = rules.auction_step
    rb[L.R_FP_JACKPOT] = h.free_parking_jackpot
    rb[L.R_FP_SEED] = h.free_parking_seed if h.free_parking_jackpot else 0
    rb[L.R_AUCTIONS] = h.auctions
    rb[L.R_EVEN_BUILD] = h.even_building
    rb[L.R_RENT_IN_JAIL] = h.rent_in_jail
    rb[L.R_SPEEDING] = h.speeding
    rb[L.R_TRADING] = h.trading
    rb[L.R_BANKRUPT_AUCTION] = h.bankrupt_auction
    rb[L.R_FIRST_LAP] = h.first_lap_no_buying
    rb[L.R_INCOME_PCT] = h.income_tax_percent
    rb[L.R_SNAKE_EYES] = h.snake_eyes_bonus
    rb[L.R_MONO_MULT] = 2 if h.double_rent_on_monopoly else 1
    rb[L.R_ANY_TIME] = h.deal_any_time
    rb[L.R_INCOME_SQ] = next((i for i, s in enumerate(rules.board) if s.name == "Income Tax"), -1)
    for k, r in enumerate(rules.railroad_rents):
        rb[L.R_RR_RENT + k] = r
    for k, m in enumerate(rules.utility_multipliers):
        rb[L.R_UTIL_MULT + k] = m
    group_members: dict[int, list[int]] = {g: [] for g in range(L.N_GROUPS)}
    for i, s in enumerate(rules.board):
        kind = KIND_NAMES.index(s.kind)
        rb[L.R_SQ_KIND + i] = kind
        g = GROUP_NAMES.index(s.group) if s.group else NO_GROUP
        rb[L.R_SQ_GROUP + i] = g
        rb[L.R_SQ_PRICE + i] = s.price
        rb[L.R_SQ_HOUSE + i] = s.house_cost
        rb[L.R_SQ_MORTGAGE + i] = s.mortgage
        for k, r in enumerate(s.rents):
            rb[L.R_SQ_RENT + i * 6 + k] = r
        if g >= 0:
            rb[L.R_SQ_SLOT + i] = len(group_members[g])
            group_members[g].append(i)
    for g, members in group_members.items():
        rb[L.R_GROUP_SIZE + g] = len(members)
        for k, i in enumerate(members):
            rb[L.R_GROUP_SQ + g * L.MAX_GROUP + k] = i
        rb[L.R_GROUP_STREETS + g] = int(bool(members) and rules.board[members[0]].kind == "street")
    for i in range(L.N_SQ):
        rb[L.R_NEXT_RR + i] = _nearest(rules, i, "railroad")
        rb[L.R_NEXT_UTIL + i] = _nearest(rules, i, "utility")
    for d, deck in enumerate((rules.chance, rules.chest)):
        rb[L.R_DECK_SIZE + d] = len(deck)
        rb[L.R_GOOJF_CARD + d] = -1
        for k, c in enumerate(deck):
            rb[L.R_CARD_FX + d * L.MAX_CARDS + k] = EFFECT_NAMES.index(c.effect)
            rb[L.R_CARD_A + d * L.MAX_CARDS + k] = c.a
            rb[L.R_CARD_B + d * L.MAX_CARDS + k] = c.b
            if c.effect == "get_out_of_jail":
                rb[L.R_GOOJF_CARD + d] = k
    return rb


def _nearest(rules: ClassicRules, i: int, kind: str) -> int:
    for step in range(1, L.N_SQ + 1):
        j = (i + step) % L.N_SQ
        if rules.board[j].kind == kind:
            return j
    return -1


def describe(rules: ClassicRules) -> dict:
    """A plain dict of the rules, for manifests and reports."""
    return dataclasses.asdict(rules)


RULES_VERSION = "classic-2"
SCALAR_FIELDS = ("starting_cash", "salary", "jail_fine", "jail_turns", "houses", "hotels",
                 "mortgage_interest_pct", "building_sell_pct", "auction_min_bid", "auction_step", "max_rounds")
INT_HOUSE_RULES = ("free_parking_seed", "snake_eyes_bonus")


RULE_PARSERS = {name: parse_bool for name in HOUSE_RULE_DOC} | {name: int for name in SCALAR_FIELDS + INT_HOUSE_RULES}


def apply_rule_changes(rules: ClassicRules, changes: list[str]) -> ClassicRules:
    """Apply 'KEY=VALUE' changes: a scalar field or a house rule (true/false or an amount).
    Raises UsageError naming the key on any mistake."""
    return rule_changes.apply_rule_changes(rules, changes, RULE_PARSERS)
