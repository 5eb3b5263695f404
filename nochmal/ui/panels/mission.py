"""The mission: each requirement, what is done (and by whom) and what is missing."""

from __future__ import annotations

import streamlit as st

from nochmal.ui.safe import md

KIND_TEXT = {"colours": "different colours completed", "rows": "different rows filled",
             "star_columns": "columns with a crossed star", "number_fields": "number fields filled",
             "sequence": "columns N, O, C, H, M, A, L in this order"}


def mission_panel(progress: dict, names: list[str], over: bool = False) -> None:
    """Each requirement: what is done (and by whom), what is missing, for M5 the next column."""
    head = "✅ complete" if progress["complete"] else "not complete" if over else "in progress"
    st.markdown(f"**Mission {progress['mission']} — {md(progress['name'])}** ({head})")
    for r in progress["requirements"]:
        ok = "✅" if r["complete"] else "⬜"
        done = ", ".join(f"{k} ({', '.join(md(names[s - 1]) if s - 1 < len(names) else str(s) for s in v)})"
                         for k, v in r["done"].items()) or "nothing yet"
        line = f"{ok} **{r['have']}/{r['needed']}** {KIND_TEXT.get(r['kind'], r['kind'])} — done: {done}"
        if r["kind"] == "sequence":
            line += f"; next column: **{r.get('next') or '—'}**"
        if r["missing"] and not r["complete"]:
            line += f"; missing: {', '.join(r['missing'])}"
        st.markdown(line)

