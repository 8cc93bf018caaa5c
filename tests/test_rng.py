"""The compiled generator against a plain-Python reference of splitmix64 / xoshiro256**."""

import numpy as np

from sim.core import rng

MASK = (1 << 64) - 1


def splitmix64_ref(x):
    z = (x + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def xoshiro_ref(s):
    rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & MASK  # noqa: E731
    result = (rotl((s[1] * 5) & MASK, 7) * 9) & MASK
    t = (s[1] << 17) & MASK
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45)
    return result


def test_splitmix64_matches_reference():
    for x in (0, 1, 12345, MASK, 0xDEADBEEF):
        assert int(rng.splitmix64(np.uint64(x))) == splitmix64_ref(x)


def test_splitmix64_known_value():
    # First output of the splitmix64 sequence seeded with 0 (published test vector).
    assert int(rng.splitmix64(np.uint64(0))) == 0xE220A8397B1DCDAF


def test_xoshiro_matches_reference():
    state = np.zeros(8, np.uint64)
    rng.seed_state(state, 4, 42, 7, 3)
    ref = [int(v) for v in state[4:8]]
    for _ in range(100):
        assert int(rng.next_u64(state, 4)) == xoshiro_ref(ref)
    assert state[:4].sum() == 0  # the other stream is untouched


def test_streams_and_games_differ():
    outs = set()
    for game in range(3):
        for stream in range(3):
            s = np.zeros(4, np.uint64)
            rng.seed_state(s, 0, 1, game, stream)
            outs.add(int(rng.next_u64(s, 0)))
    assert len(outs) == 9


def test_randint_is_uniform():
    s = np.zeros(4, np.uint64)
    rng.seed_state(s, 0, 5, 0, 0)
    n, k = 60_000, 6
    counts = np.bincount([rng.randint(s, 0, k) for _ in range(n)], minlength=k)
    expected = n / k
    # chi-square with 5 degrees of freedom: P(X > 20.5) < 0.001
    assert ((counts - expected) ** 2 / expected).sum() < 20.5


def test_shuffle_is_a_permutation():
    s = np.zeros(4, np.uint64)
    rng.seed_state(s, 0, 9, 0, 0)
    a = np.arange(30, dtype=np.int32)
    rng.shuffle(s, 0, a, 5, 20)
    assert sorted(a[5:25]) == list(range(5, 25))
    assert list(a[:5]) == list(range(5)) and list(a[25:]) == list(range(25, 30))
    assert list(a[5:25]) != list(range(5, 25))
