"""Classic Monopoly: common random numbers across policies, and the management memos change
nothing (the thread and chunk properties every game shares are in test_contract.py)."""

import pandas as pd

from sim.classic import api, kernel
from sim.classic.game import GAME
from sim.classic import layout as L

TABLE = ["strong", "trader", "random", "three_houses"]


def test_a_seat_policy_change_leaves_the_dice_alone():
    # common random numbers: the table's dice stream does not depend on the policies, so two
    # passive tables that never buy or trade roll exactly the same games
    passive = "three_houses reserve=5000 bid=0 trade_share=0"
    a = GAME.simulate(50, 2, [passive, passive], seed=4, rules=api.ClassicRules(max_rounds=20))
    b = GAME.simulate(50, 2, [passive, passive + " build_to=1"], seed=4, rules=api.ClassicRules(max_rounds=20))
    pd.testing.assert_series_equal(a["jail_turns_0"], b["jail_turns_0"])


def test_skipped_management_windows_would_change_nothing():
    # With VERIFY_MEMOS set in the starting state, every window the management memos would
    # skip is played anyway (also for a player with no mortgage and no whole colour group, and
    # the trade scans of bots that never propose: random, buy_all) and a window that changes
    # the board stops the game (simulate raises); the games must be the very same games as
    # without the check.
    cases = [
        (4, None, api.ClassicRules()),
        (4, ["strong"] * 4, api.ClassicRules().replace(houses=12, hotels=4)),
        (3, ["strong reserve=0", "trader fund=1 unmortgage=1", "three_houses build_to=5"],
         api.ClassicRules().replace(deal_any_time=False)),
        (5, ["strong", "jail_stayer fund=1", "buy_all", "trader", "strong build_to=1"],
         api.ClassicRules().replace(even_building=False, free_parking_jackpot=True)),
        (4, ["random", "strong", "buy_all", "trader"], api.ClassicRules().replace(houses=10, hotels=3)),
        # Bots of bot files: one that builds and pays its way out of jail by its own rules when it
        # can, else hands the decision to strong; one that hands every decision back.
        (4, ["experiments/bots/classic_builder.py:Builder", "strong", "tests/bots/classic_checks.py:Fallback",
             "buy_all"], api.ClassicRules()),
    ]
    for players, seats, rules in cases:
        start = kernel.start_state(GAME.rules.pack(rules, players, {}))
        start[L.VERIFY_MEMOS] = 1
        plain = GAME.simulate(300, players, seats, rules=rules, seed=5)
        verified = GAME.simulate(300, players, seats, rules=rules, seed=5, start=start)
        pd.testing.assert_frame_equal(plain, verified)
