"""The advisor and the team plan in the app (Streamlit AppTest, by widget key).

Each test has its own SQLite store and user folder (``NOCHMAL_DB``, ``NOCHMAL_HOME``). Games
are created through ``GameSession`` and rolls entered through it; the page is then driven by
its widgets: the "advisor-on" toggle, the "advise-{seat}-{i}" Use buttons, "cross-btn".
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from streamlit.testing.v1 import AppTest

from apptools import APP, HISTORY, START, TABLE, app, env, keys, no_exception, path_of, texts  # noqa: F401
from nochmal.ui import newgame
from nochmal.engine.cells import mask_of, names
from nochmal.engine.dice import Roll
from nochmal.store.events import CrossEvent, PassEvent
from nochmal.engine.moves import PASS, Cross
from nochmal.bots.plan import team_plan
from nochmal.store.session import GameSession
from nochmal.store.db import GameStore
from nochmal.ui.advice_words import headline, verdict
from nochmal.ui.explain import cell_label



def table(ses: GameSession, **extra) -> AppTest:
    at = app({"game": ses.game_id, "code": ses.meta["host_code"], **extra})
    return at.switch_page(TABLE).run()


def make(store, mode="coop", players=3, kind="companion", bots=None, seed=None, mission=1) -> GameSession:
    game = newgame.make_game(mode, newgame.default_sheets(mode, players), mission)
    return GameSession.create(store, game, title="t", seat_names=[f"P{i + 1}" for i in range(players)],
                              kind=kind, seed=seed, bots=bots)


def load(store, gid) -> GameSession:
    return GameSession.load(store, gid)


def cached(at: AppTest, ses: GameSession, seat: int) -> list:
    return at.session_state["advice-cache"][(ses.game_id, ses.n_events, seat)]


def advisor_on(at: AppTest) -> AppTest:
    at.toggle(key="advisor-on").set_value(True).run()
    no_exception(at)
    return at


def advisor_box(at: AppTest, heading: str = "**Advisor — "):
    """The advisor's bordered box: the block that holds its "**Advisor — …**" headings."""
    def walk(node):
        kids = list((getattr(node, "children", None) or {}).values())
        if any(getattr(k, "type", "") == "markdown" and str(k.value).startswith(heading) for k in kids):
            return node
        for k in kids:
            found = walk(k)
            if found is not None:
                return found
        return None

    box = walk(at._tree)
    assert box is not None
    return box


def elements(node, kind: str) -> list:
    out = []
    for k in (getattr(node, "children", None) or {}).values():
        if getattr(k, "type", "") == kind:
            out.append(k)
        out += elements(k, kind)
    return out


def lines_and_details(at: AppTest) -> tuple[list[str], list[str], list[str]]:
    """The advisor's box: its numbered one-line suggestions, the text under each "Why?" expander,
    and the notes said once (italic lines)."""
    box = advisor_box(at)
    md = [m.value for m in elements(box, "markdown")]
    lines = [m for m in md if re.match(r"\*\*\d+\.\*\* ", m)]
    whys = [e for e in elements(box, "expander") if e.label == "Why?"]
    details = ["\n".join(m.value for m in elements(e, "markdown")) for e in whys]
    notes = [m for m in md if m.startswith("*") and not m.startswith("**")]
    return lines, details, notes


