"""What a classic Monopoly replay says about each event its kernel logs (sim/core/replay.py)."""

from sim.classic import layout as L
from sim.core.replay import EventBook, Kind, common_kinds


def square(ctx, seat: int, sq: int) -> str:
    return ctx.rules.board[sq].name if sq >= 0 else "a card"


def card(ctx, seat: int, code: int) -> str:
    deck, k = divmod(code, L.MAX_CARDS)
    return ("Chance", "Community Chest")[deck] + ": " + (ctx.rules.chance, ctx.rules.chest)[deck][k].text


def creditor(ctx, seat: int, t: int) -> str:
    return f"seat {t}" if t >= 0 else "the bank"


def level(ctx, seat: int, lv: int) -> str:
    return "a hotel" if lv == L.HOTEL else f"house {lv}" if lv > 0 else "no houses"


def trade_text(f: dict) -> str:
    cash, jail = f["amount"], int(f["card"])
    parts = [f"pays ${cash}" if cash > 0 else f"receives ${-cash}" if cash < 0 else ""]
    parts.append(f"gives {jail} jail card(s)" if jail > 0 else f"receives {-jail} jail card(s)" if jail < 0 else "")
    terms = " and ".join(p for p in parts if p)
    return f"{f['seat']} trades with {f['target']}" + (f": {f['seat']} {terms}" if terms else "")


EVENTS = EventBook(
    kinds={
        **common_kinds("{seat}: ${amount} cash, {card} deeds, net worth ${target}"),
        L.EV_ROLL: Kind("roll", "{seat} rolls {card} and {target}"),
        L.EV_LAND: Kind("land", "{seat} lands on {card}", card="square"),
        L.EV_SALARY: Kind("salary", "{seat} collects ${amount} at GO"),
        L.EV_BUY: Kind("buy", "{seat} buys {card} for ${amount}", card="square"),
        L.EV_BID: Kind("bid_limit", "{seat} would bid up to ${amount} for {card}", card="square"),
        L.EV_AUCTION: Kind("auction", "{seat} wins {card} for ${amount} from {target}", card="square",
                           target="creditor"),
        L.EV_UNSOLD: Kind("unsold", "nobody bids enough for {card}: it stays with {target}", card="square",
                          target="creditor"),
        L.EV_RENT: Kind("rent", "{seat} owes {target} ${amount} rent for {card}", card="square", target="seat"),
        L.EV_FEE: Kind("fee", "{seat} owes ${amount} ({card})", card="square"),
        L.EV_CARD: Kind("card", "{seat} draws {card}", card="card"),
        L.EV_JAIL: Kind("jail", "{seat} goes to jail"),
        L.EV_JAIL_CHOICE: Kind("jail_choice", "{seat}, in jail, {card}", card="jail_choice"),
        L.EV_LEAVE_JAIL: Kind("leave_jail", "{seat} leaves jail"),
        L.EV_MORTGAGE: Kind("mortgage", "{seat} mortgages {card} for ${amount}", card="square"),
        L.EV_LIFT: Kind("lift", "{seat} lifts the mortgage on {card} for ${amount}", card="square"),
        L.EV_BUILD: Kind("build", "{seat} builds {target} on {card} for ${amount}", card="square", target="level"),
        L.EV_SELL: Kind("sell", "{seat} sells {target} on {card} back to the bank for ${amount}", card="square",
                        target="level"),
        L.EV_COMES_DOWN: Kind("comes_down", "{card} comes down to {target}, the bank short of houses (${amount} of it)",
                              card="square", target="level"),
        L.EV_INTEREST: Kind("interest", "{seat} owes ${amount} interest on the mortgaged {card}", card="square"),
        L.EV_TRADE: Kind("trade", trade_text, target="seat"),
        L.EV_DEED_MOVES: Kind("deed_moves", "{card} goes from {target} to {seat}", card="square", target="seat"),
        L.EV_BANKRUPT: Kind("bankrupt", "{seat} is bankrupt to {target}, with ${amount} cash", target="creditor"),
        L.EV_JACKPOT: Kind("jackpot", "{seat} collects the Free Parking pot, ${amount}"),
        L.EV_PAY_PLAYER: Kind("pay_player", "{seat} owes {target} ${amount}", target="seat"),
        L.EV_OFFER: Kind("offer", lambda f: f"{f['seat']} asks {f['target']} for {f['card']}" + (
            f", offering ${f['amount']}" if f["amount"] > 0 else f", asking ${-f['amount']} too" if f["amount"] < 0
            else ""), card="square", target="seat"),
        L.EV_ANSWER: Kind("answer", lambda f: f"{f['seat']} values the offer at ${f['amount']}: " + (
            "accepts" if f["card"] == "0" else "rejects" if f["card"] == "-1" else f"asks ${f['card']} more"),
            target="seat"),
    },
    namers={"square": square, "card": card, "creditor": creditor, "level": level,
            "jail_choice": lambda ctx, seat, c: ("uses a Get Out of Jail Free card", "pays the fine",
                                                 "tries for doubles")[c]},
    end_reasons=("the last player left", "the round limit (richest player)", "an invariant failed"),
    standing=("target", "net worth ($)"),
    final_columns={"amount": "cash", "card": "deeds"},
)
