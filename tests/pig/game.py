"""Pig described for monosim's registry (sim/core/game.py), from outside sim/: `register()`
adds it, so that simulate, replays, the step API and PettingZoo play it."""

from __future__ import annotations

import dataclasses

import numpy as np

from sim.core import summary as core
from sim.core.game import Game, GameBots, GameExperiment, GameKernel, GameReport, GameRules, KernelInputs, get, register
from sim.core.play import DecisionKind, Decisions
from sim.core.replay import EventBook, Kind, common_kinds
from sim.core.runner import UsageError
from strategies.catalog import Catalog, Param
from strategies.catalog import Kind as Policy

from . import kernel as K
from .optimal import policy_table


@dataclasses.dataclass(frozen=True)
class PigRules:
    goal: int = 100
    die: int = 6
    max_turns: int = 10_000

    def replace(self, **changes):
        rules = dataclasses.replace(self, **changes)
        if not (2 <= rules.goal <= 200 and 2 <= rules.die <= 20 and rules.max_turns >= 1):
            raise ValueError("Pig takes a goal of 2 to 200, a die of 2 to 20 sides and max_turns of 1 or more")
        return rules


def pack(rules: PigRules, players: int, deck_edits: dict) -> np.ndarray:
    return np.array([players, rules.goal, rules.die, rules.max_turns, 0, 0], np.int32)


def kernel_inputs(rules: PigRules, players: int, kinds, params, deck_edits: dict) -> KernelInputs:
    """The packed rules, and the optimal policy the `table` bot reads (computed once per goal)."""
    return KernelInputs(pack(rules, players, deck_edits), params, tables=policy_table(rules.goal, rules.die))


CATALOG = Catalog(1, {"at": Param(0, 1, 200, "the turn total at which it holds")}, {
    "hold": Policy(K.HOLD_AT, "rolls until the turn total reaches `at`, then holds", {"at": 20.0}),
    "optimal": Policy(K.TABLE, "the optimal policy, by value iteration (tests/pig/optimal.py)"),
})


def summarize(t: core.Tally) -> dict:
    return {"by_seat": core.win_rate_by_seat(t, means=("score",)), "by_policy": core.win_rate_by_policy(t),
            "length": core.length_stats(t, ("turns",))}


def render_report(t: core.Tally, s: dict) -> str:
    lines = [f"# Pig: {t.n:,} games", *core.rules_lines(t), "", "| seat | policy | win rate | 95% CI |",
             "|---:|---|---:|---|"]
    lines += [f"| {r.seat} | {r.policy} | {r.win_rate:.2%} | {r.ci_low:.2%} - {r.ci_high:.2%} |"
              for r in s["by_seat"].itertuples()]
    return "\n".join(lines + core.policy_and_length_lines(s)) + "\n"


def observe(ctx, S: np.ndarray, seat: int) -> dict:
    """Everything: Pig hides nothing."""
    return {"seat": seat, "scores": S[K.SCORE:K.SCORE + 2].tolist(), "seat_to_move": int(S[K.G_CURRENT]),
            "turn_total": int(S[K.G_TOTAL])}


def features(ctx, S: np.ndarray, seat: int) -> np.ndarray:
    return np.array([seat, S[K.SCORE], S[K.SCORE + 1], S[K.G_CURRENT], S[K.G_TOTAL]], np.float32)


GAME = Game(
    name="pig",
    title="Pig",
    cli_help="Pig, the tests' reference game.",
    rules=GameRules(
        cls=PigRules,
        parsers={"goal": int, "die": int, "max_turns": int},
        version="pig-1",
        describe=dataclasses.asdict,
        text=lambda rules: f"Pig: first to {rules.goal} with a {rules.die}-sided die\n",
        pack=pack,
        min_players=2,
        max_players=2,
        default_players=2,
        deck_edits=False,
    ),
    kernel=GameKernel(
        module=K,
        layout=K,
        seat_cols=K.SEAT_COLS,
        win_col=K.SC_WIN,
        inputs=kernel_inputs,
        events=EventBook(
            kinds={**common_kinds("{seat}: score {amount}"),
                   K.EV_ROLL: Kind("roll", "{seat} rolls {card}"),
                   K.EV_BUST: Kind("bust", "{seat} rolls a 1 and loses the turn's {amount}"),
                   K.EV_HOLD: Kind("hold", "{seat} holds: {amount} banked, score {target}")},
            namers={},
            end_reasons=("the goal reached", "the turn limit"),
            standing=("amount", "score"),
            final_columns={"amount": "score"},
        ),
        decisions=Decisions(
            kinds={K.DK_ROLL: DecisionKind("roll", "roll again (1) or hold and bank the turn's total (0)")},
            n_actions=2,
            action_name=lambda ctx, kind, seat, a: ("hold", "roll")[a],
            observe=observe,
            features=features,
        ),
        compile_seconds=10,
        bench_runs={"pig": ({}, 100_000, 1_000_000)},
    ),
    report=GameReport(
        summary=summarize,
        render=render_report,
    ),
    bots=GameBots(
        catalog=CATALOG,
        default_table=("optimal", "optimal"),
    ),
    experiment=GameExperiment(
        length_cols=("turns",),
        unfinished_cols=("hit_turn_limit",),
    ),
)


def registered() -> Game:
    """Pig, registered once."""
    try:
        return get("pig")
    except UsageError:
        register(GAME)
        return GAME
