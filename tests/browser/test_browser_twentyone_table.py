"""twenty one at a real table, in a real browser (issue 44, item 4): a host screen (1280×800) and
three phones (390×844) on a game with physical dice. Each phone joins by the seat's QR code on the
host screen: the test reads the code's image from the host's page and decodes it (OpenCV's QR
reader), and the phone opens what the code holds. The active phone enters the six faces, then keeps
the roll or enters the second attempt; every phone taps the dice it enters (or crosses out a
field). The app server is killed (SIGKILL) in the middle of a round and started again: the host
and the phones come back by themselves, show the same sheets as the store, and the game goes on;
nothing acknowledged is lost.

The helpers here (a phone's taps, reading a sheet off a page, the QR code) are also used by the
measurement of ``test_browser_twentyone_measure.py``."""

from __future__ import annotations

import re
import time

import cv2
import numpy as np
import pytest
from playwright.sync_api import expect
from test_browser_play import idle, press, wait_for_store

from nochmal.engine.twentyone import TwentyOneGame
from nochmal.engine.twentyone.actions import Roll
from nochmal.engine.twentyone.game import CHOOSE, ENTER, SECOND
from nochmal.store.session import GameSession
from nochmal.ui.twentyone.words import die_colour

pytestmark = pytest.mark.browser
HOST_VIEW = {"width": 1280, "height": 800}
PHONE_VIEW = {"width": 390, "height": 844}
NAMES = ["Ada", "Bo", "Cy"]


class Taps:
    """The taps one device made (every tap goes through :meth:`press`); ``lost``: taps that did
    not register (the page was still running) and were made again, counted in ``n`` too."""

    def __init__(self) -> None:
        self.n = 0
        self.lost = 0

    def press(self, locator) -> None:
        self.n += 1
        press(locator)


# --------------------------------------------------------------------------- joining by QR code
def qr_link(host, seat: int) -> str:
    """What the host screen's QR code for ``seat`` holds, read from its image."""
    image = host.locator(f".st-key-table-join-seat-{seat}-qr .nm-qr")
    expect(image).to_be_visible()
    png = image.screenshot()
    gray = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    text = ""
    for scale in (1, 2, 3):  # 3 px a module: a larger copy reads where the small one does not
        big = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
        text = cv2.QRCodeDetector().detectAndDecode(big)[0]
        if text:
            break
    assert text, f"the QR code of seat {seat + 1} could not be read"
    return text


def join_by_qr(host, new_page, ses, names) -> list:
    """Every seat's phone opens what its QR code on the host screen holds; returns the phones."""
    phones = []
    for seat in range(ses.game.n_seats):
        link = qr_link(host, seat)
        assert link.endswith(ses.join_url_path(seat)) and f"claim={seat + 1}" in link, link
        phone = new_page(PHONE_VIEW)
        phone.goto(link)
        expect(phone.locator(".t21-sheet").first).to_contain_text(names[seat])
        phones.append(phone)
    return phones


# --------------------------------------------------------------------------- a sheet on a page
SHEET_JS = """(seat) => [...document.querySelectorAll(`.t21-sheet[data-seat="${seat}"] .t21-cell`)]
  .map(c => c.getAttribute('data-mark')).join(',')"""
SHOWS_JS = """([seat, marks]) => {
  return [...document.querySelectorAll(`.t21-sheet[data-seat="${seat}"] .t21-cell`)]
    .map(c => c.getAttribute('data-mark')).join(',') === marks;
}"""


def store_marks(state, seat: int) -> str:
    """A seat's sheet as the pages mark it: every field row by row, "" free, 0 crossed, else the number."""
    return ",".join("" if m is None else str(m) for row in state.seats[seat].marks for m in row)


def expect_sheets(page, state, seats) -> None:
    """The page shows the sheets of ``seats`` as the store holds them."""
    for seat in seats:
        page.wait_for_function(SHOWS_JS, arg=[seat, store_marks(state, seat)], timeout=30_000)


