"""Sheets and tableaus entered by owners of the printed game (pure: no Streamlit).

The co-op sheets I–VI and most tableau values are not public (``shared/reference/coop.md``);
the project ships stand-ins and lets an owner digitize the printed ones. This module turns what
a person typed or painted into data files with ``provenance = "user"``:

* :func:`parse_sheet_text` reads 7 pasted rows of colour letters,
* :func:`save_user_sheet` / :func:`delete_user_sheet` manage ``<user_boards_dir>/<id>.toml``,
* :func:`save_user_tableau` / :func:`delete_user_tableau` manage
  ``<user_tableaus_dir>/tableau-N.toml`` (a user tableau overrides the shipped stand-in),
* :func:`tableau_goals_figure` draws the goals of every player count (plotly).

Every function validates first and writes nothing on error; :func:`prepare_user_sheet`,
:func:`prepare_user_tableau`, :func:`check_sheet_file_data` and :func:`check_tableau_file_data`
are those checks alone (``nochmal.data.coopset`` checks a whole co-op set with them before it
writes any of it). Errors are
:class:`~nochmal.engine.errors.InvalidInputError` / :class:`~nochmal.engine.errors.DataFileError` whose
messages name the field (``grid row 3, column F``, ``field id``, ``field goal_19``, ...).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from nochmal.data.outfile import write_file
from nochmal.engine.cells import COLOUR_LETTERS, COLUMNS, N_COLS, N_ROWS, cell_index
from nochmal.engine.coopdata import (
    MISSIONS_DIR,
    N_TURNS,
    TABLEAU_KEYS,
    TableauSpec,
    tableau_from_data,
    tableau_path,
    tableau_to_toml,
    user_tableaus_dir,
)
from nochmal.data.i18n import N_, _, ngettext
from nochmal.data.provenance import provenance_words
from nochmal.engine import tomlin
from nochmal.engine.errors import DataFileError, InvalidInputError, NochmalError
from nochmal.engine.sheet import (
    BOARDS_DIR,
    MAX_DATA_FILE_BYTES,
    COOP_ROW_LABELS,
    Sheet,
    STANDARD_FIRST,
    STANDARD_LATER,
    SheetSpec,
    Violation,
    get_sheet,
    parse_data_file,
    read_data_file,
    sheet_paths,
    sheet_to_toml,
    spec_from_data,
    user_boards_dir,
)

ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_PROBLEMS = 20  # longer problem lists are cut, with a count of the rest

#: What each tableau value means (the comments of ``missions/tableau-*.toml``).
TABLEAU_KEY_TEXT = {
    "goal_10": "team points needed after turn 10 (C-GOAL-10)",
    "penalty_10_jokers": '"!" struck in total if the turn-10 goal is missed (C-GOAL-10)',
    "goal_19": "team points needed after turn 19, else one die leaves (C-GOAL-19)",
    "goal_27": 'team points + unused "!" needed after turn 27, else a failed roll each (C-GOAL-27)',
    "m1_colours": "mission 1: different colours to complete",
    "m2_rows": "mission 2: different rows P–V to fill",
    "m3_colours": "mission 3: colours besides a star in every column",
    "m4_rows": "mission 4: rows besides every number field",
    "m5_colours": "mission 5: colours besides N-O-C-H-M-A-L",
}
#: Short labels of the tableau values (for input fields and chart axes; :func:`tableau_key_label`).
TABLEAU_KEY_LABEL = {
    "goal_10": N_("Goal after turn 10"),
    "penalty_10_jokers": N_('"!" struck if missed'),
    "goal_19": N_("Goal after turn 19"),
    "goal_27": N_("Goal after turn 27"),
    "m1_colours": N_("M1 colours"),
    "m2_rows": N_("M2 rows"),
    "m3_colours": N_("M3 colours"),
    "m4_rows": N_("M4 rows"),
    "m5_colours": N_("M5 colours"),
}


def tableau_key_label(key: str) -> str:
    """The short label of tableau value ``key`` in the language in force (an unknown key as it is)."""
    return _(TABLEAU_KEY_LABEL[key]) if key in TABLEAU_KEY_LABEL else key


class SheetTextError(InvalidInputError):
    """Typed text that cannot become a sheet. ``problems`` lists every problem found, each
    naming its place (``grid row 3, column F``, ``number_fields line 2``, ``row_labels``)."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = cut_problems(problems)
        super().__init__("; ".join(self.problems))


