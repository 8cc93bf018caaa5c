"""Monopoly Deal, described once for the registry (sim/core/game.py)."""

from __future__ import annotations

from sim.core.game import Game, GameBots, GameExperiment, GameKernel, GameReport, GameRules, with_start
from sim.core.rule_changes import house_rules_text
from sim.deal import api, kernel, layout, position
from sim.deal.decisions import DECISIONS
from sim.deal.events import EVENTS
from sim.deal.layout import MAX_PLAYERS, SC_WIN, SEAT_COLS
from sim.deal.rules import (
    HOUSE_RULE_DOC,
    PROPERTY,
    RULE_PARSERS,
    RULES_VERSION,
    SCALAR_FIELDS,
    TYPE_NAMES,
    DealRules,
    card_spec,
    describe,
    pack,
)
from strategies.deal import CATALOG


def card_edits(cell: dict, seat: int) -> list[str]:
    """One more of every wild, rent, action and money card in the seat's opening hand. Deal
    edits only add cards (extra cards on top of the shared deck), so a card's value is what one
    more copy in hand is worth; plain properties are left out."""
    deck = GAME.rules_of(cell["rules"]).deck
    return [f"{card}+1" for card in deck if card_spec(card)[0] != PROPERTY]


def rules_text(rules: DealRules) -> str:
    lines = ["Colours (set size; rent by cards owned; value of each property card; buildings):"]
    for c in rules.colours:
        rents = ", ".join(str(r) for r in c.rents)
        lines.append(f"  {c.name:<11} {c.set_size}  rent {rents:<11} value {c.value}  "
                     f"{'houses' if c.buildable else 'no houses'}")
    lines.append(f"Deck ({sum(rules.deck.values())} cards; name x copies (type, value)); change with deck.NAME=COUNT:")
    for name, count in rules.deck.items():
        t, v, _, _ = card_spec(name)
        lines.append(f"  {name:<26} x{count:<3} ({TYPE_NAMES[t]}, {v}M)")
    lines += ["Numbers:", "  " + ", ".join(f"{k}={getattr(rules, k)}" for k in SCALAR_FIELDS)]
    return "\n".join(lines) + "\n" + house_rules_text(rules.house, HOUSE_RULE_DOC)


GAME = Game(
    name="deal",
    title="Monopoly Deal",
    cli_help="Monopoly Deal: simulate, inspect the rules and bots, card values and house rules.",
    rules=GameRules(
        cls=DealRules,
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
        inputs=with_start(pack),
        events=EVENTS,
        decisions=DECISIONS,
        compile_seconds=35,  # measured cold on the 2-core development machine, 2026-11-27
        bench_runs={"deal": ({}, 200_000, 100_000)},
    ),
    report=GameReport(
        summary=api.summarize,
        render=api.render_report,
        derived=api.derived,
        seat_tables=("actions",),
    ),
    bots=GameBots(
        catalog=CATALOG,
        default_table=api.DEFAULT_TABLE,
    ),
    experiment=GameExperiment(
        card_edits=card_edits,
        usage_cols=api.ACTION_COLS + ("actions_blocked", "short_payments"),
        length_cols=api.LENGTH_COLS,
        unfinished_cols=("hit_turn_limit", "stalled"),
        edit_meaning="extra cards dealt into its opening hand, on top of the shared deck",
    ),
    position=position.for_advice,
    verbs="sim.deal.cli",
)
