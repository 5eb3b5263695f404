"""Announcements: what the last entries did ("Column E full — first! (2 points)", a colour,
a mission step, a goal check, a failed roll), as a list on the screens and as toasts on
every device when another device's entry brings news."""

from __future__ import annotations

import streamlit as st

from nochmal.data import i18n
from nochmal.data.i18n import _
from nochmal.ui import narration
from nochmal.ui.safe import md

ICONS = {"column": "🏁", "colour": "🎨", "mission": "🎯", "goal": "📊", "failed": "🟥", "end": "🏆"}
LOST_ICON = "🎲"  # the end of a lost co-op game: no trophy


def icon(item, lost: bool | None = None) -> str:
    """The item's icon; the end of a lost co-op game gets no trophy. ``lost``: whether the game
    is a lost co-op game (None: told by the item's English words)."""
    if lost is None:
        lost = bool(getattr(item, "lost", False)) or item.text.startswith("The team loses")
    if item.kind == "end" and lost:
        return LOST_ICON
    return ICONS.get(item.kind, "📣")


def _lost(ses) -> bool:
    """The game is a co-op game the team has lost."""
    gs = ses.state
    return bool(ses.game.cooperative and gs.is_terminal() and not gs.outcome().to_json().get("won"))


def items(ses, names) -> list:
    """The game's announcements, worked out once per game, number of events and language."""
    key = (ses.game_id, ses.n_events, i18n.language())
    cache = st.session_state.get("news-cache")
    if not (isinstance(cache, tuple) and cache[0] == key):
        cache = (key, narration.news(ses.game, ses.events, names))
        st.session_state["news-cache"] = cache
    return cache[1]


def _line(item, lost: bool = False) -> str:
    return f"{icon(item, lost)} {md(item.text)}"


def news_strip(ses, names, limit: int = 4) -> None:
    """The latest announcements, newest first (the mission leader's screen)."""
    found = items(ses, names)
    with st.container(key="news-strip"):
        if found:
            lost = _lost(ses)
            st.markdown("  \n".join(_line(i, lost) for i in reversed(found[-limit:])))


def news_list(ses, names, limit: int = 8) -> None:
    """The latest announcements (a phone's "the table" section)."""
    found = items(ses, names)
    if found:
        lost = _lost(ses)
        st.markdown(_("**News**") + "  \n" + "  \n".join(_line(i, lost) for i in reversed(found[-limit:])))


def announce_new(ses, names) -> None:
    """Toasts for the announcements of events this page has not shown yet (entries of this
    device and of the others); none for what was there when the game was opened, and none once
    the game is over (the outcome panel says it; toasts would stack over it)."""
    seen_by_game = st.session_state.setdefault("news-seen", {})
    seen = seen_by_game.get(ses.game_id)
    n = ses.n_events
    seen_by_game[ses.game_id] = n
    if seen is None or n <= seen or ses.state.is_terminal():
        return
    fresh = [i for i in items(ses, names) if i.seq >= seen]
    for item in fresh[-3:]:
        st.toast(md(item.text), icon=icon(item, _lost(ses)), duration="long")
