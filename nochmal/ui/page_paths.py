"""An address that names no page opens the Start page, without Streamlit's English "Page not found".

Streamlit answers an unknown page address (a mistyped link, an old bookmark) with its own dialog
"Page not found … Running the app's main page", in English, with no option to change it. A pure
ASGI middleware that ``serve_app.py`` hands to ``st.App`` answers such a request before Streamlit
does: a browser's request for a page (``GET``/``HEAD`` of one path segment that is no page of
:data:`PAGE_PATHS` and none of Streamlit's own routes, or the default page's own name, which
Streamlit serves at the root only) is redirected to the app's root with its query kept, so the
Start page opens as it would have anyway, without the dialog. Everything else
(Streamlit's routes under ``/_stcore``, ``/static``, ``/media``, ``/component``, files with a dot,
websockets) passes through untouched.
"""

from __future__ import annotations

import re

#: the url_path of every page (``layout.pages()``; tests/test_words.py checks they agree)
PAGE_PATHS = frozenset({"start", "table", "history", "sheets", "tableaus", "analytics"})
#: the default page: Streamlit serves it at the root only ("/start" is "Page not found" to it)
DEFAULT_PAGE = "start"
#: Streamlit's own routes of one segment (not pages)
_STREAMLIT_ROUTES = frozenset({"oauth2callback", "healthz"})
_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")


def _base() -> str:
    """Streamlit's base URL path ("" or "/some/path")."""
    try:
        import streamlit as st

        base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    except Exception:  # noqa: BLE001 - outside a server (tests): no base path
        base = ""
    return f"/{base}" if base else ""


def unknown_page(path: str, base: str = "") -> bool:
    """Whether ``path`` (a request's path) names a page address that is no page of the app."""
    if base:
        if not path.startswith(base + "/"):
            return False
        path = path[len(base):]
    segment = path.strip("/")
    if not segment or "/" in segment or not _SEGMENT.fullmatch(segment):
        return False
    return (segment not in PAGE_PATHS or segment == DEFAULT_PAGE) and segment not in _STREAMLIT_ROUTES


class UnknownPages:
    """Pure ASGI middleware: redirects a request for an unknown page to the app's root
    (:func:`unknown_page`); everything else goes to the app as it is."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope.get("method") in ("GET", "HEAD"):
            base = _base()
            if unknown_page(scope.get("path", ""), base):
                query = scope.get("query_string", b"")
                location = (base + "/").encode("utf-8") + (b"?" + query if query else b"")
                await send({"type": "http.response.start", "status": 307,
                            "headers": [(b"location", location), (b"content-length", b"0"),
                                        (b"cache-control", b"no-store")]})
                await send({"type": "http.response.body", "body": b""})
                return
        await self.app(scope, receive, send)
