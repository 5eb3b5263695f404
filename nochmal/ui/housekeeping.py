"""A public server's housekeeping (issue 45, item 5), all off at home unless ``nochmal serve`` is
told otherwise:

* **Purge**: with ``--purge-after-days N`` (:data:`~nochmal.cli.serve.PURGE_DAYS_ENV`) the games
  with no event and no change for N days, finished or abandoned, are deleted
  (:meth:`~nochmal.store.db.GameStore.purge_idle`, one transaction) when the server starts and
  then every :data:`PURGE_EVERY_S` seconds, by a thread of the server process.
* **Games per hour**: with ``--games-per-hour N`` (:data:`~nochmal.cli.serve.GAMES_PER_HOUR_ENV`)
  one client address creates at most N games in an hour (:class:`~nochmal.store.access.Quota`,
  one per server process); the Start page says so when the limit is hit.
* **Health and metrics**: ``GET <base path>/_nochmal/metrics`` answers ``200`` with Prometheus's
  text format: the games stored, the games with a move or change in the last hour, and the
  browser sessions connected now (Streamlit's own session count). A load balancer may probe it,
  or Streamlit's ``<base path>/_stcore/health``.

Streamlit adds no base URL path to the routes an ``st.App`` is given, so :func:`prefixed` does.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import threading

import streamlit as st
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from nochmal.cli.serve import GAMES_PER_HOUR_ENV, MAX_GAMES_PER_HOUR, MAX_PURGE_DAYS, PURGE_DAYS_ENV, setting
from nochmal.store.access import Quota
from nochmal.store.db import StoreError
from nochmal.ui import lifetime

#: The metrics route (under the base URL path).
METRICS_ROUTE = "/_nochmal/metrics"
#: Seconds between two purges after the one at start.
PURGE_EVERY_S = 24 * 3600.0
#: A game counts as active in the metrics when it changed within this many seconds.
ACTIVE_S = 3600.0

_log = logging.getLogger("nochmal.housekeeping")


def prefixed(path: str) -> str:
    """``path`` under Streamlit's base URL path (``server.baseUrlPath``), if one is set."""
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    return (f"/{base}" if base else "") + path


def purge_days() -> int | None:
    return setting(os.environ, PURGE_DAYS_ENV, MAX_PURGE_DAYS)


def games_per_hour() -> int | None:
    return setting(os.environ, GAMES_PER_HOUR_ENV, MAX_GAMES_PER_HOUR)


def purge_once(store, days: int) -> list[str]:
    """Delete the games idle for ``days`` days from ``store``; logs what it did (never raises on a
    store error: the next purge tries again)."""
    try:
        gone = store.purge_idle(days)
    except StoreError as err:
        _log.warning("nochmal: purge of games idle for %s days failed: %s", days, err)
        return []
    if gone:
        _log.warning("nochmal: purged %d game(s) with no move or change for %d days", len(gone), days)
    return gone


class Purger:
    """The thread that purges at start and then every ``every`` seconds until :meth:`stop`."""

    def __init__(self, store, days: int, every: float = PURGE_EVERY_S) -> None:
        self.store, self.days, self.every = store, days, every
        self.runs = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="nochmal-purge", daemon=True)

    def start(self) -> Purger:
        self._thread.start()
        return self

    def _run(self) -> None:
        while True:
            purge_once(self.store, self.days)
            self.runs += 1
            if self._stop.wait(self.every):
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


@contextlib.asynccontextmanager
async def lifespan(_app):
    """The server's lifespan (``st.App(lifespan=...)``): the purge thread while it runs, if configured."""
    days = purge_days()
    purger = None
    if days:
        try:
            purger = Purger(lifetime.store(), days).start()
        except StoreError as err:  # the pages will say what is wrong with the store; the server still starts
            _log.warning("nochmal: no purge of idle games, the game store cannot be opened: %s", err)
    try:
        yield None
    finally:
        if purger is not None:
            purger.stop()


def games_quota() -> Quota | None:
    """The server's one count of games created per client (None: no limit configured)."""
    limit = games_per_hour()
    if not limit:
        return None
    return lifetime.for_the_process(("games per hour", limit), lambda: Quota(limit, 3600.0))


def devices_connected() -> int | None:
    """Browser sessions connected to this server now (None: Streamlit's runtime does not say)."""
    try:
        from streamlit.runtime import get_instance

        return int(get_instance()._session_mgr.num_active_sessions())  # noqa: SLF001 - no public count
    except Exception:  # noqa: BLE001 - a metric that cannot be read is left out, never a failed probe
        return None


def metrics_text(stored: int, active: int, devices: int | None) -> str:
    """The metrics in Prometheus's text exposition format."""
    lines = ["# HELP nochmal_games_stored Games in the store.", "# TYPE nochmal_games_stored gauge",
             f"nochmal_games_stored {int(stored)}",
             "# HELP nochmal_games_open Games with a move or change in the last hour.",
             "# TYPE nochmal_games_open gauge", f"nochmal_games_open {int(active)}"]
    if devices is not None:
        lines += ["# HELP nochmal_devices_connected Browser sessions connected to this server now.",
                  "# TYPE nochmal_devices_connected gauge", f"nochmal_devices_connected {int(devices)}"]
    return "\n".join(lines) + "\n"


def _read_metrics() -> tuple[int, str]:
    try:
        store = lifetime.store()
        stored = store.count_games()
        active = store.count_games(dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=ACTIVE_S))
    except StoreError:
        return 503, "# the game store cannot be read\n"
    return 200, metrics_text(stored, active, devices_connected())


async def metrics(_request: Request) -> PlainTextResponse:
    status, text = await run_in_threadpool(_read_metrics)
    return PlainTextResponse(text, status_code=status, media_type="text/plain; version=0.0.4",
                             headers={"Cache-Control": "no-store"})


def routes() -> list:
    """The routes ``serve_app.py`` adds for housekeeping."""
    return [Route(prefixed(METRICS_ROUTE), metrics, methods=["GET"])]
