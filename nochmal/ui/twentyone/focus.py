"""What a twenty one seat's own device needs while the seat decides (pure, no streamlit): the
round, the phase, the dice and its own row. Another seat's entry in the same round leaves it as
it is, so a phone whose player is tapping dice is not run again by the others' entries (as for
*Noch mal!*: :func:`nochmal.ui.entry.seat_focus`)."""

from __future__ import annotations

from nochmal.engine.twentyone.game import CHOOSE, ENTER


def seat_focus(state, seat: int) -> str | None:
    """The seat's focus, or None when it does not decide now (keep or second attempt as the
    active seat, or its entry of the round)."""
    if state.is_terminal():
        return None
    deciding = (state.phase == CHOOSE and seat == state.active) or (state.phase == ENTER and seat in state.pending)
    if not deciding:
        return None
    s = state.seats[seat]
    return f"t21|{state.round_index}|{state.phase}|{state.active}|{state.dice}|{s.row}|{s.filled}"
