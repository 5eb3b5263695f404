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
import math
import time
import uuid

import streamlit as st

from nochmal.data.i18n import _
from nochmal.store.claims import join_renewed, taken_over_seat
from nochmal.store.db import StoreError
from nochmal.store.errors import AccessError, NoGameError, TooManyGuessesError
from nochmal.store.session import GameSession, Opened, open_with_code
from nochmal.ui import changes, device, follow
from nochmal.ui.focus import seat_focus
from nochmal.ui.lifetime import store, throttle  # noqa: F401 (the pages ask state for them)
from nochmal.ui.safe import md

DEFAULTS = {
    "colourblind": False,
    "selected_cells": [],  # cell names being built into a move
    "flash": None,  # (kind, text) shown once after a rerun
    "my_games": [],  # games started on this device: {"id", "title", "code"} (session only)
    "game_ref": None,  # the open game's {"game", "code", "join", "seat"}: restores the URL after page switches
    "access_note": None,  # why the game in the URL did not open ("too many wrong codes, ...") or None
    "wrong_codes": [],  # digests of (game, code) pairs found wrong in this session: counted once
    "lost_seat": None,  # the seat whose code in the URL another device's claim took over, or None
    "auto-bots": True,  # digital games: bots play their seats without a click
}


#: the widgets that switch colour-blind mode (the sidebar's; a seat's phone has its own on the page)
COLOURBLIND_SWITCHES = ("colourblind-side", "colourblind-phone")


def colourblind_switch(key: str) -> None:
    """Before drawing the colour-blind switch ``key``: its value from the setting, only if it has
    none yet. Never written on every run: a run that set it would undo a tap on it that came in
    meanwhile (seen in CI, the letters never came)."""
    if key not in st.session_state:
        st.session_state[key] = bool(st.session_state.get("colourblind"))


def set_colourblind(key: str) -> None:
    """Callback of a colour-blind switch: the setting (``colourblind``) and the other switch follow it."""
    ss = st.session_state
    on = bool(ss.get(key))
    ss["colourblind"] = on
    for other in COLOURBLIND_SWITCHES:
        if other != key and other in ss:
            ss[other] = on


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
            if v and k in ("game", "code", "join", "seat") and not (ref.get("hidden") and k in ("code", "join")):
                st.query_params[k] = v  # a code that left the address bar stays out of it (issue 46)


def client() -> str:
    """Whom wrong guesses count against: the browser's IP address as the server sees it."""
    ip = getattr(st.context, "ip_address", None)
    return ip if isinstance(ip, str) and ip else "unknown"


def check_code(game_id: str, code: str) -> Opened:
    """Open ``game_id`` with a code typed into a form (throttled; raises AccessError)."""
    return open_with_code(store(), game_id, code, throttle=throttle(), client=client())


def access_text(err: Exception) -> str:
    """Why a code did not open a game, as a sentence for people (the store's own fixed texts,
    no user data in them), in the page's language."""
    if isinstance(err, TooManyGuessesError):
        return _("Too many wrong codes, try again in {seconds} s.").format(seconds=max(1, math.ceil(err.wait)))
    if isinstance(err, NoGameError):
        return _("No game with this id and code.")
    text = str(err).rstrip(".")
    return f"{text[:1].upper()}{text[1:]}."


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
    set_selection([])


def set_selection(cells) -> None:
    """Set the cells selected for a cross from the server (a cleared, entered or refused
    selection, the advisor's move, a new roll). The browser's taps are toggles applied on top
    (:mod:`nochmal.ui.panels.cell_grid`)."""
    st.session_state["selected_cells"] = list(cells)


def remember_game(game_id: str, title: str, code: str) -> None:
    """Keep a game started (or imported, or resumed with its host code) on this device: in the
    session's list and in the browser's storage (:mod:`nochmal.ui.device`)."""
    mine = [g for g in st.session_state.get("my_games", []) if g["id"] != game_id]
    st.session_state["my_games"] = [{"id": game_id, "title": title, "code": code}] + mine
    device.remember(game_id, code, None, title)


def remember_seat(ses, code: str, seat: int) -> None:
    """This device plays ``seat`` of ``ses`` with the seat's own ``code``: kept in the browser's
    storage, so a reload or a browser restart resumes it (Start → Resume)."""
    device.remember(ses.game_id, code, seat, ses.title)


def open_as_host(ses) -> None:
    """Open a game this device just created or imported, with its host code, and remember it."""
    set_game(ses.game_id, ses.meta["host_code"])
    remember_game(ses.game_id, ses.title, ses.meta["host_code"])


