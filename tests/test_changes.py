"""The change route (issue 42, item 3; nochmal/ui/changes.py): a page's held request is answered
when its game changes, never for a wrong token or a malformed id, and keeps a seat held. The
handler runs as the server runs it (an ASGI request on an event loop), on a real SQLite store."""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import subprocess
import sys
import threading
import time
from urllib.parse import urlencode

import pytest
from apptools import env  # noqa: F401 - the fixture
from starlette.requests import Request

from nochmal.engine.dice import Roll
from nochmal.engine.moves import PASS
from nochmal.store.access import THROTTLE_LIMIT
from nochmal.store.db import GameStore
from nochmal.store.session import GameSession
from nochmal.ui import changes
from nochmal.ui import entry, newgame


def ask(client: str = "10.0.0.1", **params) -> tuple[int, dict]:
    scope = {"type": "http", "method": "GET", "path": changes.ROUTE, "headers": [],
             "query_string": urlencode(params).encode(), "client": (client, 1234)}
    response = asyncio.run(changes.changes(Request(scope)))
    return response.status_code, json.loads(response.body)


def game(store) -> GameSession:
    return GameSession.create(store, newgame.make_game("coop", newgame.default_sheets("coop", 2), 1), title="t",
                              seat_names=["Ada", "Bo"])


def params(ses, seat=None, device="", **more) -> dict:
    return dict(game=ses.game_id, seat="" if seat is None else str(seat), device=device,
                token=changes.token(ses.game_id, seat, device), events="1", watch="w1", ends="- -", **more)


def test_a_page_behind_the_game_is_answered_at_once_with_the_new_version(env):  # noqa: F811
    ses = game(env)
    old = changes.version(ses.n_events, ses.meta, True)
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]), by="test")
    status, answer = ask(**params(ses, since=old))
    assert status == 200
    assert answer["version"] == changes.version(ses.n_events, ses.meta, True) != old


def test_a_held_request_is_answered_when_another_process_changes_the_game(env, monkeypatch):  # noqa: F811
    monkeypatch.setattr(changes, "WAIT_S", 20.0)
    ses = game(env)
    now = changes.version(ses.n_events, ses.meta, True)
    writer = threading.Timer(0.5, lambda: GameSession.load(env, ses.game_id).record(
        Roll.parse(["green", "blue", "red"], [1, 2, 3]), by="test"))
    writer.start()
    status, answer = ask(**params(ses, since=now))
    writer.join()
    assert status == 200 and answer["version"] != now  # answered by the change, not by the 20 s


def test_nothing_new_is_answered_after_the_wait_with_the_same_version(env, monkeypatch):  # noqa: F811
    monkeypatch.setattr(changes, "WAIT_S", 0.3)
    ses = game(env)
    now = changes.version(ses.n_events, ses.meta, True)
    assert ask(**params(ses, since=now)) == (200, {"version": now, "ends": ""})


def test_a_page_that_follows_claims_only_is_not_woken_by_events(env, monkeypatch):  # noqa: F811
    monkeypatch.setattr(changes, "WAIT_S", 0.3)
    ses = game(env)
    claims_only = changes.version(ses.n_events, ses.meta, False)
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]), by="test")
    status, answer = ask(**dict(params(ses, since=claims_only), events="0"))
    assert (status, answer["version"]) == (200, claims_only)


def test_wrong_tokens_and_malformed_ids_change_nothing_and_are_throttled(env):  # noqa: F811
    ses = game(env)
    other = game(env)
    assert ask(**dict(params(ses), game="../etc"))[0] == 400
    assert ask(**dict(params(ses), seat="1e3"))[0] == 400
    assert ask(**dict(params(ses), device="<b>"))[0] == 400
    # a token of another game, another seat, another device: refused
    assert ask(client="10.0.0.2", **dict(params(ses), token=changes.token(other.game_id, None, "")))[0] == 403
    assert ask(client="10.0.0.2", **dict(params(ses), token=changes.token(ses.game_id, 0, "")))[0] == 403
    for _ in range(THROTTLE_LIMIT):
        ask(client="10.0.0.3", **dict(params(ses), token="0" * 40))
    assert ask(client="10.0.0.3", **params(ses))[0] == 429  # even the right token, from that address, for a while
    assert ask(client="10.0.0.4", **dict(params(ses), since=""))[0] == 200  # another address is not held up


