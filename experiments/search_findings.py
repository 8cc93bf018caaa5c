"""The headline findings checked under strong play (docs/findings.md).

    python experiments/search_findings.py [--games 300] [--rollouts 64] [--game deal ...]
    python experiments/search_findings.py --house-rules [--games 100] [--game deal ...]

For each game (both card game editions), at the fewest players: the same games (same seed, game
numbers 0 ..) once with each game's strongest heuristic in every seat and once with a search
player over that heuristic in every seat. By default it prints seat 0's win rate in each, with
95% intervals, and their paired difference: whether the first player's edge holds when every
player searches. With --house-rules, the two house rules with the largest effect on game length
at that table (HOUSE_RULES, from `monosim <game> house-rules` between the bots) are each played
on the same games as the rules without them, by the bots and by search players: each rule's
paired change in game length and in seat 0's win rate, under both.
"""

from __future__ import annotations

import argparse
import time

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
    "cardgame (wiki)": ["houses_numbered=false", "go_out_when=end_of_turn"],
}


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
    args = parser.parse_args()
    if args.house_rules:
        return house_rules(args)
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
            changed = g.rules_of({**rules, key: {"true": True, "false": False}.get(value, value)})
            cells = []
            for who, table in seats.items():
                df = g.simulate(args.games, players, table, changed, seed=SEED)
                d, dw = paired_diff(df[unit].to_numpy(float), plain[who][unit].to_numpy(float))
                w, ww = paired_diff(df["win_0"].to_numpy(float), plain[who]["win_0"].to_numpy(float))
                cells.append((plain[who][unit].mean(), f"{d:+.2f} ± {dw:.2f}", f"{w:+.1%} ± {ww:.1%}"))
            (lb, db, wb), (ls, ds, ws) = cells
            print(f"| {label} | {players} | {change} | {unit} | {lb:.2f} | {db} | {ls:.2f} | {ds} | {wb} | {ws} "
                  f"| {time.perf_counter() - t0:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
