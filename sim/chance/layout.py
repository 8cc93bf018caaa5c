"""Memory layout of a Monopoly Chance game, shared by the kernel and the policies.

A game's whole state lives in one flat int32 array ``S`` and the rules in one int32 array
``RB``; the names below are offsets into them. Compiled functions then pass two arrays instead
of dozens: every array argument costs reference counting at each call, and that overhead,
not the game logic, dominated an earlier version that passed bundles of arrays (see
docs/architecture.md). Sizes are fixed maxima so every offset is a compile-time constant.

Conventions: a card is (seat p, index c in that seat's deck). Per-seat card tables are
indexed ``p * MAX_DECK + c``; a card on the board is coded ``p * MAX_DECK + c`` too.

The blocks are declared field by field (sim/core/layout.py), which hands out the offsets and
reads a state back by name: ``STATE.decode(S)["G_CURRENT"]``.
"""

from sim.core.jit import njit_no_refcount
from sim.core.layout import Layout

MAX_PLAYERS = 4
MAX_DECK = 64  # cards in one token deck
MAX_PROPS = 16  # property spaces
MAX_FACES = 16  # die faces
MAX_CHANCE = 32  # Chance cards
MAX_STACK = MAX_PLAYERS * MAX_DECK  # cards on one property
N_CORNERS = 4
N_STREAMS = 1 + 2 * MAX_PLAYERS  # table, each seat's deck, each seat's policy
_CARDS = MAX_PLAYERS * MAX_DECK

# Card locations (values stored in WHERE).
DRAW, DISCARD, BOARD, TURN, HELD, CORNER = range(6)

# ---- rules buffer RB ------------------------------------------------------------------------
RULES = Layout("rules", start=0)
R_PLAYERS = RULES.field("R_PLAYERS")
R_PROPS = RULES.field("R_PROPS")  # number of property spaces
R_FACES = RULES.field("R_FACES")  # number of die faces
R_CHANCE = RULES.field("R_CHANCE")  # number of Chance cards
R_FINISH = RULES.field("R_FINISH")
R_GRAY = RULES.field("R_GRAY")  # gray buildings in the box
R_GRAY_LEN = RULES.field("R_GRAY_LEN")
R_MAX_ROUNDS = RULES.field("R_MAX_ROUNDS")
R_RESHUFFLE = RULES.field("R_RESHUFFLE")  # house rules, 0/1
R_MULTI_FLIP2 = RULES.field("R_MULTI_FLIP2")
R_TOKEN_AFTER_BUST = RULES.field("R_TOKEN_AFTER_BUST")
R_EXHAUSTED_COUNT = RULES.field("R_EXHAUSTED_COUNT")
R_GRAY_PER_PAIR = RULES.field("R_GRAY_PER_PAIR")
R_KEEP_HELD = RULES.field("R_KEEP_HELD")
R_PROP_VALUE = RULES.field("R_PROP_VALUE", MAX_PROPS, at=16)
R_PROP_BUILDINGS = RULES.field("R_PROP_BUILDINGS", MAX_PROPS)
R_PROP_LENGTH = RULES.field("R_PROP_LENGTH", MAX_PROPS)
R_GRAY_ORDER = RULES.field("R_GRAY_ORDER", MAX_PROPS)  # property indices, most valuable first
R_DIE = RULES.field("R_DIE", MAX_FACES)  # faces; 0 is '?'
R_DECK_KIND = RULES.field("R_DECK_KIND", MAX_PLAYERS, MAX_DECK)  # [p * MAX_DECK + c]
R_DECK_VALUE = RULES.field("R_DECK_VALUE", MAX_PLAYERS, MAX_DECK)
N_KIND_SLOTS = 8
R_DECK_SIZE = RULES.field("R_DECK_SIZE", MAX_PLAYERS)  # [p]
# [p * N_KIND_SLOTS + kind]: first deck index of each card kind (decks are sorted by kind), so
# a search for one kind scans only its own cards; slot kind + 1 ends the range.
R_KIND_FIRST = RULES.field("R_KIND_FIRST", MAX_PLAYERS, N_KIND_SLOTS)
R_CHANCE_EFFECT = RULES.field("R_CHANCE_EFFECT", MAX_CHANCE)
R_CHANCE_PARAM = RULES.field("R_CHANCE_PARAM", MAX_CHANCE)
RULES_SIZE = RULES.end

