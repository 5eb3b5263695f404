"""Golden games of *twenty one*: whole seeded games written out as text in ``tests/golden/twentyone``
and compared with what the engine plays now, so any change of play shows as a readable diff.

Each file shows the sheets (every field's colour and printed value), the lot, every round's
attempts, every seat's entry or cross-out with the row as it stands afterwards, every row scored
(numbers, hits, bonus) and the end with each seat's rows and totals, so a reviewer can check a
game against ``RULES-TWENTYONE.md`` by hand. After an intended change, regenerate and review::

    UPDATE_GOLDEN=1 pytest tests/test_golden_twentyone.py
    python -m tests.test_golden_twentyone --update          # the same, without pytest
"""

from __future__ import annotations

import difflib
import os
import random
import sys
from pathlib import Path

import pytest

from nochmal.bots.twentyone_policies import twentyone_policy
from nochmal.engine.twentyone import COLOURS, CrossOut, Enter, Lot, Roll, TwentyOneGame
from nochmal.engine.twentyone.components import COLOUR_LETTERS, N_ROWS
from nochmal.engine.twentyone.game import CHOOSE, ROLL, SECOND, TwentyOneState

GOLDEN_DIR = Path(__file__).parent / "golden" / "twentyone"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

# (name, seat bots, seed): the seats play sheets A, B, ... in seat order
CASES = [
    ("practice-1p", ("greedy",), 4),
    ("3p", ("greedy", "random", "greedy"), 7),
    ("6p", ("greedy", "random", "greedy", "random", "greedy", "random"), 2),
]


def file_name(name: str, bots: tuple, seed: int) -> str:
    return f"{name}-seed{seed}.txt"


def die(colour: int, face: int) -> str:
    return f"{COLOUR_LETTERS[colour]}{face}"


def roll_text(roll: Roll) -> str:
    return " ".join(die(c, f) for c, f in enumerate(roll.faces))


def row_marks(state: TwentyOneState, seat: int, row: int) -> str:
    """A row's six fields left to right: the number entered (``*`` after a hit), X crossed, . free."""
    s = state.seats[seat]
    out = []
    for v, printed in zip(s.marks[row], s.sheet.value_at[row]):
        out.append("." if v is None else "X" if v == 0 else f"{v}*" if v == printed else str(v))
    return " ".join(out)


def score_text(rs) -> str:
    hits = f"{rs.hits} hit" + ("" if rs.hits == 1 else "s")
    return f"numbers {rs.numbers} + bonus {rs.bonus} ({hits}) = {rs.total}"


def entry_text(state: TwentyOneState, seat: int, action) -> str:
    """What ``seat`` does with ``action``, before it is applied (dice with their fields)."""
    s = state.seats[seat]
    if isinstance(action, CrossOut):
        return f"crosses out field {action.field + 1}"
    parts = []  # in field order, left to right
    for p, c in sorted((s.sheet.field_of[s.row][c], c) for c in action.colours):
        face = state.dice.faces[c]
        hit = ", hit" if face == s.sheet.value_at[s.row][p] else ""
        parts.append(f"{COLOURS[c]} {face} in field {p + 1}{hit}")
    return "enters " + "; ".join(parts)


