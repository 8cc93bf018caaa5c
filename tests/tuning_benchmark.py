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


def load_problem(name: str, seed: int | None = None, race: dict | None = None):
    """The problem's tune plan (with the seed and [race] keys given, if any) and its benchmark
    tolerances. A name ending in .toml is a spec file without a truth (tolerances empty)."""
    from sim.core import tune

    text = (Path(name) if name.endswith(".toml") else HERE / f"{name}.toml").read_text()
    raw = tomllib.loads(text)
    tolerance = raw.pop("benchmark", {})  # the benchmark's own table; the rest is the tune spec
    if seed is not None:
        raw["seed"] = seed
    raw["race"] = {**raw.get("race", {}), **(race or {})}
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
    from sim.core.tune import BASELINE_LABEL

    rows = {r["candidate"]: r for r in truth["candidates"]}  # the baseline's too: it may be recommended
    base = next(i for i, r in rows.items() if r["label"] == BASELINE_LABEL)
    goal_tol = tolerance.get("goals", 0.0)
    obj_tol = tolerance.get("objective", 0.0)
    feasible = [i for i, r in rows.items() if miss(plan, r, 0.0) <= 0 and i != base]
    if plan.objective is None:
        best = min((i for i in rows if i != base), key=lambda i: (miss(plan, rows[i], 0.0), i))
        return {i for i in rows if miss(plan, rows[i], goal_tol) <= 0}, best
    if not feasible:
        return set(), None
    sense, metric = plan.objective.sense, plan.objective.metric
    best = max(feasible, key=lambda i: (sense * rows[i][metric], -i))
    ok = {i for i, r in rows.items()
          if miss(plan, r, goal_tol) <= 0 and sense * (rows[best][metric] - r[metric]) <= obj_tol}
    return ok, best


def miss(plan, r: dict, slack: float) -> float:
    """The largest amount by which true readings r miss a goal, less the slack (<= 0: met)."""
    return max((max(0.0, (r[g.metric] - g.high) if g.high is not None else 0.0,
                    (g.low - r[g.metric]) if g.low is not None else 0.0) - slack) for g in plan.goals) \
        if plan.goals else 0.0


def regret(plan, pick: dict, best: dict) -> float:
    """How much worse the pick truly is than the true best: its objective's shortfall (positive
    is worse), or without an objective its goal miss; a pick that misses a goal by more than the
    best does is charged that miss too, in the goal's own units."""
    charged = max(0.0, miss(plan, pick, 0.0) - miss(plan, best, 0.0))
    if plan.objective is None:
        return charged
    return plan.objective.sense * (best[plan.objective.metric] - pick[plan.objective.metric]) + charged


# ---- running the tuner -------------------------------------------------------------------------

def run_tuner(plan, threads: int | None = None):
    """Propose (NTBEA), race and confirm in memory (no folders): returns the plan's ranked
    table and the rungs."""
    from sim.core import tune
    from sim.core.runs import play_chunk

    cols = plan.outcomes.columns()

    def play_cells(jobs):
        return [play_chunk(plan.spec["game"], cell, plan.spec["seed"], first, n, threads)[cols].reset_index(drop=True)
                for cell, first, n in jobs]

    def play(jobs):
        return play_cells([(c.cell, first, n) for c, _, first, n in jobs])

    if plan.spec["race"]["proposer"] == "ntbea":
        tune.propose(plan, play_cells)
    history = tune.run_race(plan, play)
    tune.confirm(plan, play)
    return tune.table(plan), history


def one_run(name: str, seed: int, threads: int | None = None, race: dict | None = None) -> dict:
    from sim.core import tune

    plan, tolerance = load_problem(name, seed, race)
    truth = load_truth(name)
    ok, best = acceptable(plan, truth, tolerance)
    df, _ = run_tuner(plan, threads)
    pick = tune.recommended(plan, df)
    search = int(df["search_games"].sum()) + (plan.proposed["games"] if plan.proposed else 0)
    exhaustive = plan.spec["grid"] * plan.spec["race"]["max_games"]
    # The truth numbers the whole grid; a sampled or proposed race numbers its own candidates.
    true = {r["label"]: r for r in truth["candidates"]}
    label = {c.id: c.label for c in plan.candidates + [plan.baseline]}
    covered = total = 0
    metrics = [g.metric for g in plan.goals] + ([plan.objective.metric] if plan.objective else [])
    for r in df[df["measured_on"] == "confirmation"].to_dict(orient="records"):
        for metric in dict.fromkeys(metrics):
            total += 1
            covered += r[f"{metric}_low"] <= true[label[int(r["candidate"])]][metric] <= r[f"{metric}_high"]
    picked = true[label[pick]]
    return {"problem": name, "seed": seed, "pick": picked["candidate"], "best": best, "right": picked["candidate"] in ok,
            "regret": regret(plan, picked, next(r for r in truth["candidates"] if r["candidate"] == best)),
            "baseline_recommended": pick == plan.baseline.id, "search_games": search, "exhaustive": exhaustive,
            "share": search / exhaustive, "covered": covered, "intervals": total}


# ---- NTBEA against the random sample, for the same games --------------------------------------

