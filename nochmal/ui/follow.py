"""A safety net under the game watcher: a page whose watcher stopped ticking is rerun.

The watcher (:func:`nochmal.ui.state.watch_game`) is a fragment that Streamlit reruns every
second or so; each run writes a counter into a hidden marker. Streamlit can lose a fragment's
timer: when a rerun request reaches a busy server just after a run finished, the finished
run's last messages are dropped (seen in CI: a phone stayed on "Waiting for ..." after the
game had moved on, once in a few whole games). The page then never looks at the game again.

This hidden Custom Component (``st.components.v2``) looks at the marker every second. When the
counter has not changed for :data:`STALE_MS` although the watcher should have run several times,
it asks the server for a full rerun, which draws the watcher (and its timer) anew. While the
watcher ticks, the component sends nothing, so it costs no rerun. A page without a watcher
has no marker and the component does nothing, unless the marker went away and the page's main
area has stayed blank for :data:`STALE_MS`: the run that removed the watcher lost its messages
too (seen in CI: a phone whose seat was taken over showed an empty page, with no watcher left to
rerun it), and the page is loaded again.

The same loss can cut short any run: when the watcher's timer asks for its fragment just after a
run finished but before the server had sent that run's last messages, Streamlit starts a new
script runner for the fragment and ignores the old runner's unsent messages (its log says
"Ignoring event from non-current ScriptRunner"; seen under load in the browser tests,
2026-11-27). A whole run cut short before its watcher's timer came leaves the watcher without
it, and the check above reruns the page. A run of the move entry (a fragment: a cell tap,
Clear, the dice) cut short leaves the watcher ticking and the page showing the grid from before the tap: the tap
looks lost although the server took it, and a second tap would undo it. So the entry's runs are
counted (:func:`entry_started`), each ends with a hidden end marker that carries its count
(:func:`entry_ended`), and the watcher's marker carries the newest count. A run's messages are
sent in order, so a run that lost its end lost its end marker too. When the page is idle and the
end marker shows an older run than the watcher's marker for two looks in a row, the component
asks for a whole rerun.

A whole run cut short while the watcher keeps ticking (its timer was already in the browser: it
is drawn first, in the sidebar) is checked the same way: the page's runs that reached their end
are counted (:func:`page_ended`, the last call of ``app.py``), the watcher's marker carries that
count too, and the end marker in the box that :func:`guard` puts early in the sidebar carries the
count of the run that drew it. A page idle with an older end marker than the watcher's count for
two looks lost the end of its last whole run: the page's body may still show the run before it,
and the watcher reruns the page only when the game changes again, so nothing else would redraw
it. Runs that stop early (``st.stop()``, ``st.rerun()``) are not counted, and a page without an
end marker is not checked.
"""

from __future__ import annotations

import logging
import threading

import streamlit as st

_log = logging.getLogger(__name__)

#: A watcher whose marker did not change for this long (ms) is taken for stopped; at least a
#: few of its periods (1-3 s), and long enough for a slow run on a busy machine.
STALE_MS = 12_000
MARKER_CLASS = "nm-watch-tick"
END_CLASS = "nm-entry-end"
PAGE_END_CLASS = "nm-page-end"
#: the session's count of the move entry's runs
ENTRY_RUNS_KEY = "nm_entry_runs"
#: the session's count of whole runs that reached their end with the guard on the page
PAGE_ENDS_KEY = "nm_page_ends"
#: at most one rerun for a lost end in this long (ms)
LOST_PAUSE_MS = 5_000

