"""Seeded generator of the stand-in co-op sheets I-VI (``shared/reference/coop.md``, item 2).

The printed layouts of the co-op backs are not public. The project ships stand-ins made from
the verified standard sheet by a few colour swaps each, keeping every invariant of
:func:`nochmal.engine.sheet.check_invariants`, plus six number fields on 2x2 squares. Everything is a
pure function of the base sheet and the seed, so ``boards/coop-*.toml`` can be rebuilt and
checked (``nochmal boards generate --out boards`` / ``nochmal boards check``).

How a sheet is made (sheet ``k`` = 1, 2, ...; ``rng = random.Random(f"{seed}-{k}")``):

1. **Colour swaps.** The number of swaps is ``rng.randint(2, 4)``. A swap exchanges the
   colours of two cells of different colours anywhere on the sheet; the stars stay where they
   are (a star never leaves its column). Proposals are drawn at random and a swap is accepted
   only if the sheet still satisfies every invariant, both cells are untouched by earlier swaps
   of this sheet (so no swap undoes another), and — for the last swap — the sheet differs from
   the base and from every sheet generated before it. Swapping only orthogonal neighbours is
   too restrictive: on the standard sheet just two such swaps keep the invariants.
2. **Number fields.** Six non-overlapping 2x2 squares drawn with the same ``rng``; at least
   one lies wholly left of the start column and one wholly right of it, and the set of squares
   differs from that of every earlier sheet. They are numbered 1..6 in reading order of their
   top-left cells.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from nochmal.data.outfile import check_output_path, write_file
from nochmal.engine.cells import COLOUR_LETTERS, COLOURS, COLUMNS, N_CELLS, N_COLS, N_ROWS, cell_index, cell_name
from nochmal.engine.errors import InvalidInputError, NochmalError
from nochmal.engine.sheet import (
    BOARDS_DIR,
    COOP_ROW_LABELS,
    CoopExtras,
    NumberField,
    SheetSpec,
    check_invariants,
    get_sheet,
    sheet_to_toml,
    spec_from_data,
)

GENERATOR_SEED = 2026
DEFAULT_COUNT = 6
SHIPPED_PREFIX = "coop"
MAX_CLI_COUNT = 100  # sheets one ``boards generate`` run may make (about 0.1 s each)
MIN_SWAPS, MAX_SWAPS = 2, 4
N_NUMBER_FIELDS = 6
FAILED_ROLL_BOXES = 3
COOP_JOKERS = 8
MAX_PROPOSALS = 200_000  # per sheet; far above what any seed needs (a few thousand at most)

_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman(n: int) -> str:
    """``2`` -> ``"II"`` (n >= 1)."""
    if n < 1:
        raise InvalidInputError(f"sheet number {n} must be at least 1")
    out = []
    for value, letters in _ROMAN:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


@dataclass(frozen=True)
class Swap:
    """The colours of cells ``a`` and ``b`` (indices) were exchanged; ``colour_a`` is the
    letter ``a`` had before (lowercase)."""

    a: int
    b: int
    colour_a: str
    colour_b: str

    def describe(self) -> str:
        name = dict(zip(COLOUR_LETTERS, COLOURS))
        return f"{cell_name(self.a)} {name[self.colour_a]} <-> {cell_name(self.b)} {name[self.colour_b]}"


def _recolour(ch: str, letter: str) -> str:
    """``letter`` in the case of ``ch`` (the star flag stays with the cell)."""
    return letter.upper() if ch.isupper() else letter


def _rows(flat: list[str]) -> tuple[str, ...]:
    return tuple("".join(flat[r * N_COLS:(r + 1) * N_COLS]) for r in range(N_ROWS))


def _is_valid(base: SheetSpec, flat: list[str]) -> bool:
    # model_copy skips validation: only the grid is read by check_invariants, and the
    # finished sheet is validated strictly through spec_from_data.
    return not check_invariants(base.model_copy(update={"grid": _rows(flat)}))


def _swapped_grid(base: SheetSpec, rng: random.Random, avoid: set[tuple[str, ...]]) -> tuple[tuple[str, ...], list[Swap]]:
    flat = list("".join(base.grid))
    wanted = rng.randint(MIN_SWAPS, MAX_SWAPS)
    swaps: list[Swap] = []
    used: set[int] = set()
    for _ in range(MAX_PROPOSALS):
        a, b = sorted(rng.sample(range(N_CELLS), 2))
        ca, cb = flat[a].lower(), flat[b].lower()
        if ca == cb or a in used or b in used:
            continue
        if flat[a].isupper() != flat[b].isupper():
            continue  # a star would change colour: INV-STARS-COLOUR fails (cheap early reject)
        trial = flat.copy()
        trial[a] = _recolour(flat[a], cb)
        trial[b] = _recolour(flat[b], ca)
        if not _is_valid(base, trial):
            continue
        if len(swaps) + 1 == wanted and _rows(trial) in avoid:
            continue
        flat = trial
        used |= {a, b}
        swaps.append(Swap(a, b, ca, cb))
        if len(swaps) == wanted:
            return _rows(flat), swaps
    raise NochmalError(  # pragma: no cover - no known base sheet and seed get here
        f"boardgen: found only {len(swaps)} of {wanted} colour swaps on sheet {base.id!r} "
        f"after {MAX_PROPOSALS} proposals"
    )


def _square_mask(top_left: int) -> int:
    return (1 << top_left) | (1 << (top_left + 1)) | (1 << (top_left + N_COLS)) | (1 << (top_left + N_COLS + 1))


def _number_fields(rng: random.Random, start_col: int, avoid: list[frozenset[int]]) -> tuple[NumberField, ...]:
    """Six non-overlapping 2x2 squares (top-left cell indices), one wholly left and one
    wholly right of the start column at least, a set not used by an earlier sheet."""
    corners = [r * N_COLS + c for r in range(N_ROWS - 1) for c in range(N_COLS - 1)]
    for _ in range(MAX_PROPOSALS):
        chosen: list[int] = []
        covered = 0
        for corner in rng.sample(corners, len(corners)):
            if not covered & _square_mask(corner):
                chosen.append(corner)
                covered |= _square_mask(corner)
                if len(chosen) == N_NUMBER_FIELDS:
                    break
        cols = [i % N_COLS for i in chosen]
        if len(chosen) < N_NUMBER_FIELDS:  # pragma: no cover - 6 squares always fit
            continue
        if not any(c + 1 < start_col for c in cols) or not any(c > start_col for c in cols):
            continue
        if frozenset(chosen) in avoid:
            continue
        return tuple(NumberField(number=n, cell=cell_name(i)) for n, i in enumerate(sorted(chosen), start=1))
    raise NochmalError("boardgen: could not place the number fields")  # pragma: no cover


def default_prefix(base_id: str, seed: int) -> str:
    """``coop`` for the shipped sheets (standard base, seed 2026); otherwise a prefix that
    names the seed (and the base if it is not the standard sheet), so ids never clash."""
    if base_id == "standard" and seed == GENERATOR_SEED:
        return SHIPPED_PREFIX
    return f"coop-s{seed}" if base_id == "standard" else f"coop-{base_id}-s{seed}"


def generate_coop_sheets(
    base: SheetSpec | None = None,
    seed: int = GENERATOR_SEED,
    count: int = DEFAULT_COUNT,
    prefix: str | None = None,
) -> list[SheetSpec]:
    """The stand-in co-op sheets ``<prefix>-I`` ... derived from ``base`` (default: the
    verified standard sheet). Deterministic in (base, seed, count). Each sheet is validated
    through :func:`spec_from_data`, i.e. with the invariants checked strictly."""
    if base is None:
        base = get_sheet("standard").spec
    if count < 1:
        raise InvalidInputError(f"count {count} must be at least 1")
    broken = check_invariants(base)
    if broken:
        raise InvalidInputError(
            f"sheet {base.id!r} breaks the sheet invariants ({broken[0]}); stand-ins are derived only "
            "from sheets that satisfy them"
        )
    if prefix is None:
        prefix = default_prefix(base.id, seed)
    shipped = base.id == "standard" and seed == GENERATOR_SEED
    if prefix == SHIPPED_PREFIX and not shipped:
        raise InvalidInputError(
            f"the prefix {SHIPPED_PREFIX!r} is reserved for the shipped sheets (standard sheet, seed "
            f"{GENERATOR_SEED}); use another prefix, e.g. {default_prefix(base.id, seed)!r}"
        )
    if base.provenance == "verified":
        origin = f"the verified {base.id} sheet"
    else:
        origin = f"the {base.provenance} sheet {base.id!r}"
    start_col = COLUMNS.index(base.start_column)
    seen_grids: set[tuple[str, ...]] = {tuple(base.grid)}
    seen_fields: list[frozenset[int]] = []
    out: list[SheetSpec] = []
    for k in range(1, count + 1):
        rng = random.Random(f"{seed}-{k}")
        grid, swaps = _swapped_grid(base, rng, seen_grids)
        fields = _number_fields(rng, start_col, seen_fields)
        seen_grids.add(grid)
        seen_fields.append(frozenset(cell_index(f.cell) for f in fields))
        numeral = roman(k)
        sheet_id = f"{prefix}-{numeral}"
        name = f"Co-op sheet {numeral} (stand-in)" if shipped else f"Co-op sheet {numeral} (stand-in, seed {seed})"
        source = (
            f"generated by nochmal.data.boardgen from {origin} with seed {seed} (sheet {k}); colours swapped: "
            + ", ".join(s.describe() for s in swaps)
            + "; number fields placed by the same seed. NOT the printed co-op sheet: its layout is not public."
        )
        data = {
            "id": sheet_id,
            "name": name,
            "provenance": "stand-in",
            "source": source,
            "grid": list(grid),
            "start_column": base.start_column,
            "jokers": COOP_JOKERS,
            "first_points": list(base.first_points),
            "later_points": list(base.later_points),
            "row_labels": list(COOP_ROW_LABELS),
            "coop": CoopExtras(failed_roll_boxes=FAILED_ROLL_BOXES, number_fields=fields).model_dump(),
        }
        spec, _ = spec_from_data(data, path=f"<boardgen {sheet_id}>", strict_invariants=True)
        out.append(spec)
    return out


def write_coop_sheets(
    directory: Path = BOARDS_DIR,
    base: SheetSpec | None = None,
    seed: int = GENERATOR_SEED,
    count: int = DEFAULT_COUNT,
    prefix: str | None = None,
) -> list[Path]:
    """Generate the sheets and write ``<directory>/<id>.toml`` for each (overwriting)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    specs = generate_coop_sheets(base, seed, count, prefix)
    paths = [directory / f"{spec.id}.toml" for spec in specs]
    for path in paths:  # a link, a FIFO or a device where a sheet goes: refused before any is written
        check_output_path(path, "--out")
    for spec, path in zip(specs, paths):
        write_file(path, sheet_to_toml(spec), name="--out")  # a regular file, atomically
    return paths


def check_shipped(directory: Path = BOARDS_DIR, sheets: list[SheetSpec] | None = None) -> list[str]:
    """Problems with the shipped ``coop-*.toml`` files (empty if each equals what the
    generator makes, byte for byte). ``sheets``: the generator's output, if already at hand."""
    problems = []
    for spec in generate_coop_sheets() if sheets is None else sheets:
        path = Path(directory) / f"{spec.id}.toml"
        if not path.is_file():
            problems.append(f"{path}: missing")
        elif path.read_bytes() != sheet_to_toml(spec).encode("utf-8"):
            problems.append(f"{path}: differs from the generator's output")
    return problems
