"""Sheets A-F of *twenty one* as data (T-SHEET): files ``boards/twentyone/<id>.toml`` (and the
owner's own sheets, ``<user data folder>/twentyone-sheets/<id>.toml``) loaded into a frozen pydantic model, checked by the sheet's invariants, and turned into a :class:`TwentyOneSheet`
that the engine and the bots read.

A file says, per row, the six fields' colours (letters ``w k r b y g``: white, black, red, blue,
yellow, green) and printed values, and where each part comes from (``provenance``: per row, for
the colours and for the values, "verified", "stand-in" or "user"). The printed values of row 1 are
known (6 5 4 3 2 1); rows 2-5 and every colour order are stand-ins until an owner enters the
printed ones, and the files say so.

Invariants (T-SHEET), checked for every file because a sheet that breaks one cannot be played:
each row holds each colour once; values are 1-6 and never rise from left to right; a row whose
values are "verified" matches the known printed row. A refusal names the file and the field
(``colours.3``, ``values.0.5``: 0-based, as the file's arrays are indexed, with the row
named 1-based in words) and the rule."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict

from nochmal.engine.errors import DataFileError, InvalidInputError
from nochmal.engine.contract import validated
from nochmal.engine.sheet import (BOARDS_DIR, Name, PlainText, read_data_file, toml_line, toml_value,
                                  user_boards_dir)
from nochmal.engine import tomlin
from nochmal.engine.twentyone.components import COLOUR_LETTERS, COLOURS, N_FIELDS, N_ROWS, ROW_1_VALUES

#: The shipped sheets A-F (beside *Noch mal!*'s boards).
SHEETS_DIR = BOARDS_DIR / "twentyone"
#: The shipped sheets' ids, in the rulebook's order.
SHEET_IDS = ("A", "B", "C", "D", "E", "F")
#: What a sheet id may be (as in the sheet files' ``id`` field).
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"

Part = Literal["verified", "stand-in", "user"]
StrictInt = Annotated[int, Strict()]
ColourRow = Annotated[str, Field(pattern=rf"^[{COLOUR_LETTERS}]{{{N_FIELDS}}}$")]
Value = Annotated[StrictInt, Field(ge=1, le=6)]
ValueRow = Annotated[tuple[Value, ...], Field(min_length=N_FIELDS, max_length=N_FIELDS)]
PerRow = Annotated[tuple[Part, ...], Field(min_length=N_ROWS, max_length=N_ROWS)]


class Provenance(BaseModel):
    """Where each part of a sheet comes from, row by row (row 1 first)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    colours: PerRow
    values: PerRow

    def summary(self) -> str:
        """The provenances that occur, joined by "+" in a fixed order ("verified+stand-in")."""
        seen = set(self.colours) | set(self.values)
        return "+".join(p for p in ("verified", "stand-in", "user") if p in seen)


