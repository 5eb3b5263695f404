"""The way to the table (issue 42, item 5) in a real browser: "Create game" within the first
screen of a laptop (1280x800) and a phone (390x844), the notes folded below it; the join box
(QR code) right under the turn track after creating; a solo game says nothing of phones or a
sidebar; a phone held sideways (844x390) starts with the sidebar closed; after a browser restart
the Start page says it opens the game instead of showing the new-game form first.

On the code before the fix: the button stood at y=2162 (laptop) and y=3244 (phone) under the
seats, warnings and the tableau; the join box came after the roll entry; a solo game showed
"Join with phones - 1 seat free"; the sidebar was open at 844x390; a restarted browser showed the
new-game form for about a second before the open game replaced it."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from conftest import settle
from playwright.sync_api import expect
from test_browser_play import press

from nochmal.ui.device import STORAGE_KEY

pytestmark = pytest.mark.browser
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}


def create_button(page):
    return page.locator(".st-key-new-create").get_by_role("button")


@pytest.mark.parametrize("viewport, lang, label", [(LAPTOP, "en", "Create game"), (PHONE, "de", "Spiel anlegen"),
                                                   (PHONE, "en", "Create game")])
def test_create_game_is_on_the_first_screen(new_page, app_url, screenshot, viewport, lang, label):
    page = new_page(viewport=viewport)
    page.goto(f"{app_url}/?lang={lang}")
    button = create_button(page)
    expect(button).to_have_text(re.compile(label))
    settle(page)
    page.wait_for_timeout(500)  # the storage component's first report may rerun the page once
    settle(page)
    assert page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") == 0
    box = button.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    # the notes on stand-in sheets and the tableau are folded below the button, not above it
    notes = page.locator("[data-testid=stExpander]").filter(has=page.locator("summary", has_text="⚠️"))
    expect(notes).to_have_count(1)
    assert notes.bounding_box()["y"] > box["y"]
    expect(page.locator("[data-testid=stAlert]").filter(has_text=re.compile("Stand-in|Ersatzbl"))).to_be_hidden()
    screenshot(page, f"way-start-{lang}-{viewport['width']}x{viewport['height']}", full_page=False)


def test_the_join_box_is_right_under_the_track_after_creating(new_page, app_url, screenshot):
    page = new_page(viewport=LAPTOP)
    page.goto(app_url)
    press(create_button(page))
    expect(page.locator(".st-key-roll-enter")).to_be_visible()
    track = page.locator(".nm-track")
    join = page.locator("[data-testid=stExpander]").filter(has=page.locator(".st-key-table-join"))
    expect(join.locator(".st-key-table-join-qr .nm-qr")).to_be_visible()
    settle(page)
    t, j, dice = track.bounding_box(), join.bounding_box(), page.locator(".st-key-dice-area").bounding_box()
    # nothing between the track (and its legend) and the join box; the roll entry comes after it
    assert 0 <= j["y"] - (t["y"] + t["height"]) < 120, (t, j)
    assert j["y"] + j["height"] <= dice["y"], (j, dice)
    screenshot(page, "way-table-after-create")


def test_a_solo_game_says_nothing_of_phones_or_a_sidebar(new_page, app_url, screenshot):
    page = new_page(viewport=LAPTOP)
    page.goto(app_url)
    expect(create_button(page)).to_be_visible()
    press(page.get_by_text("Solo (30 rolls)"))
    expect(page.get_by_role("combobox", name="Mission")).to_have_count(0)
    press(create_button(page))
    expect(page.locator(".st-key-roll-enter")).to_be_visible()
    settle(page)
    page.wait_for_timeout(500)
    settle(page)
    text = page.locator("[data-testid=stApp]").inner_text()
    assert "Join with phones" not in text and "QR" not in text and "sidebar" not in text.lower(), text
    screenshot(page, "way-table-solo")
    page.goto(f"{app_url}/?game={parse_qs(urlparse(page.url).query)['game'][0]}")  # Start, the game open
    expect(page.locator(".st-key-open-game")).to_be_visible()
    settle(page)
    text = page.locator("[data-testid=stApp]").inner_text()
    assert "Join with phones" not in text and "sidebar" not in text.lower(), text


def test_a_phone_held_sideways_starts_with_the_sidebar_closed(new_page, app_url, screenshot):
    phone = new_page(viewport=LANDSCAPE)
    phone.goto(app_url)
    expect(create_button(phone)).to_be_attached()
    expect(phone.locator("section[data-testid=stSidebar]")).to_have_attribute("data-collapsed", "true")
    screenshot(phone, "way-start-landscape", full_page=False)
    # the person may open it again: it stays open (Streamlit keeps that choice in the browser)
    phone.locator("[data-testid=stExpandSidebarButton]").click()
    expect(phone.locator("section[data-testid=stSidebar]")).to_have_attribute("data-collapsed", "false")
    phone.reload()
    expect(create_button(phone)).to_be_attached()
    settle(phone)
    phone.wait_for_timeout(1000)
    expect(phone.locator("section[data-testid=stSidebar]")).to_have_attribute("data-collapsed", "false")
    # a laptop keeps its sidebar open
    laptop = new_page(viewport=LAPTOP)
    laptop.goto(app_url)
    expect(create_button(laptop)).to_be_visible()
    settle(laptop)
    laptop.wait_for_timeout(1000)
    expect(laptop.locator("section[data-testid=stSidebar]")).to_have_attribute("data-collapsed", "false")


#: records whether the new-game form was ever drawn without the open game (or the words that
#: it is being opened) above it, and when the page first showed any words
WATCH = """
window.__nmWay = {formAlone: false, firstWords: null, t0: performance.now()};
new MutationObserver(() => {
  const w = window.__nmWay;
  const main = document.querySelector("[data-testid=stMain]");
  if (w.firstWords === null && main && main.innerText.trim()) w.firstWords = performance.now() - w.t0;
  if (document.querySelector(".st-key-new-create") &&
      !document.querySelector(".st-key-open-game, .st-key-open-game-pending")) w.formAlone = true;
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_after_a_browser_restart_start_says_it_opens_the_game(browser, new_page, app_url, screenshot):
    page = new_page(viewport=LAPTOP)
    page.goto(app_url)
    press(create_button(page))
    expect(page.locator(".st-key-roll-enter")).to_be_visible()
    gid = parse_qs(urlparse(page.url).query)["game"][0]
    page.wait_for_function(f"() => (localStorage.getItem({STORAGE_KEY!r}) || '').includes({gid!r})")
    expect(page).to_have_url(re.compile(rf"/table\?game={gid}$"))  # the code left the address bar
    storage = page.context.storage_state()

    # the browser restarts on Start with the game in its address bar (and its code in its storage)
    context = browser.new_context(viewport=LAPTOP, storage_state=storage)
    try:
        again = context.new_page()
        again.add_init_script(WATCH)
        again.goto(f"{app_url}/?game={gid}")
        expect(again.locator(".st-key-open-game")).to_contain_text("Co-op mission 1, 3 players")
        settle(again)
        way = again.evaluate("() => window.__nmWay")
        assert not way["formAlone"], way  # never the new-game form alone, as if no game were open
        screenshot(again, "way-start-after-restart", full_page=False)
    finally:
        context.close()
