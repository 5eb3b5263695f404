"""The exact distribution of the optimal practice score of *twenty one* (T-PRACTICE), not only its
mean: the twin of :func:`nochmal.bots.twentyone_optimum.solve_row`, walking the same states (a row's
filled fields and hits) from full to empty, with a probability for every final score instead of
an expected value.

For every state ``P[mask, h]`` is the distribution of what the row still brings (the numbers to
come plus the final bonus). A round's outcome ``y`` leads, by the optimal action (the cross-out,
or the subset of fitting dice with the most numbers plus ``V`` after it, ties to the cross-out and
then to the lower subset as :func:`solve_row` breaks them), to a next state and a gain: its
distribution is the next state's shifted by the gain. The first attempt is kept when it is worth at
least the second (the policy's rule), else the second attempt's distribution is the average over
the re-rolled dice. The rows of a game are independent (the optimum's module docstring), so the
game's distribution is the convolution of its rows'.

Exact up to floating-point rounding; ties between actions of equal value but different spread
are broken as above (the mean does not depend on it).
"""

from __future__ import annotations

import numpy as np

from nochmal.bots.twentyone_optimum import _outcomes, solve_row
from nochmal.engine.twentyone.components import BONUS, FACES, KEPT_FACE
from nochmal.engine.twentyone.sheets import TwentyOneSheet


def row_distribution(values: tuple[int, ...], faces: int = len(FACES), second_attempt: bool = True) -> np.ndarray:
    """``out[s]``: the probability that a row with printed ``values`` scores ``s`` (numbers plus
    bonus) under the optimal practice policy (without the second attempt if ``second_attempt``
    is False: the policy solved for a player who never tries again)."""
    values = tuple(int(v) for v in values)
    n = len(values)
    full = (1 << n) - 1
    V = solve_row(values, faces, second_attempt).V
    width = sum(values) + BONUS[n] + 1
    P = np.zeros((1 << n, n + 1, width))
    for h in range(n + 1):
        P[full, h, BONUS[h]] = 1.0
    for mask in sorted(range(full), key=lambda m: -bin(m).count("1")):
        free = [p for p in range(n) if not mask >> p & 1]
        k = len(free)
        ys = _outcomes(k, faces)
        printed = np.array([values[p] for p in free])
        fits, hit = ys <= printed, ys == printed
        ones = ((ys == KEPT_FACE) * (1 << np.arange(k))).sum(axis=1)
        cross_mask = mask | (1 << free[0])
        ok, num, hits, new_masks = {0: np.ones(len(ys), bool)}, {0: np.zeros(len(ys), np.int64)}, \
            {0: np.zeros(len(ys), np.int64)}, {}
        for s in range(1, 1 << k):
            j = (s & -s).bit_length() - 1
            rest = s & (s - 1)
            ok[s] = ok[rest] & fits[:, j]
            num[s] = num[rest] + ys[:, j]
            hits[s] = hits[rest] + hit[:, j]
            new_masks[s] = mask | sum(1 << free[i] for i in range(k) if s >> i & 1)
        for h in range(n - k + 1):
            best = np.full(len(ys), V[cross_mask, h])
            choice = np.zeros(len(ys), np.int64)  # 0: the cross-out, else the local subset
            for s in range(1, 1 << k):
                value = num[s] + V[new_masks[s]][h + hits[s]]
                better = ok[s] & (value > best)
                best = np.where(better, value, best)
                choice[better] = s
            dist = np.zeros((len(ys), width))
            dist[choice == 0] = P[cross_mask, h]
            for s in np.unique(choice[choice > 0]):
                idx = np.nonzero(choice == s)[0]
                nxt = P[new_masks[int(s)], h + hits[int(s)][idx]]
                gain = num[int(s)][idx]
                for g in np.unique(gain):
                    sel = gain == g
                    dist[idx[sel], g:] = nxt[sel, :width - g]
            if not second_attempt:
                P[mask, h] = dist.mean(axis=0)
                continue
            shaped_best = best.reshape((faces,) * k)
            shaped = dist.reshape((faces,) * k + (width,))
            worth = np.empty(1 << k)
            again = np.empty((1 << k, width))
            for o in range(1 << k):  # the dice in o show 1 and stay; the others are rolled again
                index = tuple(0 if o >> i & 1 else slice(None) for i in range(k))
                worth[o] = float(np.mean(shaped_best[index]))
                again[o] = shaped[index].reshape(-1, width).mean(axis=0)
            keep = best >= worth[ones]
            P[mask, h] = np.where(keep[:, None], dist, again[ones]).mean(axis=0)
    return P[0, 0]


def sheet_distribution(sheet: TwentyOneSheet | tuple[tuple[int, ...], ...], second_attempt: bool = True) -> np.ndarray:
    """``out[s]``: the probability of a practice total of ``s`` on ``sheet`` (or on rows with these
    printed values) under the optimal policy: the convolution of its rows' distributions."""
    rows = sheet.value_at if isinstance(sheet, TwentyOneSheet) else tuple(tuple(r) for r in sheet)
    solved: dict[tuple[int, ...], np.ndarray] = {}
    total = np.ones(1)
    for values in rows:
        if values not in solved:
            solved[values] = row_distribution(values, second_attempt=second_attempt)
        total = np.convolve(total, solved[values])
    return total


def describe(dist: np.ndarray, quantiles: tuple[float, ...] = (0.05, 0.25, 0.5, 0.75, 0.95)) -> dict[str, float]:
    """Mean, standard deviation and quantiles (the least score whose cumulative probability reaches
    q) of a distribution over scores 0, 1, 2, ..."""
    scores = np.arange(len(dist))
    mean = float(np.dot(scores, dist))
    sd = float(np.sqrt(max(0.0, np.dot((scores - mean) ** 2, dist))))
    cdf = np.cumsum(dist)
    out = {"mean": mean, "sd": sd}
    for q in quantiles:
        out[f"q{round(q * 100):02d}"] = float(np.searchsorted(cdf, q - 1e-12))
    return out
