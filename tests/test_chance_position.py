"""Monopoly Chance positions: the file format, the forced decisions they ask about, advice
from paired rollouts, hidden information, and the rollout player (issue 31)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from sim.chance import kernel
from sim.chance import layout as L
from sim.chance import position as P
from sim.chance.advise import advise_position, position_odds
from sim.chance.game import GAME
from sim.core.event_log import EVENT_WIDTH, LOG_HEAD
from sim.core.runner import UsageError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "experiments" / "chance-position.toml"

# Two players; the round ends after this turn (turns_left = 1). Player 1 has a card on Baltic
# Avenue, so the round's end takes it to 23, the finish mark: the game is decided now.
# Player 0 (20) has flipped a 3 and has one flip left from a pile of a 12 and a Bankrupt.
# By hand: cashing out, the 3 can only take Oriental Avenue (+1 = 21 < 23): player 1 wins.
# Flipping, half the time the 12 comes (Boardwalk, +4, and more): player 0 wins; half the time
# a Bankrupt: player 1 wins. So flip wins 1/2, cash out 0.
DECIDED = {
    "to_move": 0, "round": 4, "turns_left": 1,
    "player": [
        {"policy": "optimal", "draw": ["cash12", "bankrupt"],
         "skyline": {"Pennsylvania Avenue": 1, "Boardwalk": 1, "Marvin Gardens": 1, "Illinois Avenue": 1,
                     "New York Avenue": 1, "St. Charles Place": 1, "gray": 1}},
        {"policy": "smart", "draw": "fresh",
         "skyline": {"Pennsylvania Avenue": 1, "Marvin Gardens": 2, "Illinois Avenue": 2, "New York Avenue": 2,
                     "gray": 1}},
    ],
    "board": {"Baltic Avenue": [{"owner": 1, "cash": 6}]},
    "turn": {"stage": "flipping", "flipped": ["cash3"], "flips_left": 1},
}


def position(doc: dict) -> P.Position:
    return P.parse(json.loads(json.dumps(doc)))


def with_changes(doc: dict, **changes) -> dict:
    out = json.loads(json.dumps(doc))
    for key, value in changes.items():
        target = out
        *path, last = key.split("__")
        for k in path:
            target = target[int(k)] if k.isdigit() else target[k]
        target[last] = value
    return out


def first_events(pos: P.Position, option: int | None, seed: int = 0, game: int = 0, rows: int = 64):
    """The first logged events of rollout `game` of one choice."""
    from sim.core.game import get

    run = get("chance").prepare(1, pos.players, pos.policies, pos.rules, seed, 1, None, None,
                                start=P.start_array(pos, option))
    log = run.play_logged(game, False, False, GAME.outputs(1, pos.players, False), rows)
    n = min(int(log[0]), rows)
    return [tuple(int(x) for x in log[LOG_HEAD + EVENT_WIDTH * i:LOG_HEAD + EVENT_WIDTH * (i + 1)]) for i in range(n)]


# ---- the file -------------------------------------------------------------------------------


def test_example_round_trips():
    pos = P.load(EXAMPLE)
    text = P.write(pos)
    again = P.parse(tomllib.loads(text))
    assert again.doc == pos.doc
    assert np.array_equal(again.S0, pos.S0)
    assert P.write(again) == text
    # JSON holds the same document.
    assert np.array_equal(P.parse(json.loads(json.dumps(pos.doc))).S0, pos.S0)


@pytest.mark.parametrize("doc", [
    DECIDED,
    with_changes(DECIDED, turn={"stage": "placing", "flipped": ["cash3", "cash9"], "free_parking": True,
                                "blocked": ["Boardwalk"]}),
    with_changes(DECIDED, player__1__held=["nope", "flip2"], player__1__draw="unknown", player__1__draw_count=4,
                 turn={"stage": "flip2", "flipped": ["cash3"], "asker": 1}),
    with_changes(DECIDED, corners={"go": 1, "free_parking": 0}, chance_drawn=["go", "go_to_jail"],
                 rules={"finish_mark": 30}),
])
def test_positions_round_trip(doc):
    pos = position(doc)
    again = P.parse(tomllib.loads(P.write(pos)))
    assert again.doc == pos.doc and np.array_equal(again.S0, pos.S0)


def test_the_state_is_what_the_file_says():
    pos = P.load(EXAMPLE)
    S = pos.S0
    assert [int(S[L.SKY_LEN + p]) for p in range(4)] == [9, 8, 14, 5]
    assert int(S[L.G_CURRENT]) == 0 and int(S[L.G_FIRST]) == 2 and int(S[L.G_N_ROUNDS]) == 3
    assert int(S[L.T_N]) == 4 and int(S[L.T_LUCKY]) == 0 and int(S[L.T_LIMIT] - S[L.T_FLIPS]) == 2
    assert int(S[L.DRAW_N + 0]) == 12 and int(S[L.P_DRAW_COUNT + 1]) == 6 and int(S[L.P_DRAW_COUNT + 0]) == -1
    assert int(S[L.G_TRIGGERED]) == 1 and int(S[L.G_REMAINING]) == 2 and int(S[L.G_ROUND_ENDING]) == 1
    assert int(S[L.G_CHANCE_POS]) == 2
    assert int(S[L.TOP_OWNER + 5]) == 3 and int(S[L.TOP_VALUE + 5]) == 12  # Marvin Gardens: 3's 12 on 1's 7
    assert pos.decision == "flip" and [label for label, _ in pos.options] == ["flip", "cash out"]


BAD = [
    ({"player": [{}]}, "2 to 4 [[player]]"),
    (with_changes(DECIDED, player__0__draw=["cash12", "cash12"]), "cash12 is in more places"),
    (with_changes(DECIDED, player__0__draw=["cash3", "bankrupt"]), "cash3 is in more places (flipped this turn, draw"),
    (with_changes(DECIDED, board={"Boardwalk": [{"owner": 1, "cash": 12}], "Baltic Avenue": [{"owner": 1, "cash": 12}]}),
     "cash12 is in more places"),
    (with_changes(DECIDED, player__0__draw=["cash13"]), "the deck has no cash13"),
    (with_changes(DECIDED, player__0__draw=["joker"]), "unknown card 'joker'"),
    (with_changes(DECIDED, board={"Park Lane": [{"owner": 0, "cash": 9}]}), "unknown property 'Park Lane'"),
    (with_changes(DECIDED, player__0__policy="genius"), "unknown policy 'genius'"),
    (with_changes(DECIDED, turn={"stage": "dancing"}), "unknown stage 'dancing'"),
    (with_changes(DECIDED, colour="red"), "unknown key 'colour'"),
    (with_changes(DECIDED, player__0__skyline={"Boardwalk": 3}), "more Boardwalk buildings than the box"),
    (with_changes(DECIDED, player__0__skyline={"gray": 5}), "more gray buildings than the box"),
    (with_changes(DECIDED, board={"Boardwalk": [{"owner": 0, "cash": 5}]}), "does not beat the 8 below it"),
    (with_changes(DECIDED, player__0__held=["cash5"]), "only flip2, nope and token"),
    (with_changes(DECIDED, player__0__draw=["cash12"], player__0__discard=["bankrupt"]), "are in no place"),
    (with_changes(DECIDED, player__1__draw="unknown"), "needs draw_count"),
    (with_changes(DECIDED, turn={"flipped": ["bankrupt"]}), "a Bankrupt with no Lucky Break"),
    (with_changes(DECIDED, turns_left=3), "turns_left must be between 1 and 2"),
    (with_changes(DECIDED, player__1__skyline={"Boardwalk": 1, "Pennsylvania Avenue": 1, "Marvin Gardens": 2,
                                               "Illinois Avenue": 2, "New York Avenue": 2, "gray": 1}),
     "reached the finish mark"),
    (with_changes(DECIDED, chance_drawn=["go", "go"]), "drawn more often than the Chance deck holds it"),
    (with_changes(DECIDED, turn={"stage": "flip2", "flipped": ["cash3"], "asker": 1}), "player 1 holds no Flip 2"),
    (with_changes(DECIDED, turn={"stage": "flipping", "asker": 1}), "asker belongs to the stage flip2"),
    (with_changes(DECIDED, corners={"go": 0, "free_parking": 0}), "token is in more places"),
]


@pytest.mark.parametrize("doc, message", BAD, ids=[m for _, m in BAD])
def test_bad_positions_get_one_line(doc, message):
    with pytest.raises(UsageError) as e:
        position(doc)
    assert message in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("doc, message", BAD[1:2])
def test_bad_position_files_exit_2(tmp_path, doc, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    for args in (["chance", "position", str(path)], ["chance", "advise", "--position", str(path)]):
        r = subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 2, r.stderr
        assert r.stderr.count("\n") == 1 and message in r.stderr and "Traceback" not in r.stderr


def test_unreadable_files_are_one_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("to_move = \n")
    for bad, message in ((path, "not valid TOML"), (tmp_path / "missing.toml", "cannot read it")):
        with pytest.raises(UsageError, match=message) as e:
            P.load(bad)
        assert "\n" not in str(e.value)


# ---- forced decisions: each choice is what the rollout plays first ---------------------------


def kinds(events):
    return [e[0] for e in events]


def test_forced_flip_and_cash_out():
    pos = position(DECIDED)
    flip = first_events(pos, 0)
    stop = first_events(pos, 1)
    assert flip[0][0] == L.EV_FLIP and flip[0][1] == 0
    assert stop[0][0] == L.EV_STOP and stop[0][1] == 0


def test_forced_flip2_and_nope():
    doc = with_changes(DECIDED, player__1__held=["flip2"],
                       turn={"stage": "flip2", "flipped": ["cash3", "nope"], "asker": 1})
    pos = position(doc)
    assert pos.decision == "flip2" and pos.decider == 1
    assert L.EV_FLIP2 in kinds(first_events(pos, 0)) and L.EV_FLIP2 not in kinds(first_events(pos, 1))
    answer = position(with_changes(doc, turn={"stage": "flip2", "flipped": ["cash3", "nope"], "flip2_by": 1}))
    assert answer.decision == "nope_flip2" and answer.decider == 0
    nope, take = first_events(answer, 0), first_events(answer, 1)
    assert kinds(nope)[:2] == [L.EV_FLIP2, L.EV_NOPE_FLIP2]
    assert kinds(take)[:2] == [L.EV_FLIP2, L.EV_FLIP] and L.EV_NOPE_FLIP2 not in kinds(take)


def test_forced_token_corners():
    doc = with_changes(DECIDED, player__0__held=["token"], corners={"go": 1}, player__1__draw=["cash2"],
                       player__1__discard=["cash3", "cash4", "cash5", "cash7", "cash8", "cash9", "cash10", "cash11",
                                           "cash12", "bankrupt", "bankrupt", "bankrupt", "bankrupt", "lucky_break",
                                           "lucky_break", "flip2", "nope"],
                       turn={"stage": "tokens", "flipped": ["cash3"]})
    pos = position(doc)
    labels = [label for label, _ in pos.options]
    assert labels == ["Token to free_parking", "Token to just_visiting", "Token to go_to_jail", "keep the Token"]
    for k, corner in enumerate((1, 2, 3)):
        ev = first_events(pos, k)
        assert ev[0][0] == L.EV_TOKEN and ev[0][4] == corner
    assert L.EV_TOKEN not in kinds(first_events(pos, 3)[:3])


def test_forced_placing_and_nope_cash():
    doc = with_changes(DECIDED, turn={"stage": "placing", "flipped": ["cash3", "cash9"]})
    pos = position(doc)
    labels = [label for label, _ in pos.options]
    assert "cash9 on Boardwalk" in labels and "cash3 on Oriental Avenue" in labels and labels[-1] == "discard the rest"
    assert "cash3 on Boardwalk" not in labels  # 3 does not beat 8
    k = labels.index("cash9 on Baltic Avenue")
    ev = first_events(pos, k)
    assert ev[0][0] == L.EV_PLACE and ev[0][3] == 9 and ev[0][4] == 0
    blocked = position(with_changes(doc, player__1__held=["nope"],
                                    turn={"stage": "placing", "flipped": ["cash3", "cash9"],
                                          "placing": {"cash": 9, "property": "Baltic Avenue"}}))
    assert blocked.decision == "nope_cash" and blocked.decider == 1
    assert first_events(blocked, 0)[0][0] == L.EV_NOPE_CASH
    assert first_events(blocked, 1)[0][0] == L.EV_PLACE


# ---- advice with known answers ---------------------------------------------------------------


def test_a_decided_round_matches_the_hand_calculation():
    a = advise_position(position(DECIDED), precision=0.02, seed=3)
    flip, stop = a["choices"]
    assert stop["win_chance"] == 0.0
    n = a["rollouts_per_choice"]
    assert abs(flip["win_chance"] - 0.5) < 4 * (0.25 / n) ** 0.5
    assert a["advice"] == "flip" and a["clear"]


def test_a_sure_bust_says_cash_out_and_a_won_game_says_stop():
    # The pile holds only Bankrupts: a flip busts for sure. Cashing out, the 12 takes
    # Boardwalk, which ends the game with player 0 ahead: a sure win.
    doc = with_changes(DECIDED, player__0__draw=["bankrupt", "bankrupt"], turn={"stage": "flipping",
                       "flipped": ["cash3", "cash12"], "flips_left": 2})
    a = advise_position(position(doc), seed=1)
    flip, stop = a["choices"]
    assert a["advice"] == "cash out" and a["clear"]
    assert stop["win_chance"] == 1.0
    assert flip["minus_best_high"] < -0.2
    assert a["turn"]["p_bust_next"] == 1.0 and a["turn"]["advice"] == "cash out"


@pytest.mark.parametrize("turn, why", [
    ({"stage": "flipping", "flipped": ["cash3"]}, "no flips left"),
    ({"stage": "flip2", "flipped": ["cash3"]}, "give [turn] asker"),
    ({"stage": "tokens", "flipped": ["cash3"]}, "holds no Token"),
])
def test_advice_needs_a_choice(turn, why):
    pos = position(with_changes(DECIDED, turn=turn))
    with pytest.raises(UsageError, match="nothing to decide") as e:
        advise_position(pos)
    assert why in str(e.value)
    assert position_odds(pos, 200)["rollouts"] == 200  # the position still plays on


def test_precision_sets_the_rollouts():
    pos = P.load(EXAMPLE)
    loose = advise_position(pos, precision=0.03, seed=2)
    tight = advise_position(pos, precision=0.01, seed=2)
    for a, target in ((loose, 0.03), (tight, 0.01)):
        other = [c for c in a["choices"] if c["choice"] != a["advice"]][0]
        assert (other["minus_best_high"] - other["minus_best_low"]) / 2 <= target
    assert loose["rollouts_per_choice"] < tight["rollouts_per_choice"]


# ---- reproducible, and blind to what nobody can see ------------------------------------------


def test_same_seed_same_rollouts_whatever_the_threads():
    pos = P.load(EXAMPLE)
    assert advise_position(pos, seed=5, threads=1) == advise_position(pos, seed=5, threads=2)
    assert position_odds(pos, 3000, seed=5, threads=1) == position_odds(pos, 3000, seed=5, threads=2)


def test_rollouts_never_see_the_order_of_unseen_cards():
    """Two true orders of the draw piles and of the Chance cards not yet drawn, with the same
    contents, give the same rollouts, game for game."""
    pos = P.load(EXAMPLE)
    rng = np.random.default_rng(0)
    other = pos.S0.copy()
    for p in range(pos.players):
        n = int(other[L.DRAW_N + p])
        base = L.DRAW_PILE + p * L.MAX_DECK
        other[base: base + n] = rng.permutation(other[base: base + n])
    drawn = int(other[L.G_CHANCE_POS])
    other[L.CHANCE_ORDER + drawn: L.CHANCE_ORDER + 8] = rng.permutation(other[L.CHANCE_ORDER + drawn: L.CHANCE_ORDER + 8])
    assert not np.array_equal(other, pos.S0)
    a = GAME.simulate(2000, 4, pos.policies, pos.rules, 9, start=pos.S0)
    b = GAME.simulate(2000, 4, pos.policies, pos.rules, 9, start=other)
    assert a.equals(b)
    # Through the file: the draw pile listed in another order is the same position.
    doc = json.loads(json.dumps(pos.doc))
    doc["player"][0]["draw"] = doc["player"][0]["draw"][::-1]
    assert advise_position(P.parse(doc), seed=4) == advise_position(pos, seed=4)


def test_unknown_piles_are_dealt_afresh():
    """An unknown pile of k cards holds a random k of the player's unseen cards in each rollout:
    across rollouts, every unseen card is sometimes in the draw pile and sometimes not."""
    pos = P.load(EXAMPLE)
    from sim.core.rng import seed_state

    S = pos.S0.copy()
    RB = GAME.rules.pack(pos.rules, pos.players, {})
    rng = np.zeros(L.RNG_SIZE, np.uint64)
    seen = []
    for game in range(200):
        T = S.copy()
        for s in range(L.RNG_SIZE // 4):
            seed_state(rng, 4 * s, 1, game, s)
        kernel.deal_unseen(T, RB, rng, S)
        assert int(T[L.DRAW_N + 1]) == 6
        seen.append(frozenset(int(c) for c in T[L.DRAW_PILE + L.MAX_DECK: L.DRAW_PILE + L.MAX_DECK + 6]))
    assert len(set(seen)) > 150


# ---- the rollout player ----------------------------------------------------------------------


def test_rollout_player_plays_clean_reproducible_games():
    seats = ["rollout rollouts=4 margin=3 z=0.5", "smart", "optimal"]
    a = GAME.simulate(60, 3, seats, seed=2, threads=1, check=True)
    b = GAME.simulate(60, 3, seats, seed=2, threads=2, check=True, chunk_size=25)
    assert a.equals(b)
    assert (a["winner"] >= -1).all()
    base = GAME.simulate(60, 3, ["optimal", "smart", "optimal"], seed=2, threads=1)
    assert not a["win_0"].equals(base["win_0"])  # the rollouts changed some decisions
    # Never overruling (z = 10), the player pauses at every close call, plays its rollouts and
    # goes on: the games are the turn-optimal rule's, card for card.
    never = GAME.simulate(60, 3, ["rollout rollouts=4 margin=3 z=10", "smart", "optimal"], seed=2, threads=2)
    assert never.drop(columns=["policy_0"]).equals(base.drop(columns=["policy_0"]))
    _, detail = GAME.simulate(60, 3, seats, seed=2, threads=2, detail=True)
    calls = detail["rollout_decisions"]
    assert len(calls) > 0 and (calls["seat"] == 0).all() and (calls["rollouts"] == 4).all()
    # A call goes the rollouts' way where their difference is clear (z = 0.5 standard errors
    # here), else the turn rule's.
    won = calls["won_flip_minus_stop"]
    clear = won.abs() > 0.5 * np.sqrt(calls["pairs_differ"])
    assert (calls["flips"] == np.where(clear, won > 0, calls["turn_rule_flips"])).all()
    assert (calls["pairs_differ"] <= calls["rollouts"]).all() and (won.abs() <= calls["pairs_differ"]).all()
    assert (calls["cash"] >= calls["useful_cash"]).all() and calls["flips_left"].min() >= 1


def test_rollout_player_in_a_position():
    doc = with_changes(DECIDED, player__1__policy="rollout rollouts=3")
    a = advise_position(position(doc), precision=0.05, seed=1)
    assert a["choices"][1]["win_chance"] == 0.0  # cashing out still loses for sure
