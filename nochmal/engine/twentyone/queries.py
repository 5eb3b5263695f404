"""``nochmal legal-moves --game twentyone``: one JSON query a line, one answer a line. A query is
a position given by its sheets and the actions so far, ``{"sheets": ["A", "B"], "history": [...]}``
(actions in their JSON form, :func:`~nochmal.engine.twentyone.actions.parse_action`), and
optionally the ``seat`` to ask for (any seat still to enter this round); the answer is
``{"player": ..., "actions": [...]}`` with the legal actions sorted, or ``{"error": "..."}``.
Reading a line (size, UTF-8, JSON, nesting) is the same as for *Noch mal!*'s queries."""

from __future__ import annotations

from typing import Any

from nochmal.engine.errors import InvalidInputError, NochmalError
from nochmal.engine.queries import parse_query_line, quote
from nochmal.engine.twentyone.game import CHANCE, TERMINAL, TwentyOneGame, replay

QUERY_FIELDS = ("sheets", "history", "seat")
#: the most actions a position may bring (a game of 6 players to the end has far fewer)
MAX_HISTORY = 5000


def legal_actions(query: Any) -> dict:
    """The answer to one query (see the module's doc); InvalidInputError naming the field."""
    if not isinstance(query, dict):
        raise InvalidInputError(f"a query is a JSON object with {', '.join(QUERY_FIELDS)}, got {quote(query)}")
    unknown = sorted(str(k) for k in query if k not in QUERY_FIELDS)
    if unknown:
        raise InvalidInputError(f"field {unknown[0][:40]!r}: not a field of a twenty one query "
                                f"({', '.join(QUERY_FIELDS)})")
    sheets = query.get("sheets")
    if not isinstance(sheets, list) or not all(isinstance(s, str) for s in sheets):
        raise InvalidInputError(f"field sheets: a list of sheet ids, one per seat, got {quote(sheets)}")
    history = query.get("history", [])
    if not isinstance(history, list) or len(history) > MAX_HISTORY:
        raise InvalidInputError(f"field history: a list of at most {MAX_HISTORY} actions, got {quote(history)}")
    try:
        game = TwentyOneGame.create(len(sheets), sheets=sheets or None)
    except NochmalError as err:
        raise InvalidInputError(f"field sheets: {err}") from None
    try:
        state = replay(game, history)
    except NochmalError as err:
        raise InvalidInputError(f"field history: {err}") from None
    seat = query.get("seat")
    if seat is not None and (type(seat) is not int or not 0 <= seat < game.n_seats):
        raise InvalidInputError(f"field seat: a seat 0-{game.n_seats - 1}, got {quote(seat)}")
    player = state.current_player()
    return {"player": "chance" if player == CHANCE else "over" if player == TERMINAL else player,
            "actions": [a.to_json() for a in state.legal_actions(seat)]}


def answer_line(raw: bytes) -> dict:
    """The answer to one input line; never raises (an unexpected exception is answered as an error)."""
    try:
        return legal_actions(parse_query_line(raw))
    except NochmalError as err:
        return {"error": str(err)}
    except Exception as err:  # noqa: BLE001 - every line gets an answer, whatever happened
        return {"error": f"internal error while answering this line ({type(err).__name__}); please report it"}
