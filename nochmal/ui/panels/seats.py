"""Every seat's sheet as the table sees it, with the seat's "!" left and failed rolls."""

from __future__ import annotations

import streamlit as st

from nochmal.data.i18n import _
from nochmal.ui import sheetmarks
from nochmal.ui.labels import provenance_label, seat_text
from nochmal.ui.safe import html_text
from nochmal.ui.sheetview import sheet_html


def seat_status_html(st_, seat: int, *, compact: bool = False) -> str:
    """A seat's "!" left (and, where passing marks failed rolls, its failed-roll boxes) as HTML.
    ``compact``: for the narrow column beside a phone's own sheet, counts without the boxes (they
    would wrap and push the lines below them off a phone held sideways)."""
    s = st_.seats[seat]
    jl = s.jokers_left
    box = ("display:inline-block;width:15px;height:17px;margin-right:2px;border-radius:3px;text-align:center;"
           "font:700 11px/17px sans-serif;vertical-align:middle;")
    jokers = "" if compact else " " + "".join(
        f'<span style="{box}border:1px solid #333;background:#fff;color:#000">!</span>' if k < jl else
        f'<span style="{box}border:1px solid #bbb;background:#eee;color:#aaa;text-decoration:line-through">!</span>'
        for k in range(s.sheet.jokers))
    of = f"/{s.sheet.jokers}" if compact else ""
    line = "display:block" if compact else "white-space:nowrap;margin-right:10px"
    tip = html_text(_("{left} of {total} \"!\" left").format(left=jl, total=s.sheet.jokers))
    label = _("\"!\" left:")
    out = f'<span style="{line}" title="{tip}">{label} <b>{jl}</b>{of}{jokers}</span>'
    if st_.game.has_failed_rolls:
        boxes = st_.game.failed_roll_boxes(s)
        fails = "" if compact else " " + "".join(
            f'<span style="{box}border:2px solid #c62828;background:{"#c62828" if k < s.failed else "#fff"};'
            f'color:#fff">{"✕" if k < s.failed else ""}</span>' for k in range(boxes))
        tip = html_text(_("{failed} of {boxes} failed rolls; the last one loses the game").format(
            failed=s.failed, boxes=boxes))
        label = _("failed rolls:")
        out += f'<span style="white-space:nowrap" title="{tip}">{label} <b>{s.failed}/{boxes}</b>{fails}</span>'
    return f'<div class="nm-status" style="font:13px sans-serif;margin:2px 0 6px">{out}</div>'


def seat_sheets(st_, names: list[str], bots: list, *, skip: int | None, recent: list[int], colourblind: bool) -> None:
    """Every seat's sheet (HTML) with "!" left and failed rolls; ``skip`` is drawn elsewhere."""
    seats = [i for i in range(st_.game.n_seats) if i != skip]
    if not seats:
        return
    per_row = 2
    for start in range(0, len(seats), per_row):
        cols = st.columns(per_row)
        for col, seat in zip(cols, seats[start:start + per_row]):
            s = st_.seats[seat]
            with col:
                tag = " 🤖" if bots[seat] else ""
                prov = "" if s.sheet.provenance == "verified" else f" ({provenance_label(s.sheet.provenance)})"
                st.html(sheet_html(s.sheet, s.crossed, last=recent[seat], colourblind=colourblind, compact=True,
                                   title=f"{seat_text(names, seat)}{tag} — {s.sheet.id}{prov}",
                                   column_marks=sheetmarks.column_marks(st_, seat), colour_marks=sheetmarks.colour_marks(st_, seat),
                                   colour_bonus=st_.game.colour_bonus)
                        + seat_status_html(st_, seat))

