"""Game-agnostic summaries of a per-game results table: long per-seat tables, win rates with
Wilson / normal intervals by seat and by policy, game-length statistics, Markdown tables and a
win-rate plot.

A per-game table has one row per game with, for each seat s, the columns ``<stat>_<s>`` and
``policy_<s>``; ``win_<s>`` is the seat's share of that game's win (1, 0, or 1/k for a k-way
tie; every share 0 when nobody won). Every game's summary is built from a ``Tally`` of such
tables, so that a run is summarized chunk by chunk in bounded memory.
"""

from __future__ import annotations

import functools
import io
from fractions import Fraction

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim.core.stats import wilson, wilson_of_shares, z_value


def n_seats(games: pd.DataFrame) -> int:
    return games.attrs.get("players") or sum(c.startswith("policy_") for c in games.columns)


def seat_table(games: pd.DataFrame, seat_cols) -> pd.DataFrame:
    """The per-game table in long form: one row per (game, seat)."""
    parts = []
    for s in range(n_seats(games)):
        part = pd.DataFrame({"game": games["game"], "seat": s, "policy": games[f"policy_{s}"].astype(str)})
        for name in seat_cols:
            part[name] = games[f"{name}_{s}"]
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


# Win shares are 1/k for a k-way tie of up to MAX_PLAYERS seats: whole numbers of 1/SHARE_UNIT.
SHARE_UNIT = 840  # lcm(1, ..., 8)


def _exact_sum(values: np.ndarray) -> Fraction:
    """The exact sum of a column: whole numbers as an int, win shares in whole 1/SHARE_UNIT
    (any other float exactly, as a fraction): the same whatever the chunks it came in."""
    if values.dtype.kind in "iub":
        return Fraction(int(np.sum(values, dtype=np.int64)))
    scaled = values.astype(np.float64) * SHARE_UNIT
    whole = np.rint(scaled)
    if np.all(np.abs(scaled - whole) < 1e-6):
        return Fraction(int(np.sum(whole.astype(np.int64))), SHARE_UNIT)
    return sum((Fraction(float(v)) for v in values), Fraction(0))


@dataclass
class Tally:
    """What a summary is computed from, added up game by game, so that a run of any length is
    summarized chunk by chunk in the memory of one chunk: the number of games, the sum of every
    numeric column of the per-game table (and of the game's derived 0/1 columns, such as
    "shared win"), a histogram of each length column (its quantiles are then exact), and per
    policy the sum and sum of squares of its per-game win share. `attrs` are the table's
    (seed, players, policies, rules). Every sum is exact (whole numbers, and win shares in
    whole parts of a game), so a summary is the same to the last bit whatever the chunk size
    or thread count that fed it."""

    n: int = 0
    exact: dict[str, Fraction] = field(default_factory=dict)
    hists: dict[str, np.ndarray] = field(default_factory=dict)
    policy_exact: dict[str, list[Fraction]] = field(default_factory=dict)  # policy -> [sum, sum of squares]
    attrs: dict = field(default_factory=dict)

    def add(self, games: pd.DataFrame, length_cols=(), derived: dict[str, pd.Series] | None = None) -> "Tally":
        """Add a table of games (a chunk of the run) to the tally; returns the tally."""
        if not self.attrs:
            self.attrs = dict(games.attrs)
        self.n += len(games)
        columns = {c: games[c] for c in games.columns if games[c].dtype.kind in "iufb"} | (derived or {})
        for name, column in columns.items():
            self.exact[name] = self.exact.get(name, Fraction(0)) + _exact_sum(np.asarray(column))
        for col in length_cols:
            counts = np.bincount(games[col].to_numpy())
            have = self.hists.get(col, np.zeros(0, np.int64))
            size = max(len(have), len(counts))
            self.hists[col] = np.pad(have, (0, size - len(have))) + np.pad(counts, (0, size - len(counts)))
        policies = list(self.attrs["policies"])
        for policy in dict.fromkeys(policies):
            held = [s for s, p in enumerate(policies) if p == policy]
            # The policy's share of a game: its seats' shares over len(held), in whole parts.
            units = np.rint(sum(games[f"win_{s}"].to_numpy(dtype=np.float64) for s in held) * SHARE_UNIT).astype(np.int64)
            scale = Fraction(1, SHARE_UNIT * len(held))
            total, squares = self.policy_exact.get(policy, [Fraction(0), Fraction(0)])
            self.policy_exact[policy] = [total + int(units.sum()) * scale,
                                         squares + int(np.sum(units * units)) * scale * scale]
        return self

    @property
    def sums(self) -> dict[str, float]:
        """Each column's sum (exact, then rounded once)."""
        return {name: float(v) for name, v in self.exact.items()}

    @property
    def policy_shares(self) -> dict[str, np.ndarray]:
        """Per policy: [sum, sum of squares] of its per-game win share."""
        return {p: np.array([float(t), float(q)]) for p, (t, q) in self.policy_exact.items()}

    def mean(self, column: str) -> float:
        return float(self.exact[column] / self.n)

    def seat_sums(self, stat: str) -> np.ndarray:
        return np.array([float(self.exact[f"{stat}_{s}"]) for s in range(self.attrs["players"])])


