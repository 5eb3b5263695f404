"""Read a photo of a printed sheet: the 7x15 grid's colours, its stars and number fields.

:func:`scan` takes a photo (a BGR ``numpy`` array as OpenCV reads it; at least
:data:`MIN_LONG_SIDE` x :data:`MIN_SHORT_SIDE` pixels, what messaging apps send) and returns a
:class:`ScanResult`, or raises :class:`ScanError` with a message that says what went wrong and
what to try. How it reads (OpenCV for every image operation):

1. **Find the grid.** Candidate quadrilaterals come from two places: closed dark outlines (a
   frame printed around the grid, the sheet's edge; adaptive threshold and contours) and the
   largest blobs of saturated colour (the cells themselves); and, where these give no good fit,
   the cells of a sheet printed black as the real pads are (:func:`_cell_blobs`): each cell a
   bright saturated blob on dark ground (cut apart where blur has nearly closed the black gap
   between two cells: :func:`_valleys`), linked to its neighbours a cell's size away, each
   given its column and row by walking the links and a homography fitted to them (blobs cut off
   from the rest by crossed-out cells join where they lie on that lattice), so the colour bonus
   squares at the right (wider than a cell) and the white letter and point boxes (not saturated
   once the white is balanced) are not taken for cells. Each candidate only has to be roughly
   right: it is tried as below, and the one whose cells line up best wins.
2. **Lock onto the cell lattice.** The candidate's homography maps the photo to a
   fronto-parallel "canonical" grid (one unit per cell). A 1-D search per axis finds the scale
   and offset at which 15 x 7 coloured cells, separated by gaps and surrounded by paper, fit
   best; then the positions of the 14 + 6 interior gap lines are measured in every row and
   column strip and a homography is fitted to them (each measurement is one linear equation),
   three times. Its residual says how well the photo fits a 15 x 7 lattice. A fit is the grid
   if nearly every cell looks printed and the lines agree (:func:`_is_grid`), or if most cells
   look printed and the lines agree closely (:func:`_is_near_grid`: a glare spot or a sticker
   over some cells), in which case those cells are read as unsure rather than the photo refused.
   Whether the sheet is printed black is told from the strip around the locked grid
   (:func:`_dark_ground`); there a cell must be clearly brighter than the black near it, and
   the gaps are measured in the brightness relative to the brightest within a cell
   (:func:`_line_map`): a cell's lighter inner circle is paler than its rim, a blurred black gap
   not much, so saturation alone would not show the gaps.
3. **Light and colour.** A white reference from the paper around the grid (on a black print:
   the white letter and point boxes above and below it, or a grey-world estimate) removes a colour
   cast; chromaticity, hue and saturation do not change when a shadow or uneven light makes
   the paper darker, so the cells are compared by chromaticity (on a black print by hue where a
   colour is far from grey: glare moves a cell's colour towards grey, :func:`_hue_plane`).
4. **Read.** Each cell's colour is the median of four patches between its centre and its
   corners. The 105 colours are clustered into five (k-means, without the cells far paler than
   the rest, which are read as unsure) and the clusters matched to the five printed colours, so
   the reader adapts to a print's own inks. A star is a large share of the cell's centre that
   is not the cell's colour (a white or a dark star); on a black print, whose stars are white
   outlines, a star's outline that is whiter than the rest of the centre
   (:func:`_star_outline_score`: a pen cross is dark, a glare spot as white beside the outline as
   on it). A number field is a disc on a shared corner of four cells that is not the cells'
   colour; its digit is read by template matching where it can be (a digit another field shows
   surely is no rival: every number appears once), and left ``None`` where it cannot. Row labels,
   column points and digits are read only where the photo shows all around them.
5. **Which way up.** The grid is read both ways round; the start column's dark header box
   above the grid, the number fields' digits and the shipped sheets vote. A sheet lying
   sideways whose top cannot be told is refused; an upright one gets a problem noted.
6. **Check.** Every printed sheet keeps the sheet invariants (21 cells per colour, blocks of
   1..6, 3 stars per colour, one per column, ...). If the read grid breaks them and one smallest
   change of the least sure cells to their second colour, or of one to three cells' stars (the
   likeliest where several would do), mends it, that change is made and the cells named; where
   two changes mend it equally, their cells are named. Anything else that looks wrong is listed
   in :attr:`ScanResult.problems`, never silently passed on.

Everything runs on a copy scaled to at most :data:`WORK_SIZE` pixels (more for a small sheet
in a large photo), typically in 0.1-0.4 s.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import io
import os
import warnings

#: A photo is at most this many pixels: a file whose header claims more (a decompression bomb) is refused
#: before it is unpacked (by its header, and by OpenCV's decoder if this module sets its cap first).
MAX_PIXELS = 64_000_000
os.environ["OPENCV_IO_MAX_IMAGE_PIXELS"] = str(MAX_PIXELS)

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from nochmal.data.scan.limits import MAX_PHOTO_MB
from nochmal.engine.cells import COLOUR_LETTERS, COLOURS, COLUMNS as COLUMN_NAMES, N_COLS, N_ROWS, cell_name
from nochmal.engine.errors import NochmalError
from nochmal.engine.sheet import COOP_ROW_LABELS, DEFAULT_ROW_LABELS, STANDARD_FIRST, STANDARD_LATER
from nochmal.data.i18n import N_, _, number, pgettext

#: The smallest photo read (its long side and its short side, pixels): what messaging apps send at their
#: smallest (600 x 400, a 592 x 400 or 640 x 360 photo too). The cells of a sheet filling a smaller one are
#: under 20 pixels across, too few for a star's thin outline: over 26 seeded photos of the printed style,
#: at 600 x 400 all were read right, scaled down to 480 x 320 eight were read with cells wrong.
MIN_LONG_SIDE, MIN_SHORT_SIDE = 560, 360
WORK_SIZE = 1600  # the photo is scaled down to at most this many pixels on its long side
DETECT_SIZE = 1200  # candidate quadrilaterals are looked for at this size
ALIGN_PX = 32  # pixels per cell while aligning
READ_PX = 40  # pixels per cell while reading
MARGIN = 1.0  # cells of margin around the grid in the canonical images
DIGIT_PX = 120  # pixels per cell for reading a number field's digit
GLYPH_PX = 60  # pixels per cell for reading the row labels and column points (larger print, 37 of them)
#: how much closer than the runner-up a row label or column point must fit to be read: lower than a
#: number field's 0.4, as at the sheet's edge one of few glyphs (a digit, or a letter of the row labels)
#: is printed alone; over 3,120 synthetic points none was misread at this margin, 31 were unread at 0.4
EDGE_MARGIN = 0.15
#: the same on a sheet printed black (the real pads), whose small photos misread a few at 0.15
DARK_EDGE_MARGIN = 0.3

#: The five printed colours (BGR, yellow green blue red orange) as the app draws them; the
#: reader matches the photo's own five colour clusters to these (see :func:`_classify`).
REFERENCE_BGR = np.array([(0x3c, 0xcf, 0xf6), (0x4a, 0xbf, 0x7d), (0xdc, 0x9f, 0x4a), (0x8d, 0x55, 0xe9),
                          (0x2f, 0x92, 0xf2)], dtype=np.float64)

STAR_THRESHOLD = 0.2  # share of a cell's centre that is not its colour, above which it has a star
#: on a black print, how much whiter a star's outline must be than the rest of the cell's centre
#: (:func:`_star_outline_score`): over 427 seeded photos (6,390 stars, 38,340 other cells; 1600 x 1200,
#: 4000 x 3000 and 600 x 400 .. 1280 x 960) no other cell scored above 0.22 and three stars (under a
#: pen cross of the cell's own colour, or in a blurred 766 x 511 photo) below it
STAR_THRESHOLD_DARK = 0.225
FIELD_THRESHOLD = 0.5  # share of a corner disc that is not the cells' colour, above which it is a number field
UNSURE = 0.35  # a cell whose confidence is below this is named in the problems
#: a cell whose saturation is below this share of the median cell's does not look printed (a strong glare spot,
#: a sticker): the colours are not told from it, and it is read less surely, below UNSURE at about 0.42 of it
PALE_CELL = 0.5
#: the confidence (at most) of a cell whose colour or star was set by the sheet invariants rather than
#: by what was seen (:func:`_repair`): below UNSURE, so that it is named for a person to check
REPAIRED_CONFIDENCE = 0.3


class ScanError(NochmalError):
    """A photo that cannot be read as a sheet. ``reason`` is a short code (``"not-an-image"``,
    ``"too-small"``, ``"too-large"``, ``"too-dark"``, ``"blank"``, ``"no-colour"``, ``"cut-off"``, ``"too-far"``,
    ``"sideways"``, ``"no-grid"``), ``what`` what is wrong, ``advice`` what to try; the message
    says both."""

    def __init__(self, reason: str, what: str, advice: str) -> None:
        self.reason = reason
        self.what = what
        self.advice = advice
        super().__init__(f"{what}. {advice}")


@dataclass(frozen=True)
class FoundNumberField:
    """A number field: the 2x2 square whose top-left cell is ``cell`` (named A1..O7, rows from
    the top), the digit read in it (None where it could not be read) and the confidences."""

    cell: str
    number: int | None
    confidence: float  # that there is a number field here
    digit_confidence: float

    def to_json(self) -> dict:
        return {"cell": self.cell, "number": self.number, "confidence": round(self.confidence, 2),
                "digit_confidence": round(self.digit_confidence, 2)}


@dataclass(frozen=True)
class ScanResult:
    """What :func:`scan` read. ``grid`` is 7 strings of 15 letters y g b r o as in a sheet file
    (upper case = star); ``confidence[r][c]`` in 0..1 is the lower of the colour's and the
    star's confidence; ``problems`` names what a person should check (unsure cells, broken
    sheet invariants, unreadable digits); ``corners`` are the grid's outer corners in the photo
    (top-left, top-right, bottom-right, bottom-left, pixels)."""

    grid: tuple[str, ...]
    colours: tuple[tuple[int, ...], ...]  # colour index per cell (nochmal.engine.cells.COLOURS)
    stars: tuple[tuple[bool, ...], ...]
    number_fields: tuple[FoundNumberField, ...]
    confidence: tuple[tuple[float, ...], ...]
    problems: tuple[str, ...]
    corners: tuple[tuple[float, float], ...]
    fit_error: float  # RMS distance (in cells) of the measured gap lines from the fitted lattice
    row_labels: tuple[str, ...] = COOP_ROW_LABELS
    first_points: tuple[int, ...] = STANDARD_FIRST
    later_points: tuple[int, ...] = STANDARD_LATER
    labels_read: bool = False  # the row labels were read in the photo (else: the usual ones for the sheet's kind)
    points_read: bool = False  # the column points were read in the photo (else: the standard ones)

    def to_json(self) -> dict:
        return {"grid": list(self.grid), "number_fields": [f.to_json() for f in self.number_fields],
                "confidence": [[round(v, 2) for v in row] for row in self.confidence],
                "problems": list(self.problems),
                "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
                "fit_error": round(self.fit_error, 3),
                "row_labels": list(self.row_labels), "first_points": list(self.first_points),
                "later_points": list(self.later_points),
                "read_in_photo": {"row_labels": self.labels_read, "column_points": self.points_read}}

    def number_fields_text(self) -> str:
        """The number fields in the form the Sheets page and :func:`userdata.parse_number_fields`
        take ("number: cell", one a line, by number); a field whose digit could not be read comes last,
        written as "?"."""
        known = sorted((f for f in self.number_fields if f.number is not None), key=lambda f: f.number)
        unread = [f for f in self.number_fields if f.number is None]
        return "\n".join([f"{f.number}: {f.cell}" for f in known] + [f"?: {f.cell}" for f in unread])

    def sheet_data(self, sheet_id: str, name: str = "", source: str = "") -> dict:
        """The data of a user sheet from this reading (:func:`userdata.sheet_data`): a co-op back
        (three failed-roll boxes) when number fields were found; the row labels and column points
        as read (or the usual ones where none are printed). Raises
        :class:`~nochmal.data.userdata.SheetTextError` naming each number field whose digit
        could not be read (a person types it in)."""
        from nochmal.data import userdata

        unread = [f.cell for f in self.number_fields if f.number is None]
        if unread:
            raise userdata.SheetTextError([_("number field at {cell}: the digit could not be read; type it in").format(
                cell=cell) for cell in unread])
        data = userdata.sheet_data(self.grid, id=sheet_id, name=name,
                                   source=source or _("scanned from a photo of the printed sheet"),
                                   coop=bool(self.number_fields), row_labels=" ".join(self.row_labels),
                                   number_fields=self.number_fields_text(), failed_roll_boxes=3,
                                   first_points=" ".join(map(str, self.first_points)),
                                   later_points=" ".join(map(str, self.later_points)))
        if not self.number_fields and self.row_labels != DEFAULT_ROW_LABELS:
            data["row_labels"] = list(self.row_labels)
        return data


# --------------------------------------------------------------------------- errors
_ADVICE_FRAME = N_("Photograph the printed sheet from above, in good light, so that the whole coloured grid "
                   "(15 columns, 7 rows) is in the picture and fills most of it")


def _refuse(reason: str, what: str, advice: str = _ADVICE_FRAME) -> ScanError:
    """A :class:`ScanError`; ``what`` is in the language in force already, ``advice`` is a marked
    English text (translated here)."""
    return ScanError(reason, what, _(advice))


_ADVICE_IMAGE = N_("Give a photo (JPEG or PNG) of the sheet")
_ADVICE_CUT = N_("Step back (or zoom out) so that the whole sheet is in the picture")
_EDGES = {"left": N_("left"), "top": N_("top"), "right": N_("right"), "bottom": N_("bottom")}


# --------------------------------------------------------------------------- input
def _as_bgr(image) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise _refuse("not-an-image", _("This is not an image"), _ADVICE_IMAGE)
    img = image
    if img.dtype != np.uint8:
        if np.issubdtype(img.dtype, np.floating) and img.max(initial=0) <= 1.0:
            img = img * 255.0
        img = np.clip(img, 0, 255).astype(np.uint8)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.ndim == 3 and img.shape[2] == 4:
        img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    elif img.ndim == 3 and img.shape[2] == 1:
        img = cv2.cvtColor(img[:, :, 0], cv2.COLOR_GRAY2BGR)
    if img.ndim != 3 or img.shape[2] != 3:
        raise _refuse("not-an-image", _("An array of shape {shape} is not a colour image").format(shape=image.shape),
                      _ADVICE_IMAGE)
    h, w = img.shape[:2]
    if max(h, w) < MIN_LONG_SIDE or min(h, w) < MIN_SHORT_SIDE:
        raise ScanError("too-small", _("The photo has only {w} x {h} pixels").format(w=w, h=h),
                        _("Take the photo with the camera at its full size, or send it at full size (at least "
                          "{long} x {short} pixels)").format(long=MIN_LONG_SIDE, short=MIN_SHORT_SIDE))
    return img


def _scaled(img: np.ndarray, size: int) -> tuple[np.ndarray, float]:
    h, w = img.shape[:2]
    f = min(1.0, size / max(h, w))
    if f == 1.0:
        return img, 1.0
    return cv2.resize(img, (int(round(w * f)), int(round(h * f))), interpolation=cv2.INTER_AREA), f


# --------------------------------------------------------------------------- candidates
def _quad_of(points: np.ndarray) -> np.ndarray | None:
    """The convex hull of ``points`` simplified to 4 corners, or None."""
    hull = cv2.convexHull(points)
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float64)
        if len(approx) < 4:
            break
    return None


def _colour_blobs(det: np.ndarray) -> tuple[list[np.ndarray], list[str], bool]:
    """Quadrilaterals around large blobs of saturated colour, the edges of the photo that a
    colourful blob of printed cells touches (a grid cut off by the photo's edge), and whether
    there is a small blob of printed cells (a sheet photographed from too far away)."""
    hsv = cv2.cvtColor(det, cv2.COLOR_BGR2HSV)
    mask = ((hsv[..., 1] > 90) & (hsv[..., 2] > 50)).astype(np.uint8)
    k = max(3, int(round(max(det.shape[:2]) / 160)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _centroids = cv2.connectedComponentsWithStats(mask)
    h, w = mask.shape
    gray = cv2.cvtColor(det, cv2.COLOR_BGR2GRAY).astype(np.float32)
    local_sd = np.sqrt(np.maximum(cv2.blur(gray * gray, (5, 5)) - cv2.blur(gray, (5, 5)) ** 2, 0))
    quads, touching, small = [], [], False

    def printed(inside, flat=0.5):  # flat patches of several printed colours (not a table cloth, not noise)
        return np.mean(local_sd[inside] < 12) > flat and _many_hues(hsv[..., 0][inside])

    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        edges = [name for name, hit in (("left", x <= 1), ("top", y <= 1), ("right", x + bw >= w - 1),
                                        ("bottom", y + bh >= h - 1)) if hit]
        if area < 0.02 * h * w:
            if area > 0.002 * h * w and not edges and bw > 1.4 * bh and printed(labels == i, 0.3):
                small = True
            continue
        if edges and printed(labels == i):
            touching.extend(edges)
        contours, _hierarchy = cv2.findContours((labels[y:y + bh, x:x + bw] == i).astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        q = _quad_of(np.concatenate(contours) + np.array([x, y]))
        if q is not None:
            quads.append(q)
    return quads, touching, small


#: how many cells of a black print must stand apart as blobs (of 105) to give a candidate: in a small or
#: blurred photo of a used page many cells are crossed out or run into a neighbour
MIN_CELL_BLOBS = 40


def _cell_blobs(det: np.ndarray) -> list[np.ndarray]:
    """Quadrilaterals around the grid of a sheet printed black (the real pads): its cells are
    bright saturated rounded squares on dark ground, each its own blob. Blobs of about a square's
    shape are linked to those of their size about one of their own size away (a cell of the grid
    has two to four such neighbours; the colour bonus squares at the right are wider than a
    cell, a table's patches do not line up); the largest linked group is the grid, and the
    quadrilateral through its outermost corners along the diagonals is the candidate (a cell
    off at worst, which the lattice search mends)."""
    white = _bright_white(det)
    sat, val = _sat_val(det, white.max() / white)
    top = float(np.percentile(val, 99))
    k = max(3, int(max(det.shape[:2]) / 40) | 1)
    near_max = cv2.dilate(val, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    # bright, saturated and brighter than the black gaps around it (blur and JPEG bridge them)
    mask = ((sat > 0.3) & (val > 0.3 * top) & (val > 0.6 * near_max) & ~_valleys(val)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, _labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=4)
    x, y, bw, bh, area = (stats[1:, k].astype(np.float64) for k in range(5))
    ok = (area > 40) & (bw < 1.4 * bh) & (bh < 1.4 * bw) & (area > 0.5 * bw * bh) & (bw < 0.2 * det.shape[1])
    idx = np.flatnonzero(ok)
    if not MIN_CELL_BLOBS <= len(idx) <= 3000:
        return []
    pts, side = centroids[1:][idx], np.sqrt(bw[idx] * bh[idx])
    d = np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=2)
    ratio = side[:, None] / side[None, :]
    linked = (d > 0.85 * side[:, None]) & (d < 1.5 * side[:, None]) & (ratio > 0.75) & (ratio < 1.33)
    linked &= linked.T
    linked &= (linked.sum(axis=1) >= 2)[:, None] & (linked.sum(axis=1) >= 2)[None, :]
    count, group = _graph_groups(linked)
    if count == 0:
        return []
    sizes = np.bincount(group[group >= 0], minlength=count)
    members = np.flatnonzero(group == int(np.argmax(sizes)))
    if len(members) < MIN_CELL_BLOBS:
        return []
    same_size = np.abs(np.log(side / np.median(side[members]))) < np.log(1.33)
    quad = _lattice_quad(pts[members], linked[np.ix_(members, members)], pts[same_size])
    return [] if quad is None else [quad]


def _valleys(val: np.ndarray, step: int = 2, depth: float = 0.93) -> np.ndarray:
    """Pixels darker than the pixels ``step`` away on both sides, across or up and down: the
    black gaps between the cells of a small or blurred photo, which blur has made only a little
    darker than the cells (so that the cells would be one blob), and pen strokes."""
    pad = np.pad(val, step, mode="edge")
    h, w = val.shape
    left, right = pad[step:step + h, :w], pad[step:step + h, 2 * step:]
    up, down = pad[:h, step:step + w], pad[2 * step:, step:step + w]
    return (val < depth * np.minimum(left, right)) | (val < depth * np.minimum(up, down))


def _lattice_quad(pts: np.ndarray, linked: np.ndarray, others: np.ndarray) -> np.ndarray | None:
    """The grid's outer corners from the centres ``pts`` of its cells' blobs (linked to their
    neighbours by ``linked``): each blob gets its column and row by walking the links (a link is
    one step along one of the lattice's two directions), a homography from (column, row) to the
    photo is fitted to all of them (outliers dropped), the ``others`` (centres of blobs of the same
    size not linked to these: cells cut off from them by crossed-out or merged cells) that lie on
    that lattice join them, and the 15 x 7 window (or 7 x 15, the sheet lying sideways) holding
    the most blobs is the grid (the most central one, if the blobs span less)."""
    i, j = np.nonzero(np.triu(linked))
    steps = pts[j] - pts[i]
    steps = np.where((np.abs(steps[:, 0]) >= np.abs(steps[:, 1]))[:, None] & (steps[:, :1] < 0), -steps, steps)
    steps = np.where((np.abs(steps[:, 0]) < np.abs(steps[:, 1]))[:, None] & (steps[:, 1:] < 0), -steps, steps)
    across = np.abs(steps[:, 0]) >= np.abs(steps[:, 1])
    if across.sum() < 10 or (~across).sum() < 10:
        return None
    basis = np.array([np.median(steps[across], axis=0), np.median(steps[~across], axis=0)]).T  # columns: u, v
    try:
        inv = np.linalg.inv(basis)
    except np.linalg.LinAlgError:
        return None
    index = np.full((len(pts), 2), np.iinfo(np.int32).min, np.int64)
    start = int(np.argmax(linked.sum(axis=1)))
    index[start] = 0
    stack = [start]
    while stack:  # walk the links from the best linked blob
        a = stack.pop()
        for b in np.flatnonzero(linked[a]):
            if index[b, 0] == np.iinfo(np.int32).min:
                index[b] = index[a] + np.round(inv @ (pts[b] - pts[a])).astype(np.int64)
                stack.append(int(b))
    known = index[:, 0] != np.iinfo(np.int32).min
    if known.sum() < MIN_CELL_BLOBS:
        return None
    src = index[known].astype(np.float32) + 0.5
    H, inliers = cv2.findHomography(src, pts[known].astype(np.float32), cv2.RANSAC, 0.25 * float(np.abs(basis).max()))
    if H is None:
        return None
    good = index[known][inliers.ravel() > 0]
    lattice = cv2.perspectiveTransform(others.reshape(-1, 1, 2).astype(np.float64), np.linalg.inv(H)).reshape(-1, 2)
    near = np.all(np.abs(lattice - 0.5 - np.round(lattice - 0.5)) < 0.2, axis=1)
    near &= np.all((lattice > good.min(axis=0) - N_COLS) & (lattice < good.max(axis=0) + N_COLS), axis=1)
    good = np.unique(np.concatenate([good, np.round(lattice[near] - 0.5).astype(np.int64)]), axis=0)
    best, best_key = None, (0, 0.0)
    centre = good.mean(axis=0)
    for w, h in ((N_COLS, N_ROWS), (N_ROWS, N_COLS)):
        lo, hi = good.min(axis=0), good.max(axis=0) - (w - 1, h - 1)
        for c0 in range(int(min(lo[0], hi[0])), int(max(lo[0], hi[0])) + 1):
            for r0 in range(int(min(lo[1], hi[1])), int(max(lo[1], hi[1])) + 1):
                count = int(np.sum((good[:, 0] >= c0) & (good[:, 0] < c0 + w)
                                   & (good[:, 1] >= r0) & (good[:, 1] < r0 + h)))
                key = (count, -float(np.hypot(c0 + w / 2 - centre[0] - 0.5, r0 + h / 2 - centre[1] - 0.5)))
                if key > best_key:
                    best, best_key = (c0, r0, w, h), key
    if best is None or best_key[0] < MIN_CELL_BLOBS:
        return None
    c0, r0, w, h = best
    corners = np.array([(c0, r0), (c0 + w, r0), (c0 + w, r0 + h), (c0, r0 + h)], np.float64)
    return cv2.perspectiveTransform(corners.reshape(-1, 1, 2), H).reshape(-1, 2)


def _bright_white(img: np.ndarray) -> np.ndarray:
    """The colour of white in a photo that may show no paper (a sheet printed black filling the
    frame): the median of its whitest pixels, bright and pale (the white boxes printed on the
    sheet, or glare), so that warm light does not make them look coloured."""
    f = img.reshape(-1, 3)
    if len(f) > 200_000:
        f = f[:: len(f) // 100_000]
    sat, val = _sat_val(f.reshape(-1, 1, 3))
    whiteness = (val * (1 - sat)).ravel()
    whitest = whiteness >= np.percentile(whiteness, 97)
    return np.maximum(np.median(f[whitest].astype(np.float64), axis=0), 1.0)


def _graph_groups(linked: np.ndarray) -> tuple[int, np.ndarray]:
    """Connected groups of the graph with adjacency matrix ``linked``: how many (of nodes with a
    link) and each node's group (-1: no link)."""
    group = np.full(len(linked), -1)
    count = 0
    for start in range(len(linked)):
        if group[start] >= 0 or not linked[start].any():
            continue
        stack = [start]
        group[start] = count
        while stack:
            node = stack.pop()
            for other in np.flatnonzero(linked[node] & (group < 0)):
                group[other] = count
                stack.append(int(other))
        count += 1
    return count, group


def _many_hues(hue: np.ndarray) -> bool:
    """Whether saturated pixels of these OpenCV hues (0..179) show at least three of the five
    printed colours (a table or a cloth shows one or two)."""
    centres = np.array([25, 45, 103, 168, 14])  # yellow green blue red orange
    d = np.abs(hue[:, None].astype(np.int32) - centres[None, :])
    d = np.minimum(d, 180 - d)
    near = d.min(axis=1) < 6
    shares = np.bincount(np.argmin(d, axis=1)[near], minlength=5) / max(len(hue), 1)
    return int((shares > 0.05).sum()) >= 3


def _dark_outlines(det: np.ndarray) -> list[np.ndarray]:
    """Quadrilaterals of closed dark outlines (a frame printed around the grid)."""
    gray = cv2.cvtColor(det, cv2.COLOR_BGR2GRAY)
    block = max(15, int(max(gray.shape) / 16) | 1)
    dark = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 10)
    contours, _ = cv2.findContours(dark, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area = gray.shape[0] * gray.shape[1]
    out = []
    for c in contours:
        if cv2.contourArea(c) < 0.03 * area:
            continue
        q = _quad_of(c)
        if q is not None:
            out.append(q)
    return out


def _order(quad: np.ndarray) -> tuple[np.ndarray, bool]:
    """Corners as top-left, top-right, bottom-right, bottom-left with the long sides as the top
    and the bottom, and whether the long sides run up and down in the photo (the sheet lies
    sideways: then the left long side is taken as the top, to be checked later)."""
    c = quad.mean(0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang)]  # clockwise on screen (y down), starting anywhere
    sides = [np.linalg.norm(q[(i + 1) % 4] - q[i]) for i in range(4)]
    start = 0 if sides[0] + sides[2] >= sides[1] + sides[3] else 1  # q[start]->q[start+1] is a long side
    q = np.roll(q, -start, axis=0)
    d = q[1] - q[0]
    sideways = abs(d[1]) > abs(d[0])
    if sideways:
        top_is_first = (q[0, 0] + q[1, 0]) < (q[2, 0] + q[3, 0])  # the left long side
    else:
        top_is_first = (q[0, 1] + q[1, 1]) < (q[2, 1] + q[3, 1])
    if not top_is_first:
        q = np.roll(q, -2, axis=0)
    return q, sideways


# --------------------------------------------------------------------------- canonical images
def _units_to_px(px: float) -> np.ndarray:
    return np.array([[px, 0, MARGIN * px], [0, px, MARGIN * px], [0, 0, 1]], dtype=np.float64)


def _warp(img: np.ndarray, H: np.ndarray, px: float, border=cv2.BORDER_REPLICATE) -> np.ndarray:
    """The canonical image: grid units [-MARGIN, 15 + MARGIN] x [-MARGIN, 7 + MARGIN] at ``px``
    pixels per unit; ``H`` maps grid units to photo pixels."""
    size = (int(round((N_COLS + 2 * MARGIN) * px)), int(round((N_ROWS + 2 * MARGIN) * px)))
    M = H @ np.linalg.inv(_units_to_px(px))
    return cv2.warpPerspective(img, M, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=border)


def _sat_val(canon: np.ndarray, gains: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """HSV's saturation (0..1) and value of each pixel, after multiplying by ``gains``."""
    b, g, r = cv2.split(canon.astype(np.float32))
    if gains is not None:
        b, g, r = b * float(gains[0]), g * float(gains[1]), r * float(gains[2])
    mx = cv2.max(cv2.max(b, g), r)
    mn = cv2.min(cv2.min(b, g), r)
    return (mx - mn) / np.maximum(mx, 1.0), mx


def _paper_white(pixels: np.ndarray) -> np.ndarray:
    """The colour of the paper among ``pixels`` (n x 3): the median of the bright ones that are
    nearly grey (a colour cast leaves paper far less saturated than any printed colour)."""
    f = pixels.reshape(-1, 1, 3)
    if len(f) > 40000:  # a sample is enough
        f = f[:: len(f) // 20000]
    sat, level = _sat_val(f)
    sat, level = sat.ravel(), level.ravel()
    pale = sat < 0.35
    if pale.sum() < 50:
        pale[:] = True
    chosen = pale & (level >= np.percentile(level[pale], 80))
    return np.maximum(np.median(f.reshape(-1, 3)[chosen].astype(np.float64), axis=0), 1.0)


def _cellness(canon: np.ndarray, dark: bool = False) -> np.ndarray:
    """How much each pixel looks like a printed cell: saturated (after balancing the white of
    the paper, or of the white boxes on a black print) and not dark. On a black print (``dark``)
    a pixel must be clearly brighter than the black, whose saturation means nothing (a JPEG gives
    the thin black gaps the colour of the cells beside them): brighter than a sixth of the white
    boxes' level (a blue cell in a hand's shadow at a dim corner is not much brighter than that,
    the black print stays far below it), and not much darker than the brightest pixel within
    about a cell (:func:`_relative_brightness`: a black gap blurred by the lens is)."""
    if dark:
        white = _bright_white(canon)
        sat, val = _sat_val(canon, white.max() / white)
        level = np.clip((val - 0.15 * float(white.max())) / (0.15 * float(white.max())), 0, 1)
        return sat * level * np.clip((_relative_brightness(val) - 0.4) / 0.35, 0, 1)
    white = _paper_white(canon.reshape(-1, 3))
    sat, val = _sat_val(canon, white.max() / white)
    return sat * np.clip(val / (0.35 * float(white.max())), 0, 1)


def _dark_ground(canon: np.ndarray, px: int) -> bool:
    """Whether the grid in the canonical image ``canon`` (at ``px`` pixels per cell, black beyond
    the photo) lies on black print, as the real pads are printed: the strip just outside the grid
    is dark where the cells are bright (on the white-paper sheets it is the paper)."""
    val = canon.max(axis=2)
    m = MARGIN * px
    h, w = val.shape
    u = (np.arange(w) + 0.5 - m) / px
    v = (np.arange(h) + 0.5 - m) / px
    uu, vv = np.meshgrid(u, v)
    near = (uu > -0.45) & (uu < N_COLS + 0.45) & (vv > -0.45) & (vv < N_ROWS + 0.45)
    inside = (uu > -0.12) & (uu < N_COLS + 0.12) & (vv > -0.12) & (vv < N_ROWS + 0.12)
    strip = near & ~inside & (val > 0)  # 0: beyond the photo
    if strip.sum() < 50:
        return False
    return float(np.median(val[strip])) < 0.35 * float(np.percentile(val[inside], 90))


def _interval_means(cum: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Mean of a profile over [lo, hi] (pixel coordinates, fractional), from its cumulative sum."""
    x = np.arange(len(cum), dtype=np.float64)
    f_hi = np.interp(hi, x, cum)
    f_lo = np.interp(lo, x, cum)
    return (f_hi - f_lo) / np.maximum(hi - lo, 1e-6)


def _axis_fit(profile: np.ndarray, n: int, px: float) -> tuple[float, float, float]:
    """Offset ``a`` and pitch ``b`` (grid units) at which ``n`` cells separated by gaps fit the
    cellness ``profile`` best (lines at ``a + b*k``), and the fit's contrast: how much more the
    cells look printed than the gaps between them and the paper around them. Beyond the
    canonical image counts as printed, so the fit does not run off it."""
    pad = int(2 * px)
    padded = np.concatenate([np.ones(pad), profile, np.ones(pad)])
    cum = np.concatenate([[0.0], np.cumsum(padded, dtype=np.float64)])  # cum[i] = sum of padded[:i]
    def pos(u):  # grid units -> coordinate in the padded profile
        return (u + MARGIN) * px + pad

    def search(a, b):
        a, b = a[:, None, None], b[None, :, None]
        lines = a + b * np.arange(n)[None, None, :]
        cells = _interval_means(cum, pos(lines + 0.22 * b), pos(lines + 0.78 * b)).mean(axis=2)
        inner = a + b * np.arange(1, n)[None, None, :]
        gaps = _interval_means(cum, pos(inner - 0.04 * b), pos(inner + 0.04 * b)).mean(axis=2)
        end = a + b * n
        outside = np.maximum(_interval_means(cum, pos(a - 0.45 * b), pos(a - 0.12 * b))[..., 0],
                             _interval_means(cum, pos(end + 0.12 * b), pos(end + 0.45 * b))[..., 0])
        score = cells - gaps - outside
        i, j = np.unravel_index(np.argmax(score), score.shape)
        return float(a[i, 0, 0]), float(b[0, j, 0]), float(cells[i, j] - max(gaps[i, j], outside[i, j]))

    a0, b0, _ = search(np.arange(-0.7, 2.0001, 0.03), np.arange(0.55, 1.1001, 0.01))
    return search(np.arange(a0 - 0.04, a0 + 0.0401, 0.005), np.arange(b0 - 0.012, b0 + 0.01201, 0.002))


def _line_map(canon: np.ndarray, dark: bool) -> np.ndarray:
    """What the gap lines are measured in: the cellness (:func:`_cellness`); on a black print the
    brightness relative to the brightest within about a cell (:func:`_relative_brightness`), as
    there the gaps are black while a cell's lighter inner circle and a star's white outline are as
    bright as the cell or brighter (in saturation they are not: a gap blurred by the lens would be
    no lower than the inner circle)."""
    if not dark:
        return _cellness(canon)
    white = _bright_white(canon)
    return _relative_brightness(_sat_val(canon, white.max() / white)[1])


def _relative_brightness(val: np.ndarray) -> np.ndarray:
    """Each pixel's brightness (white-balanced, so that a green under warm light is not darker than
    it is) as a share of the brightest within about a cell of it (at :data:`ALIGN_PX`)."""
    k = int(1.2 * ALIGN_PX) | 1
    near = cv2.GaussianBlur(cv2.dilate(val, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))), (0, 0),
                            ALIGN_PX / 4)
    return val / np.maximum(near, 1.0)


def _line_measurements(cell: np.ndarray, px: float) -> tuple[list, list]:
    """Measured gap lines in the canonical image: (x, y, k) for vertical line k measured at
    height y, and (x, y, j) for horizontal line j measured at x (grid units)."""
    m = MARGIN * px
    vertical, horizontal = [], []
    lo_w, hi_w = int(round(0.3 * px)), int(round(0.3 * px))

    def minimum(profile, centre):
        c = int(round(centre))
        seg = profile[c - lo_w:c + hi_w + 1]
        i = int(np.argmin(seg))
        if i == 0 or i == len(seg) - 1:
            return None
        left, mid, right = seg[i - 1], seg[i], seg[i + 1]
        # a gap: clearly lower than the cells on both sides of it
        gap = int(0.12 * px)
        if i - gap < 1 or i + gap >= len(seg):
            return None
        level = min(seg[:i - gap].max(), seg[i + gap:].max())
        if level - mid < 0.05:
            return None
        den = left - 2 * mid + right
        off = 0.5 * (left - right) / den if den > 1e-9 else 0.0
        return c - lo_w + i + float(np.clip(off, -0.5, 0.5))

    for r in range(N_ROWS):
        y0, y1 = int(round(m + (r + 0.25) * px)), int(round(m + (r + 0.75) * px))
        prof = cell[y0:y1].mean(axis=0)
        for k in range(1, N_COLS):
            x = minimum(prof, m + k * px)
            if x is not None:
                vertical.append(((x - m) / px, r + 0.5, k))
    for c in range(N_COLS):
        x0, x1 = int(round(m + (c + 0.25) * px)), int(round(m + (c + 0.75) * px))
        prof = cell[:, x0:x1].mean(axis=1)
        for j in range(1, N_ROWS):
            y = minimum(prof, m + j * px)
            if y is not None:
                horizontal.append((c + 0.5, (y - m) / px, j))
    return vertical, horizontal


def _fit_lattice(vertical: list, horizontal: list) -> tuple[np.ndarray, float, int]:
    """The homography G (canonical units of the current warp -> true grid units) that maps every
    measured vertical line point to its line x = k and every horizontal one to y = j, by least
    squares with outliers dropped; its RMS residual and how many measurements it kept."""
    rows, rhs, kind = [], [], []
    for x, y, k in vertical:
        rows.append([x, y, 1, 0, 0, 0, -k * x, -k * y])
        rhs.append(k)
        kind.append(0)
    for x, y, j in horizontal:
        rows.append([0, 0, 0, x, y, 1, -j * x, -j * y])
        rhs.append(j)
        kind.append(1)
    A = np.array(rows, dtype=np.float64)
    t = np.array(rhs, dtype=np.float64)
    pts = np.array([(v[0], v[1]) for v in vertical] + [(h[0], h[1]) for h in horizontal], dtype=np.float64)
    kind = np.array(kind)
    keep = np.ones(len(t), bool)
    G = np.eye(3)
    res = np.zeros(len(t))
    for _ in range(3):
        theta, *_ = np.linalg.lstsq(A[keep], t[keep], rcond=None)
        G = np.append(theta, 1.0).reshape(3, 3)
        mapped = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), G).reshape(-1, 2)
        res = np.where(kind == 0, mapped[:, 0], mapped[:, 1]) - t
        mad = np.median(np.abs(res[keep])) + 1e-6
        new_keep = np.abs(res) < max(0.06, 4 * 1.4826 * mad)
        if new_keep.sum() < 20 or (new_keep == keep).all():
            keep = new_keep if new_keep.sum() >= 20 else keep
            break
        keep = new_keep
    rms = float(np.sqrt(np.mean(res[keep] ** 2))) if keep.any() else 1.0
    return G, rms, int(keep.sum())


@dataclass
class _Fit:
    H: np.ndarray  # grid units -> work-image pixels
    rms: float
    lines: int  # gap-line measurements that agree with the lattice (of 188)
    cells: float  # share of cells that look printed (away from their centre, where a star may be)
    score: float
    dark: bool = False  # the sheet is printed black (the real pads), not on white paper


def _align(work: np.ndarray, quad: np.ndarray, dark: bool | None = None) -> _Fit | None:
    """Lock the 15 x 7 lattice starting from a rough quadrilateral (work-image pixels); ``dark``:
    whether the sheet is printed black (None: tell from the photo, :func:`_dark_ground`)."""
    grid = np.array([(0, 0), (N_COLS, 0), (N_COLS, N_ROWS), (0, N_ROWS)], dtype=np.float32)
    H = cv2.getPerspectiveTransform(grid, quad.astype(np.float32)).astype(np.float64)
    canon = _warp(work, H, ALIGN_PX, border=cv2.BORDER_CONSTANT)
    dark = _dark_ground(canon, ALIGN_PX) if dark is None else dark
    cell = _cellness(canon, dark)
    m = int(MARGIN * ALIGN_PX)
    ax, bx, sx = _axis_fit(cell[m + int(0.5 * ALIGN_PX):m + int(6.5 * ALIGN_PX)].mean(axis=0), N_COLS, ALIGN_PX)
    ay, by, sy = _axis_fit(cell[:, m + int(0.5 * ALIGN_PX):m + int(14.5 * ALIGN_PX)].mean(axis=1), N_ROWS, ALIGN_PX)
    if min(sx, sy) < 0.05:
        return None
    H = H @ np.array([[bx, 0, ax], [0, by, ay], [0, 0, 1]])
    rms, kept = 1.0, 0
    for _ in range(3):
        vertical, horizontal = _line_measurements(_line_map(_warp(work, H, ALIGN_PX, border=cv2.BORDER_CONSTANT),
                                                            dark), ALIGN_PX)
        if len(vertical) + len(horizontal) < 40:
            return None
        G, rms, kept = _fit_lattice(vertical, horizontal)
        try:
            H = H @ np.linalg.inv(G)
        except np.linalg.LinAlgError:
            return None
        if rms > 0.25:
            return None
    canon = _warp(work, H, ALIGN_PX, border=cv2.BORDER_CONSTANT)
    if _dark_ground(canon, ALIGN_PX) != dark:  # told again around the locked lattice (the first quad was rough)
        dark = not dark
    cell = _cellness(canon, dark)
    flat = cell.ravel()
    regions = _regions(ALIGN_PX)
    cells = float(np.mean(np.median(flat[regions["body"]], axis=1) > 0.2))
    border = float(np.mean(np.median(flat[regions["border"]], axis=1) > 0.2))
    score = cells + kept / 188 - 4 * rms - 0.5 * border
    return _Fit(H, rms, kept, cells, score, dark)


# --------------------------------------------------------------------------- reading
@lru_cache(maxsize=4)
def _regions(px: int) -> dict[str, np.ndarray]:
    """Flat pixel indices (into a canonical image at ``px`` pixels per cell) of each cell's
    colour patches (``body``, 105 x n), its centre disc (``centre``), each interior corner's
    disc without the gap cross (``corner``, 84 x n: corner (j, k) for j = 1..6, k = 1..14) and
    a strip of paper just outside each outer cell (``border``, 44 x n)."""
    width = int(round((N_COLS + 2 * MARGIN) * px))
    m = MARGIN * px
    yy, xx = (np.mgrid[0:px, 0:px] + 0.5) / px  # cell-local coordinates 0..1
    d_centre = np.hypot(xx - 0.5, yy - 0.5)
    d_corner = np.min([np.hypot(xx - cx, yy - cy) for cx in (0, 1) for cy in (0, 1)], axis=0)
    inside = (xx > 0.12) & (xx < 0.88) & (yy > 0.12) & (yy < 0.88)
    body = np.argwhere(inside & (d_centre > 0.38) & (d_corner > 0.38))
    centre = np.argwhere(d_centre < 0.27)
    cy, cx = (np.mgrid[-px // 2:px // 2, -px // 2:px // 2] + 0.5) / px
    corner = np.argwhere((np.hypot(cx, cy) < 0.26) & (np.abs(cx) > 0.09) & (np.abs(cy) > 0.09)) - px // 2

    def flat(offsets, origins):
        ys = origins[:, None, 0] + offsets[None, :, 0]
        xs = origins[:, None, 1] + offsets[None, :, 1]
        return (ys * width + xs).astype(np.int64)

    cell_origins = np.array([(int(round(m + r * px)), int(round(m + c * px))) for r in range(N_ROWS)
                             for c in range(N_COLS)])
    corner_origins = np.array([(int(round(m + j * px)), int(round(m + k * px))) for j in range(1, N_ROWS)
                               for k in range(1, N_COLS)])
    # just outside the grid: a strip beyond each outer cell (the paper or the frame)
    strip = np.argwhere(np.ones((int(0.3 * px), int(0.5 * px)), bool))
    outside = []
    for c in range(N_COLS):
        x = int(round(m + (c + 0.25) * px))
        outside.append(flat(strip, np.array([(int(round(m - 0.45 * px)), x)]))[0])
        outside.append(flat(strip, np.array([(int(round(m + (N_ROWS + 0.15) * px)), x)]))[0])
    for r in range(N_ROWS):
        y = int(round(m + (r + 0.25) * px))
        outside.append(flat(strip[:, ::-1], np.array([(y, int(round(m - 0.45 * px)))]))[0])
        outside.append(flat(strip[:, ::-1], np.array([(y, int(round(m + (N_COLS + 0.15) * px)))]))[0])
    out = {"body": flat(body, cell_origins), "centre": flat(centre, cell_origins),
           "corner": flat(corner, corner_origins), "border": np.array(outside)}
    for name, turn in (("star", 0.0), ("star_down", 180.0)):
        outline, rest = _star_outline(px, turn)
        out[name], out[name + "_rest"] = flat(outline, cell_origins), flat(rest, cell_origins)
    return out


#: the star outline looked for on a sheet printed black: five points, this far from the cell's centre (cells),
#: the inner corners at this share of it, the line this wide (cells)
STAR_RADIUS, STAR_INNER, STAR_LINE = 0.32, 0.45, 0.06


def _star_outline(px: int, turn: float) -> tuple[np.ndarray, np.ndarray]:
    """Pixel offsets (within a cell of ``px`` pixels) of a five-pointed star's outline, one point up
    (``turn`` degrees turned), and of the rest of the cell's centre, away from the outline."""
    fine = 8  # drawn at 8 times the size, then scaled down
    angles = np.radians(-90 + 36 * np.arange(10) + turn)
    radii = np.where(np.arange(10) % 2 == 0, STAR_RADIUS, STAR_RADIUS * STAR_INNER) * px * fine
    points = np.round(np.c_[radii * np.cos(angles), radii * np.sin(angles)] + 0.5 * px * fine).astype(np.int32)
    drawn = np.zeros((px * fine, px * fine), np.uint8)
    cv2.polylines(drawn, [points], True, 255, max(1, int(STAR_LINE * px * fine)))
    outline = cv2.resize(drawn, (px, px), interpolation=cv2.INTER_AREA) > 100
    near = cv2.dilate(outline.astype(np.uint8), np.ones((int(0.12 * px) | 1,) * 2, np.uint8)) > 0
    yy, xx = (np.mgrid[0:px, 0:px] + 0.5) / px
    rest = (np.hypot(xx - 0.5, yy - 0.5) < 0.42) & ~near
    return np.argwhere(outline), np.argwhere(rest)


def _white_gains(canon: np.ndarray, valid: np.ndarray, px: int) -> tuple[np.ndarray, float]:
    """Per-channel gains that make the paper around the grid neutral, and the paper's level."""
    h, w = canon.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    u, v = xx / px - MARGIN, yy / px - MARGIN
    outer = (u > -0.7) & (u < N_COLS + 0.7) & (v > -0.7) & (v < N_ROWS + 0.7)
    inner = (u > -0.25) & (u < N_COLS + 0.25) & (v > -0.25) & (v < N_ROWS + 0.25)
    band = outer & ~inner & (valid > 0.99)
    pix = canon[band]
    if len(pix) < 100:
        pix = canon.reshape(-1, 3)
    white = _paper_white(pix).astype(np.float64)
    return white.max() / white, float(white.max())


def _box_white_gains(canon: np.ndarray, valid: np.ndarray, px: int) -> tuple[np.ndarray, float]:
    """On a sheet printed black: per-channel gains that make the white boxes neutral (the column
    letters above the grid, the column points below it; the brighter half of their pixels, so
    not the glyphs), and their level; a grey-world estimate over the cells where no box is in
    the photo."""
    m = MARGIN * px
    h, w = canon.shape[:2]
    rows = np.zeros(h, bool)
    for v0, v1 in ((-0.8, -0.4), (N_ROWS + 0.4, N_ROWS + 0.8)):
        rows[max(0, int(m + v0 * px)):max(0, int(m + v1 * px))] = True
    cols = np.zeros(w, bool)
    for c in range(N_COLS):
        cols[int(m + (c + 0.15) * px):int(m + (c + 0.85) * px)] = True
    box = rows[:, None] & cols[None, :] & (valid > 0.99)
    pix = canon[box].astype(np.float64)
    if len(pix) > 200:
        level = pix.max(axis=1)
        white = np.median(pix[level >= np.median(level)], axis=0)
        if float(white.max()) > 60:
            white = np.maximum(white, 1.0)
            return white.max() / white, float(white.max())
    cells = canon[int(m):int(m + N_ROWS * px), int(m):int(m + N_COLS * px)].reshape(-1, 3).astype(np.float64)
    grey = np.maximum(cells.mean(axis=0), 1.0)  # grey world: the five colours together are about neutral
    return grey.max() / grey, float(np.percentile(cells.max(axis=1), 95))


def _chroma(bgr: np.ndarray) -> np.ndarray:
    s = np.maximum(bgr.sum(axis=-1, keepdims=True), 1e-6)
    return bgr / s


#: how far from grey (in chromaticity) a colour counts in full: beyond it, only its hue (direction) counts
HUE_RADIUS = 0.12


def _hue_plane(chroma: np.ndarray) -> np.ndarray:
    """Chromaticities pulled in to at most :data:`HUE_RADIUS` from grey, keeping their direction
    (the hue): glare adds white to a cell, and a sheet's black print to a blurred one, which moves
    its chromaticity towards grey, not towards another colour, so that a pale orange is still
    nearer the orange than the yellow; a cell nearly grey stays between all five (unsure)."""
    d = chroma - 1 / 3
    r = np.linalg.norm(d, axis=-1, keepdims=True)
    return 1 / 3 + d * (HUE_RADIUS / np.maximum(r, HUE_RADIUS))


def _lloyd(feats: np.ndarray, centres: np.ndarray, rounds: int = 30) -> tuple[np.ndarray, float]:
    """k-means from ``centres``: the final centres and the summed squared distance. A cluster
    left empty is restarted at the cell farthest from its centre."""
    centres = centres.copy()
    for _ in range(rounds):
        d = np.linalg.norm(feats[:, None, :] - centres[None, :, :], axis=2)
        label = np.argmin(d, axis=1)
        moved = centres.copy()
        for c in range(len(centres)):
            members = feats[label == c]
            if len(members):
                moved[c] = members.mean(axis=0)
            else:
                far = int(np.argmax(d[np.arange(len(feats)), label]))
                moved[c] = feats[far]
                label[far] = c
        if np.allclose(moved, centres, atol=1e-7):
            break
        centres = moved
    d = np.linalg.norm(feats[:, None, :] - centres[None, :, :], axis=2)
    return centres, float((d.min(axis=1) ** 2).sum())


def _farthest_points(feats: np.ndarray, start: int, k: int) -> np.ndarray:
    chosen = [start]
    d = np.linalg.norm(feats - feats[start], axis=1)
    for _ in range(k - 1):
        chosen.append(int(np.argmax(d)))
        d = np.minimum(d, np.linalg.norm(feats - feats[chosen[-1]], axis=1))
    return feats[chosen]


def _classify(colours: np.ndarray, hue: bool = False,
              printed: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Colour index, confidence and runner-up for each cell's (cast-corrected) median colour,
    and whether the five colours were told apart cleanly; ``hue``: compare the colours' hues
    rather than their chromaticities where they are far from grey (:func:`_hue_plane`: on a black
    print, whose glare spots and blurred black move a cell's colour towards grey); ``printed``:
    the cells whose colours the five clusters are found from (not those that do not look printed,
    which would otherwise make a cluster of their own and merge two printed colours into one).

    The 105 chromaticities are clustered into five (k-means, deterministic starts: the printed
    reference colours and farthest-point starts), and the clusters are matched to the five
    colours by the permutation nearest the references. So a print whose orange leans towards
    the reference yellow still reads as orange, as long as its own yellow and orange differ. If
    the clusters do not look like five printed colours, each cell takes its nearest reference."""
    from itertools import permutations

    plane = _hue_plane if hue else (lambda chroma: chroma)
    feats = plane(_chroma(colours))
    refs = plane(_chroma(REFERENCE_BGR))
    seen = feats if printed is None else feats[printed]
    starts = [refs] + [_farthest_points(seen, s, len(refs))
                       for s in (int(np.argmax(np.linalg.norm(seen - seen.mean(0), axis=1))), 0, len(seen) // 2,
                                 len(seen) - 1)]
    best_centres, best_sse = None, np.inf
    for start in starts:
        centres, sse = _lloyd(seen, start)
        if sse < best_sse - 1e-9:
            best_centres, best_sse = centres, sse
    cost = np.linalg.norm(best_centres[:, None, :] - refs[None, :, :], axis=2)  # cluster x colour
    perm = min(permutations(range(len(refs))), key=lambda p: sum(cost[i, p[i]] for i in range(len(refs))))
    centres = np.empty_like(best_centres)
    for i, colour in enumerate(perm):
        centres[colour] = best_centres[i]
    gaps = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)[np.triu_indices(len(refs), 1)]
    clean = bool(gaps.min() > (0.015 if hue else 0.025) and max(cost[i, perm[i]] for i in range(len(refs))) < 0.15)
    if not clean:
        centres, _ = _lloyd(seen, refs, rounds=6)
    d = np.linalg.norm(feats[:, None, :] - centres[None, :, :], axis=2)
    order = np.argsort(d, axis=1)
    best, second = order[:, 0], order[:, 1]
    d1 = d[np.arange(len(d)), best]
    d2 = d[np.arange(len(d)), second]
    conf = np.clip(1 - 2 * d1 / np.maximum(d1 + d2, 1e-9), 0, 1)  # 0: halfway between two colours
    return best, conf, second, clean


@lru_cache(maxsize=8)
def _glyph_templates(px: int, height: float, glyphs: str) -> tuple[tuple[str, np.ndarray], ...]:
    """Each of ``glyphs`` dark on white, in several fonts and weights, ``height`` cells high."""
    out = []
    for font in (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                 cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN):
        for weight in (0.035, 0.06):
            for glyph in glyphs:
                scale = height * px / (22.0 if font != cv2.FONT_HERSHEY_PLAIN else 11.0)
                thick = max(1, int(round(weight * px)))
                (w, h), _ = cv2.getTextSize(glyph, font, scale, thick)
                pad = max(2, int(0.02 * px))
                img = np.full((h + 2 * pad + thick, w + 2 * pad + thick), 255, np.uint8)
                cv2.putText(img, glyph, (pad, pad + h), font, scale, 0, thick, cv2.LINE_AA)
                img = cv2.GaussianBlur(img, (0, 0), 0.025 * px)
                out.append((glyph, img))
    return tuple(out)


def _glyph_scores(work: np.ndarray, H: np.ndarray, u: float, v: float, *, glyphs: str, height: float,
                  half: float = 0.3, disc: float | None = None, px: int = DIGIT_PX,
                  boxed: bool = False) -> dict[str, float]:
    """How well each of ``glyphs``, printed about ``height`` cells high, fits around the grid point
    ``(u, v)`` (columns, rows from the grid's top-left corner), looked for within ``half`` cells of
    it (only inside a circle of radius ``disc`` cells, if given: a ring drawn around the glyph is
    left out): the best normalised correlation of each; empty where nothing is printed or the
    photo ends within ``half`` cells of the point (``boxed``:
    on a sheet printed black, where a glyph is printed in a white box, also where the patch is
    not mostly white: the edge of the sheet or of a box is no glyph)."""
    corners = cv2.perspectiveTransform(np.array([[(u - half, v - half), (u + half, v - half), (u + half, v + half),
                                                 (u - half, v + half)]], np.float64), H)[0]
    h, w = work.shape[:2]
    if (corners < -0.5).any() or (corners[:, 0] > w - 0.5).any() or (corners[:, 1] > h - 0.5).any():
        return {}  # cut by the photo's edge (a sheet filling the frame): a cut U looks like an I, a cut 2 like a 1
    size = int(round(2 * half * px))
    shift = np.array([[1, 0, u - half], [0, 1, v - half], [0, 0, 1]])
    M = H @ shift @ np.diag([1 / px, 1 / px, 1])
    patch = cv2.warpPerspective(work, M, (size, size), flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REPLICATE)
    gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    if disc is not None:
        yy, xx = np.mgrid[0:size, 0:size]
        inside = np.hypot(xx - size / 2, yy - size / 2) < disc * px
        white = np.percentile(gray[inside], 90)
        gray = np.where(inside, gray, white)  # drop the circle's outline and what is outside it
    else:
        white = np.percentile(gray, 90)
    if white - gray.min() < 40:  # nothing printed here: paper (or a cell) only
        return {}
    if boxed and float(np.median(gray)) < 0.7 * white:
        return {}
    gray = np.clip(gray / max(white, 1.0) * 255, 0, 255).astype(np.uint8)
    scores: dict[str, float] = {}
    for glyph, tpl in _glyph_templates(px, height, glyphs):
        if tpl.shape[0] >= size or tpl.shape[1] >= size:
            continue
        res = cv2.matchTemplate(gray, tpl, cv2.TM_CCOEFF_NORMED)
        scores[glyph] = max(scores.get(glyph, -1.0), float(res.max()))
    return scores


def _best_glyph(scores: dict[str, float], min_margin: float = 0.4) -> tuple[str | None, float]:
    """The glyph that fits clearly best (None if none does: it fits worse than 0.6, or less than
    ``min_margin`` closer than the runner-up) and the confidence (0..1)."""
    if len(scores) < 2:
        return None, 0.0
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    (glyph, best), (_g2, second) = ranked[0], ranked[1]
    # how much closer the best glyph fits than the runner-up (1: perfectly, 0: as badly)
    margin = 1 - (1 - best) / max(1 - second, 1e-6)
    conf = float(np.clip(margin, 0, 1) * np.clip((best - 0.5) * 4, 0, 1))
    if best < 0.6 or margin < min_margin:
        return None, conf
    return glyph, conf


def _read_glyph(work: np.ndarray, H: np.ndarray, u: float, v: float, *, glyphs: str, height: float,
                half: float = 0.3, disc: float | None = None, px: int = DIGIT_PX,
                min_margin: float = 0.4, boxed: bool = False) -> tuple[str | None, float]:
    """The one of ``glyphs`` that fits clearly best (:func:`_glyph_scores`), or None; and the
    confidence (0..1)."""
    return _best_glyph(_glyph_scores(work, H, u, v, glyphs=glyphs, height=height, half=half, disc=disc, px=px,
                                     boxed=boxed), min_margin)


#: the radius (cells) of a number field's disc whose digit is read: the digit (0.3 cells high) fits in it,
#: while the pen crosses of a used page, which reach into the field from the cells around it, mostly do not
DIGIT_DISC = 0.2
#: how much closer than any other digit a number field's digit must fit on a sheet printed black (where a
#: used page's pen strokes reach into the fields), rather than 0.4: over 1,122 fields of 400 seeded photos
#: the best fit was never wrong, and at 0.4 nine were left unread, at 0.25 one
DARK_DIGIT_MARGIN = 0.25


def _digit_scores(work: np.ndarray, H: np.ndarray, j: int, k: int) -> dict[str, float]:
    """How well each digit fits the number field on corner (row line j, column line k)."""
    return _glyph_scores(work, H, k, j, glyphs="123456789", height=0.3, disc=DIGIT_DISC)


def _read_digits(scores: list[dict[str, float]], min_margin: float) -> list[tuple[int | None, float]]:
    """The digits of a sheet's number fields (None where one cannot be read) and their confidences,
    from each field's digit scores (:func:`_digit_scores`). Every number appears once on a sheet, so a
    digit that another field shows surely is no rival for a field whose best digit fits only a
    little better than that one (a 5 with a pen stroke across it fits the 8 nearly as well)."""
    read = [_best_glyph(sc, min_margin) for sc in scores]
    while True:
        taken = {g for g, _conf in read if g is not None}
        again = [(i, _best_glyph({g: v for g, v in sc.items() if g not in taken}, min_margin))
                 for i, sc in enumerate(scores) if read[i][0] is None]
        again = [(i, got) for i, got in again if got[0] is not None]
        if not again:
            break
        i, got = again[0]  # one at a time: the digit it takes is no rival for the others either
        read[i] = got
    return [(None if g is None else int(g), conf) for g, conf in read]


#: where the renderer and the printed sheets put the labels and points, in cells from the grid's
#: top-left corner: row labels left of the grid, the column points (first: in circles) below it
LABEL_U = -0.6
FIRST_V, LATER_V = N_ROWS + 0.65, N_ROWS + 1.35
LABEL_GLYPHS = "ABCDEFGHIJKLMNPQRSTUVWXYZ123456789"  # no O: in print it is too like Q, D and 0


def _read_labels(work: np.ndarray, H: np.ndarray, dark: bool = False) -> tuple[str | None, ...]:
    """The printed row labels (one character each; None where none could be read). The labels of a
    sheet are all letters or all digits: whichever fits the seven better decides, so that a 5 is
    not read as an S (and a 1 as an I) when the rest are letters."""
    scores = [_glyph_scores(work, H, LABEL_U, r + 0.5, glyphs=LABEL_GLYPHS, height=0.36, half=0.35, px=GLYPH_PX,
                            boxed=dark) for r in range(N_ROWS)]
    kind_fit = {kind: sum(max((v for g, v in sc.items() if g.isdigit() == kind), default=0.0) for sc in scores)
                for kind in (True, False)}
    digits = kind_fit[True] > kind_fit[False]
    margin = DARK_EDGE_MARGIN if dark else EDGE_MARGIN
    return tuple(_best_glyph({g: v for g, v in sc.items() if g.isdigit() == digits}, margin)[0] for sc in scores)


def _read_points(work: np.ndarray, H: np.ndarray, dark: bool = False
                 ) -> tuple[tuple[int | None, ...], tuple[int | None, ...]]:
    """The column points printed under the grid: first (in circles, or white boxes on a black print)
    and later, per column."""
    margin = DARK_EDGE_MARGIN if dark else EDGE_MARGIN
    first, later = [], []
    for c in range(N_COLS):
        g, _conf = _read_glyph(work, H, c + 0.5, FIRST_V, glyphs="0123456789", height=0.3, disc=0.25, px=GLYPH_PX,
                               min_margin=margin, boxed=dark)
        first.append(None if g is None else int(g))
        g, _conf = _read_glyph(work, H, c + 0.5, LATER_V, glyphs="0123456789", height=0.26, px=GLYPH_PX,
                               min_margin=margin, boxed=dark)
        later.append(None if g is None else int(g))
    return tuple(first), tuple(later)


def _rows(label: np.ndarray, star: np.ndarray) -> tuple[str, ...]:
    return tuple("".join(COLOUR_LETTERS[label[r * N_COLS + c]].upper() if star[r * N_COLS + c]
                         else COLOUR_LETTERS[label[r * N_COLS + c]] for c in range(N_COLS)) for r in range(N_ROWS))


#: the invariants about stars (the others are about colours)
_STAR_INVARIANTS = frozenset({"INV-STARS-COLOUR", "INV-STARS-TOTAL", "INV-STARS-COLUMN", "INV-STARS-BLOCK"})


def _violations(label: np.ndarray, star: np.ndarray, stars: bool | None = None) -> list:
    """The sheet invariants (:func:`nochmal.engine.sheet.check_invariants`) the read grid breaks:
    all of them, or (``stars``) only those about stars, or (``stars=False``) only those about colours."""
    from nochmal.engine.sheet import SheetSpec, check_invariants

    # the rows are well-formed by construction: no need to validate them again
    found = check_invariants(SheetSpec.model_construct(grid=_rows(label, star)))
    return found if stars is None else [v for v in found if (v.invariant in _STAR_INVARIANTS) == stars]


REPAIR_CANDIDATES = 8  # the least sure cells that may take their runner-up colour (or lose or gain a star)
REPAIR_MAX_CELLS = 3
STAR_REPAIR_MAX_CELLS = 3
STAR_REPAIR_CONF = 0.75  # a cell's star is only changed by the invariants if it was read less surely than this
STAR_REPAIR_CANDIDATES = 16  # at most this many cells are tried (560 ways of changing three)
#: where several ways of changing the stars mend the invariants, the one whose cells' star scores speak for it
#: by this much more than for any other is taken (a score is about 0 without a star, 0.3..0.6 with one)
STAR_REPAIR_MARGIN = 0.1


def _unique_repair(candidates: list[int], max_cells: int, change, mended, evidence=None,
                   margin: float = 0.0) -> tuple[np.ndarray | None, list[int], list[int]]:
    """The one smallest set of ``candidates`` (up to ``max_cells``) whose ``change`` (cells -> the
    changed array) is ``mended``: (the changed array, its cells, []); where two sets of the same
    size mend it and ``evidence`` (cells -> how much the photo speaks for changing them) does not
    favour one by at least ``margin`` over every other, (None, [], the cells of those sets: one of
    them is wrong, and a person should check them); (None, [], []) where none does."""
    from itertools import combinations

    for size in range(1, max_cells + 1):
        fixes = [(list(cells), trial) for cells in combinations(candidates, size)
                 for trial in (change(list(cells)),) if mended(trial)]
        if len(fixes) > 1 and evidence is not None:
            fixes.sort(key=lambda fix: -evidence(fix[0]))
            if evidence(fixes[0][0]) - evidence(fixes[1][0]) >= margin:
                fixes = fixes[:1]
        if len(fixes) > 1:
            return None, [], sorted({cell for cells, _trial in fixes for cell in cells})
        if fixes:
            return fixes[0][1], sorted(fixes[0][0]), []
    return None, [], []


def _repair(label: np.ndarray, runner_up: np.ndarray, colour_conf: np.ndarray,
            star: np.ndarray) -> tuple[np.ndarray, list[int], list[int]]:
    """Every printed sheet keeps the sheet invariants (21 cells and blocks of 1..6 per colour,
    3 stars per colour, ...). If the read grid breaks those about colours and giving the runner-up
    colour to one, two or three of the least sure cells is the one smallest change that makes it
    keep them (and breaks no more of those about stars: a star misread is mended apart, by
    :func:`_repair_stars`), make that change. Returns the labels, the cells changed and the cells
    of the changes that mend them equally well (when there is more than one)."""
    if not _violations(label, star, stars=False):
        return label, [], []
    star_faults = len(_violations(label, star, stars=True))

    def change(cells):
        trial = label.copy()
        trial[cells] = runner_up[cells]
        return trial

    unsure = [int(i) for i in np.argsort(colour_conf, kind="stable")[:REPAIR_CANDIDATES] if colour_conf[i] < 0.5]
    fixed, cells, suspects = _unique_repair(unsure, REPAIR_MAX_CELLS, change,
                                            lambda trial: not _violations(trial, star, stars=False)
                                            and len(_violations(trial, star, stars=True)) <= star_faults)
    return (label, [], suspects) if fixed is None else (fixed, cells, [])


def _repair_stars(label: np.ndarray, star: np.ndarray, star_conf: np.ndarray,
                  star_score: np.ndarray) -> tuple[np.ndarray, list[int], list[int]]:
    """The same for the stars (3 per colour, 1 per column, 15 in all, at most 1 per block): if the
    read grid breaks those invariants and adding or taking away the star of one, two or three
    cells is the one smallest change that mends them, make it (a faint star in a shadow or under a
    pen cross, a glare spot taken for one); of several such changes, the one that the cells' star
    scores clearly favour. The cells that may change: those whose star was least sure, and in a
    column without a star its two likeliest cells (``star_score``) of a colour with too few stars,
    in a column with more than one its stars. Returns the stars, the cells changed and the cells of
    the changes that mend them equally well."""
    if not _violations(label, star, stars=True):
        return star, [], []

    def change(cells):
        trial = star.copy()
        trial[cells] = ~trial[cells]
        return trial

    candidates = []
    short = np.bincount(label[star], minlength=len(COLOURS)) < 3  # colours with too few stars
    for c in range(N_COLS):
        column = np.arange(c, N_ROWS * N_COLS, N_COLS)
        if not star[column].any():
            column = column[short[label[column]]] if short[label[column]].any() else column
            candidates += [int(i) for i in column[np.argsort(-star_score[column], kind="stable")[:2]]]
        elif star[column].sum() > 1:
            candidates += [int(i) for i in column[star[column]]]
    candidates += [int(i) for i in np.argsort(star_conf, kind="stable")[:REPAIR_CANDIDATES]
                   if star_conf[i] < STAR_REPAIR_CONF]
    candidates = list(dict.fromkeys(candidates))[:STAR_REPAIR_CANDIDATES]  # the columns' first
    fixed, cells, suspects = _unique_repair(
        candidates, STAR_REPAIR_MAX_CELLS, change, _stars_kept(label),
        evidence=lambda cells: float(np.sum(np.where(star[cells], -1, 1) * star_score[cells])),
        margin=STAR_REPAIR_MARGIN)
    return (star, [], suspects) if fixed is None else (fixed, cells, [])


def _stars_kept(label: np.ndarray):
    """A test whether stars (105 booleans) keep the star invariants on a grid of these colours: the
    same test as :func:`_violations` with ``stars=True``, in a small fraction of its time (the colours'
    blocks are found once), as a repair may try some hundreds of ways."""
    grid = label.reshape(N_ROWS, N_COLS)
    block = np.zeros(N_ROWS * N_COLS, np.int64)
    for c in range(len(COLOURS)):
        _count, parts = cv2.connectedComponents((grid == c).astype(np.uint8), connectivity=4)
        block = np.where(parts.ravel() > 0, parts.ravel() + c * N_ROWS * N_COLS, block)

    def kept(star: np.ndarray) -> bool:
        return (bool((np.bincount(label[star], minlength=len(COLOURS)) == 3).all())
                and int(star.sum()) == 15 and bool((star.reshape(N_ROWS, N_COLS).sum(axis=0) == 1).all())
                and int(np.bincount(block[star]).max(initial=0)) <= 1)

    return kept


# --------------------------------------------------------------------------- the scan
_GRID_CORNERS = np.array([(0, 0), (N_COLS, 0), (N_COLS, N_ROWS), (0, N_ROWS)], np.float64)
FINE_PITCH = 36  # a grid whose cells are smaller than this (pixels) is read again from the full photo


def _pitch(H: np.ndarray) -> float:
    """The mean cell size (pixels) of the grid that ``H`` maps."""
    c = cv2.perspectiveTransform(_GRID_CORNERS.reshape(-1, 1, 2), H).reshape(-1, 2)
    return float((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / (2 * N_COLS)
                 + (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / (2 * N_ROWS)) / 2


#: a lattice fit short of the grid's bar (:func:`_is_grid`) is still the grid when at least this share of
#: the cells look printed and this many of the 188 gap lines agree within this many cells (:func:`_is_near_grid`)
NEAR_CELLS, NEAR_LINES, NEAR_RMS = 0.6, 120, 0.05
#: a photo whose brightest pixels are darker than this (of 255), in which no grid was found, is too dark
DIM = 110
_FLIP = np.array([[-1, 0, N_COLS], [0, -1, N_ROWS], [0, 0, 1]], dtype=np.float64)  # the grid turned 180 degrees
_ADVICE_LIGHT = N_("Take it again in more light (near a window or under a lamp) or with the flash; keep the sheet "
                 "out of your own shadow")


@dataclass
class _Reading:
    """What was read in one orientation of the grid (cells in reading order)."""

    label: np.ndarray
    colour_conf: np.ndarray
    runner_up: np.ndarray
    star: np.ndarray
    star_conf: np.ndarray
    fields: list  # FoundNumberField
    header: tuple[float, float]  # the darkest column header box above the grid, and below it
    colours_clean: bool  # the five printed colours formed five clear clusters
    star_score: np.ndarray  # per cell: the share of its centre not its colour (black print: _star_outline_score)
    corner_score: np.ndarray  # per interior corner (row line 1..6, column line 1..14): the same for its disc

    def rows(self) -> tuple[str, ...]:
        return _rows(self.label, self.star)


def _find_grid(work: np.ndarray) -> tuple[_Fit, bool]:
    """The best lattice fit in the photo and whether the sheet lies sideways; or ScanError."""
    det, f_det = _scaled(work, DETECT_SIZE)
    gray = cv2.cvtColor(det, cv2.COLOR_BGR2GRAY)
    p1, p50, p99 = np.percentile(gray, (1, 50, 99))
    if p99 < 50 or p50 < 20:
        raise _refuse("too-dark", _("The photo is too dark to read"), _ADVICE_LIGHT)
    if p99 - p1 < 25:
        raise _refuse("blank", _("The photo shows no sheet: it is almost one flat colour"), _ADVICE_FRAME)
    hsv = cv2.cvtColor(det, cv2.COLOR_BGR2HSV)
    if np.percentile(hsv[..., 1], 99) < 40:
        raise _refuse("no-colour", _("The photo has no colour (black and white?)"),
                      N_("Take a colour photo: the cells are told apart by their colours"))

    blobs, touching, small = _colour_blobs(det)
    candidates = []
    for q in sorted(_dark_outlines(det) + blobs, key=lambda q: -cv2.contourArea(q.astype(np.float32))):
        ordered, sideways = _order(q)
        ordered = ordered / f_det
        if any(np.abs(ordered - c).max() < 0.01 * max(work.shape) for c, _ in candidates):
            continue
        candidates.append((ordered, sideways))
    def more():  # the cells of a black print, each its own blob: looked for only when needed
        for q in _cell_blobs(det):
            ordered, sideways = _order(q)
            yield ordered / f_det, sideways

    from itertools import chain

    best, best_sideways = None, False
    for quad, sideways in chain(candidates[:8], more()):
        fit = _align(work, quad)
        if fit is not None and (best is None or fit.score > best.score):
            best, best_sideways = fit, sideways
        if best is not None and best.cells > 0.97 and best.lines > 170 and best.rms < 0.03:
            break  # as good as it gets
    if best is None or not (_is_grid(best) or _is_near_grid(best)):
        raise _no_grid(touching, small, float(p99))
    corners = cv2.perspectiveTransform(_GRID_CORNERS.reshape(-1, 1, 2), best.H).reshape(-1, 2)
    h, w = work.shape[:2]
    beyond = [edge for edge, out in (("left", corners[:, 0] < -0.01 * w), ("top", corners[:, 1] < -0.01 * h),
                                     ("right", corners[:, 0] > 1.01 * w), ("bottom", corners[:, 1] > 1.01 * h))
              if out.any()]
    if beyond:  # named by the coloured blob of cells running off the photo where it does (a fit to a cut grid
        raise _cut_off([e for e in beyond if e in touching] or beyond)  # may overshoot at the other side too)
    return best, best_sideways


def _is_grid(fit: _Fit) -> bool:
    """Whether a lattice fit is the grid: nearly every cell looks printed, the gap lines agree."""
    return fit.cells >= 0.93 and fit.lines >= 60 and fit.rms <= 0.08


def _is_near_grid(fit: _Fit) -> bool:
    """Whether a lattice fit that is not quite :func:`_is_grid` is the grid all the same: most of the
    188 gap lines were measured and agree closely, so that a 15 x 7 lattice of cells is certainly
    there, but some cells do not look printed (a glare spot, a shadow, a sticker over them). It is
    read, its cells that do not look printed with a low confidence (:data:`PALE_CELL`), and the
    person is told to check them, rather than told that there is no sheet."""
    return fit.cells >= NEAR_CELLS and fit.lines >= NEAR_LINES and fit.rms <= NEAR_RMS


def _cut_off(edges: list[str]) -> ScanError:
    names = _(" and ").join(_(_EDGES[e]) for e in sorted(set(edges)))
    return _refuse("cut-off", _("The grid runs off the {edges} edge of the photo").format(edges=names), _ADVICE_CUT)


def _no_grid(touching: list[str], small: bool, brightest: float) -> ScanError:
    """Why no grid was found, as far as the photo tells: a colourful blob of cells running off an
    edge (cut off), a small one (too far away), a dim photo (too dark); else there is no grid."""
    if touching:
        return _cut_off(touching)
    if small:
        return _refuse("too-far", _("The sheet is too small in the photo to be read"),
                       N_("Move closer (or zoom in) so that the coloured grid fills most of the picture"))
    if brightest < DIM:
        return _refuse("too-dark", _("The photo is too dark to read"), _ADVICE_LIGHT)
    return _refuse("no-grid", _("No sheet found: there is no grid of 15 x 7 coloured cells in the photo"),
                   _ADVICE_FRAME)


def _read(work: np.ndarray, H: np.ndarray, dark: bool = False) -> _Reading:
    """Colours, stars, number fields and the column header boxes, in the orientation ``H``; ``dark``:
    the sheet is printed black (its stars are white outlines, and dark marks are pen crosses)."""
    px = READ_PX
    canon = _warp(work, H, px)
    valid = _warp(np.ones(work.shape[:2], np.float32), H, px, border=cv2.BORDER_CONSTANT)
    if dark:  # no paper: the white of the boxes printed above and below the grid
        gains, paper = _box_white_gains(canon, valid, px)
    else:
        gains, paper = _white_gains(canon, valid, px)
    if paper < 35:
        raise _refuse("too-dark", _("The sheet is too dark to read"), _ADVICE_LIGHT)
    sat, val = _sat_val(canon, gains)
    regions = _regions(px)
    pix = canon.reshape(-1, 3).astype(np.float64) * gains
    colours = np.median(pix[regions["body"]], axis=1)  # 105 x 3
    s_flat, v_flat = sat.ravel(), val.ravel()
    s_cell = np.median(s_flat[regions["body"]], axis=1)
    v_cell = np.median(v_flat[regions["body"]], axis=1)
    # a cell far paler than the others (a glare spot, a sticker, a hole) is not read surely, whatever it is nearest
    share = s_cell / max(float(np.median(s_cell)), 1e-6)
    printed = share >= PALE_CELL
    label, colour_conf, runner_up, clean = _classify(colours, hue=dark,
                                                     printed=printed if printed.sum() >= 60 else None)
    colour_conf = np.minimum(colour_conf, np.clip((share - 0.5 * PALE_CELL) / PALE_CELL, 0, 1))

    # stars: a large share of the centre that is not the cell's colour; on a black print, a white outline
    if dark:
        star_score = _star_outline_score(s_flat, v_flat, s_cell, v_cell, regions)
        threshold, scale = STAR_THRESHOLD_DARK, 0.5 * STAR_THRESHOLD_DARK
    else:
        cs, cv = s_flat[regions["centre"]], v_flat[regions["centre"]]
        different = (cs < 0.5 * s_cell[:, None]) | (cv < 0.55 * v_cell[:, None])
        star_score = different.mean(axis=1)
        threshold = scale = STAR_THRESHOLD
    star = star_score > threshold
    star_conf = np.clip(np.abs(star_score - threshold) / scale, 0, 1)

    # number fields: a corner disc that is not the colour of the cells around it
    found = []  # (cell, confidence, the digits' scores)
    ks, vs = s_flat[regions["corner"]], v_flat[regions["corner"]]
    corner_score = np.zeros(len(regions["corner"]))
    for idx in range(len(regions["corner"])):
        j, k = divmod(idx, N_COLS - 1)
        j, k = j + 1, k + 1
        around = [(j - 1) * N_COLS + k - 1, (j - 1) * N_COLS + k, j * N_COLS + k - 1, j * N_COLS + k]
        s_ref, v_ref = float(np.mean(s_cell[around])), float(np.mean(v_cell[around]))
        score = corner_score[idx] = float(np.mean((ks[idx] < 0.45 * s_ref) | (vs[idx] < 0.5 * v_ref)))
        if score > FIELD_THRESHOLD:
            found.append((cell_name((j - 1) * N_COLS + k - 1),
                          float(np.clip((score - FIELD_THRESHOLD) / (1 - FIELD_THRESHOLD) * 2, 0, 1)),
                          _digit_scores(work, H, j, k)))
    digits = _read_digits([scores for _cell, _conf, scores in found], DARK_DIGIT_MARGIN if dark else 0.4)
    fields = [FoundNumberField(cell, digit, conf, digit_conf)
              for (cell, conf, _scores), (digit, digit_conf) in zip(found, digits)]

    # the start column's header: a dark filled box above one column (or below, upside down)
    # (dark against the paper nearby, so that a shadow is not taken for print; a box stands out
    # from the other columns' headers, which hold a letter or nothing)
    near_white = cv2.GaussianBlur(cv2.dilate(val, np.ones((int(1.5 * px), int(1.5 * px)), np.uint8)), (0, 0), px / 2)
    dark = (val < 0.5 * near_white).astype(np.float32)
    m = MARGIN * px

    def box(v0, v1):
        y0, y1 = int(m + v0 * px), int(m + v1 * px)
        shares = [float(dark[y0:y1, int(m + (c + 0.15) * px):int(m + (c + 0.85) * px)].mean()) for c in range(N_COLS)]
        return max(shares) - float(np.median(shares))

    return _Reading(label, colour_conf, runner_up, star, star_conf, fields, (box(-0.95, -0.2), box(7.2, 7.95)),
                    clean, star_score, corner_score)


def _star_outline_score(s_flat: np.ndarray, v_flat: np.ndarray, s_cell: np.ndarray, v_cell: np.ndarray,
                        regions: dict[str, np.ndarray]) -> np.ndarray:
    """On a sheet printed black, how much each cell shows a star's white outline: how much whiter
    (paler than the cell's colour and as bright) the pixels along a star's outline are than the rest
    of the cell's centre, the star one point up or (the grid read upside down) down. A glare spot
    or the lighter inner circle is as white on the outline as beside it, a pen cross is dark; and
    measured along the outline rather than as a share of pale pixels, a thin outline blurred by a
    small photo still counts."""
    def whiteness(idx):
        return (np.clip(1 - s_flat[idx] / np.maximum(s_cell[:, None], 1e-6), 0, 1)
                * np.clip(v_flat[idx] / np.maximum(v_cell[:, None], 1e-6), 0, 1)).mean(axis=1)

    return np.maximum(whiteness(regions["star"]) - whiteness(regions["star_rest"]),
                      whiteness(regions["star_down"]) - whiteness(regions["star_down_rest"]))


def _known_distance(rows: tuple[str, ...]) -> int:
    """Cells (colour or star) by which ``rows`` differ from the nearest shipped sheet."""
    from nochmal.engine.sheet import get_sheet, sheet_ids

    flat = "".join(rows)
    best = len(flat)
    for sid in sheet_ids():
        try:
            other = "".join(get_sheet(sid).spec.grid)
        except NochmalError:  # pragma: no cover - a broken user file is not ours to report here
            continue
        best = min(best, sum(a != b for a, b in zip(flat, other)))
    return best


def _upside_down(up: _Reading, down: _Reading) -> int | None:
    """+1 if ``up`` is the right way up, -1 if ``down`` is, None if nothing tells: the start
    column's dark header box above the grid, number fields whose digits read, a shipped sheet."""
    votes = 0
    above, below = up.header
    if above > 0.4 and above - below > 0.25:
        votes += 1
    elif below > 0.4 and below - above > 0.25:
        votes -= 1
    read_up = sum(f.number is not None for f in up.fields)
    read_down = sum(f.number is not None for f in down.fields)
    if abs(read_up - read_down) >= 2:
        votes += 1 if read_up > read_down else -1
    d_up, d_down = _known_distance(up.rows()), _known_distance(down.rows())
    if min(d_up, d_down) <= 3 and abs(d_up - d_down) >= 10:
        votes += 1 if d_up < d_down else -1
    return None if votes == 0 else (1 if votes > 0 else -1)


def _labels_of(read: tuple[str | None, ...], usual: tuple[str, ...]) -> tuple[tuple[str, ...], bool, list[str]]:
    """The row labels from what was read: all seven as read; the ``usual`` ones where none is
    printed; where only some were read, the usual ones filled in and a problem to check."""
    found = [r for r, g in enumerate(read) if g is not None]
    if len(found) == N_ROWS:
        return tuple(read), True, []
    if not found:
        return usual, False, []
    missing = ", ".join(str(r + 1) for r in range(N_ROWS) if read[r] is None)
    return tuple(g if g is not None else u for g, u in zip(read, usual)), False, [
        _("row labels: those of rows {rows} (from the top) could not be read; taken as {labels}: check them").format(
            rows=missing, labels=" ".join(u for g, u in zip(read, usual) if g is None))]


def _points_of(read: tuple[int | None, ...], usual: tuple[int, ...], which: str
               ) -> tuple[tuple[int, ...], bool, list[str]]:
    """The column points (one row of them) from what was read, as :func:`_labels_of` does."""
    found = [c for c, v in enumerate(read) if v is not None]
    if len(found) == N_COLS:
        return tuple(int(v) for v in read), True, []
    if not found:
        return usual, False, []
    missing = [c for c in range(N_COLS) if read[c] is None]
    return tuple(v if v is not None else u for v, u in zip(read, usual)), False, [
        _("column points ({which}): those under columns {columns} could not be read; taken as the standard "
          "{points}: check them").format(which=which, columns=", ".join(COLUMN_NAMES[c] for c in missing),
                                         points=" ".join(str(usual[c]) for c in missing))]


def _colour(index) -> str:
    """A colour's name in the language in force."""
    words = (pgettext("colour", "yellow"), pgettext("colour", "green"), pgettext("colour", "blue"),
             pgettext("colour", "red"), pgettext("colour", "orange"))  # COLOURS' order
    return words[int(index)]


#: The largest photo file :func:`decode_photo` takes (bytes)
MAX_PHOTO_BYTES = MAX_PHOTO_MB * 2**20


def check_photo_size(size: int) -> None:
    """A :class:`ScanError` for a photo file of ``size`` bytes that is empty or over the cap."""
    if size <= 0:
        raise _refuse("not-an-image", _("The file is empty"), _ADVICE_IMAGE)
    if size > MAX_PHOTO_BYTES:
        raise _refuse("too-large", _("The file has {mb} MB; a photo may have at most {limit} MB").format(
            mb=number(size / 2**20, 1), limit=MAX_PHOTO_MB),
            N_("Take the photo at a lower resolution, or save it as a JPEG"))


#: A photo is decoded to at most this many pixels (4096 x 4096; a 12-megapixel phone photo is
#: decoded whole): a larger JPEG is decoded at 1/2, 1/4 or 1/8 of its size by the JPEG decoder
#: itself (it never unpacks the whole image), so a 64-megapixel photo takes ~90 MB, not ~370 MB.
#: The reader works on at most WORK_SIZE pixels anyway (a small sheet in a large photo at more).
DECODE_PIXELS = 4096 * 4096
_REDUCED = ((1, cv2.IMREAD_COLOR), (2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4),
            (8, cv2.IMREAD_REDUCED_COLOR_8))


def _header_size(data: bytes) -> tuple[int, int, str]:
    """(width, height, format) as the image file's header claims them (Pillow reads the header
    only, nothing is decoded), or (0, 0, "") for a file Pillow does not know (OpenCV's own cap
    then applies)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():  # a huge size is what this looks for: no warning about it
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                return im.size[0], im.size[1], str(im.format or "")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return 0, 0, ""


def decode_flag(width: int, height: int) -> tuple[int, int]:
    """(reduction, OpenCV flag): the smallest of 1, 2, 4, 8 that brings a ``width`` x ``height``
    JPEG to at most :data:`DECODE_PIXELS` pixels, and the ``cv2.imdecode`` flag for it."""
    for r, flag in _REDUCED:
        if (width // r) * (height // r) <= DECODE_PIXELS:
            return r, flag
    return _REDUCED[-1]


def decode_photo(data: bytes) -> np.ndarray:
    """The image in a photo file's bytes (JPEG, PNG, WebP, ... as OpenCV decodes them; BGR), decoded
    once, to at most :data:`DECODE_PIXELS` pixels (a larger JPEG at 1/2, 1/4 or 1/8 of its size,
    :func:`decode_flag`), or a :class:`ScanError`: an empty file, one over :data:`MAX_PHOTO_BYTES`,
    one whose header claims more than :data:`MAX_PIXELS` pixels, a PNG or WebP (decoded whole by
    OpenCV) of more than :data:`DECODE_PIXELS` (both refused before they are unpacked), or not an
    image."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise _refuse("not-an-image", _("The file is empty"), _ADVICE_IMAGE)
    check_photo_size(len(data))
    too_many = _refuse("too-large", _("The photo has more than {mp} megapixels, more than this app reads").format(
        mp=MAX_PIXELS // 1_000_000), N_("Take the photo at a lower resolution (12 megapixels are plenty)"))
    width, height, kind = _header_size(bytes(data))
    if width * height > MAX_PIXELS:
        raise too_many
    flag = cv2.IMREAD_COLOR
    if width * height > DECODE_PIXELS:
        if kind not in ("JPEG", "MPO"):  # only the JPEG decoder can unpack a smaller image
            raise _refuse("too-large", _("The photo has {mp} megapixels; a PNG or WebP photo is read up to {limit} "
                                         "megapixels").format(mp=number(width * height / 1e6, 1),
                                                              limit=DECODE_PIXELS // 1_000_000),
                          N_("Save the photo as a JPEG, or take it at a lower resolution"))
        _r, flag = decode_flag(width, height)
    try:
        image = cv2.imdecode(np.frombuffer(bytes(data), np.uint8), flag)
    except cv2.error as err:  # a header Pillow does not know that claims too many pixels, a broken stream
        if "MAX_IMAGE_PIXELS" in str(err):
            raise too_many from None
        image = None
    if image is None:
        raise _refuse("not-an-image", _("The file is not a photo that can be read (not a JPEG, PNG or WebP image, "
                                        "or a broken one)"), _ADVICE_IMAGE)
    return image


def scan_bytes(data: bytes) -> ScanResult:
    """:func:`scan` of the photo in a file's bytes (:func:`decode_photo`)."""
    return scan(decode_photo(data))


def scan(image) -> ScanResult:
    """Read the sheet in ``image`` (BGR ``numpy`` array, as ``cv2.imread`` returns it).

    Raises :class:`ScanError` (what went wrong and what to try) when there is no readable
    15 x 7 grid in the photo: an empty or tiny image, a too dark, blank or colourless one, a
    grid cut off by the photo's edge, a sheet turned sideways whose top cannot be told, no grid
    at all. A sheet photographed upside down (or sideways) is turned when its start column's
    header, its number fields' digits or a shipped sheet tell which way is up."""
    img = _as_bgr(image)
    work, f_work = _scaled(img, WORK_SIZE)
    fit, sideways = _find_grid(work)
    pitch = _pitch(fit.H)
    if pitch < FINE_PITCH and f_work < 1.0:  # a small sheet in a large photo: read it at more pixels
        f_fine = min(1.0, f_work * FINE_PITCH / pitch)
        fine = cv2.resize(img, (int(round(img.shape[1] * f_fine)), int(round(img.shape[0] * f_fine))),
                          interpolation=cv2.INTER_AREA)
        scale = np.diag([f_fine / f_work, f_fine / f_work, 1.0])
        corners = cv2.perspectiveTransform(_GRID_CORNERS.reshape(-1, 1, 2), scale @ fit.H).reshape(-1, 2)
        refit = _align(fine, corners, fit.dark)
        if refit is not None and refit.score >= fit.score - 0.05:
            work, f_work, fit = fine, f_fine, refit
    H = fit.H
    problems = []
    reading = _read(work, H, fit.dark)
    flipped = _read(work, H @ _FLIP, fit.dark)
    way = _upside_down(reading, flipped)
    if way == -1:
        H, reading = H @ _FLIP, flipped
    elif way is None:
        if sideways:
            raise _refuse("sideways", _("The sheet lies sideways in the photo and its top cannot be told"),
                          N_("Turn the photo (or the sheet) so that the columns A to O run from left to right"))
        problems.append(_("which way up the sheet is could not be checked (no start-column box, digits or known "
                        "sheet): if the photo is upside down, turn it and scan again"))
    star, fields = reading.star, reading.fields
    label, repaired, colour_suspects = _repair(reading.label, reading.runner_up, reading.colour_conf, star)
    star, star_repaired, star_suspects = _repair_stars(label, star, reading.star_conf, reading.star_score)
    labels, labels_read, note = _labels_of(_read_labels(work, H, fit.dark),
                                           COOP_ROW_LABELS if fields else DEFAULT_ROW_LABELS)
    problems += note
    first, later = _read_points(work, H, fit.dark)
    first, first_read, note = _points_of(first, STANDARD_FIRST, pgettext("column points", "first"))
    problems += note
    later, later_read, note = _points_of(later, STANDARD_LATER, pgettext("column points", "later"))
    problems += note

    # confidence and problems
    colour_conf, star_conf = reading.colour_conf.copy(), reading.star_conf.copy()
    # a cell set by the invariants, or one of those of which one must be wrong, is named for checking
    colour_conf[repaired + colour_suspects] = np.minimum(colour_conf[repaired + colour_suspects], REPAIRED_CONFIDENCE)
    star_conf[star_repaired + star_suspects] = np.minimum(star_conf[star_repaired + star_suspects], REPAIRED_CONFIDENCE)
    confidence = np.minimum(colour_conf, star_conf)
    for i in np.argsort(confidence, kind="stable"):
        if confidence[i] >= UNSURE:
            break
        name = cell_name(int(i))
        if i in star_repaired:
            problems.append((_("{cell}: unsure whether it has a star; taken as having one, as only that keeps the "
                               "sheet invariants") if star[i] else
                             _("{cell}: unsure whether it has a star; taken as having none, as only that keeps the "
                               "sheet invariants")).format(cell=name))
        elif i in repaired:
            problems.append(_("{cell}: colour unsure, read as {colour} (rather than {other}) as only that keeps the "
                              "sheet invariants").format(cell=name, colour=_colour(label[i]),
                                                         other=_colour(reading.label[i])))
        elif colour_conf[i] <= star_conf[i]:
            problems.append(_("{cell}: colour unsure, {colour} or {other}").format(
                cell=name, colour=_colour(label[i]), other=_colour(reading.runner_up[i])))
        else:
            problems.append(_("{cell}: unsure whether it has a star").format(cell=name))
    for f in fields:
        if f.number is None:
            problems.append(_("number field at {cell}: the digit could not be read").format(cell=f.cell))
    if not reading.colours_clean:
        problems.append(_("the five colours could not be told apart cleanly (odd light or print): check every cell"))
    problems += [_("the read grid breaks {invariant} (a printed sheet keeps it): check the cells named above").format(
                     invariant=v.invariant)
                 for v in _violations(label, star)]
    if fit.rms > 0.04:
        problems.append(_("the grid lines fit only roughly ({off} cells off): the sheet may be bent").format(
            off=f"{fit.rms:.2f}"))

    corners = cv2.perspectiveTransform(
        np.array([(0, 0), (N_COLS, 0), (N_COLS, N_ROWS), (0, N_ROWS)], np.float64).reshape(-1, 1, 2), H).reshape(-1, 2)
    shape = lambda a: tuple(tuple(a[r * N_COLS:(r + 1) * N_COLS]) for r in range(N_ROWS))  # noqa: E731
    return ScanResult(
        grid=_rows(label, star),
        colours=shape([int(v) for v in label]),
        stars=shape([bool(v) for v in star]),
        number_fields=tuple(sorted(fields, key=lambda f: (int(f.cell[1:]), f.cell[0]))),
        confidence=shape([float(v) for v in confidence]),
        problems=tuple(problems),
        corners=tuple((float(x) / f_work, float(y) / f_work) for x, y in corners),
        fit_error=fit.rms,
        row_labels=labels, first_points=first, later_points=later, labels_read=labels_read,
        points_read=first_read and later_read,
    )
