"""Monopoly Chance as seen by the experiment layer (sim/core/experiment.py)."""

from __future__ import annotations

import pandas as pd

from sim.chance import api
from sim.chance.rules import (
    HOUSE_RULE_DOC,
    RULES_VERSION,
    SCALAR_FIELDS,
    ChanceRules,
    apply_rule_changes,
    pack,
)
from sim.core.experiment import GameAdapter
from sim.core.rule_changes import toml_rule_strings
from sim.core.runner import UsageError
from strategies.chance import PolicyError, parse_policy


def _rule_strings(rules: dict) -> list[str]:
    """A spec's [rules] table as `--rule` strings (TOML types checked first)."""
    return toml_rule_strings(rules, HOUSE_RULE_DOC, SCALAR_FIELDS, ("die",))


def rules_of(cell_rules: dict) -> ChanceRules:
    return apply_rule_changes(ChanceRules(), _rule_strings(cell_rules))


def table(players: int, seats: list[str]) -> list[str]:
    return api.make_table(players, seats)[0]


def check_policy(spec: str) -> str:
    try:
        return parse_policy(spec)[0]
    except PolicyError as e:
        raise UsageError(str(e)) from None


def check_rules(rules: dict) -> None:
    rules_of(rules)


def check_cell(cell: dict) -> None:
    """Rules, player count and deck edits together (e.g. a deck edit below zero cards)."""
    try:
        pack(rules_of(cell["rules"]), cell["players"], _deck_edits(cell))
    except ValueError as e:
        if isinstance(e, UsageError):
            raise
        raise UsageError(str(e)) from None


def _deck_edits(cell: dict) -> dict[int, dict[str, int]]:
    # JSON turns seat keys into strings; the kernel side wants ints
    return {int(seat): edits for seat, edits in cell.get("deck_edits", {}).items()}


def play(cell: dict, seed: int, first: int, n: int, threads: int | None) -> pd.DataFrame:
    return api.simulate(
        n,
        cell["players"],
        cell["seats"],
        rules_of(cell["rules"]),
        seed,
        threads,
        chunk_size=n,
        deck_edits=_deck_edits(cell) or None,
        first_game=first,
    )


def card_edits(cell: dict, seat: int) -> list[str]:
    """One more and one fewer of every card in the seat's deck; Bankrupt only one fewer (one
    more Bankrupt is plainly bad and not a question anyone asks)."""
    deck = dict(rules_of(cell["rules"]).deck)
    for card, change in _deck_edits(cell).get(seat, {}).items():
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


ADAPTER = GameAdapter(
    name="chance",
    title="Monopoly Chance",
    default_players=4,
    rules_version=RULES_VERSION,
    table=table,
    check_policy=check_policy,
    check_rules=check_rules,
    check_cell=check_cell,
    play=play,
    card_edits=card_edits,
    summarize=api.summarize,
    usage_cols=(
        "flipped_cash",
        "flipped_bankrupt",
        "flipped_lucky_break",
        "flipped_token",
        "flipped_flip2",
        "flipped_nope",
        "lucky_saves",
        "busts",
        "flip2_played",
        "nope_played",
        "tokens_played",
        "cash_played",
        "cash_won",
    ),
    length_cols=("rounds", "turns"),
)
