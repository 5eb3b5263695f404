"""The package as a new user gets it (issue 45, item 1): the sdist and the wheel built, the wheel
installed in a clean venv, then from an empty folder a game played and the app served and shown in
a real browser. About 1-2 minutes; ``make test`` runs it beside the other browser tests.

What is real and what is not:

* ``python -m build`` builds the sdist, then the wheel *from the sdist* in an isolated build
  environment (setuptools, wheel and babel from the configured package index): a file the sdist
  forgot is missing from the wheel too.
* The venv is a plain ``python -m venv``: no ``--system-site-packages``, nothing of this checkout
  on its path. ``pip install <wheel>`` resolves and installs every dependency from the configured
  index (on this machine a local mirror, ~40 s; elsewhere PyPI), so the wheel's declared
  dependencies are tested too. pipx and uv are not used: ``pipx install`` does the same (a venv of
  its own, then pip), but is not a dependency of this project.
* The commands run with an empty working folder and a fresh HOME / XDG data and cache folders:
  the shipped files can only come from the installed package, and user data must land in the user
  data folder (the working folder stays empty).
* ``nochmal serve`` runs with ``--no-warm`` (compiling the bots' kernels would take a core for a
  minute; ``test_kernel_cache.py`` covers them). The page is checked in chromium: the Start page
  renders without an exception, and the packaged Streamlit config is in force (its theme's
  background, no Deploy button: ``client.toolbarMode = "viewer"``).
* The ``Dockerfile`` is not built here.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect
from serving import free_port, stop, wait_healthy

from nochmal.engine import resources

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
PACKAGED = "nochmal/" + "/".join(resources.PACKAGED)
STEP_TIMEOUT = 600  # a slow package index may take minutes for the dependencies


def run(cmd, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=STEP_TIMEOUT, **kw)
    assert done.returncode == 0, f"{cmd} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def installed():
    if importlib.util.find_spec("build") is None:
        pytest.fail("the 'build' package is missing (a test dependency: pip install -e '.[test]')")
    work = Path(tempfile.mkdtemp(prefix="nochmal-wheel-"))  # removed below: the venv is ~1 GB
    venv, empty = work / "venv", work / "empty"
    empty.mkdir()
    # nothing of this checkout or of the test's own environment (PYTHONPATH, an activated venv) reaches
    # the new venv: pip would take a nochmal.egg-info on the path for an installed nochmal
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "NOCHMAL_HOME", "NOCHMAL_DB",
                        "NOCHMAL_OWNER_CODE", "NUMBA_CACHE_DIR")}
    env.update(HOME=str(work / "home"), XDG_DATA_HOME=str(work / "data"), XDG_CACHE_HOME=str(work / "cache"),
               PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}", PYTHONUNBUFFERED="1")
    try:
        dist = work / "dist"
        run([sys.executable, "-m", "build", "--outdir", str(dist), str(REPO)], cwd=work)
        wheel, = dist.glob("nochmal-*.whl")
        sdist, = dist.glob("nochmal-*.tar.gz")
        run([sys.executable, "-m", "venv", str(venv)], cwd=empty, env=env)
        python = venv / "bin" / "python"
        pip_cache = os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")  # the user's, kept
        # --no-compile: no .pyc for every module of every dependency (time, and files to delete);
        # what runs is compiled when imported, as usual
        run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-compile", str(wheel)],
            cwd=empty, env={**env, "PIP_CACHE_DIR": pip_cache})
        yield SimpleNamespace(work=work, wheel=wheel, sdist=sdist, venv=venv, python=python,
                              nochmal=venv / "bin" / "nochmal", empty=empty, env=env,
                              user_data=work / "data" / "nochmal")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def in_venv(pkg, code: str) -> dict:
    return json.loads(run([str(pkg.python), "-c", code], cwd=pkg.empty, env=pkg.env).stdout)


def test_the_wheel_and_the_sdist_carry_the_shipped_files(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    with tarfile.open(installed.sdist) as tar:
        in_sdist = {m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile()}
    for rel in resources.SHIPPED_PATHS:
        top = (REPO / rel)
        files = [p.relative_to(REPO).as_posix() for p in ([top] if top.is_file() else top.rglob("*")) if p.is_file()
                 and "__pycache__" not in p.parts]
        assert files, rel
        for f in files:
            assert f"{PACKAGED}/{f}" in names, f"the wheel lacks {f}"
            assert f in in_sdist, f"the sdist lacks {f}"
    # the catalog compiled: the wheel runs the .mo; the sources stay in the sdist
    assert "nochmal/data/locale/de/LC_MESSAGES/nochmal.mo" in names
    assert not [n for n in names if n.endswith((".po", ".pot"))]
    assert "nochmal/data/locale/de/LC_MESSAGES/nochmal.po" in in_sdist


def test_the_installed_package_uses_its_own_files(installed):
    found = in_venv(installed, """if True:
        import json, sys
        import nochmal
        from nochmal.engine import resources
        from nochmal.data import i18n
        with i18n.using("de"):
            cross = i18n._("Cross")
        print(json.dumps({"package": nochmal.__file__, "root": str(resources.root()), "missing": resources.missing(),
                          "cross": cross, "mo": i18n.catalog_path("de", "mo").is_file(),
                          "po": i18n.catalog_path("de").is_file(), "path": sys.path}))""")
    site = installed.venv / "lib"
    assert Path(found["package"]).is_relative_to(site), found["package"]
    assert Path(found["root"]) == Path(found["package"]).parent.joinpath(*resources.PACKAGED)
    assert found["missing"] == []
    assert found["cross"] == "Ankreuzen" and found["mo"] and not found["po"]
    assert not [p for p in found["path"] if p and Path(p).resolve().is_relative_to(REPO)], found["path"]


def test_a_game_plays_and_saves_from_an_empty_folder(installed):
    out = run([str(installed.nochmal), "play", "--mode", "coop", "--players", "3", "--policy", "greedy",
               "--seed", "7", "--json", "--save"], cwd=installed.empty, env=installed.env).stdout
    outcome = json.loads(out.strip().splitlines()[-1])
    assert outcome["mode"] == "coop" and outcome["players"] == 3 and outcome["turns"] > 0
    assert outcome["tableau"]["id"] == "tableau-3"  # the shipped tableau, read from the package
    out = run([str(installed.nochmal), "play", "--mode", "base", "--players", "2", "--sheets", "standard,blue",
               "--policy", "greedy", "--seed", "3", "--json"], cwd=installed.empty, env=installed.env).stdout
    assert json.loads(out.strip().splitlines()[-1])["reason"]
    assert (installed.user_data / "games.sqlite3").is_file()  # the store: in the user data folder
    assert list(installed.empty.iterdir()) == []


def test_serve_from_an_empty_folder_shows_the_app(installed, page):
    port = free_port()
    log = installed.work / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([str(installed.nochmal), "serve", "--port", str(port), "--no-warm"],
                                cwd=installed.empty, env=installed.env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, log, what="nochmal serve")
        with urllib.request.urlopen(url, timeout=10) as r:  # serve_app.py's headers: the packaged entry runs
            assert r.headers["X-Frame-Options"] == "DENY", dict(r.headers)
        page.goto(url)
        expect(page.get_by_role("button", name="Create game")).to_be_visible()  # the Start page
        page.wait_for_function("() => document.querySelector('[data-testid=stApp]')"
                               "?.getAttribute('data-test-script-state') === 'notRunning'")
        expect(page.locator("[data-testid=stException]")).to_have_count(0)
        # the packaged .streamlit/config.toml is in force, though the working folder has none
        background = page.evaluate("() => getComputedStyle(document.querySelector('[data-testid=stApp]'))"
                                   ".backgroundColor")
        assert background == "rgb(255, 250, 245)", background  # theme.backgroundColor = "#fffaf5"
        expect(page.locator("[data-testid=stAppDeployButton]")).to_have_count(0)
    finally:
        stop(proc)
    assert "Owner code for settings" in log.read_text(errors="replace")
    assert list(installed.empty.iterdir()) == []
