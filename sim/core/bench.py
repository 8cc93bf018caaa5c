"""`monosim bench`: games per second for each game, with compile time measured apart."""

from __future__ import annotations

import time

import numba

BENCH_SEED = 2026


def bench_chance(games: int, threads: int | None = None) -> dict:
    from sim.chance import api

    t0 = time.perf_counter()
    api.simulate(games=8, players=4, seed=BENCH_SEED)  # compiles, or loads the cache
    compile_seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    api.simulate(games=games, players=4, seed=BENCH_SEED, threads=threads)
    seconds = time.perf_counter() - t0
    return {
        "games": games,
        "players": 4,
        "policies": list(api.DEFAULT_TABLE),
        "threads": threads or numba.get_num_threads(),
        "compile_seconds": compile_seconds,
        "seconds": seconds,
        "games_per_second": games / seconds,
    }


def bench_classic(games: int, threads: int | None = None) -> dict:
    """Classic Monopoly, 4 players (strong, trader, three_houses, buy_all), trading and building
    on (the official rules)."""
    from sim.classic import api

    t0 = time.perf_counter()
    api.simulate(games=8, players=4, seed=BENCH_SEED)  # compiles, or loads the cache
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
        "hit_turn_limit": float(df["hit_turn_limit"].mean()),
    }
