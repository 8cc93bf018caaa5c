"""Monopoly Deal's decision points (sim/core/decisions.py): their kinds, what each action
means, and what a seat may see (docs/decisions.md)."""

from __future__ import annotations

import numpy as np

from sim.core.play import DecisionKind, Decisions, deal_into, name_counts
from sim.deal import layout as L
from sim.deal.events import card, colour
from sim.deal.rules import (
    COLOUR_NAMES,
    DEAL_BREAKER,
    DEBT_COLLECTOR,
    FORCED_DEAL,
    HOTEL,
    HOUSE,
    RENT,
    RENT_ANY,
    SLY_DEAL,
)


def play_name(ctx, seat: int, a: int) -> str:
    if a == 0:
        return "end the turn"
    c, mode, x, b, t = L.action_play(a)
    name = card(ctx, seat, c)
    if mode == L.M_BANK:
        return f"bank {name}"
    if mode == L.M_PLACE:
        return f"lay {name} as {colour(ctx, seat, x)}"
    typ = int(ctx.rb[L.R_CARD_TYPE + c])
    if typ in (RENT, RENT_ANY):
        return (f"play {name} on {colour(ctx, seat, x)}" + (f" against seat {t}" if typ == RENT_ANY else "")
                + (f", doubled {b} time{'s' * (b > 1)}" if b else ""))
    if typ == SLY_DEAL:
        return f"play {name}: take seat {t}'s {card(ctx, seat, x)}"
    if typ == FORCED_DEAL:
        return f"play {name}: take seat {t}'s {card(ctx, seat, x)} for your {card(ctx, seat, b)}"
    if typ == DEAL_BREAKER:
        return f"play {name}: take seat {t}'s {colour(ctx, seat, x)} set"
    if typ == DEBT_COLLECTOR:
        return f"play {name} against seat {t}"
    if typ in (HOUSE, HOTEL):
        return f"play {name} on your {colour(ctx, seat, x)} set"
    return f"play {name}"


def action_name(ctx, kind: int, seat: int, a: int) -> str:
    if kind == L.DK_PLAY:
        return play_name(ctx, seat, a)
    if kind == L.DK_DISCARD:
        return f"discard {card(ctx, seat, a)}"
    if kind == L.DK_PAY:
        return f"give {card(ctx, seat, a)}"
    if kind == L.DK_JUST_SAY_NO:
        return ("let it happen", "play Just Say No")[a]
    return f"take it as {COLOUR_NAMES[a].replace('_', ' ')}"


def observe(ctx, S: np.ndarray, seat: int) -> dict:
    """What `seat` sees: its hand, every seat's bank, properties by colour and buildings, the
    hand sizes, the discards and the draw pile's size, whose turn it is and the plays left.
    Other hands and the draw pile's order are hidden."""
    players = int(S[L.R_PLAYERS])

    def names(cards) -> list[str]:
        return [card(ctx, seat, int(c)) for c in cards]

    def collection(p: int) -> dict:
        groups = {}
        for g in range(L.NG):
            n = S[L.GRP_N + p * L.NG + g]
            if n:
                at = L.GRP + (p * L.NG + g) * L.MAX_GROUP
                groups[colour(ctx, seat, g)] = names(S[at:at + n])
        return groups

    hand = S[L.HAND_ + seat * L.MAX_HAND:L.HAND_ + seat * L.MAX_HAND + S[L.HAND_N + seat]]
    return {
        "seat": seat,
        "turn": int(S[L.G_TURN]) + 1,
        "seat_to_move": int(S[L.G_CURRENT]),
        "plays_left": int(S[L.G_PLAYS_LEFT]),
        "hand": sorted(names(hand)),
        "hand_sizes": S[L.HAND_N:L.HAND_N + players].tolist(),
        "banks": [sorted(names(S[L.BANK_ + p * L.MAX_CARDS:L.BANK_ + p * L.MAX_CARDS + S[L.BANK_N + p]]))
                  for p in range(players)],
        "properties": [collection(p) for p in range(players)],
        "buildings": [{COLOUR_NAMES[c].replace("_", " "): names([b for b in (S[L.HOUSE + p * L.NC + c],
                                                                             S[L.HOTEL + p * L.NC + c]) if b >= 0])
                       for c in range(L.NC) if S[L.HOUSE + p * L.NC + c] >= 0} for p in range(players)],
        "complete_sets": S[L.NCOMP:L.NCOMP + players].tolist(),
        "discards": sorted(names(S[L.DISC_PILE:L.DISC_PILE + S[L.DISC_N]])),
        "draw_pile": int(S[L.DRAW_N]),
    }


