"""The game store on PostgreSQL: what only a server has (tests/test_store.py runs everything the
backends share on both). A real throwaway cluster (conftest.py's ``pg_cluster``, Debian's binaries),
no mocks: choosing the backend by ``NOCHMAL_DB``, bad URLs and unreachable servers as one clear
error naming ``NOCHMAL_DB`` (from the store, the CLI and the app), no password in any message,
a foreign or newer schema left untouched, a dropped connection opened again, the CLI's games
commands and an export/import round trip on the server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from nochmal.store.db import GameStore, StoreError, default_store_location


if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    import psycopg  # in CI a missing psycopg fails (it is in the test extra)
else:
    psycopg = pytest.importorskip("psycopg", reason="the store's PostgreSQL backend needs psycopg 3")


@pytest.fixture
def pg_url(pg_cluster) -> str:
    from conftest import fresh_pg_store

    return fresh_pg_store(pg_cluster)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cli(*argv: str, env_db: str | None, cwd) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if env_db is not None:
        env["NOCHMAL_DB"] = env_db
    return subprocess.run([sys.executable, "-m", "nochmal.cli", *argv], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120, stdin=subprocess.DEVNULL)


def test_nochmal_db_with_a_url_selects_postgresql_and_a_path_sqlite(pg_url, monkeypatch, tmp_path):
    monkeypatch.setenv("NOCHMAL_DB", pg_url)
    assert default_store_location() == pg_url
    with GameStore() as store:
        assert store.backend == "postgresql"
        gid = store.create_game({"via": "env"}, events=[{"n": 0}])
    with GameStore(pg_url.replace("postgresql://", "postgres://", 1)) as store:  # the short scheme too
        assert store.backend == "postgresql" and store.events(gid) == [{"n": 0}]
    monkeypatch.setenv("NOCHMAL_DB", str(tmp_path / "g.sqlite3"))
    with GameStore() as store:
        assert store.backend == "sqlite" and store.list_games() == []


def test_the_password_is_in_no_message(pg_cluster, pg_url, monkeypatch):
    with_password = pg_url.replace("postgres@", "postgres:s3cret-Pa55@", 1)  # trust: any password opens
    with GameStore(with_password) as store:
        assert "s3cret" not in repr(store) and "s3cret" not in str(store.path)
        with pytest.raises(StoreError) as excinfo:
            store.events("nope")
        assert "s3cret" not in str(excinfo.value)
    refused = f"postgresql://someone:s3cret-Pa55@127.0.0.1:{_free_port()}/nowhere"
    monkeypatch.setenv("NOCHMAL_DB", refused)
    with pytest.raises(StoreError) as excinfo:
        GameStore()
    assert "s3cret" not in str(excinfo.value) and "$NOCHMAL_DB" in str(excinfo.value)


@pytest.mark.parametrize("url, expected", [
    ("postgresql://u:pw@[::1/db", "not a usable PostgreSQL URL"),
    ("postgresql://u@h/db?no_such_option=1", "not a usable PostgreSQL URL"),
    ("postgresql://u:p%zz@h/db", "not a usable PostgreSQL URL"),
    ("postgresql://127.0.0.1:5432", "names no database"),
    ("postgresql://u@127.0.0.1:notaport/db", "cannot connect"),
])
def test_a_bad_url_is_one_store_error_naming_nochmal_db(monkeypatch, url, expected):
    monkeypatch.setenv("NOCHMAL_DB", url)
    with pytest.raises(StoreError, match=expected) as excinfo:
        GameStore()
    msg = str(excinfo.value)
    assert "NOCHMAL_DB" in msg and "pw" not in msg.replace("postgresql", "")


def test_an_unreachable_server_fails_fast_and_clearly(monkeypatch):
    url = f"postgresql://postgres@127.0.0.1:{_free_port()}/games"
    monkeypatch.setenv("NOCHMAL_DB", url)
    t0 = time.monotonic()
    with pytest.raises(StoreError) as excinfo:
        GameStore()
    assert time.monotonic() - t0 < 10
    msg = str(excinfo.value)
    assert msg.startswith(f"game store {url} ($NOCHMAL_DB): cannot connect to the PostgreSQL server"), msg


def test_the_cli_says_one_line_for_a_bad_or_unreachable_server(tmp_path):
    for url in (f"postgresql://postgres@127.0.0.1:{_free_port()}/games", "postgresql://u:pw@[::1/db"):
        done = _cli("games", "list", env_db=url, cwd=tmp_path)
        assert done.returncode == 2, done  # the CLI's code for a store error
        assert done.stderr.startswith("nochmal: error: game store ") and "Traceback" not in done.stderr and "NOCHMAL_DB" in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_the_cli_plays_saves_lists_exports_and_imports_on_the_server(pg_url, tmp_path):
    done = _cli("play", "--mode", "coop", "--players", "2", "--policy", "greedy", "--seed", "3", "--save",
                "--json", env_db=pg_url, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    gid = json.loads(done.stdout.strip().splitlines()[-1])["game_id"]
    listed = json.loads(_cli("games", "list", "--json", env_db=pg_url, cwd=tmp_path).stdout)
    assert [g["game_id"] for g in listed] == [gid]
    out = tmp_path / "game.json"
    done = _cli("games", "export", gid, "--out", str(out), "--db", pg_url, env_db=None, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = _cli("games", "import", str(out), "--json", env_db=pg_url, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    copy = json.loads(done.stdout)["id"]
    with GameStore(pg_url) as store:
        assert store.events(copy) == store.events(gid) and len(store.events(gid)) > 20
        assert store.get(copy).meta["host_code"] != store.get(gid).meta["host_code"]


def test_a_foreign_schema_is_refused_and_left_untouched(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE users (id serial PRIMARY KEY, name text)")
        conn.execute("INSERT INTO users (name) VALUES ('x')")
    with pytest.raises(StoreError, match="not a nochmal game store .*users"):
        GameStore(pg_url)
    with psycopg.connect(pg_url) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")]
        assert tables == ["users"]
        assert conn.execute("SELECT name FROM users").fetchall() == [("x",)]


def test_a_newer_schema_version_or_a_missing_table_is_refused(pg_url):
    with GameStore(pg_url) as store:
        store.create_game({})
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE nochmal_store SET schema_version = 99")
    with pytest.raises(StoreError, match=r"unsupported schema version \[99\]"):
        GameStore(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE nochmal_store SET schema_version = 1")
        conn.execute("DROP TABLE events")
    with pytest.raises(StoreError, match="table 'events' is missing"):
        GameStore(pg_url)


def test_a_connection_the_server_dropped_is_opened_again(pg_url):
    with GameStore(pg_url) as store, psycopg.connect(pg_url, autocommit=True) as admin:
        gid = store.create_game({}, events=[{"n": 0}])
        for n in (1, 2):
            pid = store._conn.info.backend_pid
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            time.sleep(0.2)
            assert store.append(gid, n, {"n": n}) == n  # a write after the drop: opened again, once
            assert store._conn.info.backend_pid != pid
        assert store.events(gid) == [{"n": 0}, {"n": 1}, {"n": 2}]


def test_a_writer_holding_the_lock_makes_the_other_wait_then_go_on(pg_url):
    """The write lock is held to COMMIT: a second store's append waits for it and then sees the
    first one's event (a conflict, never a duplicate or a lost event)."""
    import threading

    with GameStore(pg_url) as first, GameStore(pg_url) as second:
        gid = first.create_game({})
        done: dict = {}
        with first._transaction(write=True) as cur:
            cur.execute("INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)", (gid, 0, '{"by":"first"}'))
            t = threading.Thread(target=lambda: done.setdefault("r", _try_append(second, gid)))
            t.start()
            time.sleep(0.5)
            assert t.is_alive()  # waiting for the lock
        t.join(10)
        assert done["r"] == "conflict 1"
        assert second.events(gid) == [{"by": "first"}]


