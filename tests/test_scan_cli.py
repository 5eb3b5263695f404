"""``nochmal boards scan PHOTO [--json] [--out FILE]`` as a real subprocess (issue 20): a photo
of a printed sheet is read; ``--out`` writes a sheet file the app can use; a bad photo or a bad
argument is one clear error line naming it, and nothing is written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib

import cv2
import numpy as np
import pytest

from nochmal.data.scan.synth import synthetic_photo
from nochmal.engine.sheet import get_sheet, spec_from_data


@pytest.fixture
def cli(tmp_path):
    env = {**os.environ, "NOCHMAL_HOME": str(tmp_path / "home")}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "nochmal.cli", "boards", "scan", *args], capture_output=True,
                              text=True, cwd=tmp_path, env=env, timeout=120)

    return run


@pytest.fixture(scope="module")
def coop_photo(tmp_path_factory):
    photo = synthetic_photo("coop-V", np.random.default_rng(2020))
    path = tmp_path_factory.mktemp("photos") / "sheet V.jpg"
    assert cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 70])
    return path, photo.truth


def test_json_is_one_line_with_the_sheet_read(cli, coop_photo):
    path, truth = coop_photo
    res = cli(str(path), "--json")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert data["grid"] == list(truth.grid)
    assert {(f["cell"], f["number"]) for f in data["number_fields"]} == set(truth.number_fields)
    assert len(data["confidence"]) == 7 and all(len(row) == 15 for row in data["confidence"])
    assert data["row_labels"] == list("PQRSTUV") and data["first_points"] == [5, 3, 3, 3, 2, 2, 2, 1, 2, 2, 2, 3, 3, 3, 5]
    assert data["read_in_photo"] == {"row_labels": True, "column_points": True}


def test_out_writes_a_user_sheet_file_that_loads_as_the_printed_sheet(cli, coop_photo, tmp_path):
    path, truth = coop_photo
    out = tmp_path / "my-coop-V.toml"
    res = cli(str(path), "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert "number fields: " in res.stdout and f"wrote {out}" in res.stdout
    spec, _ = spec_from_data(tomllib.loads(out.read_text("utf-8")), path=out, strict_invariants=False)
    printed = get_sheet("coop-V").spec
    assert spec.id == "my-coop-V" and spec.provenance == "user" and "scanned" in spec.source
    assert spec.grid == printed.grid
    assert [(f.number, f.cell) for f in spec.coop.number_fields] == \
        [(f.number, f.cell) for f in printed.coop.number_fields]


@pytest.mark.parametrize("make, args, words", [
    (lambda d: d / "none.jpg", (), "PHOTO"),
    (lambda d: (d / "noise.png").write_bytes(b"\x89PNG not really") and d / "noise.png", (), "not a photo"),
    (lambda d: (d / "notes.txt").write_text("hello") and d / "notes.txt", (), "use a .jpg"),
    (lambda d: d / "white.png", (), "no sheet"),
    (lambda d: d / "white.png", ("--out", "folder/missing/x.toml"), "does not exist"),
    (lambda d: d / "white.png", ("--out", "bad id!.toml"), "the file's name is the sheet's id"),
])
def test_a_bad_photo_or_argument_is_one_clear_error_line_and_nothing_is_written(cli, tmp_path, coop_photo, make,
                                                                                 args, words):
    cv2.imwrite(str(tmp_path / "white.png"), np.full((900, 1200, 3), 250, np.uint8))
    target = make(tmp_path)
    if args and "bad id" in args[1]:
        target = coop_photo[0]
    before = sorted(p.name for p in tmp_path.iterdir())
    res = cli(str(target), *args)
    assert res.returncode != 0 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr and words in res.stderr, res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before