def win_rate_by_seat(t: Tally, means=()) -> pd.DataFrame:
    """Per seat (and its policy): games, wins, the mean of each per-seat stat in `means`, win
    rate and its Wilson interval."""
    players = t.attrs["players"]
    by_seat = pd.DataFrame({"seat": np.arange(players), "policy": list(t.attrs["policies"]), "games": t.n,
                            "wins": t.seat_sums("win")})
    for m in means:
        by_seat[m] = t.seat_sums(m) / t.n
    by_seat["win_rate"] = by_seat["wins"] / t.n
    by_seat["ci_low"], by_seat["ci_high"] = wilson(by_seat["wins"], t.n)
    return by_seat


def seat_means(t: Tally, stats) -> pd.DataFrame:
    """Per seat (and its policy): the mean of each per-seat stat in `stats`, per game."""
    table = pd.DataFrame({"seat": np.arange(t.attrs["players"]), "policy": list(t.attrs["policies"])})
    for stat in stats:
        table[stat] = t.seat_sums(stat) / t.n
    return table


def win_rate_by_policy(t: Tally) -> pd.DataFrame:
    """Per policy: a policy holding k seats has a per-seat win rate of (its share per game) / k;
    the Wilson interval treats games as the independent units (stats.wilson_of_shares)."""
    policies = list(t.attrs["policies"])
    rows = []
    for policy, (total, squares) in sorted(t.policy_shares.items()):
        low, high = wilson_of_shares(total, squares, t.n)
        rows.append({"policy": policy, "seats": policies.count(policy), "win_rate": total / t.n, "ci_low": low,
                     "ci_high": high, "fair_share": 1 / len(policies)})
    return pd.DataFrame(rows).sort_values("win_rate", ascending=False, ignore_index=True)


def mean_ci_of_sums(total: float, squares: float, n: int) -> tuple[float, float]:
    """Mean and the half-width of its normal-approximation interval, from the sum and the sum of
    squares of n values (as stats.mean_ci from the values)."""
    if n < 2:
        return (total / n if n else float("nan")), float("nan")
    mean = total / n
    variance = max(squares - n * mean * mean, 0.0) / (n - 1)
    return mean, z_value() * float(np.sqrt(variance)) / np.sqrt(n)


def quantile_of_counts(counts: np.ndarray, q: float) -> float:
    """The q quantile (pandas' linear interpolation) of the values 0, 1, 2, ... counted in
    `counts`: exact, from the histogram alone."""
    n = int(counts.sum())
    position = (n - 1) * q
    below, frac = int(np.floor(position)), position - np.floor(position)
    cumulative = np.cumsum(counts)
    lo = int(np.searchsorted(cumulative, below, side="right"))
    hi = int(np.searchsorted(cumulative, min(below + 1, n - 1), side="right"))
    return float(lo + frac * (hi - lo))


