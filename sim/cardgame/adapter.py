"""Monopoly: The Card Game as seen by the experiment layer (sim/core/experiment.py).

A cell's ``rules`` table takes the keys of ``--rule``, including ``edition`` ("wiki" or
"video"), which selects the preset the other keys change. Every hand is dealt anew from the
shared deck, so a seat's deck edit deals it its extra cards on top of that deal in every hand."""

from __future__ import annotations

from sim.cardgame import api
from sim.cardgame.rules import RULE_PARSERS, RULES_VERSION, CardGameRules, pack
from sim.core.adapters import build_adapter


def card_edits(cell: dict, seat: int) -> list[str]:
    """One more copy of every card in the edition's deck. Edits only add cards (taking one
    out of a seat's hand would have to say which deal it is missing from), so a card's value
    is what one more copy in every hand is worth."""
    deck = ADAPTER.rules_of(cell["rules"]).deck
    return [f"{card}+1" for card, count in deck.items() if count > 0]


ADAPTER = build_adapter(
    name="cardgame",
    title="Monopoly: The Card Game",
    rules_version=RULES_VERSION,
    default_rules=CardGameRules,
    parsers=RULE_PARSERS,
    catalog=api.CATALOG,
    api=api,
    pack=pack,
    card_edits=card_edits,
    usage_cols=("outs", "zeroed", "wild_outs", "jackpots", "trades", "draws", "traded_cards", "wilds_dropped"),
    length_cols=("hands", "turns"),
    # A money-target match (wiki) that reaches max_hands without a winner at the target; a
    # fixed number of hands (video) always finishes, so the column is 0 there.
    unfinished_cols=("hit_hand_limit",),
    edit_meaning="extra cards dealt into its hand at the start of every hand, on top of the shared deck's deal",
)
