"""The game screens (Start, Table, History) driven through Streamlit's AppTest, by widget key.

Every test gets its own SQLite store and user folder (``NOCHMAL_DB``, ``NOCHMAL_HOME``). Games
are created through the page's widgets where the flow is the point, and directly through
``GameSession`` where only a position is needed.
"""

from __future__ import annotations

import json
import random

import pytest
from streamlit.testing.v1 import AppTest

from apptools import APP, HISTORY, START, TABLE, app, env, keys, no_exception, path_of, texts  # noqa: F401
from nochmal.ui import botplay, entry
from nochmal.engine.cells import names
from nochmal.engine.dice import Roll
from nochmal.engine.game import CHANCE, TEAM
from nochmal.engine.moves import PASS, Cross
from pagegames import cheapest_cross, drive_to_decision, load, make


def tap_and_cross(at: AppTest, seat: int, move: Cross) -> AppTest:
    """Select a move's cells and its dice on the page, then press Cross."""
    for name in names(move.cells):
        at.button(key=f"cell-{seat}-{name}").click().run()
    at.button_group(key=f"pick-c-{seat}").set_value(move.colour_die).run()
    at.button_group(key=f"pick-n-{seat}").set_value(move.number_die).run()
    if move.colour_die == 5:
        at.button_group(key=f"pick-col-{seat}").set_value(move.colour).run()
    return at.button(key="cross-btn").click().run()


# --------------------------------------------------------------------------- smoke
def test_start_page_smoke(env):
    at = app()
    no_exception(at)
    assert "new-create" in keys(at)
    assert at.radio(key="new-mode").value == "coop"
    assert at.selectbox(key="new-sheet-0").value == "coop-I"
    assert any("derived" in str(t.value).lower() or "NOT the printed" in str(t.value) for t in at.table) or \
        any("Derived" in w for w in texts(at, "warning"))
    assert any("Stand-in sheets" in w for w in texts(at, "warning"))
    at.radio(key="new-mode").set_value("base").run()
    no_exception(at)
    assert at.selectbox(key="new-sheet-0").value == "standard"
    assert at.selectbox(key="new-players").value >= 2


def test_table_page_smoke_without_game(env):
    at = app()
    at.switch_page(TABLE).run()
    no_exception(at)
    assert any("No game is open" in t for t in texts(at, "info"))
    assert not any(k.startswith("cell-") for k in keys(at))


def test_history_page_smoke(env):
    at = app()
    at.switch_page(HISTORY).run()
    no_exception(at)
    assert any("No game is open" in t for t in texts(at, "info"))
    assert at.file_uploader(key="import-file") is not None


