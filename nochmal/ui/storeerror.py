"""What a person is told when the game store fails (read-only, full, busy, cannot be opened):
one short sentence in the page's language, never the store's file path (or server) or the
database's words (SQLite's or PostgreSQL's). Those go to the server's log (stderr), where the
person who runs the app can read them."""

from __future__ import annotations

import sqlite3
import sys

import streamlit as st

from nochmal.data.i18n import _
from nochmal.store.db import ConflictError, MetaConflictError, StoreError, UnknownGameError

def _sqlite_name(err: BaseException) -> str:
    """SQLite's name of the error behind ``err`` ("SQLITE_READONLY", ...), else ""."""
    seen = 0
    cause: BaseException | None = err
    while cause is not None and seen < 8:
        if isinstance(cause, sqlite3.Error):
            return str(getattr(cause, "sqlite_errorname", "") or "")
        cause, seen = cause.__cause__ or cause.__context__, seen + 1
    return ""


#: PostgreSQL's SQLSTATEs (psycopg's ``sqlstate``) for the same troubles: a read-only transaction or
#: server in recovery, a full disk or too little memory, a lock not had in time or a deadlock.
_PG_READONLY = ("25006", "57P03")
_PG_FULL = ("53100", "53200")
_PG_BUSY = ("55P03", "40P01", "53300")


def _sqlstate(err: BaseException) -> str:
    """PostgreSQL's SQLSTATE of the error behind ``err``, else ""."""
    seen = 0
    cause: BaseException | None = err
    while cause is not None and seen < 8:
        state = getattr(cause, "sqlstate", None)
        if isinstance(state, str) and state:
            return state
        cause, seen = cause.__cause__ or cause.__context__, seen + 1
    return ""


def kind(err: StoreError) -> str:
    """"readonly", "full", "busy", "gone" (the game is not in the store), "conflict", or "other"."""
    if isinstance(err, UnknownGameError):
        return "gone"
    if isinstance(err, (ConflictError, MetaConflictError)):
        return "conflict"
    name = _sqlite_name(err)
    state = _sqlstate(err)
    text = str(err).lower()
    if (name.startswith("SQLITE_READONLY") or state in _PG_READONLY or "readonly database" in text
            or "read-only" in text):
        return "readonly"
    if (name.startswith("SQLITE_FULL") or state in _PG_FULL or "disk is full" in text
            or name.startswith("SQLITE_IOERR_WRITE")):
        return "full"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or state in _PG_BUSY or "database is locked" in text:
        return "busy"
    return "other"


def store_error_text(err: StoreError) -> str:
    """The sentence for ``err`` (plain text with no user data: safe as Markdown); the whole
    error, path included, is written to the server's stderr."""
    print(f"nochmal: game store error: {err}", file=sys.stderr, flush=True)
    what = kind(err)
    if what == "readonly":
        return _("The game store cannot be written: it is read-only, so nothing was saved. "
                 "Ask the person who runs the app.")
    if what == "full":
        return _("The game store cannot be written: the disk is full, so nothing was saved. "
                 "Ask the person who runs the app.")
    if what == "busy":
        return _("The game store is busy (another program is writing to it), so nothing was saved. "
                 "Try again in a moment; if it stays so, ask the person who runs the app.")
    if what == "gone":
        return _("This game is no longer in the game store (deleted on another device?).")
    if what == "conflict":
        return _("Another device changed this game at the same moment, so nothing was saved. Try again.")
    return _("The game store cannot be used right now. Ask the person who runs the app (the server's log "
             "says why).")


def show_store_error(err: StoreError) -> None:
    """The sentence as an error box on the page (where a page run stopped on a store error)."""
    st.error(store_error_text(err), icon="💾")


__all__ = ["kind", "store_error_text", "show_store_error"]
