"""One-off questions about a position that scripts ask through the CLI (``nochmal legal-moves``).

:func:`answer_line` is the whole protocol for one input line: bytes in, ``{"moves": ...}`` or
``{"error": "..."}`` out, whatever the bytes hold (invalid UTF-8, deep nesting, a 5,000-digit
number, wrong types, a line longer than :data:`MAX_LINE_BYTES`); it never raises."""

from __future__ import annotations

import reprlib
from typing import Any

from nochmal.engine.cells import COLOURS, N_CELLS, cell_index, colour_index, names
from nochmal.engine import jsonin
from nochmal.engine.errors import InvalidInputError, NochmalError
from nochmal.engine.sheet import MAX_COUNT, get_sheet

QUERY_FIELDS = {"sheet", "crossed", "colour", "count"}
#: Longest query line accepted (a query with every cell of a sheet crossed is ~800 bytes).
MAX_LINE_BYTES = 64 * 1024
#: Longest sheet id / colour name looked up (longer ones are unknown without looking).
_MAX_NAME = 64
#: Longest quotation of the input in an error message.
_MAX_QUOTE = 120

_short = reprlib.Repr()
_short.maxstring = 40
_short.maxother = 40
_short.maxlong = 40
_short.maxlist = _short.maxtuple = _short.maxdict = 4
_short.maxlevel = 2


def quote(value: Any) -> str:
    """A short repr of a value from the input, for an error message (long strings, numbers
    and lists are cut with '...'; nesting beyond two levels is shown as '[...]'; at most
    :data:`_MAX_QUOTE` characters in all)."""
    try:
        text = _short.repr(value)
    except Exception:  # noqa: BLE001 - an error message must not fail
        return f"<{type(value).__name__}>"
    return text if len(text) <= _MAX_QUOTE else text[: _MAX_QUOTE - 3] + "..."


def _type_name(value: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", int: "number",
            float: "number", type(None): "null"}.get(type(value), type(value).__name__)


def legal_cell_sets(query: Any) -> list[list[str]]:
    """For ``{"sheet", "crossed", "colour", "count"}``: every cell set that is a legal cross,
    each sorted by cell name, the list sorted. Raises :class:`InvalidInputError` naming the
    field (and the rule id where one applies)."""
    if not isinstance(query, dict):
        raise InvalidInputError(f"a query must be a JSON object, got {_type_name(query)} {quote(query)}")
    unknown = sorted(set(query) - QUERY_FIELDS)
    if unknown:
        shown = ", ".join(quote(k) for k in unknown[:3]) + (f" and {len(unknown) - 3} more" if len(unknown) > 3 else "")
        raise InvalidInputError(f"unknown field(s) {shown}; a query has {', '.join(sorted(QUERY_FIELDS))}")
    missing = {"sheet", "colour", "count"} - set(query)
    if missing:
        raise InvalidInputError(f"missing field(s) {', '.join(sorted(missing))}")
    sheet_id = query["sheet"]
    if not isinstance(sheet_id, str):
        raise InvalidInputError(f"sheet must be a sheet id string, got {_type_name(sheet_id)} {quote(sheet_id)}",
                                rule="R-SHEET")
    if len(sheet_id) > _MAX_NAME:
        raise InvalidInputError(f"unknown sheet {quote(sheet_id)} (sheet ids have at most {_MAX_NAME} characters)",
                                rule="R-SHEET")
    sheet = get_sheet(sheet_id)
    crossed_names = query.get("crossed", [])
    if not isinstance(crossed_names, list) or not all(isinstance(c, str) for c in crossed_names):
        raise InvalidInputError(f"crossed must be a list of cell names like [\"H1\", \"H2\"], got {quote(crossed_names)}")
    if len(crossed_names) > N_CELLS:
        raise InvalidInputError(f"crossed lists {len(crossed_names)} cells; a sheet has {N_CELLS}")
    crossed = 0
    for i, c in enumerate(crossed_names):
        try:
            crossed |= 1 << cell_index(c)
        except InvalidInputError:
            raise InvalidInputError(f"crossed[{i}]: unknown cell {quote(c)}: cells are A1..O7 "
                                    "(column A-O, row 1-7 from the top)") from None
    colour = query["colour"]
    if not isinstance(colour, str) or len(colour) > _MAX_NAME:
        raise InvalidInputError(f"colour must be one of {', '.join(COLOURS)}, got {quote(colour)}", rule="R-COLOUR")
    ci = colour_index(colour)
    count = query["count"]
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COUNT:
        raise InvalidInputError(f"count must be a whole number from 1 to {MAX_COUNT}, got {quote(count)}",
                                rule="R-COUNT")
    moves = [names(m) for m in sheet.move_table(crossed)[ci][count]]
    moves.sort()
    return moves


def parse_query_line(raw: bytes) -> Any:
    """The JSON value on one input line (its line ending may be included). Raises
    :class:`InvalidInputError` for a line that is too long, not UTF-8 or not JSON."""
    if not isinstance(raw, (bytes, bytearray)):
        raise InvalidInputError(f"a query line must be bytes, got {type(raw).__name__}")
    body = bytes(raw)
    for ending in (b"\n", b"\r"):
        if body.endswith(ending):
            body = body[:-1]
    if len(body) > MAX_LINE_BYTES:
        raise InvalidInputError(f"line too long: more than {MAX_LINE_BYTES} bytes (the limit for one query)")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InvalidInputError(f"line is not valid UTF-8: byte 0x{body[err.start]:02x} at byte {err.start + 1}") from None
    if not text.strip():
        raise InvalidInputError("empty line: expected a JSON query object")
    try:
        return jsonin.loads(text)
    except InvalidInputError as err:
        raise InvalidInputError(f"invalid JSON: {err}") from None


def answer_line(raw: bytes) -> dict:
    """The answer to one ``legal-moves`` input line: ``{"moves": [...]}`` or ``{"error": "..."}``.
    Never raises: an unexpected exception (a bug) is answered as an error too."""
    try:
        return {"moves": legal_cell_sets(parse_query_line(raw))}
    except NochmalError as err:
        return {"error": str(err)}
    except Exception as err:  # noqa: BLE001 - every line gets an answer, whatever happened
        return {"error": f"internal error while answering this line ({type(err).__name__}); please report it"}


def read_lines(stream, limit: int = MAX_LINE_BYTES):
    """The lines of a binary stream, each with its line ending. A line longer than ``limit``
    is yielded cut to ``limit + 2`` bytes (so :func:`answer_line` refuses it) and the rest of
    it is skipped without being held in memory: one answer per input line, whatever its length."""
    while True:
        line = stream.readline(limit + 2)  # limit bytes, a "\r" and the "\n"
        if not line:
            return
        if len(line) == limit + 2 and not line.endswith(b"\n"):  # too long: skip the rest of it
            while True:
                rest = stream.readline(1 << 16)
                if not rest or rest.endswith(b"\n"):
                    break
        yield line
