"""The exactly optimal practice player of *twenty one* (issue 44 item 6): its value equals a plain
brute-force recursion over every roll on reduced games (fewer fields, fewer faces; a two-row game
solved whole, without splitting it into rows); practice games played through the engine with its
policy agree with its expected value; its cache on disk; the greedy bot for comparison.

Light on CPU by design: a few thousand simulated games, small reduced games."""

from __future__ import annotations

import random
import statistics
from functools import cache
from itertools import combinations, product

import numpy as np
import pytest

from nochmal.bots.twentyone_greedy import greedy_policy
from nochmal.bots.twentyone_optimum import (OptimalPractice, best_entry, cache_key, expected_score, row_tables,
                                            sheet_tables, solve_row)
from nochmal.engine.twentyone import BONUS, SHEET_IDS, Enter, TwentyOneGame, get_sheet, play, sheet_from_rows
from nochmal.engine.twentyone.entries import fitting_dice


# --------------------------------------------------------------------------- brute force
def brute_game(rows: list[tuple[int, ...]], faces: int) -> float:
    """The optimal expected score of a whole practice game with these rows' printed values, by plain
    recursion over (row, filled fields, hits): every first attempt, every second attempt, every
    subset of dice and the cross-out. Nothing is split into rows: a full row adds its bonus and play
    goes on in the next row within the same recursion."""
    n = len(rows[0])
    full = (1 << n) - 1
    outcomes = list(product(range(1, faces + 1), repeat=n))

    @cache
    def value(row: int, mask: int, hits: int) -> float:
        if row == len(rows):
            return 0.0
        if mask == full:
            return BONUS[hits] + value(row + 1, 0, 0)
        printed = rows[row]
        free = [p for p in range(n) if not mask >> p & 1]

        def best(y: tuple[int, ...]) -> float:
            out = value(row, mask | 1 << free[0], hits)  # the cross-out
            for k in range(1, len(free) + 1):
                for subset in combinations(free, k):
                    if all(y[p] <= printed[p] for p in subset):
                        gain = sum(y[p] for p in subset)
                        new_hits = hits + sum(y[p] == printed[p] for p in subset)
                        out = max(out, gain + value(row, mask | sum(1 << p for p in subset), new_hits))
            return out

        total = 0.0
        for x in outcomes:
            keep = best(x)
            again = sum(best(tuple(xi if xi == 1 else yi for xi, yi in zip(x, y))) for y in outcomes) / len(outcomes)
            total += max(keep, again)
        return total / len(outcomes)

    return value(0, 0, 0)


@pytest.mark.parametrize("values, faces", [((2,), 3), ((3, 2), 3), ((3, 1), 4), ((3, 3, 1), 3), ((4, 2, 1), 4)])
def test_the_row_optimum_equals_brute_force_on_reduced_rows(values, faces):
    assert solve_row(values, faces).expected == pytest.approx(brute_game([values], faces), rel=1e-12)


def test_the_game_optimum_is_the_sum_of_row_optima_by_brute_force_over_the_whole_game():
    rows = [(3, 2), (2, 2), (3, 1)]
    whole = brute_game(rows, 3)
    assert sum(solve_row(r, 3).expected for r in rows) == pytest.approx(whole, rel=1e-12)


def test_the_second_attempt_is_worth_something_and_never_costs():
    for values, faces in [((3, 2), 3), ((6, 5, 4, 3, 2, 1), 6)]:
        assert solve_row(values, faces, second_attempt=False).expected < solve_row(values, faces).expected


def test_a_worked_example_one_free_field_with_five_hits():
    # only the 6 field free, five hits: a 6 gives 6 + 21; a 1 stays and gives 1 + 15; a 5 is kept
    # (20 against 19.5 for trying again); 2, 3, 4 are rolled again (worth (16+..+20+27)/6 = 19.5)
    tables = solve_row((6, 5, 4, 3, 2, 1))
    assert tables.V[0b111110, 5] == pytest.approx((27 + 16 + 20 + 3 * 19.5) / 6)
    assert tables.R[0b111110, 5, 0] == pytest.approx(19.5)


