"""Pig, the reference game (tests/pig/): registered through the public contract only, it plays
in batch and through the step API, and monosim reproduces its published optimal result: with
both players optimal, the first player wins 0.5306 of the games (Neller and Presser)."""

import dataclasses
import math

import pytest
from pig.game import GAME, registered
from pig.optimal import solve

from sim.core.game import GAME_NAMES, check_game, get, register
from sim.core.play import new_game, random_answers
from sim.core.replay import replay

PUBLISHED = 0.5306  # the first player's share of wins, optimal against optimal


@pytest.fixture(scope="module")
def pig():
    return registered()


def within(wins: float, n: int, p: float, z: float = 3.0) -> bool:
    """A share of n games agrees with p: within z standard errors (a false alarm at z = 3:
    about 1 run in 370)."""
    return abs(wins / n - p) <= z * math.sqrt(p * (1 - p) / n)


def test_pig_keeps_the_contract_and_stays_out_of_the_cli(pig):
    assert check_game(GAME) == [] and get("pig") is GAME and "pig" not in GAME_NAMES


def test_a_game_lacking_a_part_or_taking_a_name_is_not_registered():
    with pytest.raises(ValueError, match="no bench_runs"):
        register(dataclasses.replace(GAME, name="pig_without_bench",
                                     kernel=dataclasses.replace(GAME.kernel, bench_runs={})))
    with pytest.raises(ValueError, match="the name is taken"):
        register(dataclasses.replace(GAME, name="deal"))


def test_value_iteration_gives_the_published_optimum():
    P, roll = solve()
    assert abs(P[0, 0, 0] - PUBLISHED) < 5e-5
    assert roll[0, 0, 20] and not roll[0, 0, 21]  # at 0-0: roll on 20, hold on 21


def test_a_stepped_game_answered_by_the_bots_is_the_batch_game(pig):
    for k in range(5):
        s = new_game("pig", seats=["optimal", "hold at=15"], seed=k, game_index=k)
        while not s.is_terminal():
            s.apply(s.bot_action())
        batch = pig.simulate(1, 2, ["optimal", "hold at=15"], seed=k, first_game=k)
        assert s.row().reset_index(drop=True).equals(batch.reset_index(drop=True))
        assert s.events().equals(replay("pig", k, seed=k, players=2, seats=["optimal", "hold at=15"]).events)


def test_random_answers_break_no_invariant(pig):
    df = random_answers("pig", 300, seed=1)
    assert len(df) == 300 and df.attrs["decisions_asked"]["roll"] > 300


def test_the_exact_agent_through_the_step_api_wins_the_published_share(pig):
    _, roll = solve()
    n = 3000
    first = 0
    for k in range(n):
        s = new_game("pig", seed=7, game_index=k)  # both seats answered from Python
        while not s.is_terminal():
            o = s.observation(s.current_player)
            me, other = o["scores"][o["seat"]], o["scores"][1 - o["seat"]]
            s.apply(int(roll[me, other, o["turn_total"]]))
        first += s.returns()[0]
    assert within(first, n, PUBLISHED)


def test_the_compiled_policy_table_wins_the_published_share(pig):
    n = 400_000
    df = pig.simulate(n, 2, ["optimal", "optimal"], seed=3)
    assert within(df["win_0"].sum(), n, PUBLISHED)
    hold = pig.simulate(n // 4, 2, ["optimal", "hold at=20"], seed=3)
    assert hold["win_0"].mean() > 0.5  # optimal play beats holding at 20, from the first seat
