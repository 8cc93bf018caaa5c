"""Monopoly: The Card Game as seen by the experiment layer (sim/core/experiment.py).

A cell's ``rules`` table takes the keys of ``--rule``, plus ``edition`` ("wiki" or "video"),
which selects the preset the other keys change. The card game deals every hand from one
shared deck, so there are no per-seat deck edits (card-value studies use
``monosim cardgame values``)."""

from __future__ import annotations

import pandas as pd

from sim.cardgame import api
from sim.cardgame.rules import (
    HOUSE_CHOICES,
    HOUSE_RULE_DOC,
    RULES_VERSION,
    SCALAR_FIELDS,
    TUPLE_FIELDS,
    CardGameRules,
    apply_rule_changes,
    pack,
)
from sim.core.experiment import GameAdapter
from sim.core.rule_changes import toml_rule_strings
from sim.core.runner import UsageError
from strategies.cardgame import CATALOG, PolicyError


def _rule_strings(rules: dict) -> list[str]:
    """A spec's [rules] table as `--rule` strings (TOML types checked first)."""
    flags = [k for k in HOUSE_RULE_DOC if k not in HOUSE_CHOICES]
    return toml_rule_strings(rules, flags, SCALAR_FIELDS, TUPLE_FIELDS)


def rules_of(cell_rules: dict) -> CardGameRules:
    return apply_rule_changes(CardGameRules(), _rule_strings(cell_rules))


def table(players: int, seats: list[str]) -> list[str]:
    # The player counts allowed depend on the edition, which a cell fixes; check_cell checks
    # them with the cell's rules. Here: the widest range of any edition.
    return api.make_table(players, seats, CardGameRules() if players >= 3 else CardGameRules.preset("video"))[0]


def check_policy(spec: str) -> str:
    try:
        return CATALOG.parse(spec)[0]
    except PolicyError as e:
        raise UsageError(str(e)) from None


def check_rules(rules: dict) -> None:
    rules_of(rules)


def check_cell(cell: dict) -> None:
    if cell.get("deck_edits"):
        raise UsageError("the card game has no per-seat deck edits; change the shared deck with rules deck.CARD")
    rules = rules_of(cell["rules"])
    api.make_table(cell["players"], cell["seats"], rules)
    try:
        pack(rules, cell["players"])
    except ValueError as e:
        raise UsageError(str(e)) from None


def play(cell: dict, seed: int, first: int, n: int, threads: int | None) -> pd.DataFrame:
    return api.simulate(n, cell["players"], cell["seats"], rules_of(cell["rules"]), seed, threads, chunk_size=n,
                        first_game=first)


ADAPTER = GameAdapter(
    name="cardgame",
    title="Monopoly: The Card Game",
    default_players=4,
    rules_version=RULES_VERSION,
    table=table,
    check_policy=check_policy,
    check_rules=check_rules,
    check_cell=check_cell,
    play=play,
    card_edits=lambda cell, seat: [],
    summarize=api.summarize,
    usage_cols=("outs", "zeroed", "wild_outs", "jackpots", "trades", "draws", "traded_cards", "wilds_dropped"),
    length_cols=("hands", "turns"),
)
