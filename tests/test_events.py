"""The event log (``nochmal.store.events``) and export / import (``GameSession.export``,
``nochmal.store.transfer``): every event kind validates through the discriminated union, the state
is a fold of the events, undo takes back the last effective decision and is itself an event, an
export imports as the identical game, and a tampered export is rejected naming the first bad event
with nothing stored."""

from __future__ import annotations

import copy
import json
import re

import pytest

from nochmal.engine.version import RULES_VERSION
from nochmal.engine.cells import COLOURS, mask_of, names
from nochmal.engine.coop import CoopGame, StrikeJokers
from nochmal.engine.coopdata import get_tableau, tableau_from_data
from nochmal.engine.errors import InvalidInputError, NochmalError
from nochmal.store.events import (
    EVENT_ADAPTER,
    CrossEvent,
    PassEvent,
    RemoveDieEvent,
    RollEvent,
    StrikeJokersEvent,
    UndoEvent,
    action_of,
    describe,
    event_for,
    fold,
    parse_event,
)
from nochmal.engine.game import CHANCE, TEAM
from nochmal.engine.moves import PASS, Cross
from nochmal.store.claims import CODE_FIELDS
from nochmal.store.session import GameSession
from nochmal.store.transfer import import_game
from nochmal.store.db import GameStore

ALL_KINDS = {"roll", "cross", "pass", "strike_jokers", "remove_die", "undo"}


def hard_game(players: int = 2) -> CoopGame:
    """Interim goals nobody meets: both team decisions come up."""
    data = get_tableau(players).model_dump(mode="json")
    data["id"] = "hard"
    for key in ("goal_10", "goal_19", "goal_27"):
        data[key] = {"value": 200, "provenance": "user"}
    return CoopGame.create(players, 1, tableau=tableau_from_data(data))


def step(ses: GameSession) -> None:
    """One decision: digital dice, the first cross (else pass), the first team decision."""
    st = ses.state
    if st.current_player() == CHANCE:
        ses.roll_digital()
    elif st.current_player() == TEAM:
        acts = list(st.legal_actions())
        if isinstance(acts[0], StrikeJokers):  # the most even split
            acts.sort(key=lambda a: max(a.per_seat))
        ses.record(acts[0], by="team")
    else:
        acts = st.legal_actions()
        plain = next((a for a in acts if isinstance(a, Cross) and a.joker_cost == 0), None)
        ses.record(plain or (acts[1] if len(acts) > 1 else PASS), by="test")


def play_rich_game(store: GameStore) -> GameSession:
    """A co-op game with every event kind: rolls, crosses, a pass, both team decisions, undos."""
    ses = GameSession.create(store, hard_game(), title="rich", kind="digital", seed=11)
    step(ses)  # roll 1
    ses.record(PASS)  # seat 1 fails
    step(ses)
    while ses.state.roll_index < 19 or ses.state.current_player() != CHANCE:
        step(ses)
        assert not ses.state.is_terminal()
    step(ses)  # roll of turn 20
    step(ses)  # a cross
    ses.undo()  # take it back
    step(ses)  # and do it again
    kinds = {e.type for e in ses.events}
    assert kinds == ALL_KINDS, kinds
    return ses


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path / "games.sqlite3") as s:
        yield s


@pytest.fixture(scope="module")
def rich_store(tmp_path_factory):
    with GameStore(tmp_path_factory.mktemp("rich") / "rich.sqlite3") as s:
        yield s


@pytest.fixture(scope="module")
def rich(rich_store):
    """One rich game for the whole module (recording ~150 durable events takes a moment)."""
    return play_rich_game(rich_store)


# --------------------------------------------------------------------------- the union
def test_every_event_kind_validates_through_the_discriminated_union(rich):
    classes = {"roll": RollEvent, "cross": CrossEvent, "pass": PassEvent, "strike_jokers": StrikeJokersEvent,
               "remove_die": RemoveDieEvent, "undo": UndoEvent}
    seen = set()
    for i, ev in enumerate(rich.events):
        assert ev.seq == i and ev.rules_version == RULES_VERSION
        dump = ev.model_dump(mode="json")
        assert type(EVENT_ADAPTER.validate_python(dump)) is classes[dump["type"]]
        assert EVENT_ADAPTER.validate_python(dump) == ev
        assert EVENT_ADAPTER.validate_json(json.dumps(dump)) == ev
        assert parse_event(json.loads(json.dumps(dump)), i) == ev
        assert describe(ev, rich.seat_names)
        seen.add(type(ev))
    assert seen == set(classes.values())


