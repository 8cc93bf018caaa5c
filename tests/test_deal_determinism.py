"""Monopoly Deal: the deal does not depend on the policies (the thread and chunk properties
every game shares are in test_contract.py)."""



TABLE = ["smart", "random", "aggressive", "banker"]


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
