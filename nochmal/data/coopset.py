"""The owner's co-op set (pure: no Streamlit): which user sheet stands for each printed co-op
sheet I–VI, and one file that carries the whole set to another machine.

The printed co-op sheets I–VI and most tableau values are not public
(``shared/reference/coop.md``); the app ships stand-ins (``coop-I`` … ``coop-VI``). An owner
digitizes the printed backs as co-op *user sheets* (:mod:`nochmal.data.userdata`) and gathers
them here:

* ``<user data>/coop-set.toml`` names the set and lists ``slot = sheet id`` (:func:`load_set`,
  :func:`assign`, :func:`unassign`, :func:`rename`);
* :func:`default_sheets` is the one place that decides which sheets a new co-op game starts on
  (the set's, stand-ins for empty slots), :func:`set_sheets` the set's alone;
* :func:`export_set` writes one TOML file with the set's name, every slot's whole sheet and the
  user's tableau values; :func:`import_set` checks such a file completely (every sheet exactly as
  :func:`~nochmal.data.userdata.import_sheet_file` does, every tableau as
  :func:`~nochmal.data.userdata.import_tableau_file`) before it writes anything.

Errors are :class:`~nochmal.engine.errors.DataFileError` / :class:`~nochmal.engine.errors.InvalidInputError`
whose problems name the field by its path in the file (``field sheets.III.grid[2]: ...``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from nochmal.data import userdata
from nochmal.data.i18n import _
from nochmal.engine.coop import COOP_SHEETS
from nochmal.engine.coopdata import TABLEAU_KEYS, tableau_from_data
from nochmal.engine import tomlin
from nochmal.engine.errors import DataFileError, InvalidInputError, NochmalError
from nochmal.engine.sheet import (
    MAX_DATA_FILE_BYTES,
    Name,
    SheetSpec,
    Violation,
    format_validation,
    get_sheet,
    parse_data_file,
    read_data_file,
    sheet_paths,
    sheet_to_toml,
    toml_line,
    user_boards_dir,
)

#: The printed co-op sheets, in seat order (the mission leader takes I; C-BOARDS).
SLOTS = ("I", "II", "III", "IV", "V", "VI")
Slot = Literal["I", "II", "III", "IV", "V", "VI"]
#: What an exported set file says it is, and the version of its layout.
SET_FORMAT = "nochmal-coop-set"
SET_VERSION = 1
#: An exported set holds up to six sheets and six tableaus (each 1–4 KiB): a file is refused
#: above four times the cap of a single sheet or tableau file.
MAX_SET_FILE_BYTES = 4 * MAX_DATA_FILE_BYTES
SET_FILE_NAME = "coop-set.toml"
_SHEET_ID = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"


class CoopSet(BaseModel):
    """The set file: a name and, per filled slot, the id of a co-op user sheet."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: Name
    sheets: dict[Slot, Annotated[str, Field(pattern=_SHEET_ID)]] = {}

    def ordered(self) -> dict[str, str]:
        """The filled slots in the order I … VI."""
        return {slot: self.sheets[slot] for slot in SLOTS if slot in self.sheets}


@dataclass(frozen=True)
class SeatSheet:
    """The sheet a seat of a new co-op game starts on: the set's sheet of its slot, or the
    stand-in ``coop-<slot>`` when that slot of the set is empty (or unusable)."""

    seat: int  # 0-based
    slot: str
    sheet_id: str
    from_set: bool


@dataclass(frozen=True)
class ImportedSet:
    """What :func:`import_set` saved."""

    name: str
    sheets: dict[str, str]  # slot -> sheet id
    tableaus: tuple[int, ...]  # player counts whose user tableau was written
    replaced_sheets: tuple[str, ...]  # user sheets that existed and were replaced
    replaced_tableaus: tuple[int, ...]  # user tableaus that existed and were replaced
    warnings: dict[str, list[Violation]] = field(default_factory=dict)  # slot -> invariant warnings
    path: Path | None = None


def default_name() -> str:
    """The name of a set that has none yet (in the language in force)."""
    return _("My co-op set")


