"""Shared helpers of the AppTest suites (Streamlit's AppTest, driven by widget key)."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from nochmal.store.db import GameStore
from nochmal.ui.safe import WORD_JOINER

APP = str(Path(__file__).resolve().parent.parent / "app.py")
TABLE = "nochmal/ui/pages/table.py"
HISTORY = "nochmal/ui/pages/history.py"
START = "nochmal/ui/pages/start.py"


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A store and user folder of the test's own (NOCHMAL_DB, NOCHMAL_HOME)."""
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv("NOCHMAL_DB", str(db))
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    store = GameStore(db)
    yield store
    store.close()


def app(query: dict | None = None, timeout: float = 60) -> AppTest:
    """The whole app (router and sidebar), run once, with these URL query parameters."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    if query:
        at.query_params.update(query)
    return at.run()


def no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def shown(source: str) -> str:
    """The text a Markdown string shows (escapes undone, the invisible word joiners that
    ``nochmal.ui.safe.md`` puts in dropped), as markdown-it-py renders it."""
    parts: list[str] = []

    def visit(tokens) -> None:
        for t in tokens:
            if t.type in ("text", "code_inline"):
                parts.append(t.content)
            visit(t.children or [])

    visit(MarkdownIt("commonmark").parse(source))
    return "".join(parts).replace(WORD_JOINER, "")


def keys(at: AppTest) -> set[str]:
    return {b.key for b in at.button if b.key}


def texts(at: AppTest, kind: str) -> list[str]:
    return [e.value for e in getattr(at, kind)]


def path_of(at: AppTest, key: str) -> tuple[int, ...] | None:
    """Where the widget ``key`` sits in the page tree (child indices from the root); the
    browser matches elements between runs by this path."""

    def walk(node, path):
        if getattr(node, "key", None) == key and not getattr(node, "children", None):
            return path
        for i, child in (getattr(node, "children", None) or {}).items():
            found = walk(child, path + (i,))
            if found is not None:
                return found
        return None

    return walk(at._tree, ())
