"""The turn-optimal stopping rule: its table against a direct Bellman recursion, its threshold
structure, that no threshold policy beats it on its own objective, and that the kernel reads
the table for the pile it actually holds."""

import random
from collections import Counter

import pytest

from sim.chance import api, kernel
from sim.chance.game import GAME
from sim.chance import layout as L
from sim.chance.optimal import (
    OBJ_BOARD,
    OBJ_COUNT,
    OBJ_VALUE,
    TurnModel,
    build_table,
    deck_types,
    max_flips,
)
from sim.chance.rules import ChanceRules
from strategies.chance import optimal_flip, optimal_threshold, parse_policy, situation_key
from tests.chance_harness import Table

DEFAULT = ChanceRules()
# A small deck (a duplicate Cash value, 3 Lucky Breaks) keeps the board-objective table quick.
SMALL_DECK = {"cash2": 1, "cash3": 1, "cash5": 2, "cash7": 1, "cash9": 1, "cash12": 1,
              "bankrupt": 3, "lucky_break": 3, "token": 1, "nope": 1}
SMALL = ChanceRules(deck=SMALL_DECK)


def table_for(rules, objective):
    cards = rules.deck_cards()
    return build_table(rules, 2, None, [objective, None], [cards, cards])


def pile_index(rules, model: TurnModel, pile) -> int:
    """The table's index of a TurnModel pile (counts per Cash value present, B, L, O)."""
    kinds, vals, counts, strides, _ = deck_types(rules.deck_cards())
    cash_vals = [int(v) for v, k in zip(vals, kinds) if k == 0]
    idx = 0
    for v, c in zip(model.values, pile[: model.ncash]):
        idx += c * int(strides[cash_vals.index(v)])
    n = len(cash_vals)
    for j in range(3):
        idx += pile[model.ncash + j] * int(strides[n + j])
    return idx


def table_flip(pt, rules, model, pile, objective, t):
    st = model.state(pile)
    if st["left"] <= 0 or st["pile_n"] == 0:
        return False
    th = optimal_threshold(pt, 0, pile_index(rules, model, pile), st["left"], st["h"], t)
    s = {OBJ_VALUE: st["cash_sum"], OBJ_COUNT: st["cash_n"]}.get(objective)
    if s is None:  # board: weight of Cash above t
        s = st["s"]
    return s < th


def random_situation(rules, rng: random.Random, max_flips_left: int):
    """A random position some turn can reach: a random sub-pile of the deck, some of the rest
    flipped this turn, Lucky Breaks in front (at most those not in the pile)."""
    deck = rules.deck_cards()
    rng.shuffle(deck)
    n_pile = rng.randint(1, len(deck))
    pile, rest = deck[:n_pile], deck[n_pile:]
    flipped = [v for k, v in rest if k == 0 and rng.random() < 0.4]
    lucky_total = sum(k == 2 for k, _ in deck)
    lucky_pile = sum(k == 2 for k, _ in pile)
    held = rng.randint(0, lucky_total - lucky_pile)
    flips = rng.randint(1, max_flips_left)
    return dict(
        cash=[v for k, v in pile if k == 0],
        bankrupt=sum(k == 1 for k, _ in pile),
        lucky=lucky_pile,
        other=sum(k >= 3 for k, _ in pile),
        held_lucky=held,
        flipped=flipped,
        flips=flips,
    )


CASES = [(DEFAULT, OBJ_VALUE, 3), (DEFAULT, OBJ_COUNT, 3), (SMALL, OBJ_VALUE, 8), (SMALL, OBJ_COUNT, 8),
         (SMALL, OBJ_BOARD, 8)]


@pytest.mark.parametrize("rules, objective, n_situations", CASES)
def test_table_matches_bellman_recursion(rules, objective, n_situations):
    pt = table_for(rules, objective)
    rng = random.Random(2024 + objective)
    F = max_flips(rules)
    checked = 0
    for _ in range(n_situations):
        sit = random_situation(rules, rng, F)
        t = rng.choice([0, 2, 4, 5, 8, 11]) if objective == OBJ_BOARD else 0
        model = TurnModel(**sit, objective=objective, t=t)
        for pile in model.states():
            assert table_flip(pt, rules, model, pile, objective, t) == model.should_flip(pile), (sit, pile)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("rules, objective, n_situations", CASES)
def test_no_threshold_policy_beats_the_optimal_rule_on_its_objective(rules, objective, n_situations):
    pt = table_for(rules, objective)
    rng = random.Random(7 + objective)
    F = max_flips(rules)
    rivals = [lambda st, n=n: st["taken"] < n for n in range(0, 7)]
    rivals += [lambda st, p=p: st["p_bust_next"] <= p for p in (0.0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 1.0)]
    rivals += [lambda st, v=v: st["cash_sum"] < v for v in (5, 10, 12, 15, 20, 25, 30)]
    for _ in range(n_situations):
        sit = random_situation(rules, rng, F)
        t = rng.choice([0, 4, 7]) if objective == OBJ_BOARD else 0
        model = TurnModel(**sit, objective=objective, t=t)
        best = model.value(decide=lambda st, m=model: table_flip(pt, rules, m, _pile_of(m, st), objective, t))
        assert best == pytest.approx(model.value(), abs=1e-9)
        for rival in rivals:
            assert model.value(decide=rival) <= best + 1e-9


