"""A safety net under the game watcher: a page whose watcher stopped ticking is rerun.

The watcher (:func:`nochmal.ui.state.watch_game`) is a fragment that Streamlit reruns every
second or so; each run writes a counter into a hidden marker. Streamlit can lose a fragment's
timer: when a rerun request reaches a busy server just after a run finished, the finished
run's last messages are dropped (seen in CI: a phone stayed on "Waiting for ..." after the
game had moved on, once in a few whole games). The page then never looks at the game again.

This hidden Custom Component (``st.components.v2``) looks at the marker every 2 s. When the
counter has not changed for :data:`STALE_MS` although the watcher should have run several times,
it asks the server for a full rerun, which draws the watcher (and its timer) anew. While the
watcher ticks, the component sends nothing, so it costs no rerun. A page without a watcher
has no marker and the component does nothing, unless the marker went away and the page's main
area has stayed blank for :data:`STALE_MS`: the run that removed the watcher lost its messages
too (seen in CI: a phone whose seat was taken over showed an empty page, with no watcher left to
rerun it), and the page is loaded again.
"""

from __future__ import annotations

import streamlit as st

#: A watcher whose marker did not change for this long (ms) is taken for stopped; at least a
#: few of its periods (1-3 s), and long enough for a slow run on a busy machine.
STALE_MS = 12_000
MARKER_CLASS = "nm-watch-tick"

JS = r"""
const STALE = %(stale)d, MARKER = ".%(marker)s";
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
      if (text !== f.text) { f.text = text; f.since = now; return; }
      if (now - f.since > STALE && now - f.asked > STALE && document.visibilityState === "visible") {
        f.asked = now;
        f.since = now;
        try { f.ask("stale", now); } catch (e) {}
      }
    }, 2000);
  }
  return undefined;
}
""" % {"stale": STALE_MS, "marker": MARKER_CLASS}

_component = st.components.v2.component("nochmal_follow", js=JS, isolate_styles=True)
HIDE_CSS = "<style>.st-key-nm-follow, .st-key-nm-watch-tick { display: none !important; }</style>"


def guard() -> None:
    """Mount the safety net (outside the watcher's fragment: its request reruns the whole page)."""
    st.html(HIDE_CSS)
    with st.container(key="nm-follow"):
        _component(key="nm-follow-guard", data={}, on_stale_change=_stale, width="stretch", height="content")


def _stale() -> None:
    st.session_state["watch_restarts"] = st.session_state.get("watch_restarts", 0) + 1


def marker(tick: int) -> None:
    """The watcher's hidden marker: ``tick`` counts its runs (call it inside the fragment)."""
    with st.container(key="nm-watch-tick"):  # hidden by HIDE_CSS: it takes no room
        st.html(f'<div class="{MARKER_CLASS}">{int(tick)}</div>')
