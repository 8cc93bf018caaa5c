"""Confidence intervals against known values and by coverage."""

import numpy as np
import pytest

from sim.core import stats


def test_z_value():
    assert stats.z_value(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert stats.z_value(0.99) == pytest.approx(2.575829, abs=1e-6)


def test_wilson_known_value():
    # 20 successes out of 100 at 95%: (0.1333, 0.2888), a textbook value
    lo, hi = stats.wilson(20, 100)
    assert lo == pytest.approx(0.1333, abs=1e-4)
    assert hi == pytest.approx(0.2888, abs=1e-4)


def test_wilson_stays_inside_0_1_at_the_edges():
    lo, hi = stats.wilson(np.array([0, 50]), np.array([50, 50]))
    assert lo[0] == 0 and 0 < hi[0] < 0.1
    assert hi[1] == pytest.approx(1) and 0.9 < lo[1] < 1


def test_wilson_coverage():
    # 2000 experiments of n=200 at p=0.3: the 95% interval should cover p in about 95% of them;
    # the count of misses is binomial(2000, ~0.05), so 4 standard deviations is ~40.
    rng = np.random.default_rng(1)
    k = rng.binomial(200, 0.3, size=2000)
    lo, hi = stats.wilson(k, 200)
    misses = int(((lo > 0.3) | (hi < 0.3)).sum())
    assert abs(misses - 100) < 4 * np.sqrt(2000 * 0.05 * 0.95)


def test_mean_ci_and_paired_diff():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    mean, half = stats.mean_ci(x)
    assert mean == 2.5
    assert half == pytest.approx(1.959964 * np.std(x, ddof=1) / 2, rel=1e-6)
    a = np.array([1.0, 0.0, 1.0, 1.0])
    b = np.array([0.0, 0.0, 1.0, 0.0])
    d, half_d = stats.paired_diff(a, b)
    assert d == pytest.approx(0.5)
    assert half_d == pytest.approx(stats.mean_ci(a - b)[1])
    with pytest.raises(ValueError):
        stats.paired_diff(a, b[:3])