def cut_problems(problems: list[str]) -> list[str]:
    """The first :data:`~nochmal.engine.sheet.MAX_PROBLEMS` of ``problems``, followed by a
    ``... and N more problems`` line when there are more (a copy; ``problems`` is unchanged)."""
    if len(problems) <= MAX_PROBLEMS:
        return list(problems)
    return list(problems[:MAX_PROBLEMS]) + [f"... and {len(problems) - MAX_PROBLEMS} more problems"]


def problems_of(err: NochmalError) -> list[str]:
    """The error as a list of readable problems (one line each), for showing in a UI."""
    raw = getattr(err, "problems", None) or [str(err)]
    return [re.sub(r"^field \(file\): (Value error, )?", "", p).replace("Value error, ", "") for p in raw]


# --------------------------------------------------------------------------- sheets: text
_IGNORED = str.maketrans("", "", " \t,;\"'[]|")
_LETTERS = COLOUR_LETTERS + COLOUR_LETTERS.upper()


def parse_sheet_text(text: str) -> list[str]:
    """7 rows of 15 colour letters, top row first: ``y g b r o`` (yellow, green, blue, red,
    orange), UPPERCASE = star. Spaces, tabs, commas, semicolons, quotes, brackets and blank
    lines are ignored, so rows copied from a sheet file or typed with spaces both work.
    Raises :class:`SheetTextError` listing every bad row and letter by row and column."""
    if not isinstance(text, str):
        raise SheetTextError([f"grid: expected text, got {type(text).__name__}"])
    lines = [(n, line.translate(_IGNORED)) for n, line in enumerate(text.splitlines(), 1)]
    lines = [(n, s) for n, s in lines if s]
    problems = []
    if len(lines) != N_ROWS:
        problems.append(f"grid: {len(lines)} rows given, a sheet has {N_ROWS} "
                        f"(one line of {N_COLS} letters per row, top row first)")
    rows = []
    for r, (lineno, s) in enumerate(lines, 1):
        where = f"grid row {r}" + (f" (text line {lineno})" if lineno != r else "")
        for c, ch in enumerate(s):
            if ch not in _LETTERS:
                col = f"column {COLUMNS[c]}" if c < N_COLS else f"letter {c + 1}"
                problems.append(f"{where}, {col}: {ch!r} is not a colour letter "
                                f"(y g b r o; UPPERCASE = star)")
        if len(s) != N_COLS:
            problems.append(f"{where}: {len(s)} letters, a row has {N_COLS} (columns A–O)")
        rows.append(s)
    if problems:
        raise SheetTextError(problems)
    return rows


def grid_text(rows: Sequence[str]) -> str:
    """The inverse of :func:`parse_sheet_text`: one row a line."""
    return "\n".join(rows)


def parse_row_labels(text: str) -> list[str]:
    """Seven row labels, separated by spaces or commas (``P Q R S T U V``); seven characters
    without separators (``PQRSTUV``) also work. Blank = the co-op labels P–V."""
    parts = [p for p in re.split(r"[\s,;]+", text or "") if p]
    if not parts:
        return list(COOP_ROW_LABELS)
    if len(parts) == 1 and len(parts[0]) == N_ROWS:
        parts = list(parts[0])
    problems = []
    if len(parts) != N_ROWS:
        problems.append(f"row_labels: {len(parts)} labels given, a sheet has {N_ROWS} rows")
    problems += [f"row_labels: {p!r} is longer than 3 characters" for p in parts if len(p) > 3]
    if problems:
        raise SheetTextError(problems)
    return parts


