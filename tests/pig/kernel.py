"""Pig's kernel: a one-die press-your-luck game. A player rolls as often as it likes; a 1 loses
the turn's total and ends the turn; holding banks the total; the first to the goal wins (the
game stops the moment a player's score and turn total reach it). The first roll of a turn is
always made. Two players; seat 0 starts.

The game's state is one int32 array: the rules and the seats' kinds, then the scores and the
turn; a stepped game's event log and decision channel follow it (sim/core/decisions.py).
"""

import numpy as np
from numba import njit, prange

from sim.core.decisions import resuming, snapshot, yes_no
from sim.core.event_log import EV_GAME_END, EV_TURN, log_event
from sim.core.layout import Layout
from sim.core.rng import randint, seed_state

MAX_PLAYERS = 2
SEAT_COLS = ("win", "score", "turns", "rolls", "busts")
SC_WIN, SC_SCORE, SC_TURNS, SC_ROLLS, SC_BUSTS = range(len(SEAT_COLS))
N_SEAT_COLS = len(SEAT_COLS)
# rules, S[:RULES_SIZE]
RULES = Layout("rules")
R_PLAYERS = RULES.field("R_PLAYERS")
R_GOAL = RULES.field("R_GOAL")
R_DIE = RULES.field("R_DIE")
R_MAX_TURNS = RULES.field("R_MAX_TURNS")
R_KIND = RULES.field("R_KIND", MAX_PLAYERS)
RULES_SIZE = RULES.end
# state
STATE = Layout("state", start=RULES_SIZE)
SCORE = STATE.field("SCORE", MAX_PLAYERS)
G_CURRENT = STATE.field("G_CURRENT")
G_TOTAL = STATE.field("G_TOTAL")  # the turn's total
G_TURNS = STATE.field("G_TURNS")
G_WINNER = STATE.field("G_WINNER")
G_STATUS = STATE.field("G_STATUS")
STATS = STATE.field("STATS", MAX_PLAYERS, N_SEAT_COLS)
STATE_SIZE = STATE.end
RNG_SIZE = 4  # one stream: the die (the bots draw nothing)

GAME_COLS = ("winner", "turns", "hit_turn_limit", "status")
G_WINNER_OUT, G_TURNS_OUT, G_CAPPED, G_STATUS_OUT = range(len(GAME_COLS))
N_GAME_COLS = len(GAME_COLS)
OK, ERR_SCORE, PAUSED = range(3)
STATUS_NAMES = ("ok", "a score or turn total out of range", "stopped at a decision (a stepped game)")

EV_ROLL, EV_BUST, EV_HOLD = range(8, 11)  # seat rolls card; seat loses the turn's amount; seat banks amount
END_GOAL, END_TURN_LIMIT = range(2)
DK_ROLL = 0  # 1 rolls again, 0 holds
HOLD_AT, TABLE = range(2)  # bot kinds: hold at a turn total of param 0; the policy table pt


@njit(cache=True)
def log(S, kind, seat, card, amount, target):
    log_event(S, STATE_SIZE, kind, seat, card, amount, target)


@njit(cache=True)
def bot_rolls(pp, pt, S, p, total):
    """Seat p's bot: roll again with this turn total?"""
    if S[R_KIND + p] == TABLE:
        goal = S[R_GOAL]
        return pt[(S[SCORE + p] * goal + S[SCORE + 1 - p]) * goal + total] > 0.5
    return total < pp[p, 0]


@njit(cache=True)
def play_turn(S, pp, pt, rng, p):
    S[G_TOTAL] = 0
    S[STATS + p * N_SEAT_COLS + SC_TURNS] += 1
    log(S, EV_TURN, p, 0, S[SCORE + p], -1)
    for _ in range(1 << 20):
        r = randint(rng, 0, S[R_DIE]) + 1
        S[STATS + p * N_SEAT_COLS + SC_ROLLS] += 1
        log(S, EV_ROLL, p, r, 0, -1)
        if r == 1:
            log(S, EV_BUST, p, 0, S[G_TOTAL], -1)
            S[STATS + p * N_SEAT_COLS + SC_BUSTS] += 1
            S[G_TOTAL] = 0
            return
        S[G_TOTAL] += r
        if S[SCORE + p] + S[G_TOTAL] >= S[R_GOAL] or not yes_no(
                S, STATE_SIZE, rng, G_STATUS, PAUSED, DK_ROLL, p, bot_rolls(pp, pt, S, p, S[G_TOTAL])):
            S[SCORE + p] += S[G_TOTAL]
            log(S, EV_HOLD, p, 0, S[G_TOTAL], S[SCORE + p])
            S[G_TOTAL] = 0
            return
        if S[G_STATUS] != OK:
            return


