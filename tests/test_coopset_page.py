"""AppTest flows of the co-op set: the "Your co-op set" tab of the Sheets page, and the Start page
that starts a co-op game on the set and says which sheets and tableau the game uses.

Nothing is mocked: sheets, the set and tableaus are real files in the test's NOCHMAL_HOME, games
are created in the test's store and loaded back from it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import tomli_w
from streamlit.testing.v1 import AppTest

from apptools import app, env, no_exception, shown, texts  # noqa: F401 (env: the fixture)
from nochmal.data import coopset, userdata
from nochmal.engine.coopdata import TABLEAU_KEYS
from nochmal.engine.sheet import get_sheet
from nochmal.store.session import GameSession

SHEETS_PAGE = str(Path(__file__).resolve().parent.parent / "nochmal" / "ui" / "pages" / "sheets.py")


def save_coop_sheet(slot: str) -> str:
    data = get_sheet(f"coop-{slot}").spec.model_dump(mode="json")
    data.update(id=coopset.slot_sheet_id(slot), name=f"My printed sheet {slot}", source="a test pad")
    userdata.save_user_sheet(data)
    return data["id"]


def make_set(slots=("I", "II", "III"), name="Our box") -> list[str]:
    ids = [save_coop_sheet(slot) for slot in slots]
    for slot, sid in zip(slots, ids):
        coopset.assign(slot, sid)
    coopset.rename(name)
    return ids


def sheets_page() -> AppTest:
    at = AppTest.from_file(SHEETS_PAGE, default_timeout=60).run()
    no_exception(at)
    return at


def progress_text(at: AppTest) -> str:
    return at.get("progress")[0].proto.text


def slot_lines(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("**Sheet ")]


def note(at: AppTest, head: str) -> str:
    found = [m.value for m in at.markdown if m.value.startswith(head)]
    assert len(found) == 1, texts(at, "markdown")
    return shown(found[0])


# --------------------------------------------------------------------------- the set tab
def test_the_set_tab_shows_0_of_6_then_the_assigned_sheet(env):
    save_coop_sheet("I")
    save_coop_sheet("II")
    at = sheets_page()
    assert progress_text(at) == "0 of 6 sheets"
    assert len(slot_lines(at)) == 6 and all("not yet: scan it on the 'Digitize: scan a photo' tab" in line
                                            for line in slot_lines(at))
    assert at.selectbox(key="coopset_pick_II").options == ["my-coop-I", "my-coop-II"]
    at.selectbox(key="coopset_pick_II").set_value("my-coop-II").run()
    at.button(key="coopset_assign_II").click().run()
    no_exception(at)
    assert "Sheet II of your co-op set is now `my-coop-II`." in texts(at, "success")
    assert progress_text(at) == "1 of 6 sheets"
    assert slot_lines(at)[1].startswith("**Sheet II** · `my-coop-II` — My printed sheet II")
    assert coopset.load_set().sheets == {"II": "my-coop-II"}
    assert at.selectbox(key="coopset_pick_I").options == ["my-coop-I"]  # a sheet fills one slot only
    at.button(key="coopset_unassign_II").click().run()
    assert progress_text(at) == "0 of 6 sheets" and coopset.load_set().sheets == {}


def test_the_set_tab_names_tableaus_and_renames(env):
    make_set(("I",))
    userdata.save_user_tableau(4, dict(zip(TABLEAU_KEYS, (7, 8, 24, 53, 4, 5, 2, 2, 2))))
    at = sheets_page()
    assert at.text_input(key="coopset_name").value == "Our box"
    assert any("**Tableau values** entered by you for: 4 players" in m for m in texts(at, "markdown"))
    assert [b.key for b in at.get("download_button")] == ["coopset_download"]
    at.text_input(key="coopset_name").input("Grandma's pad").run()
    at.button(key="coopset_rename").click().run()
    no_exception(at)
    assert coopset.load_set().name == "Grandma's pad"


def test_a_bad_set_file_is_refused_on_the_page_naming_the_field_and_nothing_changes(env, tmp_path):
    make_set()
    data = tomllib.loads(coopset.export_set().decode("utf-8"))
    data["sheets"]["III"]["grid"][2] = data["sheets"]["III"]["grid"][2][:14]
    data["name"] = "Imported"
    home = Path(coopset.set_path()).parent
    before = {p: p.read_bytes() for p in home.rglob("*") if p.is_file()}
    at = sheets_page()
    at.file_uploader(key="coopset_upload").set_value(("pad.toml", tomli_w.dumps(data).encode(), "application/toml"))
    at.run()
    at.button(key="coopset_import").click().run()
    no_exception(at)
    errors = texts(at, "error")
    assert any("field sheets.III.grid[2]" in shown(e) and "nothing was saved" in e for e in errors), errors
    assert {p: p.read_bytes() for p in home.rglob("*") if p.is_file()} == before
    assert progress_text(at) == "3 of 6 sheets"


def test_an_exported_set_imports_on_the_page(env, tmp_path, monkeypatch):
    make_set()
    raw = coopset.export_set()
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "other-machine"))
    at = sheets_page()
    assert progress_text(at) == "0 of 6 sheets"
    at.file_uploader(key="coopset_upload").set_value(("coop-set.toml", raw, "application/toml")).run()
    at.button(key="coopset_import").click().run()
    no_exception(at)
    assert any("as your co-op set Our box: sheets I, II, III" in shown(s) for s in texts(at, "success")), \
        texts(at, "success")
    assert progress_text(at) == "3 of 6 sheets" and at.text_input(key="coopset_name").value == "Our box"
    assert (tmp_path / "other-machine" / "boards" / "my-coop-II.toml").is_file()


# --------------------------------------------------------------------------- the Start page
def test_the_start_page_starts_a_co_op_game_on_the_set_and_says_so(env):
    ids = make_set()
    at = app()
    no_exception(at)
    assert at.radio(key="new-mode").value == "coop" and at.selectbox(key="new-players").value == 3
    assert [at.selectbox(key=f"new-sheet-{i}").value for i in range(3)] == ids
    assert note(at, "**Sheets:**") == ("Sheets: your co-op set “Our box” — I, II, III "
                                       "(entered by you, provenance user).")
    at.button(key="new-create").click().run()
    no_exception(at)
    ses = GameSession.load(env, at.query_params["game"])
    assert [s.id for s in ses.game.sheets] == ids
    assert {s.provenance for s in ses.game.sheets} == {"user"}


def test_without_a_set_the_start_page_says_stand_ins(env):
    at = app()
    assert [at.selectbox(key=f"new-sheet-{i}").value for i in range(3)] == ["coop-I", "coop-II", "coop-III"]
    text = note(at, "**Sheets:**")
    assert text.startswith("Sheets: stand-ins coop-I, coop-II, coop-III — not the printed sheets "
                           "(their layouts are not public)"), text
    assert "shipped one for 3 players — derived stand-ins, not the printed values: mission 2: different rows" \
        in note(at, "**Tableau:**")


def test_a_partial_set_names_every_seat_and_the_tableau_in_force(env):
    make_set(("I", "II"))
    userdata.save_user_tableau(3, dict(zip(TABLEAU_KEYS, (6, 7, 19, 41, 3, 4, 2, 2, 1))))
    at = app()
    assert note(at, "**Sheets:**") == ("Sheets: seat 1: my-coop-I (your co-op set, sheet I); seat 2: my-coop-II "
                                       "(your co-op set, sheet II); seat 3: coop-III (stand-in, not the printed "
                                       "sheet).")
    assert note(at, "**Tableau:**") == "Tableau: yours for 3 players (every value entered by you, provenance user)."
    at.selectbox(key="new-players").set_value(2).run()
    assert note(at, "**Sheets:**") == ("Sheets: your co-op set “Our box” — I, II "
                                       "(entered by you, provenance user).")
    at.button(key="new-create").click().run()
    assert [s.id for s in GameSession.load(env, at.query_params["game"]).game.sheets] == ["my-coop-I", "my-coop-II"]


def test_going_back_to_co_op_starts_on_the_set_again(env):
    ids = make_set()
    at = app()
    at.radio(key="new-mode").set_value("base").run()
    assert at.selectbox(key="new-sheet-0").value == "standard"
    assert note(at, "**Sheets:**") == "Sheets: standard, standard, standard (verified: they match the printed sheets)."
    at.radio(key="new-mode").set_value("coop").run()
    no_exception(at)
    assert [at.selectbox(key=f"new-sheet-{i}").value for i in range(3)] == ids


def test_changing_the_set_needs_the_owner_code(env, monkeypatch):
    """Another device (``NOCHMAL_OWNER_LOCAL=code`` makes this machine one) sees the set, but the
    buttons that change it are disabled, and their callbacks refuse even when pressed."""
    from nochmal.cli.serve import OWNER_CODE_ENV, OWNER_LOCAL_ENV

    save_coop_sheet("I")
    monkeypatch.setenv(OWNER_LOCAL_ENV, "code")
    monkeypatch.setenv(OWNER_CODE_ENV, "the-owner-s-code")
    at = sheets_page()
    assert progress_text(at) == "0 of 6 sheets"
    assert at.button(key="coopset_assign_I").disabled and at.button(key="coopset_import").disabled
    monkeypatch.delenv(OWNER_LOCAL_ENV)  # the button is shown enabled (this machine) ...
    at.run()
    assert not at.button(key="coopset_assign_I").disabled
    monkeypatch.setenv(OWNER_LOCAL_ENV, "code")  # ... and pressed when the machine needs the code again
    at.button(key="coopset_assign_I").click().run()
    assert any("needs the app owner's code" in e for e in texts(at, "error")), texts(at, "error")
    assert coopset.load_set() is None
