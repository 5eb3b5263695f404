"""Property tests of the *twenty one* engine over random games (hypothesis): random legal play to the
end never raises, ends by T-END, and keeps its totals the sum of its row scores; every enumerated
action is legal and every legal entry is enumerated (against a brute force over all 63 subsets of
the dice); replay, JSON and undo reproduce positions."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings, strategies as st

from nochmal.engine.twentyone import (CHANCE, TERMINAL, CrossOut, Enter, TwentyOneGame, TwentyOneState, play,
                                      replay)
from nochmal.engine.twentyone.components import bonus

SETTINGS = settings(max_examples=40, deadline=None)


def random_policy(state, rng):
    return rng.choice(state.legal_actions())


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 6))
def test_random_legal_play_ends_by_T_END_and_totals_are_sums_of_row_scores(seed, players):
    rng = random.Random(seed)
    state = play(TwentyOneGame.create(players).new_state(), random_policy, rng)
    out = state.outcome()
    assert "T-END" in out.reason and state.current_player() == TERMINAL and state.legal_actions() == []
    assert any(len(s.rows) == 5 and all(r.full for r in s.rows) for s in out.seats)
    for s in out.seats:
        assert s.total == sum(r.numbers + r.bonus for r in s.rows)
        assert all(r.bonus == bonus(r.hits) and 0 <= r.hits <= 6 for r in s.rows)
        assert all(r.full for r in s.rows[:-1])  # only the last row may be unfinished (T-END-PARTIAL)
        assert 1 <= len(s.rows) <= 5
    best = max(s.total for s in out.seats)
    assert out.winners == tuple(s.seat for s in out.seats if s.total == best)
    again = replay(state.game, [a.to_json() for a in state.history])
    assert again.to_json() == state.to_json()


def brute_entries(state: TwentyOneState, seat: int) -> set:
    """Every entry of the rules by brute force: any non-empty set of dice whose fields in the current
    row are free and whose faces are at most the printed values."""
    s = state.seats[seat]
    out = set()
    for k in range(1, 7):
        for colours in combinations(range(6), k):
            fields = [s.sheet.field_of[s.row][c] for c in colours]
            if all(not s.filled >> p & 1 and state.dice.faces[c] <= s.sheet.value_at[s.row][p]
                   for c, p in zip(colours, fields)):
                out.add(Enter(colours))
    return out


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 4), steps=st.integers(0, 120))
def test_the_legal_actions_are_exactly_the_rules_entries_and_the_cross(seed, players, steps):
    rng = random.Random(seed)
    state = TwentyOneGame.create(players).new_state()
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            assert state.current_player() == CHANCE and state.legal_actions() == []
            state.apply(state.sample_chance(rng))
            continue
        for seat in (state.pending if state.phase == "enter" else [state.current_player()]):
            legal = state.legal_actions(seat)
            assert legal and all(state.is_legal(a, seat) for a in legal)
            if state.phase == "enter":
                enters = {a for a in legal if isinstance(a, Enter)}
                assert enters == brute_entries(state, seat)
                crosses = [a for a in legal if isinstance(a, CrossOut)]
                free = [p for p in range(6) if not state.seats[seat].filled >> p & 1]
                assert crosses == [CrossOut(free[0])] and legal[-1] == crosses[0]
                assert not any(state.is_legal(CrossOut(p), seat) for p in free[1:])
                fits = state.fits(seat)
                assert len(enters) == 2 ** len(fits) - 1
                assert all(f.hit == (f.face == state.seats[seat].sheet.value_at[state.seats[seat].row][f.field])
                           for f in fits)
        before = state.to_json()
        action = rng.choice(state.legal_actions())
        state.apply(action)
        undone = state.undo()
        assert undone.to_json() == before  # undo, then redo: the same state
        undone.apply(action)
        assert undone.to_json() == state.to_json()


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 6), steps=st.integers(0, 200))
def test_json_round_trip_is_identity_mid_game(seed, players, steps):
    rng = random.Random(seed)
    state = TwentyOneGame.create(players).new_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(state.sample_chance(rng) if state.is_chance_node() else random_policy(state, rng))
    assert TwentyOneState.from_json(state.to_json()).to_json() == state.to_json()
    clone = state.clone()
    if not state.is_terminal():
        clone.apply(clone.sample_chance(rng) if clone.is_chance_node() else random_policy(clone, rng))
        assert clone.to_json() != state.to_json()  # a clone is independent
