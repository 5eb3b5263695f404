"""Behind nginx with TLS and a path prefix (issue 45, items 2 and 5), in a real browser.

Debian's nginx runs ``docs/nginx-nochmal.conf`` (its host name, port, certificate and the app's
port replaced; nothing else) with a self-made certificate in front of ``nochmal serve
--base-url-path /nochmal --public-url https://127.0.0.1:PORT/nochmal --trusted-proxy 127.0.0.1
--games-per-hour 1``. A host screen and two phones (browser contexts that accept the certificate)
go through nginx only: the host opens the game, the phones open the seat links the host screen
shows (they carry the public URL), and they play turns; the time from a phone's confirm to the
host screen showing the entry is measured (``test-artifacts/proxy-measure.json``).

The client address. On one machine every browser connects to nginx from 127.0.0.1, the proxy's
own address, so the phones cannot have addresses of their own at the TCP level. Each phone
therefore sends an ``X-Forwarded-For`` of its own, as a further proxy in front would; nginx
appends 127.0.0.1, and the app (trusting 127.0.0.1 only) takes the right-most address that is
no trusted proxy: the phone's. What the test proves: the whole chain (the header through nginx,
uvicorn's choice with the list ``nochmal serve`` gives it, the websocket's client address, the
per-client limit) counts the phones apart: with one new game per hour allowed, phone A's second
game is refused and phone B's first is not. What it cannot prove on one machine: a real phone's
TCP address arriving at nginx. That the header is never believed from a peer that is no trusted
proxy is checked in ``tests/test_public_server.py`` with uvicorn's middleware and the list
``nochmal serve`` gives it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import ssl
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect
from serving import free_port, stop
from test_browser_play import idle, load, press, small_move, small_roll
from test_browser_table import Taps, cell_button, enter_roll, host_shows

from nochmal.engine.cells import names
from nochmal.engine.game import CHANCE, TEAM
from nochmal.engine.moves import PASS
from nochmal.store.db import GameStore
from nochmal.store.session import GameSession
from nochmal.ui import entry, newgame
from nochmal.ui.labels import seat_text

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

REPO = Path(__file__).resolve().parents[2]
CONF = REPO / "docs" / "nginx-nochmal.conf"
MEASURE = REPO / "test-artifacts" / "proxy-measure.json"
BASE = "/nochmal"
#: rolls played, each gives one confirm per phone to time (NOCHMAL_PROXY_TURNS for a longer measurement)
TURNS = int(os.environ.get("NOCHMAL_PROXY_TURNS") or 4)
PHONE_ADDRESSES = ("203.0.113.10", "203.0.113.20")  # documentation addresses (RFC 5737)
SEATS = ["Ada", "Bo"]


def nginx_or_fail() -> str:
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
    if found is None:
        message = "no nginx (Debian: apt-get install -y nginx)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def replaced(text: str, old: str, new: str) -> str:
    """``text`` with its one ``old`` replaced (the documented file must still hold it exactly once)."""
    assert text.count(old) == 1, f"{CONF.name} no longer holds {old!r} exactly once"
    return text.replace(old, new)


def nginx_config(tmp: Path, port: int, app_port: int, cert: Path, key: Path) -> Path:
    site = CONF.read_text(encoding="utf-8")
    site = replaced(site, "listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
    site = replaced(site, "server_name example.org;", "server_name 127.0.0.1;")
    site = replaced(site, "/etc/ssl/certs/nochmal.pem", str(cert))
    site = replaced(site, "/etc/ssl/private/nochmal.key", str(key))
    site = replaced(site, "proxy_pass http://127.0.0.1:8501;", f"proxy_pass http://127.0.0.1:{app_port};")
    temp = "\n".join(f"    {name}_temp_path {tmp / name};" for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers that can write the test's folder
    conf = tmp / "nginx.conf"
    conf.write_text(f"{user}pid {tmp / 'nginx.pid'};\nerror_log {tmp / 'error.log'} warn;\nworker_processes 1;\n"
                    f"events {{ worker_connections 256; }}\nhttp {{\n    access_log {tmp / 'access.log'};\n{temp}\n"
                    f"{site}\n}}\n", encoding="utf-8")
    return conf


def self_signed(tmp: Path) -> tuple[Path, Path]:
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


def wait_https(url: str, procs, logs, timeout: float = 90.0) -> None:
    """Until ``url`` answers 200 over TLS (the self-made certificate is not checked here)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for proc, log in zip(procs, logs):
            if proc.poll() is not None:
                raise RuntimeError(f"exited with {proc.returncode}:\n{Path(log).read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url, timeout=2, context=context) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} not answering after {timeout:.0f} s:\n" +
                       "\n".join(Path(log).read_text(errors="replace") for log in logs))