def parse_points(text: str, field: str) -> list[int] | None:
    """Fifteen column points (0-20), one a column A-O, separated by spaces or commas
    (``5 3 3 3 2 ...``); ``field`` names them in problems (``first_points``, ``later_points``).
    Blank = None (the standard points)."""
    parts = [p for p in re.split(r"[\s,;]+", text or "") if p]
    if not parts:
        return None
    problems = []
    if len(parts) != N_COLS:
        problems.append(f"{field}: {len(parts)} numbers given, a sheet has {N_COLS} columns (A-O)")
    problems += [f"{field}: {p[:12]!r} is not a whole number from 0 to 20" for p in parts
                 if not (p.isascii() and p.isdigit() and len(p) <= 2 and int(p) <= 20)]
    if problems:
        raise SheetTextError(problems)
    return [int(p) for p in parts]


_NUMBER_FIELD = re.compile(r"^(\d+)\s*(?:[:=]\s*|\s+)([A-Za-z]\d+)$")


def parse_number_fields(text: str) -> list[dict]:
    """Number fields as ``number: cell`` entries, one a line (or separated by ``;``/``,``):
    ``1: F1`` puts the round field "1" in the middle of the 2x2 square whose top-left cell is
    F1. Blank = no number fields."""
    out, problems = [], []
    entries = [e.strip() for e in re.split(r"[\n;,]", text or "")]
    for n, entry in enumerate((e for e in entries if e), 1):
        m = _NUMBER_FIELD.match(entry)
        if not m:
            problems.append(f"number_fields entry {n}: {entry!r} is not 'number: cell' (e.g. '1: F1')")
            continue
        number, cell = int(m.group(1)), m.group(2).upper()
        if not 1 <= number <= 9:
            problems.append(f"number_fields entry {n}: number {number} is not 1–9")
        try:
            i = cell_index(cell)
        except InvalidInputError:
            problems.append(f"number_fields entry {n}: {cell!r} is not a cell (A1..O7)")
            continue
        if i % N_COLS == N_COLS - 1 or i // N_COLS == N_ROWS - 1:
            problems.append(f"number_fields entry {n}: {cell} cannot be the top-left cell of a 2x2 square "
                            f"(columns A–N, rows 1–6)")
            continue
        out.append({"number": number, "cell": cell})
    if problems:
        raise SheetTextError(problems)
    return out


def number_fields_text(spec: SheetSpec) -> str:
    """The inverse of :func:`parse_number_fields`."""
    if spec.coop is None:
        return ""
    return "\n".join(f"{f.number}: {f.cell}" for f in spec.coop.number_fields)


def paint_cell(rows: Sequence[str], cell: str, colour: str, star: bool = False) -> list[str]:
    """A copy of ``rows`` with ``cell`` painted ``colour`` (a letter y g b r o), starred or not."""
    if colour not in COLOUR_LETTERS or len(colour) != 1:
        raise InvalidInputError(f"colour {colour!r}: use one of y g b r o")
    i = cell_index(cell)
    r, c = divmod(i, N_COLS)
    rows = list(rows)
    if len(rows) != N_ROWS or any(len(row) != N_COLS for row in rows):
        raise InvalidInputError(f"grid: expected {N_ROWS} rows of {N_COLS} letters")
    letter = colour.upper() if star else colour
    rows[r] = rows[r][:c] + letter + rows[r][c + 1:]
    return rows