def _try_append(store, gid):
    from nochmal.store.db import ConflictError

    try:
        store.append(gid, 0, {"by": "second"})
    except ConflictError as exc:
        return f"conflict {exc.actual_seq}"
    return "appended"


# --------------------------------------------------------------------------- the app on the server
def test_the_app_plays_on_the_server_host_link_and_a_phone_claim(pg_url, tmp_path, monkeypatch):
    from apptools import app, keys, no_exception, texts
    from nochmal.store.session import GameSession
    from nochmal.ui import newgame

    monkeypatch.setenv("NOCHMAL_DB", pg_url)
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    with GameStore(pg_url) as store:
        game = newgame.make_game("coop", newgame.default_sheets("coop", 3), 1)
        ses = GameSession.create(store, game, title="on the server", seat_names=["A", "B", "C"])
    host = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    no_exception(host)
    assert texts(host, "error") == []
    assert any(str(c.value).endswith(f"/?game={ses.game_id}&join={ses.meta['join_token']}") for c in host.code)
    phone = app({"game": ses.game_id, "join": ses.meta["join_token"]})
    no_exception(phone)
    assert "claim-seat-btn" in keys(phone)
    phone.radio(key="claim-seat").set_value(1)
    phone.button(key="claim-seat-btn").click().run()
    no_exception(phone)
    with GameStore(pg_url) as store:
        meta = store.get(ses.game_id).meta
    assert set(meta["claims"]) == {"1"} and set(meta["seat_codes"]) == {"1"}


def test_the_app_says_one_sentence_for_an_unreachable_server(tmp_path, monkeypatch):
    from apptools import app, no_exception, texts

    port = _free_port()
    monkeypatch.setenv("NOCHMAL_DB", f"postgresql://postgres:s3cret@127.0.0.1:{port}/games")
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    at = app({"game": "abcdefgh", "code": "x" * 22})
    no_exception(at)
    errors = texts(at, "error")
    assert any("The game store cannot be used" in e for e in errors), errors
    for text in errors + texts(at, "markdown") + texts(at, "caption"):
        assert str(port) not in text and "s3cret" not in text and "postgresql" not in text, text


def test_a_read_only_or_locked_server_is_told_as_such(pg_url):
    """The app's sentences (nochmal/ui/storeerror.py) read PostgreSQL's SQLSTATE as they read
    SQLite's error names: a read-only transaction, a write lock not had in time."""
    from nochmal.ui.storeerror import kind

    with GameStore(pg_url) as store:
        gid = store.create_game({})
    read_only = pg_url + "%20-cdefault_transaction_read_only%3Don"
    with GameStore(read_only) as store:
        assert store.events(gid) == []  # reading works
        with pytest.raises(StoreError) as excinfo:
            store.append(gid, 0, {"x": 1})
        assert kind(excinfo.value) == "readonly", excinfo.value
    with GameStore(pg_url) as holder, GameStore(pg_url) as waiter:
        waiter._conn.execute("SET lock_timeout = 100")  # 100 ms here instead of the store's 5 s
        with holder._transaction(write=True):
            with pytest.raises(StoreError) as excinfo:
                waiter.append(gid, 0, {"x": 1})
        assert kind(excinfo.value) == "busy", excinfo.value
        assert waiter.append(gid, 0, {"x": 1}) == 0  # and it works once the lock is free
