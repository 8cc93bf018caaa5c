"""Monopoly: The Card Game: same seed, same tables, whatever the thread count or chunk size."""

import numba
import pandas as pd
from cardgame_harness import Table

from sim.cardgame import api
from sim.cardgame.rules import CardGameRules

TABLE = ["smart", "random", "trader", "cautious"]


def test_thread_count_and_chunk_size_do_not_change_results():
    threads = min(2, numba.config.NUMBA_NUM_THREADS)
    for rules, players in ((CardGameRules(), 4), (CardGameRules.preset("video"), 3), (CardGameRules(), 5)):
        seats = (TABLE + ["greedy"])[:players]
        base = api.simulate(600, players, seats, rules, seed=11, threads=1, chunk_size=600, check=True)
        other = api.simulate(600, players, seats, rules, seed=11, threads=threads, chunk_size=77, check=True)
        pd.testing.assert_frame_equal(base, other)


def test_hand_rows_do_not_depend_on_threads_or_chunks():
    a = api.simulate_hands(300, 4, TABLE, seed=4, threads=1, chunk_size=300)
    b = api.simulate_hands(300, 4, TABLE, seed=4, threads=min(2, numba.config.NUMBA_NUM_THREADS), chunk_size=41)
    for x, y in zip(a, b):
        pd.testing.assert_frame_equal(x, y)
    # Recording hands changes nothing in the match table.
    pd.testing.assert_frame_equal(a[0], api.simulate(300, 4, TABLE, seed=4, threads=1))


def test_a_slice_of_matches_equals_the_same_matches_in_a_longer_run():
    short = api.simulate(200, 4, TABLE, seed=3)
    long = api.simulate(500, 4, TABLE, seed=3, chunk_size=100)
    pd.testing.assert_frame_equal(short, long.iloc[:200])


def test_different_seeds_give_different_matches():
    a = api.simulate(300, 4, TABLE, seed=1)
    b = api.simulate(300, 4, TABLE, seed=2)
    assert not a["turns"].equals(b["turns"])


def test_the_deal_does_not_depend_on_the_policies():
    # The table's stream shuffles; each seat's bot has its own stream, so changing a bot leaves
    # the deal alone: comparisons between bots share their deals.
    deals = []
    for seats in (["smart", "random", "greedy", "trader"], ["random", "cautious", "smart", "greedy"]):
        t = Table(seats, seed=9)
        t.deal()
        deals.append(([t.hand_of(p) for p in range(4)], [t.pile_of(q) for q in range(4)], t.draw_top(16)))
    assert deals[0] == deals[1]
