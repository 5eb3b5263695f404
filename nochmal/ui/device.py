"""What this browser remembers across reloads and browser restarts: its device id and the games
(and seats) it plays, in the browser's localStorage.

A hidden Custom Component (``st.components.v2``) mounted once per run (:func:`sync`, called by
``layout.setup_page``) reads the storage and reports it to the server as one JSON string; it
applies the writes the server asks for (:func:`remember`, :func:`forget`) and reports again. The
device id is also kept in a cookie, so the server knows it on the first run of a new session
(before the component has reported); a browser without one adopts the session's id.

Whatever the browser reports is hostile input: :func:`parse` keeps at most :data:`MAX_ENTRIES`
entries whose game id, code and seat have the allowed alphabet, length and type, and drops
everything else. A remembered code is never trusted: it opens a game only through the throttled
check (``state.check_remembered``).
"""

from __future__ import annotations

import json
import re
from typing import Any

import streamlit as st

from nochmal.engine import jsonin
from nochmal.engine.errors import InvalidInputError
from nochmal.data.i18n import LANGUAGES, normalize
from nochmal.store.access import codes_equal

STORAGE_KEY = "nochmal.device.v1"
ID_KEY = "nochmal.device-id"
COOKIE = "nochmal_device"
LANG_COOKIE = "nochmal_lang"  # the language switch's choice (nochmal.ui.lang reads it)
#: Games a device remembers at most (newest first).
MAX_ENTRIES = 50
#: Longest report read (50 entries of 200 characters are 10 KB).
MAX_REPORT_CHARS = 64_000
#: Writes waiting for the browser to confirm them, at most.
MAX_PENDING = 20
MAX_TITLE = 80
MAX_SEATS = 6

DEVICE_ID_RE = re.compile(r"^[0-9a-f]{8,32}$")
GAME_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
#: Host and seat codes are url-safe tokens (``secrets.token_urlsafe``: 22 characters for 128 bits).
CODE_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")

JS = r"""
const KEY = "%(key)s", ID_KEY = "%(id_key)s", COOKIE = "%(cookie)s", MAX = %(max)d, MAX_CHARS = %(max_chars)d;
const SECRET = ["code", "join", "owner"];
const ID_RE = /^[0-9a-f]{8,32}$/, DELAY = 250, LANG_COOKIE = "%(lang_cookie)s", LANGS = %(langs)s;
let lastSent = null;

function get(k) { try { return window.localStorage.getItem(k); } catch (e) { return null; } }
function put(k, v) { try { window.localStorage.setItem(k, v); return true; } catch (e) { return false; } }
function cookieId() {
  const m = document.cookie.match(new RegExp("(?:^|; )" + COOKIE + "=([0-9a-f]{8,32})(?:;|$)"));
  return m ? m[1] : null;
}
function newId() {
  const a = new Uint8Array(8);
  if (window.crypto && window.crypto.getRandomValues) { window.crypto.getRandomValues(a); }
  else { for (let i = 0; i < a.length; i++) a[i] = Math.floor(Math.random() * 256); }
  return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
}
function games() {
  const raw = get(KEY);
  if (!raw || raw.length > MAX_CHARS) return [];
  try { const v = JSON.parse(raw); return Array.isArray(v) ? v : []; } catch (e) { return []; }
}

export default function (component) {
  const { data, setStateValue } = component;
  const d = data || {};
  let id = get(ID_KEY);
  if (!(typeof id === "string" && ID_RE.test(id))) id = cookieId();
  if (!(typeof id === "string" && ID_RE.test(id))) id = (typeof d.proposed === "string" && ID_RE.test(d.proposed)) ? d.proposed : newId();
  const stored = put(ID_KEY, id);
  try { document.cookie = COOKIE + "=" + id + "; path=/; max-age=315360000; SameSite=Lax"; } catch (e) {}
  // the language this browser chose with the switch (read by the server when a session starts)
  if (LANGS.includes(d.lang)) {
    try { document.cookie = LANG_COOKIE + "=" + d.lang + "; path=/; max-age=315360000; SameSite=Lax"; } catch (e) {}
  }
  let list = games();
  const ops = Array.isArray(d.ops) ? d.ops : [];
  if (ops.length) {
    for (const op of ops) {
      if (!op || typeof op.game !== "string") continue;
      list = list.filter((g) => !(g && typeof g === "object" && g.game === op.game));
      if (op.op === "put" && op.entry && typeof op.entry === "object") list.unshift(op.entry);
    }
    put(KEY, JSON.stringify(list.slice(0, MAX)));
  }
  // issue 46: a code leaves the address bar once this browser keeps it. An entry of the
  // session's history whose URL holds a code (a join link, an owner link) is replaced by the
  // next one instead of staying behind it; and the URL of a game this browser has stored the
  // code of loses the code (history.replaceState: no entry keeps it). The server drops it from
  // its copy of the query when this report says so; the game stays open (its code is in the
  // session, and after a reload in this storage).
  if (!window.__nmHistoryGuard) {
    window.__nmHistoryGuard = true;
    const push = window.history.pushState.bind(window.history);
    window.history.pushState = function (s, t, u) {
      const here = new URLSearchParams(window.location.search);
      if (SECRET.some((k) => here.has(k))) return window.history.replaceState(s, t, u);
      return push(s, t, u);
    };
  }
  let hidden = null;
  const q = new URLSearchParams(window.location.search), g = q.get("game"), c = q.get("code");
  if (d.hide && stored && g && c && list.some((e) => e && e.game === g && e.code === c)) {
    for (const k of SECRET) q.delete(k);
    const rest = q.toString();
    window.history.replaceState(window.history.state, "", window.location.pathname + (rest ? "?" + rest : "") + window.location.hash);
    hidden = g;
  }
  const report = JSON.stringify({ device: id, stored: stored, games: list.slice(0, MAX), hidden: hidden });
  if (report === lastSent) return undefined;
  // nothing the server does not know (a browser with no games that took the proposed id): no
  // report, since a report reruns the page and a tap made during that rerun can be lost
  if (!ops.length && !list.length && !hidden && !d.need && id === d.proposed) { lastSent = report; return undefined; }
  // report a moment later: a page switch the server just made reaches this page first (a
  // report is a rerun request, and one sent before would rerun the page left)
  const timer = setTimeout(() => { lastSent = report; setStateValue("report", report); }, DELAY);
  return () => clearTimeout(timer);
}
""" % {"key": STORAGE_KEY, "id_key": ID_KEY, "cookie": COOKIE, "max": MAX_ENTRIES, "max_chars": MAX_REPORT_CHARS,
       "lang_cookie": LANG_COOKIE, "langs": json.dumps(list(LANGUAGES))}

