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
Clear, the dice) cut short leaves the watcher ticking and the page showing the grid from before
the tap: the tap looks lost although the server took it, and a second tap would undo it. A whole
run cut short while the watcher keeps ticking (its timer was already in the browser: it is drawn
first, in the sidebar) leaves the page's body showing the run before it, and the watcher, which
saw the game in the lost run, reruns the page only when the game changes again.

So the runs that reach their end are counted, the move entry's (:func:`entry_ended`) and the
page's (:func:`page_ended`, the last call of ``app.py``): each such run's last element is a hidden
end marker with its count, in a box drawn early that keeps its place from run to run
(:func:`entry_box`, and the one :func:`guard` returns). The watcher's marker carries the newest
counts. A run's messages are sent in order, so a run that lost its end lost its end marker too.
When the page is idle and an end marker shows an older count than the watcher's marker for two
looks in a row, the component asks for a whole rerun. Runs that stop early (``st.stop()``,
``st.rerun()``, an error) are not counted, and a page without an end marker is not checked.
"""

from __future__ import annotations

import logging

import streamlit as st

_log = logging.getLogger(__name__)

#: A watcher whose marker did not change for this long (ms) is taken for stopped; at least a
#: few of its periods (1-3 s), and long enough for a slow run on a busy machine.
STALE_MS = 12_000
MARKER_CLASS = "nm-watch-tick"
END_CLASS = "nm-entry-end"
PAGE_END_CLASS = "nm-page-end"
#: the session's counts of the move entry's runs and of the page's whole runs (with the guard on
#: it) that reached their end
ENTRY_ENDS_KEY = "nm_entry_ends"
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
      // "<tick> <entry runs ended> <page runs ended>"; an end marker behind its count lost its run's end
      const want = text.trim().split(" ").map(Number);
      let behind = "";
      if (idle) {
        [END, PAGE_END].forEach((sel, i) => {
          const end = document.querySelector(sel);
          if (end && Number(end.textContent) < want[i + 1]) behind += sel + want[i + 1] + "/" + end.textContent;
        });
      }
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


def guard():
    """Mount the safety net (outside the watcher's fragment: its request reruns the whole page) and
    return the box for the page's end marker (:func:`page_ended`)."""
    st.html(HIDE_CSS)
    with st.container(key="nm-follow"):
        _component(key="nm-follow-guard", data={}, on_stale_change=_stale, on_lost_change=_lost, width="stretch",
                   height="content")
    return st.container(key="nm-page-end")


def _stale() -> None:
    _log.warning("a page's watcher stopped ticking: the page is run again")


def _lost() -> None:
    _log.warning("a run lost its end on the way to the browser: the page is run again")


def marker(tick: int) -> None:
    """The watcher's hidden marker: ``tick`` counts its runs (call it inside the fragment), then the
    counts of the move entry's runs and of the page's whole runs that reached their end."""
    entry, page = (int(st.session_state.get(key, 0)) for key in (ENTRY_ENDS_KEY, PAGE_ENDS_KEY))
    with st.container(key="nm-watch-tick"):  # hidden by HIDE_CSS: it takes no room
        st.html(f'<div class="{MARKER_CLASS}">{int(tick)} {entry} {page}</div>')


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
    with box:
        st.html(f'<div class="{css_class}">{int(ends)}</div>')
