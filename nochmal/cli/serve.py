"""``nochmal serve``: start the app with a fresh owner code, like a notebook server's token.

The owner code guards the settings every game uses (user sheets and tableaus, imported files;
see ``nochmal/ui/owner.py``). This command makes one with :func:`nochmal.store.access.new_token`,
prints it with a link that carries it, and runs ``streamlit run serve_app.py`` in its place (same
process: stopping this command stops the server), passing the code in :data:`OWNER_CODE_ENV`.
The machine itself needs no code unless ``--code-on-localhost`` is given.

``serve_app.py`` is ``app.py`` inside Streamlit's ``st.App`` with the security headers of
:mod:`nochmal.ui.headers` (Content-Security-Policy, ``frame-ancestors 'none'``, ``X-Frame-Options``,
``Referrer-Policy: no-referrer``, ``X-Content-Type-Options``) on every HTTP response.

Behind a reverse proxy (README "Behind a reverse proxy", ``docs/nginx-nochmal.conf``):
``--base-url-path /nochmal`` serves the app under that path (Streamlit's ``server.baseUrlPath``);
``--public-url https://host/nochmal`` is the address join links and QR codes carry
(:data:`PUBLIC_URL_ENV`); ``--trusted-proxy ADDRESS`` (repeatable, an address or a network) is the
only peer whose ``X-Forwarded-For`` is believed. The server's uvicorn reads that list from
``FORWARDED_ALLOW_IPS`` (:data:`FORWARDED_ENV`): the client becomes the right-most address of the
header that is not a trusted proxy, and only when the connection itself comes from one. Without
``--trusted-proxy`` the list is empty and the header is never believed (uvicorn's own default
would believe it from 127.0.0.1).

A public server's housekeeping: ``--purge-after-days N`` deletes games with no event or change for
N days at start and then daily (:data:`PURGE_DAYS_ENV`); ``--games-per-hour N`` limits the games
one client address creates in an hour (:data:`GAMES_PER_HOUR_ENV`). Both are off by default.

Both files and the Streamlit config (``.streamlit/config.toml``) are found by
:mod:`nochmal.engine.resources`: a clone's top level, or the installed package's tree; so the
command works from any folder, in a clone or installed from the wheel (``pipx install``).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
import shlex
import socket
import subprocess
import sys
from collections.abc import Mapping
from urllib.parse import urlsplit

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
#: The address join links and QR codes carry (``--public-url``); unset: the address the browser uses.
PUBLIC_URL_ENV = "NOCHMAL_PUBLIC_URL"
#: Days without an event or change after which a game is deleted (``--purge-after-days``); unset: never.
PURGE_DAYS_ENV = "NOCHMAL_PURGE_AFTER_DAYS"
#: Games one client address may create per hour (``--games-per-hour``); unset: no limit.
GAMES_PER_HOUR_ENV = "NOCHMAL_GAMES_PER_HOUR"
#: uvicorn's list of peers whose X-Forwarded-For / X-Forwarded-Proto it believes.
FORWARDED_ENV = "FORWARDED_ALLOW_IPS"
MAX_PURGE_DAYS = 3650
MAX_GAMES_PER_HOUR = 10_000
#: One segment of a base URL path: letters, digits and ``-._~`` (nothing a proxy or a browser rewrites).
_PATH_SEGMENT = re.compile(r"^[A-Za-z0-9._~-]{1,64}$")
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


def base_url_path(text: str) -> str:
    """``--base-url-path``: the path the app is served under, as ``/a/b`` ("" for the top)."""
    raw = str(text).strip()
    if len(raw) > 200:
        raise argparse.ArgumentTypeError(f"--base-url-path is too long ({len(raw)} characters, at most 200)")
    parts = [p for p in raw.split("/") if p]
    for part in parts:
        if not _PATH_SEGMENT.match(part) or part in (".", ".."):
            raise argparse.ArgumentTypeError(
                f"--base-url-path may hold only letters, digits and - . _ ~ between slashes (e.g. /nochmal), "
                f"got {raw[:60]!r}")
    return "/" + "/".join(parts) if parts else ""


def public_url(text: str) -> str:
    """``--public-url``: an http(s) address with a host, no query, fragment or user name; returned
    without its trailing slash."""
    raw = str(text).strip()
    if len(raw) > 300:
        raise argparse.ArgumentTypeError(f"--public-url is too long ({len(raw)} characters, at most 300)")
    if any(ch.isspace() or not ch.isprintable() for ch in raw):
        raise argparse.ArgumentTypeError(f"--public-url must not hold spaces or control characters, got {raw[:60]!r}")
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018 - raises on a port that is not a number or out of range
    except ValueError:
        raise argparse.ArgumentTypeError(f"--public-url is not a valid address, got {raw[:60]!r}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(
            f"--public-url must start with https:// or http:// and name a host (e.g. https://example.org/nochmal), "
            f"got {raw[:60]!r}")
    if parts.query or parts.fragment or "?" in raw or "#" in raw or parts.username or parts.password:
        raise argparse.ArgumentTypeError(
            f"--public-url must be the app's address only: no ?query, #fragment or user name, got {raw[:60]!r}")
    try:
        path = base_url_path(parts.path)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"--public-url's path may hold only letters, digits and - . _ ~ between slashes, got {raw[:60]!r}") from None
    return f"{parts.scheme}://{parts.netloc}{path}"


def trusted_proxy(text: str) -> str:
    """``--trusted-proxy``: an IP address or a network (``10.0.0.0/8``), in canonical form."""
    raw = str(text).strip()
    try:
        return str(ipaddress.ip_network(raw, strict=False)) if "/" in raw else str(ipaddress.ip_address(raw))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--trusted-proxy must be the proxy's IP address (e.g. 127.0.0.1) or a network (e.g. 10.0.0.0/8), "
            f"got {raw[:60]!r}") from None


def _bounded(flag: str, high: int):
    def parse(text: str) -> int:
        try:
            value = int(str(text).strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag} must be a whole number, got {str(text)[:40]!r}") from None
        if not 1 <= value <= high:
            raise argparse.ArgumentTypeError(f"{flag} must be 1-{high}, got {value}")
        return value
    return parse


def setting(env: Mapping[str, str], name: str, high: int) -> int | None:
    """A whole-number setting of the server from the environment (None: unset, empty, or not a
    number in 1..``high``: then the feature stays off, as at home)."""
    text = str(env.get(name) or "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        return None
    value = int(text)
    return value if 1 <= value <= high else None


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


def announcement(host: str, port: int, code: str, code_on_localhost: bool = False, base: str = "") -> list[str]:
    """The lines ``nochmal serve`` prints before the server starts (``base``: the base URL path)."""
    ip = ipaddress.ip_address(host)
    here = _url("localhost", port) + base
    lines = [f"nochmal: the app is at {here} on this machine" + ("" if code_on_localhost else " (no code needed here)")]
    if ip.is_loopback:
        lines.append("Only this machine can reach it; start with --host 0.0.0.0 to let phones on your network join.")
        lines.append(f"Owner code for settings: {code} (open {here}/?owner={code})" if code_on_localhost
                     else f"Owner code for settings: {code} (asked for on other devices only)")
        return lines
    shown = (network_address() or socket.gethostname()) if ip.is_unspecified else host
    lines.append(f"Owner code for settings: {code} (open {_url(shown, port)}{base}/?owner={code} on another device)")
    return lines


def streamlit_command(host: str, port: int, base: str = "") -> list[str]:
    command = [sys.executable, "-m", "streamlit", "run", str(SERVED_APP), "--server.address", host,
               "--server.port", str(port), "--server.headless", "true"]
    if base:
        command += ["--server.baseUrlPath", base.strip("/")]
    return command


def server_env(args, code: str, environ: Mapping[str, str] | None = None) -> dict:
    """The environment the app runs in: the owner code and the settings of the command line.
    Settings not given are removed (an old value in the shell never switches a feature on)."""
    env = dict(os.environ if environ is None else environ)
    env[OWNER_CODE_ENV] = code
    env[OWNER_LOCAL_ENV] = "code" if args.code_on_localhost else "trust"
    env[FORWARDED_ENV] = ",".join(args.trusted_proxy or [])  # empty: X-Forwarded-For is never believed
    for name, value in ((PUBLIC_URL_ENV, args.public_url), (PURGE_DAYS_ENV, args.purge_after_days),
                        (GAMES_PER_HOUR_ENV, args.games_per_hour)):
        if value:
            env[name] = str(value)
        else:
            env.pop(name, None)
    return env


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
    env = server_env(args, code)
    for line in announcement(args.host, args.port, code, args.code_on_localhost, args.base_url_path):
        print(line)
    if args.base_url_path or args.public_url or args.trusted_proxy:
        print(f"Served under {args.base_url_path or '/'}; join links: {args.public_url or 'the address the browser uses'}; "
              f"X-Forwarded-For believed from: {', '.join(args.trusted_proxy) if args.trusted_proxy else 'nobody'}")
    sys.stdout.flush()
    sys.stderr.flush()
    os.chdir(APP_ROOT)  # .streamlit/config.toml here is also the project config of older Streamlits
    if not args.no_warm:
        warm_in_background()
    command = streamlit_command(args.host, args.port, args.base_url_path)
    os.execve(command[0], command, env)
    return 0  # pragma: no cover - execve does not return


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Register ``serve`` on an argparse sub-parser set."""
    sp = subparsers.add_parser(
        "serve", help="start the app with a fresh owner code for its settings",
        description="Start the app (streamlit) with a fresh owner code, printed here. Saving, importing and "
                    "deleting user sheets and tableaus, and importing games, need that code on other devices; "
                    "this machine needs none (unless --code-on-localhost).",
        epilog="Several processes may serve one store (NOCHMAL_DB, the same SQLite file or PostgreSQL database for "
               "each) behind a proxy with sticky sessions: they sign the pages' change tokens with one key kept in "
               "the store (table nochmal_keys, made by the first process that needs it), so a device whose process "
               "died keeps its token on another one. Nothing to set; to change the key, delete its row and "
               "restart every process.")
    sp.add_argument("--host", type=_host, default=DEFAULT_HOST,
                    help=f"address to listen on (default {DEFAULT_HOST}: this machine only; 0.0.0.0: every network)")
    sp.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    sp.add_argument("--code-on-localhost", action="store_true",
                    help="ask for the owner code on this machine too (e.g. behind a reverse proxy here that is not "
                         "given as --trusted-proxy: every visitor then seems to come from this machine)")
    sp.add_argument("--no-warm", action="store_true",
                    help="do not compile the bots' kernels in the background at start (they compile when "
                         "first used instead)")
    sp.add_argument("--base-url-path", type=base_url_path, default="", metavar="PATH",
                    help="serve the app under this path (e.g. /nochmal behind a reverse proxy; letters, digits, "
                         "- . _ ~ between slashes)")
    sp.add_argument("--public-url", type=public_url, default=None, metavar="URL",
                    help="the address people reach the app at (e.g. https://example.org/nochmal): join links and "
                         "QR codes carry it (default: the address the host's browser uses)")
    sp.add_argument("--trusted-proxy", type=trusted_proxy, action="append", default=[], metavar="ADDRESS",
                    help="a reverse proxy's IP address or network (repeatable): only from it is X-Forwarded-For "
                         "believed, and the client is its right-most address that is no trusted proxy "
                         "(default: none, the header is never believed)")
    sp.add_argument("--purge-after-days", type=_bounded("--purge-after-days", MAX_PURGE_DAYS), default=None,
                    metavar="N", help="delete games (finished or abandoned) with no move or change for N days, at "
                                      "start and then daily (default: keep every game)")
    sp.add_argument("--games-per-hour", type=_bounded("--games-per-hour", MAX_GAMES_PER_HOUR), default=None,
                    metavar="N", help="at most N new games per client address and hour (default: no limit)")
    sp.set_defaults(func=_cmd_serve)
    return sp


