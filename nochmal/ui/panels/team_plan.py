"""The team plan: which seat aims at which of the mission's targets."""

from __future__ import annotations

import re

import streamlit as st

from nochmal.data.i18n import N_, _
from nochmal.ui.labels import colour_word, translated
from nochmal.ui.safe import md

PLAN_FIELDS = (("colours", N_("colours")), ("rows", N_("rows")), ("star_columns", N_("star columns")),
               ("number_fields", N_("number fields")), ("columns", N_("columns (in order)")))

#: The plan's notes (``nochmal.bots.plan.team_plan``, English) as marked texts: the words before
#: the seats' parts, as a pattern, and the text; the seats' parts follow ("seat 1 red, blue; ...").
NOTE_HEADS = (
    (r"complete (?P<count>\d+) colours", N_("complete {count} colours"), True),
    (r"fill (?P<count>\d+) rows", N_("fill {count} rows"), False),
    (r"a star in every column", N_("a star in every column"), False),
    (r"fill the number fields", N_("fill the number fields"), False),
)
_SEQUENCE_NOTE = re.compile(r"(?P<who>everybody|seat (?P<seats>\d+(?:, \d+)*)) completes the next column of "
                            r"(?P<columns>[A-O](?:-[A-O])*) as soon as it is due; nobody completes a later one early")
_SEAT_PART = re.compile(r"seat (?P<seat>\d+) (?P<items>.*)")


def note_text(note: str) -> str:
    """One note of the team plan in the language in force (an unknown note as it is)."""
    m = _SEQUENCE_NOTE.fullmatch(note)
    if m:
        if m["seats"] is None:
            return _("everybody completes the next column of {columns} as soon as it is due; "
                     "nobody completes a later one early").format(columns=m["columns"])
        return _("seat {seats} completes the next column of {columns} as soon as it is due; "
                 "nobody completes a later one early").format(seats=m["seats"], columns=m["columns"])
    head, sep, rest = note.partition(": ")
    if not sep:
        return note
    for pattern, text, colours in NOTE_HEADS:
        h = re.fullmatch(pattern, head)
        if not h:
            continue
        parts = []
        for part in rest.split("; ") if rest else []:
            p = _SEAT_PART.fullmatch(part)
            if not p:
                return note
            items = ", ".join(colour_word(c) for c in p["items"].split(", ")) if colours else p["items"]
            parts.append(_("seat {seat} {items}").format(seat=p["seat"], items=items))
        return translated(text).format(**h.groupdict()) + ": " + "; ".join(parts)
    return note


def team_plan_rows(plan: dict, names: list[str], bots: list | None = None) -> list[dict]:
    """The team plan as table rows: seat -> its targets (only the kinds the mission has)."""
    seats = plan["seats"]
    used = [(k, label) for k, label in PLAN_FIELDS if any(s[k] for s in seats)]
    rows = []
    for s in seats:
        i = s["seat"]
        name = names[i] if i < len(names) else ""
        # seat number and name in two cells ("1. Ada" would be drawn as a Markdown list)
        row = {_("seat"): i + 1, _("player"): name + (" 🤖" if bots and i < len(bots) and bots[i] else "")}
        for k, label in used:
            vals = [colour_word(v) if k == "colours" else str(v) for v in s[k]]
            row[translated(label)] = ("-".join(vals) if k == "columns" else ", ".join(vals)) or "—"
        rows.append(row)
    return rows


def team_plan_markdown(rows: list[dict]) -> str:
    """The plan's rows as a Markdown table (not ``st.table``: the pages' tables keep their order)."""
    if not rows:
        return ""
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(md(r[h]) for h in head) + " |" for r in rows]
    return "\n".join(lines)


def team_plan_panel(plan: dict, names: list[str], *, digital: bool = False, bots: list | None = None) -> None:
    """Who aims at what for the mission (``nochmal.bots.plan.team_plan``): the notes and a table."""
    st.markdown("\n".join(f"- {note_text(note)}" for note in plan["notes"])
                or _("- nothing to divide for this mission"))
    st.markdown(team_plan_markdown(team_plan_rows(plan, names, bots)))
    if digital:
        st.caption(_("🤖 Bots in this game follow this plan: their own targets count most for them, what the team "
                     "still needs a little."))
    else:
        st.caption(_("A suggestion: each seat gets the targets its own sheet makes easiest (nearest the start column), "
                     "and no target twice while another seat is free."))
