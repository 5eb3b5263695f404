"""Every page with a game and user sheets full of markup, through Streamlit's AppTest: no page
raises, and everything a page hands to the browser as Markdown or HTML shows the payloads as
text (issue 17). The real browser: tests/browser/test_browser_markup.py.

Markdown is rendered with markdown-it-py (CommonMark with GFM tables, strikethrough and links);
a Markdown element passed with ``unsafe_allow_html`` and every ``st.html`` body are parsed as HTML.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import untrusted as u
from apptools import HISTORY, START, TABLE, app, env, no_exception  # noqa: F401
from nochmal.store.session import GameSession
from nochmal.ui.safe import WORD_JOINER, visible

SHEETS = "nochmal/ui/pages/sheets.py"
TABLEAUS = "nochmal/ui/pages/tableaus.py"
ANALYTICS = "nochmal/ui/pages/dashboard.py"
PAGES = [START, TABLE, HISTORY, SHEETS, TABLEAUS, ANALYTICS]

GFM = MarkdownIt("commonmark").enable(["table", "strikethrough", "linkify"])
GFM.options["linkify"] = True
GFM.linkify.set({"fuzzy_link": False})
GFM.linkify.add("//", None)  # nor protocol-relative ones ("//host")
ACTIVE_TOKENS = {"image", "link_open", "html_inline", "html_block", "code_block", "fence"}
#: the tags the app's own st.html output uses
OWN_TAGS = {"div", "span", "table", "tr", "th", "td", "br", "b", "style"}
#: attributes whose values are shown as text (anything else is style or structure)
TEXT_ATTRS = {"title", "aria-label"}
#: what the app's styles and structural attributes never hold
FORBIDDEN = ("javascript:", "127.0.0.1:9", "display:none", "url(", "expression(")


@pytest.fixture
def markup_game(env, tmp_path):
    u.write_user_sheets(Path(tmp_path / "home"))  # NOCHMAL_HOME of the env fixture
    return u.import_markup_game(env, tmp_path)


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.styles: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        (self.styles if self.lasttag == "style" else self.text).append(data)


def walk(node):
    yield node
    for child in (getattr(node, "children", None) or {}).values():
        yield from walk(child)


def markdown_sources(at) -> list[str]:
    """Every string of the page that the browser renders as Markdown."""
    out = []
    for node in walk(at._tree):
        kind = getattr(node, "type", "")
        proto = getattr(node, "proto", None)
        if kind == "markdown" and not proto.allow_html or kind in ("caption", "error", "info", "success", "warning",
                                                                     "title", "header", "subheader", "toast"):
            out.append(node.value)
        if kind in ("expander", "tab") or hasattr(proto, "label") and kind not in ("markdown", "html"):
            out.append(getattr(node, "label", "") or "")
        if hasattr(proto, "help") and not callable(proto.help):
            out.append(proto.help)
        if kind in ("radio", "button_group"):
            out.extend(node.options)
        if kind == "table":
            df = node.value
            out.extend(str(c) for c in df.columns)
            out.extend(str(v) for v in df.to_numpy().ravel())
    return [s for s in out if s]


def html_sources(at) -> list[str]:
    """Every string the browser renders as HTML (st.html, st.markdown with unsafe_allow_html)."""
    return [node.value for node in walk(at._tree)
            if getattr(node, "type", "") == "html"
            or getattr(node, "type", "") == "markdown" and node.proto.allow_html]


def shown_text(source: str) -> str:
    """The text a Markdown string shows; fails on a link, an image or HTML in it."""
    parts = []

    def visit(tokens):
        for t in tokens:
            assert t.type not in ACTIVE_TOKENS, (t.type, source)
            if t.type in ("text", "code_inline"):
                parts.append(t.content)
            visit(t.children or [])

    visit(GFM.parse(source))
    return "".join(parts).replace(WORD_JOINER, "")  # invisible: keeps Streamlit from linking bare URLs


def check_page(at) -> str:
    """No exception; Markdown is text, HTML holds only the app's own tags; returns the text shown."""
    no_exception(at)
    shown = [shown_text(s) for s in markdown_sources(at)]
    for body in html_sources(at):
        parser = _Tags()
        parser.feed(body)
        assert {tag for tag, _ in parser.tags} <= OWN_TAGS, body
        assert not any(k.startswith("on") or k in ("src", "href", "srcdoc") for _, a in parser.tags for k in a), body
        structure = " ".join(parser.styles + [v or "" for _, a in parser.tags for k, v in a.items()
                                              if k not in TEXT_ATTRS]).lower()
        assert not any(f in structure for f in FORBIDDEN), body
        shown.append(" ".join(parser.text) + " " + " ".join(v or "" for _, a in parser.tags for v in a.values()))
    return "\n".join(shown)


def open_page(ses: GameSession, page: str):
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    no_exception(at)
    if page != START:
        at.switch_page(page).run()
    return at


@pytest.mark.parametrize("page", PAGES, ids=lambda p: Path(p).stem)
def test_every_page_shows_the_markup_as_text(markup_game, page):
    at = open_page(markup_game, page)
    text = check_page(at)
    assert u.TITLE in text  # in the sidebar of every page
    if page == TABLE:
        for name in u.SEAT_NAMES:
            assert name in text, name
        assert f"1. {u.SEAT_NAMES[0]} — {u.SHEET_ID} (user)" in text  # seat 1's sheet, in the list of sheets
    if page == HISTORY:
        for by in u.BYS:
            assert by in text, by
        for name in u.SEAT_NAMES:
            assert name in text, name


def test_sheets_page_shows_a_user_sheet_s_markup_as_text(markup_game):
    at = open_page(markup_game, SHEETS)
    at.selectbox(key="view_sheet").set_value(u.SHEET_ID).run()
    text = check_page(at)
    assert u.SHEET_NAME in text and u.SHEET_SOURCE in text
    at.selectbox(key="view_sheet").set_value(u.BROKEN_SHEET_ID).run()
    text = check_page(at)
    assert f"the user sheet {u.BROKEN_SHEET_ID}" in text  # the delete box's label
    assert any(u.BROKEN_SHEET_ID in shown_text(e.value) for e in at.error)  # the file's error names it


def test_start_page_lists_the_game_and_its_sheets_as_text(markup_game):
    at = open_page(markup_game, START)
    text = check_page(at)
    assert f"Open game: {u.TITLE}" in text
    at.radio(key="new-kind").set_value("digital").run()
    at.selectbox(key="new-players").set_value(6).run()
    for i in range(6):
        at.text_input(key=f"new-name-{i}").set_value(u.SEAT_NAMES[i]).run()
    at.selectbox(key="new-sheet-0").set_value(u.SHEET_ID).run()
    text = check_page(at)
    for name in u.SEAT_NAMES:
        assert name[:30] in text, name  # the team plan names every seat (a name field takes 30 characters)


def test_control_characters_in_an_old_stored_game_never_crash_a_page(env, tmp_path):
    """Names saved before they were checked (straight into the store) still open everywhere."""
    u.write_user_sheets(Path(tmp_path / "home"))
    ses = u.import_markup_game(env, tmp_path)
    meta = dict(ses.meta, seat_names=["bell\x07", "new\nline", "tab\there", "\u202eevil", "nul\x00", "c1\x85"])
    gid = env.create_game(meta, title="title\x1b[31m\r\n<b>x</b>")
    old = GameSession.load(env, gid)
    for page in PAGES:
        at = open_page(old, page)
        text = check_page(at)
        assert visible("title\x1b[31m\r\n<b>x</b>") in text
        if page == TABLE:
            for name in meta["seat_names"]:
                assert visible(name) in text
