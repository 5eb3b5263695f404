"""Change-driven updates (issue 42, item 3): a device's page runs again only when its game changed.

Until now every device reran part of its page on a timer (every 1-3 s) to look at the game: an
idle table of 7 devices kept 71 % of a core busy, and an entry reached the other screens only at
their next look. Now each page holds one HTTP request open at :data:`ROUTE` (a long poll, from
the hidden component of :mod:`nochmal.ui.follow`). The server answers it when the game's version
(its number of events, and its seat claims and codes) differs from the one the page shows, or
after :data:`WAIT_S` with nothing new; the page then asks for a rerun only in the first case.
Waiting costs the server a look at an in-memory cache every :data:`LOOK_S`, and one read of the
store per game (not per device) at most every :data:`LOOK_S`: a game's devices share it, and a
change written by another process (the CLI, a second server on PostgreSQL) is seen too.

The same answer carries the session's counts of runs that reached their end
(:func:`record_ends`): the page compares them with its end markers to notice a run whose last
messages were lost on the way (see :mod:`nochmal.ui.follow`).

A request names its game, seat and device with a token the page got from the server
(:func:`token`: an HMAC with the store's key :data:`KEY`, the same in every server process on one
store, so a device whose process died and that reconnects to another keeps its token), checked in
constant time; wrong tokens are counted per client address by the server's throttle. A device's open request is also
its sign of life: a seat's device is marked as seen (the seat stays held) at most every
:data:`~nochmal.store.claims.SEEN_EVERY_S`, as its timer did before.

The route exists where ``serve_app.py`` serves the app (``nochmal serve``, ``make run``, the
browser tests). Under a bare ``streamlit run app.py`` it is missing; the page then falls back to
looking every :data:`FALLBACK_S` seconds.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import re
import threading
import time
from collections import OrderedDict

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from nochmal.store.db import StoreError, UnknownGameError
from nochmal.store.claims import SEEN_EVERY_S, mark_seat_seen
from nochmal.ui import lifetime

_log = logging.getLogger(__name__)

ROUTE = "/_nochmal/changes"
#: the longest a request is held open with nothing new (s); a proxy's idle timeout must be longer
WAIT_S = 25.0
#: how often a held request looks at its game's cached version (s), and how old that cache may be
LOOK_S = 0.2
#: a seat's device hears of a new event this long (s) after the game's shared screen (the mission
#: leader's or host's), while one follows the game: the screen the whole table watches runs first,
#: not at the same time as every phone's page (their runs share the server's one Python thread)
PHONES_AFTER_S = 0.4
#: a game's shared screen counts as following it this long (s) after its last request
SCREEN_SEEN_S = 60.0
#: without the route, the page looks every this many seconds (a rerun each time)
FALLBACK_S = 2.0
#: sessions whose run counts are kept (the oldest are forgotten first)
MAX_SESSIONS = 20_000
#: games whose version is cached
MAX_GAMES = 20_000

#: the name of the store's key that signs the tokens (:meth:`nochmal.store.db.GameStore.shared_key`)
KEY = "change feed"
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_ENDS = re.compile(r"^(\d{1,9}|-) (\d{1,9}|-)$")  # "-": the page shows no such end marker


_served = False


def routes() -> list:
    """The routes ``serve_app.py`` adds to Streamlit's (and the mark that pages may use them)."""
    global _served
    _served = True
    return [Route(url(), changes, methods=["GET"])]  # under the base URL path: Streamlit adds none to ours


def served() -> bool:
    """Whether this process serves the change route (``serve_app.py``), else pages fall back to looking."""
    return _served


def url() -> str:
    """The change route's path, under Streamlit's base URL path if one is set."""
    import streamlit as st

    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    return (f"/{base}" if base else "") + ROUTE


def token(game_id: str, seat: int | None, device: str) -> str:
    """The token of a page that follows ``game_id`` as ``seat`` (None: no seat) on ``device``."""
    msg = f"{game_id}|{'' if seat is None else int(seat)}|{device}".encode()
    return hmac.new(lifetime.shared_key(KEY), msg, hashlib.sha256).hexdigest()[:40]


def claims_print(meta: dict) -> str:
    """What of a game's meta a page shows and must follow: its seat claims, seat codes and
    take-over requests (not, say, when a seat's device was last seen)."""
    claims = meta.get("claims") if isinstance(meta, dict) else None
    codes = meta.get("seat_codes") if isinstance(meta, dict) else None
    asks = meta.get("takeover_requests") if isinstance(meta, dict) else None
    return hashlib.sha256(json.dumps([claims, codes, asks], sort_keys=True, default=str).encode()).hexdigest()


def version(n_events: int, meta: dict, events: bool, focus: str | None = None) -> str:
    """A game's version as a page follows it: the claims, and with ``events`` the number of
    events, or instead the seat's focus (:func:`nochmal.ui.focus.seat_focus`) while the page's
    seat decides: another seat's entry in the same roll does not run a deciding phone again."""
    claims = claims_print(meta)[:16]
    if events and focus is not None:
        return "f" + hashlib.sha256(focus.encode()).hexdigest()[:15] + "-" + claims
    return (f"{int(n_events)}-" if events else "") + claims


