"""Crossing cells (RULES.md section 3): the legality check and the enumeration of legal moves.

A :class:`Cross` names the dice it uses (a colour-die face and a number-die face), the colour
it crosses (the die's colour, or any colour for the black X) and the cells as a bit mask.
:func:`check_cross` raises :class:`IllegalMoveError` with the rule id; :func:`cross_for_selection`
reads the cross a player means by the cells he chose (or names the first rule the choice breaks);
:class:`MoveList` is a lazy, sorted, indexable view of every legal move for the dice a player may use.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from nochmal.engine.cells import COLOURS, FULL, indices, is_connected, mask_of, names, neighbours
from nochmal.engine.dice import (
    COLOUR_FACES,
    COLOUR_JOKER,
    NUMBER_FACES,
    NUMBER_JOKER,
    colour_face_name,
    number_face_name,
    parse_colour_face,
    parse_number_face,
)
from nochmal.engine.errors import IllegalMoveError, InvalidInputError
from nochmal.engine.sheet import MAX_COUNT, Sheet


class Cross(NamedTuple):
    """Cross ``cells`` (a mask) in ``colour`` using one colour die and one number die."""

    colour_die: int
    number_die: int
    colour: int
    cells: int

    @property
    def count(self) -> int:
        return self.cells.bit_count()

    @property
    def joker_cost(self) -> int:
        """R-JOKER-COST: one "!" per joker symbol used."""
        return (self.colour_die == COLOUR_JOKER) + (self.number_die == NUMBER_JOKER)

    def sort_key(self) -> tuple:
        return (1, self.colour_die, self.number_die, self.colour, self.cells.bit_count())

    def to_json(self) -> dict:
        return {
            "type": "cross",
            "colour_die": colour_face_name(self.colour_die),
            "number_die": number_face_name(self.number_die),
            "colour": COLOURS[self.colour],
            "cells": names(self.cells),
        }

    def __str__(self) -> str:
        return (f"{COLOURS[self.colour]} {'-'.join(names(self.cells))} "
                f"(dice {colour_face_name(self.colour_die)}+{number_face_name(self.number_die)})")


class Pass(NamedTuple):
    """Use no combination (base game: pass; co-op: a failed roll, C-FAIL)."""

    def to_json(self) -> dict:
        return {"type": "pass"}

    def __str__(self) -> str:
        return "pass"


PASS = Pass()


def parse_cross(data: dict) -> Cross:
    """A cross from its JSON form; malformed input raises :class:`InvalidInputError`."""
    from nochmal.engine.cells import colour_index

    if not isinstance(data, dict):
        raise InvalidInputError(f"a move must be an object, got {data!r}")
    cdie = parse_colour_face(data.get("colour_die"))
    ndie = parse_number_face(data.get("number_die"))
    colour = data.get("colour")
    if colour is None and cdie != COLOUR_JOKER:
        colour_i = cdie
    else:
        colour_i = colour_index(colour) if isinstance(colour, str) else _bad_colour(colour)
    cells = data.get("cells")
    if not isinstance(cells, list) or not all(isinstance(c, str) for c in cells):
        raise InvalidInputError(f"cells must be a list of cell names like ['H4', 'H5'], got {cells!r}")
    mask = mask_of(cells)
    if mask.bit_count() != len(cells):
        raise InvalidInputError(f"a cell is named twice in {cells!r}", rule="R-COUNT")
    return Cross(cdie, ndie, colour_i, mask)


def _bad_colour(value) -> int:
    raise InvalidInputError(f"colour must be one of {', '.join(COLOURS)}, got {value!r}", rule="R-COLOUR")


def position_text(sheet: Sheet, crossed: int, jokers_left: int) -> str:
    return f"sheet={sheet.id} crossed={','.join(names(crossed)) or '-'} jokers_left={jokers_left}"


def check_cross(
    sheet: Sheet,
    crossed: int,
    jokers_left: int,
    move: Cross,
    colour_faces: Sequence[int] | None = None,
    number_faces: Sequence[int] | None = None,
    dice_rule: str = "R-PASSIVE",
) -> None:
    """Raise :class:`IllegalMoveError` (with the rule id) unless ``move`` is legal for a player
    with ``crossed`` cells and ``jokers_left`` "!", using dice from the faces given (``None``:
    do not check dice availability; an unavailable die is reported under ``dice_rule``)."""
    pos = lambda: position_text(sheet, crossed, jokers_left)  # noqa: E731
    cdie, ndie, colour, cells = move
    if colour_faces is not None and cdie not in colour_faces:
        raise IllegalMoveError(dice_rule, f"no colour die showing {colour_face_name(cdie)} is available "
                               f"(available: {', '.join(colour_face_name(f) for f in colour_faces) or 'none'})", pos())
    if number_faces is not None and ndie not in number_faces:
        raise IllegalMoveError(dice_rule, f"no number die showing {number_face_name(ndie)} is available "
                               f"(available: {', '.join(number_face_name(f) for f in number_faces) or 'none'})", pos())
    if not 0 <= colour < len(COLOURS):
        raise InvalidInputError(f"unknown colour {colour!r}", rule="R-COLOUR")
    if cdie != COLOUR_JOKER and colour != cdie:
        raise IllegalMoveError("R-COLOUR", f"the colour die shows {colour_face_name(cdie)}, "
                               f"so {COLOURS[colour]} cannot be crossed with it", pos())
    count = cells.bit_count()
    if not 1 <= count <= MAX_COUNT:
        raise IllegalMoveError("R-COUNT", f"{count} cells: a move crosses 1 to 5 cells", pos())
    if ndie != NUMBER_JOKER and count != ndie:
        raise IllegalMoveError("R-COUNT", f"the number die shows {ndie}, but {count} cells were chosen", pos())
    if cells & ~FULL or cells < 0:
        raise InvalidInputError("cells outside the sheet")
    if cells & crossed:
        raise IllegalMoveError("R-FREE", f"{', '.join(names(cells & crossed))} already crossed", pos())
    wrong = cells & ~sheet.colour_masks[colour]
    if wrong:
        raise IllegalMoveError("R-COLOUR", f"{', '.join(names(wrong))} not {COLOURS[colour]}", pos())
    block = sheet.block_of[(cells & -cells).bit_length() - 1]
    if cells & ~block.mask:
        raise IllegalMoveError("R-BLOCK", f"{', '.join(names(cells))} lie in more than one {COLOURS[colour]} block", pos())
    if not is_connected(cells):
        raise IllegalMoveError("R-CONNECTED", f"{', '.join(names(cells))} are not orthogonally connected", pos())
    if not cells & (sheet.start_mask | neighbours(crossed)):
        col = sheet.spec.start_column
        if not crossed:
            raise IllegalMoveError("R-START", f"the first move must include a cell of the start column {col}", pos())
        raise IllegalMoveError("R-ADJ", f"no cell of {', '.join(names(cells))} is in column {col} or next to a crossed cell", pos())
    if move.joker_cost > jokers_left:
        raise IllegalMoveError("R-JOKER-COST", f"the move needs {move.joker_cost} \"!\" but {jokers_left} are left", pos())




def _faces_text(faces, names_of, order) -> str:
    return ", ".join(names_of(f) for f in sorted(faces, key=order.index))


def _colour_die_text(face: int) -> str:
    return "X joker" if face == COLOUR_JOKER else COLOURS[face]


def cross_for_selection(
    sheet: Sheet,
    crossed: int,
    jokers_left: int,
    cells: int,
    colour_faces: Sequence[int],
    number_faces: Sequence[int],
    *,
    colour_die: int | None = None,
    number_die: int | None = None,
    colour: int | None = None,
    rolled: tuple[Sequence[int], Sequence[int]] | None = None,
    dice_rule: str = "R-PASSIVE",
) -> Cross:
    """The cross a player means by choosing ``cells`` with the dice faces he may use
    (``colour_faces``, ``number_faces``): the legal one that costs the fewest "!" (then the
    lower colour die and number die, as :class:`MoveList` sorts). A selection no die reading
    makes legal raises :class:`IllegalMoveError` naming the *first* rule it breaks, in the order
    of the DECISION :data:`nochmal.engine.decisions.SELECTION_ORDER`, with every die it was judged against.

    ``colour_die`` / ``number_die`` / ``colour``: dice (and the X's colour) the player picked
    himself (None: any that fits). ``rolled``: the whole roll's (colour faces, number faces), so
    that a die the active player set aside is named as such (reported under ``dice_rule``)."""
    pos = lambda: position_text(sheet, crossed, jokers_left)  # noqa: E731
    cfs, nfs = tuple(colour_faces), tuple(number_faces)
    if colour_die is not None:
        if colour_die not in cfs:
            raise IllegalMoveError(dice_rule, f"no colour die showing {colour_face_name(colour_die)} is available "
                                   f"(available: {', '.join(colour_face_name(f) for f in cfs) or 'none'})", pos())
        cfs = (colour_die,)
    if number_die is not None:
        if number_die not in nfs:
            raise IllegalMoveError(dice_rule, f"no number die showing {number_face_name(number_die)} is available "
                                   f"(available: {', '.join(number_face_name(f) for f in nfs) or 'none'})", pos())
        nfs = (number_die,)
    if cells & ~FULL or cells < 0:
        raise InvalidInputError("cells outside the sheet")
    count = cells.bit_count()
    listed = ", ".join(names(cells))
    col = sheet.spec.start_column
    # R-FREE
    if cells & crossed:
        raise IllegalMoveError("R-FREE", f"{', '.join(names(cells & crossed))} already crossed", pos())
    # R-START
    if count and not crossed and not cells & sheet.start_mask:
        raise IllegalMoveError("R-START", f"the first move must include a cell of the start column {col}", pos())
    # R-COUNT: against the number dice (and never more than 5)
    if not nfs:
        raise IllegalMoveError(dice_rule, f"no number die showing {count} is available (available: none)", pos())
    if not 1 <= count <= MAX_COUNT:
        raise IllegalMoveError("R-COUNT", f"{count} cells: a move crosses 1 to 5 cells", pos())
    if count not in nfs and NUMBER_JOKER not in nfs:
        chosen = f"{count} cell was chosen" if count == 1 else f"{count} cells were chosen"
        usable = _faces_text(nfs, number_face_name, NUMBER_FACES)
        kept = rolled is not None and number_die is None and sorted(rolled[1]) != sorted(nfs)
        if kept and count in rolled[1]:
            raise IllegalMoveError(dice_rule, f"the {count} number die was set aside by the active player "
                                              f"(number dice you may use: {usable})", pos())
        if len(nfs) == 1:
            shows = "the number die you may use shows" if kept else "the number die shows"
        else:
            shows = "the number dice you may use show" if kept else "the number dice show"
        raise IllegalMoveError("R-COUNT", f"{shows} {usable}, but {chosen}", pos())
    # R-BLOCK / R-CONNECTED: one piece of one colour block
    first = (cells & -cells).bit_length() - 1
    cell_colour = sheet.colour_of[first]
    if cells & ~sheet.colour_masks[cell_colour]:
        raise IllegalMoveError("R-BLOCK", f"{listed} are not all one colour", pos())
    if cells & ~sheet.block_of[first].mask:
        raise IllegalMoveError("R-BLOCK", f"{listed} lie in more than one {COLOURS[cell_colour]} block", pos())
    if not is_connected(cells):
        raise IllegalMoveError("R-CONNECTED", f"{listed} are not orthogonally connected", pos())
    # R-COLOUR: against the colour dice
    if colour is not None and colour_die == COLOUR_JOKER and colour != cell_colour:
        raise IllegalMoveError("R-COLOUR", f"{listed} not {COLOURS[colour]}", pos())
    if cell_colour not in cfs and COLOUR_JOKER not in cfs:
        if colour_die is not None:  # the player picked a die of another colour
            raise IllegalMoveError("R-COLOUR", f"{listed} not {COLOURS[colour_die]}", pos())
        name = COLOURS[cell_colour]
        usable = _faces_text(cfs, _colour_die_text, COLOUR_FACES)
        if not cfs:
            raise IllegalMoveError(dice_rule, f"no colour die showing {name} is available (available: none)", pos())
        if rolled is not None and cell_colour in rolled[0]:
            raise IllegalMoveError(dice_rule, f"the {name} colour die was set aside by the active player "
                                              f"(colour dice you may use: {usable})", pos())
        if rolled is not None and COLOUR_JOKER in rolled[0]:
            raise IllegalMoveError(dice_rule, f"no {name} colour die this roll, and the X joker was set aside "
                                              f"by the active player (colour dice you may use: {usable})", pos())
        raise IllegalMoveError("R-COLOUR", f"no {name} colour die this roll (colour dice you may use: {usable})", pos())
    # R-ADJ (R-START was judged above: a first move with a cell in column H is next to it)
    if not cells & (sheet.start_mask | neighbours(crossed)):
        raise IllegalMoveError("R-ADJ", f"no cell of {listed} is in column {col} or next to a crossed cell", pos())
    # R-JOKER-COST: the cheapest reading
    readings = [Cross(c, n, cell_colour, cells)
                for c in ((cell_colour,) if cell_colour in cfs else ()) + ((COLOUR_JOKER,) if COLOUR_JOKER in cfs else ())
                for n in ((count,) if count in nfs else ()) + ((NUMBER_JOKER,) if NUMBER_JOKER in nfs else ())]
    move = min(readings, key=lambda m: (m.joker_cost, m.colour_die, m.number_die))
    if move.joker_cost > jokers_left:
        raise IllegalMoveError("R-JOKER-COST", f"the move needs {move.joker_cost} \"!\" but {jokers_left} are left",
                               pos())
    check_cross(sheet, crossed, jokers_left, move, colour_faces, number_faces, dice_rule)  # the one judge of a cross
    return move


def is_legal_cross(sheet, crossed, jokers_left, move, colour_faces=None, number_faces=None) -> bool:
    try:
        check_cross(sheet, crossed, jokers_left, move, colour_faces, number_faces)
    except (IllegalMoveError, InvalidInputError):
        return False
    return True


class MoveList(Sequence):
    """Every legal action of one player for the dice he may use: :data:`PASS` first, then the
    crosses sorted by (colour die, number die, colour, count, block, cell mask).

    Lazy: built from the sheet's move table without creating a move object per entry;
    ``len``, indexing, iteration and ``in`` (which calls the legality check, not a scan).
    """

    __slots__ = ("_groups", "_offsets", "_len", "_check")

    def __init__(self, groups: list, check) -> None:
        # groups: [(colour_die, number_die, colour, masks), ...] each masks non-empty
        self._groups = groups
        offsets = []
        total = 1  # PASS at index 0
        for g in groups:
            offsets.append(total)
            total += len(g[3])
        self._offsets = offsets
        self._len = total
        self._check = check

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        if i == 0:
            return PASS
        g = bisect_right(self._offsets, i) - 1
        cdie, ndie, colour, masks = self._groups[g]
        return Cross(cdie, ndie, colour, masks[i - self._offsets[g]])

    def __iter__(self) -> Iterator:
        yield PASS
        for cdie, ndie, colour, masks in self._groups:
            for m in masks:
                yield Cross(cdie, ndie, colour, m)

    def __contains__(self, move) -> bool:
        if move == PASS:
            return True
        return isinstance(move, Cross) and self._check(move)

    def crosses(self) -> int:
        return self._len - 1


def move_groups(table, jokers_left: int, colour_faces: Sequence[int], number_faces: Sequence[int]) -> list:
    """Group the sheet's move table by dice: [(colour_die, number_die, colour, masks)] in the
    sorted order of :class:`MoveList`."""
    groups = []
    cfs = sorted(set(colour_faces))
    nfs = sorted(set(number_faces))
    for cdie in cfs:
        ccost = cdie == COLOUR_JOKER
        if ccost > jokers_left:
            continue
        colours = range(5) if ccost else (cdie,)
        for ndie in nfs:
            ncost = ndie == NUMBER_JOKER
            if ccost + ncost > jokers_left:
                continue
            counts = (1, 2, 3, 4, 5) if ncost else (ndie,)
            for colour in colours:
                row = table[colour]
                for k in counts:
                    ms = row[k]
                    if ms:
                        groups.append((cdie, ndie, colour, ms))
    return groups


def legal_moves(sheet: Sheet, crossed: int, jokers_left: int,
                colour_faces: Sequence[int], number_faces: Sequence[int], table=None) -> MoveList:
    """Every legal action (pass included) of a player for the dice faces given."""
    if table is None:
        table = sheet.move_table(crossed)
    cf, nf = tuple(colour_faces), tuple(number_faces)
    return MoveList(
        move_groups(table, jokers_left, cf, nf),
        lambda m: is_legal_cross(sheet, crossed, jokers_left, m, cf, nf),
    )
