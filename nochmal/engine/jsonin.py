"""JSON from outside (a query line, an uploaded or imported file): every way it can be wrong is
an :class:`~nochmal.engine.errors.InvalidInputError` that says what is wrong, never a
RecursionError, Python's integer-digit ValueError, or NaN/Infinity let through. Size and nesting
are checked before parsing (one linear scan), so a hostile text costs no more than its length."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from nochmal.engine.errors import InvalidInputError


#: Deepest nesting of arrays and objects accepted (a game export nests 5 deep; the same cap as
#: :data:`nochmal.store.transfer.IMPORT_MAX_DEPTH` for data given to ``import_game``).
MAX_DEPTH = 32
#: Longest text accepted, in characters (the largest caller cap: a game export's 1 MiB).
MAX_CHARS = 1024 * 1024

#: A string (to its closing quote, over escapes; an unclosed one to the end) or a bracket.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


def nesting_depth(text: str, stop_above: int = MAX_DEPTH) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings in ``text`` (one linear pass, no
    parsing; stops once above ``stop_above``)."""
    depth = deepest = 0
    for m in _TOKEN.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop_above:
                    break
        elif c in "]}":
            depth -= 1
    return deepest


def _no_constant(name: str):
    raise InvalidInputError(f"{name} is not a JSON number")


def loads(text: str, *, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(text)`` for a text of at most ``max_chars`` characters nested at most
    ``max_depth`` deep (both checked first), or InvalidInputError with the reason (callers add
    where it was)."""
    if len(text) > max_chars:
        raise InvalidInputError(f"the text has {len(text):,} characters; at most {max_chars:,} "
                                f"({max_chars // 1024} KiB) are accepted")
    depth = nesting_depth(text, max_depth)
    if depth > max_depth:
        raise InvalidInputError(f"arrays and objects nested more than {max_depth} levels deep "
                                f"(at most {max_depth} are accepted)")
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
