"""twenty one on the Sheets page: the sheets A-F and the owner's own (view, delete), and typing a
printed sheet: 5 rows of 6 fields, each a colour and a printed value, a preview drawn as the game
draws a sheet with the fields that break a rule outlined, every problem under its row, and Save.
Parsing, checks and files are :mod:`nochmal.data.twentyoneuser`'s; this module only arranges
widgets and calls it."""

from __future__ import annotations

import streamlit as st

from nochmal.data import twentyoneuser as U
from nochmal.data.i18n import _
from nochmal.data.userdata import problems_of
from nochmal.engine.errors import NochmalError
from nochmal.engine.ruleids import strip_rule_ids
from nochmal.engine.twentyone.components import COLOUR_LETTERS, N_FIELDS, N_ROWS, ROW_1_VALUES
from nochmal.engine.twentyone.sheets import SHEET_IDS, get_sheet, sheet_ids, sheet_to_toml, user_sheet_ids
from nochmal.ui import owner
from nochmal.ui.labels import provenance_label
from nochmal.ui.safe import md, visible
from nochmal.ui.twentyone.sheet import preview_html

ss = st.session_state
#: the colours' squares before their words in the form
SQUARES = ("⬜", "⬛", "🟥", "🟦", "🟨", "🟩")
VALUES = (1, 2, 3, 4, 5, 6)
#: a row's six fields stay side by side on a phone (Streamlit stacks columns below 640 px): the colour's
#: square and the value stay readable, the colour's word may be cut
FORM_CSS = ("<style>.st-key-t21s-form div[data-testid='stHorizontalBlock']{flex-wrap:nowrap !important;"
            "gap:4px !important}.st-key-t21s-form div[data-testid='stColumn']{min-width:0 !important;"
            "width:auto !important;flex:1 1 0 !important}"
            "@media (max-width:640px){.st-key-t21s-form [data-testid='stSelectbox'] button{display:none !important}"
            ".st-key-t21s-form [data-testid='stSelectbox'] input{padding-left:4px !important;"
            "padding-right:0 !important}}</style>")


def colour_key(r: int, p: int) -> str:
    return f"t21s-c-{r}-{p}"


def value_key(r: int, p: int) -> str:
    return f"t21s-v-{r}-{p}"


def colour_option(letter: str) -> str:
    i = COLOUR_LETTERS.index(letter)
    return f"{SQUARES[i]} {U.colour_name(letter)}"


def sheet_option(sid: str) -> str:
    """A sheet in the lists: its id and where it comes from ("your sheet" for the owner's)."""
    if sid in SHEET_IDS:
        try:
            return _("Sheet {id} — {provenance}").format(id=sid, provenance=provenance_label(get_sheet(sid).provenance))
        except NochmalError:
            return _("{sheet} (unreadable)").format(sheet=sid)
    return visible(_("{id} — your sheet").format(id=sid))


def fill_from(sheet_id: str) -> None:
    """The form holds the colours and values of ``sheet_id``."""
    colours, values = U.form_rows(sheet_id)
    for r in range(N_ROWS):
        for p in range(N_FIELDS):
            ss[colour_key(r, p)] = colours[r][p]
            ss[value_key(r, p)] = values[r][p]


def set_form(colours: list[list[str]], values: list[list[int]]) -> None:
    """The form holds these rows (a scan's proposal); anything that is no option is left as it was."""
    for r in range(N_ROWS):
        for p in range(N_FIELDS):
            if colours[r][p] in COLOUR_LETTERS:
                ss[colour_key(r, p)] = colours[r][p]
            if values[r][p] in VALUES:
                ss[value_key(r, p)] = values[r][p]


def init_state() -> None:
    """The form's defaults: sheet A's colours, every row's values 6 5 4 3 2 1; a value that is no
    option (a stale or forged session) is put back to the default."""
    ss.setdefault("t21s-base", "A")
    ss.setdefault("t21s-view", "A")
    for key in ("t21s-id", "t21s-name", "t21s-source"):
        ss.setdefault(key, "")
    a = get_sheet("A").spec.colours
    for r in range(N_ROWS):
        for p in range(N_FIELDS):
            if ss.get(colour_key(r, p)) not in tuple(COLOUR_LETTERS):
                ss[colour_key(r, p)] = a[r][p]
            if ss.get(value_key(r, p)) not in VALUES:
                ss[value_key(r, p)] = ROW_1_VALUES[p]


def form_grids() -> tuple[list[list[str]], list[list[int]]]:
    return ([[ss.get(colour_key(r, p)) for p in range(N_FIELDS)] for r in range(N_ROWS)],
            [[ss.get(value_key(r, p)) for p in range(N_FIELDS)] for r in range(N_ROWS)])


def problems(err: NochmalError) -> list[str]:
    """An error as lines in words (no rule ids), Markdown-safe."""
    if isinstance(err, U.TypedSheetError):
        return [md(p) for p in err.problems]
    return [md(strip_rule_ids(p)) for p in problems_of(err)]


