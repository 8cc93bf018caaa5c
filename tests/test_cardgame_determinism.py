"""Monopoly: The Card Game: the deal does not depend on the policies (the thread and chunk
properties every game shares are in test_contract.py)."""

from cardgame_harness import Table


TABLE = ["smart", "random", "trader", "cautious"]


def test_the_deal_does_not_depend_on_the_policies():
    # The table's stream shuffles; each seat's bot has its own stream, so changing a bot leaves
    # the deal alone: comparisons between bots share their deals.
    deals = []
    for seats in (["smart", "random", "greedy", "trader"], ["random", "cautious", "smart", "greedy"]):
        t = Table(seats, seed=9)
        t.deal()
        deals.append(([t.hand_of(p) for p in range(4)], [t.pile_of(q) for q in range(4)], t.draw_top(16)))
    assert deals[0] == deals[1]