@pytest.mark.parametrize("data", [
    {"type": "roll", "seq": 0, "colours": ["yellow", "X", "red"], "numbers": ["1", "?", "5"]},
    {"type": "cross", "seq": 1, "seat": 2, "colour_die": "X", "number_die": "?", "colour": "blue", "cells": ["H4", "H5"]},
    {"type": "pass", "seq": 2, "seat": 0},
    {"type": "strike_jokers", "seq": 3, "per_seat": [1, 0, 5]},
    {"type": "remove_die", "seq": 4, "die": "colour"},
    {"type": "undo", "seq": 5, "undoes": 4},
], ids=lambda d: d["type"])
def test_hand_written_events_of_each_kind(data):
    ev = parse_event(data)
    assert ev.type == data["type"]
    assert ev.model_dump(mode="json")["seq"] == data["seq"]
    if ev.type != "undo":
        assert action_of(ev) is not None
    else:
        assert action_of(ev) is None


@pytest.mark.parametrize("data,field", [
    ({"type": "teleport", "seq": 0}, "type"),
    ({"seq": 0, "seat": 1}, "type"),
    ({"type": "pass", "seat": 0}, "seq"),
    ({"type": "pass", "seq": -1, "seat": 0}, "seq"),
    ({"type": "pass", "seq": 0, "seat": 6}, "seat"),
    ({"type": "pass", "seq": 0, "seat": 0, "evil": 1}, "evil"),
    ({"type": "cross", "seq": 0, "seat": 0, "colour_die": "X", "number_die": "1", "colour": "red", "cells": []}, "cells"),
    ({"type": "cross", "seq": 0, "seat": 0, "colour_die": "X", "number_die": "1", "colour": "red",
      "cells": ["A1", "A2", "A3", "A4", "A5", "A6"]}, "cells"),
    ({"type": "cross", "seq": 0, "seat": 0, "colour_die": "X", "number_die": "1", "colour": "red", "cells": ["P1"]}, "cells"),
    ({"type": "remove_die", "seq": 0, "die": "both"}, "die"),
    ({"type": "strike_jokers", "seq": 0, "per_seat": ["x"]}, "per_seat"),
    ({"type": "undo", "seq": 0}, "undoes"),
    ("roll", "event"),
    (None, "event"),
    ([{"type": "pass"}], "event"),
])
def test_invalid_events_are_rejected_naming_the_field(data, field):
    with pytest.raises(InvalidInputError) as e:
        parse_event(data, 7)
    msg = str(e.value)
    assert "event 7" in msg
    if field != "event":
        assert field in msg


def test_event_for_and_action_of_round_trip(rich):
    f = fold(rich.game, [e.model_dump(mode="json") for e in rich.events])
    for seq, action, seat in f.effective:
        ev = event_for(action, seq, seat)
        assert action_of(ev) == action
        assert ev.seq == seq


# --------------------------------------------------------------------------- fold
def test_fold_reproduces_the_state(rich, rich_store):
    store = rich_store
    stored = store.events(rich.game_id)
    f = fold(rich.game, stored)
    assert f.state.to_json() == rich.state.to_json()
    # the same as applying the effective decisions directly
    st = rich.game.new_state()
    for _, action, seat in f.effective:
        st.apply(action, seat)
    assert st.to_json() == f.state.to_json()
    # a fresh session over the store folds to the same position
    assert GameSession.load(store, rich.game_id).state.to_json() == rich.state.to_json()
    # every prefix of the log is a valid game
    for n in range(0, len(stored), 7):
        fold(rich.game, stored[:n])


