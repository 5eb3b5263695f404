"""Golden playthroughs: whole seeded games written out as small text files in ``tests/golden``.

Each file shows the seed, every roll and every decision in order with the number of legal
actions the player had, and the final outcome. A rule change shows up as a readable diff.
After an intended change, regenerate the files and review the diff::

    UPDATE_GOLDEN=1 pytest tests/test_golden.py
"""

from __future__ import annotations

import difflib
import json
import os
import random
from pathlib import Path

import pytest

from nochmal.engine.game import BaseGame, SoloGame, State
from nochmal.engine.moves import Cross

GOLDEN_DIR = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

# (mode, sheets, seed) -> file tests/golden/<mode>-<n>p-seed<seed>.txt
CASES = [
    ("base", ("standard", "standard"), 8),
    ("base", ("standard", "red", "blue", "green"), 1),
    ("solo", ("standard",), 3),
]
GAMES = {"base": BaseGame, "solo": SoloGame}


def file_name(mode: str, sheets: tuple, seed: int) -> str:
    return f"{mode}-{len(sheets)}p-seed{seed}.txt"


def render_action(action) -> str:
    data = action.to_json()
    if isinstance(action, Cross):
        return f"cross {data['colour']} {' '.join(data['cells'])}  (dice {data['colour_die']} + {data['number_die']})"
    return data["type"]


def playthrough(mode: str, sheets: tuple, seed: int) -> str:
    """The text of one game: chance nodes sample from ``random.Random(seed)``; every player
    picks uniformly among its legal actions with the same generator."""
    game = GAMES[mode](list(sheets))
    state: State = game.new_state()
    rng = random.Random(seed)
    lines = [
        "# Golden playthrough. Regenerate: UPDATE_GOLDEN=1 pytest tests/test_golden.py",
        f"mode: {mode}",
        f"sheets: {', '.join(sheets)}",
        f"seed: {seed}",
        "policy: uniform over the legal actions, dice and choices from random.Random(seed)",
        "seats are numbered from 1; [n legal] = how many actions (pass included) the player had",
        "",
    ]
    while not state.is_terminal():
        if state.is_chance_node():
            roll = state.sample_roll(rng)
            lines.append(f"roll {state.roll_index + 1}: {' '.join(roll.to_json()['colours'])} | "
                         f"{' '.join(roll.to_json()['numbers'])}   (seat {state.game.active_seat(state) + 1} active)")
            state.apply(roll)
            continue
        seat = state.current_player()
        acts = state.legal_actions()
        action = acts[rng.randrange(len(acts))]
        state.apply(action)
        lines.append(f"  seat {seat + 1} [{len(acts)} legal]: {render_action(action)}")
    lines += ["", "outcome:", outcome_text(state.outcome().to_json()), ""]
    return "\n".join(lines)


def outcome_text(out: dict) -> str:
    """The outcome as JSON, one line for the game and one per seat's score."""
    head = json.dumps({k: v for k, v in out.items() if k != "scores"}, sort_keys=True)
    scores = [json.dumps(s, sort_keys=True) for s in out["scores"]]
    return head[:-1] + ', "scores": [\n  ' + ",\n  ".join(scores) + "\n]}"


@pytest.mark.parametrize("mode,sheets,seed", CASES, ids=[file_name(*c)[:-4] for c in CASES])
def test_golden_playthrough(mode, sheets, seed):
    path = GOLDEN_DIR / file_name(mode, sheets, seed)
    text = playthrough(mode, sheets, seed)
    if UPDATE:
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"{path} missing: create it with UPDATE_GOLDEN=1 pytest tests/test_golden.py"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                            str(path), "this engine", n=2))
        lines = diff.splitlines()
        if len(lines) > 80:
            diff = "\n".join(lines[:80]) + f"\n... ({len(lines) - 80} more diff lines)"
        pytest.fail(f"golden playthrough changed (if intended: UPDATE_GOLDEN=1 pytest tests/test_golden.py)\n{diff}",
                    pytrace=False)


def test_golden_is_deterministic_and_outcome_is_json():
    mode, sheets, seed = CASES[0]
    text = playthrough(mode, sheets, seed)
    assert text == playthrough(mode, sheets, seed)
    outcome = json.loads(text.split("\noutcome:\n", 1)[1])
    assert outcome["mode"] == mode and len(outcome["scores"]) == len(sheets)


def test_no_stale_golden_files():
    expected = {file_name(*c) for c in CASES}
    stale = {p.name for p in GOLDEN_DIR.glob("*.txt")} - expected
    assert not stale, f"golden files without a case in test_golden.CASES: {sorted(stale)}"
