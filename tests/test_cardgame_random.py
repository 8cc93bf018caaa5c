"""Randomized Monopoly: The Card Game matches under many house-rule combinations, with the
kernel's invariant checks on.

With ``check=True`` the kernel verifies after every turn and every hand that each of the
deck's cards is in exactly one place (draw pile, a hand, a pile) with its recorded place
matching, that each hand's kind counts match its cards, that the seat whose turn ended holds
at most hand_limit cards, and that all money (seats plus the jackpot) equals what the bank
paid out; a broken invariant makes ``simulate`` raise. On top of that these tests check
finished matches from outside the kernel:

- money only from the bank: each seat's money is exactly the sum of its sources (groups,
  improvements, bonus cards, doubling, jackpots), the per-hand scores add up to it, and
  jackpots never pay more than was put in;
- the match ended as the rules say (money target or the hand count), shares of the win sum
  to 1, seat turns add up, one seat went out of every hand that was not stalled;
- rule-specific: nobody is zeroed by a Chance unless that rule is on, no jackpot without it;
- a final state recounted in Python holds every card once.

Coverage of house rules: every house rule and choice flipped alone from each edition's
preset at every player count the edition allows, and 48 seeded random combinations of all of
them together (plus random numbers such as max_trade, reward_cards, railroad_min) with random
tables and bot parameters, half of them with extra cards dealt to one or two seats (deck
edits). The full product of all switches (2^15 x 24) is too large to play.
"""

import numpy as np
import pytest
from cardgame_harness import Table

from sim.cardgame import kernel
from sim.cardgame.game import GAME
from sim.cardgame import layout as L
from sim.cardgame.rules import HOUSE_CHOICES, HOUSE_RULE_DOC, CardGameRules
from strategies.cardgame import PARAMS

POLICIES = ("random", "greedy", "cautious", "trader", "smart")
SOURCES = ("group_money", "impr_money", "bonus_money", "doubled_money", "jackpot_money")


def seat(df, name, players):
    return np.stack([df[f"{name}_{s}"].to_numpy() for s in range(players)], axis=1)


def check_matches(df, rules: CardGameRules, players: int, hands=None):
    money = seat(df, "money", players)
    parts = sum(seat(df, name, players) for name in SOURCES)
    np.testing.assert_array_equal(money, parts)
    assert (money >= 0).all()
    np.testing.assert_allclose(seat(df, "win", players).sum(axis=1), 1.0)
    winner = df["winner"].to_numpy()
    has = winner >= 0
    assert (money[has, winner[has]] == money[has].max(axis=1)).all()
    assert (seat(df, "turns", players).sum(axis=1) == df["turns"].to_numpy()).all()
    assert (seat(df, "outs", players).sum(axis=1) == df["hands"] - df["stalled_hands"]).all()
    big = rules.edition == "wiki" and players >= 5
    target = rules.target_big if big and rules.target > 0 else rules.target
    if target > 0:
        ended = (money.max(axis=1) >= target) | (df["hands"].to_numpy() == rules.max_hands)
        assert ended.all()
        assert ((df["hit_hand_limit"] == 1) == (money.max(axis=1) < target)).all()
    else:
        assert (df["hands"] == min(rules.n_hands, rules.max_hands)).all()
    if not rules.house.chance_zeroes_others:
        assert (seat(df, "zeroed", players) == 0).all()
    jackpot = seat(df, "jackpot_money", players).sum(axis=1)
    if not rules.house.free_parking_jackpot:
        assert (jackpot == 0).all()
    assert (jackpot <= df["hands"].to_numpy() * rules.jackpot_add).all()
    if hands is not None:
        for s in range(players):
            per_game = hands.groupby("game")[f"score_{s}"].sum().reindex(df["game"], fill_value=0).to_numpy()
            np.testing.assert_array_equal(per_game + seat(df, "jackpot_money", players)[:, s], money[:, s])


def single_flips(edition: str):
    base = CardGameRules.preset(edition)
    out = []
    for name in HOUSE_RULE_DOC:
        value = getattr(base.house, name)
        if name in HOUSE_CHOICES:
            out += [{name: c} for c in HOUSE_CHOICES[name] if c != value]
        else:
            out.append({name: not value})
    return out


CASES = [(ed, n, flip) for ed in ("wiki", "video") for flip in single_flips(ed)
         for n in range(*((3, 7) if ed == "wiki" else (2, 5)))]


@pytest.mark.parametrize("edition, players, flip", CASES, ids=[f"{e}-{n}-{next(iter(f.items()))}" for e, n, f in CASES])
def test_each_house_rule_alone_keeps_every_invariant(edition, players, flip):
    rules = CardGameRules.preset(edition).replace(**flip)
    seats = [POLICIES[1 + (i % 4)] for i in range(players)]
    df = GAME.simulate(60, players, seats, rules, seed=hash(str(flip)) % 1000, threads=1, check=True)
    check_matches(df, rules, players)


