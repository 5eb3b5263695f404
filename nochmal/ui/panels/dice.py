"""The dice: entering the roll the table threw (companion), rolling in the app (digital), and
the list of this roll's dice with what each seat may still use."""

from __future__ import annotations

import streamlit as st

from nochmal.engine.dice import Roll
from nochmal.engine.errors import InvalidInputError
from nochmal.engine.moves import Cross
from nochmal.data.i18n import _
from nochmal.store.events import CrossEvent, PassEvent
from nochmal.ui import eventlog
from nochmal.ui.actions import run_action, same_roll, who
from nochmal.ui.explain import cell_label
from nochmal.ui.labels import (COLOUR_ORDER, NUMBER_ORDER, colour_face_label, colour_word, dice_text, number_face_label,
                               seat_label)
from nochmal.ui.safe import md


def _roll_keys(nc: int, nn: int) -> list[str]:
    return [f"roll-c-{i}" for i in range(nc)] + [f"roll-n-{i}" for i in range(nn)]


def _enter_roll(nc: int, nn: int, seen_roll: str) -> None:
    ss = st.session_state
    colours = [ss.get(f"roll-c-{i}") for i in range(nc)]
    numbers = [ss.get(f"roll-n-{i}") for i in range(nn)]

    def do(ses, access):
        same_roll(ses, seen_roll)
        if not (all(c is not None for c in colours) and all(n is not None for n in numbers)):
            raise InvalidInputError(_("choose the face of every die first"), rule="R-ROLL")
        ses.record(Roll.of(colours, numbers), by=who(access))
        for k in _roll_keys(nc, nn):
            ss[k] = None

    run_action(do)


def _roll_digital(seen_roll: str) -> None:
    def do(ses, access):
        same_roll(ses, seen_roll)
        ses.roll_digital(by=who(access))

    run_action(do)


def dice_entry(nc: int, nn: int, allowed: bool, seen_roll: str) -> None:
    """Companion: the faces the table rolled, one tap per die, then "Enter roll". The taps stay
    on the device until "Enter roll" (a form): none is lost to a page update meanwhile, and the
    phone answers each tap at once."""
    st.markdown(_("**Enter the roll** — tap the face each die shows"))
    with st.form(key="roll-form", border=False, enter_to_submit=False):
        for i in range(nc):
            st.segmented_control(_("Colour die {number}").format(number=i + 1), COLOUR_ORDER, format_func=colour_face_label,
                                 key=f"roll-c-{i}", disabled=not allowed)
        for i in range(nn):
            st.segmented_control(_("Number die {number}").format(number=i + 1), NUMBER_ORDER, format_func=number_face_label,
                                 key=f"roll-n-{i}", disabled=not allowed)
        st.form_submit_button(_("Enter roll"), key="roll-enter", type="primary", icon="🎲", on_click=_enter_roll,
                              args=(nc, nn, seen_roll), disabled=not allowed)


def roll_button(allowed: bool, seen_roll: str) -> None:
    st.button(_("Roll the dice"), key="roll-digital", type="primary", icon="🎲", on_click=_roll_digital,
              args=(seen_roll,), disabled=not allowed)


def roll_dice_text(st_) -> str:
    """This roll's dice in a line of Markdown (a waiting seat's phone shows them beside its
    sheet), with the dice the active seat set aside once it has chosen; "" before a roll."""
    d = st_.dice
    if d is None:
        return ""
    text = _("**This roll's dice**  \n{dice}").format(dice=dice_text(d.colours, d.numbers))
    if st_.phase == "passive" and st_.game.sets_aside(st_) and isinstance(st_.active_move, Cross):
        am = st_.active_move
        text += "  \n" + _("Set aside: {colour_die} and {number_die}").format(
            colour_die=colour_face_label(am.colour_die), number_die=number_face_label(am.number_die))
    return text


def dice_panel(st_, names: list[str], bots: list, events: list) -> None:
    """The dice of this roll and which dice each undecided seat may still use."""
    d = st_.dice
    st.markdown(_("**Roll {roll}** — {dice}").format(roll=st_.roll_index + 1, dice=dice_text(d.colours, d.numbers)))
    decided = eventlog.this_roll(events)
    lines = []
    for seat in range(st_.game.n_seats):
        label = seat_label(names, seat) + (" 🤖" if bots[seat] else "")
        role = _("active") if seat == st_.active else _("passive")
        # solo: one seat, neither active nor passive
        who = label if st_.game.n_seats == 1 else _("{seat} ({role})").format(seat=label, role=role)
        if seat in st_.pending or (st_.phase == "active" and seat == st_.active):
            cf, nf = st_.dice_for(seat)
            lines.append(_("- {who} — to decide, may use {dice}").format(who=who, dice=dice_text(cf, nf)))
        elif st_.phase == "active":
            lines.append(_("- {who} — waits for the active seat to choose its dice").format(who=who))
        else:
            ev = decided.get(seat)
            what = (_("crossed {colour} {cells}").format(
                        colour=colour_word(ev.colour),
                        cells="-".join(cell_label(st_.seats[seat].sheet, c) for c in ev.cells))
                    if isinstance(ev, CrossEvent)
                    else (_("marked a failed roll") if st_.game.has_failed_rolls else _("passed"))
                    if isinstance(ev, PassEvent) else _("decided"))
            lines.append(_("- {who} — done: {what}").format(who=who, what=md(what)))
    st.markdown("\n".join(lines))
    if st_.phase == "passive" and st_.game.sets_aside(st_) and isinstance(st_.active_move, Cross):
        am = st_.active_move
        st.caption(_("Set aside by the active seat: {colour_die} and {number_die}; the others pick from the rest.")
                   .format(colour_die=colour_face_label(am.colour_die), number_die=number_face_label(am.number_die)),
                   help=_("Rules R-ACTIVE and R-PASSIVE: the active player's two dice are set aside."))
    elif st_.roll_index < st_.game.free_rolls and st_.game.n_seats > 1:
        st.caption(_("First three rolls: nothing is set aside, everybody picks from all dice."),
                   help=_("Rule {rule}.").format(rule="R-FIRST3"))
