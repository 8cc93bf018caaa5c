"""A player that searches, in every game (`search` at a table), and advice at a decision
(`monosim <game> advise`); docs/decisions.md.

At each of its decisions the search player plays the rest of the game out from every distinct
legal action, many times, and takes the best only where the playouts are clear:

- Determinization: each playout starts from a *world*, the game as the seat knows it with what
  it cannot see dealt afresh and fresh random numbers from its answer on (``State.resample``).
  The player never looks at the hidden cards or the future dice of the real game.
- Common random numbers: every action is played out in the same worlds, so the differences
  between actions are not drowned in the luck of the deal.
- Successive halving: half the budget races the actions; each round plays those still in the
  race in more worlds and drops the worse half. The base bot's action is never dropped.
  Or, with ``method=ismcts``, information-set MCTS runs the race: a tree over the seat's own
  decisions, this one and those after it, each playout in a world of its own (``tree_race``).
- Confirmation: the other half plays the race's winner and the base bot's action in fresh
  worlds; the winner is taken only if it is ahead there by `z` standard errors.
- The playouts are played by the compiled kernels (their ``play_rollouts`` entry, many in one
  parallel call), every seat by its own bot; the search seat by its *base* bot, which also
  answers the decisions the player does not search.

Actions with the same name (two copies of one card) are one action: the base bot's copy, else
the first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.core.runner import UsageError
from sim.core.stats import z_value

SEARCH = "search"
DEFAULT_ROLLOUTS = 256
DEFAULT_Z = 2.0
MAX_ROLLOUTS = 1_000_000
METHODS = ("flat", "ismcts")  # how the playouts race the actions (the first is the default)
UCB_C = 0.7  # ismcts: the exploration constant of its UCB rule (win shares run from 0 to 1)
TREE_BATCH = 16  # ismcts: the playouts of one kernel call (each a leaf of the tree, chosen in turn)


@dataclass(frozen=True)
class Search:
    """A search seat's settings (spec ``search rollouts=256 z=2 base=smart kinds=play,pay``)."""

    base: str  # the seat's bot in the playouts and at the decisions not searched
    rollouts: int = DEFAULT_ROLLOUTS  # playouts a decision, all actions together
    kinds: tuple[str, ...] = ()  # the decision kinds searched (empty: all)
    z: float = DEFAULT_Z  # how sure the playouts must be to overrule the base bot (standard errors)
    method: str = METHODS[0]  # how the playouts race the actions

    @property
    def spec(self) -> str:
        """The canonical spec: the table's policy name of the seat."""
        words = [SEARCH, f"rollouts={self.rollouts}", f"z={self.z:g}", f"base={self.base}"]
        words += [f"kinds={','.join(self.kinds)}"] if self.kinds else []
        return " ".join(words + ([f"method={self.method}"] if self.method != METHODS[0] else []))


@dataclass(frozen=True)
class ActionValue:
    """What the search found for one action: its mean share of the win over `rollouts`
    playouts (the worlds every action still in the race at the end was played in)."""

    action: int
    name: str
    value: float
    rollouts: int


def is_search_spec(spec: str) -> bool:
    return spec.split()[:1] == [SEARCH]


