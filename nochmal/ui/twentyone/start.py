"""The Start page's form for a new twenty one game: players 1-6, who plays each seat (a person or
one of the registry's bots), the sheets A-F (a different one per seat, T-SHEET; stand-ins labelled
with their provenance), digital or physical dice. It creates the game in the store and opens its
Table page."""

from __future__ import annotations

import streamlit as st

from nochmal.data.i18n import _, ngettext
from nochmal.engine.errors import NochmalError
from nochmal.engine.ruleids import strip_rule_ids
from nochmal.engine.twentyone.sheets import SHEET_IDS, get_sheet, sheet_ids
from nochmal.store.db import StoreError
from nochmal.store.games import TWENTYONE
from nochmal.store.session import GameSession
from nochmal.ui import state
from nochmal.ui.labels import default_name, provenance_label
from nochmal.ui.safe import md, visible
from nochmal.ui.storeerror import store_error_text

ss = st.session_state
KINDS = ("digital", "companion")


def kind_choice(kind: str) -> str:
    return (_("Digital — the app rolls; hot-seat players and bots") if kind == "digital"
            else _("At a real table — you roll the six dice and enter them here"))


def player_choice(name: str) -> str:
    return _("Person") if name == "human" else _("{bot} bot 🤖").format(bot=name.capitalize())


def sheet_choice(sid: str) -> str:
    """A sheet in the seats' lists: a shipped one with its provenance, the owner's own as "your sheet"."""
    try:
        sheet = get_sheet(sid)
    except NochmalError:
        return visible(_("{sheet} (unreadable)").format(sheet=sid))
    if sid not in SHEET_IDS:
        return visible(_("{id} — your sheet").format(id=sid))
    return _("Sheet {id} — {provenance}").format(id=sid, provenance=provenance_label(sheet.provenance))


def _defaults() -> None:
    ss.setdefault("t21-kind", "digital")
    if ss.get("t21-players") not in range(TWENTYONE.min_seats, TWENTYONE.max_seats + 1):
        ss["t21-players"] = 3
    known = sheet_ids()
    for i in range(TWENTYONE.max_seats):
        ss.setdefault(f"t21-name-{i}", default_name(i))
        if ss.get(f"t21-sheet-{i}") not in known:
            ss[f"t21-sheet-{i}"] = SHEET_IDS[i % len(SHEET_IDS)]
        if ss.get(f"t21-bot-{i}") not in ("human", *TWENTYONE.policy_names):
            ss[f"t21-bot-{i}"] = "human"


def default_title(n: int) -> str:
    return ngettext("twenty one, {n} player", "twenty one, {n} players", n).format(n=n)


def _create() -> None:
    n = ss.get("t21-players")
    if n not in range(TWENTYONE.min_seats, TWENTYONE.max_seats + 1):
        state.flash("error", _("Players: choose {lo} to {hi}.").format(lo=TWENTYONE.min_seats, hi=TWENTYONE.max_seats))
        return
    digital = ss.get("t21-kind") == "digital"
    names = [(ss.get(f"t21-name-{i}") or "").strip()[:30] or default_name(i) for i in range(n)]
    sheets = [ss.get(f"t21-sheet-{i}") for i in range(n)]
    if len(set(sheets)) != n:
        state.flash("error", _("Sheets: every seat plays a different sheet; seats {seats} chose the same."
                               ).format(seats=", ".join(str(i + 1) for i, s in enumerate(sheets)
                                                        if sheets.count(s) > 1)))
        return
    bots = [None] * n
    if digital:
        bots = [None if ss.get(f"t21-bot-{i}", "human") == "human" else ss[f"t21-bot-{i}"] for i in range(n)]
    seed_text = (ss.get("t21-seed") or "").strip()
    if seed_text and not (seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 18):
        state.flash("error", _("The dice's starting number must be a whole number, got {seed}.").format(
            seed=md(repr(seed_text))))
        return
    title = (ss.get("t21-title") or "").strip()[:60] or default_title(n)
    try:
        game = TWENTYONE.new_game(n, None, sheets=sheets)
        ses = GameSession.create(state.store(), game, title=title, seat_names=names,
                                 kind="digital" if digital else "companion",
                                 seed=int(seed_text) if seed_text else None, bots=bots)
    except NochmalError as err:
        state.flash("error", _("Could not create the game: {error}").format(error=md(strip_rule_ids(str(err)))))
        return
    except StoreError as err:
        state.flash("error", store_error_text(err))
        return
    state.open_as_host(ses)
    text = _("Game created. This browser keeps it: it is listed under **Games on this device** on the Start page.")
    if sum(1 for b in bots if not b) > 1:
        text += " " + _("Phones join with the QR code under **📱 Join with phones** on the Table page.")
    state.flash("success", text)
    state.goto("table")


def new_game_form() -> None:
    """The form (inside the Start page's New game tab)."""
    _defaults()
    st.radio(_("How do you play?"), list(KINDS), format_func=kind_choice, key="t21-kind")
    digital = ss["t21-kind"] == "digital"
    n = st.selectbox(_("Players"), list(range(TWENTYONE.min_seats, TWENTYONE.max_seats + 1)), key="t21-players",
                     width=120)
    if n == 1:
        st.caption(_("One player alone practises: always active, the game ends with the fifth row."))
    with st.expander(_("Seats: names, sheets, who plays; title"), expanded=digital):
        for i in range(n):
            cols = st.columns([3, 3, 2] if digital else [3, 3])
            cols[0].text_input(_("Name of seat {seat}").format(seat=i + 1), key=f"t21-name-{i}", max_chars=30)
            cols[1].selectbox(_("Sheet of seat {seat}").format(seat=i + 1), sheet_ids(), format_func=sheet_choice,
                              key=f"t21-sheet-{i}")
            if digital:
                cols[2].selectbox(_("Seat {seat} plays as").format(seat=i + 1), ["human", *TWENTYONE.policy_names],
                                  format_func=player_choice, key=f"t21-bot-{i}")
        st.text_input(_("Title (optional)"), key="t21-title", max_chars=60, placeholder=default_title(n))
        if digital:
            st.text_input(_("Starting number of the dice (optional: the same number gives the same rolls; blank = "
                            "random)"), key="t21-seed")
    st.button(_("Create game"), key="t21-create", type="primary", icon="▶️", on_click=_create)
    chosen = sorted({ss.get(f"t21-sheet-{i}") for i in range(n)} - {None})
    stand_ins = [s for s in chosen if s in SHEET_IDS and "stand-in" in get_sheet(s).provenance]
    if stand_ins:
        with st.expander(_("⚠️ Notes: stand-in sheets"), key="t21-notes"):
            st.warning(_("Sheets {sheets} are stand-ins: the colour order of their rows and the numbers of rows 2-5 "
                         "are not public, so they are generated look-alikes, **not the printed sheets**. Row 1 (6 5 4 "
                         "3 2 1) is as printed.").format(sheets=", ".join(stand_ins)))
            for s in stand_ins:
                st.caption(md(get_sheet(s).spec.source))
