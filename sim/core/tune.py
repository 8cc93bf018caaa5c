"""Tune house rules or a bot: search parameter values for those that meet a table's goals.

A tune spec (docs/tuning.md) is an experiment spec (game, players, seats, rules) plus
``[search]`` (the values to try, as experiment sweep axes), ``[goals]`` (bounds on measured
outcomes and an optional objective) and ``[race]`` (the game budget). Every candidate is one
experiment cell, checked by sim/core/experiment.py, and played through the game's registry entry only.

The search is a race under common random numbers: at rung r every surviving candidate has
played the same games 0 .. n_r - 1 (seeded from (seed, g) as in every run), so differences
between candidates are paired game by game. After each rung a candidate is dropped when its
interval clearly misses a goal that another candidate may meet, when it is clearly worse on the
objective than a candidate that surely meets the goals, or (successive halving) when it ranks
in the bottom part. Drop decisions use intervals at a Bonferroni-corrected level over the
candidates, so a good candidate is rarely dropped on noise. The finalists and the untouched
table (the baseline) are then played again on fresh games, disjoint from the search games,
and the recommendation and the confirmed table come from those confirmation games.
"""

from __future__ import annotations

import importlib
import itertools
import json
import math
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core import results
from sim.core.experiment import _check_keys, _check_type, check_top, load_with, resolve
from sim.core.game import Game
from sim.core.game import games as registered_games
from sim.core.game import get as get_game
from sim.core.propose import NTupleBandit
from sim.core.runner import UsageError, progress_bar
from sim.core.runs import RunDir, play_chunk, same_cells, unfinished, utc_now
from sim.core.stats import CONFIDENCE, mean_ci, paired_diff, wilson, z_value
from sim.core.userbot import is_bot_spec, read_bot

# Confirmation games are game indices CONFIRM_FIRST, CONFIRM_FIRST + 1, ... of the same master
# seed: each game's seed comes from (seed, g), so they share nothing with the search games.
CONFIRM_FIRST = 1 << 40
CONFIRM_CHUNK = 10_000  # confirmation games per stored chunk (progress and memory)
CONFIRM_K0 = 50_000  # chunk index of the first confirmation chunk (search rungs come first)
# NTBEA's evaluations are games PROPOSE_FIRST, ... (disjoint from the race's and the confirmation's),
# PROPOSE_BATCH points at a time (a fixed number, so the result does not depend on the workers).
PROPOSE_FIRST = 1 << 41
PROPOSE_BATCH = 8
BASELINE_LABEL = "baseline (the spec's table as given)"

TOP_KEYS = {
    "name": str, "game": str, "description": str, "seed": int, "players": int, "seats": list,
    "rules": dict, "search": dict, "goals": dict, "race": dict, "preset": str,
}
RACE_DEFAULTS = {
    "first_games": 500,  # games per candidate at the first rung
    "eta": 3,  # each rung plays eta times the games, and halving keeps 1 / eta
    "max_games": 20_000,  # the most search games a candidate plays
    "finalists": 3,  # candidates confirmed
    "confirm_games": 20_000,  # fresh games per finalist (and the baseline)
    "halving": True,  # also drop the lower ranks at each rung, not only clear losers
    "sample": 0,  # >0: race this many grid points instead of all
    "proposer": "ntbea",  # how a sample is chosen: "ntbea" (model-guided) or "random" (a seeded draw)
    "proposals": 400,  # ntbea: grid points evaluated before the race
    "proposal_games": 100,  # ntbea: games per evaluation
    "max_candidates": 400,  # a larger grid is an error unless sampled
    "confidence": CONFIDENCE,  # of reported intervals; drops use 1 - (1 - it) / candidates
}
RACE_TYPES = {"first_games": int, "eta": int, "max_games": int, "finalists": int, "confirm_games": int,
              "halving": bool, "sample": int, "proposer": str, "proposals": int, "proposal_games": int,
              "max_candidates": int, "confidence": (int, float)}
PROPOSERS = ("random", "ntbea")


# ---- outcomes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Est:
    """One measured outcome: value and interval; per_game when it is a mean of per-game
    values (then two candidates can be compared game by game)."""

    value: float
    low: float
    high: float
    per_game: np.ndarray | None = None


@dataclass(frozen=True)
class Outcomes:
    """What can be measured for a game (from its registry entry) at a table of `players`."""

    players: int
    key_seat: int
    length_cols: tuple[str, ...]
    unfinished_cols: tuple[str, ...] = ()
    minutes: Callable | None = None
    midgame_last_col: str | None = None

    @property
    def units(self) -> tuple[str, ...]:
        return self.length_cols + (("minutes",) if self.minutes is not None else ())

    def columns(self) -> list[str]:
        """The per-game columns kept from each game table (everything measure() reads)."""
        cols = ["game"] + [f"win_{s}" for s in range(self.players)] + list(self.length_cols)
        cols += list(self.unfinished_cols)
        if self.midgame_last_col:
            cols += [f"{self.midgame_last_col}_{s}" for s in range(self.players)]
        return cols



