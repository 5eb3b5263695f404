"""A seat's focus for the page that follows its game (:mod:`nochmal.ui.changes`), by game: a game
with pages of its own (:mod:`nochmal.ui.games`) brings its own; *Noch mal!*'s is
:func:`nochmal.ui.entry.seat_focus`. Apart from :mod:`nochmal.ui.games` because the pages' own
modules import the store's followers that ask this (no import cycle)."""

from __future__ import annotations

from nochmal.store.games import TWENTYONE, kind_of_game
from nochmal.ui.entry import seat_focus as nochmal_focus
from nochmal.ui.twentyone.focus import seat_focus as twentyone_focus

_FOCUS = {kind.name: focus for kind, focus in ((TWENTYONE, twentyone_focus),)}


def seat_focus(state, seat: int) -> str | None:
    """What ``seat``'s own device needs while it decides, or None when it does not decide now."""
    name = kind_of_game(state.game).name
    return _FOCUS[name](state, seat) if name in _FOCUS else nochmal_focus(state, seat)
