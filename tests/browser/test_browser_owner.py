"""The owner code in a real browser, from a real other address.

``nochmal serve --host 0.0.0.0`` runs the app; the browser opens it once through this machine's
own network address (e.g. the container's eth0), which the server sees as another device, and
once through 127.0.0.1, which is the machine itself.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
from serving import free_port, stop, wait_healthy

from nochmal.cli.serve import network_address
from nochmal.engine.sheet import get_sheet

pytestmark = pytest.mark.browser

CODE_LINE = re.compile(r"^Owner code for settings: (\S+) \(open (http://\S+) on another device\)$")
PASTED = "\n".join(get_sheet("standard").spec.grid)
GATE = "This device needs the app owner's code for"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``nochmal serve --host 0.0.0.0`` on a free port: (its own network URL, local URL, code, home)."""
    remote = network_address()
    if remote is None:
        pytest.skip("this machine has no network address besides loopback to play 'another device' from")
    home = tmp_path_factory.mktemp("owner-home")
    port = free_port()
    log = home / "serve.log"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "NOCHMAL_HOME": str(home / "home"),
           "NOCHMAL_DB": str(home / "games.sqlite3"), "PYTHONUNBUFFERED": "1"}
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "nochmal.cli", "serve", "--host", "0.0.0.0", "--port", str(port)],
                                cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc, log, what="nochmal serve")
        found = [m for m in map(CODE_LINE.match, log.read_text().splitlines()) if m]
        assert len(found) == 1, log.read_text()
        code, link = found[0].group(1), found[0].group(2)
        remote_url = f"http://[{remote}]:{port}" if ":" in remote else f"http://{remote}:{port}"
        assert link == f"{remote_url}/?owner={code}"
        yield remote_url, f"http://127.0.0.1:{port}", code, home / "home"
    finally:
        stop(proc)


def paste_tab(page):
    page.get_by_role("tab", name="Digitize: paste letters", exact=True).click()
    panel = page.get_by_role("tabpanel", name="Digitize: paste letters", exact=True)
    expect(panel).to_be_visible()
    return panel


def fill_sheet(panel, sheet_id):
    rows = panel.get_by_label("Rows of letters (7 lines × 15 letters)")
    rows.fill(PASTED)
    rows.press("Control+Enter")
    expect(panel.get_by_text("Every invariant of the printed base-game sheets holds")).to_be_visible()
    panel.get_by_role("textbox", name="Sheet id").fill(sheet_id)
    panel.get_by_role("textbox", name="Sheet id").press("Enter")


def test_another_device_needs_the_printed_code_and_the_link_unlocks_it(served, new_page, screenshot):
    remote_url, local_url, code, home = served
    phone = new_page()
    phone.goto(f"{remote_url}/sheets")
    expect(phone.get_by_role("heading", name="Sheets", exact=True)).to_be_visible(timeout=30_000)
    expect(phone.get_by_text(GATE)).to_be_visible()
    panel = paste_tab(phone)
    fill_sheet(panel, "phone-pad")
    expect(panel.get_by_role("button", name="Save as user sheet")).to_be_disabled()
    screenshot(phone, "owner-gate-remote")

    phone.get_by_label("Owner code").fill("a wrong guess")
    phone.get_by_role("button", name="Unlock").click()
    expect(phone.get_by_text("That is not the owner code")).to_be_visible()
    expect(panel.get_by_role("button", name="Save as user sheet")).to_be_disabled()

    phone.get_by_label("Owner code").fill(code)
    phone.get_by_role("button", name="Unlock").click()
    expect(phone.get_by_text("Owner code accepted for this browser session")).to_be_visible()
    expect(phone.get_by_text(GATE)).to_have_count(0)
    panel = paste_tab(phone)
    panel.get_by_role("button", name="Save as user sheet").click()
    expect(panel.get_by_text(re.compile(r"Saved user sheet phone.pad"))).to_be_visible()
    assert (home / "boards" / "phone-pad.toml").is_file()

    # a second device opens the printed link: unlocked at once, and the code leaves the address bar
    tablet = new_page()
    tablet.goto(f"{remote_url}/?owner={code}")
    expect(tablet.get_by_text("Owner code accepted: this browser may change")).to_be_visible(timeout=30_000)
    expect(tablet).not_to_have_url(re.compile("owner="))
    tablet.get_by_role("link", name="Tableaus", exact=True).click()
    expect(tablet.get_by_role("heading", name="Mission tableaus")).to_be_visible()
    expect(tablet.get_by_text(GATE)).to_have_count(0)

    # a third device without the code sees the tableaus but may not change them
    other = new_page()
    other.goto(f"{remote_url}/tableaus")
    expect(other.get_by_role("heading", name="Mission tableaus")).to_be_visible(timeout=30_000)
    expect(other.get_by_text(GATE)).to_be_visible()
    expect(other.get_by_role("button", name="Save as my printed tableau").first).to_be_disabled()


def test_the_machine_itself_needs_no_code(served, page):
    remote_url, local_url, code, home = served
    page.goto(f"{local_url}/sheets")
    expect(page.get_by_role("heading", name="Sheets", exact=True)).to_be_visible(timeout=30_000)
    panel = paste_tab(page)
    fill_sheet(panel, "local-pad")
    expect(page.get_by_text(GATE)).to_have_count(0)
    panel.get_by_role("button", name="Save as user sheet").click()
    expect(panel.get_by_text(re.compile(r"Saved user sheet local.pad"))).to_be_visible()
    assert (home / "boards" / "local-pad.toml").is_file()


def test_plain_streamlit_run_makes_a_code_at_first_use_and_prints_it_once(app_server, page):
    """Started without ``nochmal serve`` (the shared ``streamlit run`` server of these tests)."""
    for path in ("sheets", "tableaus"):
        page.goto(f"{app_server.url}/{path}")
        expect(page.get_by_role("heading", name=re.compile("Sheets|Mission tableaus"))).to_be_visible(timeout=30_000)
    printed = re.findall(r"nochmal: owner code for settings: ([A-Za-z0-9_-]{22,}) \(on another device open "
                         r"http://<this computer's address>:\d+/\?owner=\1\)", app_server.log.read_text())
    assert 1 <= len(printed) <= app_server.starts  # once per server process
    assert len(set(printed)) == len(printed)