def test_the_open_request_of_a_seat_s_device_keeps_its_seat_held(env):  # noqa: F811
    ses = game(env)
    device = "ab12cd34ef56"
    ses.claim_seat(1, device)
    before = GameSession.load(env, ses.game_id).meta.get("seat_seen", {}).get("1")
    changes._seen_at.clear()
    assert ask(**params(ses, seat=1, device=device, since=""))[0] == 200
    after = GameSession.load(env, ses.game_id).meta["seat_seen"]["1"]
    assert before is None or after > before
    # another device's token for that seat marks nothing
    changes._seen_at.clear()
    assert ask(**params(ses, seat=1, device="ffff0000ffff", since=""))[0] == 200
    assert GameSession.load(env, ses.game_id).meta["seat_seen"]["1"] == after


def test_a_page_whose_end_marker_is_behind_the_session_s_count_is_answered_at_once(env, monkeypatch):  # noqa: F811
    monkeypatch.setattr(changes, "WAIT_S", 20.0)
    ses = game(env)
    now = changes.version(ses.n_events, ses.meta, True)
    changes.record_ends("w1", 3, 7)
    status, answer = ask(**dict(params(ses, since=now), ends="3 6"))  # the page shows page run 6 ended
    assert (status, answer) == (200, {"version": now, "ends": "3 7"})


@pytest.mark.parametrize(("shown", "ended", "behind"), [
    ("3 7", "3 7", False), ("3 6", "3 7", True), ("2 7", "3 7", True), ("- 7", "9 7", False), ("- -", "9 9", False),
    ("4 8", "3 7", False), ("", "3 7", False), ("3 7", "", False)])
def test_behind(shown, ended, behind):
    assert changes._behind(shown, ended) is behind


# ---- a deciding seat's device is not run again by another seat's entry in the same roll
def three(store) -> GameSession:
    return GameSession.create(store, newgame.make_game("coop", newgame.default_sheets("coop", 3), 1), title="t",
                              seat_names=["Ada", "Bo", "Cy"])


def seat_version(ses, seat: int) -> str:
    """The version the Table page of ``seat``'s own device shows (``state.watch_game`` with focus)."""
    return changes.version(ses.n_events, ses.meta, True, entry.seat_focus(ses.state, seat))


def test_a_deciding_seat_is_not_woken_by_another_seat_s_entry_but_by_its_own_roll_ending(env, monkeypatch):  # noqa: F811
    monkeypatch.setattr(changes, "WAIT_S", 0.5)
    ses = three(env)
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]), by="test")
    ses.record(PASS, 0)  # the active seat fails: seats 2 and 3 decide (R-ORDER)
    assert entry.seats_to_decide(ses.state) == [1, 2]
    bo, host = seat_version(ses, 1), changes.version(ses.n_events, ses.meta, True)
    ses.record(PASS, 2)  # Cy's entry, in the same roll
    assert ask(**params(ses, seat=1, focus="1", since=bo))[1]["version"] == bo  # Bo's phone: nothing new
    assert ask(**params(ses, since=host))[1]["version"] != host  # the host screen shows it
    # without the focus (the History page) Bo's device follows every event
    assert ask(**params(ses, seat=1, since=changes.version(ses.n_events - 1, ses.meta, True)))[1]["version"] == \
        changes.version(ses.n_events, ses.meta, True)
    ses.record(PASS, 1)  # Bo decides (on the host screen): the roll ends, Bo's phone is woken
    assert ask(**params(ses, seat=1, focus="1", since=bo))[1]["version"] == seat_version(ses, 1) != bo


def test_an_undo_that_changes_a_deciding_seat_s_roll_wakes_it(env, monkeypatch):  # noqa: F811
    monkeypatch.setattr(changes, "WAIT_S", 0.5)
    ses = three(env)
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]), by="test")
    ses.record(PASS, 0)
    bo = seat_version(ses, 1)
    ses.undo()  # the active seat decides again: Bo waits
    status, answer = ask(**params(ses, seat=1, focus="1", since=bo))
    assert status == 200 and answer["version"] != bo


def test_a_change_made_by_this_process_wakes_a_held_request_at_once(env, monkeypatch):  # noqa: F811
    monkeypatch.setattr(changes, "WAIT_S", 20.0)
    monkeypatch.setattr(changes, "LOOK_S", 5.0)  # without the poke it would be seen 5 s later at the soonest
    ses = game(env)
    now = changes.version(ses.n_events, ses.meta, True)
    changes.VERSIONS.read(env, ses.game_id)  # the version cached, as a page's earlier look left it

    def write():
        GameSession.load(env, ses.game_id).record(Roll.parse(["green", "blue", "red"], [1, 2, 3]), by="test")
        changes.poke(ses.game_id)

    writer = threading.Timer(0.3, write)
    writer.start()
    started = time.monotonic()
    status, answer = ask(**params(ses, since=now))
    writer.join()
    assert status == 200 and answer["version"] != now and time.monotonic() - started < 3