def test_fold_apply_leaves_the_fold_unchanged_on_error(rich):
    f = fold(rich.game, [e.model_dump(mode="json") for e in rich.events])
    before = (json.dumps(f.state.to_json(), sort_keys=True), len(f.events), list(f.effective))
    n = len(f.events)
    bad = [
        parse_event({"type": "roll", "seq": n, "colours": ["red"], "numbers": ["1"]}),  # wrong dice count
        parse_event({"type": "pass", "seq": n + 1, "seat": 0}),  # wrong seq
        parse_event({"type": "strike_jokers", "seq": n, "per_seat": [1, 1]}),  # no decision due
    ]
    for ev in bad:
        with pytest.raises(NochmalError, match=f"event {n}"):
            f.apply(ev)
        assert (json.dumps(f.state.to_json(), sort_keys=True), len(f.events), list(f.effective)) == before


# --------------------------------------------------------------------------- undo
def test_undo_takes_back_the_last_decision_and_is_recorded(store):
    ses = GameSession.create(store, CoopGame.create(2, 1), kind="digital", seed=4)
    fresh = ses.state.to_json()
    assert not ses.can_undo
    with pytest.raises(InvalidInputError):
        ses.undo()
    assert store.n_events(ses.game_id) == 0
    roll_ev = ses.roll_digital()
    after_roll = ses.state.to_json()
    cross = ses.state.legal_actions()[1]
    cross_ev = ses.record(cross)
    assert ses.state.seats[0].crossed == cross.cells
    undo_ev = ses.undo(by="host")
    assert undo_ev.type == "undo" and undo_ev.undoes == cross_ev.seq and undo_ev.seq == 2
    assert ses.state.to_json() == after_roll
    assert ses.state.seats[0].crossed == 0
    stored = store.events(ses.game_id)
    assert [e["type"] for e in stored] == ["roll", "cross", "undo"]
    assert stored[2]["undoes"] == 1
    # a second undo takes back the roll (not the undo)
    undo2 = ses.undo()
    assert undo2.undoes == roll_ev.seq
    assert ses.state.to_json() == fresh
    assert not ses.can_undo
    # the same digital roll comes again; the log keeps everything
    again = ses.roll_digital()
    assert (again.colours, again.numbers) == (roll_ev.colours, roll_ev.numbers)
    assert GameSession.load(store, ses.game_id).state.to_json() == ses.state.to_json()
    assert [e["type"] for e in store.events(ses.game_id)] == ["roll", "cross", "undo", "undo", "roll"]


def test_undo_of_a_team_decision(store):
    ses = GameSession.create(store, hard_game(3), kind="digital", seed=2)
    while ses.state.current_player() != TEAM:
        step(ses)
        assert not ses.state.is_terminal()
    at_decision = ses.state.to_json()
    jokers = [s.jokers_left for s in ses.state.seats]
    ses.record(ses.state.legal_actions()[-1])
    assert ses.state.current_player() == CHANCE
    assert sum(s.jokers_left for s in ses.state.seats) < sum(jokers)
    ses.undo()
    assert ses.state.current_player() == TEAM
    assert [s.jokers_left for s in ses.state.seats] == jokers
    assert ses.state.to_json() == at_decision


def test_undo_of_anything_but_the_last_effective_event_is_rejected(rich):
    events = [e.model_dump(mode="json") for e in rich.events]
    f = fold(rich.game, events)
    n = len(events)
    last = f.effective[-1][0]
    undone = [e["undoes"] for e in events if e["type"] == "undo"]
    undo_seqs = [e["seq"] for e in events if e["type"] == "undo"]
    for target in (last - 1, 0, undone[0], undo_seqs[0], n + 3):
        bad = {"type": "undo", "seq": n, "undoes": target}
        with pytest.raises(InvalidInputError, match=f"event {n}: undo of event {target}"):
            fold(rich.game, events + [bad])
    # the last effective decision may be undone
    fold(rich.game, events + [{"type": "undo", "seq": n, "undoes": last}])


# --------------------------------------------------------------------------- export / import
def _same_meta(a: dict, b: dict) -> None:
    strip = lambda m: {k: v for k, v in m.items() if k not in CODE_FIELDS}  # noqa: E731
    assert strip(a) == strip(b)


