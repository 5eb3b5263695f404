"""Security headers (issue 46, Build 6) on a real server started the way ``nochmal serve`` starts
it: every HTTP response (the page, a static script, the health check, a page path, a 404)
carries the Content-Security-Policy, ``X-Frame-Options: DENY``, ``Referrer-Policy: no-referrer``
and ``X-Content-Type-Options: nosniff``; and a real browser loads every page, the Table page of
a game (host and phone) included, with that policy in place and not one violation: none in the
console, none reported by a ``securitypolicyviolation`` listener in any frame, and the QR code
and the plotly chart still drawn."""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import settle
from playwright.sync_api import expect
from serving import free_port, stop, wait_healthy

from nochmal.store.db import GameStore
from nochmal.store.session import GameSession
from nochmal.ui import newgame
from nochmal.ui.headers import inline_script_hashes

pytestmark = pytest.mark.browser
REPO = Path(__file__).resolve().parents[2]

EXPECTED = {
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}
#: Collects every CSP violation of the page and of each of its frames (srcdoc frames included).
VIOLATIONS_JS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", e => {
  const entry = `${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`;
  try { (window.top.__cspViolations || window.__cspViolations).push(entry); }
  catch (err) { window.__cspViolations.push(entry); }
});
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``nochmal serve --port P``: (its URL, the store's path)."""
    home = tmp_path_factory.mktemp("headers-home")
    port = free_port()
    log = home / "serve.log"
    db = home / "games.sqlite3"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "NOCHMAL_HOME": str(home / "home"), "NOCHMAL_DB": str(db),
           "PYTHONUNBUFFERED": "1"}
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "nochmal.cli", "serve", "--port", str(port)], cwd=home,
                                env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc, log, what="nochmal serve")
        yield f"http://127.0.0.1:{port}", db
    finally:
        stop(proc)


def fetch(url: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


def directives(policy: str) -> dict[str, list[str]]:
    out = {}
    for part in policy.split(";"):
        name, *sources = part.split()
        out[name] = sources
    return out


def assert_secured(headers: dict, where: str) -> dict[str, list[str]]:
    for name, value in EXPECTED.items():
        assert headers.get(name) == value, (where, name, headers)
    assert "content-security-policy" in headers, (where, headers)
    csp = directives(headers["content-security-policy"])
    assert csp["frame-ancestors"] == ["'none'"], where
    assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"], where
    # the websocket and every fetch only to the app's own origin (data: and blob: URLs are the page's own:
    # the camera widget reads its snapshot back from one)
    assert csp["connect-src"] == ["'self'", "data:", "blob:"], where
    assert "'unsafe-inline'" not in csp["script-src"] and "'unsafe-eval'" not in csp["script-src"], where
    assert not [s for s in csp["script-src"] if s.startswith(("http", "*", "data:"))], where
    return csp


def test_every_response_carries_the_security_headers(served):
    url, _db = served
    status, headers, body = fetch(url + "/")
    assert status == 200
    csp = assert_secured(headers, "/")
    # the one inline script of Streamlit's index.html is allowed by its hash, and nothing else inline
    hashes = inline_script_hashes(body.decode("utf-8"))
    assert hashes and set(hashes) <= set(csp["script-src"]), (hashes, csp["script-src"])
    script = re.search(r'<script[^>]+src="\./(static/js/[^"]+\.js)"', body.decode("utf-8")).group(1)
    seen = {"/": headers["content-security-policy"]}
    for path, want in ((f"/{script}", 200), ("/_stcore/health", 200), ("/_stcore/host-config", 200),
                       ("/table?game=x&code=y", 200), ("/table/_stcore/health", 404)):
        status, headers, _ = fetch(url + path)
        assert status == want, (path, status)
        assert_secured(headers, path)
        seen[path] = headers["content-security-policy"]
    assert len(set(seen.values())) == 1, seen  # one policy everywhere
    status, headers, _ = fetch(f"{url}/{script}")
    assert headers["content-type"].startswith(("application/javascript", "text/javascript")), headers


def test_every_page_loads_in_a_real_browser_without_a_csp_violation(served, new_page, screenshot):
    url, db = served
    with GameStore(db) as store:
        game = newgame.make_game("coop", newgame.default_sheets("coop", 2), 1)
        ses = GameSession.create(store, game, title="headers", seat_names=["Ada", "Bo"])
    gid, host = ses.game_id, ses.meta["host_code"]
    console: list[str] = []
    violations: dict[str, list[str]] = {}

    def open_page(viewport=None):
        page = new_page() if viewport is None else new_page(viewport=viewport)
        page.add_init_script(VIOLATIONS_JS)
        page.on("console", lambda m: "Content Security Policy" in m.text and console.append(f"{page.url}: {m.text}"))
        return page

    def visit(page, path: str, ready) -> None:
        page.goto(url + path)
        expect(ready(page)).to_be_visible()
        settle(page)
        page.wait_for_timeout(1500)  # components and charts finish loading
        violations[path] = page.evaluate("() => window.__cspViolations")

    page = open_page()
    visit(page, "/", lambda p: p.get_by_role("heading", name="Noch mal!"))
    visit(page, f"/?game={gid}&code={host}", lambda p: p.locator(".st-key-start-join-qr .nm-qr"))
    screenshot(page, "headers-start-host")
    visit(page, f"/table?game={gid}&code={host}", lambda p: p.get_by_role("grid").first)  # a sheet
    screenshot(page, "headers-table-host")
    visit(page, f"/history?game={gid}&code={host}", lambda p: p.get_by_text("History", exact=False).first)
    visit(page, "/sheets", lambda p: p.locator("[data-testid=stMain]"))
    visit(page, "/tableaus", lambda p: p.locator(".js-plotly-plot .main-svg").first)
    screenshot(page, "headers-tableaus")
    visit(page, "/analytics", lambda p: p.locator("[data-testid=stMain]"))
    page.get_by_text("The shipped calibration sweep").click()  # its figures: more plotly charts
    page.get_by_role("button", name="Open the shipped calibration sweep").click()
    expect(page.locator(".js-plotly-plot .main-svg").first).to_be_visible()
    settle(page)
    page.wait_for_timeout(1500)
    violations["/analytics (shipped sweep)"] = page.evaluate("() => window.__cspViolations")
    screenshot(page, "headers-analytics")

    phone = open_page({"width": 390, "height": 844})  # a phone that takes seat 1 by its link
    visit(phone, f"{ses.join_url_path()}&claim=1", lambda p: p.get_by_role("radiogroup", name="Colour die 1"))
    expect(phone).to_have_url(re.compile(r"/table\?.*seat=1"))

    assert not console, "\n".join(console)
    assert all(v == [] for v in violations.values()), violations
    assert len(violations) == 9
