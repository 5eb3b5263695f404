"""The Sheets page's "Digitize: scan a photo" tab (nochmal/ui/panels/scan.py), in Streamlit's
AppTest: synthetic photos of shipped sheets (nochmal/data/scan/synth.py) go in through the
real file uploader; the tab shows what was read, fixes take one tap, and saving writes a user
sheet (and, with the co-op set module, records the slot of the owner's set).

Most flows run the panel alone (a two-line script: fast, and independent of the other tabs);
the flows that need the whole page (the View tab's list) open ``nochmal/ui/pages/sheets.py``.
"""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import cv2
import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from nochmal.cli.serve import OWNER_CODE_ENV, OWNER_LOCAL_ENV
from nochmal.data import userdata
from nochmal.data.scan.synth import PRINT_BGR, Distortions, synthetic_photo
from nochmal.engine.sheet import get_sheet
from nochmal.store import access

REPO = Path(__file__).resolve().parent.parent
SHEETS_PAGE = REPO / "nochmal" / "ui" / "pages" / "sheets.py"
TIMEOUT = 60
UPLOAD = "scan_upload_0"  # the upload widget's key until the first save
COOP_LABELS = "P Q R S T U V"
PANEL = """
from nochmal.ui import lang

lang.resolve()
from nochmal.ui.panels.scan import scan_panel

scan_panel(True)
"""


def jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 88])
    assert ok
    return data.tobytes()


def png(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image)
    assert ok
    return data.tobytes()


@pytest.fixture(scope="module")
def coop_photo():
    """A clean photo of co-op sheet I: every cell and every digit can be read."""
    return synthetic_photo("coop-I", np.random.default_rng(1), distort=Distortions.none())


def grid_point(photo, col: float, row: float) -> np.ndarray:
    """Where the point ``col``, ``row`` of the grid (in cells from its top-left corner) is in
    an undistorted synthetic photo."""
    tl, tr, br, bl = photo.truth.grid_corners
    u, v = col / 15, row / 7
    return (1 - u) * (1 - v) * tl + u * (1 - v) * tr + u * v * br + (1 - u) * v * bl


@pytest.fixture(scope="module")
def smudged_photo(coop_photo):
    """The clean photo of co-op sheet I with cell A1 (green) smudged halfway to red: a cell the
    reader cannot be sure of."""
    image = coop_photo.image.copy()
    corners = [grid_point(coop_photo, 0.08, 0.08), grid_point(coop_photo, 0.92, 0.08),
               grid_point(coop_photo, 0.92, 0.92), grid_point(coop_photo, 0.08, 0.92)]
    green_red = (PRINT_BGR[1] + PRINT_BGR[3]) / 2
    cv2.fillPoly(image, [np.array(corners).round().astype(np.int32)], tuple(float(x) for x in green_red))
    return image


