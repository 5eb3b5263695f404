"""A throwaway PostgreSQL cluster for the store's tests, from Debian's binaries
(``/usr/lib/postgresql/*/bin``; ``.ci/run`` installs the ``postgresql`` package when they are
missing): ``initdb`` into a temp folder, ``pg_ctl start`` on a free loopback port, trust
authentication for the one user ``postgres``, stopped (and the folder removed) at the end.

As root (CI) the cluster runs as the ``postgres`` user the package creates (PostgreSQL refuses to
run as root); as anybody else, as that user."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER = "postgres"


class ClusterError(RuntimeError):
    """The cluster could not be started (the message says why)."""


def bin_dir() -> Path:
    """The newest ``/usr/lib/postgresql/N/bin`` with ``initdb`` and ``pg_ctl`` (else the PATH's)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).resolve().parent
    raise ClusterError("no PostgreSQL binaries (initdb, pg_ctl): apt-get install -y postgresql")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self) -> None:
        self.bin = bin_dir()
        self.folder = Path(tempfile.mkdtemp(prefix="nochmal-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self._as_root = os.geteuid() == 0
        self._started = False

    def _run(self, *args: str, timeout: float = 120) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self._as_root:
            cmd = ["runuser", "-u", USER, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                              cwd=self.folder)
        if done.returncode:
            raise ClusterError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> str:
        """Start the cluster; return the URL of its ``postgres`` database."""
        if self._as_root:
            try:
                pw = pwd.getpwnam(USER)
            except KeyError as exc:
                raise ClusterError(f"no {USER!r} user (apt-get install -y postgresql makes it)") from exc
            os.chown(self.folder, pw.pw_uid, pw.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", USER, "-A", "trust", "-E", "UTF8",
                  "--locale=C.UTF-8", "--no-instructions", "--no-sync")
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c max_connections=60 -c shared_buffers=32MB")
        self._run("pg_ctl", "start", "-w", "-t", "60", "-D", str(self.data), "-l", str(self.folder / "log"),
                  "-o", options)
        self._started = True
        return self.url("postgres")

    def url(self, database: str, schema: str | None = None) -> str:
        """The URL of ``database``; with ``schema``, one whose connections use that schema only."""
        options = f"?options=-csearch_path%3D{schema}" if schema else ""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}{options}"

    def stop(self) -> None:
        try:
            if self._started:
                self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", timeout=60)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def log(self) -> str:
        path = self.folder / "log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""
