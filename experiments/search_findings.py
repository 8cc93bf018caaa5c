"""The headline findings checked under strong play (docs/findings.md).

    python experiments/search_findings.py [--games 300] [--rollouts 64] [--game deal ...]
    python experiments/search_findings.py --house-rules [--games 100] [--game deal ...]
    python experiments/search_findings.py --card-values [--games 200] [--game deal ...]

For each game (both card game editions), at the fewest players: the same games (same seed, game
numbers 0 ..) once with each game's strongest heuristic in every seat and once with a search
player over that heuristic in every seat. By default it prints seat 0's win rate in each, with
95% intervals, and their paired difference: whether the first player's edge holds when every
player searches. With --house-rules, the two house rules with the largest effect on game length
at that table (HOUSE_RULES, from `monosim <game> house-rules` between the bots) are each played
on the same games as the rules without them, by the bots and by search players: each rule's
paired change in game length and in seat 0's win rate, under both. With --card-values, the card
values of Deal and the card game (experiments/*card_values.toml: its table, seed and key seat)
are checked for the cards at both ends of the bots' list (CARD_VALUES): the key seat's paired
gain in win rate from one extra copy of each, once with its bot in that seat and once with a
search player over the bot there, the other seats bots in both (searching only in the seat
that holds the card keeps a values table to minutes).
"""

from __future__ import annotations

import argparse
import time
import tomllib
from pathlib import Path

from sim.core.bench import fewest_players
from sim.core.game import get
from sim.core.stats import mean_ci, paired_diff

SEED = 2028
TABLES = [("deal", {}), ("chance", {}), ("classic", {}), ("cardgame", {"edition": "video"}),
          ("cardgame", {"edition": "wiki"})]
# The two house rules that change game length most at each table between the bots (`monosim
# <game> house-rules --players N`, 2,000-4,000 games; docs/findings.md has the figures).
HOUSE_RULES = {
    "deal": ["counter_uses_play=true", "hotel_replaces_house=true"],
    "chance": ["exhausted_properties_count=true", "keep_held_cards=true"],
    "classic": ["trading=false", "even_building=false"],
    "cardgame (video)": ["houses_numbered=true", "go_out_when=next_turn"],
    "cardgame (wiki)": ["houses_numbered=false", "face_up=2"],
}

# The cards checked: the bots' most valuable, some in the middle and the least valuable, by
# the values of docs/deal.md and docs/cardgame.md (40,000 and 16,000 games a card).
CARD_VALUES = {
    "deal": ("deal-card_values.toml", ["deal_breaker", "rent_green_dark_blue", "just_say_no", "money10",
                                       "money1", "double_rent", "forced_deal"]),
    "cardgame": ("cardgame-card_values.toml", ["dark_blue", "mr_monopoly", "token_brown", "house4",
                                               "railroad"]),
}


