"""Players see the app, not Streamlit's developer tools (``.streamlit/config.toml``:
``client.toolbarMode = "viewer"``): no "Deploy" button and, in the main menu, no Rerun,
Clear cache or developer items — also on 127.0.0.1, where Streamlit's default ("auto")
shows them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

DEVELOPER_ITEMS = ("Rerun", "Clear cache", "Deploy", "Developer", "Record a screencast")


def test_no_deploy_button_and_no_developer_menu_items(page, app_url):
    page.goto(app_url)
    expect(page.get_by_role("button", name="Create game")).to_be_visible()  # the Start page is up
    page.wait_for_function("() => document.querySelector('[data-testid=stApp]')"
                           "?.getAttribute('data-test-script-state') === 'notRunning'")
    expect(page.locator("[data-testid=stAppDeployButton]")).to_have_count(0)
    expect(page.get_by_role("button", name="Deploy", exact=True)).to_have_count(0)
    menu = page.locator("[data-testid=stMainMenu]")
    if menu.count():  # viewer mode may keep a menu with viewer items (print, settings, about)
        menu.first.click()
        popover = page.locator("[data-testid=stMainMenuPopover]")
        expect(popover).to_be_visible()
        text = popover.inner_text()
        assert not [item for item in DEVELOPER_ITEMS if item in text], text
        page.keyboard.press("Escape")
    text = page.locator("[data-testid=stToolbar]").all_inner_texts() if page.locator(
        "[data-testid=stToolbar]").count() else []
    assert not any(item in t for t in text for item in ("Deploy", "Rerun")), text