def _pile_of(model, st):
    return st["pile"]


@pytest.fixture(autouse=True)
def _states_know_their_pile(monkeypatch):
    """Let decision functions see the pile (TurnModel.state is keyed by it)."""
    original = TurnModel.state

    def state(self, pile):
        st = original(self, pile)
        st["pile"] = pile
        return st

    monkeypatch.setattr(TurnModel, "state", state)


def test_flip_gain_falls_as_the_cash_in_hand_grows():
    """The structural claim behind the threshold table, checked directly: for a fixed pile,
    Lucky Breaks in front and flips left, (value of flipping) - (cash in hand) never rises
    with the cash in hand."""
    rng = random.Random(5)
    for _ in range(12):
        sit = random_situation(DEFAULT, rng, 5)
        not_in_pile = sorted((Counter(range(2, 13)) - Counter(sit["cash"])).elements())
        gains = []
        for r in range(0, len(not_in_pile) + 1):
            for flipped in {tuple(sorted(rng.sample(not_in_pile, r))) for _ in range(3)}:
                model = TurnModel(**{**sit, "flipped": list(flipped)})
                gains.append((sum(flipped), model.flip_value() - sum(flipped)))
        gains.sort()
        for (s1, g1), (s2, g2) in zip(gains, gains[1:]):
            assert g2 <= g1 + 1e-9 or s2 == s1, gains


def test_kernel_reads_the_table_for_the_pile_it_holds():
    t = Table(["optimal", "smart"])
    t.pt = api.policy_tables(t.rules, 2, t.pk, t.pp)
    rng = random.Random(3)
    for _ in range(40):
        sit = random_situation(DEFAULT, rng, 6)
        names = [f"cash{v}" for v in sit["cash"]] + ["bankrupt"] * sit["bankrupt"] + ["lucky_break"] * sit["lucky"]
        names += ["token", "flip2", "nope"][: sit["other"]]
        rng.shuffle(names)
        t.deal(0, draw=names)
        S = t.S
        S[L.T_N] = 0
        for v in sit["flipped"]:
            c = t.card(0, f"cash{v}", "discard")
            S[L.WHERE + c] = L.TURN
            S[L.TURN_CARDS + S[L.T_N]] = c
            S[L.T_N] += 1
        for _ in range(sit["held_lucky"]):
            c = t.card(0, "lucky_break", "discard")
            S[L.WHERE + c] = L.TURN
            S[L.TURN_CARDS + S[L.T_N]] = c
            S[L.T_N] += 1
        S[L.T_LUCKY] = sit["held_lucky"]
        kernel.fill_situation(S, t.RB, 0, 1, 1 + sit["flips"])
        model = TurnModel(**sit)
        assert bool(optimal_flip(t.pt, 0, S)) == model.should_flip(), sit


def test_policy_spec_names_the_objective():
    assert parse_policy("optimal")[2][0] == 0
    assert parse_policy("optimal objective=board")[2][0] == 2
    assert parse_policy("optimal objective=count")[2][0] == 1
    with pytest.raises(ValueError, match="use one of: value, count, board"):
        parse_policy("optimal objective=luck")


def test_forced_situations_change_only_the_games_where_they_arise():
    key = situation_key(cash_lo=10, cash_hi=25, left=2, lucky=0)
    seats = ["optimal", "smart", "bust_threshold p=0.25"]
    flip = GAME.simulate(3000, 3, seats, seed=9, force=(0, "flip", key))
    stop = GAME.simulate(3000, 3, seats, seed=9, force=(0, "stop", key))
    hit = flip["situations_0"] > 0
    assert (hit == (stop["situations_0"] > 0)).all()  # identical until the situation first arises
    assert 0.05 < hit.mean() < 0.95
    same = flip.drop(columns=["situations_0"])[~hit].reset_index(drop=True)
    pd_equal = same.equals(stop.drop(columns=["situations_0"])[~hit].reset_index(drop=True))
    assert pd_equal
    assert flip.loc[hit, "flips_0"].mean() > stop.loc[hit, "flips_0"].mean() + 1
    assert (flip.loc[hit, "turns"] != stop.loc[hit, "turns"]).mean() > 0.5  # the games diverge
    base = GAME.simulate(3000, 3, seats, seed=9)
    assert (base["situations_0"] == 0).all()


def test_optimal_policy_results_do_not_depend_on_threads_or_chunks():
    import numba

    seats = ["optimal", "optimal objective=count", "smart"]
    a = GAME.simulate(1500, 3, seats, seed=4, threads=1, chunk_size=1500, check=True)
    b = GAME.simulate(1500, 3, seats, seed=4, threads=min(2, numba.config.NUMBA_NUM_THREADS), chunk_size=311)
    import pandas as pd

    pd.testing.assert_frame_equal(a, b)


def test_cli_objective_names_match_the_policy(capsys):
    import sim.cli
    from sim.chance.optimal import OBJECTIVES

    with pytest.raises(SystemExit) as e:
        sim.cli.main(["chance", "advise", "--objective", "nonsense"])
    assert e.value.code == 2
    assert f"one of {', '.join(OBJECTIVES)} (got" in capsys.readouterr().err
