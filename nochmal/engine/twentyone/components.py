"""The components of *twenty one* (RULES-TWENTYONE.md section 1): six coloured dice (T-DICE),
sheets of five rows of six fields (T-SHEET) and the bonus for hits (T-BONUS).

Only facts live here: sizes, colour names and letters, the bonus table. They are module
constants so that the engine, the sheet loader and the bots read one copy."""

from __future__ import annotations

#: T-DICE: one die of each colour, in this order everywhere (a roll is six faces in this order).
COLOURS = ("white", "black", "red", "blue", "yellow", "green")
#: One letter per colour for sheet files and compact positions: k is black (b is blue).
COLOUR_LETTERS = "wkrbyg"
COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}
N_DICE = len(COLOURS)
#: T-DICE: every die shows 1..6.
FACES = (1, 2, 3, 4, 5, 6)
#: T-SHEET: five rows (row 1 at the top) of six fields, one field of each colour per row.
N_ROWS = 5
N_FIELDS = N_DICE
FULL_ROW = (1 << N_FIELDS) - 1
#: T-SHEET: row 1 as printed on every sheet (verified from reviews and the rulebook's example).
ROW_1_VALUES = (6, 5, 4, 3, 2, 1)
#: T-BONUS: the bonus for 0..6 hits in a row.
BONUS = (0, 1, 3, 6, 10, 15, 21)
#: The one die face that stays on the table at the second attempt (T-ROLL).
KEPT_FACE = 1


def bonus(hits: int) -> int:
    """T-BONUS: the points for ``hits`` hits in one row (0 hits: 0)."""
    return BONUS[hits]


def row_score(entered: tuple[int, ...] | list[int], printed: tuple[int, ...]) -> tuple[int, int, int]:
    """T-ROW-SCORE for one row's fields: ``entered[p]`` is the number in field ``p`` (0 for a
    crossed field, None for a free one), ``printed[p]`` its printed value. Returns (numbers, hits,
    bonus): the sum of the numbers, how many are hits (T-HIT: the number equals the printed value)
    and their bonus. A partial row (T-END-PARTIAL) is scored the same way: free fields add 0."""
    numbers = sum(v for v in entered if v)
    hits = sum(1 for v, p in zip(entered, printed) if v and v == p)
    return numbers, hits, bonus(hits)
