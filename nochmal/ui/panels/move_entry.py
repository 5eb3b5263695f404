"""The move entry of the seat deciding now: its cell grid and sheet, the dice pair it uses,
and the Cross / Clear / pass buttons."""

from __future__ import annotations

import streamlit as st

from nochmal.engine.cells import COLOURS, mask_of
from nochmal.engine.dice import COLOUR_JOKER
from nochmal.engine.moves import PASS
from nochmal.ui import state
from nochmal.ui import tableview as tv
from nochmal.ui.actions import need, roll_key, run_action, same_roll, who
from nochmal.ui.labels import (colour_face_label, colour_label, number_face_label, number_order, pass_icon,
                               pass_label, seat_text)
from nochmal.ui.safe import md
from nochmal.ui.sheetview import sheet_html
from nochmal.ui.panels.cell_grid import cell_grid, clear_cells


def pick_keys(seat: int) -> tuple[str, str, str]:
    """The session keys of ``seat``'s colour die, number die and colour for the X."""
    return f"pick-c-{seat}", f"pick-n-{seat}", f"pick-col-{seat}"


def reset_picks(seat: int) -> None:
    for k in pick_keys(seat):
        st.session_state[k] = None


def dice_picker(st_, seat: int) -> tuple[int | None, int | None, int | None]:
    """Which colour die and number die (and, for the X, which colour) the seat uses."""
    cf, nf = st_.dice_for(seat)
    kc, kn, kcol = pick_keys(seat)
    ss = st.session_state
    for k, opts in ((kc, cf), (kn, nf), (kcol, range(5))):
        if ss.get(k) is not None and ss[k] not in opts:
            ss[k] = None
    cols = st.columns(2)
    with cols[0]:
        cd = st.segmented_control("Colour die", sorted(set(cf)), format_func=colour_face_label, key=kc)
    with cols[1]:
        nd = st.segmented_control("Number die", sorted(set(nf), key=number_order), format_func=number_face_label, key=kn)
    colour = None
    if cd == COLOUR_JOKER:
        colour = st.segmented_control("Colour for the X (costs one \"!\")", list(range(5)),
                                      format_func=colour_label, key=kcol)
    elif cd is not None:
        colour = cd
    return cd, nd, colour


def _check_seat(ses, access, seat: int, seen_roll: str) -> None:
    need(tv.can_enter(access, state.my_seat(), seat), f"this device may enter only for seat {(state.my_seat() or 0) + 1}")
    same_roll(ses, seen_roll)  # the roll changed under this device's eyes
    need(seat in tv.seats_to_decide(ses.state), f"R-ORDER: seat {seat + 1} does not decide now")


def _cross(seat: int, seen_roll: str) -> None:
    ss = st.session_state
    names = list(ss.get("selected_cells", []))
    kc, kn, kcol = pick_keys(seat)
    cd, nd, colour = ss.get(kc), ss.get(kn), ss.get(kcol)

    def do(ses, access):
        _check_seat(ses, access, seat, seen_roll)
        mask = mask_of(names)
        col = colour if cd == COLOUR_JOKER else None
        move = tv.build_cross(ses.state, seat, mask, cd, nd, col)
        ses.record(move, seat=seat, by=who(access))
        reset_picks(seat)
        return f"{md(ses.seat_names[seat])} crossed {COLOURS[move.colour]} {'-'.join(sorted(names))}."

    run_action(do)


def _fail(seat: int, seen_roll: str) -> None:
    def do(ses, access):
        _check_seat(ses, access, seat, seen_roll)
        ses.record(PASS, seat=seat, by=who(access))
        reset_picks(seat)
        if ses.game.has_failed_rolls:
            return f"{md(ses.seat_names[seat])} marked a failed roll (C-FAIL)."
        return f"{md(ses.seat_names[seat])} passed."

    run_action(do)


def move_controls(st_, seat: int, names: list[str], colourblind: bool) -> None:
    """The interactive sheet of the seat entering now: grid, dice pair, Cross / Fail."""
    s = st_.seats[seat]
    cd, nd, colour = dice_picker(st_, seat)
    selected = mask_of(st.session_state.get("selected_cells", []))
    highlight = 0
    if cd is not None or nd is not None:
        highlight = tv.start_cells(st_, seat, cd, nd, colour if cd == COLOUR_JOKER else None)
    left, right = st.columns([3, 2])
    with left:
        cell_grid(s.sheet, s.crossed, seat, selected=selected, highlight=highlight, colourblind=colourblind)
    with right:
        st.html(sheet_html(s.sheet, s.crossed, selected=selected, highlight=highlight, colourblind=colourblind,
                           title=f"{seat_text(names, seat)} — {s.sheet.spec.name}", compact=True))
        if highlight:
            st.caption("Dashed: cells where a legal move with these dice can go.")
        elif cd is not None or nd is not None:
            st.caption("No legal move with these dice.")
        if selected:
            ok = tv.moves_for_cells(st_, seat, selected, cd, nd, colour if cd == COLOUR_JOKER else None)
            if ok:
                m = ok[0]
                st.caption(f"✓ legal: {colour_label(m.colour)} ×{m.count} with dice "
                           f"{colour_face_label(m.colour_die)} + {number_face_label(m.number_die)}"
                           + (f" (costs {m.joker_cost} \"!\")" if m.joker_cost else ""))
            else:
                st.caption("Selected: " + ", ".join(sorted(st.session_state["selected_cells"])) +
                           " — not a legal move with these dice yet.")
    with st.container(horizontal=True):
        st.button("Cross", key="cross-btn", type="primary", icon="✖️", on_click=_cross, args=(seat, roll_key(st_)),
                  disabled=not selected)
        st.button("Clear selection", key="clear-btn", on_click=clear_cells, disabled=not selected)
        st.button(pass_label(st_.game), key="fail-btn", icon=pass_icon(st_.game), on_click=_fail,
                  args=(seat, roll_key(st_)), help="Use no combination this roll" +
                  (": marks the leftmost red box; the third loses the game" if st_.game.has_failed_rolls else ""))

