"""Sheets as data (R-SHEET) and their precomputed geometry.

A sheet file (``boards/<id>.toml``) is loaded into the frozen pydantic model
:class:`SheetSpec`; :class:`Sheet` adds what the move generator needs: colour blocks, and for
every block every orthogonally connected cell set of size 1..5 as a bit mask, so that asking
for the legal moves of a position is a handful of bit operations per block.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

import tomli_w
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    field_validator,
    model_validator,
)

from nochmal.engine.cells import (
    COLOUR_LETTERS,
    COLOURS,
    COLUMN_MASKS,
    COLUMNS,
    FULL,
    N_CELLS,
    N_COLS,
    N_ROWS,
    cell_index,
    cell_name,
    indices,
    neighbours,
)
from nochmal.engine import resources, tomlin
from nochmal.engine.contract import MAX_PROBLEMS, format_validation, validated  # noqa: F401 (also read from here)
from nochmal.engine.errors import DataFileError, InvalidInputError

#: The folder of the shipped files: a clone's top level, or the installed package's tree
#: (:mod:`nochmal.engine.resources`).
SHIPPED_ROOT = resources.root()
BOARDS_DIR = SHIPPED_ROOT / "boards"
Provenance = Literal["verified", "stand-in", "user"]
MAX_COUNT = 5  # R-COUNT: never more than 5 cells in one move

STANDARD_FIRST = (5, 3, 3, 3, 2, 2, 2, 1, 2, 2, 2, 3, 3, 3, 5)
STANDARD_LATER = (3, 2, 2, 2, 1, 1, 1, 0, 1, 1, 1, 2, 2, 2, 3)
DEFAULT_ROW_LABELS = tuple(str(r + 1) for r in range(N_ROWS))
COOP_ROW_LABELS = tuple("PQRSTUV")

#: A sheet or tableau file is refused above this size (the shipped ones are 1-2 KiB); also the
#: cap of a sheet or tableau file uploaded in the app.
MAX_DATA_FILE_BYTES = 64 * 1024
#: Names, sources and summaries in data files: at most this many characters.
MAX_TEXT_LENGTH = 500

#: Bidirectional-text controls: invisible, and they reorder what a reader sees.
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: The same rule for editors (JSON Schema); the validator below is what the app enforces.
PLAIN_TEXT_PATTERN = r"^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]*$"


def control_character(text: str) -> tuple[int, str] | None:
    """The first (1-based position, character) of ``text`` that has no place in a name or a
    source: control characters (C0, DEL, C1: tab and newline too), line and paragraph separators,
    lone surrogates and bidirectional-text controls. None if there is none."""
    for i, ch in enumerate(text, 1):
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in _BIDI_CONTROLS:
            return i, ch
    return None


def plain_text(value: str) -> str:
    """One line of plain text: no control characters (for ``AfterValidator``)."""
    found = control_character(value)
    if found is not None:
        i, ch = found
        raise ValueError(f"character {i} is the control character U+{ord(ch):04X}: "
                         f"names and sources are plain text on one line")
    return value


#: One line of plain text (names, sources, labels): control characters are refused.
PlainText = Annotated[str, AfterValidator(plain_text), Field(json_schema_extra={"pattern": PLAIN_TEXT_PATTERN})]


def not_blank(value: str) -> str:
    """A name needs visible text (for ``AfterValidator``)."""
    if not value.strip():
        raise ValueError("must not be blank: a name needs visible text")
    return value


#: A name (of a sheet, tableau, mission): plain text with something to read, at most 80 characters.
Name = Annotated[PlainText, Field(min_length=1, max_length=80), AfterValidator(not_blank)]
#: Whole numbers in data files are whole numbers: no "5", 5.0 or true turned into 5.
StrictInt = Annotated[int, Strict()]

GridRow = Annotated[str, Field(pattern=r"^[ygbroYGBRO]{15}$")]
Points = Annotated[StrictInt, Field(ge=0, le=20)]


class NumberField(BaseModel):
    """A round number field in the middle of the 2x2 square whose top-left cell is ``cell``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    number: Annotated[StrictInt, Field(ge=1, le=9)]
    cell: Annotated[str, Field(pattern=r"^[A-N][1-6]$")]

    def square(self) -> int:
        i = cell_index(self.cell)
        return (1 << i) | (1 << (i + 1)) | (1 << (i + N_COLS)) | (1 << (i + N_COLS + 1))