def arms(name: str, random_sample: int | None, ntbea_sample: int, proposal_games: int) -> list[tuple[str, dict]]:
    """The two ways to choose a race's candidates from a grid: a random sample of random_sample
    points (default half the grid), or NTBEA's best ntbea_sample points. NTBEA's number of
    evaluations is filled in by compare(), from the games the random arm played."""
    plan, _ = load_problem(name)
    k = random_sample or max(ntbea_sample + 1, plan.spec["grid"] // 2)
    return [(f"random {k}", {"sample": k, "proposer": "random"}),
            (f"ntbea {ntbea_sample}", {"sample": ntbea_sample, "proposer": "ntbea", "proposal_games": proposal_games})]


def open_run(spec: str, seed: int, race: dict, truth_games: int, true_values: dict, threads: int | None) -> dict:
    """One tune of a spec without a stored truth: its recommendation's objective measured on
    truth_games fresh games (cached by setting across runs)."""
    from sim.core import tune

    plan, _ = load_problem(spec, seed, race)
    df, _ = run_tuner(plan, threads)
    pick = tune.recommended(plan, df)
    c = plan.candidates[pick] if pick < len(plan.candidates) else plan.baseline
    if c.label not in true_values:
        true_values[c.label] = measure_truth(plan, c.cell, truth_games, threads)
    search = int(df["search_games"].sum()) + (plan.proposed["games"] if plan.proposed else 0)
    return {"seed": seed, "label": c.label, "value": true_values[c.label][plan.objective.metric],
            "search_games": search}


def compare(names: list[str], seeds: int, random_sample: int | None, ntbea_sample: int, proposal_games: int,
            truth_games: int, threads: int | None) -> None:
    """Print, per problem and way, how often the recommendation is right and its mean regret
    (planted problems), or its objective's true mean (a spec file), and the search games."""
    from sim.core.tune import most_search_games

    print("| problem | grid | candidates chosen by | right (of seeds) | mean regret | true objective | search games (mean) |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for name in names:
        plan, _ = load_problem(name)
        true_values: dict = {}
        if not name.endswith(".toml"):
            base = next(r for r in load_truth(name)["candidates"] if r["label"] == plan.baseline.label)
        played = 0.0  # the random arm's mean search games: NTBEA's evaluations and race get as many
        for arm, race in arms(name, random_sample, ntbea_sample, proposal_games):
            one = (lambda seed: open_run(name, seed, race, truth_games, true_values, threads)) \
                if name.endswith(".toml") else (lambda seed: one_run(name, seed, threads, race))
            if race["proposer"] == "ntbea":
                # Its race's games, from a first try whose evaluations leave room for the largest
                # race; the evaluations then take what that race leaves of the random arm's games.
                race["proposals"] = max(1, int((played - most_search_games(plan.spec["race"], ntbea_sample))
                                                // proposal_games))
                raced = one(1)["search_games"] - race["proposals"] * proposal_games
                race["proposals"] = max(1, int((played - raced) // proposal_games))
            if name.endswith(".toml"):
                if plan.objective is None:
                    raise SystemExit(f"{name}: compare needs an objective")
                runs = [one(seed) for seed in range(1, seeds + 1)]
                value = np.mean([r["value"] for r in runs])
                if plan.baseline.label not in true_values:
                    true_values[plan.baseline.label] = measure_truth(plan, plan.baseline.cell, truth_games, threads)
                base_value = true_values[plan.baseline.label][plan.objective.metric]
                cells = ["", "", f"{value:.4g} (baseline {base_value:.4g}; {len({r['label'] for r in runs})} settings)"]
                for r in runs:
                    print(f"  {arm} seed {r['seed']}: {r['label']}: {r['value']:.4g}", file=sys.stderr)
            else:
                runs = [one(seed) for seed in range(1, seeds + 1)]
                truth = {r["candidate"]: r for r in load_truth(name)["candidates"]}
                value = np.mean([truth[r["pick"]][plan.objective.metric] for r in runs]) if plan.objective else None
                cells = [f"{sum(r['right'] for r in runs)} of {len(runs)}", f"{np.mean([r['regret'] for r in runs]):.4g}",
                         "" if value is None else f"{value:.4g} (baseline {base[plan.objective.metric]:.4g})"]
            games = played = float(np.mean([r["search_games"] for r in runs]))
            print(f"| {Path(name).stem} | {plan.spec['grid']:,} | {arm} | " + " | ".join(cells) + f" | {games:,.0f} |",
                  flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("truth", "run", "compare"))
    parser.add_argument("problems", nargs="*")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--games", type=int, default=TRUTH_GAMES)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--random-sample", type=int, default=None, help="compare: the random sample's size")
    parser.add_argument("--ntbea-sample", type=int, default=3, help="compare: how many NTBEA hands the race")
    parser.add_argument("--proposal-games", type=int, default=100, help="compare: games per NTBEA evaluation")
    parser.add_argument("--truth-games", type=int, default=200_000, help="compare, a spec file: games measuring a pick")
    args = parser.parse_args(argv)
    names = args.problems or problems()
    from sim.core.game import games

    games()  # every game's modules now: a long run must not import a file edited meanwhile
    if args.what == "compare":
        compare(names, args.seeds, args.random_sample, args.ntbea_sample, args.proposal_games, args.truth_games,
                args.threads)
        return 0
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
