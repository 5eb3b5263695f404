"""The game store on a PostgreSQL server (``NOCHMAL_DB=postgresql://user@host/db``), psycopg 3.

The same tables as on SQLite (:mod:`nochmal.store.sqlitedb`), the same guarantees, reached so:

* **Writes are serialised like SQLite's ``BEGIN IMMEDIATE``.**  Every write transaction first
  takes one transaction-scoped advisory lock (``pg_advisory_xact_lock``), held until COMMIT or
  ROLLBACK: the read-check-write inside (the optimistic seq of an append, a meta compare-and-set,
  a seat claim) runs with no other writer of the store in between, in every process and on every
  host. The transactions are READ COMMITTED, so every statement after the lock sees all that the
  writers before committed. Reads are one ``REPEATABLE READ READ ONLY`` snapshot (never a
  serialisation failure).
* **Durable when a call returns**: ``synchronous_commit`` is set ``on`` for the connection,
  whatever the server's default.
* **The same bytes**: bodies and meta are TEXT (the JSON text as written: ``jsonb`` would reorder
  keys and refuses ``\\u0000``), stamps are the store's ISO TEXT, and the text columns that are
  compared or ordered use the ``"C"`` collation, so order is by bytes as in SQLite.
* **No raw psycopg errors**: a bad URL, an unreachable server, a foreign schema, a lost
  connection all surface as :class:`~nochmal.store.dberrors.StoreError` naming the server (its
  URL without the password) and ``NOCHMAL_DB`` where the URL came from there. A connection the
  server dropped is opened again at the next call.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from nochmal.store.dberrors import StoreError
from nochmal.store.sqlitedb import BUSY_TIMEOUT_MS, EXPECTED_COLUMNS, SCHEMA_VERSION, check_columns

#: The URL schemes that select this backend (anything else is an SQLite path).
SCHEMES = ("postgresql://", "postgres://")

#: The advisory lock every write transaction holds ("nochmal" in ASCII, as a bigint).
WRITE_LOCK = 0x6E6F63686D616C

#: Seconds to wait for the server to answer a new connection.
CONNECT_TIMEOUT = 5

_SCHEMA = (
    "CREATE TABLE nochmal_store (schema_version INTEGER NOT NULL)",
    f"INSERT INTO nochmal_store (schema_version) VALUES ({SCHEMA_VERSION})",
    """CREATE TABLE games (
        game_id    TEXT COLLATE "C" PRIMARY KEY NOT NULL,
        created_at TEXT COLLATE "C" NOT NULL,
        updated_at TEXT COLLATE "C" NOT NULL,
        title      TEXT NOT NULL DEFAULT '',
        meta       TEXT NOT NULL DEFAULT '{}'
    )""",
    "CREATE INDEX games_by_updated ON games(updated_at)",
    """CREATE TABLE events (
        game_id TEXT COLLATE "C" NOT NULL REFERENCES games(game_id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL CHECK (seq >= 0),
        body    TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
)


def is_server_url(location: Any) -> bool:
    """True if ``location`` (a ``--db`` or ``$NOCHMAL_DB`` value) names a PostgreSQL server."""
    return isinstance(location, str) and location.strip().lower().startswith(SCHEMES)


class _Cursor:
    """The store's SQL (``?`` placeholders) on a psycopg connection (``%s``)."""

    def __init__(self, conn: Any):
        self._conn = conn

    def execute(self, sql: str, params: tuple = ()) -> Any:
        return self._conn.execute(sql.replace("?", "%s"), params)

    def executemany(self, sql: str, rows: list[tuple]) -> None:
        if rows:
            with self._conn.cursor() as cur:
                cur.executemany(sql.replace("?", "%s"), rows)


class PostgresBackend:
    """One database on a PostgreSQL server (see the module docstring)."""

    name = "postgresql"

    def __init__(self, url: str):
        self.url = url.strip()
        self._from_env = os.environ.get("NOCHMAL_DB", "").strip() == self.url
        try:
            import psycopg
            from psycopg import conninfo
        except ImportError as exc:
            raise StoreError(
                f"game store {self._named()}: PostgreSQL needs psycopg 3 "
                "(pip install 'nochmal[postgres]')"
            ) from exc
        self._psycopg = psycopg
        self.errors: tuple[type[BaseException], ...] = (psycopg.Error,)
        self.integrity_error: type[BaseException] = psycopg.IntegrityError
        try:
            parts = conninfo.conninfo_to_dict(self.url)
        except psycopg.Error as exc:
            raise StoreError(
                f"game store {self._named()}: not a usable PostgreSQL URL "
                "(postgresql://user[:password]@host[:port]/database)"
            ) from exc
        self.where = self._redacted(parts)
        if not parts.get("dbname"):
            raise self.fail("the URL names no database (postgresql://user@host/DATABASE)")

    def _named(self) -> str:
        """How an error names the store before the URL is parsed: never its text (a password)."""
        return "$NOCHMAL_DB (a postgresql:// URL)" if self._from_env else "(the postgresql:// URL given)"

    @staticmethod
    def _redacted(parts: dict) -> str:
        user = f"{parts['user']}@" if parts.get("user") else ""
        host = str(parts.get("host") or "")
        port = f":{parts['port']}" if parts.get("port") else ""
        return f"postgresql://{user}{host}{port}/{parts.get('dbname', '')}"

    def fail(self, what: str, exc: BaseException | None = None) -> StoreError:
        detail = f": {' '.join(str(exc).split())}" if exc is not None else ""  # libpq's lines: one
        env = " ($NOCHMAL_DB)" if self._from_env else ""
        return StoreError(f"game store {self.where}{env}: {what}{detail}")

    # ---- opening ---------------------------------------------------------------------

    def open(self) -> Any:
        psycopg = self._psycopg
        try:
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        except psycopg.Error as exc:
            raise self.fail("cannot connect to the PostgreSQL server", exc) from exc
        except (ValueError, OSError) as exc:  # a URL psycopg parses but libpq cannot use
            raise self.fail("cannot connect to the PostgreSQL server", exc) from exc
        try:
            conn.execute("SET synchronous_commit = on")
            conn.execute(f"SET lock_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("BEGIN")
            # creating the schema is a write like any other: one process at a time
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            if self._inspect_schema(conn):
                for statement in _SCHEMA:
                    conn.execute(statement)
            conn.execute("COMMIT")
        except StoreError:
            self.close_quietly(conn)
            raise
        except psycopg.Error as exc:
            self.close_quietly(conn)
            raise self.fail("not a usable PostgreSQL database", exc) from exc
        return conn

    def _inspect_schema(self, conn: Any) -> bool:
        """True if the database's schema is empty (needs our tables); StoreError if it is not ours."""
        names = sorted(row[0] for row in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"))
        if not names:
            return True
        if "nochmal_store" not in names:
            raise self.fail(
                f"not a nochmal game store (foreign schema with {', '.join(names[:8])}"
                f"{', ...' if len(names) > 8 else ''}; no table nochmal_store)"
            )
        versions = [row[0] for row in conn.execute("SELECT schema_version FROM nochmal_store")]
        if versions != [SCHEMA_VERSION]:
            raise self.fail(
                f"unsupported schema version {versions} (table nochmal_store); "
                f"this version of nochmal reads version {SCHEMA_VERSION}"
            )
        for table, expected in EXPECTED_COLUMNS.items():
            columns = {row[0] for row in conn.execute(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = %s", (table,))}
            check_columns(self, table, expected, columns)
        return False

    # ---- transactions ----------------------------------------------------------------

    @staticmethod
    def alive(conn: Any) -> bool:
        return not (conn.closed or conn.broken)

    @staticmethod
    def cursor(conn: Any) -> _Cursor:
        return _Cursor(conn)

    @staticmethod
    def begin(conn: Any, write: bool) -> None:
        if write:
            conn.execute("BEGIN")
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
        else:
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    @staticmethod
    def commit(conn: Any) -> None:
        conn.execute("COMMIT")

    def in_transaction(self, conn: Any) -> bool:
        if conn.closed:
            return False
        return conn.info.transaction_status != self._psycopg.pq.TransactionStatus.IDLE

    def rollback_quietly(self, conn: Any) -> None:
        with contextlib.suppress(self._psycopg.Error):
            if self.in_transaction(conn):
                conn.execute("ROLLBACK")

    def close_quietly(self, conn: Any) -> None:
        self.rollback_quietly(conn)
        with contextlib.suppress(self._psycopg.Error):
            conn.close()


__all__ = ["PostgresBackend", "SCHEMES", "WRITE_LOCK", "is_server_url"]
