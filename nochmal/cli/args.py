"""argparse ``type=`` functions for the command line: each checks one argument completely
(numbers and their ranges, files that must exist, folders that must be writable, sheet ids,
policies, a Dask scheduler that must answer) and returns its value, or raises
:class:`argparse.ArgumentTypeError` with one line that starts with the option's name. The
parser then refuses the command line before any work starts (exit code 2)."""

from __future__ import annotations

import argparse
import math
import os
import re
from pathlib import Path

from nochmal.engine.errors import NochmalError

#: Seconds a ``--scheduler`` address has to resolve and to accept a TCP connection.
SCHEDULER_TIMEOUT_S = 3.0
#: Most games one ``simulate`` run (or one sweep cell) plays: a typo like ``--games 10**9``
#: would otherwise fill the memory with the list of jobs before the first game.
MAX_GAMES = 1_000_000
#: Most worker processes ``--workers`` / ``--dask-local`` may start.
MAX_WORKERS = 256


class UsageError(NochmalError):
    """A wrong combination of arguments, found after parsing and before any work (a command's
    ``check``)."""


def _q(text: str, limit: int = 60) -> str:
    """An argument as quoted in an error message: cut after ``limit`` characters (the whole
    message is escaped for the terminal when it is printed)."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


# Each returns the value or raises ArgumentTypeError with a message that starts with the
# option's name (argparse's own "argument --x: " prefix is then left out, see _Parser.error).
def int_in(name: str, lo: int, hi: int | None = None):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, got {_q(text)}") from None
        if value < lo:
            raise argparse.ArgumentTypeError(f"{name} must be at least {lo}, got {_q(text.strip(), 20)}")
        if hi is not None and value > hi:
            raise argparse.ArgumentTypeError(f"{name} must be {lo}-{hi}, got {_q(text.strip(), 20)}")
        return value

    parse.__name__ = name.lstrip("-")
    return parse


def int_ranges(name: str, lo: int, hi: int):
    def parse(text: str) -> list[int]:
        from nochmal.analytics.sweep import parse_range

        try:
            return parse_range(text, lo, hi, name.lstrip("-"))
        except NochmalError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return parse


def sheet_list(text: str) -> list[str]:
    from nochmal.engine.sheet import get_sheet

    ids = [s.strip() for s in text.split(",") if s.strip()]
    if not ids:
        raise argparse.ArgumentTypeError("--sheets must name at least one sheet id (comma-separated)")
    for s in ids:
        try:
            get_sheet(s)
        except NochmalError as err:
            raise argparse.ArgumentTypeError(f"--sheets: {err}") from None
    return ids


def id_list(name: str):
    """Comma-separated ids (sheets of whichever game is chosen: the command's check reads them)."""
    def parse(text: str) -> list[str]:
        ids = [s.strip() for s in text.split(",") if s.strip()]
        if not ids:
            raise argparse.ArgumentTypeError(f"{name} must name at least one sheet id (comma-separated)")
        return ids

    return parse


def _checked(name: str, check):
    """An argparse type that keeps the text if ``check(text)`` raises no NochmalError."""
    def parse(text: str) -> str:
        try:
            check(text)
        except NochmalError as err:
            raise argparse.ArgumentTypeError(f"{name}: {err}") from None
        return text

    return parse


def sheet_id(name: str):
    def check(text: str) -> None:
        from nochmal.engine.sheet import get_sheet

        get_sheet(text)

    return _checked(name, check)


def _get_policy(text: str) -> None:
    from nochmal.bots.registry import get_policy

    get_policy(text)


policy = _checked("--policy", _get_policy)


def policy_list(text: str) -> list[str]:
    names = [p.strip() for p in text.split(",") if p.strip()]
    if not names:
        raise argparse.ArgumentTypeError("--policy must name at least one policy (comma-separated)")
    return [policy(p) for p in names]


def existing_file(name: str, suffixes: tuple[str, ...] = ()):
    """An input file that must exist (and be a regular file with one of ``suffixes``)."""
    def parse(text: str) -> str:
        p = Path(text)
        if not text:
            raise argparse.ArgumentTypeError(f"{name} needs a file name")
        if suffixes and p.suffix.lower() not in suffixes:
            raise argparse.ArgumentTypeError(f"{name} {text}: use a {' or '.join(suffixes)} file")
        if not p.exists():
            raise argparse.ArgumentTypeError(f"{name} {text}: no such file")
        if not p.is_file():
            raise argparse.ArgumentTypeError(f"{name} {text}: not a regular file")
        if not os.access(p, os.R_OK):
            raise argparse.ArgumentTypeError(f"{name} {text}: not readable (permission denied)")
        return text

    return parse


def _writable_folder(name: str, folder: Path, what: str) -> None:
    shown = folder if str(folder) else Path(".")
    if not folder.exists():
        raise argparse.ArgumentTypeError(f"{name} {what}: the folder {shown} does not exist")
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"{name} {what}: {shown} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{name} {what}: the folder {shown} is not writable")


