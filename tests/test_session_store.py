"""The game store under the session layer (``nochmal.store.session.GameSession`` over
``nochmal.store.db.GameStore``): crash safety with SIGKILLed writer processes, two writers on one
game (optimistic concurrency), corrupt files. Real SQLite files and a real PostgreSQL server (conftest.py's
``store_url``: the crash and race tests run on both), real subprocesses, no mocks."""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from nochmal.engine.coop import CoopGame
from nochmal.engine.dice import Roll
from nochmal.engine.errors import IllegalMoveError, NochmalError
from nochmal.store.events import action_of, parse_event
from nochmal.engine.game import CHANCE, action_to_json
from nochmal.engine.moves import PASS, Cross
from nochmal.store.session import GameSession, digital_roll
from nochmal.store.db import ConflictError, GameStore, StoreError

HELPERS = pathlib.Path(__file__).parent / "helpers"
WRITER = HELPERS / "session_writer.py"


def _load_writer():
    spec = importlib.util.spec_from_file_location("_session_writer", WRITER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


writer = _load_writer()


def stored_actions(store: GameStore, gid: str) -> list[dict]:
    return [action_to_json(action_of(parse_event(e, i))) for i, e in enumerate(store.events(gid))]


# --------------------------------------------------------------------------- crash safety
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_during_a_session_loses_no_acknowledged_event(tmp_path, store_url, request):
    on_server = store_url.startswith("postgresql://")

    def store_for(index: int) -> str:
        """A new store for each game: a file, or a new schema on the server."""
        if index == 0:
            return store_url
        if on_server:
            from conftest import fresh_pg_store

            return fresh_pg_store(request.getfixturevalue("pg_cluster"))
        return str(tmp_path / f"crash{index}.sqlite3")

    rng = random.Random(20261122)
    rounds = 20
    players, mission = 3, 1
    db_index = 0
    path = store_for(0)
    acked_total = 0
    kills = 0
    for r in range(rounds):
        seed = 40 + db_index
        early = rng.random() < 0.15  # now and then kill during start-up / game creation
        stop_after = rng.choice([0, 1, rng.randint(2, 12), rng.randint(5, 30), rng.randint(5, 30)])
        proc = subprocess.Popen([sys.executable, str(WRITER), str(path), str(seed), str(players), str(mission)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        acks: list[int] = []
        done = False
        try:
            if early:
                time.sleep(rng.random() * 0.6)
            else:
                first = proc.stdout.readline()
                assert first.startswith("game "), first + proc.stderr.read()
                while len(acks) < stop_after:
                    line = proc.stdout.readline().strip()
                    if not line:
                        break
                    if line == "done":
                        done = True
                        break
                    acks.append(int(line))
                if not done:
                    time.sleep(rng.random() * 0.012)  # land the kill at a random point of a record
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
        rest = proc.stdout.read().split()
        err = proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
        done = done or "done" in rest
        acks += [int(x) for x in rest if x.isdigit()]
        assert "Traceback" not in err, err
        assert acks == list(range(acks[0], acks[0] + len(acks))) if acks else True  # one ack per event
        if proc.returncode == -signal.SIGKILL:
            kills += 1
        acked_total += len(acks)

        # every reopened game is valid and holds at least every acknowledged event
        if on_server or os.path.exists(path):
            with GameStore(path) as store:
                games = store.list_games()
                assert len(games) <= 1
                if games:
                    gid = games[0].game_id
                    ses = GameSession.load(store, gid)  # folds every stored event or raises
                    assert ses.n_events >= max(acks, default=0)
                    assert ses.n_events == store.n_events(gid)
                    expected = writer.expected_actions(seed, players, mission, ses.meta["seed"])
                    assert stored_actions(store, gid) == expected[:ses.n_events]
                    if ses.state.is_terminal():
                        assert ses.n_events == len(expected)
                        done = True
                else:
                    assert not acks
            if not on_server:
                raw = sqlite3.connect(path)
                try:
                    assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                finally:
                    raw.close()
        if done:  # the game is over: the next rounds play a new game in a new store
            db_index += 1
            path = store_for(db_index)
    assert kills >= 15
    assert acked_total > rounds


def test_two_writer_processes_racing_on_one_game(store_url):
    path = store_url
    players, mission, seed = 2, 2, 9
    with GameStore(path) as store:
        ses = GameSession.create(store, writer.make_game(players, mission), kind="digital", seed=seed)
        gid = ses.game_id
    procs = [subprocess.Popen([sys.executable, str(WRITER), str(path), str(seed), str(players), str(mission),
                               "--retry-conflicts"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=60) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert out.strip().endswith("done")
    with GameStore(path) as store:
        assert [g.game_id for g in store.list_games()] == [gid]
        events = store.events(gid)
        assert [e["seq"] for e in events] == list(range(len(events)))  # nothing lost or duplicated
        expected = writer.expected_actions(seed, players, mission, seed)
        assert stored_actions(store, gid) == expected
        assert GameSession.load(store, gid).state.is_terminal()


# --------------------------------------------------------------------------- two writers in one process
def _two_sessions(path):
    store1, store2 = GameStore(path), GameStore(path)  # two devices, two connections
    game = CoopGame.create(3, 2)
    s1 = GameSession.create(store1, game, kind="digital", seed=5)
    s2 = GameSession.load(store2, s1.game_id)
    return store1, store2, s1, s2


def test_two_sessions_one_records_the_other_conflicts(store_url):
    store1, store2, s1, s2 = _two_sessions(store_url)
    try:
        # both read the same position
        assert s1.state.to_json() == s2.state.to_json()
        assert s1.state.current_player() == s2.state.current_player() == CHANCE
        s1.roll_digital()
        before = json.dumps(s2.state.to_json(), sort_keys=True)
        with pytest.raises(ConflictError):
            s2.record(Roll.of((0, 1, 2), (1, 2, 3)))
        # the loser changed nothing, the store holds the winner's event exactly once
        assert s2.n_events == 0
        assert json.dumps(s2.state.to_json(), sort_keys=True) == before
        assert store1.n_events(s1.game_id) == 1
        assert [e["seq"] for e in store2.events(s1.game_id)] == [0]
        assert store2.events(s1.game_id)[0]["type"] == "roll"
        # after refresh() the loser sees the winner's roll and can record
        s2.refresh()
        assert s2.state.to_json() == s1.state.to_json()
        move = s2.state.legal_actions()[1]
        s2.record(move)
        assert s2.n_events == 2
        # now the first session is behind
        with pytest.raises(ConflictError):
            s1.record(PASS)
        assert s1.n_events == 1
        s1.refresh()
        assert s1.state.to_json() == s2.state.to_json()
        s1.record(PASS)
        s2.refresh()
        events = store2.events(s1.game_id)
        assert [e["seq"] for e in events] == [0, 1, 2]
        assert [e["type"] for e in events] == ["roll", "cross", "pass"]
        assert s2.state.to_json() == s1.state.to_json()
    finally:
        store1.close()
        store2.close()


def test_two_sessions_conflicting_undo(store_url):
    store1, store2, s1, s2 = _two_sessions(store_url)
    try:
        s1.roll_digital()
        s2.refresh()
        s1.undo()
        with pytest.raises(ConflictError):
            s2.undo()
        s2.refresh()
        assert s2.n_events == 2 and not s2.can_undo
        assert [e["type"] for e in store1.events(s1.game_id)] == ["roll", "undo"]
    finally:
        store1.close()
        store2.close()


def test_an_illegal_entry_stores_nothing(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        ses = GameSession.create(store, CoopGame.create(2, 1), kind="digital", seed=1)
        ses.roll_digital()
        n = store.n_events(ses.game_id)
        bad = Cross(0, 1, 0, 1)  # A1: not in column H on the first move
        with pytest.raises(IllegalMoveError):
            ses.record(bad)
        with pytest.raises(NochmalError):
            ses.record(Roll.of((0, 1, 2), (1, 2, 3)))  # a roll is not due
        assert store.n_events(ses.game_id) == n == ses.n_events
        assert GameSession.load(store, ses.game_id).state.to_json() == ses.state.to_json()


def test_digital_rolls_are_reproducible():
    a = digital_roll(7, 3, 3, 3)
    assert a == digital_roll(7, 3, 3, 3)
    assert (len(a.colours), len(a.numbers)) == (3, 3)
    b = digital_roll(7, 20, 3, 2)
    assert (len(b.colours), len(b.numbers)) == (3, 2)


# --------------------------------------------------------------------------- corrupt files
def _saved_game(path: pathlib.Path) -> str:
    with GameStore(path) as store:
        ses = GameSession.create(store, CoopGame.create(2, 1), kind="digital", seed=3)
        for _ in range(5):
            ses.roll_digital() if ses.state.is_chance_node() else ses.record(ses.state.legal_actions()[-1])
        return ses.game_id


def _open_and_load(path: pathlib.Path, gid: str | None):
    store = GameStore(path)
    try:
        GameSession.load(store, gid or "x")
    finally:
        store.close()


@pytest.mark.parametrize("damage", ["garbage-file", "text-file", "page-1-after-header", "pages-after-first",
                                    "truncated"])
def test_corrupt_sqlite_file_is_store_error_and_left_unchanged(tmp_path, damage):
    path = tmp_path / "g.sqlite3"
    gid = _saved_game(path)
    data = bytearray(path.read_bytes())
    page = 4096 if len(data) >= 8192 else len(data) // 2
    r = random.Random(damage)
    if damage == "garbage-file":
        data = bytearray(r.randbytes(len(data)))
    elif damage == "text-file":
        data = bytearray(b"this is not a database\n" * 200)
    elif damage == "page-1-after-header":
        data[100:page] = r.randbytes(page - 100)
    elif damage == "pages-after-first":
        data[page:] = r.randbytes(len(data) - page)
    else:
        data = data[: len(data) // 2 + 123]
    path.write_bytes(bytes(data))
    for sidecar in ("-wal", "-shm"):
        pathlib.Path(str(path) + sidecar).unlink(missing_ok=True)
    with pytest.raises(StoreError) as e:
        _open_and_load(path, gid)
    assert not isinstance(e.value, sqlite3.Error)
    assert path.read_bytes() == bytes(data)


def test_tampered_event_row_is_reported_on_load(tmp_path):
    path = tmp_path / "g.sqlite3"
    gid = _saved_game(path)
    raw = sqlite3.connect(path)
    with raw:
        raw.execute("UPDATE events SET body = ? WHERE game_id = ? AND seq = 2", ("{not json", gid))
    raw.close()
    with pytest.raises(StoreError, match="seq 2"):
        _open_and_load(path, gid)
    # an event that parses but breaks the rules names the event
    raw = sqlite3.connect(path)
    with raw:
        body = {"type": "cross", "seq": 2, "rules_version": 1, "seat": 0, "colour_die": "yellow",
                "number_die": "1", "colour": "yellow", "cells": ["A1"]}
        raw.execute("UPDATE events SET body = ? WHERE game_id = ? AND seq = 2", (json.dumps(body), gid))
    raw.close()
    with pytest.raises(NochmalError, match="event 2"):
        _open_and_load(path, gid)
