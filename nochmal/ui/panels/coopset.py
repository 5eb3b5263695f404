"""Your co-op set: the six slots I–VI and the user sheet that fills each, the set's name, the
tableau values entered, export and import (the "Your co-op set" tab of the Sheets page); and the
sentence the Start page shows about the sheets a new game will use.

Files and checks are :mod:`nochmal.data.coopset`'s job; this module only arranges widgets.
"""

from __future__ import annotations

import streamlit as st
from streamlit.errors import StreamlitAPIException

from nochmal.data import coopset, userdata
from nochmal.data.i18n import _, ngettext
from nochmal.engine.errors import NochmalError
from nochmal.engine.ruleids import strip_rule_ids
from nochmal.engine.sheet import get_sheet
from nochmal.ui import owner
from nochmal.ui.layout import PAGES_DIR
from nochmal.ui.safe import code, md
from nochmal.ui.sheetview import sheet_html
from nochmal.ui.uploads import checked_upload, refused_lines

ss = st.session_state
RESULT_KEY = "coopset_result"


def page_link(page: str, label: str, icon: str) -> None:
    """A link to the page ``page`` (``"sheets"``, ``"tableaus"``); where the app's pages are not
    registered (a page run as the entry script) the label is shown as text instead."""
    try:
        st.page_link(str(PAGES_DIR / f"{page}.py"), label=label, icon=icon)
    except StreamlitAPIException:
        st.markdown(f"{icon} {label}")


def _problems(err: NochmalError) -> list[str]:
    return [md(strip_rule_ids(p)) for p in userdata.problems_of(err)]


def _load() -> tuple[coopset.CoopSet | None, NochmalError | None]:
    try:
        return coopset.load_set(), None
    except NochmalError as err:
        return None, err


# --------------------------------------------------------------------------- callbacks
def _refused(action: str) -> bool:
    refused = owner.refusal(action)
    if refused:
        ss[RESULT_KEY] = ("error", [refused])
    return bool(refused)


def _assign(slot: str) -> None:
    if _refused(_("Changing the co-op set")):
        return
    sheet_id = ss.get(f"coopset_pick_{slot}")
    try:
        coopset.assign(slot, sheet_id)
    except NochmalError as err:
        ss[RESULT_KEY] = ("error", _problems(err))
        return
    ss[RESULT_KEY] = ("success", [_("Sheet {slot} of your co-op set is now {sheet}.").format(
        slot=slot, sheet=code(sheet_id))])


def _unassign(slot: str) -> None:
    if _refused(_("Changing the co-op set")):
        return
    try:
        coopset.unassign(slot)
    except NochmalError as err:
        ss[RESULT_KEY] = ("error", _problems(err))
        return
    ss[RESULT_KEY] = ("success", [_("Slot {slot} is empty again (the user sheet itself is kept); new games use "
                                    "the stand-in there.").format(slot=slot)])


def _rename() -> None:
    if _refused(_("Renaming the co-op set")):
        return
    try:
        coopset.rename(ss.get("coopset_name") or "")
    except NochmalError as err:
        ss[RESULT_KEY] = ("error", _problems(err))
        return
    ss[RESULT_KEY] = ("success", [_("Your co-op set is now called {name}.").format(
        name=md(ss.get("coopset_name", "").strip()))])


def _import() -> None:
    f, problem = checked_upload("coopset_upload", "set", limit=coopset.MAX_SET_FILE_BYTES)
    if problem:
        ss[RESULT_KEY] = ("error", [problem])
        return
    try:
        done = coopset.import_set(f.name, f.getvalue())
    except NochmalError as err:
        ss[RESULT_KEY] = ("error", [strip_rule_ids(line) for line in refused_lines(err, f.name)])
        return
    ss["coopset_name"] = done.name
    if done.sheets:
        lines = [_("Imported {file} as your co-op set {name}: sheets {slots} (provenance user).").format(
            file=md(userdata.upload_label(f.name)), name=md(done.name), slots=", ".join(done.sheets))]
    else:
        lines = [_("Imported {file} as your co-op set {name}: it holds no sheets.").format(
            file=md(userdata.upload_label(f.name)), name=md(done.name))]
    if done.tableaus:
        lines.append(_("Tableau values for {counts} players are now yours (provenance user).").format(
            counts=", ".join(map(str, done.tableaus))))
    if done.replaced_sheets:
        lines.append(_("Replaced your user sheets with the same id: {sheets}.").format(
            sheets=", ".join(code(s) for s in done.replaced_sheets)))
    if done.replaced_tableaus:
        lines.append(_("Replaced your tableau values for {counts} players.").format(
            counts=", ".join(map(str, done.replaced_tableaus))))
    for slot, warnings in done.warnings.items():
        lines.append(ngettext("Sheet {slot} breaks {n} invariant of the printed base-game sheets (a co-op back "
                              "may differ; see the View tab).",
                              "Sheet {slot} breaks {n} invariants of the printed base-game sheets (a co-op back "
                              "may differ; see the View tab).", len(warnings)).format(slot=slot, n=len(warnings)))
    ss[RESULT_KEY] = ("success", lines)


