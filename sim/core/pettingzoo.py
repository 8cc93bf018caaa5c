"""monosim's games as PettingZoo AEC environments (the `pettingzoo` extra).

    from sim.core.pettingzoo import env
    e = env("deal", players=2, seed=1)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        e.step(None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"]))

Each seat is an agent ("seat_0", ...). The game runs through the step API (sim/core/play.py),
so the seats not listed in `outside` are played by their compiled bots in between, and an
episode is exactly the game a batch run plays with the same answers. An action is a position
in the waiting decision's list of legal actions (the mask marks the list's length), one way
for every game: a Deal action's own number runs to 98 million, far too many to mask.
`info["action_names"]` names the listed actions; `info["decision"]` names the decision. The
observation is the game's `features` (what the seat may see, as numbers; docs/decisions.md).
The reward, at the end only, is each seat's share of the win.

`reset()` plays game 0 of `seed` first, then the next game number at each reset; `reset(seed=s)`
starts again at game 0 of seed s.
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from sim.core.decisions import MAX_LEGAL
from sim.core.play import new_game

__all__ = ["MonosimEnv", "env"]

BOUND = float(2**31)  # features are whole numbers of the state array


class MonosimEnv(AECEnv):
    metadata = {"name": "monosim", "render_modes": [], "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, seats: list[str] | None = None, rules=None,
                 seed: int = 0, outside: list[int] | None = None):
        super().__init__()
        self._settings = dict(game=game, seats=seats, players=players, rules=rules, outside=outside)
        self.metadata = {**self.metadata, "name": f"monosim_{game}"}
        self._seed, self._next_game = seed, 0
        probe = new_game(**self._settings, seed=seed)
        self.possible_agents = [f"seat_{s}" for s in range(probe.players)]
        n = len(probe.features(0))
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (n,), np.float32),
            "action_mask": spaces.Box(0, 1, (MAX_LEGAL,), np.int8),
        })
        self._action_space = spaces.Discrete(MAX_LEGAL)

    @functools.lru_cache(maxsize=None)  # the same object every call, as api_test wants
    def observation_space(self, agent):
        return self._observation_space

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return self._action_space

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed, self._next_game = int(seed), 0
        self.state = new_game(**self._settings, seed=self._seed, game_index=self._next_game)
        self._next_game += 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._settle()

    def _settle(self) -> None:
        """After a move: whose turn it is, what each agent is told, and the rewards at the end."""
        s = self.state
        if s.is_terminal():
            self.rewards = dict(zip(self.possible_agents, s.returns()))
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = f"seat_{s.current_player}"
        self.infos = {a: {} for a in self.agents}
        self.infos[self.agent_selection] = {"decision": s.decision,
                                            "action_names": [s.action_name(a) for a in s.legal_actions()]}

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        s = self.state
        mask = np.zeros(MAX_LEGAL, np.int8)
        if not s.is_terminal() and agent == self.agent_selection:
            mask[:len(s.legal_actions())] = 1
        return {"observation": s.features(seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.state.legal_actions()
        if action is None or not 0 <= int(action) < len(legal):
            raise ValueError(f"action {action} is not one of the {len(legal)} listed (the mask says which)")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.state = self.state.child(legal[int(action)])
        self._settle()

    def close(self):
        pass


def env(game: str, **settings) -> MonosimEnv:
    """An AEC environment of `game` with these settings (those of MonosimEnv)."""
    return MonosimEnv(game, **settings)
