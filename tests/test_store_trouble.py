"""A game store that cannot be written (read-only, full) or opened, and stamps that cannot be
shown (issue 46, item 3): every page says so in one short sentence, never with an exception, a
traceback or the store's path; an import refuses a stamp a page could not show, naming the field.

How the store is made read-only for root too: chmod does not stop root, so the database's own
header says so. Byte 18 of an SQLite file is its "file format write version"; SQLite opens a
file whose write version is above 2 (and read version 1 or 2) read-only, for every user
(https://www.sqlite.org/fileformat2.html#file_format_version_numbers). The test checks that a
plain sqlite3 connection really cannot write it before the app opens it. A full store: SQLite's
``max_page_count`` on the app's own store connection (its writes then fail with SQLITE_FULL,
"database or disk is full", as on a full disk).
"""

from __future__ import annotations

import copy
import json
import sqlite3

import pytest

from apptools import HISTORY, START, TABLE, app, env, keys, no_exception, shown, texts  # noqa: F401 (env: a fixture)
from nochmal.data import i18n
from nochmal.engine.coop import CoopGame
from nochmal.engine.errors import InvalidInputError
from nochmal.store.db import GameStore, StoreError
from nochmal.store.session import GameSession
from nochmal.store.transfer import import_game
from nochmal.ui import state
from nochmal.ui.storeerror import kind, store_error_text
from test_import_validation import play_export

SHEETS = "nochmal/ui/pages/sheets.py"
READ_ONLY = "The game store cannot be written: it is read-only"
FULL = "The game store cannot be written: the disk is full"
CANNOT_USE = "The game store cannot be used"


def every_text(at) -> list[str]:
    out = []
    for kind_ in ("error", "warning", "info", "success", "markdown", "caption", "exception", "toast"):
        out += [str(e.value) for e in getattr(at, kind_)]
    return out


def no_path_shown(at, path) -> None:
    """No exception, and no element names the store's path (or its folder) or shows a traceback."""
    no_exception(at)
    for text in every_text(at):
        assert str(path.parent) not in text and "Traceback" not in text and ".sqlite3" not in text, text


def make_read_only(path) -> None:
    """Mark the (closed) database read-only in its header; check that a write really fails."""
    with open(path, "r+b") as fh:
        fh.seek(18)
        assert fh.read(2) in (b"\x01\x01", b"\x02\x02")
        fh.seek(18)
        fh.write(b"\x03")
    conn = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("CREATE TABLE probe (x)")
    finally:
        conn.close()


@pytest.fixture
def read_only_game(tmp_path, monkeypatch):
    """A digital co-op game (no event yet) in a store that is then made read-only."""
    db = tmp_path / "ro" / "games.sqlite3"
    with GameStore(db) as store:
        ses = GameSession.create(store, CoopGame.create(2, 1), title="Read-only night", kind="digital", seed=3)
        export = play_export(store)
    make_read_only(db)
    monkeypatch.setenv("NOCHMAL_DB", str(db))
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    return ses, export, db


def test_a_read_only_store_says_so_on_the_table_page(read_only_game):
    ses, _, db = read_only_game
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(TABLE).run()
    no_path_shown(at, db)
    assert "roll-digital" in keys(at)  # reading works: the page is there
    at.button(key="roll-digital").click().run()
    no_path_shown(at, db)
    errors = texts(at, "error")
    assert any(READ_ONLY in e and "Ask the person who runs the app" in e for e in errors), errors
    renew = [k for k in keys(at) if k.endswith("-renew")]
    assert renew
    at.button(key=renew[0]).click().run()
    no_path_shown(at, db)
    assert any(READ_ONLY in e for e in texts(at, "error")), texts(at, "error")
    with GameStore(db) as store:
        assert store.get(ses.game_id).n_events == 0


