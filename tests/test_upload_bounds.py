"""Uploads are bounded by cost (issue 46, build items 2 and 4): results files are checked for
rows, columns and data before they are read; sweeps from another device need the owner code;
photos up to the promised 15 MB get through the server, are decoded once to at most
4096 x 4096 pixels, and at most two are read at a time.

Real files (Parquet and CSV written by pandas, JPEGs of rendered sheets), real pages (AppTest);
memory is measured in a child process (pyarrow's and OpenCV's allocations are not Python's)."""

from __future__ import annotations

import ast
import io
import re
import struct
import subprocess
import sys
import textwrap
import tomllib
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from apptools import no_exception, texts
from nochmal.analytics import figures as F
from nochmal.cli.serve import OWNER_CODE_ENV, OWNER_LOCAL_ENV
from nochmal.data.scan import ScanError, decode_photo
from nochmal.data.scan.limits import MAX_PHOTO_MB
from nochmal.data.scan import reader
from nochmal.store import access
from nochmal.ui import owner
from nochmal.ui.panels import scan as scan_panel

ROOT = Path(__file__).resolve().parent.parent
DASHBOARD = str(ROOT / "nochmal" / "ui" / "pages" / "dashboard.py")
CODE = access.new_token()


def results(n: int, crossed: str = "A1,B2") -> pd.DataFrame:
    return pd.DataFrame({"mission": [1] * n, "players": [3] * n, "policy": ["greedy"] * n, "won": [True] * n,
                         "reason": ["won"] * n, "turns": [27] * n, "crossed": [crossed] * n})


def parquet(df: pd.DataFrame, **kw) -> bytes:
    buf = io.BytesIO()
    df.to_parquet(buf, index=False, compression="zstd", **kw)
    return buf.getvalue()


def child_peak(code: str) -> str:
    """What a child process printed and how much its peak resident memory grew (MB) while it ran
    ``code`` (after its imports)."""
    script = textwrap.dedent("""
        import resource, sys
        import numpy, pandas, pyarrow.parquet, cv2
        from nochmal.analytics import figures as F
        from nochmal.data.scan import decode_photo
        from nochmal.ui.panels import scan as panel
        data = sys.stdin.buffer.read()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    """) + textwrap.dedent(code) + textwrap.dedent("""
        print("GROWTH_MB", (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
    """)
    return script


