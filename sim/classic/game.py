"""Classic Monopoly, described once for the registry (sim/core/game.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.classic import api, kernel
from sim.classic import layout as L
from sim.classic.decisions import DECISIONS
from sim.classic.events import EVENTS
from sim.classic.position import for_advice
from sim.classic.rules import (
    HOUSE_RULE_DOC,
    RULE_PARSERS,
    RULES_VERSION,
    SCALAR_FIELDS,
    ClassicRules,
    describe,
    pack,
)
from sim.core.game import Game, GameBots, GameExperiment, GameKernel, GameReport, GameRules, KernelInputs
from sim.core.rule_changes import house_rules_text
from strategies.classic import CATALOG


def kernel_inputs(rules: ClassicRules, players: int, kinds, params, deck_edits: dict,
                  start: np.ndarray | None = None) -> KernelInputs:
    """The packed rules, the start position if one is given (a position file's state, which
    takes the run's rules at its head), and the landing table the strong bot reads."""
    packed = pack(rules, players)
    position = np.zeros(0, np.int32)
    if start is not None:
        position = start.copy()
        position[: L.RULES_SIZE] = packed
    return KernelInputs(packed, params, start=position, tables=api.landing_weights(rules))


def detail_outputs(games: int, players: int, on: bool) -> tuple:
    """Per game, seat and colour group: rent, invested, first_full_turn, full_turns."""
    return (np.zeros((games if on else 0, players, L.N_GROUPS, 4), np.int64),)


def detail_tables(games: pd.DataFrame, outputs: tuple) -> dict:
    return {"groups": outputs[0]}


def rules_text(rules: ClassicRules) -> str:
    lines = ["Board (square, name, price, rents base/1-4 houses/hotel, house cost, mortgage):"]
    for i, s in enumerate(rules.board):
        extra = ""
        if s.kind == "street":
            extra = f"  ${s.price}  rent {'/'.join(map(str, s.rents))}  house ${s.house_cost}  mortgage ${s.mortgage}"
        elif s.kind in ("railroad", "utility"):
            extra = f"  ${s.price}  mortgage ${s.mortgage}"
        elif s.kind == "tax":
            extra = f"  pay ${s.price}"
        lines.append(f"  {i:>2} {s.name:<22} {s.group or s.kind:<16}{extra}")
    lines.append(f"Railroad rents by number owned: {', '.join(map(str, rules.railroad_rents))}; "
                 f"utilities: {' or '.join(f'{m}x' for m in rules.utility_multipliers)} the dice")
    for title, deck in (("Chance", rules.chance), ("Community Chest", rules.chest)):
        lines.append(f"{title} ({len(deck)} cards):")
        lines += [f"  {c.text}  [{c.effect} {c.a} {c.b}]" for c in deck]
    lines.append("Numbers (name = default):")
    lines += [f"  {name} = {getattr(rules, name)}" for name in SCALAR_FIELDS]
    return "\n".join(lines) + "\n" + house_rules_text(rules.house, HOUSE_RULE_DOC)


GAME = Game(
    name="classic",
    title="classic Monopoly",
    cli_help="Classic Monopoly: simulate, rules, policies, landing odds, positions, property values, house rules.",
    rules=GameRules(
        cls=ClassicRules,
        parsers=RULE_PARSERS,
        version=RULES_VERSION,
        describe=describe,
        text=rules_text,
        pack=lambda rules, players, deck_edits: pack(rules, players),
        min_players=L.MIN_PLAYERS,
        max_players=L.MAX_PLAYERS,
        deck_edits=False,
        house_variants=lambda rules: {"free_parking_jackpot=true, free_parking_seed=500":
                                      ["free_parking_jackpot=true", "free_parking_seed=500"],
                                      "snake_eyes_bonus=500": ["snake_eyes_bonus=500"]},
    ),
    kernel=GameKernel(
        module=kernel,
        layout=L,
        seat_cols=L.SEAT_COLS,
        win_col=L.SC_WIN,
        inputs=kernel_inputs,
        chunk_size=20_000,
        detail_outputs=detail_outputs,
        events=EVENTS,
        decisions=DECISIONS,
        compile_seconds=45,  # measured cold on the 2-core development machine, 2026-11-27
        bench_runs={"classic": ({}, 200_000, 20_000)},
    ),
    report=GameReport(
        summary=api.summarize,
        render=api.render_report,
        derived=api.derived,
        detail_tables=detail_tables,
    ),
    bots=GameBots(
        catalog=CATALOG,
        default_table=api.DEFAULT_TABLE,
    ),
    experiment=GameExperiment(
        usage_cols=("bought", "auctions_won", "houses_built", "hotels_built", "trades", "mortgages", "rent_paid",
                    "rent_received", "jail_turns"),
        length_cols=api.LENGTH_COLS,
        unfinished_cols=("hit_turn_limit",),
    ),
    position=for_advice,
    verbs="sim.classic.cli",
)
