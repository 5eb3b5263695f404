"""A sheet drawn as HTML (pure: no streamlit import, unit-testable)."""

from __future__ import annotations

from collections.abc import Sequence

from nochmal.engine.cells import COLOUR_LETTERS, COLUMNS, N_COLS, N_ROWS
from nochmal.engine.sheet import Sheet
from nochmal.data.i18n import N_, _, pgettext
from .explain import cell_label
from .labels import colour_name, translated
from .safe import html_text as escape

PALETTE = {  # fill, text
    0: ("#f6cf3c", "#3b2f00"),  # yellow
    1: ("#7dbf4a", "#102a00"),  # green
    2: ("#4a9fdc", "#00203a"),  # blue
    3: ("#e9558d", "#3a0016"),  # red (printed pink)
    4: ("#f2922f", "#3a1b00"),  # orange
}
COLOUR_NAMES = ("yellow", "green", "blue", "red", "orange")  # the data-colour attribute (not shown)


def colour_letters() -> tuple[str, ...]:
    """What colour-blind mode writes on a cell of each colour (yellow, green, blue, red, orange), in
    the page's language: one or two letters, distinct in every language (German gelb and grün both
    start with G: "Ge" and "Gr"). Letters only, whatever a catalogue holds (they go into CSS text)."""
    words = (pgettext("colour-blind letter of yellow", "Y"), pgettext("colour-blind letter of green", "G"),
             pgettext("colour-blind letter of blue", "B"), pgettext("colour-blind letter of red", "R"),
             pgettext("colour-blind letter of orange", "O"))
    letters = tuple("".join(ch for ch in w if ch.isalpha())[:2] for w in words)
    if len(set(letters)) != len(letters) or not all(letters):  # a catalogue's slip: the English letters
        return tuple(COLOUR_LETTERS.upper())
    return letters


#: how a marked value is drawn: circled (scored), struck (no longer available)
CIRCLED = ("display:inline-block;min-width:1.5em;height:1.5em;line-height:1.5em;box-sizing:border-box;"
           "border:2px solid #111;border-radius:50%;font-weight:800")
STRUCK = "text-decoration:line-through;opacity:.45"
MARK_WORDS = {"first": N_("completed first"), "later": N_("completed later"), "gone": N_("first value gone"),
              "done": N_("completed")}


def _value(value: int, style: str) -> str:
    return f'<span style="{style}">{value}</span>' if style else str(value)


def points_cell(first: int, later: int, mark: str | None, size: int, what: str, *, attrs: str = "",
                style: str = "") -> str:
    """A column's (or colour's) two values, first over later: "first" circles the first value,
    "later" strikes it and circles the later one, "gone" strikes the first value."""
    first_style = CIRCLED if mark == "first" else STRUCK if mark in ("later", "gone") else ""
    later_style = CIRCLED if mark == "later" else "opacity:.6"
    tip = _("{what}: {first} first, {later} later").format(what=what, first=first, later=later)
    if mark in MARK_WORDS:
        tip += " (" + translated(MARK_WORDS[mark]) + ")"
    return (f'<td{attrs} title="{escape(tip)}" data-mark="{escape(mark or "")}" '
            f'style="text-align:center;font-size:{size * 0.42:.0f}px{style}">{_value(first, first_style)}<br>'
            f'{_value(later, later_style)}</td>')


def bonus_cell(colour: int, mark: str | None, bonus: tuple[int, int], size: int) -> str:
    """One colour's bonus box at the right of the sheet: its two bonus values marked like a
    column's (base game), or a tick when the colour is completed and scores nothing (co-op)."""
    fill, ink = PALETTE[colour]
    name = COLOUR_NAMES[colour]
    attrs = f' class="nm-bonus" data-colour="{name}"'
    style = f";background:{fill};color:{ink};border-radius:4px;min-width:{size * 1.3:.0f}px"
    if any(bonus) and mark != "done":
        return points_cell(bonus[0], bonus[1], mark, size, _("{colour} bonus").format(colour=colour_name(colour)),
                           attrs=attrs, style=style)
    done = mark == "done"
    tip = (_("{colour} completed") if done else _("{colour} not completed")).format(colour=colour_name(colour))
    return (f'<td{attrs} data-mark="{"done" if done else ""}" title="{escape(tip)}" '
            f'style="text-align:center;font-size:{size * 0.42:.0f}px{style}">{"✓" if done else ""}</td>')


