"""Team decisions: the penalty for a missed goal (C-GOAL-10: strike "!", C-GOAL-19: remove a
die), entered by the team."""

from __future__ import annotations

import streamlit as st

from nochmal.engine.coop import RemoveDie, StrikeJokers
from nochmal.engine.game import TEAM
from nochmal.store.db import ConflictError
from nochmal.ui.actions import run_action, who
from nochmal.ui.labels import seat_label


def _decide(action, done: str) -> None:
    def do(ses, access):
        if ses.state.current_player() != TEAM:  # another device decided first
            raise ConflictError(ses.game_id, 0, ses.n_events)
        ses.record(action, by=who(access))
        return done

    run_action(do)


def _strike(n: int) -> None:
    per = tuple(int(st.session_state.get(f"strike-{i}") or 0) for i in range(n))
    _decide(StrikeJokers(per), "The \"!\" are struck (C-GOAL-10).")


def _remove(die: str) -> None:
    _decide(RemoveDie(die), f"A {die} die leaves the game (C-GOAL-19).")


def decision_panel(st_, names: list[str]) -> None:
    """C-GOAL-10 / C-GOAL-19 penalties: a team decision, entered here."""
    d = st_.extra.get("decision") or {}
    chk = st_.extra.get("checks", {}).get(str(d.get("turn")), {})
    with st.container(border=True, key="decision-panel"):
        if d.get("kind") == "strike_jokers":
            amount = d["amount"]
            st.subheader("Goal after turn 10 missed (C-GOAL-10)")
            st.write(f"The team has **{chk.get('points')}** points, the goal was **{chk.get('goal')}**. "
                     f"Strike **{amount}** \"!\" in total, split as you like.")
            cols = st.columns(min(len(names), 6))
            total = 0
            for i, s in enumerate(st_.seats):
                with cols[i % len(cols)]:
                    v = st.number_input(f"{seat_label(names, i)} ({s.jokers_left} left)", min_value=0,
                                        max_value=s.jokers_left, step=1, key=f"strike-{i}")
                    total += int(v or 0)
            st.caption(f"Chosen: {total} of {amount}.")
            st.button("Strike these \"!\"", key="strike-btn", type="primary", on_click=_strike,
                      args=(len(names),), disabled=total != amount)
        elif d.get("kind") == "remove_die":
            st.subheader("Goal after turn 19 missed (C-GOAL-19)")
            st.write(f"The team has **{chk.get('points')}** points, the goal was **{chk.get('goal')}**. "
                     "One die leaves the game for good — the team chooses which kind.")
            with st.container(horizontal=True):
                st.button("Remove a colour die", key="remove-colour", on_click=_remove, args=("colour",))
                st.button("Remove a number die", key="remove-number", on_click=_remove, args=("number",))

