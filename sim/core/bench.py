"""`monosim bench`: games per second for each game, with compile time measured apart."""

from __future__ import annotations

import glob
import shutil
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

import numba

from sim import cache_base
from sim.core import userbot
from sim.core.game import get
from sim.core.search import METHODS

BENCH_SEED = 2026


def timed_runs(game: str, games: int | None = None) -> dict[str, tuple[dict, int, int]]:
    """What `monosim bench` times for a game (its registry entry's bench_runs): label -> (rules
    table as in an experiment spec, games a run (`games` if given), target). Each run takes
    about 10-30 s on two cores; the target is the speed set for it, in 4-player games per
    second on 2 threads of the 2-core development machine. The card game is timed in each
    edition: their matches differ fourfold in length (about 100 turns a wiki match, 26 a video
    match)."""
    return {label: (rules, games or n, target) for label, (rules, n, target) in get(game).kernel.bench_runs.items()}


def bench(game: str, games: int, threads: int | None = None, repeat: int = 1, rules: dict | None = None) -> dict:
    """Play `games` 4-player games of the game's default table `repeat` times and time each run;
    the first call (compiling, or loading the cache) is timed apart. The speed reported is the
    median run's: on a shared machine single runs of the same code vary by 10% or more. `rules`
    is a rules table as in an experiment spec (the game's defaults if empty)."""
    g = get(game)
    played = g.rules_of(rules or {})
    t0 = time.perf_counter()
    g.simulate(games=8, players=4, rules=played, seed=BENCH_SEED)
    compile_seconds = time.perf_counter() - t0
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        df = g.simulate(games=games, players=4, rules=played, seed=BENCH_SEED, threads=threads)
        runs.append(time.perf_counter() - t0)
    seconds = statistics.median(runs)
    return {
        "games": games,
        "players": 4,
        "rules": rules or {},
        "policies": list(g.bots.default_table[:4]),
        "threads": threads or numba.get_num_threads(),
        "compile_seconds": compile_seconds,
        "seconds": seconds,
        "games_per_second": games / seconds,
        "run_seconds": runs,
        "mean_turns": float(df["turns"].mean()),
    }


BOT_COMPILE_TARGET = 5.0  # seconds of a bot file's first compile, in any game (issue 40's goal)
BOT_SLOWDOWN_TARGET = 1.2  # a bot's games against its fallback's own, at most


def bench_bots(game: str, games: int, threads: int | None = None, repeat: int = 1, rules: dict | None = None) -> dict:
    """What a bot file costs (docs/bots.md): the first compile of a new bot file whose bot takes
    every decision of the game and hands each back to its fallback, the default table's first
    bot; then `games` 4-player games with that bot in every seat against the same games with
    its fallback in every seat (the same games: tests/test_userbot_checks.py), timed `repeat`
    times each, alternately. The new file's compiled bot is deleted afterwards."""
    g = get(game)
    played = g.rules_of(rules or {})
    fallback = g.bots.default_table[0]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{game}_hands_back.py"
        text = userbot.hands_back_source(game, fallback, f"written by monosim bench --bots at {time.time_ns()}")
        path.write_text(text)  # a text of its own: nothing compiled for it yet
        bot = f"{path}:HandsBack"
        t0 = time.perf_counter()
        bots = userbot.table_bots_compiled(game, [bot])
        compile_seconds = time.perf_counter() - t0
        runs: dict[str, list[float]] = {"fallback": [], "bot": []}
        for _ in range(repeat):
            for name, seat in (("fallback", fallback), ("bot", bot)):
                t0 = time.perf_counter()
                g.simulate(games=games, players=4, seats=[seat] * 4, rules=played, seed=BENCH_SEED, threads=threads)
                runs[name].append(time.perf_counter() - t0)
    # The generated module and numba's cache of it are named by the folder of the bot's module.
    for leftover in [bots.folder, *glob.glob(str(Path(cache_base()) / "*" / "*" / f"{bots.folder.name}_*"))]:
        shutil.rmtree(leftover, ignore_errors=True)
    fallback_seconds, bot_seconds = (statistics.median(runs[name]) for name in ("fallback", "bot"))
    return {"games": games, "players": 4, "fallback": fallback, "threads": threads or numba.get_num_threads(),
            "compile_seconds": compile_seconds, "compile_target_seconds": BOT_COMPILE_TARGET,
            "fallback_games_per_second": games / fallback_seconds, "bot_games_per_second": games / bot_seconds,
            "slowdown": bot_seconds / fallback_seconds, "slowdown_target": BOT_SLOWDOWN_TARGET, "run_seconds": runs}


STEPS_TARGET = 20_000  # decisions a second from Python on one core (issue 40's goal)


