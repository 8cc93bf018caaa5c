"""Decision points: where a game's kernel lets a decision be answered from outside it.

Every place a game asks a seat to decide is a decision point with a kind (the game's DK_*
codes) and a finite set of legal actions, small integers (the game's `Decisions` names them:
sim/<game>/decisions.py). The kernel always asks the seat's own compiled bot first, so that
the random streams and the bot's working state advance exactly as in a batch run. Then, only
when the game is being stepped (sim/core/play.py), a seat played from outside takes the next
answer from a queue of answers instead, or, when the queue is spent, the game pauses: the
decision, its legal actions and a copy of the state are written down, and the kernel stops at
its next check of the status (the game sets its PAUSED status).

So that a step costs one turn, not the whole game so far, a game takes a snapshot (its state
and random streams) at the start of each turn while stepped; the step API plays on from the
last snapshot before the waiting decision, with the answers given since (the kernel's
`play_steps` entry resumes from a snapshot where C_RESUME says so).

The channel for this lives in the state array's tail, after the event log
(sim/core/event_log.py): the log's head names where the channel starts (0: none). A batch run's
state has no tail, so each decision point costs one comparison there, and the game played is
the same compiled code either way. A stepped game is replayed from its seed with the answers
given so far, so a continued game is exactly the game a batch run would have played with the
same answers.
"""

from __future__ import annotations

import numpy as np

from sim.core.event_log import EVENT_WIDTH, LOG_HEAD
from sim.core.jit import njit_inline, njit_no_refcount
from sim.core.rng import seed_state

# The channel's head (offsets from its start); the legal actions, the paused state's copy and
# the answers follow it, where the head says.
C_PAUSED = 0  # 1 once a decision waits for its answer
C_OUTSIDE = 1  # bit s: seat s is answered from outside
C_N = 2  # answers in the queue
C_HEAD = 3  # answers used so far
C_KIND = 4  # the waiting decision's kind (the game's DK_*)
C_SEAT = 5  # ... its seat
C_BOT = 6  # ... the seat's own bot's answer, as an action (-1: none of the legal ones)
C_EVENTS = 7  # events logged when it paused
C_N_LEGAL = 8  # legal actions listed
C_LEGAL_AT = 9  # where the legal actions start (from the channel's start)
C_MAX_LEGAL = 10
C_COPY_AT = 11  # where the copy of the paused state starts
C_ANSWERS_AT = 12  # where the answers start
C_ASKED = 13  # decisions of outside seats reached, answered or not
C_RESUME = 14  # 1: play on from the state in S[:state_size] and its random streams (a snapshot)
C_SNAPPED = 15  # 1 once a snapshot was taken
C_SNAP_AT = 16  # where the snapshot's state starts
C_SNAP_HEAD = 17  # answers used when it was taken
C_SNAP_EVENTS = 18  # events logged when it was taken
C_RANDOM = 19  # 1: answer an outside seat at random among the legal actions, never pause
C_RANDOM_STATE = 20  # ... from this generator state (a 31-bit xorshift)
# A resampled game's future randomness: as answer number C_RESEED_AT (from 0) is taken, the random
# streams are seeded afresh from C_RESEED_SALT (nonzero)
C_RESEED_AT = 21
C_RESEED_SALT = 22
C_THEN_BOTS = 23  # 1: once the answers are spent, the seats' bots answer (a search player's rollout)
C_KINDS = 24  # [kind]: decisions of outside seats reached, by kind (MAX_KINDS of them)
MAX_KINDS = 16
CHANNEL_HEAD = C_KINDS + MAX_KINDS

MAX_LEGAL = 2048  # room for legal actions; a game's largest decision must fit


def stepping_state(state_size: int, log_rows: int, outside: int, answers: list[int],
                   start: np.ndarray | None = None, random_seed: int = 0,
                   reseed: tuple[int, int] | None = None, then_bots: bool = False) -> np.ndarray:
    """A state array for a stepped game: the state (a snapshot to resume from, or zeros for
    the game's start), an event log of `log_rows` rows and the channel, with the seats in bit
    mask `outside` answered from `answers` in order, then (random_seed > 0) at random, or
    (then_bots) by their own bots to the game's end; with `reseed` (answer number, salt), fresh
    random streams as that answer is taken."""
    return stepping_states(state_size, log_rows, [(outside, answers, start, reseed)], random_seed, then_bots)[0]


