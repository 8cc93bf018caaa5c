"""Memory layout of a classic Monopoly game, shared by the kernel, the board helpers and the
policies.

A game is one flat int32 array ``S``: the rules block (``RB``, as rules.pack returns it, with
the seats' bot kinds) at its head, then the state; the names below are offsets into it (see
docs/architecture.md for why). The rules and kinds share the state's array so that the many
calls of the compiled functions pass two arrays fewer (each array argument is seven machine
words). Sizes are fixed maxima so that every offset is a compile-time constant.

Money is whole dollars. The bank's balance ``G_BANK`` starts at minus the money it issued, so
``sum(CASH) + G_POT + G_BANK == 0`` holds at all times (the money invariant).

The blocks are declared field by field (sim/core/layout.py), which hands out the offsets and
reads a state back by name: ``STATE.decode(S)["G_CURRENT"]``.
"""

from numba import njit

from sim.core.layout import Layout

MIN_PLAYERS = 2
MAX_PLAYERS = 8
N_SQ = 40
N_GROUPS = 10  # 8 colour groups, railroads, utilities
MAX_GROUP = 4  # deeds in one group
MAX_CARDS = 16  # cards in one deck
N_DECKS = 2  # 0 Chance, 1 Community Chest
N_LEVELS = 6  # rents per street: base, 1-4 houses, hotel
HOTEL = 5  # building level of a hotel
MAX_DEEDS = 28
N_STREAMS = 1 + MAX_PLAYERS  # the table (dice, decks), each seat's policy
BANK = -1  # creditor codes for payments
POT = -2