def bench_steps(game: str, decisions: int, rules: dict | None = None) -> dict:
    """Decisions a second through the step API (sim/core/play.py): a random agent in Python
    answers every decision of every seat of 4-player games of the default table (games 0, 1,
    ... of BENCH_SEED, each to its end) until `decisions` are answered. The first game's
    first decision (compiling, or loading the cache) is timed apart. One core: the step API
    runs in the caller's thread."""
    import random

    from sim.core.play import new_game

    g = get(game)
    played = g.rules_of(rules or {})
    t0 = time.perf_counter()
    new_game(game, players=4, rules=played, seed=BENCH_SEED)
    compile_seconds = time.perf_counter() - t0
    pick = random.Random(BENCH_SEED)
    answered = games = 0
    t0 = time.perf_counter()
    while answered < decisions:
        state = new_game(game, players=4, rules=played, seed=BENCH_SEED, game_index=games)
        while not state.is_terminal() and answered < decisions:
            state.apply(pick.choice(state.legal_actions()))
            answered += 1
        games += 1
    seconds = time.perf_counter() - t0
    return {"decisions": answered, "games": games, "rules": rules or {}, "compile_seconds": compile_seconds,
            "seconds": seconds, "decisions_per_second": answered / seconds,
            "target_decisions_per_second": STEPS_TARGET}


def fewest_players(g, rules) -> int:
    """The smallest table these rules allow, and at least two: the search player's tables."""
    return max(2, g.player_range(rules)[0])


def bench_search(game: str, games: int, rollouts: int, threads: int | None = None,
                 method: str = METHODS[0]) -> dict[str, dict]:
    """The search player's strength and cost (docs/ladders.md), per edition: `search
    rollouts=N method=M` over its base (the game's strongest heuristic, the default table's
    first bot) against that heuristic in every other seat, the fewest players the edition
    allows, the search player in each seat in turn for games 0 .. games - 1 of BENCH_SEED.
    Each game is paired with the same game between the heuristics alone (common seeds): the
    gain is the search seat's win share less the base bot's in that seat, over the same games.
    by_kind: decision kind -> [decisions searched, those where the search overruled the base
    bot]: where the base bot is most often wrong, by the search. overrules: decision kind ->
    [[the base bot's action, the search's, times], ...], most frequent first: what to change in
    the base bot."""
    from sim.core.play import new_game
    from sim.core.runner import thread_count
    from sim.core.stats import mean_ci, paired_diff

    g = get(game)
    base = g.bots.default_table[0]
    out = {}
    for label, (rules, _, _) in timed_runs(game).items():
        played = g.rules_of(rules)
        players = fewest_players(g, played)
        spec = f"search rollouts={rollouts} base={base} method={method}"
        wins, paired, seconds = [], [], 0.0
        by_kind: dict[str, list[int]] = {}  # decision kind -> [searched, overruled]
        overrules: dict[str, Counter] = {}  # decision kind -> (bot's action, search's) -> times
        for seat in range(players):
            table = [base] * players
            heuristics = g.simulate(games, players, table, played, seed=BENCH_SEED, threads=threads)
            paired += heuristics[f"win_{seat}"].tolist()
            table[seat] = spec
            t0 = time.perf_counter()
            with thread_count(threads):
                for i in range(games):
                    state = new_game(game, seats=table, players=players, rules=played, seed=BENCH_SEED, game_index=i,
                                     outside=[], check=False)
                    wins.append(state.returns()[seat])
                    found = state.searched
                    for (kind, _), one in found.groupby(["decision", "answer"], sort=False):
                        counts = by_kind.setdefault(kind, [0, 0])
                        counts[0] += 1
                        taken = one[one.taken].iloc[0]
                        if not taken.bot:
                            counts[1] += 1
                            bot = one["name"][one.bot]  # ["name"]: a row's .name is its index
                            pair = (bot.iloc[0] if len(bot) else "(none)", taken["name"])
                            overrules.setdefault(kind, Counter())[pair] += 1
            seconds += time.perf_counter() - t0
        searched = sum(n for n, _ in by_kind.values())
        out[f"{label} rollouts={rollouts}" + ("" if method == METHODS[0] else f" method={method}")] = {
            "players": players, "base": base, "rollouts": rollouts, "method": method, "games": len(wins),
            "win_rate": mean_ci(wins), "gain": paired_diff(wins, paired), "decisions_searched": searched,
            "overruled": sum(o for _, o in by_kind.values()), "by_kind": by_kind,
            "overrules": {kind: [[*pair, n] for pair, n in c.most_common()] for kind, c in overrules.items()},
            "seconds": seconds,
            "decisions_per_second": searched / seconds, "threads": threads or numba.get_num_threads()}
    return out