def stepping_states(state_size: int, log_rows: int, games: list[tuple], random_seed: int = 0,
                    then_bots: bool = False) -> np.ndarray:
    """stepping_state for several games at once, a row each (the playouts of a search):
    games = [(outside, answers, start, reseed), ...]. A game the bots play on to its end
    (then_bots) never pauses: it has no room for a paused decision nor for snapshots."""
    ch = state_size + LOG_HEAD + log_rows * EVENT_WIDTH
    room = 0 if then_bots else MAX_LEGAL
    legal_at = CHANNEL_HEAD
    copy_at = legal_at + room
    snap_at = copy_at + (0 if then_bots else state_size)
    answers_at = snap_at + (0 if then_bots else state_size)
    S = np.zeros((len(games), ch + answers_at + max(len(g[1]) for g in games)), np.int32)
    C = S[:, ch:]  # the channels
    S[:, state_size + 1] = log_rows
    S[:, state_size + 2] = ch
    if random_seed:
        C[:, C_RANDOM] = 1
        C[:, C_RANDOM_STATE] = random_seed & 0x7FFFFFFF or 1
    C[:, C_THEN_BOTS] = then_bots
    C[:, C_LEGAL_AT] = legal_at
    C[:, C_MAX_LEGAL] = room
    C[:, C_COPY_AT] = copy_at
    C[:, C_SNAP_AT] = snap_at
    C[:, C_ANSWERS_AT] = answers_at
    for i, (outside, answers, start, reseed) in enumerate(games):
        if start is not None:
            S[i, :state_size] = start
            C[i, C_RESUME] = 1
        C[i, C_OUTSIDE] = outside
        C[i, C_N] = len(answers)
        if reseed is not None:
            C[i, C_RESEED_AT], C[i, C_RESEED_SALT] = reseed
        C[i, answers_at:answers_at + len(answers)] = answers
    return S


@njit_inline
def resuming(S, state_size):
    """Whether play_steps is to play on from the snapshot in S[:state_size]."""
    return S.shape[0] > state_size and S[state_size + 2] > 0 and S[S[state_size + 2] + C_RESUME] == 1


@njit_inline
def snapshot(S, state_size, rng, rng_size):
    """At the start of a turn: keep the state and the random streams (in rng[rng_size:], which
    a stepped game's rng array has room for) to resume from, while no decision waits and the
    game may still pause (not in a playout)."""
    if S.shape[0] > state_size:
        ch = S[state_size + 2]
        if ch > 0 and S[ch + C_PAUSED] == 0 and S[ch + C_THEN_BOTS] == 0:
            at = ch + S[ch + C_SNAP_AT]
            for k in range(state_size):
                S[at + k] = S[k]
            for k in range(rng_size):
                rng[rng_size + k] = rng[k]
            S[ch + C_SNAPPED] = 1
            S[ch + C_SNAP_HEAD] = S[ch + C_HEAD]
            S[ch + C_SNAP_EVENTS] = S[state_size]


@njit_inline
def outside(S, state_size, seat):
    """Whether this decision of `seat` is answered from outside the kernel: the game is stepped,
    the seat is played from outside, no decision waits yet, and the answers are not spent in a
    game whose bots answer after them."""
    if S.shape[0] > state_size:
        ch = S[state_size + 2]
        return (ch > 0 and S[ch + C_PAUSED] == 0 and (S[ch + C_OUTSIDE] >> seat) & 1 == 1
                and (S[ch + C_THEN_BOTS] == 0 or S[ch + C_HEAD] < S[ch + C_N]))
    return False