JS = r"""
const STALE = %(stale)d, MARKER = ".%(marker)s", END = ".%(end)s", PAGE_END = ".%(page_end)s", PAUSE = %(pause)d;
export default function (component) {
  const { setStateValue } = component;
  const w = window;
  w.__nmFollow = w.__nmFollow || { text: null, since: Date.now(), asked: 0, timer: null };
  const f = w.__nmFollow;
  f.ask = setStateValue;  // the newest mount's: the page's current run
  if (!f.timer) {
    f.timer = setInterval(() => {
      const el = document.querySelector(MARKER);
      const now = Date.now();
      if (!el) {
        // the marker went with the last run (the page no longer follows a game, e.g. its seat was
        // taken over). Should that run's messages have been dropped, the page is left blank and
        // nothing reruns it: after STALE ms of a blank page, load it again.
        if (f.text !== null) { f.text = null; f.gone = now; }
        const main = document.querySelector("[data-testid=stMain]");
        if (f.gone && now - f.gone > STALE && main && main.innerText.trim() === ""
            && document.visibilityState === "visible") {
          f.gone = 0;
          w.location.reload();
        }
        f.since = now;
        return;
      }
      f.gone = 0;
      const text = el.textContent;
      const app = document.querySelector("[data-testid=stApp]");
      const idle = !!app && app.getAttribute("data-test-script-state") === "notRunning";
      // "<tick> <entry runs> <page runs ended>"; an end marker behind its count lost its run's end
      const want = text.trim().split(" ").map(Number);
      let behind = "";
      [END, PAGE_END].forEach((sel, i) => {
        const end = document.querySelector(sel);
        if (idle && end && Number(end.textContent) < want[i + 1]) behind += sel + want[i + 1] + "/" + end.textContent;
      });
      if (behind) {
        if (f.lost === behind && now - (f.askedLost || 0) > PAUSE) {
          f.lost = null;
          f.askedLost = now;
          try { f.ask("lost", now); } catch (e) {}
        } else if (f.lost !== behind) {
          f.lost = behind;  // seen once: a run may just have ended; look again
        }
      } else {
        f.lost = null;
      }
      if (text !== f.text) { f.text = text; f.since = now; return; }
      if (now - f.since > STALE && now - f.asked > STALE && document.visibilityState === "visible") {
        f.asked = now;
        f.since = now;
        try { f.ask("stale", now); } catch (e) {}
      }
    }, 1000);
  }
  return undefined;
}
""" % {"stale": STALE_MS, "marker": MARKER_CLASS, "end": END_CLASS, "page_end": PAGE_END_CLASS,
       "pause": LOST_PAUSE_MS}

_component = st.components.v2.component("nochmal_follow", js=JS, isolate_styles=True)
HIDE_CSS = ("<style>.st-key-nm-follow, .st-key-nm-watch-tick, .st-key-nm-entry-end, .st-key-nm-page-end "
            "{ display: none !important; }</style>")
#: this run's box for the page's end marker (a script run has its own thread)
_run = threading.local()


def guard() -> None:
    """Mount the safety net (outside the watcher's fragment: its request reruns the whole page)."""
    st.html(HIDE_CSS)
    with st.container(key="nm-follow"):
        _component(key="nm-follow-guard", data={}, on_stale_change=_stale, on_lost_change=_lost, width="stretch",
                   height="content")
    _run.page_end = st.container(key="nm-page-end")  # filled by page_ended, at the run's end


def _stale() -> None:
    st.session_state["watch_restarts"] = st.session_state.get("watch_restarts", 0) + 1


def _lost() -> None:
    _log.warning("a run lost its end on the way to the browser: the page is run again")


def marker(tick: int) -> None:
    """The watcher's hidden marker: ``tick`` counts its runs (call it inside the fragment), then the
    count of the move entry's runs and of the page's whole runs that reached their end."""
    entry, page = (int(st.session_state.get(key, 0)) for key in (ENTRY_RUNS_KEY, PAGE_ENDS_KEY))
    with st.container(key="nm-watch-tick"):  # hidden by HIDE_CSS: it takes no room
        st.html(f'<div class="{MARKER_CLASS}">{int(tick)} {entry} {page}</div>')


def entry_started():
    """Count this run of the move entry (call it first in the entry's fragment) and return the box
    at the entry's start that its end marker goes in. The box keeps its place from run to run, and
    the browser keeps the old marker in it until a run sends a new one."""
    st.session_state[ENTRY_RUNS_KEY] = st.session_state.get(ENTRY_RUNS_KEY, 0) + 1
    return st.container(key="nm-entry-end")


def entry_ended(box) -> None:
    """The last element of this run of the move entry: its end marker (hidden by :data:`HIDE_CSS`)."""
    with box:
        st.html(f'<div class="{END_CLASS}">{int(st.session_state.get(ENTRY_RUNS_KEY, 0))}</div>')


def page_started() -> None:
    """Forget an earlier run's box (a run cut short by ``st.rerun()`` on this thread left it)."""
    _run.page_end = None


def page_ended() -> None:
    """The last element of a whole run that mounted the guard: the page's end marker, in the box
    :func:`guard` put early in the sidebar (its place stays from run to run; hidden by
    :data:`HIDE_CSS`). Call it last in ``app.py``; a run without the guard draws nothing."""
    box = getattr(_run, "page_end", None)
    if box is None:
        return
    _run.page_end = None
    ends = st.session_state[PAGE_ENDS_KEY] = st.session_state.get(PAGE_ENDS_KEY, 0) + 1
    with box:
        st.html(f'<div class="{PAGE_END_CLASS}">{int(ends)}</div>')
