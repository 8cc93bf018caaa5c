"""The step API: one game, decision by decision, from Python.

    from sim.core.play import new_game
    s = new_game("cardgame", seats=["smart", "smart", "smart"], outside=[0], seed=1)
    while not s.is_terminal():
        s.apply(my_agent(s.observation(s.current_player), s.legal_actions()))
    s.returns()

A ``State`` is a game of a run (seed, game number, seats, rules) and the answers its outside
seats gave so far. The seats not played from Python are played by their compiled bots in
between. The game's own kernel (its ``play_steps`` entry) plays it, up to the next decision of
an outside seat (sim/core/decisions.py): from the seed at first, then from the snapshot it took
at the start of the turn with the answers given since. So a stepped game is exactly the game a
batch run would play with the same answers, a step costs about one turn, and a clone shares
everything but its answers (nothing a state holds is changed in place).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.core import search
from sim.core.decisions import (
    C_BOT,
    C_COPY_AT,
    C_EVENTS,
    C_KIND,
    C_KINDS,
    C_LEGAL_AT,
    C_MAX_LEGAL,
    C_N_LEGAL,
    C_PAUSED,
    C_SEAT,
    C_SNAP_AT,
    C_SNAP_EVENTS,
    C_SNAP_HEAD,
    C_SNAPPED,
    MAX_KINDS,
    stepping_state,
    stepping_states,
)
from sim.core.event_log import EVENT_WIDTH, LOG_HEAD
from sim.core.game import api_errors, get
from sim.core.replay import Context, events_table
from sim.core.runner import UsageError

__all__ = ["TERMINAL", "DecisionKind", "Decisions", "State", "new_game", "random_answers"]  # the public API

TERMINAL = -4  # current_player of a finished game (OpenSpiel's number for it)
FIRST_LOG_ROWS = 1024  # event rows of the first try; a longer game is played again with room


@dataclass(frozen=True)
class DecisionKind:
    """One kind of decision: its name and what its actions mean, in words (docs/decisions.md)."""

    name: str
    question: str


@dataclass(frozen=True)
class Decisions:
    """A game's decision points (its `decisions` in the registry): the kinds (the kernel's DK_*
    codes), how many actions any decision may have (actions are 0 .. n_actions - 1), an
    action's name, and what a seat may see."""

    kinds: dict[int, DecisionKind]
    n_actions: int
    action_name: Callable[[Context, int, int, int], str]  # (context, kind, seat, action) -> words
    # (context, state array, seat) -> what the seat may see, as plain data
    observe: Callable[[Context, np.ndarray, int], dict]
    # (event kind, its seat, its target, the reader's seat) -> whether the event's card is
    # hidden from the reader (a card drawn by someone else); default: every event is public
    hides_card: Callable[[int, int, int, int], bool] = lambda kind, seat, target, reader: False
    # (context, a turn's snapshot state, seat, the events since it, the cards shown since it,
    # numpy Generator) -> a copy with what the seat could not see dealt afresh, keeping what the
    # turn has shown it in place
    redeal: Callable[[Context, np.ndarray, int, np.ndarray, set, np.random.Generator], np.ndarray] | None = None
    # (decision kind, action) -> the cards the action shows everyone (a card played from a hand)
    shows: Callable[[int, int], list[int]] = lambda kind, action: []
    # (the events since the turn's start) -> whether a resample now would keep in place some
    # order no seat can know (Chance: a pile shuffled this turn); a search leaves such a
    # decision to its base bot
    leaks: Callable[[np.ndarray], bool] = lambda events: False
    # (context, state array, seat) -> what the seat sees as numbers, of one length for a table:
    # the observation of reinforcement-learning interfaces (sim/core/pettingzoo.py)
    features: Callable[[Context, np.ndarray, int], np.ndarray] | None = None


def counted(names) -> dict[str, int]:
    """How many of each name, sorted by name: cards in an observation."""
    return dict(sorted(Counter(names).items()))


def name_counts(names, vocabulary: list[str]) -> list[int]:
    """How many of each vocabulary name `names` holds (a list of names, or a dict name -> count):
    cards in a seat's features."""
    held = names if isinstance(names, dict) else Counter(names)
    return [int(held.get(v, 0)) for v in vocabulary]


