"""A twenty one sheet drawn as HTML (pure: no streamlit, unit-testable): five rows of six
coloured fields, each showing its printed number small and the number entered large, a crossed
field struck out, a hit (the number equals the printed one, T-HIT) circled; the row being filled
outlined; each scored row's points at its end, with its hits."""

from __future__ import annotations

from nochmal.data.i18n import _, ngettext
from nochmal.engine.twentyone.components import N_FIELDS, N_ROWS
from nochmal.ui.safe import html_text as escape
from nochmal.ui.twentyone.words import die_colour

#: fill and text colour of each die colour (white, black, red, blue, yellow, green)
PALETTE = (("#f7f7f2", "#222"), ("#2b2b2b", "#fff"), ("#d9413b", "#fff"), ("#2f6fd0", "#fff"),
           ("#f3cb35", "#332800"), ("#3a9e54", "#fff"))
CELL = ("display:inline-block;width:2.6em;height:2.6em;margin:1px;border-radius:6px;position:relative;"
        "text-align:center;line-height:2.6em;font-weight:700;font-size:1.05em;box-sizing:border-box;"
        "border:1px solid #888")
PRINTED = "position:absolute;top:1px;left:4px;font-size:.6em;line-height:1em;font-weight:400;opacity:.8"
HIT = "display:inline-block;width:1.8em;height:1.8em;line-height:1.7em;border:2px solid currentColor;border-radius:50%"


def row_points(state, seat: int, row: int):
    """The RowScore of ``row`` if it is scored, else None."""
    return next((r for r in state.seats[seat].scores if r.row == row), None)


def sheet_html(state, seat: int, title: str) -> str:
    """Seat ``seat``'s sheet as HTML, under ``title`` (plain text, escaped here)."""
    s = state.seats[seat]
    sheet = s.sheet
    rows = []
    for r in range(N_ROWS):
        current = r == s.row and not state.is_terminal()
        cells = []
        for p in range(N_FIELDS):
            colour, printed = sheet.colour_at[r][p], sheet.value_at[r][p]
            fill, ink = PALETTE[colour]
            mark = s.marks[r][p]
            if mark is None:
                inner, what = "", _("free")
            elif mark == 0:
                inner, what = "✕", _("crossed out")
            elif mark == printed:
                inner, what = f'<span style="{HIT}">{mark}</span>', _("hit {n}").format(n=mark)
            else:
                inner, what = str(mark), str(mark)
            label = escape(f"{die_colour(colour)} {printed}: {what}")
            cells.append(f'<span class="t21-cell" data-colour="{colour}" data-mark="{"" if mark is None else mark}" '
                         f'title="{label}" aria-label="{label}" style="{CELL};background:{fill};color:{ink}">'
                         f'<span style="{PRINTED}">{printed}</span>{inner}</span>')
        score = row_points(state, seat, r)
        if score is not None:
            hits = ngettext("{n} hit", "{n} hits", score.hits).format(n=score.hits) if score.hits else ""
            end = f'<b>= {score.total}</b> <small>{escape(hits)}</small>'
        else:
            end = ""
        outline = "outline:3px solid #ff9800;border-radius:8px;" if current else ""
        rows.append(f'<div class="t21-row{" t21-current" if current else ""}" style="{outline}white-space:nowrap;width:max-content;'
                    f'padding:1px">{"".join(cells)} <span class="t21-score" style="margin-left:.4em">{end}</span></div>')
    total = _("Total: {n}").format(n=state.total(seat))
    which = _("sheet {id}").format(id=sheet.id)
    return (f'<div class="t21-sheet" data-seat="{seat}" style="margin:0 1.2em .8em 0">'
            f'<div style="font-weight:700">{escape(title)} <small style="font-weight:400">· '
            f'{escape(which)} · {escape(total)}</small></div>{"".join(rows)}</div>')


def sheets_html(sheets: list[str]) -> str:
    """Several sheets side by side, as many as the width holds."""
    return f'<div class="t21-sheets" style="display:flex;flex-wrap:wrap">{"".join(sheets)}</div>'


def dice_html(faces: tuple[int, ...], kept: tuple[int, ...] = ()) -> str:
    """Six dice (colour order) as HTML; ``kept``: the colours that stay at a second attempt."""
    out = []
    for c, f in enumerate(faces):
        fill, ink = PALETTE[c]
        ring = "box-shadow:0 0 0 3px #ff9800;" if c in kept else ""
        label = escape(f"{die_colour(c)} {f}")
        out.append(f'<span class="t21-die" title="{label}" aria-label="{label}" style="{CELL};{ring}background:{fill};'
                   f'color:{ink};font-size:1.3em">{f}</span>')
    return f'<div class="t21-dice" style="white-space:nowrap">{"".join(out)}</div>'


def preview_html(colours: list[list[int]], values: list[list[int]], title: str,
                 flagged: frozenset[tuple[int, int]] = frozenset()) -> str:
    """A sheet being typed, drawn as the game draws a sheet (its fields empty): ``colours[row][field]``
    a colour index, ``values[row][field]`` the printed value; the fields in ``flagged`` (0-based
    ``(row, field)``: a problem there) outlined in red and marked "!". Drawn even when the sheet
    breaks an invariant, so the owner sees where. An empty ``title`` draws no title line."""
    rows = []
    for r in range(N_ROWS):
        cells = []
        for p in range(N_FIELDS):
            colour, printed = colours[r][p], values[r][p]
            fill, ink = PALETTE[colour]
            bad = (r, p) in flagged
            ring = "outline:3px solid #d00000;outline-offset:-1px;" if bad else ""
            label = escape(f"{die_colour(colour)} {printed}" + (" — " + _("check this field") if bad else ""))
            cells.append(f'<span class="t21-cell{" t21-flagged" if bad else ""}" data-colour="{colour}" '
                         f'title="{label}" aria-label="{label}" style="{CELL};{ring}background:{fill};color:{ink}">'
                         f'<span style="{PRINTED}">{printed}</span>{"!" if bad else ""}</span>')
        rows.append(f'<div class="t21-row" style="white-space:nowrap;width:max-content;padding:1px">'
                    f'{"".join(cells)}</div>')
    return (f'<div class="t21-sheet t21-preview" style="margin:0 1.2em .8em 0">'
            + (f'<div style="font-weight:700">{escape(title)}</div>' if title else "") + f'{"".join(rows)}</div>')
