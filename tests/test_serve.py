"""``nochmal serve``: a real server process that prints its owner code and runs the app.

The browser side (another device is asked for the code, the printed link unlocks it) is in
``tests/browser/test_browser_owner.py``.
"""

from __future__ import annotations

import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from nochmal.cli.serve import OWNER_CODE_ENV, OWNER_LOCAL_ENV, announcement

CODE_LINE = re.compile(r"^Owner code for settings: (\S+) \((.*)\)$")
LINK = re.compile(r"^open (http://\S+) on another device$")
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """``nochmal serve ARGS`` with its output read line by line in a thread."""

    def __init__(self, tmp_path: Path, *args: str) -> None:
        env = {**os.environ, "NOCHMAL_HOME": str(tmp_path / "home"), "NOCHMAL_DB": str(tmp_path / "games.sqlite3"),
               "PYTHONUNBUFFERED": "1"}
        env.pop(OWNER_CODE_ENV, None)
        self.proc = subprocess.Popen([sys.executable, "-m", "nochmal.cli", "serve", *args], cwd=tmp_path, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pattern: re.Pattern, timeout: float = START_TIMEOUT) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            self.seen.append(line)
            m = pattern.match(line)
            if m:
                return m
        raise AssertionError(f"no line like {pattern.pattern!r}; output so far:\n" + "\n".join(self.seen))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)


def healthy(url: str, proc: subprocess.Popen, timeout: float = START_TIMEOUT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200 and r.read() == b"ok":
                    return True
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    return False


def test_serve_prints_the_owner_code_and_runs_the_app_with_it(tmp_path):
    port = free_port()
    served = Served(tmp_path, "--port", str(port))
    try:
        m = served.wait_for(CODE_LINE)
        code, note = m.group(1), m.group(2)
        assert len(code) >= 22 and re.fullmatch(r"[A-Za-z0-9_-]+", code)  # 128 random bits, url-safe
        assert note == "asked for on other devices only"
        assert any("only this machine can reach it" in line.lower() for line in served.seen), served.seen
        assert healthy(f"http://127.0.0.1:{port}", served.proc), "\n".join(served.seen)
        environ = Path(f"/proc/{served.proc.pid}/environ")
        if environ.exists():  # the server process (serve execs streamlit) holds exactly this code
            entries = environ.read_bytes().split(b"\0")
            assert f"{OWNER_CODE_ENV}={code}".encode() in entries
            assert f"{OWNER_LOCAL_ENV}=trust".encode() in entries
    finally:
        served.stop()
    assert not healthy(f"http://127.0.0.1:{port}", served.proc, timeout=1), "the server outlived serve"


def test_every_start_makes_a_new_code(tmp_path):
    codes = set()
    for _ in range(2):
        port = free_port()
        served = Served(tmp_path, "--port", str(port))
        try:
            codes.add(served.wait_for(CODE_LINE).group(1))
        finally:
            served.stop()
    assert len(codes) == 2


def test_a_busy_port_and_bad_arguments_give_one_clean_line(tmp_path):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        run = subprocess.run([sys.executable, "-m", "nochmal.cli", "serve", "--port", str(port)],
                             capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip() == f"nochmal: error: cannot listen on 127.0.0.1:{port}: address already in use " \
                                 f"(see nochmal serve --help)"
    for args, words in ((["--port", "0"], "--port must be 1-65535"), (["--port", "x"], "--port must be a whole"),
                        (["--host", "example.org"], "--host must be an IP address")):
        run = subprocess.run([sys.executable, "-m", "nochmal.cli", "serve", *args], capture_output=True, text=True,
                             timeout=60)
        assert run.returncode == 2 and words in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_the_announcement_names_the_network_address_when_open_to_the_network():
    lines = announcement("0.0.0.0", 8501, "CODE")
    assert lines[0] == "nochmal: the app is at http://localhost:8501 on this machine (no code needed here)"
    link = LINK.match(CODE_LINE.match(lines[-1]).group(2)).group(1)
    assert link.endswith(":8501/?owner=CODE") and "localhost" not in link
    assert announcement("192.0.2.7", 9000, "C")[-1] == \
        "Owner code for settings: C (open http://192.0.2.7:9000/?owner=C on another device)"
    assert announcement("fd00::2", 9000, "C")[-1] == \
        "Owner code for settings: C (open http://[fd00::2]:9000/?owner=C on another device)"
    lines = announcement("::1", 9000, "C", code_on_localhost=True)
    assert lines[0].endswith("on this machine") and lines[-1].endswith("(open http://localhost:9000/?owner=C)")