def test_export_import_round_trip_is_identity(rich, store, tmp_path):
    data = json.loads(json.dumps(rich.export()))
    assert data["format"] == "nochmal-game" and data["rules_version"] == RULES_VERSION
    imported = import_game(store, data, source="test.json")
    assert imported.game_id != rich.game_id
    assert [e.model_dump(mode="json") for e in imported.events] == data["events"]
    assert imported.state.to_json() == rich.state.to_json()
    assert imported.title == rich.title
    _same_meta(imported.meta, rich.meta)
    assert imported.meta["join_code"] != rich.meta["join_code"]  # a copy gets its own codes
    again = json.loads(json.dumps(imported.export()))
    assert again["events"] == data["events"]
    # into another store file as well
    with GameStore(tmp_path / "other.sqlite3") as other:
        third = import_game(other, again)
        assert third.state.to_json() == rich.state.to_json()
        assert GameSession.load(other, third.game_id).state.to_json() == rich.state.to_json()


def _first(events: list, kind: str, start: int = 5) -> int:
    return next(i for i, e in enumerate(events) if i >= start and e["type"] == kind)


def _changed_cell(data: dict) -> int:
    ev = data["events"]
    k = _first(ev, "cross")
    e = ev[k]
    colour = COLOURS.index(e["colour"])
    sheet = CoopGame.from_config(data["meta"]["config"]).sheets[e["seat"]]
    wrong = next(n for n in names((1 << 105) - 1) if not sheet.colour_masks[colour] & mask_of([n]))
    e["cells"] = [wrong] + e["cells"][1:]
    return k


def _removed(data: dict) -> int:
    k = _first(data["events"], "cross")
    del data["events"][k]
    return k


def _wrong_seq(data: dict) -> int:
    k = _first(data["events"], "roll", 9)
    data["events"][k]["seq"] = k + 1
    return k


def _swapped(data: dict) -> int:
    ev = data["events"]
    k = _first(ev, "roll", 9)
    ev[k], ev[k + 1] = ev[k + 1], ev[k]
    return k


def _duplicated(data: dict) -> int:
    ev = data["events"]
    k = _first(ev, "pass", 0)
    ev.insert(k + 1, copy.deepcopy(ev[k]))
    return k + 1


def _rules_version(data: dict) -> int:
    k = _first(data["events"], "cross", 12)
    data["events"][k]["rules_version"] = RULES_VERSION + 1
    return k


def _unknown_type(data: dict) -> int:
    k = _first(data["events"], "pass", 0)
    data["events"][k]["type"] = "teleport"
    return k


def _extra_field(data: dict) -> int:
    k = _first(data["events"], "roll", 3)
    data["events"][k]["cheat"] = True
    return k


def _bad_face(data: dict) -> int:
    k = _first(data["events"], "roll", 3)
    data["events"][k]["numbers"][0] = "7"
    return k


def _bad_colour_name(data: dict) -> int:
    k = _first(data["events"], "cross", 12)
    data["events"][k]["colour"] = "purple"
    return k


def _bad_number_die(data: dict) -> int:
    k = _first(data["events"], "cross", 12)
    data["events"][k]["number_die"] = "6"
    return k


def _event_not_object(data: dict) -> int:
    data["events"][4] = "roll"
    return 4


def _wrong_strike(data: dict) -> int:
    k = _first(data["events"], "strike_jokers", 0)
    data["events"][k]["per_seat"] = [7, 7]
    return k


@pytest.mark.parametrize("tamper", [_changed_cell, _removed, _wrong_seq, _swapped, _duplicated, _rules_version,
                                    _unknown_type, _extra_field, _event_not_object, _wrong_strike],
                         ids=lambda f: f.__name__.strip("_"))
def test_tampered_import_is_rejected_naming_the_first_bad_event(rich, store, tamper):
    data = json.loads(json.dumps(rich.export()))
    k = tamper(data)
    games_before = [(g.game_id, g.n_events) for g in store.list_games()]
    with pytest.raises(InvalidInputError) as e:
        import_game(store, data, source="evil.json")
    msg = str(e.value)
    assert "evil.json" in msg
    assert f"event {k}" in msg, msg
    assert "\n" not in msg
    assert [(g.game_id, g.n_events) for g in store.list_games()] == games_before