# ---- rules block RB, S[0:RULES_SIZE] --------------------------------------------------------
RULES = Layout("rules", start=0)
R_PLAYERS = RULES.field("R_PLAYERS")
R_START_CASH = RULES.field("R_START_CASH")
R_SALARY = RULES.field("R_SALARY")
R_GO_LAND_BONUS = RULES.field("R_GO_LAND_BONUS")  # extra salary for landing exactly on GO (double salary house rule)
R_JAIL_FINE = RULES.field("R_JAIL_FINE")
R_JAIL_TURNS = RULES.field("R_JAIL_TURNS")
R_HOUSES = RULES.field("R_HOUSES")
R_HOTELS = RULES.field("R_HOTELS")
R_MAX_ROUNDS = RULES.field("R_MAX_ROUNDS")
R_INTEREST_PCT = RULES.field("R_INTEREST_PCT")
R_SELL_PCT = RULES.field("R_SELL_PCT")
R_AUCTION_MIN = RULES.field("R_AUCTION_MIN")
R_AUCTION_STEP = RULES.field("R_AUCTION_STEP")
R_FP_JACKPOT = RULES.field("R_FP_JACKPOT")
R_FP_SEED = RULES.field("R_FP_SEED")
R_AUCTIONS = RULES.field("R_AUCTIONS")
R_EVEN_BUILD = RULES.field("R_EVEN_BUILD")
R_RENT_IN_JAIL = RULES.field("R_RENT_IN_JAIL")
R_SPEEDING = RULES.field("R_SPEEDING")
R_TRADING = RULES.field("R_TRADING")
R_BANKRUPT_AUCTION = RULES.field("R_BANKRUPT_AUCTION")
R_FIRST_LAP = RULES.field("R_FIRST_LAP")
R_INCOME_PCT = RULES.field("R_INCOME_PCT")
R_SNAKE_EYES = RULES.field("R_SNAKE_EYES")
R_MONO_MULT = RULES.field("R_MONO_MULT")
R_INCOME_SQ = RULES.field("R_INCOME_SQ")  # the Income Tax square (-1 if none), for the 10% house rule
R_ANY_TIME = RULES.field("R_ANY_TIME")  # 1: every player may build, lift mortgages and trade between any two turns
R_RR_RENT = RULES.field("R_RR_RENT", MAX_GROUP, at=32)  # [k]: rent with k + 1 railroads
R_UTIL_MULT = RULES.field("R_UTIL_MULT", MAX_GROUP)  # [k]: dice multiplier with k + 1 utilities
R_SQ_KIND = RULES.field("R_SQ_KIND", N_SQ)  # [sq]
R_SQ_GROUP = RULES.field("R_SQ_GROUP", N_SQ)  # [sq]: group or -1
R_SQ_PRICE = RULES.field("R_SQ_PRICE", N_SQ)  # [sq]: price; tax amount on a tax square
R_SQ_HOUSE = RULES.field("R_SQ_HOUSE", N_SQ)  # [sq]: house cost
R_SQ_MORTGAGE = RULES.field("R_SQ_MORTGAGE", N_SQ)  # [sq]
R_SQ_SLOT = RULES.field("R_SQ_SLOT", N_SQ)  # [sq]: position within its group
R_SQ_RENT = RULES.field("R_SQ_RENT", N_SQ, N_LEVELS)  # [sq * 6 + level]
R_GROUP_SIZE = RULES.field("R_GROUP_SIZE", N_GROUPS)  # [g]
R_GROUP_SQ = RULES.field("R_GROUP_SQ", N_GROUPS, MAX_GROUP)  # [g * MAX_GROUP + k]
R_GROUP_STREETS = RULES.field("R_GROUP_STREETS", N_GROUPS)  # [g]: 1 if buildings may go on it
R_NEXT_RR = RULES.field("R_NEXT_RR", N_SQ)  # [sq]: nearest railroad ahead
R_NEXT_UTIL = RULES.field("R_NEXT_UTIL", N_SQ)  # [sq]
R_DECK_SIZE = RULES.field("R_DECK_SIZE", N_DECKS)  # [d]
R_GOOJF_CARD = RULES.field("R_GOOJF_CARD", N_DECKS)  # [d]: index of the deck's jail card, -1 if none
R_CARD_FX = RULES.field("R_CARD_FX", N_DECKS, MAX_CARDS)  # [d * MAX_CARDS + k]
R_CARD_A = RULES.field("R_CARD_A", N_DECKS, MAX_CARDS)
R_CARD_B = RULES.field("R_CARD_B", N_DECKS, MAX_CARDS)
# [p]: seat p's bot kind (strategies.classic), written by kernel.play_game (rules.pack leaves 0)
R_KIND = RULES.field("R_KIND", MAX_PLAYERS)
RULES_SIZE = RULES.end