class State:
    """One game at a decision of an outside seat, or finished (see the module's text). Make one
    with ``new_game``."""

    def __init__(self, run, game_index: int, outside: int, check: bool):
        self._run, self._game_index, self._check = run, game_index, check
        self._outside = outside | sum(1 << s for s in run.search)  # the search seats answer from outside too
        self._answers: tuple[int, ...] = ()
        self._asked: tuple[tuple[int, int], ...] = ()  # (seat, kind) of the decision each answer answered
        # Where the next play starts: the last snapshot (state, random streams) before the
        # waiting decision, the answers used before it and the events logged before it.
        self._start: np.ndarray | None = None
        self._start_rng: np.ndarray | None = None
        self._used = 0
        self._events_before = np.zeros((0, EVENT_WIDTH), np.int32)
        # A resampled game's fresh future: (the number of the answer it starts from, salt), until
        # a snapshot is taken after that answer (its random streams are then the new ones)
        self._reseed: tuple[int, int] | None = None
        self._rows = FIRST_LOG_ROWS
        self._ctx = Context(run.rules, run.inputs.rules, run.deck_edits, {})
        # The search seats (sim/core/search.py) answer their own decisions as they come, and
        # what each search found: (answers before it, events before it, seat, decision kind,
        # the base bot's action, its ActionValues)
        self._searchers = run.search
        self._searched: tuple[tuple, ...] = ()
        self._known: tuple | None = None  # resample's view of the seat it last resampled for
        self._play()
        self._search_on()

    # ---- playing ----

    def _play(self) -> None:
        run, g = self._run, self._run.game
        k = run.inputs
        size, rng_size = g.kernel.module.STATE_SIZE, g.kernel.module.RNG_SIZE
        while True:
            reseed = None if self._reseed is None else (self._reseed[0] - self._used, self._reseed[1])
            S = stepping_state(size, self._rows, self._outside, list(self._answers[self._used:]), self._start,
                               reseed=reseed)
            rng = np.zeros(2 * rng_size, np.uint64)
            if self._start_rng is not None:
                rng[:rng_size] = self._start_rng
            outputs = g.outputs(1, run.players, False)
            run.kernel_call("play_steps", k.rules, k.start, run.kinds, k.params, k.tables, np.uint64(run.seed),
                            self._game_index, self._check, False, *outputs, S, rng, 0)
            ch = int(S[size + 2])
            paused = bool(S[ch + C_PAUSED])
            n_events = int(S[ch + C_EVENTS] if paused else S[size])
            if n_events <= self._rows:
                break
            self._rows = n_events
        log = S[size + LOG_HEAD:size + LOG_HEAD + n_events * EVENT_WIDTH].reshape(n_events, EVENT_WIDTH)
        self._S, self._ch, self._outputs, self._paused = S, ch, outputs, paused
        self._log = log  # the events since the snapshot played from (the whole list: _events)
        if paused and S[ch + C_SNAPPED]:
            at = ch + int(S[ch + C_SNAP_AT])
            self._start = S[at:at + size].copy()
            self._start_rng = rng[rng_size:].copy()
            self._used += int(S[ch + C_SNAP_HEAD])
            if self._reseed is not None and self._used > self._reseed[0]:
                self._reseed = None  # done: the snapshot came after it, with the fresh streams
            snapped = int(S[ch + C_SNAP_EVENTS])
            self._events_before = np.concatenate([self._events_before, log[:snapped]])
            self._log = log[snapped:]
        if not paused:
            status = int(outputs[0][g.kernel.module.G_STATUS_OUT, 0])
            if status != g.kernel.module.OK:
                raise RuntimeError(f"game {self._game_index} of seed {run.seed} stopped: "
                                   f"{g.kernel.module.STATUS_NAMES[status]}")

    @property
    def _events(self) -> np.ndarray:
        """Every event so far, as rows of the log (built when asked: a step need not copy the
        whole game's events)."""
        return np.concatenate([self._events_before, self._log])

    def _cell(self, at: int) -> int:
        return int(self._S[self._ch + at])

    def clone(self) -> State:
        """An independent copy."""
        twin = object.__new__(State)
        twin.__dict__.update(self.__dict__)  # the context too: its memo holds what the rules give
        return twin

    def apply(self, action: int) -> None:
        """Answer the waiting decision with one of its legal actions."""
        if self.is_terminal():
            raise UsageError("the game is over: no decision waits")
        legal = self.legal_actions()
        if action not in legal:
            raise UsageError(f"action {action} is not legal here; the legal actions are {legal}")
        self._answer(int(action))
        self._search_on()

    def _answer(self, action: int) -> None:
        self._answers = self._answers + (action,)
        self._asked = self._asked + ((self._cell(C_SEAT), self._cell(C_KIND)),)
        self._play()

    def _search_on(self) -> None:
        """Answer the waiting decisions of search seats, each by its search (seeded from the
        run's seed, the game and the answers so far: the same game searches the same way)."""
        while self._paused and self._cell(C_SEAT) in self._searchers:
            seat = self._cell(C_SEAT)
            rng = np.random.default_rng([self._run.seed, self._game_index, seat, len(self._answers)])
            bot = self.bot_action()
            action, values = search.choose(self, self._searchers[seat], rng)
            self._searched += ((len(self._answers), self.n_events, seat, self.decision, bot, tuple(values)),)
            self._answer(action)

    @property
    def searched(self) -> pd.DataFrame:
        """What the search seats found at each decision they searched: one row per action
        valued (answer number, events logged before it, seat, decision, action, its name, its
        estimated share of the win, playouts, whether it was taken, and whether it is the base
        bot's)."""
        rows = [(n, e, seat, kind, v.action, v.name, v.value, v.rollouts, i == 0, v.action == bot)
                for n, e, seat, kind, bot, values in self._searched for i, v in enumerate(values)]
        return pd.DataFrame(rows, columns=["answer", "event", "seat", "decision", "action", "name", "value",
                                           "rollouts", "taken", "bot"])

    def child(self, action: int) -> State:
        """A copy with `action` applied."""
        twin = self.clone()
        twin.apply(action)
        return twin

    # ---- the decision waiting ----

    def is_terminal(self) -> bool:
        return not self._paused

    @property
    def current_player(self) -> int:
        """The seat to decide; TERMINAL when the game is over."""
        return self._cell(C_SEAT) if self._paused else TERMINAL

    @property
    def decision(self) -> str:
        """The waiting decision's kind, by name ("" when the game is over)."""
        return self._book.kinds[self._cell(C_KIND)].name if self._paused else ""

    @property
    def question(self) -> str:
        """What the waiting decision asks, in words."""
        return self._book.kinds[self._cell(C_KIND)].question if self._paused else ""

    def legal_actions(self) -> list[int]:
        if not self._paused:
            return []
        n = self._cell(C_N_LEGAL)
        if n > self._cell(C_MAX_LEGAL):
            raise RuntimeError(f"{n} legal actions is more than the step API has room for")
        at = self._ch + self._cell(C_LEGAL_AT)
        return self._S[at:at + n].tolist()

    def action_name(self, action: int) -> str:
        return self._book.action_name(self._ctx, self._cell(C_KIND), self._cell(C_SEAT), int(action))

    def bot_action(self) -> int | None:
        """What the seat's own compiled bot answers here (None if that is not a legal action)."""
        a = self._cell(C_BOT)
        return a if a in self.legal_actions() else None

    def default_action(self) -> int:
        """The seat's bot's answer, or the first legal action where it has none: how a seat
        plays that nobody answers for (a search's other seats and its base, OpenSpiel's bots)."""
        bot = self.bot_action()
        return self.legal_actions()[0] if bot is None else bot

    @property
    def answers(self) -> tuple[int, ...]:
        """The answers given to apply() so far, in order: with the run's settings, the whole game
        (a search seat's are not among them: given the same game, it answers the same again)."""
        searched = {n for n, *_ in self._searched}
        return tuple(a for n, a in enumerate(self._answers) if n not in searched)

    # ---- what can be seen ----

    def observation(self, seat: int) -> dict:
        """What `seat` may see now, as plain data (its hidden cards stay hidden)."""
        if not 0 <= seat < self._run.players:
            raise UsageError(f"seat must be 0 to {self._run.players - 1} (got {seat})")
        return self._book.observe(self._ctx, self._paused_state(), seat)

    def features(self, seat: int) -> np.ndarray:
        """What `seat` may see now as numbers, of one length for the table (the game's features:
        PettingZoo's observation)."""
        if self._book.features is None:
            raise UsageError(f"{self._run.game.title} has no numeric features")
        if not 0 <= seat < self._run.players:
            raise UsageError(f"seat must be 0 to {self._run.players - 1} (got {seat})")
        return self._book.features(self._ctx, self._paused_state(), seat)

    def fields(self) -> dict:
        """The whole game by name, as the game's layout declares it (sim/<game>/layout.py): the
        rules block's fields, then the state's, arrays as views of their shape. Every card
        shows, hidden ones too: for debugging and tests; what a seat may see is `observation`."""
        layout = self._run.game.kernel.layout
        return {**layout.RULES.decode(self._run.inputs.rules), **layout.STATE.decode(self._paused_state().copy())}

    def _paused_state(self) -> np.ndarray:
        """The game's state array at the waiting decision (at the end, once over)."""
        size = self._run.game.kernel.module.STATE_SIZE
        at = self._ch + self._cell(C_COPY_AT) if self._paused else 0
        return self._S[at:at + size]

    def events(self) -> pd.DataFrame:
        """The game's events so far, as a replay's table (sim/core/replay.py)."""
        return events_table(self._run.game.kernel.events, self._ctx, self._game_index, self._events)

    def resample(self, seat: int, rng: np.random.Generator, tries: int = 200) -> State:
        """The same game as `seat` knows it, with what it cannot see dealt afresh (other hands,
        the order of the piles): for search players that sample the hidden cards. The cards are
        dealt again at the start of the turn, keeping what the turn has shown the seat in place,
        and the turn is played again with the same answers. Another seat's decision that the
        seat could not see arise (a Just Say No declined, which only a seat holding one is asked)
        may not arise in the new deal: its answer is dropped; one that arises only there is
        answered by that seat's bot. A deal after which the seat would have seen anything else
        this turn, or would face another decision, is drawn again, up to `tries` times
        (RuntimeError then). From the answer to the waiting decision on, the game draws fresh
        random numbers (seeded from `rng`): the original's future dice and reshuffles stay
        unknown."""
        redeal = self._book.redeal
        if redeal is None:
            raise UsageError(f"{self._run.game.title} cannot resample its hidden cards yet")
        if self.is_terminal() or self._start is None:
            raise UsageError("no decision waits: nothing to resample")
        if not 0 <= seat < self._run.players:
            raise UsageError(f"seat must be 0 to {self._run.players - 1} (got {seat})")
        since = len(self._events_before)
        key = (seat, self._answers)  # what the seat knows, worked out once for many resamples
        if self._known is None or self._known[0] != key:
            pending = list(zip(self._asked[self._used:], self._answers[self._used:]))
            shown = shown_cards(self._run.game.kernel.events, self._log, seat, self._book.hides_card)
            for (_, kind), a in pending:
                shown.update(self._book.shows(kind, a))
            self._known = (key, self._seen_rows(seat, since), self.observation(seat), pending, shown,
                           self.legal_actions() if seat == self.current_player else None)
        _, view, seen, pending, shown, legal = self._known
        events = self._log
        for _ in range(tries):
            twin = self.clone()
            twin._start = redeal(self._ctx, self._start, seat, events, shown, rng)
            twin._answers, twin._asked = self._answers[:self._used], self._asked[:self._used]
            twin._reseed, twin._searchers = None, {}  # a world's seats answer as told: no search in it
            twin._known = None
            twin._play()
            if twin._replay(pending, seat) and (twin._seen_rows(seat, since) == view
                        and twin.observation(seat) == seen and twin.current_player == self.current_player
                        and twin.decision == self.decision
                        and (legal is None or twin.legal_actions() == legal)):
                twin._reseed = (len(twin._answers), int(rng.integers(1, 2**31 - 1)))
                return twin
        raise RuntimeError(f"no deal of the hidden cards agrees with what seat {seat} saw this turn "
                           f"in {tries} tries")

    def resample_leaks(self) -> bool:
        """Whether a resample now would keep some hidden order in place (the game's `leaks`)."""
        return self._book.leaks(self._log)

    def _replay(self, pending: list, seat: int) -> bool:
        """Give the pending ((seat, kind), answer) pairs to the decisions as they arise, for
        resample; False when the seat's own decisions do not come out the same."""
        i = 0
        for _ in range(4 * len(pending) + 64):
            if i == len(pending) or self.is_terminal():
                return i == len(pending) and not self.is_terminal()
            here = (self.current_player, self._cell(C_KIND))
            asked, answer = pending[i]
            later = [q for q, _ in pending[i + 1:]]
            if here == asked:
                if answer not in self.legal_actions():
                    return False
                self.apply(answer)
                i += 1
            elif asked[0] != seat and (here[0] == seat or here in later):
                i += 1  # another seat's decision that does not arise in this deal: its answer goes
            elif here[0] != seat:
                self.apply(self.default_action())  # another seat's decision that arises only in this deal
            else:
                return False
        return False

    def seen_events(self, seat: int, start: int = 0) -> list[str]:
        """The events from number `start` on, in words, as `seat` sees them: a card it may
        not see is "a card"."""
        book, hides = self._run.game.kernel.events, self._book.hides_card
        return [book.sentence(self._ctx, kind, s, card, amount, target,
                              "a card" if hides(kind, s, target, seat) else None)
                for kind, s, card, amount, target in self._events[start:].tolist()]

    def _seen_rows(self, seat: int, start: int) -> list[tuple]:
        """seen_events as the log's rows: a card `seat` may not see is -1 (resample compares
        these)."""
        hides = self._book.hides_card
        return [(kind, s, -1 if hides(kind, s, target, seat) else card, amount, target)
                for kind, s, card, amount, target in self._events[start:].tolist()]

    @property
    def n_events(self) -> int:
        """Events logged so far."""
        return len(self._events_before) + len(self._log)

    def returns(self) -> list[float]:
        """Each seat's share of the win once the game is over (1 for a sole winner, 1/k each for
        k seats sharing it), all 0 before."""
        seat_out = self._outputs[1]
        wins = seat_out[:, self._run.game.kernel.win_col, 0].astype(float)
        if self._paused or wins.sum() == 0:
            return [0.0] * self._run.players
        return (wins / wins.sum()).tolist()

    def row(self) -> pd.DataFrame:
        """The finished game's row of the per-game table, as a batch run writes it."""
        if self._paused:
            raise UsageError("the game is not over yet")
        return self._run.frame(self._outputs, self._game_index)

    @property
    def players(self) -> int:
        return self._run.players

    @property
    def _book(self) -> Decisions:
        return self._run.game.kernel.decisions

    def __repr__(self) -> str:
        if self._paused:
            return (f"<{self._run.game.name} game {self._game_index}: seat {self.current_player} decides "
                    f"{self.decision}, {len(self.legal_actions())} legal actions>")
        return f"<{self._run.game.name} game {self._game_index}: over, returns {self.returns()}>"


