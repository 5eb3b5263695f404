"""The game store: an append-only event log of games, on SQLite (embedded, the default) or
on a PostgreSQL server (``NOCHMAL_DB=postgresql://user@host/db``).

The store only persists JSON-serialisable event dicts; turning events into game state is
the job of the layer above.  Guarantees, the same on both backends:

* **Atomic, durable appends.**  Every :meth:`GameStore.append` is one write transaction
  (SQLite: ``BEGIN IMMEDIATE ... COMMIT`` on a WAL database with ``synchronous=FULL``;
  PostgreSQL: a transaction holding the store's write lock, ``synchronous_commit=on``): when it
  returns, the event is on disk; if the process dies at any point, the event is either fully
  there or not at all.
* **Optimistic concurrency.**  ``append(game_id, expected_seq, event)`` only succeeds if the
  game has exactly ``expected_seq`` events; otherwise :class:`ConflictError` is raised and
  nothing is written.  Sequence numbers are therefore contiguous ``0..n-1``, and the primary
  key ``(game_id, seq)`` makes a duplicate seq impossible even with racing writers.
* **No raw database errors.**  Every database problem (not a SQLite file, unreachable server,
  foreign schema, corrupt row, ...) surfaces as :class:`StoreError` with the path (or the
  server's URL without its password) and what is wrong.

One :class:`GameStore` owns one connection guarded by a lock, so it may be shared between
threads (Streamlit reruns).  Separate processes use separate ``GameStore`` objects on the
same file or database; the backend serialises their writes.

What differs between the backends (opening, the schema check, how a write transaction takes
its lock, placeholders) lives in :mod:`nochmal.store.sqlitedb` and :mod:`nochmal.store.pgdb`;
this module speaks the SQL they share.

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
import re
import secrets
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from nochmal.store.dberrors import ConflictError, MetaConflictError, StoreError, UnknownGameError
from nochmal.store.pgdb import PostgresBackend, is_server_url
from nochmal.store.sqlitedb import BUSY_TIMEOUT_MS, SCHEMA_VERSION, SqliteBackend

__all__ = [
    "BUSY_TIMEOUT_MS",
    "SCHEMA_VERSION",
    "ConflictError",
    "GameInfo",
    "GameStore",
    "MetaConflictError",
    "StoreError",
    "UnknownGameError",
    "default_store_location",
    "default_store_path",
    "is_server_url",
]

# --------------------------------------------------------------------------------------
# helpers

_KEY_NAME = re.compile(r"^[A-Za-z0-9_ -]{1,64}$")


def default_store_path() -> pathlib.Path:
    """``$NOCHMAL_DB`` if set, else ``<user data dir>/nochmal/games.sqlite3``. (A server URL in
    ``$NOCHMAL_DB`` is not a path: :func:`default_store_location` gives it as it is.)"""
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


def default_store_location() -> str | pathlib.Path:
    """Where the store is when nobody says: a PostgreSQL URL in ``$NOCHMAL_DB`` as it is, else
    :func:`default_store_path`."""
    env = os.environ.get("NOCHMAL_DB", "")
    return env.strip() if is_server_url(env) else default_store_path()


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
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:  # belt and braces
        raise StoreError(f"{what} is not JSON-serialisable: {exc}") from exc
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: neither database stores it
        raise StoreError(f"{what} holds a character that is not Unicode text "
                         f"({text[exc.start:exc.end]!r} at {exc.start})") from None
    return text


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
    """Append-only event store for games in one SQLite file or PostgreSQL database (see the
    module docstring). ``path``: a file, a ``postgresql://`` URL, or None for
    :func:`default_store_location`. ``path`` afterwards: the file's path, or the URL without its
    password (for messages)."""

    def __init__(self, path: str | os.PathLike | None = None):
        location = path if path is not None else default_store_location()
        if is_server_url(location):
            self._backend: Any = PostgresBackend(str(location))
            self.path: Any = self._backend.where
        else:
            self._backend = SqliteBackend(location)
            self.path = self._backend.path
        self._lock = threading.RLock()
        self._conn: Any = None
        self._conn = self._backend.open()

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._backend.name

    def _fail(self, what: str, exc: BaseException | None = None) -> StoreError:
        return self._backend.fail(what, exc)

    # ---- transactions --------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self, write: bool) -> Iterator[Any]:
        """Run the body in one transaction under the lock; wrap the database's errors in
        StoreError.

        Write transactions take the backend's write lock before they read (SQLite: BEGIN
        IMMEDIATE; PostgreSQL: the store's advisory lock), so the read-check-write sequence
        inside is serialised against every other connection to the store.
        """
        backend = self._backend
        with self._lock:
            if self._conn is None:
                raise StoreError(f"game store {os.fspath(self.path)}: store is closed")
            conn = self._begin(write)
            try:
                try:
                    yield backend.cursor(conn)
                except BaseException:
                    backend.rollback_quietly(conn)
                    raise
                backend.commit(conn)
            except backend.errors as exc:
                backend.rollback_quietly(conn)
                raise self._fail("database error", exc) from exc

    def _begin(self, write: bool) -> Any:
        """BEGIN on the connection; a server connection that was dropped (a restarted server, an
        idle connection cut) is opened again once: nothing of this transaction had run on it."""
        backend = self._backend
        if not backend.alive(self._conn):
            backend.close_quietly(self._conn)
            self._conn = backend.open()
        try:
            backend.begin(self._conn, write)
        except backend.errors as exc:
            if backend.alive(self._conn):
                backend.rollback_quietly(self._conn)
                raise self._fail("database error", exc) from exc
            backend.close_quietly(self._conn)
            self._conn = backend.open()
            try:
                backend.begin(self._conn, write)
            except backend.errors as again:
                backend.rollback_quietly(self._conn)
                raise self._fail("database error", again) from again
        return self._conn

    def _require_game(self, conn: Any, game_id: str) -> None:
        if conn.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone() is None:
            raise UnknownGameError(game_id, self.path)

    @staticmethod
    def _next_seq(conn: Any, game_id: str) -> int:
        row = conn.execute(
            "SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE game_id = ?", (game_id,)
        ).fetchone()
        return int(row[0])

    @staticmethod
    def _stamp(conn: Any) -> str:
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
            except self._backend.integrity_error as exc:  # cannot happen under the write lock
                # (PostgreSQL reads nothing more in a failed transaction: at least one more is there)
                raise ConflictError(game_id, expected_seq, expected_seq + 1) from exc
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
        """Read, change and write the game's meta in one write transaction and
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

    def _read_meta(self, conn: Any, game_id: str) -> dict:
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

    def shared_key(self, name: str) -> bytes:
        """The store's secret key called ``name`` (32 random bytes), made by the first caller and
        the same for every process on this file or database afterwards: the servers on one store
        sign and check their tokens with it, so a device that moves to another server keeps its
        token. Made with an atomic create-if-absent inside a write transaction (two processes
        starting at once agree); kept in the table ``nochmal_keys``, made when first needed (a
        store made before it existed gets it then). Never part of a game's export."""
        if not isinstance(name, str) or not _KEY_NAME.match(name):
            raise StoreError(f"a key's name must be 1-64 letters, digits, '-', '_' or spaces, got {name!r}")
        with self._transaction(write=True) as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS nochmal_keys (name TEXT PRIMARY KEY NOT NULL, "
                         "value TEXT NOT NULL)")
            conn.execute("INSERT INTO nochmal_keys (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                         (name, secrets.token_hex(32)))
            (value,) = conn.execute("SELECT value FROM nochmal_keys WHERE name = ?", (name,)).fetchone()
        try:
            key = bytes.fromhex(value)
        except (TypeError, ValueError):
            key = b""
        if len(key) < 16:
            raise self._fail(f"the key {name!r} in table nochmal_keys is not 32 hex-coded bytes "
                             "(delete its row: a new one is made, and open pages get new tokens)")
        return key

    def close(self) -> None:
        """Close the connection (idempotent); later calls raise StoreError."""
        with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                self._backend.close_quietly(conn)

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
