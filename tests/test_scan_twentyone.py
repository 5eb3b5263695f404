"""Reading a photo of a printed twenty one sheet (issue 44 item 3) with the Noch mal! scanner's pieces.
Only SYNTHETIC photos are tried here (:mod:`nochmal.data.scan.twentyone_synth`: a sheet drawn as
this project supposes it is printed, photographed with the Noch mal! renderer's camera, light,
shadow, colour cast, noise, blur and JPEG); no photo of a real printed twenty one sheet exists here.
An image that is no sheet is refused with a message that says what to try."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from nochmal.data.scan.reader import ScanError
from nochmal.data.scan.synth import Distortions
from nochmal.data.scan.twentyone import scan_twentyone, scan_twentyone_bytes
from nochmal.data.scan.twentyone_synth import render_twentyone, twentyone_photo
from nochmal.data.twentyoneuser import typed_problems
from nochmal.engine.twentyone import get_sheet, sheet_from_rows

VALUES = [[6, 5, 4, 3, 2, 1], [6, 6, 5, 3, 3, 1], [5, 5, 4, 4, 2, 2], [6, 4, 4, 3, 1, 1], [3, 3, 3, 2, 2, 1]]


def sheet_of(seed: int):
    base = get_sheet("ABCDEF"[seed % 6])
    return sheet_from_rows(list(base.spec.colours), VALUES, id="photo") if seed % 2 else base


def wrong(result, sheet) -> tuple[int, int]:
    colours = sum(a != b for r in range(5) for a, b in zip(result.colours[r], sheet.spec.colours[r]))
    values = sum(a != b for r in range(5) for a, b in zip(result.values[r], sheet.value_at[r]))
    return colours, values


def test_a_flat_render_is_read_exactly():
    sheet = sheet_of(1)
    flat, corners = render_twentyone(sheet, np.random.default_rng(0))
    canvas = np.full((flat.shape[0] + 200, flat.shape[1] + 200, 3), 90, np.uint8)  # on a grey table
    canvas[100:100 + flat.shape[0], 100:100 + flat.shape[1]] = flat
    result = scan_twentyone(canvas)
    assert wrong(result, sheet) == (0, 0) and result.problems == ()
    assert np.allclose(np.array(result.corners), corners + 100, atol=3)


@pytest.mark.parametrize("seed", range(8))
def test_distorted_synthetic_photos_are_read_field_for_field(seed):
    """Tilted +-20 degrees, turned +-15, uneven light, a hand's shadow, a colour cast, noise, blur, JPEG."""
    sheet = sheet_of(seed)
    image, corners = twentyone_photo(sheet, np.random.default_rng(seed))
    result = scan_twentyone(image)
    assert wrong(result, sheet) == (0, 0), (result.colours, result.values, result.problems)
    # what was read goes into the typing form as it is: nothing there to correct
    assert typed_problems([list(r) for r in result.colours], [list(v) for v in result.values]) == []
    assert np.abs(np.array(result.corners) - corners).max() < 0.1 * np.linalg.norm(corners[1] - corners[0]) / 6


def test_a_photo_file_is_read_from_its_bytes():
    sheet = sheet_of(3)
    image, _corners = twentyone_photo(sheet, np.random.default_rng(3))
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert wrong(scan_twentyone_bytes(jpeg.tobytes()), sheet) == (0, 0)


def test_a_misprinted_value_is_read_as_printed_and_named():
    """A sheet whose values rise (not a real sheet) is read as it is and the row is named: the
    reader proposes, the owner decides."""
    spec = get_sheet("A").spec.model_dump()
    spec["values"] = [list(v) for v in spec["values"]]
    spec["values"][2] = [4, 5, 4, 3, 2, 1]
    from nochmal.engine.twentyone.sheets import SheetSpec, TwentyOneSheet

    class Unchecked(TwentyOneSheet):  # drawn only: the renderer reads colour_at and value_at
        def __post_init__(self):
            object.__setattr__(self, "colour_at", get_sheet("A").colour_at)
            object.__setattr__(self, "value_at", tuple(tuple(v) for v in spec["values"]))

    drawn = Unchecked(SheetSpec.model_construct(**spec))
    image, _corners = twentyone_photo(drawn, np.random.default_rng(11), distort=Distortions.none())
    result = scan_twentyone(image)
    assert result.values[2] == (4, 5, 4, 3, 2, 1)
    assert any(p.startswith("Row 3: the values read rise from left to right (4 5 4 3 2 1)") for p in result.problems)


@pytest.mark.parametrize("image, reason, words", [
    (np.full((900, 1200, 3), 235, np.uint8), "no-grid", "No grid of 5 rows of 6 coloured fields"),
    (np.random.default_rng(1).integers(0, 255, (900, 1200, 3), dtype=np.uint8), "no-grid", "No grid"),
    (np.full((900, 1200, 3), 8, np.uint8), "too-dark", "too dark"),
    (np.full((200, 300, 3), 235, np.uint8), "too-small", "only 300 x 200 pixels"),
    (np.zeros((0, 0, 3), np.uint8), "not-an-image", "not an image"),
    ("a photo", "not-an-image", "not an image"),
])
def test_an_unreadable_image_gives_a_clear_error(image, reason, words):
    with pytest.raises(ScanError) as err:
        scan_twentyone(image)
    assert err.value.reason == reason and words in str(err.value), str(err.value)
    assert err.value.advice  # and what to try


def test_a_noch_mal_sheet_is_no_twenty_one_sheet():
    from nochmal.data.scan.synth import synthetic_photo

    photo = synthetic_photo("standard", np.random.default_rng(2), distort=Distortions.none())
    with pytest.raises(ScanError, match="No grid of 5 rows of 6"):
        scan_twentyone(photo.image)


def test_bytes_that_are_no_photo_are_refused():
    with pytest.raises(ScanError, match="not a photo that can be read"):
        scan_twentyone_bytes(b"not a jpeg at all")
    with pytest.raises(ScanError, match="empty"):
        scan_twentyone_bytes(b"")
