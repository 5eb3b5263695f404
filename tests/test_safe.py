"""nochmal.ui.safe: text from users and files shown as text, never as Markdown or HTML.

Rendering is checked with markdown-it-py (CommonMark, with GFM tables, strikethrough and
linkify), the real page with chromium in tests/browser/test_browser_markup.py.
"""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from nochmal.engine.sheet import control_character, get_sheet
from nochmal.ui.safe import WORD_JOINER, code, html_text, md, visible
from nochmal.ui.sheetview import sheet_html

PAYLOADS = [
    '<img src=x onerror="window.__xss=1">',
    '<iframe srcdoc="<script>parent.__xss=1</script>">',
    "<style>body{display:none}</style>",
    '<meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/">',
    "![x](http://127.0.0.1:9/leak.png)",
    "[link](javascript:alert(1))",
    "<http://127.0.0.1:9/a> http://127.0.0.1:9/b www.example.com a@example.com mailto:a@example.com",
    "**bold** _it_ ~~gone~~ `code` $x^2$ :red[red] :smile: &lt; &#60; \\*",
    "# heading", "- item", "+ item", "1. item", "12) item", "> quote", "===", "---", "| a | b |",
    "    indented", "```fence", "[ref]: http://127.0.0.1:9/r", "a\nb\r\nc\td\x00e\x1b[31mf\x7fg\x85h",
    "\u202eevil\u202c \u2028 \u2066x\u2069 \ud800",
]
#: characters that make Markdown, with letters and digits and every kind of space
MARKUP_TEXT = st.text(alphabet=st.sampled_from(list("\\`*_{}[]()<>#+-.!|~$:@&=^\"'/;,?%")
                                               + list("abwW019 \t\n\u00a0") + ["\u202e", "\x00", "\x85"]),
                      max_size=40)
ANY_TEXT = st.one_of(st.text(max_size=60), MARKUP_TEXT, st.sampled_from(PAYLOADS))

GFM = MarkdownIt("commonmark").enable(["table", "strikethrough", "linkify"])
GFM.options["linkify"] = True
GFM.linkify.set({"fuzzy_link": False})  # GFM links www. and scheme links and e-mail addresses only
GFM.linkify.add("//", None)  # nor protocol-relative ones ("//host")


def inline_children(source: str) -> list:
    """The inline tokens of a one-paragraph Markdown document (fails if it is anything else)."""
    tokens = GFM.parse(source)
    if not tokens:
        return []
    assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"], (source, tokens)
    return tokens[1].children


def shown(children) -> str:
    """The text of inline tokens, failing on any token that is not plain text (without the
    invisible word joiners that keep Streamlit from making links, icons and symbols of it)."""
    assert all(t.type == "text" for t in children), [(t.type, t.content) for t in children]
    return "".join(t.content for t in children).replace(WORD_JOINER, "")


def paragraph(text: str) -> str:
    """What CommonMark shows of ``text`` as a paragraph: no spaces or tabs at either end (and
    markdown-it-py's ``str.strip``, which also takes other white space off the ends)."""
    return text.strip()


# --------------------------------------------------------------------------- visible
@given(ANY_TEXT)
def test_visible_leaves_no_control_character_and_always_encodes(text):
    out = visible(text)
    assert control_character(out) is None
    out.encode("utf-8")  # a lone surrogate would raise here (and break a page)
    assert visible(out) == out
    if control_character(text) is None:
        assert out == text


def test_visible_shows_control_characters_as_symbols():
    assert visible("a\nb\tc\x00\x7f") == "a␊b␉c␀␡"
    assert visible("\u202eabc") == "\ufffdabc"
    assert visible("\ud800") == "\ufffd"


# --------------------------------------------------------------------------- md
@settings(max_examples=400)
@given(ANY_TEXT)
def test_md_renders_exactly_the_text(text):
    assert shown(inline_children(md(text))) == paragraph(visible(text))


