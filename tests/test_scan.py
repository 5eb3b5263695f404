"""Reading a photo of a printed sheet (issue 20): synthetic photos of every shipped sheet,
distorted, are read cell for cell; bad photos are refused with a message saying what to try.

The full accuracy run (200 photos) is ``python tools/scan_accuracy.py``; these tests use a
few seeded photos per sheet so that they stay fast."""

from __future__ import annotations

import json
import struct
import zlib

import cv2
import numpy as np
import pytest

from nochmal.data.scan.reader import ScanError, ScanResult, scan
from nochmal.data.scan.synth import Distortions, synthetic_photo
from nochmal.engine.sheet import BOARDS_DIR, get_sheet

SHIPPED = sorted(p.stem for p in BOARDS_DIR.glob("*.toml"))
SEEDS_PER_SHEET = 2


def assert_read_right(result: ScanResult, truth) -> None:
    want, got = "".join(truth.grid), "".join(result.grid)
    wrong = [(i, w, g) for i, (w, g) in enumerate(zip(want, got)) if w != g]
    assert not wrong, f"{truth.sheet_id}: cells read wrong (index, truth, read): {wrong} {truth.settings}"
    true_fields = dict(truth.number_fields)
    read_fields = {f.cell: f.number for f in result.number_fields}
    assert read_fields.keys() == true_fields.keys(), (truth.sheet_id, read_fields, true_fields)
    for cell, number in read_fields.items():  # a digit is read right or not at all, never wrong
        assert number in (None, true_fields[cell]), (truth.sheet_id, cell, number, true_fields[cell])


def test_there_are_13_shipped_sheets():
    assert len(SHIPPED) == 13 and "standard" in SHIPPED and "coop-VI" in SHIPPED


@pytest.mark.parametrize("sheet_id", SHIPPED)
def test_every_shipped_sheet_is_read_from_distorted_photos(sheet_id):
    for seed in range(SEEDS_PER_SHEET):
        photo = synthetic_photo(sheet_id, np.random.default_rng([20, SHIPPED.index(sheet_id), seed]))
        result = scan(photo.image)
        assert_read_right(result, photo.truth)
        assert all(0 <= v <= 1 for row in result.confidence for v in row)
        assert result.fit_error < 0.08


@pytest.mark.parametrize("sheet_id", ["standard", "coop-I", "coop-IV"])
def test_a_clean_photo_is_read_entirely_with_every_digit(sheet_id):
    photo = synthetic_photo(sheet_id, np.random.default_rng(1), distort=Distortions.none())
    result = scan(photo.image)
    assert result.grid == get_sheet(sheet_id).spec.grid
    assert tuple((f.cell, f.number) for f in sorted(result.number_fields, key=lambda f: f.number)) == \
        photo.truth.number_fields
    # at most a cell or two whose printed colour lies near another's is named as unsure
    assert all(p.endswith(("orange or yellow", "yellow or orange")) for p in result.problems), result.problems
    assert len(result.problems) <= 3


def test_the_json_is_one_line_in_the_issue_shape():
    photo = synthetic_photo("coop-II", np.random.default_rng(3))
    data = scan(photo.image).to_json()
    line = json.dumps(data)
    assert "\n" not in line
    assert len(data["grid"]) == 7 and all(len(r) == 15 and set(r) <= set("ygbroYGBRO") for r in data["grid"])
    assert len(data["confidence"]) == 7 and all(len(r) == 15 for r in data["confidence"])
    assert {f["cell"] for f in data["number_fields"]} == {c for c, _ in photo.truth.number_fields}
    assert isinstance(data["problems"], list)


@pytest.mark.parametrize("turn", [cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE])
def test_a_photo_taken_upside_down_or_sideways_is_turned(turn):
    photo = synthetic_photo("coop-III", np.random.default_rng(4))
    assert_read_right(scan(cv2.rotate(photo.image, turn)), photo.truth)


@pytest.fixture(scope="module")
def photo():
    return synthetic_photo("standard", np.random.default_rng(5))


