"""Sheets: every sheet with its provenance, and digitizing a printed sheet (paste or paint).

The page only arranges widgets; parsing, validation and files are ``nochmal.data.userdata``'s job.
"""

from __future__ import annotations

import streamlit as st

from nochmal.data import userdata
from nochmal.engine.cells import COLOUR_LETTERS, COLOURS, COLUMNS, N_COLS, N_ROWS, cell_name
from nochmal.engine.errors import NochmalError
from nochmal.engine.sheet import get_sheet, sheet_ids, sheet_to_toml
from nochmal.engine.sheet import MAX_DATA_FILE_BYTES
from nochmal.ui import owner
from nochmal.ui.explain import strip_rule_ids
from nochmal.ui.safe import code, md, visible
from nochmal.ui.sheetview import PALETTE, sheet_html
from nochmal.ui.uploads import checked_upload, refused_lines

ss = st.session_state
PROVENANCE_BADGE = {"verified": "✅ verified", "stand-in": "⚠️ stand-in", "user": "✍️ user", "?": "❌ unreadable"}


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
    refused = owner.refusal("Saving a user sheet")
    if refused:
        ss[f"{prefix}_result"] = ("error", [refused])
        return
    try:
        data = data_of(prefix, rows_of(prefix))
        path, warnings = userdata.save_user_sheet(data)
    except NochmalError as err:
        ss[f"{prefix}_result"] = ("error", problems(err))
        return
    note = f" with {len(warnings)} invariant warning(s)" if warnings else ""
    ss[f"{prefix}_result"] = ("success", [
        f"Saved user sheet **{md(data['id'])}**{note} to {code(path)}. It is now in the list on the **View** tab "
        f"and can be picked for a new game."])
    ss["view_sheet"] = data["id"]


def delete(sheet_id: str) -> None:
    refused = owner.refusal("Deleting a user sheet")
    if refused:
        ss["view_result"] = ("error", [refused])
        return
    try:
        path = userdata.delete_user_sheet(sheet_id)
    except NochmalError as err:
        ss["view_result"] = ("error", problems(err))
        return
    ss["view_result"] = ("success", [f"Deleted user sheet **{md(sheet_id)}** ({code(path)})."])
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
    note = f" with {len(warnings)} invariant warning(s)" if warnings else ""
    ss["view_result"] = ("success", [f"Imported {md(userdata.upload_label(f.name))} as user sheet **{md(spec.id)}**"
                                     f"{note} (provenance: user)."])
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
    text = userdata.SHEET_PROVENANCE_TEXT.get(provenance, provenance)
    {"verified": st.success, "stand-in": st.warning, "user": st.info}.get(provenance, st.error)(
        f"**Provenance: {provenance}.** {text}")
    st.markdown(f"**Source:** {md(source) or '—'}")


def show_invariants(violations: list, saved: bool) -> None:
    if not violations:
        st.success("Every invariant of the printed base-game sheets holds (21 cells per colour, blocks 1–6, "
                   "15 stars, one per column, ...).")
        return
    st.markdown(f"**{len(violations)} invariant warning(s).** Printed base-game sheets satisfy these; a co-op back "
                f"may differ, so {'the sheet is usable anyway' if saved else 'you can save anyway'} — but check "
                f"for typos:")
    for v in violations:
        st.warning(md(v))


def details(prefix: str) -> None:
    """Id, name, source and the optional co-op extras of a sheet being digitized."""
    c1, c2 = st.columns(2)
    c1.text_input("Sheet id", key=f"{prefix}_id", placeholder="e.g. my-coop-I",
                  help="1–64 letters, digits, '-', '_' or '.'; the ids of shipped sheets are reserved")
    c2.text_input("Name", key=f"{prefix}_name", placeholder="e.g. Co-op sheet I (my printed pad)")
    st.text_input("Source", key=f"{prefix}_source", placeholder="entered by hand from a printed sheet")
    sid = ss[f"{prefix}_id"].strip()
    if userdata.ID_PATTERN.match(sid) and userdata.user_sheet_path(sid).is_file():
        st.caption(f"A user sheet **{md(sid)}** exists; saving replaces it.")
    st.checkbox("Co-op back (rows labelled P–V, number fields, failed-roll boxes)", key=f"{prefix}_coop")
    if ss[f"{prefix}_coop"]:
        c1, c2 = st.columns([3, 1])
        c1.text_input("Row labels, top to bottom", key=f"{prefix}_labels")
        c2.number_input("Failed-roll boxes", min_value=1, max_value=5, step=1, key=f"{prefix}_failed")
        st.text_area("Number fields, one `number: cell` a line", key=f"{prefix}_numbers", height=150,
                     placeholder="1: F1\n2: N1\n3: C2",
                     help="cell = the top-left cell of the 2×2 square whose middle holds the round number field")


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
    st.html(sheet_html(sheet, colourblind=ss.get("colourblind", False), title="Preview"))
    show_invariants(violations, saved=False)


