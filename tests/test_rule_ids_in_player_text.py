"""No rule ids in player-facing text (issue 19): the pages and panels speak in words; rule ids
(R-ADJ, C-GOAL-10, M5-...) appear only in "Why?" details and tooltips.

Every page test has its own SQLite store and user folder (the ``env`` fixture of ``apptools``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pandas as pd
import pytest

from apptools import app, env, no_exception, texts  # noqa: F401 (env: the fixture)
from nochmal.engine.coop import CoopGame
from nochmal.engine.dice import Roll
from nochmal.engine.game import CHANCE, variant
from nochmal.engine.moves import PASS
from nochmal.engine.ruleids import words_and_rules
from nochmal.ui import entry
from nochmal.ui.labels import pass_label
from pagegames import cheapest_cross, host_table, make, rule_ids

REPO = Path(__file__).resolve().parent.parent


def test_the_pass_button_says_failed_roll_in_words_C_FAIL():
    coop = CoopGame.create(3, 1)
    assert pass_label(coop) == "Failed roll"
    assert pass_label(variant("base").create(2)) == "Pass"


def test_words_and_rules_takes_the_rule_ids_out_of_engine_texts():
    assert words_and_rules("mission complete (C-WIN)") == ("mission complete", ["C-WIN"])
    assert words_and_rules("30 rolls played (R-SOLO-LEN)") == ("30 rolls played", ["R-SOLO-LEN"])
    assert words_and_rules("second colour completed") == ("second colour completed", [])


SHOWN_KINDS = ("title", "subheader", "markdown", "caption", "info", "warning", "success", "error")
SHEETS, TABLEAUS, ANALYTICS = (f"nochmal/ui/pages/{p}.py" for p in ("sheets", "tableaus", "dashboard"))
SHIPPED_SWEEP = REPO / "docs" / "calibration-sweep.parquet"


def shown_outside_why(at) -> list[str]:
    """The words a page shows (titles, Markdown, captions, alerts, table cells), except what a
    "Why?" detail holds (rule ids belong there)."""
    why = {id(e) for x in at.expander if x.label.startswith("Why") for k in SHOWN_KINDS for e in getattr(x, k)}
    out = [str(e.value) for k in SHOWN_KINDS for e in getattr(at, k) if id(e) not in why]
    return out + [str(v) for t in at.table for v in t.value.to_numpy().ravel()]


def with_rule_ids(texts_: list[str]) -> list[str]:
    return [s for s in texts_ if rule_ids(s)]


def test_sheets_tableaus_and_analytics_pages_show_no_rule_ids(env):
    """The Sheets, Tableaus and Analytics pages speak in words, also where they pass on an
    engine's or a file check's message (a tableau track refused by C-TRACK, a broken user
    sheet, games that ended by C-FAIL ...); the rule ids only in a "Why?" detail or a tooltip."""
    from nochmal.analytics.sweep import read_rows
    from nochmal.engine.sheet import user_boards_dir

    user_boards_dir().mkdir(parents=True, exist_ok=True)
    (user_boards_dir() / "broken.toml").write_text('id = "broken"\nname = "broken"\ngrid = ["yyy"]\n',
                                                   encoding="utf-8")
    at = app()
    at.switch_page(SHEETS).run()
    no_exception(at)
    shown = shown_outside_why(at)
    assert "Sheets" in shown
    at.selectbox(key="view_sheet").set_value("broken").run()
    errors = texts(at, "error")
    assert any("cannot be used" in e for e in errors), errors
    shown += shown_outside_why(at)

    at.switch_page(TABLEAUS).run()
    no_exception(at)
    page = shown_outside_why(at)
    assert any("turn 10" in s for s in page) and any("Track: none given" in s for s in page)  # table, caption
    at.text_input(key="tab3_track").set_value("1 2 3")
    at.button(key="tab3_save").click().run()
    refused = [e for e in texts(at, "error") if "track" in e]
    assert refused, texts(at, "error")  # the engine's C-TRACK message, in words
    shown += page + shown_outside_why(at)

    at.switch_page(ANALYTICS).run()
    no_exception(at)
    shown += shown_outside_why(at)
    if not SHIPPED_SWEEP.is_file():
        pytest.skip("docs/calibration-sweep.parquet is not shipped")
    games = pd.DataFrame(read_rows(SHIPPED_SWEEP)).groupby(["mission", "players"]).head(3)
    assert set(games["reason"]) >= {"a third failed roll (C-FAIL)", "mission complete (C-WIN)"}
    older = games.assign(rules_version=1, policy="random", won=False,
                         reason="mission not complete after turn 26 (C-LOSE)")  # a text no chart knows
    at.session_state["dash_rows"] = pd.concat([games, older]).to_dict(orient="records")
    at.session_state["dash_source"] = "a test"
    at.run()
    no_exception(at)
    page = shown_outside_why(at)
    assert any("rules version 1" in w for w in texts(at, "warning")), texts(at, "warning")
    assert any("Why games were lost" in m for m in page)  # the calibration report, with the engine's reasons
    shown += page
    assert not with_rule_ids(shown), with_rule_ids(shown)
    charts = {c.proto.id.rsplit("-", 1)[-1]: c.proto.spec for c in at.get("plotly_chart")}
    assert {"fig_heatmap", "fig_losses", "fig_turns", "fig_policies"} <= set(charts), list(charts)
    assert not {k: rule_ids(v) for k, v in charts.items() if rule_ids(v)}  # titles, labels, legends


def test_dice_panel_explains_in_words_R_ORDER_R_FIRST3_R_PASSIVE(env):
    ses = make(env, mode="coop", players=3)
    ses.record(Roll.of([0, 1, 2], [1, 2, 3]))
    at = host_table(ses)
    lines = [m for m in texts(at, "markdown") if "(passive)" in m]
    assert any("waits for the active seat" in m for m in lines), lines
    first3 = [c for c in texts(at, "caption") if c.startswith("First three rolls")]
    assert first3 and not rule_ids(first3[0])
    # the roll after the first three: the active seat's dice are set aside
    for _ in range(3):
        if ses.state.current_player() == CHANCE:  # roll 1 is rolled already
            ses.record(Roll.of([0, 1, 2], [1, 2, 3]))
        while ses.state.current_player() >= 0:
            seat = entry.seats_to_decide(ses.state)[0]
            ses.record(cheapest_cross(ses.state, seat) or PASS, seat=seat)
    assert ses.state.roll_index == 3 and ses.state.current_player() == CHANCE
    ses.record(Roll.of([0, 1, 2], [1, 2, 3]))
    ses.record(cheapest_cross(ses.state, ses.state.active), seat=ses.state.active)
    at.run()
    no_exception(at)
    aside = [c for c in texts(at, "caption") if c.startswith("Set aside by the active seat")]
    assert aside and not rule_ids(aside[0]), aside
    panel = "\n".join(m for m in texts(at, "markdown") if "(passive)" in m or "(active)" in m)
    assert not rule_ids(panel), panel


def test_enter_roll_without_faces_refused_in_words_R_ROLL(env):
    ses = make(env, mode="coop", players=3)
    at = host_table(ses)
    at.button(key="roll-enter").click().run()
    errors = texts(at, "error")
    assert any("choose the face of every die" in e.lower() for e in errors), errors
    assert not any(rule_ids(e) for e in errors), errors


def test_no_rule_ids_in_player_strings_of_the_panels():
    """The player-facing strings of these modules (their string constants, docstrings and
    comments aside) cite no rule id, except inside a "Why?" detail or a help= tooltip."""
    files = ["nochmal/ui/labels.py"] + [
        f"nochmal/ui/pages/{p}.py" for p in ("start", "sheets", "tableaus", "dashboard")] + [
        f"nochmal/ui/panels/{p}.py" for p in ("dice", "decision", "outcome", "track", "mission", "team_plan",
                                              "advisor", "undo")]
    found = []
    for f in files:
        tree = ast.parse((REPO / f).read_text(encoding="utf-8"))
        allowed = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Module)) and node.body and \
                    isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
                allowed.add(id(node.body[0].value))  # a docstring
            if isinstance(node, ast.keyword) and node.arg in ("help", "rule"):
                allowed |= {id(n) for n in ast.walk(node.value)}
            if isinstance(node, ast.With) and any(
                    isinstance(i.context_expr, ast.Call) and i.context_expr.args and
                    isinstance(i.context_expr.args[0], ast.Constant) and
                    str(i.context_expr.args[0].value).startswith("Why") for i in node.items):
                allowed |= {id(n) for n in ast.walk(node)}
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_why":
                allowed |= {id(n) for n in ast.walk(node)}
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "compile":
                allowed |= {id(n) for n in ast.walk(node)}  # a pattern, not words
            if isinstance(node, ast.Compare):  # a comparison with a rule id is no text shown
                allowed |= {id(n) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in allowed:
                if rule_ids(node.value):
                    found.append(f"{f}:{node.lineno}: {node.value!r}")
    assert not found, "\n".join(found)
