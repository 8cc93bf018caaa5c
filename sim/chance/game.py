"""Monopoly Chance, described once for the registry (sim/core/game.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.chance import api, kernel, layout
from sim.chance.decisions import DECISIONS
from sim.chance.events import EVENTS
from sim.chance.layout import DECISION_COLS, MAX_DECISION_ROWS, MAX_PLAYERS, N_DECISION_COLS, SC_WIN, SEAT_COLS
from sim.chance.rules import CHANCE_EFFECTS_DOC, HOUSE_RULE_DOC, RULE_PARSERS, RULES_VERSION, ChanceRules, describe, pack
from sim.core.game import (
    NO_START, Game, GameBots, GameExperiment, GameKernel, GameReport, GameRules, KernelInputs, deck_edits_of,
)
from sim.core.rule_changes import house_rules_text
from sim.core.runner import UsageError
from strategies.chance import CATALOG, FORCE_FLIP, FORCE_KEY_SLOT, FORCE_SLOT, FORCE_STOP

# Minutes at a real table. Assumption: a turn (roll, flip a few cards, place them) takes about
# 25 seconds and setting up and scoring about 2 minutes, so the default 4-player game of the
# default bots (45 turns, 3.7 rounds) takes about 21 minutes, near the 20 minutes printed on the
# box. A rough guide for comparing rule sets, not a measurement.
SECONDS_PER_TURN, SETUP_MINUTES = 25.0, 2.0


def minutes(games: pd.DataFrame) -> pd.Series:
    return SETUP_MINUTES + games["turns"] * (SECONDS_PER_TURN / 60.0)


def kernel_inputs(rules: ChanceRules, players: int, kinds, params, deck_edits: dict,
                  force: tuple[int, str, float] | None = None, start: np.ndarray | None = None) -> KernelInputs:
    """The packed rules, the turn-optimal policy's tables for the seats that need them, and
    the start array of a position (sim/chance/position.py: ``start=position.start_array(...)``).

    ``force=(seat, "flip" | "stop", key)``: whenever that seat is about to decide in a
    situation matching ``key`` (strategies.chance.situation_key), it flips (or cashes out)
    whatever its policy says; ``situations_<seat>`` counts those decisions. Two runs that differ
    only in the forced action are paired game by game (common random numbers)."""
    packed = pack(rules, players, deck_edits)
    tables = api.policy_tables(rules, players, kinds, params, deck_edits)
    if force is not None:
        seat, action, key = force
        if not 0 <= seat < players or action not in ("flip", "stop"):
            raise UsageError(f"force: seat must be 0..{players - 1} and action flip or stop")
        params = params.copy()
        params[seat, FORCE_SLOT] = FORCE_FLIP if action == "flip" else FORCE_STOP
        params[seat, FORCE_KEY_SLOT] = key
    return KernelInputs(packed, params, start=NO_START if start is None else start, tables=tables)


def detail_outputs(games: int, players: int, on: bool) -> tuple:
    """The rollout players' close calls, MAX_DECISION_ROWS a game (off: one game's rows, which
    nobody reads)."""
    return (np.zeros((games if on else 1, MAX_DECISION_ROWS, N_DECISION_COLS), np.int32),)


def detail_tables(games: pd.DataFrame, outputs: tuple) -> dict:
    """"rollout_decisions": one row per close call a rollout player decided (game, then
    layout.DECISION_COLS); empty for a table without one."""
    (decisions,) = outputs
    used = decisions[:, :, DECISION_COLS.index("rollouts")] > 0  # every real row played rollouts
    table = pd.DataFrame(decisions[used].astype(np.int64), columns=list(DECISION_COLS))
    table.insert(0, "game", np.repeat(games["game"].to_numpy(), used.sum(axis=1)))
    table.attrs.update(games.attrs)
    return {"rollout_decisions": table}


def card_edits(cell: dict, seat: int) -> list[str]:
    """One more and one fewer of every card in the seat's deck; Bankrupt only one fewer (one
    more Bankrupt is plainly bad and not a question anyone asks)."""
    deck = dict(GAME.rules_of(cell["rules"]).deck)
    for card, change in deck_edits_of(cell).get(seat, {}).items():
        deck[card] = deck.get(card, 0) + change
    order = ["lucky_break", "flip2", "nope", "token", "bankrupt"]
    cards = [c for c in order if c in deck] + sorted((c for c in deck if c not in order), key=lambda c: int(c[4:]))
    edits = []
    for card in cards:
        if card != "bankrupt":
            edits.append(f"{card}+1")
        if deck[card] >= 1:
            edits.append(f"{card}-1")
    return edits


def rules_text(rules: ChanceRules) -> str:
    lines = ["Properties (printed value, buildings, building length):"]
    for p in rules.properties:
        lines.append(f"  {p.name:<20} {p.colour:<10} value {p.value:>2}  buildings {p.buildings}  "
                     f"length {p.building_length}")
    lines += [f"Gray buildings: {rules.gray_buildings} of length {rules.gray_length}",
              f"Finish mark: {rules.finish_mark}   Die: {', '.join('?' if f == 0 else str(f) for f in rules.die)}",
              "Token deck: " + ", ".join(f"{n} x{c}" for n, c in rules.deck.items()),
              "Chance cards:"]
    lines += [f"  {effect} ({param}): {CHANCE_EFFECTS_DOC[effect]}" for effect, param in rules.chance_cards]
    return "\n".join(lines) + "\n" + house_rules_text(rules.house, HOUSE_RULE_DOC)


GAME = Game(
    name="chance",
    title="Monopoly Chance",
    cli_help="Monopoly Chance: simulate, rules, bots, exact turn odds, cash-out advice and study.",
    rules=GameRules(
        cls=ChanceRules,
        parsers=RULE_PARSERS,
        version=RULES_VERSION,
        describe=describe,
        text=rules_text,
        pack=pack,
        min_players=2,
        max_players=MAX_PLAYERS,
    ),
    kernel=GameKernel(
        module=kernel,
        layout=layout,
        seat_cols=SEAT_COLS,
        win_col=SC_WIN,
        inputs=kernel_inputs,
        detail_outputs=detail_outputs,
        events=EVENTS,
        decisions=DECISIONS,
        compile_seconds=30,  # measured cold on the 2-core development machine, 2026-11-27
        bench_runs={"chance": ({}, 1_000_000, 100_000)},
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
        card_edits=card_edits,
        usage_cols=("flipped_cash", "flipped_bankrupt", "flipped_lucky_break", "flipped_token", "flipped_flip2",
                    "flipped_nope", "lucky_saves", "busts", "flip2_played", "nope_played", "tokens_played",
                    "cash_played", "cash_won"),
        length_cols=api.LENGTH_COLS,
        unfinished_cols=("hit_round_limit",),
        minutes=minutes,
        midgame_last_col="last_at_half",
        edit_meaning="its own token deck",
    ),
    verbs="sim.chance.cli",
)
