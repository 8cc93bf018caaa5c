"""monosim's games in OpenSpiel (sim/core/openspiel.py, the `openspiel` extra, which the test
extra installs): every game with decision points registers and keeps OpenSpiel's State API,
and OpenSpiel's own MCTS and ISMCTS bots play whole games against monosim's bots."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from sim.core import openspiel
from sim.core.game import GAME_NAMES, get

NAMES = openspiel.register()
TABLES = {"monosim_chance": {"players": 2}, "monosim_deal": {"players": 2},
          "monosim_cardgame": {"players": 3, "rules": "edition=video n_hands=1"},  # one hand: a short match
          "monosim_classic": {"players": 2, "rules": "max_rounds=12"}}


def test_every_game_with_decision_points_is_registered():
    assert NAMES == [openspiel.short_name(n) for n in GAME_NAMES if get(n).kernel.decisions is not None]
    assert set(NAMES) <= set(pyspiel.registered_names()) and set(NAMES) == set(TABLES)


@pytest.mark.parametrize("name", NAMES)
def test_a_game_keeps_openspiels_state_api(name):
    game = pyspiel.load_game(name, {**TABLES[name], "seed": 2})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    first = state.legal_actions()
    twin = state.clone()
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        assert 0 <= player < game.num_players() and state.legal_actions() == state.legal_actions(player)
        assert state.legal_actions(1 - player if player < 2 else 0) == []
        a = int(rng.choice(state.legal_actions()))
        assert state.action_to_string(player, a)
        assert state.information_state_string(player) != state.information_state_string((player + 1) % 2)
        state.apply_action(a)
        steps += 1
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and steps > 0
    assert sum(state.returns()) in (0.0, pytest.approx(1.0)) and all(0 <= r <= 1 for r in state.returns())
    assert twin.legal_actions() == first and not twin.is_terminal()  # the clone did not move


def test_openspiels_ismcts_plays_a_whole_game_of_deal_against_a_monosim_bot():
    game = pyspiel.load_game("monosim_deal", {"players": 2, "seed": 3, "seats": "smart;smart"})
    rs = np.random.RandomState(3)
    searcher = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 5, random_state=rs)
    searcher.set_resampler(openspiel.seeded_resampler(rs))
    returns = openspiel.play(game, [searcher, openspiel.BotPlayer(1)])
    assert len(returns) == 2 and sum(returns) in (0.0, 1.0)


@pytest.mark.parametrize("name", ["monosim_chance", "monosim_cardgame", "monosim_classic"])
def test_openspiels_ismcts_and_mcts_play_whole_games(name):
    game = pyspiel.load_game(name, {**TABLES[name], "seed": 4})
    rs = np.random.RandomState(4)
    searcher = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 3, random_state=rs)
    searcher.set_resampler(openspiel.seeded_resampler(rs))
    others = [openspiel.BotPlayer(s) for s in range(1, game.num_players())]
    assert sum(openspiel.play(game, [searcher, *others])) in (0.0, pytest.approx(1.0))
    tree = mcts.MCTSBot(game, 2.0, 3, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    assert sum(openspiel.play(game, [tree, *others])) in (0.0, pytest.approx(1.0))