def output_file(name: str, suffixes: tuple[str, ...] = (), *, regular: bool = True):
    """A file to write: its folder must exist and be writable; it must not be a folder. With
    ``regular`` (every ``--out``) nothing but a regular file may be at the path: a symbolic link
    (wherever it points), a FIFO, a device, a socket are refused (``os.lstat``, never followed;
    :func:`nochmal.data.outfile.write_file` checks again when it writes)."""
    def parse(text: str) -> str:
        from nochmal.data.outfile import OutputPathError, check_output_path

        p = Path(text)
        if not text:
            raise argparse.ArgumentTypeError(f"{name} needs a file name")
        if suffixes and p.suffix.lower() not in suffixes:
            raise argparse.ArgumentTypeError(f"{name}: use a {' or '.join(suffixes)} file name, got {p.name!r}")
        if regular:
            try:
                check_output_path(p, name)
            except OutputPathError as err:
                raise argparse.ArgumentTypeError(str(err)) from None
        if p.is_dir():
            raise argparse.ArgumentTypeError(f"{name} {text}: is a folder, not a file")
        _writable_folder(name, p.parent, text)
        if p.exists() and not os.access(p, os.W_OK):
            raise argparse.ArgumentTypeError(f"{name} {text}: the file is not writable")
        return text

    return parse


def store_location(name: str):
    """A game store: a ``postgresql://`` (or ``postgres://``) URL as it is (the store checks it
    when it connects), else an SQLite file to write (:func:`output_file`, not only regular)."""
    as_file = output_file(name, regular=False)

    def parse(text: str) -> str:
        from nochmal.store.pgdb import is_server_url

        return text.strip() if is_server_url(text) else as_file(text)

    return parse


def output_folder(name: str):
    """A folder to write into: an existing writable folder (not a symbolic link to one), or a new
    one whose nearest existing parent is a writable folder (it is created)."""
    def parse(text: str) -> str:
        p = Path(text)
        if not text:
            raise argparse.ArgumentTypeError(f"{name} needs a folder name")
        if p.is_symlink():  # files are written inside it: never through a link
            raise argparse.ArgumentTypeError(f"{name} {text}: is a symbolic link; give the folder itself")
        if p.exists():
            if not p.is_dir():
                raise argparse.ArgumentTypeError(f"{name} {text}: not a folder")
            _writable_folder(name, p, text)
            return text
        parent = p.absolute().parent
        while not parent.exists():
            parent = parent.parent
        _writable_folder(name, parent, text)
        return text

    return parse


def existing_folder(name: str):
    def parse(text: str) -> str:
        if not Path(text).is_dir():
            raise argparse.ArgumentTypeError(f"{name} {text}: no such folder")
        return text

    return parse


def ladder(text: str) -> list[float]:
    try:
        values = [float(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--ladder: expected 5 win rates like 0.8,0.65,0.5,0.35,0.2, "
                                         f"got {_q(text)}") from None
    if len(values) != 5 or any(not (math.isfinite(x) and 0 <= x <= 1) for x in values):
        raise argparse.ArgumentTypeError("--ladder: five win rates between 0 and 1, one per mission, "
                                         f"got {_q(text)}")
    return values


def id_prefix(text: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,47}", text):
        raise argparse.ArgumentTypeError(f"--prefix must be 1-48 letters, digits, '_', '.' or '-' (starting with a "
                                         f"letter or digit), got {_q(text)}")
    return text


def scheduler_address(text: str) -> str:
    """``tcp://host:port`` (or ``host:port``) of a Dask scheduler that accepts a TCP connection
    within :data:`SCHEDULER_TIMEOUT_S` seconds; returned as ``tcp://host:port``."""
    from urllib.parse import urlsplit

    addr = text.strip()
    example = "tcp://host:8786"
    try:
        parts = urlsplit(addr if "://" in addr else "tcp://" + addr)
        host, port = parts.hostname, parts.port
    except ValueError:
        raise argparse.ArgumentTypeError(f"--scheduler {_q(text)} is not an address like {example}") from None
    if parts.scheme != "tcp":
        raise argparse.ArgumentTypeError(f"--scheduler {_q(text)}: only tcp:// addresses are supported "
                                         f"(like {example})")
    if not host or not port or parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise argparse.ArgumentTypeError(f"--scheduler {_q(text)} is not an address like {example} "
                                         "(a host and a port 1-65535)")
    problem = tcp_problem(host, port, SCHEDULER_TIMEOUT_S)
    if problem:
        raise argparse.ArgumentTypeError(f"--scheduler {_q(text)}: {problem}")
    shown = f"[{host}]" if ":" in host else host
    return f"tcp://{shown}:{port}"


def tcp_problem(host: str, port: int, timeout: float) -> str | None:
    """None if something at ``host:port`` accepts a TCP connection within ``timeout`` seconds
    (the name lookup included), else what went wrong."""
    import socket
    import threading
    import time

    found: dict = {}

    def resolve() -> None:
        try:
            found["addrs"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as err:
            found["error"] = err

    start = time.monotonic()
    worker = threading.Thread(target=resolve, daemon=True)  # getaddrinfo has no timeout of its own
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        return f"the host name {host} did not resolve within {timeout:g} s"
    if "error" in found:
        return f"unknown host {host} ({found['error'].strerror or found['error']})"
    reason = "no address"
    for family, kind, proto, _, sockaddr in found["addrs"]:
        left = timeout - (time.monotonic() - start)
        if left <= 0:
            reason = "timed out"
            break
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.settimeout(left)
                sock.connect(sockaddr)
                return None
        except TimeoutError:
            reason = "timed out"
        except OSError as err:
            reason = (err.strerror or str(err)).lower()
    return f"no Dask scheduler answers at {host}:{port} within {timeout:g} s ({reason})"