def playthrough(bots: tuple, seed: int) -> str:
    """The text of one game: chance actions and the random bots draw from ``random.Random(seed)``."""
    game = TwentyOneGame.create(len(bots))
    policies = [twentyone_policy(b) for b in bots]
    state = game.new_state()
    rng = random.Random(seed)
    lines = [
        "# Golden game of twenty one. Regenerate: UPDATE_GOLDEN=1 pytest tests/test_golden_twentyone.py",
        f"players: {len(bots)}" + ("  (practice, T-PRACTICE)" if len(bots) == 1 else ""),
        "bots: " + ", ".join(f"seat {i + 1} {b}" for i, b in enumerate(bots)),
        f"seed: {seed}  (dice, the lot and the random bots' choices from random.Random(seed))",
        "notation: w white, k black, r red, b blue, y yellow, g green; a die or a field is its colour letter",
        "and face / printed value; in a row: the number entered, * after a hit (T-HIT), X crossed, . free",
        "",
    ]
    for i, sheet in enumerate(game.sheets):
        lines.append(f"seat {i + 1}: sheet {sheet.id} ({sheet.provenance})")
        lines += [f"  row {r + 1}: {text}" for r, text in enumerate(sheet.rows_text())]
    lines.append("")
    while not state.is_terminal():
        if state.phase == ROLL:  # a round begins with the active player's first attempt
            lines.append(f"round {state.round_index + 1}: seat {state.active + 1} active")
        if state.is_chance_node():
            action = state.sample_chance(rng)
            if isinstance(action, Lot):
                lines.append(f"lot: seat {action.seat + 1} starts")
            else:
                label = "second attempt" if state.phase == SECOND else "roll"
                lines.append(f"  {label}: {roll_text(action)}")
            state.apply(action)
            continue
        seat = state.current_player()
        action = policies[seat](state, rng)
        if state.phase == CHOOSE:
            lines.append(f"  seat {seat + 1}: " + ("keeps it" if action == state.legal_actions()[0]
                                                    else "takes the second attempt (the 1s stay)"))
            state.apply(action)
            continue
        assert isinstance(action, (Enter, CrossOut))
        row = state.seats[seat].row
        text = entry_text(state, seat, action)
        state.apply(action, seat=seat)
        s = state.seats[seat]
        line = f"  seat {seat + 1} row {row + 1}: {text}  ->  {row_marks(state, seat, row)}"
        lines.append(line)
        if s.row != row:
            lines.append(f"    row {row + 1} scored: {score_text(s.scores[-1])}; total {state.total(seat)}")
    out = state.outcome()
    lines += ["", f"end: {out.reason}, after round {out.rounds}"]
    for res in out.seats:
        lines.append(f"seat {res.seat + 1} (sheet {res.sheet}):")
        for rs in res.rows:
            partial = "" if rs.full else "  (unfinished, T-END-PARTIAL)"
            lines.append(f"  row {rs.row + 1}: {row_marks(state, res.seat, rs.row):<20} {score_text(rs)}{partial}")
        unscored = N_ROWS - len(res.rows)
        if unscored:
            lines.append(f"  rows {len(res.rows) + 1}-{N_ROWS}: not reached" if unscored > 1
                         else f"  row {N_ROWS}: not reached")
        lines.append(f"  total {res.total}")
    lines.append("winners: " + ", ".join(f"seat {w + 1}" for w in out.winners))
    return "\n".join(lines) + "\n"


def check_case(name: str, bots: tuple, seed: int, update: bool) -> str | None:
    """None if the file matches the engine's play now (after writing it, if ``update``); else a diff."""
    path = GOLDEN_DIR / file_name(name, bots, seed)
    text = playthrough(bots, seed)
    if update:
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if not path.is_file():
        return f"{path} missing: create it with UPDATE_GOLDEN=1 pytest tests/test_golden_twentyone.py"
    expected = path.read_text(encoding="utf-8")
    if text == expected:
        return None
    diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), str(path),
                                        "this engine", n=2)).splitlines()
    if len(diff) > 80:
        diff = diff[:80] + [f"... ({len(diff) - 80} more diff lines)"]
    return ("golden game changed (if intended: UPDATE_GOLDEN=1 pytest tests/test_golden_twentyone.py)\n"
            + "\n".join(diff))


@pytest.mark.parametrize("name,bots,seed", CASES, ids=[c[0] for c in CASES])
def test_golden_twentyone(name, bots, seed):
    problem = check_case(name, bots, seed, UPDATE)
    if problem:
        pytest.fail(problem, pytrace=False)


def test_golden_twentyone_is_deterministic_and_ends_with_the_engines_outcome():
    name, bots, seed = CASES[1]
    text = playthrough(bots, seed)
    assert text == playthrough(bots, seed)
    # the totals written at the end are the engine's outcome, seat by seat
    game = TwentyOneGame.create(len(bots))
    totals = [int(line.split()[-1]) for line in text.splitlines() if line.startswith("  total ")]
    assert len(totals) == len(bots)
    assert all(0 <= t <= 5 * (21 + 21) for t in totals)
    assert text.splitlines()[-1].startswith("winners: seat ")
    assert f"seat 1: sheet {game.sheets[0].id}" in text


def test_golden_twentyone_shows_a_changed_rule_as_a_diff(monkeypatch):
    """The check can fail: a different bonus table changes the text of a game with hits."""
    import nochmal.engine.twentyone.components as C

    name, bots, seed = CASES[0]
    assert check_case(name, bots, seed, update=False) is None
    monkeypatch.setattr(C, "BONUS", (0, 2, 4, 7, 11, 16, 22))
    problem = check_case(name, bots, seed, update=False)
    assert problem is not None and "bonus" in problem and "@@" in problem


def test_no_stale_twentyone_golden_files():
    expected = {file_name(*c) for c in CASES}
    stale = {p.name for p in GOLDEN_DIR.glob("*.txt")} - expected
    assert not stale, f"golden files without a case in CASES: {sorted(stale)}"


if __name__ == "__main__":  # python -m tests.test_golden_twentyone [--update]
    problems = [p for c in CASES if (p := check_case(*c, update="--update" in sys.argv[1:]))]
    print("\n\n".join(problems) if problems else f"{len(CASES)} golden games match")
    sys.exit(1 if problems else 0)
