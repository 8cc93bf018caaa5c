"""monosim's games as OpenSpiel games (the optional extra: pip install 'monosim[openspiel]').

    import pyspiel
    from sim.core import openspiel
    openspiel.register()                  # monosim_chance, monosim_deal, monosim_cardgame
    game = pyspiel.load_game("monosim_deal", {"players": 2, "seed": 1, "game_index": 0})

Each game with decision points (docs/decisions.md) is registered as a Python game of
OpenSpiel: sequential, with imperfect information, its chance inside the game (sampled
stochastic: the dice and shuffles of game `game_index` of `seed`, as in a monosim run), and
rewarded at the end with each seat's share of the win. Every seat is a player; a monosim bot
takes a seat as `BotPlayer` (its compiled bot's choice). `resample_from_infostate` deals the
hidden cards afresh (sim.core.play State.resample), so OpenSpiel's ISMCTS can play.
"""

from __future__ import annotations

import json

import numpy as np
import pyspiel

from sim.core.game import GAME_NAMES, get
from sim.core.play import new_game

MAX_GAME_LENGTH = 1_000_000  # decisions; an upper bound OpenSpiel asks for, not a limit monosim sets


def short_name(game: str) -> str:
    return f"monosim_{game}"


def register() -> list[str]:
    """Register every game that has decision points (once); returns their OpenSpiel names."""
    names = []
    for game in GAME_NAMES:
        g = get(game)
        if g.kernel.decisions is None:
            continue
        name = short_name(game)
        names.append(name)
        if name in pyspiel.registered_names():
            continue
        game_type = pyspiel.GameType(
            short_name=name,
            long_name=f"monosim: {g.title}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,  # nobody wins a game stopped at its limit
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=g.rules.max_players,
            min_num_players=g.rules.min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=False,
            parameter_specification={"players": g.rules.default_players, "seed": 0, "game_index": 0, "rules": "",
                                     "seats": ""},
        )
        # A class, not a closure, as OpenSpiel's own Python games register theirs: OpenSpiel
        # keeps the factory until after Python has shut down, and a closure there aborts the exit.
        pyspiel.register_game(game_type, type(f"Monosim_{game}", (MonosimGame,), {"GAME": game, "TYPE": game_type}))
    return names


