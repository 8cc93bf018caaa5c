"""Monopoly Deal: same seed, same tables, whatever the thread count or chunk size."""

import numba
import pandas as pd

from sim.deal import api

TABLE = ["smart", "random", "aggressive", "banker"]


def test_thread_count_and_chunk_size_do_not_change_results():
    base = api.simulate(3000, 4, TABLE, seed=11, threads=1, chunk_size=3000, check=True)
    threads = min(2, numba.config.NUMBA_NUM_THREADS)
    other = api.simulate(3000, 4, TABLE, seed=11, threads=threads, chunk_size=377, check=True)
    pd.testing.assert_frame_equal(base, other)


def test_a_slice_of_games_equals_the_same_games_in_a_longer_run():
    short = api.simulate(500, 5, TABLE + ["set_builder"], seed=3)
    long = api.simulate(1200, 5, TABLE + ["set_builder"], seed=3, chunk_size=100)
    pd.testing.assert_frame_equal(short, long.iloc[:500])


def test_different_seeds_give_different_games():
    a = api.simulate(500, 4, TABLE, seed=1)
    b = api.simulate(500, 4, TABLE, seed=2)
    assert not a["turns"].equals(b["turns"])


def test_the_deal_does_not_depend_on_the_policies():
    # The table's stream shuffles the deck; each seat's bot has its own stream, so changing a
    # bot leaves the opening hands (and the draw pile) alone: comparisons share their deals.
    from deal_harness import Table

    from sim.core.rng import seed_state
    from sim.deal import kernel
    from sim.deal import layout as L

    hands = []
    for seats in (["smart", "random", "banker"], ["random", "aggressive", "set_builder"]):
        t = Table(seats)
        for s in range(L.RNG_SIZE // 4):
            seed_state(t.rng, 4 * s, 9, 4, s)
        kernel.setup_game(t.S, t.rng)
        hands.append(([t.hand_of(p) for p in range(3)], t.draw_top(10)))
    assert hands[0] == hands[1]
