"""Security headers on every HTTP response the app serves (the page, its scripts and styles, the
health check, uploads, media), added by a pure ASGI middleware that ``serve_app.py`` hands to
``st.App``. Websocket traffic passes through untouched.

* ``Content-Security-Policy`` (:func:`content_security_policy`): scripts only from the app's own
  origin and ``blob:`` URLs made by them (the Custom Components' code), plus the one inline script
  of Streamlit's ``index.html``, allowed by its SHA-256 hash (computed from the file Streamlit
  serves, so it follows a Streamlit update), never ``eval`` (only WebAssembly, which the
  frontend's protobuf decoder compiles); inline styles (the
  frontend and every ``st.html`` block style elements inline); images from the origin and
  ``data:``/``blob:`` URIs; connections (the websocket included) to the origin only; no plugins; no
  framing of the app by any page (``frame-ancestors 'none'``);
* ``X-Frame-Options: DENY`` (the same for browsers without ``frame-ancestors``);
* ``Referrer-Policy: no-referrer``: the address, which may carry a game's codes, never leaves
  in a ``Referer`` header;
* ``X-Content-Type-Options: nosniff``.

Every policy source the app needs was found by loading each page in a real browser with the
policy in place and reading the console for violations
(``tests/browser/test_browser_headers.py`` keeps doing that)."""

from __future__ import annotations

import base64
import functools
import hashlib
import re
from pathlib import Path

#: ``<script>`` elements without ``src`` in an HTML file, and their text.
_INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc\s*=)[^>]*>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)


def inline_script_hashes(html: str) -> list[str]:
    """The CSP hash sources (``'sha256-...'``) of the inline scripts in ``html``."""
    out = []
    for body in _INLINE_SCRIPT.findall(html):
        digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode("ascii")
        out.append(f"'sha256-{digest}'")
    return out


def streamlit_index() -> Path:
    """The ``index.html`` the Streamlit server sends for every page."""
    import streamlit

    return Path(streamlit.__file__).resolve().parent / "static" / "index.html"


@functools.cache
def content_security_policy() -> str:
    """The policy for every page (see the module's description)."""
    hashes = inline_script_hashes(streamlit_index().read_text(encoding="utf-8"))
    directives = {
        "default-src": ["'self'"],
        # blob:: st.components.v2 loads each component's JS (follow, device, scroll) as a blob: module;
        # 'wasm-unsafe-eval': the frontend's protobuf (Long.js) compiles a tiny WebAssembly helper. A
        # blob: URL or a WebAssembly module can only be made by a script that already runs here.
        "script-src": ["'self'", "blob:", "'wasm-unsafe-eval'", *hashes],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'", "data:"],
        # data: blob:: the camera widget reads its snapshot back with fetch() from a data: URL
        # before uploading it (a page can only fetch such a URL that it made itself)
        "connect-src": ["'self'", "data:", "blob:"],
        "media-src": ["'self'", "data:", "blob:"],
        "worker-src": ["'self'", "blob:"],
        "frame-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


@functools.cache
def security_headers() -> tuple[tuple[bytes, bytes], ...]:
    """The headers every HTTP response carries (name lower case, as ASGI wants them)."""
    return ((b"content-security-policy", content_security_policy().encode("ascii")),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"no-referrer"),
            (b"x-content-type-options", b"nosniff"))


class SecurityHeaders:
    """Pure ASGI middleware: adds :func:`security_headers` to the start of every HTTP response
    (replacing any header of the same name), and leaves websocket and lifespan messages alone."""

    def __init__(self, app) -> None:
        self.app = app
        self.headers = security_headers()
        self.names = {name for name, _ in self.headers}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in self.names]
                message = {**message, "headers": kept + list(self.headers)}
            await send(message)

        await self.app(scope, receive, send_with_headers)
