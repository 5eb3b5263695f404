"""Text that the command line prints to a terminal: anything from a file, the store or the
user (game titles, seat names, error messages that quote input) goes through
:func:`printable` first, so it cannot move the cursor, recolour or clear the screen, forge
extra lines, or reverse the reading order of what follows (Trojan Source).

Escaped: C0 and C1 control characters (ESC, so every ANSI/VT escape sequence, CR, LF, TAB,
DEL, CSI U+009B ...), line and paragraph separators, bidirectional and other format
characters (U+202E, U+2066, U+200B, U+FEFF ...), surrogates, private-use and unassigned code
points. Kept: every other character, so "Jürgen 🎲" and CJK names print as they are; the
zero-width (non-)joiner is kept too, because emoji sequences (families, flags) are built
with it. JSON output does not need this: ``json.dumps`` escapes all of it.
"""

from __future__ import annotations

import json
import sys
import unicodedata

#: Unicode categories that are not printed as they are.
ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Format characters that stay: ZWNJ and ZWJ (emoji sequences).
KEPT_FORMAT = frozenset({"\u200c", "\u200d"})
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(ch: str) -> str:
    if ch in _SHORT:
        return _SHORT[ch]
    cp = ord(ch)
    if cp <= 0xFF:
        return f"\\x{cp:02x}"
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"


def needs_escape(ch: str) -> bool:
    return ch not in KEPT_FORMAT and unicodedata.category(ch) in ESCAPED_CATEGORIES


def printable(text: object) -> str:
    """``text`` (or ``str(text)``) with every control and other non-printable character
    written as a backslash escape (``\\x1b``, ``\\u202e``, ``\\n``); always one line."""
    s = text if isinstance(text, str) else str(text)
    if s.isascii() and s.isprintable():  # the common case, fast
        return s
    return "".join(_escape(ch) if needs_escape(ch) else ch for ch in s)


def say(text: str, *, file=None) -> None:
    """Print one line of text that may hold anything a file, the store or a user supplied."""
    print(printable(text), file=file or sys.stdout)


def print_table(values: dict, as_json: bool, width: int) -> None:
    """A flat result: one JSON line, or one ``name  value`` line per entry."""
    if as_json:
        print(json.dumps(values))
    else:
        for k, v in values.items():
            say(f"{k:{width}} {v}")
