"""Seats belong to their players (issue 46, build item 5), on a real SQLite store: taking over a
seat whose phone is still there needs the host's consent (a request in the game's meta that the
host allows or refuses); the host renews the join link and short code (the old ones stop at once,
seat codes keep working); an ended game's link claims no seat; two requests for one seat at the
same moment (real processes): one is stored, the other is told another device already asks."""

from __future__ import annotations

import multiprocessing as mp
import time

import pytest

from apptools import TABLE, app, env, no_exception, texts  # noqa: F401 (env: a fixture)
from nochmal.store import claims
from nochmal.store.db import GameStore
from nochmal.store.claims import CODE_FIELDS, seat_held
from nochmal.store.errors import ConsentNeededError, GameOverError, NoGameError, RequestPendingError
from nochmal.store.session import GameSession, open_with_code
from nochmal.ui import botplay, newgame

NAMES = ["Ada", "Bo", "Cy"]


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path / "games.sqlite3") as s:
        yield s


def make(store: GameStore) -> GameSession:
    game = newgame.make_game("coop", newgame.default_sheets("coop", 3), 1)
    return GameSession.create(store, game, title="consent", seat_names=NAMES)


def load(store, ses) -> GameSession:
    return GameSession.load(store, ses.game_id)


def test_taking_over_a_held_seat_is_a_request_the_host_allows(store):
    ses = make(store)
    old = load(store, ses).claim_seat(0, "phone-ada")
    before = store.get(ses.game_id).meta
    with pytest.raises(ConsentNeededError, match="seat 1 is played on a device that is still connected"):
        load(store, ses).claim_seat(0, "intruder")
    assert store.get(ses.game_id).meta == before  # refused: nothing written
    token = load(store, ses).request_takeover(0, "new-phone")
    host = load(store, ses)
    assert [(r["seat"], r["device"], r["holder"]) for r in host.takeover_requests()] == [(0, "new-phone", "phone-ada")]
    assert load(store, ses).seat_of_code(old) == 0  # asking took nothing
    assert load(store, ses).takeover_answer(0, token) == ("pending", None)
    assert load(store, ses).takeover_answer(0, "not-the-token") == ("gone", None)
    assert host.answer_takeover(0, allow=True)
    assert not load(store, ses).answer_takeover(0, allow=False)  # answered already
    status, code = load(store, ses).takeover_answer(0, token)
    assert status == "allowed"
    now = load(store, ses)
    assert now.seat_of_code(code) == 0 and now.seat_of_code(old) is None and now.taken_over_seat(old) == 0
    assert now.meta["claims"]["0"] == "new-phone" and now.takeover_requests() == []
    assert now.takeover_answer(0, token) == ("gone", None)  # handed out once


def test_a_refused_request_changes_no_seat(store):
    ses = make(store)
    old = load(store, ses).claim_seat(1, "phone-bo")
    token = load(store, ses).request_takeover(1, "new-phone")
    assert load(store, ses).answer_takeover(1, allow=False)
    assert load(store, ses).takeover_answer(1, token) == ("refused", None)
    now = load(store, ses)
    assert now.seat_of_code(old) == 1 and now.meta["claims"]["1"] == "phone-bo" and now.takeover_requests() == []


def test_ten_take_overs_without_consent_are_all_refused(store):
    """The finding: 10 of 10 take-overs of a held seat by whoever had the join link succeeded."""
    ses = make(store)
    code = load(store, ses).claim_seat(2, "phone-cy")
    tried = refused = 0
    for i in range(10):
        tried += 1
        try:
            load(store, ses).claim_seat(2, f"intruder-{i}")
        except ConsentNeededError:
            refused += 1
    assert (tried, refused) == (10, 10)
    assert load(store, ses).seat_of_code(code) == 2 and load(store, ses).meta["claims"]["2"] == "phone-cy"


def test_free_seats_and_seats_of_devices_gone_long_are_claimed_at_once(store, monkeypatch):
    ses = make(store)
    load(store, ses).claim_seat(0, "first")  # free: at once
    assert seat_held(store.get(ses.game_id).meta, 0, "other")
    later = time.time() + claims.SEAT_HELD_S + 1
    assert not seat_held(store.get(ses.game_id).meta, 0, "other", at=later)
    monkeypatch.setattr(claims.time, "time", lambda: later)  # the first phone was not seen since
    code = load(store, ses).claim_seat(0, "second")
    assert load(store, ses).seat_of_code(code) == 0
    # a seat's device that is still there keeps it held
    assert load(store, ses).mark_seen(0, "second") and not load(store, ses).mark_seen(0, "first")


def test_the_host_moves_a_seat_without_a_prompt(store):
    ses = make(store)
    old = load(store, ses).claim_seat(0, "a")
    load(store, ses).release_seat(0)
    now = load(store, ses)
    assert "0" not in now.meta["claims"] and now.taken_over_seat(old) == 0
    code = load(store, ses).claim_seat(0, "b")  # at once: the seat is free
    assert load(store, ses).seat_of_code(code) == 0


