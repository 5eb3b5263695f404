"""The team plan: which seat aims at which of the mission's targets."""

from __future__ import annotations

import streamlit as st

from nochmal.ui.safe import md

PLAN_FIELDS = (("colours", "colours"), ("rows", "rows"), ("star_columns", "star columns"),
               ("number_fields", "number fields"), ("columns", "columns (in order)"))


def team_plan_rows(plan: dict, names: list[str], bots: list | None = None) -> list[dict]:
    """The team plan as table rows: seat -> its targets (only the kinds the mission has)."""
    seats = plan["seats"]
    used = [(k, label) for k, label in PLAN_FIELDS if any(s[k] for s in seats)]
    rows = []
    for s in seats:
        i = s["seat"]
        name = names[i] if i < len(names) else ""
        # seat number and name in two cells ("1. Ada" would be drawn as a Markdown list)
        row = {"seat": i + 1, "player": name + (" 🤖" if bots and i < len(bots) and bots[i] else "")}
        for k, label in used:
            vals = [str(v) for v in s[k]]
            row[label] = ("-".join(vals) if k == "columns" else ", ".join(vals)) or "—"
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
    st.markdown("\n".join(f"- {note}" for note in plan["notes"]) or "- nothing to divide for this mission")
    st.markdown(team_plan_markdown(team_plan_rows(plan, names, bots)))
    if digital:
        st.caption("🤖 Bots in this game follow this plan: their own targets count most for them, what the team "
                   "still needs a little.")
    else:
        st.caption("A suggestion: each seat gets the targets its own sheet makes easiest (nearest the start column), "
                   "and no target twice while another seat is free.")

