"""A seat's phone follows its game without being run again under the player's fingers (issue 42,
item 3): while the seat decides, another seat's entry in the same roll does not run its page
again (a whole run while the player taps could lose a tap, and every run costs the server and the
phone); the end of the roll, or an undo that changes the seat's roll, does.

Before the seat's focus (``nochmal.ui.entry.seat_focus``), every event reran every device
following the game: the deciding phone's page-end count rose with each other seat's entry.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect
from test_browser_play import idle, load, new_game, tap_cells

from nochmal.engine.dice import Roll
from nochmal.engine.moves import PASS
from nochmal.ui import entry

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ROLL = Roll.parse(["yellow", "blue", "red"], [2, 3, 4])


def page_runs(page) -> int:
    """How many whole runs of the page have reached the browser (the page's hidden end marker)."""
    return int(page.locator(".nm-page-end").text_content(timeout=10_000))


def quiet_for(page, seconds: float) -> int:
    """The page's whole runs after ``seconds`` of watching, which must not have changed meanwhile."""
    before = page_runs(page)
    time.sleep(seconds)
    idle(page)
    after = page_runs(page)
    assert after == before, f"the page ran {after - before} more time(s)"
    return after


def test_a_deciding_phone_is_left_alone_by_the_others_entries_and_follows_its_own_roll(browser, app_url, store,
                                                                                      screenshot):
    ses = new_game(store, players=3)
    ses.record(ROLL, by="test")
    ses.record(PASS, 0)  # Ada, the active seat, fails: Bo and Cy decide (R-ORDER)
    assert entry.seats_to_decide(ses.state) == [1, 2]
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.set_default_timeout(30_000)
    try:
        phone = context.new_page()
        phone.goto(f"{app_url}{ses.join_url_path()}&claim=2")  # Bo's phone, as the seat's QR code opens it
        expect(phone.locator(".st-key-cross-btn")).to_be_visible()
        idle(phone)
        tap_cells(phone, 1, ["H1"])  # Bo has started a selection
        idle(phone)
        time.sleep(1)
        runs = page_runs(phone)

        load(store, ses.game_id).record(PASS, 2)  # Cy decides on another device
        runs = quiet_for(phone, 4)
        expect(phone.locator(".st-key-cross-btn").get_by_role("button")).to_be_enabled()  # the selection stands

        load(store, ses.game_id).undo(by="test")  # Cy's entry taken back: still Bo's same roll
        runs = quiet_for(phone, 4)

        after = load(store, ses.game_id)
        after.record(PASS, 2)
        after.record(PASS, 1)  # Bo's entry made on the host screen: the roll ends
        assert after.state.roll_index == 1
        expect(phone.locator(".st-key-cross-btn")).to_have_count(0, timeout=15_000)  # the phone followed
        idle(phone)
        assert page_runs(phone) > runs
        screenshot(phone, "follow-deciding-phone")
    finally:
        context.close()