def parse(spec: str, default_base: str, kind_names: list[str] | None) -> Search:
    """A search seat's spec -> its settings; UsageError with one line for a mistake.
    `kind_names`: the game's decision kinds (None: the game has no decision points)."""
    if kind_names is None:
        raise UsageError("this game has no decision points: a search player cannot sit at it")
    settings = {"base": default_base, "rollouts": str(DEFAULT_ROLLOUTS), "z": str(DEFAULT_Z), "kinds": "",
                "method": METHODS[0]}
    for word in spec.split()[1:]:
        key, eq, value = word.partition("=")
        if not eq or key not in settings:
            raise UsageError(f"search: unknown setting {word!r}; it takes rollouts=N, z=X, base=<policy>, "
                             f"kinds=<kind,kind...> and method={'|'.join(METHODS)}")
        settings[key] = value
    try:
        rollouts = int(settings["rollouts"])
    except ValueError:
        rollouts = 0
    if not 1 <= rollouts <= MAX_ROLLOUTS:
        raise UsageError(f"search: rollouts must be a whole number from 1 to {MAX_ROLLOUTS:,} "
                         f"(got {settings['rollouts']!r})")
    try:
        z = float(settings["z"])
    except ValueError:
        z = -1.0
    if not 0 <= z <= 10:
        raise UsageError(f"search: z must be a number from 0 to 10 (got {settings['z']!r})")
    if is_search_spec(settings["base"]):
        raise UsageError("search: the base must be a bot, not another search player")
    kinds = tuple(k for k in settings["kinds"].split(",") if k)
    unknown = [k for k in kinds if k not in kind_names]
    if unknown:
        raise UsageError(f"search: unknown decision kind {unknown[0]!r}; this game's are {', '.join(kind_names)}")
    if settings["method"] not in METHODS:
        raise UsageError(f"search: method must be {' or '.join(METHODS)} (got {settings['method']!r})")
    return Search(settings["base"], rollouts, kinds, z, settings["method"])


def search_listing(default_base: str, kind_names: list[str]) -> list[str]:
    """Lines for ``monosim <game> policies``: the search player and its settings."""
    return [
        f"{SEARCH} rollouts={DEFAULT_ROLLOUTS} z={DEFAULT_Z:g} base={default_base}",
        "    A player that searches: at each decision it plays every action out in deals of what it cannot "
        "see, its base bot playing on, and overrules the base where the playouts are clear. Slow: each "
        "decision plays `rollouts` games out (docs/decisions.md gives the cost). Not in ladders unless given "
        "with --seat.",
        f"  rollouts (1 to {MAX_ROLLOUTS:,}): playouts a decision, all actions together",
        "  z (0 to 10): standard errors by which an action must beat the base bot's to be taken",
        "  base: the bot it plays on (a built-in bot, a preset or a bot file FILE.py:NAME; one word)",
        f"  kinds: the decisions it searches, comma-separated (default all: {', '.join(kind_names)})",
        "  method: how the playouts race the actions: flat (successive halving over this decision's actions; "
        "the default) or ismcts (information-set MCTS, a tree over this seat's later decisions too)",
    ]