@settings(max_examples=300)
@given(ANY_TEXT)
def test_md_is_text_wherever_it_stands(text):
    """After other text, in bold, in a heading, a list item, a table cell, after a paragraph
    line (setext underline): nothing but text comes out of the escaped part."""
    esc, want = md(text), paragraph(visible(text))
    strong = [t for t in GFM.parse(f"x **{esc}**")[1].children if t.type != "text" or t.content]
    if want:
        assert [t.type for t in strong][1] == "strong_open" and strong[-1].type == "strong_close"
        assert shown(strong[2:-1]) == want.replace(WORD_JOINER, "")  # shown() drops word joiners
    heading = GFM.parse(f"#### {esc} decides")
    assert [t.type for t in heading] == ["heading_open", "inline", "heading_close"]
    assert shown(heading[1].children) == f"{want} decides".strip()
    item = GFM.parse(f"- {esc}")
    assert [t.type for t in item][:2] == ["bullet_list_open", "list_item_open"]
    assert "bullet_list_open" not in [t.type for t in item[2:]] and "ordered_list_open" not in [t.type for t in item]
    table = GFM.parse(f"| seat | name |\n|---|---|\n| 1 | {esc} |")
    cells = [t for t in table if t.type == "inline"]
    assert len(cells) == 4, [t.content for t in cells]
    assert shown(cells[3].children) == want
    after = GFM.parse(f"line\n{esc}")
    assert [t.type for t in after] == ["paragraph_open", "inline", "paragraph_close"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_md_payloads_make_no_element(payload):
    html = GFM.render(md(payload))
    for tag in ("<img", "<iframe", "<style", "<meta", "<a ", "<script", "<code", "<em", "<strong", "<s>", "<h",
                "<ul", "<ol", "<blockquote", "<table", "<pre", "<hr"):
        assert tag not in html, (payload, html)


#: what Streamlit's Markdown turns into links, icons and symbols in text after escapes are
#: undone: bare links and e-mail addresses (GFM), :material/…: icons, the logo, typography
STREAMLIT_TEXT_TRANSFORMS = re.compile(r"https?://|www\.|[-.\w+]@[-\w]|:material/|:streamlit:|<-|->|--|>=|<=|~=",
                                       re.IGNORECASE)


@settings(max_examples=300)
@given(st.one_of(ANY_TEXT, st.text(alphabet=st.sampled_from(list(":/@.-<>=~wWhtpsmaterilx ")), max_size=30)))
def test_md_leaves_no_text_that_streamlit_would_turn_into_a_link_or_icon(text):
    resolved = "".join(t.content for t in inline_children(md(text)))  # the text node Streamlit's plugins see
    assert not STREAMLIT_TEXT_TRANSFORMS.search(resolved), (text, resolved)


def test_the_streamlit_transform_check_can_fail():
    for raw in ("see http://127.0.0.1:9/x", "www.example.com", "a@example.com", ":material/home:", "a -> b"):
        assert STREAMLIT_TEXT_TRANSFORMS.search(raw)


def test_md_changes_plain_names_not_at_all():
    for name in ("Ada", "Player 1", "Co-op game, 3 players", "seat 2 (passive)", "Zoë's pad", "C-FAIL"):
        assert md(name) == name


def test_md_breaks_www_and_escapes_line_starts():
    assert md("www.example.invalid") == "www\u2060.example.invalid"
    assert md("1. Ada") == "1\\. Ada" and md("- x") == "\\- x" and md("# x") == "\\# x"


def test_linkify_would_link_what_md_stops():
    """The check above can fail: unescaped, these are links and elements."""
    for raw in ("http://127.0.0.1:9/b", "a@example.com", "[l](http://127.0.0.1:9/l)",
                "<http://127.0.0.1:9/a>", "![x](http://h/i.png)"):
        assert "<a " in GFM.render(raw) or "<img" in GFM.render(raw)
        assert "<a " not in GFM.render(md(raw)) and "<img" not in GFM.render(md(raw))


# --------------------------------------------------------------------------- code
@settings(max_examples=300)
@given(ANY_TEXT)
def test_code_is_one_code_span_of_the_text(text):
    out = code(text)
    if not visible(text):
        assert out == ""
        return
    children = inline_children(out)
    assert [t.type for t in children] == ["code_inline"], (out, children)
    assert children[0].content == visible(text)


# --------------------------------------------------------------------------- html_text
class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.data: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.data.append(data)


@settings(max_examples=300)
@given(ANY_TEXT)
def test_html_text_is_text_in_content_and_in_attributes(text):
    parser = _Collect()
    parser.feed(f'<span title="{html_text(text)}">{html_text(text)}</span>')
    parser.close()
    assert parser.tags == [("span", {"title": visible(text)})]
    assert "".join(parser.data) == visible(text)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_sheet_html_escapes_its_title(payload):
    parser = _Collect()
    parser.feed(sheet_html(get_sheet("standard"), title=payload))
    assert {tag for tag, _ in parser.tags} <= {"div", "table", "tr", "th", "td", "span", "br"}
    assert visible(payload) in "".join(parser.data)
    assert any(attrs.get("aria-label") == visible(payload) for _, attrs in parser.tags)


def test_no_character_of_md_output_is_a_control_character():
    text = "".join(chr(c) for c in range(0, 0x250)) + "\u2028\u2029\u202e\ud800\udfff"
    for out in (md(text), code(text), html_text(text), visible(text)):
        assert not any(unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") for ch in out)
