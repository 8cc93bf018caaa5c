"""Monopoly Chance as seen by the experiment layer (sim/core/experiment.py)."""

from __future__ import annotations

import pandas as pd

from sim.chance import api
from sim.chance.rules import RULE_PARSERS, RULES_VERSION, ChanceRules, pack
from sim.core.adapters import build_adapter, deck_edits_of
from strategies.chance import CATALOG

# Minutes at a real table. Assumption: a turn (roll, flip a few cards, place them) takes about
# 25 seconds and setting up and scoring about 2 minutes, so the default 4-player game of the
# default bots (45 turns, 3.7 rounds) takes about 21 minutes, near the 20 minutes printed on the
# box. A rough guide for comparing rule sets, not a measurement.
SECONDS_PER_TURN, SETUP_MINUTES = 25.0, 2.0


def minutes(games: pd.DataFrame) -> pd.Series:
    return SETUP_MINUTES + games["turns"] * (SECONDS_PER_TURN / 60.0)


def card_edits(cell: dict, seat: int) -> list[str]:
    """One more and one fewer of every card in the seat's deck; Bankrupt only one fewer (one
    more Bankrupt is plainly bad and not a question anyone asks)."""
    deck = dict(ADAPTER.rules_of(cell["rules"]).deck)
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


ADAPTER = build_adapter(
    name="chance",
    title="Monopoly Chance",
    rules_version=RULES_VERSION,
    default_rules=ChanceRules,
    parsers=RULE_PARSERS,
    catalog=CATALOG,
    api=api,
    pack=pack,
    card_edits=card_edits,
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
    unfinished_cols=("hit_round_limit",),
    minutes=minutes,
    midgame_last_col="last_at_half",
    edit_meaning="its own token deck",
)
rules_of = ADAPTER.rules_of
