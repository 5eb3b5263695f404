"""The app speaks the browser's language (issue 22), in a real browser.

A browser set to German opens the Start page, creates a co-op companion game and plays its first
turns on the mission leader's screen (the roll, every seat's cross); the Start and Table pages
show no English word. The reverse for a browser set to English. The language switch changes the
language at once and the browser keeps the choice across a reload.

"No English word" is decided by the catalogs themselves: a word that occurs in the English texts
and in no German text (``Waiting``, ``roll``, ``your`` ...) must not be on a German page; a word
of the German texts that no English text has (``Spielzug``, ``Würfel`` ...) must not be on an
English page. The screenshots are saved (``test-artifacts/screenshots/german-*.png``)."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import expect
from test_browser_play import idle, load, press, select_cell, small_move, small_roll

from nochmal.data import i18n
from nochmal.engine.cells import names
from nochmal.engine.game import CHANCE
from nochmal.ui import entry
from nochmal.ui.labels import COLOUR_ORDER, NUMBER_ORDER

pytestmark = pytest.mark.browser

HOST = {"width": 1280, "height": 800}
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")
#: words both languages write alike that the catalogs do not happen to share
SHARED = {"Bot", "Bots", "Team", "Mission", "Start", "Solo", "Joker", "Tableau", "Tableaus", "Analytics", "Koop",
          "Noch", "mal", "Encore", "QR", "Code", "Link", "Layout", "Tipp", "Stand", "Details", "Details"}


def _words(texts) -> set[str]:
    out: set[str] = set()
    for t in texts:
        out |= set(WORD.findall(re.sub(r"\{[^{}]*\}", " ", t)))
    return out


@pytest.fixture(scope="module")
def vocab():
    """(English-only words, German-only words) of the catalog."""
    with i18n.catalog_path("de").open("rb") as fh:
        cat = read_po(fh, locale="de")
    english, german = [], []
    for m in cat:
        if not m.id:
            continue
        english += list(m.id) if isinstance(m.id, tuple) else [m.id]
        german += list(m.string) if isinstance(m.string, tuple) else [m.string]
    en, de = _words(english), _words(german)
    return en - de - SHARED, de - en - SHARED


def visible_text(page) -> str:
    idle(page)
    return page.locator("[data-testid=stAppViewContainer]").inner_text() + "\n" + \
        page.locator("[data-testid=stSidebar]").inner_text()


#: identifiers shown as they are in both languages: sheet and tableau ids (coop-I, tableau-3)
IDS = re.compile(r"\b[a-z]+-[A-Za-z0-9]+\b")


#: links (the join box shows the seats' links): addresses, not words
LINKS = re.compile(r"https?://\S+")


#: a run of word characters and hyphens: words, or an identifier when it holds a digit or "_"
CHUNK = re.compile(r"[\w-]+")
#: game ids and codes are random url-safe tokens ("tabs19eJ" once failed CI as the English "tabs");
#: Material icons are drawn from their names as text ("expand_more", "qr_code_2")
TOKEN = re.compile(r"[\d_]")


def page_words(text: str) -> list[str]:
    """The words of ``text``, leaving out identifiers (any run of word characters with a digit
    or an underscore in it)."""
    return [w for chunk in CHUNK.findall(text) if not TOKEN.search(chunk) for w in WORD.findall(chunk)]


def foreign_words(page, forbidden: set[str]) -> list[str]:
    """The forbidden words on the page, each with the line it stands in."""
    text = IDS.sub(" ", LINKS.sub(" ", visible_text(page)))
    where: dict[str, str] = {}  # each forbidden word's first line
    for line in text.splitlines():
        for w in page_words(line):
            if w in forbidden:
                where.setdefault(w, line.strip())
    return [f"{w}: {where[w][:120]}" for w in sorted(where)]


def new_device(browser, locale: str):
    context = browser.new_context(viewport=HOST, locale=locale)
    context.set_default_timeout(30_000)
    return context, context.new_page()


def enter_roll(page, roll) -> None:
    """The faces by the widgets' keys (their names are the language's)."""
    for i, face in enumerate(roll.colours):
        press(page.locator(f".st-key-roll-c-{i}").get_by_role("radio").nth(COLOUR_ORDER.index(face)))
    for i, face in enumerate(roll.numbers):
        press(page.locator(f".st-key-roll-n-{i}").get_by_role("radio").nth(NUMBER_ORDER.index(face)))
    press(page.locator(".st-key-roll-enter").get_by_role("button"))


def play_turns(page, store, gid: str, turns: int, check) -> None:
    """The mission leader's screen enters the roll and every seat's cross for ``turns`` turns;
    ``check`` looks at the page after each entry."""
    import random

    rng = random.Random(5)
    start = load(store, gid).state.roll_index
    while load(store, gid).state.roll_index < start + turns:
        ses = load(store, gid)
        st = ses.state
        if st.current_player() == CHANCE:
            roll = small_roll(st, rng)
            enter_roll(page, roll)
            expect(page.locator(".st-key-cross-btn")).to_be_visible()
        else:
            seat = entry.seats_to_decide(st)[0]
            move = small_move(st, seat)
            for name in names(move.cells):
                select_cell(page.locator(f".st-key-cell-{seat}-{name}").get_by_role("button"))
            press(page.locator(".st-key-cross-btn").get_by_role("button"))
        n = ses.n_events
        for _ in range(200):
            if load(store, gid).n_events > n:
                break
            page.wait_for_timeout(50)
        assert load(store, gid).n_events == n + 1, "the entry did not land"
        check()


def create_game(page, app_url) -> str:
    page.goto(app_url)
    expect(page.locator(".st-key-new-create")).to_be_visible()
    press(page.locator(".st-key-new-create").get_by_role("button"))
    expect(page.locator(".st-key-roll-enter")).to_be_visible()
    return re.search(r"game=([A-Za-z0-9_-]+)", page.url).group(1)


def test_page_words_leave_out_game_ids_and_codes_but_keep_words():
    # the id CI once drew: its letters "tabs" are an English-only word of the catalog
    line = "Spiel Koop-Mission 1, 3 Spieler · ID tabs19eJ · Code Q_tabs · Tabs"
    assert page_words(line) == ["Spiel", "Koop", "Mission", "Spieler", "Code", "Tabs"]


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
def test_a_browser_s_language_runs_through_start_and_table(browser, app_url, app_server, screenshot, vocab, locale):
    from nochmal.store.db import GameStore

    english_only, german_only = vocab
    forbidden, tag = (english_only, "german") if locale.startswith("de") else (german_only, "english")
    assert len(forbidden) > 50, "the catalog gives the test words to look for"
    context, page = new_device(browser, locale)
    store = GameStore(app_server.db)
    try:
        page.goto(app_url)
        expect(page.locator(".st-key-new-create")).to_be_visible()
        assert foreign_words(page, forbidden) == [], "Start page"
        screenshot(page, f"{tag}-start")
        gid = create_game(page, app_url)

        def check() -> None:
            found = foreign_words(page, forbidden)
            assert found == [], f"Table page, turn {load(store, gid).state.roll_index + 1}: {found}"

        check()
        play_turns(page, store, gid, 2, check)
        screenshot(page, f"{tag}-table")
        page.goto(app_url)  # back to Start: the game is listed to resume, in the same language
        expect(page.locator(".st-key-new-create")).to_be_visible()
        assert foreign_words(page, forbidden) == [], "Start page with a game to resume"
    finally:
        store.close()
        context.close()


def test_the_switch_changes_the_language_and_the_browser_keeps_it(browser, app_url, screenshot):
    context, page = new_device(browser, "de-DE")
    try:
        page.goto(app_url)
        with i18n.using("de"):
            create_de = i18n._("Create game")
        expect(page.locator(".st-key-new-create").get_by_role("button")).to_have_text(re.compile(create_de))
        press(page.locator(".st-key-lang-switch").get_by_role("radio", name="English"))
        expect(page.locator(".st-key-new-create").get_by_role("button")).to_have_text(re.compile("Create game"))
        page.wait_for_timeout(500)  # the storage component writes the cookie
        page.reload()
        expect(page.locator(".st-key-new-create").get_by_role("button")).to_have_text(re.compile("Create game"))
        screenshot(page, "german-switched-to-english")
    finally:
        context.close()
