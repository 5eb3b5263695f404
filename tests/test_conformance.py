"""The conformance test every mode and sheet must pass.

Random play to the end from several seeds; at every decision the legal actions are non-empty,
sorted and legal; replaying the event log reproduces the state; the JSON round trip is the
identity; the outcome's breakdown adds up and stays within bounds.

To add a mode (e.g. the co-op variant), append a :class:`Mode` to :data:`MODES`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from nochmal.engine.cells import COLOURS, COLUMN_MASKS, COLUMNS
from nochmal.engine.game import CHANCE, TEAM, TERMINAL, BaseGame, Game, SoloGame, State, replay, solo_band
from nochmal.engine.moves import PASS, Cross, check_cross
from nochmal.engine.sheet import get_sheet, sheet_ids

VERIFIED = tuple(s for s in sheet_ids() if get_sheet(s).provenance == "verified")


def mixed(sheet_id: str, n: int) -> list[str]:
    """``n`` seats: seat 0 plays ``sheet_id``, the others the next verified sheets in turn."""
    k = VERIFIED.index(sheet_id)
    return [VERIFIED[(k + i) % len(VERIFIED)] for i in range(n)]


@dataclass(frozen=True)
class Mode:
    name: str
    make: Callable[[str], Game]  # sheet id -> a game in which seat 0 plays that sheet
    seeds: tuple[int, ...]
    sheets: tuple[str, ...] = VERIFIED


MODES = [
    *(Mode(f"base-{n}p", (lambda n: lambda s: BaseGame(mixed(s, n)))(n), seeds=(11, 12, 13, 14)) for n in range(2, 7)),
    Mode("solo", lambda s: SoloGame([s]), seeds=tuple(range(21, 29))),
]
CASES = [pytest.param(m, s, seed, id=f"{m.name}-{s}-{seed}") for m in MODES for s in m.sheets for seed in m.seeds]


def test_the_seven_verified_sheets_take_part():
    assert set(VERIFIED) >= {"standard", "red", "blue", "green", "orange", "purple", "yellow"}


def expected_key(sheet, action) -> tuple:
    """PASS first, then (colour die, number die, colour, count, block of the first cell, mask)."""
    if action == PASS:
        return (0,)
    low = (action.cells & -action.cells).bit_length() - 1
    return (1, action.colour_die, action.number_die, action.colour, action.cells.bit_count(),
            sheet.block_of[low].index, action.cells)


def check_decision(state: State) -> list:
    player = state.current_player()
    acts = state.legal_actions()
    assert len(acts) > 0, f"no legal action for player {player} ({state.summary()})"
    if player == TEAM:
        return list(acts)
    assert 0 <= player < state.game.n_seats
    seat = state.seats[player]
    cf, nf = state.dice_for(player)
    listed = list(acts)
    assert listed[0] == PASS and PASS in acts
    keys = [expected_key(seat.sheet, a) for a in listed]
    assert keys == sorted(keys), f"legal actions not sorted ({state.summary()})"
    assert len(set(keys)) == len(keys), f"duplicate legal actions ({state.summary()})"
    for a in listed[1:]:
        assert isinstance(a, Cross)
        assert a in acts
        check_cross(seat.sheet, seat.crossed, seat.jokers_left, a, cf, nf)
    assert len(acts) == len(listed)
    return listed


def check_round_trip(game: Game, state: State) -> None:
    data = state.to_json()
    assert replay(game, data["history"]).to_json() == data
    text = json.dumps(data)
    again = State.from_json(game, json.loads(text))
    assert again.to_json() == data
    assert json.dumps(again.to_json()) == text


def check_outcome(state: State) -> None:
    game = state.game
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert list(state.legal_actions()) == []
    out = state.outcome()
    data = json.loads(json.dumps(out.to_json()))
    assert data["mode"] == game.mode and data["reason"]
    assert data["rolls"] == state.roll_index + 1
    assert len(data["scores"]) == game.n_seats
    first_c, later_c = game.colour_bonus
    for sc, seat in zip(data["scores"], state.seats):
        sheet = seat.sheet
        assert sc["total"] == sc["colours"] + sc["columns"] + sc["jokers"] + sc["stars"]
        # columns: exactly the full ones, each worth its first or later value
        full = [c for c in range(15) if seat.crossed & COLUMN_MASKS[c] == COLUMN_MASKS[c]]
        assert sc["columns_completed"] == [COLUMNS[c] for c in full]
        for c in full:
            assert seat.columns[c] in (sheet.first_points[c], sheet.later_points[c])
        assert sc["columns"] == sum(seat.columns.values())
        assert 0 <= sc["columns"] <= sum(sheet.first_points)
        # colours: exactly the complete ones, 5 or 3 each
        done = [c for c in range(5) if seat.crossed & sheet.colour_masks[c] == sheet.colour_masks[c]]
        assert sc["colours_completed"] == [COLOURS[c] for c in done]
        assert all(v in (first_c, later_c) for v in seat.colours.values())
        assert 0 <= sc["colours"] <= 5 * first_c
        # "!" and stars
        assert 0 <= sc["jokers"] == seat.jokers_left <= sheet.jokers
        uncrossed = (sheet.star_mask & ~seat.crossed).bit_count()
        assert sc["stars"] == -2 * uncrossed and -30 <= sc["stars"] <= 0
    best = max((s["total"], s["jokers"]) for s in data["scores"])
    assert data["winners"] == [s["seat"] for s in data["scores"] if (s["total"], s["jokers"]) == best]
    if isinstance(game, SoloGame):
        assert data["rolls"] == 30
        assert data["solo_band"]["band"] == solo_band(data["scores"][0]["total"])[0]
    elif isinstance(game, BaseGame):
        assert any(len(s["colours_completed"]) >= 2 for s in data["scores"])
        assert "R-END" in data["reason"]


@pytest.mark.parametrize("mode,sheet_id,seed", CASES)
def test_conformance(mode, sheet_id, seed):
    game = mode.make(sheet_id)
    state = game.new_state()
    rng = random.Random(seed)
    checkpoints = {rng.randrange(40, 400) for _ in range(2)}
    decisions = 0
    while not state.is_terminal():
        assert len(state.history) < 5000, "game does not end"
        if state.is_chance_node():
            assert state.current_player() == CHANCE and list(state.legal_actions()) == []
            state.apply(state.sample_roll(rng))
            continue
        listed = check_decision(state)
        action = listed[rng.randrange(len(listed))]
        if len(state.history) in checkpoints:
            check_round_trip(game, state)
            before = state.to_json()
            twin = state.clone()
            twin.apply(action)
            assert state.to_json() == before, "clone shares state with its original"
        state.apply(action)
        decisions += 1
    assert decisions > 0
    check_round_trip(game, state)
    check_outcome(state)
