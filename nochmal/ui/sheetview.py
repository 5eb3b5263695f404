"""A sheet drawn as HTML (pure: no streamlit import, unit-testable)."""

from __future__ import annotations

from nochmal.engine.cells import COLOUR_LETTERS, COLUMNS, N_COLS, N_ROWS
from nochmal.engine.sheet import Sheet
from .safe import html_text as escape

PALETTE = {  # fill, text
    0: ("#f6cf3c", "#3b2f00"),  # yellow
    1: ("#7dbf4a", "#102a00"),  # green
    2: ("#4a9fdc", "#00203a"),  # blue
    3: ("#e9558d", "#3a0016"),  # red (printed pink)
    4: ("#f2922f", "#3a1b00"),  # orange
}
COLOUR_NAMES = ("yellow", "green", "blue", "red", "orange")


def sheet_html(sheet: Sheet, crossed: int = 0, *, selected: int = 0, highlight: int = 0, last: int = 0,
               colourblind: bool = False, title: str = "", compact: bool = False) -> str:
    """The sheet as an HTML table: row labels, column letters (start column marked), colours,
    stars, number fields, crosses, the cells being selected, highlighted start cells and the
    cells crossed by the last move. ``colourblind`` adds the colour's letter to every cell."""
    size = 18 if compact else 26
    labels = sheet.spec.row_labels
    nf_corner = {}  # top-left cell index -> number
    for number, sq in sheet.number_fields:
        nf_corner[(sq & -sq).bit_length() - 1] = number
    out = [f'<div class="nm-wrap" style="overflow-x:auto">']
    if title:
        out.append(f'<div style="font-weight:600;margin:2px 0">{escape(title)}</div>')
    out.append(f'<table class="nm-sheet" role="grid" aria-label="{escape(title or sheet.id)}" '
               f'style="border-collapse:separate;border-spacing:2px;font-size:{size * 0.5:.0f}px">')
    out.append("<tr><th></th>" + "".join(
        f'<th style="width:{size}px;{"background:#333;color:#fff;border-radius:3px" if c == sheet.start_col else ""}">{COLUMNS[c]}</th>'
        for c in range(N_COLS)) + "</tr>")
    for r in range(N_ROWS):
        cells = [f'<th style="padding-right:4px">{escape(labels[r])}</th>']
        for c in range(N_COLS):
            i = r * N_COLS + c
            bit = 1 << i
            colour = sheet.colour_of[i]
            fill, ink = PALETTE[colour]
            star = sheet.star_mask & bit
            mark = ""
            if crossed & bit:
                mark = "✕"
            elif star:
                mark = "★"
            if colourblind:
                mark = f'{COLOUR_LETTERS[colour].upper()}{mark}'
            border = "2px solid transparent"
            if selected & bit:
                border = "3px solid #111"
            elif highlight & bit:
                border = "2px dashed #111"
            elif last & bit:
                border = "2px solid #fff"
            opacity = "0.55" if crossed & bit else "1"
            badge = ""
            if i in nf_corner:
                badge = (f'<span style="position:absolute;right:-{size * 0.32:.0f}px;bottom:-{size * 0.32:.0f}px;'
                         f'z-index:2;background:#fff;color:#000;border:1px solid #000;border-radius:50%;'
                         f'width:{size * 0.6:.0f}px;height:{size * 0.6:.0f}px;line-height:{size * 0.6:.0f}px;'
                         f'font-size:{size * 0.4:.0f}px;text-align:center">{nf_corner[i]}</span>')
            name = f"{COLUMNS[c]}{r + 1}"
            state = "crossed" if crossed & bit else "open"
            cells.append(
                f'<td title="{name} {COLOUR_NAMES[colour]}{" star" if star else ""} {state}" '
                f'data-cell="{name}" style="position:relative;width:{size}px;height:{size}px;background:{fill};'
                f'color:{ink};opacity:{opacity};text-align:center;font-weight:700;border:{border};'
                f'border-radius:4px">{mark}{badge}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("<tr><th></th>" + "".join(
        f'<td style="text-align:center;font-size:{size * 0.42:.0f}px">{sheet.first_points[c]}<br>'
        f'<span style="opacity:.6">{sheet.later_points[c]}</span></td>' for c in range(N_COLS)) + "</tr>")
    out.append("</table></div>")
    return "".join(out)
