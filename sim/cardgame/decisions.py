"""Monopoly: The Card Game's decision points (sim/core/decisions.py): their kinds, what each
action means, and what a seat may see (docs/decisions.md)."""

from __future__ import annotations

import numpy as np

from sim.cardgame import layout as L
from sim.cardgame.rules import KIND_NAMES
from sim.core.play import DecisionKind, Decisions, counted, deal_into, name_counts


def kind_name(k: int) -> str:
    return KIND_NAMES[k].replace("_", " ")


def pile_name(rb: np.ndarray, q: int) -> str:
    players = int(rb[L.R_PLAYERS])
    return f"seat {q}'s pile" if q < players else f"imaginary player {q - players + 1}'s pile"


def move_name(rb: np.ndarray, a: int) -> str:
    if a == L.A_DRAW:
        return "draw a card"
    if a == L.A_DOUBLE3:
        return "the dummy's double: your top two cards and the dummy's top card for a draw"
    if a < L.A_TRADE:
        return f"the dummy's swap with seat {a - L.A_SWAP3}"
    t = a - L.A_TRADE
    q, pre, k = t // L.MAX_CARDS // 2, t // L.MAX_CARDS % 2, t % L.MAX_CARDS + 1
    return f"{'discard one card, then ' if pre else ''}trade {k} card{'s' * (k > 1)} with {pile_name(rb, q)}"


def action_name(ctx, kind: int, seat: int, a: int) -> str:
    if kind == L.DK_MOVE:
        return move_name(ctx.rb, a)
    if kind == L.DK_DISCARD:
        return f"discard a {kind_name(a)}"
    if kind == L.DK_PASS:
        return f"pass a {kind_name(a)} to the left"
    return ("play on", "go out")[a]


def observe(ctx, S: np.ndarray, seat: int) -> dict:
    """What `seat` sees: its own hand, every face-up pile (bottom to top), the hand sizes, the
    kinds each seat was seen taking from piles this hand, money, the jackpot and the draw
    pile's size. Other hands and the draw pile's order stay hidden."""
    rb = ctx.rb
    players, n_piles = int(rb[L.R_PLAYERS]), int(rb[L.R_N_PILES])
    kinds = rb[L.R_KIND:L.R_KIND + L.MAX_CARDS]
    hand = S[L.HAND_ + seat * L.MAX_CARDS:L.HAND_ + seat * L.MAX_CARDS + S[L.HAND_N + seat]]
    piles = {}
    for q in range(n_piles):
        cards = S[L.PILE_ + q * L.MAX_CARDS:L.PILE_ + q * L.MAX_CARDS + S[L.PILE_N + q]]
        piles[pile_name(rb, q)] = [kind_name(int(kinds[c])) for c in cards]
    return {
        "seat": seat,
        "hand_number": int(S[L.G_HAND]) + 1,
        "dealer": int(S[L.G_DEALER]),
        "hand": counted(kind_name(int(kinds[c])) for c in hand),
        "hand_sizes": S[L.HAND_N:L.HAND_N + players].tolist(),
        "piles": piles,
        "seen_taking": [{kind_name(k): int(S[L.SEEN + p * L.NK + k]) for k in range(L.NK) if S[L.SEEN + p * L.NK + k]}
                        for p in range(players)],
        "money": S[L.MONEY:L.MONEY + players].tolist(),
        "jackpot": int(S[L.G_POT]),
        "draw_pile": int(S[L.DRAW_N]),
    }


PILE_DEPTH = 8  # cards of a pile the features show, from the top


def features(ctx, S: np.ndarray, seat: int) -> np.ndarray:
    """The observation as numbers: the hand's count of each kind, each pile's kinds from the top
    (-1 past its bottom), the kinds each seat was seen taking, hand sizes, money, the jackpot."""
    o = observe(ctx, S, seat)
    names = [kind_name(k) for k in range(L.NK)]
    f = [seat, o["hand_number"], o["dealer"], o["jackpot"], o["draw_pile"], *o["hand_sizes"], *o["money"]]
    f += name_counts(o["hand"], names)
    for pile in o["piles"].values():
        top = [names.index(k) for k in reversed(pile[-PILE_DEPTH:])]
        f += top + [-1] * (PILE_DEPTH - len(top))
    for seen in o["seen_taking"]:
        f += name_counts(seen, names)
    return np.array(f, np.float32)


def hides_card(kind: int, seat: int, target: int, reader: int) -> bool:
    """A draw (or a reward from the draw pile) shows its card to the drawer only; a card passed
    left, to the two seats it passes between."""
    if kind == L.EV_DRAW or (kind == L.EV_REWARD and target < 0):
        return seat != reader
    return kind == L.EV_PASS and reader not in (seat, target)


def redeal(ctx, S: np.ndarray, seat: int, events: np.ndarray, shown: set, rng: np.random.Generator) -> np.ndarray:
    """The snapshot S with the other hands and the draw pile dealt afresh among themselves,
    but for the cards shown since (kept in place) and, in each other hand,
    the kinds that seat was seen taking from piles this hand (the public record)."""
    S = S.copy()
    rb = ctx.rb
    players = int(rb[L.R_PLAYERS])
    kinds = rb[L.R_KIND:L.R_KIND + L.MAX_CARDS]
    slots = [L.DRAW_PILE + i for i in range(S[L.DRAW_N]) if S[L.DRAW_PILE + i] not in shown]
    for q in range(players):
        if q == seat:
            continue
        known = {k: max(int(S[L.SEEN + q * L.NK + k]), 0) for k in range(L.NK)}
        for i in range(S[L.HAND_N + q]):
            c = int(S[L.HAND_ + q * L.MAX_CARDS + i])
            if c in shown:
                known[int(kinds[c])] -= 1  # a shown card counts towards what the record says is there
        for i in range(S[L.HAND_N + q]):
            c = int(S[L.HAND_ + q * L.MAX_CARDS + i])
            if c in shown:
                continue
            if known[int(kinds[c])] > 0:
                known[int(kinds[c])] -= 1
            else:
                slots.append(L.HAND_ + q * L.MAX_CARDS + i)
    deal_into(S, L, L.MAX_CARDS, players, slots, rng)
    for q in range(players):  # the hands' kind counts
        S[L.KC + q * L.NK:L.KC + (q + 1) * L.NK] = 0
        for i in range(S[L.HAND_N + q]):
            S[L.KC + q * L.NK + kinds[S[L.HAND_ + q * L.MAX_CARDS + i]]] += 1
    return S


DECISIONS = Decisions(
    kinds={
        L.DK_MOVE: DecisionKind("move", "the turn's move: draw, trade the top cards of your pile with another "
                                        "pile's, or (three players) the dummy's swap or double"),
        L.DK_DISCARD: DecisionKind("discard", "which card to discard onto your pile (an action is a card kind)"),
        L.DK_PASS: DecisionKind("pass", "which card to pass to the seat on your left (5-6 players)"),
        L.DK_GO_OUT: DecisionKind("go_out", "go out with this complete hand (1) or play on (0)"),
    },
    n_actions=L.N_ACTIONS,
    action_name=action_name,
    observe=observe,
    hides_card=hides_card,
    redeal=redeal,
    features=features,
)
