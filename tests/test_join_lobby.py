"""Join in one tap (issue 19, Build 1) and "another device took your seat" (Fix), with AppTest:
per-seat links claim their seat at once or ask before taking it over, a malformed ``claim`` is
refused and changes nothing, the lobby and the QR codes, what the browser remembers (validated:
malformed entries dropped) and Resume from it, and the message a device whose seat was taken
over gets instead of "No game is open"."""

from __future__ import annotations

import json
import re

import pytest
from streamlit.components.v2.bidi_component import ComponentResult

from apptools import TABLE, app, env, keys, no_exception, texts  # noqa: F401 (env: a fixture)
from nochmal.store.claims import CODE_FIELDS, taken_over_seat
from nochmal.store.session import GameSession
from nochmal.ui import device
from nochmal.ui import newgame
from nochmal.ui.panels.join import parse_claim, qr_modules

NAMES = ["Ada", "Bo", "Cy"]
TAKEN = "Seat 2 (Bo) was taken over by another device. Open the join link again to claim a seat."


def make(store, **kw) -> GameSession:
    game = newgame.make_game("coop", newgame.default_sheets("coop", 3), 1)
    return GameSession.create(store, game, title="lobby", seat_names=NAMES, **kw)


def link(ses, claim: str | None = None) -> dict:
    q = {"game": ses.game_id, "join": ses.meta["join_token"]}
    if claim is not None:
        q["claim"] = claim
    return q


def all_text(at) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "success", "info", "warning", "error")
                     for e in getattr(at, kind))


