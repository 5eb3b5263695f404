"""``nochmal serve``: start the app with a fresh owner code, like a notebook server's token.

The owner code guards the settings every game uses (user sheets and tableaus, imported files;
see ``nochmal/ui/owner.py``). This command makes one with :func:`nochmal.store.access.new_token`,
prints it with a link that carries it, and runs ``streamlit run serve_app.py`` in its place (same
process: stopping this command stops the server), passing the code in :data:`OWNER_CODE_ENV`.
The machine itself needs no code unless ``--code-on-localhost`` is given.

``serve_app.py`` is ``app.py`` inside Streamlit's ``st.App`` with the security headers of
:mod:`nochmal.ui.headers` (Content-Security-Policy, ``frame-ancestors 'none'``, ``X-Frame-Options``,
``Referrer-Policy: no-referrer``, ``X-Content-Type-Options``) on every HTTP response.

Both files and the Streamlit config (``.streamlit/config.toml``) are found by
:mod:`nochmal.engine.resources`: a clone's top level, or the installed package's tree; so the
command works from any folder, in a clone or installed from the wheel (``pipx install``).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import shlex
import socket
import subprocess
import sys

from nochmal.engine import resources
from nochmal.store.access import new_token

#: The environment variable that carries the owner code into the app.
OWNER_CODE_ENV = "NOCHMAL_OWNER_CODE"
#: ``trust`` (default): a browser on the machine itself needs no code; ``code``: it does too.
OWNER_LOCAL_ENV = "NOCHMAL_OWNER_LOCAL"
#: The folder of the app's files (a clone's top level, or the installed package's tree).
APP_ROOT = resources.root()
APP = APP_ROOT / "app.py"
#: What the server runs: ``app.py`` in an ``st.App`` that adds the security headers.
SERVED_APP = APP_ROOT / "serve_app.py"
#: The Streamlit config (upload cap, theme, toolbar), read from the served script's folder
#: (Streamlit's script-level config) and from the working folder (the command changes to APP_ROOT).
CONFIG = APP_ROOT / ".streamlit" / "config.toml"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8501


def _host(text: str) -> str:
    """An address to listen on: an IP address (0.0.0.0 or :: = every network) or localhost."""
    if text == "localhost":
        return "127.0.0.1"
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--host must be an IP address of this machine (e.g. 127.0.0.1, or 0.0.0.0 for every network), "
            f"got {text[:60]!r}") from None


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--port must be a whole number, got {text[:40]!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"--port must be 1-65535, got {value}")
    return value


def network_address() -> str | None:
    """This machine's address on its main network (the one a phone on the same network would
    use), or None. Connecting a UDP socket sends nothing; it only picks the outgoing route."""
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                address = s.getsockname()[0]
        except OSError:
            continue
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return None


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def bind_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (checked before it starts), or None."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as err:
        return f"cannot listen on {host}:{port}: {(err.strerror or str(err)).lower()}"
    return None


def announcement(host: str, port: int, code: str, code_on_localhost: bool = False) -> list[str]:
    """The lines ``nochmal serve`` prints before the server starts."""
    ip = ipaddress.ip_address(host)
    here = _url("localhost", port)
    lines = [f"nochmal: the app is at {here} on this machine" + ("" if code_on_localhost else " (no code needed here)")]
    if ip.is_loopback:
        lines.append("Only this machine can reach it; start with --host 0.0.0.0 to let phones on your network join.")
        lines.append(f"Owner code for settings: {code} (open {here}/?owner={code})" if code_on_localhost
                     else f"Owner code for settings: {code} (asked for on other devices only)")
        return lines
    shown = (network_address() or socket.gethostname()) if ip.is_unspecified else host
    lines.append(f"Owner code for settings: {code} (open {_url(shown, port)}/?owner={code} on another device)")
    return lines


def streamlit_command(host: str, port: int) -> list[str]:
    return [sys.executable, "-m", "streamlit", "run", str(SERVED_APP), "--server.address", host,
            "--server.port", str(port), "--server.headless", "true"]


def warm_in_background() -> None:
    """Compile the numba kernels (the bots, the advisor's and the analytics' rollouts) in a process of
    its own while the app starts: about a minute the first time, then read from numba's cache.
    Started through ``sh -c '… &'`` so that it is nobody's child once the shell ends (the app
    that replaces this process would never collect it)."""
    python = shlex.quote(sys.executable)
    subprocess.run(["sh", "-c", f"{python} -m nochmal.bots.warm >/dev/null 2>&1 &"], check=False,
                   stdin=subprocess.DEVNULL)


def _cmd_serve(args) -> int:
    absent = [p for p in (APP, SERVED_APP, CONFIG) if not p.is_file()]
    if absent:
        print(f"nochmal: error: the app's files are missing ({', '.join(p.name for p in absent)} in {APP_ROOT}): "
              f"install the package again (a wheel or sdist carries them) or run from a clone of the project",
              file=sys.stderr)
        return 1
    problem = bind_problem(args.host, args.port)
    if problem:
        print(f"nochmal: error: {problem} (see nochmal serve --help)", file=sys.stderr)
        return 2
    code = new_token()
    env = dict(os.environ)
    env[OWNER_CODE_ENV] = code
    env[OWNER_LOCAL_ENV] = "code" if args.code_on_localhost else "trust"
    for line in announcement(args.host, args.port, code, args.code_on_localhost):
        print(line)
    sys.stdout.flush()
    sys.stderr.flush()
    os.chdir(APP_ROOT)  # .streamlit/config.toml here is also the project config of older Streamlits
    if not args.no_warm:
        warm_in_background()
    command = streamlit_command(args.host, args.port)
    os.execve(command[0], command, env)
    return 0  # pragma: no cover - execve does not return


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Register ``serve`` on an argparse sub-parser set."""
    sp = subparsers.add_parser(
        "serve", help="start the app with a fresh owner code for its settings",
        description="Start the app (streamlit) with a fresh owner code, printed here. Saving, importing and "
                    "deleting user sheets and tableaus, and importing games, need that code on other devices; "
                    "this machine needs none (unless --code-on-localhost).")
    sp.add_argument("--host", type=_host, default=DEFAULT_HOST,
                    help=f"address to listen on (default {DEFAULT_HOST}: this machine only; 0.0.0.0: every network)")
    sp.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    sp.add_argument("--code-on-localhost", action="store_true",
                    help="ask for the owner code on this machine too (e.g. behind a reverse proxy here)")
    sp.add_argument("--no-warm", action="store_true",
                    help="do not compile the bots' kernels in the background at start (they compile when "
                         "first used instead)")
    sp.set_defaults(func=_cmd_serve)
    return sp


