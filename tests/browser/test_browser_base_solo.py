"""Base and solo games in a real browser (issue 42, item 6): the host screen and a seat's phone.

* The running score (columns, colours, "!", stars, total) of every seat, as the engine scores it,
  on the host screen and on the phone; none in a co-op game.
* The host offers entry only for seats without a phone; "Enter for a seat with a phone" reveals
  the others; a roll that only phones decide shows who decides there and no entry.
* No co-op words (mission, team, failed roll, turn track, goal; German Mission, Team, Fehlwurf,
  Spielzug, Ziel) on the screens of a base or solo game, in English and in German.

Screenshots: ``test-artifacts/screenshots/base-solo-*.png``.
"""

from __future__ import annotations

import re

import pytest
from conftest import PHONE
from playwright.sync_api import expect
from test_browser_play import drive, idle, load, press

from nochmal.engine.dice import Roll
from nochmal.engine.game import CHANCE
from nochmal.engine.moves import Cross
from nochmal.store.session import GameSession
from nochmal.ui import newgame

pytestmark = pytest.mark.browser

HOST = {"width": 1280, "height": 900}
COOP_EN = re.compile(r"\b(mission\w*|team\w*|failed rolls?|turn track|goals?)\b", re.IGNORECASE)
COOP_DE = re.compile(r"\b(mission\w*|team\w*|fehlw[uü]rf\w*|spielzug\w*|\w*ziel\w*)\b", re.IGNORECASE)
HEAD = ["seat", "columns", "colours", "\"!\"", "stars", "total"]


def new_game(store, mode="base", players=3) -> GameSession:
    game = newgame.make_game(mode, newgame.default_sheets(mode, players), 1)
    return GameSession.create(store, game, title=f"browser {mode}", seat_names=["Ada", "Bo", "Cy"][:players],
                              kind="companion")


def open_page(page, app_url, ses, code=None, lang="en") -> None:
    page.goto(f"{app_url}/table?game={ses.game_id}&code={code or ses.meta['host_code']}&lang={lang}")
    expect(page.locator("[data-testid=stMain]")).to_contain_text(ses.seat_names[0])
    idle(page)
    expect(page.locator("[data-testid=stException]")).to_have_count(0)


def score_rows(page, key: str) -> list[list[str]]:
    """The running-score table in the container ``key``: its rows of cell texts, header first."""
    table = page.locator(f".st-key-{key} table")
    expect(table).to_be_visible()
    return table.evaluate("t => [...t.rows].map(r => [...r.cells].map(c => c.innerText.trim()))")


def expect_engine_scores(rows: list[list[str]], ses: GameSession, head=HEAD) -> None:
    assert rows[0][-len(head):] == head, rows[0]
    body = [r[-len(head):] for r in rows[1:]]
    assert len(body) == ses.game.n_seats
    for i, row in enumerate(body):
        sc = ses.game.seat_score(ses.state, i)
        assert row[0] == f"{i + 1}. {ses.seat_names[i]}"
        assert [int(x.replace("−", "-")) for x in row[1:]] == [sc.columns, sc.colours, sc.jokers, sc.stars, sc.total]


def main_text(page, skip_expanders: bool = False) -> str:
    idle(page)
    text = page.locator("[data-testid=stMain]").inner_text()
    if skip_expanders:
        for label in page.locator("[data-testid=stMain] details summary").all_inner_texts():
            text = text.replace(label, " ")
    return re.sub(r"https?://\S+", " ", text)


def coop_words(text: str, pattern) -> list[str]:
    return [f"{m[0]}: {line.strip()[:100]}" for line in text.splitlines() for m in [pattern.search(line)] if m]


