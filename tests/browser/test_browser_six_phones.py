"""What a table costs the server, and how fast an entry reaches the mission leader's screen
(issue 42, item 3), in a real browser: a measurement run of ``make measure-table``, not part of
``make test``.

* One table: the host screen and six phones (each opened its seat's link, as its QR code holds).
  The server's CPU time while all seven wait (:data:`IDLE_S`), as a share of one core and per
  device per idle minute; then rolls entered and every phone's cross confirmed in turn, each
  timed from the phone's "Cross" to the host screen showing it (median, p90, max).
* Twenty tables of seven devices (``NOCHMAL_MEASURE_TABLES=20``; not in CI's run): the server's
  CPU while all of them wait.

The figures go to ``test-artifacts/six-phones-measure.json``. The idle cost is asserted against
the issue's goal (an idle table of 7 devices at most 5 % of one core). Confirm to host is reported
with ``goal_met`` (median at most 1 s, p90 at most 2 s) but not asserted: here the seven browsers
render on the same two cores as the server, and every entry reruns every device's page, so the
figure says as much about this machine's browsers as about the server (``confirm_to_store``, the
phone's own part, is reported beside it).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_browser_play import idle, load, small_move, small_roll, tap_cells
from test_browser_table import host_shows

from nochmal.engine.cells import names
from nochmal.engine.game import CHANCE
from nochmal.store.session import GameSession
from nochmal.ui import entry, newgame

pytestmark = [pytest.mark.browser, pytest.mark.bench, pytest.mark.timeout(3600)]

REPO = Path(__file__).resolve().parents[2]
MEASURE = REPO / "test-artifacts" / "six-phones-measure.json"
HOST = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
NAMES = ["Ada", "Bo", "Cy", "Dee", "Eli", "Fe"]
IDLE_S = float(os.environ.get("NOCHMAL_MEASURE_IDLE_S", "60"))
ROUNDS = 3  # rolls; every seat confirms a cross (or its failed roll) in each
#: tables of the idle measurement (0: not run; 140 browser pages take a quarter of an hour here)
TABLES = int(os.environ.get("NOCHMAL_MEASURE_TABLES", "0"))


def server_cpu_s(app_server) -> float:
    """CPU seconds (user + system) the app server's process has used so far."""
    fields = Path(f"/proc/{app_server.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_cost(app_server, seconds: float) -> float:
    """The server's CPU time over ``seconds`` of waiting, as a share of one core."""
    cpu, start = server_cpu_s(app_server), time.monotonic()
    time.sleep(seconds)
    return (server_cpu_s(app_server) - cpu) / (time.monotonic() - start)


def write(key: str, value) -> None:
    MEASURE.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(MEASURE.read_text()) if MEASURE.exists() else {}
    data[key] = value
    MEASURE.write_text(json.dumps(data, indent=1))


def open_table(browser, app_url, store, title: str, contexts: list):
    """A six-seat co-op companion game; the host screen and six phones that opened their seats' links."""
    game = newgame.make_game("coop", newgame.default_sheets("coop", 6), 1)
    ses = GameSession.create(store, game, title=title, seat_names=NAMES, kind="companion")
    pages = []
    for viewport, url in [(HOST, f"{app_url}/table?game={ses.game_id}&code={ses.meta['host_code']}")] + [
            (PHONE, f"{app_url}{ses.join_url_path()}&claim={seat + 1}") for seat in range(6)]:
        context = browser.new_context(viewport=viewport)
        context.set_default_timeout(60_000)
        contexts.append(context)
        page = context.new_page()
        page.goto(url)
        pages.append(page)
    for seat, phone in enumerate(pages[1:]):
        expect(phone.locator(f".st-key-side-{seat}")).to_contain_text(f"{seat + 1}. {NAMES[seat]}")
    return ses, pages[0], pages[1:]


def test_a_table_of_six_phones_idle_and_in_play(browser, app_url, app_server, store, screenshot):
    contexts: list = []
    try:
        ses, host, phones = open_table(browser, app_url, store, "six phones", contexts)
        gid = ses.game_id
        for page in [host] + phones:
            idle(page)
        time.sleep(5)  # the pages' first requests settle
        share = idle_cost(app_server, IDLE_S)
        per_device_minute = share * 60 / 7
        write("idle_table_7_devices", {"seconds": IDLE_S, "share_of_one_core": round(share, 4),
                                       "cpu_seconds_per_device_per_idle_minute": round(per_device_minute, 3)})

        rng = random.Random(42)
        sync: list[float] = []
        stored: list[float] = []  # confirm -> the entry in the store
        for _ in range(ROUNDS):
            ses = load(store, gid)
            st = ses.state
            assert st.current_player() == CHANCE
            ses.record(small_roll(st, rng), by="test")  # the roll, as another device enters it
            while True:
                ses = load(store, gid)
                st = ses.state
                if st.current_player() == CHANCE or st.is_terminal() or not entry.seats_to_decide(st):
                    break
                seat = entry.seats_to_decide(st)[0]
                phone = phones[seat]
                expect(phone.locator(".st-key-cross-btn")).to_be_visible()
                move = small_move(st, seat)
                if move is None:
                    button = phone.locator(".st-key-fail-btn").get_by_role("button")
                else:
                    tap_cells(phone, seat, names(move.cells))
                    button = phone.locator(".st-key-cross-btn").get_by_role("button")
                    expect(button).to_be_enabled()
                idle(phone)
                confirmed = time.monotonic()
                button.click()
                deadline = time.monotonic() + 20
                while load(store, gid).n_events == ses.n_events and time.monotonic() < deadline:
                    time.sleep(0.02)
                stored.append(time.monotonic() - confirmed)
                after = load(store, gid)
                assert after.n_events == ses.n_events + 1, "the phone's entry did not land"
                sync.append(host_shows(host, after.game, after.events[-1], NAMES, confirmed))
        screenshot(host, "six-phones-host")
        screenshot(phones[0], "six-phones-phone1")
        q = statistics.quantiles(sync, n=10)
        figures = {"entries": len(sync), "median_s": round(statistics.median(sync), 2), "p90_s": round(q[-1], 2),
                   "max_s": round(max(sync), 2), "confirm_to_store_median_s": round(statistics.median(stored), 2)}
        write("confirm_to_host_6_phones", figures)
        for page in [host] + phones:
            expect(page.locator("[data-testid=stException]")).to_have_count(0)
        figures["goal_met"] = figures["median_s"] <= 1.0 and figures["p90_s"] <= 2.0
        write("confirm_to_host_6_phones", figures)  # reported, not asserted: see the module's text
        assert share <= 0.05, f"an idle table of 7 devices kept {share:.0%} of one core busy"
    finally:
        for context in contexts:
            context.close()


@pytest.mark.skipif(TABLES < 1, reason="NOCHMAL_MEASURE_TABLES=20 make measure-table runs it")
def test_twenty_idle_tables(browser, app_url, app_server, store):
    contexts: list = []
    try:
        pages = []
        for t in range(TABLES):
            _ses, host, phones = open_table(browser, app_url, store, f"idle table {t + 1}", contexts)
            pages += [host] + phones
        for page in pages:
            idle(page)
        time.sleep(10)
        share = idle_cost(app_server, IDLE_S)
        write(f"idle_{TABLES}_tables_of_7", {"seconds": IDLE_S, "devices": len(pages),
                                              "share_of_one_core": round(share, 4)})
        for page in pages[:: len(pages) // 5 or 1]:  # a sample: still following, no error
            expect(page.locator("[data-testid=stException]")).to_have_count(0)
        assert share <= 0.5, f"{TABLES} idle tables kept {share:.0%} of one core busy"
    finally:
        for context in contexts:
            context.close()
