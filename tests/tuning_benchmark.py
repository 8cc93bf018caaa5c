"""The tuner against planted answers: tuning problems whose answer is known.

Each problem (tests/tuning/*.toml) is a tune spec over a small grid of real house rules or bot
parameters. Every candidate's outcomes were measured once on 1,000,000 games (the truth,
tests/tuning/*.truth.json), so the best candidate is known. The benchmark runs the tuner on each
problem with 20 seeds and checks three things against the truth:

- it recommends the true best candidate, or one within the problem's tolerance of it (a
  candidate whose true goal readings miss a goal by no more than the tolerance counts as
  meeting it, and whose true objective is within the tolerance of the best's), in at least 19
  of 20 seeds;
- its search plays at most a quarter of the games that evaluating every candidate to the race's
  last rung (race.max_games each) would (the confirmation stage comes on top in both);
- its reported intervals (the confirmed candidates', at the race's confidence) cover the true
  values at about their stated rate.

    .venv/bin/python tests/tuning_benchmark.py truth [PROBLEM ...]   # measure the truth (slow: hours)
    .venv/bin/python tests/tuning_benchmark.py run [--seeds 20] [PROBLEM ...]   # the benchmark

tests/test_tune.py runs one seed of one problem against its stored truth.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent / "tuning"
TRUTH_GAMES = 1_000_000
TRUTH_SEED = 987_654_321  # the truth's games share no seed with the tuner's (seeds 1 .. 20)
CHUNK = 100_000


def problems() -> list[str]:
    return sorted(p.stem for p in HERE.glob("*.toml"))


def load_problem(name: str, seed: int | None = None):
    """The problem's tune plan (with the seed given, if any) and its benchmark tolerances."""
    from sim.core import tune

    text = (HERE / f"{name}.toml").read_text()
    raw = tomllib.loads(text)
    tolerance = raw.pop("benchmark")  # the benchmark's own table; the rest is the tune spec
    if seed is not None:
        raw["seed"] = seed
    plan = tune.resolve_tune(raw)
    plan.source = text
    return plan, tolerance


# ---- the truth ---------------------------------------------------------------------------------

def _quantile(hist: np.ndarray, q: float) -> float:
    """numpy's (linear) q-quantile of the integers a histogram counts."""
    n = int(hist.sum())
    cum = np.cumsum(hist)
    h = (n - 1) * q
    lo, hi = int(np.floor(h)), int(np.ceil(h))
    x_lo = int(np.searchsorted(cum, lo + 1))
    x_hi = int(np.searchsorted(cum, hi + 1))
    return x_lo + (h - lo) * (x_hi - x_lo)


def measure_truth(plan, cell: dict, games: int, threads: int | None = None) -> dict[str, float]:
    """A candidate's outcomes (tune.measure's names) over `games` games of the truth's seed,
    added up chunk by chunk."""
    from sim.core.runs import unfinished

    out = plan.outcomes
    game = plan.game
    wins = np.zeros(out.players)
    hists: dict[str, np.ndarray] = {}
    never_ended = 0
    for first in range(0, games, CHUNK):
        df = game.play(cell, TRUTH_SEED, first, min(CHUNK, games - first), threads)
        wins += df[[f"win_{s}" for s in range(out.players)]].to_numpy(float).sum(axis=0)
        for unit in out.length_cols:
            counts = np.bincount(df[unit].to_numpy())
            have = hists.get(unit, np.zeros(0, np.int64))
            size = max(len(have), len(counts))
            hists[unit] = np.pad(have, (0, size - len(have))) + np.pad(counts, (0, size - len(counts)))
        if out.unfinished_cols:
            never_ended += int(unfinished(df, out.unfinished_cols).sum())
    rates = wins / games
    m = {f"win_{s}": float(r) for s, r in enumerate(rates)}
    m["win_rate"] = float(rates[out.key_seat])
    m["seat_advantage"] = float(rates.max() - rates.min())
    for unit, hist in hists.items():
        values = np.arange(len(hist))
        m[f"mean_{unit}"] = float((hist * values).sum() / games)
        m[f"median_{unit}"] = _quantile(hist, 0.5)
        m[f"p90_{unit}"] = _quantile(hist, 0.9)
    if out.unfinished_cols:
        m["never_ending"] = never_ended / games
    return m


def write_truth(name: str, games: int = TRUTH_GAMES, threads: int | None = None) -> Path:
    plan, _ = load_problem(name)
    started = time.time()
    rows = []
    for c in plan.candidates + [plan.baseline]:
        rows.append({"candidate": c.id, "label": c.label, **measure_truth(plan, c.cell, games, threads)})
        print(f"{name}: {c.id} {c.label}: {rows[-1]}", file=sys.stderr)
    path = HERE / f"{name}.truth.json"
    path.write_text(json.dumps({"problem": name, "games": games, "seed": TRUTH_SEED,
                                "seconds": round(time.time() - started), "candidates": rows}, indent=1) + "\n")
    return path