def _screenshot() -> np.ndarray:
    """A screenshot of something else: coloured panels and lines of text."""
    rng = np.random.default_rng(6)
    shot = np.full((900, 1400, 3), 245, np.uint8)
    for _ in range(12):
        x, y = (int(v) for v in rng.integers(0, (1300, 800)))
        w, h = (int(v) for v in rng.integers((50, 30), (400, 200)))
        cv2.rectangle(shot, (x, y), (x + w, y + h), tuple(int(v) for v in rng.integers(0, 255, 3)), -1)
    for _ in range(30):
        cv2.putText(shot, "Lorem ipsum dolor sit amet", (int(rng.integers(0, 1200)), int(rng.integers(20, 880))),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.7, (20, 20, 20), 1)
    return shot


@pytest.mark.parametrize("name, make, reason, advice", [
    ("random noise", lambda p: np.random.default_rng(0).integers(0, 256, (1200, 1600, 3), dtype=np.uint8),
     "no-grid", "Photograph the printed sheet from above"),
    ("a black image", lambda p: np.zeros((1200, 1600, 3), np.uint8), "too-dark", "more light"),
    ("a very dark photo", lambda p: (p * 0.12).astype(np.uint8), "too-dark", "more light"),
    ("a white page", lambda p: np.full((1200, 1600, 3), 250, np.uint8), "blank", "Photograph"),
    ("the left half of a sheet", lambda p: p[:, :800].copy(), "cut-off", "Step back"),
    ("the top half of a sheet", lambda p: p[:600].copy(), "cut-off", "Step back"),
    ("a screenshot of something else", lambda p: _screenshot(), "no-grid", "Photograph the printed sheet"),
    ("a black-and-white photo", lambda p: cv2.cvtColor(p, cv2.COLOR_BGR2GRAY), "no-colour", "colour photo"),
    ("a thumbnail", lambda p: p[:100, :150].copy(), "too-small", "full size"),
    ("not an image", lambda p: "photo.jpg", "not-an-image", "JPEG or PNG"),
])
def test_a_bad_photo_is_refused_with_what_to_try(photo, name, make, reason, advice):
    with pytest.raises(ScanError) as info:
        scan(make(photo.image))
    assert info.value.reason == reason, (name, str(info.value))
    assert advice in str(info.value), (name, str(info.value))


def test_the_synthetic_photo_is_a_pure_function_of_its_seed():
    a = synthetic_photo("red", np.random.default_rng(7))
    b = synthetic_photo("red", np.random.default_rng(7))
    c = synthetic_photo("red", np.random.default_rng(8))
    assert np.array_equal(a.image, b.image) and a.truth.settings == b.truth.settings
    assert not np.array_equal(a.image, c.image)
    assert a.truth.grid == get_sheet("red").spec.grid and a.truth.number_fields == ()
    assert a.image.shape == (1200, 1600, 3) and a.image.dtype == np.uint8
    plain = synthetic_photo("coop-I", np.random.default_rng(7), distort=Distortions.none())
    assert plain.truth.settings == {"tilt_x": 0.0, "tilt_y": 0.0, "rotation": 0.0}
    assert [n for _, n in plain.truth.number_fields] == [1, 2, 3, 4, 5, 6]


def test_a_photo_file_is_read_from_its_bytes(photo):
    from nochmal.data.scan.reader import scan_bytes

    ok, jpeg = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert ok
    assert_read_right(scan_bytes(jpeg.tobytes()), photo.truth)


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG file of a few bytes that claims ``width`` x ``height`` pixels."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("name, data, reason, words", [
    ("an empty file", b"", "not-an-image", "empty"),
    ("a text file", b"grid = ['yyy']\n" * 50, "not-an-image", "not a photo"),
    ("a PNG cut short", None, "not-an-image", "not a photo"),
    ("a file over the cap", b"\xff" * (15 * 1024 * 1024 + 1), "too-large", "at most 15 MB"),
    ("a small PNG whose header claims 10,000 x 10,000 pixels", "bomb", "too-large", "more than 64 megapixels"),
])
def test_a_bad_photo_file_is_refused_with_what_to_try(photo, name, data, reason, words):
    from nochmal.data.scan.reader import scan_bytes

    if data is None:
        data = cv2.imencode(".png", photo.image)[1].tobytes()[:2000]
    elif data == "bomb":
        data = _png_header_only(10_000, 10_000)
    with pytest.raises(ScanError) as info:
        scan_bytes(data)
    assert info.value.reason == reason and words in str(info.value), (name, str(info.value))


