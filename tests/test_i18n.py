"""German and English (issue 22): the German catalog covers every text the code marks, nothing in
it is left untranslated or fuzzy, placeholders match, and the language in force picks the words
and the number formats.

The texts are found the way ``make i18n-extract`` finds them (Babel's extractor with the
keywords of :data:`nochmal.data.i18n.KEYWORDS`), so a text added to the code without its German
fails here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import nochmal
from nochmal.data import i18n
from nochmal.data.i18n import _, ngettext, number, percent
from apptools import env  # noqa: F401 (the fixture: a store and a home of its own)

PKG = Path(nochmal.__file__).resolve().parent
RULES_MD = Path(__file__).resolve().parents[1].parent / "shared" / "RULES.md"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@pytest.fixture(autouse=True)
def _no_language_left_behind():
    """A German page run leaves its language for code run outside page runs (AppTest formats
    widget options there): the next test starts from English."""
    yield
    from nochmal.ui import lang

    lang._last_run = None


def marked() -> dict:
    """(context, msgid) → where it is marked first; a plural's msgid is (singular, plural)."""
    out: dict = {}
    for filename, lineno, message, _comments, context in extract_from_dir(
            str(PKG), method_map=[("**.py", "python")], keywords=i18n.KEYWORDS):
        out.setdefault((context, message), f"{filename}:{lineno}")
    return out


@pytest.fixture(scope="module")
def german():
    with i18n.catalog_path("de").open("rb") as fh:
        return read_po(fh, locale="de")


def test_the_code_marks_texts_at_all():
    found = marked()
    assert len(found) > 300, len(found)  # every page, panel and message of the app


def test_every_marked_text_has_its_german_and_nothing_is_fuzzy(german):
    problems = []
    for (context, msgid), where in sorted(marked().items(), key=lambda kv: kv[1]):
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        entry = german.get(key, context=context)
        if entry is None:
            problems.append(f"{where}: not in the German catalog: {key!r} (make i18n-update)")
            continue
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(f and f.strip() for f in forms):
            problems.append(f"{where}: untranslated in German: {key!r}")
        if entry.fuzzy:
            problems.append(f"{where}: fuzzy (unchecked) German for {key!r}")
        english = msgid if isinstance(msgid, tuple) else (msgid,)
        if any(sorted(PLACEHOLDER.findall(f)) != sorted(PLACEHOLDER.findall(english[0])) for f in forms if f):
            problems.append(f"{where}: placeholders differ in the German of {key!r}")
    assert not problems, "\n".join(problems[:40]) + (f"\n... {len(problems)} in all" if len(problems) > 40 else "")


