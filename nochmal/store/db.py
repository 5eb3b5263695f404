"""Embedded game store: an append-only event log of games on SQLite.

The store only persists JSON-serialisable event dicts; turning events into game state is
the job of the layer above.  Guarantees:

* **Atomic, durable appends.**  Every :meth:`GameStore.append` is one ``BEGIN IMMEDIATE ...
  COMMIT`` transaction on a WAL database with ``synchronous=FULL``: when it returns, the event
  is on disk; if the process dies at any point, the event is either fully there or not at all.
* **Optimistic concurrency.**  ``append(game_id, expected_seq, event)`` only succeeds if the
  game has exactly ``expected_seq`` events; otherwise :class:`ConflictError` is raised and
  nothing is written.  Sequence numbers are therefore contiguous ``0..n-1``, and the primary
  key ``(game_id, seq)`` makes a duplicate seq impossible even with racing writers.
* **No raw sqlite3 errors.**  Every database problem (not a SQLite file, foreign schema,
  corrupt row, ...) surfaces as :class:`StoreError` with the path and what is wrong.

One :class:`GameStore` owns one connection guarded by a lock, so it may be shared between
threads (Streamlit reruns).  Separate processes use separate ``GameStore`` objects on the
same file; SQLite's locking serialises their writes.

* **Opening and closing never orphan the WAL.**  Only SQLite opens the database file: a plain
  ``open()``/``close()`` of it would drop every POSIX lock the process holds on the file, and the
  next process to close its connection would delete the live ``-wal`` under this one. So a
  second ``GameStore`` on the file in the same process, or closing it, is harmless (the app
  still keeps one store for the server's life: ``nochmal/ui/lifetime.py``).

Events come back from :meth:`GameStore.events` exactly as ``json.loads`` parses them: tuples
are stored as lists.  Dict keys must be strings and floats must be finite, so that every
stored event reads back equal to what was written (modulo tuple -> list).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import math
import os
import pathlib
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "SCHEMA_VERSION",
    "ConflictError",
    "GameInfo",
    "GameStore",
    "MetaConflictError",
    "StoreError",
    "UnknownGameError",
    "default_store_path",
]

#: Stored in ``PRAGMA user_version``; bump (and migrate) when the schema changes.
SCHEMA_VERSION = 1

#: Milliseconds a writer waits for another connection's lock before giving up.
BUSY_TIMEOUT_MS = 5000

#: What SQLite says when the file's header is not a database's (sqlite3.DatabaseError).
_NOT_A_DATABASE = "file is not a database"
#: Bytes of the smallest SQLite database file (one page of the smallest page size).
_SMALLEST_DATABASE = 512

_SCHEMA = """
CREATE TABLE games (
    game_id    TEXT PRIMARY KEY NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    title      TEXT NOT NULL DEFAULT '',
    meta       TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX games_by_updated ON games(updated_at);
CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games(game_id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL CHECK (seq >= 0),
    body    TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
"""

_EXPECTED_COLUMNS = {
    "games": {"game_id", "created_at", "updated_at", "title", "meta"},
    "events": {"game_id", "seq", "body"},
}


# --------------------------------------------------------------------------------------
# errors


class StoreError(Exception):
    """Anything that went wrong in the store: bad file, bad schema, corrupt row, bad input."""


class ConflictError(StoreError):
    """``append`` was called with an ``expected_seq`` that is not the game's event count."""

    def __init__(self, game_id: str, expected_seq: int, actual_seq: int):
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq
        super().__init__(
            f"conflict on game {game_id!r}: expected to write seq {expected_seq}, "
            f"but the game has {actual_seq} event(s) (next seq is {actual_seq})"
        )

    def __reduce__(self):  # keep picklable (multiprocessing) despite the custom __init__
        return (type(self), (self.game_id, self.expected_seq, self.actual_seq))


class MetaConflictError(StoreError):
    """``update_meta(..., expected=...)`` found the stored meta changed since it was read."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        super().__init__(f"conflict on game {game_id!r}: its meta changed since it was read")

    def __reduce__(self):
        return (type(self), (self.game_id,))


class UnknownGameError(StoreError, KeyError):
    """No game with this id exists in the store."""

    def __init__(self, game_id: str, path: str | os.PathLike | None = None):
        self.game_id = game_id
        self.path = path
        where = f" in {os.fspath(path)}" if path is not None else ""
        super().__init__(f"unknown game {game_id!r}{where}")

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""

    def __reduce__(self):
        return (type(self), (self.game_id, self.path))


# --------------------------------------------------------------------------------------
# helpers


def default_store_path() -> pathlib.Path:
    """``$NOCHMAL_DB`` if set, else ``<user data dir>/nochmal/games.sqlite3``."""
    env = os.environ.get("NOCHMAL_DB")
    if env:
        return pathlib.Path(env).expanduser()
    try:
        import platformdirs
    except ImportError:  # dependency not installed yet: mimic platformdirs on Linux
        xdg = os.environ.get("XDG_DATA_HOME", "").strip()
        base = pathlib.Path(xdg) if xdg and os.path.isabs(xdg) else pathlib.Path.home() / ".local" / "share"
        data_dir = base / "nochmal"
    else:
        data_dir = pathlib.Path(platformdirs.user_data_dir("nochmal"))
    return data_dir / "games.sqlite3"


def _check_json(value: Any, where: str, depth: int = 0) -> None:
    """Raise StoreError unless ``value`` is plain JSON that reads back equal (tuples -> lists)."""
    if depth > 200:
        raise StoreError(f"{where}: nested too deeply")
    if value is None or isinstance(value, (str, bool, int)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise StoreError(f"{where}: {value!r} is not valid JSON")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise StoreError(f"{where}: dict key {key!r} is not a string")
            _check_json(item, f"{where}[{key!r}]", depth + 1)
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_json(item, f"{where}[{i}]", depth + 1)
        return
    raise StoreError(f"{where}: {type(value).__name__} value {value!r:.80} is not JSON-serialisable")


def _dump_object(value: Any, what: str) -> str:
    if not isinstance(value, dict):
        raise StoreError(f"{what} must be a dict, got {type(value).__name__}")
    _check_json(value, what)
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:  # belt and braces
        raise StoreError(f"{what} is not JSON-serialisable: {exc}") from exc


def _load_object(text: Any, what: str) -> dict:
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise StoreError(f"{what} is corrupt: not valid JSON ({exc})") from exc
    if not isinstance(value, dict):
        raise StoreError(f"{what} is corrupt: expected a JSON object, got {type(value).__name__}")
    return value


def _new_game_id() -> str:
    """8 url-safe characters that never start with '-' (command lines would take it for an option)."""
    gid = secrets.token_urlsafe(6)
    while gid[0] in "-_":
        gid = secrets.token_urlsafe(6)
    return gid


def _utc_stamp() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="microseconds")


def _bump(stamp: str) -> str:
    """The stamp one microsecond after ``stamp`` (same fixed-width format)."""
    t = _dt.datetime.fromisoformat(stamp) + _dt.timedelta(microseconds=1)
    return t.astimezone(_dt.timezone.utc).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class GameInfo:
    game_id: str
    created_at: str
    updated_at: str
    title: str
    meta: dict
    n_events: int


# --------------------------------------------------------------------------------------
# the store


class GameStore:
    """Append-only event store for games in one SQLite file (see module docstring)."""

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = pathlib.Path(path) if path is not None else default_store_path()
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._conn = self._open()

    # ---- opening ---------------------------------------------------------------------

    def _fail(self, what: str, exc: BaseException | None = None) -> StoreError:
        detail = f": {exc}" if exc is not None else ""
        return StoreError(f"game store {os.fspath(self.path)}: {what}{detail}")

    def _open(self) -> sqlite3.Connection:
        path = self.path
        if path.exists():
            if not path.is_file():
                raise self._fail("not a regular file")
            try:
                size = path.stat().st_size
            except OSError as exc:
                raise self._fail("cannot read file", exc) from exc
            if 0 < size < _SMALLEST_DATABASE:
                # SQLite would take a file this short for an empty database and write over it.
                raise self._fail("not a SQLite database (shorter than one database page)")
            # The file's header is read by SQLite below, never by a plain open() here: closing
            # any descriptor of the file drops every POSIX lock this process holds on it, those
            # of the server's live connection included, and the next process to close its
            # connection would then checkpoint and delete the WAL under the server (SQLite's
            # "How To Corrupt An SQLite Database File", section 2.2). SQLite's own opens of
            # the same file in one process share their locks and keep them.
        else:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise self._fail("cannot create directory", exc) from exc

        try:
            conn = sqlite3.connect(
                os.fspath(path),
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,  # autocommit; we issue BEGIN/COMMIT ourselves
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise self._fail("cannot open database", exc) from exc
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # Read-only inspection first: a foreign database is rejected before we change
            # anything about it (journal mode, schema).
            # One read transaction, so user_version and sqlite_master form a consistent
            # snapshot even while another process is creating the schema.
            conn.execute("BEGIN")
            fresh = self._inspect_schema(conn)
            conn.execute("COMMIT")
            self._enable_wal(conn)
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            if fresh:
                conn.execute("BEGIN IMMEDIATE")
                # Another process may have created the schema since we looked.
                if self._inspect_schema(conn):
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                conn.execute("COMMIT")
        except StoreError:
            self._close_quietly(conn)
            raise
        except sqlite3.DatabaseError as exc:
            self._close_quietly(conn)
            if _NOT_A_DATABASE in str(exc).lower():
                # SQLite read the header and found no database: nothing was written (the read
                # transaction above comes before WAL mode and schema).
                raise self._fail("not a SQLite database (bad file header)") from exc
            raise self._fail("not a usable SQLite database", exc) from exc
        except sqlite3.Error as exc:
            self._close_quietly(conn)
            raise self._fail("not a usable SQLite database", exc) from exc
        return conn

    def _inspect_schema(self, conn: sqlite3.Connection) -> bool:
        """True if the database is empty (needs the schema); StoreError if it is not ours."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        names = sorted(
            row[0]
            for row in conn.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        )
        if version == 0:
            if not names:
                return True
            raise self._fail(
                f"not a nochmal game store (foreign schema with {', '.join(names[:8])}"
                f"{', ...' if len(names) > 8 else ''}; user_version 0)"
            )
        if version != SCHEMA_VERSION:
            raise self._fail(
                f"unsupported schema version {version} (user_version); "
                f"this version of nochmal reads version {SCHEMA_VERSION}"
            )
        for table, expected in _EXPECTED_COLUMNS.items():
            columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            if not columns:
                raise self._fail(f"schema mismatch: table {table!r} is missing")
            missing = expected - columns
            if missing:
                raise self._fail(
                    f"schema mismatch: table {table!r} lacks column(s) {', '.join(sorted(missing))}"
                )
        return False

    def _enable_wal(self, conn: sqlite3.Connection) -> None:
        # Switching a brand-new file to WAL needs an exclusive lock; if another process is
        # doing the same at this moment SQLite may answer "locked" without waiting.
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                break
            except sqlite3.OperationalError as exc:
                msg = str(exc).lower()
                if ("locked" in msg or "busy" in msg) and time.monotonic() < deadline:
                    time.sleep(0.01)
                    continue
                raise
        if str(mode).lower() != "wal" and os.fspath(self.path) != ":memory:":
            raise self._fail(f"cannot switch to WAL journal mode (got {mode!r})")

    @staticmethod
    def _close_quietly(conn: sqlite3.Connection) -> None:
        with contextlib.suppress(sqlite3.Error):
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        with contextlib.suppress(sqlite3.Error):
            conn.close()

    # ---- transactions --------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self, write: bool) -> Iterator[sqlite3.Connection]:
        """Run the body in one transaction under the lock; wrap sqlite3 errors in StoreError.

        Write transactions use BEGIN IMMEDIATE so the read-check-write sequence inside is
        serialised against every other connection to the file.
        """
        with self._lock:
            conn = self._conn
            if conn is None:
                raise StoreError(f"game store {os.fspath(self.path)}: store is closed")
            try:
                conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield conn
                except BaseException:
                    if conn.in_transaction:
                        with contextlib.suppress(sqlite3.Error):
                            conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise self._fail("database error", exc) from exc

    def _require_game(self, conn: sqlite3.Connection, game_id: str) -> None:
        if conn.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone() is None:
            raise UnknownGameError(game_id, self.path)

    @staticmethod
    def _next_seq(conn: sqlite3.Connection, game_id: str) -> int:
        row = conn.execute(
            "SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE game_id = ?", (game_id,)
        ).fetchone()
        return int(row[0])

    @staticmethod
    def _stamp(conn: sqlite3.Connection) -> str:
        """Current UTC time, but strictly after every stored updated_at.

        Keeps ``list_games`` order equal to modification order even with a coarse or
        backwards-stepping clock (called inside a write transaction, so it is serialised).
        """
        now = _utc_stamp()
        (latest,) = conn.execute("SELECT MAX(updated_at) FROM games").fetchone()
        if latest is not None and now <= latest:
            try:
                now = _bump(latest)
            except ValueError:  # somebody stored a non-ISO stamp; don't fail the write
                pass
        return now

    def _game_info(self, row: tuple) -> GameInfo:
        game_id, created_at, updated_at, title, meta, n_events = row
        return GameInfo(
            game_id=game_id,
            created_at=created_at,
            updated_at=updated_at,
            title=title,
            meta=_load_object(meta, f"game store {os.fspath(self.path)}: meta of game {game_id!r}"),
            n_events=int(n_events),
        )

    _INFO_SQL = (
        "SELECT g.game_id, g.created_at, g.updated_at, g.title, g.meta, "
        "(SELECT COALESCE(MAX(e.seq) + 1, 0) FROM events e WHERE e.game_id = g.game_id) "
        "FROM games g"
    )

    @staticmethod
    def _check_game_id(game_id: Any) -> str:
        if not isinstance(game_id, str) or not game_id:
            raise StoreError(f"game_id must be a non-empty string, got {game_id!r}")
        return game_id

    # ---- public API ------------------------------------------------------------------

    def create_game(self, meta: dict, title: str = "", game_id: str | None = None,
                    events: list[dict] | tuple[dict, ...] = ()) -> str:
        """Create a game and return its id (random, url-safe unless given).

        ``events`` (seq 0, 1, ...) are written in the same transaction as the game: a process
        killed half-way leaves either the whole game or nothing (``games import``,
        ``play --save``)."""
        meta_json = _dump_object(meta, "meta")
        bodies = [_dump_object(ev, f"event {i}") for i, ev in enumerate(events)]
        if not isinstance(title, str):
            raise StoreError(f"title must be a string, got {type(title).__name__}")
        explicit = game_id is not None
        if explicit:
            self._check_game_id(game_id)
        for _ in range(20):
            gid = game_id if explicit else _new_game_id()
            with self._transaction(write=True) as conn:
                if conn.execute("SELECT 1 FROM games WHERE game_id = ?", (gid,)).fetchone():
                    if explicit:
                        raise StoreError(
                            f"game store {os.fspath(self.path)}: game {gid!r} already exists"
                        )
                    continue  # random collision: draw another id
                stamp = self._stamp(conn)
                conn.execute(
                    "INSERT INTO games (game_id, created_at, updated_at, title, meta) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (gid, stamp, stamp, title, meta_json),
                )
                conn.executemany(
                    "INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
                    [(gid, seq, body) for seq, body in enumerate(bodies)],
                )
                return gid
        raise StoreError(f"game store {os.fspath(self.path)}: could not draw an unused game id")

    def append(self, game_id: str, expected_seq: int, event: dict) -> int:
        """Append ``event`` as seq ``expected_seq``; durable when this returns.

        Raises ConflictError (writing nothing) unless the game has exactly ``expected_seq``
        events; UnknownGameError if the game does not exist; StoreError if ``event`` is not
        a JSON-serialisable dict.
        """
        if isinstance(expected_seq, bool) or not isinstance(expected_seq, int) or expected_seq < 0:
            raise StoreError(f"expected_seq must be a non-negative int, got {expected_seq!r}")
        body = _dump_object(event, "event")
        with self._transaction(write=True) as conn:
            self._require_game(conn, game_id)
            actual = self._next_seq(conn, game_id)
            if actual != expected_seq:
                raise ConflictError(game_id, expected_seq, actual)
            try:
                conn.execute(
                    "INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
                    (game_id, expected_seq, body),
                )
            except sqlite3.IntegrityError as exc:  # cannot happen under BEGIN IMMEDIATE
                raise ConflictError(game_id, expected_seq, self._next_seq(conn, game_id)) from exc
            conn.execute(
                "UPDATE games SET updated_at = ? WHERE game_id = ?", (self._stamp(conn), game_id)
            )
        return expected_seq

    def events(self, game_id: str) -> list[dict]:
        """All events of the game, in seq order."""
        with self._transaction(write=False) as conn:
            self._require_game(conn, game_id)
            rows = conn.execute(
                "SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        out = []
        for expected, (seq, body) in enumerate(rows):
            where = f"game store {os.fspath(self.path)}: event seq {seq} of game {game_id!r}"
            if seq != expected:
                raise StoreError(f"{where} is out of place: seq {expected} is missing")
            out.append(_load_object(body, where))
        return out

    def n_events(self, game_id: str) -> int:
        """Number of stored events, i.e. the seq the next event will get."""
        with self._transaction(write=False) as conn:
            self._require_game(conn, game_id)
            return self._next_seq(conn, game_id)

    def get(self, game_id: str) -> GameInfo:
        with self._transaction(write=False) as conn:
            row = conn.execute(self._INFO_SQL + " WHERE g.game_id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGameError(game_id, self.path)
        return self._game_info(row)

    def list_games(self) -> list[GameInfo]:
        """All games, most recently updated first."""
        with self._transaction(write=False) as conn:
            rows = conn.execute(
                self._INFO_SQL + " ORDER BY g.updated_at DESC, g.created_at DESC, g.game_id"
            ).fetchall()
        return [self._game_info(row) for row in rows]

    def update_meta(self, game_id: str, meta: dict, expected: dict | None = None) -> None:
        """Replace the game's meta dict.

        With ``expected`` this is a compare-and-set: the meta is replaced only if the stored
        meta still equals ``expected`` (checked inside the write transaction); otherwise
        :class:`MetaConflictError` is raised and nothing is written."""
        meta_json = _dump_object(meta, "meta")
        with self._transaction(write=True) as conn:
            self._require_game(conn, game_id)
            if expected is not None and self._read_meta(conn, game_id) != expected:
                raise MetaConflictError(game_id)
            conn.execute(
                "UPDATE games SET meta = ?, updated_at = ? WHERE game_id = ?",
                (meta_json, self._stamp(conn), game_id),
            )

    def change_meta(self, game_id: str, change: Callable[[dict], dict]) -> dict:
        """Read, change and write the game's meta in one ``BEGIN IMMEDIATE`` transaction and
        return the meta written. ``change`` gets a copy of the meta as stored at that moment
        (no other writer can come in between) and returns the new meta; an exception it raises
        writes nothing and propagates (a claim that finds its seat taken, for example)."""
        with self._transaction(write=True) as conn:
            self._require_game(conn, game_id)
            new = change(self._read_meta(conn, game_id))
            meta_json = _dump_object(new, "meta")
            conn.execute(
                "UPDATE games SET meta = ?, updated_at = ? WHERE game_id = ?",
                (meta_json, self._stamp(conn), game_id),
            )
        return _load_object(meta_json, "meta")

    def _read_meta(self, conn: sqlite3.Connection, game_id: str) -> dict:
        (text,) = conn.execute("SELECT meta FROM games WHERE game_id = ?", (game_id,)).fetchone()
        return _load_object(text, f"game store {os.fspath(self.path)}: meta of game {game_id!r}")

    def delete_game(self, game_id: str) -> None:
        """Delete the game and all its events."""
        with self._transaction(write=True) as conn:
            self._require_game(conn, game_id)
            conn.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
            conn.execute("DELETE FROM games WHERE game_id = ?", (game_id,))

    def purge_idle(self, days: float, now: _dt.datetime | None = None) -> list[str]:
        """Delete every game (finished or abandoned alike) with no event and no change for ``days``
        days, in one transaction; returns their ids. A game's ``updated_at`` moves with every event
        and every change of its meta (a claim, a seat seen), so a game with any of those within the
        last ``days`` days is never touched."""
        if isinstance(days, bool) or not isinstance(days, (int, float)) or not days > 0:
            raise StoreError(f"days must be a number above 0, got {days!r}")
        now = now or _dt.datetime.now(_dt.timezone.utc)
        cutoff = (now - _dt.timedelta(days=days)).astimezone(_dt.timezone.utc).isoformat(timespec="microseconds")
        with self._transaction(write=True) as conn:
            ids = [gid for (gid,) in conn.execute(
                "SELECT game_id FROM games WHERE updated_at < ? ORDER BY game_id", (cutoff,)).fetchall()]
            conn.execute("DELETE FROM events WHERE game_id IN (SELECT game_id FROM games WHERE updated_at < ?)",
                         (cutoff,))
            conn.execute("DELETE FROM games WHERE updated_at < ?", (cutoff,))
        return ids

    def count_games(self, changed_since: _dt.datetime | None = None) -> int:
        """How many games are stored (with ``changed_since``: only those with an event or a change since then)."""
        with self._transaction(write=False) as conn:
            if changed_since is None:
                return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
            since = changed_since.astimezone(_dt.timezone.utc).isoformat(timespec="microseconds")
            return int(conn.execute("SELECT COUNT(*) FROM games WHERE updated_at >= ?", (since,)).fetchone()[0])

    def close(self) -> None:
        """Close the connection (idempotent); later calls raise StoreError."""
        with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                self._close_quietly(conn)

    @property
    def closed(self) -> bool:
        return self._conn is None

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else "open"
        return f"GameStore({os.fspath(self.path)!r}, {state})"
