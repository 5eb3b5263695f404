"""The owner's own twenty one sheets (issue 44 item 3): typed, checked field by field, saved in the
user data folder beside Noch mal!'s boards, known to ``get_sheet`` and the list of sheet ids, the
shipped ids reserved. Every test writes into a temporary NOCHMAL_HOME; nothing is mocked."""

from __future__ import annotations

import random

import pytest

from nochmal.data import twentyoneuser as U
from nochmal.engine.errors import DataFileError, InvalidInputError
from nochmal.engine.sheet import user_boards_dir
from nochmal.engine.twentyone import SHEET_IDS, TwentyOneGame, get_sheet
from nochmal.engine.twentyone.sheets import sheet_ids, user_sheet_ids, user_sheets_dir

COLOURS = ["wkrbyg", "kwrbyg", "rkwbyg", "bkrwyg", "ykrbwg"]
VALUES = [[6, 5, 4, 3, 2, 1], [6, 6, 4, 3, 3, 1], [5, 5, 4, 3, 2, 1], [6, 5, 5, 3, 2, 1], [4, 4, 4, 3, 2, 2]]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def data(sid="mine", colours=COLOURS, values=VALUES, **kw):
    return U.typed_sheet_data(sid, [list(r) for r in colours], [list(v) for v in values], **kw)


def test_a_typed_sheet_is_saved_beside_the_boards_with_user_provenance_on_every_row(home):
    path = U.save_user_sheet(data(name="Zettel G"))
    assert path == home / "twentyone-sheets" / "mine.toml" == user_sheets_dir() / "mine.toml"
    assert user_sheets_dir().parent == user_boards_dir().parent
    sheet = get_sheet("mine")
    assert sheet.spec.provenance.colours == ("user",) * 5 and sheet.spec.provenance.values == ("user",) * 5
    assert sheet.provenance == "user" and sheet.spec.name == "Zettel G"
    assert sheet.value_at[4] == (4, 4, 4, 3, 2, 2) and sheet.spec.colours[1] == "kwrbyg"
    assert user_sheet_ids() == ["mine"] and sheet_ids() == [*SHEET_IDS, "mine"]
    assert [p.name for p in path.parent.iterdir()] == ["mine.toml"]  # no temporary file left
    # saved again with other values: replaced, and get_sheet sees the new file
    U.save_user_sheet(data(values=[[6, 5, 4, 3, 2, 1]] * 5))
    assert get_sheet("mine").value_at[4] == (6, 5, 4, 3, 2, 1)


def test_without_NOCHMAL_HOME_the_folder_is_beside_the_user_boards(monkeypatch):
    monkeypatch.delenv("NOCHMAL_HOME", raising=False)
    assert user_sheets_dir() == user_boards_dir().parent / "twentyone-sheets"


@pytest.mark.parametrize("sid", ["A", "a", "f", "F"])
def test_the_shipped_ids_are_reserved_in_any_case(home, sid):
    with pytest.raises(U.TypedSheetError, match="shipped sheet"):
        data(sid)
    with pytest.raises(U.TypedSheetError, match="reserved"):
        U.save_user_sheet({**data(), "id": sid})
    assert not (home / "twentyone-sheets").exists()
    with pytest.raises(U.TypedSheetError, match="reserved"):
        U.delete_user_sheet(sid)


def test_a_file_named_as_a_shipped_id_in_the_folder_is_not_a_sheet(home):
    U.save_user_sheet(data())
    (user_sheets_dir() / "mine.toml").rename(user_sheets_dir() / "a.toml")
    assert user_sheet_ids() == [] and sheet_ids() == list(SHEET_IDS)
    with pytest.raises(InvalidInputError, match="unknown twenty one sheet 'a'"):
        get_sheet("a")
    assert get_sheet("A").provenance == "verified+stand-in"


@pytest.mark.parametrize("sid, words", [("", "give the sheet an id"), ("-x", "not usable"), ("../x", "not usable"),
                                        ("x" * 65, "not usable"), (None, "give the sheet an id"), (7, "give")])
def test_bad_ids_are_refused_by_name(home, sid, words):
    with pytest.raises(U.TypedSheetError, match=words) as err:
        data(sid)
    assert err.value.field_problems[0].row is None


