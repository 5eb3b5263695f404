"""JSON from outside (a query line, an uploaded or imported file): every way it can be wrong is
an :class:`~nochmal.engine.errors.InvalidInputError` that says what is wrong, never a
RecursionError, Python's integer-digit ValueError, or NaN/Infinity let through."""

from __future__ import annotations

import json
import sys
from typing import Any

from nochmal.engine.errors import InvalidInputError


def _no_constant(name: str):
    raise InvalidInputError(f"{name} is not a JSON number")


def loads(text: str) -> Any:
    """``json.loads(text)``, or InvalidInputError with the reason (callers add where it was)."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except InvalidInputError:
        raise
    except json.JSONDecodeError as err:
        raise InvalidInputError(f"{err.msg} at line {err.lineno} column {err.colno}") from None
    except RecursionError:
        raise InvalidInputError("nested too deeply") from None
    except ValueError:  # Python's limit on the digits of an integer (sys.get_int_max_str_digits)
        raise InvalidInputError(f"a number has more than {sys.get_int_max_str_digits()} digits") from None