def sheet_html(sheet: Sheet, crossed: int = 0, *, selected: int = 0, highlight: int = 0, last: int = 0,
               colourblind: bool = False, title: str = "", compact: bool = False,
               column_marks: Sequence[str | None] | None = None,
               colour_marks: Sequence[str | None] | None = None,
               colour_bonus: tuple[int, int] = (5, 3)) -> str:
    """The sheet as an HTML table: row labels, column letters (start column marked), colours,
    stars, number fields, crosses, the cells being selected, highlighted start cells and the
    cells crossed by the last move. ``colourblind`` adds the colour's letter to every cell.

    ``column_marks`` (15 marks, :func:`nochmal.ui.sheetmarks.column_marks`) circles and strikes
    the values under the columns as on paper; ``colour_marks`` (5 marks,
    :func:`nochmal.ui.sheetmarks.colour_marks`) adds the colour bonuses as a small column at the
    right, worth ``colour_bonus`` (the game's: (5, 3) in the base game; (0, 0) in co-op, where
    a completed colour is ticked). Cells are named as the sheet labels them (co-op: rows P..V)."""
    size = 18 if compact else 26
    labels = sheet.spec.row_labels
    letters = colour_letters() if colourblind else ()
    nf_corner = {}  # top-left cell index -> number
    for number, sq in sheet.number_fields:
        nf_corner[(sq & -sq).bit_length() - 1] = number
    out = [f'<div class="nm-wrap" style="overflow-x:auto">']
    if title:
        out.append(f'<div style="font-weight:600;margin:2px 0">{escape(title)}</div>')
    out.append(f'<table class="nm-sheet" role="grid" aria-label="{escape(title or sheet.id)}" '
               f'style="border-collapse:separate;border-spacing:2px;font-size:{size * 0.5:.0f}px">')
    bonus_tip = escape(_("colour bonuses"))
    out.append("<tr><th></th>" + "".join(
        f'<th style="width:{size}px;{"background:#333;color:#fff;border-radius:3px" if c == sheet.start_col else ""}">{COLUMNS[c]}</th>'
        for c in range(N_COLS)) + (
        f'<th title="{bonus_tip}" style="padding-left:6px"></th>' if colour_marks is not None else "") + "</tr>")
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
                mark = f'{escape(letters[colour])}{mark}'
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
            state = pgettext("cell state", "crossed") if crossed & bit else pgettext("cell state", "open")
            tip = escape((_("{cell} {colour} star {state}") if star else _("{cell} {colour} {state}")).format(
                cell=cell_label(sheet, i), colour=colour_name(colour), state=state))
            cells.append(
                f'<td title="{tip}" aria-label="{tip}" '
                f'data-cell="{name}" style="position:relative;width:{size}px;height:{size}px;background:{fill};'
                f'color:{ink};opacity:{opacity};text-align:center;font-weight:700;border:{border};'
                f'border-radius:4px">{mark}{badge}</td>')
        if colour_marks is not None:
            cells.append(bonus_cell(r, colour_marks[r], colour_bonus, size) if r < len(COLOUR_NAMES) else "<td></td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    if column_marks is None:
        out.append("<tr><th></th>" + "".join(
            f'<td style="text-align:center;font-size:{size * 0.42:.0f}px">{sheet.first_points[c]}<br>'
            f'<span style="opacity:.6">{sheet.later_points[c]}</span></td>' for c in range(N_COLS)) + "</tr>")
    else:
        out.append('<tr class="nm-points"><th></th>' + "".join(
            points_cell(sheet.first_points[c], sheet.later_points[c], column_marks[c], size,
                        _("column {column}").format(column=COLUMNS[c]))
            for c in range(N_COLS)) + "</tr>")
    out.append("</table></div>")
    return "".join(out)