@pytest.mark.parametrize("tamper", [_bad_face, _bad_colour_name, _bad_number_die],
                         ids=lambda f: f.__name__.strip("_"))
def test_tampered_import_with_an_unparsable_face_names_the_event(rich, store, tamper):
    data = json.loads(json.dumps(rich.export()))
    k = tamper(data)
    games_before = [(g.game_id, g.n_events) for g in store.list_games()]
    with pytest.raises(InvalidInputError) as e:
        import_game(store, data, source="evil.json")
    assert [(g.game_id, g.n_events) for g in store.list_games()] == games_before  # this part holds
    assert f"event {k}" in str(e.value), str(e.value)


@pytest.mark.parametrize("garbage", [
    [], "a string", None, 42,
    {"format": "something-else", "version": 1, "meta": {}, "events": []},
    {"format": "nochmal-game", "version": 99, "meta": {}, "events": []},
    {"format": "nochmal-game", "version": 1, "events": []},
    {"format": "nochmal-game", "version": 1, "meta": {"config": "coop"}, "events": []},
    {"format": "nochmal-game", "version": 1, "meta": {"config": {"mode": "chess"}}, "events": []},
    {"format": "nochmal-game", "version": 1, "meta": {"config": {"mode": "coop"}}, "events": []},
    "events-not-a-list",
], ids=["list", "string", "none", "int", "format", "version", "no-meta", "config-string", "unknown-mode",
        "coop-config-incomplete", "events-not-a-list"])
def test_garbage_import_structure_is_rejected_and_nothing_stored(rich, store, garbage):
    if garbage == "events-not-a-list":
        garbage = json.loads(json.dumps(rich.export()))
        garbage["events"] = {"0": garbage["events"][0]}
    before = [(g.game_id, g.n_events) for g in store.list_games()]
    with pytest.raises(InvalidInputError):
        import_game(store, garbage, source="junk.json")
    assert [(g.game_id, g.n_events) for g in store.list_games()] == before


def test_import_with_a_bad_undo_is_rejected(rich, store):
    data = json.loads(json.dumps(rich.export()))
    n = len(data["events"])
    data["events"].append({"type": "undo", "seq": n, "undoes": 0})
    before = len(store.list_games())
    with pytest.raises(InvalidInputError, match=f"event {n}"):
        import_game(store, data)
    assert len(store.list_games()) == before


@pytest.mark.parametrize("where", ["top", "meta", "config"])
def test_import_with_a_wrong_rules_version_in_the_header_is_rejected(rich, store, where):
    data = json.loads(json.dumps(rich.export()))
    target = {"top": data, "meta": data["meta"], "config": data["meta"]["config"]}[where]
    target["rules_version"] = RULES_VERSION + 1
    before = len(store.list_games())
    with pytest.raises(InvalidInputError, match="rules version|rules_version"):
        import_game(store, data)
    assert len(store.list_games()) == before


def test_passive_seats_recorded_in_any_order_fold_the_same(store):
    ses = GameSession.create(store, CoopGame.create(3, 1), kind="digital", seed=21)
    ses.roll_digital()
    ses.record(ses.state.legal_actions()[-1])  # the active seat 1
    assert ses.state.pending == [1, 2]
    ses.record(PASS, 2)  # seat 3 before seat 2
    assert ses.state.pending == [1]
    ses.record(ses.state.legal_actions(1)[1], 1)
    assert [e.seat for e in ses.events[1:]] == [0, 2, 1]
    assert ses.state.current_player() == CHANCE
    again = GameSession.load(store, ses.game_id)
    assert again.state.to_json() == ses.state.to_json()
    assert [s.failed for s in again.state.seats] == [0, 0, 1]


