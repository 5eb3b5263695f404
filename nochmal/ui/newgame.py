"""A new game as the app makes it: the sheets its seats take unless chosen, and the game of a
mode with one sheet per seat (pure functions, no streamlit)."""

from __future__ import annotations

from collections.abc import Sequence

from nochmal.data import coopset
from nochmal.engine.errors import InvalidInputError
from nochmal.engine.game import Game, variant


def default_sheets(mode: str, players: int) -> list[str]:
    """The sheets the seats of a new ``mode`` game take unless chosen: in a co-op game the
    owner's co-op set, seat 1 on sheet I, seat 2 on II, ... with the stand-in of the slot where
    the set has none (:func:`nochmal.data.coopset.seat_sheets` holds that decision; C-BOARDS);
    else the variant's ``default_sheets`` (the standard sheet)."""
    rules = variant(mode)
    if rules.cooperative:
        return coopset.default_sheets(players)
    return rules.default_sheets(players)


def make_game(mode: str, sheets: Sequence[str], mission: int = 1) -> Game:
    """A new game of the variant ``mode`` with one sheet id per seat (and ``mission``, for a
    variant that has one)."""
    rules = variant(mode)
    if not rules.min_seats <= len(sheets) <= rules.max_seats:
        raise InvalidInputError(f"{mode} games take {rules.min_seats}-{rules.max_seats} players, got {len(sheets)}")
    return rules.create(len(sheets), sheets=list(sheets), mission=mission if rules.has_mission else None)
