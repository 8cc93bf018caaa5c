"""monosim's games as PettingZoo AEC environments (sim/core/pettingzoo.py, the `pettingzoo`
extra, which the test extra installs): every game with decision points passes PettingZoo's own
api_test, and an episode is the batch game when each seat takes its bot's action."""

import numpy as np
import pytest
from pettingzoo.test import api_test

from sim.core.game import GAME_NAMES, get
from sim.core.pettingzoo import env

TABLES = {"chance": {"players": 2}, "deal": {"players": 2}, "cardgame": {"players": 3, "rules": ["edition=video"]},
          "classic": {"players": 2, "rules": ["max_rounds=30"]}}


def test_every_game_with_decision_points_has_a_table_here():
    assert set(TABLES) == {n for n in GAME_NAMES if get(n).kernel.decisions is not None}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_each_game_passes_pettingzoos_api_test(name):
    api_test(env(name, seed=1, **TABLES[name]), num_cycles=200)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_an_episode_of_bot_actions_is_the_batch_game(name):
    e = env(name, seed=2, **TABLES[name])
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        assert obs["action_mask"].sum() == len(info["action_names"]) > 0
        assert obs["observation"].shape == e.observation_space(agent)["observation"].shape
        e.step(e.state.legal_actions().index(e.state.bot_action()))
    game = get(name)
    players = TABLES[name]["players"]
    batch = game.simulate(1, players, None, TABLES[name].get("rules"), seed=2)
    assert e.state.row().reset_index(drop=True).equals(batch.reset_index(drop=True))
    assert e.agents == []


def test_a_listed_position_beyond_the_list_is_refused():
    e = env("deal", players=2)
    e.reset()
    with pytest.raises(ValueError, match="is not one of the"):
        e.step(int(np.argmin(e.observe(e.agent_selection)["action_mask"])))


def test_the_example_in_the_docs_runs():
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "decisions.md").read_text()
    code = text.split("## In PettingZoo\n", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code, "docs/decisions.md", "exec"), namespace)
    assert namespace["e"].agents == [] and namespace["e"].state.is_terminal()
