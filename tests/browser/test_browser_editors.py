"""The Sheets and Tableaus pages in a real browser (Playwright + Debian's chromium).

Screenshots go to ``test-artifacts/screenshots/``. The server is shared by the session; its
NOCHMAL_HOME is a tmp folder (``app_home``), so saved sheets never reach a real user folder.
"""

from __future__ import annotations

import re
import tomllib

import pytest
from playwright.sync_api import expect

from nochmal.engine.sheet import get_sheet

pytestmark = pytest.mark.browser

STANDARD_ROWS = list(get_sheet("standard").spec.grid)
PASTED = "\n".join(STANDARD_ROWS)


def open_page(page, app_url, path, heading):
    page.goto(f"{app_url}/{path}")
    expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible(timeout=30_000)


def tab_panel(page, name):
    page.get_by_role("tab", name=name, exact=True).click()
    panel = page.get_by_role("tabpanel", name=name, exact=True)
    expect(panel).to_be_visible()
    return panel


def test_paste_a_sheet_save_it_and_see_it_listed(page, app_url, app_home, screenshot):
    open_page(page, app_url, "sheets", "Sheets")
    screenshot(page, "sheets-view-desktop")
    panel = tab_panel(page, "Digitize: paste letters")
    rows = panel.get_by_label("Rows of letters (7 lines × 15 letters)")
    rows.fill(PASTED)
    rows.press("Control+Enter")  # commits a text area without leaving it
    expect(panel.get_by_text("Every invariant of the printed base-game sheets holds")).to_be_visible()
    expect(panel.locator("td[data-cell]")).to_have_count(105)
    panel.get_by_role("textbox", name="Sheet id").fill("browser-pad")
    panel.get_by_role("textbox", name="Name", exact=True).fill("Pad typed in the browser")
    panel.get_by_role("textbox", name="Name", exact=True).press("Enter")
    screenshot(page, "sheets-paste-preview")
    panel.get_by_role("button", name="Save as user sheet").click()
    expect(panel.get_by_text(re.compile(r"Saved user sheet browser-pad"))).to_be_visible()
    saved = app_home / "home" / "boards" / "browser-pad.toml"
    data = tomllib.loads(saved.read_text(encoding="utf-8"))
    assert data["provenance"] == "user" and data["grid"] == STANDARD_ROWS
    assert data["name"] == "Pad typed in the browser"

    view = tab_panel(page, "View")
    expect(view.get_by_role("combobox", name="Sheet", exact=True)).to_have_value(
        "browser-pad — Pad typed in the browser (✍️ user)")
    expect(view.get_by_text("Provenance: user.")).to_be_visible()
    expect(view.get_by_role("grid", name="Pad typed in the browser")).to_be_visible()
    screenshot(page, "sheets-user-sheet")

    # a new session (reload) lists it too, read back from the file
    open_page(page, app_url, "sheets", "Sheets")
    view = page.get_by_role("tabpanel", name="View", exact=True)
    view.get_by_label("Sheet", exact=True).click()
    page.get_by_role("option", name=re.compile(r"^browser-pad — ")).click()
    expect(view.get_by_text("Provenance: user.")).to_be_visible()
    expect(view.locator('td[data-cell="H1"]')).to_have_text("★")


def test_stand_in_sheet_is_labelled_in_the_browser(page, app_url, screenshot):
    open_page(page, app_url, "sheets", "Sheets")
    view = page.get_by_role("tabpanel", name="View", exact=True)
    view.get_by_label("Sheet", exact=True).click()
    page.get_by_role("option", name=re.compile(r"^coop-III — ")).click()
    expect(view.get_by_text("Provenance: stand-in.")).to_be_visible()
    expect(view.get_by_text(re.compile("NOT the printed co-op sheet — the printed layouts are not public"))
           ).to_be_visible()
    grid = view.get_by_role("grid", name="Co-op sheet III (stand-in)")
    for label in "PQRSTUV":
        expect(grid.locator("th", has_text=re.compile(f"^{label}$"))).to_have_count(1)
    expect(grid.locator("td[data-cell] span")).to_have_count(6)  # number fields 1-6
    screenshot(page, "sheets-stand-in")


def test_paint_cells(page, app_url, screenshot):
    open_page(page, app_url, "sheets", "Sheets")
    panel = tab_panel(page, "Digitize: paint cells")
    panel.get_by_role("radio", name="red", exact=True).click()
    cell = panel.locator(".st-key-paint-A1 button")
    expect(cell).to_have_text("G")
    cell.click()
    expect(cell).to_have_text("R")
    expect(panel.get_by_text(re.compile(r"^INV-COLOUR-CELLS: green has 20 cells"))).to_be_visible()
    screenshot(page, "sheets-paint-desktop")


def test_sheets_page_at_phone_width(phone_page, app_url, screenshot):
    page = phone_page
    open_page(page, app_url, "sheets", "Sheets")
    expect(page.get_by_text("Provenance: verified.")).to_be_visible()
    screenshot(page, "sheets-phone")
    panel = tab_panel(page, "Digitize: paint cells")
    last = panel.locator(".st-key-paint-O7 button")
    expect(last).to_be_visible()
    box = last.bounding_box()
    assert box["x"] + box["width"] <= 390, "the 15 paint columns fit the phone's width"
    assert box["width"] >= 16, "paint buttons stay tappable"
    screenshot(page, "sheets-phone-paint")


def test_tableaus_page_shows_provenance(page, app_url, app_home, screenshot):
    open_page(page, app_url, "tableaus", "Mission tableaus")
    expect(page.get_by_text("= printed in the rulebook")).to_be_visible()
    expect(page.get_by_text("= stand-in scaled from the 3-player tableau")).to_be_visible()
    expect(page.locator("[data-testid=stPlotlyChart]")).to_be_visible()
    panel = tab_panel(page, "3 players")
    table = panel.locator("[data-testid=stTable] table")
    expect(table.locator("tr", has_text="goal_10")).to_contain_text("rulebook")
    expect(table.locator("tr", has_text="m2_rows")).to_contain_text("derived")
    expect(panel.get_by_text("File: shipped stand-in")).to_be_visible()
    screenshot(page, "tableaus-desktop")

    goal = panel.get_by_role("spinbutton", name="Goal after turn 10")
    goal.fill("6")
    panel.get_by_role("button", name="Save as my printed tableau").click()
    expect(panel.get_by_text(re.compile(r"Saved your tableau for 3 player"))).to_be_visible()
    expect(panel.get_by_text("File: yours")).to_be_visible()
    expect(table.locator("tr", has_text="goal_10")).to_contain_text("user")
    assert (app_home / "home" / "tableaus" / "tableau-3.toml").is_file()
    screenshot(page, "tableaus-user")
    panel.get_by_role("button", name="Reset to the shipped stand-in").click()
    expect(panel.get_by_text("File: shipped stand-in")).to_be_visible()
    expect(table.locator("tr", has_text="goal_10")).to_contain_text("rulebook")
    assert not (app_home / "home" / "tableaus" / "tableau-3.toml").exists()