PLAYOUT_CHUNK = 1024  # playouts a kernel call: their states are all in memory at once


def playouts(pairs: list[tuple[State, int]]) -> np.ndarray:
    """For each (state, action) of one game (a search's worlds): the game played on from the
    state with the action, then every seat by its own bot to the end, in the kernel's
    play_rollouts (PLAYOUT_CHUNK pairs a parallel call). Each seat's share of the win, a row a
    pair."""
    return np.concatenate([_playouts(pairs[i:i + PLAYOUT_CHUNK]) for i in range(0, len(pairs), PLAYOUT_CHUNK)])


def _playouts(pairs: list[tuple[State, int]]) -> np.ndarray:
    first = pairs[0][0]
    run, g = first._run, first._run.game
    size, rng_size = g.kernel.module.STATE_SIZE, g.kernel.module.RNG_SIZE
    Ss = stepping_states(size, 0, [(st._outside, [*st._answers[st._used:], action], st._start,
                                    None if st._reseed is None else (st._reseed[0] - st._used, st._reseed[1]))
                                   for st, action in pairs], then_bots=True)
    rngs = np.zeros((len(pairs), 2 * rng_size), np.uint64)
    for i, (st, _) in enumerate(pairs):
        if st._start_rng is not None:
            rngs[i, :rng_size] = st._start_rng
    k = run.inputs
    outputs = g.outputs(len(pairs), run.players, False)
    run.kernel_call("play_rollouts", k.rules, k.start, run.kinds, k.params, k.tables, np.uint64(run.seed),
                    first._game_index, False, *outputs, Ss, rngs)
    status = outputs[0][g.kernel.module.G_STATUS_OUT]
    if (status != g.kernel.module.OK).any():
        raise RuntimeError(f"a playout of game {first._game_index} of seed {run.seed} stopped: "
                           f"{g.kernel.module.STATUS_NAMES[int(status[status != g.kernel.module.OK][0])]}")
    wins = outputs[1][:, g.kernel.win_col, :].astype(float)
    return (wins / np.maximum(wins.sum(axis=0), 1)).T


