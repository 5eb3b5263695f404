"""Seat claims (issue 17, item 3): a claim is a compare-and-set on the game's meta in the store.
Claims of different seats at the same moment both survive; two devices claiming the same seat
at the same moment: one wins, the other is told to try again and never holds a dead code.
Real SQLite files and a real PostgreSQL server (conftest.py's ``store_url``: the store's tests and the
races run on both), real OS processes, and the app's join link with AppTest."""

from __future__ import annotations

import multiprocessing as mp
import time

import pytest

from apptools import TABLE, app, env, keys, no_exception, texts  # noqa: F401 (env: a fixture)
from nochmal.ui import newgame
from nochmal.engine.errors import InvalidInputError
from nochmal.store.errors import ConsentNeededError, SeatTakenError
from nochmal.store.session import GameSession
from nochmal.store.db import GameStore, MetaConflictError

ROUNDS = 100


def make(store: GameStore, players: int = 3, **kw) -> GameSession:
    game = newgame.make_game("coop", newgame.default_sheets("coop", players), 1)
    return GameSession.create(store, game, title="claims", seat_names=[f"P{i + 1}" for i in range(players)], **kw)


@pytest.fixture
def store(store_url):
    with GameStore(store_url) as s:
        yield s


# --------------------------------------------------------------------------- the store's compare-and-set
def test_update_meta_with_expected_is_a_compare_and_set(store):
    gid = store.create_game({"n": 1})
    seen = store.get(gid).meta
    store.update_meta(gid, {"n": 2}, expected=seen)
    with pytest.raises(MetaConflictError, match="changed since it was read"):
        store.update_meta(gid, {"n": 3}, expected=seen)  # a stale read
    assert store.get(gid).meta == {"n": 2}


def test_change_meta_reads_inside_the_transaction_and_an_error_writes_nothing(store):
    gid = store.create_game({"n": 1})
    assert store.change_meta(gid, lambda m: m | {"n": m["n"] + 1}) == {"n": 2}

    def refuse(meta):
        raise SeatTakenError(0)

    with pytest.raises(SeatTakenError):
        store.change_meta(gid, refuse)
    assert store.get(gid).meta == {"n": 2}
    with pytest.raises(Exception, match="must be a dict"):
        store.change_meta(gid, lambda m: ["not", "a", "dict"])
    assert store.get(gid).meta == {"n": 2}


# --------------------------------------------------------------------------- claims, one after the other
def test_claims_of_different_seats_from_stale_sessions_both_survive(store):
    """The bug of issue 17: each device wrote back the meta it had read, dropping the other's claim."""
    ses = make(store)
    a, b = GameSession.load(store, ses.game_id), GameSession.load(store, ses.game_id)  # both look first
    code_a = a.claim_seat(0, "phone-a")
    code_b = b.claim_seat(1, "phone-b")
    now = GameSession.load(store, ses.game_id)
    assert now.meta["claims"] == {"0": "phone-a", "1": "phone-b"}
    assert now.seat_of_code(code_a) == 0 and now.seat_of_code(code_b) == 1


def test_the_same_seat_claimed_by_two_devices_that_looked_at_once(store):
    ses = make(store)
    a, b = GameSession.load(store, ses.game_id), GameSession.load(store, ses.game_id)
    code_a = a.claim_seat(2, "phone-a")
    before = store.get(ses.game_id).meta
    with pytest.raises(SeatTakenError, match=r"seat 3: this seat was just claimed by another device — try again"):
        b.claim_seat(2, "phone-b")
    assert store.get(ses.game_id).meta == before  # nothing written
    assert GameSession.load(store, ses.game_id).seat_of_code(code_a) == 2  # the winner's code works
    # b looks again, sees the seat taken and takes it over on purpose (a phone was replaced):
    # phone-a was seen just now, so that takes the host's consent (issue 46)
    b.refresh()
    with pytest.raises(ConsentNeededError):
        b.claim_seat(2, "phone-b")
    token = b.request_takeover(2, "phone-b")
    assert GameSession.load(store, ses.game_id).answer_takeover(2, allow=True)
    status, code_b = b.takeover_answer(2, token)
    assert status == "allowed"
    now = GameSession.load(store, ses.game_id)
    assert now.seat_of_code(code_b) == 2 and now.seat_of_code(code_a) is None
    assert now.meta["claims"] == {"2": "phone-b"}


