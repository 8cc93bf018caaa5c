"""The headline seat advantages checked under strong play (docs/findings.md).

    python experiments/search_findings.py [--games 300] [--rollouts 64] [--game deal ...]

For each game (both card game editions), two players: the same games (same seed, game numbers
0 ..) once with each game's strongest heuristic in both seats and once with a search player
over that heuristic in both seats. Prints seat 0's win rate in each, with 95% intervals, and
their paired difference: whether the first player's edge holds when both players search.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rollouts", type=int, default=64)
    parser.add_argument("--game", action="append", help="only this game (repeatable; default all)")
    args = parser.parse_args()
    print("| game | players | bots | seat 0 wins, bots | seat 0 wins, search in every seat | difference "
          "| fair share | seconds |")
    print("|---|---:|---|---|---|---|---:|---:|")
    for name, rules in TABLES:
        if args.game and name not in args.game:
            continue
        g = get(name)
        played = g.rules_of(rules)
        players = fewest_players(g, played)
        base = g.default_table[0]
        bots = g.simulate(args.games, players, [base] * players, played, seed=SEED)["win_0"].to_numpy()
        t0 = time.perf_counter()
        searched = g.simulate(args.games, players, [f"search rollouts={args.rollouts}"] * players, played,
                              seed=SEED)["win_0"].to_numpy()
        seconds = time.perf_counter() - t0
        (b, bw), (s, sw), (d, dw) = mean_ci(bots), mean_ci(searched), paired_diff(searched, bots)
        label = name + (f" ({rules['edition']})" if rules else "")
        print(f"| {label} | {players} | {base} | {b:.1%} ± {bw:.1%} | {s:.1%} ± {sw:.1%} | {d:+.1%} ± {dw:.1%} "
              f"| {1 / players:.1%} | {seconds:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
