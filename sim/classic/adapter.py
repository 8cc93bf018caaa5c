"""Classic Monopoly as seen by the experiment layer (sim/core/experiment.py)."""

from __future__ import annotations

from sim.classic import api
from sim.classic.rules import RULE_PARSERS, RULES_VERSION, ClassicRules, pack
from sim.core.adapters import build_adapter


def card_edits(cell: dict, seat: int) -> list[str]:
    """Classic Monopoly has no per-seat cards to add or remove; the property value report
    (`monosim classic values`) answers what a card-value study would."""
    return []


def _pack(rules: ClassicRules, players: int, deck_edits: dict):
    if deck_edits:
        raise ValueError("classic Monopoly has no per-seat cards to edit (drop the deck axis)")
    return pack(rules, players)


ADAPTER = build_adapter(
    name="classic",
    title="classic Monopoly",
    rules_version=RULES_VERSION,
    default_rules=ClassicRules,
    parsers=RULE_PARSERS,
    catalog=api.CATALOG,
    api=api,
    pack=_pack,
    card_edits=card_edits,
    usage_cols=("bought", "auctions_won", "houses_built", "hotels_built", "trades", "mortgages", "rent_paid",
                "rent_received", "jail_turns"),
    length_cols=("rounds", "turns"),
    deck_edits=False,
    unfinished_cols=("hit_turn_limit",),
)
