"""Confidence intervals for win rates, means and paired differences."""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

__all__ = ["CONFIDENCE", "mean_ci", "paired_diff", "paired_median_diff", "paired_median_diff_counts", "wilson", "wilson_of_shares", "z_value"]  # the public API

CONFIDENCE = 0.95


def z_value(confidence: float = CONFIDENCE) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes, n, confidence: float = CONFIDENCE):
    """Wilson score interval for a proportion. `successes` may be fractional (shared wins
    count as 1/k each); arrays broadcast. Returns (low, high)."""
    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = z_value(confidence)
    p = successes / n
    denom = 1 + z**2 / n
    centre = (p + z**2 / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
    # At p = 0 (or 1) the bound is exactly 0 (or 1); rounding alone would leave it a hair outside.
    low = np.where(p <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(p >= 1, 1.0, np.clip(centre + half, 0.0, 1.0))
    return (low[()], high[()])


def wilson_of_shares(total: float, squares: float, n: int, confidence: float = CONFIDENCE):
    """Wilson interval for the mean of n per-game shares in [0, 1] (a policy holding k seats
    wins 1/k of a game per seat won), from their sum and sum of squares. Shares of one game are
    not independent coin flips, so the interval uses the effective number of games, n times
    p(1 - p) over the shares' variance (for 0/1 outcomes: n). Returns (low, high), in [0, 1]."""
    if n < 1:
        return float("nan"), float("nan")
    mean = total / n
    variance = max(squares - n * mean * mean, 0.0) / (n - 1) if n > 1 else 0.0
    n_eff = n if variance <= 0.0 or mean <= 0.0 or mean >= 1.0 else n * mean * (1 - mean) / variance
    low, high = wilson(mean * n_eff, n_eff, confidence)
    return float(low), float(high)


def mean_ci(x, confidence: float = CONFIDENCE):
    """Mean of x and the half-width of its normal-approximation interval."""
    x = np.asarray(x, dtype=float)
    n = x.size
    if n < 2:
        return float(x.mean()) if n else float("nan"), float("nan")
    return float(x.mean()), z_value(confidence) * float(x.std(ddof=1)) / np.sqrt(n)


def paired_diff(a, b, confidence: float = CONFIDENCE):
    """Mean of a - b over paired observations (same game seeds) and its half-width."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same shape")
    return mean_ci(a - b, confidence)


BOOTSTRAP_SEED = 20261127  # fixed: an interval is the same on every run


def paired_median_diff(a, b, confidence: float = CONFIDENCE, resamples: int = 400):
    """median(a) - median(b) over paired observations (same game seeds), and a percentile
    bootstrap interval (games resampled in pairs, a fixed seed): (diff, low, high)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same shape")
    pairs, counts = np.unique(np.stack([a, b], axis=1), axis=0, return_counts=True)
    return paired_median_diff_counts(pairs[:, 0], pairs[:, 1], counts, confidence, resamples)


def _weighted_median(values_sorted: np.ndarray, weights: np.ndarray) -> float:
    """numpy's median of a sample given as sorted distinct values and their counts."""
    n = int(weights.sum())
    cum = np.cumsum(weights)
    lo = values_sorted[np.searchsorted(cum, (n - 1) // 2 + 1)]
    hi = values_sorted[np.searchsorted(cum, n // 2 + 1)]
    return float(lo + hi) / 2


def paired_median_diff_counts(a, b, counts, confidence: float = CONFIDENCE, resamples: int = 400):
    """paired_median_diff of a sample given as distinct pairs (a[i], b[i]) seen counts[i] times:
    the form a run's chunks add up to in bounded memory (analysis.LengthPair)."""
    a, b, counts = np.asarray(a, float), np.asarray(b, float), np.asarray(counts, np.int64)
    n = int(counts.sum())
    order_a, order_b = np.argsort(a, kind="stable"), np.argsort(b, kind="stable")
    a_sorted, b_sorted = a[order_a], b[order_b]

    def diff(weights) -> float:
        return _weighted_median(a_sorted, weights[order_a]) - _weighted_median(b_sorted, weights[order_b])

    value = diff(counts)
    if n < 2:
        return value, float("nan"), float("nan")
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    p = counts / n
    draws = np.array([diff(rng.multinomial(n, p)) for _ in range(resamples)])
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(draws, [tail, 100 - tail])
    return value, float(low), float(high)
