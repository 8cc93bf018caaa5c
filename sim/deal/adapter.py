"""Monopoly Deal as seen by the experiment layer (sim/core/experiment.py)."""

from __future__ import annotations

from sim.core.adapters import build_adapter
from sim.deal import api
from sim.deal.rules import PROPERTY, RULE_PARSERS, RULES_VERSION, DealRules, card_spec, pack


def card_edits(cell: dict, seat: int) -> list[str]:
    """One more of every wild, rent, action and money card in the seat's opening hand. Deal
    edits only add cards (extra cards on top of the shared deck), so a card's value is what one
    more copy in hand is worth; plain properties are left out."""
    deck = ADAPTER.rules_of(cell["rules"]).deck
    return [f"{card}+1" for card in deck if card_spec(card)[0] != PROPERTY]


ADAPTER = build_adapter(
    name="deal",
    title="Monopoly Deal",
    rules_version=RULES_VERSION,
    default_rules=DealRules,
    parsers=RULE_PARSERS,
    catalog=api.CATALOG,
    api=api,
    pack=pack,
    card_edits=card_edits,
    usage_cols=api.ACTION_COLS + ("actions_blocked", "short_payments"),
    length_cols=("turns", "rounds"),
    unfinished_cols=("hit_turn_limit", "stalled"),
    edit_meaning="extra cards dealt into its opening hand, on top of the shared deck",
)
