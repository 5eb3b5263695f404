"""Sheets as data: the seven verified sheets, the invariants that guard them, the loader's error
messages, the sheet-file writer, and the published JSON Schema."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest

from nochmal.engine.errors import DataFileError
from nochmal.data.schema import SCHEMAS_DIR, schema_text, schemas, write_schemas
from nochmal.engine.sheet import (
    BOARDS_DIR,
    SheetSpec,
    check_invariants,
    get_sheet,
    load_sheet_file,
    sheet_ids,
    sheet_to_toml,
    spec_from_data,
)

VERIFIED = ("standard", "red", "blue", "green", "orange", "purple", "yellow")
REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "sheets.toml"
STANDARD_TEXT = (BOARDS_DIR / "standard.toml").read_text(encoding="utf-8")
FIRST = (5, 3, 3, 3, 2, 2, 2, 1, 2, 2, 2, 3, 3, 3, 5)
LATER = (3, 2, 2, 2, 1, 1, 1, 0, 1, 1, 1, 2, 2, 2, 3)


def write(tmp_path: Path, text: str, name: str = "sheet.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"{old!r} must occur exactly once"
    return text.replace(old, new)


# one yellow cell (D1) turned green: yellow has 20 cells, green 22
BROKEN_ROW = ('"gggyyyyGbbbOyyy"', '"ggggyyyGbbbOyyy"')


# --------------------------------------------------------------------------- the verified sheets
def test_the_seven_verified_sheets_are_shipped():
    ids = sheet_ids()
    for sid in VERIFIED:
        assert sid in ids
        assert get_sheet(sid).provenance == "verified"


@pytest.mark.parametrize("sheet_id", VERIFIED)
def test_verified_sheet_satisfies_invariants(sheet_id):
    sheet = get_sheet(sheet_id)
    assert sheet.id == sheet_id
    assert check_invariants(sheet.spec) == []
    assert sheet.warnings == []
    # what every verified sheet shares (reference/sheets.toml header)
    assert sheet.spec.start_column == "H"
    assert tuple(sheet.spec.first_points) == FIRST
    assert tuple(sheet.spec.later_points) == LATER
    assert sheet.jokers == 8
    # loading the file directly gives the same sheet
    assert load_sheet_file(BOARDS_DIR / f"{sheet_id}.toml").spec == sheet.spec


@pytest.mark.parametrize("sheet_id", VERIFIED)
def test_verified_sheet_grid_equals_reference(sheet_id):
    if not REFERENCE.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"{REFERENCE} not present: CI runs with shared/ beside the clone")
        pytest.skip(f"{REFERENCE} not present")
    reference = tomllib.loads(REFERENCE.read_text(encoding="utf-8"))
    assert sheet_id in reference
    assert list(get_sheet(sheet_id).spec.grid) == reference[sheet_id]["grid"]


def test_invariant_violation_names_file_and_invariant(tmp_path):
    path = write(tmp_path, replace_once(STANDARD_TEXT, *BROKEN_ROW))
    with pytest.raises(DataFileError) as info:
        load_sheet_file(path)
    err = info.value
    assert str(path) in str(err) and err.path == str(path)
    assert "INV-COLOUR-CELLS" in str(err)
    assert "yellow has 20 cells" in str(err) and "green has 22 cells" in str(err)


@pytest.mark.parametrize("invariant,old,new", [
    ("INV-STARS-COLUMN", '"gggyyyyGbbbOyyy"', '"gggyyyygbbbOyyy"'),  # H1 loses its star
    ("INV-STARS-BLOCK", '"yybbbbryyyggGoo"', '"yybbbbrYyyggGoo"'),  # a second star in H6's block
    ("INV-BLOCK-SIZES", '"gggyyyyGbbbOyyy"', '"gggyyyyGbbbOyyg"'),  # O1 yellow->green (also 21-cell counts break)
])
def test_other_invariants_are_named(tmp_path, invariant, old, new):
    path = write(tmp_path, replace_once(STANDARD_TEXT, old, new))
    with pytest.raises(DataFileError) as info:
        load_sheet_file(path)
    assert str(path) in str(info.value) and invariant in str(info.value)


MALFORMED = {
    # case: (edit of the standard file, words the message must contain)
    "bad TOML": (lambda t: t.replace("jokers = 8", "jokers = = 8"), ["not valid TOML", "line 6"]),
    "missing grid": (lambda t: t[: t.index("grid = [")], ["field grid", "required"]),
    "row of 14 letters": (lambda t: replace_once(t, '"BgrgggGrrryyogg"', '"BgrgggGrrryyog"'), ["field grid.2"]),
    "unknown letter": (lambda t: replace_once(t, '"BgrgggGrrryyogg"', '"BgrgggGrrryyogp"'), ["field grid.2"]),
    "unknown field": (lambda t: t + 'colour_scheme = "pastel"\n', ["field colour_scheme", "not permitted"]),
    "bogus provenance": (lambda t: t.replace('provenance = "verified"', 'provenance = "bogus"'),
                         ["field provenance", "verified", "user"]),
    "six rows": (lambda t: replace_once(t, '  "yybbbbryyyggGoo",\n', ""), ["field grid"]),
    "negative jokers": (lambda t: t.replace("jokers = 8", "jokers = -1"), ["field jokers"]),
    "14 first points": (lambda t: t.replace("first_points = [5, ", "first_points = ["), ["field first_points"]),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_file_names_path_and_field(tmp_path, case):
    edit, words = MALFORMED[case]
    path = write(tmp_path, edit(STANDARD_TEXT))
    with pytest.raises(DataFileError) as info:
        load_sheet_file(path)
    message = str(info.value)
    assert message.startswith(str(path))
    for w in words:
        assert w in message, message


def test_missing_file_names_path(tmp_path):
    path = tmp_path / "nope.toml"
    with pytest.raises(DataFileError) as info:
        load_sheet_file(path)
    assert str(path) in str(info.value)


def test_user_sheet_with_broken_invariants_loads_with_warnings(tmp_path):
    text = replace_once(STANDARD_TEXT, *BROKEN_ROW)
    text = text.replace('id = "standard"', 'id = "my-sheet"').replace('provenance = "verified"', 'provenance = "user"')
    sheet = load_sheet_file(write(tmp_path, text))
    assert sheet.provenance == "user"
    found = {v.invariant for v in sheet.warnings}
    assert "INV-COLOUR-CELLS" in found
    assert any("yellow has 20 cells" in str(v) for v in sheet.warnings)
    # and it is playable: the move table works
    assert sheet.move_table(0)[1][1]  # green H1
    # a stand-in is held to the invariants like a verified sheet
    with pytest.raises(DataFileError):
        load_sheet_file(write(tmp_path, text.replace('provenance = "user"', 'provenance = "stand-in"'), "s.toml"))
    # spec_from_data reports the same problems as a list
    data = tomllib.loads(text)
    spec, violations = spec_from_data(data)
    assert {v.invariant for v in violations} == found


def test_user_boards_directory(tmp_path, monkeypatch):
    boards = tmp_path / "boards"
    boards.mkdir()
    text = STANDARD_TEXT.replace('id = "standard"', 'id = "mine"').replace('provenance = "verified"', 'provenance = "user"')
    write(boards, text, "mine.toml")
    write(boards, STANDARD_TEXT.replace('provenance = "verified"', 'provenance = "user"'), "standard.toml")
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path))
    assert "mine" in sheet_ids()
    assert get_sheet("mine").provenance == "user"
    assert get_sheet("standard").provenance == "verified"  # shipped ids are reserved


# --------------------------------------------------------------------------- writing sheet files
@pytest.mark.parametrize("sheet_id", VERIFIED)
def test_sheet_to_toml_round_trips(sheet_id, tmp_path):
    spec = get_sheet(sheet_id).spec
    text = sheet_to_toml(spec)
    assert SheetSpec.model_validate(tomllib.loads(text)) == spec
    assert load_sheet_file(write(tmp_path, text)).spec == spec
    # the shipped files are in the writer's layout
    assert text == (BOARDS_DIR / f"{sheet_id}.toml").read_text(encoding="utf-8")


def test_sheet_to_toml_round_trips_coop_and_quotes(tmp_path):
    data = tomllib.loads(STANDARD_TEXT)
    data.update(id="co-op_1", name='Sheet "I" \\ test', provenance="user", source="", row_labels=list("PQRSTUV"),
                coop={"failed_roll_boxes": 3, "number_fields": [{"number": 1, "cell": "A1"}, {"number": 2, "cell": "N6"}]})
    spec = SheetSpec.model_validate(data)
    text = sheet_to_toml(spec)
    assert SheetSpec.model_validate(tomllib.loads(text)) == spec
    assert load_sheet_file(write(tmp_path, text)).spec == spec


# --------------------------------------------------------------------------- JSON Schema
def test_published_schemas_are_up_to_date():
    generated = schemas()
    assert "sheet.schema.json" in generated
    for name, schema in generated.items():
        path = SCHEMAS_DIR / name
        hint = f"{path} is out of date: regenerate it with `python -m nochmal.data.schema`"
        assert path.is_file(), hint
        assert path.read_text(encoding="utf-8") == schema_text(schema), hint
    stale = {p.name for p in SCHEMAS_DIR.glob("*.schema.json")} - set(generated)
    assert not stale, f"{sorted(stale)} in {SCHEMAS_DIR} are no longer generated: delete them"


def test_write_schemas(tmp_path):
    written = write_schemas(tmp_path / "out")
    assert [p.name for p in written] == list(schemas())
    for p in written:
        text = p.read_text(encoding="utf-8")
        assert text.endswith("}\n") and json.loads(text) == schemas()[p.name]


@pytest.mark.parametrize("sheet_id", VERIFIED)
def test_schema_accepts_shipped_sheets_and_rejects_typos(sheet_id):
    import jsonschema  # a test dependency: a missing one must fail, not skip
    schema = schemas()["sheet.schema.json"]
    data = tomllib.loads((BOARDS_DIR / f"{sheet_id}.toml").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    for bad in ({**data, "colour_scheme": 1}, {**data, "provenance": "bogus"},
                {**data, "grid": data["grid"][:6]}, {**data, "grid": [data["grid"][0][:14]] + data["grid"][1:]}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