# --------------------------------------------------------------------------- the set file
def set_path() -> Path:
    """``coop-set.toml`` in the user data folder (``$NOCHMAL_HOME`` if set, else the platform's
    user data folder: the folder that holds ``boards/`` and ``tableaus/``)."""
    return user_boards_dir().parent / SET_FILE_NAME


def _check_slot(slot: object) -> str:
    if slot not in SLOTS:
        raise InvalidInputError(_("field slot: {slot} is not a slot of the co-op set (I, II, III, IV, V or VI)").format(
            slot=repr(slot)[:40]))
    return slot


def load_set() -> CoopSet | None:
    """The user's co-op set, or None if there is none yet. A file that cannot be used raises
    :class:`DataFileError` naming it and the field."""
    path = set_path()
    if not path.is_file():
        return None
    data = read_data_file(path)
    try:
        return CoopSet.model_validate(data)
    except ValidationError as err:
        raise DataFileError(path, format_validation(err)) from None


def _set_text(coop_set: CoopSet) -> str:
    lines = ["# your co-op set: which of your co-op user sheets stands for each printed sheet I-VI",
             toml_line("name", coop_set.name), "", "[sheets]"]
    lines += [toml_line(slot, sid) for slot, sid in coop_set.ordered().items()]
    return "\n".join(lines) + "\n"


def _write_set(coop_set: CoopSet) -> Path:
    path = set_path()
    text = _set_text(coop_set)
    if CoopSet.model_validate(tomlin.loads(text)) != coop_set:  # pragma: no cover - guards _set_text
        raise DataFileError(path, ["the set file would not read back as given"])
    userdata.atomic_write(path, text)
    return path


def _current() -> CoopSet:
    return load_set() or CoopSet(name=default_name())


def co_op_user_sheet(sheet_id: object) -> SheetSpec | None:
    """The spec of the co-op user sheet ``sheet_id`` (a file in the user's boards folder with a
    ``[coop]`` part), or None if there is no such usable sheet."""
    if not isinstance(sheet_id, str) or not re.match(_SHEET_ID, sheet_id):
        return None
    path = userdata.user_sheet_path(sheet_id)
    if sheet_paths().get(sheet_id) != path:  # none, or a shipped id
        return None
    try:
        spec = get_sheet(sheet_id).spec
    except NochmalError:
        return None
    return spec if spec.coop is not None else None


def co_op_user_sheets() -> list[str]:
    """The ids of every usable co-op user sheet (candidates for a slot)."""
    base = user_boards_dir()
    return [sid for sid, p in sheet_paths().items() if p.parent == base and co_op_user_sheet(sid) is not None]


def assign(slot: str, sheet_id: str) -> Path:
    """Let the co-op user sheet ``sheet_id`` stand for the printed sheet ``slot`` (I … VI).
    The sheet must be one of the user's sheets with a ``[coop]`` part and not fill another slot.
    Writes the set file (atomically) and returns it; nothing is written on error."""
    slot = _check_slot(slot)
    if co_op_user_sheet(sheet_id) is None:
        raise InvalidInputError(_("field sheet_id: {sheet} is not one of your co-op user sheets (a user sheet with "
                                  "a co-op part: rows P–V, number fields, failed-roll boxes)").format(
            sheet=repr(sheet_id)[:70]))
    current = _current()
    elsewhere = [s for s, sid in current.sheets.items() if sid == sheet_id and s != slot]
    if elsewhere:
        raise InvalidInputError(_("field sheet_id: {sheet} already fills slot {slot}; a printed pad has six "
                                  "different sheets").format(sheet=repr(sheet_id), slot=elsewhere[0]))
    return _write_set(CoopSet(name=current.name, sheets={**current.sheets, slot: sheet_id}))


def unassign(slot: str) -> Path:
    """Empty the slot (the sheet itself stays). Returns the set file."""
    slot = _check_slot(slot)
    current = _current()
    return _write_set(CoopSet(name=current.name, sheets={s: sid for s, sid in current.sheets.items() if s != slot}))


def rename(name: str) -> Path:
    """Give the set a name (plain text, 1–80 characters). Returns the set file."""
    current = _current()
    try:
        renamed = CoopSet(name=name.strip() if isinstance(name, str) else name, sheets=current.sheets)
    except ValidationError as err:
        raise DataFileError(set_path(), format_validation(err)) from None
    return _write_set(renamed)


