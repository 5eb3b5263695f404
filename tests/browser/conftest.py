"""Real-browser test harness: the app under ``streamlit run`` and Playwright driving Debian's
chromium (Playwright's own browser download is not used).

Fixtures:

* ``app_home`` — the tmp folder given to the app as NOCHMAL_HOME (user sheets/tableaus) and
  NOCHMAL_DB (games), so the tests never touch a real user's data;
* ``app_url`` — ``http://127.0.0.1:<free port>`` of ``streamlit run serve_app.py`` (session-wide):
  ``app.py`` served as ``nochmal serve`` serves it, with the security headers;
* ``store`` — the server's game store, opened by the test;
* ``app_server`` — that server process (:class:`AppServer`): ``restart()`` stops it and starts
  a new one on the same port and the same NOCHMAL_DB/NOCHMAL_HOME; ``db`` is the store's path;
* ``browser`` — chromium (session-wide); a missing chromium fails under CI, else skips;
* ``page`` — a fresh 1280×900 page; ``phone_page`` — a fresh 390×844 page;
* ``new_page`` — ``new_page(viewport=DESKTOP)`` opens another page in its own browser context
  (a second device: its own cookies and Streamlit session); closed after the test;
* ``screenshot`` — ``screenshot(page, name)`` saves ``test-artifacts/screenshots/<name>.png``.

Every browser test is marked ``@pytest.mark.browser``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from serving import free_port, stop, wait_healthy

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 30_000  # the first use of a heavy component (plotly) can take seconds on a small machine
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def tap_until(tap, answered, attempts: int = 3) -> None:
    """``tap()``, then ``answered()`` (an ``expect``): a tap that lands while the page is still
    rerunning can be lost, so it is made again until the page answers, at most ``attempts`` times."""
    for attempt in range(attempts):
        tap()
        try:
            answered()
            return
        except AssertionError:
            if attempt == attempts - 1:
                raise


def settle(page, timeout_ms: int = WAIT_MS) -> None:
    """Wait until Streamlit has finished the current run and no visible element is still a
    loading skeleton (components load lazily). Best effort: a screenshot is taken anyway."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=stStatusWidget]') && "
            "![...document.querySelectorAll('[data-testid=stSkeleton]')].some(e => e.offsetParent !== null)",
            timeout=timeout_ms)
    except PlaywrightTimeoutError:  # a screenshot of a slow page is still worth having
        pass


def screenshot(page, name: str, *, full_page: bool = True) -> Path:
    """Save a PNG of ``page`` as ``test-artifacts/screenshots/<name>.png``; returns the path.

    Streamlit scrolls inside its ``stMain`` element, not the document, so for a full-page shot
    the viewport is stretched to the content's height for the moment of the screenshot."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    settle(page)
    viewport = page.viewport_size
    height = 0
    if full_page and viewport:
        height = page.evaluate(
            "() => Math.max(0, ...[...document.querySelectorAll("
            "'[data-testid=stMain], [data-testid=stSidebarContent]')].map(e => e.scrollHeight))")
    if viewport and height > viewport["height"]:
        page.set_viewport_size({"width": viewport["width"], "height": min(int(height) + 8, 12_000)})
        page.wait_for_timeout(300)  # let the layout settle at the new size
        settle(page)
        try:
            page.screenshot(path=str(path))
        finally:
            page.set_viewport_size(viewport)
    else:
        page.screenshot(path=str(path))
    return path


@pytest.fixture(scope="session")
def app_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("browser-home")


class AppServer:
    """``streamlit run serve_app.py`` (the app with its security headers, as ``nochmal serve`` runs
    it) on a fixed port with the tests' NOCHMAL_HOME / NOCHMAL_DB."""

    def __init__(self, home: Path, port: int | None = None) -> None:
        self.home = home
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db = home / "games.sqlite"
        self.log = home / "streamlit.log"
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        env = {**os.environ, "NOCHMAL_HOME": str(self.home / "home"), "NOCHMAL_DB": str(self.db),
               "PYTHONUNBUFFERED": "1"}
        cmd = [sys.executable, "-m", "streamlit", "run", str(REPO / "serve_app.py"),  # as nochmal serve runs it
               "--server.headless", "true", "--server.port", str(self.port), "--server.address", "127.0.0.1",
               "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
        self.starts += 1
        wait_healthy(self.url, self.proc, self.log)

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        stop(proc, timeout=10)

    def restart(self) -> None:
        """A new server process on the same port and data (nothing is kept in memory)."""
        self.stop()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the old process has let go of the port
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    pass
            except OSError:
                break
            time.sleep(0.1)
        self.start()


@pytest.fixture(scope="session")
def app_server(app_home):
    server = AppServer(app_home)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def app_url(app_server):
    return app_server.url


@pytest.fixture
def store(app_server):
    """The app server's game store, opened in the test (another process, as a CLI would)."""
    from nochmal.store.db import GameStore

    s = GameStore(app_server.db)
    yield s
    s.close()


@pytest.fixture(scope="session")
def browser():
    executable = shutil.which("chromium")
    if executable is None:
        message = "no chromium on PATH (Debian: apt-get install -y chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _new_page(browser, viewport):
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(WAIT_MS)
    return context, context.new_page()


#: Another try for a browser test that failed (pytest-rerunfailures), never more. On this 2-core
#: machine, with the other tests running beside them, about one in 300 browser tests failed a
#: fresh-clone run and then passed alone (waits for a page that follows its game, a tap's run
#: under load: the closing notes of issues 42 and 43 name them). A test that fails twice fails the
#: run; each retry is listed in the summary ("1 rerun"), and the first try's screenshots are kept
#: (FAILED-<test>-<n>.png). Retries hide nothing a player sees twice in a row; they do hide a
#: rare fault, which is why the summary line counts them.
BROWSER_RERUNS = 1


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("browser") is not None and item.get_closest_marker("flaky") is None:
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS, reruns_delay=1))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item (``item.rep_call``) for the page fixtures."""
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)


def _close(request, contexts) -> None:
    """Close the contexts; if the test failed, save a screenshot of each page first
    (``test-artifacts/screenshots/FAILED-<test>-<n>.png``)."""
    rep = getattr(request.node, "rep_call", None)
    n = 0
    for context in contexts:
        for p in context.pages:
            if rep is not None and rep.failed:
                try:
                    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                    p.screenshot(path=str(SCREENSHOTS / f"FAILED-{request.node.name}-{n}.png"), timeout=5_000)
                except Exception:  # noqa: BLE001 - a best-effort aid, never a second failure
                    pass
            n += 1
        context.close()


@pytest.fixture
def page(browser, request):
    context, p = _new_page(browser, DESKTOP)
    yield p
    _close(request, [context])


@pytest.fixture
def phone_page(browser, request):
    context, p = _new_page(browser, PHONE)
    yield p
    _close(request, [context])


@pytest.fixture
def new_page(browser, request):
    """``new_page(viewport=DESKTOP)``: a page in a browser context of its own (another device)."""
    contexts = []

    def make(viewport=DESKTOP):
        context, p = _new_page(browser, viewport)
        contexts.append(context)
        return p

    yield make
    _close(request, contexts)


@pytest.fixture(name="screenshot")
def screenshot_fixture():
    """The :func:`screenshot` helper, as a fixture."""
    return screenshot