# --------------------------------------------------------------------------- companion co-op flow
def test_companion_coop_flow(env):
    at = app()
    at.text_input(key="new-name-0").set_value("Ada")
    at.text_input(key="new-name-1").set_value("Bo")
    at.text_input(key="new-name-2").set_value("Cy")
    at.button(key="new-create").click().run()
    no_exception(at)
    gid = at.query_params["game"]
    assert at.query_params["code"]
    assert "roll-enter" in keys(at)  # now on the table page, a roll is due
    ses = load(env, gid)
    assert ses.seat_names == ["Ada", "Bo", "Cy"] and ses.game.mode == "coop" and ses.game.n_seats == 3

    # enter the roll the table threw: green X blue | 1 2 ?
    for k, v in (("roll-c-0", 1), ("roll-c-1", 5), ("roll-c-2", 2), ("roll-n-0", 1), ("roll-n-1", 2), ("roll-n-2", 0)):
        at.button_group(key=k).set_value(v)
    at.button(key="roll-enter").click().run()
    no_exception(at)
    ses = load(env, gid)
    assert ses.state.dice is not None and ses.state.phase == "active" and ses.state.active == 0
    assert "cell-0-H1" in keys(at) and "cross-btn" in keys(at)

    # an illegal first cross (not in the start column) is refused in words next to the grid, its
    # rule id only in the "Why?" detail; nothing changes
    n_before = ses.n_events
    at.button(key="cell-0-A1").click().run()
    at.button(key="cross-btn").click().run()
    errors = texts(at, "error")
    assert any("start column H" in e for e in errors) and not any("R-START" in e for e in errors), errors
    assert any(e.label == "Why?" for e in at.expander)
    assert any("(rule R-START)" in c for c in texts(at, "caption")), texts(at, "caption")
    assert at.toast and "start column H" in at.toast[0].value
    ses = load(env, gid)
    assert ses.n_events == n_before and ses.state.seats[0].crossed == 0
    where = {k: path_of(at, k) for k in ("cross-btn", "clear-btn", "fail-btn")}
    at.button(key="clear-btn").click().run()
    # the message is gone, and the buttons below it kept their place (a moved widget shows twice
    # in the browser until the old copy is cleared)
    assert not any("start column" in e for e in texts(at, "error"))
    assert {k: path_of(at, k) for k in where} == where and None not in where.values()

    # a legal cross for the active seat: H1 is a one-cell green block in the start column
    at.button(key="cell-0-H1").click().run()
    assert at.session_state["selected_cells"] == ["H1"]
    at.button(key="cross-btn").click().run()
    no_exception(at)
    ses = load(env, gid)
    assert names(ses.state.seats[0].crossed) == ["H1"]
    assert ses.state.phase == "passive" and ses.state.pending == [1, 2]

    # the passive seats record failed rolls, in any order (host device enters for both)
    assert at.button(key="fail-btn").label == "Failed roll"
    at.button_group(key="entry-seat").set_value(2).run()
    at.button(key="fail-btn").click().run()
    no_exception(at)
    ses = load(env, gid)
    assert ses.state.seats[2].failed == 1 and ses.state.pending == [1]
    at.button(key="fail-btn").click().run()
    ses = load(env, gid)
    assert ses.state.seats[1].failed == 1
    assert ses.state.phase == "roll" and ses.state.roll_index == 1  # turn 2: the next roll is due
    assert "roll-enter" in keys(at)

    # undo takes back the last decision (seat 2's failed roll)
    undo = at.button(key="undo-btn")
    assert "Bo" in undo.label
    undo.click().run()
    no_exception(at)
    ses = load(env, gid)
    assert ses.state.seats[1].failed == 0 and ses.state.pending == [1]

    # the history page lists every event and offers the export
    at.switch_page(HISTORY).run()
    no_exception(at)
    md = "\n".join(texts(at, "markdown"))
    assert "Ada crosses HP (green, dice " in md and "undo of event" in md  # the co-op sheet labels row 1 as P
    assert at.get("download_button")


def test_failed_rolls_shown_and_third_loses(env):
    ses = make(env, players=1, kind="digital", seed=3)
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(TABLE).run()
    for turn in range(3):
        at.button(key="roll-digital").click().run()
        no_exception(at)
        at.button(key="fail-btn").click().run()
        no_exception(at)
    ses = load(env, ses.game_id)
    assert ses.state.is_terminal() and ses.state.seats[0].failed == 3
    assert any("lost" in e and "third failed roll" in e and "C-FAIL" not in e for e in texts(at, "error"))
    assert any("C-FAIL" in c.value for e in at.expander if e.label.startswith("Why") for c in e.caption)