def filled_slots(coop_set: CoopSet | None = None) -> dict[str, str]:
    """slot -> sheet id of the slots whose sheet is a usable co-op user sheet (a deleted or
    broken sheet leaves its slot empty), I … VI."""
    if coop_set is None:
        try:
            coop_set = load_set()
        except NochmalError:
            return {}
    if coop_set is None:
        return {}
    return {slot: sid for slot, sid in coop_set.ordered().items() if co_op_user_sheet(sid) is not None}


def set_sheets(players: int) -> list[str] | None:
    """The set's sheets for a co-op game with ``players`` seats: seat 1 takes slot I, seat 2
    slot II, ... (C-BOARDS). None if one of the slots I … ``players`` is empty."""
    filled = filled_slots()
    ids = [filled.get(slot) for slot in SLOTS[:players]]
    return None if None in ids else ids


def seat_sheets(players: int) -> list[SeatSheet]:
    """The sheets a new co-op game with ``players`` seats starts on, seat by seat.

    DECISION (partial sets): seat *k* takes the sheet of slot *k* of the owner's set when that
    slot is filled with a usable co-op user sheet, else the stand-in ``coop-<slot>``: a set with
    I and II filled plays a 3-player game on the owner's I, II and the stand-in III. A game is
    never refused or silently moved to other slots because the set is incomplete; the Start page
    names every seat's sheet and marks the stand-ins. A set file that cannot be read counts as
    no set (the Sheets page shows its problem)."""
    filled = filled_slots()
    return [SeatSheet(i, slot, filled.get(slot, COOP_SHEETS[i]), slot in filled)
            for i, slot in enumerate(SLOTS[:players])]


def default_sheets(players: int) -> list[str]:
    """The sheet ids of :func:`seat_sheets` (the defaults of a new co-op game)."""
    return [s.sheet_id for s in seat_sheets(players)]


def slot_sheet_id(slot: str) -> str:
    """The user sheet id a printed sheet is saved under unless the owner picks another one:
    ``my-coop-I`` … ``my-coop-VI``."""
    return f"my-coop-{_check_slot(slot)}"


def slot_of(sheet_id: str) -> str | None:
    """The slot of the set that ``sheet_id`` fills (usable slots only), or None."""
    return next((slot for slot, sid in filled_slots().items() if sid == sheet_id), None)


def user_tableau_counts() -> list[int]:
    """The player counts for which the user entered a tableau (files in the tableaus folder)."""
    return [n for n in range(1, 7) if userdata.user_tableau_path(n).is_file()]


# --------------------------------------------------------------------------- export
def export_set(players_counts: Iterable[int] | None = None) -> bytes:
    """One TOML file (UTF-8) with the set's name, the whole sheet of every filled slot
    (``[sheets.I]`` … in the layout of ``boards/*.toml``) and the user's tableau values for
    ``players_counts`` (default: every player count the user entered a tableau for;
    ``[tableaus.3]`` …), marked ``provenance = "user"`` with a format version. :func:`import_set`
    reads it back."""
    coop_set = _current()
    counts = user_tableau_counts() if players_counts is None else sorted(set(players_counts))
    lines = ["# A co-op set of nochmal: your printed co-op sheets I-VI and your tableau values, entered by you",
             "# (provenance = \"user\": not checked against the printed game). Import it on the Sheets page,",
             "# tab \"Your co-op set\".",
             toml_line("format", SET_FORMAT), toml_line("version", SET_VERSION), toml_line("name", coop_set.name),
             toml_line("provenance", "user")]
    expected: dict = {"format": SET_FORMAT, "version": SET_VERSION, "name": coop_set.name, "provenance": "user",
                      "sheets": {}, "tableaus": {}}
    for slot, sid in filled_slots(coop_set).items():
        text = sheet_to_toml(get_sheet(sid).spec)
        expected["sheets"][slot] = tomlin.loads(text)
        lines += ["", f"[sheets.{slot}]"]
        lines += [f"[sheets.{slot}.coop]" if line == "[coop]" else line for line in text.splitlines()]
    for n in counts:
        path = userdata.user_tableau_path(n)
        if not path.is_file():
            raise InvalidInputError(_("field tableaus.{n}: you have not entered a tableau for {n} players").format(n=n))
        spec = tableau_from_data(read_data_file(path), path)
        _target, text, _spec = userdata.prepare_user_tableau(
            spec.players, {k: spec.value(k) for k in TABLEAU_KEYS}, spec.track)
        expected["tableaus"][str(n)] = tomlin.loads(text)
        lines += ["", f"[tableaus.{n}]", *(line for line in text.splitlines() if not line.startswith("#"))]
    out = "\n".join(lines) + "\n"
    written = tomlin.loads(out)
    if {"sheets": {}, "tableaus": {}} | written != expected:  # pragma: no cover - guards the layout above
        raise DataFileError("<co-op set>", ["the set file would not read back as the set"])
    return out.encode("utf-8")