def read_json(path: Path) -> dict:
    """A tuning folder's JSON file, or UsageError naming it when it is damaged."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise UsageError(f"{path}: cannot read it ({type(e).__name__}); the tuning folder is damaged") from None
    if not isinstance(data, dict):
        raise UsageError(f"{path}: not what monosim writes there; the tuning folder is damaged")
    return data

def quantile_ci(x: np.ndarray, q: float, confidence: float) -> Est:
    """Sample q-quantile with a distribution-free interval (order statistics whose ranks are
    the binomial(n, q) count +- z standard deviations)."""
    x = np.sort(np.asarray(x, float))
    n = len(x)
    if n == 0:
        return Est(math.nan, math.nan, math.nan)
    half = z_value(confidence) * math.sqrt(n * q * (1 - q))
    lo, hi = max(0, math.floor(n * q - half)), min(n - 1, math.ceil(n * q + half))
    return Est(float(np.quantile(x, q)), float(x[lo]), float(x[hi]))


def _mean(x: np.ndarray, confidence: float) -> Est:
    m, half = mean_ci(x, confidence)
    return Est(m, m - half, m + half, x)


def _rate(x: np.ndarray, confidence: float) -> Est:
    low, high = wilson(x.sum(), len(x), confidence)
    return Est(float(x.mean()), float(low), float(high), x)


def seat_advantage(wins: np.ndarray, confidence: float) -> Est:
    """The largest minus the smallest seat win rate, read fairly at any number of games.

    The plain spread of the observed rates is biased up: with no seat edge at all, noise alone
    makes it about 0.05 at 300 games of four seats. The value here shrinks the spread towards
    the seats' mean by the James-Stein factor max(0, 1 - noise / spread), where spread is the
    observed rates' sum of squared deviations and noise its expectation when no seat has an
    edge (the rates' sampling variances, from the games): near 0 while noise explains the
    differences, near the plain spread once the edge is clear. The interval covers the true
    spread: the largest and smallest of the seats' paired differences (game by game), each
    interval simultaneous over every pair of seats (Bonferroni), so no pair is favoured for
    having come out extreme."""
    n, k = wins.shape
    rates = wins.mean(axis=0)
    if n < 2:
        return Est(float(rates.max() - rates.min()), 0.0, 1.0)
    noise = float((wins.var(axis=0, ddof=1) / n).sum())
    spread = float(((rates - rates.mean()) ** 2).sum())
    shrink = max(0.0, 1.0 - noise / spread) if spread > 0 else 0.0
    z = z_value(1 - (1 - confidence) / (k * (k - 1) // 2))
    low = high = 0.0
    for i, j in itertools.combinations(range(k), 2):
        d = wins[:, i] - wins[:, j]
        mean, se = abs(float(d.mean())), float(d.std(ddof=1)) / math.sqrt(n)
        low, high = max(low, mean - z * se), max(high, mean + z * se)
    value = shrink * float(rates.max() - rates.min())
    return Est(min(max(value, low), high), low, high)


def measure(df: pd.DataFrame, out: Outcomes, confidence: float = CONFIDENCE) -> dict[str, Est]:
    """Every outcome the game supports, from one candidate's per-game rows."""
    df = df.sort_values("game", kind="stable")
    wins = df[[f"win_{s}" for s in range(out.players)]].to_numpy(float)
    m: dict[str, Est] = {}
    m["win_rate"] = _rate(wins[:, out.key_seat], confidence)
    for s in range(out.players):
        m[f"win_{s}"] = _rate(wins[:, s], confidence)
    rates = wins.mean(axis=0)
    best, worst = int(np.argmax(rates)), int(np.argmin(rates))
    m["seat_advantage"] = seat_advantage(wins, confidence)
    m["best_seat"] = Est(best, best, best)
    m["worst_seat"] = Est(worst, worst, worst)
    for unit in out.units:
        x = (out.minutes(df) if unit == "minutes" else df[unit]).to_numpy(float)
        m[f"median_{unit}"] = quantile_ci(x, 0.5, confidence)
        m[f"p90_{unit}"] = quantile_ci(x, 0.9, confidence)
        m[f"mean_{unit}"] = _mean(x, confidence)
    if out.unfinished_cols:
        m["never_ending"] = _rate(unfinished(df, out.unfinished_cols).astype(float), confidence)
    if out.midgame_last_col:
        last = df[[f"{out.midgame_last_col}_{s}" for s in range(out.players)]].to_numpy(float)
        m["comeback"] = _rate((wins * (last > 0)).sum(axis=1), confidence)
    return m


# ---- goals ---------------------------------------------------------------------------------

# goal name -> (direction: +1 higher is better, -1 lower is better, 0 a target range; has a unit)
GOALS = {
    "seat_advantage": (-1, False),
    "never_ending": (-1, False),
    "comeback": (+1, False),
    "win_rate": (+1, False),
    "median_length": (0, True),
    "mean_length": (0, True),
    "p90_length": (0, True),
}
GOAL_DOC = {
    "seat_advantage": "largest minus smallest seat win rate",
    "never_ending": "share of games that hit the game's turn or round limit (or stalled)",
    "comeback": "share of games won by the player last at mid-game",
    "win_rate": "the key seat's win rate",
    "median_length": "median game length",
    "mean_length": "mean game length",
    "p90_length": "game length that 90% of games stay within",
}


@dataclass(frozen=True)
class Goal:
    name: str
    metric: str  # the measured column, e.g. median_minutes
    low: float | None
    high: float | None
    direction: int

    @property
    def scale(self) -> float:
        if self.low is not None and self.high is not None and self.high > self.low:
            return self.high - self.low
        bound = self.high if self.high is not None else self.low
        return abs(bound) or 1.0

    def violation(self, v: float) -> float:
        """How far outside the bounds, in units of the goal's scale (0: met)."""
        over = v - self.high if self.high is not None else 0.0
        under = self.low - v if self.low is not None else 0.0
        return max(0.0, over, under) / self.scale

    def clearly_misses(self, e: Est) -> bool:
        return (self.high is not None and e.low > self.high) or (self.low is not None and e.high < self.low)

    def surely_meets(self, e: Est) -> bool:
        return (self.high is None or e.high <= self.high) and (self.low is None or e.low >= self.low)

    def verdict(self, e: Est) -> str:
        if self.surely_meets(e):
            return "yes"
        return "no" if self.clearly_misses(e) else ("likely" if self.violation(e.value) == 0 else "unlikely")

    def badness(self, v: float) -> float:
        """Lower is better: the Pareto and tie-break coordinate of this goal."""
        return -self.direction * v / self.scale if self.direction else self.violation(v)

    def describe(self) -> str:
        unit = self.metric.split("_", 1)[1] if GOALS[self.name][1] else ""
        if self.low is not None and self.high is not None:
            return f"{self.name} ({unit}) between {self.low:g} and {self.high:g}".replace(" ()", "")
        side, bound = ("at most", self.high) if self.high is not None else ("at least", self.low)
        return f"{self.name} ({unit}) {side} {bound:g}".replace(" ()", "")


@dataclass(frozen=True)
class Objective:
    metric: str
    sense: int  # +1 maximize, -1 minimize

    def describe(self) -> str:
        return f"{'maximize' if self.sense > 0 else 'minimize'} {self.metric}"


def rank_key(m: dict[str, Est], goals: list[Goal], objective: Objective | None) -> tuple[float, int, float]:
    """Sort key, lower first: total goal violation, then how many goals the interval does not
    surely meet (a sure candidate beats one that only may meet a goal), then the objective (or,
    without one, how comfortably the goals are met)."""
    dist = sum(g.violation(m[g.metric].value) for g in goals)
    unsure = sum(not g.surely_meets(m[g.metric]) for g in goals)
    return (round(dist, 12), unsure, _last_key(m, goals, objective))


def reads_as_meeting(m: dict[str, Est], goals: list[Goal]) -> bool:
    """Every goal met by the estimate (not necessarily by the whole interval)."""
    return all(g.violation(m[g.metric].value) == 0 for g in goals)


def halving_key(m: dict[str, Est], goals: list[Goal], objective: Objective | None) -> tuple[float, float]:
    """Successive halving's sort key, lower first: the goal violation of each interval's end
    nearest the goal (what the candidate may still turn out to be), then the objective. A goal
    the games cannot yet settle does not rank a candidate down; a noisy reading that only looks
    like a miss would otherwise drop a good candidate with the truly bad ones."""
    dist = sum(min(g.violation(m[g.metric].low), g.violation(m[g.metric].high), g.violation(m[g.metric].value))
               if not g.clearly_misses(m[g.metric]) else g.violation(m[g.metric].value) for g in goals)
    return (round(dist, 12), _last_key(m, goals, objective))


def _last_key(m: dict[str, Est], goals: list[Goal], objective: Objective | None) -> float:
    if objective is not None:
        return -objective.sense * m[objective.metric].value
    return sum(g.badness(m[g.metric].value) for g in goals)


def clearly_worse(c: dict[str, Est], d: dict[str, Est], objective: Objective, confidence: float) -> tuple[bool, str]:
    """Is c clearly worse than d on the objective? Paired game by game when both are means of
    per-game values over the same games, else by disjoint intervals."""
    ec, ed = c[objective.metric], d[objective.metric]
    if ec.per_game is not None and ed.per_game is not None and len(ec.per_game) == len(ed.per_game):
        diff, half = paired_diff(ed.per_game, ec.per_game, confidence)
        better = objective.sense * diff - half > 0
        return better, f"{diff:+.4g} (+-{half:.2g}, paired)"
    if objective.sense > 0:
        return ed.low > ec.high, f"{ed.value - ec.value:+.4g} (intervals apart)"
    return ed.high < ec.low, f"{ed.value - ec.value:+.4g} (intervals apart)"


# ---- the spec ------------------------------------------------------------------------------


@dataclass
class Candidate:
    id: int
    cell: dict  # an experiment cell: players, seats, rules, deck_edits, labels
    label: str
    chunks: list[pd.DataFrame] = field(default_factory=list)
    stage: str = "alive"  # alive, dropped, finalist, baseline
    reason: str = ""
    last_rung: int = -1
    search: dict[str, Est] | None = None  # at the report confidence, from its search games
    confirm: dict[str, Est] | None = None

    def games(self) -> pd.DataFrame:
        return pd.concat(self.chunks, ignore_index=True)


@dataclass
class TunePlan:
    spec: dict  # resolved, JSON-ready
    candidates: list[Candidate]
    baseline: Candidate
    goals: list[Goal]
    objective: Objective | None
    outcomes: Outcomes
    tuned_seat: int | None  # bot tuning: the seat whose policy is searched
    source: str = ""
    base_raw: dict = field(default_factory=dict)  # the spec's table, as experiment keys
    proposed: dict | None = None  # NTBEA's stage: what it evaluated and chose (propose())

    @property
    def game(self) -> Game:
        return get_game(self.spec["game"])

    def resolved(self) -> dict:
        """What a resumed tune must match. NTBEA's candidates follow from the spec (its stage is
        seeded), so they are left out: they are not known before it runs."""
        chosen = [] if self.spec["race"]["proposer"] != "random" else [c.cell for c in self.candidates]
        return {"spec": self.spec, "candidates": chosen, "baseline": self.baseline.cell}

    def cell(self, combo: tuple) -> dict:
        """The experiment cell of one grid point (its values in the order of spec["search"])."""
        sweep = {key: [value] for key, value in zip(self.spec["search"], combo)}
        try:
            cell = resolve({**self.base_raw, "sweep": sweep}).cells[0]
        except UsageError as e:
            label = ", ".join(f"{k}={v}" for k, v in zip(self.spec["search"], combo))
            raise UsageError(f"candidate ({label}): {str(e).split(': ', 1)[-1]}") from None
        return {k: cell[k] for k in ("players", "seats", "rules", "deck_edits", "labels")}

    def set_candidates(self, combos: list[tuple]) -> None:
        """The race's candidates (ids 0, 1, ...); the baseline's id comes after them."""
        self.candidates = []
        for i, combo in enumerate(combos):
            cell = self.cell(combo)
            self.candidates.append(Candidate(i, cell, _label(cell["labels"])))
        self.baseline.id = len(self.candidates)


def load(path: Path, overrides: list[str] | None = None) -> TunePlan:
    return load_with(path, resolve_tune, overrides)


def _catalog(game: str):
    """The game's policy Catalog (strategies/<game>.py exports CATALOG), or None."""
    try:
        return importlib.import_module(f"strategies.{game}").CATALOG
    except (ImportError, AttributeError):
        return None


def _numbers(where: str, low, high, step) -> list:
    for key, v in (("low", low), ("high", high), ("step", step)):
        _check_type(f"{where}.{key}", v, (int, float))
    if step <= 0 or high < low:
        raise UsageError(f"{where}: need step > 0 and low <= high (got low={low}, high={high}, step={step})")
    count = math.floor((high - low) / step + 1e-9) + 1
    if count > 10_000:
        raise UsageError(f"{where}: {count} values; use a larger step")
    as_int = all(isinstance(v, int) for v in (low, high, step))
    return [low + i * step if as_int else round(low + i * step, 10) for i in range(count)]


def _param_range(game: str, seat_spec: str, param: str) -> tuple[float, float] | None:
    """The declared range of a bot's parameter: a built-in's from its catalog, a bot file's
    from the file."""
    if is_bot_spec(seat_spec):
        declared = read_bot(game, seat_spec.split()[0]).params.get(param)
        return declared[1:3] if declared else None
    cat = _catalog(game)
    declared = cat.params.get(param) if cat is not None else None
    return (declared.low, declared.high) if declared else None


def _axis_values(key: str, value, game: str, seats: list[str]) -> list:
    """A [search] entry -> the list of values to try."""
    where = f'search."{key}"' if "." in key else f"search.{key}"
    if value == "switch":
        return [False, True]
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        _check_keys(f"{where}.", value, ("low", "high", "step"))
        if "step" not in value:
            raise UsageError(f"{where}: give step (and low, high), a list of values, or \"switch\"")
        low, high = value.get("low"), value.get("high")
        parts = key.split(".")
        if (low is None or high is None) and len(parts) == 3 and parts[0] == "seat":
            # A policy parameter's range defaults to the one its bot declares (seat.all: seat 0's).
            seat = int(parts[1]) if parts[1].isdigit() and int(parts[1]) < len(seats) else 0
            declared = _param_range(game, seats[seat], parts[2])
            if declared is None:
                raise UsageError(f"{where}: give low and high (no declared range for {parts[2]!r})")
            low = declared[0] if low is None else low
            high = declared[1] if high is None else high
        if low is None or high is None:
            raise UsageError(f"{where}: give low and high")
        return _numbers(where, low, high, value["step"])
    raise UsageError(f"{where}: expected a list of values, {{ low, high, step }} or \"switch\", got {value!r}")


SEARCH_FORMS = ("rule.", "seat.")


def resolve_tune(raw: dict) -> TunePlan:
    game, seed = check_top(raw, TOP_KEYS, ("name", "game", "search"))
    race = dict(RACE_DEFAULTS)
    _check_keys("race.", raw.get("race", {}), RACE_DEFAULTS)
    for key, value in raw.get("race", {}).items():
        _check_type(f"race.{key}", value, RACE_TYPES[key])
        race[key] = value
    for key in ("first_games", "eta", "max_games", "finalists", "confirm_games", "max_candidates"):
        if race[key] < (2 if key == "eta" else 1):
            raise UsageError(f"race.{key}: must be at least {2 if key == 'eta' else 1} (got {race[key]})")
    if race["sample"] < 0:
        raise UsageError(f"race.sample: must be 0 (all) or more (got {race['sample']})")
    if race["proposer"] not in PROPOSERS:
        raise UsageError(f"race.proposer: {race['proposer']!r} is not one of {', '.join(PROPOSERS)}")
    for key in ("proposals", "proposal_games"):
        if race[key] < 1:
            raise UsageError(f"race.{key}: must be at least 1 (got {race[key]})")
    if race["first_games"] > race["max_games"]:
        raise UsageError("race.first_games: must not exceed race.max_games")
    if not 0.5 <= race["confidence"] < 1:
        raise UsageError(f"race.confidence: must be in [0.5, 1) (got {race['confidence']})")

    # The base table, checked by the experiment layer (one cell, no sweep).
    base_raw = {k: raw[k] for k in ("name", "game", "seed", "players", "seats", "rules") if k in raw}
    base_plan = resolve(base_raw)
    players = base_plan.cells[0]["players"]

    # [search]: experiment sweep axes, each value list checked on its own so a bad value is
    # blamed on its own key.
    search = raw["search"]
    if not search:
        raise UsageError("search: empty; name at least one rule or policy parameter to search")
    axes = []
    for key, value in search.items():
        where = f'search."{key}"' if "." in key else f"search.{key}"
        if not key.startswith(SEARCH_FORMS):
            raise UsageError(f'{where}: search "rule.KEY" (house rules) or "seat.S.PARAM" / "seat.S" (a bot)')
        values = _axis_values(key, value, raw["game"], base_plan.cells[0]["seats"])
        try:
            resolve({**base_raw, "sweep": {key: values}})
        except UsageError as e:
            msg = str(e)
            raise UsageError(msg.replace(f'sweep."{key}"', where).replace(f"sweep.{key}", where)) from None
        axes.append((key, values))

    seats_searched = {k.split(".")[1] for k, _ in axes if k.startswith("seat.")}
    tuned_seat = None
    if seats_searched:
        if "all" in seats_searched or len(seats_searched) > 1:
            raise UsageError(f"search: bot tuning searches one seat's policy; got seats {', '.join(sorted(seats_searched))}")
        tuned_seat = int(seats_searched.pop())
    if "preset" in raw:
        if tuned_seat is None:
            raise UsageError("preset: only bot tuning (a \"seat.S.PARAM\" search) writes a preset")
        catalog = _catalog(raw["game"])
        if not raw["preset"].isidentifier() or (catalog is not None and raw["preset"] in catalog.kinds):
            raise UsageError(f"preset: {raw['preset']!r} must be letters, digits and _, and not a policy kind")

    out = Outcomes(
        players=players,
        key_seat=tuned_seat if tuned_seat is not None else 0,
        length_cols=tuple(game.experiment.length_cols),
        unfinished_cols=tuple(game.experiment.unfinished_cols),
        minutes=game.experiment.minutes,
        midgame_last_col=game.experiment.midgame_last_col,
    )
    goals, objective = _goals(raw.get("goals", {}), game, out, tuned_seat)

    grid = math.prod(len(v) for _, v in axes)
    if grid > 2**62:
        raise UsageError(f"search: {grid:.3g} candidates is more than can be numbered (2**62); narrow the search")
    sampled = 0 < race["sample"] < grid
    if not sampled:  # the whole grid races: nothing to choose
        if "proposer" in raw.get("race", {}):
            raise UsageError(f"race.proposer chooses race.sample points of a larger grid; set race.sample below "
                             f"the grid's {grid} points, or leave race.proposer out")
        race["proposer"] = "random"
    if not sampled and grid > race["max_candidates"]:
        raise UsageError(
            f"search: {grid} candidates is more than race.max_candidates = {race['max_candidates']}; "
            "use coarser steps, fewer values, or race.sample = N"
        )
    base = base_plan.cells[0]
    base_cell = {k: base[k] for k in ("players", "seats", "rules", "deck_edits")} | {"labels": {}}
    spec = {
        "name": raw["name"], "game": raw["game"], "description": raw.get("description", ""), "seed": seed,
        "players": players, "seats": base["seats"], "rules": base["rules"],
        "search": {k: v for k, v in axes}, "grid": grid,
        "goals": [g.__dict__ for g in goals], "objective": objective.__dict__ if objective else None,
        "race": race, "preset": raw.get("preset"), "tuned_seat": tuned_seat,
    }
    plan = TunePlan(spec, [], Candidate(0, base_cell, BASELINE_LABEL, stage="baseline"), goals, objective, out,
                    tuned_seat, base_raw=base_raw)
    if race["proposer"] == "random":
        if sampled:
            rng = np.random.default_rng([seed, 0x7475_6E65])  # its own stream: 'tune'
            picks = sorted(rng.choice(grid, size=race["sample"], replace=False).tolist())
            plan.set_candidates([_unrank(i, [v for _, v in axes]) for i in picks])
        else:
            plan.set_candidates(list(itertools.product(*[v for _, v in axes])))
    return plan


def _unrank(i: int, lists: list[list]) -> tuple:
    """The i-th combination of itertools.product(*lists)."""
    combo = []
    for values in reversed(lists):
        i, r = divmod(i, len(values))
        combo.append(values[r])
    return tuple(reversed(combo))


def _label(labels: dict) -> str:
    # "rule.finish_mark" -> "finish_mark", "seat.0.risk" -> "risk" (one seat is ever searched)
    short = {k: (k.split(".", 1)[1] if k.startswith("rule.") else k.split(".", 2)[-1]) for k in labels}
    return ", ".join(f"{short[k]}={v}" for k, v in labels.items())


def _goals(table: dict, game: Game, out: Outcomes, tuned_seat) -> tuple[list[Goal], Objective | None]:
    goals = []
    for name, value in table.items():
        if name == "objective":
            continue
        where = f"goals.{name}"
        if name not in GOALS:
            raise UsageError(f"{where}: unknown goal; known: {', '.join(GOALS)}, objective")
        direction, has_unit = GOALS[name]
        _check_type(where, value, dict)
        _check_keys(f"{where}.", value, ("min", "max", "unit") if has_unit else ("min", "max"))
        for k in ("min", "max"):
            if k in value:
                _check_type(f"{where}.{k}", value[k], (int, float))
        if "min" not in value and "max" not in value:
            raise UsageError(f"{where}: give min, max or both")
        if "min" in value and "max" in value and value["min"] > value["max"]:
            raise UsageError(f"{where}: min {value['min']} is above max {value['max']}")
        metric = name
        if has_unit:
            unit = value.get("unit", out.length_cols[0])
            _check_type(f"{where}.unit", unit, str)
            if unit not in out.units:
                raise UsageError(f"{where}.unit: {game.name} measures length in {', '.join(out.units)} (got {unit!r})")
            metric = f"{name.split('_')[0]}_{unit}"
        if name == "never_ending" and not out.unfinished_cols:
            raise UsageError(f"{where}: {game.name} does not record games that never end")
        if name == "comeback" and not out.midgame_last_col:
            have = [g.name for g in registered_games() if g.experiment.midgame_last_col]
            raise UsageError(
                f"{where}: {game.name} records no mid-game standing, so a comeback cannot be measured "
                f"(games that do: {', '.join(have) or 'none yet'})"
            )
        goals.append(Goal(name, metric, value.get("min"), value.get("max"), direction))
    objective = None
    if "objective" in table:
        text = table["objective"]
        _check_type("goals.objective", text, str)
        words = text.split()
        if len(words) != 2 or words[0] not in ("maximize", "minimize"):
            raise UsageError(f'goals.objective: write "maximize METRIC" or "minimize METRIC" (got {text!r})')
        metric = words[1]
        if metric in ("median_length", "mean_length", "p90_length"):
            unit = next((g.metric.split("_", 1)[1] for g in goals if g.name == metric), out.length_cols[0])
            metric = f"{metric.split('_')[0]}_{unit}"
        known = ["win_rate", "seat_advantage"] + [f"{s}_{u}" for u in out.units for s in ("median", "mean", "p90")]
        known += ["never_ending"] * bool(out.unfinished_cols) + ["comeback"] * bool(out.midgame_last_col)
        if metric not in known:
            raise UsageError(f"goals.objective: unknown metric {words[1]!r}; known: {', '.join(known)}")
        objective = Objective(metric, +1 if words[0] == "maximize" else -1)
    elif tuned_seat is not None:
        objective = Objective("win_rate", +1)  # bot tuning: the seat's win rate by default
    if not goals and objective is None:
        raise UsageError("goals: give at least one goal or an objective")
    return goals, objective


# ---- the race ------------------------------------------------------------------------------


def rungs(race: dict) -> list[int]:
    """Cumulative search games per candidate at each rung: first, first * eta, ..., max."""
    n, out = race["first_games"], []
    while n < race["max_games"]:
        out.append(n)
        n *= race["eta"]
    return out + [race["max_games"]]


PlayBatch = Callable[[list[tuple[Candidate, int, int, int]]], list[pd.DataFrame]]


def run_race(plan: TunePlan, play: PlayBatch, log: Callable[[str], None] = lambda s: None) -> list[dict]:
    """Race the candidates (in place: stage, reason, chunks); returns one log row per rung.
    `play([(candidate, chunk index, first game, games), ...])` returns their per-game rows."""
    race = plan.spec["race"]
    goals, objective, out = plan.goals, plan.objective, plan.outcomes
    alive = list(plan.candidates)
    k = len(alive)
    drop_conf = 1 - (1 - race["confidence"]) / max(k, 1)
    history, done = [], 0
    steps = rungs(race)
    for r, n in enumerate(steps):
        frames = play([(c, r, done, n - done) for c in alive])
        for c, df in zip(alive, frames):
            c.chunks.append(df)
            c.last_rung = r
        done = n
        m = {c.id: measure(c.games(), out, drop_conf) for c in alive}
        row = {"rung": r, "games": n, "candidates": len(alive), "missed_goal": 0, "clearly_worse": 0, "halving": 0}

        def drop(c: Candidate, why: str, kind: str, r=r, n=n, row=row) -> None:
            c.stage, c.reason = "dropped", f"rung {r} ({n:,} games): {why}"
            row[kind] += 1

        # 1. Clearly misses a goal while another candidate may meet every goal.
        plausible = [c for c in alive if not any(g.clearly_misses(m[c.id][g.metric]) for g in goals)]
        if plausible:
            for c in alive:
                if c not in plausible:
                    g = next(g for g in goals if g.clearly_misses(m[c.id][g.metric]))
                    e = m[c.id][g.metric]
                    drop(c, f"misses {g.describe()}: {e.value:.4g} ({e.low:.4g} to {e.high:.4g})", "missed_goal")
            alive = [c for c in alive if c.stage != "dropped"]
        # 2. Clearly worse on the objective than the best candidate that surely meets the goals.
        if objective is not None and len(alive) > 1:
            sure = [c for c in alive if all(g.surely_meets(m[c.id][g.metric]) for g in goals)]
            if sure:
                best = min(sure, key=lambda c: rank_key(m[c.id], goals, objective))
                for c in alive:
                    if c is not best:
                        worse, how = clearly_worse(m[c.id], m[best.id], objective, drop_conf)
                        if worse:
                            drop(c, f"{objective.metric} clearly below candidate {best.id}: {how}", "clearly_worse")
                alive = [c for c in alive if c.stage != "dropped"]
        last = r == len(steps) - 1 or len(alive) <= race["finalists"]
        # 3. Successive halving: keep the best 1 / eta (never fewer than the finalists), and
        # besides, while fewer of those than the finalists read as meeting every goal, the best
        # ones that do (but none clearly worse on the objective than the best that does):
        # candidates that only may meet a goal must not crowd out all that do.
        if race["halving"] and not last:
            keep = max(race["finalists"], math.ceil(len(alive) / race["eta"]))
            ranked = sorted(alive, key=lambda c: (halving_key(m[c.id], goals, objective), c.id))
            kept = ranked[:keep]
            meeting = [c for c in ranked if reads_as_meeting(m[c.id], goals)]
            short = race["finalists"] - sum(c in meeting for c in kept)
            kept += [c for c in meeting if c not in kept and not (
                objective and clearly_worse(m[c.id], m[meeting[0].id], objective, drop_conf)[0])][:max(0, short)]
            for i, c in enumerate(ranked, start=1):
                if c not in kept:
                    drop(c, f"halving: ranked {i} of {len(ranked)}", "halving")
            alive = [c for c in ranked if c in kept]
        row["left"] = len(alive)
        history.append(row)
        log(f"rung {r}: {row['candidates']} candidates x {n:,} games; dropped {row['missed_goal']} missing a goal, "
            f"{row['clearly_worse']} clearly worse, {row['halving']} by halving; {len(alive)} left")
        if last:
            break
    ranked = sorted(alive, key=lambda c: (rank_key(measure(c.games(), out, drop_conf), goals, objective), c.id))
    for i, c in enumerate(ranked):
        if i < race["finalists"]:
            c.stage = "finalist"
        else:
            c.stage, c.reason = "dropped", f"after the last rung: ranked {i + 1} of {len(ranked)}"
    return history


PlayCells = Callable[[list[tuple[dict, int, int]]], list[pd.DataFrame]]


def propose(plan: TunePlan, play: PlayCells, log: Callable[[str], None] = lambda s: None) -> None:
    """NTBEA's stage (race.proposer = "ntbea"): evaluate race.proposals grid points on
    race.proposal_games games each, guided by the N-tuple model (sim/core/propose.py), and make
    the race.sample points the model rates best the race's candidates, best first.
    `play([(cell, first game, games), ...])` returns their per-game rows."""
    race = plan.spec["race"]
    lists = list(plan.spec["search"].values())
    bandit = NTupleBandit([len(v) for v in lists], np.random.default_rng([plan.spec["seed"], 0x6E74_6265]))
    games, done, cells = race["proposal_games"], 0, {}
    while done < race["proposals"]:
        points = bandit.ask(min(PROPOSE_BATCH, race["proposals"] - done))
        for point in points:
            if point not in cells:
                cells[point] = plan.cell(tuple(v[i] for v, i in zip(lists, point)))
        frames = play([(cells[p], PROPOSE_FIRST + (done + j) * games, games) for j, p in enumerate(points)])
        bandit.tell(points, [rank_key(measure(df, plan.outcomes), plan.goals, plan.objective) for df in frames])
        done += len(points)
        if done % (PROPOSE_BATCH * 25) == 0 or done >= race["proposals"]:
            log(f"ntbea: {done:,} of {race['proposals']:,} evaluations, {len(cells):,} distinct points")
    chosen = [tuple(v[i] for v, i in zip(lists, p)) for p in bandit.best(race["sample"])]
    plan.proposed = {"evaluations": done, "games": done * games, "points": len(cells), "chosen": chosen}
    plan.set_candidates(chosen)


def confirm(plan: TunePlan, play: PlayBatch, log: Callable[[str], None] = lambda s: None) -> list[Candidate]:
    """Play the finalists and the baseline on fresh games (the same for each: paired)."""
    race = plan.spec["race"]
    chosen = [c for c in plan.candidates if c.stage == "finalist"] + [plan.baseline]
    total = race["confirm_games"]
    log(f"confirming {len(chosen) - 1} finalists and the baseline on {total:,} fresh games each")
    games: dict[int, list[pd.DataFrame]] = {c.id: [] for c in chosen}
    for j, first in enumerate(range(0, total, CONFIRM_CHUNK)):
        n = min(CONFIRM_CHUNK, total - first)
        for c, df in zip(chosen, play([(c, CONFIRM_K0 + j, CONFIRM_FIRST + first, n) for c in chosen])):
            games[c.id].append(df)
    for c in chosen:
        c.confirm = measure(pd.concat(games[c.id], ignore_index=True), plan.outcomes, race["confidence"])
    return chosen


# ---- tables, Pareto set, report ------------------------------------------------------------

METRIC_LABEL = {"win_rate": "win rate", "seat_advantage": "seat advantage", "never_ending": "never-ending",
                "comeback": "comeback"}


def metric_names(plan: TunePlan) -> list[str]:
    names = ["win_rate", "seat_advantage"]
    names += [f"{s}_{u}" for u in plan.outcomes.units for s in ("median", "mean", "p90")]
    names += ["never_ending"] * bool(plan.outcomes.unfinished_cols) + ["comeback"] * bool(plan.outcomes.midgame_last_col)
    return names + [f"win_{s}" for s in range(plan.outcomes.players)]


def pareto(points: np.ndarray) -> np.ndarray:
    """Rows not dominated by another (lower is better in every column)."""
    keep = np.ones(len(points), bool)
    for i in range(len(points)):
        no_worse = (points <= points[i]).all(axis=1)
        better = (points < points[i]).any(axis=1)
        keep[i] = not (no_worse & better).any()
    return keep


def pareto_dims(plan: TunePlan) -> list[tuple[str, Callable[[float], float]]]:
    dims = [(g.metric, g.badness) for g in plan.goals]
    if plan.objective is not None and plan.objective.metric not in [g.metric for g in plan.goals]:
        dims.append((plan.objective.metric, lambda v, s=plan.objective.sense: -s * v))
    return dims


def table(plan: TunePlan) -> pd.DataFrame:
    """One row per candidate (baseline last), ranked: confirmed candidates by their
    confirmation numbers, then the others by how far they got and their last search numbers."""
    conf = plan.spec["race"]["confidence"]
    rows = []
    everyone = plan.candidates + [plan.baseline]
    for c in everyone:
        if c.confirm is None and c.chunks:
            c.search = measure(c.games(), plan.outcomes, conf)
        m = c.confirm or c.search
        row = {"candidate": c.id, "setting": c.label, **{k: v for k, v in c.cell["labels"].items()},
               "stage": c.stage, "reason": c.reason,
               "search_games": sum(len(x) for x in c.chunks),
               "measured_on": "confirmation" if c.confirm else "search"}
        if plan.tuned_seat is not None:
            row["policy"] = c.cell["seats"][plan.tuned_seat]
        for name in metric_names(plan):
            e = m[name]
            row[name], row[f"{name}_low"], row[f"{name}_high"] = e.value, e.low, e.high
        for g in plan.goals:
            row[f"meets_{g.name}"] = g.verdict(m[g.metric])
        if c.chunks:  # the first rung's games, which every candidate played: comparable
            first = measure(c.chunks[0], plan.outcomes, conf)
            for name, _ in pareto_dims(plan):
                row[f"{name}_rung0"] = first[name].value
        k = rank_key(m, plan.goals, plan.objective)
        row["_key"] = (0 if c.confirm else 1, -c.last_rung, *k, c.id)
        rows.append(row)
    df = pd.DataFrame(rows)
    df = df.iloc[sorted(range(len(df)), key=lambda i: df["_key"].iloc[i])].drop(columns="_key").reset_index(drop=True)
    is_base = df["candidate"] == plan.baseline.id
    df = pd.concat([df[~is_base], df[is_base]], ignore_index=True)
    df.insert(0, "rank", list(range(1, int((~is_base).sum()) + 1)) + [None] * int(is_base.sum()))
    # Two Pareto sets, each over numbers measured on the same games: every candidate on the
    # first rung's games (noisy but fair), and the confirmed ones with the baseline.
    dims = pareto_dims(plan)

    def front(rows: pd.DataFrame, suffix: str) -> np.ndarray:
        pts = np.array([[f(v) for (_, f), v in zip(dims, r)] for r in rows[[n + suffix for n, _ in dims]].to_numpy()])
        return pareto(pts) if len(pts) else np.zeros(0, bool)

    cand = df[df["candidate"] != plan.baseline.id]
    df["pareto"] = False
    df.loc[cand.index, "pareto"] = front(cand, "_rung0")
    confirmed = df[df["measured_on"] == "confirmation"]
    df["pareto_confirmed"] = False
    df.loc[confirmed.index, "pareto_confirmed"] = front(confirmed, "")
    return df


def _pm(e_value, low, high, metric: str) -> str:
    if metric in ("win_rate", "seat_advantage", "never_ending", "comeback") or metric.startswith("win_"):
        return f"{e_value:.1%} +- {max(high - e_value, e_value - low):.1%}"
    return f"{e_value:.2f} ({low:.4g} to {high:.4g})"


def objective_of(plan: TunePlan) -> Objective | None:
    """What "better than the baseline" means: the objective, or for bot tuning the win rate."""
    return plan.objective or (WIN_RATE if plan.tuned_seat is not None else None)


WIN_RATE = Objective("win_rate", +1)


def versus_baseline(plan: TunePlan, c: Candidate, objective: Objective | None = None
                    ) -> tuple[float, float, float] | None:
    """c's objective (default: the plan's, objective_of) minus the baseline's on the
    confirmation games, in the objective's sense (positive: c is better): (difference, low,
    high); paired game by game for a mean, else from the two values and their intervals. None
    without an objective."""
    objective = objective or objective_of(plan)
    if objective is None:
        return None
    a, b = c.confirm[objective.metric], plan.baseline.confirm[objective.metric]
    if a.per_game is not None and b.per_game is not None:
        diff, half = paired_diff(a.per_game, b.per_game, plan.spec["race"]["confidence"])
        low, high = diff - half, diff + half
    else:  # two intervals: the difference lies within their extremes
        diff, low, high = a.value - b.value, a.low - b.high, a.high - b.low
    s = objective.sense
    return (s * diff, min(s * low, s * high), max(s * low, s * high))


def meets_goals(plan: TunePlan, m: dict[str, Est]) -> bool:
    return all(g.verdict(m[g.metric]) in ("yes", "likely") for g in plan.goals)


def recommended(plan: TunePlan, df: pd.DataFrame) -> int:
    """The candidate the tuner recommends: the top confirmed one, unless the baseline meets the
    goals and every confirmed candidate is worse than it on the objective (then the baseline's
    id: keep the rules or the bot as they are)."""
    confirmed = [plan.candidates[int(i)] for i in df.loc[df["measured_on"] == "confirmation", "candidate"]
                 if int(i) != plan.baseline.id]
    if not confirmed:
        return plan.baseline.id
    if objective_of(plan) is not None and meets_goals(plan, plan.baseline.confirm):
        if all(versus_baseline(plan, c)[0] < 0 for c in confirmed):
            return plan.baseline.id
    return confirmed[0].id


def recommendation(plan: TunePlan, df: pd.DataFrame) -> str:
    top = df.iloc[0]
    c = plan.candidates[int(top["candidate"])]
    if c.confirm is None:
        return "No candidate reached confirmation: keep the baseline."
    pick = recommended(plan, df)
    objective = objective_of(plan)
    if pick == plan.baseline.id:
        worse = "; ".join(f"{f.label}: {versus_baseline(plan, f)[0]:+.4g}" for f in
                          (plan.candidates[int(i)] for i in df.loc[(df["measured_on"] == "confirmation")
                                                                     & (df["candidate"] != plan.baseline.id),
                                                                     "candidate"]))
        return (f"Keep the baseline (the spec's table as given): it meets every goal, and every finalist is worse "
                f"on {objective.metric} than it on the same confirmation games ({worse}; positive would be "
                "better).")
    m = c.confirm
    unit = plan.outcomes.length_cols[0]
    bits = []
    if plan.tuned_seat is not None:
        s = plan.tuned_seat
        bits.append(f"The tuned bot `{c.cell['seats'][s]}` in seat {s} wins {_pm(m['win_rate'].value, m['win_rate'].low, m['win_rate'].high, 'win_rate')}")
        gain, low, _ = versus_baseline(plan, c, WIN_RATE)
        base = plan.baseline.confirm["win_rate"]
        bits.append(f"against `{plan.baseline.cell['seats'][s]}` in the same seat ({base.value:.1%}) that is "
                    f"{gain * 100:+.1f} +- {(gain - low) * 100:.1f} points on the same "
                    f"{plan.spec['race']['confirm_games']:,} fresh games")
        if low <= 0:
            bits.append("so the tuned bot is not shown to be better than the untuned one (within noise)")
    else:
        bits.append(f"With {c.label} the game lasts {m[f'mean_{unit}'].value:.1f} {unit} on average "
                    f"(median {m[f'median_{unit}'].value:g})")
        if plan.outcomes.minutes is not None:
            bits.append(f"about {m['median_minutes'].value:.0f} minutes (median)")
        f = m["win_0"]
        bits.append(f"the first seat wins {f.value:.1%} +- {max(f.high - f.value, f.value - f.low):.1%}")
        a = m["seat_advantage"]
        bits.append(f"the seat advantage is {a.value:.1%} ({a.low:.1%} to {a.high:.1%})")
        if "never_ending" in m:
            bits.append(f"{m['never_ending'].value:.2%} of games never end")
    met = [g for g in plan.goals if g.verdict(m[g.metric]) in ("yes", "likely")]
    missed = [g for g in plan.goals if g not in met]
    text = "; ".join(bits) + "."
    if plan.goals:
        text += (" It meets every goal." if not missed else
                 " It misses: " + "; ".join(f"{g.describe()} (measured {m[g.metric].value:.4g})" for g in missed) + ".")
        if any(g.verdict(m[g.metric]) == "likely" for g in met):
            text += " (Goals marked *likely* are met by the estimate but not by the whole interval: more games would settle them.)"
    vs = versus_baseline(plan, c)
    if vs is not None and vs[0] < 0:
        text += (f" It is worse than the baseline on {objective.metric} ({vs[0]:+.4g}, {vs[1]:+.4g} to {vs[2]:+.4g}; "
                 "positive would be better)")
        base_misses = [g.describe() for g in plan.goals if g.verdict(plan.baseline.confirm[g.metric])
                       in ("no", "unlikely")]
        text += (", but the baseline misses: " + "; ".join(base_misses) + "." if base_misses else ".")
    return text


def render(plan: TunePlan, df: pd.DataFrame, history: list[dict], manifest: dict, plots: list[str]) -> str:
    spec, race = plan.spec, plan.spec["race"]
    g = plan.game
    lines = [f"# Tuning {spec['name']}: {g.title}", ""]
    if spec["description"]:
        lines += [spec["description"], ""]
    lines += [
        f"{spec['players']} players; seats: {', '.join(f'`{s}`' for s in spec['seats'])}; "
        f"base rules: {json.dumps(spec['rules']) if spec['rules'] else 'the defaults'}; seed {spec['seed']}.",
        "",
        "Searched: " + "; ".join(f"`{k}` in {', '.join(map(str, v))}" for k, v in spec["search"].items())
        + f" ({len(plan.candidates)} candidates" + (f", {_chosen_how(plan)} from {spec['grid']:,}" if spec["grid"] > len(plan.candidates) else "") + ").",
        "",
        "Goals: " + ("; ".join(x.describe() for x in plan.goals) or "none")
        + (f". Objective: {plan.objective.describe()}." if plan.objective else "."),
        "",
        "## Recommendation",
        "",
        recommendation(plan, df),
        "",
    ]
    conf = race["confidence"]
    # The report shows the outcomes the spec asks about and a few landmarks; the CSV has all.
    unit = plan.outcomes.length_cols[0]
    shown = ["win_rate", "seat_advantage"] + [g.metric for g in plan.goals]
    shown += [plan.objective.metric] if plan.objective else []
    shown += [f"mean_{unit}"] + ["median_minutes"] * (plan.outcomes.minutes is not None)
    shown += ["never_ending"] * bool(plan.outcomes.unfinished_cols)
    shown += [f"win_{s}" for s in range(plan.outcomes.players)] if plan.tuned_seat is None else []
    shown = list(dict.fromkeys(shown))
    head = ["rank", "setting", "stage"] + [METRIC_LABEL.get(n, n.replace("_", " ")) for n in shown]
    head += [f"meets {x.name}" for x in plan.goals] + ["Pareto"]

    def table_lines(rows: pd.DataFrame, pareto_col: str) -> list[str]:
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in rows.itertuples(index=False):
            r = r._asdict()
            cells = ["" if pd.isna(r["rank"]) else str(int(r["rank"])), r["setting"] if r["stage"] != "baseline" else "baseline", r["stage"]]
            cells += [_pm(r[n], r[f"{n}_low"], r[f"{n}_high"], n) for n in shown]
            cells += [r[f"meets_{x.name}"] for x in plan.goals] + ["yes" if r[pareto_col] else ""]
            out.append("| " + " | ".join(cells) + " |")
        return out

    confirmed = df[df["measured_on"] == "confirmation"]
    lines += [f"## Confirmed ({race['confirm_games']:,} fresh games each, {conf:.0%} intervals)", ""]
    lines += table_lines(confirmed, "pareto_confirmed")
    lines += ["", "(Pareto: no other confirmed row, the baseline included, is better on every goal"
              + (" and the objective" if plan.objective else "") + ".)"]
    paired_lines = []
    objective = objective_of(plan)
    for c in [plan.candidates[int(i)] for i in confirmed["candidate"] if int(i) != plan.baseline.id]:
        vs = versus_baseline(plan, c)
        if vs is not None:
            verdict = ("better than the baseline" if vs[1] > 0 else "WORSE than the baseline" if vs[2] < 0
                       else "better by the estimate, within noise" if vs[0] > 0 else "WORSE by the estimate, within noise")
            paired_lines.append(f"- {c.label}: {objective.metric} {vs[0]:+.4g} ({vs[1]:+.4g} to {vs[2]:+.4g}): "
                                f"{verdict}")
    if paired_lines:
        lines += ["", f"Each finalist against the baseline on the same confirmation games ({objective.describe()}; "
                  "positive is better):", ""] + paired_lines
    lines += ["", "## The race", "",
              f"Every candidate played the same search games (common random numbers); drops use "
              f"{1 - (1 - conf) / max(len(plan.candidates), 1):.4%} intervals (Bonferroni over "
              f"{len(plan.candidates)} candidates). Halving: {'on' if race['halving'] else 'off'}, eta {race['eta']}.",
              "", "| rung | games per candidate | candidates | missed a goal | clearly worse | halving | left |",
              "|---:|---:|---:|---:|---:|---:|---:|"]
    for h in history:
        lines.append(f"| {h['rung']} | {h['games']:,} | {h['candidates']} | {h['missed_goal']} | {h['clearly_worse']} "
                     f"| {h['halving']} | {h['left']} |")
    total = int(df["search_games"].sum())
    lines += ["", f"Search games played: {total:,} (every candidate to {race['max_games']:,} would have been "
              f"{len(plan.candidates) * race['max_games']:,}); confirmation games: "
              f"{(len(confirmed)) * race['confirm_games']:,}.", ""]
    if plan.proposed is not None:
        p = plan.proposed
        lines += [f"Before the race, NTBEA evaluated {p['evaluations']:,} grid points ({p['points']:,} distinct of "
                  f"{spec['grid']:,}) on {race['proposal_games']:,} games each ({p['games']:,} games, not used "
                  f"again), and the race took the {len(plan.candidates)} its model rated best (proposals.json).", ""]
    par = df[df["pareto"]]
    lines += ["## Pareto set of the search", "",
              "Candidates no other candidate beats on every goal" + (" and the objective" if plan.objective else "")
              + f", on the {race['first_games']:,} games of the first rung, which every candidate played "
              f"({len(par)} of {len(plan.candidates)}; noisy at that size, so a guide to the trade-off, not a verdict):",
              ""]
    lines += [f"- {r.setting}: " + ", ".join(f"{n.replace('_', ' ')} {r._asdict()[n + '_rung0']:.4g}" for n, _ in pareto_dims(plan))
              for r in par.itertuples(index=False)]
    lines += ["", "## All candidates (top 25)", "",
              "Numbers from each candidate's last measurement (confirmation, or its last search rung); "
              "Pareto as in the section above.", ""]
    lines += table_lines(df[df["stage"] != "baseline"].head(25), "pareto")
    for p in plots:
        lines += ["", f"![{p}]({p})"]
    lines += ["", "Tables: candidates.csv / candidates.parquet (every candidate, every outcome with its interval), "
              "rungs.csv; per-game rows in games/cell=NNN/ (chunk k < 50000: search rung k; "
              "50000 and up: confirmation).", ""]
    if plan.outcomes.minutes is not None:
        lines += ["Minutes are an estimate from the number of turns (see docs/tuning.md), not a measurement.", ""]
    lines += [f"monosim {manifest['versions'].get('monosim')}, rules {g.rules.version}, "
              f"{manifest['started']} to {manifest['finished']}.", ""]
    return "\n".join(lines)


def _chosen_how(plan: TunePlan) -> str:
    return "proposed by NTBEA" if plan.spec["race"]["proposer"] == "ntbea" else "sampled"


def plot_tradeoff(plan: TunePlan, df: pd.DataFrame, path: Path) -> None:
    """Two of the outcomes against each other: every candidate on the first rung's games, the
    Pareto set (over all goals and the objective, so points may look dominated in two of them),
    and the confirmed ones and the baseline with their intervals."""
    from sim.core.summary import figure

    # x: the first goal; y: the objective when there is one (the trade-off the spec asks about)
    dims = [n for n, _ in pareto_dims(plan)]
    if plan.objective is not None and len(dims) > 2:
        dims = [dims[0], plan.objective.metric]
    cand = df[df["stage"] != "baseline"]
    if len(dims) < 2:  # one outcome: against the first searched value when it is a number
        axis = next(iter(plan.spec["search"]))
        numeric = pd.to_numeric(df[axis], errors="coerce") if axis in df else None
        if numeric is not None and numeric[cand.index].notna().all():
            catalog, param = _catalog(plan.spec["game"]), axis.split(".")[-1]
            if axis.startswith("seat.") and catalog is not None and param in catalog.params:
                # the baseline's own value of the parameter (its default when not written)
                spec = plan.baseline.cell["seats"][plan.tuned_seat]
                numeric[df["stage"] == "baseline"] = catalog.parse(spec)[2][catalog.params[param].slot]
            df = df.assign(**{axis: numeric, f"{axis}_rung0": numeric})
            dims = [axis] + dims
        else:
            df = df.assign(rank_rung0=df["rank"])
            dims = ["rank"] + dims
        cand = df[df["stage"] != "baseline"]
    x, y = dims[0], dims[1]
    fig = figure(figsize=(7, 5))
    ax = fig.subplots()
    ax.scatter(cand[x + "_rung0"], cand[y + "_rung0"], s=12, color="0.7", label="candidates (first rung)")
    par = cand[cand["pareto"]]
    ax.scatter(par[x + "_rung0"], par[y + "_rung0"], s=30, color="C0", label="Pareto set (first rung)")
    for label, rows, colour in (("confirmed", cand[cand["measured_on"] == "confirmation"], "C1"),
                                ("baseline", df[df["stage"] == "baseline"], "C3")):
        if len(rows):
            xerr = [rows[x] - rows[f"{x}_low"], rows[f"{x}_high"] - rows[x]] if f"{x}_low" in rows else None
            ax.errorbar(rows[x], rows[y], xerr=xerr, yerr=[rows[y] - rows[f"{y}_low"], rows[f"{y}_high"] - rows[y]],
                        fmt="o", color=colour, label=label, capsize=3)
    top = cand.iloc[0]
    ax.annotate(top["setting"], (top[x], top[y]), fontsize=7, xytext=(5, 5), textcoords="offset points")
    for g in plan.goals:
        for bound in (g.low, g.high):
            if bound is not None and g.metric in (x, y):
                (ax.axvline if g.metric == x else ax.axhline)(bound, color="C2", ls="--", lw=1)
    ax.set_xlabel(x.replace("_", " "))
    ax.set_ylabel(y.replace("_", " "))
    ax.set_title(f"{plan.spec['name']}: trade-off" + (" (dashed: goal bounds)" if plan.goals else ""), fontsize=10)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def most_search_games(race: dict, candidates: int) -> int:
    """The most games a race of this many candidates plays before its confirmation (drops
    other than halving only lower it)."""
    steps, most, alive = rungs(race), 0, candidates
    for r, n in enumerate(steps):
        most += alive * (n - (steps[r - 1] if r else 0))
        if alive <= race["finalists"]:
            break
        if race["halving"]:  # its keep, and up to `finalists` more that read as meeting the goals
            alive = min(alive, max(race["finalists"], math.ceil(alive / race["eta"])) + race["finalists"])
    return most


def describe_plan(plan: TunePlan) -> str:
    """What `monosim tune --check` prints: the candidates, goals and the most games it can take."""
    race = plan.spec["race"]
    steps = rungs(race)
    k = len(plan.candidates) if race["proposer"] == "random" else race["sample"]
    most = most_search_games(race, k)
    if race["proposer"] == "random":
        lines = [f"{plan.spec['name']}: {k} candidates ({plan.game.title}, {plan.spec['players']} players)"]
        lines += [f"  {c.id}: {c.label}" for c in plan.candidates[:20]] + (["  ..."] if k > 20 else [])
    else:
        lines = [f"{plan.spec['name']}: {k} candidates to be proposed by NTBEA from a grid of {plan.spec['grid']:,} "
                 f"({plan.game.title}, {plan.spec['players']} players)",
                 f"NTBEA: {race['proposals']:,} evaluations of {race['proposal_games']:,} games "
                 f"({race['proposals'] * race['proposal_games']:,} games) before the race"]
    lines += ["goals: " + ("; ".join(g.describe() for g in plan.goals) or "none")
              + (f"; objective: {plan.objective.describe()}" if plan.objective else "")]
    lines += [f"rungs (search games per candidate): {', '.join(f'{n:,}' for n in steps)}",
              f"at most {most:,} search games{' (with halving)' if race['halving'] else ''} and "
              f"{(min(race['finalists'], k) + 1) * race['confirm_games']:,} confirmation games"]
    return "\n".join(lines) + "\n"


# ---- running it: the work folder, the pool, the output folder -----------------------------


def work_dir(out: Path) -> Path:
    return out.with_name(out.name + ".partial")


def default_out(plan: TunePlan, out_root: Path) -> Path:
    import datetime as dt

    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    return Path(out_root) / plan.spec["name"] / f"tune-{stamp}"


def find_partial(plan: TunePlan, out_root: Path) -> Path:
    """The output folder of the latest unfinished tune of this spec (for --resume)."""
    parent = Path(out_root) / plan.spec["name"]
    for p in sorted(parent.glob("tune-*.partial"), reverse=True) if parent.is_dir() else []:
        if (p / "tune.json").is_file():
            if not same_cells(read_json(p / "tune.json"), plan.resolved()):
                raise UsageError(f"--resume: the spec has changed since {p} was started; run without --resume")
            return p.with_name(p.name[: -len(".partial")])
    raise UsageError(f"--resume: no unfinished tune of {plan.spec['name']!r} under {parent}; run without --resume")


def make_player(plan: TunePlan, run: RunDir, pool, threads: int | None, progress: bool) -> PlayBatch:
    """play([(candidate, chunk, first, n), ...]): stored chunks are read back (resume), the rest
    are played on the pool, trimmed to the columns measure() needs and stored."""

    def play(jobs):
        frames: dict[int, pd.DataFrame] = {}
        todo = []
        for i, (c, k, first, n) in enumerate(jobs):
            if k in run.stored(c.id):
                frames[i] = run.read_chunk(c.id, k)
            else:
                todo.append(i)

        def keep(i: int, df: pd.DataFrame) -> None:
            c, k, _, _ = jobs[i]
            run.write_chunk(c.id, k, df)
            frames[i] = df

        play_on_pool(plan, pool, threads, progress, {i: (jobs[i][0].cell, jobs[i][2], jobs[i][3]) for i in todo},
                     keep, f"{len(jobs)} candidates")
        return [frames[i] for i in range(len(jobs))]

    return play


def play_on_pool(plan: TunePlan, pool, threads: int | None, progress: bool, jobs: dict[int, tuple[dict, int, int]],
                 done: Callable[[int, pd.DataFrame], None], what: str) -> None:
    """Play jobs {key: (cell, first game, games)} on the pool; done(key, rows) as each ends."""
    cols = plan.outcomes.columns()
    bar = progress_bar(progress)
    with bar:
        task = bar.add_task(what, total=sum(n for _, _, n in jobs.values()))
        pending: dict = {}
        queue = list(jobs)
        while queue or pending:
            while queue and len(pending) < pool.capacity:
                i = queue.pop(0)
                cell, first, n = jobs[i]
                pending[pool.submit(play_chunk, plan.spec["game"], cell, plan.spec["seed"], first, n, threads)] = i
            fut = pool.wait_one(pending)
            i = pending.pop(fut)
            done(i, fut.result()[cols].reset_index(drop=True))
            bar.advance(task, jobs[i][2])


def tune(plan: TunePlan, out: Path, pool, threads: int | None = None, progress: bool = True,
         resume: bool = False, save_preset: bool = False, log: Callable[[str], None] = lambda s: None) -> str:
    """Race, confirm and write the output folder; returns the report."""
    work = work_dir(out)
    if resume:
        if not (work / "tune.json").is_file():
            raise UsageError(f"--resume: {work} is not an unfinished tune")
        if not same_cells(read_json(work / "tune.json"), plan.resolved()):
            raise UsageError(f"--resume: the spec has changed since {work} was started; run without --resume")
        for p in (work / "games").glob("cell=*/.*.tmp"):
            p.unlink(missing_ok=True)
    else:
        results.check_new_dir(work)
        work.mkdir(parents=True)
        (work / "spec.toml").write_text(plan.source)
        results.write_json(plan.resolved())(work / "tune.json")
    started = read_json(work / "started.json").get("started", utc_now()) if (work / "started.json").exists() else utc_now()
    results.write_json({"started": started})(work / "started.json")
    run = RunDir(work)
    if plan.spec["race"]["proposer"] != "random":
        saved = work / "proposals.json"
        if saved.is_file():
            plan.proposed = read_json(saved)
            plan.set_candidates([tuple(c) for c in plan.proposed["chosen"]])
        else:
            def play_cells(jobs):
                frames: dict[int, pd.DataFrame] = {}
                play_on_pool(plan, pool, threads, False, dict(enumerate(jobs)), frames.__setitem__, "ntbea")
                return [frames[i] for i in range(len(jobs))]

            propose(plan, play_cells, log)
            results.write_json(plan.proposed)(saved.with_suffix(".tmp"))
            saved.with_suffix(".tmp").replace(saved)  # whole or absent, should this be interrupted
    play = make_player(plan, run, pool, threads, progress)
    history = run_race(plan, play, log)
    confirm(plan, play, log)
    df = table(plan)
    manifest = results.manifest(
        name=plan.spec["name"], game=plan.spec["game"], rules_version=plan.game.rules.version,
        seed=plan.spec["seed"], candidates=len(plan.candidates), common_random_numbers=True,
        confirm_first_game=CONFIRM_FIRST, started=started, finished=utc_now(), status="complete",
    )
    preset_text = None
    best = plan.candidates[int(df.iloc[0]["candidate"])]
    if plan.tuned_seat is not None and plan.spec["preset"]:
        preset_text = preset_toml(plan, best, df)
    plots = [] if not len(df) else ["tradeoff.png"]
    report = render(plan, df, history, manifest, plots)
    writers = {
        "spec.toml": results.write_text(plan.source),
        "tune.json": results.write_json(plan.resolved()),
        "candidates.csv": lambda p: df.to_csv(p, index=False),
        "candidates.parquet": lambda p: df.astype({"rank": "Int64"}).to_parquet(p, index=False),
        "rungs.csv": lambda p: pd.DataFrame(history).to_csv(p, index=False),
        "tradeoff.png": lambda p: plot_tradeoff(plan, df, p),
        "report.md": results.write_text(report),
        "games": lambda p: shutil.copytree(work / "games", p),
        "manifest.json": results.write_json(manifest),
    }
    if plan.proposed is not None:
        writers["proposals.json"] = results.write_json(plan.proposed)
    if preset_text is not None:
        writers["preset.toml"] = results.write_text(preset_text)
    results.write_dir(out, writers)
    shutil.rmtree(work, ignore_errors=True)
    if save_preset:
        if preset_text is None:
            raise UsageError("--save-preset: the spec names no preset (add preset = \"NAME\" to a bot tuning spec)")
        if recommended(plan, df) == plan.baseline.id:
            log(f"no preset saved: every finalist is worse than {plan.baseline.cell['seats'][plan.tuned_seat]} "
                "on the confirmation games (report.md)")
            return report
        from strategies.catalog import save_preset as save

        spec, doc = _preset_entry(plan, best, df)
        path = save(_catalog(plan.spec["game"]), plan.spec["preset"], spec, doc)
        log(f"saved preset {plan.spec['preset']} = {spec} in {path}")
        gain, low, _ = versus_baseline(plan, best, WIN_RATE)
        if low <= 0:
            log(f"note: the tuned policy is not shown to beat {plan.baseline.cell['seats'][plan.tuned_seat]} "
                f"({gain * 100:+.1f} +- {(gain - low) * 100:.1f} points)")
    return report


def _preset_entry(plan: TunePlan, best: Candidate, df: pd.DataFrame) -> tuple[str, str]:
    m = best.confirm["win_rate"]
    gain, low, _ = versus_baseline(plan, best, WIN_RATE)
    doc = (f"monosim tune {plan.spec['name']} (seed {plan.spec['seed']}): seat {plan.tuned_seat} of "
           f"{', '.join(plan.spec['seats'])} wins {m.value:.1%}, {gain * 100:+.1f} +- {(gain - low) * 100:.1f} points "
           f"over {plan.baseline.cell['seats'][plan.tuned_seat]} on {plan.spec['race']['confirm_games']:,} fresh games")
    return best.cell["seats"][plan.tuned_seat], doc


def preset_toml(plan: TunePlan, best: Candidate, df: pd.DataFrame) -> str:
    from strategies.catalog import _toml_string

    spec, doc = _preset_entry(plan, best, df)
    return (f"# The tuned policy; add it to strategies/presets/{plan.spec['game']}.toml (or run with --save-preset)\n\n"
            f"[{plan.spec['preset']}]\nspec = {_toml_string(spec)}\ndoc = {_toml_string(doc)}\n")


def stderr_log(msg: str) -> None:
    print(msg, file=sys.stderr)