def test_undo_after_the_game_is_over(store):
    ses = GameSession.create(store, CoopGame.create(1, 1), kind="digital", seed=8)
    while not ses.state.is_terminal():
        ses.roll_digital() if ses.state.current_player() == CHANCE else ses.record(PASS)
    assert "C-FAIL" in ses.state.outcome().reason
    ses.undo()
    assert not ses.state.is_terminal()
    assert ses.state.current_player() == 0 and ses.state.seats[0].failed == 2
    ses.record(ses.state.legal_actions()[-1])
    assert ses.state.current_player() == CHANCE
    assert GameSession.load(store, ses.game_id).state.to_json() == ses.state.to_json()


# --------------------------------------------------------------------------- who and when (issue 17)
PASS_EVENT = {"type": "pass", "seq": 0, "seat": 0}


@pytest.mark.parametrize("by", ["a\nb", "tab\there", "nul\x00", "bell\x07", "esc\x1b[31m", "c1\x85", "\u2028",
                                "\u202eevil", "\ud800", "x" * 65])
def test_event_by_must_be_a_short_plain_name(by):
    with pytest.raises(InvalidInputError) as e:
        parse_event({**PASS_EVENT, "by": by}, 3)
    assert str(e.value).startswith("event 3: field by: "), str(e.value)


@pytest.mark.parametrize("by", ["", "host", "bot:greedy", "Zoë", "x" * 64, '<img src=x onerror="window.__xss=1">',
                                '<meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/">',
                                "[l](javascript:alert(1))", "![x](http://127.0.0.1:9/leak.png)"])
def test_event_by_may_hold_markup_characters(by):
    assert parse_event({**PASS_EVENT, "by": by}, 3).by == by


@pytest.mark.parametrize("at", ["yesterday", "2026-05-01", "2026-05-01T19:30:00", "2026-05-01 19:30:00+00:00",
                                "2026-13-01T19:30:00+00:00", "2026-05-01T19:30:00+00:00 <b>x</b>",
                                "<img src=x onerror=alert(1)>", "２０２６-05-01T19:30:00+00:00", "1" * 41])
def test_event_at_must_be_a_timestamp_with_a_time_zone(at):
    with pytest.raises(InvalidInputError) as e:
        parse_event({**PASS_EVENT, "at": at}, 3)
    assert str(e.value).startswith("event 3: field at: "), str(e.value)


@pytest.mark.parametrize("at", ["", "2026-05-01T19:30:00+00:00", "2026-05-01T19:30:00Z",
                                "2026-05-01T19:30:00.123456+02:00"])
def test_event_at_accepts_timestamps_and_empty(at):
    assert parse_event({**PASS_EVENT, "at": at}, 3).at == at


def test_events_recorded_now_carry_a_valid_timestamp(rich):
    for ev in rich.events:
        assert ev.at and parse_event(ev.model_dump(mode="json")).at == ev.at


@pytest.mark.parametrize("field,value", [("by", "a\x07b"), ("by", "x" * 65), ("at", "last tuesday"),
                                         ("at", "<script>alert(1)</script>")])
def test_import_refuses_bad_who_or_when_naming_event_and_field(rich, store, field, value):
    data = json.loads(json.dumps(rich.export()))
    data["events"][4][field] = value
    before = [(g.game_id, g.n_events) for g in store.list_games()]
    with pytest.raises(InvalidInputError) as e:
        import_game(store, data, source="evil.json")
    assert "evil.json" in str(e.value) and f"event 4: field {field}: " in str(e.value), str(e.value)
    assert [(g.game_id, g.n_events) for g in store.list_games()] == before


@pytest.mark.parametrize("event, field", [
    ({"type": "pass", "seq": "0", "seat": 0}, "seq"),
    ({"type": "pass", "seq": 0, "seat": True}, "seat"),
    ({"type": "pass", "seq": 0, "seat": 1.0}, "seat"),
    ({"type": "strike_jokers", "seq": 0, "per_seat": ["1", 0]}, "per_seat.0"),
    ({"type": "undo", "seq": 1, "undoes": "0"}, "undoes"),
    ({"type": "pass", "seq": 0, "seat": 0, "rules_version": "2"}, "rules_version"),
])
def test_event_numbers_are_whole_numbers_not_text_or_booleans(event, field):
    with pytest.raises(InvalidInputError, match=rf"event 4: field {re.escape(field)}: Input should be a valid integer"):
        parse_event(event, 4)