@pytest.fixture(scope="module")
def unread_digit_photo(coop_photo):
    """The clean photo of co-op sheet I with the digit of the number field at C2 (the "3") painted
    over: the reader finds the round field but cannot read its digit."""
    image = coop_photo.image.copy()
    centre = grid_point(coop_photo, 3, 2)  # the corner shared by C2, D2, C3 and D3
    pitch = np.linalg.norm(grid_point(coop_photo, 15, 0) - grid_point(coop_photo, 0, 0)) / 15
    cv2.circle(image, tuple(int(round(x)) for x in centre), int(round(pitch * 0.36)), (250, 250, 250), -1,
               cv2.LINE_AA)
    return image


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A private NOCHMAL_HOME and NOCHMAL_DB, set before any AppTest is created."""
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NOCHMAL_DB", str(tmp_path / "games.sqlite"))
    return tmp_path / "home"


@pytest.fixture(autouse=True)
def _english_after_german():
    """A German run leaves its language for code run outside page runs: start from English."""
    yield
    from nochmal.ui import lang

    lang._last_run = None


def ok(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def panel(lang: str | None = None) -> AppTest:
    at = AppTest.from_string(PANEL, default_timeout=TIMEOUT)
    if lang:
        at.query_params["lang"] = lang
    return ok(at)


def sheets_page() -> AppTest:
    if importlib.util.find_spec("nochmal.ui.panels.coopset") is None:  # the page's co-op set tab
        pytest.skip("the Sheets page cannot be built yet: nochmal/ui/panels/coopset.py is missing")
    return ok(AppTest.from_file(str(SHEETS_PAGE), default_timeout=TIMEOUT))


def upload(at: AppTest, name: str, data: bytes, key: str = UPLOAD) -> AppTest:
    mime = "image/png" if name.endswith(".png") else "image/jpeg"
    at.file_uploader(key=key).set_value((name, data, mime))
    return ok(at)


def texts(elements) -> list[str]:
    return [e.value for e in elements]


def grid_of(at: AppTest) -> list[str]:
    return list(at.session_state["scan_grid"])


# --------------------------------------------------------------------------- reading
def test_a_photo_of_a_coop_sheet_scans_to_its_grid_and_number_fields(home, coop_photo):
    spec = get_sheet("coop-I").spec
    at = panel()
    assert any("No photo yet" in i for i in texts(at.info))
    assert not at.image and not at.checkbox  # nothing to check, nothing to save yet
    upload(at, "coop-I.jpg", jpeg(coop_photo.image))
    assert grid_of(at) == list(spec.grid)
    assert at.text_area(key="scan_numbers").value == userdata.number_fields_text(spec)
    assert at.checkbox(key="scan_coop").value is True  # number fields found: a co-op back
    assert at.text_input(key="scan_source").value == ""  # empty, with a placeholder: "scanned" is added on saving
    assert len(at.image) == 1  # the photo, beside the sheet read
    picture = next(h.proto.body for h in at.html if 'class="nm-sheet"' in h.proto.body)
    assert ">P</th>" in picture and 'data-cell="F1"' in picture  # the co-op rows P..V
    cells = [b for b in at.button if b.key and b.key.startswith("scan-")]
    assert len(cells) == 105
    assert at.button(key="scan-A1").label.lstrip("⚠") == spec.grid[0][0].upper() + ("★" if spec.grid[0][0].isupper()
                                                                                    else "")
    assert not at.error, texts(at.error)
    assert any("keeps every invariant" in s for s in texts(at.success))


def test_cells_read_with_little_certainty_are_marked_and_listed(home, smudged_photo):
    at = panel()
    upload(at, "smudged.jpg", jpeg(smudged_photo))
    unsure = at.session_state["scan_unsure"]
    assert unsure[0] == "A1", unsure  # the least sure first
    listed = next(w for w in texts(at.warning) if "Check th" in w)
    assert all(c in listed for c in unsure)
    assert all(at.button(key=f"scan-{c}").label.startswith("⚠") for c in unsure)
    sure = next(c for c in ("B1", "C1", "D1", "E1") if c not in unsure)
    assert not at.button(key=f"scan-{sure}").label.startswith("⚠")
    picture = next(h.proto.body for h in at.html if 'class="nm-sheet"' in h.proto.body)
    assert picture.count("dashed") == len(unsure)  # outlined in the picture of what was read
    assert any(f".st-key-scan-{unsure[0]} button" in m and "dashed" in m for m in texts(at.markdown))
    at.button(key="scan_all_checked").click()
    ok(at)
    assert at.session_state["scan_unsure"] == [] and not any("Check th" in w for w in texts(at.warning))


def test_a_photo_is_read_once_and_the_same_photo_again_keeps_the_fixes(home, coop_photo):
    at = panel()
    photo = jpeg(coop_photo.image)
    upload(at, "coop-I.jpg", photo)
    cache = at.session_state["scan_cache"]
    assert len(cache) == 1
    (digest, entry), = cache.items()
    at.segmented_control(key="scan_colour").set_value("b")
    at.button(key="scan-A1").click()
    ok(at)
    ok(at)
    fixed = grid_of(at)
    assert fixed[0][0] == "b"
    upload(at, "again.jpg", photo)  # the same file once more (another name): not read again
    assert at.session_state["scan_cache"][digest] is entry and len(at.session_state["scan_cache"]) == 1
    assert grid_of(at) == fixed


# --------------------------------------------------------------------------- fixes
def test_one_tap_fixes_one_cell_and_undo_takes_it_back(home, smudged_photo):
    at = panel()
    upload(at, "smudged.jpg", jpeg(smudged_photo))
    before = grid_of(at)
    unsure_before = list(at.session_state["scan_unsure"])
    assert at.button(key="scan_undo_fix").disabled
    target = "A1"
    assert target in unsure_before
    col, row = 0, 0
    colour = next(c for c in "ygbro" if c != before[row][col].lower())
    at.segmented_control(key="scan_colour").set_value(colour)
    at.toggle(key="scan_star").set_value(True)
    ok(at)
    at.button(key=f"scan-{target}").click()
    ok(at)
    after = grid_of(at)
    changed = [(r, c) for r in range(7) for c in range(15) if after[r][c] != before[r][c]]
    assert changed == [(row, col)] and after[row][col] == colour.upper()
    assert at.button(key=f"scan-{target}").label == colour.upper() + "★"  # no ⚠: checked
    assert target not in at.session_state["scan_unsure"]
    picture = next(h.proto.body for h in at.html if 'class="nm-sheet"' in h.proto.body)
    assert f'data-cell="{target}"' in picture and "★" in picture
    assert not at.button(key="scan_undo_fix").disabled
    at.button(key="scan_undo_fix").click()
    ok(at)
    assert grid_of(at) == before and at.session_state["scan_unsure"] == unsure_before
    assert at.button(key=f"scan-{target}").label.startswith("⚠")
    assert at.button(key="scan_undo_fix").disabled


# --------------------------------------------------------------------------- saving
def test_saving_writes_a_scanned_user_sheet_and_the_tab_resets(home, coop_photo):
    spec = get_sheet("coop-I").spec
    at = panel()
    upload(at, "coop-I.jpg", jpeg(coop_photo.image))
    at.text_input(key="scan_id").input("pad-one")
    at.text_input(key="scan_source").input("my own pad")  # the source says "scanned" whatever is typed
    ok(at)
    at.button(key="scan_save").click()
    ok(at)
    assert not at.error, texts(at.error)
    assert any("**pad-one**" in s and "View" in s for s in texts(at.success)), texts(at.success)
    data = tomllib.loads((home / "boards" / "pad-one.toml").read_text(encoding="utf-8"))
    assert data["provenance"] == "user" and "scanned" in data["source"] and "my own pad" in data["source"]
    assert data["grid"] == list(spec.grid)
    assert data["row_labels"] == list("PQRSTUV") and data["coop"]["failed_roll_boxes"] == 3
    assert data["coop"]["number_fields"] == [{"number": f.number, "cell": f.cell} for f in spec.coop.number_fields]
    assert get_sheet("pad-one").provenance == "user"
    assert at.session_state["view_sheet"] == "pad-one"
    # ready for the next sheet: an empty upload, nothing read
    assert [u.key for u in at.file_uploader] == ["scan_upload_1"]
    assert "scan_grid" not in at.session_state and not [b for b in at.button if (b.key or "").startswith("scan-")]
    assert any("Scan the next sheet" in i for i in texts(at.info))


def test_a_number_field_whose_digit_was_not_read_is_asked_for(home, coop_photo, unread_digit_photo):
    at = panel()
    upload(at, "coop-I.jpg", jpeg(unread_digit_photo))
    numbers = at.text_area(key="scan_numbers").value
    assert numbers.splitlines() == ["1: F1", "2: N1", "4: M3", "5: H6", "6: J6", "?: C2"]
    assert any("Number field at C2" in w and "could not be read" in w for w in texts(at.warning))
    at.text_input(key="scan_id").input("pad-two")
    ok(at)
    at.button(key="scan_save").click()
    ok(at)
    assert any("Write the digit" in e and "C2" in e and "Nothing was saved" in e for e in texts(at.error))
    assert not (home / "boards" / "pad-two.toml").exists()
    truth = {cell: n for cell, n in coop_photo.truth.number_fields}
    at.text_area(key="scan_numbers").input(numbers.replace("?: C2", "3: C2"))
    ok(at)
    assert not any("Number field at" in w for w in texts(at.warning))
    at.button(key="scan_save").click()
    ok(at)
    assert not at.error, texts(at.error)
    saved = get_sheet("pad-two").spec
    assert {(f.cell, f.number) for f in saved.coop.number_fields} == set(truth.items())


def test_a_coop_sheet_is_saved_as_slot_one_of_the_set_and_the_next_empty_slot_follows(home, coop_photo):
    from nochmal.data import coopset

    # slot II of the set is filled already: after I comes III
    two = userdata.sheet_data(get_sheet("coop-II").spec.grid, id="typed-II", coop=True, row_labels=COOP_LABELS,
                              number_fields=userdata.number_fields_text(get_sheet("coop-II").spec))
    userdata.save_user_sheet(two)
    coopset.assign("II", "typed-II")
    at = panel()
    upload(at, "coop-I.jpg", jpeg(coop_photo.image))
    # a co-op back goes into the first empty slot by itself, its id and name filled in
    assert at.selectbox(key="scan_slot").value == "I"
    assert at.text_input(key="scan_id").value == coopset.slot_sheet_id("I")
    at.button(key="scan_save").click()
    ok(at)
    assert not at.error, texts(at.error)
    sid = coopset.slot_sheet_id("I")
    assert get_sheet(sid).provenance == "user" and "scanned" in get_sheet(sid).spec.source
    assert any("co-op sheet I of your set" in s for s in texts(at.success)), texts(at.success)
    assert coopset.filled_slots() == {"I": sid, "II": "typed-II"}
    assert any("co-op sheet III" in i for i in texts(at.info))  # the next sheet to scan
    upload(at, "coop-III.jpg", jpeg(synthetic_photo("coop-III", np.random.default_rng(1),
                                                    distort=Distortions.none()).image), key="scan_upload_1")
    assert at.selectbox(key="scan_slot").value == "III"
    assert at.text_input(key="scan_id").value == coopset.slot_sheet_id("III")
    at.button(key="scan_save").click()
    ok(at)
    assert coopset.filled_slots() == {"I": sid, "II": "typed-II", "III": coopset.slot_sheet_id("III")}
    assert any("co-op sheet IV" in i for i in texts(at.info))


def test_saving_needs_the_owner(home, coop_photo, monkeypatch):
    monkeypatch.setenv(OWNER_LOCAL_ENV, "code")  # this browser counts as another device
    monkeypatch.setenv(OWNER_CODE_ENV, access.new_token())
    at = panel()
    upload(at, "coop-I.jpg", jpeg(coop_photo.image))
    at.text_input(key="scan_id").input("not-mine")
    ok(at)
    at.button(key="scan_save").click()  # a stale page: the callback refuses
    ok(at)
    assert any("Saving a user sheet needs the app owner's code" in e for e in texts(at.error))
    assert not (home / "boards").exists()


def test_on_the_sheets_page_the_saved_sheet_is_picked_on_the_view_tab(home, coop_photo):
    at = sheets_page()
    upload(at, "coop-I.jpg", jpeg(coop_photo.image))
    at.text_input(key="scan_id").input("from-photo")
    ok(at)
    at.button(key="scan_save").click()
    ok(at)
    assert not at.error, texts(at.error)
    view = at.selectbox(key="view_sheet")
    assert view.value == "from-photo" and any(o.startswith("from-photo — ") for o in view.options)
    assert any("Provenance: user" in s for s in texts(at.info))


# --------------------------------------------------------------------------- bad photos
@pytest.mark.parametrize("name, make, words", [
    ("blank.png", lambda: png(np.full((1200, 1600, 3), 250, np.uint8)), "What to try"),
    ("noise.jpg", lambda: bytes(np.random.default_rng(0).integers(0, 256, 50_000, dtype=np.uint8)), "not a photo"),
    ("empty.jpg", lambda: b"", "empty"),
    ("huge.jpg", lambda: b"\xff" * (16 * 1024 * 1024), "at most 15 MB"),
])
def test_a_bad_photo_shows_what_to_try_and_saves_nothing(home, coop_photo, name, make, words):
    at = panel()
    upload(at, name, make())
    errors = texts(at.error)
    assert len(errors) == 1 and name in errors[0] and words in errors[0] and "What to try" in errors[0], errors
    assert not texts(at.info), texts(at.info)  # one message: not also "No photo yet" (issue 42)
    assert "scan_grid" not in at.session_state and not at.image
    assert not [b for b in at.button if b.key == "scan_save"]  # nothing to save
    # after a good photo, a bad one changes nothing
    upload(at, "coop-I.jpg", jpeg(coop_photo.image))
    at.button(key="scan-A1").click()
    ok(at)
    fixed = grid_of(at)
    upload(at, name, make())
    assert any(name in e and words in e for e in texts(at.error))
    assert grid_of(at) == fixed and len(at.image) == 1
    assert not (home / "boards").exists()


def test_a_bad_photo_is_a_message_on_the_sheets_page(home):
    at = sheets_page()
    upload(at, "white.png", png(np.full((1200, 1600, 3), 250, np.uint8)))
    assert any("white.png" in e and "What to try" in e for e in texts(at.error))
    assert not (home / "boards").exists()


# --------------------------------------------------------------------------- German
def test_the_german_tab_speaks_german(home, smudged_photo):
    at = panel("de")
    assert any("Noch kein Foto" in i for i in texts(at.info)), texts(at.info)
    upload(at, "coop-I.jpg", jpeg(smudged_photo))
    assert "Prüfen und korrigieren" in texts(at.subheader), texts(at.subheader)
    assert at.button(key="scan_save").label == "Als eigenes Blatt speichern"
    assert any(w.startswith("**Prüfe dies") and "A1" in w for w in texts(at.warning)), texts(at.warning)
    assert at.checkbox(key="scan_coop").label.startswith("Koop-Rückseite")
    at.selectbox(key="scan_slot").set_value("")  # not part of the set, and no id
    ok(at)
    at.text_input(key="scan_id").input("")
    ok(at)
    at.button(key="scan_save").click()  # no id: the error of the form, nothing saved
    ok(at)
    upload(at, "leer.png", png(np.full((1200, 1600, 3), 250, np.uint8)))
    assert any("Was hilft" in e for e in texts(at.error)), texts(at.error)
    assert not (home / "boards").exists()


def test_number_fields_typed_wrong_are_named_and_the_picture_stays(home, coop_photo):
    at = panel()
    upload(at, "coop-I.jpg", jpeg(coop_photo.image))
    at.text_area(key="scan_numbers").input("1: F1\n2: G1")  # two 2x2 squares that overlap
    ok(at)
    assert any("overlaps" in e for e in texts(at.error)), texts(at.error)
    assert any('class="nm-sheet"' in h.proto.body for h in at.html)
    at.text_area(key="scan_numbers").input("1: F1\n2 N1\nx")  # "x" is no entry
    ok(at)
    assert any("entry 3" in e for e in texts(at.error)), texts(at.error)
    at.checkbox(key="scan_coop").uncheck()
    ok(at)
    at.checkbox(key="scan_coop").check()
    ok(at)
    assert at.text_area(key="scan_numbers").value == "1: F1\n2 N1\nx"  # kept while the box was unticked


def test_the_row_labels_and_column_points_read_are_shown_and_saved(home):
    """A pad printed with other labels and points: the form holds what was read; a point
    corrected by hand is what the saved sheet has."""
    from nochmal.data.scan.synth import varied_edges

    rng = np.random.default_rng(4)
    sheet = varied_edges(get_sheet("coop-III"), rng)
    photo = synthetic_photo(sheet, rng, distort=Distortions.none())
    at = panel()
    upload(at, "pad.jpg", jpeg(photo.image))
    assert at.text_input(key="scan_labels").value == " ".join(sheet.spec.row_labels)
    assert at.text_input(key="scan_first").value == " ".join(map(str, sheet.first_points))
    assert at.text_input(key="scan_later").value == " ".join(map(str, sheet.later_points))
    assert any("as read in the photo" in c for c in texts(at.caption)), texts(at.caption)
    later = list(sheet.later_points)
    later[0] = 0 if later[0] else 1
    at.text_input(key="scan_later").input(" ".join(map(str, later)))
    at.text_input(key="scan_id").input("pad-edges")
    ok(at)
    at.button(key="scan_save").click()
    ok(at)
    assert not at.error, texts(at.error)
    saved = get_sheet("pad-edges")
    assert saved.first_points == sheet.first_points and list(saved.later_points) == later
    assert saved.spec.row_labels == sheet.spec.row_labels


def test_points_typed_wrong_are_named_and_nothing_is_saved(home, coop_photo):
    at = panel()
    upload(at, "coop-I.jpg", jpeg(coop_photo.image))
    assert at.text_input(key="scan_first").value == "5 3 3 3 2 2 2 1 2 2 2 3 3 3 5"
    at.text_input(key="scan_first").input("5 3 3")
    at.text_input(key="scan_id").input("pad-wrong")
    ok(at)
    at.button(key="scan_save").click()
    ok(at)
    assert any("first_points: 3 numbers given" in e for e in texts(at.error)), texts(at.error)
    assert not (home / "boards" / "pad-wrong.toml").exists()
