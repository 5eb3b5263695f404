"""Cell names and bit masks.

A sheet has 7 rows x 15 columns. Cell ``A1`` is column A, row 1 (the top row). Cells are
numbered ``index = row * 15 + column`` (0-based) and a set of cells is an ``int`` bit mask
with bit ``index`` set for every cell in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from nochmal.engine.errors import InvalidInputError

N_ROWS = 7
N_COLS = 15
N_CELLS = N_ROWS * N_COLS
COLUMNS = "ABCDEFGHIJKLMNO"
FULL = (1 << N_CELLS) - 1

#: Colours in their canonical order; the index is the colour's number in the engine.
COLOURS = ("yellow", "green", "blue", "red", "orange")
COLOUR_LETTERS = "ygbro"
COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}

CELL_NAMES = tuple(f"{COLUMNS[i % N_COLS]}{i // N_COLS + 1}" for i in range(N_CELLS))
_CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}


def column_mask(col: int) -> int:
    return sum(1 << (r * N_COLS + col) for r in range(N_ROWS))


def row_mask(row: int) -> int:
    return ((1 << N_COLS) - 1) << (row * N_COLS)


COLUMN_MASKS = tuple(column_mask(c) for c in range(N_COLS))
ROW_MASKS = tuple(row_mask(r) for r in range(N_ROWS))
_NOT_COL_A = FULL & ~COLUMN_MASKS[0]
_NOT_COL_O = FULL & ~COLUMN_MASKS[-1]


def cell_index(name: str) -> int:
    """``"H4"`` -> 52. Raises :class:`InvalidInputError` naming the bad cell."""
    try:
        return _CELL_INDEX[name.strip().upper()]
    except (KeyError, AttributeError):
        raise InvalidInputError(
            f"unknown cell {name!r}: cells are A1..O7 (column A-O, row 1-7 from the top)"
        ) from None


def cell_name(index: int) -> str:
    return CELL_NAMES[index]


def mask_of(names: Iterable[str]) -> int:
    mask = 0
    for name in names:
        mask |= 1 << cell_index(name)
    return mask


def indices(mask: int) -> Iterator[int]:
    """Cell indices of a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def names(mask: int) -> list[str]:
    """Cell names of a mask, sorted by name (column letter, then row)."""
    return sorted(CELL_NAMES[i] for i in indices(mask))


def neighbours(mask: int) -> int:
    """All cells orthogonally adjacent to some cell of ``mask`` (may include cells of mask)."""
    return (
        ((mask & _NOT_COL_O) << 1)
        | ((mask & _NOT_COL_A) >> 1)
        | ((mask << N_COLS) & FULL)
        | (mask >> N_COLS)
    )


def is_connected(mask: int) -> bool:
    """True if the cells of ``mask`` are orthogonally connected (an empty mask is not)."""
    if not mask:
        return False
    reached = mask & -mask
    while True:
        grown = (reached | neighbours(reached)) & mask
        if grown == reached:
            return reached == mask
        reached = grown


def colour_index(name: str) -> int:
    try:
        return COLOUR_INDEX[name.strip().lower()]
    except (KeyError, AttributeError):
        raise InvalidInputError(
            f"unknown colour {name!r}: colours are {', '.join(COLOURS)}", rule="R-COLOUR"
        ) from None


_PARTS: dict[int, tuple[int, ...]] = {}


def components(mask: int) -> tuple[int, ...]:
    """The orthogonally connected parts of ``mask``, lowest cell first (memoised: a pure
    function of the grid)."""
    parts = _PARTS.get(mask)
    if parts is None:
        out = []
        rest = mask
        while rest:
            reached = rest & -rest
            while True:
                grown = (reached | neighbours(reached)) & rest
                if grown == reached:
                    break
                reached = grown
            out.append(reached)
            rest &= ~reached
        parts = _PARTS[mask] = tuple(out)
        if len(_PARTS) > 200_000:
            _PARTS.clear()
    return parts
