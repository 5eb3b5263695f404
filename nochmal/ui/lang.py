"""The language of this browser session: the switch in the sidebar (remembered by the browser
in a cookie), else the browser's own language, else English. Registers itself as the resolver
of :mod:`nochmal.data.i18n`, so every ``_()`` of a page or fragment run speaks it."""

from __future__ import annotations

import streamlit as st

from nochmal.data import i18n
from nochmal.data.i18n import _
from nochmal.ui.device import LANG_COOKIE

COOKIE = LANG_COOKIE  # written by the storage component (device.py) when the switch is used
KEY = "lang"


def _browser() -> str | None:
    try:
        return i18n.normalize(st.context.locale)
    except Exception:  # noqa: BLE001 - no browser context (AppTest, bare mode)
        return None


def _cookie() -> str | None:
    try:
        return i18n.normalize(st.context.cookies.get(COOKIE))
    except Exception:  # noqa: BLE001 - no request context
        return None


#: the language of the last page run of this process, for code run outside any page run: only
#: AppTest does that (it formats a widget's options in the test's own thread); a served page
#: always runs with its session
_last_run: str | None = None


def _session() -> str | None:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if get_script_run_ctx(suppress_warning=True) is None:
        return _last_run
    try:
        return i18n.normalize(st.session_state.get(KEY))
    except Exception:  # noqa: BLE001 - a run without a session
        return None


def resolve() -> str:
    """This session's language, worked out once (the switch changes it): the cookie the switch
    left, else the browser's language, else English. A URL's ``lang`` parameter (``?lang=de``,
    for a link to share) wins over both."""
    ss = st.session_state
    asked = i18n.normalize(st.query_params.get("lang"))
    if asked:
        ss[KEY] = asked
    if not i18n.normalize(ss.get(KEY)):
        ss[KEY] = _cookie() or _browser() or i18n.DEFAULT
    global _last_run
    _last_run = ss[KEY]
    return ss[KEY]


i18n.set_resolver(_session)


def _switched(key: str) -> None:
    chosen = i18n.normalize(st.session_state.get(key))
    if chosen:
        st.session_state[KEY] = chosen


def switch(key: str = "lang-switch") -> None:
    """The language switch (Deutsch | English); the browser keeps the choice (a cookie that the
    storage component writes). ``key``: a second switch on the same page needs its own (a phone
    shows one under its sheet, where its hidden sidebar's cannot be reached)."""
    st.session_state[key] = resolve()
    st.segmented_control(_("Language"), options=list(i18n.LANGUAGES), key=key,
                         format_func=lambda code: i18n.NAMES[code], on_change=_switched, args=(key,),
                         label_visibility="collapsed")
