"""The "Fix" list of the table-ready issue (issue 19), each with a test that failed before:

1. a new game always gets sheets that fit its mode (co-op backs for co-op, C-BOARDS), even
   when the click on "Create game" carries the sheets of the mode shown before;
2. no co-op wording in base and solo games (heading, seat list, default title, page title,
   the outcome of a solo game: a score and a rating, no winner, R-SOLO-SCORE);
3. a cross whose colour no usable die shows is refused saying so (R-COLOUR / R-PASSIVE);
4. the turn-10 penalty (C-GOAL-10) comes with an even split filled in;
5. one dice order everywhere (yellow, green, blue, red, orange, X; 1..5, ?; R-DICE);
6. the Analytics histogram of completion turns is small multiples, not five overlaid series;
7. Streamlit's Deploy button and developer menu are hidden (``client.toolbarMode``);
8. no rule ids in player-facing text (only in "Why?" details and tooltips).

Every test has its own SQLite store and user folder (the ``env`` fixture of ``apptools``).
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from apptools import TABLE, app, env, no_exception, texts  # noqa: F401 (env: the fixture)
from nochmal.analytics import figures as F
from nochmal.engine.cells import COLOURS, names
from nochmal.engine.coop import CoopGame
from nochmal.engine.dice import COLOUR_JOKER, NUMBER_JOKER, Roll
from nochmal.engine.errors import IllegalMoveError
from nochmal.engine.game import CHANCE, TEAM, variant
from nochmal.engine.moves import PASS, Cross
from nochmal.engine.ruleids import words_and_rules
from nochmal.engine.sheet import get_sheet
from nochmal.store.session import GameSession
from nochmal.ui import tableview as tv
from nochmal.ui.labels import (COLOUR_ORDER, NUMBER_ORDER, colour_face_label, dice_text, number_face_label,
                               pass_label, sorted_dice)
from nochmal.ui.panels.decision import even_split

REPO = Path(__file__).resolve().parent.parent
#: A rule id of RULES.md (R-ADJ, C-GOAL-10, M5-...); "M1".."M5" alone where used as a rule id.
RULE_ID = re.compile(r"\b(?:R|C|M[1-5]?)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b|\(M[1-5]\)|\bM[1-5]:")
#: Column sequences such as N-O-C-H-M-A-L look like rule ids to the pattern above: not rule ids.
COLUMN_SEQUENCE = re.compile(r"\b[A-O](?:-[A-O]){2,}\b")


def rule_ids(text: str) -> list[str]:
    return RULE_ID.findall(COLUMN_SEQUENCE.sub("", text))


def load(store, gid: str) -> GameSession:
    return GameSession.load(store, gid)


def make(store, mode="coop", players=3, kind="companion", seed=None, mission=1) -> GameSession:
    game = tv.make_game(mode, tv.default_sheets(mode, players), mission)
    return GameSession.create(store, game, title="t", seat_names=[f"P{i + 1}" for i in range(players)],
                              kind=kind, seed=seed)


def cheapest_cross(state, seat):
    best = None
    for mv in state.legal_actions(seat):
        if isinstance(mv, Cross) and (best is None or mv.joker_cost < best.joker_cost):
            best = mv
    return best


def host_table(ses: GameSession):
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(TABLE).run()
    no_exception(at)
    return at


def sheet_ids_of(selectbox) -> list[str]:
    """The sheet ids a Start page sheet selectbox offers (its labels are "id — provenance")."""
    return [o.split(" — ")[0] for o in selectbox.options]


def is_coop_sheet(sid: str) -> bool:
    return get_sheet(sid).spec.coop is not None


# --------------------------------------------------------------------------- 1. sheets fit the mode
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


# --------------------------------------------------------------------------- 2. wording of the mode
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


def test_browser_tab_title_is_not_co_op_only():
    from nochmal.data import i18n
    from nochmal.ui.layout import PAGE_TITLE

    titles = [PAGE_TITLE]
    with i18n.using("de"):
        titles.append(i18n._(PAGE_TITLE))
    assert titles[1] != titles[0], titles  # the tab speaks the page's language
    assert all("co-op" not in t.lower() and "koop" not in t.lower() and "mission" not in t.lower() for t in titles), \
        titles


def test_solo_outcome_shows_score_and_rating_and_no_winner_R_SOLO_SCORE(env):
    ses = make(env, mode="solo", players=1, kind="digital", seed=2)
    while not ses.state.is_terminal():
        if ses.state.current_player() == CHANCE:
            ses.roll_digital()
        else:
            ses.record(cheapest_cross(ses.state, 0) or PASS, seat=0)
    at = host_table(ses)
    total = ses.state.outcome().scores[0].total
    done = [s for s in texts(at, "success") if "Game over" in s]
    assert done and all("Winner" not in s for s in done), done
    assert any(f"score: **{total}**" in s for s in done), done
    rating = [s for s in texts(at, "info") if "Solo rating" in s]
    assert rating and not any(rule_ids(s) for s in done + rating), done + rating
    whys = [e for e in at.expander if e.label.startswith("Why")]
    assert any("R-SOLO-SCORE" in c.value for e in whys for c in e.caption)  # the rule id, folded away


def test_base_game_outcome_still_names_the_winner(env):
    ses = make(env, mode="base", players=2, kind="digital", seed=9)
    while not ses.state.is_terminal():
        st_ = ses.state
        if st_.current_player() == CHANCE:
            ses.roll_digital()
        else:
            seat = tv.seats_to_decide(st_)[0]
            ses.record(cheapest_cross(st_, seat) or PASS, seat=seat)
    at = host_table(ses)
    done = [s for s in texts(at, "success") if "Game over" in s]
    assert any("Winner" in s for s in done) and not any(rule_ids(s) for s in done), done


# --------------------------------------------------------------------------- 3. no die of that colour
def blue_cell_in_h(sheet) -> int:
    return next(r * 15 + 7 for r in range(7) if COLOURS[sheet.colour_of[r * 15 + 7]] == "blue")


def base_state():
    return tv.make_game("base", ["standard", "standard"]).new_state()


def test_build_cross_refuses_a_colour_no_die_shows_R_COLOUR():
    """Blue cells tapped, no blue colour die and no X rolled: refused as "no blue colour die"
    (it used to guess the yellow die, and the engine then spoke of the yellow die)."""
    st_ = base_state()
    st_.apply(Roll.of([3, 0, 1], [1, 2, 3]))  # red, yellow, green | 1 2 3
    cell = 1 << blue_cell_in_h(st_.seats[0].sheet)
    with pytest.raises(IllegalMoveError) as err:
        tv.build_cross(st_, 0, cell)
    assert err.value.rule == "R-COLOUR"
    assert err.value.reason == "no blue colour die this roll (colour dice you may use: yellow, green, red)"
    assert "shows" not in err.value.reason


def test_build_cross_says_when_the_die_was_set_aside_R_PASSIVE():
    st_ = base_state()
    for _ in range(3):  # R-FIRST3: nothing is set aside in the first three rolls
        st_.apply(Roll.of([0, 1, 3], [1, 2, 3]))
        active = st_.active
        st_.apply(PASS, seat=active)
        st_.apply(PASS, seat=1 - active)
    st_.apply(Roll.of([2, 0, 1], [1, 2, 3]))  # blue, yellow, green: the only blue die
    active, passive = st_.active, 1 - st_.active
    # the active player takes blue + 2, so the passive one-cell cross still has its 1 (the count is
    # judged before the colour: issue 42)
    st_.apply(next(m for m in st_.legal_actions(active) if isinstance(m, Cross) and m.colour_die == 2
                   and m.number_die == 2), seat=active)
    with pytest.raises(IllegalMoveError) as err:
        tv.build_cross(st_, passive, 1 << blue_cell_in_h(st_.seats[passive].sheet))
    assert err.value.rule == "R-PASSIVE"
    assert err.value.reason == ("the blue colour die was set aside by the active player "
                                "(colour dice you may use: yellow, green)")


def test_build_cross_still_reads_cells_a_die_fits_R_COLOUR():
    st_ = base_state()
    st_.apply(Roll.of([5, 0, 1], [1, 2, 3]))  # an X: blue through the joker is legal
    h = blue_cell_in_h(st_.seats[0].sheet)
    move = tv.build_cross(st_, 0, 1 << h)
    assert move.colour_die == COLOUR_JOKER and COLOURS[move.colour] == "blue"


def test_the_table_page_refuses_a_cross_without_its_colour_die_in_words_R_COLOUR(env):
    ses = make(env, mode="base", players=2)
    ses.record(Roll.of([3, 0, 1], [1, 2, 3]))
    at = host_table(ses)
    cell = names(1 << blue_cell_in_h(ses.state.seats[0].sheet))[0]
    at.button(key=f"cell-0-{cell}").click().run()
    at.button(key="cross-btn").click().run()
    no_exception(at)
    errors = texts(at, "error")
    assert any("no blue colour die this roll" in e.lower() for e in errors), errors
    assert not any("colour die shows" in e for e in errors), errors
    assert load(env, ses.game_id).state.seats[0].crossed == 0


# --------------------------------------------------------------------------- 4. even split (C-GOAL-10)
@pytest.mark.parametrize("lefts, amount, split", [
    ([8, 8, 8], 6, [2, 2, 2]),
    ([8, 8, 8], 7, [3, 2, 2]),     # the remainder to the earlier seat when "!" left are equal
    ([6, 8, 8], 7, [2, 3, 2]),     # ... to the seat with most "!" left
    ([1, 8, 8], 6, [1, 3, 2]),     # never more than a seat has left
    ([0, 2, 8], 9, [0, 2, 7]),
    ([3, 3], 10, [3, 3]),          # fewer "!" than demanded: every one left
])
def test_even_split_C_GOAL_10(lefts, amount, split):
    assert even_split(lefts, amount) == split


def drive_to_decision(ses, limit=400):
    for _ in range(limit):
        st_ = ses.state
        if st_.current_player() == TEAM or st_.is_terminal():
            return
        if st_.current_player() == CHANCE:
            ses.roll_digital()
        else:
            seat = tv.seats_to_decide(st_)[0]
            small = [m for m in st_.legal_actions(seat) if isinstance(m, Cross) and m.count == 1 and not m.joker_cost]
            ses.record(small[0] if small else cheapest_cross(st_, seat) or PASS, seat=seat)


def test_turn_10_penalty_comes_with_an_even_split_one_tap_to_confirm_C_GOAL_10(env):
    ses = make(env, kind="digital", seed=11)
    drive_to_decision(ses)
    d = ses.state.extra.get("decision")
    assert d and d["kind"] == "strike_jokers", ses.state.extra
    lefts = [s.jokers_left for s in ses.state.seats]
    at = host_table(ses)
    values = [at.number_input(key=f"strike-{i}").value for i in range(3)]
    assert values == even_split(lefts, d["amount"]) and sum(values) == d["amount"]
    assert all(v <= left for v, left in zip(values, lefts))
    assert not at.button(key="strike-btn").disabled
    # still editable: a changed split is kept over reruns and checked against the amount
    at.number_input(key="strike-0").set_value(values[0] + 1).run()
    assert at.number_input(key="strike-0").value == values[0] + 1 and at.button(key="strike-btn").disabled
    at.number_input(key="strike-0").set_value(values[0]).run()
    at.button(key="strike-btn").click().run()
    no_exception(at)
    ses = load(env, ses.game_id)
    assert [s.jokers_left for s in ses.state.seats] == [left - v for left, v in zip(lefts, values)]


# --------------------------------------------------------------------------- 5. one dice order (R-DICE)
def test_the_dice_order_is_the_colour_faces_order():
    assert [COLOURS[f] if f != COLOUR_JOKER else "X" for f in COLOUR_ORDER] == \
        ["yellow", "green", "blue", "red", "orange", "X"]
    assert list(NUMBER_ORDER) == [1, 2, 3, 4, 5, NUMBER_JOKER]
    assert sorted_dice([5, 3, 0, 2], [0, 4, 1]) == ([0, 2, 3, 5], [1, 4, 0])


def test_dice_text_shows_the_dice_in_the_one_order():
    text = dice_text([5, 2, 0], [0, 3, 1])  # X, blue, yellow | ?, 3, 1 as rolled
    colours, numbers = text.split("|")
    where = [colours.index(colour_face_label(f)) for f in (0, 2, 5)]
    assert where == sorted(where), text
    assert numbers.split() == ["**1**", "**3**", "**?**"]


def test_every_dice_widget_and_list_uses_the_one_order(env):
    ses = make(env, mode="coop", players=3)
    at = host_table(ses)  # the roll entry
    for i in range(3):
        assert at.button_group(key=f"roll-c-{i}").options == [colour_face_label(f) for f in COLOUR_ORDER]
        assert at.button_group(key=f"roll-n-{i}").options == [number_face_label(f) for f in NUMBER_ORDER]
    ses.record(Roll.of([5, 2, 0], [0, 3, 1]))  # X, blue, yellow | ?, 3, 1
    at.run()
    no_exception(at)
    cs, ns = sorted_dice([5, 2, 0], [0, 3, 1])
    assert at.button_group(key="pick-c-0").options == [colour_face_label(f) for f in cs]  # the dice picker
    assert at.button_group(key="pick-n-0").options == [number_face_label(f) for f in ns]
    rolled = [m for m in texts(at, "markdown") if m.startswith("**Roll 1**")]
    assert rolled and dice_text(cs, ns) in rolled[0], rolled


# --------------------------------------------------------------------------- 6. the completion histogram
def test_completion_turns_is_one_panel_per_mission_not_an_overlay():
    rows = [{"mission": m, "players": 3, "won": True, "policy": "greedy", "turns": t}
            for m in range(1, 6) for t in (10 + m, 14 + m, 20 + m)]
    rows += [{"mission": 1, "players": 3, "won": False, "policy": "greedy", "turns": 27}]
    fig = F.completion_turns(pd.DataFrame(rows))
    assert len(fig.data) == 5 and fig.layout.barmode != "overlay"
    assert len({t.yaxis for t in fig.data}) == 5, "each mission on its own panel"
    assert {t.name for t in fig.data} == {f"M{m}" for m in range(1, 6)}
    assert all(len(t.x) == 3 for t in fig.data)  # won games only
    assert all(t.opacity in (None, 1) for t in fig.data)


# --------------------------------------------------------------------------- 7. no developer tools
def test_config_hides_deploy_and_the_developer_menu():
    from streamlit import config

    cfg = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert cfg["client"]["toolbarMode"] == "viewer"
    assert '"viewer"' in config._config_options_template["client.toolbarMode"].description


# --------------------------------------------------------------------------- 8. no rule ids in player text
def test_the_pass_button_says_failed_roll_in_words_C_FAIL():
    coop = CoopGame.create(3, 1)
    assert pass_label(coop) == "Failed roll"
    assert pass_label(variant("base").create(2)) == "Pass"


def test_words_and_rules_takes_the_rule_ids_out_of_engine_texts():
    assert words_and_rules("mission complete (C-WIN)") == ("mission complete", ["C-WIN"])
    assert words_and_rules("30 rolls played (R-SOLO-LEN)") == ("30 rolls played", ["R-SOLO-LEN"])
    assert words_and_rules("second colour completed") == ("second colour completed", [])


def test_start_page_texts_have_no_rule_ids(env):
    at = app()
    shown = texts(at, "title") + texts(at, "markdown") + texts(at, "caption")
    shown += [str(v) for t in at.table for v in t.value.to_numpy().ravel()]
    assert any("turn 10" in s for s in shown)  # the tableau's values are among them
    assert not [s for s in shown if rule_ids(s)], [s for s in shown if rule_ids(s)]


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
            seat = tv.seats_to_decide(ses.state)[0]
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


def test_penalty_panels_speak_in_words_and_keep_the_rule_in_why_C_GOAL_10_C_GOAL_19(env):
    ses = make(env, kind="digital", seed=11)
    drive_to_decision(ses)
    at = host_table(ses)
    heads = [s for s in texts(at, "subheader") if s.startswith("Goal after turn 10 missed")]
    assert heads and not rule_ids(heads[0]), texts(at, "subheader")
    assert not [s for s in texts(at, "markdown") if "Strike" in s and rule_ids(s)]
    whys = [e for e in at.expander if e.label.startswith("Why")]
    assert any("C-GOAL-10" in c.value for e in whys for c in e.caption)
    at.button(key="strike-btn").click().run()
    done = [s for s in texts(at, "success") if "struck" in s]
    assert done and not any(rule_ids(s) for s in done), done
    drive_to_decision(load(env, ses.game_id))
    ses = load(env, ses.game_id)
    if (ses.state.extra.get("decision") or {}).get("kind") != "remove_die":
        pytest.skip("this seed's team met the goal after turn 19")
    at.run()
    heads = [s for s in texts(at, "subheader") if s.startswith("Goal after turn 19 missed")]
    assert heads and not rule_ids(heads[0]), texts(at, "subheader")
    at.button(key="remove-colour").click().run()
    done = [s for s in texts(at, "success") if "leaves the game" in s]
    assert done and not any(rule_ids(s) for s in done), done


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


# --------------------------------------------------------------------------- toasts at the end
def step(ses) -> None:
    """One entry of a digital co-op game: the roll, the team's first penalty choice, or the
    cheapest cross (a failed roll when there is none)."""
    st_ = ses.state
    if st_.current_player() == CHANCE:
        ses.roll_digital()
    elif st_.current_player() == TEAM:
        ses.record(st_.legal_actions(TEAM)[0], TEAM)
    else:
        seat = tv.seats_to_decide(st_)[0]
        ses.record(cheapest_cross(st_, seat) or PASS, seat=seat)


def test_news_comes_as_toasts_during_the_game_and_not_over_the_outcome(env):
    ses = make(env, mode="coop", players=2, kind="digital", seed=4)
    at = host_table(ses)  # the page has seen the game: later events bring toasts
    toasted = False
    while not ses.state.is_terminal():
        step(ses)
        if not toasted and not ses.state.is_terminal() and tv.news(ses.game, ses.events, ses.seat_names):
            at.run()  # mid-game: the first news comes as a toast
            assert at.toast, "news during the game comes as a toast"
            toasted = True
    at.run()
    no_exception(at)
    assert any(s.startswith(("🎉 The team WON", "The team lost")) for s in texts(at, "success") + texts(at, "error"))
    assert not at.toast, [t.value for t in at.toast]


# --------------------------------------------------------------------------- the phone's side column
def test_the_phone_side_column_counts_without_boxes_so_it_fits_844x390_C_FAIL():
    from nochmal.ui.panels.seats import seat_status_html

    st_ = tv.make_game("coop", tv.default_sheets("coop", 2), 1).new_state()
    wide, narrow = seat_status_html(st_, 0), seat_status_html(st_, 0, compact=True)
    jokers = st_.seats[0].sheet.jokers
    assert wide.count(">!</span>") == jokers and "failed rolls: <b>0/3</b>" in wide
    assert ">!</span>" not in narrow and "border:2px solid #c62828" not in narrow  # no boxes to wrap
    assert f"<b>{jokers}</b>/{jokers}" in narrow and "failed rolls: <b>0/3</b>" in narrow
    assert not rule_ids(wide + narrow)  # the tooltip says it in words


# --------------------------------------------------------------------------- the goal checks at the end
def test_the_outcome_names_every_check_s_penalty_C_GOAL_27(env):
    """A missed turn-27 goal costs every seat a failed roll: the outcome says so (it used to show
    "-", which the table drew as a bullet), and a met check shows a dash."""
    for seed in range(1, 40):  # the first seeded game that reaches the last check and misses it
        ses = make(env, mode="coop", players=3, kind="digital", seed=seed)
        while not ses.state.is_terminal():
            step(ses)
        checks = ses.state.outcome().to_json()["checks"]
        if "27" in checks and not checks["27"]["met"]:
            break
    assert "27" in checks and not checks["27"]["met"], checks
    at = host_table(ses)
    table = next(t.value for t in at.table if "penalty" in t.value.columns)
    penalties = dict(zip(table["after turn"].astype(int), table["penalty"]))
    assert penalties[27] == "a failed roll for every seat", penalties
    assert all(p not in ("-", "") for p in penalties.values()), penalties
