"""CPython's random generator, compiled: Mersenne Twister MT19937 seeded as ``random.seed`` seeds
an integer, ``getrandbits(32)`` and ``_randbelow`` as CPython computes them. Python twin: the
standard library's :class:`random.Random` (the engine's games draw everything from one
``random.Random(seed)``, :func:`nochmal.engine.game.play`), so a kernel game and an engine game
with the same integer seed roll the same dice however often a policy draws in between.
"""

from __future__ import annotations

import random

import numpy as np

from .cache import njit

MASK32 = 0xFFFFFFFF


@njit()
def mt_seed(seed, mt):
    """``random.Random(seed)`` for an integer 0 <= seed < 2**63: MT19937's ``init_by_array`` with
    the seed's 32-bit words, as CPython seeds it. ``mt``: 625 int64 (the state, then the index)."""
    key = np.zeros(2, np.int64)
    key[0] = seed & MASK32
    key[1] = seed >> 32
    klen = 2 if key[1] else 1
    mt[0] = 19650218
    for i in range(1, 624):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK32
    i, j = 1, 0
    for _ in range(max(624, klen)):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525) & MASK32)) + key[j] + j) & MASK32
        i += 1
        j += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        if j >= klen:
            j = 0
    for _ in range(623):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941) & MASK32)) - i) & MASK32
        i += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
    mt[0] = 0x80000000
    mt[624] = 624


@njit(_nrt=False)
def _mt_u32(mt):
    """The next 32-bit output of the generator (CPython's ``genrand_uint32``)."""
    i = mt[624]
    if i >= 624:
        for kk in range(624):
            y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % 624] & 0x7FFFFFFF)
            v = mt[(kk + 397) % 624] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            mt[kk] = v
        i = 0
    y = mt[i]
    mt[624] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@njit(_nrt=False)
def randbelow(mt, n):
    """``rng._randbelow(n)`` (so ``randrange(n)`` and ``choice`` of n items) for 0 < n < 2**32."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    r = _mt_u32(mt) >> (32 - k)
    while r >= n:
        r = _mt_u32(mt) >> (32 - k)
    return r


def mt_state(rng: random.Random) -> np.ndarray:
    """The kernel's form of a ``random.Random``'s state (to go on from where it stands)."""
    version, internal, _gauss = rng.getstate()
    return np.array(internal, np.int64)