def play_searched(run, first_game: int, n: int, check: bool, outputs: tuple, row0: int) -> None:
    """Games first_game .. first_game + n - 1 of a run with search seats into columns row0 ..
    of the outputs: each game stepped, its search seats searching (PreparedRun.play)."""
    for i in range(n):
        state = State(run, first_game + i, 0, check)
        for mine, its in zip(outputs[:2], state._outputs[:2]):
            mine[..., row0 + i] = its[..., 0]


def deal_into(S: np.ndarray, L, hand_stride: int, players: int, slots: list[int], rng: np.random.Generator) -> None:
    """For a game with one draw pile and a hand per seat (Deal, the card game; layout module L
    names DRAW_PILE, DRAW_N, HAND_, HAND_N, WHERE, OWNER, POS and the places DRAW and HAND):
    deal the cards in these slots of S afresh among them, and record each card's new place."""
    S[slots] = rng.permutation(np.sort(S[slots]))  # sorted first: the deal owes nothing to the old one
    piles = [(L.DRAW_PILE, S[L.DRAW_N], L.DRAW, -1)]
    piles += [(L.HAND_ + q * hand_stride, S[L.HAND_N + q], L.HAND, q) for q in range(players)]
    for at, n, place, owner in piles:
        cards = S[at:at + n]
        S[L.WHERE + cards], S[L.OWNER + cards], S[L.POS + cards] = place, owner, np.arange(n)