def _literal(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def test_marking_calls_take_plain_literals_only():
    """A text built inside the marking call (an f-string, ``+`` or ``%``) is invisible to the
    extractor and would stay English. ``N_``, ``ngettext`` and ``pgettext`` take literals;
    ``_`` may also take a variable (a text marked with ``N_`` where it is defined)."""
    bad = []
    for path in PKG.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in i18n.KEYWORDS:
                n = 2 if node.func.id in ("ngettext", "pgettext") else 1
                args = node.args[:n]
                built = any(isinstance(a, (ast.JoinedStr, ast.BinOp)) for a in args)
                if len(args) < n or built or (node.func.id != "_" and not all(_literal(a) for a in args)):
                    bad.append(f"{path.relative_to(PKG.parent)}:{node.lineno}: {node.func.id}()")
    assert not bad, bad


def test_no_marking_call_inside_an_f_string():
    """A marking call inside an f-string's braces is not seen by the extractor under Python 3.11
    (the f-string is one token): its text stays English in German (the calibration report's
    column headings did, until this test)."""
    bad = []
    for path in PKG.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                bad += [f"{path.relative_to(PKG.parent)}:{sub.lineno}: {sub.func.id}()" for sub in ast.walk(node)
                        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in i18n.KEYWORDS]
    assert not bad, bad


def test_the_language_in_force_picks_the_words():
    assert _("Cross") == "Cross"  # English is the default (the CLI never changes it)
    with i18n.using("de"):
        assert _("Cross") == "Ankreuzen"
        assert i18n.language() == "de"
    assert i18n.language() == "en"
    with pytest.raises(ValueError, match="language"):
        with i18n.using("fr"):
            pass


def test_plural_forms_come_from_the_catalog():
    plural = ("{n} events", "{n} events")  # English has one form for any number, German two
    assert (None, plural) in marked()
    with i18n.using("de"):
        one, many = ngettext(plural[0], plural[1], 1), ngettext(plural[0], plural[1], 5)
    assert one != many and one != plural[0] and many != plural[1], (plural, one, many)


def test_numbers_are_written_the_language_s_way():
    assert number(1234.5, 1) == "1,234.5" and percent(0.25) == "25%"
    with i18n.using("de"):
        assert number(1234.5, 1) == "1.234,5"
        assert percent(0.25).replace("\xa0", " ") == "25 %"
        assert number(0.36, 2) == "0,36"


@pytest.mark.parametrize("tag, code", [("de-DE", "de"), ("de_AT", "de"), ("DE", "de"), ("en-GB", "en"),
                                       ("fr-FR", None), ("", None), (None, None), ("x" * 99, None)])
def test_browser_language_tags(tag, code):
    assert i18n.normalize(tag) == code


def test_one_german_and_one_english_sentence_per_rule_id():
    from nochmal.ui.explain import RULE_WORDS

    if not RULES_MD.is_file():
        pytest.skip(f"the rules specification is not here ({RULES_MD})")
    ids = set(re.findall(r"^- \*\*((?:R|C)-[A-Z0-9-]+)\*\*", RULES_MD.read_text(encoding="utf-8"), re.M))
    assert len(ids) > 30
    missing = sorted(ids - set(RULE_WORDS))
    assert not missing, missing
    with i18n.using("de"):
        same = sorted(r for r in ids if _(RULE_WORDS[r]) == RULE_WORDS[r])
    assert not same, f"no German sentence for {same}"


# --------------------------------------------------------------------------- pages in German (AppTest)
def _played_game(store):
    from nochmal.engine.game import CHANCE
    from nochmal.store.session import GameSession
    from nochmal.ui import entry, newgame

    ses = GameSession.create(store, newgame.make_game("coop", newgame.default_sheets("coop", 2), 1), title="t",
                             seat_names=["Ann", "Bo"], kind="digital", seed=3)
    ses.roll_digital()
    while ses.state.current_player() != CHANCE:
        seat = entry.seats_to_decide(ses.state)[0]
        ses.record(next(iter(ses.state.legal_actions(seat))), seat=seat)
    return ses


def test_history_speaks_german_rules_in_words_and_local_times(env):
    from apptools import HISTORY, app, no_exception

    from nochmal.ui.explain import RULE_WORDS

    ses = _played_game(env)
    at = app({"game": ses.game_id, "code": ses.meta["host_code"], "lang": "de"})
    at.switch_page(HISTORY).run()
    no_exception(at)
    assert at.title[0].value == "📜 Verlauf"
    rules = next(t.value for t in at.table if "Regel" in t.value.columns)
    assert list(rules["Regel"]) == list(RULE_WORDS)
    with i18n.using("de"):
        assert list(rules["was sie sagt"]) == [_(RULE_WORDS[r]) for r in RULE_WORDS]
    events = next(c for c in at.get("markdown") if "`#0`" in c.value).value
    assert "Die App würfelt: Farbwürfel" in events and " UTC" in events  # no browser zone in AppTest: UTC
    with i18n.using("de"):
        assert i18n.date_time("2026-11-25T02:05:00+00:00", "Europe/Berlin") == "25.11.2026, 03:05:00"
    with i18n.using("en"):
        assert i18n.date_time("2026-11-25T02:05:00+00:00", "Europe/Berlin") == "Nov 25, 2026, 3:05:00\u202fAM"
        assert i18n.date_time("2026-11-25T02:05:00+00:00", "Mars/Olympus").endswith(" UTC")


def test_a_phone_has_its_own_language_switch(env):
    """A seat's own device hides the sidebar: the switch is also under its sheet."""
    from apptools import TABLE, app, no_exception

    ses = _played_game(env)
    code = ses.claim_seat(0, "dev0")
    at = app({"game": ses.game_id, "code": code, "seat": "1"})
    at.switch_page(TABLE).run()
    no_exception(at)
    switch = at.get("button_group")
    keys = [w.key for w in switch]
    assert "lang-switch-phone" in keys and "lang-switch" in keys, keys
    phone = next(w for w in switch if w.key == "lang-switch-phone")
    phone.set_value("de").run()
    no_exception(at)
    assert at.session_state["lang"] == "de"
    assert any(b.label == "Rückgängig: " or b.label.startswith("Rückgängig") for b in at.button), \
        [b.label for b in at.button]