# --------------------------------------------------------------------------- the advisor
def test_advisor_is_off_by_default_and_lists_three_moves_for_the_deciding_seat(env):
    ses = make(env)
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    at = table(ses)
    no_exception(at)
    assert at.toggle(key="advisor-on").value is False
    assert not any(k.startswith("advise-") for k in keys(at))
    where = {k: path_of(at, k) for k in ("cross-btn", "clear-btn", "cell-0-H1")}
    advisor_on(at)
    # switching the advisor on moves none of the entry controls below it
    assert {k: path_of(at, k) for k in where} == where and None not in where.values()
    ses = load(env, ses.game_id)
    sug = cached(at, ses, 0)
    assert 1 <= len(sug) <= 3
    assert {f"advise-0-{i}" for i in range(len(sug))} <= keys(at)
    assert not any(k.startswith(("advise-1-", "advise-2-")) for k in keys(at))  # only the active seat decides
    assert all(at.button(key=f"advise-0-{i}").label == "Use" for i in range(len(sug)))
    md = "\n".join(texts(at, "markdown"))
    assert "Advisor — 1. P1" in md
    sheet = ses.game.sheets[0]
    assert tuple(sheet.spec.row_labels) == tuple("PQRSTUV")
    # one short line per suggestion, in the players' words: the move and why, no statistics
    lines, details, notes = lines_and_details(at)
    assert len(lines) == len(details) == len(sug)
    for i, (s, ln, why) in enumerate(zip(sug, lines, details)):
        assert s.action in ses.state.legal_actions(0)
        assert ln == f"**{i + 1}.** " + headline(ses.game, s, ["P1", "P2", "P3"])
        assert ln.startswith(f"**{i + 1}.** Take ") and ": " in ln and len(ln.split()) <= 20
        assert "win chance" not in ln and "%" not in ln and "rollouts" not in ln and "games played" not in ln
        # cells named as the co-op sheet names its rows (P-V), not by the engine's row numbers
        assert "-".join(cell_label(sheet, c) for c in s.cells) in ln
        assert not s.cells or "-".join(s.cells) not in md
        # the statistics under "Why?": win chance, its interval, the games played out, all it does
        assert "win chance" in why and "95% interval" in why and f"{s.rollouts} games played out" in why
        assert s.reason in why
    assert len(notes) == (1 if verdict(sug) else 0) and all(n == f"*{verdict(sug)}*" for n in notes)
    # a rerun (any click) does not compute again: the same objects come from the session cache
    at.run()
    assert cached(at, ses, 0)[0] is sug[0]
    # the existing controls are all still there
    assert {"cross-btn", "clear-btn", "fail-btn", "cell-0-H1"} <= keys(at)


def test_use_fills_the_move_and_cross_records_exactly_that_move(env):
    ses = make(env)
    ses.record(Roll.parse(["green", "yellow", "X"], [1, 3, "?"]))
    at = advisor_on(table(ses))
    ses = load(env, ses.game_id)
    chosen = next(s for s in cached(at, ses, 0) if isinstance(s.action, Cross))
    i = cached(at, ses, 0).index(chosen)
    at.button(key=f"advise-0-{i}").click().run()
    no_exception(at)
    move = chosen.action
    assert sorted(at.session_state["selected_cells"]) == sorted(names(move.cells))
    assert at.session_state["pick-c-0"] == move.colour_die and at.session_state["pick-n-0"] == move.number_die
    assert any("Press **Cross**" in t or "Press Cross" in t for t in texts(at, "info"))
    assert not at.button(key="cross-btn").disabled
    n = ses.n_events
    at.button(key="cross-btn").click().run()
    no_exception(at)
    ses = load(env, ses.game_id)
    assert ses.n_events == n + 1
    ev = ses.events[-1]
    assert isinstance(ev, CrossEvent) and ev.seat == 0
    assert ses.state.active_move == move  # the very move suggested: cells, colour, both dice
    assert ses.state.seats[0].crossed == move.cells


def test_passive_seats_each_get_advice_and_use_switches_the_entry_seat(env):
    ses = make(env)
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    ses.record(Cross(1, 1, 1, mask_of(["H1"])), seat=0)  # green H1
    at = advisor_on(table(ses))
    ses = load(env, ses.game_id)
    assert ses.state.pending == [1, 2]
    ks = keys(at)
    assert "advise-1-0" in ks and "advise-2-0" in ks
    md = "\n".join(texts(at, "markdown"))
    assert "Advisor — 2. P2" in md and "Advisor — 3. P3" in md
    # the host enters for seat 2 now; Use on seat 3's suggestion switches to seat 3 and fills it in
    sug = cached(at, ses, 2)
    pick = next((s for s in sug if isinstance(s.action, Cross)), None)
    assert pick is not None
    at.button(key=f"advise-2-{sug.index(pick)}").click().run()
    no_exception(at)
    assert at.button_group(key="entry-seat").value == 2
    assert sorted(at.session_state["selected_cells"]) == sorted(pick.cells)
    assert any("3. P3 decides" in m for m in texts(at, "markdown"))
    at.button(key="cross-btn").click().run()
    no_exception(at)
    ses = load(env, ses.game_id)
    ev = ses.events[-1]
    assert isinstance(ev, CrossEvent) and ev.seat == 2
    assert ses.state.seats[2].crossed == pick.action.cells and ses.state.pending == [1]