def sheet_data(rows: Sequence[str], *, id: str, name: str = "", source: str = "", coop: bool = False,
               row_labels: str = "", number_fields: str = "", failed_roll_boxes: int = 3,
               first_points: str = "", later_points: str = "") -> dict:
    """The data of a user sheet from what a person entered (texts as typed). Co-op extras
    (row labels, number fields "number: cell", failed-roll boxes) only if ``coop``; column points
    (:func:`parse_points`) only where they are not the standard ones."""
    sid = (id or "").strip()
    data: dict = {
        "id": sid,
        "name": (name or "").strip() or (f"{sid} (user sheet)" if sid else ""),
        "provenance": "user",
        "source": (source or "").strip() or "entered by hand from a printed sheet",
        "grid": list(rows),
    }
    problems = []
    points = {}
    for key, text, standard in (("first_points", first_points, STANDARD_FIRST),
                                ("later_points", later_points, STANDARD_LATER)):
        try:
            points[key] = parse_points(text, key) or list(standard)
        except SheetTextError as err:
            problems += err.problems
    if not problems and (tuple(points["first_points"]), tuple(points["later_points"])) != (STANDARD_FIRST,
                                                                                         STANDARD_LATER):
        data.update(points)
    if coop:
        try:
            data["row_labels"] = parse_row_labels(row_labels)
        except SheetTextError as err:
            problems += err.problems
        try:
            fields = parse_number_fields(number_fields)
        except SheetTextError as err:
            problems += err.problems
            fields = []
        if not problems:
            data["coop"] = {"failed_roll_boxes": failed_roll_boxes, "number_fields": fields}
    if problems:
        raise SheetTextError(problems)
    return data


# --------------------------------------------------------------------------- sheets: files
def _shipped_ids() -> dict[str, Path]:
    return {p.stem.lower(): p for p in BOARDS_DIR.glob("*.toml")} if BOARDS_DIR.is_dir() else {}


def _check_id(sheet_id: object, where: object) -> str:
    if not isinstance(sheet_id, str) or not ID_PATTERN.match(sheet_id):
        raise DataFileError(where, [
            f"field id: {sheet_id!r} is not a usable id — use 1–64 letters, digits, '-', '_' or '.', "
            f"starting with a letter or digit"])
    shipped = _shipped_ids().get(sheet_id.lower())
    if shipped is not None:
        raise DataFileError(user_sheet_path(sheet_id), [
            f"field id: {sheet_id!r} is the id of a shipped sheet ({shipped.name}); "
            f"shipped ids are reserved, choose another id"])
    return sheet_id


def user_sheet_path(sheet_id: str) -> Path:
    return user_boards_dir() / f"{sheet_id}.toml"


def validate_user_sheet(spec_data: Mapping) -> tuple[SheetSpec, list[Violation]]:
    """Validate a user sheet without writing it: the spec and its invariant warnings."""
    if not isinstance(spec_data, Mapping):
        raise InvalidInputError(f"a sheet is given as a mapping of fields, got {type(spec_data).__name__}")
    data = dict(spec_data)
    data["provenance"] = "user"
    where = "<user sheet>"
    sid = _check_id(data.get("id"), where)
    return spec_from_data(data, path=user_sheet_path(sid), strict_invariants=False)


def preview_sheet(spec_data: Mapping) -> tuple[Sheet, list[Violation]]:
    """A :class:`Sheet` to draw before saving (the id may still be blank)."""
    data = dict(spec_data)
    if not data.get("id") or not ID_PATTERN.match(str(data["id"])):
        data["id"] = "preview"
    if not data.get("name"):
        data["name"] = "preview"
    data["provenance"] = "user"
    spec, violations = spec_from_data(data, path="<preview>", strict_invariants=False)
    return Sheet(spec), violations


