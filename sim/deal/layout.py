"""Memory layout of a Monopoly Deal game, shared by the kernel, the board queries and the bots.

A game is one flat int32 array ``S`` (see docs/architecture.md for why): the rules block
(``RB``, as rules.pack returns it) and the seats' bot kinds at its head, then the state; the
names below are offsets into it, and every maximum is a module constant so every offset is a
compile-time constant. The rules share the state's array so that the many calls of
the compiled functions pass fewer arrays (each array argument is seven machine words).

Cards are numbered 0 .. n_cards - 1 (the shared deck first, then any extra cards a seat is
dealt for a card-value study). Every card is in exactly one list: the draw pile, the discard
pile, a hand, a bank, a property group, or on a set as a building. ``WHERE``, ``OWNER``,
``GROUP`` and ``POS`` say which list and where in it, so a card leaves any list in O(1).

A player's collection is split into property groups, one per colour plus ``LOOSE``: the
any-colour wilds that have no ordinary property to stand with (they wait there until one
comes; they count for nothing).

The blocks are declared field by field (sim/core/layout.py), which hands out the offsets and
reads a state back by name: ``STATE.decode(S)["G_CURRENT"]``.
"""

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from sim.core.jit import njit_no_refcount, or_python
from sim.core.layout import Layout

MAX_PLAYERS = 5
MAX_CARDS = 160  # cards in a game, shared deck plus every seat's extra cards
NC = 10  # colours
LOOSE = NC  # the pseudo-colour of homeless any-colour wilds
NG = NC + 1  # property groups per player
MAX_GROUP = 24  # cards in one group (validated against the deck in rules.pack)
MAX_HAND = 48
MAX_RENT = 8  # rent steps per colour (a set of at most this many cards)
N_STREAMS = 1 + MAX_PLAYERS  # the table (shuffles), each seat's policy
MAX_SCRATCH = MAX_CARDS

# Card locations (WHERE).
DRAW, DISCARD, HAND, BANK, PROP, BUILDING = range(6)
# How a card is played (strategies/deal.py choose_play): to the bank, to the collection, for its action.
M_BANK, M_PLACE, M_ACTION = range(3)

# ---- rules block RB, S[0:RULES_SIZE] --------------------------------------------------------
RULES = Layout("rules", start=0)
R_PLAYERS = RULES.field("R_PLAYERS")
R_CARDS = RULES.field("R_CARDS")  # cards in the game
R_DECK = RULES.field("R_DECK")  # cards in the shared deck (the first R_DECK card numbers)
R_START_HAND = RULES.field("R_START_HAND")
R_DRAW = RULES.field("R_DRAW")
R_DRAW_EMPTY = RULES.field("R_DRAW_EMPTY")
R_PLAYS = RULES.field("R_PLAYS")
R_HAND_LIMIT = RULES.field("R_HAND_LIMIT")
R_SETS_TO_WIN = RULES.field("R_SETS_TO_WIN")
R_DEBT = RULES.field("R_DEBT")
R_BIRTHDAY = RULES.field("R_BIRTHDAY")
R_PASS_GO = RULES.field("R_PASS_GO")
R_HOUSE_RENT = RULES.field("R_HOUSE_RENT")
R_HOTEL_RENT = RULES.field("R_HOTEL_RENT")
R_MAX_DOUBLES = RULES.field("R_MAX_DOUBLES")
R_MAX_TURNS = RULES.field("R_MAX_TURNS")
# house rules (0/1 or a choice index)
R_WIN_ANY_TURN = RULES.field("R_WIN_ANY_TURN")
R_HOTEL_REPLACES = RULES.field("R_HOTEL_REPLACES")
R_EXCESS_TO = RULES.field("R_EXCESS_TO")  # 0 discard pile, 1 bottom of the draw pile
R_BROKEN_BLD = RULES.field("R_BROKEN_BLD")  # 0 bank, 1 may move on own turn (else bank), 2 may move on any turn
R_RESHUFFLE = RULES.field("R_RESHUFFLE")
R_COUNTER_USES_PLAY = RULES.field("R_COUNTER_USES_PLAY")
R_NEEDS_PROPERTY = RULES.field("R_NEEDS_PROPERTY")
R_PAY_BUILDINGS = RULES.field("R_PAY_BUILDINGS")
R_FORCED_FROM_FULL = RULES.field("R_FORCED_FROM_FULL")
R_SET_SIZE = RULES.field("R_SET_SIZE", NC, at=32)  # [c]
R_BUILDABLE = RULES.field("R_BUILDABLE", NC)  # [c]
R_RENT = RULES.field("R_RENT", NC, MAX_RENT)  # [c * MAX_RENT + k]: rent for k + 1 cards
R_CARD_TYPE = RULES.field("R_CARD_TYPE", MAX_CARDS)  # [card]
R_CARD_VALUE = RULES.field("R_CARD_VALUE", MAX_CARDS)
R_CARD_C1 = RULES.field("R_CARD_C1", MAX_CARDS)  # colour of a property; first colour of a wild / rent
R_CARD_C2 = RULES.field("R_CARD_C2", MAX_CARDS)  # second colour of a two-colour wild / rent, else -1
R_CARD_SEAT = RULES.field("R_CARD_SEAT", MAX_CARDS)  # -1: shared deck; s: an extra card dealt to seat s
R_CARD_KIND = RULES.field("R_CARD_KIND", MAX_CARDS)  # equal for cards of the same name (bots value them alike)
# [p]: seat p's bot kind (strategies/deal.py), written by kernel.new_state (rules.pack leaves 0)
R_KIND = RULES.field("R_KIND", MAX_PLAYERS)
RULES_SIZE = RULES.end

