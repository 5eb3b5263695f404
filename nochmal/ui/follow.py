"""How a page follows its game: change-driven updates, and a safety net under them.

A hidden Custom Component (``st.components.v2``), mounted in the sidebar by
:func:`nochmal.ui.state.watch_game`, holds one request open at the server's change route
(:mod:`nochmal.ui.changes`, a long poll). The server answers when the game's version differs from
the one this run of the page showed, and the component then asks for a rerun of the page: a
device does nothing while its game does nothing (issue 42, item 3). Before, a fragment reran every
1-3 s on every device to look.

Streamlit can lose the end of a run: when a rerun request reaches a busy server just after a run
finished, the finished run's last messages are dropped (seen in CI, 2026-11-27: "Ignoring event
from non-current ScriptRunner"). A run of the move entry (a fragment: Clear, the dice, a refused
Cross) cut short leaves the page showing the entry from before; a whole run cut short leaves the
page's body showing the run before it. So the runs that reach their end are counted, the move
entry's (:func:`entry_ended`) and the page's (:func:`page_ended`, the last call of ``app.py``):
each such run's last element is a hidden end marker with its count, in a box drawn early that
keeps its place from run to run (:func:`entry_box`, and the one :func:`guard` returns), and the
server keeps the session's counts (:func:`nochmal.ui.changes.record_ends`). The change route
answers at once when an end marker the page shows is older than the server's count; when it is
still so a second later and the page is idle, the component asks for a whole rerun. Runs that
stop early (``st.stop()``, ``st.rerun()``, an error) are not counted, and a page without an end
marker is not checked. A run whose new version of the component itself was lost leaves the
component with the old version, and the route's next answer asks again.

A page that no longer follows a game (its seat was taken over) has no component. Should the run
that removed it have lost its messages, the page is left blank with nothing to rerun it: after
:data:`STALE_MS` of a blank page the browser loads it again (seen in CI).
"""

from __future__ import annotations

import logging
import uuid

import streamlit as st

from nochmal.ui import changes

_log = logging.getLogger(__name__)

#: a page left blank this long (ms) after it stopped following a game is loaded again
STALE_MS = 12_000
END_CLASS = "nm-entry-end"
PAGE_END_CLASS = "nm-page-end"
#: the session's counts of the move entry's runs and of the page's whole runs (with the guard on
#: it) that reached their end
ENTRY_ENDS_KEY = "nm_entry_ends"
PAGE_ENDS_KEY = "nm_page_ends"
#: the session's id at the change route (its run counts are kept under it)
WATCH_ID_KEY = "nm_watch_id"
#: a change reruns the page once it has been idle this long (ms) in a row
QUIET_MS = 500
#: at most one rerun for the same reason (a version, a lost end) in this long (ms)
PAUSE_MS = 5_000