# ---- state, S[RULES_SIZE:STATE_SIZE] --------------------------------------------------------
STATE = Layout("state", start=RULES_SIZE)
CASH = STATE.field("CASH", MAX_PLAYERS)  # [p]
POS = STATE.field("POS", MAX_PLAYERS)  # [p]: square 0..39
JAIL = STATE.field("JAIL", MAX_PLAYERS)  # [p]: 0 free; k >= 1 in jail with k - 1 failed rolls so far
ALIVE = STATE.field("ALIVE", MAX_PLAYERS)  # [p]
LAPPED = STATE.field("LAPPED", MAX_PLAYERS)  # [p]: 1 once the player has passed GO (first-lap house rule)
MORT_N = STATE.field("MORT_N", MAX_PLAYERS)  # [p]: mortgaged deeds held
WHOLE_N = STATE.field("WHOLE_N", MAX_PLAYERS)  # [p]: whole colour groups (groups that take buildings) held by p
TRADE_SCAN = STATE.field("TRADE_SCAN", MAX_PLAYERS)  # [p]: trade_mark when p last looked for a trade and found none
GOOJF = STATE.field("GOOJF", MAX_PLAYERS, N_DECKS)  # [p * 2 + d]: jail cards of deck d held by p
OWNER = STATE.field("OWNER", N_SQ)  # [sq]: -1 the bank
MORT = STATE.field("MORT", N_SQ)  # [sq]: 1 mortgaged
LEVEL = STATE.field("LEVEL", N_SQ)  # [sq]: 0..4 houses, 5 hotel
GOWN = STATE.field("GOWN", MAX_PLAYERS, N_GROUPS)  # [p * N_GROUPS + g]: deeds of group g held by p
BANK_N = STATE.field("BANK_N", N_GROUPS)  # [g]: deeds of group g the bank holds
DECK = STATE.field("DECK", N_DECKS, MAX_CARDS)  # [d * MAX_CARDS + k]: ring buffer of card indices
DECK_HEAD = STATE.field("DECK_HEAD", N_DECKS)  # [d]
DECK_N = STATE.field("DECK_N", N_DECKS)  # [d]: cards in the deck (a held jail card is out)
G_HOUSES = STATE.field("G_HOUSES")  # houses in the bank
G_HOTELS = STATE.field("G_HOTELS")
G_POT = STATE.field("G_POT")  # Free Parking pot
G_BANK = STATE.field("G_BANK")  # the bank's balance (negative: money issued)
G_TURN = STATE.field("G_TURN")  # turns played
G_ROUND = STATE.field("G_ROUND")
G_CURRENT = STATE.field("G_CURRENT")  # seat whose turn it is
G_STATUS = STATE.field("G_STATUS")  # 0 or the first broken invariant
G_DICE = STATE.field("G_DICE")  # total of the last movement roll
G_EPOCH = STATE.field("G_EPOCH")  # counts deeds changing hands (trade memory, see board.trade_mark)
G_ALIVE_N = STATE.field("G_ALIVE_N")
G_AUCTIONS = STATE.field("G_AUCTIONS")
G_TRADES = STATE.field("G_TRADES")
G_SHORTAGE_AUCTIONS = STATE.field("G_SHORTAGE_AUCTIONS")
G_START_TURN = STATE.field("G_START_TURN")  # turns already played when a position was set up
G_DOUBLES = STATE.field("G_DOUBLES")  # doubles rolled so far this turn (position files)
G_BOARD = STATE.field("G_BOARD")  # counts every change of deeds, buildings or mortgages
P_BOARD = STATE.field("P_BOARD", MAX_PLAYERS)  # [p]: counts changes of p's own deeds, buildings and mortgages
# Management memo: when p last had nothing to lift or build, its P_BOARD and the bank's supply
# (management_key; -1: none), the cash below which it stays idle (or, when MEMO_EXACT, the
# only cash at which it does) and the highest rent it faced then
MEMO_BOARD = STATE.field("MEMO_BOARD", MAX_PLAYERS)  # [p]
MEMO_CASH = STATE.field("MEMO_CASH", MAX_PLAYERS)  # [p]
MEMO_EXACT = STATE.field("MEMO_EXACT", MAX_PLAYERS)  # [p]
MEMO_RENT = STATE.field("MEMO_RENT", MAX_PLAYERS)  # [p]
# [o]: o's P_BOARD counter when RENT_MAX[o] was computed (-1: never)
RENT_BOARD = STATE.field("RENT_BOARD", MAX_PLAYERS)
RENT_MAX = STATE.field("RENT_MAX", MAX_PLAYERS)  # [o]: the highest street rent o's streets charged then
# [p * MAX_PLAYERS + q]: trade_mark when p last offered q a trade
TRADE_STAMP = STATE.field("TRADE_STAMP", MAX_PLAYERS, MAX_PLAYERS)
TR_GIVE = STATE.field("TR_GIVE", MAX_DEEDS)  # trade scratch: deeds the proposer gives
TR_N_GIVE = STATE.field("TR_N_GIVE")
TR_GET = STATE.field("TR_GET", MAX_DEEDS)  # deeds the proposer receives
TR_N_GET = STATE.field("TR_N_GET")
TR_CASH = STATE.field("TR_CASH")  # cash from proposer to partner (negative: the other way)
TR_JAIL_GIVE = STATE.field("TR_JAIL_GIVE")  # jail cards (count) from proposer to partner
TR_JAIL_GET = STATE.field("TR_JAIL_GET")
N_SEAT_COLS = 16
STATS = STATE.field("STATS", MAX_PLAYERS, N_SEAT_COLS)  # [p * N_SEAT_COLS + col]
N_GSTAT = 5
GSTATS = STATE.field("GSTATS", MAX_PLAYERS, N_GROUPS, N_GSTAT)  # [(p * N_GROUPS + g) * N_GSTAT + k]
N_BUF = 64
BUF = STATE.field("BUF", N_BUF)  # scratch for dry runs and policies
# Scripted dice for the rule tests: while DICE_POS < DICE_N, a die shows DICE_SCRIPT[DICE_POS]
# (the kernel never writes DICE_N, so in a normal game the script is empty).
MAX_SCRIPT = 64
DICE_N = STATE.field("DICE_N")
DICE_POS = STATE.field("DICE_POS")
DICE_SCRIPT = STATE.field("DICE_SCRIPT", MAX_SCRIPT)
# Tests set VERIFY_MEMOS in a starting state: every window the memos would skip is played
# anyway, and one that changes anything stops the game with a status code.
VERIFY_MEMOS = STATE.field("VERIFY_MEMOS")
# [d]: cards drawn from deck d this game (how much of its order is seen)
DECK_DRAWS = STATE.field("DECK_DRAWS", N_DECKS)
STATE_SIZE = STATE.end
for _block in (RULES, STATE):
    _block.check(globals())