def test_claims_refuse_bad_seats_and_bot_seats(store):
    ses = make(store, kind="digital", seed=1, bots=[None, "greedy", None])
    for seat in (-1, 3, 99, True, "1", None):
        with pytest.raises(InvalidInputError, match="this game has seats 1-3"):
            ses.claim_seat(seat, "phone")
    with pytest.raises(InvalidInputError, match="seat 2 is played by the greedy bot"):
        ses.claim_seat(1, "phone")
    assert GameSession.load(store, ses.game_id).meta["claims"] == {}


# --------------------------------------------------------------------------- claims at the same moment
def _claimer(db: str, plan: list, barrier, results, who: str, naive: bool) -> None:
    """One device: for each (game, seat) look at the game, wait for the other process at the
    barrier, then claim. ``naive``: the claim as it was before issue 17 (write back the meta
    read before the barrier) — run to show that this test sees lost claims."""
    out = []
    with GameStore(db) as store:
        for gid, seat in plan:
            ses = GameSession.load(store, gid)
            barrier.wait(timeout=60)
            if naive:
                code = f"{who}-{gid}"
                meta = dict(ses.meta)
                meta["claims"] = dict(meta["claims"], **{str(seat): who})
                meta["seat_codes"] = dict(meta["seat_codes"], **{str(seat): code})
                store.update_meta(gid, meta)
            else:
                try:
                    code = ses.claim_seat(seat, who)
                except SeatTakenError:
                    code = None
            out.append((gid, seat, code))
    results.put((who, out))


def _race(db, games: list[str], seats_a: list[int], seats_b: list[int], naive: bool = False,
          more: tuple[list[int], ...] = ()) -> dict:
    """Two devices (``seats_a``, ``seats_b``; ``more``: further devices), one process each."""
    plans = [seats_a, seats_b, *more]
    ctx = mp.get_context("fork")
    barrier, results = ctx.Barrier(len(plans)), ctx.Queue()
    procs = [ctx.Process(target=_claimer, args=(db, list(zip(games, seats)), barrier, results, who, naive))
             for who, seats in ((f"device-{chr(ord('a') + i)}", seats) for i, seats in enumerate(plans))]
    for p in procs:
        p.start()
    got = dict(results.get(timeout=120) for _ in procs)
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    return got


def _lost(store: GameStore, got: dict) -> tuple[int, int, int]:
    """(claims handed out, claims lost: a device holds a code the game does not know, refusals)."""
    handed = lost = refused = 0
    for who, out in got.items():
        for gid, seat, code in out:
            if code is None:
                refused += 1
                continue
            handed += 1
            meta = store.get(gid).meta
            if meta["seat_codes"].get(str(seat)) != code or meta["claims"].get(str(seat)) != who:
                lost += 1
    return handed, lost, refused


def test_race_two_processes_claim_different_seats_at_the_same_moment_no_claim_lost(store_url):
    db = store_url
    with GameStore(db) as store:
        games = [make(store).game_id for _ in range(ROUNDS)]
        naive_games = [make(store).game_id for _ in range(20)]
    t0 = time.perf_counter()
    got = _race(db, games, [0] * ROUNDS, [1] * ROUNDS)
    took = time.perf_counter() - t0
    naive = _race(db, naive_games, [0] * 20, [1] * 20, naive=True)
    with GameStore(db) as store:
        handed, lost, refused = _lost(store, got)
        _, naive_lost, _ = _lost(store, naive)
        for gid in games:
            assert set(store.get(gid).meta["claims"]) == {"0", "1"}
    print(f"\nclaim race, different seats: {ROUNDS} races, {handed} claims, {lost} lost, {refused} refused "
          f"({took:.1f} s); the claim as it was before: {naive_lost} of 20 lost")
    assert (handed, lost, refused) == (2 * ROUNDS, 0, 0)
    assert naive_lost == 20  # the test does see a lost claim where there is one


def test_race_two_processes_claim_the_same_seat_at_the_same_moment_one_wins(store_url):
    db = store_url
    with GameStore(db) as store:
        games = [make(store).game_id for _ in range(ROUNDS)]
    got = _race(db, games, [2] * ROUNDS, [2] * ROUNDS)
    with GameStore(db) as store:
        handed, lost, refused = _lost(store, got)
        for gid in games:
            assert len(store.get(gid).meta["claims"]) == 1
    wins = {who: sum(code is not None for _, _, code in out) for who, out in got.items()}
    print(f"\nclaim race, same seat: {ROUNDS} races, {handed} won, {refused} told to try again, {lost} lost "
          f"(wins per device: {wins})")
    assert (handed, lost, refused) == (ROUNDS, 0, ROUNDS)


