"""Codes and guessing (issue 17, item 3): how many bits every code carries, constant-time
matching, and the throttle of wrong guesses per client and per game — with an injected clock,
on real SQLite stores. The app's side (the same checks behind the URL and the forms) is at the
end, with AppTest."""

from __future__ import annotations

import base64
import math

import pytest

from apptools import TABLE, app, env, keys, no_exception, texts  # noqa: F401 (env: a fixture)
from nochmal.ui import newgame
from nochmal.store.access import (SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH, THROTTLE_LIMIT, THROTTLE_LOCKOUT_S,
                            THROTTLE_WINDOW_S, Throttle, codes_equal, match_code, new_short_code, new_token,
                            normalize_short_code, short_code_bits)
from nochmal.store.claims import format_short_code
from nochmal.store.errors import NoGameError, TooManyGuessesError
from nochmal.store.session import GameSession, open_with_code
from nochmal.store.db import GameStore


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def token_bits(token: str) -> int:
    """Random bits of a url-safe base64 token: its decoded bytes."""
    return 8 * len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))


def make(store: GameStore, players: int = 3) -> GameSession:
    game = newgame.make_game("coop", newgame.default_sheets("coop", players), 1)
    return GameSession.create(store, game, title="t", seat_names=[f"P{i + 1}" for i in range(players)])


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path / "games.sqlite3") as s:
        yield s


# --------------------------------------------------------------------------- bits of every code
def test_bits_of_every_code(store):
    ses = make(store)
    seat_code = ses.claim_seat(1, "phone")
    bits = {
        "host code": token_bits(ses.meta["host_code"]),
        "join link token": token_bits(ses.meta["join_token"]),
        "seat code": token_bits(seat_code),
        "short join code": short_code_bits(),
    }
    print("\nbits of every code:", {k: round(v, 1) for k, v in bits.items()})
    for name in ("host code", "join link token", "seat code"):
        assert bits[name] >= 64, name
        assert bits[name] == 128, name
    assert math.isclose(bits["short join code"], SHORT_CODE_LENGTH * math.log2(len(SHORT_CODE_ALPHABET)))
    assert 38 < bits["short join code"] < 39  # typed only, and throttled per game and client
    # tokens are url-safe (they travel in a link) and drawn afresh every time
    tokens = {new_token() for _ in range(2000)}
    assert len(tokens) == 2000 and all(t.replace("-", "").replace("_", "").isalnum() for t in tokens)
    shorts = [new_short_code() for _ in range(2000)]
    assert all(len(c) == SHORT_CODE_LENGTH and set(c) <= set(SHORT_CODE_ALPHABET) for c in shorts)
    assert set("".join(shorts)) == set(SHORT_CODE_ALPHABET)  # every letter is used
    assert not set("01IOLS5B") & set(SHORT_CODE_ALPHABET)  # no look-alikes


def test_codes_of_a_game_are_all_different_and_none_is_guessable_from_another(store):
    a, b = make(store), make(store)
    codes = [a.meta["host_code"], a.meta["join_token"], a.meta["join_code"],
             b.meta["host_code"], b.meta["join_token"], b.meta["join_code"]]
    assert len(set(codes)) == len(codes)
    assert a.access(b.meta["host_code"]) is None and b.access(a.meta["join_token"]) is None


# --------------------------------------------------------------------------- matching
def test_codes_equal_and_match_code():
    t = new_token()
    assert codes_equal(t, t) and not codes_equal(t, t[:-1]) and not codes_equal(t[:-1] + "x", t)
    assert not codes_equal("", "") and not codes_equal("anything", "") and not codes_equal("x", None)
    assert match_code(t, {"a": "other", "b": t, "c": t}) == "b"  # the first match, every one compared
    assert match_code("nope", {"a": t}) is None
    assert normalize_short_code(" abcd-efgh ") == "ABCDEFGH"


def test_identify_names_each_code_and_nothing_else(store):
    ses = make(store)
    seat_code = ses.claim_seat(2, "phone")
    short = ses.meta["join_code"]
    assert ses.identify(ses.meta["host_code"]) == ("host", None)
    assert ses.identify(ses.meta["join_token"]) == ("join", None)
    assert ses.identify(seat_code) == ("seat", 2)
    for typed in (short, short.lower(), format_short_code(short), f"  {format_short_code(short).lower()} "):
        assert ses.identify(typed) == ("short", None), typed
    for wrong in ("", "   ", None, 42, ["x"], ses.meta["host_code"].lower(), ses.meta["host_code"][:-1],
                  short[:-1], "x" * 10_000, "\x00" + short):
        assert ses.identify(wrong) == (None, None), wrong
    assert ses.access(ses.meta["host_code"]) == "host" and ses.access(seat_code) == "seat"
    assert ses.seat_of_code(seat_code) == 2 and ses.seat_of_code(ses.meta["host_code"]) is None


