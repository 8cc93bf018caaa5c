"""Landing frequencies: the exact Markov chain against simulation, and its own properties."""

import numpy as np
import pytest

from sim.classic import landing
from sim.classic.rules import ClassicRules


@pytest.mark.parametrize("jail", ["short", "long"])
def test_transition_matrix_is_stochastic(jail):
    P = landing.transition_matrix(ClassicRules(), jail)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    assert (P >= 0).all()


@pytest.mark.parametrize("jail", ["short", "long"])
def test_exact_frequencies_are_stationary(jail):
    rules = ClassicRules()
    pi = landing.exact_frequencies(rules, jail)
    assert pi.shape == (41,) and abs(pi.sum() - 1) < 1e-12 and (pi > 0).sum() == 40
    assert pi[30] == 0  # nobody rests on Go To Jail


def test_known_landmarks():
    short = landing.exact_frequencies(ClassicRules(), "short")
    long = landing.exact_frequencies(ClassicRules(), "long")
    # staying in jail makes In Jail the most common resting place by far
    assert long[40] > 2 * short[40]
    assert np.argmax(long) == 40
    # Illinois Avenue is the most visited deed; Park Place among the least of the streets
    deeds = [i for i, s in enumerate(ClassicRules().board) if s.kind == "street"]
    assert max(deeds, key=lambda i: short[i]) == 24
    assert short[37] < short[39]


@pytest.mark.parametrize("jail", ["short", "long"])
def test_simulation_agrees_with_the_exact_chain(jail, long_run):
    rolls = 20_000_000 if long_run else 2_000_000
    rows = landing.landing_table(ClassicRules(), jail, rolls, seed=5)
    z = np.array([(r["simulated"] - r["exact"]) / r["se"] for r in rows if r["se"] > 0])
    # 40 squares: a |z| above 4.5 has chance under 3e-4 in all; the spread of z is about 1
    assert np.abs(z).max() < 4.5, z
    assert 0.5 < z.std() < 1.6
    sim = np.array([r["simulated"] for r in rows])
    assert abs(sim.sum() - 1) < 1e-9


def test_simulation_detects_a_wrong_chain():
    # the test above can fail: against the other jail strategy's chain it must
    rows = landing.landing_table(ClassicRules(), "short", 2_000_000, seed=5)
    other = landing.exact_frequencies(ClassicRules(), "long")
    z = np.array([(r["simulated"] - other[r["square"]]) / r["se"] for r in rows if r["se"] > 0])
    assert np.abs(z).max() > 10


def test_house_rules_change_the_chain():
    base = landing.exact_frequencies(ClassicRules(), "short")
    no_speeding = landing.exact_frequencies(ClassicRules().replace(speeding=False), "short")
    assert no_speeding[40] < base[40]
