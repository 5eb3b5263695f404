"""The exact distribution of the optimal practice score of *twenty one* (issue 44 item 7;
nochmal/bots/twentyone_distribution.py): equal to a plain recursion over every roll on reduced
rows, its mean the optimum's expected value, its spread that of practice games played by the
optimal policy through the engine (a Kolmogorov-Smirnov distance that can fail)."""

from __future__ import annotations

import random
import statistics
from functools import cache
from itertools import product

import numpy as np
import pytest

from nochmal.bots.twentyone_distribution import describe, row_distribution, sheet_distribution
from nochmal.bots.twentyone_optimum import OptimalPractice, expected_score, solve_row
from nochmal.engine.twentyone import BONUS, TwentyOneGame, get_sheet, play


def brute_distribution(values: tuple[int, ...], faces: int) -> dict[int, float]:
    """The row's final score distribution by recursion with dicts: the action of most worth by the
    optimum's V (ties: the cross-out, then the lower subset of free fields as a bit mask), the
    first attempt kept when worth at least the second."""
    n = len(values)
    full = (1 << n) - 1
    V = solve_row(values, faces).V

    def shifted(d: dict[int, float], by: int) -> dict[int, float]:
        return {s + by: p for s, p in d.items()}

    def mix(ds: list[dict[int, float]]) -> dict[int, float]:
        out: dict[int, float] = {}
        for d in ds:
            for s, p in d.items():
                out[s] = out.get(s, 0.0) + p / len(ds)
        return out

    @cache
    def dist(mask: int, hits: int) -> tuple[tuple[int, float], ...]:
        if mask == full:
            return ((BONUS[hits], 1.0),)
        free = [q for q in range(n) if not mask >> q & 1]

        def choose(y):  # y: faces of the free fields, in field order
            best, out = V[mask | 1 << free[0], hits], dict(dist(mask | 1 << free[0], hits))
            for s in range(1, 1 << len(free)):
                chosen = [i for i in range(len(free)) if s >> i & 1]
                if all(y[i] <= values[free[i]] for i in chosen):
                    m = mask | sum(1 << free[i] for i in chosen)
                    h = hits + sum(y[i] == values[free[i]] for i in chosen)
                    gain = sum(y[i] for i in chosen)
                    if gain + V[m, h] > best:
                        best, out = gain + V[m, h], shifted(dict(dist(m, h)), gain)
            return best, out

        outcomes = list(product(range(1, faces + 1), repeat=len(free)))
        results = []
        for x in outcomes:
            keep, d_keep = choose(x)
            again = [choose(tuple(a if a == 1 else b for a, b in zip(x, y))) for y in outcomes]
            worth = sum(w for w, _d in again) / len(again)
            results.append(d_keep if keep >= worth else mix([d for _w, d in again]))
        return tuple(sorted(mix(results).items()))

    return dict(dist(0, 0))


@pytest.mark.parametrize("values, faces", [((2,), 3), ((3, 2), 3), ((3, 1), 4), ((3, 3, 1), 3), ((4, 2, 1), 4)])
def test_the_row_distribution_equals_a_brute_force_recursion(values, faces):
    exact = row_distribution(values, faces)
    brute = brute_distribution(values, faces)
    assert set(np.nonzero(exact > 1e-15)[0].tolist()) == {s for s, p in brute.items() if p > 1e-15}
    for s, p in brute.items():
        assert exact[s] == pytest.approx(p, abs=1e-12)


def test_the_distributions_mean_is_the_optimums_expected_value_with_and_without_the_second_attempt():
    for values in [(6, 5, 4, 3, 2, 1), (6, 6, 5, 4, 3, 2)]:
        for second in (True, False):
            d = row_distribution(values, second_attempt=second)
            assert d.sum() == pytest.approx(1.0, abs=1e-12)
            assert describe(d)["mean"] == pytest.approx(solve_row(values, second_attempt=second).expected, abs=1e-9)


def test_the_sheets_distribution_agrees_with_practice_games_of_the_optimal_policy(tmp_path):
    sheet = get_sheet("C")
    dist = sheet_distribution(sheet)
    info = describe(dist)
    assert info["mean"] == pytest.approx(expected_score(sheet, tmp_path), abs=1e-9)
    assert info["q05"] < info["q25"] < info["q50"] < info["q75"] < info["q95"]
    rng, policy = random.Random(77), OptimalPractice(tmp_path)
    scores = np.array([play(TwentyOneGame([sheet]).new_state(), policy, rng).outcome().seats[0].total
                       for _ in range(2000)])
    empirical = np.searchsorted(np.sort(scores), np.arange(len(dist)), side="right") / len(scores)
    ks = float(np.max(np.abs(empirical - np.cumsum(dist))))
    assert ks < 1.95 / len(scores) ** 0.5, ks  # the 0.1 % critical value
    sd = statistics.stdev(scores.tolist())
    assert abs(sd - info["sd"]) < 4 * info["sd"] / (2 * len(scores)) ** 0.5, (sd, info["sd"])


def test_describe_reads_a_small_distribution():
    info = describe(np.array([0.25, 0.5, 0.25]))
    assert info["mean"] == pytest.approx(1.0) and info["sd"] == pytest.approx(0.5 ** 0.5)
    assert info["q05"] == 0 and info["q50"] == 1 and info["q95"] == 2