class MonosimGame(pyspiel.Game):
    """One monosim game; parameters: players, seed, game_index, rules (KEY=VALUE changes
    separated by spaces, as --rule takes them) and seats (the seats' bots, separated by ";";
    default: the game's default table)."""

    GAME = ""  # set by register, in a subclass per game
    TYPE = None

    def __init__(self, params=None):
        game = self.GAME
        g = get(game)
        full = {"players": g.rules.default_players, "seed": 0, "game_index": 0, "rules": "", "seats": "",
                **(params or {})}
        self.monosim_game = game
        self.players, self.seed, self.index = int(full["players"]), int(full["seed"]), int(full["game_index"])
        self.rules = full["rules"].split()
        self.seats = [spec.strip() for spec in full["seats"].split(";") if spec.strip()] or None
        info = pyspiel.GameInfo(num_distinct_actions=g.kernel.decisions.n_actions, max_chance_outcomes=0,
                                num_players=self.players, min_utility=0.0, max_utility=1.0,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(self.TYPE, info, full)

    def new_initial_state(self):
        return MonosimState(self, new_game(self.monosim_game, seats=self.seats, players=self.players, rules=self.rules,
                                           seed=self.seed, game_index=self.index))


class MonosimState(pyspiel.State):
    """A monosim step-API State (sim/core/play.py) as OpenSpiel sees it."""

    def __init__(self, game: MonosimGame, state, moves: tuple = ()):
        super().__init__(game)
        self.step = state
        self.moves = moves  # (seat, action) of every action applied, for each seat's own recall

    def current_player(self):
        return pyspiel.PlayerId.TERMINAL if self.step.is_terminal() else self.step.current_player

    def _legal_actions(self, player):
        return self.step.legal_actions() if player == self.current_player() else []

    def _apply_action(self, action):
        self.moves += ((self.step.current_player, int(action)),)
        self.step.apply(int(action))

    def _action_to_string(self, player, action):
        return self.step.action_name(int(action))

    def is_terminal(self):
        return self.step.is_terminal()

    def returns(self):
        return self.step.returns()

    def observation_string(self, player=None):
        player = self.current_player() if player is None else player
        return json.dumps(self.step.observation(player), sort_keys=True)

    def information_state_string(self, player=None):
        """What the seat saw all game (the events as it saw them), its own actions, the
        decision waiting, what it sees now and, when it decides, its legal actions: two copies
        of a card look the same but are different actions, so two deals the seat cannot tell
        apart may offer it different action numbers."""
        player = self.current_player() if player is None else player
        own = [a for seat, a in self.moves if seat == player]
        legal = self.step.legal_actions() if player == self.current_player() else []
        return "\n".join([*self.step.seen_events(player), f"own actions {own}", f"decision {self.step.decision}",
                          self.observation_string(player), f"legal {legal}"])

    def resample_from_infostate(self, player, probability_sampler):
        rng = np.random.default_rng(int(probability_sampler() * 2**63))
        return MonosimState(self.get_game(), self.step.resample(player, rng), self.moves)

    def clone(self):
        return MonosimState(self.get_game(), self.step.clone(), self.moves)

    def __deepcopy__(self, memo):
        return self.clone()

    def __str__(self):
        return repr(self.step)


class BotPlayer(pyspiel.Bot):
    """A seat played by its monosim bot (the game's `seats` parameter): the compiled bot's
    choice at each of its decisions."""

    def __init__(self, player_id: int):
        pyspiel.Bot.__init__(self)
        self.player_id = player_id

    def step(self, state):
        return state.step.default_action()

    def restart_at(self, state):
        pass


def seeded_resampler(random_state: np.random.RandomState):
    """For ISMCTSBot.set_resampler: resample from this random state, so that a search is
    reproducible (OpenSpiel's own sampler is not seeded)."""
    def resample(state, player):
        return MonosimState(state.get_game(), state.step.resample(player, np.random.default_rng(
            random_state.randint(2**31))), state.moves)
    return resample


def play(game, players: list) -> list[float]:
    """One game of an OpenSpiel game between these bots (one a seat): the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(players[state.current_player()].step(state))
    return state.returns()


def match(game: str, games: int, simulations: int, seed: int = 0, rules: str = "") -> dict:
    """OpenSpiel's ISMCTS (random rollouts) against the game's first default bot, two players,
    in both seat orders, games 0 .. games - 1 of `seed` each: ISMCTS's share of the wins, and
    the games that had a winner."""
    from open_spiel.python.algorithms import ismcts, mcts

    register()
    bot = get(game).bots.default_table[0]
    won = decided = 0
    for k in range(games):
        for ismcts_seat in (0, 1):
            game_ = pyspiel.load_game(short_name(game), {"players": 2, "seed": seed, "game_index": k, "rules": rules,
                                                         "seats": f"{bot};{bot}"})
            rs = np.random.RandomState(k)
            searcher = ismcts.ISMCTSBot(game_, mcts.RandomRolloutEvaluator(1, rs), 2.0, simulations, random_state=rs)
            searcher.set_resampler(seeded_resampler(rs))
            seats = [searcher, BotPlayer(1)] if ismcts_seat == 0 else [BotPlayer(0), searcher]
            returns = play(game_, seats)
            won += returns[ismcts_seat]
            decided += sum(returns) > 0
    return {"games": 2 * games, "ismcts_wins": won, "decided": decided}


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m sim.core.openspiel",
                                     description="A small match: OpenSpiel's ISMCTS against a monosim bot.")
    parser.add_argument("game", choices=[n for n in GAME_NAMES if get(n).kernel.decisions is not None])
    parser.add_argument("--games", type=int, default=10, help="games a seat order (default 10)")
    parser.add_argument("--simulations", type=int, default=50, help="ISMCTS simulations a decision (default 50)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="", help="rule changes KEY=VALUE separated by spaces")
    args = parser.parse_args(argv)
    r = match(args.game, args.games, args.simulations, args.seed, args.rules)
    bot = get(args.game).bots.default_table[0]
    print(f"{args.game}, 2 players: ISMCTS ({args.simulations} simulations a decision, random rollouts) against "
          f"{bot}, {r['games']} games (both seat orders): ISMCTS won {r['ismcts_wins']:g}, {bot} "
          f"{r['decided'] - r['ismcts_wins']:g}, {r['games'] - r['decided']} without a winner")


if __name__ == "__main__":
    main()
