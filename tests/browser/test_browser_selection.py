"""The sheet shows exactly what is selected (issue 42, item 1), on the Table page in a real browser,
on a laptop in English and a phone in German: taps 0.1 s apart as a player taps (none waits for the
page), a refused Cross, Clear, a tap taken back at once. After each, the cells drawn as selected are
the ones the server holds: a Cross pressed then is refused for exactly that many cells.

Before the fix, the grid kept drawing the cells selected before Clear (its style was not replaced
in the entry's reruns), and a tap that reached the server while a run was going could be lost.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect
from test_browser_play import cell, idle, load, new_game, press, table_url

from nochmal.data import i18n
from nochmal.engine.cells import CELL_NAMES
from nochmal.engine.dice import Roll
from nochmal.ui import entry
from nochmal.ui.explain import cell_label

pytestmark = pytest.mark.browser

ROLL = Roll.parse(["yellow", "blue", "red"], [2, 3, 4])
SIX = ["H1", "H2", "H3", "H4", "H5", "H6"]
DRAWN_JS = """(seat) => [...document.querySelectorAll(`.st-key-grid-${seat} [class*="st-key-cell-${seat}-"] button`)]
    .filter(b => getComputedStyle(b).borderTopWidth === '3px' && getComputedStyle(b).borderTopStyle === 'solid')
    .map(b => b.getAttribute('aria-label') || b.innerText)"""


def drawn(page, seat: int) -> set[str]:
    """The cells drawn as selected (a 3 px solid border), as the sheet labels them."""
    return set(page.evaluate(DRAWN_JS, seat))


def expect_drawn(page, seat: int, sheet, cells) -> None:
    want = {cell_label(sheet, name) for name in cells}
    deadline = time.monotonic() + 10
    while drawn(page, seat) != want and time.monotonic() < deadline:
        time.sleep(0.1)
    assert drawn(page, seat) == want


def tap_fast(page, seat: int, cells) -> None:
    """Tap like a player: one cell every 0.1 s, where it is on the screen now, never waiting for the
    page to finish a run (the grid scrolled into view first, as a player looks at it)."""
    page.locator(f".st-key-grid-{seat}").scroll_into_view_if_needed()
    for name in cells:
        box = cell(page, seat, name).bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        time.sleep(0.1)


@pytest.mark.parametrize("device", ["laptop-en-US", "phone-de-DE"])
def test_the_grid_draws_exactly_the_selection_the_server_holds(browser, app_url, store, screenshot, device):
    kind, locale = device.split("-", 1)
    viewport = {"width": 1280, "height": 900} if kind == "laptop" else {"width": 390, "height": 844}
    ses = new_game(store)
    ses.record(ROLL, by="test")
    seat = entry.seats_to_decide(ses.state)[0]
    sheet = ses.state.seats[seat].sheet
    n_events = ses.n_events
    context = browser.new_context(viewport=viewport, locale=locale, has_touch=kind == "phone")
    context.set_default_timeout(30_000)
    page = context.new_page()
    with i18n.using(locale[:2]):
        too_many = i18n._("You chose {n} cells, but one cross takes 1 to 5 cells.").format(n=6)
    try:
        page.goto(table_url(app_url, ses))
        cross = page.locator(".st-key-cross-btn").get_by_role("button")
        clear = page.locator(".st-key-clear-btn").get_by_role("button")
        expect(cross).to_be_disabled()
        tap_fast(page, seat, SIX)
        expect_drawn(page, seat, sheet, SIX)
        screenshot(page, f"selection-{device}-six")
        press(cross)  # the server holds all six taps: refused for six cells
        expect(page.locator(f".st-key-refusal-{seat}").get_by_role("alert")).to_have_text(f"✋{too_many}")
        expect_drawn(page, seat, sheet, SIX)  # a refusal keeps the selection, and shows it
        press(clear)
        expect_drawn(page, seat, sheet, [])
        expect(cross).to_be_disabled()
        screenshot(page, f"selection-{device}-cleared")
        tap_fast(page, seat, ["H3", "H3", "A1", "B1"])  # a tap taken back at once, two more
        expect_drawn(page, seat, sheet, ["A1", "B1"])
        expect(cross).to_be_enabled()
        tap_fast(page, seat, ["A1", "B1"])  # both untapped: nothing selected, on the server too
        expect_drawn(page, seat, sheet, [])
        expect(cross).to_be_disabled()
        assert store.n_events(ses.game_id) == n_events  # nothing was entered
    finally:
        context.close()


def test_a_confirmed_cross_shows_sending_at_once_then_the_entry_on_the_table(browser, app_url, store, screenshot):
    """Issue 42, item 3: the phone shows "Sending…" from the tap on Cross until the server's run has
    ended, then the entry as stored (German: a phone's language)."""
    ses = new_game(store)
    ses.record(ROLL, by="test")
    seat = entry.seats_to_decide(ses.state)[0]
    move = next(m for m in ses.state.legal_actions(seat) if getattr(m, "count", 0) == 2)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE", has_touch=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    with i18n.using("de"):
        sending = i18n._("Sending…")
    try:
        page.goto(table_url(app_url, ses))
        cross = page.locator(".st-key-cross-btn").get_by_role("button")
        tap_fast(page, seat, [n for n in CELL_NAMES if move.cells >> CELL_NAMES.index(n) & 1])
        expect(cross).to_be_enabled()
        idle(page)
        page.evaluate("""() => { window.__nmSawSending = '';
          new MutationObserver(() => { const b = document.querySelector('.st-key-cross-btn button[data-nm-sending]');
            if (b) window.__nmSawSending = getComputedStyle(b, '::after').content; })
          .observe(document.body, { attributes: true, subtree: true, attributeFilter: ['data-nm-sending'] }); }""")
        cross.click()
        assert page.evaluate("() => window.__nmSawSending") == f'"⏳ {sending}"'  # drawn in the tap itself
        expect(page.locator(".st-key-flash-slot [data-testid=stAlertContentSuccess]")).to_contain_text("Ada")
        expect(page.locator("button[data-nm-sending]")).to_have_count(0)
        screenshot(page, "selection-phone-de-stored")
        assert load(store, ses.game_id).n_events == ses.n_events + 1
    finally:
        context.close()


def test_one_tap_chooses_a_die_even_right_after_a_cell_tap(browser, app_url, store, screenshot):
    """Issue 42, item 1 ("select boxes that need a second click"): on a phone, a tap on a cell and at
    once a tap on a die under "Choose the dice yourself" both take, the first time; and on the
    Start page one tap opens the players' list."""
    ses = new_game(store)
    ses.record(ROLL, by="test")
    seat = entry.seats_to_decide(ses.state)[0]
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        page.goto(table_url(app_url, ses))
        expect(page.locator(".st-key-cross-btn")).to_be_visible()
        idle(page)
        page.get_by_text("Choose the dice yourself").click()
        blue = page.get_by_role("radiogroup", name="Colour die", exact=True).get_by_role("radio", name="blue")
        four = page.get_by_role("radiogroup", name="Number die", exact=True).get_by_role("radio", name="4")
        expect(blue).to_be_visible()
        idle(page)
        tap_fast(page, seat, ["H4"])  # a cell, and without waiting for the page:
        blue.click()  # a die,
        four.click()  # and the other die
        idle(page)
        time.sleep(1)  # whatever reruns came after
        idle(page)
        expect(blue).to_have_attribute("aria-checked", "true")
        expect(four).to_have_attribute("aria-checked", "true")
        expect_drawn(page, seat, ses.state.seats[seat].sheet, ["H4"])
        screenshot(page, "selection-phone-dice-one-tap")

        page.goto(app_url)  # the Start page: one tap opens the list of player counts
        players = page.get_by_role("combobox", name="Players")
        expect(players).to_be_visible()
        players.click()
        expect(page.get_by_role("option", name="4", exact=True)).to_be_visible(timeout=5_000)
        page.get_by_role("option", name="4", exact=True).click()
        expect(players).to_have_value("4")
    finally:
        context.close()


def test_cross_tapped_at_once_after_the_cells_acts_on_every_cell_drawn(browser, app_url, store, screenshot):
    """Six cells tapped 0.1 s apart and Cross at once after the last, nobody waiting for the page:
    the refusal is for the six cells drawn, never for the first few (a fresh-clone CI run was
    refused "HP, HQ and HR are not all one colour" for six cells drawn as selected: the last taps
    reached the server with the Cross click, whose callback came first). Three rounds."""
    ses = new_game(store)
    ses.record(ROLL, by="test")
    seat = entry.seats_to_decide(ses.state)[0]
    sheet = ses.state.seats[seat].sheet
    too_many = i18n._("You chose {n} cells, but one cross takes 1 to 5 cells.").format(n=6)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        page.goto(table_url(app_url, ses))
        cross = page.locator(".st-key-cross-btn").get_by_role("button")
        clear = page.locator(".st-key-clear-btn").get_by_role("button")
        refusal = page.locator(f".st-key-refusal-{seat}").get_by_role("alert")
        for k in range(3):
            expect(cross).to_be_disabled()
            tap_fast(page, seat, SIX)
            box = cross.bounding_box()
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            expect(refusal).to_have_text(f"✋{too_many}")
            expect_drawn(page, seat, sheet, SIX)
            if k == 0:
                screenshot(page, "selection-cross-at-once")
            press(clear)
            expect_drawn(page, seat, sheet, [])
        assert store.n_events(ses.game_id) == ses.n_events  # nothing was entered
    finally:
        context.close()