JS = r"""
const STALE = %(stale)d, END = ".%(end)s", PAGE_END = ".%(page_end)s", PAUSE = %(pause)d, FALLBACK = %(fallback)d;
const QUIET = %(quiet)d;
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
// "<entry> <page>": the counts of the end markers the page shows ("-": none)
const shownEnds = () => [END, PAGE_END].map((sel) => {
  const el = document.querySelector(sel);
  return el ? String(Number(el.textContent)) : "-";
}).join(" ");
const behindOf = (shown, ended) => {
  if (!ended) return "";
  const a = shown.split(" "), b = ended.split(" ");
  return a.some((v, i) => v !== "-" && b[i] !== undefined && Number(v) < Number(b[i])) ? shown + "/" + ended : "";
};
const idle = () => {
  const app = document.querySelector("[data-testid=stApp]");
  return !!app && app.getAttribute("data-test-script-state") === "notRunning";
};
// how long (ms) the page has been idle in a row (0: a run is going), counted from ``from`` at the earliest
const idleFor = (f, from) => idle() ? Date.now() - Math.max(f.busyAt || 0, from) : 0;
const connected = (f) => !!f.host && f.host.isConnected;

async function follow(f) {
  let wait = 1000, lost = "";
  for (;;) {
    if (!connected(f)) {  // this page no longer follows a game (or is between runs): look again soon
      await sleep(1000);
      if (!connected(f)) { f.running = false; return; }
      continue;
    }
    const d = f.data;
    if (!d.url) {  // served without the change route: look every FALLBACK ms
      await sleep(FALLBACK);
      try { f.ask("look", Date.now()); } catch (e) {}
      continue;
    }
    const q = new URLSearchParams({ game: d.game, seat: d.seat, device: d.device, token: d.token,
      events: d.events ? "1" : "0", focus: d.focus ? "1" : "0", since: d.version, watch: d.watch,
      ends: shownEnds() });
    let answer = null, status = 0;
    try {
      const r = await fetch(d.url + "?" + q.toString(), { cache: "no-store", credentials: "same-origin" });
      status = r.status;
      answer = r.ok ? await r.json() : null;
      if (r.status === 404 && (r.headers.get("content-type") || "").indexOf("json") < 0) { d.url = ""; continue; }
    } catch (e) { answer = null; }
    if (status === 403 || (answer && f.broken)) {
      // the store's token key was changed (the token is refused) or the server was out of reach. Streamlit runs the
      // page again when its connection comes back; only if no run came (the page's fragments
      // would be unknown to the server, its token too) is the whole page run again from here.
      // An extra run at that moment is not harmless: a tap's fragment request that arrives while a
      // whole run has not drawn that fragment yet is dropped.
      f.broken = false;
      await sleep(2000);
      if (f.data !== d) continue;
      if (Date.now() - (f.askedStale || 0) > PAUSE) {
        f.askedStale = Date.now();
        try { f.ask("stale", Date.now()); } catch (e) {}
      }
      await sleep(1000);
      continue;
    }
    if (!answer) {
      f.broken = f.broken || status === 0 || status >= 500;
      await sleep(wait);
      wait = Math.min(wait * 2, 5000);
      continue;
    }
    wait = 1000;
    if (f.data !== d) continue;  // a run came meanwhile: ask with its version
    if (answer.version !== d.version) {  // the game changed: run the page again
      // unless a run is going (this device's own entry, most often): it may bring the new version.
      // (A seat's device used to wait 0.3-0.6 s more so that the mission leader's screen had the
      // server first; its late whole-page run then met the player's next tap on "Cross", a request
      // of the entry's fragment, which Streamlit drops while a whole run has not drawn the fragment
      // yet: an entry was lost in the three-phone game.)
      // Asked only once the page has been idle for QUIET ms in a row: a navigation (a claim, then
      // the Table page) runs several times in a row, and a player tapping the sheet brings the new
      // version with the next run anyway. On the Table page (d.soon) a page already idle that long
      // asks at once; elsewhere the QUIET ms count from the answer (a device waiting on Start for a
      // take-over to be allowed, asking at once, was left on Start once in CI).
      const from = d.soon ? 0 : Date.now();
      for (let i = 0; idleFor(f, from) < QUIET && i < 200 && f.data === d; i++) await sleep(50);
      if (f.data !== d) continue;
      const now = Date.now();
      if (f.askedFor !== answer.version || now - f.askedAt > PAUSE) {
        f.askedFor = answer.version;
        f.askedAt = now;
        try { f.ask("changed", { version: answer.version, at: now }); } catch (e) {}
      }
      await sleep(500);
      continue;
    }
    const behind = behindOf(shownEnds(), answer.ends);
    if (!behind) { lost = ""; continue; }
    // an end marker behind the server's count: a run may just have ended; look again in a second
    if (behind === lost && idle() && Date.now() - (f.askedLost || 0) > PAUSE) {
      lost = "";
      f.askedLost = Date.now();
      try { f.ask("lost", Date.now()); } catch (e) {}
    } else {
      lost = behind;
    }
    await sleep(1000);
  }
}

export default function (component) {
  const { data, setStateValue, parentElement } = component;
  const w = window;
  const f = w.__nmFollow = w.__nmFollow || {};
  f.ask = setStateValue;  // the newest mount's: the page's current run
  f.host = parentElement;
  f.data = data;
  if (!f.running) { f.running = true; follow(f); }
  const app = document.querySelector("[data-testid=stApp]");
  if (app && !f.busy) {  // when the page last ran or stopped running (see idleFor)
    f.busyAt = Date.now();
    f.busy = new MutationObserver(() => { f.busyAt = Date.now(); });
    f.busy.observe(app, { attributes: true, attributeFilter: ["data-test-script-state"] });
  }
  if (app && !f.conn) {
    // Streamlit does not run the page again when its connection comes back (a restarted server
    // knows none of the page's fragments: a tap in one would be dropped): run it at once
    f.conn = app.getAttribute("data-test-connection-state") || "";
    new MutationObserver(() => {
      const now = app.getAttribute("data-test-connection-state") || "";
      if (now === "CONNECTED" && f.conn !== "CONNECTED" && connected(f)) {
        f.askedStale = Date.now();
        try { f.ask("stale", Date.now()); } catch (e) {}
      }
      f.conn = now;
    }).observe(app, { attributes: true, attributeFilter: ["data-test-connection-state"] });
  }
  if (!f.blank) {
    // the page stopped following its game; should that run's messages have been dropped, the page
    // is left blank and nothing reruns it: after STALE ms of a blank page, load it again
    f.blank = setInterval(() => {
      const main = document.querySelector("[data-testid=stMain]");
      if (connected(f) || !main || main.innerText.trim() !== "" || document.visibilityState !== "visible") {
        f.blankSince = 0;
        return;
      }
      f.blankSince = f.blankSince || Date.now();
      if (Date.now() - f.blankSince > STALE) { f.blankSince = 0; w.location.reload(); }
    }, 1000);
  }
  return undefined;
}
""" % {"stale": STALE_MS, "end": END_CLASS, "page_end": PAGE_END_CLASS, "pause": PAUSE_MS,
       "fallback": int(changes.FALLBACK_S * 1000), "quiet": QUIET_MS}

