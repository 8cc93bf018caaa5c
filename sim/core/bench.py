"""`monosim bench`: games per second for each game, with compile time measured apart."""

from __future__ import annotations

import importlib
import statistics
import time

import numba

BENCH_SEED = 2026
# Each game has sim/<game>/api.py with simulate and DEFAULT_TABLE. What is timed for each game:
# label -> (rules table as in an experiment spec, games a run, target), about 10-30 s each on
# two cores. The target is the speed set for the run, in 4-player games per second on 2
# threads of the 2-core development machine; the bench reports each run against it. The card
# game is timed in each edition: their matches differ fourfold in length (about 100 turns a
# wiki match, 26 a video match).
GAMES = {
    "chance": {"chance": ({}, 1_000_000, 100_000)},
    "deal": {"deal": ({}, 200_000, 100_000)},
    "classic": {"classic": ({}, 200_000, 20_000)},
    "cardgame": {
        "cardgame/wiki": ({"edition": "wiki"}, 20_000, 50_000),
        "cardgame/video": ({"edition": "video"}, 100_000, 50_000),
    },
}


def timed_runs(game: str, games: int | None = None) -> dict[str, tuple[dict, int, int]]:
    """What `monosim bench` times for a game: label -> (rules table, games a run, `games` if
    given, target)."""
    return {label: (rules, games or n, target) for label, (rules, n, target) in GAMES[game].items()}


def bench(game: str, games: int, threads: int | None = None, repeat: int = 1, rules: dict | None = None) -> dict:
    """Play `games` 4-player games of the game's default table `repeat` times and time each run;
    the first call (compiling, or loading the cache) is timed apart. The speed reported is the
    median run's: on a shared machine single runs of the same code vary by 10% or more. `rules`
    is a rules table as in an experiment spec (the game's defaults if empty)."""
    api = importlib.import_module(f"sim.{game}.api")
    played = importlib.import_module(f"sim.{game}.adapter").ADAPTER.rules_of(rules) if rules else None
    t0 = time.perf_counter()
    api.simulate(games=8, players=4, rules=played, seed=BENCH_SEED)
    compile_seconds = time.perf_counter() - t0
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        df = api.simulate(games=games, players=4, rules=played, seed=BENCH_SEED, threads=threads)
        runs.append(time.perf_counter() - t0)
    seconds = statistics.median(runs)
    return {
        "games": games,
        "players": 4,
        "rules": rules or {},
        "policies": list(api.DEFAULT_TABLE[:4]),
        "threads": threads or numba.get_num_threads(),
        "compile_seconds": compile_seconds,
        "seconds": seconds,
        "games_per_second": games / seconds,
        "run_seconds": runs,
        "mean_turns": float(df["turns"].mean()),
    }