def qr_codes(at) -> list[list[tuple[int, int]]]:
    """The dark modules of every QR code on the page (in st.html: one box's shadows), in modules."""
    out = []
    for h in at.get("html"):
        if 'class="nm-qr"' in h.proto.body:
            module = int(re.search(r'nm-qr-dots" style="[^"]*?width:(\d+)px', h.proto.body).group(1))
            out.append([(int(x) // module, int(y) // module)
                        for x, y in re.findall(r"(\d+)px (\d+)px #000", h.proto.body)])
    return out


class FakeBrowser:
    """Stands in for the storage component: reports ``report`` (a JSON string, as the browser
    would) and records the data (writes) the server hands it."""

    def __init__(self, report: object = None) -> None:
        self.report = report
        self.data: list[dict] = []

    def __call__(self, *, key, data, **kw):
        self.data.append(data)
        return ComponentResult({"report": self.report} if self.report is not None else {}, {})

    def ops(self) -> list[dict]:
        return self.data[-1]["ops"] if self.data else []


@pytest.fixture
def browser_storage(monkeypatch):
    fake = FakeBrowser()
    monkeypatch.setattr(device, "_component", fake)
    return fake


def report(games: list, dev: str = "0123456789abcdef") -> str:
    return json.dumps({"device": dev, "stored": True, "games": games})


# --------------------------------------------------------------------------- per-seat links
def test_a_seat_link_claims_its_seat_at_once_and_opens_its_sheet(env, browser_storage):
    ses = make(env)
    phone = app(link(ses, "2"))
    no_exception(phone)
    code = phone.query_params.get("code")
    assert phone.query_params.get("seat") == "2" and "join" not in phone.query_params
    assert "claim" not in phone.query_params  # a reload does not claim again
    now = GameSession.load(env, ses.game_id)
    assert now.seat_of_code(code) == 1 and now.meta["claims"] == {"1": phone.session_state["device"]}
    assert "This device now plays seat 2: Bo." in texts(phone, "success")
    ks = keys(phone)  # the Table page, on seat 2's sheet
    assert any(k.startswith("cell-1-") for k in ks) and not any(k.startswith(("cell-0-", "cell-2-")) for k in ks)
    # the browser is asked to remember the seat's code
    phone.run()
    assert {"op": "put", "game": ses.game_id,
            "entry": {"game": ses.game_id, "code": code, "seat": 1, "title": "lobby"}} in browser_storage.ops()


def test_a_seat_another_device_plays_is_taken_over_only_after_asking(env, browser_storage):
    ses = make(env)
    old = GameSession.load(env, ses.game_id).claim_seat(1, "phone-of-bo")
    before = env.get(ses.game_id).meta
    phone = app(link(ses, "2"))
    no_exception(phone)
    assert "Seat 2 (Bo) is played on another device — take it over?" in texts(phone, "warning")
    assert env.get(ses.game_id).meta == before  # asking changed nothing
    assert "code" not in phone.query_params and "claim" not in phone.query_params
    phone.button(key="claim-link-takeover").click().run()
    no_exception(phone)
    # Bo's phone was seen just now: the take-over waits for the mission leader (issue 46)
    assert any("Waiting for the mission leader's consent to take over seat 2 (Bo)" in i for i in texts(phone, "info"))
    assert "code" not in phone.query_params and GameSession.load(env, ses.game_id).seat_of_code(old) == 1
    assert GameSession.load(env, ses.game_id).answer_takeover(1, allow=True)
    phone.run()
    no_exception(phone)
    code = phone.query_params.get("code")
    now = GameSession.load(env, ses.game_id)
    assert now.seat_of_code(code) == 1 and now.seat_of_code(old) is None
    assert now.meta["claims"]["1"] == phone.session_state["device"]
    assert now.taken_over_seat(old) == 1 and now.taken_over_seat(code) is None


def test_taking_over_a_seat_claimed_again_meanwhile_says_try_again(env, browser_storage):
    ses = make(env)
    GameSession.load(env, ses.game_id).claim_seat(1, "phone-a")
    phone = app(link(ses, "2"))
    GameSession.load(env, ses.game_id).claim_seat(1, "phone-b", host=True)  # after the question was asked
    phone.button(key="claim-link-takeover").click().run()
    assert any("just claimed by another device — try again" in e for e in texts(phone, "error")), texts(phone, "error")
    assert GameSession.load(env, ses.game_id).meta["claims"]["1"] == "phone-b"
    phone.button(key="claim-link-takeover").click().run()  # asked again, now against phone-b's claim
    asks = GameSession.load(env, ses.game_id).takeover_requests()
    assert [(r["seat"], r["device"], r["holder"]) for r in asks] == [(1, phone.session_state["device"], "phone-b")]
    assert GameSession.load(env, ses.game_id).meta["claims"]["1"] == "phone-b"  # only asked


def test_a_seat_this_device_holds_is_claimed_again_without_asking(env, browser_storage):
    ses = make(env)
    browser_storage.report = report([], dev="feedfacecafebeef")
    GameSession.load(env, ses.game_id).claim_seat(2, "feedfacecafebeef")
    phone = app(link(ses, "3"))
    no_exception(phone)
    assert phone.query_params.get("seat") == "3"
    assert GameSession.load(env, ses.game_id).seat_of_code(phone.query_params.get("code")) == 2


@pytest.mark.parametrize("claim", ["0", "4", "99", "02", "+2", "-1", "2.0", " 2", "2 ", "abc", "", "٢", "1" * 500,
                                   "<b>2</b>", "2&code=x"])
def test_a_malformed_claim_is_refused_with_a_message_and_changes_nothing(env, browser_storage, claim):
    ses = make(env)
    before = env.get(ses.game_id).meta
    phone = app(link(ses, claim))
    no_exception(phone)
    assert "This link names no seat of this game (it has seats 1–3). Choose your seat below." in texts(phone, "error")
    assert env.get(ses.game_id).meta == before
    assert phone.query_params.get("join") == ses.meta["join_token"] and "code" not in phone.query_params
    assert "claim" not in phone.query_params
    assert "claim-seat-btn" in keys(phone)  # the seats to choose from are still offered
    assert browser_storage.ops() == []


def test_parse_claim_takes_only_the_digits_of_a_seat():
    assert [parse_claim(v, 3) for v in ("1", "2", "3")] == [0, 1, 2]
    for bad in ("0", "4", "01", "1.0", "1e0", "１", "²", " 1", None, 1, b"1", ["1"]):
        assert parse_claim(bad, 3) is None, bad


def test_a_bot_seat_and_a_wrong_join_token_claim_nothing(env, browser_storage):
    ses = make(env, kind="digital", seed=3, bots=[None, "greedy", None])
    phone = app(link(ses, "2"))
    no_exception(phone)
    assert "Seat 2 is played by a bot. Choose your seat below." in texts(phone, "error")
    bad = app({"game": ses.game_id, "join": "x" * 22, "claim": "1"})
    no_exception(bad)
    assert "claim-seat-btn" not in keys(bad) and "code" not in bad.query_params
    assert GameSession.load(env, ses.game_id).meta["claims"] == {}


def test_a_claim_beside_a_host_code_is_ignored(env, browser_storage):
    ses = make(env)
    host = app({"game": ses.game_id, "code": ses.meta["host_code"], "claim": "1"})
    no_exception(host)
    assert "claim" not in host.query_params and host.query_params.get("code") == ses.meta["host_code"]
    assert GameSession.load(env, ses.game_id).meta["claims"] == {}


# --------------------------------------------------------------------------- the host's screen
def test_the_host_sees_qr_codes_per_game_and_per_free_seat_and_the_lobby(env, browser_storage):
    ses = make(env, kind="digital", seed=1, bots=[None, None, "greedy"])
    GameSession.load(env, ses.game_id).claim_seat(0, "a1b2c3d4e5f6")
    host = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    no_exception(host)
    join = ses.join_url_path()
    shown = [c.value for c in host.code]
    assert join in shown and f"{join}&claim=2" in shown
    assert f"{join}&claim=1" not in shown and f"{join}&claim=3" not in shown  # claimed, a bot
    drawn = qr_codes(host)
    assert qr_modules(join)[1] in drawn and qr_modules(f"{join}&claim=2")[1] in drawn
    assert qr_modules(f"{join}&claim=1")[1] not in drawn
    assert all(join not in h.proto.body for h in host.get("html"))  # the link is drawn, never written in markup
    lobby = [m.value for m in host.markdown if " · " in m.value and m.value.startswith("**")]
    assert "**1. Ada** · 📱 device `a1b2c3`" in lobby
    assert "**2. Bo** · free" in lobby
    assert "**3. Cy** · 🤖 greedy bot" in lobby


def test_the_lobby_names_this_device(env, browser_storage):
    ses = make(env)
    browser_storage.report = report([], dev="00aa11bb22cc33dd")
    GameSession.load(env, ses.game_id).claim_seat(1, "00aa11bb22cc33dd")
    host = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    assert "**2. Bo** · 📱 this device" in [m.value for m in host.markdown]


# --------------------------------------------------------------------------- what the browser remembers
def test_remembered_entries_are_validated_and_malformed_ones_dropped():
    good = {"game": "Ab3dEf9h", "code": "A" * 22, "seat": 1, "title": "Friday"}
    host = {"game": "Zz9_-abc", "code": "b" * 22, "seat": None}
    bad = [
        "not a dict", None, 7, [], {"game": "Ab3dEf9h"},  # missing code
        {"game": "bad id!", "code": "A" * 22, "seat": 0},
        {"game": "x" * 65, "code": "A" * 22, "seat": 0},
        {"game": "Ok123456", "code": "short", "seat": 0},
        {"game": "Ok123456", "code": "A" * 22 + "<script>", "seat": 0},
        {"game": "Ok123456", "code": "A" * 22, "seat": 6},
        {"game": "Ok123456", "code": "A" * 22, "seat": -1},
        {"game": "Ok123456", "code": "A" * 22, "seat": True},
        {"game": "Ok123456", "code": "A" * 22, "seat": "1"},
        {"game": "Ok123456", "code": "A" * 22, "seat": 1.0},
        {"game": "Ok123456", "code": "A" * 22, "seat": 0, "title": "t" * 81},
        {"game": "Ok123456", "code": "A" * 22, "seat": 0, "title": ["x"]},
        {"game": "Ok123456", "code": "A" * 22, "seat": 0, "extra": 1},
        {"game": ["Ok123456"], "code": "A" * 22, "seat": 0},
    ]
    dev, games = device.parse(report(bad[:3] + [good] + bad[3:] + [host, dict(good, seat=2)]))
    assert dev == "0123456789abcdef"
    assert games == [good, dict(host, title="")]  # the duplicate of a game is dropped too
    many = [{"game": f"g{i:07d}", "code": "A" * 22, "seat": None} for i in range(80)]
    assert len(device.parse(report(many))[1]) == device.MAX_ENTRIES
    for raw in (None, 5, "", "not json", "[]", "{\"games\": 5}", json.dumps({"games": [good]})[:-1],
                "[" * 100_000, json.dumps({"device": "x", "games": [good] * 5000}), "NaN"):
        dev, games = device.parse(raw)
        assert dev is None and (games == [] or games == [good]), raw[:40] if isinstance(raw, str) else raw
    assert device.parse(report([], dev="NOT-HEX!"))[0] is None
    assert device.parse(report([], dev="a" * 33))[0] is None


def test_start_lists_remembered_games_with_resume_and_drops_malformed_entries(env, browser_storage):
    hosted, played = make(env), make(env)
    seat_code = GameSession.load(env, played.game_id).claim_seat(1, "0123456789abcdef")
    browser_storage.report = report([
        {"game": hosted.game_id, "code": hosted.meta["host_code"], "seat": None, "title": "<b>hi</b>"},
        {"game": played.game_id, "code": seat_code, "seat": 1},
        {"game": "<img src=x>", "code": "A" * 22, "seat": 0},  # malformed: dropped, never shown
        {"game": played.game_id + "x", "code": "Q" * 22, "seat": 0},  # no such game
    ])
    at = app()
    no_exception(at)
    text = all_text(at)
    assert "<img" not in text and "img src" not in text
    assert f"**lobby** · host (all seats) · id `{hosted.game_id}`" in text
    assert f"**lobby** · seat 2 (Bo) · id `{played.game_id}`" in text
    assert f"Game `{played.game_id}x`: no longer available" in text
    at.button(key=f"top-resume-{played.game_id}").click().run()
    no_exception(at)
    assert at.query_params.get("code") == seat_code and at.query_params.get("seat") == "2"
    assert any(k.startswith("cell-1-") for k in keys(at))  # on the Table page, seat 2's sheet
    # Forget asks the browser to drop the entry
    at2 = app()
    at2.button(key=f"mine-forget-{played.game_id}x").click().run()
    assert {"op": "del", "game": played.game_id + "x"} in browser_storage.ops()


def test_creating_or_claiming_asks_the_browser_to_remember(env, browser_storage):
    ses = make(env)
    at = app()
    at.text_input(key="open-id").set_value(ses.game_id)
    at.text_input(key="open-code").set_value(ses.meta["host_code"])
    [b for b in at.button if b.label == "Open game"][0].click().run()
    no_exception(at)
    at.run()
    assert {"op": "put", "game": ses.game_id, "entry": {"game": ses.game_id, "code": ses.meta["host_code"],
                                                       "seat": None, "title": "lobby"}} in browser_storage.ops()
    # a write the browser confirms (its report has the entry) is not sent again
    browser_storage.report = report([{"game": ses.game_id, "code": ses.meta["host_code"], "seat": None}])
    at.run()
    at.run()
    assert browser_storage.ops() == []


# --------------------------------------------------------------------------- another device took your seat
def test_a_device_whose_seat_was_taken_over_is_told_so_not_no_game(env, browser_storage):
    ses = make(env)
    phone = app(link(ses, "2"))
    old = phone.query_params.get("code")
    GameSession.load(env, ses.game_id).claim_seat(1, "another-phone", host=True)  # moved by the host
    phone.run()
    no_exception(phone)
    assert TAKEN in texts(phone, "warning")
    assert not any("No game is open" in i for i in texts(phone, "info"))
    # a reload (a new session with the old code in the URL) says so too, on every rerun, and
    # counts as one wrong guess per session: never "too many wrong codes"
    again = app({"game": ses.game_id, "code": old, "seat": "2"})
    again.switch_page(TABLE).run()
    for _ in range(12):
        again.run()
    assert TAKEN in texts(again, "warning") and not any("too many" in w for w in texts(again, "warning"))
    # on Start, the remembered seat says "another device took your seat"
    browser_storage.report = report([{"game": ses.game_id, "code": old, "seat": 1}])
    start = app()
    assert f"Game `{ses.game_id}`: another device took your seat (seat 2 (Bo))" in all_text(start)


def test_a_code_that_never_opened_the_game_says_nothing_about_seats(env, browser_storage):
    ses = make(env)
    GameSession.load(env, ses.game_id).claim_seat(1, "a")
    GameSession.load(env, ses.game_id).claim_seat(1, "b", host=True)
    at = app({"game": ses.game_id, "code": "Z" * 22})
    at.switch_page(TABLE).run()
    assert not any("taken over" in w for w in texts(at, "warning"))
    assert any("No game is open" in i for i in texts(at, "info"))


def test_taken_over_codes_are_kept_per_seat_and_never_exported(env):
    ses = make(env)
    first = ses.claim_seat(0, "a")
    second = GameSession.load(env, ses.game_id).claim_seat(0, "b", seen="a", host=True)
    now = GameSession.load(env, ses.game_id)
    assert now.taken_over_seat(first) == 0 and now.taken_over_seat(second) is None
    assert taken_over_seat(now.meta, "") is None and taken_over_seat(now.meta, None) is None
    assert taken_over_seat({"revoked_seat_codes": "junk"}, first) is None
    assert "revoked_seat_codes" in CODE_FIELDS and "revoked_seat_codes" not in now.export()["meta"]
    for i in range(20):  # only the last few per seat are kept
        GameSession.load(env, ses.game_id).claim_seat(0, f"d{i}", host=True)
    assert len(GameSession.load(env, ses.game_id).meta["revoked_seat_codes"]["0"]) == 8