def test_a_read_only_store_says_so_on_the_start_and_history_pages(read_only_game):
    ses, export, db = read_only_game
    at = app()
    at.button(key="new-create").click().run()
    no_path_shown(at, db)
    assert any(READ_ONLY in e for e in texts(at, "error")), texts(at, "error")
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(HISTORY).run()
    no_path_shown(at, db)
    at.file_uploader(key="import-file").set_value(("game.json", json.dumps(export).encode(), "application/json")).run()
    at.button(key="import-btn").click().run()
    no_path_shown(at, db)
    assert any(READ_ONLY in e for e in texts(at, "error")), texts(at, "error")
    with GameStore(db) as store:
        assert len(store.list_games()) == 2  # the game and the one play_export made


def test_a_full_store_says_so(env, tmp_path):
    ses = GameSession.create(env, CoopGame.create(2, 1), title="Full night", kind="digital", seed=3)
    export = play_export(env)
    n_games = len(env.list_games())
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(HISTORY).run()
    no_exception(at)
    served = state.store()  # the app's own store (one per process and file)
    assert served.path == env.path
    (pages,) = served._conn.execute("PRAGMA page_count").fetchone()
    served._conn.execute(f"PRAGMA max_page_count = {pages}")  # no page more: SQLITE_FULL, as on a full disk
    try:
        at.file_uploader(key="import-file").set_value(("game.json", json.dumps(export).encode(),
                                                       "application/json")).run()
        at.button(key="import-btn").click().run()
        no_path_shown(at, env.path)
        assert any(FULL in e and "Ask the person who runs the app" in e for e in texts(at, "error")), \
            texts(at, "error")
    finally:
        served._conn.execute("PRAGMA max_page_count = 1073741823")
    assert len(env.list_games()) == n_games


def test_a_full_store_error_is_told_as_full(tmp_path):
    with GameStore(tmp_path / "games.sqlite3") as store:
        gid = store.create_game({"x": 1}, title="t")
        (pages,) = store._conn.execute("PRAGMA page_count").fetchone()
        store._conn.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(StoreError) as e:
            store.append(gid, 0, {"by": "x" * 200_000})
    assert kind(e.value) == "full"
    text = store_error_text(e.value)
    assert text.startswith(FULL) and str(tmp_path) not in text and "sqlite" not in text.lower()


@pytest.mark.parametrize("page", [START, TABLE, HISTORY, SHEETS], ids=lambda p: p.rsplit("/", 1)[-1])
def test_a_store_that_cannot_be_opened_says_so_on_every_page(tmp_path, monkeypatch, page):
    db = tmp_path / "games.sqlite3"
    db.mkdir()  # a folder where the file should be
    monkeypatch.setenv("NOCHMAL_DB", str(db))
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    at = app({"game": "abcdefgh", "code": "x" * 22})
    if page != START:
        at.switch_page(page).run()
    no_path_shown(at, db)
    assert any(CANNOT_USE in e for e in texts(at, "error")), texts(at, "error")


# --------------------------------------------------------------------------- stamps
ODD_STAMPS = ["", "not a time", "9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59", "2026-05-01T19:30:00"]


@pytest.mark.parametrize("stamp", ODD_STAMPS)
@pytest.mark.parametrize("zone", [None, "Pacific/Kiritimati", "Pacific/Niue", "Mars/Olympus"])
def test_date_time_never_raises(stamp, zone):
    shown = i18n.date_time(stamp, zone)
    assert isinstance(shown, str) and (shown == "" if not stamp else shown)


