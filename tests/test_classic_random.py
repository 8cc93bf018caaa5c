"""Randomized classic Monopoly games under every combination of the house-rule switches, with
the kernel's invariant check on after every turn (``check=True``: money conserved between
players, pot and bank; every deed with one owner or the bank; every house and hotel on the
board or in the bank; buildings only on whole, unmortgaged, evenly built groups; decks whole).
A broken invariant makes ``simulate`` raise.

On top of that the finished games are checked from outside the kernel: win shares; a game that
did not hit the turn limit has exactly one survivor, who won; and (for a sample of games replayed
into a state buffer) the final state is re-checked by an independent Python implementation of
the invariants.
"""

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.classic import api, kernel
from sim.classic.game import GAME
from sim.classic import layout as L
from sim.classic.rules import HOUSE_RULE_DOC, ClassicRules, pack

BOOL_RULES = tuple(k for k in HOUSE_RULE_DOC if k not in ("free_parking_seed", "snake_eyes_bonus"))
assert len(BOOL_RULES) == 12
POLICIES = ("random", "buy_all", "three_houses", "jail_stayer", "trader", "strong",
            "trader reserve=0 trade_share=2 danger=0", "strong reserve=500 build_to=5",
            "three_houses build_to=1 bid=2", "random p=0.9")


def check_table(df, players, rules):
    win = np.stack([df[f"win_{s}"] for s in range(players)], axis=1)
    out = np.stack([df[f"out_turn_{s}"] for s in range(players)], axis=1)
    np.testing.assert_allclose(win.sum(axis=1), 1.0)
    assert ((win > 0) <= (out == 0)).all()  # winners survived
    capped = df["hit_turn_limit"].to_numpy() == 1
    alive = (out == 0).sum(axis=1)
    assert (alive[~capped] == 1).all()
    assert (df["bankruptcies"].to_numpy() == players - alive).all()
    assert (df["rounds"].to_numpy()[capped] == rules.max_rounds).all()
    assert (df["rounds"].to_numpy() <= rules.max_rounds).all()
    deeds = np.stack([df[f"deeds_{s}"] for s in range(players)], axis=1)
    assert (deeds.sum(axis=1) <= 28).all() and (deeds[out > 0] == 0).all()
    cash = np.stack([df[f"cash_{s}"] for s in range(players)], axis=1)
    assert (cash >= 0).all() and (cash[out > 0] == 0).all()


def python_invariants(S, RB, rules, players):
    """The invariants again, written independently of the kernel."""
    cash = S[L.CASH : L.CASH + L.MAX_PLAYERS]
    assert (cash >= 0).all()
    assert int(cash.sum()) + int(S[L.G_POT]) + int(S[L.G_BANK]) == 0
    board = rules.board
    houses = hotels = 0
    for sq, sqr in enumerate(board):
        o, lv, m = int(S[L.OWNER + sq]), int(S[L.LEVEL + sq]), int(S[L.MORT + sq])
        if sqr.kind not in ("street", "railroad", "utility"):
            assert o == -1 and lv == 0 and m == 0
            continue
        assert -1 <= o < players and (o == -1 or S[L.ALIVE + o] == 1)
        assert not (o == -1 and m)
        if lv:
            group = [i for i, s in enumerate(board) if s.group == sqr.group]
            assert sqr.kind == "street" and all(S[L.OWNER + i] == o and S[L.MORT + i] == 0 for i in group)
            if rules.house.even_building:
                assert max(S[L.LEVEL + i] for i in group) - min(S[L.LEVEL + i] for i in group) <= 1
        hotels += lv == 5
        houses += lv if lv < 5 else 0
    assert houses + S[L.G_HOUSES] == rules.houses and hotels + S[L.G_HOTELS] == rules.hotels
    for d, deck in enumerate((rules.chance, rules.chest)):
        held = int(sum(S[L.GOOJF + 2 * p + d] for p in range(players)))
        n = int(S[L.DECK_N + d])
        head = int(S[L.DECK_HEAD + d])
        cards = sorted(int(S[L.DECK + d * L.MAX_CARDS + (head + i) % len(deck)]) for i in range(n))
        assert n + held == len(deck) and len(set(cards)) == n


def replay_final_state(rules, seats, seed, game):
    """Play one game with play_game and return its final state."""
    players = len(seats)
    specs, kinds, params = GAME.make_table(players, seats)
    RB = pack(rules, players)
    S0 = kernel.start_state(RB)
    S, rng = kernel.new_buffers()
    go = np.zeros((kernel.N_GAME_COLS, 1), np.int64)
    so = np.zeros((players, L.N_SEAT_COLS, 1), np.int64)
    gr = np.zeros((0, players, L.N_GROUPS, 4), np.int64)
    kernel.play_game(S, S0, kinds, params, api.landing_weights(rules), rng, np.uint64(seed), game, True,
                     False, go, so, gr, 0)
    assert go[kernel.G_STATUS_OUT, 0] == kernel.OK
    return S, RB


