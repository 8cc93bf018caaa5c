"""Randomized Monopoly Chance games under many rule variants, checked for invariants.

Every game runs with the kernel's invariant check on (``check=True``: a broken invariant after
any turn or round end makes ``simulate`` raise). On top of that, these tests check the
finished games from outside the kernel:

- per game (from the API table): win shares sum to 1; the winner has the longest skyline and,
  among equals, the fewest buildings; a game ends at the finish mark unless the round limit
  stopped it or no building was left to win; rounds >= 1; seat turns add up to the game's;
- per game (from the final state, recomputed in Python): every card sits in exactly one
  place, board stacks obey the placement rule, skylines equal the sum of their building
  lengths and no building is created or lost.

All 2^6 combinations of the house rules are run; hypothesis adds random tables of policies,
player counts, die faces, finish marks and deck edits.
"""

import itertools

import numpy as np
import pytest
from chance_harness import Table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.chance import kernel
from sim.chance.game import GAME
from sim.chance import layout as L
from sim.chance.rules import CASH, FLIP2, HOUSE_RULE_DOC, NOPE, TOKEN, ChanceRules

HOUSE_RULES = tuple(HOUSE_RULE_DOC)  # the six switches
assert len(HOUSE_RULES) == 6
POLICIES = (
    "random",
    "random p_stop=0.05",
    "random p_stop=0.6",
    "smart",
    "smart risk=0.3 flip2_stake=0 nope_stake=0",
    "max_flip",
    "max_flip token_gain=0 nope_length=0 fortify=0",
    "stop_after n=3",
    "bust_threshold p=0.25 flip2_stake=0",
    "cash_target v=15 nope_length=0 nope_stake=0",
)
DECK_EDITS = (
    {"lucky_break": 1},
    {"bankrupt": -1},
    {"flip2": 1},
    {"nope": 1},
    {"token": 1},
    {"cash7": 1},
    {"bankrupt": 1, "lucky_break": -1},
)


def check_table(df, rules: ChanceRules, players: int):
    """Game-level properties of an API result table."""
    sky = np.stack([df[f"skyline_{s}"] for s in range(players)], axis=1)
    blds = np.stack([df[f"buildings_{s}"] for s in range(players)], axis=1)
    win = np.stack([df[f"win_{s}"] for s in range(players)], axis=1)
    turns = np.stack([df[f"turns_{s}"] for s in range(players)], axis=1)
    np.testing.assert_allclose(win.sum(axis=1), 1.0)
    # The winners: longest skyline, then fewest buildings; a full tie shares the win.
    best_sky = sky.max(axis=1, keepdims=True)
    fewest = np.where(sky == best_sky, blds, np.iinfo(np.int64).max).min(axis=1, keepdims=True)
    winners = (sky == best_sky) & (blds == fewest)
    np.testing.assert_allclose(win, winners / winners.sum(axis=1, keepdims=True))
    k = winners.sum(axis=1)
    expected_winner = np.where(k == 1, winners.argmax(axis=1), -1)
    assert (df["winner"].to_numpy() == expected_winner).all()
    # Length of the game.
    rounds = df["rounds"].to_numpy()
    assert (rounds >= 1).all()
    assert (rounds <= rules.max_rounds).all()
    assert (turns.sum(axis=1) == df["turns"].to_numpy()).all()
    assert (df["turns"].to_numpy() >= rounds).all()
    assert (df["stalled_rounds"].to_numpy() <= rounds).all()
    finished = sky.max(axis=1) >= rules.finish_mark
    capped = df["hit_round_limit"].to_numpy() == 1
    assert not (finished & capped).any()
    assert (rounds[capped] == rules.max_rounds).all()
    coloured = sum(p.buildings for p in rules.properties)
    all_taken = blds.sum(axis=1) >= coloured  # every coloured building is in a skyline
    assert (finished | capped | all_taken).all()
    # Per-seat counters.
    for s in range(players):
        assert (df[f"busts_{s}"] <= df[f"turns_{s}"]).all()
        assert (df[f"skyline_{s}"] >= df[f"buildings_{s}"]).all()
        assert (df[f"cash_won_{s}"] <= df[f"cash_played_{s}"]).all()  # one building per card played, at most