# --------------------------------------------------------------------------- access
def test_wrong_or_missing_code_shows_no_game(env):
    ses = make(env)
    for query in ({"game": ses.game_id, "code": "WRONG1"}, {"game": ses.game_id}):
        at = app(query)
        if "code" not in query:  # a URL without its code (issue 46): the browser's storage is asked first
            at.switch_page(TABLE).run()
            assert any("Opening the game on this device" in t for t in texts(at, "info"))
            at.session_state["device_ready"] = True  # the storage answered: it keeps no code for this game
        at.switch_page(TABLE).run()
        no_exception(at)
        assert any("No game is open" in t for t in texts(at, "info"))
        assert not any(k.startswith(("cell-", "roll-")) for k in keys(at))
        page = "\n".join(texts(at, "markdown") + texts(at, "caption"))
        assert ses.meta["join_code"] not in page and ses.meta["host_code"] not in page
    # the resume form answers the same for an unknown id and a wrong code
    at = app()
    at.text_input(key="open-id").set_value(ses.game_id)
    at.text_input(key="open-code").set_value("NOPE")
    submit = [b for b in at.button if b.label == "Open game"][0]
    submit.click().run()
    assert any("No game with this id and code" in e for e in texts(at, "error"))
    assert "game" not in at.query_params


def test_resume_with_host_code(env):
    ses = make(env)
    at = app()
    at.text_input(key="open-id").set_value(ses.game_id)
    at.text_input(key="open-code").set_value(f" {ses.meta['host_code']} ")  # tokens are exact; spaces are cut
    [b for b in at.button if b.label == "Open game"][0].click().run()
    no_exception(at)
    assert at.query_params.get("game") == ses.game_id
    assert "roll-enter" in keys(at)


def test_join_claim_seat_and_cross_only_own_seat(env):
    ses = make(env)
    gid, join = ses.game_id, ses.meta["join_code"]
    # the joined device opens the game with the join code and claims seat 2
    at = app()
    at.text_input(key="open-id").set_value(gid)
    at.text_input(key="open-code").set_value(join)
    [b for b in at.button if b.label == "Open game"][0].click().run()
    no_exception(at)
    at.radio(key="claim-seat").set_value(1)
    at.button(key="claim-seat-btn").click().run()
    no_exception(at)
    assert at.query_params.get("seat") == "2"
    assert load(env, gid).meta["claims"]["1"]
    seat_code = at.query_params.get("code")
    assert seat_code not in (join, ses.meta["host_code"]) and load(env, gid).seat_of_code(seat_code) == 1

    # a joined device enters the roll only when its seat is active: seat 1 is active now, so this
    # phone shows its own sheet (not tappable) and who it waits for
    assert "roll-enter" not in keys(at)
    assert any("Waiting for" in t and "to roll" in t for t in texts(at, "markdown")), texts(at, "markdown")
    ses = load(env, gid)
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    at.run()
    # the active seat (seat 1, another device) decides first: this seat's grid cannot be tapped
    cells = [b for b in at.button if (b.key or "").startswith("cell-")]
    assert cells and all(b.key.startswith("cell-1-") and b.disabled for b in cells)
    assert "cross-btn" not in keys(at)
    assert any("Waiting for" in t for t in texts(at, "markdown"))
    ses = load(env, gid)
    ses.record(cheapest_cross(ses.state, 0), seat=0)
    at.run()
    # now both passive seats decide, but this device gets only its own seat's grid
    ks = keys(at)
    assert "cell-1-H1" in ks and not any(k.startswith(("cell-0-", "cell-2-")) for k in ks)
    assert "entry-seat" not in {b.key for b in at.button_group}
    ses = load(env, gid)
    move = cheapest_cross(ses.state, 1)
    tap_and_cross(at, 1, move)
    no_exception(at)
    ses = load(env, gid)
    assert ses.state.seats[1].crossed == move.cells and ses.state.pending == [2]
    # seat 3's decision cannot be entered from this device; its undo is refused as well
    assert not any(k.startswith("cell-2-") for k in keys(at))
    ses.record(PASS, seat=2)
    at.run()
    assert at.button(key="undo-btn").disabled  # the last entry is seat 3's, not this device's


