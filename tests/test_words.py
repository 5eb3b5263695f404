"""The app's words as a table says them (issue 42, item 7), in German and English: the history's
lines and authors, one name per bot, seats without "1. Player 1", the way a game is played, the
tableau's provenance without file ids, the analytics' axes and legends without internal keys, the
uploader's words and no "Page not found"."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pandas as pd
import pytest
from babel.messages.pofile import read_po

from apptools import HISTORY, START, TABLE, app, no_exception, texts
from nochmal.analytics import figures as F
from nochmal.bots.registry import POLICY_NAMES, policy_name
from nochmal.data import i18n
from nochmal.engine.coopdata import TABLEAU_KEYS
from nochmal.store.events import CrossEvent, PassEvent, RollEvent
from nochmal.store.session import GameSession
from nochmal.ui import newgame
from nochmal.ui.explain import event_text
from nochmal.ui.labels import author_label, default_name, kind_label, provenance_summary_words, seat_label, seat_text
from nochmal.ui.page_paths import PAGE_PATHS, UnknownPages, unknown_page
from nochmal.ui.uploader_words import LIMITS, style
from apptools import env  # noqa: F401 (the fixture: a store and a home of its own)


@pytest.fixture(autouse=True)
def _no_language_left_behind():
    yield
    from nochmal.ui import lang

    lang._last_run = None


def _event(cls, **kw):
    return cls(seq=1, at="2026-11-25T02:05:00+00:00", by="host", **kw)


ROLL = _event(RollEvent, colours=("yellow", "blue", "red"), numbers=("2", "3", "4"))
CROSS = _event(CrossEvent, seat=0, colour_die="blue", number_die="5", colour="blue", cells=("H3",))
PASS = _event(PassEvent, seat=1)


@pytest.mark.parametrize("lang, roll, cross, coop_pass, base_pass", [
    ("de", "Wurf: Farbwürfel gelb, blau, rot; Zahlenwürfel 2, 3, 4", "Ada kreuzt HR an (blau, Würfel blau + 5)",
     "Bo trägt einen Fehlwurf ein", "Bo passt"),
    ("en", "roll: colour dice yellow, blue, red; number dice 2, 3, 4", "Ada crosses HR (blue, dice blue + 5)",
     "Bo marks a failed roll", "Bo passes"),
])
def test_history_lines(lang, roll, cross, coop_pass, base_pass):
    coop = newgame.make_game("coop", newgame.default_sheets("coop", 2), 1)
    base = newgame.make_game("base", ["standard"] * 2, 1)
    names = ["Ada", "Bo"]
    with i18n.using(lang):
        assert event_text(coop, ROLL, names) == roll
        assert event_text(coop, CROSS, names) == cross  # the co-op sheet's row 3 is R
        assert event_text(coop, PASS, names) == coop_pass  # co-op: only the failed roll
        assert event_text(base, PASS, names) == base_pass  # base game: only the pass
        sampled = event_text(coop, ROLL.model_copy(update={"source": "sampled"}), names)
    assert sampled.startswith("Die App würfelt: " if lang == "de" else "the app rolls: ")


@pytest.mark.parametrize("lang, leader, host, device", [("de", "Missionsleitung", "Spielleitung", "ein Gerät"),
                                                        ("en", "mission leader", "host", "a device")])
def test_history_authors_in_words(lang, leader, host, device):
    names = ["Ada", "Bo"]
    with i18n.using(lang):
        assert author_label("host", names, True) == leader
        assert author_label("host", names, False) == host
        assert author_label("seat2", names, True) == "Bo"
        assert author_label("device", names, True) == device
        assert author_label("seat9", names, True) == "seat9"  # not a seat of this game: as it is
        assert author_label("bot:greedy", names, True) == policy_name("greedy")


@pytest.mark.parametrize("lang, names", [("de", {"random": "Zufalls-Bot", "greedy": "Gieriger Bot",
                                                 "planner": "Planer-Bot"}),
                                         ("en", {"random": "Random bot", "greedy": "Greedy bot",
                                                 "planner": "Planner bot"})])
def test_one_name_per_bot(lang, names):
    with i18n.using(lang):
        assert {p: policy_name(p) for p in POLICY_NAMES} == names
        assert policy_name("bound") != "bound" and policy_name("mine") == "mine"


def test_default_names_are_not_numbered_twice():
    for lang, first in (("de", "Spieler 1"), ("en", "Player 1")):
        with i18n.using(lang):
            assert default_name(0) == first
    names = ["Spieler 1", "Ada", "Player 3", "Player 1"]
    with i18n.using("en"):  # a game keeps the names of its language: a German one in English too
        assert [seat_label(names, i) for i in range(4)] == ["Spieler 1", "2. Ada", "Player 3", "4. Player 1"]
        assert seat_text(names, 0) == "Spieler 1" and seat_text(names, 1) == "2. Ada"


def test_the_way_a_game_is_played_and_the_tableau_s_provenance_in_words():
    with i18n.using("de"):
        assert kind_label("companion") == "Am echten Tisch – ihr würfelt selbst"
        assert provenance_summary_words("rulebook+derived") == \
            "teils aus dem Regelheft, teils abgeleiteter Ersatz, nicht die gedruckten Werte"
    with i18n.using("en"):
        assert kind_label("companion") == "at a real table – you roll the dice"
        assert provenance_summary_words("user") == "entered by you"


# --------------------------------------------------------------------------- the German catalog
@pytest.fixture(scope="module")
def german():
    with i18n.catalog_path("de").open("rb") as fh:
        return read_po(fh, locale="de")


#: German words the app no longer says (issue 42): each has one word now
RETIRED = ("Beitrittslink in der Seitenleiste", "Würfel geht", "Fehlwurf markiert", "passt / ", "greedy",
           "Würfel-Seed", "Host-Code", "Host (", "Begleiter zum Brettspiel", "Regelheft+", "Spielertableau")
#: texts of the scan panel (nochmal/ui/panels/scan.py), worded by its own change
SCAN_ONLY = ("nochmal/ui/panels/scan.py", "nochmal/data/scan/")


def test_the_german_catalog_says_each_thing_one_way(german):
    found = []
    for m in german:
        if not m.id or all(loc.startswith(SCAN_ONLY) for loc, _n in m.locations):
            continue
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        found += [f"{m.id!r}: {word!r}" for word in RETIRED for f in forms if f and word in f]
    assert not found, "\n".join(found)


# --------------------------------------------------------------------------- analytics
def _rows():
    rows = []
    for players in (1, 2):
        for policy in ("greedy", "bound"):
            for i in range(4):
                rows.append({"mission": 1 + i % 2, "players": players, "policy": policy, "won": i % 2 == 0,
                             "reason": "mission complete (C-WIN)", "turns": 20, "points_10": 5, "points_19": 12,
                             "points_27": 20, "tableau": f"tableau-{players}",
                             "tableau_provenance": "rulebook+derived" if i < 2 else "user"})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_analytics_axes_and_legends_say_words(lang):
    df = _rows()
    with i18n.using(lang):
        figs = [F.tableau_comparison(3), F.policies_compared(df), F.tableau_win_rates(df), F.points_vs_goals(df),
                F.gap_to_bound(df, "bound"), F.win_rate_heatmap(df)]
        words = {policy_name(p) for p in ("greedy", "bound")}
    shown = []
    for fig in figs:
        shown += [t.name or "" for t in fig.data] + [fig.layout.title.text or ""]
        shown += [str(x) for t in fig.data if t.type == "bar" for x in t.x]
    keys = (*TABLEAU_KEYS, "rulebook+derived", "tableau-1", "tableau-2", "greedy")
    leaked = [s for s in shown if any(k in s for k in keys) or s in ("bound", "planner")]
    assert not leaked, leaked
    assert {t.name for t in figs[1].data} == words
    assert len([t for t in figs[3].data if t.showlegend is not False]) == 2  # points and goal, once


# --------------------------------------------------------------------------- pages (AppTest)
def test_a_new_solo_game_says_nothing_of_phones_or_a_sidebar_link(env):
    at = app({"lang": "de"})
    at.switch_page(START).run()
    at.radio(key="new-mode").set_value("solo").run()
    at.button(key="new-create").click().run()
    no_exception(at)
    said = " ".join(texts(at, "success") + [c.value for c in at.sidebar.caption])
    assert "Spiel angelegt." in said and "Handys" not in said and "Seitenleiste" not in said, said
    gid = at.query_params["game"]
    gid = gid[0] if isinstance(gid, list) else gid
    assert gid not in said  # no game id in the sidebar or the message


def test_a_new_coop_game_points_to_the_qr_code(env):
    at = app()
    at.switch_page(START).run()
    at.button(key="new-create").click().run()
    no_exception(at)
    said = " ".join(texts(at, "success"))
    assert "Game created." in said and "QR code under **📱 Join with phones**" in said and "sidebar" not in said
    table = " ".join(texts(at, "caption") + texts(at, "markdown"))
    assert "at a real table – you roll the dice" in table and "1. Player 1" not in table


def test_the_history_names_who_entered_an_event(env):
    ses = GameSession.create(env, newgame.make_game("coop", newgame.default_sheets("coop", 2), 1), title="t",
                             seat_names=["Ann", "Bo"], kind="digital", seed=3)
    ses.roll_digital(by="host")
    ses.record(next(iter(ses.state.legal_actions(0))), seat=0, by="seat1")
    at = app({"game": ses.game_id, "code": ses.meta["host_code"], "lang": "de"})
    at.switch_page(HISTORY).run()
    no_exception(at)
    events = next(c for c in at.get("markdown") if "`#0`" in c.value).value
    assert "Missionsleitung ·" in events and "Ann ·" in events and "seat1" not in events and "host" not in events


def test_the_new_game_form_in_german(env):
    at = app({"lang": "de"})
    at.switch_page(START).run()
    no_exception(at)
    assert "Am echten Tisch – ihr würfelt selbst" in at.radio(key="new-kind").options[0]
    tableau = " ".join(texts(at, "markdown"))
    assert "**Missionstableau für 3 Spieler** (teils aus dem Regelheft" in tableau and "tableau-3" not in tableau
    at.radio(key="new-kind").set_value("digital").run()
    assert at.text_input(key="new-seed").label.startswith("Startzahl der Würfel")
    assert at.selectbox(key="new-bot-0").format_func("greedy") == "Gieriger Bot 🤖"


# --------------------------------------------------------------------------- Streamlit's own English
def test_the_uploader_speaks_the_page_s_language():
    assert style() == ""  # English: Streamlit's own words
    with i18n.using("de"):
        css = style()
    assert 'content: "Datei wählen"' in css and "display: none" in css
    assert '.st-key-import-file { --nm-upload-limits: "höchstens 1 MB je Datei · JSON"; }' in css
    assert len(re.findall(r"--nm-upload-limits", css)) == len(LIMITS) + 1
    # the rules find Streamlit's uploader by the test ids its frontend still writes
    import streamlit

    bundle = " ".join(p.read_text(encoding="utf-8", errors="replace")
                      for p in (Path(streamlit.__file__).parent / "static" / "static" / "js").glob("FileUploader*.js"))
    for testid in ("stFileUploaderDropzone", "stFileUploaderDropzoneInstructions"):
        assert f"`{testid}`" in bundle or f'"{testid}"' in bundle, testid


def test_the_page_paths_are_the_pages():
    """The pages' url_path in layout.pages() (a st.Page cannot be read outside a page run)."""
    from nochmal.ui import layout

    source = Path(layout.__file__).read_text(encoding="utf-8")
    body = source[source.index("def pages()"):source.index("FOLLOWS_EVENTS")]
    assert set(re.findall(r'url_path="([^"]+)"', body)) == PAGE_PATHS
    assert body.count("st.Page(") == len(PAGE_PATHS)


