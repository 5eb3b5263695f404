"""No websocket message from a device can drop the server's store or its throttles.

A real ``streamlit run app.py`` and real back-messages over its websocket (tests/helpers/
backmsg.py): ``clear_cache`` is what any connected device can send. It used to empty
``st.cache_resource``, so the next page run opened a second store on the same file (whose
header check dropped the live connection's locks: the next process to close the store then
deleted the WAL under the server) and reset every wrong-code throttle. Each test here failed
before the store and the throttles lived for the process (nochmal/ui/lifetime.py).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "helpers"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from backmsg import Device  # noqa: E402
from serving import free_port, stop, wait_healthy  # noqa: E402

from nochmal.store.access import THROTTLE_LIMIT  # noqa: E402
from nochmal.store.db import GameStore  # noqa: E402
from nochmal.store.session import GameSession  # noqa: E402
from nochmal.ui import newgame  # noqa: E402

OTHER_PROCESS = ("import sys; from nochmal.store.db import GameStore\n"
                 "with GameStore(sys.argv[1]) as s: print(s.create_game({'by': 'other'}, title=sys.argv[2]))")
TOO_MANY = ("Too many wrong codes", "Zu viele falsche Codes")


@pytest.fixture
def server(tmp_path):
    """The app under ``streamlit run`` on a free port, its store in ``tmp_path``."""
    db = tmp_path / "games.sqlite3"
    port = free_port()
    log = tmp_path / "streamlit.log"
    env = {**os.environ, "NOCHMAL_DB": str(db), "NOCHMAL_HOME": str(tmp_path / "home"), "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
           "--browser.gatherUsageStats", "false"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc, log)
        yield port, db, proc
    finally:
        stop(proc)


def _game(db: Path, seats: int = 4) -> GameSession:
    game = newgame.make_game("coop", newgame.default_sheets("coop", seats), 1)
    with GameStore(db) as store:
        ses = GameSession.create(store, game, title="lifetime", seat_names=[f"P{i + 1}" for i in range(seats)])
        return ses.game_id, dict(ses.meta)


def _other_process_makes_a_game(db: Path, title: str) -> str:
    out = subprocess.run([sys.executable, "-c", OTHER_PROCESS, str(db), title], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, check=True)
    return out.stdout.strip()


def _server_holds(proc: subprocess.Popen, db: Path) -> int:
    """How many descriptors of the store's file the server process has open."""
    fds, target, n = Path(f"/proc/{proc.pid}/fd"), os.path.realpath(db), 0
    for fd in fds.iterdir():
        try:
            n += os.path.realpath(fd, strict=True) == target
        except OSError:  # closed while we looked (the server opens and closes other files all the while)
            continue
    return n


def test_clear_cache_from_a_device_leaves_the_store_whole(server):
    """The host screen reruns its page all the while (as a table's host does), so a page run
    holds the server's store whenever a phone's ``clear_cache`` arrives; other processes open and
    close the store in between. Before the fix: 3 of 3 runs broke the index games_by_updated and
    lost the claims of seats 3 and 4."""
    port, db, proc = server
    gid, meta = _game(db)
    join = f"game={gid}&join={meta['join_token']}"
    made_elsewhere = []
    finished = threading.Event()

    def host_screen() -> None:
        with Device(port) as host:
            while not finished.is_set():
                host.run(f"game={gid}&code={meta['host_code']}")

    host = threading.Thread(target=host_screen)
    host.start()
    try:
        for seat in (1, 2, 3, 4):
            with Device(port) as phone:
                phone.clear_cache()
                phone.run(f"{join}&claim={seat}")  # the server writes this seat's claim
            assert _server_holds(proc, db) == 1
            made_elsewhere.append(_other_process_makes_a_game(db, f"other {seat}"))
    finally:
        finished.set()
        host.join(timeout=120)
    stop(proc)  # the server closes its store before the file is checked

    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()
    with GameStore(db) as store:
        assert sorted(g.game_id for g in store.list_games()) == sorted([gid, *made_elsewhere])
        assert sorted((store.get(gid).meta.get("claims") or {})) == ["0", "1", "2", "3"]


def test_clear_cache_from_a_device_does_not_reset_the_wrong_code_throttle(server):
    port, db, _proc = server
    gid, meta = _game(db, seats=2)
    with Device(port) as guesser:
        for i in range(THROTTLE_LIMIT):
            guesser.run(f"game={gid}&code=wrong{i:02d}wrong{i:02d}wrong")
        assert any(t in guesser.run(f"game={gid}&code={meta['host_code']}") for t in TOO_MANY)
        guesser.clear_cache()
        assert any(t in guesser.run(f"game={gid}&code={meta['host_code']}") for t in TOO_MANY)