_component = st.components.v2.component("nochmal_follow", js=JS, isolate_styles=True)
HIDE_CSS = ("<style>.st-key-nm-follow, .st-key-nm-entry-end, .st-key-nm-page-end "
            "{ display: none !important; }</style>")


def guard(data: dict):
    """Mount the component that follows the game (``data``: :func:`nochmal.ui.state.watch_game`
    makes it; outside any fragment: its request reruns the whole page) and return the box for the
    page's end marker (:func:`page_ended`)."""
    st.html(HIDE_CSS)
    with st.container(key="nm-follow"):
        _component(key="nm-follow-guard", data=dict(data, watch=watch_id()), on_changed_change=_changed,
                   on_lost_change=_lost, on_stale_change=_stale, on_look_change=_looked, width="stretch", height="content")
    return st.container(key="nm-page-end")


def watch_id() -> str:
    """This session's id at the change route."""
    ss = st.session_state
    if not isinstance(ss.get(WATCH_ID_KEY), str):
        ss[WATCH_ID_KEY] = uuid.uuid4().hex[:20]
    return ss[WATCH_ID_KEY]


def _changed() -> None:
    """The game changed: this rerun shows it."""


def _looked() -> None:
    """Served without the change route: a rerun every FALLBACK_S looks at the game."""


def _stale() -> None:
    _log.info("a page found the server restarted or back in reach: the page is run again")


def _lost() -> None:
    _log.warning("a run lost its end on the way to the browser: the page is run again")


def entry_box():
    """The box at the move entry's start (call it first in the entry's fragment) that the run's end
    marker goes in (:func:`entry_ended`). The browser keeps the old marker in it until a run sends
    a new one."""
    return st.container(key="nm-entry-end")


def entry_ended(box) -> None:
    """The last element of this run of the move entry: its end marker."""
    _end_marker(box, ENTRY_ENDS_KEY, END_CLASS)


def page_ended(box) -> None:
    """The last element of a whole run: the page's end marker, in the box :func:`guard` returned
    (None without a guard on the page: nothing is drawn). Call it last in ``app.py``."""
    if box is not None:
        _end_marker(box, PAGE_ENDS_KEY, PAGE_END_CLASS)


def _end_marker(box, key: str, css_class: str) -> None:
    """Count a run that reached its end in ``key`` and draw its hidden end marker (hidden by
    :data:`HIDE_CSS`) in ``box``."""
    ends = st.session_state[key] = st.session_state.get(key, 0) + 1
    changes.record_ends(watch_id(), int(st.session_state.get(ENTRY_ENDS_KEY, 0)),
                        int(st.session_state.get(PAGE_ENDS_KEY, 0)))
    with box:
        st.html(f'<div class="{css_class}">{int(ends)}</div>')
