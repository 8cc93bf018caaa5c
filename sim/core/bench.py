"""`monosim bench`: games per second for each game, with compile time measured apart."""

from __future__ import annotations

import importlib
import time

import numba

BENCH_SEED = 2026
# Each game has sim/<game>/api.py with simulate and DEFAULT_TABLE. Games timed by default:
# about 10-30 s each on two cores.
GAMES = {"chance": 1_000_000, "deal": 200_000, "classic": 200_000, "cardgame": 20_000}


def bench(game: str, games: int, threads: int | None = None) -> dict:
    """Play `games` 4-player games of the game's default table and time them; the first call
    (compiling, or loading the cache) is timed apart."""
    api = importlib.import_module(f"sim.{game}.api")
    t0 = time.perf_counter()
    api.simulate(games=8, players=4, seed=BENCH_SEED)
    compile_seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    df = api.simulate(games=games, players=4, seed=BENCH_SEED, threads=threads)
    seconds = time.perf_counter() - t0
    return {
        "games": games,
        "players": 4,
        "policies": list(api.DEFAULT_TABLE[:4]),
        "threads": threads or numba.get_num_threads(),
        "compile_seconds": compile_seconds,
        "seconds": seconds,
        "games_per_second": games / seconds,
        "mean_turns": float(df["turns"].mean()),
    }
