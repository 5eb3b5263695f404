"""What a seat may enter now, as pure functions (no streamlit): who decides in this roll, what
a seat's own device waits on, which device enters for which seat, and the cross a player means
by tapping cells. Nothing here changes the rules: moves are still validated by ``State.apply`` /
``GameSession.record``."""

from __future__ import annotations

from nochmal.engine.dice import COLOUR_JOKER
from nochmal.engine.errors import InvalidInputError
from nochmal.engine.game import ACTIVE, PASSIVE
from nochmal.engine.moves import Cross, cross_for_selection


def seats_to_decide(state) -> list[int]:
    """Seats that still decide in the current roll (the active seat first; R-ORDER)."""
    if state.phase == ACTIVE:
        return [state.active]
    if state.phase == PASSIVE:
        return list(state.pending)
    return []


def seat_focus(state, seat: int) -> str | None:
    """What a seat's own device needs while the seat decides in this roll (its roll, phase,
    dice and own sheet), or None when it does not decide now. Another seat's entry in the same
    roll leaves it as it is: the deciding device is not run again for it (a whole run of the page
    while the player taps could lose the tap; see :mod:`nochmal.ui.changes`)."""
    if state.is_terminal() or seat not in seats_to_decide(state):
        return None
    s = state.seats[seat]
    return (f"{state.roll_index}|{state.phase}|{state.active}|{state.dice}|{state.left}|"
            f"{s.crossed}|{s.jokers_used}|{s.failed}")


def can_enter(access: str | None, device_seat: int | None, seat: int) -> bool:
    """A host device enters for every seat; a joined device only for the seat it claimed."""
    if access == "host":
        return True
    return access == "seat" and device_seat is not None and device_seat == seat


def _matching(state, seat: int, colour_die=None, number_die=None, colour=None):
    for mv in state.legal_actions(seat):
        if not isinstance(mv, Cross):
            continue
        if colour_die is not None and mv.colour_die != colour_die:
            continue
        if number_die is not None and mv.number_die != number_die:
            continue
        if colour is not None and mv.colour != colour:
            continue
        yield mv


def start_cells(state, seat: int, colour_die=None, number_die=None, colour=None) -> int:
    """The union of the cells of every legal cross of ``seat`` with these dice (None: any)."""
    out = 0
    for mv in _matching(state, seat, colour_die, number_die, colour):
        out |= mv.cells
    return out


def moves_for_cells(state, seat: int, cells: int, colour_die=None, number_die=None, colour=None) -> list[Cross]:
    """Legal crosses of exactly ``cells`` (with the dice given), cheapest in "!" first."""
    found = [mv for mv in _matching(state, seat, colour_die, number_die, colour) if mv.cells == cells]
    found.sort(key=lambda m: (m.joker_cost, m.colour_die, m.number_die, m.colour))
    return found


def build_cross(state, seat: int, cells: int, colour_die=None, number_die=None, colour=None) -> Cross:
    """The cross a player means by tapping ``cells`` (and maybe choosing dice): the cheapest
    legal one, read by the engine (:func:`~nochmal.engine.moves.cross_for_selection`) from the
    dice the seat may use now; a selection no reading makes legal raises
    :class:`~nochmal.engine.errors.IllegalMoveError` naming the first rule it breaks.

    A seat that does not decide now gets a plain reading of the cells, so that ``State.apply``
    refuses it for the order of play (R-ORDER)."""
    if not cells:
        raise InvalidInputError("tap the cells to cross first", rule="R-COUNT")
    s = state.seats[seat]
    if seat not in seats_to_decide(state):
        first_colour = s.sheet.colour_of[(cells & -cells).bit_length() - 1]
        return Cross(colour_die if colour_die is not None else first_colour,
                     number_die if number_die is not None else min(cells.bit_count(), 5),
                     colour if colour is not None else first_colour, cells)
    cf, nf = state.dice_for(seat)
    rolled = (state.dice.colours, state.dice.numbers) if state.dice is not None else None
    return cross_for_selection(s.sheet, s.crossed, s.jokers_left, cells, cf, nf,
                               colour_die=colour_die, number_die=number_die,
                               colour=colour if colour_die == COLOUR_JOKER else None, rolled=rolled,
                               dice_rule="R-ACTIVE" if state.phase == ACTIVE else "R-PASSIVE")


def no_legal_cross(state, seat: int) -> bool:
    """True when ``seat`` decides now (the active seat, or a passive seat still to decide) and
    no cross is legal for it with the dice it may use: it can only pass (co-op: mark a failed
    roll, C-FAIL)."""
    if seat not in seats_to_decide(state):
        return False
    acts = state.legal_actions(seat)
    crosses = getattr(acts, "crosses", None)
    if crosses is not None:
        return crosses() == 0
    return not any(isinstance(a, Cross) for a in acts)
