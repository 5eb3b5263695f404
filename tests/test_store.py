"""Tests for nochmal.store.db: real SQLite files in tmp_path, a real PostgreSQL server (the
``store_url`` fixture in conftest.py: each test that takes ``db`` or ``store`` runs on both),
real subprocesses, no mocks. What only one backend has (SQLite's files and pragmas) is tested on
that one; PostgreSQL's own cases are in tests/test_store_pg.py."""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nochmal.store.db import (
    SCHEMA_VERSION,
    ConflictError,
    GameInfo,
    GameStore,
    StoreError,
    UnknownGameError,
    default_store_path,
)

HELPERS = pathlib.Path(__file__).parent / "helpers"
WRITER = HELPERS / "store_writer.py"
CONTENDER = HELPERS / "store_contender.py"


def _load_helper(name: str):
    spec = importlib.util.spec_from_file_location(f"_store_helper_{name}", HELPERS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


body_for = _load_helper("store_writer").body_for


@pytest.fixture
def db(store_url) -> str:
    """The store's location: an SQLite file, then a PostgreSQL database (conftest.py)."""
    return store_url


@pytest.fixture
def store(db):
    with GameStore(db) as s:
        yield s


@pytest.fixture
def sqlite_db(tmp_path) -> pathlib.Path:
    return tmp_path / "games.sqlite3"


def is_pg(db) -> bool:
    return str(db).startswith("postgresql://")


def raw(db, sql: str, params: tuple = (), many: list | None = None) -> list[tuple]:
    """Run ``sql`` (``?`` placeholders) past the store, on its own connection, and commit."""
    if is_pg(db):
        import psycopg

        with psycopg.connect(str(db)) as con:  # commits when the block ends
            with con.cursor() as cur:
                if many is not None:
                    cur.executemany(sql.replace("?", "%s"), many)
                    return []
                cur.execute(sql.replace("?", "%s"), params)
                return cur.fetchall() if cur.description else []
    con = sqlite3.connect(db)
    try:
        with con:
            if many is not None:
                con.executemany(sql, many)
                return []
            return con.execute(sql, params).fetchall()
    finally:
        con.close()


def raw_seqs(db, game_id) -> list[int]:
    return [r[0] for r in raw(db, "SELECT seq FROM events WHERE game_id=? ORDER BY seq", (game_id,))]


# --------------------------------------------------------------------------------------
# basic round trips


def test_create_append_events_roundtrip(store, db):
    gid = store.create_game({"players": 2, "variant": "solo"}, title="First game")
    assert store.n_events(gid) == 0
    assert store.events(gid) == []
    sent = [{"type": "roll", "dice": [1, 2, 3]}, {"type": "cross", "cells": [[0, 7], [1, 7]]}, {"type": "pass"}]
    for i, ev in enumerate(sent):
        assert store.append(gid, i, ev) == i
    assert store.events(gid) == sent
    assert store.n_events(gid) == 3
    info = store.get(gid)
    assert isinstance(info, GameInfo)
    assert info.game_id == gid
    assert info.title == "First game"
    assert info.meta == {"players": 2, "variant": "solo"}
    assert info.n_events == 3
    assert info.created_at <= info.updated_at
    assert raw_seqs(db, gid) == [0, 1, 2]


def test_events_come_back_in_seq_order_not_insert_order(store, db):
    gid = store.create_game({})
    for i in range(30):
        store.append(gid, i, {"i": i})
    # Physically re-insert rows in reverse order: reading must still sort by seq.
    rows = raw(db, "SELECT game_id, seq, body FROM events ORDER BY seq DESC")
    raw(db, "DELETE FROM events")
    raw(db, "INSERT INTO events VALUES (?, ?, ?)", many=rows)
    assert [e["i"] for e in store.events(gid)] == list(range(30))


def test_tuples_become_lists_and_unicode_survives(store):
    gid = store.create_game({"name": "Jürgen ✓"})
    store.append(gid, 0, {"pos": (3, 4), "txt": "Noch mal! ✗ 🎲", "big": 2**70, "neg": -0.5})
    assert store.events(gid) == [{"pos": [3, 4], "txt": "Noch mal! ✗ 🎲", "big": 2**70, "neg": -0.5}]
    assert store.get(gid).meta == {"name": "Jürgen ✓"}


def test_create_game_with_explicit_id_and_duplicate(store):
    assert store.create_game({"a": 1}, title="t", game_id="my-game") == "my-game"
    store.append("my-game", 0, {"x": 1})
    with pytest.raises(StoreError, match="already exists") as excinfo:
        store.create_game({"b": 2}, title="other", game_id="my-game")
    assert not isinstance(excinfo.value, ConflictError)
    info = store.get("my-game")  # the original game is untouched
    assert (info.title, info.meta, info.n_events) == ("t", {"a": 1}, 1)
    for bad in ("", 17, 3.5):
        with pytest.raises(StoreError):
            store.create_game({}, game_id=bad)
    assert len(store.list_games()) == 1


def test_generated_ids_are_short_url_safe_and_unique(store):
    ids = [store.create_game({}) for _ in range(60)]
    assert len(set(ids)) == 60
    for gid in ids:
        assert re.fullmatch(r"[A-Za-z0-9_-]{8}", gid), gid
    assert {g.game_id for g in store.list_games()} == set(ids)


def test_list_games_newest_updated_first(store):
    a = store.create_game({"n": "a"}, title="A")
    b = store.create_game({"n": "b"}, title="B")
    c = store.create_game({"n": "c"}, title="C")
    assert [g.game_id for g in store.list_games()] == [c, b, a]
    store.append(a, 0, {"e": 1})
    assert [g.game_id for g in store.list_games()] == [a, c, b]
    store.update_meta(b, {"n": "b2"})
    listed = store.list_games()
    assert [g.game_id for g in listed] == [b, a, c]
    assert [g.n_events for g in listed] == [0, 1, 0]
    assert listed[0].meta == {"n": "b2"}
    stamps = [g.updated_at for g in listed]
    assert stamps == sorted(stamps, reverse=True) and len(set(stamps)) == 3


def test_update_meta_replaces_and_persists(db):
    with GameStore(db) as s:
        gid = s.create_game({"old": True, "keep": 1}, title="T")
        before = s.get(gid)
        s.update_meta(gid, {"new": [1, 2]})
        after = s.get(gid)
        assert after.meta == {"new": [1, 2]}
        assert after.updated_at > before.updated_at
        assert after.created_at == before.created_at
        assert after.title == "T"
    with GameStore(db) as s:  # durable across reopen
        assert s.get(gid).meta == {"new": [1, 2]}


def test_delete_game_removes_its_events_only(store, db):
    a = store.create_game({}, title="a")
    b = store.create_game({}, title="b")
    for i in range(5):
        store.append(a, i, {"i": i})
        store.append(b, i, {"i": -i})
    store.delete_game(a)
    with pytest.raises(UnknownGameError):
        store.get(a)
    assert raw_seqs(db, a) == []
    assert [g.game_id for g in store.list_games()] == [b]
    assert store.events(b) == [{"i": -i} for i in range(5)]
    with pytest.raises(UnknownGameError):
        store.delete_game(a)
    # The id can be reused afterwards and starts from seq 0 again.
    assert store.create_game({}, game_id=a) == a
    assert store.append(a, 0, {"fresh": True}) == 0


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.events("nope"),
        lambda s: s.n_events("nope"),
        lambda s: s.get("nope"),
        lambda s: s.update_meta("nope", {}),
        lambda s: s.delete_game("nope"),
        lambda s: s.append("nope", 0, {"x": 1}),
    ],
    ids=["events", "n_events", "get", "update_meta", "delete_game", "append"],
)
def test_unknown_game_errors(store, db, call):
    store.create_game({}, game_id="exists")
    with pytest.raises(UnknownGameError) as excinfo:
        call(store)
    err = excinfo.value
    assert isinstance(err, StoreError) and isinstance(err, KeyError)
    assert err.game_id == "nope"
    assert str(err).startswith("unknown game 'nope'") and str(store.path) in str(err)
    assert raw_seqs(db, "nope") == []
    assert [g.game_id for g in store.list_games()] == ["exists"]