def test_race_six_processes_claim_one_seat_at_the_same_moment_exactly_one_wins(store_url):
    rounds, devices = 30, 6
    with GameStore(store_url) as store:
        games = [make(store).game_id for _ in range(rounds)]
    got = _race(store_url, games, [1] * rounds, [1] * rounds, more=tuple([1] * rounds for _ in range(devices - 2)))
    assert len(got) == devices
    with GameStore(store_url) as store:
        handed, lost, refused = _lost(store, got)
        for gid in games:
            winners = [who for who, out in got.items() for g, _, code in out if g == gid and code is not None]
            assert len(winners) == 1, (gid, winners)
            assert store.get(gid).meta["claims"] == {"1": winners[0]}
    assert (handed, lost, refused) == (rounds, 0, rounds * (devices - 1))


# --------------------------------------------------------------------------- the join link in the app
def _claim(at, seat: int):
    at.radio(key="claim-seat").set_value(seat)
    at.button(key="claim-seat-btn").click().run()
    no_exception(at)


def test_join_link_opens_the_game_on_a_second_device_ready_to_claim_a_seat(env):
    ses = make(env)
    # the host sees the join link and the short code
    host = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    no_exception(host)
    shown = [c.value for c in host.code]
    assert any(c.endswith(f"/?game={ses.game_id}&join={ses.meta['join_token']}") for c in shown), shown
    captions = "\n".join(texts(host, "caption"))
    assert ses.meta["join_code"][:4] + "-" + ses.meta["join_code"][4:] in captions

    # device 2 opens the link: the Start page offers the seats, nothing else is needed
    phone = app({"game": ses.game_id, "join": ses.meta["join_token"]})
    no_exception(phone)
    assert "claim-seat-btn" in keys(phone)
    _claim(phone, 1)
    seat_code = phone.query_params.get("code")
    assert phone.query_params.get("seat") == "2" and "join" not in phone.query_params
    assert any("This device now plays seat 2" in s for s in texts(phone, "success"))
    now = GameSession.load(env, ses.game_id)
    assert now.seat_of_code(seat_code) == 1 and now.meta["seat_codes"]["1"] == seat_code
    # the claimed device enters its own seat only: after seat 1 (the host) has decided
    from nochmal.engine.dice import Roll

    now.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    now.record(next(a for a in now.state.legal_actions(0) if getattr(a, "cells", 0)), seat=0)
    phone.switch_page(TABLE).run()
    ks = keys(phone)
    assert "cell-1-H1" in ks and not any(k.startswith(("cell-0-", "cell-2-")) for k in ks)


def test_two_devices_that_saw_the_same_free_seat_one_is_told_to_try_again(env):
    ses = make(env)
    link = {"game": ses.game_id, "join": ses.meta["join_token"]}
    a, b = app(link), app(link)  # both show seat 3 as free
    _claim(a, 2)
    code_a = a.query_params.get("code")
    _claim(b, 2)
    assert any("this seat was just claimed by another device — try again" in e for e in texts(b, "error")), \
        texts(b, "error")
    assert b.query_params.get("join") == ses.meta["join_token"] and "code" not in b.query_params
    now = GameSession.load(env, ses.game_id)
    assert now.seat_of_code(code_a) == 2 and now.meta["claims"]["2"] == a.session_state["device"]
    # b now sees the seat as claimed, picks another one and gets it
    assert any("claimed by another device" in o for o in b.radio(key="claim-seat").options)
    _claim(b, 0)
    now = GameSession.load(env, ses.game_id)
    assert now.seat_of_code(b.query_params.get("code")) == 0 and now.seat_of_code(code_a) == 2


def test_the_short_code_typed_instead_puts_the_link_token_in_the_url(env):
    ses = make(env)
    at = app()
    at.text_input(key="open-id").set_value(ses.game_id)
    at.text_input(key="open-code").set_value(ses.meta["join_code"].lower()[:4] + " " + ses.meta["join_code"][4:])
    [b for b in at.button if b.label == "Open game"][0].click().run()
    no_exception(at)
    assert at.query_params.get("join") == ses.meta["join_token"] and "code" not in at.query_params
    _claim(at, 0)
    assert GameSession.load(env, ses.game_id).seat_of_code(at.query_params.get("code")) == 0