def test_a_seat_s_device_hears_of_an_event_after_the_shared_screen_while_one_follows_the_game(env, monkeypatch):  # noqa: F811
    monkeypatch.setattr(changes, "WAIT_S", 0.3)
    monkeypatch.setattr(changes, "PHONES_AFTER_S", 1.0)
    ses = game(env)
    ses.claim_seat(1, "ab12cd34ef56")
    ses = GameSession.load(env, ses.game_id)
    old_host, old_seat = changes.version(ses.n_events, ses.meta, True), changes.version(ses.n_events, ses.meta, True)
    assert ask(**params(ses, since=old_host))[1]["version"] == old_host  # the shared screen follows the game
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]), by="test")
    started = time.monotonic()
    assert ask(**params(ses, since=old_host))[1]["version"] != old_host
    host_s = time.monotonic() - started
    status, answer = ask(**params(ses, seat=1, device="ab12cd34ef56", since=old_seat))
    seat_s = time.monotonic() - started
    assert status == 200 and answer["version"] != old_seat
    assert host_s < 0.5 <= 0.9 <= seat_s  # the phone: about PHONES_AFTER_S after the screen first read it
    # a game no shared screen follows: a phone hears at once
    other = game(env)
    before = changes.version(other.n_events, other.meta, True)
    other.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]), by="test")
    started = time.monotonic()
    assert ask(**params(other, seat=1, since=before))[1]["version"] != before
    assert time.monotonic() - started < 0.5


# ---- tokens that survive a failover: every server process on one store signs with the store's key
_TOKEN_OF = ("import sys\nfrom nochmal.ui import changes\n"
             "print(changes.token(sys.argv[1], int(sys.argv[2]) if sys.argv[2] else None, sys.argv[3]))\n")


def token_from_another_process(store: str, game_id: str, seat: int | None, device: str) -> str:
    """The token a server process of its own on ``store`` gives a page (the same code as the app's)."""
    env = dict(os.environ, NOCHMAL_DB=str(store), PYTHONPATH=os.pathsep.join(
        [str(pathlib.Path(__file__).resolve().parent.parent), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", _TOKEN_OF, game_id, "" if seat is None else str(seat), device],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_token_from_another_process_on_the_same_store_is_taken_and_one_from_another_store_refused(
        store_url, tmp_path, monkeypatch):
    """Process B (another python) gives a phone its token; this process (A, on the same SQLite file
    or PostgreSQL database) answers the phone's request with it, as after a failover from B to A.
    A token made on another store is refused (403) and counted as a wrong one."""
    monkeypatch.setenv("NOCHMAL_DB", store_url)
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(changes, "WAIT_S", 0.3)
    store = GameStore(store_url)
    try:
        ses = game(store)
        device = "ab12cd34ef56"
        from_b = token_from_another_process(store_url, ses.game_id, 1, device)
        assert len(from_b) == 40
        assert from_b == changes.token(ses.game_id, 1, device)  # A makes the same one
        mine = dict(params(ses, seat=1, device=device, since=""), token=from_b)
        assert ask(client="10.0.1.1", **mine)[0] == 200
        host = dict(params(ses, since=""), token=token_from_another_process(store_url, ses.game_id, None, ""))
        assert ask(client="10.0.1.1", **host)[0] == 200
        # still per game, seat and device
        assert ask(client="10.0.1.2", **dict(mine, device="ffff0000ffff"))[0] == 403
        assert ask(client="10.0.1.2", **dict(mine, seat="0"))[0] == 403
        # another store's process: another key
        elsewhere = token_from_another_process(tmp_path / "elsewhere.sqlite3", ses.game_id, 1, device)
        assert elsewhere != from_b
        assert ask(client="10.0.1.3", **dict(mine, token=elsewhere))[0] == 403
        for _ in range(THROTTLE_LIMIT - 1):
            ask(client="10.0.1.3", **dict(mine, token=elsewhere))
        assert ask(client="10.0.1.3", **mine)[0] == 429  # counted by the throttle as wrong tokens
    finally:
        store.close()


def test_a_store_that_cannot_be_read_answers_503_not_a_traceback(tmp_path, monkeypatch):
    bad = tmp_path / "not-a-store.sqlite3"
    bad.write_bytes(b"x" * 4096)  # no SQLite header
    monkeypatch.setenv("NOCHMAL_DB", str(bad))
    status, answer = ask(game="g1", seat="", device="", token="0" * 40, events="1", watch="w1", ends="- -")
    assert (status, answer) == (503, {"error": "the game store cannot be read"})