@pytest.mark.parametrize("path, base, unknown", [
    ("/nosuchpage", "", True), ("/dashboard/", "", True), ("/table", "", False), ("/", "", False),
    ("/start", "", True),  # the default page lives at the root: Streamlit does not find "/start"
    ("/_stcore/health", "", False), ("/static/js/x.js", "", False), ("/favicon.png", "", False),
    ("/media/abc", "", False), ("/oauth2callback", "", False), ("/a/b", "", False),
    ("/app/nosuch", "/app", True), ("/app/table", "/app", False), ("/nosuch", "/app", False),
])
def test_unknown_page_addresses(path, base, unknown):
    assert unknown_page(path, base) is unknown


def test_an_unknown_page_address_is_sent_to_the_start_page():
    sent, reached = [], []

    async def inner(scope, receive, send):
        reached.append(scope["path"])

    async def send(message):
        sent.append(message)

    async def call(path, method="GET", query=b""):
        scope = {"type": "http", "method": method, "path": path, "query_string": query, "headers": []}
        await UnknownPages(inner)(scope, None, send)

    asyncio.run(call("/dashboard", query=b"lang=de"))
    assert sent[0]["status"] == 307 and (b"location", b"/?lang=de") in sent[0]["headers"]
    asyncio.run(call("/table"))
    asyncio.run(call("/nosuch", method="POST"))
    assert reached == ["/table", "/nosuch"] and len(sent) == 2