def test_a_joined_device_gets_advice_only_for_its_own_seat(env):
    ses = make(env)
    code = ses.claim_seat(1, "other-device")
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    at = app({"game": ses.game_id, "code": code, "seat": "2"})
    at.switch_page(TABLE).run()
    advisor_on(at)
    assert not any(k.startswith("advise-") for k in keys(at))  # the active seat 1 decides first
    assert any("nothing to suggest" in c for c in texts(at, "caption"))
    ses = load(env, ses.game_id)
    ses.record(next(a for a in ses.state.legal_actions(0) if isinstance(a, Cross)), seat=0)
    at.run()
    no_exception(at)
    ks = keys(at)
    assert "advise-1-0" in ks and not any(k.startswith(("advise-0-", "advise-2-")) for k in ks)


def test_advisor_stays_on_across_rolls(env):
    ses = make(env, players=1, kind="digital", seed=4)
    at = table(ses)
    at.button(key="roll-digital").click().run()
    advisor_on(at)
    assert "advise-0-0" in keys(at)
    at.button(key="advise-0-0").click().run()
    if at.session_state["selected_cells"]:
        at.button(key="cross-btn").click().run()
    else:
        at.button(key="fail-btn").click().run()
    no_exception(at)
    assert "roll-digital" in keys(at)  # the next roll is due: nothing to advise on
    at.button(key="roll-digital").click().run()
    no_exception(at)
    assert at.toggle(key="advisor-on").value is True and "advise-0-0" in keys(at)


def test_a_forced_failed_roll_is_advised_and_use_points_to_the_button(env):
    # sheet I: the only green cell of the start column (H1) is a block of one, so green + 5 has no move
    ses = make(env, players=1)
    ses.record(Roll.parse(["green"] * 3, [5, 5, 5]))
    assert list(ses.state.legal_actions(0)) == [PASS]
    at = advisor_on(table(ses))
    ses = load(env, ses.game_id)
    sug = cached(at, ses, 0)
    assert [s.action for s in sug] == [PASS]
    assert "no move with these dice" in sug[0].reason and "failed roll (1/3)" in sug[0].reason
    assert 0.0 <= sug[0].win_chance <= 1.0
    lines, details, notes = lines_and_details(at)
    assert lines == ["**1.** Failed roll: no move with these dice; 1 of 3 failed rolls"] and not notes
    assert "failed roll" in details[0] and "no move with these dice" in details[0]
    at.button(key="advise-0-0").click().run()
    no_exception(at)
    assert at.session_state["selected_cells"] == []
    assert any("Press the Failed roll button" in t for t in texts(at, "info"))
    at.button(key="fail-btn").click().run()
    ses = load(env, ses.game_id)
    assert isinstance(ses.events[-1], PassEvent) and ses.state.seats[0].failed == 1


def test_base_game_advice_estimates_the_final_score(env):
    ses = make(env, mode="base", players=2)
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    at = advisor_on(table(ses))
    lines, details, _ = lines_and_details(at)
    assert lines and all(ln.split("** ", 1)[1].startswith("Take ") for ln in lines)
    assert all("estimated final score" in d and "win chance" not in d for d in details)
    assert "advise-0-0" in keys(at)


@pytest.mark.parametrize("groups,note", [((0, 0, 0), "Three equally good moves"),
                                         ((0, 1, 2), "The first move is the best.")])
def test_moves_within_the_noise_are_said_to_be_equally_good_once(env, monkeypatch, groups, note):
    """The note follows the suggestions' groups (the paired rollouts): three moves in one group are
    "three equally good moves", said once above the lines (German too), not ranked 1-2-3."""
    from nochmal.bots import advice

    real = advice.suggestions

    def grouped(*args, **kwargs):
        return [dataclasses.replace(s, group=g) for s, g in zip(real(*args, **kwargs), groups)]

    monkeypatch.setattr(advice, "suggestions", grouped)
    ses = make(env)
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    at = advisor_on(table(ses))
    lines, details, notes = lines_and_details(at)
    assert len(lines) == 3 and len(details) == 3
    assert len(notes) == 1 and notes[0].startswith(f"*{note}")
    assert sum(note in m for m in texts(at, "markdown")) == 1  # said once
    de = advisor_on(table(ses, lang="de"))
    box = advisor_box(de, "**Ratgeber — ")
    md = [m.value for m in elements(box, "markdown")]
    want = "*Drei gleich gute Züge: " if groups == (0, 0, 0) else "*Der erste Zug ist der beste.*"
    assert sum(m.startswith(want) for m in md) == 1
    assert [e.label for e in elements(box, "expander")] == ["Warum?"] * 3
    lines = [m for m in md if re.match(r"\*\*\d\.\*\* ", m)]
    assert len(lines) == 3 and all(re.match(r"\*\*\d\.\*\* Nimm (Gelb|Grün|Blau|Rot|Orange) \d \(", m) for m in lines)