def check_final_state(t: Table, out: dict):
    """Recompute, in Python, what the final state of a finished game must satisfy."""
    S, RB = t.S, t.RB
    n_props = t.n_props
    lengths = [int(RB[L.R_PROP_LENGTH + i]) for i in range(n_props)] + [int(RB[L.R_GRAY_LEN])]
    on_board = set()
    for i in range(n_props):
        need = int(RB[L.R_PROP_VALUE + i])
        for k in range(S[L.STACK_N + i]):
            code = int(S[L.STACK + i * L.MAX_STACK + k])
            p, c = divmod(code, L.MAX_DECK)
            assert code not in on_board
            on_board.add(code)
            assert S[L.WHERE + code] == L.BOARD
            assert RB[L.R_DECK_KIND + code] == CASH
            value = int(RB[L.R_DECK_VALUE + code])
            assert value > need or S[L.STACK_FP + i * L.MAX_STACK + k] == 1
            need = value
        owner, top = t.top(i)
        assert (owner, top) == ((p, value) if S[L.STACK_N + i] else (-1, 0))
    corners = {int(c) for c in S[L.CORNERS : L.CORNERS + L.N_CORNERS] if c >= 0}
    for p in range(t.n):
        pile = [int(S[L.DRAW_PILE + p * L.MAX_DECK + k]) for k in range(S[L.DRAW_N + p])]
        assert len(set(pile)) == len(pile)
        for c in range(len(t.names[p])):
            code = p * L.MAX_DECK + c
            w = S[L.WHERE + code]
            kind = RB[L.R_DECK_KIND + code]
            assert (w == L.DRAW) == (c in pile)
            assert (w == L.BOARD) == (code in on_board)
            assert (w == L.CORNER) == (code in corners)
            assert w != L.TURN
            if w == L.HELD:
                assert kind in (TOKEN, FLIP2, NOPE)
            if w == L.CORNER:
                assert kind == TOKEN
        # Skyline = sum of its buildings' lengths.
        counts = [t.buildings(p, b) for b in range(n_props + 1)]
        assert t.sky(p) == sum(n * ln for n, ln in zip(counts, lengths))
        assert t.n_buildings(p) == sum(counts)
        assert out["seat"]["skyline"][p] == t.sky(p)
    for i, prop in enumerate(t.rules.properties):
        assert t.left(i) + sum(t.buildings(p, i) for p in range(t.n)) == prop.buildings
    assert t.gray_left() + sum(t.buildings(p, t.gray) for p in range(t.n)) == t.rules.gray_buildings
    n_chance = len(t.rules.chance_cards)
    assert sorted(S[L.CHANCE_ORDER : L.CHANCE_ORDER + n_chance]) == list(range(n_chance))
    # The game ended for a reason.
    finished = max(t.sky(p) for p in range(t.n)) >= t.rules.finish_mark
    nothing_left = all(t.left(i) == 0 for i in range(n_props))
    assert finished or out["hit_round_limit"] == 1 or nothing_left


# ---------------------------------------------------------------------------------------------
# Every combination of the six house rules

COMBOS = list(itertools.product([False, True], repeat=len(HOUSE_RULES)))


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: "".join("1" if b else "0" for b in c))
def test_every_house_rule_combination_plays_clean_games(combo):
    index = COMBOS.index(combo)
    players = 2 + index % 3
    seats = ["random"] + [POLICIES[(index + s) % len(POLICIES)] for s in range(1, players)]
    rules = ChanceRules().replace(**dict(zip(HOUSE_RULES, combo)))
    df = GAME.simulate(200, players, seats, rules, seed=index, check=True)
    assert len(df) == 200
    check_table(df, rules, players)
    # The checked games went through every kind of event.
    for stat in ("busts", "lucky_saves", "flip2_forced", "nope_played", "tokens_played", "chance_cards"):
        assert sum(df[f"{stat}_{s}"].sum() for s in range(players)) > 0, stat
    t = Table(seats, rules)
    for game in range(5):
        out = t.play_game(seed=index, game=game)
        assert out["status"] == kernel.OK
        check_final_state(t, out)


# ---------------------------------------------------------------------------------------------
# Random tables, dice, finish marks and decks


@st.composite
def configs(draw):
    players = draw(st.integers(2, 4))
    seats = draw(st.lists(st.sampled_from(POLICIES), min_size=players, max_size=players))
    house = dict(zip(HOUSE_RULES, draw(st.lists(st.booleans(), min_size=6, max_size=6))))
    numbers = draw(st.lists(st.integers(1, 8), min_size=1, max_size=6))
    die = tuple(draw(st.permutations([0] * draw(st.integers(0, 2)) + numbers)))
    changes = dict(
        house,
        die=die,
        finish_mark=draw(st.integers(4, 40)),
        max_rounds=draw(st.sampled_from([1, 3, 40])),
    )
    edits = draw(st.dictionaries(st.integers(0, players - 1), st.sampled_from(DECK_EDITS), max_size=players))
    return players, seats, ChanceRules().replace(**changes), edits, draw(st.integers(0, 2**31))


@settings(max_examples=80, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(configs())
def test_random_tables_and_rule_variants_play_clean_games(config):
    players, seats, rules, edits, seed = config
    df = GAME.simulate(100, players, seats, rules, seed=seed, check=True, deck_edits=edits)
    check_table(df, rules, players)
    t = Table(seats, rules, deck_edits=edits)
    out = t.play_game(seed=seed, game=0)
    assert out["status"] == kernel.OK
    check_final_state(t, out)


# ---------------------------------------------------------------------------------------------
# One statistical check


def test_extra_lucky_breaks_make_a_seat_bust_less():
    """Two more Lucky Breaks in seat 0's deck must lower its share of turns that go bankrupt.
    Games are independent, so the difference of the per-game bust rates is compared with 4
    standard errors of that difference (fixed seed)."""
    seats = ["max_flip", "smart", "smart"]
    n = 400

    def bust_rates(edits):
        df = GAME.simulate(n, 3, seats, seed=99, check=True, deck_edits=edits)
        return (df["busts_0"] / df["turns_0"]).to_numpy()

    base = bust_rates(None)
    lucky = bust_rates({0: {"lucky_break": 2}})
    diff = base.mean() - lucky.mean()
    se = np.sqrt(base.var(ddof=1) / n + lucky.var(ddof=1) / n)
    assert diff > 4 * se
