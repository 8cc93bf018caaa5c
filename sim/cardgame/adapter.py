"""Monopoly: The Card Game as seen by the experiment layer (sim/core/experiment.py).

A cell's ``rules`` table takes the keys of ``--rule``, including ``edition`` ("wiki" or
"video"), which selects the preset the other keys change. Every hand is dealt from one shared
deck, so there are no per-seat deck edits (card values: ``monosim cardgame values``)."""

from __future__ import annotations

from sim.cardgame import api
from sim.cardgame.rules import RULE_PARSERS, RULES_VERSION, CardGameRules, pack
from sim.core.adapters import build_adapter


def _pack(rules: CardGameRules, players: int, deck_edits: dict):
    if deck_edits:
        raise ValueError("the card game has no per-seat deck edits; change the shared deck with rules deck.CARD")
    return pack(rules, players)


ADAPTER = build_adapter(
    name="cardgame",
    title="Monopoly: The Card Game",
    rules_version=RULES_VERSION,
    default_rules=CardGameRules,
    parsers=RULE_PARSERS,
    catalog=api.CATALOG,
    api=api,
    pack=_pack,
    card_edits=lambda cell, seat: [],
    usage_cols=("outs", "zeroed", "wild_outs", "jackpots", "trades", "draws", "traded_cards", "wilds_dropped"),
    length_cols=("hands", "turns"),
    # A money-target match (wiki) that reaches max_hands without a winner at the target; a
    # fixed number of hands (video) always finishes, so the column is 0 there.
    unfinished_cols=("hit_hand_limit",),
    deck_edits=False,
)
