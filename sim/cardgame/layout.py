"""Memory layout of a Monopoly: The Card Game match, shared by the kernel, the board queries and
the bots.

As for the other games (docs/architecture.md), a match's whole state is one flat int32 array
``S`` and the rules one int32 array ``RB``; the names below are offsets into them and every
maximum is a module constant, so every offset is a compile-time constant.

Cards are numbered 0 .. n_cards - 1. Every card is in exactly one list: the draw pile, a hand
or a face-up pile (one per seat, plus up to two piles of imaginary players). ``WHERE``,
``OWNER`` and ``POS`` say which list and where, so a card leaves a hand in O(1); piles are
stacks and only ever lose their top cards.

Scoring and the bots work on *kinds*, not cards: ``KC[p * NK + k]`` counts the cards of kind
k in seat p's hand, kept in step by the card moves. A kind is a colour's property card, the
Chance wild, a house of a given number, the hotel, a token naming a colour, or one of the
bonus cards.

The blocks are declared field by field (sim/core/layout.py), which hands out the offsets and
reads a state back by name: ``STATE.decode(S)["G_CURRENT"]``.
"""

from sim.core.jit import njit_no_refcount
from sim.core.layout import Layout

MAX_PLAYERS = 6
MAX_PILES = MAX_PLAYERS + 2  # one per seat, plus up to two imaginary players' piles
MAX_CARDS = 80
MAX_HAND_ROWS = 64  # per-hand output rows kept per game (max_hands is validated against it)
NC = 10  # colour groups: the eight buildable colours, then the railroads and the utilities
RAIL = 8
UTIL = 9
N_BUILDABLE = 8
MAX_HOUSE_NO = 4

# ---- card kinds ---------------------------------------------------------------------------
K_PROP = 0  # + colour
K_WILD = NC  # the Chance card
K_HOUSE = K_WILD + 1  # + (house number - 1); unnumbered houses are house 1
K_HOTEL = K_HOUSE + MAX_HOUSE_NO
K_TOKEN = K_HOTEL + 1  # + colour the token names
K_GO = K_TOKEN + NC
K_MRM = K_GO + 1  # Mr. Monopoly
K_FP = K_MRM + 1  # Free Parking
K_JAIL = K_FP + 1  # Go to Jail
K_JAILFREE = K_JAIL + 1  # Get Out of Jail Free
K_DOUBLE = K_JAILFREE + 1  # a bonus card that doubles the hand (not in either default deck)
NK = K_DOUBLE + 1
assert NK == 32  # a hand's kinds fit one 32-bit mask (strategies.cardgame.kinds_held)

# Card locations (WHERE).
DRAW, HAND, PILE = range(3)

