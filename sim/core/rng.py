"""Counter-based random numbers for compiled kernels.

Game ``g`` of a run with master seed ``s`` owns generators seeded from ``(s, g, stream)``
alone, so a game's outcome never depends on which thread, chunk or machine plays it.
Each game has several independent streams (the table's dice, each seat's deck, each seat's
policy) so that changing one seat's policy does not shift another seat's shuffles: this
keeps comparisons under common random numbers tightly paired.

The generator is xoshiro256** seeded through splitmix64 (Blackman and Vigna).
Kernels keep all streams of a game in one flat ``uint64`` array, four words per stream, and
address a stream by its offset: passing one array keeps compiled calls cheap.
"""

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_STREAM_KEY = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True)
def splitmix64(x):
    """One splitmix64 output for the 64-bit input ``x`` (a pure mixing function)."""
    z = np.uint64(x) + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def seed_state(rng, o, seed, game, stream):
    """Seed the generator at rng[o:o+4] for one (master seed, game index, stream) triple."""
    key = splitmix64(np.uint64(seed))
    key = splitmix64(key ^ np.uint64(game))
    x = splitmix64(key ^ (np.uint64(stream) * _STREAM_KEY))
    for i in range(4):
        x = x + _GOLDEN
        rng[o + i] = splitmix64(x)


@njit(cache=True)
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def next_u64(rng, o):
    """Advance the xoshiro256** generator at rng[o:o+4] and return its next 64-bit output."""
    s0 = rng[o]
    s1 = rng[o + 1]
    s2 = rng[o + 2]
    s3 = rng[o + 3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    rng[o] = s0
    rng[o + 1] = s1
    rng[o + 2] = s2
    rng[o + 3] = s3
    return result


@njit(cache=True)
def uniform(rng, o):
    """A float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(rng, o) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def randint(rng, o, n):
    """An integer in [0, n) for 0 < n < 2**32 (Lemire's multiply-shift, bias < n / 2**32)."""
    hi = next_u64(rng, o) >> np.uint64(32)
    return np.int64((hi * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def shuffle(rng, o, a, start, n):
    """Fisher-Yates shuffle of a[start:start+n] in place."""
    for i in range(n - 1, 0, -1):
        j = randint(rng, o, i + 1)
        tmp = a[start + i]
        a[start + i] = a[start + j]
        a[start + j] = tmp
