"""Twenty one games in the store, through the registry of games (nochmal/store/games.py): a stored
game records its game, events are parsed and folded by that game's codec, seat claims and meta
changes are the same compare-and-set, an export imports back, hostile events are refused and
change nothing, and games stored before the registry (no ``game`` field) still open as Noch mal!.
Real SQLite files, a real PostgreSQL server (conftest.py's ``store_url``: the claim, the export/import
round trip and the SIGKILL test run on both) and real subprocesses, no mocks."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from nochmal.engine.game import BaseGame
from nochmal.engine.errors import IllegalMoveError, InvalidInputError, NochmalError
from nochmal.engine.twentyone import AGAIN, KEEP, CrossOut, Enter, Lot, Roll, TwentyOneGame, TwentyOneState
from nochmal.store.db import GameStore
from nochmal.store.errors import SeatTakenError
from nochmal.store.games import GAMES, game_kind, kind_of_game, kind_of_meta
from nochmal.store.session import GameSession
from nochmal.store.transfer import import_game


def new_game(store, players=3, **kw) -> GameSession:
    return GameSession.create(store, TwentyOneGame.create(players), kind="digital", seed=7, **kw)


def play_to_the_end(ses: GameSession, policy_name="greedy", rng_seed=1) -> None:
    policy = ses.kind.policy(policy_name)
    rng = random.Random(rng_seed)
    while not ses.state.is_terminal():
        if ses.state.is_chance_node():
            ses.roll_digital()
        else:
            ses.record(policy(ses.state, rng))


def test_the_registry_has_both_games_and_finds_each_game_from_its_engine_and_its_meta():
    assert set(GAMES) == {"nochmal", "twentyone"}
    assert kind_of_game(TwentyOneGame.create(2)) is game_kind("twentyone")
    assert kind_of_game(BaseGame.create(2)) is game_kind("nochmal")
    assert kind_of_meta({}) is game_kind("nochmal")  # stored before the registry
    assert kind_of_meta({"game": "twentyone"}) is game_kind("twentyone")
    with pytest.raises(InvalidInputError, match="unknown game 'chess': nochmal, twentyone"):
        game_kind("chess")
    assert [m.name for m in game_kind("nochmal").modes] == ["base", "solo", "coop"]
    assert game_kind("twentyone").modes == () and game_kind("twentyone").players_help() == "1-6"


def test_a_twentyone_game_is_stored_with_its_game_and_folds_from_its_events(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        ses = new_game(store)
        assert ses.meta["game"] == "twentyone" and ses.meta["config"]["game"] == "twentyone"
        assert ses.title == "twenty one game"
        play_to_the_end(ses)
        assert ses.state.is_terminal()
        stored = store.events(ses.game_id)
        assert {e["type"] for e in stored} >= {"lot", "roll", "keep", "enter"}
        assert all("seat" in e for e in stored if e["type"] in ("keep", "again", "enter", "cross-out"))
        again = GameSession.load(store, ses.game_id)  # a fresh read: the fold of the stored events
        assert isinstance(again.state, TwentyOneState)
        assert again.state.to_json() == ses.state.to_json()
        assert again.state.outcome().to_json() == ses.state.outcome().to_json()


def test_digital_dice_are_the_same_after_an_undo_and_undo_folds(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        ses = new_game(store, players=2)
        ses.roll_digital()  # the lot
        first = ses.roll_digital().faces
        ses.undo()
        assert ses.roll_digital().faces == first
        ses.record(KEEP)
        seat = ses.state.current_player()
        ses.record(ses.state.legal_actions()[-1])  # the cross-out (always legal)
        assert ses.state.seats[seat].acted is not None
        ses.undo()
        assert ses.state.seats[seat].acted is None and seat in ses.state.pending
        assert GameSession.load(store, ses.game_id).state.to_json() == ses.state.to_json()


def test_seats_enter_in_any_order_with_their_own_seat(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        ses = new_game(store, players=3)
        ses.record(Lot(0), source="entered")
        ses.record(Roll.of(1, 1, 1, 1, 1, 1))
        ses.record(KEEP)
        ses.record(CrossOut(0), seat=2)  # the last seat first
        assert ses.events[-1].seat == 2 and ses.state.pending == [0, 1]
        with pytest.raises(IllegalMoveError, match="T-CROSS"):
            ses.record(CrossOut(1), seat=2)  # a second cross-out in one round
        assert ses.n_events == 4


def test_a_twentyone_claim_is_the_same_compare_and_set(store_url):
    with GameStore(store_url) as store:
        ses = new_game(store, players=2)
        other = GameSession.load(store, ses.game_id)
        ses.claim_seat(1, "phone-a")
        with pytest.raises(SeatTakenError):
            other.claim_seat(1, "phone-b")  # it looked before phone-a's claim
        assert GameSession.load(store, ses.game_id).meta["claims"]["1"] == "phone-a"
        other.claim_seat(0, "phone-b")  # another seat: both claims are kept
        assert set(GameSession.load(store, ses.game_id).meta["claims"]) == {"0", "1"}


def test_an_export_of_a_twentyone_game_imports_back_and_replays(store_url):
    with GameStore(store_url) as store:
        ses = new_game(store, players=2, title="Sunday")
        play_to_the_end(ses, rng_seed=4)
        data = json.loads(json.dumps(ses.export()))
        assert data["meta"]["game"] == "twentyone" and "host_code" not in data["meta"]
        imported = import_game(store, data, source="t.json")
        assert imported.game_id != ses.game_id and imported.kind is game_kind("twentyone")
        assert imported.state.outcome().to_json() == ses.state.outcome().to_json()
        assert [e.model_dump(exclude={"at"}) for e in imported.events] == \
            [e.model_dump(exclude={"at"}) for e in ses.events]


@pytest.mark.parametrize("change, message", [
    (lambda d: d["meta"].update(game="chess"), "field meta.game: unknown game 'chess'"),
    (lambda d: d["meta"].update(game="nochmal"), "field meta.config.mode: Field required"),
    (lambda d: d["meta"].update(bots=["planner", None]),
     "field meta.bots[0]: Input should be 'random', 'greedy', 'optimum' or 'race'"),
    (lambda d: d["events"][1]["faces"].update(white=7),
     "field events[1]: event 1: field faces.white: Input should be less than or equal to 6"),
    (lambda d: d["events"].insert(3, {**d["events"][3], "type": "cross", "colour": "blue"}),
     "field events[3]: event 3: field (event): Input tag 'cross' found using 'type' does not match"),
    (lambda d: d["events"][3].update(seat=1),  # event 3 is the second attempt's roll: nobody's
     "field events[3]: event 3: field seat: Extra inputs are not permitted"),
    (lambda d: d["events"][2].update(type="keep"),  # the active seat took the second attempt
     "field events[3]: T-ROLL: event 3 (roll): no roll is due now"),
    (lambda d: d["meta"]["config"].update(sheets=["A", "A"]), "T-START: every player has a different sheet"),
    (lambda d: d["meta"]["config"].update(rules_version=2), "the file's rules_version fields must agree"),
])
def test_a_tampered_twentyone_export_is_refused_naming_the_field_and_nothing_is_stored(tmp_path, change, message):
    with GameStore(tmp_path / "g.sqlite3") as store:
        ses = new_game(store, players=2)
        for _ in range(4):
            ses.roll_digital() if ses.state.is_chance_node() else ses.record(ses.state.legal_actions()[-1])
        data = json.loads(json.dumps(ses.export()))
        change(data)
        before = [g.game_id for g in store.list_games()]
        with pytest.raises(InvalidInputError) as err:
            import_game(store, data, source="t.json")
        assert str(err.value).startswith("t.json: ") and message in str(err.value), str(err.value)
        assert [g.game_id for g in store.list_games()] == before


@pytest.mark.parametrize("event", [
    {"type": "cross", "seat": 0, "colour_die": "blue", "number_die": "3", "colour": "blue", "cells": ["H4"]},
    {"type": "enter", "seat": 0, "dice": ["purple"]},
    {"type": "enter", "seat": 0, "dice": ["white"], "extra": 1},
    {"type": "lot", "seat": "0"},
    "garbage",
    {"type": "keep", "seat": 0, "rules_version": 2},  # a Noch mal! rules version in a twenty one game
])
def test_a_hostile_event_for_a_twentyone_game_is_refused_and_changes_nothing(tmp_path, event):
    with GameStore(tmp_path / "g.sqlite3") as store:
        ses = new_game(store, players=2)
        ses.roll_digital()
        ses.roll_digital()
        n = ses.n_events
        data = event if not isinstance(event, dict) else {"seq": n, **event}
        with pytest.raises(NochmalError) as err:
            ses._fold.copy().apply(ses.kind.events.parse(data, n), n)
        assert f"event {n}" in str(err.value)
        assert len(store.events(ses.game_id)) == n == ses.n_events


def test_a_twentyone_action_for_a_nochmal_game_is_refused_by_its_type(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        ses = GameSession.create(store, BaseGame.create(2), kind="digital", seed=1)
        assert ses.meta["game"] == "nochmal"
        with pytest.raises(InvalidInputError, match="event 0: field"):
            ses.kind.events.parse({"seq": 0, "type": "enter", "seat": 0, "dice": ["white"]}, 0)
        with pytest.raises(NochmalError):
            ses.record(Enter.of("white"))
        assert store.events(ses.game_id) == []


def test_a_game_stored_before_the_registry_opens_as_nochmal(tmp_path):
    """An old store row: a meta without ``game`` (and an old export without it) is Noch mal!."""
    with GameStore(tmp_path / "g.sqlite3") as store:
        ses = GameSession.create(store, BaseGame.create(2), kind="digital", seed=3)
        ses.roll_digital()
        store.change_meta(ses.game_id, lambda m: {k: v for k, v in m.items() if k != "game"})
        old = GameSession.load(store, ses.game_id)
        assert "game" not in old.meta and old.kind is game_kind("nochmal") and old.n_events == 1
        data = old.export()
        assert "game" not in data["meta"]
        again = import_game(store, data, source="old.json")
        assert again.kind is game_kind("nochmal") and again.meta["game"] == "nochmal" and again.n_events == 1


WRITER = """
import random, sys
from nochmal.engine.twentyone import TwentyOneGame
from nochmal.store.db import GameStore
from nochmal.store.session import GameSession
store = GameStore(sys.argv[1])
ses = GameSession.create(store, TwentyOneGame.create(4), kind="digital", seed=int(sys.argv[2]))
print("game", ses.game_id, flush=True)
policy, rng = ses.kind.policy("greedy"), random.Random(1)
while not ses.state.is_terminal():
    ev = ses.roll_digital() if ses.state.is_chance_node() else ses.record(policy(ses.state, rng))
    print("acked", ev.seq, flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_while_a_twentyone_game_is_recorded_loses_no_acknowledged_event(store_url):
    path = store_url
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")])))
    killed = 0
    for round_ in range(5):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(round_)], stdout=subprocess.PIPE,
                                text=True, env=env)
        lines = [proc.stdout.readline()]
        while not lines[-1].startswith("acked"):
            lines.append(proc.stdout.readline())
            assert lines[-1], f"the writer stopped before its first event: {lines}"
        time.sleep(random.Random(round_).random() * 0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        killed += proc.returncode == -signal.SIGKILL
        lines += proc.stdout.read().splitlines(keepends=True)
        whole = [line.split() for line in lines if line.endswith("\n")]  # a kill may cut the last line
        gid = next(words[1] for words in whole if words[0] == "game")
        acked = [int(words[1]) for words in whole if words[0] == "acked"]
        with GameStore(path) as store:
            ses = GameSession.load(store, gid)  # folds: every stored event is whole and legal
            assert ses.n_events >= max(acked) + 1
            play_to_the_end(ses)  # and the game goes on from there
            assert ses.state.is_terminal()
    assert killed >= 3
