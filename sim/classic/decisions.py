"""Classic Monopoly's decision points (sim/core/decisions.py): their kinds, what each action
means, and what a seat may see (docs/decisions.md)."""

from __future__ import annotations

import numpy as np

from sim.classic import layout as L
from sim.classic.events import square
from sim.classic.rules import GROUP_NAMES
from sim.core.play import DecisionKind, Decisions


def group_name(g: int) -> str:
    return GROUP_NAMES[g].replace("_", " ")


def action_name(ctx, kind: int, seat: int, a: int) -> str:
    if kind == L.DK_JAIL:
        return ("roll for doubles", "pay the fine", "use a Get Out of Jail Free card")[a]
    if kind == L.DK_BUY:
        return ("let it go to auction", "buy it")[a]
    if kind in (L.DK_BID, L.DK_HOUSE_BID):
        return f"bid up to ${a}" if a else "do not bid"
    if kind == L.DK_RAISE:
        if a == 0:
            return "leave the rest to the rules' order (mortgages first, lowest square first)"
        sq, mortgage = divmod(a - 1, 2)
        return f"{'mortgage' if mortgage else 'sell a building of'} {square(ctx, seat, sq)}"
    if kind in (L.DK_LIFT_RECEIVED, L.DK_COUNTER):
        return ("no", "yes")[a]
    if kind == L.DK_PROPOSE:
        if a < L.OFFER_ACTIONS:
            return ("offer nothing", "make your bot's offer")[a]
        q, g, premium = L.offer_of(a)
        return f"ask seat {q} for its {group_name(g)} deeds for {'1.5 times ' if premium else ''}their printed price"
    if kind == L.DK_RESPOND:
        return ("reject", "accept")[a] if a < 2 else f"ask ${a - 2} more"
    if a == 0:
        return "stop" if kind == L.DK_BUILD else "none"
    verb = {L.DK_SELL_DEED: "offer for sale to the others", L.DK_LIFT: "lift the mortgage on",
            L.DK_FUND: "mortgage, to build", L.DK_BUILD: "build on"}[kind]
    return f"{verb} {square(ctx, seat, a - 1)}"


def observe(ctx, S: np.ndarray, seat: int) -> dict:
    """What `seat` sees: everything on the table (cash, positions, deeds, buildings, jail, the
    bank's houses and hotels, the pot), the last trade offer made, and how many cards are left
    in each deck. Hidden: the order of the decks' cards not yet drawn."""
    players = int(S[L.R_PLAYERS])
    deeds = {}
    for sq in range(L.N_SQ):
        if S[L.OWNER + sq] >= 0:
            deeds[square(ctx, seat, sq)] = {"owner": int(S[L.OWNER + sq]), "mortgaged": bool(S[L.MORT + sq]),
                                            "level": int(S[L.LEVEL + sq])}

    def squares(at: int, n: int) -> list[str]:
        return [square(ctx, seat, int(sq)) for sq in S[at:at + n]]

    return {
        "seat": seat,
        "round": int(S[L.G_ROUND]) + 1,
        "seat_to_move": int(S[L.G_CURRENT]),
        "cash": S[L.CASH:L.CASH + players].tolist(),
        "positions": [square(ctx, seat, int(sq)) for sq in S[L.POS:L.POS + players]],
        "in_jail": [bool(j) for j in S[L.JAIL:L.JAIL + players]],
        "in_game": [bool(a) for a in S[L.ALIVE:L.ALIVE + players]],
        "jail_cards": [int(S[L.GOOJF + 2 * p] + S[L.GOOJF + 2 * p + 1]) for p in range(players)],
        "deeds": deeds,
        "bank_houses": int(S[L.G_HOUSES]),
        "bank_hotels": int(S[L.G_HOTELS]),
        "free_parking_pot": int(S[L.G_POT]),
        "cards_left": {"Chance": int(S[L.DECK_N]), "Community Chest": int(S[L.DECK_N + 1])},
        "last_offer": {"gives": squares(L.TR_GIVE, int(S[L.TR_N_GIVE])), "gets": squares(L.TR_GET, int(S[L.TR_N_GET])),
                       "cash": int(S[L.TR_CASH]), "jail_cards": int(S[L.TR_JAIL_GIVE] - S[L.TR_JAIL_GET])},
    }


