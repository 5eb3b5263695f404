"""No page renders what a user or a file supplied as HTML or Markdown (issue 17), in chromium.

A game is imported (``nochmal.store.transfer.import_game``, the path of ``games import`` and the
History page) with markup in its title, every seat name and the ``by`` of its events; the
user boards folder holds a sheet with markup in its name and source and a broken file whose
name is markup. Every page is opened as the game's host, and a page must hold no element the
payloads would make (compared with the same game under plain names), no payload may have run
(``window.__xss``) or reached 127.0.0.1:9 (requests, navigation), and the payload text itself
must be on the page: escaped, not dropped. Screenshots: test-artifacts/screenshots/markup-*.png.
"""

from __future__ import annotations

import re
import time
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

import untrusted as u  # tests/untrusted.py: the markup game and sheets (tests/ is on the path, as for apptools)
from nochmal.store.db import GameStore
from nochmal.ui.safe import WORD_JOINER

pytestmark = pytest.mark.browser

PAGES = {"start": "", "table": "table", "history": "history", "sheets": "sheets", "tableaus": "tableaus",
         "analytics": "analytics"}
#: elements the payloads would make; counted on each page (the app's own must not change)
COUNTED = {
    "img": "img", "iframe": "iframe", "meta": "meta", "script": "script", "object/embed": "object, embed",
    "javascript link": 'a[href^="javascript:" i]', "link to the leak": 'a[href*="127.0.0.1:9"]',
    "any link in the main area": '[data-testid="stMain"] a[href], [data-testid="stSidebarContent"] a[href]',
}
#: what must be nowhere: made from the payloads only
NEVER = {
    "img from a payload": 'img[src="x"], img[onerror], img[src*="127.0.0.1:9"]',
    "iframe from a payload": "iframe[srcdoc], iframe[src*='127.0.0.1:9']",
    "meta refresh": 'meta[http-equiv="refresh" i]',
    "javascript link": 'a[href^="javascript:" i]',
    "link to the leak or www": 'a[href*="127.0.0.1:9"], a[href*="example.com"]',
}
STYLE_PAYLOAD_JS = "() => [...document.querySelectorAll('style')].some(s => s.textContent.includes('body{display:none}'))"
IDLE_JS = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-stale=true]');
}"""


@pytest.fixture(scope="module")
def markup_server(app_server, tmp_path_factory):
    """A server of its own (the user boards folder holds the markup sheets), with the markup
    game and its control imported into its store."""
    home = tmp_path_factory.mktemp("markup-browser")
    u.write_user_sheets(home / "home")
    server = type(app_server)(home)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NOCHMAL_HOME", str(home / "home"))  # the import finds the markup sheet there
        store = GameStore(server.db)
        try:
            server.games = {"markup": u.import_markup_game(store, home),
                            "control": u.import_markup_game(store, home, control=True)}
        finally:
            store.close()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def page_url(server, name: str, ses) -> str:
    return f"{server.url}/{PAGES[name]}?" + urlencode({"game": ses.game_id, "code": ses.meta["host_code"]})


def open_as_host(page, server, name: str, ses) -> None:
    page.goto(page_url(server, name, ses))
    # the game is open: its page follows it (the id is no longer shown to players, issue 42 item 7)
    page.wait_for_function("() => !!(window.__nmFollow && window.__nmFollow.host && window.__nmFollow.host.isConnected)")
    page.wait_for_function(IDLE_JS)
    page.wait_for_timeout(500)  # images, frames and styles a payload would add get their moment


def counts(page) -> dict[str, int]:
    return {what: page.locator(sel).count() for what, sel in COUNTED.items()}


def settled_counts(page, quiet_s: float = 1.5, timeout_s: float = 10) -> dict[str, int]:
    """:func:`counts` once they have not changed for ``quiet_s`` seconds (a page can still be
    drawing a link after the app went idle: CI twice counted one link fewer on the Sheets page)."""
    last, since = counts(page), time.monotonic()
    deadline = since + timeout_s
    while time.monotonic() - since < quiet_s and time.monotonic() < deadline:
        page.wait_for_timeout(250)
        now = counts(page)
        if now != last:
            last, since = now, time.monotonic()
    return last


def links(page) -> list[str]:
    """The links counted, as (text, address): named in a failure."""
    return page.locator(COUNTED["any link in the main area"]).evaluate_all(
        "els => els.map(e => [e.innerText.slice(0, 40), e.getAttribute('href')])")


def assert_counts_settle_to(page, control: dict[str, int], where: str) -> None:
    """The page's counts become ``control`` within 10 s (a link still being drawn settles)."""
    deadline = time.monotonic() + 10
    while counts(page) != control and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert counts(page) == control, f"{where}: links now {links(page)}"


