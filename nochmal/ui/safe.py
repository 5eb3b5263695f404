"""Text that users and files supply, made safe to show (pure: no streamlit import).

Seat names, titles, sheet and tableau names, sources, event fields, file names and error
messages that quote them are data, never markup. Streamlit renders Markdown in
``st.markdown``, ``st.caption``, the alerts, ``st.table`` cells, widget labels, radio and
segmented-control options and tooltips, so such text goes in through :func:`md` (or
:func:`code`); into ``st.html`` it goes through :func:`html_text`. Plain-text places
(``st.text``, ``st.code``, selectbox and multiselect options, ``st.dataframe``) take it as it
is, best through :func:`visible`.
"""

from __future__ import annotations

import html
import re

#: characters that start Markdown syntax wherever they stand: emphasis and strikethrough,
#: code, links and images, HTML and autolinks, entities, table cells, ``$`` maths, and
#: Streamlit's ``:colour[...]`` directives. CommonMark reads a backslash before any ASCII
#: punctuation as that character itself. An underscore between two letters or digits
#: (``goal_10``) cannot start or end emphasis and is left alone.
MD_SPECIAL = "\\`*[]<>|~$&"
_MD_ANYWHERE = re.compile("[" + re.escape(MD_SPECIAL) + "]|(?<![^\\W_])_|_(?![^\\W_])")
#: what starts a block when it begins a line: heading, list item (``-``, ``+``, ``1.``, ``1)``),
#: setext underline, quote; the first such character is escaped
_MD_LINE_START = re.compile(r"^([#+=>-]|[0-9]+[.)])")
#: U+2060 WORD JOINER: invisible, and no line break
WORD_JOINER = "\u2060"
#: where Streamlit's Markdown turns plain text into something else after escapes are undone
#: (so escaping cannot stop it): bare links ``http://``, ``https://``, ``www.``, e-mail
#: addresses (``a@b.c``), ``:emoji:``, ``:material/icon:`` and ``:streamlit:``, the symbols
#: ``<- -> <-> -- >= <= ~=``. A word joiner goes between the characters that would match.
_TEXT_TRANSFORMS = re.compile(r"(?<=:)(?=[/\w+-])|(?<=www)(?=\.)|(?=@)|(?<=[<>~-])(?==)|(?<=<)(?=-)|(?<=-)(?=[->])",
                              re.IGNORECASE)


#: what :func:`visible` replaces: the characters :func:`nochmal.engine.sheet.control_character` refuses
#: in names (C0, DEL, C1, line and paragraph separators, bidi controls, lone surrogates)
_INVISIBLE_RE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


def _visible_char(match: re.Match) -> str:
    o = ord(match.group())
    if o < 0x20:
        return chr(0x2400 + o)  # the Control Pictures block: ␀ ... ␟ (␊ for a newline, ␉ for a tab)
    if o == 0x7F:
        return "\u2421"  # ␡
    return "\ufffd"  # C1 controls, line separators, bidi overrides, lone surrogates (not UTF-8: they break a page)


def visible(text: object) -> str:
    """``str(text)`` with every control character (newlines and tabs too), lone surrogate,
    line separator and bidi override replaced by a visible symbol: one line of plain text
    that any page can show and that cannot break a page or reorder its neighbours."""
    s = str(text)
    return _INVISIBLE_RE.sub(_visible_char, s)


def md(text: object) -> str:
    """``text`` as Markdown that shows exactly that text (after :func:`visible`, and with word
    joiners where Streamlit would turn text into a link, an icon or a symbol), wherever it is
    put in a line: no emphasis, link, image, autolink, HTML, entity, code, maths, table cell,
    directive, icon, heading, list, quote or code-block syntax survives, and it stays one line.
    White space at either end is dropped (Markdown would drop it, or read four spaces as code)."""
    s = _TEXT_TRANSFORMS.sub(WORD_JOINER, visible(text).strip())
    s = _MD_ANYWHERE.sub(lambda m: "\\" + m.group(), s)
    return _MD_LINE_START.sub(lambda m: m.group()[:-1] + "\\" + m.group()[-1], s, count=1)


def code(text: object) -> str:
    """``text`` as a Markdown code span (shown literally, in monospace), whatever backticks
    it holds; empty text gives an empty string."""
    s = visible(text)
    if not s:
        return ""
    fence = "`" * (max((len(run) for run in re.findall("`+", s)), default=0) + 1)
    pad = " " if s[0] == "`" or s[-1] == "`" or (s[0] == " " and s[-1] == " " and s.strip()) else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def html_text(text: object) -> str:
    """``text`` escaped for HTML (element content and quoted attribute values), after
    :func:`visible`."""
    return html.escape(visible(text), quote=True)


__all__ = ["MD_SPECIAL", "WORD_JOINER", "code", "html_text", "md", "visible"]