def features(ctx, S: np.ndarray, seat: int) -> np.ndarray:
    """The observation as numbers: the round, each seat's cash, square, jail turn, jail cards and
    whether it is in the game; each square's owner (-1 none), mortgage and buildings; the bank's
    houses and hotels, the pot, the cards left in each deck and the last trade offer."""
    players = int(S[L.R_PLAYERS])
    f = [seat, S[L.G_ROUND], S[L.G_CURRENT], S[L.G_HOUSES], S[L.G_HOTELS], S[L.G_POT], S[L.DECK_N], S[L.DECK_N + 1]]
    for at in (L.CASH, L.POS, L.JAIL, L.ALIVE):
        f += S[at:at + players].tolist()
    f += [S[L.GOOJF + 2 * p] + S[L.GOOJF + 2 * p + 1] for p in range(players)]
    for at in (L.OWNER, L.MORT, L.LEVEL):
        f += S[at:at + L.N_SQ].tolist()
    offer = np.zeros(L.N_SQ)  # +1 a square the proposer gives, -1 one it gets
    offer[S[L.TR_GIVE:L.TR_GIVE + S[L.TR_N_GIVE]]] = 1
    offer[S[L.TR_GET:L.TR_GET + S[L.TR_N_GET]]] = -1
    f += [*offer, S[L.TR_CASH], S[L.TR_JAIL_GIVE] - S[L.TR_JAIL_GET]]
    return np.array(f, np.float32)


def redeal(ctx, S: np.ndarray, seat: int, events: np.ndarray, shown: set, rng: np.random.Generator) -> np.ndarray:
    """The snapshot S with each deck's cards not yet seen shuffled afresh: from the top, as many
    as the deck had at the start less the draws so far (a drawn card goes under the deck in an
    order everyone saw), less those drawn since the snapshot (kept in place)."""
    S = S.copy()
    since = [0, 0]
    for kind, _s, card, _amount, _target in events.tolist():
        if kind == L.EV_CARD:
            since[card // L.MAX_CARDS] += 1
    for d in range(L.N_DECKS):
        n_d = int(S[L.R_DECK_SIZE + d])
        unseen = min(int(S[L.DECK_N + d]), n_d - int(S[L.DECK_DRAWS + d])) - since[d]
        if unseen > 1:
            ring = [L.DECK + d * L.MAX_CARDS + (int(S[L.DECK_HEAD + d]) + since[d] + i) % n_d for i in range(unseen)]
            S[ring] = rng.permutation(np.sort(S[ring]))
    return S


DECISIONS = Decisions(
    kinds={
        L.DK_JAIL: DecisionKind("jail", "in jail: roll for doubles (0), pay the fine (1) or use a card (2)"),
        L.DK_BUY: DecisionKind("buy", "buy the deed you landed on (1; short of cash, raise it first) or let it go "
                                      "to auction (0)"),
        L.DK_BID: DecisionKind("bid", "the most you will pay for the deed on auction, in dollars (0: no bid)"),
        L.DK_RAISE: DecisionKind("raise", "raising cash you owe: sell a building or mortgage a deed, or leave the "
                                          "rest to the rules' order (0)"),
        L.DK_SELL_DEED: DecisionKind("sell_deed", "raising cash you owe: offer a deed to the others, sold by "
                                                  "auction at its printed price at least, or none (0)"),
        L.DK_LIFT: DecisionKind("lift", "lift a mortgage, or none (0)"),
        L.DK_FUND: DecisionKind("fund", "mortgage a deed to raise cash for building, or none (0)"),
        L.DK_BUILD: DecisionKind("build", "build one house (or hotel) on a street, or stop (0)"),
        L.DK_HOUSE_BID: DecisionKind("house_bid", "the bank is short of buildings: the most you will pay for one, "
                                                  "in dollars (below its price: no bid)"),
        L.DK_LIFT_RECEIVED: DecisionKind("lift_received", "lift the mortgage of a deed you just received now (1) "
                                                          "or not (0)"),
        L.DK_PROPOSE: DecisionKind("propose", "propose a trade: your bot's offer (1), a standard offer, or none (0)"),
        L.DK_RESPOND: DecisionKind("respond", "answer a trade offer: reject (0), accept (1) or ask for more cash"),
        L.DK_COUNTER: DecisionKind("counter", "take the partner's counter-offer (1) or not (0)"),
    },
    n_actions=L.N_ACTIONS,
    action_name=action_name,
    observe=observe,
    redeal=redeal,
    features=features,
)