# ---- state, S[RULES_SIZE:STATE_SIZE] --------------------------------------------------------
STATE = Layout("state", start=RULES_SIZE)
WHERE = STATE.field("WHERE", MAX_CARDS)  # [card]
OWNER = STATE.field("OWNER", MAX_CARDS)  # [card]: seat, -1 in the piles
GROUP = STATE.field("GROUP", MAX_CARDS)  # [card]: group of a property, colour of a building, else -1
POS = STATE.field("POS", MAX_CARDS)  # [card]: index in its list (the building slot for a building)
DRAW_PILE = STATE.field("DRAW_PILE", MAX_CARDS)  # top at DRAW_N - 1
DRAW_N = STATE.field("DRAW_N")
DISC_PILE = STATE.field("DISC_PILE", MAX_CARDS)  # order does not matter: it is shuffled before reuse
DISC_N = STATE.field("DISC_N")
HAND_ = STATE.field("HAND_", MAX_PLAYERS, MAX_HAND)  # [p * MAX_HAND + k]
HAND_N = STATE.field("HAND_N", MAX_PLAYERS)  # [p]
BANK_ = STATE.field("BANK_", MAX_PLAYERS, MAX_CARDS)  # [p * MAX_CARDS + k]
BANK_N = STATE.field("BANK_N", MAX_PLAYERS)  # [p]
BANK_VAL = STATE.field("BANK_VAL", MAX_PLAYERS)  # [p]
GRP = STATE.field("GRP", MAX_PLAYERS, NG, MAX_GROUP)  # [(p * NG + g) * MAX_GROUP + k]
GRP_N = STATE.field("GRP_N", MAX_PLAYERS, NG)  # [p * NG + g]
GRP_ORD = STATE.field("GRP_ORD", MAX_PLAYERS, NG)  # [p * NG + g]: ordinary (single-colour) properties
GRP_VAL = STATE.field("GRP_VAL", MAX_PLAYERS, NG)  # [p * NG + g]: printed values summed
HOUSE = STATE.field("HOUSE", MAX_PLAYERS, NC)  # [p * NC + c]: the House card on the set, -1 when none
HOTEL = STATE.field("HOTEL", MAX_PLAYERS, NC)  # [p * NC + c]
COUNTED_MASK = STATE.field("COUNTED_MASK", MAX_PLAYERS)  # [p]: COMPLETE_MASK when sets_made was last counted
# Caches kept in step by the kernel's card moves (checked by check_invariants):
COMPLETE = STATE.field("COMPLETE", MAX_PLAYERS, NC)  # [p * NC + c]: 1 while the set is complete
NCOMP = STATE.field("NCOMP", MAX_PLAYERS)  # [p]: complete sets
PAYV = STATE.field("PAYV", MAX_PLAYERS)  # [p]: what p could pay with (bank, properties, buildings if allowed)
# A counter bumped whenever a card joins or leaves seat p's collection or buildings, and its
# value when p's wild arrangement (or the repair of its collection) was last found to need no
# change: doing it again with the counter unchanged would find the same, as neither reads
# anything else that varies in a game.
COLL_VER = STATE.field("COLL_VER", MAX_PLAYERS)  # [p]
ARRANGED_VER = STATE.field("ARRANGED_VER", MAX_PLAYERS)  # [p], -1 when unknown
REPAIRED_VER = STATE.field("REPAIRED_VER", MAX_PLAYERS)  # [p]: the same for kernel.repair finding nothing to do
ANY_WILDS = STATE.field("ANY_WILDS", MAX_PLAYERS)  # [p]: any-colour wilds in p's collection
BUILDINGS = STATE.field("BUILDINGS", MAX_PLAYERS)  # [p]: Houses and Hotels on p's sets
# The colours the wilds of p's last plan that moved nothing may stand in (all colours for an
# any-colour wild), valid while ARRANGED_VER[p] is: an ordinary property of another colour
# joining or leaving p's collection leaves that plan as it was (kernel.keep_plan).
ARRANGED_COLOURS = STATE.field("ARRANGED_COLOURS", MAX_PLAYERS)  # [p]
# Counters bumped whenever a card joins or leaves seat p's group of colour c, and whenever
# "one more complete set would win" changes for p (keys of the placing memo,
# strategies/deal.py placing_key: the only way a gain reads p's count of complete sets).
GRP_VER = STATE.field("GRP_VER", MAX_PLAYERS, NC)  # [p * NC + c]
NEAR_WIN_VER = STATE.field("NEAR_WIN_VER", MAX_PLAYERS)  # [p]
# Bit masks kept by the card moves, so that the scans over a seat's groups visit only the set
# bits without reading every group first: bit g while p's group g holds a card (HELD_MASK),
# holds a card that is not an ordinary property (WILD_MASK), holds an ordinary property
# (ORD_MASK), bit c while p's set of colour c is complete (COMPLETE_MASK, the COMPLETE flags as
# one word).
HELD_MASK = STATE.field("HELD_MASK", MAX_PLAYERS)  # [p]
WILD_MASK = STATE.field("WILD_MASK", MAX_PLAYERS)  # [p]
ORD_MASK = STATE.field("ORD_MASK", MAX_PLAYERS)  # [p]
COMPLETE_MASK = STATE.field("COMPLETE_MASK", MAX_PLAYERS)  # [p]
# What a Sly Deal (f = 0) or Forced Deal (f = 1) would gain seat p (strategies/deal.py
# steal_option), remembered while no seat's collection changed:
# [(2 * p + f) * STEAL_MEMO_SIZE + j], j = 0: the sum of every seat's COLL_VER + 1 (0: nothing
# yet), 1-2: the score (a float64, see store_float), 3: their card, 4: my card, 5: the target.
STEAL_MEMO_SIZE = 6
STEAL_MEMO = STATE.field("STEAL_MEMO", MAX_PLAYERS, 2, STEAL_MEMO_SIZE)
# scalars
G_CURRENT = STATE.field("G_CURRENT")
G_PLAYS_LEFT = STATE.field("G_PLAYS_LEFT")
G_WINNER = STATE.field("G_WINNER")  # -1 until someone wins
G_WIN_OWN_TURN = STATE.field("G_WIN_OWN_TURN")
G_STATUS = STATE.field("G_STATUS")
G_RESHUFFLES = STATE.field("G_RESHUFFLES")
G_TURN = STATE.field("G_TURN")  # turns played so far
G_SETS_CHANGED = STATE.field("G_SETS_CHANGED")  # 1 when a COMPLETE flag changed since note_sets last looked
G_AT_WIN = STATE.field("G_AT_WIN")  # seats holding enough complete sets to win (check_win looks only then)
G_QUIET = STATE.field("G_QUIET")  # turns in a row that began and ended with no card left to draw or play
G_SKIP_DRAW = STATE.field("G_SKIP_DRAW")  # 1: the next turn starts after its draw (a position's first turn)
N_SEAT_COLS = 29
STATS = STATE.field("STATS", MAX_PLAYERS, N_SEAT_COLS)  # [p * N_SEAT_COLS + col]
SCRATCH = STATE.field("SCRATCH", MAX_SCRATCH)  # policy scratch (payment candidates, plans)
SCRATCH2 = STATE.field("SCRATCH2", MAX_SCRATCH)
SCRATCH3 = STATE.field("SCRATCH3", MAX_SCRATCH)
SCRATCH4 = STATE.field("SCRATCH4", MAX_SCRATCH)
SCRATCH5 = STATE.field("SCRATCH5", MAX_SCRATCH)
# What placing a card of each name would gain seat p (strategies/deal.py placing_option),
# remembered while what it reads is unchanged: [p * MEMO_KINDS + kind] for names numbered
# below MEMO_KINDS. The gains are float64 in two int32 slots each, low half first (so
# ``S.view(np.float64)[PLACE_MEMO_GAIN // 2 + i]`` reads gain i; see store_float).
MEMO_KINDS = 64
PLACE_MEMO_VER = STATE.field("PLACE_MEMO_VER", MAX_PLAYERS, MEMO_KINDS)  # placing_key + 1; 0: nothing yet
PLACE_MEMO_COLOUR = STATE.field("PLACE_MEMO_COLOUR", MAX_PLAYERS, MEMO_KINDS)
PLACE_MEMO_GAIN = STATE.field("PLACE_MEMO_GAIN", MAX_PLAYERS, MEMO_KINDS, 2, align=2)  # even: float64 aligned
STATE_SIZE = STATE.end

