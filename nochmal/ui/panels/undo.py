"""Taking back the last decision (undo), and following entries other devices make (live)."""

from __future__ import annotations

import streamlit as st

from nochmal.data.i18n import _
from nochmal.ui import state
from nochmal.ui import eventlog
from nochmal.ui.actions import need, run_action, who
from nochmal.ui.explain import event_text
from nochmal.ui.safe import md


def may_undo(access: str, ev) -> bool:
    if access == "host":
        return True
    seat = state.my_seat()
    return seat is not None and getattr(ev, "seat", None) == seat


def _undo() -> None:
    def do(ses, access):
        ev = eventlog.last_effective_event(ses.events)
        need(ev is not None, _("nothing to undo"))
        need(may_undo(access, ev), _("this device may undo only its own seat's last entry"))
        ses.undo(by=who(access))
        return _("Undone: {event}").format(event=md(event_text(ses.game, ev, ses.seat_names)))

    run_action(do)


def undo_button(ses, access: str, key: str = "undo-btn") -> None:
    ev = eventlog.last_effective_event(ses.events)
    if ev is None:
        st.caption(_("Nothing to undo yet."))
        return
    text = md(event_text(ses.game, ev, ses.seat_names))
    st.button(_("Undo: {event}").format(event=text), key=key, icon="↩️", on_click=_undo,
              disabled=not may_undo(access, ev),
              help=_("Takes back the last decision still in force (the undo itself is kept in the history)"))