class SheetSpec(BaseModel):
    """One sheet file: ``colours`` and ``values`` hold 5 rows (top to bottom) of 6 fields (left to
    right)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: Annotated[str, Field(pattern=ID_PATTERN)]
    name: Name
    source: Annotated[PlainText, Field(max_length=500)] = ""
    provenance: Provenance
    colours: Annotated[tuple[ColourRow, ...], Field(min_length=N_ROWS, max_length=N_ROWS)]
    values: Annotated[tuple[ValueRow, ...], Field(min_length=N_ROWS, max_length=N_ROWS)]


def check_invariants(spec: SheetSpec) -> list[str]:
    """The broken invariants of ``spec`` (T-SHEET), each naming its field; empty if none."""
    out = []
    for r, row in enumerate(spec.colours):
        twice = sorted({COLOURS[COLOUR_LETTERS.index(c)] for c in row if row.count(c) > 1})
        missing = [COLOURS[i] for i, c in enumerate(COLOUR_LETTERS) if c not in row]
        if twice or missing:
            out.append(f"field colours.{r} (row {r + 1}): {', '.join(twice)} more than once and "
                       f"{', '.join(missing)} missing; every row has one field of each colour (T-SHEET)")
    for r, row in enumerate(spec.values):
        for p in range(N_FIELDS - 1):
            if row[p + 1] > row[p]:
                out.append(f"field values.{r} (row {r + 1}): the values rise from {row[p]} in field {p + 1} "
                           f"to {row[p + 1]} in field {p + 2}; printed values never rise from left to right "
                           f"(T-SHEET)")
                break
    if spec.provenance.values[0] == "verified" and tuple(spec.values[0]) != ROW_1_VALUES:
        out.append(f"field values.0 (row 1): marked verified but {list(spec.values[0])} is not the printed row "
                   f"{list(ROW_1_VALUES)} (T-SHEET)")
    return out


@dataclass(frozen=True)
class TwentyOneSheet:
    """A checked sheet with its look-ups: ``colour_at[row][p]`` (the colour of field ``p``),
    ``value_at[row][p]`` (its printed value), ``field_of[row][colour]`` (the field of a colour)."""

    spec: SheetSpec
    path: Path | None = None
    colour_at: tuple[tuple[int, ...], ...] = field(init=False)
    value_at: tuple[tuple[int, ...], ...] = field(init=False)
    field_of: tuple[tuple[int, ...], ...] = field(init=False)

    def __post_init__(self) -> None:
        problems = check_invariants(self.spec)
        if problems:
            raise DataFileError(self.path or f"<sheet {self.spec.id}>", problems)
        colour_at = tuple(tuple(COLOUR_LETTERS.index(c) for c in row) for row in self.spec.colours)
        object.__setattr__(self, "colour_at", colour_at)
        object.__setattr__(self, "value_at", tuple(tuple(row) for row in self.spec.values))
        object.__setattr__(self, "field_of", tuple(tuple(row.index(c) for c in range(N_FIELDS)) for row in colour_at))

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def provenance(self) -> str:
        return self.spec.provenance.summary()

    def rows_text(self) -> list[str]:
        """Each row as ``w6 k5 r4 b3 y2 g1`` (colour letter and printed value per field)."""
        return [" ".join(f"{COLOUR_LETTERS[c]}{v}" for c, v in zip(cs, vs))
                for cs, vs in zip(self.colour_at, self.value_at)]

    def __repr__(self) -> str:
        return f"TwentyOneSheet({self.id!r})"


def spec_from_data(data: object, *, path: object = "<data>") -> SheetSpec:
    """A sheet from its TOML document, or a :class:`DataFileError` naming ``path`` and every
    field that is wrong (malformed first; then the invariants)."""
    spec = validated(SheetSpec, data, path)
    problems = check_invariants(spec)
    if problems:
        raise DataFileError(path, problems)
    return spec


def load_sheet_file(path: str | os.PathLike) -> TwentyOneSheet:
    """The sheet in the file at ``path`` (size, TOML and nesting limits as for every data file)."""
    path = Path(path)
    return TwentyOneSheet(spec_from_data(read_data_file(path), path=path), path)


def sheet_from_rows(colours: list[str], values: list[list[int]] | None = None, **fields) -> TwentyOneSheet:
    """A sheet from 5 rows of colour letters (and values; default 6 5 4 3 2 1 each), for tests
    and for an owner typing a sheet. Provenance "user" unless given."""
    values = values if values is not None else [list(ROW_1_VALUES)] * N_ROWS
    data = {"id": "typed", "name": "typed sheet",
            "provenance": {"colours": ["user"] * N_ROWS, "values": ["user"] * N_ROWS},
            "colours": list(colours), "values": [list(v) for v in values]}
    data.update(fields)
    return TwentyOneSheet(spec_from_data(data))


@lru_cache(maxsize=32)
def _load_cached(path: str, mtime_ns: int) -> TwentyOneSheet:
    return load_sheet_file(path)


def user_sheets_dir() -> Path:
    """The owner's own sheets: ``twentyone-sheets`` beside *Noch mal!*'s user boards (in
    ``$NOCHMAL_HOME`` if set, else the user data folder), one ``<id>.toml`` per sheet."""
    return user_boards_dir().parent / "twentyone-sheets"


def is_shipped_id(sheet_id: object) -> bool:
    """Whether ``sheet_id`` is (in any case) one of the shipped ids A-F, which are reserved."""
    return isinstance(sheet_id, str) and sheet_id.upper() in SHEET_IDS


def _usable_user_id(sheet_id: object) -> bool:
    return isinstance(sheet_id, str) and re.match(ID_PATTERN, sheet_id) is not None and not is_shipped_id(sheet_id)


def user_sheet_ids() -> list[str]:
    """The ids of the owner's sheets in :func:`user_sheets_dir` (files whose name is not a usable
    id, or a shipped id in any case, are left out)."""
    folder = user_sheets_dir()
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.toml") if p.is_file() and _usable_user_id(p.stem))


def sheet_ids() -> list[str]:
    """Every sheet a game may be played on: A-F, then the owner's sheets."""
    return [*SHEET_IDS, *user_sheet_ids()]


def _sheet_path(sheet_id: object) -> Path | None:
    if isinstance(sheet_id, str) and sheet_id in SHEET_IDS:
        return SHEETS_DIR / f"{sheet_id}.toml"
    if _usable_user_id(sheet_id):
        path = user_sheets_dir() / f"{sheet_id}.toml"
        if path.is_file():
            return path
    return None


def get_sheet(sheet_id: str) -> TwentyOneSheet:
    """A sheet by its id: a shipped one ("A".."F") or one of the owner's (:func:`user_sheets_dir`);
    cached by path and modification time. A user file must carry its own name as ``id``."""
    path = _sheet_path(sheet_id)
    if path is None or not path.is_file():
        raise InvalidInputError(f"unknown twenty one sheet {sheet_id!r}: one of {', '.join(sheet_ids())}",
                                rule="T-SHEET")
    sheet = _load_cached(str(path), path.stat().st_mtime_ns)
    if sheet.id != sheet_id:
        raise DataFileError(path, [f"field id: {sheet.id!r} is not the file's name {sheet_id!r}; a sheet file "
                                   f"carries its own id"])
    return sheet


def sheet_to_toml(spec: SheetSpec) -> str:
    """The file text of a sheet (one row a line), read back and compared before it is returned."""
    lines = [
        toml_line("id", spec.id),
        toml_line("name", spec.name),
        toml_line("source", spec.source),
        "",
        "# 5 rows top to bottom, 6 fields left to right",
        "# colours: w k r b y g = white black red blue yellow green",
        "colours = [",
        *(f"  {toml_value(r)}," for r in spec.colours),
        "]",
        "values = [",
        *(f"  {toml_value(list(r))}," for r in spec.values),
        "]",
        "",
        "# where each row's colours and values come from: verified, stand-in or user",
        "[provenance]",
        toml_line("colours", list(spec.provenance.colours)),
        toml_line("values", list(spec.provenance.values)),
    ]
    text = "\n".join(lines) + "\n"
    if SheetSpec.model_validate(tomlin.loads(text)) != spec:  # pragma: no cover - guards the layout above
        raise DataFileError(f"<sheet {spec.id}>", ["the file text would not read back as the sheet"])
    return text
