"""The owner code (nochmal/ui/owner.py): saving, importing and deleting user sheets and
tableaus, and importing games, need it on any device but the machine itself.

AppTest has no client address (``st.context.ip_address`` is None, i.e. this machine), so a
remote device is made the way an operator would: ``NOCHMAL_OWNER_LOCAL=code`` (``nochmal serve
--code-on-localhost``) asks for the code on this machine too. The real remote address is
checked in ``tests/browser/test_browser_owner.py``.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from apptools import APP, HISTORY, no_exception, texts
from nochmal.store import access
from nochmal.ui import newgame
from nochmal.engine.coopdata import get_tableau, tableau_to_toml
from nochmal.cli.serve import OWNER_CODE_ENV, OWNER_LOCAL_ENV
from nochmal.store.session import GameSession
from nochmal.engine.sheet import get_sheet, sheet_to_toml
from nochmal.store.db import GameStore
from nochmal.ui import owner

PAGES = APP.rsplit("/", 1)[0] + "/nochmal/ui/pages"
CODE = access.new_token()
STANDARD_ROWS = "\n".join(get_sheet("standard").spec.grid)
TIMEOUT = 60


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NOCHMAL_DB", str(tmp_path / "games.sqlite3"))
    fresh = access.Throttle()  # wrong guesses of other tests do not count
    monkeypatch.setattr(owner, "_throttle", lambda: fresh)
    return tmp_path / "home"


@pytest.fixture
def remote(home, monkeypatch):
    """This test's browser counts as another device, and the server's owner code is CODE."""
    monkeypatch.setenv(OWNER_LOCAL_ENV, "code")
    monkeypatch.setenv(OWNER_CODE_ENV, CODE)
    return home


def page(name: str) -> AppTest:
    at = AppTest.from_file(f"{PAGES}/{name}.py", default_timeout=TIMEOUT).run()
    no_exception(at)
    return at


def unlock(at: AppTest, code: str) -> AppTest:
    at.text_input(key=owner.ENTRY_KEY).set_value(code)
    at.button(key="owner_unlock").click().run()
    no_exception(at)
    return at


def forged_click(at: AppTest, key: str) -> AppTest:
    """Click a button the page shows disabled, as a hand-made websocket message would."""
    button = at.button(key=key)
    assert button.disabled
    button.proto.disabled = False
    button.click().run()
    no_exception(at)
    return at


def locked(at: AppTest) -> bool:
    return any(w.key == owner.ENTRY_KEY for w in at.text_input)


# --------------------------------------------------------------------------- the gate function
@pytest.mark.parametrize("address", [None, "localhost", "127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"])
def test_loopback_addresses_are_the_machine_itself(address):
    assert owner.is_local(address)


@pytest.mark.parametrize("address", ["192.0.2.2", "10.0.0.7", "fd00::2", "2001:db8::1", "::ffff:192.0.2.2",
                                     "0.0.0.0", "not an address", ""])
def test_other_addresses_are_other_devices(address):
    assert not owner.is_local(address)


# --------------------------------------------------------------------------- sheets
def test_on_this_machine_no_code_is_asked(home, monkeypatch):
    monkeypatch.delenv(OWNER_LOCAL_ENV, raising=False)
    monkeypatch.setenv(OWNER_CODE_ENV, CODE)
    at = page("sheets")
    assert not locked(at)
    at.text_area(key="paste_text").set_value(STANDARD_ROWS).run()
    at.text_input(key="paste_id").set_value("local-pad").run()
    at.button(key="paste_save").click().run()
    assert (home / "boards" / "local-pad.toml").is_file(), texts(at, "error")


def test_a_remote_device_cannot_save_or_delete_a_user_sheet_without_the_code(remote, monkeypatch):
    at = page("sheets")
    assert locked(at)
    assert any("This device needs the app owner's code for saving" in m for m in texts(at, "markdown"))
    at.text_area(key="paste_text").set_value(STANDARD_ROWS).run()
    at.text_input(key="paste_id").set_value("remote-pad").run()
    assert at.button(key="paste_save").disabled
    # Streamlit ignores a click on a disabled button; nothing is written either way
    forged_click(at, "paste_save")
    assert not (remote / "boards" / "remote-pad.toml").exists()

    unlock(at, "not-the-code")
    assert locked(at) and any("not the owner code" in e for e in texts(at, "error"))
    assert at.button(key="paste_save").disabled

    unlock(at, CODE)
    assert not locked(at)
    assert any("Owner code accepted" in s for s in texts(at, "success"))
    at.button(key="paste_save").click().run()
    saved = remote / "boards" / "remote-pad.toml"
    assert saved.is_file(), texts(at, "error")
    before = saved.read_bytes()

    # the server restarts with a new code while the page still shows an enabled button:
    # the callback itself refuses
    monkeypatch.setenv(OWNER_CODE_ENV, access.new_token())
    at.text_input(key="paste_name").set_value("changed")
    at.button(key="paste_save").click().run()
    no_exception(at)
    assert any("needs the app owner's code" in e and "Nothing was changed" in e for e in texts(at, "error"))
    assert saved.read_bytes() == before

    # deleting: unlocked with the new code the delete button works; a rotated code stops it again
    monkeypatch.setenv(OWNER_CODE_ENV, CODE)
    at.run()
    at.selectbox(key="view_sheet").set_value("remote-pad").run()
    at.checkbox(key="delete_confirm").check().run()
    monkeypatch.setenv(OWNER_CODE_ENV, access.new_token())
    at.button(key="delete_sheet").click().run()
    no_exception(at)
    assert any("Deleting a user sheet needs" in e for e in texts(at, "error"))
    assert saved.is_file()
    monkeypatch.setenv(OWNER_CODE_ENV, CODE)
    at.run()
    at.button(key="delete_sheet").click().run()
    assert not saved.exists()


def test_sheet_file_upload_needs_the_code_and_is_checked(remote, monkeypatch):
    at = page("sheets")
    spec = get_sheet("standard").spec.model_copy(update={"id": "uploaded", "provenance": "user"})
    good = sheet_to_toml(spec).encode()
    assert at.button(key="sheet_import").disabled
    unlock(at, CODE)
    at.file_uploader(key="sheet_upload").set_value(("pad.toml", good.replace(b"jokers = 8", b'jokers = "8"'),
                                                    "application/toml")).run()
    at.button(key="sheet_import").click().run()
    errors = texts(at, "error")
    assert any("pad.toml" in e and "field jokers" in e and "nothing was saved" in e for e in errors), errors
    assert not (remote / "boards").exists() or not list((remote / "boards").iterdir())

    at.file_uploader(key="sheet_upload").set_value(("big.toml", good + b"#" * 70_000, "application/toml")).run()
    at.button(key="sheet_import").click().run()
    assert any("big.toml" in e and "65,536 bytes" in e for e in texts(at, "error")), texts(at, "error")

    at.file_uploader(key="sheet_upload").set_value(("pad.toml", good, "application/toml")).run()
    monkeypatch.setenv(OWNER_CODE_ENV, access.new_token())  # a stale unlocked page: the callback refuses
    at.button(key="sheet_import").click().run()
    assert any("Importing a sheet file needs" in e for e in texts(at, "error"))
    assert not (remote / "boards" / "uploaded.toml").exists()
    monkeypatch.setenv(OWNER_CODE_ENV, CODE)
    at.run()
    at.button(key="sheet_import").click().run()
    no_exception(at)
    assert (remote / "boards" / "uploaded.toml").is_file(), texts(at, "error")
    assert at.selectbox(key="view_sheet").value == "uploaded"


# --------------------------------------------------------------------------- tableaus
def test_a_remote_device_cannot_save_or_import_a_tableau_without_the_code(remote, monkeypatch):
    target = remote / "tableaus" / "tableau-2.toml"
    at = page("tableaus")
    assert locked(at)
    assert at.button(key="tab2_save").disabled and at.button(key="tableau_import").disabled
    forged_click(at, "tab2_save")
    assert not target.exists()

    unlock(at, CODE)
    assert not locked(at)
    text = tableau_to_toml(get_tableau(2))
    quoted = re.sub(r"value = (\d+)", r'value = "\1"', text, count=1)  # goal_10 = { value = "5", ... }
    at.file_uploader(key="tableau_upload").set_value(("t2.toml", quoted.encode(), "application/toml")).run()
    at.button(key="tableau_import").click().run()
    assert any("t2.toml" in e and "valid integer" in e for e in texts(at, "error")), texts(at, "error")
    assert not target.exists()

    monkeypatch.setenv(OWNER_CODE_ENV, access.new_token())
    at.button(key="tab2_save").click().run()
    no_exception(at)
    assert any("Saving a tableau needs" in e for e in texts(at, "error"))
    assert not target.exists()

    monkeypatch.setenv(OWNER_CODE_ENV, CODE)
    at.run()
    at.button(key="tab2_save").click().run()
    no_exception(at)
    assert target.is_file(), texts(at, "error")


# --------------------------------------------------------------------------- game import
def test_a_remote_device_cannot_import_a_game_without_the_code(remote, monkeypatch, tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    try:
        game = newgame.make_game("coop", newgame.default_sheets("coop", 2), 1)
        ses = GameSession.create(store, game, title="exported", seat_names=["A", "B"])
        data = json.dumps(ses.export(), indent=1).encode()
        n_games = len(store.list_games())
        at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
        at.switch_page(HISTORY).run()
        no_exception(at)
        assert locked(at) and at.button(key="import-btn").disabled
        forged_click(at, "import-btn")
        assert len(store.list_games()) == n_games

        unlock(at, CODE)
        at.file_uploader(key="import-file").set_value(("game.json", data, "application/json")).run()
        monkeypatch.setenv(OWNER_CODE_ENV, access.new_token())
        at.button(key="import-btn").click().run()
        no_exception(at)
        assert any("Importing a game needs" in e for e in texts(at, "error")), texts(at, "error")
        assert len(store.list_games()) == n_games

        monkeypatch.setenv(OWNER_CODE_ENV, CODE)
        at.run()
        at.button(key="import-btn").click().run()
        no_exception(at)
        assert len(store.list_games()) == n_games + 1, texts(at, "error")
    finally:
        store.close()


def test_the_owner_link_unlocks_and_leaves_the_url(remote):
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["owner"] = CODE
    at.run()
    no_exception(at)
    assert "owner" not in at.query_params
    at.switch_page("nochmal/ui/pages/sheets.py").run()
    assert not locked(at)
    assert not at.button(key="paste_save").disabled


def test_wrong_codes_are_throttled_and_the_right_one_works_after_the_wait(remote, monkeypatch):
    quick = access.Throttle(limit=3, window=60, lockout=1.0)
    monkeypatch.setattr(owner, "_throttle", lambda: quick)
    at = page("tableaus")
    for _ in range(3):
        unlock(at, "guess")
    assert any("Too many wrong owner codes" in e for e in texts(at, "error")), texts(at, "error")
    unlock(at, CODE)  # refused while this client waits
    assert locked(at) and any("wait" in e for e in texts(at, "error"))
    time.sleep(1.1)
    unlock(at, CODE)
    assert not locked(at)


def test_a_remote_device_cannot_read_a_file_of_this_machine_on_the_analytics_page(remote, monkeypatch, tmp_path):
    from nochmal.analytics.sweep import read_rows

    shipped = Path(__file__).resolve().parent.parent / "docs" / "calibration-sweep.parquet"
    at = page("dashboard")
    at.radio(key="dash_from").set_value("file").run()
    at.text_input(key="dash_path").set_value(str(shipped))
    at.button(key="dash_open").click().run()
    no_exception(at)
    assert any("needs the app owner's code" in e for e in texts(at, "error")), texts(at, "error")
    assert not at.session_state["dash_rows"], "nothing was read"

    monkeypatch.setenv(OWNER_LOCAL_ENV, "trust")  # the machine itself: no code asked
    at.button(key="dash_open").click().run()
    no_exception(at)
    assert not any("owner" in e for e in texts(at, "error")), texts(at, "error")
    assert len(at.session_state["dash_rows"]) == len(read_rows(shipped))
    assert shipped.name in str(at.session_state["dash_source"])