# ---- rules buffer RB ------------------------------------------------------------------------
RULES = Layout("rules")
R_PLAYERS = RULES.field("R_PLAYERS")
R_CARDS = RULES.field("R_CARDS")
R_N_PILES = RULES.field("R_N_PILES")  # seats plus imaginary piles
R_HAND_SIZE = RULES.field("R_HAND_SIZE")  # cards dealt to each hand
R_FACE_UP = RULES.field("R_FACE_UP")  # cards dealt face up onto each pile
R_HAND_LIMIT = RULES.field("R_HAND_LIMIT")
R_MAX_TRADE = RULES.field("R_MAX_TRADE")
R_REWARD = RULES.field("R_REWARD")  # cards from the draw pile to whoever goes out
R_TARGET = RULES.field("R_TARGET")  # money that ends the match (0: play n_hands hands)
R_N_HANDS = RULES.field("R_N_HANDS")
R_MAX_HANDS = RULES.field("R_MAX_HANDS")
R_MAX_TURNS_HAND = RULES.field("R_MAX_TURNS_HAND")
# 0 at the start of the next turn (as the turn's move), 1 at the end of the turn
R_GO_OUT_WHEN = RULES.field("R_GO_OUT_WHEN")
R_CHANCE_ZERO = RULES.field("R_CHANCE_ZERO")
R_INCOMPLETE = RULES.field("R_INCOMPLETE")  # incomplete groups score per card
R_IMPR_GOER = RULES.field("R_IMPR_GOER")  # only whoever goes out scores improvements
R_IMPR_ONE = RULES.field("R_IMPR_ONE")  # improvements go onto one chosen group
R_HOUSES_NUMBERED = RULES.field("R_HOUSES_NUMBERED")
R_MAX_HOUSES = RULES.field("R_MAX_HOUSES")  # 0: no limit
R_HOTEL_FOUR = RULES.field("R_HOTEL_FOUR")  # a hotel needs four houses under it
R_JAIL_BLOCKS = RULES.field("R_JAIL_BLOCKS")
R_RU_GROUP = RULES.field("R_RU_GROUP")  # railroads / utilities satisfy "at least one complete group"
R_RAIL_MIN = RULES.field("R_RAIL_MIN")
R_JACKPOT = RULES.field("R_JACKPOT")
R_TOKEN_NEEDS = RULES.field("R_TOKEN_NEEDS")  # a token pays only when its group is complete
R_TOKENS_IMPR = RULES.field("R_TOKENS_IMPR")  # tokens are improvements (only for whoever may score improvements)
R_MRM_TIES = RULES.field("R_MRM_TIES")  # tied Mr. Monopoly holders each get the bonus (else nobody does)
R_PRE_DISCARD = RULES.field("R_PRE_DISCARD")  # a trader may first discard a hand card onto their pile
R_EMPTY_DRAW = RULES.field("R_EMPTY_DRAW")  # 0 reshuffle the piles under their top cards, 1 end the hand unscored
R_DUMMY_MODE = RULES.field("R_DUMMY_MODE")  # 0 none, 1 the wiki's 3-player moves, 2 trade piles of imaginary players
R_BIG = RULES.field("R_BIG")  # whole deck dealt: mandatory trades, pass left
R_PASS_LEFT = RULES.field("R_PASS_LEFT")
R_BIG_REWARD = RULES.field("R_BIG_REWARD")  # 0 the top card of every other pile, 1 every card of every other pile
R_HOTEL_VALUE = RULES.field("R_HOTEL_VALUE")
R_GO_VALUE = RULES.field("R_GO_VALUE")
R_MRM_BONUS = RULES.field("R_MRM_BONUS")
R_JACKPOT_ADD = RULES.field("R_JACKPOT_ADD")
R_FP_VALUE = RULES.field("R_FP_VALUE")
R_JAIL_VALUE = RULES.field("R_JAIL_VALUE")
R_JAILFREE_VALUE = RULES.field("R_JAILFREE_VALUE")
R_WILD_ANY_GROUP = RULES.field("R_WILD_ANY_GROUP")  # a wild may complete a group of which no real card is held
R_DECK = RULES.field("R_DECK")  # cards shuffled and dealt each hand; cards R_DECK .. R_CARDS - 1 are seats' extras
R_SIZE = RULES.field("R_SIZE", NC, at=48)  # [c] cards in a complete group (railroads: all four)
R_GVAL = RULES.field("R_GVAL", NC)  # [c] value of the complete group (railroads: see R_RAIL_VAL)
R_HVAL = RULES.field("R_HVAL", NC)  # [c] value of each house on the group
R_CVAL = RULES.field("R_CVAL", NC)  # [c] value of one card of an incomplete group (when those score)
R_RAIL_VAL = RULES.field("R_RAIL_VAL", 5)  # [n] value of n railroads, n = 0..4
R_KIND = RULES.field("R_KIND", MAX_CARDS)  # [card]
R_CARD_SEAT = RULES.field("R_CARD_SEAT", MAX_CARDS)  # [card] the seat an extra card is dealt to in every hand
RULES_SIZE = RULES.end

