"""Ranking policies from two-player results: a Bradley-Terry model with a first-seat effect.

The chance that policy i in seat 0 beats policy j in seat 1 is modelled as

    P(i beats j) = 1 / (1 + exp(-(s_i - s_j + h)))

with s the policies' strengths (centred on 0: log-odds against an average policy) and h the
first seat's edge. The fit is maximum likelihood by Newton's method on the cells' win counts
(a shared win counts a half); the 95% intervals come from the inverse of the observed
information (Wald intervals).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.core.stats import z_value


def bradley_terry(results: pd.DataFrame, iterations: int = 100, prior: float = 0.5,
                  results_per_game: float = 1.0) -> tuple[pd.DataFrame, dict]:
    """results: one row per pairing with columns first (seat 0's policy), second (seat 1's),
    wins (seat 0's wins, fractional for shared ones) and games. Returns the ranking (policy,
    strength, strength_low, strength_high, win_vs_average: the chance to beat an average policy
    with the seats shared equally) strongest first, and the first-seat edge {h, h_low, h_high}.

    `prior` adds that many wins to each side of every pairing: a policy that never (or always)
    wins keeps a finite strength instead of one that runs off to infinity, at the cost of a
    small pull towards even, negligible once a pairing has many games. `results_per_game`: how
    many pairwise results one game gives (a game of k players gives its winner's k - 1); they
    are not independent, so the intervals are widened by its square root."""
    policies = sorted(set(results["first"]) | set(results["second"]))
    k = len(policies)
    index = {p: i for i, p in enumerate(policies)}
    a = results["first"].map(index).to_numpy()
    b = results["second"].map(index).to_numpy()
    wins = results["wins"].to_numpy(float) + prior
    games = results["games"].to_numpy(float) + 2 * prior
    # Design: strengths of policies 1..k-1 (policy 0 fixed at 0), then h.
    x = np.zeros((len(results), k))
    for r in range(len(results)):
        if a[r] > 0:
            x[r, a[r] - 1] += 1
        if b[r] > 0:
            x[r, b[r] - 1] -= 1
        x[r, k - 1] = 1.0
    theta = np.zeros(k)
    info = np.eye(k)
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(x @ theta)))
        grad = x.T @ (wins - games * p)
        info = (x * (games * p * (1 - p))[:, None]).T @ x
        step = np.linalg.lstsq(info, grad, rcond=None)[0]
        theta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    cov = np.linalg.pinv(info) * results_per_game
    # Centre the strengths: s = A theta, with s_0 = 0 before centring.
    to_s = np.zeros((k, k))
    to_s[1:, : k - 1] = np.eye(k - 1)
    centre = np.eye(k) - 1.0 / k
    transform = centre @ to_s
    strength = transform @ theta
    se = np.sqrt(np.maximum(np.diag(transform @ cov @ transform.T), 0))
    z = z_value()
    ranking = pd.DataFrame({
        "policy": policies,
        "strength": strength,
        "strength_low": strength - z * se,
        "strength_high": strength + z * se,
        "win_vs_average": 1 / (1 + np.exp(-strength)),
    }).sort_values("strength", ascending=False, ignore_index=True)
    ranking.insert(0, "rank", np.arange(1, k + 1))
    h, h_se = theta[k - 1], float(np.sqrt(max(cov[k - 1, k - 1], 0)))
    return ranking, {"h": float(h), "h_low": float(h - z * h_se), "h_high": float(h + z * h_se)}