# --------------------------------------------------------------------------- the throttle
def test_throttle_counts_guesses_until_throttled_then_waits():
    clock = Clock()
    th = Throttle(clock=clock)
    right = new_token()
    guesses = 0
    while True:
        name, wait = th.check(new_token(), {"code": right}, "client-1")
        guesses += 1
        assert name is None
        if wait > 0:
            break
        assert guesses < 100, "never throttled"
        clock.t += 1
    print(f"\nwrong guesses until throttled: {guesses} (limit {THROTTLE_LIMIT} within {THROTTLE_WINDOW_S:.0f} s, "
          f"then {THROTTLE_LOCKOUT_S:.0f} s to wait)")
    assert guesses == THROTTLE_LIMIT == 10
    assert wait == pytest.approx(THROTTLE_LOCKOUT_S)
    # the right code is refused while the key waits ...
    clock.t += 30
    assert th.check(right, {"code": right}, "client-1") == (None, pytest.approx(30))
    # ... a different key is not held up ...
    assert th.check(right, {"code": right}, "client-2") == ("code", 0.0)
    # ... and after the wait the right code works again
    clock.t += 30
    assert th.check(right, {"code": right}, "client-1") == ("code", 0.0)


def test_throttle_window_slides():
    clock = Clock()
    th = Throttle(clock=clock)
    for _ in range(9):
        assert th.failed("k") == 0.0
    clock.t += THROTTLE_WINDOW_S + 1  # the old guesses left the window
    for _ in range(9):
        assert th.failed("k") == 0.0
    assert th.failed("k") > 0


def test_throttle_forgets_old_keys_beyond_its_size():
    th = Throttle(clock=Clock(), max_keys=50)
    for i in range(1000):
        th.failed(f"k{i}")
    assert len(th._wrong) <= 50


# --------------------------------------------------------------------------- opening a game with a code
def _wrong(store, gid, th, client, n):
    answers = []
    for _ in range(n):
        try:
            open_with_code(store, gid, new_token(), throttle=th, client=client)
        except (NoGameError, TooManyGuessesError) as err:
            answers.append(type(err).__name__)
    return answers


def test_wrong_codes_are_throttled_per_client(store):
    clock = Clock()
    th = Throttle(clock=clock)
    a, b = make(store), make(store)
    answers = _wrong(store, a.game_id, th, "10.0.0.9", 10)
    assert answers == ["NoGameError"] * 9 + ["TooManyGuessesError"]
    # this client is refused everything now, the right host code of another game too
    with pytest.raises(TooManyGuessesError, match=r"too many wrong codes, try again in 60 s"):
        open_with_code(store, b.game_id, b.meta["host_code"], throttle=th, client="10.0.0.9")
    clock.t += 59.5
    with pytest.raises(TooManyGuessesError, match=r"try again in 1 s"):
        open_with_code(store, a.game_id, a.meta["host_code"], throttle=th, client="10.0.0.9")
    # another client is not held up by this one (a's tokens still open a)
    assert open_with_code(store, a.game_id, a.meta["host_code"], throttle=th, client="10.0.0.7").role == "host"
    clock.t += 1
    opened = open_with_code(store, a.game_id, a.meta["host_code"], throttle=th, client="10.0.0.9")
    assert opened.role == "host" and opened.access == "host" and opened.session.game_id == a.game_id


def test_the_short_code_is_throttled_per_game_against_many_clients(store):
    clock = Clock()
    th = Throttle(clock=clock)
    a, b = make(store), make(store)
    seat_code = a.claim_seat(0, "phone")
    for i in range(10):  # ten clients, one wrong guess each: no client waits, the game does
        _wrong(store, a.game_id, th, f"10.0.1.{i}", 1)
    # the right short code is refused to everybody now (a wrong one gets the same answer) ...
    for typed in (a.meta["join_code"], new_short_code()):
        with pytest.raises(TooManyGuessesError, match="too many wrong codes"):
            open_with_code(store, a.game_id, typed, throttle=th, client="10.0.2.1")
    # ... while the game's 128-bit codes still open it: guessers cannot lock a table out
    assert open_with_code(store, a.game_id, a.meta["host_code"], throttle=th, client="10.0.2.1").role == "host"
    assert open_with_code(store, a.game_id, a.meta["join_token"], throttle=th, client="10.0.2.1").role == "join"
    assert open_with_code(store, a.game_id, seat_code, throttle=th, client="10.0.2.1").seat == 0
    # another game's short code is not held up
    assert open_with_code(store, b.game_id, b.meta["join_code"], throttle=th, client="10.0.2.1").role == "short"
    clock.t += THROTTLE_LOCKOUT_S
    assert open_with_code(store, a.game_id, a.meta["join_code"], throttle=th, client="10.0.2.1").role == "short"


