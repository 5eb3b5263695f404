"""Tests for nochmal.data.boardgen: the shipped stand-in co-op sheets are exactly what the seeded
generator makes, and every generated sheet keeps the invariants of the verified sheets."""

from __future__ import annotations

import argparse
import tomllib

import pytest

from nochmal.data.boardgen import (
    GENERATOR_SEED,
    check_shipped,
    default_prefix,
    generate_coop_sheets,
    roman,
    write_coop_sheets,
)
from nochmal.cli.boards import add_cli
from nochmal.engine.cells import COLUMNS, cell_index, indices
from nochmal.engine.errors import InvalidInputError
from nochmal.engine.sheet import (
    BOARDS_DIR,
    COOP_ROW_LABELS,
    STANDARD_FIRST,
    STANDARD_LATER,
    check_invariants,
    get_sheet,
    load_sheet_file,
    sheet_to_toml,
    spec_from_data,
)

NUMERALS = ["I", "II", "III", "IV", "V", "VI"]


@pytest.fixture(scope="module")
def shipped():
    return generate_coop_sheets()


@pytest.fixture(scope="module")
def standard():
    return get_sheet("standard").spec


def _diff_cells(a, b) -> list[int]:
    return [i for i, (x, y) in enumerate(zip("".join(a.grid), "".join(b.grid))) if x != y]


def _squares(spec) -> frozenset[str]:
    return frozenset(f.cell for f in spec.coop.number_fields)


def test_ids_and_files_of_the_shipped_sheets(shipped):
    assert [s.id for s in shipped] == [f"coop-{n}" for n in NUMERALS]
    for n in NUMERALS:
        assert (BOARDS_DIR / f"coop-{n}.toml").is_file()


def test_regenerating_gives_the_shipped_files_byte_for_byte(shipped, tmp_path):
    for spec in shipped:
        assert (BOARDS_DIR / f"{spec.id}.toml").read_bytes() == sheet_to_toml(spec).encode("utf-8")
    paths = write_coop_sheets(tmp_path)
    assert [p.name for p in paths] == [f"coop-{n}.toml" for n in NUMERALS]
    for p in paths:
        assert p.read_bytes() == (BOARDS_DIR / p.name).read_bytes()
    assert check_shipped(sheets=shipped) == []


def test_check_shipped_notices_an_edited_file(shipped, tmp_path):
    for spec in shipped:
        (tmp_path / f"{spec.id}.toml").write_text(sheet_to_toml(spec), encoding="utf-8")
    p = tmp_path / "coop-IV.toml"
    p.write_text(p.read_text(encoding="utf-8").replace("jokers = 8", "jokers = 7"), encoding="utf-8")
    (tmp_path / "coop-VI.toml").unlink()
    problems = check_shipped(tmp_path, sheets=shipped)
    assert len(problems) == 2
    assert "coop-IV.toml: differs" in problems[0]
    assert "coop-VI.toml: missing" in problems[1]


def test_generation_is_deterministic(shipped):
    again = generate_coop_sheets(seed=GENERATOR_SEED)
    assert [sheet_to_toml(s) for s in again] == [sheet_to_toml(s) for s in shipped]


def test_every_shipped_sheet_satisfies_every_invariant(shipped):
    for n in NUMERALS:
        path = BOARDS_DIR / f"coop-{n}.toml"
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        spec, violations = spec_from_data(data, path=path, strict_invariants=True)
        assert violations == []
        assert check_invariants(spec) == []
        grid = "".join(spec.grid)
        for letter in "ygbro":
            assert sum(ch.lower() == letter for ch in grid) == 21
            assert sum(ch == letter.upper() for ch in grid) == 3
        stars = [i for i, ch in enumerate(grid) if ch.isupper()]
        assert sorted(i % 15 for i in stars) == list(range(15))
        sheet = load_sheet_file(path)
        for colour in range(5):
            sizes = sorted(b.mask.bit_count() for b in sheet.blocks if b.colour == colour)
            assert sizes == [1, 2, 3, 4, 5, 6]
        for b in sheet.blocks:
            assert (b.mask & sheet.star_mask).bit_count() <= 1


def test_sheets_differ_from_each_other_and_from_standard_by_a_few_swaps(shipped, standard):
    grids = {s.grid for s in shipped}
    assert len(grids) == 6
    assert standard.grid not in grids
    for spec in shipped:
        changed = _diff_cells(spec, standard)
        # 2..4 swaps of two cells each, never touching a cell twice
        assert len(changed) in (4, 6, 8)
        # a swap exchanges colours: the multiset of colours of the changed cells is unchanged
        before = sorted("".join(standard.grid)[i].lower() for i in changed)
        after = sorted("".join(spec.grid)[i].lower() for i in changed)
        assert before == after
        # stars stay where they are
        assert [ch.isupper() for ch in "".join(spec.grid)] == [ch.isupper() for ch in "".join(standard.grid)]


def test_source_names_the_swaps_and_says_it_is_not_the_printed_sheet(shipped, standard):
    for spec in shipped:
        assert "nochmal.data.boardgen" in spec.source
        assert "verified standard sheet" in spec.source
        assert f"seed {GENERATOR_SEED}" in spec.source
        assert "NOT the printed co-op sheet" in spec.source
        named = spec.source.split("colours swapped: ")[1].split(";")[0]
        cells = {cell_index(part.split()[0]) for swap in named.split(", ") for part in swap.split(" <-> ")}
        assert cells == set(_diff_cells(spec, standard))


