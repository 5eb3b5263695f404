"""twenty one sheets in the app (issue 44 item 3): on the Sheets page the owner types a printed sheet
(5 rows of 6 fields, a colour and a value each), sees it drawn as the game draws sheets with the
fields that break a rule outlined and each problem under its row, and saves it as their own sheet;
the Start page offers it for a new game as "your sheet", and the game is created on it. English and
German. AppTest drives the real app by widget key; each test has its own store and user folder
(``env``)."""

from __future__ import annotations

import tomllib

from apptools import app, env, no_exception, texts  # noqa: F401 (env: the fixture)
from nochmal.data import twentyoneuser as U
from nochmal.engine.twentyone import get_sheet
from nochmal.engine.twentyone.sheets import user_sheets_dir
from pagegames import load

SHEETS = "nochmal/ui/pages/sheets.py"


def sheets_page(query=None):
    at = app(query)
    at.switch_page(SHEETS).run()
    no_exception(at)
    at.segmented_control(key="sheets_game").set_value(1).run()
    no_exception(at)
    return at


def html_of(at) -> str:
    return "".join(h.proto.body for h in at.get("html") if "t21-" in h.proto.body)


def type_sheet(at, colours, values):
    for r in range(5):
        for p in range(6):
            at.selectbox(key=f"t21s-c-{r}-{p}").set_value(colours[r][p])
            at.selectbox(key=f"t21s-v-{r}-{p}").set_value(values[r][p])
    at.run()
    no_exception(at)


COLOURS = ["gybrkw", "wkrbyg", "kwrbyg", "rkwbyg", "ykrbwg"]
VALUES = [[6, 5, 4, 3, 2, 1], [6, 6, 5, 3, 3, 1], [6, 5, 4, 4, 2, 1], [5, 5, 4, 3, 2, 2], [6, 6, 6, 6, 6, 6]]


def test_the_owner_types_a_sheet_sees_the_problems_by_row_and_field_and_saves_it(env):
    at = sheets_page()
    assert "twenty one sheets" in texts(at, "title")
    assert at.selectbox(key="t21s-view").value == "A"
    assert any("stand-ins" in w for w in texts(at, "warning"))
    assert at.selectbox(key="t21s-c-0-0").value == get_sheet("A").spec.colours[0][0]
    assert not at.error  # sheet A in the form: nothing wrong
    bad = list(COLOURS)
    bad[2] = "kwrbyk"  # row 3: black twice, green missing
    values = [list(v) for v in VALUES]
    values[3][4] = 4  # row 4: 2 -> 4 rises after 3? (5 5 4 3 4 2): field 5 is higher than field 4
    type_sheet(at, bad, values)
    errors = texts(at, "error")
    assert any("Row 3, field 6: black is in field 1 already (green missing)" in e for e in errors), errors
    assert any("Row 4, field 5: value 4 is higher than 3 in field 4" in e for e in errors), errors
    page = html_of(at)
    assert page.count("t21-flagged") == 2 and "t21-preview" in page
    at.text_input(key="t21s-id").input("my-G")
    at.button(key="t21s-save").click().run()
    no_exception(at)
    assert not (user_sheets_dir() / "my-G.toml").exists()  # nothing saved while a rule is broken
    # the owner corrects the two fields and saves
    at.selectbox(key="t21s-c-2-5").set_value("g")
    at.selectbox(key="t21s-v-3-4").set_value(2)
    at.text_input(key="t21s-name").input("My sheet G")
    at.run()
    assert not at.error, texts(at, "error")
    assert "t21-flagged" not in html_of(at)
    at.button(key="t21s-save").click().run()
    no_exception(at)
    assert any("Saved your sheet **my-G**" in s for s in texts(at, "success")), texts(at, "success")
    data = tomllib.loads((user_sheets_dir() / "my-G.toml").read_text(encoding="utf-8"))
    assert data["colours"][2] == "kwrbyg" and data["values"][3] == [5, 5, 4, 3, 2, 2]
    assert data["provenance"] == {"colours": ["user"] * 5, "values": ["user"] * 5} and data["name"] == "My sheet G"
    view = at.selectbox(key="t21s-view")
    assert view.value == "my-G" and view.format_func("my-G") == "my-G — your sheet"


def test_a_shipped_id_is_refused_by_name_and_nothing_is_saved(env):
    at = sheets_page()
    at.text_input(key="t21s-id").input("b")
    at.button(key="t21s-save").click().run()
    no_exception(at)
    assert any("'b' is the id of a shipped sheet; A to F are reserved" in e for e in texts(at, "error"))
    assert not user_sheets_dir().exists()


