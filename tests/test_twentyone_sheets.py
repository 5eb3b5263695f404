"""Sheets A-F of *twenty one* as data (T-SHEET, issue 44 item 3): the shipped stand-ins are what the
seeded generator makes, carry their provenance per part, satisfy the invariants; the loader refuses
a bad file with a message naming the file and the field."""

from __future__ import annotations

import pytest

from nochmal.data.twentyonegen import SEED, stand_in_specs, write_stand_ins
from nochmal.engine.errors import DataFileError, InvalidInputError
from nochmal.engine.twentyone import SHEET_IDS, get_sheet, load_sheet_file, sheet_from_rows
from nochmal.engine.twentyone.components import COLOUR_LETTERS, ROW_1_VALUES
from nochmal.engine.twentyone.sheets import SHEETS_DIR, sheet_to_toml

GOOD = """\
id = "X"
name = "a sheet"
colours = ["wkrbyg", "kwrbyg", "rkwbyg", "bkrwyg", "ykrbwg"]
values = [[6, 5, 4, 3, 2, 1], [6, 6, 4, 3, 3, 1], [6, 5, 4, 3, 2, 1], [5, 5, 4, 3, 2, 1], [6, 5, 4, 3, 2, 2]]

[provenance]
colours = ["user", "user", "user", "user", "user"]
values = ["verified", "user", "user", "user", "user"]
"""


def write(tmp_path, text: str):
    path = tmp_path / "X.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_T_SHEET_the_shipped_sheets_are_A_to_F_five_rows_of_six_fields():
    assert sorted(p.stem for p in SHEETS_DIR.glob("*.toml")) == list(SHEET_IDS) == list("ABCDEF")
    for sid in SHEET_IDS:
        sheet = get_sheet(sid)
        assert len(sheet.colour_at) == 5 and all(sorted(row) == list(range(6)) for row in sheet.colour_at)
        assert sheet.value_at[0] == ROW_1_VALUES  # row 1 as printed (verified)
        assert all(list(row) == sorted(row, reverse=True) and set(row) <= set(range(1, 7)) for row in sheet.value_at)
        for row in range(5):
            for colour in range(6):
                assert sheet.colour_at[row][sheet.field_of[row][colour]] == colour


def test_T_SHEET_printed_values_are_the_same_on_every_sheet_and_colour_orders_all_differ():
    sheets = [get_sheet(s) for s in SHEET_IDS]
    assert len({s.value_at for s in sheets}) == 1
    assert len({s.colour_at for s in sheets}) == 6


def test_the_shipped_files_are_the_seeded_generators_output(tmp_path):
    assert [get_sheet(s).spec for s in SHEET_IDS] == stand_in_specs(SEED)
    write_stand_ins(tmp_path)
    for sid in SHEET_IDS:
        assert (tmp_path / f"{sid}.toml").read_text(encoding="utf-8") == \
            (SHEETS_DIR / f"{sid}.toml").read_text(encoding="utf-8")
    assert stand_in_specs(SEED) == stand_in_specs(SEED)  # reproducible
    assert stand_in_specs(SEED + 1) != stand_in_specs(SEED)


def test_provenance_is_given_per_part_and_row():
    for sid in SHEET_IDS:
        p = get_sheet(sid).spec.provenance
        assert p.values == ("verified", "stand-in", "stand-in", "stand-in", "stand-in")
        assert p.colours == ("stand-in",) * 5
        assert get_sheet(sid).provenance == "verified+stand-in"
        assert "stand-in" in get_sheet(sid).spec.name and "NOT the printed sheet" in get_sheet(sid).spec.source


def test_a_good_file_loads_and_writes_back_the_same(tmp_path):
    sheet = load_sheet_file(write(tmp_path, GOOD))
    assert sheet.id == "X" and sheet.value_at[1] == (6, 6, 4, 3, 3, 1)
    assert sheet.rows_text()[0] == "w6 k5 r4 b3 y2 g1"
    assert load_sheet_file(write(tmp_path, sheet_to_toml(sheet.spec))).spec == sheet.spec