# ---- state buffer S -------------------------------------------------------------------------
# Regions from STACK to STACK_N and from BUF_VALUE on are always written before they are read,
# so a new game clears only the rest.
STATE = Layout("state", start=0)
WHERE = STATE.field("WHERE", MAX_PLAYERS, MAX_DECK)  # [p * MAX_DECK + c]: location of each card
DRAW_PILE = STATE.field("DRAW_PILE", MAX_PLAYERS, MAX_DECK)  # [p * MAX_DECK + k]: draw pile, top at k = DRAW_N[p] - 1
DRAW_N = STATE.field("DRAW_N", MAX_PLAYERS)  # [p]
TURN_CARDS = STATE.field("TURN_CARDS", MAX_DECK)  # cards in front of the player whose turn it is
STACK = STATE.field("STACK", MAX_PROPS, MAX_STACK)  # [i * MAX_STACK + k]: card codes on property i, bottom first
STACK_FP = STATE.field("STACK_FP", MAX_PROPS, MAX_STACK)  # 1 where the card went down through Free Parking
STACK_N = STATE.field("STACK_N", MAX_PROPS)  # [i]
TOP_VALUE = STATE.field("TOP_VALUE", MAX_PROPS)  # [i]: value of the top card, 0 when empty
TOP_OWNER = STATE.field("TOP_OWNER", MAX_PROPS)  # [i]: seat of the top card, -1 when empty
CORNERS = STATE.field("CORNERS", N_CORNERS)  # [corner]: code of the Token on it, -1 when free
BLDS_LEFT = STATE.field("BLDS_LEFT", MAX_PROPS)  # [i]: buildings still on property i
# [p * (MAX_PROPS + 1) + b]: buildings of kind b; b = n_props is gray
SKY_COUNT = STATE.field("SKY_COUNT", MAX_PLAYERS, MAX_PROPS + 1)
SKY_LEN = STATE.field("SKY_LEN", MAX_PLAYERS)  # [p]
N_BLD = STATE.field("N_BLD", MAX_PLAYERS)  # [p]
PAIRS_DONE = STATE.field("PAIRS_DONE", MAX_PLAYERS, MAX_PROPS)  # [p * MAX_PROPS + i]: colour pairs already paid a gray
CHANCE_ORDER = STATE.field("CHANCE_ORDER", MAX_CHANCE)  # Chance deck order
# scalars
T_N = STATE.field("T_N")  # cards in TURN_CARDS
T_LUCKY = STATE.field("T_LUCKY")  # Lucky Breaks in front of the player, not yet used
T_FP = STATE.field("T_FP")  # Free Parking: 0 none, 1 available, 2 spent
T_BLOCKED = STATE.field("T_BLOCKED")  # bit i set: a Nope! closed property i to the current player this turn
G_TRIGGERED = STATE.field("G_TRIGGERED")  # round end triggered
G_STATUS = STATE.field("G_STATUS")  # 0 or the first invariant failure
G_GRAY_LEFT = STATE.field("G_GRAY_LEFT")
G_CHANCE_POS = STATE.field("G_CHANCE_POS")  # next Chance card to draw
G_ROUND_ENDING = STATE.field("G_ROUND_ENDING")  # the last turns of a round are being played
G_BOARD_CHANGES = STATE.field("G_BOARD_CHANGES")  # cards put on or taken off the board so far
# The game's progress lives in the state, not in local variables, so that a game can stop at a
# decision and go on from a copy: positions (sim/chance/position.py) and the rollout player's
# look-ahead both continue games this way.
G_CURRENT = STATE.field("G_CURRENT")  # seat to move
G_FIRST = STATE.field("G_FIRST")  # seat that began this round
G_N_ROUNDS = STATE.field("G_N_ROUNDS")  # rounds begun
G_N_TURNS = STATE.field("G_N_TURNS")  # turns played
G_ROUND_TURNS = STATE.field("G_ROUND_TURNS")  # turns begun in this round
G_REMAINING = STATE.field("G_REMAINING")  # -1, or once the round end is triggered the turns left after this one
G_QUIET = STATE.field("G_QUIET")  # turns in a row in which nobody could flip and the board did not change
G_N_STALLED = STATE.field("G_N_STALLED")  # rounds closed as stalled
G_HIT_CAP = STATE.field("G_HIT_CAP")  # 1: the game hit the round limit
G_HALF_SEEN = STATE.field("G_HALF_SEEN")  # 1 once the leader reached half the finish mark
G_PAUSED = STATE.field("G_PAUSED")  # 1: stopped at a rollout player's close call (kernel.play_game decides it)
G_DECISIONS = STATE.field("G_DECISIONS")  # close calls the rollout players decided so far
T_FLIPS = STATE.field("T_FLIPS")  # flips taken this turn
T_LIMIT = STATE.field("T_LIMIT")  # flips allowed this turn
T_WINDOW_FROM = STATE.field("T_WINDOW_FROM")  # the first seat (after the player) asked for Flip 2 in the first pass
T_CHANGES_BEFORE = STATE.field("T_CHANGES_BEFORE")  # G_BOARD_CHANGES when the turn began
# Forced decisions: a queue of (decision, seat, a, b) answered in order by the next decisions of
# the current turn that match, whatever the policy says (advice compares such arms).
F_N = STATE.field("F_N")  # entries queued
N_FORCED = 2
F_HEAD = STATE.field("F_HEAD")  # next entry
F_QUEUE = STATE.field("F_QUEUE", N_FORCED, 4)  # [k * 4 + (decision, seat, a, b)]
N_SIT = 20
SIT = STATE.field("SIT", N_SIT)  # situation for flip decisions, see S_* below
N_SEAT_COLS = 24
STATS = STATE.field("STATS", MAX_PLAYERS, N_SEAT_COLS)  # [p * N_SEAT_COLS + col]
BUF_VALUE = STATE.field("BUF_VALUE", _CARDS)  # scratch: Cash values offered to a policy
BUF_CARD = STATE.field("BUF_CARD", _CARDS)  # scratch: the matching card indices
BUF_VALUE2 = STATE.field("BUF_VALUE2", _CARDS)
BUF_VALUE3 = STATE.field("BUF_VALUE3", _CARDS)
STATE_SIZE = STATE.end