# --------------------------------------------------------------------------- import
_INDEX = re.compile(r"\.(\d+)(?=\.|$)")


def _path(prefix: str, inner: str = "") -> str:
    """A field path as the set file spells it: ``_path("sheets.III", "grid.2")`` is
    ``sheets.III.grid[2]`` (list indices of the part's own fields in brackets; the keys of the
    set file, such as the player count of ``tableaus.3``, stay keys)."""
    if not inner:
        return prefix
    inner = _INDEX.sub(r"[\1]", "." + inner)
    return prefix + inner if prefix else inner.lstrip(".")


def _nested(problems: Iterable[str], prefix: str) -> list[str]:
    """The problems of one part of the file with their field path inside the whole file:
    ``field grid.2: ...`` of sheet III becomes ``field sheets.III.grid[2]: ...``."""
    out = []
    for p in problems:
        m = re.match(r"^field (\S+?): (?:Value error, )?(.*)$", p, re.S)
        if m:
            inner = "" if m.group(1) == "(file)" else m.group(1)
            out.append(f"field {_path(prefix, inner)}: {m.group(2)}")
        else:
            out.append(f"field {prefix}: {p}")
    return out


@dataclass
class _Checked:
    name: str
    sheets: dict = field(default_factory=dict)  # slot -> (spec, violations, path, text)
    tableaus: dict = field(default_factory=dict)  # players -> (path, text)


def _check_set_data(data: dict) -> tuple[_Checked, list[str]]:
    """Every check of an imported set, collecting every problem (nothing is written)."""
    problems: list[str] = []
    known = {"format", "version", "name", "provenance", "sheets", "tableaus"}
    problems += [_("field {field}: not a part of a co-op set file (known: {known})").format(
        field=str(k)[:40], known=", ".join(sorted(known))) for k in data if k not in known]
    if data.get("format") != SET_FORMAT:
        problems.append(_("field format: is {got}, a co-op set file says format = \"{format}\"").format(
            got=repr(data.get("format"))[:40], format=SET_FORMAT))
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version != SET_VERSION:
        problems.append(_("field version: is {got}; this app reads co-op set files of version {version}").format(
            got=repr(version)[:40], version=SET_VERSION))
    name = data.get("name", default_name())
    try:
        CoopSet(name=name)
    except ValidationError as err:
        problems += format_validation(err)
    checked = _Checked(name=name if isinstance(name, str) else "")

    sheets = data.get("sheets", {})
    if not isinstance(sheets, Mapping):
        problems.append(_("field sheets: expected a table of slots I–VI"))
        sheets = {}
    seen: dict[str, str] = {}
    for slot, sheet in sheets.items():
        where = f"sheets.{slot}"
        if slot not in SLOTS:
            problems.append(_("field {field}: {slot} is not a slot of the co-op set (I, II, III, IV, V or VI)").format(
                field=where[:50], slot=repr(slot)[:40]))
            continue
        if not isinstance(sheet, Mapping):
            problems.append(_("field {field}: expected the table of a sheet").format(field=where))
            continue
        try:
            prepared = userdata.check_sheet_file_data(sheet, where)
        except DataFileError as err:
            problems += _nested(err.problems, where)
            continue
        spec = prepared[0]
        if spec.coop is None:
            problems.append(_("field {field}: missing — a sheet of a co-op set has a co-op part (number fields, "
                              "failed-roll boxes)").format(field=_path(where, "coop")))
        if spec.id.lower() in seen:
            problems.append(_("field {field}: {sheet} is also the id of slot {slot}; every slot needs its own "
                              "sheet").format(field=_path(where, "id"), sheet=repr(spec.id),
                                              slot=seen[spec.id.lower()]))
        seen[spec.id.lower()] = slot
        checked.sheets[slot] = prepared

    tableaus = data.get("tableaus", {})
    if not isinstance(tableaus, Mapping):
        problems.append(_("field tableaus: expected a table of player counts 1–6"))
        tableaus = {}
    for key, tableau in tableaus.items():
        where = f"tableaus.{key}"
        if key not in ("1", "2", "3", "4", "5", "6"):
            problems.append(_("field {field}: {key} is not a player count (1–6)").format(field=where[:50],
                                                                                         key=repr(key)[:40]))
            continue
        if not isinstance(tableau, Mapping):
            problems.append(_("field {field}: expected the table of a tableau").format(field=where))
            continue
        try:
            target, text, spec = userdata.check_tableau_file_data(dict(tableau), where)
        except DataFileError as err:
            problems += _nested(err.problems, where)
            continue
        except InvalidInputError as err:
            problems += _nested([str(err)], where)
            continue
        if spec.players != int(key):
            problems.append(_("field {field}: is {players}, the table is for {n} players").format(
                field=_path(where, "players"), players=spec.players, n=key))
            continue
        checked.tableaus[spec.players] = (target, text)
    return checked, problems