def test_reopen_and_close(db):
    with GameStore(db) as s:
        gid = s.create_game({"m": 1}, title="persist")
        for i in range(10):
            s.append(gid, i, {"i": i})
    assert s.closed
    with pytest.raises(StoreError, match="closed"):
        s.events(gid)
    s.close()  # idempotent
    with GameStore(db) as s2:
        assert s2.events(gid) == [{"i": i} for i in range(10)]
        assert s2.get(gid).title == "persist"
        assert s2.append(gid, 10, {"i": 10}) == 10


def test_pragmas_and_schema(sqlite_db):
    db = sqlite_db
    with GameStore(db) as store:
        _pragmas_and_schema(store, db)


def _pragmas_and_schema(store, db):
    conn = store._conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    raw = sqlite3.connect(db)
    try:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # persistent
        gid = store.create_game({})
        store.append(gid, 0, {"x": 1})
        with pytest.raises(sqlite3.IntegrityError):  # the PK forbids a duplicate seq
            with raw:
                raw.execute("INSERT INTO events (game_id, seq, body) VALUES (?, 0, '{}')", (gid,))
    finally:
        raw.close()
    assert store.events(gid) == [{"x": 1}]


def test_default_store_path(monkeypatch, tmp_path):
    target = tmp_path / "deep" / "er" / "x.sqlite3"
    monkeypatch.setenv("NOCHMAL_DB", str(target))
    assert default_store_path() == target
    with GameStore() as s:  # None -> default path, parent directories created
        gid = s.create_game({})
        assert s.path == target
    assert target.is_file()
    with GameStore(target) as s:
        assert s.n_events(gid) == 0
    monkeypatch.delenv("NOCHMAL_DB")
    p = default_store_path()
    assert p.name == "games.sqlite3" and p.parent.name == "nochmal" and p.is_absolute()


