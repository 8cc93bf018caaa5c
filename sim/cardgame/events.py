"""What a Monopoly: The Card Game replay says about each event its kernel logs
(sim/core/replay.py)."""

from sim.cardgame import layout as L
from sim.cardgame.rules import KIND_NAMES
from sim.core.replay import EventBook, Kind, common_kinds


def card(ctx, seat: int, c: int) -> str:
    return KIND_NAMES[int(ctx.rb[L.R_KIND + c])].replace("_", " ")


def pile(ctx, seat: int, q: int) -> str:
    players = int(ctx.rb[L.R_PLAYERS])
    return f"seat {q}" if q < players else f"imaginary player {q - players + 1}"


EVENTS = EventBook(
    kinds={
        **common_kinds("{seat}: ${card} this hand, ${amount} in all", round_word="hand"),
        L.EV_DRAW: Kind("draw", "{seat} draws {card}", card="card"),
        L.EV_DISCARD: Kind("discard", "{seat} discards {card}", card="card"),
        L.EV_TRADE: Kind("trade", "{seat} trades {amount} card(s) with {target}", target="pile"),
        L.EV_TAKE: Kind("take", "{seat} takes {card} from {target}", card="card", target="pile"),
        L.EV_GIVE: Kind("give", "{seat} gives {card} to {target}", card="card", target="pile"),
        L.EV_SPECIAL: Kind("dummy_move", "{seat} makes the dummy move: {card} with {target}", card="special",
                           target="pile"),
        L.EV_PASS: Kind("pass", "{seat} passes {card} to {target}", card="card", target="seat"),
        L.EV_GO_OUT: Kind("go_out", "{seat} goes out"),
        L.EV_REWARD: Kind("reward", "{seat} takes {card} as its reward", card="card"),
        L.EV_STALL: Kind("stall", "the hand ends with nobody out"),
        L.EV_JACKPOT: Kind("jackpot", "{seat} wins the Free Parking jackpot, ${amount}"),
        L.EV_HAND: Kind("hand", "{seat} shows {amount} x {card}", card="kind"),
    },
    namers={"card": card, "kind": lambda ctx, seat, k: KIND_NAMES[k].replace("_", " "), "pile": pile, "special": lambda ctx, seat, m: ("swap", "double")[m]},
    end_reasons=("a player reached the money target", "every hand was played", "the hand limit",
                 "an invariant failed"),
    standing=("amount", "score in all ($)"),
    final_columns={"amount": "money"},
)