def rule_value(text: str):
    """A house rule's value as a spec's [rules] table holds it: true, 2 or 0.5 as TOML reads them,
    anything else as the word itself (go_out_when=end_of_turn)."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def tables(args):
    """(label, game, its [rules] table, players, the strongest heuristic) of each table asked for."""
    for name, rules in TABLES:
        if not args.game or name in args.game:
            g = get(name)
            label = name + (f" ({rules['edition']})" if rules else "")
            yield label, g, rules, fewest_players(g, g.rules_of(rules)), g.bots.default_table[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rollouts", type=int, default=64)
    parser.add_argument("--game", action="append", help="only this game (repeatable; default all)")
    parser.add_argument("--house-rules", action="store_true", help="check the largest house-rule effects instead")
    parser.add_argument("--card-values", action="store_true", help="check the card values instead")
    args = parser.parse_args()
    if args.house_rules:
        return house_rules(args)
    if args.card_values:
        return card_values(args)
    print("| game | players | bots | seat 0 wins, bots | seat 0 wins, search in every seat | difference "
          "| fair share | seconds |")
    print("|---|---:|---|---|---|---|---:|---:|")
    for label, g, rules, players, base in tables(args):
        played = g.rules_of(rules)
        bots = g.simulate(args.games, players, [base] * players, played, seed=SEED)["win_0"].to_numpy()
        t0 = time.perf_counter()
        searched = g.simulate(args.games, players, [f"search rollouts={args.rollouts}"] * players, played,
                              seed=SEED)["win_0"].to_numpy()
        seconds = time.perf_counter() - t0
        (b, bw), (s, sw), (d, dw) = mean_ci(bots), mean_ci(searched), paired_diff(searched, bots)
        print(f"| {label} | {players} | {base} | {b:.1%} ± {bw:.1%} | {s:.1%} ± {sw:.1%} | {d:+.1%} ± {dw:.1%} "
              f"| {1 / players:.1%} | {seconds:,.0f} |", flush=True)


def house_rules(args) -> None:
    print("| game | players | rule | unit | length, bots | change, bots | length, search | change, search "
          "| seat 0 change, bots | seat 0 change, search | seconds |")
    print("|---|---:|---|---|---:|---|---:|---|---|---|---:|")
    for label, g, rules, players, base in tables(args):
        unit = "turns"  # every game counts them
        seats = {"bots": [base] * players, "search": [f"search rollouts={args.rollouts}"] * players}
        t0 = time.perf_counter()
        plain = {who: g.simulate(args.games, players, table, g.rules_of(rules), seed=SEED)
                 for who, table in seats.items()}
        for change in HOUSE_RULES[label]:
            key, value = change.split("=")
            changed = g.rules_of({**rules, key: rule_value(value)})
            cells = []
            for who, table in seats.items():
                df = g.simulate(args.games, players, table, changed, seed=SEED)
                d, dw = paired_diff(df[unit].to_numpy(float), plain[who][unit].to_numpy(float))
                w, ww = paired_diff(df["win_0"].to_numpy(float), plain[who]["win_0"].to_numpy(float))
                cells.append((plain[who][unit].mean(), f"{d:+.2f} ± {dw:.2f}", f"{w:+.1%} ± {ww:.1%}"))
            (lb, db, wb), (ls, ds, ws) = cells
            print(f"| {label} | {players} | {change} | {unit} | {lb:.2f} | {db} | {ls:.2f} | {ds} | {wb} | {ws} "
                  f"| {time.perf_counter() - t0:,.0f} |", flush=True)


def card_values(args) -> None:
    print("| game | players | key seat | card | seat wins unedited, bots | value, bots "
          "| seat wins unedited, search | value, search | search less bots | seconds |")
    print("|---|---:|---|---|---|---|---|---|---|---:|")
    for name, (spec_file, cards) in CARD_VALUES.items():
        if args.game and name not in args.game:
            continue
        spec = tomllib.loads((Path(__file__).parent / spec_file).read_text())
        g, seat, seats = get(name), spec["run"]["key_seat"], spec["seats"]
        searched = [*seats[:seat], f"search rollouts={args.rollouts} base={seats[seat]}", *seats[seat + 1:]]
        rules = g.rules_of(spec.get("rules", {}))
        t0 = time.perf_counter()

        def wins(table, card=None):
            edits = {seat: {card: 1}} if card else None
            df = g.simulate(args.games, spec["players"], table, rules, seed=spec["seed"], deck_edits=edits)
            return df[f"win_{seat}"].to_numpy(float)

        plain = {"bots": wins(seats), "search": wins(searched)}
        (b, bw), (s, sw) = mean_ci(plain["bots"]), mean_ci(plain["search"])
        for card in cards:
            edited = {"bots": wins(seats, card), "search": wins(searched, card)}
            cells = {who: paired_diff(edited[who], plain[who]) for who in plain}
            d, dw = paired_diff(edited["search"] - plain["search"], edited["bots"] - plain["bots"])
            print(f"| {name} | {spec['players']} | {seats[seat]} | {card} | {b:.1%} ± {bw:.1%} "
                  f"| {cells['bots'][0]:+.1%} ± {cells['bots'][1]:.1%} | {s:.1%} ± {sw:.1%} "
                  f"| {cells['search'][0]:+.1%} ± {cells['search'][1]:.1%} | {d:+.1%} ± {dw:.1%} "
                  f"| {time.perf_counter() - t0:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
