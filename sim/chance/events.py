"""What a Monopoly Chance replay says about each event its kernel logs (sim/core/replay.py)."""

from sim.chance import layout as L
from sim.chance.rules import CARD_KIND_NAMES, CASH
from sim.core.replay import EventBook, Kind, common_kinds

CARD_WORDS = {"cash": "Cash", "bankrupt": "Bankrupt", "lucky_break": "Lucky Break", "token": "Token",
              "flip2": "Flip 2", "nope": "Nope!"}
CHANCE_WORDS = {
    "steal_building": "roll {param}+ to steal a building",
    "extra_flips": "{param} more flips",
    "fewer_flips": "{param} fewer flips",
    "take_lucky_break": "take a Lucky Break",
    "go": "GO: play a Cash card from the draw pile",
    "just_visiting": "Just Visiting: play a Cash card from the discards",
    "go_to_jail": "Go to Jail: send back an opponent's top Cash card",
    "lose_building": "lose the shortest building",
}
CORNER_WORDS = ("GO", "Free Parking", "Just Visiting", "Go to Jail")


def deck_card(ctx, seat: int, c: int) -> str:
    kind = int(ctx.rb[L.R_DECK_KIND + seat * L.MAX_DECK + c])
    if kind == CASH:
        return f"Cash {int(ctx.rb[L.R_DECK_VALUE + seat * L.MAX_DECK + c])}"
    return CARD_WORDS[CARD_KIND_NAMES[kind]]


def prop(ctx, seat: int, i: int) -> str:
    return ctx.rules.properties[i].name


def building(ctx, seat: int, b: int) -> str:
    props = ctx.rules.properties
    return f"{props[b].colour} building" if b < len(props) else "gray building"


def chance_card(ctx, seat: int, k: int) -> str:
    effect, param = ctx.rules.chance_cards[k]
    return CHANCE_WORDS[effect].format(param=param)


def colour(ctx, seat: int, i: int) -> str:
    return ctx.rules.properties[i].colour


EVENTS = EventBook(
    kinds={
        **common_kinds("{seat}: skyline {amount} of {target} to finish, {card} buildings"),
        L.EV_ROLL: Kind("roll", "{seat} rolls {card}", card="face"),
        L.EV_CHANCE: Kind("chance", "{seat} draws Chance: {card}", card="chance"),
        L.EV_STEAL: Kind("steal", "{seat} takes {target}'s {card}", card="building", target="seat"),
        L.EV_LOSE: Kind("lose_building", "{seat} returns its {card} to the box", card="building"),
        L.EV_FLIP: Kind("flip", "{seat} flips (bust chance {pct}): {card}", card="deck"),
        L.EV_STOP: Kind("stop", "{seat} cashes out with {target} flips left (next flip's bust chance {pct})"),
        L.EV_BUST: Kind("bust", "{seat} busts", card="deck"),
        L.EV_LUCKY_SAVE: Kind("lucky_save", "{seat}'s Lucky Break cancels the Bankrupt", card="deck"),
        L.EV_FLIP2: Kind("flip2", "{seat} plays Flip 2 on {target} (their chance to bust: {pct})", card="deck",
                         target="seat"),
        L.EV_NOPE_FLIP2: Kind("nope_flip2", "{seat} answers {target}'s Flip 2 with Nope!", card="deck",
                              target="seat"),
        L.EV_PLACE: Kind("place", "{seat} puts {card} on {target}", card="deck", target="property"),
        L.EV_PLACE_FP: Kind("place_free_parking", "{seat} puts {card} on {target} with Free Parking", card="deck",
                            target="property"),
        L.EV_NOPE_CASH: Kind("nope_cash", "{seat} blocks {target}'s Cash {amount} on {card} with Nope!",
                             card="property", target="seat"),
        L.EV_TOKEN: Kind("token", "{seat} plays a Token on {target}", card="deck", target="corner"),
        L.EV_JAIL: Kind("jail", "{seat} sends {target}'s top card on {card} back to their discards",
                        card="property", target="seat"),
        L.EV_TAKE: Kind("take", "{seat} takes {card} from its {target} pile", card="deck", target="pile"),
        L.EV_BUILDING: Kind("building", "{seat} wins a building of {card}", card="property"),
        L.EV_GRAY: Kind("gray", "{seat} wins a gray building for its {card} pair", card="colour"),
        L.EV_STALLED: Kind("stalled", "the round is closed: nobody can change anything any more"),
        L.EV_ROUND_END: Kind("round_end", "round {amount} ends: the top Cash card of each covered property wins a "
                             "building"),
    },
    namers={"deck": deck_card, "property": prop, "building": building, "chance": chance_card,
            "colour": colour, "corner": lambda ctx, seat, c: CORNER_WORDS[c],
            "pile": lambda ctx, seat, t: ("draw", "discard")[t],
            "face": lambda ctx, seat, f: str(f) if f else "'?'"},
    end_reasons=("a skyline reached the finish mark", "no buildings were left to win", "the round limit",
                 "an invariant failed"),
    standing=("amount", "skyline length"),
    final_columns={"amount": "skyline", "card": "buildings"},
)