# --------------------------------------------------------------------------- callbacks
def copy_base() -> None:
    try:
        fill_from(ss.get("t21s-base") or "A")
    except NochmalError as err:
        ss["t21s-result"] = ("error", problems(err))
        return
    ss.pop("t21s-scan", None)  # the form no longer holds what was read


def save() -> None:
    refused = owner.refusal(_("Saving your sheet"))
    if refused:
        ss["t21s-result"] = ("error", [refused])
        return
    colours, values = form_grids()
    try:
        data = U.typed_sheet_data(ss.get("t21s-id"), colours, values, ss.get("t21s-name"), ss.get("t21s-source"))
        U.save_user_sheet(data)
    except NochmalError as err:
        ss["t21s-result"] = ("error", problems(err))
        return
    ss["t21s-result"] = ("success", [_("Saved your sheet **{id}**. It can now be chosen for a twenty one game on "
                                       "the Start page.").format(id=md(data["id"]))])
    ss["t21s-view"] = data["id"]
    ss.pop("t21s-scan", None)


def delete(sheet_id: str) -> None:
    refused = owner.refusal(_("Deleting your sheet"))
    if refused:
        ss["t21s-view-result"] = ("error", [refused])
        return
    try:
        U.delete_user_sheet(sheet_id)
    except NochmalError as err:
        ss["t21s-view-result"] = ("error", problems(err))
        return
    ss["t21s-view-result"] = ("success", [_("Deleted your sheet **{id}**. Games already played on it keep it.").format(
        id=md(sheet_id))])
    ss["t21s-view"] = "A"
    ss["t21s-delete-confirm"] = False


def edit(sheet_id: str) -> None:
    """Load one of the owner's sheets into the typing form (saving again replaces it)."""
    try:
        fill_from(sheet_id)
        spec = get_sheet(sheet_id).spec
    except NochmalError as err:
        ss["t21s-view-result"] = ("error", problems(err))
        return
    ss["t21s-id"], ss["t21s-name"], ss["t21s-source"] = spec.id, spec.name, spec.source
    ss["t21s-view-result"] = ("success", [_("Sheet **{id}** is in the form on the **Type a sheet** tab.").format(
        id=md(sheet_id))])


def read_scan() -> None:
    """The photo uploader's callback: read the photo and put what was read into the typing form
    (a photo that cannot be read leaves its message and changes nothing)."""
    from nochmal.data.scan.twentyone import scan_twentyone
    from nochmal.ui.panels.scan import read_photo

    f = ss.get("t21s-photo")
    if f is None:
        return
    out = read_photo(f.getvalue(), client=owner.client_address() or "this machine", reader=scan_twentyone)
    if not out["ok"]:
        text = _("**{file} could not be read:** {what}.  \n**What to try:** {advice}.")
        ss["t21s-scan-result"] = ("error", [text.format(file=md(f.name), what=md(out["what"]),
                                                        advice=md(out["advice"]))])
        return
    result = out["result"]
    set_form([list(r) for r in result.colours], [list(r) for r in result.values])
    ss["t21s-scan"] = {"name": f.name, "thumb": out["thumb"], "problems": list(result.problems)}
    ss["t21s-scan-result"] = ("success", [_("{file} was read: its colours and values are in the form on the **Type a "
                                            "sheet** tab. Check every field against your sheet, correct what was "
                                            "misread, then save.").format(file=md(f.name))])


# --------------------------------------------------------------------------- pieces
def show_result(key: str) -> None:
    result = ss.pop(key, None)
    if result:
        kind, lines = result
        for line in lines:
            (st.success if kind == "success" else st.error)(line)


def view_tab(may_change: bool) -> None:
    ids = sheet_ids()
    if ss.get("t21s-view") not in ids:
        ss["t21s-view"] = "A"
    st.selectbox(_("Sheet"), ids, key="t21s-view", format_func=sheet_option)
    show_result("t21s-view-result")
    sid = ss["t21s-view"]
    try:
        sheet = get_sheet(sid)
    except NochmalError as err:
        for line in problems(err):
            st.error(_("This sheet cannot be used: {problem}").format(problem=line))
        sheet = None
    if sheet is not None:
        if sid in SHEET_IDS:
            st.warning(_("Sheets A–F are stand-ins: the colour order of their rows and the numbers of rows 2–5 are "
                         "not public, so they are generated look-alikes, **not the printed sheets**. Row 1 (6 5 4 3 "
                         "2 1) is as printed. Type your printed sheets on the **Type a sheet** tab."))
        else:
            st.info(_("Your sheet, typed from a printed one: not checked against any printed sheet."))
        st.html(preview_html([list(r) for r in sheet.colour_at], [list(r) for r in sheet.value_at],
                             sheet.spec.name))
        st.markdown(_("**Source:** {source}").format(source=md(sheet.spec.source) or "—"))
        with st.expander(_("File text")):
            st.code(sheet_to_toml(sheet.spec), language="toml")
    if sid in user_sheet_ids():
        c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="center")
        c1.checkbox(_("Yes, delete my sheet {id}").format(id=md(sid)), key="t21s-delete-confirm")
        c2.button(_("Delete"), key="t21s-delete", on_click=delete, args=(sid,),
                  disabled=not (ss.get("t21s-delete-confirm") and may_change))
        c3.button(_("Edit"), key="t21s-edit", on_click=edit, args=(sid,))


