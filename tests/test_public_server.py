"""A public server (issue 45, items 2 and 5): ``nochmal serve`` behind a reverse proxy
(``--base-url-path``, ``--public-url``, ``--trusted-proxy``) and its housekeeping (``--purge-after-days``,
``--games-per-hour``, the metrics route). The whole way through nginx in a real browser is
``tests/browser/test_browser_proxy.py``."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sqlite3
import subprocess
import sys
import time
import urllib.request

import pytest
from apptools import app, env, no_exception, texts  # noqa: F401 (env: the fixture)
from test_serve import Served, free_port, healthy
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from nochmal.cli import serve
from nochmal.store.access import Quota
from nochmal.store.db import GameStore, StoreError


def args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    serve.add_cli(parser.add_subparsers())
    return parser.parse_args(["serve", *argv])


# ---- the flags ----------------------------------------------------------------------------------

@pytest.mark.parametrize("given, kept", [("/nochmal", "/nochmal"), ("nochmal/", "/nochmal"), ("/a/b-c.d_e~", "/a/b-c.d_e~"),
                                         ("/", ""), ("", "")])
def test_a_base_url_path_is_kept_as_slash_and_segments(given, kept):
    assert serve.base_url_path(given) == kept


@pytest.mark.parametrize("bad", ["/no chmal", "/../etc", "/a/./b", "/nochmal?x=1", "/n%41", "/späß", "/a#b",
                                 "/" + "x" * 201])
def test_a_base_url_path_with_odd_characters_is_refused_by_name(bad):
    with pytest.raises(argparse.ArgumentTypeError, match="--base-url-path"):
        serve.base_url_path(bad)


@pytest.mark.parametrize("given, kept", [("https://example.org/nochmal/", "https://example.org/nochmal"),
                                         ("http://10.0.0.5:8080", "http://10.0.0.5:8080"),
                                         ("https://[2001:db8::1]:8443/x", "https://[2001:db8::1]:8443/x")])
def test_a_public_url_is_kept_without_its_trailing_slash(given, kept):
    assert serve.public_url(given) == kept


@pytest.mark.parametrize("bad, words", [("ftp://example.org", "https:// or http://"),
                                        ("javascript:alert(1)", "https:// or http://"),
                                        ("example.org/nochmal", "https:// or http://"),
                                        ("https://", "name a host"),
                                        ("https://example.org/?next=/x", "no ?query"),
                                        ("https://example.org/#x", "no ?query"),
                                        ("https://user:pw@example.org/", "user name"),
                                        ("https://example.org:99999/", "not a valid address"),
                                        ("https://example.org/a b", "spaces"),
                                        ("https://example.org/<script>", "path may hold only")])
def test_a_public_url_that_is_not_a_plain_http_address_is_refused_by_name(bad, words):
    with pytest.raises(argparse.ArgumentTypeError, match="--public-url") as err:
        serve.public_url(bad)
    assert words in str(err.value)


def test_a_trusted_proxy_is_an_address_or_a_network():
    assert serve.trusted_proxy("127.0.0.1") == "127.0.0.1"
    assert serve.trusted_proxy("10.1.2.3/8") == "10.0.0.0/8"
    assert serve.trusted_proxy("::1") == "::1"
    for bad in ("localhost", "10.0.0.0/33", "*", ""):
        with pytest.raises(argparse.ArgumentTypeError, match="--trusted-proxy"):
            serve.trusted_proxy(bad)


def test_bad_values_end_the_command_with_one_line_and_exit_2():
    for argv, words in ((["--public-url", "ftp://x"], "--public-url must start with https://"),
                        (["--base-url-path", "/a b"], "--base-url-path may hold only"),
                        (["--trusted-proxy", "proxy.example"], "--trusted-proxy must be"),
                        (["--purge-after-days", "0"], "--purge-after-days must be 1-3650"),
                        (["--games-per-hour", "many"], "--games-per-hour must be a whole number")):
        run = subprocess.run([sys.executable, "-m", "nochmal.cli", "serve", *argv], capture_output=True, text=True,
                             timeout=60)
        assert run.returncode == 2 and words in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_serve_s_help_says_how_several_processes_share_the_token_key():
    run = subprocess.run([sys.executable, "-m", "nochmal.cli", "serve", "--help"], capture_output=True, text=True,
                         timeout=60)
    said = " ".join(run.stdout.split())
    assert run.returncode == 0
    assert "Several processes may serve one store" in said and "table nochmal_keys" in said, said


def test_the_server_environment_carries_the_flags_and_drops_stale_values():
    stale = {serve.PUBLIC_URL_ENV: "https://old.example", serve.PURGE_DAYS_ENV: "1",
             serve.GAMES_PER_HOUR_ENV: "2", serve.FORWARDED_ENV: "*", "OTHER": "kept"}
    env = serve.server_env(args(), "CODE", stale)
    assert env[serve.FORWARDED_ENV] == ""  # nobody's X-Forwarded-For is believed
    assert not {serve.PUBLIC_URL_ENV, serve.PURGE_DAYS_ENV, serve.GAMES_PER_HOUR_ENV} & set(env)
    assert env["OTHER"] == "kept" and env[serve.OWNER_CODE_ENV] == "CODE"
    env = serve.server_env(args("--trusted-proxy", "127.0.0.1", "--trusted-proxy", "10.0.0.0/8", "--public-url",
                                "https://example.org/nochmal/", "--purge-after-days", "30", "--games-per-hour", "5"),
                           "CODE", {})
    assert env[serve.FORWARDED_ENV] == "127.0.0.1,10.0.0.0/8"
    assert env[serve.PUBLIC_URL_ENV] == "https://example.org/nochmal"
    assert (env[serve.PURGE_DAYS_ENV], env[serve.GAMES_PER_HOUR_ENV]) == ("30", "5")
    assert serve.streamlit_command("127.0.0.1", 8501, "/nochmal")[-2:] == ["--server.baseUrlPath", "nochmal"]
    assert "--server.baseUrlPath" not in serve.streamlit_command("127.0.0.1", 8501, "")


@pytest.mark.parametrize("text, value", [("7", 7), (" 7 ", 7), ("", None), ("0", None), ("-1", None), ("x", None),
                                         ("3651", None), ("٣", None)])
def test_a_setting_in_the_environment_is_a_number_in_range_or_off(text, value):
    assert serve.setting({"X": text}, "X", 3650) == value


# ---- X-Forwarded-For: believed only from a trusted proxy (uvicorn's middleware, as the server runs it) ----

def client_seen(trusted: str, peer: str, forwarded: str | None) -> str:
    """The client address the app sees through uvicorn's proxy-header middleware with the
    FORWARDED_ALLOW_IPS value ``trusted``, for a request from ``peer`` carrying ``forwarded``."""
    seen = {}

    async def app(scope, receive, send):
        seen["client"] = scope["client"][0]

    headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded is not None else []
    scope = {"type": "websocket", "client": (peer, 5000), "headers": headers, "scheme": "ws"}
    asyncio.run(ProxyHeadersMiddleware(app, trusted_hosts=trusted)(scope, None, None))
    return seen["client"]


def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy():
    none = serve.server_env(args(), "C", {})[serve.FORWARDED_ENV]
    local = serve.server_env(args("--trusted-proxy", "127.0.0.1"), "C", {})[serve.FORWARDED_ENV]
    chain = serve.server_env(args("--trusted-proxy", "127.0.0.1", "--trusted-proxy", "10.0.0.0/8"), "C", {})[
        serve.FORWARDED_ENV]
    # without --trusted-proxy the header is never believed, not even from this machine
    assert client_seen(none, "127.0.0.1", "203.0.113.9") == "127.0.0.1"
    # from the trusted proxy: the right-most address that is no trusted proxy (a client cannot put
    # itself further right: the proxy appends the address it saw)
    assert client_seen(local, "127.0.0.1", "198.51.100.1, 203.0.113.9") == "203.0.113.9"
    assert client_seen(chain, "127.0.0.1", "198.51.100.1, 203.0.113.9, 10.2.3.4") == "203.0.113.9"
    # from any other peer: the peer, whatever it claims
    assert client_seen(local, "192.0.2.50", "203.0.113.9") == "192.0.2.50"


# ---- housekeeping: the parts ---------------------------------------------------------------------

def test_a_quota_refuses_the_use_over_its_limit_until_the_oldest_leaves_the_window():
    now = [100.0]
    q = Quota(2, 3600.0, clock=lambda: now[0])
    assert q.take("a") == 0.0 and q.take("a") == 0.0
    assert q.take("a") == pytest.approx(3600.0)  # refused; nothing counted
    assert q.take("b") == 0.0  # another client counts on its own
    now[0] += 3599.0
    assert q.take("a") == pytest.approx(1.0)
    now[0] += 1.0
    assert q.take("a") == 0.0
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError):
            Quota(bad)


def _sql(url, query: str, args: tuple) -> list:
    """``query`` (``?`` placeholders) straight on the store's database, SQLite or PostgreSQL."""
    if str(url).startswith("postgresql"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            cur = conn.execute(query.replace("?", "%s"), args)
            return cur.fetchall() if cur.description else []
    with sqlite3.connect(url) as conn:
        return conn.execute(query, args).fetchall()


def _age(url, game_id: str, days: float) -> None:
    """Set a game's last change ``days`` days back (as if nothing happened to it since)."""
    stamp = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=days)).isoformat(timespec="microseconds")
    _sql(url, "UPDATE games SET updated_at = ? WHERE game_id = ?", (stamp, game_id))


