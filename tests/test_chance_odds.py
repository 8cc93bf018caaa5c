"""Exact turn odds: against brute-force enumeration, Monte Carlo, and the command line."""

import itertools
import json

import inprocess
import numpy as np
import pytest

import sim.chance
from sim.chance.exact_odds import Situation, commit_odds, make_situation, odds
from sim.chance.rules import ChanceRules
from sim.core.runner import UsageError


def brute_force(sit: Situation, k: int):
    """Average over every ordering of the pile's cards (each card distinct)."""
    cards = [("cash", v) for v in sit.cash] + [("bankrupt", 0)] * sit.bankrupt
    cards += [("lucky", 0)] * sit.lucky + [("other", 0)] * sit.other
    n_perm = bust = cards_kept = value_kept = 0
    for order in itertools.permutations(range(len(cards))):
        n_perm += 1
        lucky = sit.held_lucky
        got = list(sit.flipped)
        busted = False
        for i in order[:k]:
            kind, v = cards[i]
            if kind == "bankrupt":
                if lucky:
                    lucky -= 1
                else:
                    busted = True
                    break
            elif kind == "lucky":
                lucky += 1
            elif kind == "cash":
                got.append(v)
        if busted:
            bust += 1
        else:
            cards_kept += len(got)
            value_kept += sum(got)
    return bust / n_perm, cards_kept / n_perm, value_kept / n_perm


SMALL = [
    Situation(cash=(3, 5, 5, 9), bankrupt=2, lucky=1, other=1, held_lucky=0, flipped=(), flips=8),
    Situation(cash=(2, 12), bankrupt=3, lucky=2, other=0, held_lucky=1, flipped=(7, 11), flips=7),
    Situation(cash=(4, 6, 8), bankrupt=1, lucky=0, other=2, held_lucky=0, flipped=(10,), flips=4),
    Situation(cash=(), bankrupt=2, lucky=2, other=1, held_lucky=0, flipped=(5,), flips=5),
]


@pytest.mark.parametrize("sit", SMALL)
def test_exact_odds_equal_brute_force_enumeration(sit):
    for k in range(1, sit.flips + 1):
        exact = commit_odds(sit, k)
        brute = brute_force(sit, k)
        assert exact == pytest.approx(brute, abs=1e-12), k


def test_next_flip_bust_chance():
    assert odds(SMALL[0])["p_bust_next"] == pytest.approx(2 / 8)
    assert odds(SMALL[1])["p_bust_next"] == 0.0  # a Lucky Break in front absorbs it
    assert odds()["p_bust_next"] == pytest.approx(4 / 20)
    # the next flip is the first of "commit to 1"
    assert odds(SMALL[2])["flips"][0]["p_bust"] == pytest.approx(odds(SMALL[2])["p_bust_next"])


def monte_carlo(sit: Situation, n: int, seed: int):
    rng = np.random.default_rng(seed)
    kinds = np.array([0] * len(sit.cash) + [1] * sit.bankrupt + [2] * sit.lucky + [3] * sit.other)
    values = np.array(list(sit.cash) + [0] * (len(kinds) - len(sit.cash)))
    # one random ordering per row: argsort of uniforms
    order = np.argsort(rng.random((n, len(kinds))), axis=1)
    kind_seq = kinds[order]
    val_seq = values[order]
    out = {}
    for k in range(1, sit.flips + 1):
        kk = min(k, len(kinds))
        ks = kind_seq[:, :kk]
        lucky = sit.held_lucky + np.cumsum(ks == 2, axis=1)
        bankrupt = np.cumsum(ks == 1, axis=1)
        bust = ((ks == 1) & (bankrupt > lucky - (ks == 2))).any(axis=1)
        cash_n = len(sit.flipped) + (ks == 0).sum(axis=1)
        cash_v = sum(sit.flipped) + val_seq[:, :kk].sum(axis=1)
        out[k] = (bust, np.where(bust, 0, cash_n), np.where(bust, 0, cash_v))
    return out


