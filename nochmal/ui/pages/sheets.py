"""Sheets: every sheet with its provenance, and digitizing a printed sheet (paste or paint).

The page only arranges widgets; parsing, validation and files are ``nochmal.data.userdata``'s job.
"""

from __future__ import annotations

import streamlit as st

from nochmal.data import userdata
from nochmal.engine.cells import COLOUR_LETTERS, COLOURS
from nochmal.engine.errors import NochmalError
from nochmal.engine.sheet import get_sheet, sheet_ids, sheet_to_toml
from nochmal.engine.sheet import MAX_DATA_FILE_BYTES
from nochmal.data.i18n import _, ngettext, pgettext
from nochmal.data.i18n import _ as tr  # tr(kind.word): a registry's word, marked there with N_()
from nochmal.data.provenance import sheet_meaning
from nochmal.ui.labels import provenance_label
from nochmal.ui import owner
from nochmal.ui.explain import strip_rule_ids
from nochmal.ui.games import sheets_sections
from nochmal.store.games import DEFAULT_GAME, GAMES
from nochmal.ui.safe import code, md, visible
from nochmal.ui.sheetview import sheet_html
from nochmal.ui.panels.coopset import coopset_panel
from nochmal.ui.panels.scan import scan_panel
from nochmal.ui.panels.tap_grid import invariant_notes, tap_grid
from nochmal.ui.uploads import checked_upload, refused_lines

ss = st.session_state


#: the icon before a sheet's provenance in the list of sheets
BADGE_ICONS = {"verified": "✅", "stand-in": "⚠️", "user": "✍️"}


def provenance_badge(provenance: str) -> str:
    """A sheet's provenance as the list of sheets shows it ("✅ verified"; "?": unreadable)."""
    if provenance == "?":
        return _("❌ unreadable")
    if provenance in BADGE_ICONS:
        return f"{BADGE_ICONS[provenance]} {provenance_label(provenance)}"
    return provenance


def provenance_text(provenance: str) -> str:
    """What a provenance means, in the language of the page (an unknown one: the word)."""
    return sheet_meaning(provenance)


def colour_word(letter: str) -> str:
    words = {"y": pgettext("colour", "yellow"), "g": pgettext("colour", "green"), "b": pgettext("colour", "blue"),
             "r": pgettext("colour", "red"), "o": pgettext("colour", "orange")}
    return words.get(letter) or COLOURS[COLOUR_LETTERS.index(letter)]


def init_state() -> None:
    """Defaults of this page's keys (widget keys are re-created when a widget was not shown)."""
    ss.setdefault("paint_grid", list(get_sheet("standard").spec.grid))
    defaults: dict = {"paste_text": "", "paint_colour": "y", "paint_star": False, "paint_base": "standard",
                      "delete_confirm": False}
    for prefix in ("paste", "paint"):
        defaults |= {f"{prefix}_id": "", f"{prefix}_name": "", f"{prefix}_source": "", f"{prefix}_coop": False,
                     f"{prefix}_labels": "P Q R S T U V", f"{prefix}_numbers": "", f"{prefix}_failed": 3}
    for key, value in defaults.items():
        ss.setdefault(key, value)


# --------------------------------------------------------------------------- callbacks
def problems(err: NochmalError) -> list[str]:
    """An error's problems as Markdown lines in words: the rule ids the engine cites are left out."""
    return [md(strip_rule_ids(p)) for p in userdata.problems_of(err)]


def refused(err: NochmalError, name: str) -> list[str]:
    """The error lines of a refused file (:func:`refused_lines`), without rule ids."""
    return [strip_rule_ids(line) for line in refused_lines(err, name)]


def rows_of(prefix: str) -> list[str]:
    return userdata.parse_sheet_text(ss.get("paste_text", "")) if prefix == "paste" else list(ss["paint_grid"])


def data_of(prefix: str, rows: list[str]) -> dict:
    """What the form holds (``.get``: Streamlit drops the keys of widgets that were not shown)."""
    return userdata.sheet_data(
        rows, id=ss.get(f"{prefix}_id", ""), name=ss.get(f"{prefix}_name", ""),
        source=ss.get(f"{prefix}_source", ""), coop=bool(ss.get(f"{prefix}_coop")),
        row_labels=ss.get(f"{prefix}_labels", ""), number_fields=ss.get(f"{prefix}_numbers", ""),
        failed_roll_boxes=int(ss.get(f"{prefix}_failed", 3)))


