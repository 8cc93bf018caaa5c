"""Monopoly Chance's decision points (sim/core/decisions.py): their kinds, what each action
means, and what a seat may see (docs/decisions.md)."""

from __future__ import annotations

import numpy as np

from sim.chance import layout as L
from sim.chance.events import CORNER_WORDS, deck_card
from sim.core.play import DecisionKind, Decisions, counted, name_counts

YES_NO = {
    L.DK_FLIP: ("cash out", "flip"),
    L.DK_NOPE_CASH: ("let the Cash card in", "block it with Nope!"),
    L.DK_FLIP2: ("pass", "play Flip 2 on the player to move"),
    L.DK_NOPE_FLIP2: ("take the two flips", "answer the Flip 2 with Nope!"),
}


def action_name(ctx, kind: int, seat: int, a: int) -> str:
    if kind in YES_NO:
        return YES_NO[kind][a]
    props = ctx.rules.properties
    if kind == L.DK_PLACE:
        if a == 0:
            return "stop placing (the rest of the Cash is discarded)"
        c, i = divmod(a - 1, L.MAX_PROPS)
        return f"put {deck_card(ctx, seat, c)} on {props[i].name}"
    if kind == L.DK_TAKE_CASH:
        return "take none" if a == 0 else f"take {deck_card(ctx, seat, a - 1)}"
    if kind == L.DK_JAIL:
        return "send back nothing" if a == 0 else f"send back the top card on {props[a - 1].name}"
    if kind == L.DK_VICTIM:
        return f"take a building from seat {a}"
    return "keep the Token" if a == 0 else f"put the Token on {CORNER_WORDS[a - 1]}"


