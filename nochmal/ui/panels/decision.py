"""Team decisions: the penalty for a missed goal (C-GOAL-10: strike "!", C-GOAL-19: remove a
die), entered by the team."""

from __future__ import annotations

import streamlit as st

from nochmal.engine.coop import RemoveDie, StrikeJokers
from nochmal.engine.game import TEAM
from nochmal.data.i18n import _
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


def even_split(lefts: list[int] | tuple[int, ...], amount: int) -> list[int]:
    """C-GOAL-10: ``amount`` "!" to strike split as evenly as the seats' "!" left allow: one at
    a time to the seat that has struck fewest so far and can still strike one; ties go to the
    seat with most "!" left, then to the earlier seat. Never more than a seat has left."""
    split = [0] * len(lefts)
    for _step in range(max(0, amount)):
        able = [i for i, left in enumerate(lefts) if split[i] < left]
        if not able:
            break
        i = min(able, key=lambda j: (split[j], -(lefts[j] - split[j]), j))
        split[i] += 1
    return split


def _why(text: str) -> None:
    """The rule behind a penalty, folded away in a "Why?" detail."""
    with st.expander(_("Why?")):
        st.caption(text)


def _strike(n: int) -> None:
    per = tuple(int(st.session_state.get(f"strike-{i}") or 0) for i in range(n))
    _decide(StrikeJokers(per), _("The \"!\" are struck."))


def _remove(die: str) -> None:
    text = (_("A colour die leaves the game.") if die == "colour" else _("A number die leaves the game.")
            if die == "number" else _("A {die} die leaves the game.").format(die=die))
    _decide(RemoveDie(die), text)


def decision_panel(st_, names: list[str]) -> None:
    """C-GOAL-10 / C-GOAL-19 penalties: a team decision, entered here."""
    d = st_.extra.get("decision") or {}
    chk = st_.extra.get("checks", {}).get(str(d.get("turn")), {})
    with st.container(border=True, key="decision-panel"):
        if d.get("kind") == "strike_jokers":
            amount = d["amount"]
            st.subheader(_("Goal after turn 10 missed: strike \"!\""))
            st.write(_("The team has **{points}** points, the goal was **{goal}**. "
                       "Strike **{amount}** \"!\" in total, split as you like — an even split is filled in.")
                     .format(points=chk.get("points"), goal=chk.get("goal"), amount=amount))
            _why(_("Rule C-GOAL-10: after turn 10, a team below the goal strikes the tableau's number of "
                   "\"!\", split freely among the players (all that are left if fewer remain)."))
            even = even_split([s.jokers_left for s in st_.seats], amount)  # filled in; still editable
            cols = st.columns(min(len(names), 6))
            total = 0
            for i, s in enumerate(st_.seats):
                with cols[i % len(cols)]:
                    v = st.number_input(_("{seat} ({left} left)").format(seat=seat_label(names, i), left=s.jokers_left),
                                        min_value=0,
                                        max_value=s.jokers_left, value=even[i], step=1, key=f"strike-{i}")
                    total += int(v or 0)
            st.caption(_("Chosen: {total} of {amount}.").format(total=total, amount=amount))
            st.button(_("Strike these \"!\""), key="strike-btn", type="primary", on_click=_strike,
                      args=(len(names),), disabled=total != amount)
        elif d.get("kind") == "remove_die":
            st.subheader(_("Goal after turn 19 missed: a die leaves"))
            st.write(_("The team has **{points}** points, the goal was **{goal}**. "
                       "One die leaves the game for good — the team chooses which kind.")
                     .format(points=chk.get("points"), goal=chk.get("goal")))
            _why(_("Rule C-GOAL-19: after turn 19, a team below the goal loses one die (a colour die or "
                   "a number die, the team's choice) for the rest of the game."))
            with st.container(horizontal=True):
                st.button(_("Remove a colour die"), key="remove-colour", on_click=_remove, args=("colour",))
                st.button(_("Remove a number die"), key="remove-number", on_click=_remove, args=("number",))

