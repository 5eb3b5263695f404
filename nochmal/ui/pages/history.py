"""History: every event of the open game, undo, export and import."""

import json

import streamlit as st

from nochmal import tableview as tv
from nochmal.errors import NochmalError
from nochmal.events import describe
from nochmal.session import import_game
from nochmal.store import StoreError
from nochmal.ui import state, widgets

ss = st.session_state


def _import() -> None:
    f = ss.get("import-file")
    if f is None:
        state.flash("error", "Choose an exported game file (.json) first.")
        return
    try:
        data = json.loads(f.getvalue().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        state.flash("error", f"{f.name}: not valid JSON ({err}). Nothing was stored.")
        return
    try:
        ses = import_game(state.store(), data, source=f.name)
    except (NochmalError, StoreError) as err:
        state.flash("error", f"Import refused, nothing was stored: {err}")
        return
    state.open_as_host(ses)
    state.flash("success", f"Imported {ses.title} as a new game — id `{ses.game_id}`, host code "
                           f"`{ses.meta['host_code']}`, {ses.n_events} events.")


widgets.follow_goto()
st.title("📜 History")
state.show_flash()

opened = state.open_game()
if opened is None:
    st.info("No game is open. Open one on the **Start** page, or import an exported game below.")
else:
    ses, access = opened
    events = ses.events
    in_force = {ev.seq for ev in tv.effective_events(events)}
    st.subheader(ses.title)
    st.caption(f"id `{ses.game_id}` · {len(events)} events · {len(in_force)} decisions in force")
    widgets.undo_button(ses, access, key="hist-undo")
    if not events:
        st.caption("No events yet.")
    lines = []
    for ev in events:
        text = f"`#{ev.seq}` {describe(ev, ses.seat_names)}"
        meta = " · ".join(x for x in (ev.by, ev.at.replace("T", " ").replace("+00:00", " UTC")) if x)
        if ev.type != "undo" and ev.seq not in in_force:
            text = f"~~{text}~~ (undone)"
        lines.append(text + (f" — <small>{meta}</small>" if meta else ""))
    if lines:
        with st.container(height=min(600, 40 + 28 * len(lines)), key="event-list"):
            st.markdown("  \n".join(lines), unsafe_allow_html=True)
    if access == "host":
        st.download_button("Export this game (JSON)", data=widgets.export_json(ses),
                           file_name=f"nochmal-{ses.game_id}.json", mime="application/json", key="export-btn",
                           icon="⬇️", on_click="ignore")
    else:
        st.caption("Export is for the host device (the file carries the game's codes).")
    widgets.live_refresh(ses.game_id, ses.n_events)

st.markdown("##### Import a game")
st.caption("An exported file becomes a new game with new codes. Every event is checked and replayed first; "
           "a damaged or tampered file is refused and nothing is stored.")
st.file_uploader("Exported game (.json)", type=["json"], key="import-file")
st.button("Import", key="import-btn", on_click=_import)
