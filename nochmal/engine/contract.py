"""What every game of this project shares, whatever its rules (*Noch mal!* in
:mod:`nochmal.engine.game`, *twenty one* in :mod:`nochmal.engine.twentyone`): a position is rebuilt
from its actions by one replay, a saved position is checked against its own history by one check,
and a data file (a sheet, a tableau) is validated by one loader-error path. Pure, like the rest of
the engine.

A game's state keeps the contract ``apply(action, seat=None)``, ``legal_actions()``,
``current_player()``, ``is_terminal()``, ``is_chance_node()``, ``outcome()``, ``clone()`` and
``to_json()``; these helpers ask nothing else of it."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from pydantic import BaseModel, ValidationError

from nochmal.engine.errors import DataFileError, IllegalMoveError, InvalidInputError

M = TypeVar("M", bound=BaseModel)

MAX_PROBLEMS = 20  # a file with more problems names the first 20 and counts the rest


def _shown_input(value: object) -> str:
    """A short, escaped rendering of a wrong scalar input (control characters escaped)."""
    if isinstance(value, (str, int, float, bool)):
        text = repr(value) if not isinstance(value, int) or value.bit_length() < 64 else "a huge number"
        return f" (got {text[:40]}{'...' if len(text) > 40 else ''})"
    return f" (got a {type(value).__name__})" if isinstance(value, (list, dict, tuple)) else ""


def format_validation(err: ValidationError) -> list[str]:
    """The problems of a pydantic :class:`ValidationError` as readable lines, one per error:
    ``field <dotted.path>: <message> (got <input>)`` (``(file)`` for the whole document), the
    first :data:`MAX_PROBLEMS` of them followed by a count of the rest."""
    out = []
    errors = err.errors(include_url=False)
    for e in errors[:MAX_PROBLEMS]:
        loc = ".".join(str(p) for p in e["loc"]) or "(file)"
        got = _shown_input(e.get("input")) if e["type"] not in ("value_error", "missing", "assertion_error") else ""
        out.append(f"field {loc}: {e['msg']}{got}")
    if len(errors) > MAX_PROBLEMS:
        out.append(f"... and {len(errors) - MAX_PROBLEMS} more problems")
    return out


def validated(model: type[M], data: object, path: object) -> M:
    """``data`` as a ``model``, or a :class:`DataFileError` naming ``path`` and every field that is
    wrong: the loader-error path of every data file (sheets of both games, tableaus, missions)."""
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise DataFileError(path, format_validation(err)) from None


def replay_actions(state: Any, actions: list, parse_action: Callable[[Any], Any]) -> Any:
    """Apply ``actions`` (or their JSON forms, read by ``parse_action``) one by one to ``state``, a
    new game's state; the error names the first bad action (``action 7: ...``) with its rule."""
    for i, a in enumerate(actions):
        try:
            state.apply(parse_action(a) if isinstance(a, dict) else a)
        except IllegalMoveError as err:
            raise IllegalMoveError(err.rule, f"action {i}: {err.reason}", err.position) from None
        except InvalidInputError as err:
            raise InvalidInputError(f"action {i}: {err.detail}", rule=err.rule) from None
    return state


def check_saved(state: Any, data: dict, keys: tuple[str, ...]) -> Any:
    """``state`` (replayed from a saved game's history) if every field in ``keys`` of its
    ``to_json()`` is what was saved; else InvalidInputError naming the first that is not (a
    tampered file cannot make a position its own history does not lead to)."""
    mine = state.to_json()
    for key in keys:
        if mine.get(key) != data.get(key):
            raise InvalidInputError(f"saved state field {key!r} does not match its own history")
    return state