_component = st.components.v2.component("nochmal_device", js=JS, isolate_styles=True)
HIDE_CSS = "<style>.st-key-nm-device { display: none !important; }</style>"


# --------------------------------------------------------------------------- what the browser says
def valid_entry(item: Any) -> dict | None:
    """``item`` as a remembered game ``{"game", "code", "seat", "title"}`` (seat: None for the
    host code, else 0-5), or None if anything about it is malformed."""
    if not isinstance(item, dict) or set(item) - {"game", "code", "seat", "title"}:
        return None
    game, code, seat, title = item.get("game"), item.get("code"), item.get("seat"), item.get("title", "")
    if not (isinstance(game, str) and GAME_ID_RE.match(game)) or not (isinstance(code, str) and CODE_RE.match(code)):
        return None
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_SEATS):
        return None
    if not isinstance(title, str) or len(title) > MAX_TITLE:
        return None
    return {"game": game, "code": code, "seat": seat, "title": title}


def parse(raw: Any) -> tuple[str | None, list[dict]]:
    """The device id and the remembered games of a report (a JSON string): malformed entries,
    duplicates of a game and entries beyond :data:`MAX_ENTRIES` dropped; (None, []) for a
    report that is no JSON object of the expected shape."""
    if not isinstance(raw, str) or len(raw) > MAX_REPORT_CHARS:
        return None, []
    try:
        data = jsonin.loads(raw)
    except InvalidInputError:
        return None, []
    if not isinstance(data, dict):
        return None, []
    dev = data.get("device")
    dev = dev if isinstance(dev, str) and DEVICE_ID_RE.match(dev) else None
    items = data.get("games")
    out: list[dict] = []
    seen: set[str] = set()
    for item in items if isinstance(items, list) else ():
        entry = valid_entry(item)
        if entry is not None and entry["game"] not in seen:
            seen.add(entry["game"])
            out.append(entry)
        if len(out) >= MAX_ENTRIES:
            break
    return dev, out


def _confirmed(op: dict, games: list[dict]) -> bool:
    here = next((g for g in games if g["game"] == op["game"]), None)
    if op["op"] == "del":
        return here is None
    return here is not None and here["code"] == op["entry"]["code"]