# --------------------------------------------------------------------------- the full game
def test_simulated_practice_games_agree_with_the_expected_value(tmp_path):
    sheet = get_sheet("A")
    policy = OptimalPractice(tmp_path)
    expected = expected_score(sheet, tmp_path)
    rng = random.Random(2024)
    scores = [play(TwentyOneGame([sheet]).new_state(), policy, rng).outcome().seats[0].total for _ in range(2000)]
    mean, se = statistics.fmean(scores), statistics.stdev(scores) / len(scores) ** 0.5
    assert abs(mean - expected) < 4 * se, (mean, expected, se)


def test_the_policys_entry_is_the_best_legal_action_by_the_tables(tmp_path):
    sheet = get_sheet("B")
    tables = sheet_tables(sheet, tmp_path)
    rng = random.Random(9)
    for _ in range(200):
        row = rng.randrange(5)
        mask = rng.randrange(63)
        hits = rng.randint(0, bin(mask).count("1"))
        faces = tuple(rng.randint(1, 6) for _ in range(6))
        fits = fitting_dice(sheet, row, mask, faces)
        worth, action = best_entry(tables[row], mask, hits, fits)
        free = [p for p in range(6) if not mask >> p & 1]
        options = [tables[row].V[mask | 1 << free[0], hits]]
        for k in range(1, len(fits) + 1):
            for subset in combinations(fits, k):
                options.append(sum(f.face for f in subset) +
                               tables[row].V[mask | sum(1 << f.field for f in subset), hits + sum(f.hit for f in subset)])
        assert worth == pytest.approx(max(options))
        assert isinstance(action, Enter) or worth == options[0]


def test_every_stand_in_sheet_has_the_same_optimum_colours_do_not_matter(tmp_path):
    values = {expected_score(get_sheet(s), tmp_path) for s in SHEET_IDS}
    assert len(values) == 1 and 130 < values.pop() < 150
    other = sheet_from_rows(["wkrbyg"] * 5, [[6, 5, 4, 3, 2, 1]] + [[6, 6, 5, 4, 3, 2]] * 4)
    assert expected_score(other, tmp_path) > expected_score(get_sheet("A"), tmp_path)


def test_the_cache_is_keyed_on_the_values_and_survives_a_broken_file(tmp_path):
    first = row_tables((6, 5, 4, 3, 2, 1), directory=tmp_path)
    files = list(tmp_path.glob("row-*.npz"))
    assert len(files) == 1 and cache_key((6, 5, 4, 3, 2, 1), 6) in files[0].name
    again = row_tables((6, 5, 4, 3, 2, 1), directory=tmp_path)
    assert np.array_equal(first.V, again.V) and np.array_equal(first.R, again.R)
    assert cache_key((6, 5, 4, 3, 2, 1), 6) != cache_key((6, 5, 4, 3, 2, 2), 6)
    files[0].write_bytes(b"not an npz file")
    assert row_tables((6, 5, 4, 3, 2, 1), directory=tmp_path).expected == first.expected


def test_the_greedy_bot_plays_legally_and_scores_below_the_optimum(tmp_path):
    rng = random.Random(4)
    scores = []
    for n in (1, 1, 1, 3):
        state = play(TwentyOneGame.create(n).new_state(), greedy_policy, rng)
        scores.append(state.outcome().seats[0].total)
    mean = statistics.fmean(play(TwentyOneGame.create(1).new_state(), greedy_policy, rng).outcome().seats[0].total
                            for _ in range(300))
    assert mean < expected_score(get_sheet("A"), tmp_path) - 20
    state = play(TwentyOneGame.create(3).new_state(), OptimalPractice(tmp_path), rng)  # plays any seat too
    assert state.is_terminal()