# --------------------------------------------------------------------------- penalties
def test_goal_10_penalty_strike_jokers(env):
    ses = make(env, kind="digital", seed=11)
    drive_to_decision(ses)
    d = ses.state.extra.get("decision")
    assert d and d["kind"] == "strike_jokers", ses.state.extra
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(TABLE).run()
    no_exception(at)
    assert "Goal after turn 10 missed" in "\n".join(texts(at, "subheader"))
    assert not at.button(key="strike-btn").disabled  # an even split is filled in; here another split is typed
    amount = d["amount"]
    lefts = [s.jokers_left for s in ses.state.seats]
    split = []
    rest = amount
    for left in lefts:
        split.append(min(left, rest))
        rest -= split[-1]
    for i, v in enumerate(split):
        at.number_input(key=f"strike-{i}").set_value(v)
    at.run()
    at.button(key="strike-btn").click().run()
    no_exception(at)
    ses = load(env, ses.game_id)
    assert ses.state.phase == "roll" and ses.state.roll_index == 10
    assert [s.jokers_left for s in ses.state.seats] == [left - v for left, v in zip(lefts, split)]


def test_goal_19_penalty_remove_die(env):
    ses = make(env, kind="digital", seed=11)
    drive_to_decision(ses)
    if ses.state.extra.get("decision", {}).get("kind") == "strike_jokers":
        ses.record(ses.state.legal_actions()[0])
    drive_to_decision(ses)
    assert ses.state.extra["decision"]["kind"] == "remove_die"
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(TABLE).run()
    at.button(key="remove-number").click().run()
    no_exception(at)
    ses = load(env, ses.game_id)
    assert ses.game.dice_in_play(ses.state) == (3, 2)
    at.button(key="roll-digital").click().run()
    ses = load(env, ses.game_id)
    assert len(ses.state.dice.numbers) == 2


# --------------------------------------------------------------------------- digital play with bots
def test_digital_game_with_two_bots_plays_to_outcome(env):
    at = app()
    at.radio(key="new-kind").set_value("digital").run()
    at.selectbox(key="new-bot-1").set_value("random")
    at.selectbox(key="new-bot-2").set_value("random")
    at.text_input(key="new-seed").set_value("5")
    at.button(key="new-create").click().run()
    no_exception(at)
    gid = at.query_params["game"]
    ses = load(env, gid)
    assert ses.meta["kind"] == "digital" and ses.meta["bots"] == [None, "random", "random"]

    # a few turns through the page: the human rolls when active and crosses; bots follow by themselves
    for _ in range(4):
        ses = load(env, gid)
        if ses.state.is_terminal():
            break
        if "roll-digital" in keys(at):
            at.button(key="roll-digital").click().run()
            no_exception(at)
            ses = load(env, gid)
        assert 0 in entry.seats_to_decide(ses.state), ses.state.summary()  # bots have already decided
        move = cheapest_cross(ses.state, 0)
        if move is None:
            at.button(key="fail-btn").click().run()
        else:
            tap_and_cross(at, 0, move)
        no_exception(at)
    assert load(env, gid).state.roll_index >= 3

    # the bulk of the game directly: the human seat plays like a bot, bots through the same helper
    ses = load(env, gid)
    rng = random.Random(0)
    for _ in range(2000):
        if ses.state.is_terminal():
            break
        if botplay.play_bots(ses):
            continue
        st_ = ses.state
        if st_.current_player() == CHANCE:
            ses.roll_digital()
        elif st_.current_player() == TEAM:
            acts = st_.legal_actions()
            ses.record(acts[rng.randrange(len(acts))])
        else:
            ses.record(cheapest_cross(st_, 0) or PASS, seat=0)
    assert ses.state.is_terminal()
    at.run()
    no_exception(at)
    outcome = texts(at, "success") + texts(at, "error")
    assert any("The team WON" in t or "The team lost" in t for t in outcome), outcome
    assert at.get("table")  # checks / failed rolls / "!" left


def test_solo_outcome_shows_rating_band(env):
    ses = make(env, mode="solo", players=1, kind="digital", seed=2)
    while not ses.state.is_terminal():
        if ses.state.current_player() == CHANCE:
            ses.roll_digital()
        else:
            ses.record(cheapest_cross(ses.state, 0) or PASS, seat=0)
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(TABLE).run()
    no_exception(at)
    assert any("Game over after 30 rolls" in s for s in texts(at, "success"))
    assert any("Solo rating" in s for s in texts(at, "info"))


