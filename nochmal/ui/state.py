"""Session state and the store, in one place.

Session state holds only plain values (ids, codes, UI choices). The game itself lives in the
store and is re-read (folded from its events) on every rerun, so a reload or a server restart
loses nothing and entries from other devices show up. The open game is named in the URL
(``?game=ID&code=CODE[&seat=N]`` for the host and seat codes, ``?game=ID&join=TOKEN`` for a
device that opened the join link and has not claimed a seat yet), so a reload keeps it.

Every code in a URL or a form is checked by :func:`nochmal.store.session.open_with_code`: in constant
time, and wrong guesses are throttled per client (its IP address) and per game by one
:class:`~nochmal.store.access.Throttle` of the server.
"""

from __future__ import annotations

import hashlib
import os
import uuid

import streamlit as st

from nochmal.store.access import Throttle
from nochmal.store.session import AccessError, GameSession, Opened, TooManyGuessesError, open_with_code
from nochmal.store.db import GameStore, default_store_path

DEFAULTS = {
    "colourblind": False,
    "selected_cells": [],  # cell names being built into a move
    "flash": None,  # (kind, text) shown once after a rerun
    "my_games": [],  # games started on this device: {"id", "title", "code"} (session only)
    "game_ref": None,  # the open game's {"game", "code", "join", "seat"}: restores the URL after page switches
    "access_note": None,  # why the game in the URL did not open ("too many wrong codes, ...") or None
    "wrong_codes": [],  # digests of (game, code) pairs found wrong in this session: counted once
    "auto-bots": True,  # digital games: bots play their seats without a click
}


def init() -> None:
    for k, v in DEFAULTS.items():
        if k not in st.session_state:
            st.session_state[k] = list(v) if isinstance(v, list) else v
    if "device" not in st.session_state:
        st.session_state["device"] = uuid.uuid4().hex[:8]
    _restore_url()


def _restore_url() -> None:
    """Switching pages clears the URL's query; put the open game back into it."""
    ref = st.session_state.get("game_ref")
    if ref and not st.query_params.get("game"):
        for k, v in ref.items():
            if v:
                st.query_params[k] = v


@st.cache_resource
def _store(path: str) -> GameStore:
    return GameStore(path)


def _store_path() -> str:
    return str(os.environ.get("NOCHMAL_DB") or default_store_path())


def store() -> GameStore:
    """The embedded SQLite store ($NOCHMAL_DB or the user data folder)."""
    return _store(_store_path())


@st.cache_resource
def _throttle(path: str) -> Throttle:
    return Throttle()


def throttle() -> Throttle:
    """The server's one counter of wrong code guesses (thread-safe, shared by every session on
    purpose: a guesser opens new sessions). One per store, so tests with stores of their own do
    not count each other's guesses."""
    return _throttle(_store_path())


def client() -> str:
    """Whom wrong guesses count against: the browser's IP address as the server sees it."""
    ip = getattr(st.context, "ip_address", None)
    return ip if isinstance(ip, str) and ip else "unknown"


def check_code(game_id: str, code: str) -> Opened:
    """Open ``game_id`` with a code typed into a form (throttled; raises AccessError)."""
    return open_with_code(store(), game_id, code, throttle=throttle(), client=client())


def set_game(game_id: str | None, code: str | None = None, seat: int | None = None, join: str | None = None) -> None:
    qp = st.query_params
    for k in ("game", "code", "join", "seat"):
        if k in qp:
            del qp[k]
    if game_id:
        qp["game"] = game_id
        if code:
            qp["code"] = code
        elif join:
            qp["join"] = join
        if seat is not None:
            qp["seat"] = str(seat + 1)
    st.session_state["game_ref"] = (
        {"game": game_id, "code": code or "", "join": "" if code else join or "",
         "seat": str(seat + 1) if seat is not None else ""} if game_id else None)
    st.session_state["selected_cells"] = []


def remember_game(game_id: str, title: str, code: str) -> None:
    """Keep a game started (or imported) on this device in the session's list."""
    mine = [g for g in st.session_state.get("my_games", []) if g["id"] != game_id]
    st.session_state["my_games"] = [{"id": game_id, "title": title, "code": code}] + mine


def open_as_host(ses) -> None:
    """Open a game this device just created or imported, with its host code, and remember it."""
    set_game(ses.game_id, ses.meta["host_code"])
    remember_game(ses.game_id, ses.title, ses.meta["host_code"])


def forget_game(game_id: str) -> None:
    st.session_state["my_games"] = [g for g in st.session_state.get("my_games", []) if g["id"] != game_id]
    ref = st.session_state.get("game_ref")
    if ref and ref.get("game") == game_id:
        set_game(None)


def my_seat() -> int | None:
    """The seat this device claimed: the seat whose code is in the URL (set by
    :func:`open_game`), None for the host or a device that has not claimed one. The URL's
    ``seat`` parameter is only for people to read; it grants nothing."""
    return st.session_state.get("my_seat")


def _digest(game_id: str, code: str) -> str:
    return hashlib.sha256(f"{game_id}\0{code}".encode("utf-8", "surrogatepass")).hexdigest()


def open_game() -> tuple[GameSession, str] | None:
    """The game named in the URL and what this device may do with it ("host" or "seat"), or
    None. A wrong (game, code) pair counts as one wrong guess per session, however often the
    page reruns; :data:`access_note` says when the client must wait."""
    ss = st.session_state
    gid = st.query_params.get("game")
    if not gid:
        ss["access_note"] = None
        return None
    code = st.query_params.get("code") or st.query_params.get("join") or ""
    digest = _digest(gid, code)
    if digest in ss.get("wrong_codes", []):
        return None
    try:
        opened = check_code(gid, code)
    except TooManyGuessesError as err:
        ss["access_note"] = f"{str(err)[:1].upper()}{str(err)[1:]}."  # our own text: no user data
        return None
    except AccessError:
        ss["access_note"] = None
        if code:
            ss["wrong_codes"] = (ss.get("wrong_codes", []) + [digest])[-50:]
        return None
    ss["access_note"] = None
    ss["my_seat"] = opened.seat if opened.role == "seat" else None
    ss["game_ref"] = {k: st.query_params.get(k, "") for k in ("game", "code", "join", "seat")}
    return opened.session, opened.access


def goto(page: str) -> None:
    """Ask the page to switch to ``page`` ("start", "table", "history") after this callback."""
    st.session_state["goto"] = page


def flash(kind: str, text: str) -> None:
    st.session_state["flash"] = (kind, text)


def show_flash() -> None:
    """The pending message, in a slot that is drawn on every run. Elements below it keep their
    place whether or not a message shows, so the browser never shows an old copy of a widget
    beside its new one while stale elements wait to be cleared."""
    f = st.session_state.get("flash")
    with st.container(key="flash-slot"):
        if f:
            kind, text = f
            getattr(st, kind, st.info)(text)
            st.session_state["flash"] = None
