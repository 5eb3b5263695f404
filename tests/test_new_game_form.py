"""The new-game form of the Start page (issue 19): a new game always gets sheets that fit its
mode (co-op backs for co-op, C-BOARDS), even when the click on "Create game" carries the sheets
of the mode shown before; the sheet boxes offer only the mode's sheets; the default title and
the seat list speak of the mode chosen (no "mission leader" outside co-op); no rule ids.

Every test has its own SQLite store and user folder (the ``env`` fixture of ``apptools``).
"""

from __future__ import annotations

import pytest

from apptools import app, env, no_exception, texts  # noqa: F401 (env: the fixture)
from nochmal.engine.game import variant
from nochmal.engine.sheet import get_sheet
from pagegames import load, rule_ids


def sheet_ids_of(selectbox) -> list[str]:
    """The sheet ids a Start page sheet selectbox offers (its labels are "id — provenance")."""
    return [o.split(" — ")[0] for o in selectbox.options]


def is_coop_sheet(sid: str) -> bool:
    return get_sheet(sid).spec.coop is not None


# --------------------------------------------------------------------------- sheets fit the mode
def test_create_after_a_quick_mode_change_never_gets_the_old_mode_s_sheets_C_BOARDS(env):
    """The click on "Create game" arrives with Mode = base while the sheet boxes still hold the
    co-op sheets of the mode shown before (the browser had not finished the rerun): the base
    game gets the base game's sheets, never a co-op sheet."""
    at = app()
    assert [at.selectbox(key=f"new-sheet-{i}").value for i in range(3)] == ["coop-I", "coop-II", "coop-III"]
    at.session_state["new-mode"] = "base"  # the stale state: sheets of co-op, mode base
    at.button(key="new-create").click().run()
    ses = load(env, at.query_params["game"])
    assert ses.game.mode == "base"
    assert [s.id for s in ses.game.sheets] == variant("base").default_sheets(3) == ["standard"] * 3


def test_create_keeps_the_chosen_sheets_that_fit_the_mode_C_BOARDS(env):
    at = app()
    at.radio(key="new-mode").set_value("base").run()
    at.selectbox(key="new-sheet-1").set_value("blue").run()
    at.button(key="new-create").click().run()
    ses = load(env, at.query_params["game"])
    assert [s.id for s in ses.game.sheets] == ["standard", "blue", "standard"]


@pytest.mark.parametrize("mode", ["coop", "base", "solo"])
def test_sheet_boxes_offer_only_the_sheets_of_the_mode_C_BOARDS(env, mode):
    at = app()
    at.radio(key="new-mode").set_value(mode).run()
    no_exception(at)
    offered = sheet_ids_of(at.selectbox(key="new-sheet-0"))
    assert variant(mode).default_sheets(1)[0] in offered
    assert all(is_coop_sheet(s) == (mode == "coop") for s in offered), offered
    if mode == "coop":
        assert set(offered) >= {"coop-I", "coop-II", "coop-III", "coop-IV", "coop-V", "coop-VI"}
    else:
        assert {"standard", "blue"} <= set(offered)


# --------------------------------------------------------------------------- words of the mode
@pytest.mark.parametrize("mode, players, mission, title", [
    ("base", 3, 1, "Base game, 3 players"),
    ("solo", 1, 1, "Solo game"),
    ("coop", 3, 2, "Co-op mission 2, 3 players"),
])
def test_default_title_names_the_mode_once(env, mode, players, mission, title):
    at = app()
    at.radio(key="new-mode").set_value(mode).run()
    if mode != "solo":
        at.selectbox(key="new-players").set_value(players).run()
    if mode == "coop":
        at.selectbox(key="new-mission").set_value(mission).run()
    at.button(key="new-create").click().run()
    assert load(env, at.query_params["game"]).title == title


def test_start_page_says_mission_leader_only_for_co_op(env):
    at = app()
    assert all("mission leader" not in t for t in texts(at, "title")), texts(at, "title")
    seats = lambda: [m for m in texts(at, "markdown") if m.startswith("**Seat")]  # noqa: E731
    assert any("mission leader" in m for m in seats())  # co-op: seat 1 takes sheet I
    at.radio(key="new-mode").set_value("base").run()
    assert seats() and not any("mission leader" in m for m in seats()), seats()
    at.radio(key="new-mode").set_value("solo").run()
    assert seats() == ["**Seat**"]


def test_start_page_texts_have_no_rule_ids(env):
    at = app()
    shown = texts(at, "title") + texts(at, "markdown") + texts(at, "caption")
    shown += [str(v) for t in at.table for v in t.value.to_numpy().ravel()]
    assert any("turn 10" in s for s in shown)  # the tableau's values are among them
    assert not [s for s in shown if rule_ids(s)], [s for s in shown if rule_ids(s)]
