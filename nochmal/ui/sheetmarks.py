"""What a sheet and the co-op turn track show besides the crosses (pure functions, no
streamlit): the marks under a sheet's columns and colours (first or later value, gone), and the
27 turn fields with their goals."""

from __future__ import annotations

from nochmal.engine.cells import COLOURS, N_COLS


def track_view(state) -> list[dict]:
    """The 27 turn fields: seat, whether it is past / current / future, and the goal after it."""
    game = state.game
    turn = state.roll_index + 1
    checks = state.extra.get("checks", {})
    out = []
    for t in range(1, game.n_turns + 1):
        field = {"turn": t, "seat": game.tableau.active_seat(t - 1),
                 "status": "past" if t < turn else "current" if t == turn else "future"}
        if t in (10, 19, 27):
            done = checks.get(str(t))
            field["goal"] = game.tableau.value(f"goal_{t}")
            field["check"] = done
        out.append(field)
    return out


def column_marks(state, seat: int) -> list[str | None]:
    """Per column A..O, what ``seat``'s sheet shows under it (R-COLUMN, R-FIRST):

    - "first": the seat filled the column and scores the first value (circle the first value);
    - "later": the seat filled it after somebody else had, in an earlier roll (strike the first
      value, circle the later one);
    - "gone": the seat has not filled it, but somebody filled it in an earlier roll, so the
      first value is no longer there for this seat (strike the first value);
    - None: nothing to mark.

    Read from the engine: a scored column's points (``Seat.columns``), and ``claimed_columns``
    (columns filled in an earlier roll). A column filled in the roll still being played is marked
    as the engine will score it when the roll is settled: "first" unless it was claimed in an
    earlier roll (players filling it in the same roll all get the first value); another seat's
    fill in this roll takes nothing away yet."""
    s = state.seats[seat]
    first, later = s.sheet.first_points, s.sheet.later_points
    out: list[str | None] = []
    for c in range(N_COLS):
        claimed = state.claimed_columns >> c & 1
        if c in s.columns:  # settled: the engine scored it
            out.append("later" if first[c] != later[c] and s.columns[c] == later[c] else "first")
        elif c in s.new_columns:  # filled in this roll, settled when everybody has decided
            out.append("later" if claimed else "first")
        else:
            out.append("gone" if claimed else None)
    return out


def colour_marks(state, seat: int) -> list[str | None]:
    """Per colour (yellow, green, blue, red, orange), the same marks for the colour bonuses
    (R-COLOUR-BONUS: 5 first / 3 later; R-FIRST). Where completed colours score nothing
    (co-op, C-NO-BONUS; they still count for missions) a completed colour is "done"."""
    s = state.seats[seat]
    first_bonus, later_bonus = state.game.colour_bonus
    out: list[str | None] = []
    for c in range(len(COLOURS)):
        completed = c in s.colours or c in s.new_colours
        if not (first_bonus or later_bonus):
            out.append("done" if completed else None)
            continue
        claimed = state.claimed_colours >> c & 1
        if c in s.colours:
            out.append("later" if first_bonus != later_bonus and s.colours[c] == later_bonus else "first")
        elif c in s.new_colours:
            out.append("later" if claimed else "first")
        else:
            out.append("gone" if claimed else None)
    return out