# ---- per-seat statistics --------------------------------------------------------------------
(
    SC_WIN,
    SC_OUT_TURN,  # turn of bankruptcy, 0 if never
    SC_CASH,
    SC_NET_WORTH,
    SC_TURNS,
    SC_JAIL_TURNS,
    SC_RENT_PAID,
    SC_RENT_RECEIVED,
    SC_BOUGHT,
    SC_AUCTIONS_WON,
    SC_HOUSES_BUILT,
    SC_HOTELS_BUILT,
    SC_TRADES,
    SC_MONOPOLIES,  # bit g: the seat held all of colour group g at some point
    SC_DEEDS,  # deeds held at the end
    SC_MORTGAGES,  # mortgages taken
) = range(N_SEAT_COLS)
SEAT_COLS = (
    "win",
    "out_turn",
    "cash",
    "net_worth",
    "turns",
    "jail_turns",
    "rent_paid",
    "rent_received",
    "bought",
    "auctions_won",
    "houses_built",
    "hotels_built",
    "trades",
    "monopolies",
    "deeds",
    "mortgages",
)
# per seat and group: rent received, money invested (deeds bought + buildings), turn + 1 at which
# the seat first held the whole group (0: never), turns the whole group was held, and (working
# slot) the turn since which it is held
GS_RENT, GS_INVEST, GS_FIRST_FULL, GS_FULL_TURNS, GS_FULL_SINCE = range(N_GSTAT)
GSTAT_COLS = ("rent", "invested", "first_full_turn", "full_turns")

RNG_TABLE = 0


@njit(cache=True)
def rng_policy(p):
    """Offset of seat p's policy stream."""
    return 4 * (1 + p)


RNG_SIZE = 4 * N_STREAMS