@pytest.fixture
def proxied(tmp_path):
    """``nochmal serve`` behind nginx: yields (the public URL, the app's store path, nginx's access log)."""
    nginx = nginx_or_fail()
    port, app_port = free_port(), free_port()
    cert, key = self_signed(tmp_path)
    public = f"https://127.0.0.1:{port}{BASE}"
    db = tmp_path / "games.sqlite"
    env = {**os.environ, "NOCHMAL_HOME": str(tmp_path / "home"), "NOCHMAL_DB": str(db), "PYTHONUNBUFFERED": "1"}
    app_log, nginx_log = tmp_path / "app.log", tmp_path / "error.log"
    with open(app_log, "ab") as out:
        app = subprocess.Popen([sys.executable, "-m", "nochmal.cli", "serve", "--port", str(app_port), "--no-warm",
                                "--base-url-path", BASE, "--public-url", public, "--trusted-proxy", "127.0.0.1",
                                "--games-per-hour", "1"], cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT)
    conf = nginx_config(tmp_path, port, app_port, cert, key)
    with open(tmp_path / "nginx.out", "ab") as out:
        proxy = subprocess.Popen([nginx, "-e", str(nginx_log), "-c", str(conf), "-g", "daemon off;"],
                                 stdout=out, stderr=subprocess.STDOUT)
    try:
        nginx_log.touch()
        wait_https(f"{public}/_stcore/health", [app, proxy], [app_log, nginx_log])
        yield public, db, tmp_path / "access.log"
    finally:
        stop(proxy, timeout=10)
        stop(app, timeout=10)


def play(store, gid, host, phones, until_roll: int, rng, sync: list[float], kill=None) -> int | None:
    """(Also the two-process test's.) Play until the game's roll index reaches ``until_roll``: the active phone enters the roll,
    each phone its own cross; each entry's time from confirm to the host screen goes to ``sync``.
    With ``kill``: at phone 1's next cross, call it right after the confirm tap (the entry on its
    way) and return the number of events in the store before that tap."""
    while load(store, gid).state.roll_index < until_roll:
        ses = load(store, gid)
        st = ses.state
        assert not st.is_terminal()
        if st.current_player() == CHANCE:
            phone = phones[st.active]
            expect(phone.get_by_role("button", name="Enter roll")).to_be_enabled()
            enter_roll(phone, Taps(), small_roll(st, rng))
            deadline = time.monotonic() + 20
            while load(store, gid).state.dice is None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert load(store, gid).state.dice is not None, "the phone's roll did not land"
            continue
        if st.current_player() == TEAM:
            panel = host.locator(".st-key-decision-panel")
            kind = (st.extra.get("decision") or {}).get("kind")
            press(panel.get_by_role("button", name=re.compile("Strike" if kind == "strike_jokers" else
                                                               "Remove a colour die")).first)
            expect(host.locator(".st-key-decision-panel")).to_have_count(0)
            continue
        seat = entry.seats_to_decide(st)[0]
        phone, move = phones[seat], small_move(st, seat) or PASS
        expect(phone.locator(".st-key-cross-btn")).to_be_visible()
        taps = Taps()
        if move is PASS:
            taps.press(phone.locator(".st-key-fail-btn").get_by_role("button"))
        else:
            for name in names(move.cells):
                taps.select(cell_button(phone, seat, name, st.seats[seat].sheet))
            taps.press(phone.locator(".st-key-cross-btn").get_by_role("button"))
        if kill is not None and seat == 0:
            kill()
            return ses.n_events
        confirmed = time.monotonic()
        deadline = time.monotonic() + 20
        while load(store, gid).n_events == ses.n_events and time.monotonic() < deadline:
            time.sleep(0.02)
        after = load(store, gid)
        assert after.n_events == ses.n_events + 1, "the phone's entry did not land"
        sync.append(host_shows(host, after.game, after.events[-1], SEATS, confirmed))


