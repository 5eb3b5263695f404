"""The package carries everything (issue 45, item 1), checked without building it: every file the
code reads from the top level is one that :mod:`nochmal.engine.resources` names, ``MANIFEST.in``
(the sdist) names the same, and the build's copy holds them all. Building and installing the wheel
for real: ``tests/browser/test_browser_wheel.py``."""

from __future__ import annotations

import argparse
import runpy
import shlex
from pathlib import Path

from nochmal.cli import serve
from nochmal.data import schema
from nochmal.engine import coopdata, resources, sheet
from nochmal.engine.twentyone import sheets as twentyone_sheets
from nochmal.bots import solo_values

REPO = Path(__file__).resolve().parent.parent


def covered(rel: Path) -> bool:
    """Whether ``rel`` (relative to the shipped root) is one of SHIPPED_PATHS or lies inside one."""
    return any(rel == Path(p) or Path(p) in rel.parents for p in resources.SHIPPED_PATHS)


def test_in_a_clone_the_files_are_the_repositorys_top_level():
    assert resources.packaged_root() is None, "nochmal/data/shipped exists in the clone: it would hide the top level"
    assert resources.root() == REPO
    assert resources.missing() == []


def test_every_top_level_file_the_code_reads_is_a_shipped_path():
    read = {
        "sheets": sheet.BOARDS_DIR, "tableaus and missions": coopdata.MISSIONS_DIR,
        "twenty one sheets": twentyone_sheets.SHEETS_DIR, "solo tables": solo_values.VALUES_DIR,
        "schemas": schema.SCHEMAS_DIR, "app": serve.APP, "served app": serve.SERVED_APP,
        "streamlit config": serve.CONFIG,
    }
    for what, path in read.items():
        assert path.is_relative_to(resources.root()), (what, path)
        rel = path.relative_to(resources.root())
        assert covered(rel), f"{what}: {rel} is not in SHIPPED_PATHS"
        assert path.exists(), (what, path)


def test_the_shipped_sweep_the_dashboard_reads_is_a_shipped_path():
    # the dashboard page imports streamlit; the file it looks for is named here as it names it
    sweep = resources.root() / "docs" / "calibration-sweep.parquet"
    assert sweep.is_file() and covered(Path("docs/calibration-sweep.parquet"))
    text = (REPO / "nochmal" / "ui" / "pages" / "dashboard.py").read_text(encoding="utf-8")
    assert 'SHIPPED_ROOT / "docs" / f"calibration-sweep.{ext}"' in text


def test_the_sdist_manifest_names_the_same_paths():
    named = set()
    for line in (REPO / "MANIFEST.in").read_text(encoding="utf-8").splitlines():
        words = shlex.split(line, comments=True)
        if words and words[0] in ("include", "graft"):
            named.update(words[1:])
    assert named == set(resources.SHIPPED_PATHS)


def test_the_builds_copy_holds_every_shipped_path(tmp_path):
    copy_shipped = runpy.run_path(str(REPO / "setup.py"))["copy_shipped"]  # setup() runs as __main__ only
    target = tmp_path / "shipped"
    (target / "stale.toml").parent.mkdir(parents=True)
    (target / "stale.toml").write_text("left by an earlier build")
    copy_shipped(target)
    assert resources.missing(target) == []
    assert not (target / "stale.toml").exists()
    assert sorted(p.name for p in (target / "boards").glob("*.toml")) == sorted(
        p.name for p in sheet.BOARDS_DIR.glob("*.toml"))
    assert resources.missing(tmp_path / "empty") == list(resources.SHIPPED_PATHS)


def test_serve_names_the_missing_app_files_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(serve, "APP_ROOT", tmp_path)
    for name, rel in (("APP", "app.py"), ("SERVED_APP", "serve_app.py"), ("CONFIG", ".streamlit/config.toml")):
        monkeypatch.setattr(serve, name, tmp_path / rel)
    (tmp_path / "app.py").write_text("")
    args = argparse.Namespace(host="127.0.0.1", port=1, code_on_localhost=False, no_warm=True)
    assert serve._cmd_serve(args) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"(serve_app.py, config.toml in {tmp_path})" in err, err
