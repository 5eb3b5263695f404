"""A seat's own phone in a real browser (issue 42, item 6, the phone part): a co-op game of two
seats, each on a phone that opened its seat's link, held upright (390×844) and sideways (844×390).

* every cell of the sheet is a tap target of at least 44×44 px in both; held upright, the 15
  columns do not fit, so the sheet scrolls sideways inside its own box, with the row labels kept
  at its edge and the cells a cross can take (the start column) in view on a new roll; a tap's
  rerun keeps where the player scrolled to;
* a refused cross shows no toast over the sheet (a phone shows the refusal next to its grid);
* the refusal in the narrow side column (held sideways) reads as lines of words, in view;
* a waiting phone shows this roll's dice;
* colour-blind mode is a switch on the page itself (not inside "The table"), and its letters are
  distinct and the colours' own initials in German too (gelb and grün: "Ge", "Gr").

Measured in the browser: bounding boxes of the rendered buttons, the grid's scroll box, the alert's
lines, the cells' drawn marks (their ``::after`` content). Screenshots: ``phone-sheet-*.png``.
"""

from __future__ import annotations

import re
import time

import pytest
from conftest import settle
from playwright.sync_api import expect
from test_browser_play import cell, idle, new_game, press, tap_cells

from nochmal.data import i18n
from nochmal.engine.cells import CELL_NAMES
from nochmal.engine.dice import Roll
from nochmal.ui import entry
from nochmal.ui.labels import colour_face_label, colour_name

pytestmark = pytest.mark.browser

ROLL = Roll.parse(["yellow", "blue", "red"], [2, 3, 4])
UPRIGHT = {"width": 390, "height": 844}
SIDEWAYS = {"width": 844, "height": 390}

#: every cell button of a seat's grid drawn: its width and height on the screen
CELL_BOXES_JS = """(seat) => [...document.querySelectorAll(`.st-key-grid-${seat} [class*="st-key-cell-${seat}-"] button`)]
    .filter(b => b.offsetParent !== null && b.getClientRects().length)  // Streamlit keeps a hidden twin of each
    .map(b => { const r = b.getBoundingClientRect(); return [r.width, r.height]; })"""
#: the grid's scroll box: visible width, content width, scroll position, and its box
GRID_JS = """(seat) => { const g = document.querySelector(`.st-key-grid-${seat}`); const r = g.getBoundingClientRect();
    return {client: g.clientWidth, scroll: g.scrollWidth, left: g.scrollLeft, x: r.left, right: r.right,
            top: r.top, bottom: r.bottom}; }"""
#: the boxes of the toasts drawn now (a hidden container draws none)
TOASTS_JS = """() => [...document.querySelectorAll('[data-testid=stToast]')].filter(t => t.offsetParent !== null)
    .map(t => { const r = t.getBoundingClientRect(); return {x: r.left, right: r.right, top: r.top, bottom: r.bottom}; })
    .filter(b => b.right > b.x && b.bottom > b.top)"""


