"""Codes in a real browser (issue 17, items 3 and 6): the path that ``nochmal games import
--json`` prints opens the imported game as host, and a second device that opens the host's
join link claims a seat. (The longer join-and-play flow is in test_browser_play.py.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect
from test_browser_play import idle, press  # the same tap as the play tests (waits for the page first)

from nochmal.ui import newgame
from nochmal.store.session import GameSession
from nochmal.ui.device import STORAGE_KEY

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.browser


def test_cli_import_json_path_opens_the_game_as_host_and_its_join_link_claims_a_seat(
        page, new_page, app_url, app_server, store, tmp_path, screenshot):
    game = newgame.make_game("coop", newgame.default_sheets("coop", 3), 1)
    ses = GameSession.create(store, game, title="exported for import", seat_names=["Ada", "Bo", "Cy"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(ses.export()), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "nochmal.cli", "games", "import", str(path), "--json",
                          "--db", str(app_server.db)], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)

    # the printed path opens the imported game on the Table page, as host (every seat enters)
    page.goto(app_url + answer["host_url_path"])
    expect(page.get_by_role("button", name="Enter roll")).to_be_enabled()
    expect(page.locator("[data-testid=stSidebar]")).to_contain_text("exported for import")
    assert urlparse(page.url).path == "/table"

    # the sidebar points the host to the Table page's join box, which holds the join link
    expect(page.locator("[data-testid=stSidebar]")).to_contain_text("📱 Join with phones")
    join_box = page.locator("[data-testid=stExpander]").filter(
        has=page.locator("summary", has_text="📱 Join with phones"))
    expect(join_box).to_have_count(1)
    link_box = join_box.locator(".st-key-table-join-link")
    idle(page)  # the expander's state is the one this run drew
    if join_box.locator("[data-testid=stExpanderDetails]").get_attribute("inert") is not None:
        press(join_box.locator("summary"))  # open while seats are free at game start; else open it
    # its join link, opened on another device, is ready to claim a seat
    expect(link_box).to_contain_text("join=")  # drawn after the page's first elements: wait for it
    link = link_box.inner_text().strip()
    imported = GameSession.load(store, answer["id"])
    assert link == app_url + imported.join_url_path()
    phone = new_page()
    phone.goto(link)
    seats = phone.get_by_role("radiogroup", name="Which seat do you play on this device?")
    press(seats.get_by_text("3. Cy"))
    press(phone.get_by_role("button", name="Claim this seat"))
    expect(phone.get_by_text("This device now plays seat 3: Cy.")).to_be_visible()
    query = parse_qs(urlparse(phone.url).query)
    assert query["seat"] == ["3"] and "join" not in query
    phone.wait_for_function(f"() => (localStorage.getItem({STORAGE_KEY!r}) || '').includes({answer['id']!r})")
    stored = phone.evaluate(f"() => JSON.parse(localStorage.getItem({STORAGE_KEY!r}) || '[]')")  # issue 46: not in the URL
    assert GameSession.load(store, answer["id"]).seat_of_code(
        next(e["code"] for e in stored if e["game"] == answer["id"])) == 2
    screenshot(phone, "join-link-claimed-seat")