def test_purge_deletes_idle_games_with_their_events_and_never_a_recent_one(store_url):
    with GameStore(store_url) as store:
        old, finished, fresh = (store.create_game({"n": i}, title=t) for i, t in enumerate(("old", "done", "new")))
        for gid in (old, finished, fresh):
            store.append(gid, 0, {"type": "roll"})
        _age(store_url, old, 10)
        _age(store_url, finished, 3.1)
        _age(store_url, fresh, 2.9)
        assert store.purge_idle(3) == sorted([old, finished])
        assert [g.game_id for g in store.list_games()] == [fresh] and store.n_events(fresh) == 1
        assert _sql(store_url, "SELECT COUNT(*) FROM events WHERE game_id != ?", (fresh,))[0][0] == 0
        assert store.purge_idle(3) == []
        store.append(fresh, 1, {"type": "roll"})  # a move today: not idle any more
        assert store.purge_idle(1) == []
        assert store.count_games() == 1
        assert store.count_games(dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=5)) == 0
        for bad in (0, -1, "3", True, float("nan")):
            with pytest.raises(StoreError, match="days must be a number above 0"):
                store.purge_idle(bad)


# ---- housekeeping in a real server -----------------------------------------------------------------

def metrics(url: str) -> dict[str, float]:
    with urllib.request.urlopen(url, timeout=10) as r:
        assert r.status == 200 and r.headers["Content-Type"].startswith("text/plain")
        text = r.read().decode()
    return {k: float(v) for k, v in (line.split() for line in text.splitlines() if line and not line.startswith("#"))}