@pytest.mark.parametrize("change, field, words", [
    (('"kwrbyg"', '"kwrbyk"'), "colours.1 (row 2)", "black more than once and green missing"),
    (("[5, 5, 4, 3, 2, 1]", "[5, 6, 4, 3, 2, 1]"), "values.3 (row 4)", "rise from 5 in field 1 to 6 in field 2"),
    (("[6, 5, 4, 3, 2, 1], [6, 6", "[6, 5, 4, 3, 1, 2], [6, 6"), "values.0 (row 1)", "never rise"),
    (("[6, 5, 4, 3, 2, 1], [6, 6", "[6, 5, 4, 3, 2, 2], [6, 6"), "values.0 (row 1)", "is not the printed row"),
    (("[6, 5, 4, 3, 2, 2]]", "[6, 5, 4, 3, 2, 0]]"), "values.4.5", "greater than or equal to 1"),
    (("[6, 5, 4, 3, 2, 2]]", "[7, 5, 4, 3, 2, 2]]"), "values.4.0", "less than or equal to 6"),
    (("[6, 5, 4, 3, 2, 2]]", "[6, 5, 4, 3, 2]]"), "values.4", "at least 6"),
    (('"ykrbwg"]', '"ykrbwq"]'), "colours.4", "should match pattern"),
    (('"ykrbwg"]', '"ykrbwg", "wkrbyg"]'), "colours", "at most 5"),
    (('values = ["verified"', 'values = ["printed"'), "provenance.values.0", "verified"),
    (('name = "a sheet"', 'name = "a sheet"\nstars = 3'), "stars", "Extra inputs"),
    (('[6, 5, 4, 3, 2, 2]]', '[6, 5, 4, 3, 2, "2"]]'), "values.4.5", "valid integer"),
])
def test_the_loader_refuses_a_bad_file_naming_the_field(tmp_path, change, field, words):
    old, new = change
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(DataFileError) as err:
        load_sheet_file(path)
    text = str(err.value)
    assert str(path) in text and f"field {field}" in text and words in text, text


def test_the_loader_refuses_what_is_not_toml_or_too_large(tmp_path):
    with pytest.raises(DataFileError, match="not valid TOML"):
        load_sheet_file(write(tmp_path, "id = ["))
    with pytest.raises(DataFileError, match="bytes"):
        load_sheet_file(write(tmp_path, GOOD + "# " + "x" * 70_000 + "\n"))


def test_typed_sheets_are_checked_by_the_same_invariants():
    sheet = sheet_from_rows(["wkrbyg"] * 5)
    assert sheet.provenance == "user" and sheet.field_of[0] == (0, 1, 2, 3, 4, 5)
    with pytest.raises(DataFileError, match=r"field colours.2 \(row 3\)"):
        sheet_from_rows(["wkrbyg", "wkrbyg", "wkrbyw", "wkrbyg", "wkrbyg"])
    assert COLOUR_LETTERS == "wkrbyg"


def test_an_unknown_sheet_id_is_refused_with_the_rule():
    with pytest.raises(InvalidInputError, match="T-SHEET"):
        get_sheet("G")


def test_the_published_schema_accepts_the_shipped_sheets_and_rejects_typos():
    import tomllib

    import jsonschema

    from nochmal.data.schema import schemas

    schema = schemas()["twentyone-sheet.schema.json"]
    for sid in SHEET_IDS:
        data = tomllib.loads((SHEETS_DIR / f"{sid}.toml").read_text(encoding="utf-8"))
        jsonschema.validate(data, schema)
    for bad in ({**data, "grid": []}, {**data, "colours": data["colours"][:4]},
                {**data, "values": [[7, 5, 4, 3, 2, 1]] + data["values"][1:]},
                {**data, "provenance": {"colours": ["printed"] * 5, "values": ["user"] * 5}}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