# --------------------------------------------------------------------------------------
# input validation


@pytest.mark.parametrize(
    "event",
    [
        {"x": object()},
        {"x": {1, 2}},
        {"x": b"bytes"},
        {1: "int key"},
        {"nested": [{"ok": 1}, {"bad": float("nan")}]},
        {"x": float("inf")},
        {"x": "lone \ud800 surrogate"},
        [1, 2],
        "not a dict",
        None,
    ],
    ids=["object", "set", "bytes", "int-key", "nan", "inf", "surrogate", "list", "str", "none"],
)
def test_non_serialisable_event_is_rejected_and_nothing_written(store, db, event):
    gid = store.create_game({})
    store.append(gid, 0, {"first": True})
    before = store.get(gid)
    with pytest.raises(StoreError) as excinfo:
        store.append(gid, 1, event)
    assert not isinstance(excinfo.value, ConflictError)
    assert store.events(gid) == [{"first": True}]
    assert store.get(gid) == before
    assert raw_seqs(db, gid) == [0]
    assert store.append(gid, 1, {"second": True}) == 1  # the store still works


def test_non_serialisable_meta_and_bad_arguments(store):
    with pytest.raises(StoreError):
        store.create_game({"x": object()})
    with pytest.raises(StoreError):
        store.create_game(["not", "a", "dict"])
    with pytest.raises(StoreError):
        store.create_game({}, title=5)
    assert store.list_games() == []
    gid = store.create_game({"ok": 1})
    with pytest.raises(StoreError):
        store.update_meta(gid, {"x": {1, 2}})
    assert store.get(gid).meta == {"ok": 1}
    for bad_seq in (-1, "0", 0.0, True, None):
        with pytest.raises(StoreError):
            store.append(gid, bad_seq, {"x": 1})
    assert store.n_events(gid) == 0


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=25,
)


def test_property_events_roundtrip_exactly(db):
    with GameStore(db) as s:

        @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(st.lists(st.dictionaries(st.text(max_size=10), json_values, max_size=6), max_size=8))
        def check(events):
            gid = s.create_game({"n": len(events)})
            for i, ev in enumerate(events):
                assert s.append(gid, i, ev) == i
            assert s.events(gid) == events
            assert s.get(gid).n_events == len(events)

        check()


# --------------------------------------------------------------------------------------
# optimistic concurrency


