"""Starting the app for a browser test: a free port, and waiting until the server answers its
health check (used by ``conftest.py`` and by tests that start a server of their own)."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

HEALTH_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen, log: Path, timeout: float = HEALTH_TIMEOUT,
                 what: str = "streamlit") -> None:
    """Return once ``url`` answers its health check; raise with the server's log if the process
    ``what`` exits or stays silent for ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what} not healthy after {timeout:.0f} s:\n{log.read_text(errors='replace')}")


def stop(proc: subprocess.Popen | None, timeout: float = 15.0) -> None:
    """End a server process: SIGTERM, then SIGKILL if it has not exited within ``timeout`` s."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=timeout)