class CoopExtras(BaseModel):
    """What the co-op backs of the sheets add (C-BOARDS)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    failed_roll_boxes: Annotated[StrictInt, Field(ge=1, le=5)] = 3
    number_fields: tuple[NumberField, ...] = ()

    @model_validator(mode="after")
    def _distinct(self) -> "CoopExtras":
        numbers = [f.number for f in self.number_fields]
        if len(set(numbers)) != len(numbers):
            raise ValueError("number_fields: every number may appear once")
        seen = 0
        for f in self.number_fields:
            if seen & f.square():
                raise ValueError(f"number_fields: the square at {f.cell} overlaps another one")
            seen |= f.square()
        return self


class SheetSpec(BaseModel):
    """One sheet file. ``grid`` holds 7 rows (top to bottom) of 15 letters y g b r o
    (yellow, green, blue, red, orange); an UPPERCASE letter marks a star."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")]
    name: Name
    provenance: Provenance
    source: Annotated[PlainText, Field(max_length=MAX_TEXT_LENGTH)] = ""
    grid: Annotated[tuple[GridRow, ...], Field(min_length=N_ROWS, max_length=N_ROWS)]
    start_column: Annotated[str, Field(pattern=r"^[A-O]$")] = "H"
    jokers: Annotated[StrictInt, Field(ge=0, le=20)] = 8
    first_points: Annotated[tuple[Points, ...], Field(min_length=N_COLS, max_length=N_COLS)] = STANDARD_FIRST
    later_points: Annotated[tuple[Points, ...], Field(min_length=N_COLS, max_length=N_COLS)] = STANDARD_LATER
    row_labels: Annotated[tuple[Annotated[PlainText, Field(min_length=1, max_length=3)], ...], Field(min_length=N_ROWS, max_length=N_ROWS)] = DEFAULT_ROW_LABELS
    coop: CoopExtras | None = None

    @field_validator("grid", mode="before")
    @classmethod
    def _strip(cls, v):
        return tuple(r.strip() if isinstance(r, str) else r for r in v) if isinstance(v, (list, tuple)) else v


# --------------------------------------------------------------------------- invariants
@dataclass(frozen=True)
class Violation:
    invariant: str  # e.g. "INV-COLOUR-CELLS"
    message: str

    def __str__(self) -> str:
        return f"{self.invariant}: {self.message}"


def _blocks_of(colour_of: tuple[int, ...]) -> list[int]:
    """Colour blocks (maximal orthogonally connected same-colour cell sets) as masks,
    ordered by their lowest cell."""
    seen = 0
    blocks = []
    for i in range(N_CELLS):
        if seen >> i & 1:
            continue
        same = sum(1 << j for j in range(N_CELLS) if colour_of[j] == colour_of[i])
        block = 1 << i
        while True:
            grown = (block | neighbours(block)) & same
            if grown == block:
                break
            block = grown
        seen |= block
        blocks.append(block)
    return blocks


def check_invariants(spec: SheetSpec) -> list[Violation]:
    """The invariants every verified sheet satisfies (``shared/reference/sheets.toml``)."""
    colour_of = tuple(COLOUR_LETTERS.index(ch.lower()) for row in spec.grid for ch in row)
    star = [ch.isupper() for row in spec.grid for ch in row]
    out: list[Violation] = []
    blocks = _blocks_of(colour_of)
    for c, cname in enumerate(COLOURS):
        n = colour_of.count(c)
        if n != 21:
            out.append(Violation("INV-COLOUR-CELLS", f"{cname} has {n} cells, every colour needs 21"))
        sizes = sorted(b.bit_count() for b in blocks if colour_of[(b & -b).bit_length() - 1] == c)
        if sizes != [1, 2, 3, 4, 5, 6]:
            out.append(Violation("INV-BLOCK-SIZES", f"{cname} blocks have sizes {sizes}, expected exactly 1,2,3,4,5,6"))
        nstar = sum(1 for i in range(N_CELLS) if star[i] and colour_of[i] == c)
        if nstar != 3:
            out.append(Violation("INV-STARS-COLOUR", f"{cname} has {nstar} stars, expected 3"))
    total = sum(star)
    if total != 15:
        out.append(Violation("INV-STARS-TOTAL", f"{total} stars, expected 15"))
    for col in range(N_COLS):
        n = sum(star[r * N_COLS + col] for r in range(N_ROWS))
        if n != 1:
            out.append(Violation("INV-STARS-COLUMN", f"column {COLUMNS[col]} has {n} stars, expected 1"))
    for b in blocks:
        n = sum(star[i] for i in indices(b))
        if n > 1:
            first = cell_name((b & -b).bit_length() - 1)
            out.append(Violation("INV-STARS-BLOCK", f"the block at {first} has {n} stars, at most 1 allowed"))
    return out