def test_a_served_app_purges_at_start_and_reports_its_metrics_under_its_base_path(tmp_path):
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        old, fresh = store.create_game({}, title="abandoned"), store.create_game({}, title="today")
    _age(db, old, 40)
    port = free_port()
    served = Served(tmp_path, "--port", str(port), "--no-warm", "--base-url-path", "/nochmal", "--purge-after-days", "30")
    try:
        url = f"http://127.0.0.1:{port}/nochmal"
        assert healthy(url, served.proc), "\n".join(served.seen)
        seen = metrics(url + "/_nochmal/metrics")
        assert seen["nochmal_games_stored"] == 1 and seen["nochmal_games_open"] == 1, seen
        assert seen["nochmal_devices_connected"] == 0
        with GameStore(db) as store:
            assert [g.game_id for g in store.list_games()] == [fresh]
        with pytest.raises(urllib.error.HTTPError):  # the route lives under the base path only
            urllib.request.urlopen(f"http://127.0.0.1:{port}/_nochmal/metrics", timeout=10)
    finally:
        served.stop()


# ---- in the app (AppTest) ------------------------------------------------------------------------

def test_the_join_link_carries_the_public_url_when_one_is_given(env, monkeypatch):
    from test_claims import make

    ses = make(env)
    monkeypatch.setenv(serve.PUBLIC_URL_ENV, "https://example.org/nochmal")
    host = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    no_exception(host)
    shown = [c.value for c in host.code]
    assert f"https://example.org/nochmal/?game={ses.game_id}&join={ses.meta['join_token']}" in shown, shown
    monkeypatch.setenv(serve.PUBLIC_URL_ENV, "javascript:alert(1)")  # not set by nochmal serve: not used
    host = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    shown = [c.value for c in host.code]
    assert not any("javascript" in c for c in shown)
    assert any(c.endswith(f"/?game={ses.game_id}&join={ses.meta['join_token']}") for c in shown), shown


def test_games_per_hour_refuses_the_game_over_the_limit_with_a_clear_message(env, monkeypatch):
    monkeypatch.setenv(serve.GAMES_PER_HOUR_ENV, "2")
    made = []
    for _ in range(3):
        at = app()
        at.button(key="new-create").click().run()
        no_exception(at)
        made.append(at.query_params.get("game"))
    assert made[0] and made[1] and made[2] is None
    assert any("This server allows 2 new games per hour from one device's address" in t and "No game was created" in t
               for t in texts(at, "error")), texts(at, "error")
    assert len(env.list_games()) == 2


def test_the_purge_thread_purges_at_start_and_again_every_period(tmp_path):
    from nochmal.ui.housekeeping import Purger

    path = tmp_path / "g.sqlite"
    with GameStore(path) as store:
        first, later = store.create_game({}, title="old"), store.create_game({}, title="aged later")
        _age(path, first, 5)
        purger = Purger(store, 3, every=0.2).start()
        try:
            deadline = time.monotonic() + 10
            while first in {g.game_id for g in store.list_games()} and time.monotonic() < deadline:
                time.sleep(0.02)
            assert [g.game_id for g in store.list_games()] == [later]  # at start: the idle one only
            runs = purger.runs
            _age(path, later, 4)
            while store.count_games() and time.monotonic() < deadline:
                time.sleep(0.02)
            assert store.count_games() == 0 and purger.runs > runs  # a later run took the game aged since
        finally:
            purger.stop()
        assert not purger._thread.is_alive()


def test_a_store_that_cannot_be_opened_does_not_keep_the_server_from_starting(tmp_path):
    (tmp_path / "games.sqlite3").write_bytes(b"not a database" * 100)
    port = free_port()
    served = Served(tmp_path, "--port", str(port), "--no-warm", "--purge-after-days", "30")
    try:
        assert healthy(f"http://127.0.0.1:{port}", served.proc), "\n".join(served.seen)
        with pytest.raises(urllib.error.HTTPError) as err:  # the metrics say the store cannot be read
            urllib.request.urlopen(f"http://127.0.0.1:{port}/_nochmal/metrics", timeout=10)
        assert err.value.code == 503
    finally:
        served.stop()