def save(prefix: str) -> None:
    refused = owner.refusal(_("Saving a user sheet"))
    if refused:
        ss[f"{prefix}_result"] = ("error", [refused])
        return
    try:
        data = data_of(prefix, rows_of(prefix))
        path, warnings = userdata.save_user_sheet(data)
    except NochmalError as err:
        ss[f"{prefix}_result"] = ("error", problems(err))
        return
    if warnings:  # the English says "warning(s)" for any number; the German picks its plural form
        text = ngettext("Saved user sheet **{sheet_id}** with {n} invariant warning(s) to {path}. It is now in the "
                        "list on the **View** tab and can be picked for a new game.",
                        "Saved user sheet **{sheet_id}** with {n} invariant warning(s) to {path}. It is now in the "
                        "list on the **View** tab and can be picked for a new game.", len(warnings))
    else:
        text = _("Saved user sheet **{sheet_id}** to {path}. It is now in the list on the **View** tab and can be "
                 "picked for a new game.")
    ss[f"{prefix}_result"] = ("success", [text.format(sheet_id=md(data["id"]), n=len(warnings), path=code(path))])
    ss["view_sheet"] = data["id"]


def delete(sheet_id: str) -> None:
    refused = owner.refusal(_("Deleting a user sheet"))
    if refused:
        ss["view_result"] = ("error", [refused])
        return
    try:
        path = userdata.delete_user_sheet(sheet_id)
    except NochmalError as err:
        ss["view_result"] = ("error", problems(err))
        return
    ss["view_result"] = ("success", [_("Deleted user sheet **{sheet_id}** ({path}).").format(
        sheet_id=md(sheet_id), path=code(path))])
    ss["view_sheet"] = "standard"
    ss["delete_confirm"] = False


def import_file() -> None:
    """Save the uploaded sheet file as a user sheet (the owner's; checked, capped, validated)."""
    f, problem = checked_upload("sheet_upload", "sheet")
    if problem:
        ss["view_result"] = ("error", [problem])
        return
    try:
        path, warnings, spec = userdata.import_sheet_file(f.name, f.getvalue())
    except NochmalError as err:
        ss["view_result"] = ("error", refused(err, f.name))
        return
    if warnings:  # the English says "warning(s)" for any number
        text = ngettext("Imported {file} as user sheet **{sheet_id}** with {n} invariant warning(s) "
                        "(provenance: user).",
                        "Imported {file} as user sheet **{sheet_id}** with {n} invariant warning(s) "
                        "(provenance: user).", len(warnings))
    else:
        text = _("Imported {file} as user sheet **{sheet_id}** (provenance: user).")
    ss["view_result"] = ("success", [text.format(file=md(userdata.upload_label(f.name)), sheet_id=md(spec.id),
                                                 n=len(warnings))])
    ss["view_sheet"] = spec.id


def fill_example() -> None:
    ss["paste_text"] = userdata.grid_text(get_sheet("standard").spec.grid)


def copy_base() -> None:
    try:
        spec = get_sheet(ss["paint_base"]).spec
    except NochmalError as err:
        ss["paint_result"] = ("error", problems(err))
        return
    ss["paint_grid"] = list(spec.grid)
    ss["paint_coop"] = spec.coop is not None
    if spec.coop is not None:
        ss["paint_labels"] = " ".join(spec.row_labels)
        ss["paint_numbers"] = userdata.number_fields_text(spec)
        ss["paint_failed"] = spec.coop.failed_roll_boxes


def paint(cell: str) -> None:
    ss["paint_grid"] = userdata.paint_cell(ss["paint_grid"], cell, ss.get("paint_colour") or "y",
                                           bool(ss.get("paint_star")))


# --------------------------------------------------------------------------- pieces
def show_result(prefix: str) -> None:
    """A message left by a callback, shown once."""
    result = ss.pop(f"{prefix}_result", None)
    if result:
        kind, lines = result
        for line in lines:
            (st.success if kind == "success" else st.error)(line)


def show_provenance(provenance: str, source: str) -> None:
    {"verified": st.success, "stand-in": st.warning, "user": st.info}.get(provenance, st.error)(
        _("**Provenance: {provenance}.** {text}").format(provenance=provenance_label(provenance),
                                                         text=provenance_text(provenance)))
    st.markdown(_("**Source:** {source}").format(source=md(source) or "—"))


def show_invariants(violations: list, saved: bool) -> None:
    n = len(violations)  # the English says "warning(s)" for any number; the German picks its plural form
    if saved:
        text = ngettext("**{n} invariant warning(s).** Printed base-game sheets satisfy these; a co-op back may "
                        "differ, so the sheet is usable anyway — but check for typos:",
                        "**{n} invariant warning(s).** Printed base-game sheets satisfy these; a co-op back may "
                        "differ, so the sheet is usable anyway — but check for typos:", n)
    else:
        text = ngettext("**{n} invariant warning(s).** Printed base-game sheets satisfy these; a co-op back may "
                        "differ, so you can save anyway — but check for typos:",
                        "**{n} invariant warning(s).** Printed base-game sheets satisfy these; a co-op back may "
                        "differ, so you can save anyway — but check for typos:", n)
    invariant_notes(violations, _("Every invariant of the printed base-game sheets holds (21 cells per colour, "
                                  "blocks 1–6, 15 stars, one per column, ...)."), text)