def test_coop_extras_and_metadata(shipped, standard):
    for n, spec in zip(NUMERALS, shipped):
        assert spec.provenance == "stand-in"
        assert spec.name == f"Co-op sheet {n} (stand-in)"
        assert spec.row_labels == COOP_ROW_LABELS == tuple("PQRSTUV")
        assert spec.start_column == "H"
        assert spec.jokers == 8
        assert spec.first_points == STANDARD_FIRST == standard.first_points
        assert spec.later_points == STANDARD_LATER == standard.later_points
        assert spec.coop is not None
        assert spec.coop.failed_roll_boxes == 3


def test_six_number_fields_on_disjoint_squares_placed_differently(shipped):
    h = COLUMNS.index("H")
    for spec in shipped:
        fields = spec.coop.number_fields
        assert [f.number for f in fields] == [1, 2, 3, 4, 5, 6]
        covered = 0
        for f in fields:
            sq = f.square()
            assert sq.bit_count() == 4
            assert covered & sq == 0
            covered |= sq
            rows = {i // 15 for i in indices(sq)}
            cols = {i % 15 for i in indices(sq)}
            assert len(rows) == 2 and len(cols) == 2 and max(rows) - min(rows) == 1 and max(cols) - min(cols) == 1
        cols = [cell_index(f.cell) % 15 for f in fields]
        assert any(c + 1 < h for c in cols), "a square wholly left of column H"
        assert any(c > h for c in cols), "a square wholly right of column H"
    assert len({_squares(s) for s in shipped}) == 6


def test_get_sheet_loads_a_coop_sheet(shipped):
    sheet = get_sheet("coop-III")
    assert sheet.id == "coop-III"
    assert sheet.provenance == "stand-in"
    assert sheet.spec == shipped[2]
    assert [n for n, _ in sheet.number_fields] == [1, 2, 3, 4, 5, 6]
    assert all(mask.bit_count() == 4 for _, mask in sheet.number_fields)


def test_another_seed_gives_other_sheets_with_other_ids(shipped):
    other = generate_coop_sheets(seed=7)
    assert [s.id for s in other] == [f"coop-s7-{n}" for n in NUMERALS]
    assert all(s.name.endswith("(stand-in, seed 7)") for s in other)
    assert all("seed 7" in s.source for s in other)
    assert {s.grid for s in other} != {s.grid for s in shipped}
    assert [s.grid for s in other] != [s.grid for s in shipped]
    assert all(check_invariants(s) == [] for s in other)
    assert len({s.grid for s in other}) == 6


def test_more_sheets_and_another_base():
    many = generate_coop_sheets(seed=11, count=8)
    assert [s.id for s in many][-2:] == ["coop-s11-VII", "coop-s11-VIII"]
    assert len({s.grid for s in many}) == 8
    assert len({_squares(s) for s in many}) == 8
    red = get_sheet("red").spec
    from_red = generate_coop_sheets(base=red, seed=3, count=2)
    assert [s.id for s in from_red] == ["coop-red-s3-I", "coop-red-s3-II"]
    assert all("verified red sheet" in s.source for s in from_red)
    assert all(len(_diff_cells(s, red)) in (4, 6, 8) for s in from_red)


def test_reserved_prefix_and_bad_input_are_rejected(standard):
    with pytest.raises(InvalidInputError, match="reserved"):
        generate_coop_sheets(seed=5, prefix="coop")
    with pytest.raises(InvalidInputError, match="count"):
        generate_coop_sheets(count=0)
    broken = standard.model_copy(update={"grid": ("y" * 15,) + standard.grid[1:], "provenance": "user", "id": "mine"})
    with pytest.raises(InvalidInputError, match="invariants"):
        generate_coop_sheets(base=broken, seed=1)
    assert default_prefix("standard", GENERATOR_SEED) == "coop"
    assert default_prefix("standard", 9) == "coop-s9"
    assert default_prefix("blue", GENERATOR_SEED) == f"coop-blue-s{GENERATOR_SEED}"
    assert [roman(k) for k in (1, 4, 9, 14, 40)] == ["I", "IV", "IX", "XIV", "XL"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="nochmal")
    sub = p.add_subparsers(dest="command", required=True)
    add_cli(sub)
    return p


def test_cli_generate_writes_valid_files(tmp_path, capsys):
    args = _parser().parse_args(["boards", "generate", "--out", str(tmp_path), "--seed", "5", "--count", "2"])
    assert args.func(args) == 0
    files = sorted(tmp_path.glob("*.toml"))
    assert [f.name for f in files] == ["coop-s5-I.toml", "coop-s5-II.toml"]
    printed = capsys.readouterr().out.split()
    assert sorted(printed) == sorted(str(f) for f in files)
    expected = generate_coop_sheets(seed=5, count=2)
    for f, spec in zip(files, expected):
        sheet = load_sheet_file(f)  # strict: raises if an invariant fails
        assert sheet.spec == spec
        assert sheet.provenance == "stand-in"
        assert check_invariants(sheet.spec) == []


def test_cli_generate_with_defaults_rebuilds_the_shipped_files(tmp_path):
    args = _parser().parse_args(["boards", "generate", "--out", str(tmp_path)])
    assert args.func(args) == 0
    for n in NUMERALS:
        assert (tmp_path / f"coop-{n}.toml").read_bytes() == (BOARDS_DIR / f"coop-{n}.toml").read_bytes()


def test_cli_check(tmp_path, capsys):
    args = _parser().parse_args(["boards", "check"])
    assert args.func(args) == 0
    assert "match the generator" in capsys.readouterr().out
    args = _parser().parse_args(["boards", "check", "--dir", str(tmp_path)])
    assert args.func(args) == 1
    assert "missing" in capsys.readouterr().err
