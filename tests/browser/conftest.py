"""Real-browser test harness: the app under ``streamlit run`` and Playwright driving Debian's
chromium (Playwright's own browser download is not used).

Fixtures:

* ``app_home`` — the tmp folder given to the app as NOCHMAL_HOME (user sheets/tableaus) and
  NOCHMAL_DB (games), so the tests never touch a real user's data;
* ``app_url`` — ``http://127.0.0.1:<free port>`` of ``streamlit run app.py`` (session-wide);
* ``browser`` — chromium (session-wide); a missing chromium fails under CI, else skips;
* ``page`` — a fresh 1280×900 page; ``phone_page`` — a fresh 390×844 page;
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
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
HEALTH_TIMEOUT = 60.0
WAIT_MS = 30_000  # the first use of a heavy component (plotly) can take seconds on a small machine
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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


def wait_healthy(url: str, proc: subprocess.Popen, log: Path, timeout: float = HEALTH_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"streamlit not healthy after {timeout:.0f} s:\n{log.read_text(errors='replace')}")


@pytest.fixture(scope="session")
def app_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("browser-home")


@pytest.fixture(scope="session")
def app_url(app_home):
    port = free_port()
    env = {**os.environ, "NOCHMAL_HOME": str(app_home / "home"), "NOCHMAL_DB": str(app_home / "games.sqlite"),
           "PYTHONUNBUFFERED": "1"}
    log = app_home / "streamlit.log"
    cmd = [sys.executable, "-m", "streamlit", "run", str(REPO / "app.py"),
           "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
           "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


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


@pytest.fixture
def page(browser):
    context, p = _new_page(browser, DESKTOP)
    yield p
    context.close()


@pytest.fixture
def phone_page(browser):
    context, p = _new_page(browser, PHONE)
    yield p
    context.close()


@pytest.fixture(name="screenshot")
def screenshot_fixture():
    """The :func:`screenshot` helper, as a fixture."""
    return screenshot
