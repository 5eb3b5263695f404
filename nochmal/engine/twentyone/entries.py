"""Which dice may go into a row (T-ENTER, T-HIT) and which field a cross-out takes (T-CROSS):
pure functions of a sheet row, its filled fields (a bit mask over the six fields, bit ``p`` =
field ``p`` from the left) and the roll. The state and the bots both ask these.

The legal entries of a position are cheap: :func:`fitting_dice` lists, per die, the field it
would fill and whether it is a hit (at most six); every non-empty subset of that list is a legal
entry (the dice go to different fields, since every field has its own colour), and the cross-out
of :func:`cross_field` is the one other legal action. Nothing else is enumerated."""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from nochmal.engine.twentyone.actions import CrossOut, Enter
from nochmal.engine.twentyone.components import FULL_ROW, N_DICE
from nochmal.engine.twentyone.sheets import TwentyOneSheet


class Fit(NamedTuple):
    """A die that may be entered: its colour, the field (0-based) it fills, its face, and whether
    the face equals the printed value (T-HIT)."""

    colour: int
    field: int
    face: int
    hit: bool


def fitting_dice(sheet: TwentyOneSheet, row: int, filled: int, faces: tuple[int, ...]) -> tuple[Fit, ...]:
    """T-ENTER: the dice of ``faces`` (colour order) that may go into ``row`` with ``filled`` fields
    taken: the field of the die's colour is free and the die shows at most its printed value.
    In colour order."""
    out = []
    fields, printed = sheet.field_of[row], sheet.value_at[row]
    for colour in range(N_DICE):
        p = fields[colour]
        if not filled >> p & 1 and faces[colour] <= printed[p]:
            out.append(Fit(colour, p, faces[colour], faces[colour] == printed[p]))
    return tuple(out)


def cross_field(filled: int) -> int | None:
    """T-CROSS: the leftmost free field of a row (None if the row is full)."""
    free = ~filled & FULL_ROW
    return (free & -free).bit_length() - 1 if free else None


def entry_actions(fits: tuple[Fit, ...]) -> list[Enter]:
    """Every legal entry for ``fits``: each non-empty subset as an :class:`Enter`, sorted
    (fewer dice first, then by colour)."""
    colours = [f.colour for f in fits]
    return [Enter(c) for k in range(1, len(colours) + 1) for c in combinations(colours, k)]


def legal_row_actions(fits: tuple[Fit, ...], filled: int) -> list[Enter | CrossOut]:
    """The entries of :func:`entry_actions`, then the cross-out (always legal while the row has a free
    field: "cannot, or will not", T-CROSS)."""
    out: list[Enter | CrossOut] = list(entry_actions(fits))
    p = cross_field(filled)
    if p is not None:
        out.append(CrossOut(p))
    return out