# ---- per-seat statistics S[STATS + p * N_SEAT_COLS + ...] -----------------------------------
(
    SC_WIN,
    SC_TURNS,
    SC_SETS,
    SC_SETS_MADE,
    SC_PROPERTIES,
    SC_BANK,
    SC_RENT_COLLECTED,
    SC_RENT_PAID,
    SC_COLLECTED,
    SC_PAID,
    SC_PLAYS,
    SC_BANKED,
    SC_PLACED,
    SC_RENT,
    SC_DOUBLE,
    SC_DEAL_BREAKER,
    SC_SLY,
    SC_FORCED,
    SC_DEBT,
    SC_BIRTHDAY,
    SC_PASS_GO,
    SC_HOUSE,
    SC_HOTEL,
    SC_JSN,
    SC_BLOCKED,
    SC_SHORT,
    SC_DISCARDED,
    SC_STOLEN_FROM,
    SC_DRAWN,
) = range(N_SEAT_COLS)
SEAT_COLS = (
    "win",
    "turns",
    "sets",  # complete sets at the end of the game
    "sets_made",  # times a set of this seat became complete
    "properties",  # property cards on the table at the end
    "bank",  # bank value at the end
    "rent_collected",  # value received from rent cards
    "rent_paid",
    "collected",  # value received from every payment (rent, Debt Collector, Birthday)
    "paid",
    "plays",  # plays used on the seat's own turns: each card played, a Double the Rent too
    "banked",  # cards played to the bank
    "placed",  # property cards played to the collection
    "rent_played",
    "double_rent_played",
    "deal_breaker_played",
    "sly_deal_played",
    "forced_deal_played",
    "debt_collector_played",
    "birthday_played",
    "pass_go_played",
    "house_played",
    "hotel_played",
    "just_say_no_played",
    "actions_blocked",  # this seat's actions cancelled by a Just Say No
    "short_payments",  # debts this seat could not pay in full (gave everything)
    "discarded",  # cards discarded over the hand limit
    "properties_lost",  # properties taken by Sly Deal, Forced Deal or Deal Breaker
    "cards_drawn",
)
assert len(SEAT_COLS) == N_SEAT_COLS