def forget_game(game_id: str) -> None:
    st.session_state["my_games"] = [g for g in st.session_state.get("my_games", []) if g["id"] != game_id]
    device.forget(game_id)
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
    code, kind = _game_code(gid)
    if not code and not device.ready():
        ss["device_pending"] = True  # the code may be in this browser's storage: ask it first
        return None
    ss["device_pending"] = False
    digest = _digest(gid, code)
    if digest in ss.get("wrong_codes", []):
        ss["my_seat"] = None
        if (ss.get("lost_seat") or {}).get("digest") != digest:
            ss["lost_seat"] = None
        return None
    try:
        opened = check_code(gid, code)
    except TooManyGuessesError as err:
        ss["access_note"] = access_text(err)  # our own text: no user data
        ss["lost_seat"] = None
        return None
    except AccessError:
        ss["access_note"] = None
        ss["my_seat"] = None
        ss["lost_seat"] = None
        if code:
            ss["wrong_codes"] = (ss.get("wrong_codes", []) + [digest])[-50:]
            # counted as one wrong guess above; a seat code that another device's claim took
            # over says so (only its holder can know such a code)
            ss["lost_seat"] = _lost_seat(gid, code if kind == "code" else None, digest)
            if kind == "join" and _join_renewed(gid, code):
                ss["access_note"] = renewed_text()
        return None
    ss["access_note"] = None
    ss["lost_seat"] = None
    ss["my_seat"] = opened.seat if opened.role == "seat" else None
    in_url = bool(st.query_params.get("code") or st.query_params.get("join"))
    ss["game_ref"] = {"game": gid, "code": code if kind == "code" else "", "join": code if kind == "join" else "",
                      "seat": st.query_params.get("seat", ""), "hidden": not in_url}
    return opened.session, opened.access


def _game_code(gid: str) -> tuple[str, str | None]:
    """The code that opens ``gid`` on this device and what kind it is ("code": a host or seat
    code, "join": the join link's token): from the URL; else, once it left the address bar
    (issue 46), from this session's open game, or (after a reload) from this browser's storage."""
    qp = st.query_params
    if qp.get("code"):
        return qp["code"], "code"
    if qp.get("join"):
        return qp["join"], "join"
    ref = st.session_state.get("game_ref") or {}
    if ref.get("game") == gid and (ref.get("code") or ref.get("join")):
        return (ref["code"], "code") if ref.get("code") else (ref["join"], "join")
    entry = next((g for g in device.remembered() if g["game"] == gid), None)
    if entry is not None:
        return entry["code"], "code"
    return "", None


def opened_with() -> str | None:
    """How this device opened its game: "code" (a host or seat code) or "join" (the join link)."""
    ref = st.session_state.get("game_ref") or {}
    return "code" if ref.get("code") else "join" if ref.get("join") else None


def renewed_text() -> str:
    return _("This game's join link and code were renewed: this one no longer works. Ask for the new link "
             "or code.")


def _join_renewed(game_id: str, code: str) -> bool:
    try:
        meta = store().get(game_id).meta
    except StoreError:
        return False
    return join_renewed(meta, code)


def _seat_name(meta: dict, seat: int) -> str:
    names = meta.get("seat_names") if isinstance(meta, dict) else None
    name = names[seat] if isinstance(names, list) and 0 <= seat < len(names) else ""
    return name if isinstance(name, str) else ""


def _lost_seat(game_id: str, code: str | None, digest: str) -> dict | None:
    """{"seat", "name", "digest"} if ``code`` was ``game_id``'s seat code until another claim
    took the seat over, else None."""
    if not (isinstance(game_id, str) and 0 < len(game_id) <= 64 and code):
        return None
    try:
        meta = store().get(game_id).meta
    except StoreError:
        return None
    seat = taken_over_seat(meta, code)
    if seat is None:
        return None
    return {"seat": seat, "name": _seat_name(meta, seat), "digest": digest}


def lost_seat_text(seat: int, name: str) -> str:
    """What a device whose seat another device took over is told (Markdown)."""
    if name:
        return _("Seat {seat} ({name}) was taken over by another device. Open the join link again to "
                 "claim a seat.").format(seat=seat + 1, name=md(name))
    return _("Seat {seat} was taken over by another device. Open the join link again to claim a "
             "seat.").format(seat=seat + 1)


def lost_seat_note() -> str | None:
    """Why the game in the URL did not open when its seat code was taken over by another
    device (Markdown: "Seat 2 (Bo) was taken over by another device. …"), else None. Set by
    :func:`open_game`; show it instead of "No game is open"."""
    lost = st.session_state.get("lost_seat")
    if not lost or not st.query_params.get("game"):
        return None
    return lost_seat_text(int(lost["seat"]), str(lost.get("name") or ""))


#: Remembered codes found wrong per session before the rest are left unchecked (each wrong one
#: counts against this client's guesses: a device must not lock itself out with old games).
REMEMBERED_FAILURES = 3