def shown_cards(book, events: np.ndarray, reader: int, hides_card) -> set[int]:
    """The cards named by these events (kinds whose card is a card, as the game's EventBook
    says) that `reader` saw: a deal of the hidden cards keeps them where they were."""
    return {card for kind, seat, card, _amount, target in events.tolist()
            if book.kinds[kind].card == "card" and not hides_card(kind, seat, target, reader)}


@api_errors
def new_game(game: str, seats: list[str] | None = None, players: int | None = None, rules=None, seed: int = 0,
             game_index: int = 0, outside: list[int] | None = None, check: bool = True, deck_edits: dict | None = None,
             **options) -> State:
    """Game `game_index` of a run of `game` with these settings (those of ``simulate``), at its
    first decision of a seat in `outside` (default: every seat). Every seat's bot (`seats`, as
    in ``simulate``) plays the seats not outside, and tells bot_action() for those that are.
    With `check`, invariants are checked after every turn."""
    run, mask = _prepared(get(game), seats, players, rules, seed, outside, deck_edits, options)
    if not 0 <= game_index < 2**62:
        raise UsageError(f"game_index must be 0 or more (got {game_index})")
    return State(run, game_index, mask, check)


@api_errors
def random_answers(game: str, games: int, seats: list[str] | None = None, players: int | None = None, rules=None,
                   seed: int = 0, outside: list[int] | None = None, check: bool = True, deck_edits: dict | None = None,
                   **options) -> pd.DataFrame:
    """Games 0 .. games - 1 with the seats in `outside` (default: all) answering every decision
    with a legal action drawn at random inside the kernel (a stream of its own per game): the
    per-game table, as ``simulate`` gives it, with the decisions asked of the outside seats by
    kind in df.attrs["decisions_asked"]. With `check`, invariants are checked after every turn
    and a broken one raises: a test that every listed action is one the game can play."""
    g = get(game)
    run, mask = _prepared(g, seats, players, rules, seed, outside, deck_edits, options)
    k = run.inputs
    size, rng_size = g.kernel.module.STATE_SIZE, g.kernel.module.RNG_SIZE
    outputs = g.outputs(games, run.players, False)
    asked = np.zeros(MAX_KINDS, np.int64)
    for i in range(games):
        one = g.outputs(1, run.players, False)
        S = stepping_state(size, 0, mask, [], None, random_seed=(seed * 1_000_003 + i) % 0x7FFFFFFF + 1)
        run.kernel_call("play_steps", k.rules, k.start, run.kinds, k.params, k.tables, np.uint64(run.seed), i,
                        check, False, *one, S, np.zeros(2 * rng_size, np.uint64), 0)
        outputs[0][:, i] = one[0][:, 0]
        outputs[1][:, :, i] = one[1][:, :, 0]
        ch = int(S[size + 2])
        asked += S[ch + C_KINDS:ch + C_KINDS + MAX_KINDS]
    df = run.frame(outputs, 0)
    df.attrs["decisions_asked"] = {kind.name: int(asked[code]) for code, kind in g.kernel.decisions.kinds.items()}
    return df


def _prepared(g, seats, players, rules, seed, outside, deck_edits, options):
    """A checked one-game run of game g and the bit mask of its outside seats."""
    if g.kernel.decisions is None:
        raise UsageError(f"{g.title} has no decision points yet")
    run = g.prepare(1, players, seats, rules, seed, None, None, deck_edits, **options)
    mask = 0
    for s in range(run.players) if outside is None else outside:
        if not 0 <= s < run.players:
            raise UsageError(f"outside: seat {s} is not one of the {run.players} seats")
        mask |= 1 << s
    return run, mask
