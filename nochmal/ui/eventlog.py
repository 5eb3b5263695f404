"""Questions the table screen asks a game's event log (pure functions, no streamlit): the events
still in force after undos, the last one an undo would take back, the recent crosses, and what
each seat decided in this roll."""

from __future__ import annotations

from collections.abc import Sequence

from nochmal.engine.cells import mask_of
from nochmal.store.events import CrossEvent, PassEvent, RollEvent, UndoEvent


def effective_events(events: Sequence) -> list:
    """The events still in force (undone ones and the undos themselves removed)."""
    stack: list = []
    for ev in events:
        if isinstance(ev, UndoEvent):
            if stack:
                stack.pop()
        else:
            stack.append(ev)
    return stack


def last_effective_event(events: Sequence):
    """The decision an undo would take back, or None."""
    eff = effective_events(events)
    return eff[-1] if eff else None


def recent_crosses(events: Sequence, n_seats: int) -> list[int]:
    """Per seat, the cells crossed in the current and the previous roll (as masks)."""
    eff = effective_events(events)
    rolls = [i for i, ev in enumerate(eff) if isinstance(ev, RollEvent)]
    start = rolls[-2] if len(rolls) >= 2 else 0
    out = [0] * n_seats
    for ev in eff[start:]:
        if isinstance(ev, CrossEvent) and ev.seat < n_seats:
            out[ev.seat] |= mask_of(ev.cells)
    return out


def this_roll(events: Sequence) -> dict[int, object]:
    """What each seat decided since the last roll: seat -> CrossEvent / PassEvent."""
    eff = effective_events(events)
    out: dict[int, object] = {}
    for ev in reversed(eff):
        if isinstance(ev, RollEvent):
            break
        if isinstance(ev, (CrossEvent, PassEvent)):
            out.setdefault(ev.seat, ev)
    return out