def seat_phone(browser, app_url, ses, seat: int, viewport, locale: str = "en-US"):
    """A phone that opened seat ``seat``'s link (as its QR code holds), on the Table page."""
    context = browser.new_context(viewport=viewport, locale=locale, has_touch=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(f"{app_url}{ses.join_url_path(seat)}")
    expect(page.locator(f".st-key-side-{seat}")).to_be_visible()
    idle(page)
    settle(page)
    return context, page


def two_phones(browser, app_url, store, viewport, locale="en-US"):
    """A co-op game after its first roll; the phone of the seat deciding and of the seat waiting."""
    ses = new_game(store)
    ses.record(ROLL, by="test")
    deciding = entry.seats_to_decide(ses.state)[0]
    waiting = 1 - deciding
    a = seat_phone(browser, app_url, ses, deciding, viewport, locale)
    b = seat_phone(browser, app_url, ses, waiting, viewport, locale)
    return ses, (deciding, a), (waiting, b)


def cell_sizes(page, seat: int) -> list[tuple[float, float]]:
    return [tuple(x) for x in page.evaluate(CELL_BOXES_JS, seat)]


def intersects(a, b) -> bool:
    return a["x"] < b["right"] and b["x"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


@pytest.mark.parametrize("held", ["upright", "sideways"])
def test_every_cell_is_a_44px_tap_target_and_the_sheet_scrolls_in_its_box(browser, app_url, store, screenshot,
                                                                          held):
    viewport = UPRIGHT if held == "upright" else SIDEWAYS
    ses, (seat, (ca, page)), (other, (cb, waiting)) = two_phones(browser, app_url, store, viewport)
    try:
        for p, s in ((page, seat), (waiting, other)):
            sizes = cell_sizes(p, s)
            assert len(sizes) == len(CELL_NAMES)
            assert min(w for w, _h in sizes) >= 44 and min(h for _w, h in sizes) >= 44, (held, s, min(sizes))
            grid = p.evaluate(GRID_JS, s)
            assert grid["right"] <= viewport["width"] + 0.5, grid  # the page itself never scrolls sideways
            if held == "upright":  # 15 columns of 44 px do not fit 390 px: the grid's own box scrolls
                assert grid["scroll"] > grid["client"] + 100, grid
            else:  # sideways the whole sheet fits
                assert grid["scroll"] <= grid["client"] + 1, grid
        screenshot(page, f"phone-sheet-{held}-deciding", full_page=False)
        screenshot(waiting, f"phone-sheet-{held}-waiting", full_page=False)
        grid = page.evaluate(GRID_JS, seat)
        # a first roll: a cross must use the start column H, drawn dashed; it is in view
        h = cell(page, seat, "H4").bounding_box()
        assert grid["x"] + 14 <= h["x"] and h["x"] + h["width"] <= grid["right"] + 0.5, (h, grid)
        if held == "upright":
            # the row labels stay at the grid's left edge while it scrolls
            label = page.locator(f".st-key-grid-{seat} .nm-lbl").first
            page.evaluate("(seat) => { const g = document.querySelector(`.st-key-grid-${seat}`); "
                          "g.scrollLeft = g.scrollWidth; }", seat)
            page.wait_for_timeout(200)
            assert abs(label.bounding_box()["x"] - grid["x"]) < 4
            # a tap reruns the entry; the grid stays where the player scrolled it
            right = page.evaluate(GRID_JS, seat)["left"]
            assert right > 200
            tap_cells(page, seat, ["O2"])
            idle(page)
            assert abs(page.evaluate(GRID_JS, seat)["left"] - right) < 2
            screenshot(page, f"phone-sheet-{held}-scrolled-right", full_page=False)
    finally:
        ca.close()
        cb.close()


@pytest.mark.parametrize("held", ["upright", "sideways"])
def test_a_refusal_on_a_phone_lies_not_over_the_sheet_and_reads_in_the_side_column(browser, app_url, store,
                                                                                   screenshot, held):
    viewport = UPRIGHT if held == "upright" else SIDEWAYS
    ses, (seat, (ca, page)), (_other, (cb, _waiting)) = two_phones(browser, app_url, store, viewport)
    try:
        tap_cells(page, seat, ["O1"])  # a first cross outside the start column
        press(page.locator(".st-key-cross-btn").get_by_role("button"))
        alert = page.locator(f".st-key-refusal-{seat}").get_by_role("alert")
        expect(alert).to_contain_text("Your first cross must include a cell of the start column H.")
        page.wait_for_timeout(500)  # a toast would have come with the run that drew the refusal
        settle(page)
        screenshot(page, f"phone-sheet-{held}-refused", full_page=False)
        grid = page.evaluate(GRID_JS, seat)
        toasts = page.evaluate(TOASTS_JS)
        assert not [t for t in toasts if intersects(t, grid)], (toasts, grid)
        # the refusal's words: lines of words, not one word a line (the sideways side column is ~115 px)
        words = alert.locator("p").first
        box = words.bounding_box()
        line = float(words.evaluate("p => parseFloat(getComputedStyle(p).lineHeight)"))
        assert box["width"] >= 90, box
        assert box["height"] / line <= 6, (box, line)  # 12 words in at most 6 lines
        if held == "sideways":  # beside the sheet, on the screen without scrolling
            assert alert.bounding_box()["y"] + alert.bounding_box()["height"] <= viewport["height"]
    finally:
        ca.close()
        cb.close()


def test_a_waiting_phone_shows_this_rolls_dice(browser, app_url, store, screenshot):
    ses, (seat, (ca, page)), (other, (cb, waiting)) = two_phones(browser, app_url, store, SIDEWAYS)
    try:
        side = waiting.locator(f".st-key-side-{other}")
        expect(side).to_contain_text("Waiting for")
        expect(side).to_contain_text("This roll's dice")
        expect(side).to_contain_text(re.compile(r"This roll's dice\s*yellow\s+blue\s+red\s*\|\s*2\s+3\s+4"))
        for face in ROLL.colours:  # drawn as the dice's badges
            expect(side.get_by_text(colour_face_label(face).split("[")[1].rstrip("]"), exact=True)).to_be_visible()
        screenshot(waiting, "phone-sheet-waiting-dice", full_page=False)
    finally:
        ca.close()
        cb.close()


def test_colour_blind_mode_is_at_hand_and_its_german_letters_are_distinct(browser, app_url, store, screenshot):
    ses = new_game(store)
    ses.record(ROLL, by="test")
    seat = entry.seats_to_decide(ses.state)[0]
    sheet = ses.state.seats[seat].sheet
    context, page = seat_phone(browser, app_url, ses, seat, UPRIGHT, "de-DE")
    try:
        switch = page.locator(".st-key-colourblind-phone")
        expect(switch).to_be_visible()  # no expander to open first
        assert page.locator("details .st-key-colourblind-phone").count() == 0
        press(switch.locator("label"))  # the switch's own input lies under its label
        expect(switch.get_by_role("switch")).to_be_checked()
        one = {}  # a cell of each colour without a star (its drawn mark is the letters alone)
        for i, name in enumerate(CELL_NAMES):
            if not sheet.star_mask >> i & 1:
                one.setdefault(sheet.colour_of[i], name)
        assert len(one) == 5

        def drawn(name):
            return cell(page, seat, name).evaluate(
                "b => getComputedStyle(b, '::after').content")

        def shown_letters():
            return {colour: drawn(name).split("/")[0].strip().strip('"') for colour, name in one.items()}

        def all_drawn(letters):  # every cell shows letters (an empty cell shows "·" until the switch's run is drawn)
            return len(set(letters.values())) == 5 and all(v.isalpha() for v in letters.values())

        # the cells are looked up afresh each time: the switch's run may replace their elements
        deadline = time.monotonic() + 15
        letters = shown_letters()
        while not all_drawn(letters) and time.monotonic() < deadline:
            time.sleep(0.2)
            letters = shown_letters()
        with i18n.using("de"):
            names = {colour: colour_name(colour) for colour in one}
        assert len(set(letters.values())) == 5, letters
        for colour, letter in letters.items():  # each the start of the colour's German name
            assert names[colour].lower().startswith(letter.lower()), (letter, names[colour])
        page.locator(f".st-key-grid-{seat}").scroll_into_view_if_needed()
        screenshot(page, "phone-sheet-colourblind-de", full_page=False)
    finally:
        context.close()