# --------------------------------------------------------------------------- history: import / export, delete
def test_import_export_roundtrip_and_bad_file(env):
    ses = make(env, kind="digital", seed=4)
    ses.roll_digital()
    ses.record(cheapest_cross(ses.state, 0), seat=0)
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(HISTORY).run()
    no_exception(at)
    data = json.dumps(ses.export()).encode()
    n_games = len(env.list_games())

    at.file_uploader(key="import-file").set_value(("broken.json", b"{not json", "application/json")).run()
    at.button(key="import-btn").click().run()
    assert any("broken.json" in e and "nothing" in e.lower() for e in texts(at, "error"))
    assert len(env.list_games()) == n_games

    tampered = ses.export()
    tampered["events"][1]["cells"] = ["A1"]
    at.file_uploader(key="import-file").set_value(("tampered.json", json.dumps(tampered).encode(), "application/json")).run()
    at.button(key="import-btn").click().run()
    assert any("Import refused" in e and "event 1" in e for e in texts(at, "error")), texts(at, "error")
    assert len(env.list_games()) == n_games

    at.file_uploader(key="import-file").set_value(("game.json", data, "application/json")).run()
    at.button(key="import-btn").click().run()
    no_exception(at)
    assert len(env.list_games()) == n_games + 1
    new_id = at.query_params["game"]
    assert new_id != ses.game_id and load(env, new_id).state.seats[0].crossed == ses.state.seats[0].crossed


def test_delete_needs_host_code_and_confirmation(env):
    ses = make(env)
    at = app()
    delete = lambda: [b for b in at.button if b.label == "Delete game"][0].click().run()  # noqa: E731
    at.text_input(key="del-id").set_value(ses.game_id)
    at.text_input(key="del-code").set_value(ses.meta["join_code"])
    at.checkbox(key="del-confirm").check()
    delete()
    assert any("host code" in e for e in texts(at, "error"))
    at.text_input(key="del-code").set_value(ses.meta["host_code"])
    at.checkbox(key="del-confirm").uncheck()
    delete()
    assert any("confirmation" in e for e in texts(at, "error"))
    assert len(env.list_games()) == 1
    at.checkbox(key="del-confirm").check()
    delete()
    no_exception(at)
    assert env.list_games() == []


def test_all_bot_base_game_plays_itself(env):
    ses = make(env, mode="base", players=2, kind="digital", seed=9, bots=["random", "random"])
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(TABLE).run()
    no_exception(at)
    ses = load(env, ses.game_id)
    assert ses.state.is_terminal()
    assert any("Game over" in s and "Winner" in s for s in texts(at, "success"))


def test_colourblind_mode_letters(env):
    ses = make(env)
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(TABLE).run()
    assert "G★" not in "".join(h.value for h in at.html if "st-key-cell-0-H1" in h.value)
    at.toggle(key="colourblind-side").set_value(True).run()
    no_exception(at)
    css = "".join(h.value for h in at.html if "st-key-cell-0-H1" in h.value)
    assert 'content:"G★"' in css  # H1 of sheet I is a green star
    assert any(">G★<" in h.value or "G★" in h.value for h in at.html if "nm-sheet" in h.value)


def test_entry_after_another_device_changed_the_roll_is_refused(env):
    ses = make(env)
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(TABLE).run()
    at.button(key="cell-0-H1").click().run()
    # meanwhile another device takes the roll back and enters a different one
    other = load(env, ses.game_id)
    other.undo()
    other.record(Roll.parse(["green", "yellow", "red"], [1, 4, 5]))
    n = other.n_events
    at.button(key="cross-btn").click().run()
    no_exception(at)
    assert any("Someone else entered first" in w for w in texts(at, "warning"))
    assert load(env, ses.game_id).n_events == n
    # the page shows the new roll; the same tap now goes through
    at.button(key="cell-0-H1").click().run()
    at.button(key="cross-btn").click().run()
    assert names(load(env, ses.game_id).state.seats[0].crossed) == ["H1"]