def _show_result() -> None:
    result = ss.pop(RESULT_KEY, None)
    if result:
        kind, lines = result
        for line in lines:
            (st.success if kind == "success" else st.error)(line)


# --------------------------------------------------------------------------- pieces
def _filled_slot(slot: str, sheet_id: str, may_change: bool) -> None:
    sheet = get_sheet(sheet_id)
    c1, c2 = st.columns([2, 3])
    with c1:
        st.markdown(_("**Sheet {slot}** · {sheet} — {name}").format(slot=slot, sheet=code(sheet_id),
                                                                   name=md(sheet.spec.name)))
        st.caption(_("Provenance: user (entered by you). The **View** tab shows it large."))
        st.button(_("Take it out of the set"), key=f"coopset_unassign_{slot}", on_click=_unassign, args=(slot,),
                  disabled=not may_change)
    c2.html(sheet_html(sheet, colourblind=ss.get("colourblind", False), compact=True))


def _empty_slot(slot: str, named: str | None, free: list[str], may_change: bool) -> None:
    stand_in = coopset.COOP_SHEETS[coopset.SLOTS.index(slot)]
    st.markdown(_("**Sheet {slot}** · not yet: scan it on the 'Digitize: scan a photo' tab, or assign one of "
                  "your co-op user sheets here.").format(slot=slot))
    if named:
        st.warning(_("The set names {sheet} here, but it is no longer one of your co-op user sheets: new games use "
                     "the stand-in {stand_in}.").format(sheet=code(named), stand_in=code(stand_in)))
    else:
        st.caption(_("Until then new games use the stand-in {stand_in} — not the printed sheet. Save yours with "
                     "the id {id} (or any other).").format(stand_in=code(stand_in),
                                                          id=code(coopset.slot_sheet_id(slot))))
    if not free:
        st.caption(_("None of your co-op user sheets is free to assign (a co-op user sheet has “Co-op back” "
                     "ticked when it is saved)."))
        return
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    c1.selectbox(_("Your co-op user sheet for slot {slot}").format(slot=slot), free, key=f"coopset_pick_{slot}")
    c2.button(_("Assign"), key=f"coopset_assign_{slot}", on_click=_assign, args=(slot,), disabled=not may_change)
    if named:
        st.button(_("Take it out of the set"), key=f"coopset_unassign_{slot}", on_click=_unassign, args=(slot,),
                  disabled=not may_change)


def _tableaus() -> None:
    counts = coopset.user_tableau_counts()
    if counts:
        st.markdown(_("**Tableau values** entered by you for: {counts} players. Other player counts use the "
                      "shipped stand-in tableau.").format(counts=", ".join(map(str, counts))))
    else:
        st.markdown(_("**Tableau values:** none entered yet — new co-op games use the shipped stand-in tableaus "
                      "(mostly derived values, not the printed ones)."))
    page_link("tableaus", _("Enter tableau values on the Tableaus page"), "🎯")