def details(prefix: str) -> None:
    """Id, name, source and the optional co-op extras of a sheet being digitized."""
    c1, c2 = st.columns(2)
    c1.text_input(_("Sheet id"), key=f"{prefix}_id", placeholder=_("e.g. my-coop-I"),
                  help=_("1–64 letters, digits, '-', '_' or '.'; the ids of shipped sheets are reserved"))
    c2.text_input(_("Name"), key=f"{prefix}_name", placeholder=_("e.g. Co-op sheet I (my printed pad)"))
    st.text_input(_("Source"), key=f"{prefix}_source", placeholder=_("entered by hand from a printed sheet"))
    sid = ss[f"{prefix}_id"].strip()
    if userdata.ID_PATTERN.match(sid) and userdata.user_sheet_path(sid).is_file():
        st.caption(_("A user sheet **{sheet_id}** exists; saving replaces it.").format(sheet_id=md(sid)))
    st.checkbox(_("Co-op back (rows labelled P–V, number fields, failed-roll boxes)"), key=f"{prefix}_coop")
    if ss[f"{prefix}_coop"]:
        c1, c2 = st.columns([3, 1])
        c1.text_input(_("Row labels, top to bottom"), key=f"{prefix}_labels")
        c2.number_input(_("Failed-roll boxes"), min_value=1, max_value=5, step=1, key=f"{prefix}_failed")
        st.text_area(_("Number fields, one `number: cell` a line"), key=f"{prefix}_numbers", height=150,
                     placeholder="1: F1\n2: N1\n3: C2",
                     help=_("cell = the top-left cell of the 2×2 square whose middle holds the round number field"))


def preview(prefix: str, rows: list[str]) -> None:
    """The sheet as it would be saved, and the invariants it breaks."""
    try:
        data = data_of(prefix, rows)
    except NochmalError as err:
        for p in problems(err):
            st.error(p)
        data = userdata.sheet_data(rows, id="preview")
    try:
        sheet, violations = userdata.preview_sheet(data)
    except NochmalError as err:
        for p in problems(err):
            st.error(p)
        sheet, violations = userdata.preview_sheet(userdata.sheet_data(rows, id="preview"))
    st.html(sheet_html(sheet, colourblind=ss.get("colourblind", False), title=_("Preview")))
    show_invariants(violations, saved=False)


def save_button(prefix: str) -> None:
    st.button(_("Save as user sheet"), key=f"{prefix}_save", type="primary", on_click=save, args=(prefix,),
              disabled=not may_change)
    show_result(prefix)


PASTE_CSS = "<style>.st-key-paste_text textarea{font-family:ui-monospace,monospace;letter-spacing:1px}</style>"


def paint_grid(rows: list[str]) -> None:
    """7×15 buttons (keys ``paint-A1`` ... ``paint-O7``), each painted in its cell's colour."""
    tap_grid("paint", rows, paint)


# --------------------------------------------------------------------------- the page
# a game with sheets of its own (twenty one, from the registry of the games' pages) is one choice away
OTHER_GAMES = sheets_sections()
if OTHER_GAMES:
    choices = [GAMES[DEFAULT_GAME].word] + [kind.word for kind, _section in OTHER_GAMES]
    picked = st.segmented_control(_("Game"), range(len(choices)), format_func=lambda i: tr(choices[i]),
                                  default=0, key="sheets_game")
    if picked:  # None (nothing chosen) and 0: Noch mal!'s sheets
        OTHER_GAMES[picked - 1][1]()
        st.stop()
init_state()
st.title(_("Sheets"))
st.caption(_("Every sheet the app knows, where it comes from, and a way to enter your printed co-op sheets."))
may_change = owner.owner_gate(_("saving, importing and deleting user sheets"))
view_tab, scan_tab, paste_tab, paint_tab, set_tab = st.tabs(
    [_("View"), _("Digitize: scan a photo"), _("Digitize: paste letters"), _("Digitize: paint cells"),
     _("Your co-op set")])

with scan_tab:
    scan_panel(may_change)

with set_tab:
    coopset_panel(may_change)