def check_remembered(entry: dict, force: bool = False) -> dict:
    """What a game remembered by this browser (:func:`nochmal.ui.device.remembered`) is now,
    its code checked through the throttled path once per session:

    * ``{"status": "ok", "role": "host"|"seat"|"join", "title", "seat", "seat_name"}``;
    * ``{"status": "taken", "seat", "seat_name"}`` — its seat code was taken over by another device;
    * ``{"status": "gone"}`` — the code no longer opens the game (deleted, or never did);
    * ``{"status": "wait", "text"}`` — too many wrong codes from this client: try again later;
    * ``{"status": "unchecked"}`` — not looked up: :data:`REMEMBERED_FAILURES` remembered codes
      were wrong in this session already (``force``: look it up anyway, as Resume does).
    """
    ss = st.session_state
    cache = ss.setdefault("remembered_checks", {})
    gid, code = entry["game"], entry["code"]
    digest = _digest(gid, code)
    if digest in cache:
        return cache[digest]
    if digest not in ss.get("wrong_codes", []):
        if not force and ss.get("remembered_failures", 0) >= REMEMBERED_FAILURES:
            return {"status": "unchecked"}
        try:
            opened = check_code(gid, code)
        except TooManyGuessesError as err:
            return {"status": "wait", "text": access_text(err)}
        except AccessError:
            ss["wrong_codes"] = (ss.get("wrong_codes", []) + [digest])[-50:]
            ss["remembered_failures"] = ss.get("remembered_failures", 0) + 1
        else:
            ses = opened.session
            role = opened.role if opened.role in ("host", "seat") else "join"
            seat = opened.seat if role == "seat" else None
            result = {"status": "ok", "role": role, "title": ses.title, "seat": seat,
                      "seat_name": ses.seat_names[seat] if seat is not None else ""}
            cache[digest] = result
            return result
    lost = _lost_seat(gid, code, digest)
    result = ({"status": "taken", "seat": lost["seat"], "seat_name": lost["name"]} if lost
              else {"status": "gone"})
    if len(cache) < 200:
        cache[digest] = result
    return result


def recheck_remembered(entry: dict) -> None:
    """Forget this session's answer for ``entry`` (its next :func:`check_remembered` asks again)."""
    st.session_state.setdefault("remembered_checks", {}).pop(_digest(entry["game"], entry["code"]), None)


def watch_game(ses, *, events: bool, focus: bool = False):
    """One watcher per page run: the page runs again when the open game changes for this page
    (:mod:`nochmal.ui.follow`, :mod:`nochmal.ui.changes`):

    * always when its seat claims change (a phone joined, a seat was taken over: the host's
      lobby shows it, a device whose seat was taken over says so);
    * with ``events`` (the Table and History pages) also when another device added an event;
      with ``focus`` too (the Table page), a seat's device that decides now only when its own
      decision changed (:func:`nochmal.ui.focus.seat_focus`): not for another seat's entry
      in the same roll, which would run the page again under the player's taps.

    Nothing runs while the game does not change. The page's open request at the change route
    keeps its seat held (it marks the seat's device as seen). It is mounted in the sidebar, before
    the page body: a run whose last messages are lost still brings it its new version. Returns the
    box for the page's end marker (:func:`follow.page_ended`)."""
    seat = my_seat()
    dev = device.device_id() if seat is not None else ""
    served = changes.served()
    data = {"url": changes.url() if served else "", "game": ses.game_id, "seat": "" if seat is None else str(seat),
            "device": dev, "token": changes.token(ses.game_id, seat, dev) if served else "", "events": bool(events),
            "focus": bool(focus and events and seat is not None),
            "soon": bool(focus),  # the Table page: a change is asked for at once when the page is idle
            "version": changes.version(ses.n_events, ses.meta, events,
                                       seat_focus(ses.state, seat) if focus and seat is not None else None)}
    return follow.guard(data)


def goto(page: str) -> None:
    """Ask the page to switch to ``page`` ("start", "table", "history") after this callback."""
    st.session_state["goto"] = page


#: how long a message stays after it was first shown, across the page's runs (a page also runs
#: again by itself: another device's entry, the browser's storage answering), in seconds
FLASH_SECONDS = 8.0


def flash(kind: str, text: str) -> None:
    st.session_state["flash"] = (kind, text, None)


def clear_flash() -> None:
    """A new action by this device: the message about the last one goes."""
    st.session_state["flash"] = None


def show_flash() -> None:
    """The pending message, in a slot that is drawn on every run, for :data:`FLASH_SECONDS`
    from its first showing (or until a new action replaces it). Elements below the slot keep
    their place whether or not a message shows, so the browser never shows an old copy of a
    widget beside its new one while stale elements wait to be cleared."""
    f = st.session_state.get("flash")
    now = time.monotonic()
    with st.container(key="flash-slot"):
        if f:
            kind, text, until = f
            if until is None:
                st.session_state["flash"] = (kind, text, now + FLASH_SECONDS)
            elif now > until:
                st.session_state["flash"] = None
                return
            getattr(st, kind, st.info)(text)
