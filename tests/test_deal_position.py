"""Monopoly Deal positions (sim/deal/position.py): a seat's turn after its draw, as it sees it,
for `monosim deal advise --position`. The positions start the compiled game there, with the
cards the seat to move cannot see dealt afresh for each game."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from sim.core import search
from sim.core.play import new_game
from sim.core.runner import UsageError
from sim.deal import position

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = tomllib.loads((ROOT / "experiments" / "deal-position.toml").read_text())


def start(data: dict, game_index: int = 0, outside=None):
    rules, policies, options, seat = position.parse(data)
    return new_game("deal", seats=policies, players=len(policies), rules=rules, seed=5, game_index=game_index,
                    outside=[seat] if outside is None else outside, **options), seat


def test_a_position_starts_the_game_where_it_says_with_the_unseen_cards_dealt_afresh():
    state, seat = start(EXAMPLE)
    obs = state.observation(seat)
    mine = EXAMPLE["player"][0]
    assert (state.current_player, state.decision, obs["plays_left"], obs["turn"]) == (0, "play", 3, 11)
    assert obs["hand"] == sorted(c for c in mine["hand"])
    assert obs["banks"] == [sorted(p["bank"]) for p in EXAMPLE["player"]]
    assert obs["properties"][1] == {"dark blue": ["dark blue", "dark blue"], "orange": ["orange", "orange"]}
    assert obs["buildings"][1] == {"dark blue": ["house"]} and obs["complete_sets"] == [1, 1]
    assert obs["hand_sizes"] == [6, 5] and obs["discards"] == sorted(EXAMPLE["discards"])
    assert obs["draw_pile"] == 106 - 11 - 4 - 9 - 1 - 4  # the deck less the hands, banks, properties, House, discards
    names = [state.action_name(a) for a in state.legal_actions()]
    assert "play sly deal: take seat 1's orange" in names and "bank 5M" in names and names[0] == "end the turn"
    # Seat 1's hand and the draw pile differ from game to game; what seat 0 sees does not.
    hands = {tuple(sorted(start(EXAMPLE, g, outside=[1])[0].observation(1)["hand"])) for g in range(6)}
    assert len(hands) == 6
    assert all(start(EXAMPLE, g)[0].observation(0) == obs for g in range(1, 4))


def test_a_position_plays_to_the_end_under_every_check_and_the_bots_continue_it():
    rules, policies, options, _ = position.parse(EXAMPLE)
    from sim.deal.game import GAME

    df = GAME.simulate(300, players=2, seats=policies, rules=rules, seed=2, check=True, threads=1, **options)
    assert len(df) == 300 and df["winner"].between(0, 1).all()
    # Seat 0 starts a set ahead with three plays: it wins most games (the advice shows about 72%).
    assert (df["winner"] == 0).mean() > 0.5


def test_advice_finds_the_winning_play():
    """Two complete sets and two of three greens, a green in hand and one play left: laying it
    wins at once; any other play leaves the game open."""
    data = copy.deepcopy(EXAMPLE) | {"plays_left": 1}
    me = data["player"][0]
    me["hand"] = ["green", "sly deal", "3M"]
    me["bank"] = ["1M"]
    me["properties"] = {"brown": ["brown", "brown"], "dark_blue": ["wild dark blue green", "dark blue"],
                        "green": ["green", "green"]}
    data["player"][1]["properties"] = {"orange": ["orange", "orange"]}
    data["player"][1]["buildings"] = {}
    state, _ = start(data)
    table = search.advise(state, precision=5, max_rollouts=400, seed=1)
    assert table.iloc[0]["name"] == "lay green as green" and table.iloc[0]["win"] == 100.0, table
    assert (table.iloc[1:]["win"] < 100.0).all(), table


BAD = [
    ({"seat": 2}, "seat must be between 0 and 1"),
    ({"colour": 1}, "unknown key 'colour'"),
    ({"discards": ["pass go"] * 11}, "one 'pass go' too many: the deck has 10"),
    ({"discards": ["penthouse"]}, "discards[0]: unknown card 'penthouse'"),
    ({"plays_left": 4}, "plays_left must be between 1 and 3"),
    ({"player": [{"hand": ["green"]}]}, "a position needs 2 to 5 players"),
    ({"player": [EXAMPLE["player"][0], {"hand_size": 48}, {"hand_size": 45}]},
     "the hands' sizes need 93 unseen cards, and the deck has 89 left"),
]
PLAYER_BAD = [
    (1, {"hand_size": None}, "player 1.hand_size: give how many cards"),
    (0, {"hand_size": 3}, "the seat to move lists its whole hand"),
    (0, {"bank": ["green"]}, "player 0.bank[0]: 'green' is a property"),
    (0, {"properties": {"green": ["red"]}}, "'red' cannot stand in green"),
    (0, {"properties": {"mauve": ["red"]}}, "unknown colour 'mauve'"),
    (0, {"properties": {"red": ["wild any"]}}, "an any-colour wild cannot stand without a property"),
    (0, {"buildings": {"green": ["house"]}}, "buildings stand only on a complete set"),
    (0, {"buildings": {"brown": ["hotel"]}}, "a set takes one House, then one Hotel"),
    (1, {"properties": {"railroad": ["railroad"] * 4}, "buildings": {"railroad": ["house"]}},
     "railroad takes no buildings"),
    (0, {"properties": {"brown": ["brown", "brown"], "green": ["green"] * 3, "red": ["red"] * 3}},
     "player 0 already has 3 complete sets: the game is over there"),
    (1, {"properties": {"dark_blue": ["dark blue"] * 2, "orange": ["orange"] * 3, "yellow": ["yellow"] * 3}},
     "player 1 already has 3 complete sets"),
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


def test_deal_advise_from_a_position_file(tmp_path):
    from inprocess import monosim

    done = monosim("deal", "advise", "--position", "experiments/deal-position.toml", "--precision", "5")
    assert done.returncode == 0, done.stderr
    assert "Seat 0 decides play" in done.stdout and "| bank 5M" in done.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text((ROOT / "experiments" / "deal-position.toml").read_text().replace('"5M"', '"6M"'))
    done = monosim("deal", "advise", "--position", str(bad))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "player 0.hand[3]: unknown card '6M'" in done.stderr, done.stderr