def save_button(prefix: str) -> None:
    st.button("Save as user sheet", key=f"{prefix}_save", type="primary", on_click=save, args=(prefix,),
              disabled=not may_change)
    show_result(prefix)


PASTE_CSS = "<style>.st-key-paste_text textarea{font-family:ui-monospace,monospace;letter-spacing:1px}</style>"


def grid_css(rows: list[str]) -> str:
    rules = [
        ".st-key-paint-grid [data-testid='stHorizontalBlock']{flex-wrap:nowrap!important;gap:2px!important}",
        ".st-key-paint-grid [data-testid='stColumn']{min-width:0!important;width:auto!important;"
        "flex:1 1 0!important}",
        ".st-key-paint-grid [data-testid='stColumn']:first-child{flex:0 0 1.2em!important}",
        ".st-key-paint-grid .stButton button{min-height:0!important;height:30px;width:100%;min-width:0;"
        "padding:0!important;border:1px solid rgba(0,0,0,.3)}",
        ".st-key-paint-grid .stButton button p{font-size:12px;font-weight:700;white-space:nowrap;overflow:visible;"
        "text-overflow:clip;line-height:1;margin:0}",
        ".st-key-paint-grid .stButton [data-testid='stMarkdownContainer']{overflow:visible;line-height:1}",
        "@media (max-width:640px){.st-key-paint-grid .stButton button p{font-size:10px;letter-spacing:-1px}"
        ".st-key-paint-grid .stButton button{height:26px}}",
        ".nm-paint-head{text-align:center;font-weight:700;font-size:12px;line-height:18px}",
        ".st-key-paint-grid [data-testid='stVerticalBlock']{gap:2px!important}",
    ]
    for i, ch in enumerate("".join(rows)):
        fill, ink = PALETTE[COLOUR_LETTERS.index(ch.lower())]
        rules.append(f".st-key-paint-{cell_name(i)} button{{background:{fill}!important;color:{ink}!important}}")
    return "<style>" + "".join(rules) + "</style>"


def paint_grid(rows: list[str]) -> None:
    """7×15 buttons (keys ``paint-A1`` ... ``paint-O7``), each painted in its cell's colour."""
    st.markdown(grid_css(rows), unsafe_allow_html=True)
    with st.container(key="paint-grid", gap="xxsmall", width=620):
        head = st.columns(N_COLS + 1, gap="xxsmall", wrap=False)
        for c in range(N_COLS):
            head[c + 1].html(f'<div class="nm-paint-head">{COLUMNS[c]}</div>')
        for r in range(N_ROWS):
            cols = st.columns(N_COLS + 1, gap="xxsmall", wrap=False, vertical_alignment="center")
            cols[0].html(f'<div class="nm-paint-head">{r + 1}</div>')
            for c in range(N_COLS):
                i = r * N_COLS + c
                ch = rows[r][c]
                label = ch.upper() + ("★" if ch.isupper() else "")
                cols[c + 1].button(label, key=f"paint-{cell_name(i)}", on_click=paint, args=(cell_name(i),),
                                   width="stretch")


# --------------------------------------------------------------------------- the page
init_state()
st.title("Sheets")
st.caption("Every sheet the app knows, where it comes from, and a way to enter your printed co-op sheets.")
may_change = owner.owner_gate("saving, importing and deleting user sheets")
view_tab, paste_tab, paint_tab = st.tabs(["View", "Digitize: paste letters", "Digitize: paint cells"])

