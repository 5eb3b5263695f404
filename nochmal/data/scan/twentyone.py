"""Read a photo of a printed *twenty one* sheet: 5 rows of 6 die fields, each a coloured square
with its printed value (issue 44 item 3). What it reads is a proposal: the owner corrects it in the
typing form before it is saved (:mod:`nochmal.data.twentyoneuser`).

The pieces are the Noch mal! reader's (:mod:`nochmal.data.scan.reader`): the same photo checks and
decoding (:func:`~nochmal.data.scan.reader.decode_photo`, the smallest photo, the same
:class:`~nochmal.data.scan.reader.ScanError`), the same scaling, corner ordering and digit reading
by template matching (:func:`~nochmal.data.scan.reader._glyph_scores`). What differs is the grid:

1. **Find the fields.** Dark outlines and dark or coloured squares (an adaptive threshold) give
   contours; those of a square's shape and of the most common size are the die fields (the
   wider score boxes at the rows' ends, the title's letters and the table are not).
2. **Fit the lattice.** The quadrilateral around them gives a first mapping of the photo to 6 x 5
   field units; each field is given its column and row, and a homography is fitted to the
   fields' centres. At least 20 of the 30 fields must be found and lie on the lattice.
3. **Read.** A field's colour is the median of four patches between its centre and its corners,
   relative to the paper in the gaps around it (so uneven light and a colour cast drop out); each
   row takes the six colours in the order that fits best (each row has each colour once), and a
   field whose nearest colour was not the one it got is named. The printed value is read by
   template matching (dark digits on white and yellow fields, light ones on the others).
4. **Check.** Values that cannot be read, fields read unsurely and rows whose values rise from
   left to right are listed in :attr:`TwentyOneScan.problems`, never silently passed on.

Only synthetic photos (:mod:`nochmal.data.scan.twentyone_synth`) were tried: no photo of a printed
twenty one sheet was available. The layout supposed (coloured squares with a dark outline, the value
in the middle) is a guess until one is.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

import cv2
import numpy as np

from nochmal.data.i18n import N_, _
from nochmal.data.scan.reader import (_ADVICE_LIGHT, ScanError, _as_bgr, _best_glyph, _glyph_scores, _order,
                                      _quad_of, _refuse, _scaled, decode_photo)
from nochmal.data.twentyoneuser import where
from nochmal.engine.twentyone.components import COLOUR_LETTERS, N_FIELDS, N_ROWS

WORK_SIZE = 1600
READ_PX = 60  # pixels per field unit while reading colours
MARGIN = 0.6  # units of margin around the grid in the canonical image
DIGIT_PX = 120
MIN_FIELDS = 20  # of 30: fewer found is no grid
#: the die colours as commonly printed (BGR), relative to white paper: white, black, red, blue, yellow, green
REFERENCE_BGR = np.array([(245, 245, 245), (40, 40, 40), (60, 65, 215), (205, 110, 50), (55, 200, 240),
                          (85, 155, 60)], np.float32)
UNSURE = 0.25  # a field whose colour is read with less confidence than this is named
_ADVICE = N_("Photograph the printed twenty one sheet from above, in good light, so that all 30 fields (5 rows of "
             "6) are in the picture and fill most of it")


@dataclass(frozen=True)
class TwentyOneScan:
    """What :func:`scan_twentyone` read: ``colours[row][field]`` colour letters (w k r b y g),
    ``values[row][field]`` the printed values (None: unread), ``confidence`` per field (0..1, its
    colour), ``problems`` what a person should check, ``corners`` the grid's outer corners in the
    photo (TL, TR, BR, BL)."""

    colours: tuple[tuple[str, ...], ...]
    values: tuple[tuple[int | None, ...], ...]
    confidence: tuple[tuple[float, ...], ...]
    problems: tuple[str, ...]
    corners: tuple[tuple[float, float], ...]


def _no_grid() -> ScanError:
    return _refuse("no-grid", _("No grid of 5 rows of 6 coloured fields was found in the photo"), _ADVICE)


def _squares(work: np.ndarray) -> list[tuple[np.ndarray, float, np.ndarray]]:
    """(centre, side, outline points) of every square-shaped contour of the most common size."""
    gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    block = max(15, (max(h, w) // 20) | 1)
    dark = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 7)
    contours, _hierarchy = cv2.findContours(dark, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for c in contours:
        area = cv2.contourArea(c)
        if not 0.0008 * h * w < area < 0.06 * h * w:
            continue
        (cx, cy), (rw, rh), _angle = cv2.minAreaRect(c)
        hull = cv2.contourArea(cv2.convexHull(c))
        if not 0.75 < rw / max(rh, 1e-6) < 1.33 or area < 0.8 * rw * rh or area < 0.9 * hull:
            continue
        found.append((np.array([cx, cy]), float(np.sqrt(area)), c.reshape(-1, 2)))
    if not found:
        return []
    sides = np.array([s for _c, s, _p in found])
    best = max(sides, key=lambda s: int(np.sum(np.abs(sides / s - 1) < 0.3)))
    kept = [f for f in found if abs(f[1] / best - 1) < 0.35]
    out: list[tuple[np.ndarray, float, np.ndarray]] = []
    for f in sorted(kept, key=lambda f: -f[1]):  # an outline's inner and outer edge: keep the outer
        if all(np.linalg.norm(f[0] - g[0]) > 0.3 * g[1] for g in out):
            out.append(f)
    return out


def _lattice(squares) -> tuple[np.ndarray, float]:
    """The homography from field units (field ``p`` of row ``r`` centred at ``(p + 0.5, r + 0.5)``)
    to the photo, and the fields' RMS distance (units) from it; or a ScanError."""
    if len(squares) < MIN_FIELDS:
        raise _no_grid()
    quad = _quad_of(np.concatenate([p for _c, _s, p in squares]).astype(np.float32))
    if quad is None:
        raise _no_grid()
    quad, sideways = _order(quad)
    if sideways:
        raise _refuse("sideways", _("The sheet lies sideways in the photo"),
                      N_("Turn the photo (or the phone) so that the sheet's rows run from left to right"))
    box = np.array([(0, 0), (N_FIELDS, 0), (N_FIELDS, N_ROWS), (0, N_ROWS)], np.float32)
    H0 = cv2.getPerspectiveTransform(box, quad.astype(np.float32))
    centres = np.array([c for c, _s, _p in squares], np.float64)
    units = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), np.linalg.inv(H0)).reshape(-1, 2)
    slots: dict[tuple[int, int], int] = {}
    for i, (u, v) in enumerate(units):
        p, r = int(np.floor(u)), int(np.floor(v))
        if 0 <= p < N_FIELDS and 0 <= r < N_ROWS:
            slots.setdefault((r, p), i)
    if len(slots) < MIN_FIELDS:
        raise _no_grid()
    src = np.array([(p + 0.5, r + 0.5) for r, p in slots], np.float64)
    dst = centres[list(slots.values())]
    H, _mask = cv2.findHomography(src, dst, 0)
    if H is None:
        raise _no_grid()
    back = cv2.perspectiveTransform(dst.reshape(-1, 1, 2), np.linalg.inv(H)).reshape(-1, 2)
    rms = float(np.sqrt(np.mean(np.sum((back - src) ** 2, axis=1))))
    if rms > 0.12:
        raise _no_grid()
    return H, rms


