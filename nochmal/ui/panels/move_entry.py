"""The move entry of the seat deciding now: its cell grid with the Cross / failed-roll
buttons next to it, and (folded away) the dice pair it uses.

A player taps the cells and confirms: the dice are read from the cells (the cheapest legal
reading, fewest "!"); a player who wants other dice picks them under "Choose the dice".
A refused cross explains itself next to the grid, in words, with the rule id only in a
"Why?" detail (:func:`refusal_box`).
"""

from __future__ import annotations

import streamlit as st

from nochmal.engine.cells import mask_of
from nochmal.engine.dice import COLOUR_JOKER
from nochmal.engine.moves import PASS, Cross
from nochmal.data.i18n import _
from nochmal.ui import follow, state
from nochmal.ui import entry
from nochmal.ui.actions import need, refused_here, roll_key, run_action, same_roll, show_toast, who
from nochmal.ui.explain import cell_label
from nochmal.ui.labels import (colour_face_label, colour_label, colour_name, colour_order, dice_text,
                               number_face_label, number_order, pass_icon, pass_label)
from nochmal.ui.safe import md
from nochmal.ui.panels.cell_grid import apply_browser_taps, cell_grid, clear_cells
from nochmal.ui.panels.seats import seat_status_html


def pick_keys(seat: int) -> tuple[str, str, str]:
    """The session keys of ``seat``'s colour die, number die and colour for the X."""
    return f"pick-c-{seat}", f"pick-n-{seat}", f"pick-col-{seat}"


def reset_picks(seat: int) -> None:
    for k in pick_keys(seat):
        st.session_state[k] = None


def current_picks(st_, seat: int) -> tuple[int | None, int | None, int | None]:
    """The dice (and X colour) the seat picked under "Choose the dice", or Nones."""
    ss = st.session_state
    cf, nf = st_.dice_for(seat)
    kc, kn, kcol = pick_keys(seat)
    for k, opts in ((kc, cf), (kn, nf), (kcol, range(5))):
        if ss.get(k) is not None and ss[k] not in opts:
            ss[k] = None
    cd, nd = ss.get(kc), ss.get(kn)
    colour = ss.get(kcol) if cd == COLOUR_JOKER else cd
    return cd, nd, colour


def dice_picker(st_, seat: int) -> tuple[int | None, int | None, int | None]:
    """Which colour die and number die (and, for the X, which colour) the seat uses."""
    cf, nf = st_.dice_for(seat)
    kc, kn, kcol = pick_keys(seat)
    current_picks(st_, seat)  # drop picks the dice no longer allow
    cols = st.columns(2)
    with cols[0]:
        cd = st.segmented_control(_("Colour die"), sorted(set(cf), key=colour_order), format_func=colour_face_label, key=kc)
    with cols[1]:
        nd = st.segmented_control(_("Number die"), sorted(set(nf), key=number_order), format_func=number_face_label, key=kn)
    colour = None
    if cd == COLOUR_JOKER:
        colour = st.segmented_control(_("Colour for the X (costs one \"!\")"), list(range(5)),
                                      format_func=colour_label, key=kcol)
    elif cd is not None:
        colour = cd
    return cd, nd, colour


def _check_seat(ses, access, seat: int, seen_roll: str) -> None:
    need(entry.can_enter(access, state.my_seat(), seat),
         _("this device may enter only for seat {seat}").format(seat=(state.my_seat() or 0) + 1))
    same_roll(ses, seen_roll)  # the roll changed under this device's eyes
    need(seat in entry.seats_to_decide(ses.state), _("it is not seat {seat}'s turn to decide").format(seat=seat + 1))


def _cross(seat: int, seen_roll: str) -> None:
    apply_browser_taps(seat)  # the taps that came with this click come before it
    ss = st.session_state
    names = list(ss.get("selected_cells", []))
    kc, kn, kcol = pick_keys(seat)
    cd, nd, colour = ss.get(kc), ss.get(kn), ss.get(kcol)

    def do(ses, access):
        _check_seat(ses, access, seat, seen_roll)
        mask = mask_of(names)
        col = colour if cd == COLOUR_JOKER else None
        move = entry.build_cross(ses.state, seat, mask, cd, nd, col)
        ses.record(move, seat=seat, by=who(access))
        reset_picks(seat)
        sheet = ses.state.seats[seat].sheet
        shown = "-".join(cell_label(sheet, n) for n in sorted(names))
        return _("{name} crossed {colour} {cells}.").format(name=md(ses.seat_names[seat]),
                                                            colour=colour_name(move.colour), cells=shown)

    run_action(do, refusal=(seat, seen_roll))
    _after_entry(seat, seen_roll)


def _after_entry(seat: int, seen_roll: str) -> None:
    """After Cross or the failed roll: a refusal shows in the entry itself (a rerun of it
    alone); anything else changed the game, so the whole page runs again."""
    if refused_here(seat, seen_roll) is None:
        st.session_state["entry-rerun"] = True


def _fail(seat: int, seen_roll: str) -> None:
    def do(ses, access):
        _check_seat(ses, access, seat, seen_roll)
        ses.record(PASS, seat=seat, by=who(access))
        reset_picks(seat)
        if ses.game.has_failed_rolls:
            return _("{name} marked a failed roll.").format(name=md(ses.seat_names[seat]))
        return _("{name} passed.").format(name=md(ses.seat_names[seat]))

    run_action(do, refusal=(seat, seen_roll))
    _after_entry(seat, seen_roll)


