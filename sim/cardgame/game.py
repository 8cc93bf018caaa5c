"""Monopoly: The Card Game, described once for the registry (sim/core/game.py). Both editions
are presets of one rule set, chosen with the `edition` rule (`--edition`). Every hand is dealt
anew from the shared deck, so a seat's deck edit deals it its extra cards on top of that deal
in every hand."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.cardgame import api, kernel, layout, position
from sim.cardgame.layout import H_MONEY, H_SCORE, MAX_HAND_ROWS, MAX_PLAYERS, N_HAND_COLS, NK, SC_WIN, SEAT_COLS
from sim.cardgame.rules import (
    COLOUR_NAMES,
    EDITIONS,
    GROUP_SIZES,
    HOUSE_RULE_DOC,
    KIND_NAMES,
    RULE_PARSERS,
    RULES_VERSION,
    SCALAR_FIELDS,
    CardGameRules,
    describe,
    pack,
)
from sim.cardgame.decisions import DECISIONS
from sim.cardgame.events import EVENTS
from sim.core.game import Game, GameBots, GameExperiment, GameKernel, GameReport, GameRules, with_start
from sim.core.rule_changes import house_rules_text
from strategies.cardgame import CATALOG

HAND_COLS = ("hand", "dealer", "went_out", "turns", "stalled", "jackpot", "jackpot_to")


def players_for_rules(rules: CardGameRules) -> tuple[int, int, str]:
    lo, hi = rules.players_allowed()
    return lo, hi, f"the {rules.edition} edition of Monopoly: The Card Game"


def detail_outputs(games: int, players: int, on: bool) -> tuple:
    """Each match's hands, and per card kind the hands holding it and their scores (went out,
    then the others). Off, the kernel still writes one row, which nobody reads."""
    rows = games if on else 1
    return np.zeros((rows, MAX_HAND_ROWS, N_HAND_COLS), np.int64), np.zeros((rows, NK, 4), np.int64)


def detail_tables(games: pd.DataFrame, outputs: tuple) -> dict:
    """"hands": one row per hand (game, hand, dealer, went_out (-1: nobody), turns, stalled,
    jackpot (the pot paid, or left waiting), jackpot_to (-1: nobody), score_<s>, money_<s> after
    the hand); "kinds": the per-kind table `api.kind_values` reads."""
    hand_out, kind_out = outputs
    players = games.attrs["players"]
    n_hands = np.minimum(games["hands"].to_numpy(), MAX_HAND_ROWS)
    rows = hand_out[np.arange(MAX_HAND_ROWS)[None, :] < n_hands[:, None]]
    cols = {"game": np.repeat(games["game"].to_numpy(), n_hands)}
    for j, name in enumerate(HAND_COLS):
        cols[name] = rows[:, j]
    for s in range(players):
        cols[f"score_{s}"] = rows[:, H_SCORE + s]
    for s in range(players):
        cols[f"money_{s}"] = rows[:, H_MONEY + s]
    hands = pd.DataFrame(cols)
    hands.attrs.update(games.attrs)
    kinds = pd.DataFrame(kind_out.sum(axis=0), columns=["goer_held", "goer_score", "other_held", "other_score"])
    kinds.insert(0, "kind", KIND_NAMES)
    kinds.attrs["hands"] = int((hands["went_out"] >= 0).sum())
    kinds.attrs["players"] = players
    return {"hands": hands, "kinds": kinds}


def card_edits(cell: dict, seat: int) -> list[str]:
    """One more copy of every card in the edition's deck. Edits only add cards (taking one
    out of a seat's hand would have to say which deal it is missing from), so a card's value
    is what one more copy in every hand is worth."""
    deck = GAME.rules_of(cell["rules"]).deck
    return [f"{card}+1" for card, count in deck.items() if count > 0]


def rules_text(rules: CardGameRules) -> str:
    lo, hi = rules.players_allowed()
    lines = [f"Edition: {rules.edition}; players {lo} to {hi}",
             "Groups (cards; complete value; value of each house; value of one card of an incomplete group):"]
    for c, name in enumerate(COLOUR_NAMES):
        value = f"{rules.railroad_values[1:]} by railroads held" if name == "railroad" else rules.group_values[c]
        lines.append(f"  {name:<11} {GROUP_SIZES[c]}  value {value}  house {rules.house_values[c]}  "
                     f"card {rules.card_values[c]}")
    lines.append(f"Deck ({sum(rules.deck.values())} cards, name x copies); change with deck.NAME=COUNT:")
    lines += [f"  {name:<18} x{count}" for name, count in rules.deck.items()]
    lines += ["Numbers (change with NAME=VALUE; group_values, house_values, card_values, railroad_values take a "
              "list a,b,...):", "  " + ", ".join(f"{k}={getattr(rules, k)}" for k in SCALAR_FIELDS)]
    return "\n".join(lines) + "\n" + house_rules_text(rules.house, HOUSE_RULE_DOC,
                                                      "House rules (name = this edition's default):")


GAME = Game(
    name="cardgame",
    title="Monopoly: The Card Game",
    cli_help="Monopoly: The Card Game (wiki and video editions): simulate, rules, policies, card values, seats, "
             "house rules.",
    rules=GameRules(
        cls=CardGameRules,
        parsers=RULE_PARSERS,
        version=RULES_VERSION,
        describe=describe,
        text=rules_text,
        pack=pack,
        min_players=2,  # any edition (video: 2-4, wiki: 3-6)
        max_players=MAX_PLAYERS,
        players_for=players_for_rules,
        presets=EDITIONS,
        house_variants=lambda rules: ({f"{k}={v}": [f"{k}={v}"] for k, v in (("max_trade", 2), ("reward_cards", 0),
                                                                              ("face_up", 2), ("railroad_min", 2))}
                                      if rules.edition == "wiki" else
                                      {f"{k}={v}": [f"{k}={v}"] for k, v in (("max_trade", 10), ("reward_cards", 5))}),
    ),
    kernel=GameKernel(
        module=kernel,
        layout=layout,
        seat_cols=SEAT_COLS,
        win_col=SC_WIN,
        inputs=with_start(pack),
        detail_outputs=detail_outputs,
        events=EVENTS,
        decisions=DECISIONS,
        compile_seconds=35,  # measured cold on the 2-core development machine, 2026-11-27
        bench_runs={"cardgame/wiki": ({"edition": "wiki"}, 20_000, 50_000),
                    "cardgame/video": ({"edition": "video"}, 100_000, 50_000)},
    ),
    report=GameReport(
        summary=api.summarize,
        render=api.render_report,
        detail_tables=detail_tables,
        out_detail=("hands",),
        seat_tables=("money",),
        frame_attrs=lambda rules: {"edition": rules.edition},
    ),
    bots=GameBots(
        catalog=CATALOG,
        default_table=api.DEFAULT_TABLE,
    ),
    experiment=GameExperiment(
        card_edits=card_edits,
        usage_cols=("outs", "zeroed", "wild_outs", "jackpots", "trades", "draws", "traded_cards", "wilds_dropped"),
        length_cols=api.LENGTH_COLS,
        unfinished_cols=("hit_hand_limit",),
        edit_meaning="extra cards dealt into its hand at the start of every hand, on top of the shared deck's deal",
    ),
    position=position.for_advice,
    verbs="sim.cardgame.cli",
)
