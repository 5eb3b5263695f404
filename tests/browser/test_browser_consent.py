"""Seats belong to their players (issue 46, build item 5) in a real browser: a host page and two
phones. Phone 1 claims seat 1 by its link; the code then leaves its address bar (and a reload
still shows the seat's sheet). Phone 2 opens the same seat's link: it waits for the mission
leader; the host refuses (phone 2 is told), phone 2 asks again, the host allows: phone 2 plays
seat 1 and phone 1 is told its seat was taken over."""

from __future__ import annotations

import re

import pytest
from conftest import PHONE, WAIT_MS
from playwright.sync_api import expect
from test_browser_lobby import query, stored_code
from test_browser_play import press

from nochmal.store.session import GameSession
from nochmal.ui import newgame

pytestmark = pytest.mark.browser
NAMES = ["Anna", "Bo"]


def no_secret_in_url(page) -> None:
    expect(page).to_have_url(re.compile(r"/table\?"))
    page.wait_for_function("() => !/[?&](code|join)=/.test(location.search)", timeout=WAIT_MS)
    q = query(page)
    assert "code" not in q and "join" not in q and "claim" not in q, page.url


def test_a_take_over_waits_for_the_host_refuse_then_allow(page, new_page, app_url, store, screenshot):
    game = newgame.make_game("coop", newgame.default_sheets("coop", 2), 1)
    ses = GameSession.create(store, game, title="consent night", seat_names=NAMES)
    gid = ses.game_id
    link = app_url + ses.join_url_path(0)
    page.goto(f"{app_url}/table?game={gid}&code={ses.meta['host_code']}")
    expect(page.get_by_text("consent night").first).to_be_visible()

    # phone 1 claims seat 1 by its link; the code leaves the address bar once stored
    phone1 = new_page(viewport=PHONE)
    phone1.goto(link)
    expect(phone1.locator(".st-key-phone-sheet")).to_be_visible()
    code1 = stored_code(phone1, gid)
    assert GameSession.load(store, gid).seat_of_code(code1) == 0
    no_secret_in_url(phone1)
    assert query(phone1)["game"] == gid and query(phone1)["seat"] == "1"
    phone1.reload()  # the code comes back from this browser's storage
    expect(phone1.locator(".st-key-phone-sheet")).to_be_visible()
    expect(phone1.locator(".st-key-phone-sheet")).to_contain_text("1. Anna")
    no_secret_in_url(phone1)
    screenshot(phone1, "consent-phone1-after-reload")

    # phone 2 opens the same link: it asks, and waits
    phone2 = new_page(viewport=PHONE)
    phone2.goto(link)
    expect(phone2.get_by_text("Seat 1 (Anna) is played on another device — take it over?")).to_be_visible()
    press(phone2.get_by_role("button", name="Take over seat 1"))
    waiting = phone2.get_by_text("Waiting for the mission leader's consent to take over seat 1 (Anna)")
    expect(waiting).to_be_visible()
    assert GameSession.load(store, gid).seat_of_code(code1) == 0  # nothing taken yet
    screenshot(phone2, "consent-phone2-waiting")

    # the host is asked; it refuses, and phone 2 is told
    prompt = page.locator(".st-key-takeover-ask-0")
    expect(prompt).to_contain_text("asks to take over seat 1 (Anna)")
    screenshot(page, "consent-host-prompt")
    press(prompt.get_by_role("button", name="Refuse"))
    expect(phone2.get_by_text("The mission leader refused to let this device take over seat 1.")).to_be_visible()
    assert GameSession.load(store, gid).seat_of_code(code1) == 0
    screenshot(phone2, "consent-phone2-refused")

    # asked again; this time the host allows: phone 2 plays seat 1, phone 1 is told
    phone2.goto(link)
    press(phone2.get_by_role("button", name="Take over seat 1"))
    expect(waiting).to_be_visible()
    prompt = page.locator(".st-key-takeover-ask-0")
    press(prompt.get_by_role("button", name="Allow"))
    expect(phone2.locator(".st-key-phone-sheet")).to_be_visible()
    code2 = stored_code(phone2, gid)
    now = GameSession.load(store, gid)
    assert now.seat_of_code(code2) == 0 and now.seat_of_code(code1) is None
    no_secret_in_url(phone2)
    taken = "Seat 1 (Anna) was taken over by another device. Open the join link again to claim a seat."
    expect(phone1.get_by_text(taken)).to_be_visible(timeout=2 * WAIT_MS)
    screenshot(phone2, "consent-phone2-allowed")
    screenshot(phone1, "consent-phone1-taken-over")