@njit(cache=True)
def play_game(S, pk, pp, pt, rng, seed, game, check, game_out, seat_out, row):
    n = S[R_PLAYERS]
    if not resuming(S, STATE_SIZE):
        seed_state(rng, 0, seed, game, 0)
        for i in range(RULES_SIZE, STATE_SIZE):
            S[i] = 0
        for p in range(n):
            S[R_KIND + p] = pk[p]
        S[G_WINNER] = -1
    capped = 0
    while S[G_STATUS] == OK:
        snapshot(S, STATE_SIZE, rng, RNG_SIZE)
        if S[G_TURNS] >= S[R_MAX_TURNS]:
            capped = 1
            break
        p = S[G_CURRENT]
        play_turn(S, pp, pt, rng, p)
        S[G_TURNS] += 1
        if check and S[G_STATUS] == OK and not (0 <= S[SCORE + p] < S[R_GOAL] + S[R_DIE]):
            S[G_STATUS] = ERR_SCORE
        if S[SCORE + p] >= S[R_GOAL]:
            S[G_WINNER] = p
            break
        S[G_CURRENT] = (p + 1) % n
    w = S[G_WINNER]
    for p in range(n):
        S[STATS + p * N_SEAT_COLS + SC_WIN] = 1 if p == w else 0
        S[STATS + p * N_SEAT_COLS + SC_SCORE] = S[SCORE + p]
        for col in range(N_SEAT_COLS):
            seat_out[p, col, row] = S[STATS + p * N_SEAT_COLS + col]
    game_out[G_WINNER_OUT, row] = w
    game_out[G_TURNS_OUT, row] = S[G_TURNS]
    game_out[G_CAPPED, row] = capped
    game_out[G_STATUS_OUT, row] = S[G_STATUS]
    log(S, EV_GAME_END, w, 0, END_TURN_LIMIT if capped else END_GOAL, -1)


@njit(cache=True)
def play_steps(RB, S0, pk, pp, pt, seed, game, check, detail, game_out, seat_out, detail_out, S, rng, row):
    """Game `game` into output column `row`, in the caller's state S and streams rng, to the
    first decision waiting for an outside answer (sim/core/decisions.py)."""
    if not resuming(S, STATE_SIZE):
        S[:RULES_SIZE] = RB
    play_game(S, pk, pp, pt, rng, seed, game, check, game_out, seat_out, row)

@njit(cache=True, parallel=True, nogil=True)
def play_rollouts(RB, S0, pk, pp, pt, seed, game, check, game_out, seat_out, detail_out, Ss, rngs):
    """A search player's rollouts (sim/core/search.py): game `game` played on from each row of
    Ss, a stepped state (a turn's snapshot, the answers to give, then every seat's bot), with
    the random streams in the same row of rngs, into column r of game_out and seat_out."""
    for r in prange(Ss.shape[0]):
        play_steps(RB, S0, pk, pp, pt, seed, game, check, False, game_out, seat_out, detail_out, Ss[r], rngs[r], r)



@njit(cache=True, parallel=True)
def play_batch(RB, S0, pk, pp, pt, seed, first, n_games, check, detail, game_out, seat_out, detail_out, row0):
    n_blocks = min(n_games, 256)
    for b in prange(n_blocks):
        S = np.zeros(STATE_SIZE, np.int32)
        S[:RULES_SIZE] = RB
        rng = np.zeros(RNG_SIZE, np.uint64)
        for row in range(b * n_games // n_blocks, (b + 1) * n_games // n_blocks):
            play_game(S, pk, pp, pt, rng, seed, first + row, check, game_out, seat_out, row0 + row)