def test_create_solo_and_base_games_from_the_start_page(env):
    at = app()
    at.radio(key="new-mode").set_value("solo").run()
    assert at.selectbox(key="new-players").options == ["1"]
    at.radio(key="new-kind").set_value("digital").run()
    at.button(key="new-create").click().run()
    no_exception(at)
    ses = load(env, at.query_params["game"])
    assert ses.game.mode == "solo" and [s.id for s in ses.game.sheets] == ["standard"]
    assert any("Roll 1 of 30" in m for m in texts(at, "markdown"))
    at.button(key="roll-digital").click().run()
    assert len(load(env, ses.game_id).state.dice.colours) == 2  # R-SOLO-DICE

    at.switch_page(START).run()
    at.button(key="close-game").click().run()
    assert "game" not in at.query_params
    at.radio(key="new-mode").set_value("base").run()
    at.selectbox(key="new-players").set_value(4).run()
    at.selectbox(key="new-sheet-3").set_value("blue").run()  # base games: only the non-co-op sheets
    at.radio(key="new-kind").set_value("companion").run()
    at.button(key="new-create").click().run()
    no_exception(at)
    ses = load(env, at.query_params["game"])
    assert ses.game.mode == "base" and [s.id for s in ses.game.sheets] == ["standard"] * 3 + ["blue"]
    assert "roll-enter" in keys(at)
    mine = at.session_state["my_games"]
    assert len(mine) == 2 and mine[0]["id"] == ses.game_id


def test_let_bots_play_button_when_automatic_play_is_off(env):
    ses = make(env, kind="digital", seed=21, bots=[None, "random", "random"])
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(TABLE).run()
    at.toggle(key="auto-bots").set_value(False).run()
    at.button(key="roll-digital").click().run()
    at.button(key="fail-btn").click().run()  # the human (active) uses nothing: the bots pick from all dice
    ses = load(env, ses.game_id)
    assert ses.state.pending == [1, 2]  # nothing moves by itself now
    assert not at.button(key="bots-btn").disabled
    at.button(key="bots-btn").click().run()
    no_exception(at)
    assert any("Bots made" in s for s in texts(at, "success"))
    ses = load(env, ses.game_id)
    assert ses.state.roll_index >= 1 and 1 not in ses.state.pending


def test_editing_the_seat_in_the_url_grants_nothing(env):
    """Only a seat's own code lets a device enter for it: the join code, or another seat's code,
    with a hand-edited ``seat=`` in the URL gives no grid for that seat."""
    ses = make(env)
    code2 = ses.claim_seat(1, "phone-of-seat-2")
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    for code in (ses.meta["join_code"], code2):
        at = app({"game": ses.game_id, "code": code, "seat": "1"})  # pretends to be seat 1 (active)
        at.switch_page(TABLE).run()
        no_exception(at)
        assert not any(k.startswith("cell-0-") for k in keys(at)), code
    # the real seat-2 device, once seat 1 has decided, gets seat 2's grid only
    ses = load(env, ses.game_id)
    ses.record(cheapest_cross(ses.state, 0), seat=0)
    at = app({"game": ses.game_id, "code": code2, "seat": "1"})
    at.switch_page(TABLE).run()
    ks = keys(at)
    assert "cell-1-H1" in ks and not any(k.startswith(("cell-0-", "cell-2-")) for k in ks)
    # moving seat 2 to a new phone (the host's decision: its phone is still there) retires the old code
    ses = load(env, ses.game_id)
    new_code = ses.claim_seat(1, "new-phone", host=True)
    assert ses.seat_of_code(code2) is None and ses.seat_of_code(new_code) == 1