# ---- a position's start array S0: a state, then these (sim/chance/position.py) -------------
POSITION = Layout("position", start=STATE_SIZE)
P_STAGE = POSITION.field("P_STAGE")  # where the game goes on: a STAGE_* below
# [p]: -1, or the size of a pile whose cards are unknown (see position.py)
P_DRAW_COUNT = POSITION.field("P_DRAW_COUNT", MAX_PLAYERS)
POSITION_SIZE = POSITION.end
for _block in (RULES, STATE, POSITION):
    _block.check(globals())

# Where a game goes on from (play_rounds): a new round, a new turn, or the current turn at
# its flips, its Flip 2 window, its Tokens or the placing of its Cash.
STAGE_NEW_ROUND, STAGE_NEW_TURN, STAGE_FLIP, STAGE_WINDOW, STAGE_TOKENS, STAGE_PLACE = range(6)
# Decisions a position can force (F_QUEUE): a and b are
#   D_FLIP        1 flip, 0 cash out
#   D_FLIP2       1 play Flip 2 on the player to move, 0 pass
#   D_NOPE_FLIP2  1 answer the Flip 2 with Nope!, 0 take the flips
#   D_NOPE_CASH   1 block the Cash card with Nope!, 0 let it in
#   D_TOKEN       the corner for a Token, -1 keep it
#   D_PLACE       the card a goes on property b; b = -1: discard the rest
D_FLIP, D_FLIP2, D_NOPE_FLIP2, D_NOPE_CASH, D_TOKEN, D_PLACE = range(1, 7)

# ---- situation slots S[SIT + ...] ----------------------------------------------------------
(
    S_FLIPS_TAKEN,
    S_FLIPS_LEFT,
    S_CASH_SUM,
    S_CASH_N,
    S_LUCKY_HELD,
    S_PILE_N,
    S_PILE_BANKRUPT,
    S_PILE_LUCKY,
    S_PILE_CASH_N,
    S_PILE_CASH_SUM,
    S_MIN_TARGET,
    S_USEFUL_CASH_SUM,
    S_USEFUL_PILE_SUM,
    S_MY_SKY,
    S_BEST_OPP_SKY,
    S_FINISH,
    S_ROUND_ENDING,
    S_AT_STAKE,  # 1: a bust would cost something (a card flipped this turn, or on the round's last turns
    #             a Token it keeps off the board)
) = range(18)
NO_TARGET = 1 << 20  # S_MIN_TARGET when no property is worth taking

# ---- per-seat statistics S[STATS + p * N_SEAT_COLS + ...] -----------------------------------
(
    SC_SKY,
    SC_BUILDINGS,
    SC_GRAYS,
    SC_WIN,
    SC_TURNS,
    SC_FLIPS,
    SC_BUSTS,
    SC_LUCKY_SAVES,
    SC_FLIP2_PLAYED,
    SC_FLIP2_FORCED,
    SC_NOPE_PLAYED,
    SC_TOKENS,
    SC_CHANCE,
    SC_CASH_PLAYED,
    SC_CASH_WON,
    SC_SITUATIONS,
    SC_SITUATIONS_OWN_FLIP,
) = range(17)
# Cards flipped, by kind: SC_FLIPPED + kind (kinds in sim/chance/rules.py CARD_KIND_NAMES), so
# card-value studies can report how often each kind turns up.
SC_FLIPPED = 17
# 1 for the seat(s) with the shortest skyline when the leader first reached half the finish
# mark (at a round's end), the mid-game standing behind the tuner's comeback goal; 0 for every
# seat when all were level.
SC_LAST_AT_HALF = 23
SEAT_COLS = (
    "skyline",
    "buildings",
    "grays",
    "win",
    "turns",
    "flips",
    "busts",
    "lucky_saves",
    "flip2_played",
    "flip2_forced",
    "nope_played",
    "tokens_played",
    "chance_cards",
    "cash_played",
    "cash_won",
    "situations",  # flip decisions met in a forced situation (simulate(..., force=...))
    "situations_own_flip",  # ... of which the seat's own policy would have flipped
    "flipped_cash",
    "flipped_bankrupt",
    "flipped_lucky_break",
    "flipped_token",
    "flipped_flip2",
    "flipped_nope",
    "last_at_half",
)