# --------------------------------------------------------------------------- the server's side
def sync() -> None:
    """Mount the (invisible) storage component and take in what it reported. Call once per run,
    before anything that claims a seat (``layout.setup_page``). The browser reports only when
    its storage changed (the first time, and after a write), since a report reruns the page."""
    ss = st.session_state
    ss.setdefault("device_ops", [])
    if not ss.get("device_checked_cookie"):
        ss["device_checked_cookie"] = True
        cookie = _cookie()
        if cookie:
            ss["device"] = cookie
    st.html(HIDE_CSS)
    # no writes while a callback's page switch is pending: the browser's answer (a rerun request)
    # would race the switch and could rerun the page being left
    ops = [] if ss.get("goto") else list(ss["device_ops"])
    qp = st.query_params
    # the open game's code may leave the URL once this browser has stored it (see the JS)
    hide = bool(not ss.get("goto") and qp.get("game") and qp.get("code")
                and stored(qp.get("game"), qp.get("code")))
    with st.container(key="nm-device"):
        result = _component(key="nm-device-store", data={"ops": ops, "proposed": ss.get("device"),
                                                         "lang": normalize(ss.get("lang")), "hide": hide,
                                                         # a URL naming a game without its code (a reload
                                                         # after the code left it): the server needs the storage
                                                         "need": bool(qp.get("game") and not qp.get("code")
                                                                      and not qp.get("join"))},
                            on_report_change=_noop, width="stretch", height="content")
    raw = result.get("report")
    if raw is not None and raw != ss.get("device_raw"):
        ss["device_raw"] = raw
        dev, games = parse(raw)
        if dev:
            ss["device"] = dev
        ss["device_games"] = games
        ss["device_ready"] = True
        ss["device_stored"] = _stored_flag(raw)
        ss["device_ops"] = [op for op in ss["device_ops"] if not _confirmed(op, games)]
        hidden = _hidden(raw)
        game, code = qp.get("game"), qp.get("code")
        if not hide and not hidden and not ss.get("goto") and code and stored(game, code) \
                and ss.get("hide_asked") != [game, code]:
            ss["hide_asked"] = [game, code]  # the browser just confirmed the code: ask it to hide it (once)
            st.rerun()
        if hidden and hidden == game and code and stored(hidden, code):
            ss["codes_hidden"] = hidden  # the browser took the code out of its address bar: so does the server
            for k in ("code", "join"):
                if k in qp:
                    del qp[k]


def _report_field(raw: str, name: str) -> Any:
    try:
        data = jsonin.loads(raw)
    except InvalidInputError:
        return None
    return data.get(name) if isinstance(data, dict) else None


def _stored_flag(raw: str) -> bool:
    return _report_field(raw, "stored") is True


def _hidden(raw: str) -> str | None:
    """The game whose code the browser took out of its address bar in this report, else None."""
    value = _report_field(raw, "hidden")
    return value if isinstance(value, str) and GAME_ID_RE.match(value) else None


def stored(game_id: object, code: object) -> bool:
    """Whether this browser has confirmed (in its last report) that it keeps ``code`` for
    ``game_id`` in its storage, with no write for the game still pending."""
    ss = st.session_state
    if not (ss.get("device_stored") and isinstance(game_id, str) and isinstance(code, str) and code):
        return False
    if any(op.get("game") == game_id for op in ss.get("device_ops", [])):
        return False
    return any(g["game"] == game_id and codes_equal(code, g["code"]) for g in ss.get("device_games", []))


def _noop() -> None:
    pass


def _cookie() -> str | None:
    try:
        value = st.context.cookies.get(COOKIE)
    except Exception:  # noqa: BLE001 - no request context (tests): no cookie
        return None
    return value if isinstance(value, str) and DEVICE_ID_RE.match(value) else None


def ready() -> bool:
    """Whether the browser has reported its storage in this session."""
    return bool(st.session_state.get("device_ready"))


def device_id() -> str:
    """This browser's device id (kept in its storage), or this session's until it reports."""
    return str(st.session_state.get("device") or "")


def remembered() -> list[dict]:
    """The games this browser remembers, newest first: ``{"game", "code", "seat", "title"}``
    (seat None: the host code). Validated; nothing here is trusted to open a game."""
    return [dict(g) for g in st.session_state.get("device_games", [])]


def _queue(op: dict) -> None:
    ss = st.session_state
    ops = [o for o in ss.get("device_ops", []) if o["game"] != op["game"]] + [op]
    ss["device_ops"] = ops[-MAX_PENDING:]


def remember(game_id: str, code: str, seat: int | None = None, title: str = "") -> None:
    """Remember on this browser that ``code`` opens ``game_id`` (as host: ``seat`` None; else as
    seat ``seat``). A host code this browser keeps for the game is not replaced by a seat code."""
    entry = valid_entry({"game": game_id, "code": code, "seat": seat, "title": str(title or "")[:MAX_TITLE]})
    if entry is None:
        return
    games = remembered()
    old = next((g for g in games if g["game"] == game_id), None)
    if old is not None and old["seat"] is None and seat is not None:
        return  # the host code opens every seat: keep it
    st.session_state["device_games"] = ([entry] + [g for g in games if g["game"] != game_id])[:MAX_ENTRIES]
    _queue({"op": "put", "game": game_id, "entry": entry})


def forget(game_id: str) -> None:
    """Forget ``game_id`` on this browser."""
    if not isinstance(game_id, str) or not GAME_ID_RE.match(game_id):
        return
    st.session_state["device_games"] = [g for g in remembered() if g["game"] != game_id]
    _queue({"op": "del", "game": game_id})