def features(ctx, S: np.ndarray, seat: int) -> np.ndarray:
    """The observation as numbers: the counts of each card name in the hand, each bank, each
    colour's properties and the discards; buildings by colour; hand sizes, sets, the turn."""
    o = observe(ctx, S, seat)
    players = int(S[L.R_PLAYERS])
    names = sorted({card(ctx, seat, c) for c in range(int(S[L.R_CARDS]))})
    colours = [colour(ctx, seat, g) for g in range(L.NG)]
    f = [seat, o["turn"], o["seat_to_move"], o["plays_left"], o["draw_pile"], *o["hand_sizes"], *o["complete_sets"]]
    f += name_counts(o["hand"], names) + name_counts(o["discards"], names)
    for p in range(players):
        f += name_counts(o["banks"][p], names)
        f += [len(o["properties"][p].get(c, ())) for c in colours]
        f += [len(o["buildings"][p].get(c.replace("_", " "), ())) for c in COLOUR_NAMES]
    return np.array(f, np.float32)


def hides_card(kind: int, seat: int, target: int, reader: int) -> bool:
    """A draw shows its card to the drawer only."""
    return kind == L.EV_DRAW and seat != reader


def redeal(ctx, S: np.ndarray, seat: int, events: np.ndarray, shown: set, rng: np.random.Generator) -> np.ndarray:
    """The snapshot S with the other hands and the draw pile dealt afresh among themselves,
    but for the cards shown since (kept in place)."""
    S = S.copy()
    players = int(S[L.R_PLAYERS])
    slots = [L.DRAW_PILE + i for i in range(S[L.DRAW_N]) if S[L.DRAW_PILE + i] not in shown]
    for q in range(players):
        if q != seat:
            slots += [L.HAND_ + q * L.MAX_HAND + i for i in range(S[L.HAND_N + q])
                      if S[L.HAND_ + q * L.MAX_HAND + i] not in shown]
    deal_into(S, L, L.MAX_HAND, players, slots, rng)
    return S


def shows(kind: int, a: int) -> list[int]:
    """The card a play, a discard or a payment takes from a hand or a table for all to see."""
    if kind == L.DK_PLAY and a > 0:
        return [L.action_play(a)[0]]
    return [a] if kind in (L.DK_DISCARD, L.DK_PAY) else []


DECISIONS = Decisions(
    kinds={
        L.DK_PLAY: DecisionKind("play", "the next play: a hand card to the bank, as a property, or for its action; "
                                        "or end the turn (0)"),
        L.DK_DISCARD: DecisionKind("discard", "which card to discard, over the hand limit at the end of the turn"),
        L.DK_PAY: DecisionKind("pay", "the next card to give towards a debt (one at a time, until it is covered)"),
        L.DK_JUST_SAY_NO: DecisionKind("just_say_no", "answer with a Just Say No (1) or not (0)"),
        L.DK_COLOUR: DecisionKind("colour", "the colour a two-colour wild you receive takes"),
    },
    n_actions=L.N_ACTIONS,
    action_name=action_name,
    observe=observe,
    hides_card=hides_card,
    redeal=redeal,
    shows=shows,
    features=features,
)