def observe(ctx, S: np.ndarray, seat: int) -> dict:
    """What `seat` sees: the board, every skyline, the corners, the cards held and discarded by
    each seat, the turn's flipped cards, every pile's size and its own pile's contents. The
    order of every pile and of the Chance cards stays hidden."""
    rb = ctx.rb
    players, n_props = int(rb[L.R_PLAYERS]), int(rb[L.R_PROPS])

    def cards_at(p: int, where: int) -> dict[str, int]:
        return counted(deck_card(ctx, p, c) for c in range(int(rb[L.R_DECK_SIZE + p]))
                      if S[L.WHERE + p * L.MAX_DECK + c] == where)

    current = int(S[L.G_CURRENT])
    return {
        "seat": seat,
        "round": int(S[L.G_N_ROUNDS]),
        "seat_to_move": current,
        "round_ending": bool(S[L.G_ROUND_ENDING]),
        "finish": int(rb[L.R_FINISH]),
        "skylines": S[L.SKY_LEN:L.SKY_LEN + players].tolist(),
        "buildings": S[L.N_BLD:L.N_BLD + players].tolist(),
        "board": [{"property": ctx.rules.properties[i].name, "to_take": int(S[L.TOP_VALUE + i] or rb[L.R_PROP_VALUE + i]),
                   "top_owner": int(S[L.TOP_OWNER + i]), "cards": int(S[L.STACK_N + i]),
                   "buildings_left": int(S[L.BLDS_LEFT + i])} for i in range(n_props)],
        "corners": {CORNER_WORDS[c]: (int(S[L.CORNERS + c]) // L.MAX_DECK if S[L.CORNERS + c] >= 0 else None)
                    for c in range(L.N_CORNERS)},
        "turn_cards": [deck_card(ctx, current, int(c)) for c in S[L.TURN_CARDS:L.TURN_CARDS + S[L.T_N]]],
        "flips_taken": int(S[L.T_FLIPS]),
        "flip_limit": int(S[L.T_LIMIT]),
        "lucky_breaks_in_play": int(S[L.T_LUCKY]),
        "held": [cards_at(p, L.HELD) for p in range(players)],
        "discards": [cards_at(p, L.DISCARD) for p in range(players)],
        "draw_piles": S[L.DRAW_N:L.DRAW_N + players].tolist(),
        "my_draw_pile": cards_at(seat, L.DRAW),
    }


def features(ctx, S: np.ndarray, seat: int) -> np.ndarray:
    """The observation as numbers: the round and turn, skylines, each property's card to take,
    top owner, stack and buildings left, the corners' owners (-1 none), and the count of each
    card name flipped this turn, held and discarded by each seat, and in the seat's own pile."""
    o = observe(ctx, S, seat)
    rb = ctx.rb
    players = int(rb[L.R_PLAYERS])
    names = sorted({deck_card(ctx, p, c) for p in range(players) for c in range(int(rb[L.R_DECK_SIZE + p]))})
    f = [seat, o["round"], o["seat_to_move"], o["round_ending"], o["finish"], o["flips_taken"], o["flip_limit"],
         o["lucky_breaks_in_play"], *o["skylines"], *o["buildings"], *o["draw_piles"]]
    for b in o["board"]:
        f += [b["to_take"], b["top_owner"], b["cards"], b["buildings_left"]]
    f += [-1 if owner is None else owner for owner in o["corners"].values()]
    f += name_counts(o["turn_cards"], names) + name_counts(o["my_draw_pile"], names)
    for p in range(players):
        f += name_counts(o["held"][p], names) + name_counts(o["discards"][p], names)
    return np.array(f, np.float32)


def redeal(ctx, S: np.ndarray, seat: int, events: np.ndarray, shown: set, rng: np.random.Generator) -> np.ndarray:
    """The snapshot S with the order of every draw pile and of the Chance cards not yet drawn
    dealt afresh (nobody sees them), but for the cards flipped or drawn since (kept in place).
    A pile shuffled since (a Cash card taken from it at GO) keeps its order: the cards flipped
    after the shuffle could not be kept in place otherwise. That leaks the rest of that pile's
    order for the turn to a search that resamples then (docs/decisions.md)."""
    S = S.copy()
    rb = ctx.rb
    flipped = [0] * int(rb[L.R_PLAYERS])
    shuffled = set()
    chance = 0
    for kind, s, _card, _amount, target in events.tolist():
        if kind == L.EV_FLIP:
            flipped[s] += 1
        elif kind == L.EV_CHANCE:
            chance += 1
        elif kind == L.EV_TAKE and target == 0:
            shuffled.add(s)
    for p, f in enumerate(flipped):
        at, n = L.DRAW_PILE + p * L.MAX_DECK, int(S[L.DRAW_N + p])
        if n > f and p not in shuffled:
            S[at:at + n - f] = rng.permutation(np.sort(S[at:at + n - f]))
    at, end = L.CHANCE_ORDER + S[L.G_CHANCE_POS] + chance, L.CHANCE_ORDER + int(rb[L.R_CHANCE])
    if end > at:
        S[at:end] = rng.permutation(np.sort(S[at:end]))
    return S


def pile_shuffled(events: np.ndarray) -> bool:
    """Whether a draw pile was shuffled in these events (a Cash card taken at GO): redeal keeps
    that pile's order, which no seat knows (Decisions.leaks)."""
    return any(kind == L.EV_TAKE and target == 0 for kind, _seat, _card, _amount, target in events.tolist())


DECISIONS = Decisions(
    kinds={
        L.DK_FLIP: DecisionKind("flip", "flip another card (1) or cash out (0)"),
        L.DK_PLACE: DecisionKind("place", "which Cash card goes on which property, or stop (0)"),
        L.DK_NOPE_CASH: DecisionKind("nope_cash", "block a Cash card put on your property with a Nope! (1) or not (0)"),
        L.DK_TAKE_CASH: DecisionKind("take_cash", "GO or Just Visiting: which Cash card to take from the pile, or "
                                                  "none (0)"),
        L.DK_JAIL: DecisionKind("jail", "Go to Jail: whose top Cash card goes back, by property, or none (0)"),
        L.DK_VICTIM: DecisionKind("victim", "which opponent loses a building to your Chance card"),
        L.DK_FLIP2: DecisionKind("flip2", "play a held Flip 2 on the player who just stopped (1) or pass (0)"),
        L.DK_NOPE_FLIP2: DecisionKind("nope_flip2", "answer a Flip 2 played on you with a Nope! (1) or take the two "
                                                    "flips (0)"),
        L.DK_TOKEN: DecisionKind("token", "put a Token on a free corner (1 + the corner) or keep it (0)"),
    },
    n_actions=L.N_ACTIONS,
    action_name=action_name,
    observe=observe,
    redeal=redeal,
    leaks=pile_shuffled,
    features=features,
)
