"""Game-agnostic summaries of a per-game results table: long per-seat tables, win rates with
Wilson / normal intervals by seat and by policy, game-length statistics, Markdown tables and a
win-rate plot.

A per-game table has one row per game with, for each seat s, the columns ``<stat>_<s>`` and
``policy_<s>``; ``win_<s>`` is the seat's share of that game's win (1, 0, or 1/k for a k-way
tie; every share 0 when nobody won). Every game's api builds its summaries from these.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.core.stats import mean_ci, wilson


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


def win_rate_by_seat(seats: pd.DataFrame, n_games: int, means=()) -> pd.DataFrame:
    """Wins, win rate and its Wilson interval per (seat, policy), plus the mean of each column
    in `means`."""
    agg = {"wins": ("win", "sum")}
    agg.update({m: (m, "mean") for m in means})
    by_seat = seats.groupby(["seat", "policy"], sort=True).agg(**agg).reset_index()
    by_seat.insert(2, "games", n_games)
    by_seat["win_rate"] = by_seat["wins"] / n_games
    by_seat["ci_low"], by_seat["ci_high"] = wilson(by_seat["wins"], n_games)
    return by_seat


def win_rate_by_policy(seats: pd.DataFrame, players: int) -> pd.DataFrame:
    """Per policy: a policy holding k seats has a per-seat win rate of (its share per game) / k;
    the interval treats games as the independent units."""
    rows = []
    for policy, grp in seats.groupby("policy", sort=True):
        k = grp["seat"].nunique()
        per_game = grp.groupby("game")["win"].sum() / k
        mean, half = mean_ci(per_game)
        rows.append(
            {
                "policy": policy,
                "seats": k,
                "win_rate": mean,
                "ci_low": mean - half,
                "ci_high": mean + half,
                "fair_share": 1 / players,
            }
        )
    return pd.DataFrame(rows).sort_values("win_rate", ascending=False, ignore_index=True)


def length_stats(games: pd.DataFrame, cols) -> pd.DataFrame:
    """Mean (with interval), sd, median and 10%-90% range of each column."""
    n = len(games)
    out = {}
    for col in cols:
        mean, half = mean_ci(games[col])
        out[col] = {
            "mean": mean,
            "ci": half,
            "sd": float(games[col].std(ddof=1)) if n > 1 else float("nan"),
            "median": float(games[col].median()),
            "p10": float(games[col].quantile(0.1)),
            "p90": float(games[col].quantile(0.9)),
        }
    return pd.DataFrame(out).T


def length_lines(length: pd.DataFrame) -> list[str]:
    lines = ["| | mean | 95% CI | sd | median | 10% - 90% |", "|---|---:|---:|---:|---:|---|"]
    for name, r in length.iterrows():
        lines.append(
            f"| {name} | {r['mean']:.2f} | +-{r['ci']:.3f} | {r['sd']:.2f} | {r['median']:.0f} "
            f"| {r['p10']:.0f} - {r['p90']:.0f} |"
        )
    return lines


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


def plot_win_rates(by_seat: pd.DataFrame, path, title: str) -> None:
    """Bar chart of win rate by seat with 95% error bars and the fair-share line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
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
    fig.savefig(path, dpi=120)
    plt.close(fig)