def coopset_panel(may_change: bool) -> None:
    """The "Your co-op set" tab: ``may_change`` is whether this browser is the app owner's (the
    buttons that change files are disabled otherwise; the callbacks check again)."""
    st.markdown(_("Your **co-op set** gathers your printed co-op sheets I–VI (the backs of the pad), entered as "
                  "user sheets, and your tableau values. New co-op games start on it: seat 1 takes sheet I, seat 2 "
                  "sheet II, … A slot that is still empty is played on the stand-in of that number, which is "
                  "**not** the printed sheet (its layout is not public)."))
    _show_result()
    coop_set, broken = _load()
    if broken is not None:
        for problem in _problems(broken):
            st.error(_("Your co-op set file cannot be used: {problem}").format(problem=problem))
        st.caption(_("Import a co-op set file below to replace it, or delete {path}.").format(
            path=code(coopset.set_path())))
    name = coop_set.name if coop_set else coopset.default_name()
    filled = coopset.filled_slots(coop_set)
    n = len(filled)
    total = len(coopset.SLOTS)
    st.progress(n / total, text=_("{n} of {total} sheets").format(n=n, total=total))

    ss.setdefault("coopset_name", name)
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    c1.text_input(_("Name of the set"), key="coopset_name", max_chars=80)
    c2.button(_("Rename"), key="coopset_rename", on_click=_rename, disabled=not may_change)

    free = [sid for sid in coopset.co_op_user_sheets() if sid not in filled.values()]
    for slot in coopset.SLOTS:
        with st.container(border=True, key=f"coopset-slot-{slot}"):
            if slot in filled:
                _filled_slot(slot, filled[slot], may_change)
            else:
                _empty_slot(slot, coop_set.sheets.get(slot) if coop_set else None, free, may_change)

    _tableaus()

    st.markdown(_("**Take the set along**"))
    try:
        data = coopset.export_set()
    except NochmalError as err:
        for problem in _problems(err):
            st.error(_("The set cannot be exported: {problem}").format(problem=problem))
    else:
        st.download_button(_("Download the co-op set (.toml)"), data, file_name="coop-set.toml",
                           mime="application/toml", key="coopset_download", icon="⬇️",
                           help=_("One file with the set's name, every sheet of the set and your tableau values "
                                  "(provenance user)."))
    with st.expander(_("Import a co-op set file (.toml)")):
        st.caption(_("A file made with the download button above, at most {kib} KiB. Every sheet and tableau in it "
                     "is checked like a single imported file; a file with any problem is refused and nothing is "
                     "saved. Importing replaces your set, your user sheets with the same ids and your tableau "
                     "values for the player counts in the file.").format(kib=coopset.MAX_SET_FILE_BYTES // 1024))
        st.file_uploader(_("Co-op set file"), type=["toml"], key="coopset_upload", disabled=not may_change,
                         max_upload_size=1)  # MB, the least Streamlit takes; import_set: 256 KiB
        st.button(_("Import co-op set"), key="coopset_import", on_click=_import, disabled=not may_change)


# --------------------------------------------------------------------------- the Start page
def _kind(sheet_id: str, slots: dict[str, str]) -> tuple[str, str | None]:
    """("set", slot) | ("stand-in" | "verified" | "user" | "unreadable", None) of a chosen sheet."""
    for slot, sid in slots.items():
        if sid == sheet_id:
            return "set", slot
    try:
        return get_sheet(sheet_id).provenance, None
    except NochmalError:
        return "unreadable", None


def _seat_words(kind: str, slot: str | None) -> str:
    if kind == "set":
        return _("your co-op set, sheet {slot}").format(slot=slot)
    return {"stand-in": _("stand-in, not the printed sheet"), "verified": _("verified printed sheet"),
            "user": _("your user sheet, not in your co-op set"), "unreadable": _("cannot be read")}.get(kind, kind)


def sheets_note(chosen: list[str]) -> None:
    """Which sheets a new game with the seats' ``chosen`` sheet ids will use, in words (shown on
    the Start page right above the Create button)."""
    coop_set, _broken = _load()
    slots = coopset.filled_slots(coop_set)
    kinds = [_kind(sid, slots) for sid in chosen]
    ids = ", ".join(code(s) for s in chosen)
    stand_ins = any(k == "stand-in" for k, _slot in kinds)
    if kinds and all(k == "set" for k, _slot in kinds):
        text = _("**Sheets:** your co-op set “{name}” — {slots} (entered by you, provenance user).").format(
            name=md(coop_set.name), slots=", ".join(slot for _k, slot in kinds))
    elif kinds and all(k == "stand-in" for k, _slot in kinds):
        text = _("**Sheets:** stand-ins {ids} — not the printed sheets (their layouts are not public); bring yours "
                 "in on the **Sheets** page, tab *Your co-op set*.").format(ids=ids)
    elif kinds and all(k == "verified" for k, _slot in kinds):
        text = _("**Sheets:** {ids} (verified: they match the printed sheets).").format(ids=ids)
    else:
        seats = "; ".join(_("seat {seat}: {sheet} ({what})").format(seat=i + 1, sheet=code(sid),
                                                                   what=_seat_words(kind, slot))
                          for i, (sid, (kind, slot)) in enumerate(zip(chosen, kinds)))
        text = _("**Sheets:** {seats}.").format(seats=seats)
    with st.container(key="new-sheets-note"):
        st.markdown(text)
        if stand_ins:
            page_link("sheets", _("Bring in your printed co-op sheets (Sheets page)"), "🗺️")