def host_shows(host, state, seat: int, since: float) -> float:
    """Seconds from ``since`` until the host screen shows ``seat``'s sheet as in ``state``
    (checked at every frame the page draws)."""
    host.wait_for_function(SHOWS_JS, arg=[seat, store_marks(state, seat)], polling="raf", timeout=30_000)
    return time.monotonic() - since


# --------------------------------------------------------------------------- a phone's taps
def enter_faces(phone, taps: Taps, faces, kept=()) -> None:
    """The active phone taps the six faces (the 1s kept at a second attempt are set already) and
    "Enter the roll"."""
    for c, face in enumerate(faces):
        if c in kept:
            continue
        group = phone.get_by_role("radiogroup", name=die_colour(c).capitalize(), exact=True)
        radio = group.get_by_role("radio", name=str(face), exact=True)
        for attempt in range(3):  # a tap lost while the page reran is made again
            taps.lost += attempt > 0
            taps.press(radio)
            try:
                expect(radio).to_have_attribute("aria-checked", "true", timeout=5_000)
                break
            except AssertionError:
                continue
    taps.press(phone.get_by_role("button", name="Enter the roll", exact=True))


def pick_dice(phone, taps: Taps, seat: int, colours, faces) -> None:
    """The phone of ``seat`` taps the dice ``colours`` (each says which field it goes to) and Enter."""
    box = phone.locator(f".st-key-t21-entry-{seat}")
    expect(box).to_be_visible()
    for k, c in enumerate(colours, start=1):
        pill = box.get_by_role("button").filter(has_text=re.compile(rf"^{die_colour(c)} {faces[c]} →"))
        for attempt in range(3):
            taps.lost += attempt > 0
            taps.press(pill)
            try:
                expect(box.locator("button[aria-pressed=true]")).to_have_count(k, timeout=5_000)
                break
            except AssertionError:
                continue
    taps.press(box.get_by_role("button", name="Enter", exact=True))


def cross_out(phone, taps: Taps, seat: int) -> None:
    box = phone.locator(f".st-key-t21-entry-{seat}")
    taps.press(box.get_by_role("button").filter(has_text="Cross out field"))


def wait_events(store, gid, n: int, timeout: float = 20) -> GameSession:
    return wait_for_store(store, gid, lambda s: s.n_events > n, timeout=timeout)


def active_rolls(phone, store, gid, faces, second=None, taps: Taps | None = None) -> GameSession:
    """The active phone enters ``faces``, then keeps them or (``second``) enters the second attempt."""
    taps = taps or Taps()
    ses = GameSession.load(store, gid)
    enter_faces(phone, taps, faces)
    ses = wait_events(store, gid, ses.n_events)
    assert ses.state.phase == CHOOSE and ses.state.dice.faces == tuple(faces)
    if second is None:
        taps.press(phone.get_by_role("button", name="Keep", exact=True))
        return wait_events(store, gid, ses.n_events)
    taps.press(phone.get_by_role("button", name="Second attempt", exact=True))
    ses = wait_events(store, gid, ses.n_events)
    assert ses.state.phase == SECOND
    enter_faces(phone, taps, second, kept=[c for c, f in enumerate(faces) if f == 1])
    return wait_events(store, gid, ses.n_events)


def seat_enters(phone, store, gid, seat: int, taps: Taps | None = None) -> tuple[GameSession, float]:
    """``seat``'s phone enters every die that fits (else crosses out); returns the stored game
    once the entry landed and the moment of the confirm tap."""
    taps = taps or Taps()
    ses = GameSession.load(store, gid)
    gs = ses.state
    assert gs.phase == ENTER and seat in gs.pending
    fits = [f.colour for f in gs.fits(seat)]
    if fits:
        pick_dice(phone, taps, seat, fits, gs.dice.faces)
    else:
        cross_out(phone, taps, seat)
    confirmed = time.monotonic()
    return wait_events(store, gid, ses.n_events), confirmed