@pytest.fixture
def watched(page):
    """The page, and every request and main-frame navigation it made."""
    seen = {"requests": [], "navigations": []}
    page.context.on("request", lambda r: seen["requests"].append(r.url))
    page.on("framenavigated", lambda f: seen["navigations"].append(f.url) if f == page.main_frame else None)
    return page, seen


def assert_nothing_ran(page, seen, where: str) -> None:
    for what, sel in NEVER.items():
        assert page.locator(sel).count() == 0, f"{where}: {what}"
    assert not page.evaluate(STYLE_PAYLOAD_JS), f"{where}: a payload's <style> is in the page"
    assert page.evaluate("() => window.__xss === undefined"), f"{where}: a payload's script ran"
    leaks = [r for r in seen["requests"] if u.LEAK in r]
    assert not leaks, f"{where}: requests to the leak address: {leaks}"
    assert all(u.LEAK not in n for n in seen["navigations"]), f"{where}: navigated to {seen['navigations']}"
    assert page.evaluate("() => getComputedStyle(document.body).display") != "none", f"{where}: the page is hidden"
    expect(page.locator('[data-testid="stMain"]')).to_be_visible()
    expect(page.locator("[data-testid=stException]")).to_have_count(0)


def page_text(page) -> str:
    """The page's text, without the invisible word joiners that keep bare URLs from being links."""
    return page.evaluate("() => document.body.innerText").replace(WORD_JOINER, "")


@pytest.mark.parametrize("name", list(PAGES))
def test_a_page_shows_the_markup_of_an_imported_game_as_text(watched, markup_server, name, screenshot):
    page, seen = watched
    games = markup_server.games
    open_as_host(page, markup_server, name, games["control"])
    control = settled_counts(page)
    control_links = links(page)
    open_as_host(page, markup_server, name, games["markup"])
    assert_counts_settle_to(page, control, f"{name}: the control game's page had {control_links}")
    text = page_text(page)
    assert u.TITLE in text  # the sidebar names the open game on every page
    if name == "table":
        for seat_name in u.SEAT_NAMES:
            assert seat_name in text, seat_name
    if name == "history":
        for who in u.BYS + u.SEAT_NAMES:
            assert who in text, who
    screenshot(page, f"markup-{name}")
    assert_nothing_ran(page, seen, name)


def choose_sheet(page, label: re.Pattern) -> None:
    view = page.get_by_role("tabpanel", name="View", exact=True)
    view.get_by_label("Sheet", exact=True).click()
    page.get_by_role("option", name=label).click()
    page.wait_for_function(IDLE_JS)


def test_sheets_page_shows_the_markup_of_user_sheets_as_text(watched, markup_server, screenshot):
    page, seen = watched
    ses = markup_server.games["markup"]
    open_as_host(page, markup_server, "sheets", ses)
    control = settled_counts(page)
    control_links = links(page)
    choose_sheet(page, re.compile("^" + re.escape(u.SHEET_ID) + " — "))
    expect(page.get_by_text("Provenance: user.")).to_be_visible()
    assert_counts_settle_to(page, control, f"user sheet: the page had {control_links} before")
    text = page_text(page)
    assert u.SHEET_NAME in text and u.SHEET_SOURCE in text
    expect(page.get_by_role("grid", name=u.SHEET_NAME)).to_be_visible()  # the drawn sheet, named by the sheet
    screenshot(page, "markup-sheets-user-sheet")
    assert_nothing_ran(page, seen, "sheets: user sheet")

    choose_sheet(page, re.compile("^" + re.escape(u.BROKEN_SHEET_ID)))
    expect(page.get_by_text("This sheet file cannot be used")).to_be_visible()
    assert_counts_settle_to(page, control, f"broken sheet: the page had {control_links} before")
    assert f"Yes, delete the user sheet {u.BROKEN_SHEET_ID}" in page_text(page)
    screenshot(page, "markup-sheets-broken-file")
    assert_nothing_ran(page, seen, "sheets: broken file")
