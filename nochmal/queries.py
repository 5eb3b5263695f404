"""One-off questions about a position that scripts ask through the CLI (``nochmal legal-moves``)."""

from __future__ import annotations

from typing import Any

from .cells import COLOURS, cell_index, colour_index, names
from .errors import InvalidInputError
from .sheet import MAX_COUNT, get_sheet

QUERY_FIELDS = {"sheet", "crossed", "colour", "count"}


def legal_cell_sets(query: Any) -> list[list[str]]:
    """For ``{"sheet", "crossed", "colour", "count"}``: every cell set that is a legal cross,
    each sorted by cell name, the list sorted. Raises :class:`InvalidInputError` naming the
    problem (and the rule id where one applies)."""
    if not isinstance(query, dict):
        raise InvalidInputError(f"a query must be a JSON object, got {type(query).__name__}")
    unknown = set(query) - QUERY_FIELDS
    if unknown:
        raise InvalidInputError(f"unknown field(s) {', '.join(sorted(unknown))}; a query has {', '.join(sorted(QUERY_FIELDS))}")
    missing = {"sheet", "colour", "count"} - set(query)
    if missing:
        raise InvalidInputError(f"missing field(s) {', '.join(sorted(missing))}")
    sheet_id = query["sheet"]
    if not isinstance(sheet_id, str):
        raise InvalidInputError(f"sheet must be a sheet id string, got {sheet_id!r}", rule="R-SHEET")
    sheet = get_sheet(sheet_id)
    crossed_names = query.get("crossed", [])
    if not isinstance(crossed_names, list) or not all(isinstance(c, str) for c in crossed_names):
        raise InvalidInputError(f"crossed must be a list of cell names like [\"H1\", \"H2\"], got {crossed_names!r}")
    crossed = 0
    for c in crossed_names:
        crossed |= 1 << cell_index(c)
    colour = query["colour"]
    if not isinstance(colour, str):
        raise InvalidInputError(f"colour must be one of {', '.join(COLOURS)}, got {colour!r}", rule="R-COLOUR")
    ci = colour_index(colour)
    count = query["count"]
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COUNT:
        raise InvalidInputError(f"count must be a whole number from 1 to {MAX_COUNT}, got {count!r}", rule="R-COUNT")
    moves = [names(m) for m in sheet.move_table(crossed)[ci][count]]
    moves.sort()
    return moves