# ---- state buffer S -------------------------------------------------------------------------
STATE = Layout("state", start=0)
WHERE = STATE.field("WHERE", MAX_CARDS)  # [card]
OWNER = STATE.field("OWNER", MAX_CARDS)  # [card] seat of a hand, pile index of a pile, -1 in the draw pile
POS = STATE.field("POS", MAX_CARDS)  # [card]
DRAW_PILE = STATE.field("DRAW_PILE", MAX_CARDS)  # top at DRAW_N - 1
DRAW_N = STATE.field("DRAW_N")
HAND_ = STATE.field("HAND_", MAX_PLAYERS, MAX_CARDS)  # [p * MAX_CARDS + k]
HAND_N = STATE.field("HAND_N", MAX_PLAYERS)  # [p]
PILE_ = STATE.field("PILE_", MAX_PILES, MAX_CARDS)  # [q * MAX_CARDS + k], top at PILE_N[q] - 1
PILE_N = STATE.field("PILE_N", MAX_PILES)  # [q]
KC = STATE.field("KC", MAX_PLAYERS, NK)  # [p * NK + k] kinds in seat p's hand
SEEN = STATE.field("SEEN", MAX_PLAYERS, NK)  # [p * NK + k] public: kind k taken from piles by p this hand
MONEY = STATE.field("MONEY", MAX_PLAYERS)  # [p]
HSCORE = STATE.field("HSCORE", MAX_PLAYERS)  # [p] this hand's score
G_POT = STATE.field("G_POT")  # Free Parking jackpot waiting
G_BANK_PAID = STATE.field("G_BANK_PAID")  # everything the bank has paid out (money + pot)
G_DEALER = STATE.field("G_DEALER")
G_HAND = STATE.field("G_HAND")  # hands played
G_HTURN = STATE.field("G_HTURN")  # turns in this hand
G_TURNS = STATE.field("G_TURNS")  # turns in the match
G_OUT = STATE.field("G_OUT")  # seat that went out this hand, -1
G_STATUS = STATE.field("G_STATUS")
G_STALLED = STATE.field("G_STALLED")  # hands that ended without anyone going out
G_POT_WON = STATE.field("G_POT_WON")  # seat that took the jackpot this hand, -1
G_POT_PAID = STATE.field("G_POT_PAID")  # what it took
N_SEAT_COLS = 21
STATS = STATE.field("STATS", MAX_PLAYERS, N_SEAT_COLS)  # [p * N_SEAT_COLS + col]
SCRATCH = STATE.field("SCRATCH", NK)  # a kind-count vector for the bots' what-ifs
SCRATCH2 = STATE.field("SCRATCH2", NK)
SCRATCH3 = STATE.field("SCRATCH3", NK)
DECK_KC = STATE.field("DECK_KC", NK)  # [k] cards of each kind in the deck (set once per match)
# A bot's discard plan: the discards its chosen trade was weighed with, kept for the discards
# that follow it (strategies/cardgame.py). Valid only for seat PLAN_SEAT - 1 (0: no plan), and
# only while no other seat's SEEN changes (the kernel clears it then: the plan's feed costs).
PLAN_SEAT = STATE.field("PLAN_SEAT")
PLAN_DANGER = STATE.field("PLAN_DANGER")  # the danger flag the plan was weighed with
PLAN_N = STATE.field("PLAN_N")  # planned discards left
PLAN_KIND = STATE.field("PLAN_KIND", 2)  # [i] the kinds to discard, the next at PLAN_KIND + 2 - PLAN_N
PLAN_KC = STATE.field("PLAN_KC", NK)  # [k] the hand the next planned discard was weighed for
PARTS = STATE.field("PARTS", 4)  # [4] the parts of the last score hand_score computed (board.py)
SEEN_BY = STATE.field("SEEN_BY", NK)  # [k] seats seen collecting kind k (SEEN > 0), kept with SEEN
# [p] property cards seat p is seen collecting (the sum of its positive SEEN of colours)
SEEN_PROPS = STATE.field("SEEN_PROPS", MAX_PLAYERS)
STATE_SIZE = STATE.end

# ---- per-seat statistics S[STATS + p * N_SEAT_COLS + ...] -----------------------------------
(
    SC_WIN,
    SC_MONEY,
    SC_OUTS,
    SC_TOP_HANDS,
    SC_ZEROED,
    SC_ZERO_LOST,
    SC_WILD_OUTS,
    SC_JACKPOTS,
    SC_JACKPOT_MONEY,
    SC_GROUP_MONEY,
    SC_IMPR_MONEY,
    SC_BONUS_MONEY,
    SC_DOUBLED_MONEY,
    SC_TURNS,
    SC_DRAWS,
    SC_TRADES,
    SC_TRADED_CARDS,
    SC_SPECIAL,
    SC_WILDS_DROPPED,
    SC_BEST_HAND,
    SC_HELD_WILD_END,
) = range(N_SEAT_COLS)
SEAT_COLS = (
    "win",
    "money",
    "outs",  # hands this seat went out
    "top_hands",  # hands this seat scored the most (ties count for each)
    "zeroed",  # hands scored 0 because the seat held a Chance when another went out
    "zero_lost",  # what those hands would have scored without the Chance rule
    "wild_outs",  # hands this seat went out holding a Chance
    "jackpots",  # Free Parking jackpots won
    "jackpot_money",
    "group_money",  # money from complete (and, where they score, incomplete) groups
    "impr_money",  # money from houses, hotels and tokens
    "bonus_money",  # money from GO, Mr. Monopoly and the other bonus cards
    "doubled_money",  # extra money from bonus-double cards
    "turns",
    "draws",
    "trades",
    "traded_cards",  # cards taken in trades
    "special_moves",  # the wiki's 3-player moves with the imaginary pile
    "wilds_dropped",  # Chance cards this seat discarded
    "best_hand",  # highest hand score
    "held_wild_end",  # hands ended holding a Chance
)
assert len(SEAT_COLS) == N_SEAT_COLS