def test_renewing_the_join_link_stops_the_old_token_and_short_code(store):
    ses = make(store)
    seat_code = load(store, ses).claim_seat(0, "a")
    old_token, old_short = ses.meta["join_token"], ses.meta["join_code"]
    token = load(store, ses).request_takeover(0, "b")
    host = load(store, ses)
    host.renew_join_codes()
    now = load(store, ses)
    assert now.meta["join_token"] != old_token and now.meta["join_code"] != old_short
    for code in (old_token, old_short, old_short.lower()):
        with pytest.raises(NoGameError):
            open_with_code(store, ses.game_id, code)
        assert now.join_renewed(code)
    assert not now.join_renewed(now.meta["join_token"]) and not now.join_renewed("x" * 22)
    assert open_with_code(store, ses.game_id, now.meta["join_token"]).role == "join"
    assert open_with_code(store, ses.game_id, now.meta["join_code"]).role == "short"
    assert open_with_code(store, ses.game_id, seat_code).seat == 0  # seat codes keep working
    assert now.takeover_answer(0, token) == ("gone", None)  # pending requests lapse
    assert {"revoked_join", "seat_seen", "takeover_requests"} <= set(CODE_FIELDS)
    assert not {"revoked_join", "seat_seen", "takeover_requests"} & set(now.export()["meta"])


def finished(store) -> GameSession:
    game = newgame.make_game("coop", newgame.default_sheets("coop", 2), 1)
    ses = GameSession.create(store, game, title="over", seat_names=["Ada", "Bo"], kind="digital", seed=3,
                             bots=["greedy", "greedy"])
    botplay.play_bots(ses)
    assert ses.state.is_terminal()
    store.change_meta(ses.game_id, lambda m: dict(m, bots=[None, None]))  # two human seats
    return load(store, ses)


def test_an_ended_game_claims_no_seat(store):
    ses = finished(store)
    with pytest.raises(GameOverError, match="this game has ended"):
        ses.claim_seat(0, "phone")
    with pytest.raises(GameOverError):
        load(store, ses).request_takeover(0, "phone")
    assert load(store, ses).meta["claims"] == {}


def test_an_ended_games_link_says_so_and_offers_the_history(env):
    ses = finished(env)
    phone = app({"game": ses.game_id, "join": ses.meta["join_token"], "claim": "1"})
    no_exception(phone)
    assert "This game has ended: its seats can no longer be claimed." in texts(phone, "error")
    assert GameSession.load(env, ses.game_id).meta["claims"] == {}
    phone.switch_page(TABLE).run()
    assert "This game has ended: its seats can no longer be claimed." in texts(phone, "info")


def test_a_renewed_link_is_refused_with_a_clear_message(env):
    ses = make(env)
    old = ses.meta["join_token"]
    GameSession.load(env, ses.game_id).renew_join_codes()
    phone = app({"game": ses.game_id, "join": old, "claim": "1"})
    no_exception(phone)
    assert any("This game's join link and code were renewed" in w for w in texts(phone, "warning")), texts(phone, "warning")
    assert GameSession.load(env, ses.game_id).meta["claims"] == {}


def test_the_host_screen_prompts_and_allows(env):
    ses = make(env)
    GameSession.load(env, ses.game_id).claim_seat(1, "phone-bo")
    token = GameSession.load(env, ses.game_id).request_takeover(1, "0badc0de")
    host = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    host.switch_page(TABLE).run()
    no_exception(host)
    assert any("asks to take over seat 2 (Bo)" in w for w in texts(host, "warning")), texts(host, "warning")
    host.button(key="takeover-ask-1-allow").click().run()
    no_exception(host)
    status, code = GameSession.load(env, ses.game_id).takeover_answer(1, token)
    assert status == "allowed" and GameSession.load(env, ses.game_id).seat_of_code(code) == 1


# --------------------------------------------------------------------------- two requests at once
def _asker(db, gid, barrier, results, who):
    with GameStore(db) as store:
        ses = GameSession.load(store, gid)
        barrier.wait(timeout=60)
        try:
            results.put((who, ses.request_takeover(0, who)))
        except RequestPendingError:
            results.put((who, None))


def test_two_requests_for_one_seat_at_once_one_is_stored(store, tmp_path):
    ctx = mp.get_context("fork")
    stored = refused = 0
    for _ in range(10):
        ses = make(store)
        load(store, ses).claim_seat(0, "holder")
        barrier, results = ctx.Barrier(2), ctx.Queue()
        procs = [ctx.Process(target=_asker, args=(str(store.path), ses.game_id, barrier, results, who))
                 for who in ("dev-a", "dev-b")]
        for p in procs:
            p.start()
        got = dict(results.get(timeout=60) for _ in procs)
        for p in procs:
            p.join(timeout=30)
            assert p.exitcode == 0
        winners = [who for who, token in got.items() if token]
        assert len(winners) == 1, got
        asks = load(store, ses).takeover_requests()
        assert [r["device"] for r in asks] == winners
        stored, refused = stored + 1, refused + 1
    assert (stored, refused) == (10, 10)