# --------------------------------------------------------------------------- geometry
def _connected_subsets(block: int, max_size: int) -> list[int]:
    """Every orthogonally connected subset of ``block`` with 1..max_size cells."""
    layer = {1 << i for i in indices(block)}
    found = set(layer)
    for _ in range(max_size - 1):
        nxt = set()
        for s in layer:
            for i in indices(neighbours(s) & block & ~s):
                nxt.add(s | (1 << i))
        found |= nxt
        layer = nxt
    return sorted(found)


@dataclass(eq=False)
class Block:
    index: int
    colour: int
    mask: int
    subsets: tuple[int, ...]  # connected subsets of size 1..5, ascending
    # memo: (free part of block, anchored free part) -> ((count, masks), ...); pure function of
    # the block, filled lazily, at most 2^6 * 2^6 entries.
    memo: dict = field(default_factory=dict, repr=False)

    def moves(self, free: int, anchor: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
        by_count: dict[int, list[int]] = {}
        for s in self.subsets:
            if s & free == s and s & anchor:
                by_count.setdefault(s.bit_count(), []).append(s)
        return tuple((k, tuple(v)) for k, v in sorted(by_count.items()))


class Sheet:
    """A loaded sheet: its spec plus precomputed masks. Immutable after construction."""

    def __init__(self, spec: SheetSpec, path: Path | None = None) -> None:
        self.spec = spec
        self.path = path
        self.id = spec.id
        self.colour_of = tuple(COLOUR_LETTERS.index(ch.lower()) for row in spec.grid for ch in row)
        self.star_mask = sum(1 << i for i, ch in enumerate("".join(spec.grid)) if ch.isupper())
        self.colour_masks = tuple(
            sum(1 << i for i in range(N_CELLS) if self.colour_of[i] == c) for c in range(len(COLOURS))
        )
        self.start_col = COLUMNS.index(spec.start_column)
        self.start_mask = COLUMN_MASKS[self.start_col]
        self.first_points = spec.first_points
        self.later_points = spec.later_points
        self.jokers = spec.jokers
        self.blocks = tuple(
            Block(i, self.colour_of[(b & -b).bit_length() - 1], b, tuple(_connected_subsets(b, MAX_COUNT)))
            for i, b in enumerate(_blocks_of(self.colour_of))
        )
        self.block_of = [None] * N_CELLS
        for b in self.blocks:
            for i in indices(b.mask):
                self.block_of[i] = b
        # fast path tuple for the move table: (colour, mask, block)
        self._scan = tuple((b.colour, b.mask, b) for b in self.blocks)
        self.number_fields = tuple((f.number, f.square()) for f in (spec.coop.number_fields if spec.coop else ()))
        self.warnings: list[Violation] = check_invariants(spec) if spec.provenance == "user" else []
        self.bot_memo: dict = {}  # the bots' per-cell-set facts (nochmal.bots.heuristic), filled lazily

    def __repr__(self) -> str:
        return f"Sheet({self.id!r})"

    @property
    def provenance(self) -> str:
        return self.spec.provenance

    def move_table(self, crossed: int) -> list[list[list[int]]]:
        """``table[colour][count]``: every cell set that is a legal cross of ``count`` cells
        of ``colour`` for a player who has crossed ``crossed`` — R-COLOUR, R-BLOCK,
        R-CONNECTED, R-ADJ/R-START, R-FREE checked; dice and "!" are the caller's business.
        Within a list: by block (lowest cell first), then mask ascending."""
        free = FULL & ~crossed
        anchor = (self.start_mask | neighbours(crossed)) & free
        table = [[[], [], [], [], [], []] for _ in range(5)]
        for colour, mask, block in self._scan:
            f = mask & free
            if not f:
                continue
            a = f & anchor
            if not a:
                continue
            key = (f, a)
            res = block.memo.get(key)
            if res is None:
                res = block.memo[key] = block.moves(f, a)
            row = table[colour]
            for k, ms in res:
                row[k].extend(ms)
        return table

    def column_masks_touched(self, cells: int) -> list[tuple[int, int]]:
        """(column, column mask) for each column that ``cells`` touches."""
        out = []
        seen = 0
        while cells:
            low = cells & -cells
            col = (low.bit_length() - 1) % N_COLS
            if not seen >> col & 1:
                seen |= 1 << col
                out.append((col, COLUMN_MASKS[col]))
            cells ^= low
        return out

    def to_text(self) -> list[str]:
        return list(self.spec.grid)


# --------------------------------------------------------------------------- loading
def parse_data_file(raw: bytes, where: object, *, limit: int = MAX_DATA_FILE_BYTES) -> dict:
    """The TOML document in ``raw`` (a sheet, tableau, mission or co-op set file), or a
    :class:`DataFileError` naming ``where``: more than ``limit`` bytes, not UTF-8, not TOML,
    numbers too long to read, nested deeper than :data:`~nochmal.engine.tomlin.MAX_DEPTH` (checked
    before parsing: see :mod:`nochmal.engine.tomlin`)."""
    if len(raw) > limit:
        raise DataFileError(where, [f"the file has {len(raw):,} bytes, a data file may have at most "
                                    f"{limit:,} ({limit // 1024} KiB)"])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[:err.start].count(b"\n") + 1
        raise DataFileError(where, [f"not UTF-8 text: byte {err.start + 1} (line {line}) "
                                    f"is 0x{raw[err.start]:02x}"]) from None
    try:
        return tomlin.loads(text, max_chars=limit)
    except InvalidInputError as err:
        raise DataFileError(where, [str(err)]) from None


def read_data_file(path: str | os.PathLike) -> dict:
    """:func:`parse_data_file` of the file at ``path`` (errors name the path)."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_DATA_FILE_BYTES + 1)
    except OSError as err:
        raise DataFileError(path, [f"cannot read: {err.strerror or err}"]) from None
    if len(raw) > MAX_DATA_FILE_BYTES:
        raise DataFileError(path, [f"the file has more than {MAX_DATA_FILE_BYTES:,} bytes "
                                   f"({MAX_DATA_FILE_BYTES // 1024} KiB), the most a data file may have"])
    return parse_data_file(raw, path)


def spec_from_data(data: dict, *, path: object = "<data>", strict_invariants: bool | None = None) -> tuple[SheetSpec, list[Violation]]:
    """Validate a sheet given as a dict. Raises :class:`DataFileError` (naming ``path``, the
    field and the invariant) if the data are malformed, or if the invariants fail for a shipped
    sheet. For a user sheet broken invariants come back as warnings."""
    spec = validated(SheetSpec, data, path)
    violations = check_invariants(spec)
    strict = spec.provenance != "user" if strict_invariants is None else strict_invariants
    if strict and violations:
        raise DataFileError(path, [f"invariant {v}" for v in violations])
    return spec, violations


def load_sheet_file(path: str | os.PathLike) -> Sheet:
    path = Path(path)
    spec, _ = spec_from_data(read_data_file(path), path=path)
    return Sheet(spec, path)


def user_boards_dir() -> Path:
    base = os.environ.get("NOCHMAL_HOME")
    if base:
        return Path(base) / "boards"
    try:
        from platformdirs import user_data_dir
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        return Path.home() / ".local" / "share" / "nochmal" / "boards"
    return Path(user_data_dir("nochmal")) / "boards"


def sheet_paths() -> dict[str, Path]:
    """id -> file: the shipped boards, then the user's (a user file overrides a shipped one
    only if its id is new; shipped ids are reserved)."""
    out: dict[str, Path] = {}
    for d in (BOARDS_DIR, user_boards_dir()):
        if d.is_dir():
            for p in sorted(d.glob("*.toml")):
                out.setdefault(p.stem, p)
    return out


@lru_cache(maxsize=64)
def _load_cached(path: str, mtime_ns: int) -> Sheet:
    return load_sheet_file(path)


def get_sheet(sheet_id: str) -> Sheet:
    """The sheet with this id (a shipped board or a user board). Loaded sheets are immutable
    and cached by path and modification time."""
    paths = sheet_paths()
    if sheet_id not in paths:
        raise InvalidInputError(
            f"unknown sheet {sheet_id!r}: known sheets are {', '.join(sorted(paths))}", rule="R-SHEET"
        )
    p = paths[sheet_id]
    return _load_cached(str(p), p.stat().st_mtime_ns)


def shipped_sheet_ids() -> list[str]:
    """The ids of the shipped boards (``boards/*.toml``; no user boards)."""
    return sorted(p.stem for p in BOARDS_DIR.glob("*.toml"))


def sheet_ids() -> list[str]:
    return sorted(sheet_paths())


def toml_value(value: str | int | Iterable | dict) -> str:
    """One value in TOML as ``tomli-w`` (a maintained TOML writer) writes it: every string and
    number is encoded by tomli-w, which escapes quotes, backslashes and control characters.
    Lists and inline tables of such values stay on one line, as in ``boards/*.toml``."""
    if isinstance(value, dict):
        return "{ " + ", ".join(tomli_w.dumps({k: v}).rstrip("\n") if not isinstance(v, (dict, list, tuple))
                                else f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise TypeError(f"toml_value: {type(value).__name__} is not written in data files")
    line = tomli_w.dumps({"v": value})
    return line[len("v = "):-1]


def toml_line(key: str, value: str | int | Iterable | dict) -> str:
    """``key = value`` (see :func:`toml_value`); ``key`` is a bare key of a data model."""
    if not re.fullmatch(r"[A-Za-z0-9_-]+", key):
        raise ValueError(f"toml_line: {key!r} is not a bare key")
    return f"{key} = {toml_value(value)}"


def sheet_to_toml(spec: SheetSpec) -> str:
    """The file text of a sheet, in the layout of ``boards/*.toml`` (one grid row a line). The
    text is read back and compared before it is returned: it always loads as ``spec``."""
    lines = [
        toml_line("id", spec.id),
        toml_line("name", spec.name),
        toml_line("provenance", spec.provenance),
        toml_line("source", spec.source),
        toml_line("start_column", spec.start_column),
        toml_line("jokers", spec.jokers),
        toml_line("first_points", spec.first_points),
        toml_line("later_points", spec.later_points),
        toml_line("row_labels", spec.row_labels),
        "# 7 rows top to bottom, columns A..O; y g b r o = yellow green blue red orange; UPPERCASE = star",
        "grid = [",
        *(f"  {toml_value(r)}," for r in spec.grid),
        "]",
    ]
    if spec.coop is not None:
        lines += ["", "[coop]", toml_line("failed_roll_boxes", spec.coop.failed_roll_boxes),
                  "# each number field sits in the middle of the 2x2 square whose top-left cell is `cell`",
                  "number_fields = ["]
        lines += [f"  {toml_value({'number': f.number, 'cell': f.cell})}," for f in spec.coop.number_fields]
        lines += ["]"]
    text = "\n".join(lines) + "\n"
    if SheetSpec.model_validate(tomlin.loads(text)) != spec:  # pragma: no cover - guards the layout above
        raise DataFileError(f"<sheet {spec.id}>", ["the file text would not read back as the sheet"])
    return text


def sheet_from_rows(rows: Iterable[str], **fields) -> Sheet:
    """Build a sheet from 7 rows of letters (a quick way for tests and the digitizer)."""
    spec, _ = spec_from_data({"grid": list(rows), **fields}, strict_invariants=False)
    return Sheet(spec)
