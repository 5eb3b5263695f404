"""A sheet as 7×15 buttons in its cells' colours: tap a cell to change it (the Sheets page's
paint tab and the scan tab's corrections), and the sheet invariants' verdict under it."""

from __future__ import annotations

from collections.abc import Callable, Collection

import streamlit as st

from nochmal.engine.cells import COLOUR_LETTERS, COLUMNS, N_COLS, N_ROWS, cell_name
from nochmal.ui.safe import md
from nochmal.ui.sheetview import PALETTE


def tap_grid_css(prefix: str, rows: list[str], marked: Collection[str] = ()) -> str:
    """The buttons' look (keys ``<prefix>-A1`` ... in the container ``<prefix>-grid``): one row
    of 16 narrow columns even on a phone, each button in its cell's colour; ``marked`` cells get a
    dashed outline."""
    box = f".st-key-{prefix}-grid"
    rules = [
        f"{box} [data-testid='stHorizontalBlock']{{flex-wrap:nowrap!important;gap:2px!important}}",
        f"{box} [data-testid='stColumn']{{min-width:0!important;width:auto!important;flex:1 1 0!important}}",
        f"{box} [data-testid='stColumn']:first-child{{flex:0 0 1.2em!important}}",
        f"{box} [data-testid='stVerticalBlock']{{gap:2px!important}}",
        f"{box} .stButton button{{min-height:0!important;height:30px;width:100%;min-width:0;padding:0!important;"
        "border:1px solid rgba(0,0,0,.3)}",
        f"{box} .stButton button p{{font-size:12px;font-weight:700;white-space:nowrap;overflow:visible;"
        "text-overflow:clip;line-height:1;margin:0}",
        f"{box} .stButton [data-testid='stMarkdownContainer']{{overflow:visible;line-height:1}}",
        f"@media (max-width:640px){{{box} .stButton button p{{font-size:10px;letter-spacing:-1px}}"
        f"{box} .stButton button{{height:26px}}}}",
        ".nm-tap-head{text-align:center;font-weight:700;font-size:12px;line-height:18px}",
    ]
    for i, ch in enumerate("".join(rows)):
        fill, ink = PALETTE[COLOUR_LETTERS.index(ch.lower())]
        name = cell_name(i)
        extra = ";outline:3px dashed #111!important;outline-offset:-3px" if name in marked else ""
        rules.append(f".st-key-{prefix}-{name} button{{background:{fill}!important;color:{ink}!important{extra}}}")
    return "<style>" + "".join(rules) + "</style>"


def tap_grid(prefix: str, rows: list[str], on_tap: Callable[[str], None], marked: Collection[str] = ()) -> None:
    """7×15 buttons (keys ``<prefix>-A1`` ... ``<prefix>-O7``) showing each cell's colour letter
    (★ for a star, ⚠ first for a ``marked`` cell); a tap calls ``on_tap(cell)``."""
    st.markdown(tap_grid_css(prefix, rows, marked), unsafe_allow_html=True)
    with st.container(key=f"{prefix}-grid", gap="xxsmall", width=620):
        head = st.columns(N_COLS + 1, gap="xxsmall", wrap=False)
        for c in range(N_COLS):
            head[c + 1].html(f'<div class="nm-tap-head">{COLUMNS[c]}</div>')
        for r in range(N_ROWS):
            cols = st.columns(N_COLS + 1, gap="xxsmall", wrap=False, vertical_alignment="center")
            cols[0].html(f'<div class="nm-tap-head">{r + 1}</div>')
            for c in range(N_COLS):
                name = cell_name(r * N_COLS + c)
                ch = rows[r][c]
                label = ("⚠" if name in marked else "") + ch.upper() + ("★" if ch.isupper() else "")
                cols[c + 1].button(label, key=f"{prefix}-{name}", on_click=on_tap, args=(name,), width="stretch")


def invariant_notes(violations: list, all_kept: str, warnings: str) -> None:
    """The sheet invariants' verdict on a sheet being digitized: ``all_kept`` when none is broken,
    else ``warnings`` (a plural text with ``{n}``, the number of warnings) and one warning a broken
    invariant."""
    if not violations:
        st.success(all_kept)
        return
    st.markdown(warnings.format(n=len(violations)))
    for v in violations:
        st.warning(md(v))