def run_raw(rules, seats, games, seed):
    """play_batch with the invariant check on, without the pandas layer (fast for 2048 calls)."""
    players = len(seats)
    specs, kinds, params = GAME.make_table(players, seats)
    RB = pack(rules, players)
    go = np.zeros((kernel.N_GAME_COLS, games), np.int64)
    so = np.zeros((players, L.N_SEAT_COLS, games), np.int64)
    gr = np.zeros((0, players, L.N_GROUPS, 4), np.int64)
    kernel.play_batch(RB, kernel.start_state(RB), kinds, params, api.landing_weights(rules), np.uint64(seed), 0,
                      games, True, False, go, so, (gr,), 0)
    go, so = go.T, so.transpose(2, 0, 1)  # [game, column] and [game, seat, stat]
    assert (go[:, kernel.G_STATUS_OUT] == kernel.OK).all(), kernel.STATUS_NAMES[go[:, kernel.G_STATUS_OUT].max()]
    win = so[:, :, L.SC_WIN].astype(float)
    out = so[:, :, L.SC_OUT_TURN]
    capped = go[:, kernel.G_CAPPED] == 1
    assert ((win > 0) <= (out == 0)).all() and (win.sum(axis=1) >= 1).all()
    alive = (out == 0).sum(axis=1)
    assert (alive[~capped] == 1).all() and (go[:, kernel.G_BANKRUPTCIES] == players - alive).all()
    assert (go[capped, kernel.G_ROUNDS_OUT] == rules.max_rounds).all()
    assert (so[:, :, L.SC_CASH] >= 0).all() and (so[:, :, L.SC_CASH][out > 0] == 0).all()
    assert (so[:, :, L.SC_DEEDS].sum(axis=1) <= 28).all()


def test_every_combination_of_the_house_rule_switches(long_run):
    games = 10 if long_run else 2  # 4096 combinations
    rng = np.random.default_rng(7)
    for i, combo in enumerate(itertools.product((False, True), repeat=len(BOOL_RULES))):
        change = dict(zip(BOOL_RULES, combo))
        if change["free_parking_jackpot"]:
            change["free_parking_seed"] = int(rng.choice([0, 500]))
        change["snake_eyes_bonus"] = int(rng.choice([0, 0, 100]))
        rules = ClassicRules(max_rounds=120).replace(**change)
        players = int(rng.integers(2, 7))
        seats = [str(rng.choice(POLICIES)) for _ in range(players)]
        run_raw(rules, seats, games, i)
        if i % 128 == 0:
            df = GAME.simulate(games, players, seats, rules, seed=i, check=True)
            check_table(df, players, rules)
            S, RB = replay_final_state(rules, seats, i, 0)
            python_invariants(S, RB, rules, players)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 8),
    seats=st.lists(st.sampled_from(POLICIES), min_size=8, max_size=8),
    starting_cash=st.sampled_from([200, 800, 1500, 3000]),
    salary=st.sampled_from([0, 100, 200, 400]),
    houses=st.integers(0, 40),
    hotels=st.integers(0, 14),
    jail_turns=st.integers(1, 4),
    seed=st.integers(0, 2**32),
)
def test_random_tables_and_numbers(players, seats, starting_cash, salary, houses, hotels, jail_turns, seed):
    rules = ClassicRules(starting_cash=starting_cash, salary=salary, houses=houses, hotels=hotels,
                         jail_turns=jail_turns, max_rounds=150)
    df = GAME.simulate(6, players, seats[:players], rules, seed=seed, check=True)
    check_table(df, players, rules)
    S, RB = replay_final_state(rules, seats[:players], seed, 0)
    python_invariants(S, RB, rules, players)


def test_the_independent_check_catches_a_broken_state():
    rules = ClassicRules(max_rounds=30)
    S, RB = replay_final_state(rules, ["buy_all", "buy_all", "trader"], 1, 0)
    python_invariants(S, RB, rules, 3)
    S[L.G_HOUSES] += 1
    with pytest.raises(AssertionError):
        python_invariants(S, RB, rules, 3)
    assert kernel.check_invariants(S) == kernel.ERR_BUILDINGS
    S[L.G_HOUSES] -= 1
    S[L.CASH] += 1
    assert kernel.check_invariants(S) == kernel.ERR_MONEY


def test_the_check_recounts_the_deeds_the_bank_holds():
    # The trade search and the jail choice read the bank's count per group (BANK_N), which
    # set_owner keeps; check_invariants recounts it, so a count gone wrong stops the game.
    rules = ClassicRules(max_rounds=20)
    S, _ = replay_final_state(rules, ["buy_all", "trader", "three_houses"], 3, 0)
    assert kernel.check_invariants(S) == kernel.OK
    S[L.BANK_N + 9] += 1
    assert kernel.check_invariants(S) == kernel.ERR_DEEDS


def test_the_check_rescans_every_remembered_highest_rent():
    # The strong bot's reserve remembers each owner's highest rent under the owner's P_BOARD
    # counter; check_invariants (on after every turn with check=True) rescans each one that
    # claims to be current, so a memo that skipped a change that mattered stops the game.
    rules = ClassicRules(max_rounds=40)
    S, _ = replay_final_state(rules, ["strong", "trader", "three_houses"], 2, 0)
    current = [p for p in range(3) if S[L.RENT_BOARD + p] == S[L.P_BOARD + p]]
    assert current and kernel.check_invariants(S) == kernel.OK
    S[L.RENT_MAX + current[0]] += 1
    assert kernel.check_invariants(S) == kernel.ERR_RENT_MEMO