def evaluate(state, rollouts: int, z: float, rng: np.random.Generator,
             method: str = METHODS[0]) -> tuple[int, list[ActionValue]]:
    """The answer to the waiting decision by about `rollouts` playouts from the current seat's
    point of view, and each distinct action's value (the chosen one first). Half the playouts
    race the actions against each other and the seat's base bot's action: by successive halving
    (`method` flat; the bot's action never dropped) or by tree_race (ismcts). The other half, in
    fresh worlds, play the race's winner and the bot's action once more: the winner is taken
    only if it beats the bot's action there by `z` standard errors of the paired difference, so
    that noise alone rarely overrules the bot. -1 when no world agrees with what the seat saw
    (the base bot then decides). See choose for the decisions it should not be asked about."""
    # (imported here: the step API imports this module for its search seats)
    from sim.core.play import playouts

    seat = state.current_player
    bot = state.bot_action()
    names = {a: state.action_name(a) for a in distinct_actions(state)}
    results: dict[int, list[float]] = {a: [] for a in names}
    worlds: list = []

    def play(actions: list[int], more: int) -> bool:
        """Play `actions` in every world so far and `more` new ones; False if no world agrees."""
        try:
            for _ in range(more):
                worlds.append(state.resample(seat, rng))
        except RuntimeError:
            if not worlds:
                return False
        pairs = [(w, a) for a in actions for w in worlds[len(results[a]):]]
        if pairs:
            for (_, a), share in zip(pairs, playouts(pairs)[:, seat]):
                results[a].append(float(share))
        return True

    race = rollouts // 2 if bot is not None else rollouts
    raced: dict[int, list[float]] = {a: [] for a in names}  # ismcts: its race's playouts, by root action
    if method == "ismcts":
        found = tree_race(state, names, race, rng)
        if found is None:
            return -1, []
        raced = found
        # the action played out most (the tree gives the most playouts to the best)
        choice = max(raced, key=lambda a: (len(raced[a]), np.mean(raced[a]) if raced[a] else 0.0))
    else:
        others = [a for a in names if a != bot]
        rounds = max(1, math.ceil(math.log2(len(others))))
        for _ in range(rounds):
            racing = others + ([] if bot is None else [bot])
            if not play(racing, max(1, race // rounds // len(racing))):
                return -1, []
            others = sorted(others, key=lambda a: -np.mean(results[a]))[:math.ceil(len(others) / 2)]
        choice = others[0]
    if bot is not None and choice != bot:
        before = len(worlds)
        if not play([choice, bot], max(2, (rollouts - race) // 2)):
            return -1, []
        diff = np.array(results[choice][before:]) - np.array(results[bot][before:])
        if len(diff) < 2 or diff.mean() <= z * diff.std(ddof=1) / math.sqrt(len(diff)):
            choice = bot
    results = {a: raced[a] + results[a] for a in names}
    ranked = sorted((a for a in results if results[a]),
                    key=lambda a: (a != choice, -len(results[a]), -np.mean(results[a])))
    return choice, [ActionValue(a, names[a], float(np.mean(results[a])), len(results[a])) for a in ranked]


class _Node:
    """ismcts: one of the search seat's decisions in the tree, its statistics by action name
    (the names are the same in every world; which are legal is the world's)."""

    __slots__ = ("visits", "wins", "available", "children")

    def __init__(self):
        self.visits: dict[str, int] = {}
        self.wins: dict[str, float] = {}
        self.available: dict[str, int] = {}  # the visits to this node in which the action was legal
        self.children: dict[tuple[str, str], _Node] = {}  # (action name, next decision kind) -> node

    def pick(self, legal: dict[str, int]) -> str:
        """The action to follow among `legal` (name -> action): one not tried yet, else by UCB
        over the visits in which it was available (information-set MCTS's rule). Its visit is
        counted now and its win when its playout comes back: meanwhile it counts as a loss, so
        the other leaves of a batch spread out."""
        for name in legal:
            self.available[name] = self.available.get(name, 0) + 1
        untried = [name for name in legal if name not in self.visits]
        if untried:
            name = untried[0]
        else:
            name = max(legal, key=lambda n: self.wins[n] / self.visits[n]
                       + UCB_C * math.sqrt(math.log(self.available[n]) / self.visits[n]))
        self.visits[name] = self.visits.get(name, 0) + 1
        self.wins.setdefault(name, 0.0)
        return name


def tree_race(state, names: dict[int, str], budget: int, rng: np.random.Generator) -> dict[int, list[float]] | None:
    """Information-set MCTS (single observer) for the waiting decision's seat, `budget`
    playouts: each starts from a world of its own (State.resample), goes down the tree of the
    seat's decisions by pick, the world stepping on between them (the other seats by their
    bots), and is played out by the bots from the first action new to its node. A node is a
    decision of the seat reached by the same actions (by name) and of the same kind, whatever
    the world: what the seat knows, not the world's hidden cards. Each root action's playouts;
    None if no world agrees with what the seat saw."""
    from sim.core.play import playouts

    seat = state.current_player
    root, by_name = _Node(), {name: a for a, name in names.items()}
    shares: dict[int, list[float]] = {a: [] for a in names}
    done = 0
    while done < budget:
        batch: list[tuple[list, object]] = []  # (path of (node, name), a finished world or a (world, action))
        for _ in range(min(TREE_BATCH, budget - done)):
            try:
                world = state.resample(seat, rng)
            except RuntimeError:
                break
            node, legal, path = root, by_name, []
            while True:
                name = node.pick(legal)
                path.append((node, name))
                if node.visits[name] == 1:  # new here: played out from this decision
                    batch.append((path, (world, legal[name])))
                    break
                world = world.child(legal[name])
                while not world.is_terminal() and world.current_player != seat:
                    world.apply(world.default_action())
                if world.is_terminal():
                    batch.append((path, world))
                    break
                key = (name, world.decision)
                if key not in node.children:
                    node.children[key] = _Node()
                node = node.children[key]
                legal = {world.action_name(a): a for a in distinct_actions(world)}
        if not batch:
            return shares if done else None
        done += len(batch)
        pairs = [leaf for _, leaf in batch if isinstance(leaf, tuple)]
        played = iter(playouts(pairs)[:, seat].tolist() if pairs else [])
        for path, leaf in batch:
            share = next(played) if isinstance(leaf, tuple) else leaf.returns()[seat]
            for node, name in path:
                node.wins[name] += share
            shares[by_name[path[0][1]]].append(share)
    return shares


def choose(state, search: Search, rng: np.random.Generator) -> tuple[int, list[ActionValue]]:
    """The search seat's answer to the waiting decision and the values behind it (none where
    its base bot answered: a decision not searched, one with a single distinct action, or one
    where its worlds would know what the seat cannot: State.resample_leaks)."""
    if ((search.kinds and state.decision not in search.kinds) or len(distinct_actions(state)) == 1
            or state.resample_leaks()):
        return state.default_action(), []
    choice, values = evaluate(state, search.rollouts, search.z, rng, search.method)
    if choice < 0:
        return state.default_action(), []
    return choice, values


FIRST_WORLDS = 200  # an advice's first round of worlds
MAX_ADVICE_ROLLOUTS = 20_000  # default cap on an advice's playouts an action


def advise(state, precision: float = 1.0, max_rollouts: int = MAX_ADVICE_ROLLOUTS, seed: int = 0) -> pd.DataFrame:
    """Advice at the waiting decision of a stepped game, for the seat to decide: each distinct
    action's chance to win after it (the seat's share of the win, in points) and its paired
    difference to the best, by playouts in worlds every action shares (common random numbers;
    the worlds are drawn as in the search). Worlds are added until every difference to the best
    is known to ±`precision` points (95%) or `max_rollouts` playouts an action are played. One
    row an action, best first; `bot` marks the seat's bot's choice."""
    from sim.core.play import playouts

    seat, rng = state.current_player, np.random.default_rng(seed)
    actions = distinct_actions(state)
    bot = state.bot_action()
    results = np.zeros((len(actions), 0))  # an action a row, a world a column
    target = min(FIRST_WORLDS, max_rollouts)
    while True:
        new = [state.resample(seat, rng) for _ in range(target - results.shape[1])]
        shares = playouts([(w, a) for a in actions for w in new])[:, seat].reshape(len(actions), len(new))
        results = np.concatenate([results, 100 * shares], axis=1)
        best = int(np.argmax(results.mean(axis=1)))
        n = results.shape[1]
        diffs = results - results[best]
        half = z_value() * diffs.std(axis=1, ddof=1) / np.sqrt(n)
        widest = float(half.max())
        if widest <= precision or n >= max_rollouts:
            break
        # A half-width falls as one over the square root of the playouts.
        target = min(max_rollouts, max(2 * n, int(n * (widest / precision) ** 2 * 1.1)))
    mean = results.mean(axis=1)
    table = pd.DataFrame({
        "action": actions, "name": [state.action_name(a) for a in actions],
        "win": mean, "win_pm": z_value() * results.std(axis=1, ddof=1) / np.sqrt(n),
        "vs_best": diffs.mean(axis=1), "vs_best_pm": half, "rollouts": n,
        "bot": [a == bot for a in actions]})
    return table.sort_values("win", ascending=False, kind="stable").reset_index(drop=True)


def distinct_actions(state) -> list[int]:
    """The waiting decision's legal actions, one for each name (two copies of a card are one
    action): the bot's own where it is among them, else the first."""
    bot = state.bot_action()
    by_name: dict[str, int] = {}
    for a in state.legal_actions():
        by_name.setdefault(state.action_name(a), a)
    if bot is not None:
        by_name[state.action_name(bot)] = bot
    return list(by_name.values())