# Per-hand output columns (when asked for).
(H_HAND, H_DEALER, H_OUT, H_TURNS, H_STALLED, H_POT, H_POT_WON) = range(7)
H_SCORE = 7  # [s]
H_MONEY = H_SCORE + MAX_PLAYERS  # [s]
N_HAND_COLS = H_MONEY + MAX_PLAYERS

# ---- a start position S0 (sim/cardgame/position.py) -----------------------------------------
# Not a state: what a position file says, which kernel.setup_position turns into one, dealing
# what the seat to move cannot see afresh for each match.
POSITION = Layout("position", start=0)
P_DEALER = POSITION.field("P_DEALER")
P_HAND_NO = POSITION.field("P_HAND_NO")  # hands played before this one
P_HTURN = POSITION.field("P_HTURN")  # turns played in this hand before the seat to move's
P_POT = POSITION.field("P_POT")  # the Free Parking jackpot waiting
P_MONEY = POSITION.field("P_MONEY", MAX_PLAYERS)  # [p]
P_HAND_N = POSITION.field("P_HAND_N", MAX_PLAYERS)  # [p]: hand sizes (cards listed, the rest dealt from the unseen)
P_SEEN = POSITION.field("P_SEEN", MAX_PLAYERS, NK)  # [p * NK + k]: the public record of what p took from piles
P_HAND = POSITION.field("P_HAND", MAX_PLAYERS, MAX_CARDS)  # [p * MAX_CARDS + k]: the cards listed in p's hand
P_LISTED = POSITION.field("P_LISTED", MAX_PLAYERS)  # [p]
P_PILE = POSITION.field("P_PILE", MAX_PILES, MAX_CARDS)  # [q * MAX_CARDS + k]: pile q, bottom to top
P_PILE_N = POSITION.field("P_PILE_N", MAX_PILES)  # [q]
P_SIZE = POSITION.end
for _block in (RULES, STATE, POSITION):
    _block.check(globals())

# Random streams: offsets into the per-game uint64 rng array (four words per stream).
RNG_TABLE = 0  # shuffles
N_STREAMS = 1 + MAX_PLAYERS
RNG_SIZE = 4 * N_STREAMS


@njit_no_refcount
def rng_policy(p):
    """Offset of seat p's policy stream."""
    return 4 * (1 + p)

# ---- event kinds of a replay's log (sim/core/event_log.py; sentences in sim/cardgame/events.py)
(
    EV_DRAW,  # seat draws card
    EV_DISCARD,  # seat discards card onto its pile
    EV_TRADE,  # seat trades amount cards with pile target
    EV_TAKE,  # seat takes card from the top of pile target
    EV_GIVE,  # seat's card goes to target
    EV_SPECIAL,  # seat makes the 3-player dummy move card (0: swap, 1: double)
    EV_PASS,  # seat passes card to target, on its left
    EV_GO_OUT,  # seat goes out
    EV_REWARD,  # seat takes card as its reward for going out
    EV_STALL,  # the hand ends with nobody out
    EV_JACKPOT,  # seat wins the Free Parking jackpot, amount
    EV_HAND,  # the goer's hand as it goes out: amount cards of kind card (one event a kind)
) = range(8, 20)
# Why a match ended (EV_GAME_END's amount).
END_TARGET, END_HANDS, END_HAND_LIMIT, END_ERROR = range(4)

# ---- decision points (sim/core/decisions.py; named in sim/cardgame/decisions.py) ------------
DK_MOVE, DK_DISCARD, DK_PASS, DK_GO_OUT = range(4)
# A move as one action: draw; the dummy's double; the dummy's swap with seat q; a trade of k
# cards with pile q, having discarded one first when pre is 1.
A_DRAW = 0
A_DOUBLE3 = 1
A_SWAP3 = 2  # + q
A_TRADE = A_SWAP3 + MAX_PLAYERS  # + (q * 2 + pre) * MAX_CARDS + k - 1
N_ACTIONS = A_TRADE + MAX_PILES * 2 * MAX_CARDS  # every decision's actions are below this
