"""The end of a game: won or lost and why, the scores, and (for a team) the goal checks and
the mission."""

from __future__ import annotations

import streamlit as st

from nochmal.engine.ruleids import words_and_rules
from nochmal.ui.labels import seat_label
from nochmal.ui.safe import md
from nochmal.ui.panels.mission import mission_panel


def _why(rules: list[str], extra: str = "") -> None:
    """The rule ids behind the ending, folded away in a "Why?" detail."""
    if rules or extra:
        with st.expander("Why?"):
            st.caption(" ".join(([f"Rule{'s' * (len(rules) > 1)} {', '.join(rules)}."] if rules else []) +
                                ([extra] if extra else [])))


def outcome_panel(st_, names: list[str]) -> None:
    """How the game ended: the team's result; a solo game's score and rating; or the scores and
    the winners."""
    out = st_.outcome().to_json()
    reason, rules = words_and_rules(out["reason"])
    with st.container(border=True, key="outcome"):
        if st_.game.cooperative:
            if out["won"]:
                st.success(f"🎉 The team WON — {md(reason)} after {out['turns']} turns.")
            else:
                st.error(f"The team lost — {md(reason)}.")
            _why(rules)
            rows = []
            for t, c in sorted(out["checks"].items(), key=lambda kv: int(kv[0])):
                pen = c.get("penalty") or {}
                rows.append({"after turn": int(t), "team points": c["points"], "goal": c["goal"],
                             "met": "yes" if c["met"] else "no",
                             "penalty": ("-" if not pen else f"a {pen['removed_die']} die removed"
                                         if "removed_die" in pen else f"{pen.get('jokers')} \"!\" struck")})
            if rows:
                st.table(rows)
            st.table([{"seat": seat_label(names, i), "failed rolls": out["failed_rolls"][i],
                       "\"!\" left": out["jokers_left"][i], "column points": out["scores"][i]["columns"],
                       "columns": " ".join(out["scores"][i]["columns_completed"])}
                      for i in range(len(names))])
            st.caption(f"Team points now: {out['team_points_now']}. Tableau {md(out['tableau']['id'])} "
                       f"({out['tableau']['provenance']}); sheets: {', '.join(out['sheets_provenance'])}.")
            mission_panel(out["mission"], names, over=True)
        elif len(out["scores"]) == 1:  # solo: a score and its rating, nobody to beat
            total = out["scores"][0]["total"]
            st.success(f"🏁 Game over after {out['rolls']} rolls — {md(reason)}. Your score: **{total}**")
            _why(rules + ["R-SOLO-SCORE"] * bool(out.get("solo_band")))
        else:
            winners = ", ".join(md(names[w]) for w in out["winners"])
            st.success(f"🏁 Game over after {out['rolls']} rolls — {md(reason)}. "
                       f"{'Winner' if len(out['winners']) == 1 else 'Winners'}: **{winners}**")
            _why(rules)
        if not st_.game.cooperative:
            st.table([{"seat": seat_label(names, s["seat"]), "colours": s["colours"], "columns": s["columns"],
                       "\"!\"": s["jokers"], "stars": s["stars"], "total": s["total"],
                       "colours completed": ", ".join(s["colours_completed"]),
                       "columns completed": " ".join(s["columns_completed"])} for s in out["scores"]])
            band = out.get("solo_band")
            if band:
                st.info(f"Solo rating: {'★' * band['stars'] or '—'} — {band['words']} "
                        f"(band {band['band'] + 1} of 13)")