def test_the_start_page_offers_the_owners_sheet_and_a_game_is_created_on_it(env):
    U.save_user_sheet(U.typed_sheet_data("mine", [list(c) for c in COLOURS], VALUES))
    at = app()
    at.radio(key="new-game").set_value("twentyone").run()
    no_exception(at)
    seat = at.selectbox(key="t21-sheet-1")
    assert list(seat.options)[-1] == "mine — your sheet" and len(seat.options) == 7
    seat.set_value("mine")
    at.selectbox(key="t21-players").set_value(2)
    at.button(key="t21-create").click().run()
    no_exception(at)
    ses = load(env, at.query_params["game"])
    assert [s.id for s in ses.game.sheets] == ["A", "mine"]
    assert ses.meta["config"]["sheets"][1]["values"][4] == [6, 6, 6, 6, 6, 6]  # the game carries the sheet


def test_edit_and_delete_one_of_my_sheets(env):
    U.save_user_sheet(U.typed_sheet_data("mine", [list(c) for c in COLOURS], VALUES, name="Mine"))
    at = sheets_page()
    at.selectbox(key="t21s-view").set_value("mine").run()
    assert any("Your sheet" in i for i in texts(at, "info"))
    at.button(key="t21s-edit").click().run()
    no_exception(at)
    assert at.text_input(key="t21s-id").value == "mine" and at.selectbox(key="t21s-c-0-0").value == "g"
    assert at.button(key="t21s-delete").disabled
    at.checkbox(key="t21s-delete-confirm").check().run()
    at.button(key="t21s-delete").click().run()
    no_exception(at)
    assert any("Deleted your sheet **mine**" in s for s in texts(at, "success"))
    assert not (user_sheets_dir() / "mine.toml").exists() and at.selectbox(key="t21s-view").value == "A"


def test_the_typing_form_speaks_german(env):
    at = sheets_page({"lang": "de"})
    assert texts(at, "title") == ["twenty one – Zettel"]
    colours = list(COLOURS)
    colours[0] = "gybrkg"
    type_sheet(at, colours, VALUES)
    errors = texts(at, "error")
    assert any(e.startswith("Reihe 1, Feld 6: grün") for e in errors), errors
    at.text_input(key="t21s-id").input("A")
    at.button(key="t21s-save").click().run()
    assert any("reserviert" in e for e in texts(at, "error")), texts(at, "error")
    assert at.selectbox(key="t21s-c-0-0").format_func("w").endswith("weiß")


def test_a_broken_file_of_mine_is_shown_in_words_without_rule_ids(env):
    import re

    path = U.save_user_sheet(U.typed_sheet_data("mine", [list(c) for c in COLOURS], VALUES))
    path.write_text(path.read_text(encoding="utf-8").replace('"wkrbyg"', '"wkrbyw"'), encoding="utf-8")
    at = sheets_page()
    at.selectbox(key="t21s-view").set_value("mine").run()
    no_exception(at)
    errors = texts(at, "error")
    assert any("This sheet cannot be used" in e and "colours.1 (row 2)" in e for e in errors), errors
    shown = " ".join(texts(at, "error") + texts(at, "markdown") + texts(at, "info") + texts(at, "warning"))
    assert not re.search(r"\bT-[A-Z]", shown), shown
    assert str(path.parent) not in shown  # the file by its name only


def test_a_scanned_photo_fills_the_form_and_the_owner_saves_it(env):
    """A SYNTHETIC photo (no photo of a real printed twenty one sheet exists here)."""
    import cv2
    import numpy as np

    from nochmal.data.scan.twentyone_synth import twentyone_photo
    from nochmal.engine.twentyone import sheet_from_rows

    sheet = sheet_from_rows(COLOURS, VALUES[:4] + [[3, 3, 3, 2, 2, 1]], id="photo")
    image, _corners = twentyone_photo(sheet, np.random.default_rng(4))
    jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()
    at = sheets_page()
    at.file_uploader(key="t21s-photo").set_value(("not-a-photo.jpg", b"nonsense", "image/jpeg"))
    at.run()
    no_exception(at)
    assert any("not-a-photo.jpg could not be read:" in e and "What to try" in e
               for e in texts(at, "error")), texts(at, "error")
    assert at.selectbox(key="t21s-c-0-0").value == get_sheet("A").spec.colours[0][0]  # nothing changed
    at.file_uploader(key="t21s-photo").set_value(("my-sheet.jpg", jpeg, "image/jpeg"))
    at.run()
    no_exception(at)
    assert any("my-sheet.jpg was read" in s for s in texts(at, "success")), texts(at, "success")
    read = [[at.selectbox(key=f"t21s-c-{r}-{p}").value for p in range(6)] for r in range(5)]
    values = [[at.selectbox(key=f"t21s-v-{r}-{p}").value for p in range(6)] for r in range(5)]
    assert ["".join(r) for r in read] == COLOURS and values == [list(v) for v in sheet.value_at]
    assert any("Read from your photo my-sheet.jpg" in c for c in texts(at, "caption"))
    at.text_input(key="t21s-id").input("scanned")
    at.button(key="t21s-save").click().run()
    no_exception(at)
    assert get_sheet("scanned").value_at == sheet.value_at and get_sheet("scanned").provenance == "user"