def test_unknown_game_and_wrong_code_give_the_same_answer_and_both_count(store):
    th = Throttle(clock=Clock())
    ses = make(store)
    answers = set()
    for gid, code in ((ses.game_id, new_token()), ("NoSuchId", ses.meta["host_code"]), ("", "x"),
                      (None, "x"), ("x" * 500, "x"), (ses.game_id, new_short_code())):
        with pytest.raises(NoGameError) as e:
            open_with_code(store, gid, code, throttle=th, client="c")
        answers.add((type(e.value), str(e.value)))
    assert answers == {(NoGameError, "No game with this id and code.")}
    assert len(th._wrong[("client", "c")]) == 6 and th.wait(("client", "c")) == 0.0  # 6 wrong: no wait yet


def test_no_code_at_all_is_no_guess(store):
    th = Throttle(clock=Clock())
    ses = make(store)
    for _ in range(30):
        for code in ("", None, "   "):
            with pytest.raises(NoGameError):
                open_with_code(store, ses.game_id, code, throttle=th, client="c")
    assert th.wait(("client", "c"), ("game", ses.game_id)) == 0.0
    assert ("client", "c") not in th._wrong


def test_a_game_saved_before_join_links_gets_a_link_and_a_longer_short_code_once(store):
    ses = make(store)
    old = {k: v for k, v in ses.meta.items() if k != "join_token"} | {"join_code": "A1B2C3",
                                                                        "host_code": "0123456789AB"}
    store.update_meta(ses.game_id, old)
    ses = GameSession.load(store, ses.game_id)
    assert ses.access("a1b2c3") == "seat" and ses.access("0123456789AB") == "host"  # old codes still work
    ses.ensure_codes()
    again = GameSession.load(store, ses.game_id)
    assert again.meta["host_code"] == "0123456789AB"  # the host's link keeps working
    assert len(again.meta["join_code"]) == SHORT_CODE_LENGTH and again.identify(again.meta["join_token"])[0] == "join"
    assert again.access("A1B2C3") is None
    before = dict(again.meta)
    again.ensure_codes()
    assert GameSession.load(store, ses.game_id).meta == before  # once


# --------------------------------------------------------------------------- the app
def test_app_throttles_wrong_codes_in_the_resume_form(env):
    ses = make(env)
    at = app()
    errors = []
    for i in range(THROTTLE_LIMIT + 1):
        at.text_input(key="open-id").set_value(ses.game_id)
        at.text_input(key="open-code").set_value(f"WRONG{i}")
        [b for b in at.button if b.label == "Open game"][0].click().run()
        no_exception(at)
        errors.append(texts(at, "error")[-1])
    assert errors[:9] == ["No game with this id and code."] * 9
    assert all(e.startswith("Too many wrong codes, try again in ") for e in errors[9:]), errors
    # the right host code is refused too while this client waits
    at.text_input(key="open-code").set_value(ses.meta["host_code"])
    [b for b in at.button if b.label == "Open game"][0].click().run()
    assert texts(at, "error")[-1].startswith("Too many wrong codes")
    assert "game" not in at.query_params


def test_app_counts_a_wrong_code_in_the_url_once_per_session(env):
    ses = make(env)
    at = app({"game": ses.game_id, "code": "WRONGCODE"})
    at.switch_page(TABLE).run()
    for _ in range(15):  # reruns (the sidebar and the page both look at the URL)
        at.run()
        no_exception(at)
    assert any("No game is open" in t for t in texts(at, "info"))
    assert not any("Too many" in t for t in texts(at, "warning"))
    # the host, from the same client, is not held up by that page
    host = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    host.switch_page(TABLE).run()
    assert "roll-enter" in keys(host)


def test_app_shows_the_wait_on_a_page_opened_with_a_wrong_code_after_the_limit(env):
    ses = make(env)
    for i in range(THROTTLE_LIMIT):
        at = app({"game": ses.game_id, "code": f"WRONG{i}"})  # a new session for every guess
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(TABLE).run()
    no_exception(at)
    assert any(t.startswith("Too many wrong codes, try again in ") for t in texts(at, "warning")), texts(at, "warning")
    assert not any(k.startswith(("cell-", "roll-")) for k in keys(at))
