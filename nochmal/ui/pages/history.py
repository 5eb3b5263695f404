"""History: every event of the open game, undo, export and import."""

import json

import streamlit as st

from nochmal.ui import eventlog
from nochmal.engine.errors import NochmalError
from nochmal.data import i18n
from nochmal.data.i18n import _, ngettext, number
from nochmal.ui.explain import RULE_WORDS, event_text, rule_words
from nochmal.ui.labels import author_label
from nochmal.store.transfer import MAX_EXPORT_BYTES, import_game, parse_export_bytes
from nochmal.store.db import StoreError
from nochmal.ui import owner, state
from nochmal.ui.games import game_ui
from nochmal.ui.layout import follow_goto
from nochmal.ui.panels.undo import undo_button
from nochmal.ui.safe import code, md
from nochmal.ui.storeerror import store_error_text

ss = st.session_state


def _browser_zone() -> str | None:
    """The browser's time zone (times are shown as its clock says them), if it told one."""
    try:
        return st.context.timezone
    except Exception:  # noqa: BLE001 - no browser context (AppTest)
        return None


def _import() -> None:
    refused = owner.refusal(_("Importing a game"))
    if refused:
        state.flash("error", refused)
        return
    f = ss.get("import-file")
    if f is None:
        state.flash("error", _("Choose an exported game file (.json) first."))
        return
    if f.size > MAX_EXPORT_BYTES:
        state.flash("error", _("{file}: {size} bytes, a game export may have at most {limit} bytes ({kib} KiB). "
                               "Nothing was stored.").format(
            file=md(repr(f.name)), size=number(f.size, 0), limit=number(MAX_EXPORT_BYTES, 0),
            kib=MAX_EXPORT_BYTES // 1024))
        return
    try:
        data = parse_export_bytes(f.getvalue(), repr(f.name))
    except NochmalError as err:
        state.flash("error", _("{error}. Nothing was stored.").format(error=md(err)))
        return
    try:
        ses = import_game(state.store(), data, source=f.name)
    except NochmalError as err:
        state.flash("error", _("Import refused, nothing was stored: {error}").format(error=md(err)))
        return
    except StoreError as err:  # read-only, full, ...: a sentence, never the store's path
        state.flash("error", store_error_text(err))
        return
    state.open_as_host(ses)
    # the English says "events" for any number; the German picks its plural form
    state.flash("success", ngettext(
        "Imported {title} as a new game — id {game_id}, host code {host_code}, {n} events.",
        "Imported {title} as a new game — id {game_id}, host code {host_code}, {n} events.",
        ses.n_events).format(title=md(ses.title), game_id=code(ses.game_id), host_code=code(ses.meta["host_code"]),
                             n=ses.n_events))


follow_goto()
st.title(_("📜 History"))
state.show_flash()

opened = state.open_game()
own_ui = game_ui(opened[0].kind) if opened is not None else None  # a game with pages of its own; None: Noch mal!
if opened is None:
    st.info(_("No game is open. Open one on the **Start** page, or import an exported game below."))
else:
    ses, access = opened
    events = ses.events
    in_force = {ev.seq for ev in eventlog.effective_events(events)}
    st.subheader(md(ses.title))
    st.caption(" · ".join((  # the English says "events"/"decisions" for any number
        ngettext("{n} events", "{n} events", len(events)).format(n=len(events)),
        ngettext("{n} decisions in force", "{n} decisions in force", len(in_force)).format(n=len(in_force)))))
    (own_ui.undo_button if own_ui is not None else undo_button)(ses, access, key="hist-undo")
    if not events:
        st.caption(_("No events yet."))
    lines = []
    browser_zone = _browser_zone()
    for ev in events:  # Markdown: every text that came from a user or a file goes through md()
        words = own_ui.event_text(ev, ses.seat_names) if own_ui is not None else event_text(ses.game, ev,
                                                                                              ses.seat_names)
        text = f"`#{ev.seq}` {md(words)}"
        by = author_label(ev.by, ses.seat_names, ses.game.cooperative) if ev.by else ""
        meta = " · ".join(x for x in (by, i18n.date_time(ev.at, browser_zone)) if x)
        if ev.type != "undo" and ev.seq not in in_force:
            text = _("~~{event}~~ (undone)").format(event=text)
        lines.append(text + (f" — :small[{md(meta)}]" if meta else ""))
    if lines:
        with st.container(height=min(600, 40 + 28 * len(lines)), key="event-list"):
            st.markdown("  \n".join(lines))
    if access == "host":
        st.download_button(_("Export this game (JSON)"), data=json.dumps(ses.export(), indent=1),
                           file_name=f"nochmal-{ses.game_id}.json", mime="application/json", key="export-btn",
                           icon="⬇️", on_click="ignore")
    else:
        st.caption(_("Export is for the host device (the file holds the whole game; it carries no codes)."))

with st.container(key="rules-in-words"), st.expander(_("📖 The rules in words")):
    st.caption(_("Every rule the app checks, as the rulebook says it; the id is what the \"Why?\" details and "
                 "the command line name."))
    rules = own_ui.rules() if own_ui is not None else {r: rule_words(r) for r in RULE_WORDS}
    st.table({_("rule"): list(rules), _("what it says"): list(rules.values())})

st.markdown(_("##### Import a game"))
st.caption(_("An exported file becomes a new game with new codes. Every event is checked and replayed first; "
             "a damaged or tampered file is refused and nothing is stored."))
may_import = owner.owner_gate(_("importing a game"))
st.file_uploader(_("Exported game (.json)"), type=["json"], key="import-file", disabled=not may_import,
                 max_upload_size=1)  # MB: MAX_EXPORT_BYTES, checked again in _import
st.button(_("Import"), key="import-btn", on_click=_import, disabled=not may_import)