def type_tab(may_change: bool) -> None:
    st.markdown(_("Type your printed sheet: for every row, top to bottom, the **colour** and the **printed value** "
                  "of each field, left to right. Each row has each colour once; the values never rise from left to "
                  "right."))
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    c1.selectbox(_("Start from a copy of"), sheet_ids(), key="t21s-base", format_func=sheet_option)
    c2.button(_("Copy"), key="t21s-copy", on_click=copy_base)
    scan_notes()
    colours, values = form_grids()
    found = U.typed_problems(colours, values)
    st.markdown(FORM_CSS, unsafe_allow_html=True)
    with st.container(key="t21s-form"):
        for r in range(N_ROWS):
            st.markdown(_("**Row {row}**").format(row=r + 1))
            cols = st.columns(N_FIELDS, gap="small")
            for p in range(N_FIELDS):
                where = U.where(r + 1, p + 1)
                cols[p].selectbox(_("{where}: colour").format(where=where), list(COLOUR_LETTERS),
                                  key=colour_key(r, p), format_func=colour_option, label_visibility="collapsed")
                cols[p].selectbox(_("{where}: value").format(where=where), list(VALUES), key=value_key(r, p),
                                  label_visibility="collapsed")
            for problem in (f for f in found if f.row == r + 1):
                st.error(md(problem.text), icon="⚠️")
    st.subheader(_("Preview"))
    flagged = frozenset((f.row - 1, f.field - 1) for f in found if f.row and f.field)
    index = [[COLOUR_LETTERS.index(c) for c in row] for row in colours]
    st.html(preview_html(index, values, ss.get("t21s-name") or "", flagged))  # the heading says "Preview"
    if found:
        st.caption(_("The fields outlined in red break a rule of the sheet; the notes under their rows say which."))
    else:
        st.success(_("Every row has each colour once and its values never rise: the sheet can be saved."))
    st.subheader(_("Save"))
    c1, c2 = st.columns(2)
    c1.text_input(_("Sheet id"), key="t21s-id", max_chars=64, placeholder=_("e.g. my-G"),
                  help=_("1–64 letters, digits, '-', '_' or '.'; A to F are the shipped sheets' and reserved"))
    c2.text_input(_("Name"), key="t21s-name", max_chars=U.MAX_NAME, placeholder=_("e.g. My printed sheet G"))
    st.text_input(_("Source"), key="t21s-source", max_chars=U.MAX_SOURCE,
                  placeholder=_("entered by hand from a printed sheet"))
    sid = (ss.get("t21s-id") or "").strip()
    if sid in user_sheet_ids():
        st.caption(_("Your sheet **{id}** exists; saving replaces it (games already played on it keep theirs).").format(
            id=md(sid)))
    st.button(_("Save as my sheet"), key="t21s-save", type="primary", on_click=save, disabled=not may_change)
    show_result("t21s-result")


def scan_notes() -> None:
    """What the reader noticed in the last photo (above the typing form)."""
    scan = ss.get("t21s-scan")
    if not scan:
        return
    st.caption(_("Read from your photo {file}: check every field against your printed sheet.").format(
        file=md(scan["name"])))
    for problem in scan["problems"]:
        st.warning(md(problem))


def scan_tab() -> None:
    from nochmal.data.scan.limits import MAX_PHOTO_MB

    st.markdown(_("Take a photo of your printed sheet from above, in good light, with all 30 fields in the picture. "
                  "The app reads each field's colour and printed value into the form on the **Type a sheet** tab; "
                  "you check and correct them there, then save."))
    st.file_uploader(_("Photo of your printed sheet (JPEG, PNG or WebP, at most {mb} MB)").format(mb=MAX_PHOTO_MB),
                     type=["jpg", "jpeg", "png", "webp"], key="t21s-photo", max_upload_size=MAX_PHOTO_MB,
                     on_change=read_scan)
    show_result("t21s-scan-result")
    scan = ss.get("t21s-scan")
    if scan:
        st.image(scan["thumb"], caption=_("Your photo ({file}); the green frame is where the fields were found.").format(
            file=md(scan["name"])), width=480)
        for problem in scan["problems"]:
            st.warning(md(problem))


def sheets_section() -> None:
    """twenty one on the Sheets page."""
    init_state()
    st.title(_("twenty one sheets"))
    st.caption(_("The sheets A–F and your own, typed from your printed sheets."))
    may_change = owner.owner_gate(_("saving and deleting your sheets"))
    view, typing, scanning = st.tabs([_("View"), _("Type a sheet"), _("Scan a photo")])
    with view:
        view_tab(may_change)
    with typing:
        type_tab(may_change)
    with scanning:
        scan_tab()