@njit_inline
def played_from_outside(S, state_size, seat):
    """Whether `seat` is played from outside in this stepped game, answers spent or not: a bot
    memo that skips a seat's decisions never skips such a seat (its answers are not its bot's,
    so what the memo says its bot found may not hold), and a playout after the answers plays
    exactly the game the step API would play answering with the bots."""
    if S.shape[0] > state_size:
        ch = S[state_size + 2]
        return ch > 0 and (S[ch + C_OUTSIDE] >> seat) & 1 == 1
    return False


@njit_no_refcount
def take_answer(S, state_size, rng, kind, seat, bot):
    """The outside answer to this decision (call only where `outside` said so); -1 when the
    answers are spent: then the caller lists the legal actions (add_legal) and asks
    listed_answer. A resampled game's random streams (rng, the game's) are seeded afresh as
    its answer number C_RESEED_AT is taken: what follows that answer is a future of its own."""
    ch = S[state_size + 2]
    S[ch + C_ASKED] += 1
    S[ch + C_KINDS + kind] += 1
    S[ch + C_N_LEGAL] = 0
    h = S[ch + C_HEAD]
    if h < S[ch + C_N]:
        S[ch + C_HEAD] = h + 1
        salt = S[ch + C_RESEED_SALT]
        if salt != 0 and h == S[ch + C_RESEED_AT]:
            for s in range(rng.shape[0] // 8):  # a stepped game's rng holds its streams, then their snapshot
                seed_state(rng, 4 * s, salt, 0, s)
            S[ch + C_RESEED_SALT] = 0
        return S[ch + S[ch + C_ANSWERS_AT] + h]
    if S[ch + C_RANDOM] == 1 or S[ch + C_THEN_BOTS] == 1:
        return -1
    S[ch + C_PAUSED] = 1
    S[ch + C_KIND] = kind
    S[ch + C_SEAT] = seat
    S[ch + C_BOT] = bot
    S[ch + C_EVENTS] = S[state_size]
    S[ch + C_N_LEGAL] = 0
    at = ch + S[ch + C_COPY_AT]
    for k in range(state_size):
        S[at + k] = S[k]
    return -1


@njit_no_refcount
def add_legal(S, state_size, action):
    """List one legal action of the waiting decision (in increasing order, each once)."""
    ch = S[state_size + 2]
    n = S[ch + C_N_LEGAL]
    if n < S[ch + C_MAX_LEGAL]:
        S[ch + S[ch + C_LEGAL_AT] + n] = action
    S[ch + C_N_LEGAL] = n + 1


@njit_no_refcount
def listed_answer(S, state_size, status_at, paused):
    """After take_answer's -1 and the listing: a legal action drawn at random in a random-answer
    run; -1 in a game whose bots answer once the answers are spent (a decision reached after
    the `outside` that let the seat answer: a payment's next card); else -1, and the decision
    waits: S[status_at] becomes the game's `paused` status, so that the game stops at its next
    status check. On -1 the caller plays on with its bot's answer."""
    ch = S[state_size + 2]
    if S[ch + C_THEN_BOTS] == 1:
        return -1
    n = S[ch + C_N_LEGAL]
    if S[ch + C_RANDOM] == 0 or n == 0:
        S[status_at] = paused
        return -1
    x = S[ch + C_RANDOM_STATE]
    x ^= (x << 13) & 0x7FFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0x7FFFFFFF
    S[ch + C_RANDOM_STATE] = x
    return S[ch + S[ch + C_LEGAL_AT] + x % min(n, S[ch + C_MAX_LEGAL])]


@njit_no_refcount
def yes_no(S, state_size, rng, status_at, paused, kind, seat, bot):
    """A yes-or-no decision point (action 0 no, 1 yes): the bot's answer `bot`, or, for a seat
    played from outside, the outside one (listed_answer says what status_at and paused are)."""
    if outside(S, state_size, seat):
        a = take_answer(S, state_size, rng, kind, seat, 1 if bot else 0)
        if a < 0:
            add_legal(S, state_size, 0)
            add_legal(S, state_size, 1)
            a = listed_answer(S, state_size, status_at, paused)
        if a >= 0:
            return a == 1
    return bot
