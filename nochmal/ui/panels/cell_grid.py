"""The cell grid: one button per cell of a seat's sheet, tapped to build the selection of
cells a cross will take, drawn with the sheet's colours and marks."""

from __future__ import annotations

import streamlit as st

from nochmal.engine.cells import CELL_NAMES, COLOUR_LETTERS, COLOURS, COLUMNS, N_COLS, N_ROWS
from nochmal.ui.safe import html_text
from nochmal.ui.sheetview import PALETTE


def _toggle_cell(name: str) -> None:
    sel = list(st.session_state.get("selected_cells", []))
    if name in sel:
        sel.remove(name)
    else:
        sel.append(name)
    st.session_state["selected_cells"] = sel


def clear_cells() -> None:
    """Start the selection afresh."""
    st.session_state["selected_cells"] = []


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
    rules = [
        f".st-key-{key} button {{min-height:1.9rem;height:1.9rem;padding:0 !important;width:100%;min-width:0;"
        f"line-height:1;border:2px solid transparent;border-radius:4px}}",
        f".st-key-{key} button > div {{position:absolute;width:1px;height:1px;overflow:hidden;"
        f"clip:rect(0 0 0 0);white-space:nowrap}}",
        f".st-key-{key} button {{display:flex;align-items:center;justify-content:center}}",
        f".st-key-{key} button::after {{font:700 .8rem sans-serif}}",
        f".st-key-{key} .nm-lbl {{font:700 .8rem sans-serif;text-align:center;line-height:1.9rem}}",
        f".st-key-{key} .nm-hdr {{font:700 .7rem sans-serif;text-align:center}}",
        f".st-key-{key} .nm-hdr.start {{background:#333;color:#fff;border-radius:3px}}",
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

    group(crossed, "opacity:.45")
    group(highlight & ~selected, "border:2px dashed #111 !important")
    group(selected, "border:3px solid #000 !important;box-shadow:0 0 0 2px #fff inset")
    return "<style>" + "\n".join(rules) + "</style>"


def cell_grid(sheet, crossed: int, seat: int, *, selected: int, highlight: int, colourblind: bool) -> None:
    """Buttons for the cells of ``seat``'s sheet (15 narrow columns that never wrap). Each is a
    real button named after its cell (key ``cell-{seat}-{name}``); tapping toggles the cell in
    the selection; crossed cells are disabled."""
    key = f"grid-{seat}"
    st.html(_grid_css(key, seat, sheet, crossed, selected, highlight, colourblind))
    labels = sheet.spec.row_labels
    with st.grid(N_COLS + 1, wrap=False, gap=2, min_column_width=18, key=key, width=620):
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
                tip = f"{name} {COLOURS[sheet.colour_of[i]]}{' star' if sheet.star_mask & bit else ''}" + (
                    " (crossed)" if crossed & bit else " (selected)" if selected & bit else "")
                st.button(name, key=f"cell-{seat}-{name}", help=tip, on_click=_toggle_cell, args=(name,),
                          disabled=bool(crossed & bit), width="stretch")

