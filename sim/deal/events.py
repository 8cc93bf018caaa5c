"""What a Monopoly Deal replay says about each event its kernel logs (sim/core/replay.py)."""

from sim.core.replay import EventBook, Kind, common_kinds
from sim.deal import layout as L
from sim.deal.rules import COLOUR_NAMES, card_names


def card(ctx, seat: int, c: int) -> str:
    if "cards" not in ctx.memo:
        ctx.memo["cards"] = [f"{n[5:]}M" if n.startswith("money") else n.replace("_", " ")
                             for n in card_names(ctx.rules, ctx.deck_edits)]
    return ctx.memo["cards"][c]


def with_value(verb: str):
    """A sentence naming a card and, unless the card is money (named by its value), its value."""
    def text(f: dict) -> str:
        value = "" if f["card"] == f"{f['amount']}M" else f" ({f['amount']}M)"
        return f"{f['seat']} {verb} {f['card']}{value}" + (f" to {f['target']}" if verb == "gives" else "")
    return text


def colour(ctx, seat: int, g: int) -> str:
    return COLOUR_NAMES[g].replace("_", " ") if g < L.NC else "no colour yet"


def payer(ctx, seat: int, t: int) -> str:
    return f"seat {t}" if t >= 0 else "everyone"


EVENTS = EventBook(
    kinds={
        **common_kinds("{seat}: {card} complete sets, {amount}M in the bank, {target} properties"),
        L.EV_DRAW: Kind("draw", "{seat} draws {card}", card="card"),
        L.EV_BANK: Kind("bank", with_value("banks"), card="card"),
        L.EV_PLACE: Kind("place", "{seat} lays {card} as {target}", card="card", target="colour"),
        L.EV_RENT_CARD: Kind("rent_card", "{seat} plays {card}", card="card"),
        L.EV_RENT: Kind("rent", "{seat} charges {amount}M rent on {card} from {target}", card="colour",
                        target="payer"),
        L.EV_DOUBLE: Kind("double_rent", "{seat} doubles it with {card}", card="card"),
        L.EV_CHARGE: Kind("charge", "{seat} plays {card} for {amount}M from {target}", card="card", target="payer"),
        L.EV_PASS_GO: Kind("pass_go", "{seat} plays Pass Go", card="card"),
        L.EV_SLY: Kind("sly_deal", "{seat} plays Sly Deal on {target}'s {card}", card="card", target="seat"),
        L.EV_FORCED: Kind("forced_deal", "{seat} plays Forced Deal on {target}'s {card}", card="card",
                          target="seat"),
        L.EV_FORCED_GIVE: Kind("forced_give", "{seat} offers its {card} to {target} in exchange", card="card",
                               target="seat"),
        L.EV_DEAL_BREAKER: Kind("deal_breaker", "{seat} plays Deal Breaker on {target}'s {card} set",
                                card="colour", target="seat"),
        L.EV_BUILD: Kind("build", "{seat} puts a {card} on its {target} set", card="card", target="colour"),
        L.EV_JUST_SAY_NO: Kind("just_say_no", "{seat} says Just Say No to {target}", card="card", target="seat"),
        L.EV_PAY: Kind("pay", "{seat} pays {target} {amount}M of {card}M owed", target="seat"),
        L.EV_GIVE: Kind("give", with_value("gives"), card="card", target="seat"),
        L.EV_MOVE_WILD: Kind("move_wild", "{seat} moves {card} to {target}", card="card", target="colour"),
        L.EV_DISCARD: Kind("discard", "{seat} discards {card} (hand limit)", card="card"),
        L.EV_SET: Kind("set", "{seat} completes its {card} set", card="colour"),
    },
    namers={"card": card, "colour": colour, "payer": payer},
    end_reasons=("enough complete sets", "the turn limit", "no card left to draw or play", "an invariant failed"),
    standing=("card", "complete sets"),
    final_columns={"card": "sets", "amount": "bank", "target": "properties"},
)