def run_child(script: str, data: bytes) -> tuple[str, int]:
    done = subprocess.run([sys.executable, "-c", script], input=data, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    out = done.stdout.decode()
    return out, int(out.rsplit("GROWTH_MB", 1)[1])


# --------------------------------------------------------------------------- results files
def test_a_million_row_parquet_is_refused_from_its_footer():
    data = parquet(results(1_000_000))
    assert len(data) < 200_000  # a small file: the rows are all alike
    with pytest.raises(ValueError, match=r"holds 1,000,000 rows; a results file may hold at most 100,000 games"):
        F.read_results_bytes(data, "million.parquet")


def test_a_parquet_that_unpacks_to_gigabytes_is_refused_in_bounded_memory():
    # 100,000 rows of one 2,000-character text, dictionary-encoded: a few KB on disk, 200 MB read
    data = parquet(results(100_000, crossed="x" * 2000))
    assert len(data) < 100_000
    out, growth = run_child(child_peak("""
        try:
            F.read_results_bytes(data, "bomb.parquet"); print("READ")
        except ValueError as err:
            print("REFUSED", err)
    """), data)
    assert "REFUSED bomb.parquet: cannot read results: the file holds more than 160 MB of data once read" in out, out
    assert growth < 100, f"{growth} MB"


@pytest.mark.parametrize("make, words", [
    (lambda: ("mission,players,policy,won,reason,turns\n" + "1,3,greedy,True,won,27\n" * 100_001).encode(),
     "holds 100,001 rows; a results file may hold at most 100,000 games"),
    (lambda: (",".join(f"c{i}" for i in range(65)) + "\n1\n").encode(),
     "has 65 columns; a results file may have at most 64"),
    (lambda: b"x" * (F.MAX_RESULTS_BYTES + 1), "an uploaded results file may have at most 10 MB"),
])
def test_csv_rows_columns_and_size_are_counted_before_reading(make, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        F.read_results_bytes(make(), "big.csv")


def test_real_results_still_open():
    shipped = ROOT / "docs" / "calibration-sweep.parquet"
    df = F.read_results_bytes(shipped.read_bytes(), shipped.name)
    assert len(df) == 42_000
    csv = results(500).to_csv(index=False).encode()
    assert len(F.read_results_bytes(csv, "r.csv")) == 500


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NOCHMAL_DB", str(tmp_path / "games.sqlite3"))
    fresh = access.Throttle()
    monkeypatch.setattr(owner, "_throttle", lambda: fresh)
    return tmp_path


def test_the_analytics_page_says_the_row_limit(home):
    at = AppTest.from_file(DASHBOARD, default_timeout=60).run()
    at.radio(key="dash_from").set_value("file").run()
    at.file_uploader(key="dash_upload").set_value(("million.parquet", parquet(results(1_000_000)),
                                                   "application/octet-stream")).run()
    no_exception(at)
    errors = texts(at, "error")
    assert any("million.parquet" in e and "a results file may hold at most 100,000 games" in e for e in errors), errors
    assert not at.session_state["dash_rows"]


def test_a_sweep_from_another_device_needs_the_owner_code(home, monkeypatch):
    monkeypatch.setenv(OWNER_LOCAL_ENV, "code")  # this browser counts as another device
    monkeypatch.setenv(OWNER_CODE_ENV, CODE)
    at = AppTest.from_file(DASHBOARD, default_timeout=60).run()
    at.multiselect(key="dash_missions").set_value([1])
    at.multiselect(key="dash_players").set_value([2])
    at.multiselect(key="dash_policies").set_value(["random"])
    at.number_input(key="dash_games").set_value(2).run()
    run = at.button(key="dash_run")
    assert run.disabled
    run.proto.disabled = False  # a hand-made websocket message presses it anyway
    run.click().run()
    no_exception(at)
    assert not at.session_state["dash_rows"] and not at.session_state["dash_pending"]  # nothing ran
    assert any("needs the app owner's code for running sweeps" in m.value for m in at.markdown)
    at.text_input(key=owner.ENTRY_KEY).set_value(CODE)
    at.button(key="owner_unlock").click().run()
    assert not at.button(key="dash_run").disabled


# --------------------------------------------------------------------------- upload caps
def test_the_server_takes_the_promised_photo_and_every_other_uploader_has_its_own_cap():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] == MAX_PHOTO_MB == 15
    caps = {}
    for path in (ROOT / "nochmal" / "ui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "file_uploader":
                kw = {k.arg: k.value for k in node.keywords}
                assert "max_upload_size" in kw, f"{path.name}:{node.lineno} has no max_upload_size"
                caps[f"{path.name}:{node.lineno}"] = ast.unparse(kw["max_upload_size"])
    assert len(caps) == 7, caps  # the photo uploaders: a Noch mal! sheet, a twenty one sheet
    assert sorted(caps.values()) == ["1", "1", "1", "1", "F.MAX_RESULTS_MB", "MAX_PHOTO_MB", "MAX_PHOTO_MB"], caps


# --------------------------------------------------------------------------- photos
def big_jpeg(width: int, height: int) -> bytes:
    import cv2

    from nochmal.data.scan.synth import synthetic_photo

    photo = synthetic_photo("coop-II", np.random.default_rng([46, 1]), size=(1600, 1200)).image
    ok, buf = cv2.imencode(".jpg", cv2.resize(photo, (width, height), interpolation=cv2.INTER_LINEAR),
                           [cv2.IMWRITE_JPEG_QUALITY, 60])
    assert ok
    return buf.tobytes()


def test_a_64_megapixel_jpeg_is_decoded_at_a_quarter_and_read_in_bounded_memory():
    data = big_jpeg(8000, 8000)
    assert len(data) < MAX_PHOTO_MB * 2**20
    image = decode_photo(data)
    assert image.shape == (4000, 4000, 3)
    out, growth = run_child(child_peak("""
        entry = panel.read_photo(data)
        print("READ" if entry["ok"] else "REFUSED " + entry["what"])
    """), data)
    assert "READ" in out, out
    assert growth < 250, f"{growth} MB (decoded whole: ~370 MB)"


def png_header_only(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def test_a_large_png_is_refused_by_its_header():
    with pytest.raises(ScanError) as exc:
        decode_photo(png_header_only(5000, 5000))
    assert exc.value.what.startswith("The photo has 25") and "a PNG or WebP photo is read up to 16 megapixels" \
        in exc.value.what


def test_decode_flags_keep_phone_photos_whole_and_bring_larger_ones_under_the_cap():
    assert reader.decode_flag(4032, 3024)[0] == 1  # a 12-megapixel phone photo
    assert reader.decode_flag(8064, 6048)[0] == 2  # 48 megapixels
    assert reader.decode_flag(8000, 8000)[0] == 2
    assert reader.decode_flag(20000, 3200)[0] == 2
    for w, h in ((9000, 7000), (16000, 4000), (8001, 8001)):
        r = reader.decode_flag(w, h)[0]
        assert (w // r) * (h // r) <= reader.DECODE_PIXELS


def test_a_third_photo_at_once_is_told_to_wait_and_is_not_kept(monkeypatch):
    monkeypatch.setattr(scan_panel, "SCAN_WAIT_S", 0.1)
    held = [scan_panel._SCANS.acquire(timeout=5) for _ in range(scan_panel.MAX_SCANS_AT_ONCE)]
    try:
        assert all(held)
        entry = scan_panel.read_photo(big_jpeg(1600, 1200))
    finally:
        for _ in held:
            scan_panel._SCANS.release()
    assert entry["ok"] is False and entry["busy"] is True
    assert entry["what"] == "Other devices are having photos read right now"
    assert scan_panel.read_photo(big_jpeg(1600, 1200))["ok"]  # free again


def test_one_photo_at_a_time_per_device():
    """A device (its address) whose photo is being read gets "still being read" for the next one
    at once, however many tabs it opens, so it never holds both readers; another device is read."""
    with scan_panel._one_per_client("192.0.2.7") as free:  # a photo of this device is being read
        assert free
        entry = scan_panel.read_photo(big_jpeg(1600, 1200), client="192.0.2.7")
        assert entry["ok"] is False and entry["busy"] is True
        assert entry["what"] == "A photo from this device is still being read"
        assert scan_panel.read_photo(big_jpeg(1600, 1200), client="192.0.2.8")["ok"]  # another device
    assert scan_panel.read_photo(big_jpeg(1600, 1200), client="192.0.2.7")["ok"]  # its first one is done