# --------------------------------------------------------------------------- the test
#: keeps every connection state the page goes through (window.__t21Conn)
WATCH_CONNECTION_JS = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  window.__t21Conn = [app.getAttribute('data-test-connection-state')];
  new MutationObserver(() => window.__t21Conn.push(app.getAttribute('data-test-connection-state')))
    .observe(app, {attributes: true, attributeFilter: ['data-test-connection-state']});
}"""


def test_phones_join_by_qr_code_and_a_killed_server_loses_nothing(new_page, app_url, app_server, store, screenshot):
    ses = GameSession.create(store, TwentyOneGame.create(3), title="twenty one, real dice", seat_names=NAMES,
                             kind="companion")
    gid = ses.game_id
    host = new_page(HOST_VIEW)
    host.goto(f"{app_url}/table?game={gid}&code={ses.meta['host_code']}")
    expect(host.get_by_role("button", name="Start with this seat")).to_be_visible()
    phones = join_by_qr(host, new_page, ses, NAMES)
    ses = wait_for_store(store, gid, lambda s: len(s.meta.get("claims") or {}) == 3)
    screenshot(host, "twentyone-qr-host-joined")

    # the host enters who won the draw (seat 1, the first choice); seat 1's phone rolls
    press(host.get_by_role("button", name="Start with this seat"))
    ses = wait_for_store(store, gid, lambda s: s.state.phase == "roll")
    assert ses.state.active == 0
    ses = active_rolls(phones[0], store, gid, (1, 5, 4, 3, 2, 6), second=(1, 2, 3, 3, 2, 1))
    assert ses.state.dice == Roll.of(1, 2, 3, 3, 2, 1) and ses.state.phase == ENTER
    ses, _ = seat_enters(phones[0], store, gid, 0)
    ses, _ = seat_enters(phones[1], store, gid, 1)
    assert ses.state.pending == [2]  # Cy still to enter this round

    # kill the server in the middle of the round; a new one on the same store and port
    acknowledged = (ses.n_events, ses.state.to_json())
    for page in [host, *phones]:
        idle(page)
        page.evaluate(WATCH_CONNECTION_JS)
    app_server.proc.kill()
    app_server.proc.wait(timeout=10)
    started = time.monotonic()
    app_server.restart()
    ses = GameSession.load(store, gid)
    assert (ses.n_events, ses.state.to_json()) == acknowledged  # nothing acknowledged is lost
    # the pages left open lost the connection, reconnect by themselves and show the same sheets
    for page in [host, *phones]:
        page.wait_for_function("() => window.__t21Conn.length > 1 && window.__t21Conn.at(-1) === 'CONNECTED'",
                               timeout=30_000)
        assert any(c != "CONNECTED" for c in page.evaluate("() => window.__t21Conn"))
        expect_sheets(page, ses.state, range(3))
    expect(host.get_by_text("Still to enter: 3. Cy")).to_be_visible()
    back = round(time.monotonic() - started, 1)
    screenshot(host, "twentyone-qr-host-after-restart")

    # the game goes on: Cy enters, then round 2 (Bo active) is played on the phones
    for page in [host, *phones]:
        idle(page)
    ses, _ = seat_enters(phones[2], store, gid, 2)
    assert ses.state.round_index == 1 and ses.state.active == 1
    ses = active_rolls(phones[1], store, gid, (2, 2, 1, 1, 3, 4))
    for seat in (1, 2, 0):
        ses, _ = seat_enters(phones[seat], store, gid, seat)
    assert ses.state.round_index == 2 and ses.n_events == acknowledged[0] + 1 + 2 + 3
    for page in [host, *phones]:
        expect_sheets(page, ses.state, range(3))
        expect(page.locator("[data-testid=stException]")).to_have_count(0)
    screenshot(phones[0], "twentyone-qr-phone-after-restart")
    print(f"pages back after the kill and restart: {back} s")
