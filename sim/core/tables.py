"""Game-agnostic result tables: per-seat long form, win rates with intervals by seat and by
policy, game-length summaries and the win-rate plot.

A game's per-game table has one row per game with columns ``<stat>_<seat>`` for every per-seat
statistic and ``policy_<seat>``; ``win_<seat>`` is the seat's share of the win (1, or 1/k for a
k-way tie). Each game's api builds that table and calls these helpers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.core.stats import mean_ci, wilson


def n_players(games: pd.DataFrame) -> int:
    return games.attrs.get("players") or sum(c.startswith("policy_") for c in games.columns)


def seat_table(games: pd.DataFrame, seat_cols: tuple[str, ...]) -> pd.DataFrame:
    """The per-game table in long form: one row per (game, seat)."""
    parts = []
    for s in range(n_players(games)):
        part = pd.DataFrame({"game": games["game"], "seat": s, "policy": games[f"policy_{s}"].astype(str)})
        for name in seat_cols:
            part[name] = games[f"{name}_{s}"].to_numpy()
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def win_rates_by_seat(seats: pd.DataFrame, n_games: int, means: tuple[str, ...] = ()) -> pd.DataFrame:
    """Win rate of each seat with a 95% Wilson interval, plus the mean of each column in `means`."""
    aggs = {"wins": ("win", "sum")}
    aggs.update({m: (m, "mean") for m in means})
    by_seat = seats.groupby(["seat", "policy"], sort=True).agg(**aggs).reset_index()
    by_seat.insert(2, "games", n_games)
    by_seat["win_rate"] = by_seat["wins"] / n_games
    by_seat["ci_low"], by_seat["ci_high"] = wilson(by_seat["wins"], n_games)
    return by_seat


def win_rates_by_policy(seats: pd.DataFrame, players: int) -> pd.DataFrame:
    """Per policy: a policy holding k seats has a per-seat win rate of (its share per game) / k;
    the interval treats games as the independent units."""
    rows = []
    for policy, grp in seats.groupby("policy", sort=True):
        k = grp["seat"].nunique()
        per_game = grp.groupby("game")["win"].sum() / k
        mean, half = mean_ci(per_game)
        rows.append({"policy": policy, "seats": k, "win_rate": mean, "ci_low": mean - half,
                     "ci_high": mean + half, "fair_share": 1 / players})
    return pd.DataFrame(rows).sort_values("win_rate", ascending=False, ignore_index=True)


def length_summary(games: pd.DataFrame, cols: tuple[str, ...]) -> pd.DataFrame:
    """Mean (with interval), sd, median and 10%-90% range of each length column."""
    n = len(games)
    length = {}
    for col in cols:
        mean, half = mean_ci(games[col])
        length[col] = {
            "mean": mean,
            "ci": half,
            "sd": float(games[col].std(ddof=1)) if n > 1 else float("nan"),
            "median": float(games[col].median()),
            "p10": float(games[col].quantile(0.1)),
            "p90": float(games[col].quantile(0.9)),
        }
    return pd.DataFrame(length).T


def length_lines(length: pd.DataFrame) -> list[str]:
    lines = ["| | mean | 95% CI | sd | median | 10% - 90% |", "|---|---:|---:|---:|---:|---|"]
    for name, r in length.iterrows():
        lines.append(
            f"| {name} | {r['mean']:.2f} | +-{r['ci']:.3f} | {r['sd']:.2f} | {r['median']:.0f} "
            f"| {r['p10']:.0f} - {r['p90']:.0f} |"
        )
    return lines


def plot_win_rates(by_seat: pd.DataFrame, path, title: str) -> None:
    """Bar chart of win rate by seat with 95% error bars and the fair-share line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = by_seat
    fig, ax = plt.subplots(figsize=(7, 4))
    x = np.arange(len(s))
    err = np.vstack([s["win_rate"] - s["ci_low"], s["ci_high"] - s["win_rate"]])
    ax.bar(x, s["win_rate"], yerr=err, capsize=6, color="#3b7dd8")
    ax.axhline(1 / len(s), color="gray", ls="--", lw=1, label="fair share")
    ax.set_xticks(x, [f"seat {r.seat}\n{r.policy}" for r in s.itertuples()], fontsize=8)
    ax.set_ylabel("win rate")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
