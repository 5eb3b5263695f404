"""TOML from outside (a sheet, tableau, mission or co-op set file, uploaded or read from disk):
parsed by :mod:`tomllib` only after one linear scan has shown it is no larger and no deeper than
a data file can be.

Why the scan: :mod:`tomllib` keeps, for every dotted key ``a.b.c...`` (and every table header
``[a.b.c...]``), a record of each of its prefixes, so its memory grows with the square of the
key's depth: one key 4,000 parts deep takes ~60 MB, a 260 KB co-op set file of such keys over
20 GB. The shipped files nest at most 6 levels (a co-op set file: ``[sheets.I.coop]`` with arrays of arrays), so
:data:`MAX_DEPTH` is far above anything real and far below anything costly.

Every refusal is an :class:`~nochmal.engine.errors.InvalidInputError` that names the limit
(callers add which file it was)."""

from __future__ import annotations

import tomllib
from typing import Any

from nochmal.engine.errors import InvalidInputError

#: Deepest nesting accepted: the parts of a table header plus the parts of a dotted key plus
#: the arrays and inline tables around a value. A co-op set file of the shipped sheets reaches 6.
MAX_DEPTH = 16
#: Largest text accepted, in characters (the largest per-file cap, a co-op set's 256 KiB).
MAX_CHARS = 256 * 1024

_RESET = frozenset(",{}[]\n#=")


def _skip_string(text: str, i: int) -> int:
    """The index just after the string that starts at ``text[i]`` (a quote). A string left open
    ends at the end of its line (single-line) or of the text (multi-line): :mod:`tomllib` refuses
    it there, before reading anything after it."""
    q = text[i]
    n = len(text)
    if text.startswith(q * 3, i):  # multi-line: up to two more quotes belong to the content
        j = i + 3
        while j < n:
            c = text[j]
            if c == "\\" and q == '"':
                j += 2
                continue
            if c == q and text.startswith(q * 3, j):
                j += 3
                for _ in range(2):
                    if j < n and text[j] == q:
                        j += 1
                return j
            j += 1
        return n
    j = i + 1
    while j < n:
        c = text[j]
        if c == "\\" and q == '"':
            j += 2
            continue
        if c == q:
            return j + 1
        if c == "\n":
            return j
        j += 1
    return n


def nesting_problem(text: str, max_depth: int = MAX_DEPTH) -> str | None:
    """Why ``text`` nests too deeply for a data file, or None: one pass, no recursion, no
    parsing. Counts the parts of each table header (``[[a.b]]`` is a list too: 3), the parts of
    each dotted key before ``=`` on top of its table or inline table, and every ``[`` and ``{``
    of a value. Strings and comments are skipped as TOML reads them."""
    n = len(text)
    i = 0
    base = 0  # depth of the current table (its header's parts)
    stack: list[tuple[str, int]] = []  # open arrays / inline tables with their own depth
    dots = 0  # dots outside strings since the last separator: a dotted key has dots + 1 parts
    pending = 0  # depth of the value after the last "=" at this level
    line_start = True
    header: int = 0  # 0: not in a header; 1: in [..]; 2: in [[..]]
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            i = _skip_string(text, i)
            line_start = False
            continue
        if c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "\n":
            line_start = not stack
            dots = 0
            i += 1
            continue
        if c in " \t\r":
            i += 1
            continue
        if c == ".":
            dots += 1
            if dots >= max_depth:
                return f"a dotted key has more than {max_depth} parts; a data file may nest at most {max_depth} levels"
            i += 1
            line_start = False
            continue
        if line_start and c == "[" and not stack:  # a table header
            header = 2 if text.startswith("[[", i) else 1
            i += header
            dots = 0
            line_start = False
            continue
        line_start = False
        if header and c == "]":
            depth = dots + 1 + (1 if header == 2 else 0)
            if depth > max_depth:
                return f"a table header nests {depth} levels deep; a data file may nest at most {max_depth}"
            base = depth
            i += header if text.startswith("]]", i) and header == 2 else 1
            header = 0
            dots = 0
            continue
        if c in _RESET:
            if c == "=":
                container = stack[-1][1] if stack and stack[-1][0] == "{" else base
                pending = container + dots + 1
                if pending > max_depth:
                    return f"a key nests {pending} levels deep; a data file may nest at most {max_depth}"
            elif c in "[{":
                depth = stack[-1][1] + 1 if stack and stack[-1][0] == "[" else pending
                if depth > max_depth:
                    return f"arrays and tables nest {depth} levels deep; a data file may nest at most {max_depth}"
                stack.append((c, depth))
            elif c in "]}":
                if stack:
                    stack.pop()
            dots = 0
            i += 1
            continue
        i += 1
    return None


def loads(text: str, *, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """``tomllib.loads(text)`` for a text of at most ``max_chars`` characters that nests at most
    ``max_depth`` levels (:func:`nesting_problem`), checked before parsing. Every way it can be
    wrong is an :class:`InvalidInputError` with the reason (callers add which file it was)."""
    if len(text) > max_chars:
        raise InvalidInputError(f"the text has {len(text):,} characters; a data file may have at most "
                                f"{max_chars:,} ({max_chars // 1024} KiB)")
    problem = nesting_problem(text, max_depth)
    if problem is not None:
        raise InvalidInputError(f"not usable TOML: {problem}")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InvalidInputError(f"not valid TOML: {err}") from None
    except RecursionError:
        raise InvalidInputError("not usable TOML: arrays or tables nested too deeply") from None
    except ValueError as err:  # an integer of more than 4300 digits (sys.get_int_max_str_digits)
        why = "a number has too many digits to read" if "digits" in str(err) else str(err)[:120]
        raise InvalidInputError(f"not usable TOML: {why}") from None