# ---- event kinds of a replay's log (sim/core/event_log.py; sentences in sim/classic/events.py)
(
    EV_ROLL,  # seat rolls card and target (the two dice)
    EV_LAND,  # seat lands on square card
    EV_SALARY,  # seat collects amount for passing or landing on GO
    EV_BUY,  # seat buys square card for amount
    EV_BID,  # seat will bid up to amount for square card
    EV_AUCTION,  # seat wins square card at auction for amount (target: the seller; -1 the bank)
    EV_UNSOLD,  # nobody bids enough for square card: it stays with the seller (target; -1 the bank)
    EV_RENT,  # seat pays amount rent for square card to target
    EV_FEE,  # seat pays amount (a tax, fine or card; square card, -1 for a card) to the bank or pot
    EV_CARD,  # seat draws card (deck * MAX_CARDS + index)
    EV_JAIL,  # seat goes to jail
    EV_JAIL_CHOICE,  # seat in jail: card 0 uses a card, 1 pays the fine, 2 rolls for doubles
    EV_LEAVE_JAIL,  # seat leaves jail
    EV_MORTGAGE,  # seat mortgages square card for amount
    EV_LIFT,  # seat lifts the mortgage on square card for amount
    EV_BUILD,  # seat builds on square card for amount; target: the new level (5: hotel)
    EV_SELL,  # seat sells a level of square card back to the bank for amount; target: the level before
    EV_TRADE,  # seat trades with target: amount cash from seat to target (negative: back)
    EV_DEED_MOVES,  # square card passes from target to seat in a trade
    EV_BANKRUPT,  # seat is bankrupt to target (-1: the bank)
    EV_JACKPOT,  # seat collects the Free Parking pot, amount
    EV_PAY_PLAYER,  # seat pays target amount (a card)
    EV_OFFER,  # seat offers target amount cash (negative: asks for it) for square card (and any others)
    EV_ANSWER,  # seat (the partner) values target's offer at amount: card 0 accepts, -1 rejects, c > 0 asks c more
    EV_INTEREST,  # seat owes amount interest on the mortgaged deed of square card it received
    EV_COMES_DOWN,  # a sale short of houses: seat's square card comes down to level target, paid amount
) = range(8, 34)
# Why a game ended (EV_GAME_END's amount).
END_LAST_STANDING, END_ROUND_LIMIT, END_ERROR = range(3)

# ---- decision points (sim/core/decisions.py; sim/classic/decisions.py names the actions) ----
# DK_JAIL: 0 roll for doubles, 1 pay the fine, 2 use a card (strategies.classic's JAIL_*).
# DK_BUY: 1 buy the deed landed on (raising the cash first if short), 0 let it go to auction.
# DK_BID, DK_HOUSE_BID: the most the seat will pay, in dollars (a few levels are listed).
# DK_RAISE: 0 leave the rest to the rules' fixed order; 1 + 2 * sq sell a building of sq,
# 2 + 2 * sq mortgage sq. DK_SELL_DEED, DK_LIFT, DK_FUND, DK_BUILD: 0 none (or stop), else 1 +
# the square (offer it for sale to the others, lift its mortgage, mortgage it to build, build
# on it). DK_LIFT_RECEIVED, DK_COUNTER: 1 yes, 0 no. DK_PROPOSE: 0 none, 1 the bot's own offer,
# else standard_offer(...) below. DK_RESPOND: 0 reject, 1 accept, 2 + c accept for c dollars
# more (a counter-offer).
(DK_JAIL, DK_BUY, DK_BID, DK_RAISE, DK_SELL_DEED, DK_LIFT, DK_FUND, DK_BUILD, DK_HOUSE_BID, DK_LIFT_RECEIVED,
 DK_PROPOSE, DK_RESPOND, DK_COUNTER) = range(13)
MAX_DOLLARS = 65535  # the largest bid or counter an action names (more cash bids this much)
N_ACTIONS = 2 + MAX_DOLLARS + 1
# The standard trade offers: all of seat q's deeds of group g for their printed prices, times
# 3/2 when `premium`, in cash.
OFFER_ACTIONS = 2


@njit(cache=True)
def standard_offer(q, g, premium):
    return OFFER_ACTIONS + 2 * (q * N_GROUPS + g) + premium


def offer_of(action):
    """(q, g, premium) of a standard offer."""
    k = action - OFFER_ACTIONS
    return k // 2 // N_GROUPS, k // 2 % N_GROUPS, k % 2