# --------------------------------------------------------------------------- the team plan
def plan_rows(block) -> list[dict]:
    """The team plan's Markdown table (inside ``block``) as rows of {column: text}."""
    md = next(m.value for m in block.markdown if m.value.startswith("| seat |"))
    lines = [re.split(r"(?<!\\)\|", ln.strip()[1:-1]) for ln in md.splitlines()]  # "\|" is a "|" in a cell
    head = [h.strip() for h in lines[0]]
    return [dict(zip(head, (c.strip() for c in ln))) for ln in lines[2:]]


def test_team_plan_preview_on_the_start_page(env):
    at = app()
    no_exception(at)
    labels = [e.label for e in at.expander]
    assert "Team plan for this mission" in labels
    exp = at.expander[labels.index("Team plan for this mission")]
    plan = team_plan(newgame.make_game("coop", newgame.default_sheets("coop", 3), 1))
    md = "\n".join(m.value for m in exp.markdown)
    assert plan["notes"][0] in md
    rows = plan_rows(exp)
    assert [r["seat"] for r in rows] == ["1", "2", "3"]
    assert [r["player"] for r in rows] == ["Player 1", "Player 2", "Player 3"]
    assert [r["colours"] for r in rows] == [", ".join(s["colours"]) or "—" for s in plan["seats"]]
    assert set(rows[0]) == {"seat", "player", "colours"}  # only the kinds mission 1 asks for
    # it follows the choices: mission 4 (number fields + rows), 4 players, digital with a bot
    at.text_input(key="new-name-0").set_value("Ada | Lovelace").run()
    at.selectbox(key="new-players").set_value(4).run()
    at.selectbox(key="new-mission").set_value(4).run()
    at.radio(key="new-kind").set_value("digital").run()
    at.selectbox(key="new-bot-1").set_value("greedy").run()
    no_exception(at)
    exp = [e for e in at.expander if e.label == "Team plan for this mission"][0]
    rows = plan_rows(exp)
    assert len(rows) == 4 and {"number fields", "rows"} <= set(rows[0])
    assert rows[0]["player"] == "Ada \\| Lovelace"  # a "|" in a name does not break the table
    assert rows[1]["player"].endswith("🤖") and not rows[0]["player"].endswith("🤖")
    plan4 = team_plan(newgame.make_game("coop", newgame.default_sheets("coop", 4), 4))
    want = [", ".join(map(str, s["number_fields"])) or "—" for s in plan4["seats"]]
    assert [r["number fields"] for r in rows] == want
    assert any("Bots in this game follow this plan" in c.value for c in exp.caption)
    # no plan for the base game (no mission)
    at.radio(key="new-mode").set_value("base").run()
    assert "Team plan for this mission" not in [e.label for e in at.expander]


def test_team_plan_on_the_table_page(env):
    ses = make(env, kind="digital", seed=2, bots=[None, "greedy", "greedy"], mission=3)
    at = table(ses)
    no_exception(at)
    exp = [e for e in at.expander if e.label == "Team plan"]
    assert exp, [e.label for e in at.expander]
    plan = team_plan(ses.game)
    md = "\n".join(m.value for m in exp[0].markdown)
    assert all(note in md for note in plan["notes"])
    rows = plan_rows(exp[0])
    assert [r["star columns"] for r in rows] == [", ".join(s["star_columns"]) for s in plan["seats"]]
    assert [r["player"] for r in rows] == ["P1", "P2 🤖", "P3 🤖"]
    assert any("Bots in this game follow this plan" in c.value for c in exp[0].caption)
    assert not at.table  # the plan adds no st.table: the page's own tables keep their positions
    # a companion game: the plan is a suggestion for the people at the table
    ses2 = make(env, mission=5)
    at2 = table(ses2)
    exp2 = [e for e in at2.expander if e.label == "Team plan"][0]
    assert not any("Bots" in c.value for c in exp2.caption)
    want = ["-".join(s["columns"]) or "—" for s in team_plan(ses2.game)["seats"]]
    assert [r["columns (in order)"] for r in plan_rows(exp2)] == want and "N-O-C-H-M-A-L" in want