# The rollout players' close calls, one row each, when a run asks for detail tables
# (detail table "rollout_decisions", sim/chance/game.py); the first MAX_DECISION_ROWS of a game.
MAX_DECISION_ROWS = 32
DECISION_COLS = (
    "seat",
    "cash",  # Cash flipped this turn
    "useful_cash",  # ... of it, what beats the cheapest property worth taking
    "flips_left",
    "bust_permille",  # the next flip's chance to bust, in tenths of a percent
    "skyline",
    "best_opponent_skyline",
    "round_ending",  # 1: the round's last turns
    "turn_rule_flips",  # 1: the turn-optimal rule flips
    "flips",  # 1: the rollouts chose to flip
    "won_flip_minus_stop",  # rollouts won flipping, less those won cashing out
    "pairs_differ",  # rollout pairs whose two games ended differently for the player
    "rollouts",  # per choice
)
N_DECISION_COLS = len(DECISION_COLS)

# Random streams: offsets into the per-game uint64 rng array (four words per stream).
RNG_TABLE = 0  # die rolls and the Chance deck


@njit_no_refcount
def rng_deck(p):
    """Offset of seat p's deck-shuffling stream."""
    return 4 * (1 + p)


@njit_no_refcount
def rng_policy(p):
    """Offset of seat p's policy stream (random choices of its bot)."""
    return 4 * (1 + MAX_PLAYERS + p)


RNG_SIZE = 4 * N_STREAMS

# ---- event kinds of a replay's log (sim/core/event_log.py; sentences in sim/chance/events.py)
(
    EV_ROLL,  # amount: the face rolled (0: '?')
    EV_CHANCE,  # card: the Chance card drawn
    EV_STEAL,  # seat takes target's building card (a property, or the gray past the last)
    EV_LOSE,  # seat returns its building card to the supply
    EV_FLIP,  # seat flips its card; amount: the bust chance of that flip, in tenths of a percent
    EV_STOP,  # seat cashes out; amount: the next flip's bust chance (tenths of a percent); target: flips left
    EV_BUST,  # seat flipped a Bankrupt
    EV_LUCKY_SAVE,  # seat's Lucky Break cancels a Bankrupt
    EV_FLIP2,  # seat plays Flip 2 on target; amount: target's chance to bust within two flips
    EV_NOPE_FLIP2,  # seat answers target's Flip 2 with a Nope!
    EV_PLACE,  # seat covers property target with its Cash card (amount: its value)
    EV_PLACE_FP,  # the same, with Free Parking (not above the value showing)
    EV_NOPE_CASH,  # seat blocks target's Cash card on property card with a Nope!
    EV_TOKEN,  # seat plays a Token to corner target
    EV_JAIL,  # seat sends the top Cash card of property card (target's) back to target's discards
    EV_TAKE,  # seat takes its Cash card (amount: value) from its draw (target 0) or discard (1) pile
    EV_BUILDING,  # seat wins a building of property card at the round's end
    EV_GRAY,  # seat wins a gray building for its colour card
    EV_STALLED,  # the round is closed: nobody can change anything
    EV_ROUND_END,  # round amount ends: its buildings are won (EV_BUILDING, EV_GRAY) and standings follow
) = range(8, 28)
# Why a game ended (EV_GAME_END's amount).
END_FINISH, END_NO_BUILDINGS, END_ROUND_LIMIT, END_ERROR = range(4)

# ---- decision points (sim/core/decisions.py; named in sim/chance/decisions.py) --------------
# Yes-or-no kinds answer 0 no, 1 yes. DK_PLACE: 0 stops (the rest of the Cash is discarded),
# 1 + c * MAX_PROPS + i puts Cash card c (its index in the seat's deck) on property i.
# DK_TAKE_CASH: 0 none, 1 + c takes Cash card c. DK_JAIL: 0 none, 1 + i sends back property
# i's top card. DK_VICTIM: the seat. DK_TOKEN: 0 keeps it, 1 + the corner.
(DK_FLIP, DK_PLACE, DK_NOPE_CASH, DK_TAKE_CASH, DK_JAIL, DK_VICTIM, DK_FLIP2, DK_NOPE_FLIP2,
 DK_TOKEN) = range(9)
N_ACTIONS = 1 + MAX_DECK * MAX_PROPS
