"""Games on an owner's own twenty one sheet (issue 44 item 3): the game's config carries the sheet's
whole content (shipped sheets A-F by id), so a game replays and plays on after the file is edited or
deleted, from the store, from an export, and in another process whose user data folder has no sheets.
Real files, a real SQLite store, a real subprocess; nothing is mocked."""

from __future__ import annotations

import random

import pytest

from nochmal.data import twentyoneuser as U
from nochmal.engine.twentyone import TwentyOneGame

COLOURS = ["wkrbyg", "kwrbyg", "rkwbyg", "bkrwyg", "ykrbwg"]
VALUES = [[6, 5, 4, 3, 2, 1], [6, 6, 4, 3, 3, 1], [5, 5, 4, 3, 2, 1], [6, 5, 5, 3, 2, 1], [4, 4, 4, 3, 2, 2]]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def data(sid="mine", colours=COLOURS, values=VALUES, **kw):
    return U.typed_sheet_data(sid, [list(r) for r in colours], [list(v) for v in values], **kw)


def test_a_game_on_a_user_sheet_carries_it_and_plays_on_after_the_file_is_deleted(home):
    from nochmal.engine.twentyone import play, replay
    from nochmal.bots.twentyone_policies import twentyone_policy

    U.save_user_sheet(data())
    game = TwentyOneGame.create(2, sheets=["mine", "A"])
    config = game.config()
    assert config["sheets"][1] == "A" and config["sheets"][0]["id"] == "mine"
    assert config["sheets"][0]["values"][4] == [4, 4, 4, 3, 2, 2]
    state = game.new_state()
    rng = random.Random(5)
    policy = twentyone_policy("greedy")
    for _ in range(12):
        state.apply(state.sample_chance(rng) if state.is_chance_node() else policy(state, rng))
    log = list(state.history)
    U.save_user_sheet(data(values=[[6, 5, 4, 3, 2, 1]] * 5))  # the file edited: the game keeps what it began on
    assert TwentyOneGame.from_config(config).sheets[0].value_at[4] == (4, 4, 4, 3, 2, 2)
    U.delete_user_sheet("mine")
    again = TwentyOneGame.from_config(config)
    assert again.sheets[0].spec == game.sheets[0].spec
    state2 = replay(again, log)
    assert state2.to_json() == state.to_json()
    play(state2, policy, rng)
    assert state2.is_terminal() and state2.seats[0].sheet.value_at[4] == (4, 4, 4, 3, 2, 2)


OTHER_DEVICE = """
import random, sys
from nochmal.store.db import GameStore
from nochmal.store.session import GameSession
from nochmal.engine.twentyone.sheets import user_sheet_ids
assert user_sheet_ids() == [], user_sheet_ids()
with GameStore(sys.argv[1]) as store:
    ses = GameSession.load(store, sys.argv[2])
    policy, rng = ses.kind.policy("greedy"), random.Random(3)
    while not ses.state.is_terminal():
        ses.roll_digital() if ses.state.is_chance_node() else ses.record(policy(ses.state, rng))
    print("sheet", ses.state.seats[0].sheet.id, ses.state.seats[0].sheet.value_at[4])
    print("total", ses.state.total(0))
"""


def test_a_stored_game_on_a_user_sheet_loads_and_plays_on_another_device_after_the_file_is_gone(home, tmp_path):
    import os
    import subprocess
    import sys

    from nochmal.store.db import GameStore
    from nochmal.store.session import GameSession
    from nochmal.store.transfer import import_game

    U.save_user_sheet(data())
    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        ses = GameSession.create(store, TwentyOneGame.create(2, sheets=["mine", "C"]), kind="digital", seed=9)
        policy, rng = ses.kind.policy("greedy"), random.Random(1)
        for _ in range(10):
            ses.roll_digital() if ses.state.is_chance_node() else ses.record(policy(ses.state, rng))
        before = ses.state.to_json()
        exported = ses.export()
    U.delete_user_sheet("mine")
    with GameStore(db) as store:
        again = GameSession.load(store, ses.game_id)
        assert again.state.to_json() == before
        assert again.state.seats[0].sheet.spec.provenance.values == ("user",) * 5
        imported = import_game(store, exported, source="t.json")
        assert imported.state.to_json() == before
    # another process whose user data folder has no sheets at all: the game carries its sheet
    env = dict(os.environ, NOCHMAL_HOME=str(tmp_path / "elsewhere"),
               PYTHONPATH=os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")])))
    out = subprocess.run([sys.executable, "-c", OTHER_DEVICE, str(db), ses.game_id], env=env, text=True,
                         capture_output=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "sheet mine (4, 4, 4, 3, 2, 2)" in out.stdout and "total" in out.stdout


def test_the_command_line_plays_on_a_user_sheet_by_its_id(home):
    import json
    import os
    import subprocess
    import sys

    U.save_user_sheet(data(values=[[6, 6, 6, 6, 6, 6]] * 5))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")]))}
    r = subprocess.run([sys.executable, "-m", "nochmal.cli", "play", "--game", "twentyone", "--players", "2",
                        "--sheets", "mine,A", "--policy", "greedy", "--seed", "3", "--json"], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [s["sheet"] for s in out["seats"]] == ["mine", "A"]
    r = subprocess.run([sys.executable, "-m", "nochmal.cli", "play", "--game", "twentyone", "--players", "2",
                        "--sheets", "a,B", "--json"], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode != 0 and "unknown twenty one sheet 'a'" in r.stderr and "Traceback" not in r.stderr
