"""A compiled co-op game's result row and end position read as the engine's: the finished
:class:`nochmal.engine.game.State` (:func:`end_state`, whose outcome is the engine's outcome of the
same game), the crossed cells as masks or as the analytics' text, the removed die, the letters
counted. Python twin: the engine's own finished states (:mod:`nochmal.engine.game`).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

import numpy as np

from nochmal.engine.cells import CELL_NAMES, COLOURS, N_CELLS, N_COLS

from .layout import (R_FAILED, R_JOKERS, R_PTS10, R_PTS19, R_PTS27, R_REASON, R_REMOVED, R_SEQ, R_SEQSEAT,
                     R_TURNS, R_WON, REASONS)


def end_state(game, row: np.ndarray, end: np.ndarray):
    """The engine's finished :class:`~nochmal.engine.game.State` of a kernel game (its R_* ``row``
    and end position ``end``, from :func:`play_many` with ``ends``): the seats' crosses, "!",
    failed rolls, columns and colours, the turn, the checks' points, the removed die, the
    sequence, the end; :meth:`Game.outcome` of it is the engine's outcome of the same game."""
    return end_states(game, row[None, :], end[None, :, :])[0]


def end_states(game, rows: np.ndarray, ends: np.ndarray) -> list:
    """:func:`end_state` of each game of ``rows`` and ``ends`` (as :func:`play_many` returns them
    with ``ends``), converted together: numpy's work is done once for all games, not per seat.
    Thousands of small objects are made here at once, with the cycle collector paused
    (:func:`gc_paused`)."""
    with gc_paused():
        return _end_states(game, rows, ends)


@contextmanager
def gc_paused():
    """Run the block with Python's cycle collector paused, and resume it after (unless it was
    already paused). For blocks that make many small objects and no reference cycles, such as
    the finished states of thousands of rollouts: their memory is freed by reference counting
    as always, but the collector no longer walks every object of the process each few hundred
    allocations (two thirds of :func:`end_states`' time in ``nochmal bench``'s advisor
    positions, and more in the app, whose process holds more objects). The collector is one
    for the process: a block in another thread may resume it early, which costs only time."""
    was_on = gc.isenabled()
    if was_on:
        gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _end_states(game, rows: np.ndarray, ends: np.ndarray) -> list:
    from nochmal.engine.game import OVER

    masks = crossed_masks(ends != 0)
    tail = ends[:, :, N_CELLS:N_CELLS + N_COLS + len(COLOURS)].tolist()
    all_rows = rows.tolist()  # Python ints: numpy's scalars are slow to read one by one
    bonus = game.colour_bonus[0]  # C-NO-BONUS
    goals = {turn: game.tableau.value(f"goal_{turn}") for turn in ("10", "19", "27")}
    seq = sequence_columns(game)
    out = []
    for g, row in enumerate(all_rows):
        st = game.new_state()
        for p, seat in enumerate(st.seats):
            seat.crossed = masks[g][p]
            seat.jokers_used = seat.sheet.jokers - row[R_JOKERS + p]
            cols = tail[g][p]
            seat.columns = {c: cols[c] for c in range(N_COLS) if cols[c] >= 0}
            seat.colours = {c: bonus for c in range(len(COLOURS)) if cols[N_COLS + c]}
            seat.failed = row[R_FAILED + p]
        st.roll_index = row[R_TURNS] - 1
        st.phase = OVER
        st.end_reason = REASONS[row[R_REASON]]
        x = st.extra
        x["checks"] = {turn: {"points": row[r], "goal": goals[turn]}
                       for turn, r in (("10", R_PTS10), ("19", R_PTS19), ("27", R_PTS27)) if row[r] >= 0}
        x["won"] = bool(row[R_WON])
        x["removed_die"] = removed_die(row)
        x["sequence"] = sequence_state(seq, row)
        out.append(st)
    return out


def crossed_masks(marks: np.ndarray) -> list[list[int]]:
    """Each game's seats' crossed cells as the engine's bit masks, from ``marks`` (``ends != 0``
    of :func:`play_many` with ``ends``, or its first N_CELLS numbers per seat)."""
    games, n = marks.shape[:2]
    nbytes = (N_CELLS + 7) // 8
    data = np.packbits(marks[:, :, :N_CELLS], axis=-1, bitorder="little").tobytes()
    flat = [int.from_bytes(data[i * nbytes:(i + 1) * nbytes], "little") for i in range(games * n)]
    return [flat[g * n:(g + 1) * n] for g in range(games)]


def removed_die(row) -> str | None:
    """The die the team gave up at C-GOAL-19 in a result row (``R_REMOVED``), or None."""
    return None if row[R_REMOVED] < 0 else ("colour", "number")[row[R_REMOVED]]


def sequence_columns(game) -> str:
    """The columns of the mission's N-O-C-H-M-A-L sequence (M5), "" without one."""
    return next((r.columns for r in game.mission.requirements if r.kind == "sequence"), "")


def sequence_state(seq: str, row) -> dict:
    """The engine's ``extra["sequence"]`` of a result row: the letters of ``seq`` counted and by whom."""
    return {"counted": [(seq[i], row[R_SEQSEAT + i]) for i in range(row[R_SEQ])]} if seq else {}


_BY_NAME = np.array(sorted(range(N_CELLS), key=CELL_NAMES.__getitem__))
#: every cell's name and a space, in name order (every name is a column letter and a row digit)
_NAMES3 = np.frombuffer("".join(CELL_NAMES[i] + " " for i in _BY_NAME).encode("ascii"), np.uint8).reshape(N_CELLS, 3)


def crossed_text(end: np.ndarray) -> str:
    """The analytics row's ``crossed`` of a kernel game's end position (:func:`play_many` with
    ``ends``): each seat's crossed cells by name (``names``), space-separated, seats by ";"."""
    return crossed_texts(end[None, :, :] != 0)[0]


def crossed_texts(marks: np.ndarray) -> list[str]:
    """:func:`crossed_text` of each game, from ``marks`` (as :func:`crossed_masks` takes them)."""
    marks = marks[:, :, _BY_NAME]  # [game, seat, cell by name]
    at = np.flatnonzero(marks) % N_CELLS
    text = _NAMES3[at].tobytes().decode("ascii")  # "A1 A3 B2 ...": each name and a space
    cuts = np.concatenate(([0], np.cumsum(marks.sum(axis=2).ravel()) * 3)).tolist()
    n = marks.shape[1]
    seats = [text[a:b - 1] if b > a else "" for a, b in zip(cuts[:-1], cuts[1:])]
    return [";".join(seats[g * n:(g + 1) * n]) for g in range(marks.shape[0])]