# ---- a start position S0 (sim/deal/position.py) ---------------------------------------------
# Not a state: what a position file says, which kernel.setup_position turns into one, dealing
# what the seat to move cannot see afresh for each game.
POSITION = Layout("position", start=0)
P_SEAT = POSITION.field("P_SEAT")  # the seat to move, after its draw
P_TURN = POSITION.field("P_TURN")  # turns played before this one
P_PLAYS = POSITION.field("P_PLAYS")  # plays left
# [p]: hand sizes (cards listed in the hand, the rest dealt from the unseen cards)
P_HAND_N = POSITION.field("P_HAND_N", MAX_PLAYERS)
P_CARD = POSITION.field("P_CARD", MAX_CARDS, 3)  # [3 * c + k]: card c's place, seat and colour (k = 0, 1, 2)
P_SIZE = POSITION.end
for _block in (RULES, STATE, POSITION):
    _block.check(globals())
P_UNSEEN = 0  # places: not seen by the seat to move (the draw pile, or another seat's hand)
P_HAND = 1
P_BANK = 2
P_PROPERTY = 3  # in the seat's group of the colour
P_BUILDING = 4  # on the seat's set of the colour
P_DISCARD = 5

# Random streams: offsets into the per-game uint64 rng array (four words per stream).
RNG_TABLE = 0  # shuffles of the draw pile