def test_a_host_and_two_phones_play_through_nginx_under_a_path_and_are_counted_by_their_own_addresses(
        browser, proxied, screenshot):
    public, db, access_log = proxied
    contexts = []

    def device(viewport, address=None):
        context = browser.new_context(viewport=viewport, ignore_https_errors=True,
                                      extra_http_headers={"X-Forwarded-For": address} if address else None)
        context.set_default_timeout(30_000)
        contexts.append(context)
        return context.new_page()

    store = GameStore(db)
    try:
        # a co-op companion game for two seats (made in the store, as `nochmal games import` would)
        game = newgame.make_game("coop", newgame.default_sheets("coop", 2), 1)
        gid = GameSession.create(store, game, title="behind nginx", seat_names=["Ada", "Bo"]).game_id
        host = device({"width": 1280, "height": 800})
        host.goto(public + load(store, gid).host_url_path())
        expect(host.get_by_role("button", name="Enter roll")).to_be_visible()
        assert urlparse(host.url).path == f"{BASE}/table"

        # ---- the phones open the seat links the host screen shows: the public URL, under the path
        phones = []
        for seat, address in enumerate(PHONE_ADDRESSES):
            box = host.locator(f".st-key-table-join-seat-{seat}-link")
            expect(box).to_contain_text(f"claim={seat + 1}")
            link = box.first.inner_text().strip()
            assert link.startswith(f"{public}/?game={gid}&join="), link
            phone = device({"width": 390, "height": 844}, address)
            phone.goto(link)
            expect(phone.locator(f".st-key-side-{seat}")).to_contain_text(seat_text(["Ada", "Bo"], seat))
            phones.append(phone)
        assert sorted(load(store, gid).meta["claims"]) == ["0", "1"]

        # ---- turns: the active phone enters the roll, each phone its own cross; the host follows
        import random

        rng = random.Random(45)
        sync: list[float] = []
        play(store, gid, host, phones, TURNS, rng, sync)
        # the pages followed the game through the change route under the base path (not by polling)
        statuses = [line.split('" ', 1)[1].split()[0] for line in access_log.read_text(encoding="utf-8").splitlines()
                    if f'"GET {BASE}/_nochmal/changes?' in line]
        assert "200" in statuses and set(statuses) <= {"200", "499"}, statuses  # 499: a wait cut short by a page change
        screenshot(host, "proxy-host")
        screenshot(phones[0], "proxy-phone1")
        for page in [host] + phones:
            expect(page.locator("[data-testid=stException]")).to_have_count(0)

        # ---- one new game per hour per client address: the phones are counted apart
        def create(phone) -> None:
            phone.goto(public + "/")
            press(phone.get_by_role("button", name="Create game"))

        def created(phone) -> str:
            expect(phone.get_by_text("Game created.")).to_be_visible()
            phone.wait_for_url(lambda url: "game=" in url and f"game={gid}" not in url)
            return parse_qs(urlparse(phone.url).query)["game"][0]

        create(phones[0])
        first = created(phones[0])
        create(phones[0])
        expect(phones[0].get_by_text("This server allows 1 new games per hour from one device's address")).to_be_visible()
        create(phones[1])  # another address: its first game of the hour
        second = created(phones[1])
        assert len({gid, first, second}) == 3 and len(store.list_games()) == 3
        idle(phones[1])

        q = statistics.quantiles(sync, n=10, method="inclusive")
        measure = {"through": "nginx (TLS, /nochmal), one app process, SQLite", "n": len(sync),
                   "confirm_to_host_s": {"median": round(statistics.median(sync), 3), "p90": round(q[-1], 3),
                                         "max": round(max(sync), 3)},
                   "samples": [round(s, 3) for s in sync]}
        MEASURE.parent.mkdir(parents=True, exist_ok=True)
        MEASURE.write_text(json.dumps(measure, indent=1))
        print(f"\nconfirm -> host through nginx: {measure['confirm_to_host_s']} (n={len(sync)})")
        assert measure["confirm_to_host_s"]["median"] < 5, measure
    except Exception:
        for i, context in enumerate(contexts):
            for p in context.pages:
                try:
                    screenshot(p, f"FAILED-proxy-device-{i}", full_page=False)
                except Exception:  # noqa: BLE001 - a best-effort aid, never a second failure
                    pass
        raise
    finally:
        store.close()
        for context in contexts:
            context.close()