def load_truth(name: str) -> dict:
    return json.loads((HERE / f"{name}.truth.json").read_text())


# ---- what counts as a right answer ---------------------------------------------------------------

def acceptable(plan, truth: dict, tolerance: dict) -> tuple[set[int], int | None]:
    """The candidates the benchmark accepts as the answer, and the true best: among candidates
    whose true readings meet every goal, the best objective (or, without an objective, the
    smallest total goal violation); accepted are those that meet every goal to within
    tolerance["goals"] and whose objective is within tolerance["objective"] of the best's."""
    rows = {r["candidate"]: r for r in truth["candidates"]}  # the baseline's too: it may be recommended
    goal_tol = tolerance.get("goals", 0.0)
    obj_tol = tolerance.get("objective", 0.0)

    def miss(r, slack):
        return max((max(0.0, (r[g.metric] - g.high) if g.high is not None else 0.0,
                        (g.low - r[g.metric]) if g.low is not None else 0.0) - slack) for g in plan.goals) \
            if plan.goals else 0.0

    feasible = [i for i, r in rows.items() if miss(r, 0.0) <= 0 and i != plan.baseline.id]
    if plan.objective is None:
        best = min((i for i in rows if i != plan.baseline.id), key=lambda i: (miss(rows[i], 0.0), i))
        return {i for i in rows if miss(rows[i], goal_tol) <= 0}, best
    if not feasible:
        return set(), None
    sense, metric = plan.objective.sense, plan.objective.metric
    best = max(feasible, key=lambda i: (sense * rows[i][metric], -i))
    ok = {i for i, r in rows.items()
          if miss(r, goal_tol) <= 0 and sense * (rows[best][metric] - r[metric]) <= obj_tol}
    return ok, best


# ---- running the tuner -------------------------------------------------------------------------

def run_tuner(plan, threads: int | None = None):
    """Race and confirm in memory (no folders): returns the plan's ranked table and the rungs."""
    from sim.core import tune
    from sim.core.runs import play_chunk

    cols = plan.outcomes.columns()

    def play(jobs):
        return [play_chunk(plan.spec["game"], c.cell, plan.spec["seed"], first, n, threads)[cols].reset_index(drop=True)
                for c, _, first, n in jobs]

    history = tune.run_race(plan, play)
    tune.confirm(plan, play)
    return tune.table(plan), history


def one_run(name: str, seed: int, threads: int | None = None) -> dict:
    from sim.core import tune

    plan, tolerance = load_problem(name, seed)
    truth = load_truth(name)
    ok, best = acceptable(plan, truth, tolerance)
    df, _ = run_tuner(plan, threads)
    pick = tune.recommended(plan, df)
    search = int(df["search_games"].sum())
    exhaustive = len(plan.candidates) * plan.spec["race"]["max_games"]
    true = {r["candidate"]: r for r in truth["candidates"]}
    covered = total = 0
    metrics = [g.metric for g in plan.goals] + ([plan.objective.metric] if plan.objective else [])
    for r in df[df["measured_on"] == "confirmation"].to_dict(orient="records"):
        for metric in dict.fromkeys(metrics):
            total += 1
            covered += r[f"{metric}_low"] <= true[int(r["candidate"])][metric] <= r[f"{metric}_high"]
    return {"problem": name, "seed": seed, "pick": pick, "best": best, "right": pick in ok,
            "baseline_recommended": pick == plan.baseline.id, "search_games": search, "exhaustive": exhaustive,
            "share": search / exhaustive, "covered": covered, "intervals": total}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("truth", "run"))
    parser.add_argument("problems", nargs="*")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--games", type=int, default=TRUTH_GAMES)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    names = args.problems or problems()
    from sim.core.game import games

    games()  # every game's modules now: a long run must not import a file edited meanwhile
    if args.what == "truth":
        for name in names:
            print(f"wrote {write_truth(name, args.games, args.threads)}")
        return 0
    failed = False
    print("| problem | candidates | right (of seeds) | search games / exhaustive | intervals covering the truth |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        runs = [one_run(name, seed, args.threads) for seed in range(1, args.seeds + 1)]
        right = sum(r["right"] for r in runs)
        share = max(r["share"] for r in runs)
        cov, tot = sum(r["covered"] for r in runs), sum(r["intervals"] for r in runs)
        plan, _ = load_problem(name)
        print(f"| {name} | {len(plan.candidates)} | {right} of {len(runs)} | at most {share:.0%} | "
              f"{cov} of {tot} ({cov / max(tot, 1):.0%}) |")
        for r in runs:
            if not r["right"]:
                print(f"  seed {r['seed']}: picked {r['pick']}, the true best is {r['best']}", file=sys.stderr)
        failed |= right < args.seeds - args.seeds // 20 or share > 0.25
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