def random_rules(rng) -> CardGameRules:
    edition = ("wiki", "video")[rng.integers(2)]
    base = CardGameRules.preset(edition)
    change = {}
    for name in HOUSE_RULE_DOC:
        if name in HOUSE_CHOICES:
            change[name] = HOUSE_CHOICES[name][rng.integers(len(HOUSE_CHOICES[name]))]
        else:
            change[name] = bool(rng.integers(2))
    change["max_trade"] = int(rng.integers(1, 5))
    change["reward_cards"] = int(rng.integers(0, 7))
    change["railroad_min"] = int(rng.integers(1, 5))
    change["max_houses"] = int(rng.integers(0, 6))
    change["face_up"] = int(rng.integers(1, 3))
    change["max_turns_hand"] = int(rng.integers(20, 200))
    change["max_hands"] = int(rng.integers(4, 30))
    if rng.integers(2):
        change["target"] = int(rng.integers(0, 6)) * 2000
    change["n_hands"] = int(rng.integers(1, 5))
    if rng.integers(4) == 0:
        deck = dict(base.deck)
        deck["bonus_double"] = int(rng.integers(1, 3))
        deck["chance"] = int(rng.integers(0, 4))
        change["deck"] = deck
    return base.replace(**change)


def random_policy(rng) -> str:
    name = POLICIES[rng.integers(len(POLICIES))]
    words = [name]
    for key in rng.choice(list(PARAMS), size=3, replace=False):
        p = PARAMS[key]
        words.append(f"{key}={rng.uniform(p.low, p.high):.3f}")
    return " ".join(words)


def random_edits(rng, rules: CardGameRules, players: int) -> dict:
    """In one case of two, one to three extra cards of the deck's kinds for one or two seats."""
    if rng.integers(2):
        return {}
    names = [name for name, count in rules.deck.items() if count > 0]
    edits = {}
    for seat in rng.choice(players, size=int(rng.integers(1, 3)), replace=False):
        picks = rng.choice(names, size=int(rng.integers(1, 4)))
        edits[int(seat)] = {str(name): int((picks == name).sum()) for name in set(picks)}
    return edits


@pytest.mark.parametrize("k", range(48))
def test_random_rule_combinations_keep_every_invariant(k):
    rng = np.random.default_rng(1000 + k)
    rules = random_rules(rng)
    lo, hi = rules.players_allowed()
    players = int(rng.integers(lo, hi + 1))
    seats = [random_policy(rng) for _ in range(players)]
    edits = random_edits(rng, rules, players)
    games, detail = GAME.simulate(25, players, seats, rules, seed=k, threads=1, check=True, deck_edits=edits,
                                  detail=True)
    hands = detail["hands"]
    check_matches(games, rules, players, hands)


@pytest.mark.parametrize("edition, players, edits", [
    ("wiki", 3, None), ("wiki", 4, None), ("wiki", 5, None), ("wiki", 6, None), ("video", 2, None), ("video", 4, None),
    ("wiki", 4, {2: {"chance": 1, "mr_monopoly": 1}}), ("wiki", 6, {0: {"hotel": 1}}), ("video", 3, {1: {"house": 2}}),
])
def test_every_card_is_in_one_place_after_a_hand(edition, players, edits):
    # Recounted in Python from the final state of real hands played by the kernel.
    rules = CardGameRules.preset(edition)
    n_cards = 60 + sum(sum(e.values()) for e in (edits or {}).values())
    for seed in range(3):
        t = Table(["smart", "random", "trader", "cautious", "greedy", "smart"][:players], rules, seed=seed,
                  deck_edits=edits)
        kernel.play_hand(t.S, t.RB, t.pk, t.pp, t.rng, t.W, True, t.hand_row, t.kind_row, True)
        assert int(t.S[L.G_STATUS]) == 0
        places = []
        places += [int(t.S[L.DRAW_PILE + k]) for k in range(int(t.S[L.DRAW_N]))]
        for p in range(players):
            places += [int(t.S[L.HAND_ + p * L.MAX_CARDS + k]) for k in range(int(t.S[L.HAND_N + p]))]
        for q in range(int(t.RB[L.R_N_PILES])):
            places += [int(t.S[L.PILE_ + q * L.MAX_CARDS + k]) for k in range(int(t.S[L.PILE_N + q]))]
        assert sorted(places) == list(range(n_cards))
        assert sum(t.money(p) for p in range(players)) + int(t.S[L.G_POT]) == int(t.S[L.G_BANK_PAID])