def test_a_refusal_speaks_german_when_the_page_does(photo):
    from nochmal.data.i18n import using

    with using("de"), pytest.raises(ScanError) as info:
        scan(photo.image[:600].copy())
    assert info.value.reason == "cut-off"
    assert "Foto" in str(info.value) and "photo" not in str(info.value), str(info.value)


# --------------------------------------------------------------------------- row labels and column points
def test_row_labels_and_column_points_are_read_from_the_print_not_assumed():
    """Sheets printed with other row labels (letters or digits) and other column points than the
    usual ones: the reader reports what is printed. A label or point it cannot read is filled in
    with the usual one and named in the problems; it never reports a wrong one."""
    from nochmal.data.scan.synth import varied_edges

    rng = np.random.default_rng(21)
    fully_read = 0
    for sheet_id in ("coop-II", "standard", "coop-VI", "blue", "coop-IV", "green"):
        sheet = varied_edges(get_sheet(sheet_id), rng)
        photo = synthetic_photo(sheet, rng)
        result = scan(photo.image)
        truth = photo.truth
        assert (truth.first_points, truth.later_points) != (get_sheet(sheet_id).first_points,
                                                            get_sheet(sheet_id).later_points)
        assert result.grid == truth.grid
        assert result.labels_read == (result.row_labels == truth.row_labels)
        assert result.points_read == ((result.first_points, result.later_points) ==
                                      (truth.first_points, truth.later_points))
        if not result.labels_read:
            assert any(p.startswith("row labels:") for p in result.problems), result.problems
        if not result.points_read:
            assert any(p.startswith("column points") for p in result.problems), result.problems
        fully_read += result.labels_read and result.points_read
    assert fully_read >= 5


def test_labels_or_points_not_read_are_the_usual_ones_and_named():
    from nochmal.data.scan.reader import _labels_of, _points_of
    from nochmal.engine.sheet import COOP_ROW_LABELS, STANDARD_FIRST

    assert _labels_of((None,) * 7, COOP_ROW_LABELS) == (COOP_ROW_LABELS, False, [])  # none printed: no problem
    labels, read, problems = _labels_of(("A", "B", None, "D", "E", "F", "G"), COOP_ROW_LABELS)
    assert labels == ("A", "B", "R", "D", "E", "F", "G") and not read
    assert problems == ["row labels: those of rows 3 (from the top) could not be read; taken as R: check them"]
    points, read, problems = _points_of((4,) * 13 + (None, None), STANDARD_FIRST, "first")
    assert points == (4,) * 13 + (3, 5) and not read
    assert "columns N, O" in problems[0] and "3 5" in problems[0]
    assert _points_of(tuple(range(15)), STANDARD_FIRST, "first") == (tuple(range(15)), True, [])


def test_the_sheet_data_of_a_scan_keeps_the_points_and_labels_read(tmp_path):
    from nochmal.data import userdata
    from nochmal.data.scan.synth import varied_edges
    from nochmal.engine.sheet import spec_from_data

    rng = np.random.default_rng(4)
    sheet = varied_edges(get_sheet("coop-III"), rng)
    result = scan(synthetic_photo(sheet, rng, distort=Distortions.none()).image)
    assert result.labels_read and result.points_read
    data = result.sheet_data("pad-iii")
    assert data["first_points"] == list(sheet.first_points) and data["later_points"] == list(sheet.later_points)
    assert data["row_labels"] == list(sheet.spec.row_labels)
    userdata.write_sheet_file(tmp_path / "pad-iii.toml", data)
    spec, _ = spec_from_data(data, path=tmp_path / "pad-iii.toml", strict_invariants=False)
    assert spec.first_points == sheet.first_points and spec.row_labels == sheet.spec.row_labels
    # the usual points are not written into the file
    usual = scan(synthetic_photo("coop-III", rng, distort=Distortions.none()).image).sheet_data("pad-usual")
    assert "first_points" not in usual and "later_points" not in usual
