"""The game store on SQLite, the embedded default: one file, WAL, ``synchronous=FULL``.

What differs from the PostgreSQL backend (:mod:`nochmal.store.pgdb`) lives here: opening and
checking the file and its schema (``PRAGMA user_version``), and the transactions (a write
transaction is ``BEGIN IMMEDIATE``: it takes the file's one write lock before it reads, so the
read-check-write inside is serialised against every other connection). The store itself
(:class:`nochmal.store.db.GameStore`) speaks the SQL both backends share, with ``?`` placeholders.

* **Opening and closing never orphan the WAL.**  Only SQLite opens the database file: a plain
  ``open()``/``close()`` of it would drop every POSIX lock the process holds on the file, and the
  next process to close its connection would delete the live ``-wal`` under this one. So a
  second ``GameStore`` on the file in the same process, or closing it, is harmless (the app
  still keeps one store for the server's life: ``nochmal/ui/lifetime.py``).
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import sqlite3
import time
from typing import Any

from nochmal.store.dberrors import StoreError

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

#: The columns of each table, for both backends' schema checks.
EXPECTED_COLUMNS = {
    "games": {"game_id", "created_at", "updated_at", "title", "meta"},
    "events": {"game_id", "seq", "body"},
}


class SqliteBackend:
    """One SQLite file (see the module docstring)."""

    name = "sqlite"
    errors: tuple[type[BaseException], ...] = (sqlite3.Error,)
    integrity_error: type[BaseException] = sqlite3.IntegrityError

    def __init__(self, path: str | os.PathLike):
        self.path = pathlib.Path(path)
        self.where = os.fspath(self.path)

    def fail(self, what: str, exc: BaseException | None = None) -> StoreError:
        detail = f": {exc}" if exc is not None else ""
        return StoreError(f"game store {self.where}: {what}{detail}")

    # ---- opening ---------------------------------------------------------------------

    def open(self) -> sqlite3.Connection:
        path = self.path
        if path.exists():
            if not path.is_file():
                raise self.fail("not a regular file")
            try:
                size = path.stat().st_size
            except OSError as exc:
                raise self.fail("cannot read file", exc) from exc
            if 0 < size < _SMALLEST_DATABASE:
                # SQLite would take a file this short for an empty database and write over it.
                raise self.fail("not a SQLite database (shorter than one database page)")
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
                raise self.fail("cannot create directory", exc) from exc

        try:
            conn = sqlite3.connect(
                os.fspath(path),
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,  # autocommit; we issue BEGIN/COMMIT ourselves
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise self.fail("cannot open database", exc) from exc
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
            self.close_quietly(conn)
            raise
        except sqlite3.DatabaseError as exc:
            self.close_quietly(conn)
            if _NOT_A_DATABASE in str(exc).lower():
                # SQLite read the header and found no database: nothing was written (the read
                # transaction above comes before WAL mode and schema).
                raise self.fail("not a SQLite database (bad file header)") from exc
            raise self.fail("not a usable SQLite database", exc) from exc
        except sqlite3.Error as exc:
            self.close_quietly(conn)
            raise self.fail("not a usable SQLite database", exc) from exc
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
            raise self.fail(
                f"not a nochmal game store (foreign schema with {', '.join(names[:8])}"
                f"{', ...' if len(names) > 8 else ''}; user_version 0)"
            )
        if version != SCHEMA_VERSION:
            raise self.fail(
                f"unsupported schema version {version} (user_version); "
                f"this version of nochmal reads version {SCHEMA_VERSION}"
            )
        for table, expected in EXPECTED_COLUMNS.items():
            columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            check_columns(self, table, expected, columns)
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
        if str(mode).lower() != "wal" and self.where != ":memory:":
            raise self.fail(f"cannot switch to WAL journal mode (got {mode!r})")

    # ---- transactions ----------------------------------------------------------------

    @staticmethod
    def alive(conn: sqlite3.Connection) -> bool:
        return True  # a file does not go away like a server connection

    @staticmethod
    def cursor(conn: sqlite3.Connection) -> sqlite3.Connection:
        """What the store runs its SQL on: the connection itself (``?`` placeholders)."""
        return conn

    @staticmethod
    def begin(conn: sqlite3.Connection, write: bool) -> None:
        conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")

    @staticmethod
    def commit(conn: sqlite3.Connection) -> None:
        conn.execute("COMMIT")

    @staticmethod
    def in_transaction(conn: sqlite3.Connection) -> bool:
        return conn.in_transaction

    @staticmethod
    def rollback_quietly(conn: sqlite3.Connection) -> None:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")

    @classmethod
    def close_quietly(cls, conn: sqlite3.Connection) -> None:
        cls.rollback_quietly(conn)
        with contextlib.suppress(sqlite3.Error):
            conn.close()


def check_columns(backend: Any, table: str, expected: set[str], columns: set[str]) -> None:
    """StoreError (through ``backend.fail``) if ``table`` is missing or lacks expected columns."""
    if not columns:
        raise backend.fail(f"schema mismatch: table {table!r} is missing")
    missing = expected - columns
    if missing:
        raise backend.fail(f"schema mismatch: table {table!r} lacks column(s) {', '.join(sorted(missing))}")


__all__ = ["BUSY_TIMEOUT_MS", "EXPECTED_COLUMNS", "SCHEMA_VERSION", "SqliteBackend", "check_columns"]