def import_set(name: str, raw: bytes) -> ImportedSet:
    """Import a co-op set file (:func:`export_set`'s layout): at most :data:`MAX_SET_FILE_BYTES`,
    UTF-8 TOML, ``format``/``version`` known, every sheet valid as a user sheet with a co-op
    part and an id that is not a shipped one, every tableau valid. Everything is checked before
    anything is written: a file with a problem raises :class:`DataFileError` naming the uploaded
    file and listing every problem by its field path (``field sheets.III.grid[2]: ...``), and
    nothing is saved.

    Otherwise the sheets are saved as user sheets (``provenance = "user"``; a user sheet with the
    same id is replaced), the tableaus as the user's tableaus (replacing the ones entered before
    for those player counts), and the set file is replaced by the imported set."""
    where = userdata.upload_label(name)
    if not isinstance(raw, (bytes, bytearray)):
        raise DataFileError(where, [_("expected the bytes of a file, got {kind}").format(kind=type(raw).__name__)])
    if len(raw) > MAX_SET_FILE_BYTES:
        raise DataFileError(where, [_("the file has {size} bytes; a co-op set file may have at most {limit} bytes "
                                      "({kib} KiB)").format(size=f"{len(raw):,}", limit=f"{MAX_SET_FILE_BYTES:,}",
                                                            kib=MAX_SET_FILE_BYTES // 1024)])
    data = parse_data_file(bytes(raw), where, limit=MAX_SET_FILE_BYTES)
    checked, problems = _check_set_data(data)
    if problems:
        raise DataFileError(where, userdata.cut_problems(problems))
    coop_set = CoopSet(name=checked.name, sheets={slot: p[0].id for slot, p in checked.sheets.items()})
    replaced_sheets = tuple(p[0].id for p in checked.sheets.values() if p[2].is_file())
    replaced_tableaus = tuple(n for n, (target, _text) in sorted(checked.tableaus.items()) if target.is_file())
    for _spec, _violations, target, text in checked.sheets.values():
        userdata.atomic_write(target, text)
    for n, (target, text) in sorted(checked.tableaus.items()):
        userdata.atomic_write(target, text)
    path = _write_set(coop_set)
    return ImportedSet(name=coop_set.name, sheets=coop_set.ordered(), tableaus=tuple(sorted(checked.tableaus)),
                       replaced_sheets=replaced_sheets, replaced_tableaus=replaced_tableaus,
                       warnings={slot: p[1] for slot, p in checked.sheets.items() if p[1]}, path=path)