def test_history_shows_a_stored_game_whose_stamps_were_never_checked(env):
    """Events saved straight into the store (as an import before stamps were checked could):
    no ``at``, an empty one, and moments at the ends of the calendar."""
    ses = GameSession.create(env, CoopGame.create(2, 1), title="Old night", kind="digital", seed=3)
    for _ in range(4):
        if ses.state.current_player() < 0:
            ses.roll_digital()
        else:
            ses.record(ses.state.legal_actions(ses.state.current_player())[0])
    events = [e.model_dump(mode="json") for e in ses.events]
    events[0].pop("at")
    events[1]["at"] = ""
    events[2]["at"] = "9999-12-31T23:59:59-23:59"
    events[3]["at"] = "0001-01-01T00:00:00+23:59"
    gid = env.create_game(dict(ses.meta), title="Old night", events=events)
    old = GameSession.load(env, gid)
    at = app({"game": gid, "code": old.meta["host_code"]})
    at.switch_page(HISTORY).run()
    no_exception(at)
    page = "\n".join(shown(t) for t in texts(at, "markdown"))
    assert "9999-12-31T23:59:59-23:59" in page and "0001-01-01T00:00:00+23:59" in page  # as they are
    assert "#3" in page


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    with GameStore(tmp_path_factory.mktemp("export") / "games.sqlite3") as store:
        return play_export(store)


@pytest.mark.parametrize("change,expected", [
    (lambda e: e.pop("at"), "field events[2]: event 2: field at: missing"),
    (lambda e: e.update(at=""), "field events[2]: event 2: field at: missing"),
    (lambda e: e.update(at="2026-05-01T19:30:00"), "field events[2]: event 2: field at: must be a timestamp in ISO "
                                                    "8601 with a time zone"),
    (lambda e: e.update(at="9999-12-31T23:59:59-23:59"), "field events[2]: event 2: field at: "
                                                          "'9999-12-31T23:59:59-23:59' is not between the years"),
    (lambda e: e.update(at="0001-01-01T00:00:00+23:59"), "field events[2]: event 2: field at: "
                                                          "'0001-01-01T00:00:00+23:59' is not between the years"),
    (lambda e: e.update(at="1969-12-31T23:59:59+00:00"), "is not between the years 1970 and 9998"),
    (lambda e: e.update(at="2026-05-01T19:30:00+00:00\n"), "field at: must be a timestamp"),
], ids=["missing", "empty", "no-zone", "overflow-late", "overflow-early", "before-1970", "newline"])
def test_an_import_refuses_a_stamp_pages_cannot_show(env, export, change, expected):
    data = copy.deepcopy(export)
    change(data["events"][2])
    with pytest.raises(InvalidInputError) as e:
        import_game(env, data, source="game.json")
    assert str(e.value).startswith("game.json: ") and expected in str(e.value), str(e.value)
    assert env.list_games() == []


@pytest.mark.parametrize("stamp", ["2026-05-01", "2026-05-01T19:30:00", "", "9999-12-31T23:59:59-23:59"])
def test_an_import_refuses_a_created_stamp_pages_cannot_show(env, export, stamp):
    data = copy.deepcopy(export)
    data["meta"]["created"] = stamp
    with pytest.raises(InvalidInputError, match=r"^game\.json: field meta\.created: "):
        import_game(env, data, source="game.json")


@pytest.mark.parametrize("stamp", ["2026-05-01T19:30:00Z", "2026-05-01T19:30:00.123456-09:30",
                                   "2026-05-01T19:30:00+14:00", "1970-01-01T00:00:00+00:00"])
def test_an_import_keeps_a_stamp_the_app_could_have_written(env, export, stamp):
    data = copy.deepcopy(export)
    data["events"][2]["at"] = data["meta"]["created"] = stamp
    ses = import_game(env, data, source="game.json")
    assert ses.events[2].at == stamp and ses.meta["created"] == stamp


def test_an_import_stores_dice_and_colours_as_the_app_writes_them(env, export):
    data = copy.deepcopy(export)
    roll = data["events"][0]
    assert roll["type"] == "roll"
    roll["colours"] = [f" {c.upper()}\x1c" for c in reversed(roll["colours"])]
    roll["numbers"] = [f"{n}\t" for n in reversed(roll["numbers"])]
    cross = next(e for e in data["events"] if e["type"] == "cross")
    cross["colour"], cross["colour_die"] = f" {cross['colour'].upper()} ", cross["colour_die"].title()
    ses = import_game(env, data, source="game.json")
    assert ses.export()["events"] == export["events"]
