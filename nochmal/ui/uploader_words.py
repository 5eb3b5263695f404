"""Streamlit's file uploader in the page's language.

Streamlit 1.67 writes the uploader's button ("Upload") and its limits line ("1MB per file •
JSON") in English and has no option to change them (``st.file_uploader`` takes a label, a help
text and the limits, not these words). Outside English, :func:`style` replaces both on the page:

* the English text is hidden with ``display: none`` (which also takes it out of the
  accessibility tree) and the language's words are drawn in its place as generated content of
  its parent, which screen readers read: the button's accessible name is the new word (checked
  in Chromium); nothing else of the uploader changes (its click, keyboard focus, drop zone and
  label stay Streamlit's own);
* the limits line says the limits of each uploader (:data:`LIMITS`, by the uploader's key); an
  uploader not listed there shows none (its label says them).

The rules find the texts by Streamlit's ``data-testid`` attributes (``stFileUploaderDropzone``,
``stFileUploaderDropzoneInstructions``), the ones Streamlit's own tests use; if an update renames
them, the English comes back, nothing breaks (``tests/test_words.py`` checks that the installed
frontend still has them). Not replaced: "Drag and drop a file here", shown only while a file is
dragged over the uploader, and the uploader's English refusal of a file of the wrong type or
size (each page checks the file again and answers in the page's language).
"""

from __future__ import annotations

from nochmal.data import i18n
from nochmal.data.i18n import _, number

#: key (or key prefix, ending in "_") of each uploader -> (most megabytes, file types)
LIMITS = {
    "import-file": (1, ("json",)),
    "dash_upload": (10, ("csv", "parquet")),
    "tableau_upload": (1, ("toml",)),
    "sheet_upload": (1, ("toml",)),
    "coopset_upload": (1, ("toml",)),
    "scan_upload_": (15, ("jpg", "jpeg", "png", "webp")),
}

_DROPZONE = '[data-testid="stFileUploaderDropzone"]'
#: the button that opens the file dialog (the only one of the drop zone with a written label; a
#: chosen file's delete button has an icon only)
_BUTTON = f'{_DROPZONE} button:has([data-testid="stMarkdownContainer"] p)'
_BUTTON_TEXT = f'{_BUTTON} [data-testid="stMarkdownContainer"] p'
_LIMITS = '[data-testid="stFileUploaderDropzoneInstructions"] > div'


def _css_string(text: str) -> str:
    """``text`` as a CSS string (quotes, backslashes and line ends escaped)."""
    return '"' + "".join(f"\\{ord(c):x} " if c in '"\\\n\r<>' else c for c in text) + '"'


def limits_text(mb: int, types: tuple[str, ...]) -> str:
    """An uploader's limits in words: "at most 1 MB per file · JSON"."""
    return _("at most {mb} MB per file · {types}").format(mb=number(mb), types=", ".join(t.upper() for t in types))


def style() -> str:
    """The ``<style>`` that puts the uploader's words in the language in force; "" in English
    (Streamlit's own words are English)."""
    if i18n.language() == i18n.DEFAULT:
        return ""
    button = _css_string(_("Choose a file"))
    rules = [
        f"{_BUTTON_TEXT}, {_LIMITS} > span {{ display: none; }}",
        f"{_BUTTON}::after {{ content: {button}; margin-left: 0.5rem; }}",
        f"{_LIMITS}::after {{ content: var(--nm-upload-limits, none); font-size: 0.875rem; opacity: 0.6; }}",
    ]
    for key, (mb, types) in LIMITS.items():
        where = f'[class*="st-key-{key}"]' if key.endswith("_") else f".st-key-{key}"
        rules.append(f"{where} {{ --nm-upload-limits: {_css_string(limits_text(mb, types))}; }}")
    return "<style>\n" + "\n".join(rules) + "\n</style>"