def length_stats(t: Tally, cols) -> pd.DataFrame:
    """Mean (with interval), sd, median and 10%-90% range of each length column."""
    out = {}
    for col in cols:
        counts = t.hists[col]
        values = np.arange(len(counts), dtype=np.float64)
        total, squares = float(counts @ values), float(counts @ (values * values))
        mean, half = mean_ci_of_sums(total, squares, t.n)
        sd = float(np.sqrt(max(squares - t.n * mean * mean, 0.0) / (t.n - 1))) if t.n > 1 else float("nan")
        out[col] = {"mean": mean, "ci": half, "sd": sd, "median": quantile_of_counts(counts, 0.5),
                    "p10": quantile_of_counts(counts, 0.1), "p90": quantile_of_counts(counts, 0.9)}
    return pd.DataFrame(out).T


def length_lines(length: pd.DataFrame) -> list[str]:
    lines = ["| | mean | 95% CI | sd | median | 10% - 90% |", "|---|---:|---:|---:|---:|---|"]
    for name, r in length.iterrows():
        lines.append(
            f"| {name} | {r['mean']:.2f} | +-{r['ci']:.3f} | {r['sd']:.2f} | {r['median']:.0f} "
            f"| {r['p10']:.0f} - {r['p90']:.0f} |"
        )
    return lines


def rules_lines(t: Tally) -> list[str]:
    """The line under a report's title that says which rules were played (every change from the
    defaults), from the tally's attrs."""
    from sim.core.game import get
    from sim.core.json_output import rules_sentence

    if "game" not in t.attrs or "rules" not in t.attrs:
        return []
    return ["", rules_sentence(get(t.attrs["game"]), t.attrs["rules"])]


def policy_lines(by_policy: pd.DataFrame) -> list[str]:
    lines = ["| policy | seats | win rate | 95% CI |", "|---|---:|---:|---|"]
    for r in by_policy.itertuples():
        lines.append(f"| {r.policy} | {r.seats} | {r.win_rate:.1%} | {r.ci_low:.1%} - {r.ci_high:.1%} |")
    return lines


def policy_and_length_lines(summary: dict, length_title: str = "Game length") -> list[str]:
    """The report sections every game shares: win rate by policy, then game length."""
    return (
        ["", "## Win rate by policy (per seat held; 95% interval)", ""]
        + policy_lines(summary["by_policy"])
        + ["", f"## {length_title}", ""]
        + length_lines(summary["length"])
    )


def figure(**kwargs):
    """A matplotlib Figure made without pyplot: no backend is chosen or switched (a notebook's
    inline plots keep working) and no global state is left behind. Jupyter shows it as a PNG
    even where pyplot was never imported."""
    return _shown_figure_class()(**kwargs)


@functools.cache
def _shown_figure_class():
    """The Figure class `figure` makes, built once (matplotlib is imported only when plotting)."""
    from matplotlib.figure import Figure

    class ShownFigure(Figure):
        def _repr_png_(self) -> bytes:
            buffer = io.BytesIO()
            self.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
            return buffer.getvalue()

    return ShownFigure


def plot_win_rates(by_seat: pd.DataFrame, title: str, path=None):
    """Bar chart of win rate by seat with 95% error bars and the fair-share line: the Figure,
    also written to `path` when one is given."""
    fig = figure(figsize=(7, 4))
    ax = fig.subplots()
    x = np.arange(len(by_seat))
    # Clipped: at a win rate of 0 (or 1) the Wilson bound can sit a rounding error past it.
    err = np.clip(np.vstack([by_seat["win_rate"] - by_seat["ci_low"], by_seat["ci_high"] - by_seat["win_rate"]]), 0, None)
    ax.bar(x, by_seat["win_rate"], yerr=err, capsize=6, color="#3b7dd8")
    ax.axhline(1 / len(by_seat), color="gray", ls="--", lw=1, label="fair share")
    ax.set_xticks(x, [f"seat {r.seat}\n{r.policy}" for r in by_seat.itertuples()], fontsize=8)
    ax.set_ylabel("win rate")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=120)
    return fig