def test_conflict_on_wrong_expected_seq_writes_nothing(store, db):
    gid = store.create_game({})
    store.append(gid, 0, {"i": 0})
    store.append(gid, 1, {"i": 1})
    before = store.get(gid)
    for wrong in (0, 1, 3, 100):
        with pytest.raises(ConflictError) as excinfo:
            store.append(gid, wrong, {"i": "intruder"})
        err = excinfo.value
        assert (err.game_id, err.expected_seq, err.actual_seq) == (gid, wrong, 2)
        assert isinstance(err, StoreError)
        assert gid in str(err) and str(wrong) in str(err)
    assert store.events(gid) == [{"i": 0}, {"i": 1}]
    assert store.get(gid) == before  # not even updated_at changed
    assert raw_seqs(db, gid) == [0, 1]
    with pytest.raises(ConflictError) as excinfo:  # first event of an empty game
        store.append(store.create_game({}), 1, {})
    assert excinfo.value.actual_seq == 0


def test_two_store_objects_deterministic_conflict(db):
    with GameStore(db) as first, GameStore(db) as second:
        gid = first.create_game({"shared": True})
        first.append(gid, 0, {"by": "first"})
        n1, n2 = first.n_events(gid), second.n_events(gid)
        assert n1 == n2 == 1
        assert first.append(gid, n1, {"by": "first", "k": 1}) == 1
        with pytest.raises(ConflictError) as excinfo:
            second.append(gid, n2, {"by": "second"})
        assert (excinfo.value.expected_seq, excinfo.value.actual_seq) == (1, 2)
        # Retry after re-reading succeeds.
        assert second.append(gid, second.n_events(gid), {"by": "second"}) == 2
        assert first.events(gid) == [{"by": "first"}, {"by": "first", "k": 1}, {"by": "second"}]
    assert raw_seqs(db, gid) == [0, 1, 2]


def _retrying_appends(store, gid, name, n, counts):
    rng = random.Random(name)
    ok = conflicts = 0
    while ok < n:
        expected = store.n_events(gid)
        time.sleep(rng.uniform(0, 0.0005))
        try:
            store.append(gid, expected, {"writer": name, "k": ok})
        except ConflictError:
            conflicts += 1
            continue
        ok += 1
    counts[name] = (ok, conflicts)


def _assert_interleaved_log(events, names, per_writer):
    assert len(events) == len(names) * per_writer
    for name in names:
        ks = [e["k"] for e in events if e["writer"] == name]
        assert ks == list(range(per_writer)), name  # each success exactly once, in order


@pytest.mark.parametrize("shared", [True, False], ids=["one-shared-store", "store-per-thread"])
def test_threads_read_then_append_with_retry(db, shared):
    names = [f"t{i}" for i in range(4)]
    per_writer = 40
    with GameStore(db) as main:
        gid = main.create_game({})
        stores = {n: (main if shared else GameStore(db)) for n in names}
        counts: dict = {}
        threads = [threading.Thread(target=_retrying_appends, args=(stores[n], gid, n, per_writer, counts)) for n in names]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        if not shared:
            for s in stores.values():
                s.close()
        assert sorted(counts) == names
        assert sum(ok for ok, _ in counts.values()) == len(names) * per_writer
        _assert_interleaved_log(main.events(gid), names, per_writer)
        assert main.n_events(gid) == len(names) * per_writer
    assert raw_seqs(db, gid) == list(range(len(names) * per_writer))


