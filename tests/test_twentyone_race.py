"""The multiplayer bot of *twenty one* (issue 44 item 6): the practice optimum's values plus a term
for the race to row 5 (nochmal/bots/twentyone_race.py). Its tables with a hazard equal a plain
brute-force recursion on a reduced game; with no race (practice, or weight 0) it is the optimum,
decision for decision; its decisions are always legal (hypothesis over random positions); and
once an opponent has scored their fifth row it enters every die that fits, where the optimum
would wait. Its win rates are measured by tools/twentyone_bench.py, not here."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, product

import pytest
from hypothesis import given, settings, strategies as st

from nochmal.bots.twentyone_optimum import OptimalPractice
from nochmal.bots.twentyone_race import (DEFAULT_WEIGHT, HAZARDS, RaceBot, fields_left, nearest_hazard,
                                         race_hazard, race_rows)
from nochmal.engine.twentyone import BONUS, CrossOut, Enter, TwentyOneGame, get_sheet, play
from nochmal.engine.twentyone.game import CHOOSE, ENTER


def brute_race(rows: list[tuple[int, ...]], faces: int, p: float) -> float:
    """The best expected score of a game with these rows when, after every round, the game ends
    with probability ``p`` (the current row then scored as it stands, the rows below it 0): plain
    recursion over (row, filled fields, hits), every attempt, every subset and the cross-out."""
    n = len(rows[0])
    full = (1 << n) - 1
    outcomes = list(product(range(1, faces + 1), repeat=n))

    @cache
    def value(row: int, mask: int, hits: int) -> float:  # at the start of a round
        printed = rows[row]
        free = [q for q in range(n) if not mask >> q & 1]

        def after(new_mask: int, new_hits: int) -> float:  # at the end of the round
            if new_mask == full:
                rest = value(row + 1, 0, 0) if row + 1 < len(rows) else 0.0
                return BONUS[new_hits] + (1 - p) * rest
            return p * BONUS[new_hits] + (1 - p) * value(row, new_mask, new_hits)

        def best(y):
            out = after(mask | 1 << free[0], hits)
            for k in range(1, len(free) + 1):
                for subset in combinations(free, k):
                    if all(y[q] <= printed[q] for q in subset):
                        out = max(out, sum(y[q] for q in subset) + after(
                            mask | sum(1 << q for q in subset), hits + sum(y[q] == printed[q] for q in subset)))
            return out

        total = 0.0
        for x in outcomes:
            again = sum(best(tuple(a if a == 1 else b for a, b in zip(x, y))) for y in outcomes) / len(outcomes)
            total += max(best(x), again)
        return total / len(outcomes)

    return value(0, 0, 0)


@pytest.mark.parametrize("p", [0.0, 0.2, 0.5, 1.0])
def test_the_race_tables_equal_a_brute_force_race_on_a_reduced_game(p):
    rows = [(3, 2), (2, 1), (3, 1)]
    tables = race_rows(tuple(rows), p, faces=3)
    assert tables[0].V[0, 0] == pytest.approx(brute_race(rows, 3, p), rel=1e-12)


def test_with_hazard_zero_the_race_tables_are_the_practice_optimum():
    sheet = get_sheet("A")
    tables = race_rows(sheet.value_at, 0.0)
    assert tables[0].V[0, 0] == pytest.approx(141.2722847852676, abs=1e-9)
    assert race_rows(sheet.value_at, 0.5)[0].V[0, 0] < 100  # a race that may end any round is worth less


def random_position(players: int, seed: int, steps: int):
    """A position reached by ``steps`` random legal actions (and the chance actions between them)."""
    rng = random.Random(seed)
    state = TwentyOneGame(random.Random(seed).sample("ABCDEF", players)).new_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state, rng


BOT = RaceBot()


@settings(max_examples=60, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 400))
def test_the_race_bots_decisions_are_always_legal(players, seed, steps):
    state, rng = random_position(players, seed, steps)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    if state.is_terminal():
        return
    if state.phase == CHOOSE:
        assert BOT(state) in state.legal_actions()
        return
    for seat in list(state.pending):  # every seat still to enter, in any order, as it would answer
        probe = state.clone()
        probe.pending.remove(seat)
        probe.pending.insert(0, seat)
        action = BOT(probe)
        assert action in state.legal_actions(seat), (action, state.summary(seat))
        assert state.is_legal(action, seat)
    assert 0.0 <= race_hazard(state, state.pending[0]) <= 1.0


def test_alone_or_with_weight_zero_it_is_the_optimum_decision_for_decision(tmp_path):
    optimum, race, still = OptimalPractice(tmp_path), RaceBot(directory=tmp_path), RaceBot(0.0, tmp_path)
    rng = random.Random(3)
    checked = 0
    for players, bot in ((1, race), (3, still)):
        for _ in range(3):
            state = TwentyOneGame.create(players).new_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply(state.sample_chance(rng))
                    continue
                action = optimum(state)
                assert bot(state) == action, state.summary(state.current_player())
                checked += 1
                state.apply(action)
    assert checked > 100


def test_once_an_opponent_has_scored_row_5_it_enters_every_die_that_fits_where_the_optimum_waits(tmp_path):
    """The clear case: the game ends after this round for certain (T-END), so the row in hand is
    scored as it stands (T-END-PARTIAL): every die that fits adds its number (and any hit its
    bonus). The optimum plays on as if the row had all the time it needs. A small weight (the race
    read as slow) changes nothing: the end is certain."""
    optimum, race = OptimalPractice(tmp_path), RaceBot(0.3, tmp_path)
    differ = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = TwentyOneGame(["A", "B", "C"]).new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player()
            if state.phase == ENTER and any(s.done for i, s in enumerate(state.seats) if i != seat):
                assert race.hazard(state, seat) == 1.0
                fits = state.fits(seat)
                mine = race(state)
                expected = Enter(tuple(f.colour for f in fits)) if fits else CrossOut(state.cross_field(seat))
                assert mine == expected, state.summary(seat)
                differ += optimum(state) != mine
            # the seats play greedily fast so that games end with others in the middle of a row
            state.apply(state.legal_actions()[-2] if len(state.legal_actions()) > 1 else state.legal_actions()[0])
    assert differ >= 3


def test_the_hazard_reads_the_race():
    state = TwentyOneGame(["A", "B"]).new_state()
    assert race_hazard(state, 0) == pytest.approx(min(1.0, DEFAULT_WEIGHT * 1.25 / 30))
    assert fields_left(state, 0) == 30
    assert race_hazard(TwentyOneGame(["A"]).new_state(), 0) == 0.0
    assert nearest_hazard(0.0) == 0.0 and nearest_hazard(0.97) == 1.0 and set(HAZARDS) >= {0.0, 1.0}


@pytest.mark.parametrize("weight", [-1, float("nan"), "1"])
def test_a_bad_weight_is_refused_by_name(weight):
    with pytest.raises(ValueError, match="weight"):
        RaceBot(weight)


def test_the_race_bot_plays_whole_games_of_any_size():
    rng = random.Random(11)
    for n in (2, 6):
        assert play(TwentyOneGame.create(n).new_state(), BOT, rng).is_terminal()
