"""The mission: each requirement, what is done (and by whom) and what is missing."""

from __future__ import annotations

import streamlit as st

from nochmal.data.i18n import N_, _
from nochmal.ui.labels import colour_word, mission_name, translated
from nochmal.ui.safe import md

#: what each kind of requirement counts (the engine's progress names the kind)
KIND_TEXT = {"colours": N_("different colours completed"), "rows": N_("different rows filled"),
             "star_columns": N_("columns with a crossed star"), "number_fields": N_("number fields filled"),
             "sequence": N_("columns N, O, C, H, M, A, L in this order")}


def _item(kind: str, item: str) -> str:
    """One item of a requirement (a colour, a row, a column, a number) as players read it."""
    return colour_word(item) if kind == "colours" else item


def mission_panel(progress: dict, names: list[str], over: bool = False) -> None:
    """Each requirement: what is done (and by whom), what is missing, for M5 the next column."""
    head = _("✅ complete") if progress["complete"] else _("not complete") if over else _("in progress")
    st.markdown(_("**Mission {mission} — {name}** ({state})").format(
        mission=progress["mission"], name=md(mission_name(progress["name"])), state=head))
    for r in progress["requirements"]:
        ok = "✅" if r["complete"] else "⬜"
        kind = r["kind"]
        done = ", ".join(f"{_item(kind, k)} ({', '.join(md(names[s - 1]) if s - 1 < len(names) else str(s) for s in v)})"
                         for k, v in r["done"].items()) or _("nothing yet")
        what = translated(KIND_TEXT[kind]) if kind in KIND_TEXT else kind
        line = _("{ok} **{have}/{needed}** {what} — done: {done}").format(
            ok=ok, have=r["have"], needed=r["needed"], what=what, done=done)
        if kind == "sequence":
            line += _("; next column: **{column}**").format(column=r.get("next") or "—")
        if r["missing"] and not r["complete"]:
            line += _("; missing: {missing}").format(missing=", ".join(_item(kind, m) for m in r["missing"]))
        st.markdown(line)
