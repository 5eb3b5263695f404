"""Statistics of paired rollouts (the same dice, seed by seed, for every candidate): a win chance's
interval, whether two moves' rollouts tell them apart, the groups of moves in the noise, the moves
worth more rollouts. The advisor's (:mod:`nochmal.bots.advice`) arithmetic, kept apart from its
words; no Python twin in compiled code.
"""

from __future__ import annotations

Z95 = 1.959964  # the normal distribution's 97.5 % point: two-sided 95 %


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95 % (Wilson score) interval of a win chance seen as ``wins`` of ``n``."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _paired(a: list[float], b: list[float]) -> tuple[int, float, float]:
    """The paired differences of ``a`` and ``b`` over the rollouts both have (the same dice, seed by
    seed: the first ones): their number, mean and standard deviation."""
    n = min(len(a), len(b))
    d = [x - y for x, y in zip(a[:n], b[:n])]
    mean = sum(d) / n if n else 0.0
    var = sum((x - mean) ** 2 for x in d) / max(1, n - 1)
    return n, mean, var ** 0.5


def _apart(a: list[float], b: list[float], z: float = Z95) -> bool:
    """Are the paired rollout values ``a`` and ``b`` (the same dice, seed by seed) told apart: their
    mean difference more than ``z`` standard errors from 0?"""
    n, mean, sd = _paired(a, b)
    return sd == 0.0 and mean != 0.0 or sd > 0.0 and abs(mean) > z * sd / n ** 0.5


def _could_part(a: list[float], b: list[float], n_max: int, z: float = Z95) -> bool:
    """Could ``n_max`` paired rollouts tell ``a`` and ``b`` apart, if their difference is what the
    rollouts so far show? (No when they differ in no rollout, or not at all on average.)"""
    _, mean, sd = _paired(a, b)
    if mean == 0.0:
        return False
    return (z * sd / mean) ** 2 <= n_max


def tie_groups(values: list[list[float]]) -> list[int]:
    """Groups of moves in the noise, for rollout values listed best first: a move joins the group of
    the one before it when the paired rollouts do not tell it apart from that group's first move;
    each group is numbered from 0 (the best). ``[0, 0, 0]``: three equally good moves."""
    out: list[int] = []
    head = group = 0
    for i, v in enumerate(values):
        if i and _apart(values[head], v):
            head, group = i, group + 1
        out.append(group)
    return out


def ranked_groups(values: list[list[float]], key=None) -> list[tuple[int, int]]:
    """Every move (an index into ``values``, its rollout values) with its group, best first: the best
    is the first by ``key`` (default: the larger mean value, then the lower index) of those with the
    most rollouts (the second stage's); group 0 is it and every move the paired rollouts do not tell
    apart from it; the rest follows by ``key`` in :func:`tie_groups`' groups."""
    key = key or (lambda i: (-sum(values[i]) / len(values[i]), i))
    most = max(len(v) for v in values)
    best = min((i for i, v in enumerate(values) if len(v) == most), key=key)
    order = sorted(range(len(values)), key=key)
    first = [i for i in order if i == best or not _apart(values[best], values[i])]
    first.sort(key=lambda i: i != best)  # stable: the best first, the others by key
    rest = [i for i in order if i not in first]
    return [(i, 0) for i in first] + [(i, g + 1) for i, g in zip(rest, tie_groups([values[i] for i in rest]))]


def contenders(values: list[list[float]], alive: list[int], n_max: int) -> tuple[int, list[int]]:
    """The best move of ``alive`` (by its mean rollout value; all have the same rollouts) and the
    moves worth more rollouts beside it: not told apart from it yet, and ``n_max`` rollouts could."""
    best = min(alive, key=lambda i: (-sum(values[i]), i))
    return best, [i for i in alive if i != best and not _apart(values[best], values[i])
                  and _could_part(values[best], values[i], n_max)]
