"""NTBEA: a model-guided proposer for tuning grids too large to race whole.

The N-Tuple Bandit Evolutionary Algorithm (Lucas, Liu and Perez-Liebana, 2018; TabletopGames
tunes games and agents with it) walks a grid of settings, one noisy evaluation at a time. Its
model keeps, for every single axis, every pair of axes and the whole point, the mean score of
the evaluations that shared those values. From the current point it draws neighbours (a few
axes changed) and moves to the one whose model value plus an exploration bonus is largest, so
evaluations concentrate where the model says good settings are, and the model shares what one
evaluation teaches across every point that shares a value with it.

Scores are ranks: each evaluation's place among all evaluations so far, from 0 (worst) to 1
(best). Ranks need no scale (a goal violation and a number of rounds cannot be added), and only
the order of the tuner's sort key matters.
"""

from __future__ import annotations

import itertools

import numpy as np

NEIGHBOURS = 50  # neighbours drawn per step (as TabletopGames' default)
EXPLORE = 0.2  # the exploration bonus's weight, in rank units (best of 0.1-1 on tests' synthetic grid)
EPSILON = 0.5  # keeps the bonus of a never-seen tuple finite


class NTupleBandit:
    """The N-tuple model over a grid of `sizes[i]` values per axis (points are index tuples)."""

    def __init__(self, sizes: list[int], rng: np.random.Generator):
        self.sizes = np.asarray(sizes, np.int64)
        self.rng = rng
        d = len(sizes)
        tuples = [(i,) for i in range(d)] + list(itertools.combinations(range(d), 2))
        if d > 2:
            tuples.append(tuple(range(d)))
        self.tuples = tuples
        # Each tuple's key of a point: its values in mixed radix over the tuple's axes only.
        self.radix = [np.cumprod([1] + [int(self.sizes[i]) for i in t[:-1]]) for t in tuples]
        self.points = np.zeros((0, d), np.int64)
        self.order: list[tuple] = []  # each evaluation's sort key, lower is better
        self.stats: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.current = tuple(int(rng.integers(s)) for s in self.sizes)

    def _keys(self, points: np.ndarray, t: int) -> np.ndarray:
        return points[:, list(self.tuples[t])] @ self.radix[t]

    def tell(self, points: list[tuple], keys: list[tuple]) -> None:
        """Record evaluations (their sort keys, lower better) and refit the tuple statistics."""
        self.points = np.vstack([self.points, np.asarray(points, np.int64).reshape(-1, len(self.sizes))])
        self.order += keys
        n = len(self.order)
        rank = np.empty(n)
        rank[sorted(range(n), key=lambda i: (self.order[i], i))] = np.arange(n)[::-1] / max(n - 1, 1)
        self.stats = []
        for t in range(len(self.tuples)):
            uniq, inverse = np.unique(self._keys(self.points, t), return_inverse=True)
            count = np.bincount(inverse, minlength=len(uniq))
            self.stats.append((uniq, count, np.bincount(inverse, weights=rank, minlength=len(uniq)) / count))

    def _tuple_values(self, points: np.ndarray, bonus: bool) -> np.ndarray:
        """Each point's model value: the mean over tuples of the tuple's mean rank (0.5 where
        unseen), plus the UCB bonus when asked."""
        total = np.zeros(len(points))
        evaluations = len(self.order)
        for t, (uniq, count, mean) in enumerate(self.stats):
            keys = self._keys(points, t)
            at = np.minimum(np.searchsorted(uniq, keys), len(uniq) - 1)
            seen = uniq[at] == keys
            n = np.where(seen, count[at], 0)
            value = np.where(seen, mean[at], 0.5)
            if bonus:
                value = value + EXPLORE * np.sqrt(np.log(evaluations + 1) / (n + EPSILON))
            total += value
        return total / len(self.stats)

    def _neighbours(self) -> np.ndarray:
        """Distinct points near the current one: each axis changes with chance 1/d, at least
        one always does, to another of its values."""
        d = len(self.sizes)
        movable = np.flatnonzero(self.sizes > 1)
        found: dict[tuple, None] = {}
        for _ in range(NEIGHBOURS):
            p = np.array(self.current)
            change = self.rng.random(d) < 1 / d
            change[movable[self.rng.integers(len(movable))]] = True
            for i in np.flatnonzero(change & (self.sizes > 1)):
                p[i] = (p[i] + 1 + self.rng.integers(self.sizes[i] - 1)) % self.sizes[i]
            found[tuple(int(v) for v in p)] = None
        return np.array(list(found), np.int64)

    def ask(self, count: int) -> list[tuple]:
        """The next points to evaluate: the current point and the count - 1 neighbours with the
        largest model value plus bonus; the best of those becomes the current point."""
        if not self.stats:
            batch = [self.current]
            while len(batch) < count and len(batch) < int(np.prod(self.sizes)):
                p = tuple(int(self.rng.integers(s)) for s in self.sizes)
                if p not in batch:
                    batch.append(p)
            return batch
        if not (self.sizes > 1).any():
            return [self.current]
        near = self._neighbours()
        ranked = near[np.argsort(-self._tuple_values(near, bonus=True), kind="stable")]
        batch = [self.current] + [tuple(int(v) for v in p) for p in ranked[: count - 1]]
        self.current = tuple(int(v) for v in ranked[0])
        return batch

    def best(self, count: int) -> list[tuple]:
        """The `count` evaluated points with the largest model value (no bonus), best first."""
        seen = np.unique(self.points, axis=0)
        value = self._tuple_values(seen, bonus=False)
        return [tuple(int(v) for v in seen[i]) for i in np.argsort(-value, kind="stable")[:count]]