def test_invariant_failures_name_row_and_field():
    colours = [list(r) for r in COLOURS]
    colours[2][4] = "w"  # row 3: white twice, yellow missing
    values = [list(v) for v in VALUES]
    values[3][3] = 6  # row 4: 3 -> 6 rises
    values[1][5] = "7"
    colours[4][0] = "x"
    with pytest.raises(U.TypedSheetError) as err:
        U.typed_sheet_data("mine", colours, values)
    where = {(p.row, p.field): p.text for p in err.value.field_problems}
    assert set(where) == {(3, 5), (4, 4), (2, 6), (5, 1)}, where
    assert where[(3, 5)] == ("Row 3, field 5: white is in field 3 already (yellow missing); each row has each "
                             "colour once")
    assert where[(4, 4)] == "Row 4, field 4: value 6 is higher than 5 in field 3; values never rise from left to right"
    assert where[(2, 6)] == "Row 2, field 6: value '7' is not a number from 1 to 6"
    assert where[(5, 1)] == "Row 5, field 1: 'x' is not a colour (w k r b y g)"


@pytest.mark.parametrize("colours, values, words", [
    ("nonsense", VALUES, "Colours: expected 5 rows of 6 fields"),
    (COLOURS[:4], VALUES, "Colours: expected 5 rows"),
    (COLOURS, VALUES[:4] + [[1, 1]], "Row 5: expected 6 fields"),
    (COLOURS, [[True] * 6] * 5, "value True is not a number"),
    (COLOURS, [[6.0] * 6] * 5, "value 6.0 is not a number"),
    ([[None] * 6] * 5, VALUES, "None is not a colour"),
])
def test_malformed_forms_are_refused_not_crashed(colours, values, words):
    with pytest.raises(U.TypedSheetError, match=words):
        U.typed_sheet_data("mine", colours, values)


def test_a_user_file_edited_by_hand_into_a_broken_one_is_refused_naming_the_file_and_field(home):
    path = U.save_user_sheet(data())
    path.write_text(path.read_text(encoding="utf-8").replace('"kwrbyg"', '"kwrbyk"'), encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        get_sheet("mine")
    assert str(path) in str(err.value) and "field colours.1 (row 2)" in str(err.value)


def test_a_user_file_whose_id_is_not_its_name_is_refused(home):
    path = U.save_user_sheet(data())
    path.rename(path.with_name("other.toml"))
    with pytest.raises(DataFileError, match="field id: 'mine' is not the file's name 'other'"):
        get_sheet("other")


def test_nothing_is_written_on_error_and_delete_removes_the_file(home):
    with pytest.raises(U.TypedSheetError):
        data(values=[[1, 2, 3, 4, 5, 6]] * 5)
    with pytest.raises(DataFileError, match="values.0"):
        U.save_user_sheet({**data(), "values": [[1, 2, 3, 4, 5, 6]] * 5})
    assert not (home / "twentyone-sheets").exists()
    U.save_user_sheet(data())
    U.delete_user_sheet("mine")
    assert user_sheet_ids() == []
    with pytest.raises(InvalidInputError, match="no user sheet 'nope'"):
        U.delete_user_sheet("nope")


def test_the_form_rows_of_a_sheet_and_the_preview():
    colours, values = U.form_rows("B")
    assert len(colours) == 5 and all(len(r) == 6 for r in colours) and values[0] == [6, 5, 4, 3, 2, 1]
    preview = U.preview_sheet(U.typed_sheet_data("x", colours, values))
    assert preview.spec.colours == get_sheet("B").spec.colours and preview.provenance == "user"


def test_the_problems_speak_german_in_the_games_words():
    from nochmal.data.i18n import using

    colours = [list(r) for r in COLOURS]
    colours[2][4] = "w"
    values = [list(v) for v in VALUES]
    values[3][3] = 6
    with using("de"):
        german = [p.text for p in U.typed_problems(colours, values)]
        reserved = U.id_problems("a")[0].text
    assert german == ["Reihe 3, Feld 5: weiß steht schon in Feld 3 (gelb fehlt); jede Reihe hat jede Farbe einmal",
                      "Reihe 4, Feld 4: Wert 6 ist höher als 5 in Feld 3; die Werte steigen von links nach rechts "
                      "nie an"], german
    assert "reserviert" in reserved and "Zettel" in reserved
