"""Same seed, same tables: whatever the thread count or chunk size."""

import numba
import pandas as pd

from sim.chance import api

TABLE = ["smart", "random", "bust_threshold p=0.3", "max_flip"]


def test_thread_count_and_chunk_size_do_not_change_results():
    base = api.simulate(3000, 4, TABLE, seed=11, threads=1, chunk_size=3000, check=True)
    threads = min(2, numba.config.NUMBA_NUM_THREADS)
    other = api.simulate(3000, 4, TABLE, seed=11, threads=threads, chunk_size=377, check=True)
    pd.testing.assert_frame_equal(base, other)


def test_a_slice_of_games_equals_the_same_games_in_a_longer_run():
    # game g depends on (seed, g) only, so a run of 500 games is the start of a run of 1200
    short = api.simulate(500, 3, TABLE[:3], seed=3)
    long = api.simulate(1200, 3, TABLE[:3], seed=3, chunk_size=100)
    pd.testing.assert_frame_equal(short, long.iloc[:500])


def test_different_seeds_give_different_games():
    a = api.simulate(500, 4, TABLE, seed=1)
    b = api.simulate(500, 4, TABLE, seed=2)
    assert not a["turns"].equals(b["turns"])