def reach(st_, seat: int, selected: int, cd=None, nd=None, colour=None) -> int:
    """Where a legal cross can still go: with nothing selected, every cell of a legal cross
    with these dice; with cells selected, the cells of the legal crosses that contain them."""
    out = 0
    for mv in st_.legal_actions(seat):
        if not isinstance(mv, Cross) or mv.cells & selected != selected:
            continue
        if (cd is not None and mv.colour_die != cd) or (nd is not None and mv.number_die != nd) or (
                cd == COLOUR_JOKER and colour is not None and mv.colour != colour):
            continue
        out |= mv.cells
    return out


def refusal_box(seat: int, seen_roll: str) -> None:
    """The last refused entry of this seat for this roll, in words, with a "Why?" detail."""
    r = refused_here(seat, seen_roll)
    with st.container(key=f"refusal-{seat}"):  # drawn on every run: the buttons below keep their place
        if r is not None:
            st.error(md(r["words"]), icon="✋")
            with st.expander(_("Why?")):
                st.caption(md(r["why"]))


def sheet_columns(own: bool = True):
    """The grid's column and the column next to it (side by side from tablet width down to a
    phone held sideways; one under the other on a phone held upright). On a seat's own device
    (``own``) the side column is narrow, so the cells get their 44 px; on the mission leader's
    screen it is wide enough for a refusal's words."""
    return st.columns([714, 114] if own else [5, 2], gap="xsmall")


def readonly_sheet(st_, seat: int, colourblind: bool, *, marks=None, status: str = "") -> None:
    """A seat's own sheet (on its own device) when it has nothing to decide: the same grid, not
    tappable, scrolling sideways where it does not fit, with ``status`` (Markdown) next to it."""
    s = st_.seats[seat]
    grid_col, side = sheet_columns()
    with grid_col:
        cell_grid(s.sheet, s.crossed, seat, selected=0, highlight=0, colourblind=colourblind, marks=marks,
                  enabled=False, scroll=True)
    with side, st.container(key=f"side-{seat}", gap="xsmall"):
        if status:
            st.markdown(status)
        st.html(seat_status_html(st_, seat, compact=True))


def move_controls(st_, seat: int, names: list[str], colourblind: bool, *, marks=None, status: str = "",
                  own: bool = False) -> None:
    """The interactive sheet of the seat entering now: the grid and, next to it, ``status``,
    the dice it may use, Cross / failed roll / clear, a refusal in words, and "!" and failed
    rolls. ``own``: the seat's own device ("Your dice").

    It is a fragment: a tap on a cell, Clear or a refused Cross reruns only the entry (the
    page around it stays as it is); a recorded entry reruns the whole page."""
    st.session_state.pop("entry-rerun", None)  # this is a run of the whole page already
    _entry(st_, seat, colourblind, marks, status, own)


@st.fragment
def _entry(st_, seat: int, colourblind: bool, marks, status: str, own: bool) -> None:
    if st.session_state.pop("entry-rerun", False):
        st.rerun(scope="app")
    end_box = follow.entry_box()  # a tap's run that lost its end is noticed (see follow.py)
    show_toast()
    s = st_.seats[seat]
    cd, nd, colour = current_picks(st_, seat)
    selected = mask_of(st.session_state.get("selected_cells", []))
    highlight = reach(st_, seat, selected, cd, nd, colour)
    rk = roll_key(st_)
    any_cross = any(isinstance(mv, Cross) for mv in st_.legal_actions(seat))
    grid_col, side = sheet_columns(own)
    with grid_col:
        cell_grid(s.sheet, s.crossed, seat, selected=selected, highlight=highlight, colourblind=colourblind,
                  marks=marks, scroll=own, roll=rk)
    with side, st.container(key=f"side-{seat}", gap="xsmall"):
        if status:
            st.markdown(status)
        cf, nf = st_.dice_for(seat)
        whose = _("Your dice") if own else _("Dice")
        st.markdown(f"**{whose}**  \n{dice_text(cf, nf)}" if cf or nf else _("**No dice left to use**"))
        refusal_box(seat, rk)
        if not any_cross:
            st.warning(_("No cross is possible with these dice: mark a failed roll.") if st_.game.has_failed_rolls
                       else _("No cross is possible with these dice: pass."))
        elif selected:
            ok = entry.moves_for_cells(st_, seat, selected, cd, nd, colour if cd == COLOUR_JOKER else None)
            if ok:
                m = ok[0]
                text = (_("✓ {colour} ×{count}, dice {colour_die} + {number_die}, {jokers} \"!\"") if m.joker_cost
                        else _("✓ {colour} ×{count}, dice {colour_die} + {number_die}"))
                st.caption(text.format(colour=colour_label(m.colour), count=m.count,
                                       colour_die=colour_face_label(m.colour_die),
                                       number_die=number_face_label(m.number_die), jokers=m.joker_cost))
            elif highlight:
                st.caption(_("Tap more cells: dashed cells can join."))
            else:
                st.caption(_("Not a legal cross yet."))
        else:
            st.caption(_("Tap cells to cross (dashed: they can).") if highlight else _("Tap cells to cross."))
        st.button(_("Cross"), key="cross-btn", type="primary", icon="✔️", on_click=_cross, args=(seat, rk),
                  disabled=not selected, width="stretch")
        st.button(pass_label(st_.game), key="fail-btn", icon=pass_icon(st_.game), on_click=_fail,
                  args=(seat, rk), width="stretch",
                  help=_("Use no combination this roll: marks the next red box; the third ends the game")
                  if st_.game.has_failed_rolls else _("Use no combination this roll"))
        st.button(_("Clear"), key="clear-btn", on_click=clear_cells, disabled=not selected, width="stretch")
        st.html(seat_status_html(st_, seat, compact=own))
    with grid_col, st.expander(_("Choose the dice yourself")):
        st.caption(_("Without a choice, a cross uses the dice that cost the fewest \"!\"."))
        dice_picker(st_, seat)
    follow.entry_ended(end_box)