def atomic_write(path: Path, text: str, *, name: str | None = None) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` all at once, its folder created if
    missing: :func:`nochmal.data.outfile.write_file` (a temporary file in the same folder, synced,
    renamed over ``path``; refused if a link, a device, a FIFO or a folder is at ``path``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_file(path, text, name=name)


def prepare_user_sheet(spec_data: Mapping) -> tuple[SheetSpec, list[Violation], Path, str]:
    """Everything :func:`save_user_sheet` checks, without writing: the spec, its invariant
    warnings, the file it would be saved to and the file's text."""
    spec, violations = validate_user_sheet(spec_data)
    target = user_sheet_path(spec.id)
    text = sheet_to_toml(spec)
    again, _warnings = spec_from_data(tomlin.loads(text), path=target, strict_invariants=False)
    if again != spec:  # pragma: no cover - guards sheet_to_toml
        raise DataFileError(target, ["the file would not read back as entered"])
    return spec, violations, target, text


def save_user_sheet(spec_data: Mapping) -> tuple[Path, list[Violation]]:
    """Write a user sheet to ``<user_boards_dir>/<id>.toml`` with ``provenance = "user"``
    (an existing user sheet with that id is replaced). Returns the file and the invariants of
    the printed sheets that it breaks (warnings: a co-op back may differ). Ids of shipped sheets
    are refused; invalid data raise :class:`DataFileError` naming the field; nothing is
    written on error."""
    _spec, violations, target, text = prepare_user_sheet(spec_data)
    atomic_write(target, text)
    return target, violations


def write_sheet_file(path: Path, spec_data: Mapping, *, name: str | None = None) -> list[Violation]:
    """Check a sheet as :func:`save_user_sheet` does and write it to ``path`` (any regular file,
    e.g. for ``nochmal boards scan --out``; ``name``: the option named if ``path`` is refused); the
    invariant warnings. Nothing is written on error."""
    spec, violations = validate_user_sheet(spec_data)
    atomic_write(Path(path), sheet_to_toml(spec), name=name)
    return violations


def upload_label(name: object) -> str:
    """How an uploaded file is named in messages: its name quoted, control characters escaped."""
    text = str(name or "")[:120]
    return f"uploaded file {text!r}"


def _check_upload(name: object, raw: object) -> str:
    where = upload_label(name)
    if not isinstance(raw, (bytes, bytearray)):
        raise DataFileError(where, [f"expected the bytes of a file, got {type(raw).__name__}"])
    if len(raw) > MAX_DATA_FILE_BYTES:
        raise DataFileError(where, [f"the file has {len(raw):,} bytes; a sheet or tableau file may have at most "
                                    f"{MAX_DATA_FILE_BYTES:,} bytes ({MAX_DATA_FILE_BYTES // 1024} KiB)"])
    return where


def import_sheet_file(name: str, raw: bytes) -> tuple[Path, list[Violation], SheetSpec]:
    """Save an uploaded sheet file (the bytes of a ``boards/*.toml``-style file) as a user sheet:
    at most :data:`~nochmal.engine.sheet.MAX_DATA_FILE_BYTES`, UTF-8 TOML, every field valid, an id
    that is not a shipped one. It is saved with ``provenance = "user"`` whatever the file says
    (an upload is not a verified sheet). Errors are :class:`DataFileError` naming the uploaded
    file and the field; nothing is written on error."""
    where = _check_upload(name, raw)
    _spec, violations, path, text = check_sheet_file_data(parse_data_file(bytes(raw), where), where)
    atomic_write(path, text)
    spec, _warnings = spec_from_data(read_data_file(path), path=path, strict_invariants=False)
    return path, violations, spec


def check_sheet_file_data(data: object, where: object) -> tuple[SheetSpec, list[Violation], Path, str]:
    """The checks of :func:`import_sheet_file` on the data of a sheet file (as
    :func:`prepare_user_sheet`; nothing is written). Errors are :class:`DataFileError` naming
    ``where`` and the field."""
    try:
        return prepare_user_sheet(data)
    except DataFileError as err:
        raise DataFileError(where, err.problems) from None
    except InvalidInputError as err:
        raise DataFileError(where, [str(err)]) from None


def delete_user_sheet(sheet_id: str) -> Path:
    """Delete the user sheet ``sheet_id``; shipped sheets cannot be deleted."""
    sid = _check_id(sheet_id, "<user sheet>")
    target = user_sheet_path(sid)
    if not target.is_file():
        raise InvalidInputError(f"field id: there is no user sheet {sid!r} (in {target.parent})")
    target.unlink()
    return target


def sheet_catalogue() -> list[dict]:
    """Every sheet id with its name, provenance and file; a file that cannot be loaded is
    listed with its ``error`` instead of breaking the list."""
    out = []
    for sid, path in sheet_paths().items():
        row = {"id": sid, "path": path, "user": path.parent != BOARDS_DIR, "name": sid,
               "provenance": "?", "error": None}
        try:
            sh = get_sheet(sid)
            row.update(name=sh.spec.name, provenance=sh.provenance)
        except NochmalError as err:
            row["error"] = str(err)
        out.append(row)
    return sorted(out, key=lambda r: r["id"])


# --------------------------------------------------------------------------- tableaus
def _check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 6:
        raise InvalidInputError(f"field players: co-op games take 1–6 players, got {players!r}", rule="C-BOARDS")
    return players


def user_tableau_path(players: int) -> Path:
    return user_tableaus_dir() / f"tableau-{_check_players(players)}.toml"


def tableau_source(players: int) -> str:
    """``"user"`` if the user's file is in force for ``players``, else ``"shipped"``."""
    return "user" if tableau_path(_check_players(players)) == user_tableau_path(players) else "shipped"


def shipped_tableau_path(players: int) -> Path:
    return MISSIONS_DIR / f"tableau-{_check_players(players)}.toml"


def parse_track_text(text: str) -> tuple[int, ...]:
    """The 27 active seats (1-based) separated by spaces or commas; blank = no track
    (round-robin from seat 1)."""
    parts = [p for p in re.split(r"[\s,;]+", text or "") if p]
    problems = [f"track entry {n}: {p!r} is not a seat number" for n, p in enumerate(parts, 1) if not p.isdigit()]
    if problems:
        raise SheetTextError(problems)
    return tuple(int(p) for p in parts)


def save_user_tableau(players: int, values: Mapping[str, int], track: Iterable[int] = ()) -> Path:
    """Write the printed tableau for ``players`` to ``<user_tableaus_dir>/tableau-N.toml``,
    every value with ``provenance = "user"``; it overrides the shipped stand-in. ``values``
    needs every key of :data:`TABLEAU_KEYS`. Validated first; nothing is written on error."""
    target, text, _spec = prepare_user_tableau(players, values, track)
    atomic_write(target, text)
    return target


def prepare_user_tableau(players: int, values: Mapping[str, int],
                         track: Iterable[int] = ()) -> tuple[Path, str, TableauSpec]:
    """Everything :func:`save_user_tableau` checks, without writing: the file it would be saved
    to, the file's text and the tableau."""
    players = _check_players(players)
    target = user_tableau_path(players)
    if not isinstance(values, Mapping):
        raise DataFileError(target, [f"values: expected a mapping of {', '.join(TABLEAU_KEYS)}"])
    track = tuple(track or ())
    problems = [f"field {k}: missing" for k in TABLEAU_KEYS if k not in values]
    problems += [f"field {k}: not a tableau value (known: {', '.join(TABLEAU_KEYS)})" for k in values
                 if k not in TABLEAU_KEYS]
    for k in TABLEAU_KEYS:
        v = values.get(k)
        if k in values and (isinstance(v, bool) or not isinstance(v, int)):
            problems.append(f"field {k}: {v!r} is not a whole number")
    if track:
        if len(track) != N_TURNS:
            problems.append(f"field track: lists {len(track)} seats, a track has {N_TURNS} (C-TRACK)")
        bad = [s for s in track if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= players]
        if bad:
            problems.append(f"field track: seats are 1–{players} for {players} players, got {bad[0]!r}")
    if problems:
        raise DataFileError(target, problems)
    data = {
        "id": f"tableau-{players}",
        "name": f"Mission tableau for {players} player{'s' if players > 1 else ''} (entered by the user)",
        "players": players,
        "track": list(track),
        **{k: {"value": values[k], "provenance": "user"} for k in TABLEAU_KEYS},
    }
    spec = tableau_from_data(data, path=target)
    text = ("# the printed mission tableau, entered by an owner of the game (provenance = \"user\")\n"
            + tableau_to_toml(spec))
    if tableau_from_data(tomlin.loads(text), path=target) != spec:  # pragma: no cover
        raise DataFileError(target, ["the file would not read back as entered"])
    return target, text, spec


def import_tableau_file(name: str, raw: bytes) -> tuple[Path, TableauSpec]:
    """Save an uploaded tableau file (the bytes of a ``missions/tableau-N.toml``-style file) as
    the user's tableau for its ``players``: at most :data:`~nochmal.engine.sheet.MAX_DATA_FILE_BYTES`,
    UTF-8 TOML, every field valid (values are whole numbers: no "5", 5.0 or true). Every value is
    saved with ``provenance = "user"``. Errors are :class:`DataFileError` naming the uploaded
    file and the field; nothing is written on error."""
    where = _check_upload(name, raw)
    path, text, _spec = check_tableau_file_data(parse_data_file(bytes(raw), where), where)
    atomic_write(path, text)
    return path, tableau_from_data(read_data_file(path), path=path)


def check_tableau_file_data(data: object, where: object) -> tuple[Path, str, TableauSpec]:
    """The checks of :func:`import_tableau_file` on the data of a tableau file (as
    :func:`prepare_user_tableau`; nothing is written). Errors are :class:`DataFileError` naming
    ``where`` and the field."""
    spec = tableau_from_data(data, path=where)
    try:
        return prepare_user_tableau(spec.players, {k: spec.value(k) for k in TABLEAU_KEYS}, spec.track)
    except DataFileError as err:
        raise DataFileError(where, err.problems) from None


def delete_user_tableau(players: int) -> bool:
    """Remove the user's tableau for ``players`` (the shipped stand-in is used again).
    Returns whether a file was removed."""
    target = user_tableau_path(players)
    if target.is_file():
        target.unlink()
        return True
    return False


def tableau_rows(spec: TableauSpec) -> list[dict]:
    """One row per value: key, meaning, value, provenance (for a table)."""
    return [{"key": k, "meaning": TABLEAU_KEY_TEXT[k], "value": getattr(spec, k).value,
             "provenance": getattr(spec, k).provenance} for k in TABLEAU_KEYS]


GOALS = (("goal_10", N_("after turn 10")), ("goal_19", N_("after turn 19")), ("goal_27", N_("after turn 27")))
GOAL_COLOURS = ("#9ecae1", "#4292c6", "#08519c")


def tableau_goals_figure(tableaus: Mapping[int, TableauSpec] | Iterable[TableauSpec]):
    """Grouped bars: the team goals after turns 10, 19 and 27 for each player count. Values
    that are stand-ins (provenance "derived") are hatched; hover shows every provenance."""
    import plotly.graph_objects as go

    specs = list(tableaus.values()) if isinstance(tableaus, Mapping) else list(tableaus)
    specs.sort(key=lambda s: s.players)
    x = [ngettext("{n} player", "{n} players", s.players).format(n=s.players) for s in specs]
    fig = go.Figure()
    for (key, label), colour in zip(GOALS, GOAL_COLOURS):
        label = _(label)
        vals = [getattr(s, key) for s in specs]
        fig.add_bar(
            x=x, y=[v.value for v in vals], name=label, text=[v.value for v in vals], textposition="outside",
            customdata=[provenance_words(v.provenance) for v in vals],
            marker={"color": colour, "pattern": {"shape": ["/" if v.provenance == "derived" else "" for v in vals],
                                                 "fgcolor": "#ffffff", "fillmode": "overlay",
                                                 "solidity": 0.35}},
            hovertemplate=_("%{{x}}: goal {label} = %{{y}}<br>provenance: %{{customdata}}").format(label=label)
            + "<extra></extra>",
        )
    fig.update_layout(
        barmode="group", height=340, margin={"l": 40, "r": 10, "t": 50, "b": 40},
        title={"text": _("Team goals by player count (hatched = derived stand-in)"), "font": {"size": 14}},
        yaxis_title=_("team points"), legend={"orientation": "h", "y": -0.18},
    )
    return fig