def test_two_processes_contend_without_lost_or_duplicate_events(db, tmp_path):
    per_writer = 200
    with GameStore(db) as s:
        gid = s.create_game({"race": True})
    go = tmp_path / "go"
    names = ["alpha", "beta"]
    procs = [
        subprocess.Popen(
            [sys.executable, str(CONTENDER), str(db), gid, str(per_writer), name, str(go), "0.001"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in names
    ]
    try:
        for p in procs:  # both have the store open before either starts appending
            assert p.stdout.readline().strip() == "ready", p.stderr.read()
        go.touch()
        results = []
        for p in procs:
            out, err = p.communicate(timeout=60)
            assert p.returncode == 0, err
            results.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    total_ok = sum(r["ok"] for r in results)
    total_conflicts = sum(r["conflicts"] for r in results)
    assert total_ok == 2 * per_writer
    # Every seq acknowledged to exactly one writer, and together they are exactly 0..n-1.
    acked = sorted(seq for r in results for seq in r["seqs"])
    assert acked == list(range(total_ok))
    with GameStore(db) as s:
        events = s.events(gid)
        assert s.n_events(gid) == total_ok
    _assert_interleaved_log(events, names, per_writer)
    for r, name in zip(results, names):
        assert all(events[seq]["writer"] == name for seq in r["seqs"])
    assert raw_seqs(db, gid) == list(range(total_ok))
    # With a think time between read and append and both writers released together,
    # they collide; the deterministic version of this is test_two_store_objects_...
    assert total_conflicts > 0, results


@pytest.mark.parametrize("attempt", range(8))
def test_concurrent_first_open_of_a_fresh_file(tmp_path, store_url, attempt):
    """Several connections racing to create the schema of a brand-new file (or empty
    database) all succeed (once regressed: the schema check read user_version and
    sqlite_master in two separate snapshots and saw a half-created store as 'foreign')."""
    path = store_url if is_pg(store_url) else tmp_path / "fresh" / "new.sqlite3"
    n = 8
    barrier = threading.Barrier(n)
    errors: list = []
    ids: list = []

    def opener():
        try:
            barrier.wait()
            with GameStore(path) as s:
                ids.append(s.create_game({}))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=opener) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    assert len(ids) == n
    with GameStore(path) as s:
        assert sorted(g.game_id for g in s.list_games()) == sorted(ids)


# --------------------------------------------------------------------------------------
# crash safety


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_during_appends_loses_no_acknowledged_event(tmp_path, store_url):
    """A writer SIGKILLed between, or in the middle of, appends: every acknowledged event is
    there, no half event. SQLite: a new file each round (the WAL recovered at reopen);
    PostgreSQL: a new game each round in one database (the server rolls the dead client's open
    transaction back)."""
    rng = random.Random(20241122)
    rounds = 24
    total_acked = 0
    for r in range(rounds):
        path = store_url if is_pg(store_url) else tmp_path / f"crash{r}.sqlite3"
        with GameStore(path) as s:
            gid = s.create_game({"round": r})
        stop_after = rng.randint(0, 45)
        proc = subprocess.Popen(
            [sys.executable, str(WRITER), str(path), gid, "100000"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        lines = []
        try:
            while len(lines) < stop_after:
                line = proc.stdout.readline()
                assert line, f"writer died early: {proc.stderr.read()}"
                lines.append(line)
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
        assert proc.returncode == -signal.SIGKILL
        lines += proc.stdout.read().splitlines()  # acknowledged before the kill landed
        proc.stdout.close()
        proc.stderr.close()
        acked = [int(x) for x in lines]
        assert acked == list(range(len(acked)))
        assert len(acked) >= stop_after
        total_acked += len(acked)

        with GameStore(path) as s:  # reopen recovers the WAL
            events = s.events(gid)  # raises StoreError if any body does not parse
            n = s.n_events(gid)
            assert n == len(events) >= len(acked)
            assert events == [body_for(i) for i in range(n)]
            assert s.get(gid).meta == {"round": r}
        if not is_pg(path):
            assert raw(path, "PRAGMA integrity_check")[0][0] == "ok"
        seqs = raw_seqs(path, gid)
        bodies = [json.loads(row[0]) for row in raw(path, "SELECT body FROM events WHERE game_id=? ORDER BY seq", (gid,))]
        assert seqs == list(range(n))
        assert len(bodies) == n
        with GameStore(path) as s:  # and it stays writable after the crash
            assert s.append(gid, n, {"after": "crash"}) == n
    assert total_acked > rounds  # the kills really happened mid-stream


# --------------------------------------------------------------------------------------
# corrupt and foreign files


def _no_sidecars(path: pathlib.Path) -> bool:
    return not any(pathlib.Path(str(path) + suffix).exists() for suffix in ("-wal", "-shm", "-journal"))


@pytest.mark.parametrize(
    "content",
    [random.Random(1).randbytes(8192), b"hello, I am a text file\n" * 50, b"SQLite format 2\x00" + bytes(4080),
     b"x", b"SQLite format 3\x00"],
    ids=["random-bytes", "text", "almost-header", "one-byte", "header-only"],
)
def test_garbage_file_is_rejected_and_left_untouched(tmp_path, content):
    path = tmp_path / "garbage.sqlite3"
    path.write_bytes(content)
    with pytest.raises(StoreError) as excinfo:
        GameStore(path)
    msg = str(excinfo.value)
    assert str(path) in msg
    assert "not a SQLite database" in msg
    assert path.read_bytes() == content
    assert _no_sidecars(path)


def test_sqlite_header_with_garbage_body_is_store_error(tmp_path):
    path = tmp_path / "badbody.sqlite3"
    content = b"SQLite format 3\x00" + random.Random(2).randbytes(4096 * 3 - 16)
    path.write_bytes(content)
    with pytest.raises(StoreError) as excinfo:
        GameStore(path)
    assert str(path) in str(excinfo.value)
    assert not isinstance(excinfo.value, sqlite3.Error)
    assert path.read_bytes() == content


def test_directory_instead_of_file(tmp_path):
    with pytest.raises(StoreError, match="not a regular file"):
        GameStore(tmp_path)


def test_foreign_schema_is_rejected_and_left_untouched(tmp_path):
    path = tmp_path / "foreign.sqlite3"
    con = sqlite3.connect(path)
    with con:
        con.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        con.execute("INSERT INTO users (name) VALUES ('x')")
    con.close()
    content = path.read_bytes()
    with pytest.raises(StoreError) as excinfo:
        GameStore(path)
    msg = str(excinfo.value)
    assert str(path) in msg and "users" in msg and "not a nochmal game store" in msg
    assert path.read_bytes() == content  # not even switched to WAL
    assert _no_sidecars(path)


def test_wrong_schema_version_is_rejected(sqlite_db):
    db = sqlite_db
    with GameStore(db) as s:
        s.create_game({})
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version = 99")
    con.close()
    with pytest.raises(StoreError) as excinfo:
        GameStore(db)
    msg = str(excinfo.value)
    assert str(db) in msg and "99" in msg and "schema version" in msg


def test_right_version_but_missing_table_or_column(tmp_path):
    path = tmp_path / "half.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE games (game_id TEXT PRIMARY KEY, created_at, updated_at, title, meta)")
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    con.close()
    with pytest.raises(StoreError, match=r"table 'events' is missing") as excinfo:
        GameStore(path)
    assert str(path) in str(excinfo.value)
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE events (game_id, seq INTEGER, PRIMARY KEY (game_id, seq))")
    con.close()
    with pytest.raises(StoreError, match=r"'events' lacks column\(s\) body"):
        GameStore(path)


@pytest.mark.parametrize("bad_body", ["{not json", "", "[1, 2]", "42"], ids=["syntax", "empty", "list", "number"])
def test_tampered_event_body_is_store_error_naming_game_and_seq(store, db, bad_body):
    gid = store.create_game({}, game_id="tampered")
    other = store.create_game({}, game_id="intact")
    for i in range(4):
        store.append(gid, i, {"i": i})
        store.append(other, i, {"i": i})
    raw(db, "UPDATE events SET body = ? WHERE game_id = ? AND seq = 2", (bad_body, gid))
    with pytest.raises(StoreError) as excinfo:
        store.events(gid)
    msg = str(excinfo.value)
    assert "seq 2" in msg and "'tampered'" in msg and "corrupt" in msg
    assert store.events(other) == [{"i": i} for i in range(4)]  # other games unaffected
    assert store.n_events(gid) == 4


def test_missing_seq_in_the_middle_is_reported(store, db):
    gid = store.create_game({}, game_id="holey")
    for i in range(4):
        store.append(gid, i, {"i": i})
    raw(db, "DELETE FROM events WHERE game_id='holey' AND seq = 1")
    with pytest.raises(StoreError, match=r"seq 1 is missing"):
        store.events(gid)


def test_tampered_meta_is_store_error_naming_game(store, db):
    gid = store.create_game({"ok": 1}, game_id="meta-bad")
    raw(db, "UPDATE games SET meta = '{oops' WHERE game_id = 'meta-bad'")
    with pytest.raises(StoreError, match=r"meta of game 'meta-bad' is corrupt"):
        store.get(gid)
    with pytest.raises(StoreError, match=r"meta-bad"):
        store.list_games()


def test_random_page_damage_never_leaks_raw_sqlite_errors(tmp_path):
    """Scribble over parts of a real store file: every operation either works or raises
    StoreError -- never a raw sqlite3 exception."""
    src = tmp_path / "src.sqlite3"
    with GameStore(src) as s:
        gids = [s.create_game({"g": g}) for g in range(3)]
        for i in range(60):
            s.append(gids[i % 3], i // 3, {"i": i, "pad": "z" * (i * 53 % 3000)})
    good = src.read_bytes()  # closed cleanly: WAL checkpointed into the main file
    assert _no_sidecars(src)
    rng = random.Random(7)
    outcomes = {"ok": 0, "store-error": 0}
    for k in range(25):
        damaged = bytearray(good)
        start = rng.randrange(100, len(good) - 64)
        n = min(rng.randint(8, 512), len(good) - start)
        damaged[start : start + n] = rng.randbytes(n)
        assert len(damaged) == len(good) and damaged != good
        path = tmp_path / f"damaged{k}.sqlite3"
        path.write_bytes(damaged)
        try:
            with GameStore(path) as s:
                for info in s.list_games():
                    s.events(info.game_id)
                s.append(gids[0], s.n_events(gids[0]), {"after": "damage"})
            outcomes["ok"] += 1
        except StoreError as exc:
            assert str(path) in str(exc) or "game" in str(exc)
            outcomes["store-error"] += 1
    assert sum(outcomes.values()) == 25
    assert outcomes["store-error"] > 0, outcomes


# --------------------------------------------------------------------------------------
# the store's shared keys (the change feed's token key: nochmal/ui/changes.py)


def test_a_shared_key_is_made_once_and_the_same_for_every_store_object_on_the_store(db, tmp_path):
    with GameStore(db) as one, GameStore(db) as two:
        first = one.shared_key("change feed")
        assert len(first) == 32
        assert two.shared_key("change feed") == first == one.shared_key("change feed")
        assert two.shared_key("another") != first  # each name its own key
    with GameStore(db) as again:  # kept in the store, not in the process
        assert again.shared_key("change feed") == first
    with GameStore(tmp_path / "other.sqlite3") as other:  # another store: another key
        assert other.shared_key("change feed") != first


@pytest.mark.parametrize("attempt", range(3))
def test_processes_starting_together_on_a_fresh_store_agree_on_its_key(tmp_path, store_url, attempt):
    """Three processes that open a store with no key yet and ask for it at the same moment (they
    wait for a start file): one makes it, all three read the same one."""
    path = store_url if store_url.startswith("postgresql") else str(tmp_path / "fresh" / "new.sqlite3")
    go = tmp_path / f"go-{attempt}"
    script = ("import os, sys, time\nfrom nochmal.store.db import GameStore\ns = GameStore(sys.argv[1])\n"
              "while not os.path.exists(sys.argv[2]): time.sleep(0.002)\nprint(s.shared_key('change feed').hex())\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(pathlib.Path(__file__).resolve().parent.parent), os.environ.get("PYTHONPATH", "")]))
    procs = [subprocess.Popen([sys.executable, "-c", script, path, str(go)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for _ in range(3)]
    time.sleep(1.5)  # let them import and open the store
    go.write_text("")
    outs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err for _, err in outs]
    keys = {out.strip() for out, _ in outs}
    assert len(keys) == 1 and len(keys.pop()) == 64
    with GameStore(path) as s:
        assert s.shared_key("change feed").hex() == outs[0][0].strip()


def test_a_key_s_name_is_checked_and_a_damaged_key_is_refused_by_name(store, db):
    for bad in ("", "x" * 65, "a;b", None, 3):
        with pytest.raises(StoreError, match="a key's name must be"):
            store.shared_key(bad)
    store.shared_key("change feed")
    with GameStore(db) as s, s._transaction(write=True) as conn:
        conn.execute("UPDATE nochmal_keys SET value = ? WHERE name = ?", ("not hex", "change feed"))
    with pytest.raises(StoreError, match=r"the key 'change feed' in table nochmal_keys is not 32 hex-coded bytes"):
        store.shared_key("change feed")