def _canonical(work: np.ndarray, H: np.ndarray) -> np.ndarray:
    U = np.array([[READ_PX, 0, MARGIN * READ_PX], [0, READ_PX, MARGIN * READ_PX], [0, 0, 1]], np.float64)
    size = (int(round((N_FIELDS + 2 * MARGIN) * READ_PX)), int(round((N_ROWS + 2 * MARGIN) * READ_PX)))
    return cv2.warpPerspective(work, H @ np.linalg.inv(U), size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def _patch(canon: np.ndarray, u: float, v: float, r: float = 0.05) -> np.ndarray:
    x, y, k = int(round((u + MARGIN) * READ_PX)), int(round((v + MARGIN) * READ_PX)), max(1, int(r * READ_PX))
    return np.median(canon[y - k:y + k + 1, x - k:x + k + 1].reshape(-1, 3).astype(np.float32), axis=0)


def _lab(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.clip(bgr, 0, 1).astype(np.float32).reshape(1, -1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3)


REFERENCE_LAB = _lab(REFERENCE_BGR / 245.0)


def _field_colours(canon: np.ndarray) -> np.ndarray:
    """Each field's colour relative to the paper around it (rows x fields x BGR, paper = 1)."""
    out = np.zeros((N_ROWS, N_FIELDS, 3), np.float32)
    for r in range(N_ROWS):
        for p in range(N_FIELDS):
            cu, cv = p + 0.5, r + 0.5
            ink = np.median([_patch(canon, cu + du, cv + dv) for du in (-0.25, 0.25) for dv in (-0.25, 0.25)], axis=0)
            paper = np.array([_patch(canon, p, cv, 0.02), _patch(canon, p + 1, cv, 0.02),
                              _patch(canon, cu, r, 0.02), _patch(canon, cu, r + 1, 0.02)])
            white = paper[np.argsort(paper.sum(1))[-2:]].mean(0)  # the two brightest: a shadow's edge is not paper
            out[r, p] = ink / np.maximum(white, 1.0)
    return out


def _distances(rel: np.ndarray) -> np.ndarray:
    lab = _lab(rel.reshape(-1, 3))
    d = lab[:, None, :] - REFERENCE_LAB[None, :, :]
    d[..., 0] *= 0.5  # lightness varies most with the light
    return np.linalg.norm(d, axis=2).reshape(N_ROWS, N_FIELDS, len(REFERENCE_LAB))


def scan_twentyone(image) -> TwentyOneScan:
    """Read the twenty one sheet in ``image`` (BGR ``numpy`` array); a :class:`ScanError` says what
    went wrong and what to try."""
    img = _as_bgr(image)
    work, _f = _scaled(img, WORK_SIZE)
    if float(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY).mean()) < 30:
        raise _refuse("too-dark", _("The photo is too dark"), _ADVICE_LIGHT)
    H, _rms = _lattice(_squares(work))
    dist = _distances(_field_colours(_canonical(work, H)))
    inverted = 255 - work
    colours, values, confidence, problems = [], [], [], []
    for r in range(N_ROWS):
        perm = min(permutations(range(N_FIELDS)), key=lambda q: sum(dist[r, p, q[p]] for p in range(N_FIELDS)))
        row_c, row_v, row_conf = [], [], []
        for p in range(N_FIELDS):
            order = np.argsort(dist[r, p])
            d1, d2 = dist[r, p, order[0]], dist[r, p, order[1]]
            conf = float(np.clip(1 - d1 / max(d2, 1e-6), 0, 1))
            got = perm[p]
            if got != order[0]:
                problems.append(_("{where}: its colour looked nearest {seen}; set to {set} because each row has "
                                  "each colour once. Check it.").format(where=where(r + 1, p + 1),
                                                                       seen=COLOUR_LETTERS[order[0]],
                                                                       set=COLOUR_LETTERS[got]))
                conf = min(conf, UNSURE / 2)
            elif conf < UNSURE:
                problems.append(_("{where}: the colour is unsure; check it.").format(where=where(r + 1, p + 1)))
            light = REFERENCE_LAB[got, 0] > 60  # dark digits on white and yellow fields
            scores = _glyph_scores(work if light else inverted, H, p + 0.5, r + 0.5, glyphs="123456", height=0.4,
                                   half=0.32, px=DIGIT_PX)
            digit, _digit_conf = _best_glyph(scores, 0.25)
            value = None if digit is None else int(digit)
            if value is None:
                problems.append(_("{where}: the printed value could not be read; type it in.").format(
                    where=where(r + 1, p + 1)))
            row_c.append(COLOUR_LETTERS[got])
            row_v.append(value)
            row_conf.append(round(conf, 2))
        read = [v for v in row_v if v is not None]
        if any(b > a for a, b in zip(read, read[1:])):
            problems.append(_("{where}: the values read rise from left to right ({values}); check them.").format(
                where=where(r + 1), values=" ".join("?" if v is None else str(v) for v in row_v)))
        colours.append(tuple(row_c))
        values.append(tuple(row_v))
        confidence.append(tuple(row_conf))
    box = np.array([(0.5 - 0.43, 0.5 - 0.43), (N_FIELDS - 0.07, 0.07), (N_FIELDS - 0.07, N_ROWS - 0.07),
                    (0.07, N_ROWS - 0.07)], np.float64)
    corners = cv2.perspectiveTransform(box.reshape(-1, 1, 2), H).reshape(-1, 2)
    return TwentyOneScan(tuple(colours), tuple(values), tuple(confidence), tuple(problems),
                         tuple((float(x), float(y)) for x, y in corners))


def scan_twentyone_bytes(data: bytes) -> TwentyOneScan:
    """:func:`scan_twentyone` of the photo in a file's bytes (decoded as the Noch mal! reader does)."""
    return scan_twentyone(decode_photo(data))
