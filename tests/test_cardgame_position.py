"""Monopoly: The Card Game positions (sim/cardgame/position.py): a seat's turn in a hand, as it
sees it, for `monosim cardgame advise --position`. The positions start the compiled match there,
with the cards the seat to move cannot see dealt afresh for each match."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from sim.cardgame import position
from sim.core.play import new_game
from sim.core.runner import UsageError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = tomllib.loads((ROOT / "experiments" / "cardgame-position.toml").read_text())


def start(data: dict, game_index: int = 0, outside=None):
    rules, policies, options, seat = position.parse(data)
    return new_game("cardgame", seats=policies, players=len(policies), rules=rules, seed=5, game_index=game_index,
                    outside=[seat] if outside is None else outside, **options), seat


def test_a_position_starts_the_match_where_it_says_with_the_unseen_cards_dealt_afresh():
    state, seat = start(EXAMPLE)
    obs = state.observation(seat)
    assert (state.current_player, state.decision, obs["hand_number"], obs["dealer"]) == (0, "move", 2, 2)
    hand = EXAMPLE["player"][0]["hand"]
    assert obs["hand"] == {name.replace("house", "house1"): hand.count(name) for name in sorted(set(hand))}
    assert obs["hand_sizes"] == [10, 10, 10] and obs["money"] == [1500, 2500, 1000] and obs["jackpot"] == 500
    assert obs["piles"] == {"seat 0's pile": ["go"], "seat 1's pile": ["pink", "green"], "seat 2's pile": ["hotel"],
                            "imaginary player 1's pile": ["red", "orange"]}
    assert obs["seen_taking"] == [{}, {"green": 1}, {}]
    # Seat 1's hand differs from match to match; what seat 0 sees does not.
    hands = {tuple(sorted(start(EXAMPLE, g, outside=[1])[0].observation(1)["hand"].items())) for g in range(6)}
    assert len(hands) == 6
    assert all(start(EXAMPLE, g)[0].observation(0) == obs for g in range(1, 4))


def test_a_position_plays_to_the_end_under_every_check():
    rules, policies, options, _ = position.parse(EXAMPLE)
    from sim.cardgame.game import GAME

    df = GAME.simulate(300, players=3, seats=policies, rules=rules, seed=2, check=True, threads=1, **options)
    assert len(df) == 300 and (df["hands"] >= 2).all()
    # Seat 1 starts 1,000 ahead of seat 0 and 1,500 ahead of seat 2.
    assert (df["winner"] == 1).mean() > (df["winner"] == 0).mean() > (df["winner"] == 2).mean()


def test_a_five_player_wiki_position_needs_a_card_on_every_pile():
    """At 5 and 6 players (wiki) every turn trades the top of the seat's own pile."""
    data = {"seat": 1, "rules": {"edition": "wiki"},
            "player": [{"hand_size": 8}, {"hand": ["green", "green", "chance"]}] + [{"hand_size": 8}] * 3,
            "piles": {f"seat {q}'s pile": [name] for q, name in enumerate(["go", "red", "yellow", "pink", "orange"])}}
    state, seat = start(data)
    assert (state.current_player, state.decision, len(state.observation(seat)["hand_sizes"])) == (1, "move", 5)
    del data["piles"]["seat 3's pile"]
    with pytest.raises(UsageError, match="every seat's pile holds a card"):
        position.parse(data)


BAD = [
    ({"seat": 3}, "seat must be between 0 and 2"),
    ({"colour": 1}, "unknown key 'colour'"),
    ({"dealer": 0, "hand_turn": 2}, "hand_turn: turn 2 of a hand dealt by seat 0 is seat 2's, not seat 0's"),
    ({"rules": {"edition": "wiki"}}, "jackpot: these rules have no Free Parking jackpot"),
    ({"piles": {"seat 4's pile": ["go"]}}, "piles: unknown pile \"seat 4's pile\""),
    ({"piles": {"seat 0's pile": ["go"] * 12}}, "one 'go' too many"),
    ({"piles": {"seat 0's pile": ["boardwalk"]}}, "unknown card 'boardwalk'"),
]
PLAYER_BAD = [
    (1, {"hand_size": None}, "player 1.hand_size: give how many cards"),
    (0, {"hand_size": 3}, "the seat to move lists its whole hand"),
    (0, {"money": -5}, "player 0.money must be between 0 and"),
    (0, {"seen_taking": {"green": "x"}}, "seen_taking.green must be a whole number"),
    (2, {"hand_size": 40}, "hand_size must be between 0 and"),
]


@pytest.mark.parametrize("change, message", BAD)
def test_impossible_positions_are_refused_in_one_line(change, message):
    data = {**copy.deepcopy(EXAMPLE), **change}
    with pytest.raises(UsageError) as e:
        position.parse(data)
    assert message in str(e.value) and "\n" not in str(e.value), str(e.value)


@pytest.mark.parametrize("seat, change, message", PLAYER_BAD)
def test_impossible_players_are_refused_in_one_line(seat, change, message):
    data = copy.deepcopy(EXAMPLE)
    data["player"][seat].update(change)
    data["player"][seat] = {k: v for k, v in data["player"][seat].items() if v is not None}
    with pytest.raises(UsageError) as e:
        position.parse(data)
    assert message in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_cardgame_advise_from_a_position_file(tmp_path):
    from inprocess import monosim

    done = monosim("cardgame", "advise", "--position", "experiments/cardgame-position.toml", "--precision", "5")
    assert done.returncode == 0, done.stderr
    assert "Seat 0 decides move" in done.stdout and "| draw a card" in done.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text((ROOT / "experiments" / "cardgame-position.toml").read_text().replace('"yellow"', '"mauve"'))
    done = monosim("cardgame", "advise", "--position", str(bad))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "player 0.hand[8]: unknown card 'mauve'" in done.stderr, done.stderr