class _Versions:
    """The games' (number of events, claims) read from the store at most every :data:`LOOK_S`,
    shared by every request of the process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: OrderedDict[str, tuple[float, tuple[int, dict] | None]] = OrderedDict()
        self._new: dict[str, tuple[int, float]] = {}  # game -> (number of events, when first read)

    def new_since(self, game_id: str, n_events: int) -> float:
        """When this process first read ``game_id`` with ``n_events`` events (0: unknown)."""
        with self._lock:
            n, at = self._new.get(game_id, (-1, 0.0))
        return at if n == n_events else 0.0

    def fresh(self, game_id: str) -> tuple[bool, tuple[int, dict] | None]:
        now = time.monotonic()
        with self._lock:
            hit = self._seen.get(game_id)
        if hit is not None and now - hit[0] < LOOK_S:
            return True, hit[1]
        return False, hit[1] if hit else None

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._seen.pop(game_id, None)

    def read(self, store, game_id: str) -> tuple[int, dict] | None:
        try:
            info = store.get(game_id)
            value = (info.n_events, info.meta)
        except UnknownGameError:
            value = None
        except StoreError as err:  # the page says what is wrong when it runs; keep the last version
            _log.warning("changes: the store could not be read: %s", err)
            value = self.fresh(game_id)[1]
        with self._lock:
            now = time.monotonic()
            self._seen[game_id] = (now, value)
            self._seen.move_to_end(game_id)
            while len(self._seen) > MAX_GAMES:
                gone, _ = self._seen.popitem(last=False)
                self._new.pop(gone, None)
            if value is not None and self._new.get(game_id, (-1, 0.0))[0] != value[0]:
                self._new[game_id] = (value[0], now)
        return value


VERSIONS = _Versions()


class _Focus:
    """Every seat's focus (:func:`nochmal.ui.focus.seat_focus`) of a game at a number of
    events: computed once (the game's events replayed) and shared by the game's devices."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: OrderedDict[tuple[str, int], list[str | None]] = OrderedDict()
        self._replaying = threading.Lock()

    def cached(self, game_id: str, n_events: int, seat: int) -> tuple[bool, str | None]:
        """(True, the seat's focus) if it is known for this number of events, else (False, None)."""
        with self._lock:
            hit = self._seen.get((game_id, n_events))
        if hit is None:
            return False, None
        return True, hit[seat] if 0 <= seat < len(hit) else None

    def get(self, store, game_id: str, n_events: int, seat: int) -> str | None:
        with self._replaying:  # one replay of a version, however many of its devices ask at once
            with self._lock:
                hit = self._seen.get((game_id, n_events))
            if hit is None:
                from nochmal.store.session import GameSession
                from nochmal.ui.focus import seat_focus

                try:
                    ses = GameSession(store, game_id)
                    hit = [seat_focus(ses.state, s) for s in range(ses.game.n_seats)]
                except (StoreError, UnknownGameError) as err:  # the page says what is wrong when it runs
                    _log.warning("changes: a game could not be read: %s", err)
                    return None
                with self._lock:
                    self._seen[(game_id, ses.n_events)] = hit
                    while len(self._seen) > MAX_GAMES:
                        self._seen.popitem(last=False)
                if ses.n_events != n_events:  # newer than the version asked about: the next look asks again
                    return "newer"
        return hit[seat] if 0 <= seat < len(hit) else None


FOCUS = _Focus()
_waiting: dict[str, set] = {}
_waiting_lock = threading.Lock()


def poke(game_id: str) -> None:
    """This process changed ``game_id``: the requests waiting on it look now, not at their next
    look (:data:`LOOK_S`)."""
    VERSIONS.forget(game_id)
    with _waiting_lock:
        waiters = list(_waiting.get(game_id, ()))
    for loop, event in waiters:
        try:
            loop.call_soon_threadsafe(event.set)
        except RuntimeError:  # the loop has closed (a server shutting down)
            pass
_ends: OrderedDict[str, str] = OrderedDict()
_ends_lock = threading.Lock()
_seen_at: OrderedDict[tuple, float] = OrderedDict()
_screens: OrderedDict[str, float] = OrderedDict()  # game -> when its shared screen last asked


def _screen_asked(game_id: str) -> None:
    with _ends_lock:
        _screens[game_id] = time.monotonic()
        _screens.move_to_end(game_id)
        while len(_screens) > MAX_GAMES:
            _screens.popitem(last=False)


def _phone_waits(game_id: str, n_events: int) -> float:
    """How much longer (s) a seat's device waits to hear of the game's ``n_events``-th event: the
    rest of :data:`PHONES_AFTER_S` from when it was first read, if a shared screen follows the game."""
    with _ends_lock:
        screen = _screens.get(game_id)
    if screen is None or time.monotonic() - screen > SCREEN_SEEN_S:
        return 0.0
    since = VERSIONS.new_since(game_id, n_events)
    return max(0.0, since + PHONES_AFTER_S - time.monotonic()) if since else 0.0


def record_ends(watch_id: str, entry: int, page: int) -> None:
    """A session's counts of the move entry's and the page's runs that reached their end."""
    with _ends_lock:
        _ends[watch_id] = f"{int(entry)} {int(page)}"
        _ends.move_to_end(watch_id)
        while len(_ends) > MAX_SESSIONS:
            _ends.popitem(last=False)


def _ends_of(watch_id: str) -> str:
    with _ends_lock:
        return _ends.get(watch_id, "")


def _behind(shown: str, ended: str) -> bool:
    """An end marker the page shows (``shown``: "entry page", "-" where it shows none) is older than
    the session's count of runs that ended (``ended``)."""
    if not shown or not ended:
        return False
    return any(a != "-" and int(a) < int(b) for a, b in zip(shown.split(), ended.split()))


def _refuse(status: int, what: str) -> JSONResponse:
    return JSONResponse({"error": what}, status_code=status, headers={"Cache-Control": "no-store"})


def _seen(store, game_id: str, seat: int | None, device: str) -> None:
    """Mark ``seat`` as held by ``device`` at most every SEEN_EVERY_S (its open request: it is still there)."""
    if seat is None:
        return
    key, now = (game_id, seat, device), time.monotonic()
    with _ends_lock:
        if now - _seen_at.get(key, -SEEN_EVERY_S) < SEEN_EVERY_S:
            return
        _seen_at[key] = now
        _seen_at.move_to_end(key)
        while len(_seen_at) > MAX_SESSIONS:
            _seen_at.popitem(last=False)
    try:
        mark_seat_seen(store, game_id, seat, device)
    except StoreError as err:
        _log.warning("changes: a seat could not be marked as seen: %s", err)


async def changes(request: Request) -> JSONResponse:
    """``GET ROUTE?game=&seat=&device=&token=&events=0|1&since=&watch=&ends=``: the game's version
    as soon as it differs from ``since`` or the session's run counts differ from ``ends``, else
    after WAIT_S."""
    q = request.query_params
    client = request.client.host if request.client else ""
    throttle = lifetime.throttle()
    if throttle.wait(("changes", client)) > 0:
        return _refuse(429, "too many wrong tokens")
    game_id, device, watch = q.get("game", ""), q.get("device", ""), q.get("watch", "")
    seat_text = q.get("seat", "")
    if not (_ID.match(game_id) and (not device or _ID.match(device)) and _ID.match(watch)
            and (seat_text == "" or seat_text.isdigit() and len(seat_text) < 3)):
        return _refuse(400, "game, seat, device and watch must be short ids")
    seat = int(seat_text) if seat_text else None
    try:
        right = await asyncio.to_thread(token, game_id, seat, device)  # the first one reads the store's key
    except StoreError as err:
        _log.warning("changes: the store's key could not be read: %s", err)
        return _refuse(503, "the game store cannot be read")
    if not hmac.compare_digest(q.get("token", "")[:64].encode(), right.encode()):
        throttle.failed(("changes", client))
        return _refuse(403, "wrong token")
    events = q.get("events") == "1"
    focus = events and seat is not None and q.get("focus") == "1"
    since, ends = q.get("since", "")[:64], q.get("ends", "")
    if not _ENDS.match(ends):
        ends = ""
    store = lifetime.store()
    if seat is None and events:
        _screen_asked(game_id)
    await asyncio.to_thread(_seen, store, game_id, seat, device)
    deadline = time.monotonic() + WAIT_S
    woken = (asyncio.get_running_loop(), asyncio.Event())
    with _waiting_lock:
        _waiting.setdefault(game_id, set()).add(woken)
    try:
        while True:
            fresh, value = VERSIONS.fresh(game_id)
            if not fresh:
                value = await asyncio.to_thread(VERSIONS.read, store, game_id)
            if value is None:
                return _refuse(404, "no such game")
            seat_now = None
            if focus:
                known, seat_now = FOCUS.cached(game_id, value[0], seat)
                if not known:
                    seat_now = await asyncio.to_thread(FOCUS.get, store, game_id, value[0], seat)
            now_version, now_ends = version(value[0], value[1], events, seat_now), _ends_of(watch)
            if seat_now == "newer":
                now_version = since  # the store moved on while the focus was computed: look again
            if now_version != since and seat is not None and events:
                later = _phone_waits(game_id, value[0])
                if later > 0:  # the table's shared screen first
                    await asyncio.sleep(later)
                    continue
            if now_version != since or _behind(ends, now_ends) or time.monotonic() >= deadline:
                return JSONResponse({"version": now_version, "ends": now_ends}, headers={"Cache-Control": "no-store"})
            woken[1].clear()
            try:
                await asyncio.wait_for(woken[1].wait(), LOOK_S)
            except TimeoutError:
                pass
    finally:
        with _waiting_lock:
            mine = _waiting.get(game_id)
            if mine is not None:
                mine.discard(woken)
                if not mine:
                    del _waiting[game_id]