with view_tab:
    catalogue = {row["id"]: row for row in userdata.sheet_catalogue()}
    if ss.get("view_sheet") not in catalogue:
        ss["view_sheet"] = "standard" if "standard" in catalogue else next(iter(catalogue))
    st.selectbox("Sheet", list(catalogue), key="view_sheet",
                 format_func=lambda i: visible(f"{i} — {catalogue[i]['name']} "
                                               f"({PROVENANCE_BADGE[catalogue[i]['provenance']]})"))
    show_result("view")
    row = catalogue[ss["view_sheet"]]
    origin = "your user data folder" if row["user"] else "shipped with the app"
    if row["error"]:
        # the file by its name: the folder it lives in is this machine's business, not every viewer's
        problem = strip_rule_ids(row["error"]).replace(str(row["path"]), row["path"].name)
        st.error(f"This sheet file cannot be used: {md(problem)}")
    else:
        sheet = get_sheet(row["id"])
        spec = sheet.spec
        show_provenance(sheet.provenance, spec.source)
        st.html(sheet_html(sheet, colourblind=ss.get("colourblind", False), title=spec.name))
        facts = [f"start column **{spec.start_column}**", f"**{spec.jokers}** \"!\"",
                 f"rows **{md(' '.join(spec.row_labels))}**"]
        if spec.coop is not None:
            facts.append(f"**{spec.coop.failed_roll_boxes}** failed-roll boxes")
            fields = ", ".join(f"{f.number} at {f.cell}" for f in spec.coop.number_fields) or "none"
            facts.append(f"number fields (top-left cell of their 2×2 square): {fields}")
        st.markdown(" · ".join(facts))
        st.caption(f"File: {code(row['path'])} ({origin})")
        if sheet.provenance == "user":
            show_invariants(sheet.warnings, saved=True)
        with st.expander("File text"):
            st.code(sheet_to_toml(spec), language="toml")
    if row["user"]:
        c1, c2 = st.columns([2, 1], vertical_alignment="center")
        c1.checkbox(f"Yes, delete the user sheet {md(row['id'])}", key="delete_confirm")
        c2.button("Delete user sheet", key="delete_sheet", on_click=delete, args=(row["id"],),
                  disabled=not (ss["delete_confirm"] and may_change))
    with st.expander("Import a sheet file (.toml)"):
        st.caption(f"A sheet file in the layout of the shipped ones (see *File text* above), at most "
                   f"{MAX_DATA_FILE_BYTES // 1024} KiB. It is checked like a typed sheet and saved as a *user* "
                   f"sheet; a file that cannot be used is refused and nothing is saved.")
        st.file_uploader("Sheet file", type=["toml"], key="sheet_upload", disabled=not may_change)
        st.button("Import sheet file", key="sheet_import", on_click=import_file, disabled=not may_change)

with paste_tab:
    st.markdown(
        "Type or paste the **7 rows** of your printed sheet, top row first, **15 letters** each (columns A–O): "
        "`y` yellow, `g` green, `b` blue, `r` red (pink), `o` orange; an **UPPERCASE** letter marks a star. "
        "Spaces, commas and blank lines are ignored.")
    st.markdown(PASTE_CSS, unsafe_allow_html=True)
    st.button("Fill in an example (the standard sheet)", key="paste_example", on_click=fill_example)
    st.text_area("Rows of letters (7 lines × 15 letters)", key="paste_text", height=200,
                 placeholder="gggyyyyGbbbOyyy\nogYgYyoorBboogg\n…")
    pasted = None
    if ss["paste_text"].strip():
        try:
            pasted = userdata.parse_sheet_text(ss["paste_text"])
        except NochmalError as err:
            for problem in problems(err):
                st.error(problem)
    else:
        st.info("Nothing pasted yet: the preview and the invariant check appear here.")
    if pasted is not None:
        preview("paste", pasted)
    st.subheader("Save")
    details("paste")
    save_button("paste")

with paint_tab:
    st.markdown("Start from a copy of any sheet, choose a colour (and whether the cell has a star), then tap "
                "cells to paint them.")
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    c1.selectbox("Start from a copy of", sheet_ids(), key="paint_base")
    c2.button("Copy", key="paint_copy", on_click=copy_base)
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    c1.segmented_control("Colour", list(COLOUR_LETTERS), key="paint_colour", required=True,
                         format_func=lambda ch: COLOURS[COLOUR_LETTERS.index(ch)])
    c2.toggle("★ Star", key="paint_star")
    paint_grid(ss["paint_grid"])
    preview("paint", ss["paint_grid"])
    st.subheader("Save")
    details("paint")
    save_button("paint")