with view_tab:
    catalogue = {row["id"]: row for row in userdata.sheet_catalogue()}
    if ss.get("view_sheet") not in catalogue:
        ss["view_sheet"] = "standard" if "standard" in catalogue else next(iter(catalogue))
    st.selectbox(_("Sheet"), list(catalogue), key="view_sheet",
                 format_func=lambda i: visible(f"{i} — {catalogue[i]['name']} "
                                               f"({provenance_badge(catalogue[i]['provenance'])})"))
    show_result("view")
    row = catalogue[ss["view_sheet"]]
    origin = _("your user data folder") if row["user"] else _("shipped with the app")
    if row["error"]:
        # the file by its name: the folder it lives in is this machine's business, not every viewer's
        problem = strip_rule_ids(row["error"]).replace(str(row["path"]), row["path"].name)
        st.error(_("This sheet file cannot be used: {problem}").format(problem=md(problem)))
    else:
        sheet = get_sheet(row["id"])
        spec = sheet.spec
        show_provenance(sheet.provenance, spec.source)
        st.html(sheet_html(sheet, colourblind=ss.get("colourblind", False), title=spec.name))
        facts = [_("start column **{column}**").format(column=spec.start_column),
                 _('**{n}** "!"').format(n=spec.jokers),
                 _("rows **{rows}**").format(rows=md(" ".join(spec.row_labels)))]
        if spec.coop is not None:
            facts.append(_("**{n}** failed-roll boxes").format(n=spec.coop.failed_roll_boxes))
            fields = ", ".join(_("{number} at {cell}").format(number=f.number, cell=f.cell)
                               for f in spec.coop.number_fields) or pgettext("number fields", "none")
            facts.append(_("number fields (top-left cell of their 2×2 square): {fields}").format(fields=fields))
        st.markdown(" · ".join(facts))
        st.caption(_("File: {path} ({origin})").format(path=code(row["path"]), origin=origin))
        if sheet.provenance == "user":
            show_invariants(sheet.warnings, saved=True)
        with st.expander(_("File text")):
            st.code(sheet_to_toml(spec), language="toml")
    if row["user"]:
        c1, c2 = st.columns([2, 1], vertical_alignment="center")
        c1.checkbox(_("Yes, delete the user sheet {sheet_id}").format(sheet_id=md(row["id"])), key="delete_confirm")
        c2.button(_("Delete user sheet"), key="delete_sheet", on_click=delete, args=(row["id"],),
                  disabled=not (ss["delete_confirm"] and may_change))
    with st.expander(_("Import a sheet file (.toml)")):
        st.caption(_("A sheet file in the layout of the shipped ones (see *File text* above), at most {kib} KiB. "
                     "It is checked like a typed sheet and saved as a *user* sheet; a file that cannot be used is "
                     "refused and nothing is saved.").format(kib=MAX_DATA_FILE_BYTES // 1024))
        st.file_uploader(_("Sheet file"), type=["toml"], key="sheet_upload", disabled=not may_change,
                         max_upload_size=1)  # MB, the least Streamlit takes; checked_upload: 64 KiB
        st.button(_("Import sheet file"), key="sheet_import", on_click=import_file, disabled=not may_change)

with paste_tab:
    st.markdown(_(
        "Type or paste the **7 rows** of your printed sheet, top row first, **15 letters** each (columns A–O): "
        "`y` yellow, `g` green, `b` blue, `r` red (pink), `o` orange; an **UPPERCASE** letter marks a star. "
        "Spaces, commas and blank lines are ignored."))
    st.markdown(PASTE_CSS, unsafe_allow_html=True)
    st.button(_("Fill in an example (the standard sheet)"), key="paste_example", on_click=fill_example)
    st.text_area(_("Rows of letters (7 lines × 15 letters)"), key="paste_text", height=200,
                 placeholder="gggyyyyGbbbOyyy\nogYgYyoorBboogg\n…")
    pasted = None
    if ss["paste_text"].strip():
        try:
            pasted = userdata.parse_sheet_text(ss["paste_text"])
        except NochmalError as err:
            for problem in problems(err):
                st.error(problem)
    else:
        st.info(_("Nothing pasted yet: the preview and the invariant check appear here."))
    if pasted is not None:
        preview("paste", pasted)
    st.subheader(_("Save"))
    details("paste")
    save_button("paste")

with paint_tab:
    st.markdown(_("Start from a copy of any sheet, choose a colour (and whether the cell has a star), then tap "
                  "cells to paint them."))
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    c1.selectbox(_("Start from a copy of"), sheet_ids(), key="paint_base")
    c2.button(_("Copy"), key="paint_copy", on_click=copy_base)
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    c1.segmented_control(_("Colour"), list(COLOUR_LETTERS), key="paint_colour", required=True,
                         format_func=colour_word)
    c2.toggle(_("★ Star"), key="paint_star")
    paint_grid(ss["paint_grid"])
    preview("paint", ss["paint_grid"])
    st.subheader(_("Save"))
    details("paint")
    save_button("paint")
