"""The cell grid: one button per cell of a seat's sheet, tapped to build the selection of
cells a cross will take, drawn with the sheet's colours and marks, and the column values
under it (circled and struck as on paper)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from nochmal.engine.cells import CELL_NAMES, COLOUR_LETTERS, COLUMNS, N_COLS, N_ROWS
from nochmal.data.i18n import _, pgettext
from nochmal.ui.explain import cell_label
from nochmal.ui.labels import colour_name, translated
from nochmal.ui.safe import html_text
from nochmal.ui.sheetview import MARK_WORDS, PALETTE

#: the height (and least width, in landscape) of a cell button in CSS px: a finger's tap target
CELL_PX = 44


def _toggle_cell(name: str) -> None:
    sel = list(st.session_state.get("selected_cells", []))
    if name in sel:
        sel.remove(name)
    else:
        sel.append(name)
    st.session_state["selected_cells"] = sel


def clear_cells() -> None:
    """Start the selection afresh (and forget a refusal shown for the old one)."""
    st.session_state["selected_cells"] = []
    st.session_state.pop("refusal", None)


def cell_mark(sheet, crossed: int, selected: int, i: int, colourblind: bool) -> str:
    """What a cell shows: ✕ crossed, ● selected, ★ star (and the colour's letter in colour-blind mode)."""
    bit = 1 << i
    mark = "✕" if crossed & bit else "●" if selected & bit else "★" if sheet.star_mask & bit else ""
    if colourblind:
        return COLOUR_LETTERS[sheet.colour_of[i]].upper() + mark
    return mark or "·"


def _grid_css(key: str, seat: int, sheet, crossed: int, selected: int, highlight: int, colourblind: bool) -> str:
    """Colours, marks and borders of the cell buttons. A button's text is its cell name (its
    accessible name, e.g. "H4"); what it shows on screen comes from CSS."""
    cell = lambda i: f".st-key-cell-{seat}-{CELL_NAMES[i]} button"  # noqa: E731
    px = CELL_PX
    rules = [
        f".st-key-{key} {{gap:2px !important;grid-template-columns:14px repeat({N_COLS},minmax(0,1fr)) !important}}",
        f".st-key-{key} button {{min-height:{px}px;height:{px}px;padding:0 !important;width:100%;min-width:0;"
        f"line-height:1;border:2px solid transparent;border-radius:5px}}",
        f".st-key-{key} button > div {{position:absolute;width:1px;height:1px;overflow:hidden;"
        f"clip:rect(0 0 0 0);white-space:nowrap}}",
        f".st-key-{key} button {{display:flex;align-items:center;justify-content:center}}",
        f".st-key-{key} button::after {{font:700 1.05rem sans-serif}}",
        f".st-key-{key} .nm-lbl {{font:700 .8rem sans-serif;text-align:center;line-height:{px}px}}",
        f".st-key-{key} .nm-hdr {{font:700 .7rem/14px sans-serif;text-align:center}}",
        f".st-key-{key} .nm-hdr.start {{background:#333;color:#fff;border-radius:3px}}",
        f".st-key-{key} .nm-pts {{font:600 .68rem/12px sans-serif;text-align:center;white-space:nowrap}}",
        f".st-key-{key} .nm-pts span {{display:inline-block;min-width:14px;border-radius:50%}}",
        f".st-key-{key} .nm-pts .circled {{outline:2px solid #111;outline-offset:-1px;font-weight:800}}",
        f".st-key-{key} .nm-pts .struck {{text-decoration:line-through;opacity:.45}}",
    ]
    by_style: dict[tuple, list[str]] = {}
    for i in range(len(CELL_NAMES)):
        by_style.setdefault(("colour", sheet.colour_of[i]), []).append(cell(i))
        by_style.setdefault(("mark", cell_mark(sheet, crossed, selected, i, colourblind)), []).append(cell(i) + "::after")
    for (what, value), sels in by_style.items():
        if what == "colour":
            fill, ink = PALETTE[value]
            style = f"background:{fill} !important;color:{ink} !important"
        else:
            style = f'content:"{value}" / ""'  # shown, but not part of the accessible name
        rules.append(f"{','.join(sels)} {{{style}}}")

    def group(mask: int, style: str) -> None:
        sels = [cell(i) for i in range(len(CELL_NAMES)) if mask >> i & 1]
        if sels:
            rules.append(f"{','.join(sels)} {{{style}}}")

    # co-op number fields: a round badge where the four cells of the square meet
    for number, square in sheet.number_fields:
        corner = (square & -square).bit_length() - 1
        rules.append(
            f".st-key-cell-{seat}-{CELL_NAMES[corner]} {{position:relative;overflow:visible}}"
            f".st-key-cell-{seat}-{CELL_NAMES[corner]}::after {{content:\"{int(number)}\";position:absolute;"
            f"right:-11px;bottom:-11px;z-index:3;width:20px;height:20px;border-radius:50%;background:#fff;"
            f"border:1.5px solid #111;font:700 11px/18px sans-serif;text-align:center;pointer-events:none}}")
    group(crossed, "opacity:.45")
    group(highlight & ~selected, "border:2px dashed #111 !important")
    group(selected, "border:3px solid #000 !important;box-shadow:0 0 0 2px #fff inset")
    return "<style>" + "\n".join(rules) + "</style>"


def points_html(sheet, c: int, mark: str | None) -> str:
    """Column ``c``'s values under the grid: the first value over the later one; "first"
    circles the first value, "later" strikes it and circles the later one, "gone" strikes
    the first value (another seat completed the column in an earlier roll)."""
    first_cls = "circled" if mark == "first" else "struck" if mark in ("later", "gone") else ""
    later_cls = "circled" if mark == "later" else ""
    what = translated(MARK_WORDS[mark]) if mark in ("first", "later", "gone") else ""
    title = _("{what}: {first} first, {later} later").format(
        what=_("column {column}").format(column=COLUMNS[c]), first=sheet.first_points[c],
        later=sheet.later_points[c]) + (f" ({what})" if what else "")
    return (f'<div class="nm-pts" title="{html_text(title)}"><span class="{first_cls}">{sheet.first_points[c]}</span>'
            f'<br><span class="{later_cls}">{sheet.later_points[c]}</span></div>')


def cell_grid(sheet, crossed: int, seat: int, *, selected: int, highlight: int, colourblind: bool,
              marks: Sequence[str | None] | None = None, enabled: bool = True) -> None:
    """Buttons for the cells of ``seat``'s sheet (15 columns that never wrap, each cell at
    least :data:`CELL_PX` tall), the column letters over them and the column values under
    them. Each is a real button named after its cell as the sheet labels it (key
    ``cell-{seat}-{name}``); tapping toggles the cell in the selection; crossed cells (and
    every cell while ``enabled`` is false) are disabled."""
    key = f"grid-{seat}"
    st.html(_grid_css(key, seat, sheet, crossed, selected, highlight, colourblind))
    labels = sheet.spec.row_labels
    with st.grid(N_COLS + 1, wrap=False, gap=2, min_column_width=14, key=key, width="stretch"):
        st.html('<div class="nm-hdr"></div>')
        for c in range(N_COLS):
            cls = "nm-hdr start" if c == sheet.start_col else "nm-hdr"
            st.html(f'<div class="{cls}">{COLUMNS[c]}</div>')
        for r in range(N_ROWS):
            st.html(f'<div class="nm-lbl">{html_text(labels[r])}</div>')
            for c in range(N_COLS):
                i = r * N_COLS + c
                bit = 1 << i
                name = CELL_NAMES[i]
                shown = cell_label(sheet, name)
                tip = (_("{cell} {colour} star") if sheet.star_mask & bit else _("{cell} {colour}")).format(
                    cell=shown, colour=colour_name(sheet.colour_of[i]))
                if crossed & bit:
                    tip += " (" + pgettext("cell state", "crossed") + ")"
                elif selected & bit:
                    tip += " (" + pgettext("cell state", "selected") + ")"
                st.button(shown, key=f"cell-{seat}-{name}", help=tip, on_click=_toggle_cell, args=(name,),
                          disabled=bool(crossed & bit) or not enabled, width="stretch")
        if marks is not None:
            st.html('<div class="nm-pts"></div>')
            for c in range(N_COLS):
                st.html(points_html(sheet, c, marks[c]))