# --------------------------------------------------------------------------- host and phone of a base game
def test_base_game_host_and_phone_score_and_entry_for_phone_seats(page, new_page, app_url, store, screenshot):
    ses = new_game(store)
    bo_code = ses.claim_seat(1, "browser-phone-bo", host=True)
    drive(ses, lambda st: st.roll_index >= 4 and st.current_player() == CHANCE, seed=3)
    ses = load(store, ses.game_id)
    # a roll whose active seat (roll 5: Bo, seat 2) plays on a phone
    assert ses.state.active == 1
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    open_page(page, app_url, ses)
    host_rows = score_rows(page, "running-score")
    expect_engine_scores(host_rows, ses)
    assert int(host_rows[1][-2]) < 0  # stars not crossed count minus
    # only Bo decides now, on his phone: the host shows that, and no entry unless asked
    expect(page.get_by_text("📱 2. Bo decides on their phone.")).to_be_visible()
    expect(page.locator(".st-key-cross-btn")).to_have_count(0)
    expect(page.get_by_role("heading", name=re.compile("decides"))).to_have_count(0)
    screenshot(page, "base-solo-1-host-phone-seat-decides")

    phone = new_page(PHONE)
    open_page(phone, app_url, ses, code=bo_code)
    expect(phone.locator(".st-key-phone-sheet")).to_contain_text("Your turn (active)")
    expect_engine_scores(score_rows(phone, "phone-score"), ses)
    screenshot(phone, "base-solo-2-phone-score")

    # Bo crosses (his phone's entry, made here through the store); then Ada and Cy (no phones) are
    # entered on the host, Bo is not offered there
    st = ses.state
    move = next(m for m in st.legal_actions(1) if isinstance(m, Cross) and m.count == 1 and not m.joker_cost)
    load(store, ses.game_id).record(move, seat=1, by="test")
    expect(page.get_by_role("radiogroup", name="Entering for")).to_be_visible(timeout=15_000)
    group = page.get_by_role("radiogroup", name="Entering for")
    expect(group.get_by_role("radio")).to_have_count(2)
    expect(group).not_to_contain_text("Bo")
    expect(page.get_by_role("heading", name="3. Cy decides (passive)")).to_be_visible()
    screenshot(page, "base-solo-3-host-enters-for-seats-without-phone")

    # the next roll, Cy active; after Cy's cross Ada and Bo decide: the host enters for Ada, and
    # is asked before it enters for Bo
    ses = load(store, ses.game_id)
    drive(ses, lambda st: st.roll_index == 5 and st.phase == "passive", seed=3)
    ses = load(store, ses.game_id)
    assert ses.state.pending == [0, 1], ses.state.pending
    page.reload()
    idle(page)
    expect(page.get_by_role("heading", name="1. Ada decides (passive)")).to_be_visible()
    expect(page.get_by_role("radiogroup", name="Entering for")).to_have_count(0)
    switch = page.get_by_role("switch", name="Enter for a seat with a phone")
    expect(switch).not_to_be_checked()
    press(page.locator(".st-key-enter-phones").get_by_text("Enter for a seat with a phone"))
    expect(switch).to_be_checked()
    group = page.get_by_role("radiogroup", name="Entering for")
    expect(group).to_be_visible()
    expect(group.get_by_role("radio")).to_have_count(2)
    press(group.get_by_role("radio", name=re.compile("Bo")))
    expect(page.get_by_role("heading", name="2. Bo decides (passive)")).to_be_visible()
    expect(page.locator(".st-key-grid-1")).to_be_visible()
    screenshot(page, "base-solo-4-host-asked-to-enter-for-a-phone-seat")
    expect_engine_scores(score_rows(page, "running-score"), ses)
    for text in (main_text(page), main_text(phone, skip_expanders=True)):
        assert not coop_words(text, COOP_EN), coop_words(text, COOP_EN)


def test_solo_and_base_in_german_say_no_co_op_words(new_page, app_url, store, screenshot):
    solo = new_game(store, mode="solo", players=1)
    drive(solo, lambda st: st.roll_index >= 3 and st.current_player() == CHANCE, seed=3)
    solo = load(store, solo.game_id)
    solo.record(Roll.parse(["green", "blue"], [1, 2]))
    base = new_game(store, players=2)
    bo_code = base.claim_seat(1, "browser-phone-bo-de", host=True)
    drive(base, lambda st: st.roll_index >= 2 and st.phase == "passive", seed=3)
    base = load(store, base.game_id)
    for lang, pattern, head, decides in (
            ("en", COOP_EN, HEAD, "1. Ada decides"),
            ("de", COOP_DE, ["Platz", "Spalten", "Farben", "„!“", "Sterne", "Summe"], "1. Ada entscheidet")):
        host = new_page(HOST)
        open_page(host, app_url, solo, lang=lang)
        expect(host.get_by_role("heading", name=decides, exact=True)).to_be_visible()  # solo: no role
        expect_engine_scores(score_rows(host, "running-score"), solo, head)
        text = main_text(host)
        assert not coop_words(text, pattern), coop_words(text, pattern)
        screenshot(host, f"base-solo-5-solo-host-{lang}")

        open_page(host, app_url, base, lang=lang)
        expect_engine_scores(score_rows(host, "running-score"), base, head)
        text = main_text(host)
        assert not coop_words(text, pattern), coop_words(text, pattern)
        screenshot(host, f"base-solo-6-base-host-{lang}")

        phone = new_page(PHONE)
        open_page(phone, app_url, base, code=bo_code, lang=lang)
        expect_engine_scores(score_rows(phone, "phone-score"), base, head)
        # the phone's "The table: turn track, mission, ..." fold is phone_view's (not checked here)
        text = main_text(phone, skip_expanders=True)
        assert not coop_words(text, pattern), coop_words(text, pattern)
        screenshot(phone, f"base-solo-7-base-phone-{lang}")


def test_coop_host_has_no_running_score(page, app_url, store):
    game = newgame.make_game("coop", newgame.default_sheets("coop", 2), 1)
    ses = GameSession.create(store, game, title="browser coop", seat_names=["Ada", "Bo"], kind="companion")
    drive(ses, lambda st: st.roll_index >= 2 and st.current_player() == CHANCE, seed=3)
    open_page(page, app_url, load(store, ses.game_id))
    expect(page.locator(".nm-track")).to_be_visible()
    expect(page.locator(".st-key-running-score")).to_have_count(0)
    expect(page.get_by_text("Score so far")).to_have_count(0)