@njit_no_refcount
def rng_policy(p):
    """Offset of seat p's policy stream (random choices of its bot)."""
    return 4 * (1 + p)


RNG_SIZE = 4 * N_STREAMS


@or_python(lambda x: np.float64(x).view(np.int64))
@intrinsic
def _float_bits(typingctx, x):
    """The 64 bits of a float64 as an int64."""

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return types.int64(types.float64), codegen


@or_python(lambda x: np.int64(x).view(np.float64))
@intrinsic
def _bits_float(typingctx, x):
    """The float64 with these 64 bits."""

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.int64), codegen


@njit_no_refcount
def store_float(S, at, x):
    """Keep float64 x in S[at] (low 32 bits) and S[at + 1] (high 32 bits)."""
    bits = _float_bits(x)
    low = bits & 0xFFFFFFFF
    S[at] = low - ((low >> 31) << 32)  # as a signed 32-bit number: what an int32 store keeps
    S[at + 1] = bits >> 32


@njit_no_refcount
def load_float(S, at):
    """The float64 that store_float kept at S[at]."""
    return _bits_float((np.int64(S[at + 1]) << 32) | (np.int64(S[at]) & 0xFFFFFFFF))

# ---- event kinds of a replay's log (sim/core/event_log.py; sentences in sim/deal/events.py)
(
    EV_DRAW,  # seat draws card
    EV_BANK,  # seat banks card (amount: its value)
    EV_PLACE,  # seat lays property card in colour target
    EV_RENT,  # seat charges rent for its colour card: amount from target (-1: from everyone); ...
    EV_DOUBLE,  # ... seat doubles it with Double the Rent card
    EV_CHARGE,  # seat plays Debt Collector / Birthday card for amount
    EV_PASS_GO,  # seat plays Pass Go card
    EV_SLY,  # seat plays Sly Deal on target's card
    EV_FORCED,  # seat plays Forced Deal on target's card ...
    EV_FORCED_GIVE,  # ... giving card in return
    EV_DEAL_BREAKER,  # seat plays Deal Breaker on target's set of colour card
    EV_BUILD,  # seat builds card on its colour target
    EV_JUST_SAY_NO,  # seat plays Just Say No card against target's move
    EV_PAY,  # seat pays target amount (owed: card)
    EV_GIVE,  # seat gives card to target in a payment or a steal
    EV_MOVE_WILD,  # seat moves wild card to colour target
    EV_DISCARD,  # seat discards card at the hand limit
    EV_SET,  # seat completes a set of colour card
    EV_RENT_CARD,  # seat plays rent card (the EV_RENT that follows says on which colour)
) = range(8, 27)
# Why a game ended (EV_GAME_END's amount).
END_SETS, END_TURN_LIMIT, END_STALLED, END_ERROR = range(4)

# ---- decision points (sim/core/decisions.py; named in sim/deal/decisions.py) ----------------
# DK_PLAY: 0 ends the turn; else play_action(card, mode, a, b, t) below, a hand card played
# to the bank, as a property of colour a, or for its action (a, b, t as in strategies/deal.py
# choose_play, the numbers the card's action does not use 0). DK_DISCARD: the card. DK_PAY:
# the next card given (one decision a card, until the debt is covered). DK_JUST_SAY_NO: 1
# plays one, 0 does not. DK_COLOUR: the colour a two-colour wild received takes.
DK_PLAY, DK_DISCARD, DK_PAY, DK_JUST_SAY_NO, DK_COLOUR = range(5)
N_ACTIONS = 1 + 3 * MAX_CARDS * MAX_CARDS * MAX_CARDS * 8


@njit_no_refcount
def play_action(card, mode, a, b, t):
    return 1 + (((card * 3 + mode) * MAX_CARDS + a) * MAX_CARDS + b) * 8 + t


@njit_no_refcount
def action_play(action):
    """(card, mode, a, b, t) of a play action (not 0)."""
    x = action - 1
    t = x % 8
    x //= 8
    b = x % MAX_CARDS
    x //= MAX_CARDS
    a = x % MAX_CARDS
    x //= MAX_CARDS
    return x // 3, x % 3, a, b, t
