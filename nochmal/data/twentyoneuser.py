"""The owner's own *twenty one* sheets (issue 44 item 3; pure: no Streamlit).

An owner of the printed game types a sheet (5 rows of 6 fields, each a colour letter ``w k r b y g``
and a printed value 1-6) or scans one, and saves it as ``<id>.toml`` in
:func:`~nochmal.engine.twentyone.sheets.user_sheets_dir`, every row's colours and values with
provenance ``"user"``. The ids of the shipped sheets A-F are reserved in any case (``a`` too).

* :func:`typed_problems` checks what was typed field by field and names each problem's row and
  field (1-based, as a person counts them on the sheet), in the language in force;
* :func:`typed_sheet_data` turns the form into a sheet file's data, or raises
  :class:`TypedSheetError` listing every problem;
* :func:`preview_sheet`, :func:`save_user_sheet`, :func:`delete_user_sheet`, :func:`form_rows`.

Nothing is written on error; a file is written all at once (:func:`nochmal.data.userdata.atomic_write`).
After the checks here the engine's own (:func:`~nochmal.engine.twentyone.sheets.spec_from_data`,
the invariants of T-SHEET) run again on what is saved.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from nochmal.data.i18n import _, pgettext
from nochmal.data.userdata import atomic_write
from nochmal.engine import tomlin
from nochmal.engine.errors import DataFileError, InvalidInputError
from nochmal.engine.twentyone.components import COLOUR_LETTERS, N_FIELDS, N_ROWS
from nochmal.engine.twentyone.sheets import (ID_PATTERN, SheetSpec, TwentyOneSheet, get_sheet, is_shipped_id,
                                             sheet_to_toml, spec_from_data, user_sheets_dir)

#: the most characters of a name and of a source typed in the form
MAX_NAME = 80
MAX_SOURCE = 300


def colour_name(letter: str) -> str:
    """A colour letter as a word in the language in force (the same words as the dice's)."""
    words = {"w": pgettext("twenty one die", "white"), "k": pgettext("twenty one die", "black"),
             "r": pgettext("twenty one die", "red"), "b": pgettext("twenty one die", "blue"),
             "y": pgettext("twenty one die", "yellow"), "g": pgettext("twenty one die", "green")}
    return words.get(letter, letter)


@dataclass(frozen=True)
class FieldProblem:
    """One problem of a typed sheet: ``row`` and ``field`` are 1-based (``field`` None: the whole
    row; ``row`` None: the id, name or source), ``text`` says it in the language in force and
    begins with the place it names."""

    row: int | None
    field: int | None
    text: str


class TypedSheetError(InvalidInputError):
    """A typed sheet that cannot be saved; ``field_problems`` lists every problem by row and field."""

    def __init__(self, problems: list[FieldProblem]) -> None:
        self.field_problems = list(problems)
        self.problems = [p.text for p in problems]
        super().__init__("; ".join(self.problems))


def where(row: int, field: int | None = None) -> str:
    """"Row 2" or "Row 2, field 3" (1-based) in the language in force."""
    if field is None:
        return _("Row {row}").format(row=row)
    return _("Row {row}, field {field}").format(row=row, field=field)


def _value(v: object) -> int | None:
    """A typed value as a number 1-6, or None if it is none."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if 1 <= v <= 6 else None
    if isinstance(v, str) and v.strip().isascii() and v.strip().isdigit() and len(v.strip()) == 1:
        n = int(v.strip())
        return n if 1 <= n <= 6 else None
    return None


def _grid(rows: object, what: str) -> list[list[object]]:
    """``rows`` as 5 lists of 6 entries (a row may also be given as a string of 6 letters)."""
    if not isinstance(rows, Sequence) or isinstance(rows, (str, bytes)) or len(rows) != N_ROWS:
        raise TypedSheetError([FieldProblem(None, None, _("{what}: expected {rows} rows of {fields} fields").format(
            what=what, rows=N_ROWS, fields=N_FIELDS))])
    out = []
    for r, row in enumerate(rows, 1):
        if isinstance(row, str):
            row = list(row)
        if not isinstance(row, Sequence) or len(row) != N_FIELDS:
            raise TypedSheetError([FieldProblem(r, None, _("{where}: expected {fields} fields").format(
                where=where(r), fields=N_FIELDS))])
        out.append(list(row))
    return out


def typed_problems(colours: object, values: object) -> list[FieldProblem]:
    """Every problem of 5 typed rows of colour letters and values, by row and field: a letter that
    is no colour, a value that is not 1-6, a colour twice in a row (and the one missing), a value
    higher than the one to its left (printed values never rise from left to right)."""
    try:
        cgrid, vgrid = _grid(colours, _("Colours")), _grid(values, _("Values"))
    except TypedSheetError as err:
        return err.field_problems
    out: list[FieldProblem] = []
    for r in range(N_ROWS):
        letters = [c.strip().lower() if isinstance(c, str) else c for c in cgrid[r]]
        for p, c in enumerate(letters):
            if c not in tuple(COLOUR_LETTERS):
                out.append(FieldProblem(r + 1, p + 1, _("{where}: {got} is not a colour (w k r b y g)").format(
                    where=where(r + 1, p + 1), got=repr(cgrid[r][p])[:12])))
        good = [c for c in letters if c in tuple(COLOUR_LETTERS)]
        if len(good) == N_FIELDS:
            missing = [colour_name(c) for c in COLOUR_LETTERS if c not in good]
            for p, c in enumerate(letters):
                if c in letters[:p]:
                    out.append(FieldProblem(r + 1, p + 1, _(
                        "{where}: {colour} is in field {first} already ({missing} missing); each row has each "
                        "colour once").format(where=where(r + 1, p + 1), colour=colour_name(c),
                                              first=letters.index(c) + 1, missing=", ".join(missing))))
        nums = [_value(v) for v in vgrid[r]]
        for p, (raw, n) in enumerate(zip(vgrid[r], nums)):
            if n is None:
                out.append(FieldProblem(r + 1, p + 1, _("{where}: value {got} is not a number from 1 to 6").format(
                    where=where(r + 1, p + 1), got=repr(raw)[:12])))
        for p in range(1, N_FIELDS):
            if nums[p] is not None and nums[p - 1] is not None and nums[p] > nums[p - 1]:
                out.append(FieldProblem(r + 1, p + 1, _(
                    "{where}: value {value} is higher than {left} in field {p}; values never rise from left to "
                    "right").format(where=where(r + 1, p + 1), value=nums[p], left=nums[p - 1], p=p)))
    return out


def id_problems(sheet_id: object) -> list[FieldProblem]:
    """What is wrong with ``sheet_id`` as the id of a user sheet (empty: nothing)."""
    if not isinstance(sheet_id, str) or not sheet_id.strip():
        return [FieldProblem(None, None, _("Id: give the sheet an id (letters, digits, - _ .)"))]
    sid = sheet_id.strip()
    if not re.match(ID_PATTERN, sid):
        return [FieldProblem(None, None, _("Id: {id} is not usable; use 1 to 64 letters, digits, '-', '_' or '.', "
                                           "starting with a letter or digit").format(id=repr(sid)[:70]))]
    if is_shipped_id(sid):
        return [FieldProblem(None, None, _("Id: {id} is the id of a shipped sheet; A to F are reserved, choose "
                                           "another id").format(id=repr(sid)))]
    return []


def typed_sheet_data(sheet_id: object, colours: object, values: object, name: object = "",
                     source: object = "") -> dict:
    """The data of a sheet file from the typing form (provenance "user" for every row), or a
    :class:`TypedSheetError` listing every problem of the id, the name and each row and field."""
    problems = id_problems(sheet_id)
    name = name.strip() if isinstance(name, str) else ""
    source = source.strip() if isinstance(source, str) else ""
    if len(name) > MAX_NAME:
        problems.append(FieldProblem(None, None, _("Name: at most {n} characters").format(n=MAX_NAME)))
    if len(source) > MAX_SOURCE:
        problems.append(FieldProblem(None, None, _("Source: at most {n} characters").format(n=MAX_SOURCE)))
    problems += typed_problems(colours, values)
    if problems:
        raise TypedSheetError(problems)
    sid = sheet_id.strip()
    cgrid, vgrid = _grid(colours, "colours"), _grid(values, "values")
    return {
        "id": sid,
        "name": name or f"{sid} (user sheet)",
        "source": source or "entered by hand from a printed sheet",
        "provenance": {"colours": ["user"] * N_ROWS, "values": ["user"] * N_ROWS},
        "colours": ["".join(c.strip().lower() for c in row) for row in cgrid],
        "values": [[_value(v) for v in row] for row in vgrid],
    }


def user_sheet_path(sheet_id: str) -> Path:
    return user_sheets_dir() / f"{sheet_id}.toml"


def prepare_user_sheet(data: Mapping) -> tuple[SheetSpec, Path, str]:
    """Everything :func:`save_user_sheet` checks, without writing: the sheet, its file and the
    file's text. Every row's provenance is "user" whatever ``data`` says."""
    if not isinstance(data, Mapping):
        raise InvalidInputError(f"a sheet is given as a mapping of fields, got {type(data).__name__}")
    problems = id_problems(data.get("id"))
    if problems:
        raise TypedSheetError(problems)
    data = dict(data, id=data["id"].strip(),
                provenance={"colours": ["user"] * N_ROWS, "values": ["user"] * N_ROWS})
    target = user_sheet_path(data["id"])
    spec = spec_from_data(data, path=target)
    text = "# a twenty one sheet entered by an owner of the printed game (provenance \"user\")\n" + sheet_to_toml(spec)
    if spec_from_data(tomlin.loads(text), path=target) != spec:  # pragma: no cover - guards sheet_to_toml
        raise DataFileError(target, ["the file would not read back as entered"])
    return spec, target, text


def save_user_sheet(data: Mapping) -> Path:
    """Write a user sheet to ``<user_sheets_dir>/<id>.toml`` (one with that id is replaced) and
    return the file. Shipped ids are refused; nothing is written on error."""
    _spec, target, text = prepare_user_sheet(data)
    atomic_write(target, text)
    return target


def preview_sheet(data: Mapping) -> TwentyOneSheet:
    """The sheet as it would be saved (a blank or unusable id is shown as "preview")."""
    data = dict(data)
    if id_problems(data.get("id")):
        data["id"] = "preview"
    data["provenance"] = {"colours": ["user"] * N_ROWS, "values": ["user"] * N_ROWS}
    return TwentyOneSheet(spec_from_data(data, path="<preview>"))


def delete_user_sheet(sheet_id: str) -> Path:
    """Delete the user sheet ``sheet_id`` (games already played on it keep it: they carry its
    content). The shipped sheets cannot be deleted."""
    problems = id_problems(sheet_id)
    if problems:
        raise TypedSheetError(problems)
    target = user_sheet_path(sheet_id.strip())
    if not target.is_file():
        raise InvalidInputError(_("Id: there is no user sheet {id}").format(id=repr(sheet_id)))
    target.unlink()
    return target


def form_rows(sheet_id: str) -> tuple[list[list[str]], list[list[int]]]:
    """A sheet's colours and values as the typing form holds them (to edit a sheet or start from one)."""
    sheet = get_sheet(sheet_id)
    return ([list(row) for row in sheet.spec.colours], [list(row) for row in sheet.spec.values])