@pytest.mark.parametrize(
    "kwargs",
    [dict(), dict(flipped=[7, 11], flips=4), dict(held_lucky=1, bankrupt=4, flips=8), dict(flips=20)],
)
def test_exact_odds_agree_with_monte_carlo_on_full_decks(kwargs):
    sit = make_situation(**kwargs)
    n = 200_000
    sims = monte_carlo(sit, n, seed=12345)
    result = odds(sit)
    for row in result["flips"]:
        bust, cn, cv = sims[row["k"]]
        # 5 standard errors: a false alarm about once in 3.5 million checks
        for exact, sample in ((row["p_bust"], bust), (row["expected_cash_cards"], cn), (row["expected_cash_value"], cv)):
            se = sample.std(ddof=1) / np.sqrt(n)
            assert abs(sample.mean() - exact) <= 5 * se + 1e-12, (row, sample.mean())


def test_defaults_are_a_fresh_deck_minus_what_is_in_front():
    sit = make_situation(flipped=[7, 11], held_lucky=1)
    assert sit.cash == (2, 3, 4, 5, 6, 8, 9, 10, 12)
    assert (sit.bankrupt, sit.lucky, sit.other, sit.flips) == (4, 1, 3, 6)
    sit = make_situation(rules=ChanceRules().replace(deck={**ChanceRules().deck, "lucky_break": 3, "cash7": 2}))
    assert sit.lucky == 3 and sit.cash.count(7) == 2
    # the package-level entry point
    assert sim.chance.odds(flipped=[7], flips=2) == odds(make_situation(flipped=[7], flips=2))


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        (dict(bankrupt=5), "more than the 4 Bankrupts"),
        (dict(bankrupt=-1), "must not be negative"),
        (dict(cash=[7, 7]), "2 x Cash 7"),
        (dict(cash=[7], flipped=[7]), "1 more flipped"),
        (dict(lucky=2, held_lucky=1), "more than the 2 Lucky Breaks"),
        (dict(held_lucky=3), "more than the 2 Lucky Breaks"),
        (dict(other=4), "other cards"),
        (dict(flipped=[13]), "deck holds 0"),
        (dict(flips=-1), "must not be negative"),
    ],
)
def test_impossible_situations_are_refused(kwargs, needle):
    with pytest.raises(UsageError, match=needle):
        make_situation(**kwargs)


def monosim(*args):
    return inprocess.monosim(*args)


def test_odds_json_shape():
    r = monosim("chance", "odds", "--flipped", "7,11", "--flips", "2", "--held-lucky", "1", "--json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)["results"]
    assert list(got) == ["p_bust_next", "flips"]
    assert [row["k"] for row in got["flips"]] == [1, 2]
    assert all(list(row) == ["k", "p_bust", "expected_cash_cards", "expected_cash_value"] for row in got["flips"])
    assert got == odds(make_situation(flipped=[7, 11], flips=2, held_lucky=1))
    r = monosim("chance", "odds", "--cash", "2,12", "--bankrupt", "3", "--lucky", "2", "--other", "0",
                "--held-lucky", "0", "--flipped", "7,11", "--flips", "3")
    assert r.returncode == 0 and "Next flip busts: 42.9%" in r.stdout


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--bankrupt", "9"], "more than the 4 Bankrupts"),
        (["--cash", "2,2"], "2 x Cash 2"),
        (["--flipped", "seven"], "--flipped takes comma-separated whole numbers"),
        (["--held-lucky", "-1"], "must not be negative"),
        (["--flips", "x"], "Invalid value for '--flips'"),
        (["--rule", "deck.joker=1"], "unknown card 'joker'"),
    ],
)
def test_odds_bad_input_is_one_line_and_exit_2(args, needle):
    r = monosim("chance", "odds", *args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("monosim: error:") and needle in lines[0], r.stderr
    assert r.stdout == ""
