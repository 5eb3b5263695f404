"""Synthetic photos of printed sheets, with their ground truth (tests and accuracy runs).

:func:`render_sheet` draws a sheet flat, as printed: paper, a title, the column letters (the
start column in a dark box), the row labels, the 7x15 coloured cells with print-like colour
variation, the stars, the co-op number fields (circles with a digit on the corner shared by
four cells), the column points under the grid, the colour bonus boxes at the right and the "!"
boxes. :func:`synthetic_photo` puts it on a table and photographs it badly, every distortion
seeded by a :class:`numpy.random.Generator` and each one optional (:class:`Distortions`):
camera tilt up to +-20 degrees, rotation up to 15 degrees, uneven light, a colour cast, a
hand's shadow, noise, blur and a JPEG round trip at quality 60.

``style="printed"`` draws the sheet as the real pads are printed instead (:func:`render_printed`):
black, rounded cells with a lighter inner circle, the print's inks, white letter and point boxes,
the coloured bonus squares at the right; its photos add the sheet filling the frame (corners cut
off), warm light, glare, bent paper, pen crosses and phone- or messaging-app-sized images, and
(when asked for: ``Distortions(second_sheet=True)``) another pad lying beside it, partly in view.

Nothing here is used by the reader (:mod:`nochmal.data.scan.reader`) except through the
photos: the reader does not know the layout drawn here beyond "a grid of 15 x 7 coloured
cells".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from nochmal.engine.cells import COLUMNS, N_COLS, N_ROWS, cell_name
from nochmal.engine.sheet import Sheet, get_sheet

#: The printed colours (BGR) the renderer starts from: the app's palette
#: (:data:`nochmal.ui.sheetview.PALETTE`), yellow green blue red orange.
PRINT_BGR = np.array([(0x3c, 0xcf, 0xf6), (0x4a, 0xbf, 0x7d), (0xdc, 0x9f, 0x4a), (0x8d, 0x55, 0xe9),
                      (0x2f, 0x92, 0xf2)], dtype=np.float32)
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX)
SHIFT = 4  # fixed-point bits for sub-pixel drawing
_ONE = 1 << SHIFT


@dataclass(frozen=True)
class Distortions:
    """Which distortions :func:`synthetic_photo` applies (each one at a random strength)."""

    perspective: bool = True  # camera tilt up to +-20 degrees about both sheet axes
    rotation: bool = True  # up to +-15 degrees in the image plane
    uneven_light: bool = True
    colour_cast: bool = True
    shadow: bool = True  # a hand's shadow
    noise: bool = True
    blur: bool = True
    jpeg: bool = True  # a JPEG round trip at quality 60
    # the printed style's own distortions (None: on for ``style="printed"``, off for the white paper,
    # so that a white-paper photo stays what it was for the same seed)
    fill_frame: bool | None = None  # sometimes the sheet fills the frame, corners cut off, no table in view
    warm_light: bool | None = None  # sometimes a strong warm (tungsten) white balance
    glare: bool | None = None  # one to three glare spots
    bend: bool | None = None  # the sheet slightly bent (not flat)
    pen: bool | None = None  # pen crosses on some cells (a used page)
    # another pad (printed style) lying beside this one on the table, partly in view; off unless asked for,
    # so that the photos of a seed stay what they were
    second_sheet: bool = False

    @classmethod
    def none(cls) -> "Distortions":
        return cls(**{name: False for name in cls.__dataclass_fields__})

    def on(self, name: str, style: str) -> bool:
        """Whether the distortion ``name`` applies to a photo of ``style``."""
        value = getattr(self, name)
        return (style == "printed") if value is None else bool(value)


@dataclass(frozen=True)
class Truth:
    """What the photo shows: ``grid`` as in a sheet file (7 rows of 15 letters y g b r o,
    upper case = star); ``number_fields`` as (top-left cell of the 2x2 square, number)."""

    sheet_id: str
    grid: tuple[str, ...]
    number_fields: tuple[tuple[str, int], ...]
    grid_corners: np.ndarray  # 4x2, where the grid's outer corners (TL, TR, BR, BL) are in the photo
    settings: dict = field(default_factory=dict)  # the drawn distortion parameters (for a report)
    row_labels: tuple[str, ...] = ()
    first_points: tuple[int, ...] = ()
    later_points: tuple[int, ...] = ()


@dataclass(frozen=True)
class SyntheticPhoto:
    image: np.ndarray  # BGR uint8
    truth: Truth


# --------------------------------------------------------------------------- drawing helpers
def _pt(x: float, y: float) -> tuple[int, int]:
    return int(round(x * _ONE)), int(round(y * _ONE))


def _circle(img, centre, radius, colour, thickness=-1):
    if thickness > 0:
        thickness = max(1, int(round(thickness)))
    cv2.circle(img, _pt(*centre), int(round(radius * _ONE)), colour, thickness, cv2.LINE_AA, SHIFT)


def _poly(img, points, colour, thickness=-1):
    pts = np.array([_pt(x, y) for x, y in points], dtype=np.int32)
    if thickness < 0:
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, SHIFT)
    else:
        cv2.polylines(img, [pts], True, colour, max(1, int(round(thickness))), cv2.LINE_AA, SHIFT)


def _text(img, text, centre, height, colour, font, thickness):
    """``text`` centred on ``centre``, its capital height about ``height`` pixels."""
    scale = height / 22.0  # Hershey fonts: capital height about 22 px at scale 1
    thickness = max(1, int(round(thickness)))
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    org = (int(round(centre[0] - w / 2)), int(round(centre[1] + h / 2)))
    cv2.putText(img, text, org, font, scale, colour, thickness, cv2.LINE_AA)


def _rounded_rect(img, x0, y0, x1, y1, radius, colour):
    radius = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
    if radius < 0.5:
        _poly(img, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], colour)
        return
    pts = []
    for cx, cy, a0 in ((x1 - radius, y0 + radius, -90), (x1 - radius, y1 - radius, 0),
                       (x0 + radius, y1 - radius, 90), (x0 + radius, y0 + radius, 180)):
        for a in np.linspace(a0, a0 + 90, 6):
            pts.append((cx + radius * np.cos(np.radians(a)), cy + radius * np.sin(np.radians(a))))
    _poly(img, pts, colour)


def star_points(cx: float, cy: float, outer: float, inner_ratio: float = 0.42, turn: float = 0.0):
    """The 10 corners of a five-pointed star, one point up (``turn`` in degrees)."""
    pts = []
    for k in range(10):
        r = outer if k % 2 == 0 else outer * inner_ratio
        a = np.radians(-90 + 36 * k + turn)
        pts.append((cx + r * np.cos(a), cy + r * np.sin(a)))
    return pts


# --------------------------------------------------------------------------- the flat sheet
@dataclass(frozen=True)
class Layout:
    pitch: float
    grid_x0: float
    grid_y0: float
    width: int
    height: int

    def corners(self) -> np.ndarray:
        x0, y0, p = self.grid_x0, self.grid_y0, self.pitch
        return np.array([(x0, y0), (x0 + N_COLS * p, y0), (x0 + N_COLS * p, y0 + N_ROWS * p), (x0, y0 + N_ROWS * p)],
                        dtype=np.float64)


def render_sheet(sheet: Sheet, rng: np.random.Generator, pitch: float = 56.0) -> tuple[np.ndarray, Layout]:
    """The sheet drawn flat as a printed page (BGR uint8) and where its grid is.

    The grid's cell lattice starts at (``grid_x0``, ``grid_y0``) with ``pitch`` pixels per cell;
    cells are separated by a thin white (or, on some prints, dark) line and the grid has a dark
    frame. Style details (star drawn white with a dark outline or dark, the font, gap width,
    rounded corners) and the ink vary with ``rng``."""
    p = pitch
    left, right, top, bottom = 1.4 * p, 2.2 * p, 1.9 * p, 2.7 * p
    width, height = int(round(left + N_COLS * p + right)), int(round(top + N_ROWS * p + bottom))
    paper = np.array([rng.uniform(236, 255), rng.uniform(238, 255), rng.uniform(240, 255)], dtype=np.float32)
    img = np.empty((height, width, 3), np.uint8)  # OpenCV draws text on 8-bit images only
    img[:] = np.round(paper).astype(np.uint8)
    ink = tuple(float(v) for v in rng.uniform(15, 45, 3))
    font = FONTS[int(rng.integers(len(FONTS)))]
    gap = p * rng.uniform(0.07, 0.12)
    dark_gaps = rng.random() < 0.3
    white_star = rng.random() < 0.75
    radius = p * rng.uniform(0.0, 0.12)
    frame = p * rng.uniform(0.05, 0.09)
    x0, y0 = left, top
    x1, y1 = x0 + N_COLS * p, y0 + N_ROWS * p

    # print-like colour: one ink shift for the whole print, a little per cell, grain per pixel
    # (every printer renders every ink a little differently: a shift for the whole page and one
    # per colour)
    print_shift = rng.normal(0, 6, 3) + rng.uniform(-8, 4) + rng.normal(0, 7, (5, 3))
    palette = np.clip(PRINT_BGR + print_shift, 0, 255)

    title = "NOCH MAL!"
    _text(img, title, (x0 + 2.2 * p, y0 - 1.35 * p), 0.55 * p, ink, font, 0.09 * p)
    _text(img, sheet.spec.name[:28], (x0 + 10.5 * p, y0 - 1.35 * p), 0.3 * p, ink, font, 0.04 * p)

    # frame, gap colour, cells
    _poly(img, [(x0 - gap / 2 - frame, y0 - gap / 2 - frame), (x1 + gap / 2 + frame, y0 - gap / 2 - frame),
                (x1 + gap / 2 + frame, y1 + gap / 2 + frame), (x0 - gap / 2 - frame, y1 + gap / 2 + frame)], ink)
    gap_colour = tuple(float(v) for v in (rng.uniform(40, 90) + rng.normal(0, 3, 3) if dark_gaps else paper))
    _poly(img, [(x0 - gap / 2, y0 - gap / 2), (x1 + gap / 2, y0 - gap / 2), (x1 + gap / 2, y1 + gap / 2),
                (x0 - gap / 2, y1 + gap / 2)], gap_colour)
    letters = "".join(sheet.spec.grid)
    for i, ch in enumerate(letters):
        r, c = divmod(i, N_COLS)
        colour = np.clip(palette[sheet.colour_of[i]] + rng.normal(0, 4, 3), 0, 255)
        cx0, cy0 = x0 + c * p + gap / 2, y0 + r * p + gap / 2
        _rounded_rect(img, cx0, cy0, cx0 + p - gap, cy0 + p - gap, radius, tuple(float(v) for v in colour))
        if ch.isupper():
            pts = star_points(x0 + (c + 0.5) * p, y0 + (r + 0.5) * p, p * rng.uniform(0.3, 0.36),
                              turn=rng.uniform(-4, 4))
            if white_star:
                _poly(img, pts, tuple(float(v) for v in paper))
                _poly(img, pts, ink, thickness=0.035 * p)
            else:
                _poly(img, pts, ink)

    # column letters (start column in a dark box), row labels
    for c in range(N_COLS):
        cx, cy = x0 + (c + 0.5) * p, y0 - 0.6 * p
        if c == sheet.start_col:
            _rounded_rect(img, cx - 0.4 * p, cy - 0.35 * p, cx + 0.4 * p, cy + 0.35 * p, 0.08 * p, ink)
            _text(img, COLUMNS[c], (cx, cy), 0.36 * p, tuple(float(v) for v in paper), font, 0.06 * p)
        else:
            _text(img, COLUMNS[c], (cx, cy), 0.36 * p, ink, font, 0.06 * p)
    for r, label in enumerate(sheet.spec.row_labels):
        _text(img, label, (x0 - 0.6 * p, y0 + (r + 0.5) * p), 0.36 * p, ink, font, 0.06 * p)

    # number fields: a white circle with a dark outline and a digit, on the shared corner
    for number, square in sheet.number_fields:
        i = (square & -square).bit_length() - 1
        r, c = divmod(i, N_COLS)
        centre = (x0 + (c + 1) * p, y0 + (r + 1) * p)
        _circle(img, centre, 0.3 * p, tuple(float(v) for v in paper))
        _circle(img, centre, 0.3 * p, ink, thickness=0.04 * p)
        _text(img, str(number), centre, 0.3 * p, ink, font, 0.05 * p)

    # column points (first in circles, later below), "!" boxes, colour bonus boxes
    for c in range(N_COLS):
        cx = x0 + (c + 0.5) * p
        cy = y1 + 0.65 * p
        _circle(img, (cx, cy), 0.32 * p, ink, thickness=0.03 * p)
        _text(img, str(sheet.first_points[c]), (cx, cy), 0.3 * p, ink, font, 0.05 * p)
        _text(img, str(sheet.later_points[c]), (cx, y1 + 1.35 * p), 0.26 * p, ink, font, 0.04 * p)
    for k in range(sheet.jokers):
        cx, cy = x0 + (k + 0.5) * p * 0.9, y1 + 2.1 * p
        _circle(img, (cx, cy), 0.28 * p, ink, thickness=0.03 * p)
        _text(img, "!", (cx, cy), 0.28 * p, ink, font, 0.05 * p)
    for k in range(5):
        bx, by = x1 + 0.75 * p, y0 + (k + 1) * p
        colour = tuple(float(v) for v in np.clip(palette[k] + rng.normal(0, 4, 3), 0, 255))
        _rounded_rect(img, bx, by - 0.35 * p, bx + 0.7 * p, by + 0.35 * p, 0.1 * p, colour)
        _text(img, "5", (bx + 0.35 * p, by), 0.28 * p, ink, font, 0.05 * p)
        _text(img, "3", (bx + 1.1 * p, by), 0.24 * p, ink, font, 0.04 * p)

    # ink density varies slowly over the page; paper grain
    slow = cv2.resize(rng.normal(0, 1, (4, 7)).astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC)
    img = img.astype(np.float32) * (1 + 0.02 * slow)[..., None]
    img += 2.5 * rng.standard_normal(img.shape, dtype=np.float32)
    layout = Layout(p, x0, y0, width, height)
    return np.clip(img, 0, 255).astype(np.uint8), layout


# --------------------------------------------------------------------------- the photo
def _rotation(ax: float, ay: float, az: float) -> np.ndarray:
    cx, sx, cy, sy, cz, sz = np.cos(ax), np.sin(ax), np.cos(ay), np.sin(ay), np.cos(az), np.sin(az)
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return rz @ rx @ ry


def _table(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A table top: wood, grey, a dark or coloured cloth, with slow shading and grain."""
    kind = rng.integers(4)
    base = {0: rng.uniform((40, 80, 120), (90, 130, 180)),  # wood (BGR)
            1: rng.uniform(90, 170, 1).repeat(3) + rng.normal(0, 6, 3),  # grey
            2: rng.uniform(20, 60, 3),  # dark cloth
            3: rng.uniform((60, 40, 30), (140, 110, 90))[rng.permutation(3)]}[int(kind)]  # coloured cloth
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    slow = cv2.resize(rng.normal(0, 1, (5, 5)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img *= (1 + 0.08 * slow)[..., None]
    if kind == 0:  # wood grain: streaks along one direction
        streaks = cv2.resize(rng.normal(0, 1, (1, 60)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        img *= (1 + 0.08 * streaks)[..., None]
    img += 3 * rng.standard_normal(img.shape, dtype=np.float32)
    return img


def _hand_mask(rng: np.random.Generator, w: int, h: int, target: np.ndarray) -> np.ndarray:
    """A soft hand-shaped shadow (palm and four fingers) reaching from an edge of the photo
    towards a point on the sheet."""
    mask = np.zeros((h, w), np.float32)
    edge = rng.integers(4)
    start = {0: (rng.uniform(0, w), -0.1 * h), 1: (w * 1.1, rng.uniform(0, h)),
             2: (rng.uniform(0, w), h * 1.1), 3: (-0.1 * w, rng.uniform(0, h))}[int(edge)]
    start = np.array(start)
    tip = target + rng.normal(0, 0.08 * min(w, h), 2)
    d = tip - start
    length = np.linalg.norm(d)
    d = d / max(length, 1.0)
    n = np.array([-d[1], d[0]])
    palm_w = rng.uniform(0.12, 0.18) * min(w, h)
    palm_centre = tip - d * (palm_w * 1.6)
    cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in palm_centre), 1.0, int(palm_w * 1.1))
    angle = np.degrees(np.arctan2(d[1], d[0]))
    cv2.ellipse(mask, tuple(int(v) for v in palm_centre), (int(palm_w * 0.9), int(palm_w * 0.75)), angle, 0, 360,
                1.0, -1)
    for k in range(4):
        off = (k - 1.5) * palm_w * 0.42
        base = palm_centre + d * palm_w * 0.6 + n * off
        flen = palm_w * rng.uniform(0.9, 1.4) * (0.8 if k in (0, 3) else 1.0)
        end = base + d * flen + n * off * 0.15
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in end), 1.0, max(2, int(palm_w * 0.3)))
    sigma = rng.uniform(8, 30)
    return cv2.GaussianBlur(mask, (0, 0), sigma)


def varied_edges(sheet: Sheet, rng: np.random.Generator) -> Sheet:
    """``sheet`` with other row labels (seven letters in a row, or 1-7) and other column points
    (first 1-5, later 0 up to the first) drawn from ``rng``: a print the reader cannot have assumed."""
    if rng.random() < 0.5:
        letters = "ABCDEFGHIJKLMNPQRSTUVWXYZ"  # no O, as on the co-op backs (P-V follow N)
        start = int(rng.integers(0, len(letters) - N_ROWS + 1))
        labels = tuple(letters[start:start + N_ROWS])
    else:
        labels = tuple(str(r + 1) for r in range(N_ROWS))
    first = tuple(int(v) for v in rng.integers(1, 6, N_COLS))
    later = tuple(int(rng.integers(0, f + 1)) for f in first)
    spec = sheet.spec.model_copy(update={"row_labels": labels, "first_points": first, "later_points": later})
    return Sheet(spec)


#: The printed pads' inks (BGR; yellow green blue red orange): a warm yellow, a grass green, a light
#: sky blue, a magenta-pink red and an orange close to the yellow
PRINTED_BGR = np.array([(0x2a, 0xcc, 0xf8), (0x4a, 0xb8, 0x6e), (0xe4, 0xb4, 0x4c), (0x84, 0x3c, 0xe4),
                        (0x2a, 0x94, 0xf4)], dtype=np.float32)


def render_printed(sheet: Sheet, rng: np.random.Generator, pitch: float = 56.0) -> tuple[np.ndarray, Layout]:
    """The sheet drawn flat as the real pads are printed (BGR uint8) and where its grid is: black
    paper; rounded cells with a slightly lighter inner circle, thin black gaps; stars as white
    five-pointed outlines; the letters A-O in white rounded boxes above (the start column's in red);
    two rows of white boxes with the column points and a white strip with "?/X =" and the "!"
    circles below; at the right the colour bonus squares ("5 | 3" in each colour), white score
    boxes and a logo. A co-op back adds the row labels (white boxes at the left) and the number
    fields (white discs with a digit)."""
    p = pitch
    coop = bool(sheet.number_fields)
    side = 0.5 * p + (0.95 * p if coop else 0.0)
    bonus_gap = p * rng.uniform(0.25, 0.6)
    left, right, top, bottom = side + 0.4 * p, bonus_gap + 3.4 * p, 1.5 * p, 3.0 * p
    width, height = int(round(left + N_COLS * p + right)), int(round(top + N_ROWS * p + bottom))
    black = rng.uniform(14, 40) + rng.normal(0, 2, 3)
    img = np.empty((height, width, 3), np.uint8)
    img[:] = np.round(np.clip(black, 0, 255)).astype(np.uint8)
    white = tuple(float(v) for v in rng.uniform(228, 252) + rng.normal(0, 3, 3))
    dark = tuple(float(v) for v in black)
    font = FONTS[int(rng.integers(len(FONTS)))]
    gap = p * rng.uniform(0.06, 0.11)
    radius = p * rng.uniform(0.12, 0.22)
    inner = rng.uniform(0.34, 0.42)  # the inner circle's radius, in cells
    lighten = rng.uniform(0.08, 0.2)  # how much lighter the inner circle is
    x0, y0 = left, top
    x1, y1 = x0 + N_COLS * p, y0 + N_ROWS * p
    print_shift = rng.normal(0, 5, 3) + rng.uniform(-8, 4) + rng.normal(0, 6, (5, 3))
    palette = np.clip(PRINTED_BGR + print_shift, 0, 255)
    red = tuple(float(v) for v in palette[3])

    letters = "".join(sheet.spec.grid)
    for i, ch in enumerate(letters):
        r, c = divmod(i, N_COLS)
        colour = np.clip(palette[sheet.colour_of[i]] + rng.normal(0, 4, 3), 0, 255)
        cx0, cy0 = x0 + c * p + gap / 2, y0 + r * p + gap / 2
        _rounded_rect(img, cx0, cy0, cx0 + p - gap, cy0 + p - gap, radius, tuple(float(v) for v in colour))
        centre = (x0 + (c + 0.5) * p, y0 + (r + 0.5) * p)
        _circle(img, centre, inner * p, tuple(float(v) for v in colour + lighten * (255 - colour)))
        if ch.isupper():
            pts = star_points(*centre, p * rng.uniform(0.3, 0.36), inner_ratio=0.45, turn=rng.uniform(-4, 4))
            _poly(img, pts, white, thickness=p * rng.uniform(0.045, 0.07))

    # the letters A-O in white rounded boxes (the start column's letter red)
    for c in range(N_COLS):
        cx, cy = x0 + (c + 0.5) * p, y0 - 0.6 * p
        _rounded_rect(img, cx - 0.4 * p, cy - 0.32 * p, cx + 0.4 * p, cy + 0.32 * p, 0.14 * p, white)
        _text(img, COLUMNS[c], (cx, cy), 0.34 * p, red if c == sheet.start_col else dark, font, 0.06 * p)
    if coop:  # the row labels in white boxes at the left
        for r, label in enumerate(sheet.spec.row_labels):
            cx, cy = x0 - 0.6 * p, y0 + (r + 0.5) * p
            _rounded_rect(img, cx - 0.34 * p, cy - 0.36 * p, cx + 0.34 * p, cy + 0.36 * p, 0.12 * p, white)
            _text(img, label, (cx, cy), 0.36 * p, dark, font, 0.06 * p)
    for number, square in sheet.number_fields:
        i = (square & -square).bit_length() - 1
        r, c = divmod(i, N_COLS)
        centre = (x0 + (c + 1) * p, y0 + (r + 1) * p)
        _circle(img, centre, 0.3 * p, white)
        _circle(img, centre, 0.3 * p, dark, thickness=0.03 * p)
        _text(img, str(number), centre, 0.3 * p, dark, font, 0.05 * p)

    # column points: two rows of white boxes (the start column's digits red), then the "?/X =" strip
    for c in range(N_COLS):
        cx = x0 + (c + 0.5) * p
        ink = red if c == sheet.start_col else dark
        for v, points, h in ((0.65, sheet.first_points[c], 0.3), (1.35, sheet.later_points[c], 0.26)):
            cy = y1 + v * p
            _rounded_rect(img, cx - 0.4 * p, cy - 0.3 * p, cx + 0.4 * p, cy + 0.3 * p, 0.1 * p, white)
            _text(img, str(points), (cx, cy), h * p, ink, font, 0.05 * p)
    sy = y1 + 2.35 * p
    _rounded_rect(img, x0, sy - 0.38 * p, x0 + 11.5 * p, sy + 0.38 * p, 0.2 * p, white)
    _text(img, "?/X =", (x0 + 1.1 * p, sy), 0.3 * p, dark, font, 0.05 * p)
    for k in range(sheet.jokers):
        cx = x0 + 2.6 * p + k * 1.05 * p
        _circle(img, (cx, sy), 0.3 * p, dark, thickness=0.04 * p)
        _text(img, "!", (cx, sy), 0.3 * p, dark, font, 0.05 * p)

    # the colour bonus squares ("5 | 3") in the five colours, white score boxes, a logo
    bx = x1 + bonus_gap
    for k in range(5):
        by = y0 + k * p + gap / 2
        colour = tuple(float(v) for v in np.clip(palette[k] + rng.normal(0, 4, 3), 0, 255))
        _rounded_rect(img, bx, by, bx + 1.7 * p, by + p - gap, radius, colour)
        _text(img, "5", (bx + 0.45 * p, by + 0.45 * p), 0.34 * p, dark, font, 0.06 * p)
        _text(img, "|", (bx + 0.85 * p, by + 0.45 * p), 0.34 * p, dark, font, 0.04 * p)
        _text(img, "3", (bx + 1.25 * p, by + 0.45 * p), 0.34 * p, dark, font, 0.06 * p)
    for k in range(5):
        by = y0 + (5.2 + k * 0.9) * p
        _rounded_rect(img, bx, by, bx + 1.7 * p, by + 0.75 * p, 0.12 * p, white)
        _text(img, ("+", "+", "-", "=", "")[k], (bx - 0.2 * p, by + 0.38 * p), 0.3 * p, white, font, 0.05 * p)
    lx, ly = x1 + bonus_gap + 0.85 * p, y1 + 2.35 * p
    cv2.ellipse(img, (int(lx), int(ly)), (int(1.2 * p), int(0.45 * p)), 0, 0, 360, red, -1, cv2.LINE_AA)
    _text(img, "NOCH MAL!", (lx, ly), 0.22 * p, white, font, 0.04 * p)

    slow = cv2.resize(rng.normal(0, 1, (4, 7)).astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC)
    img = img.astype(np.float32) * (1 + 0.02 * slow)[..., None]
    img += 2.5 * rng.standard_normal(img.shape, dtype=np.float32)
    return np.clip(img, 0, 255).astype(np.uint8), Layout(p, x0, y0, width, height)


def _pen_crosses(flat: np.ndarray, layout: Layout, rng: np.random.Generator) -> int:
    """Pen crosses (blue or black ballpoint) on some of the cells of ``flat``, drawn in place; how many."""
    p = layout.pitch
    ink = tuple(float(v) for v in ((rng.uniform(90, 140), rng.uniform(40, 70), rng.uniform(20, 50))
                                   if rng.random() < 0.6 else rng.uniform(20, 45, 3)))
    n = int(rng.integers(8, 40))
    for i in rng.choice(N_ROWS * N_COLS, n, replace=False):
        r, c = divmod(int(i), N_COLS)
        cx, cy = layout.grid_x0 + (c + 0.5) * p, layout.grid_y0 + (r + 0.5) * p
        a = rng.uniform(0.22, 0.38) * p
        for sx in (-1, 1):
            j = rng.normal(0, 0.04 * p, 4)
            cv2.line(flat, _pt(cx - sx * a + j[0], cy - a + j[1]), _pt(cx + sx * a + j[2], cy + a + j[3]), ink,
                     max(1, int(round(rng.uniform(0.025, 0.045) * p))), cv2.LINE_AA, SHIFT)
    return n


def _bent(flat: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """``flat`` slightly bent: a smooth displacement (a curl along one axis, a wave along the other),
    up to a few tenths of a percent of the page; and the largest displacement in pixels."""
    h, w = flat.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    amp = rng.uniform(0.002, 0.006) * max(w, h)
    phase = rng.uniform(0, np.pi)
    dy = amp * np.sin(np.pi * xx / w + phase) * (yy / h - 0.5) * 2
    dx = 0.5 * amp * np.sin(2 * np.pi * yy / h + phase) * (xx / w - 0.5) * 2
    return cv2.remap(flat, xx + dx, yy + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT), float(amp)


def _camera(rng: np.random.Generator, centre: np.ndarray, rot: np.ndarray, focal: float, keep: np.ndarray,
            fill: float, size: tuple[int, int], *, tries: int, margin: float, shrink: float):
    """Where a pinhole camera (``focal``, turned by ``rot``) puts points of the page: far enough that
    ``keep`` spans ``fill`` of the picture's width, moved back (``fill *= shrink``, at most ``tries``
    times) until it fits within ``margin`` of the picture, then shifted to a random place in the
    room left. Returns the projection (page points -> picture points)."""
    w, h = size
    for _ in range(tries):
        dist = focal * (keep[1, 0] - keep[0, 0]) / (fill * w)

        def project(pts, dist=dist):
            xyz = np.c_[pts - centre, np.zeros(len(pts))] @ rot.T + [0, 0, dist]
            return focal * xyz[:, :2] / xyz[:, 2:3]

        quad = project(keep)
        lo, hi = quad.min(0), quad.max(0)
        span = hi - lo
        if span[0] <= margin * w and span[1] <= margin * h:
            break
        fill *= shrink
    offset = -lo + (np.array([w, h]) - span) * rng.uniform(0.1, 0.9, 2)
    return lambda pts: project(pts) + offset


def _colour_cast(photo: np.ndarray, rng: np.random.Generator, settings: dict) -> np.ndarray:
    """Warm (+) or cool (-) light, plus a little green/magenta."""
    kelvin = rng.uniform(-1, 1)
    gains = np.array([1 - 0.16 * kelvin, 1 + rng.uniform(-0.06, 0.06), 1 + 0.16 * kelvin])  # B G R
    photo *= (gains / gains.max())[None, None, :]
    settings["cast"] = tuple(round(float(g), 2) for g in gains)
    return photo


def _lens(photo: np.ndarray, rng: np.random.Generator, distort: Distortions, settings: dict,
          max_blur: float) -> np.ndarray:
    """Blur (sigma up to ``max_blur``) and sensor noise, as ``distort`` says; the 8-bit picture."""
    if distort.blur:
        sigma = rng.uniform(0.5, max_blur)
        photo = cv2.GaussianBlur(photo, (0, 0), sigma)
        settings["blur"] = round(sigma, 2)
    if distort.noise:
        photo += np.float32(rng.uniform(1.5, 4)) * rng.standard_normal(photo.shape, dtype=np.float32)
    return np.clip(photo, 0, 255).astype(np.uint8)


def _saved(image: np.ndarray, distort: Distortions, settings: dict) -> np.ndarray:
    """The picture as a JPEG of quality 60 would give it back, if ``distort.jpeg``."""
    if not distort.jpeg:
        return image
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 60])
    settings["jpeg"] = 60
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def _printed_photo(sheet: Sheet, rng: np.random.Generator, distort: Distortions,
                   size: tuple[int, int] | None) -> tuple[np.ndarray, np.ndarray, dict]:
    """A photo of the printed-style sheet: (image, grid corners in it, settings)."""
    settings: dict = {"style": "printed"}
    if size is None:  # what phones and messaging apps send
        kind = rng.choice(["camera", "phone", "messaging"], p=[0.6, 0.15, 0.25])
        if kind == "phone":
            size = (4000, 3000)
        elif kind == "messaging":
            w_msg = int(rng.integers(600, 1281))
            size = (w_msg, int(round(w_msg * rng.choice([2 / 3, 3 / 4]))))
        else:
            size = (1600, 1200)
    w, h = size
    settings["size"] = (w, h)
    # the camera's picture, at most 2000 pixels wide (a larger one is scaled up: phone photos are soft)
    rw, rh = (w, h) if w <= 2000 else (2000, int(round(2000 * h / w)))
    if w < 1280:  # a messaging app scales a camera photo down
        rw, rh = 1600, int(round(1600 * h / w))
    pitch = float(rng.uniform(52, 64)) * max(1.0, rw / 1600)
    flat, layout = render_printed(sheet, rng, pitch=pitch)
    if distort.on("pen", "printed"):
        settings["pen"] = _pen_crosses(flat, layout, rng)
    if distort.on("bend", "printed"):
        flat, amp = _bent(flat, rng)
        settings["bend"] = round(amp / layout.pitch, 2)

    tilt_x = rng.uniform(-15, 15) if distort.perspective else 0.0
    tilt_y = rng.uniform(-15, 15) if distort.perspective else 0.0
    turn = rng.uniform(-10, 10) if distort.rotation else 0.0
    settings.update(tilt_x=round(tilt_x, 1), tilt_y=round(tilt_y, 1), rotation=round(turn, 1))
    rot = _rotation(np.radians(tilt_x), np.radians(tilt_y), np.radians(turn))
    focal = rw * rng.uniform(0.9, 1.3)
    fills = distort.on("fill_frame", "printed") and rng.random() < 0.6
    centre = np.array([layout.width / 2, layout.height / 2])
    page = np.array([(0, 0), (layout.width, 0), (layout.width, layout.height), (0, layout.height)], np.float64)
    grid = layout.corners()
    # what must be in the picture: the whole page on a table, or (filling the frame) the grid and a
    # little around it
    keep = page if not fills else np.array([(grid[0, 0] - 0.3 * pitch, grid[0, 1] - 0.3 * pitch),
                                            (grid[2, 0] + 0.3 * pitch, grid[0, 1] - 0.3 * pitch),
                                            (grid[2, 0] + 0.3 * pitch, grid[2, 1] + 0.3 * pitch),
                                            (grid[0, 0] - 0.3 * pitch, grid[2, 1] + 0.3 * pitch)])
    fill = rng.uniform(0.62, 0.92) if not fills else rng.uniform(0.8, 0.97)
    place = _camera(rng, centre, rot, focal, keep, fill, (rw, rh), tries=30, margin=0.97, shrink=0.95)
    H = cv2.getPerspectiveTransform(page.astype(np.float32), place(page).astype(np.float32))
    grid_corners = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), H).reshape(-1, 2)
    cover = cv2.warpPerspective(np.ones(flat.shape[:2], np.float32), H, (rw, rh), flags=cv2.INTER_LINEAR)
    settings["fills_frame"] = bool(fills)
    photo = _table(rng, rw, rh)
    if distort.second_sheet:
        photo = _second_sheet(photo, H, layout, rng, settings)
    sheet_img = cv2.warpPerspective(flat, H, (rw, rh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    photo = photo * (1 - cover[..., None]) + sheet_img.astype(np.float32) * cover[..., None]

    if distort.uneven_light:
        sw, sh = 160, 120
        yy, xx = (np.mgrid[0:sh, 0:sw].astype(np.float32) + 0.5) / [[[sh]], [[sw]]]
        direction = rng.normal(0, 1, 2)
        direction /= np.linalg.norm(direction)
        ramp = (xx - 0.5) * direction[0] + (yy - 0.5) * direction[1]
        vignette = (xx - 0.5) ** 2 + (yy - 0.5) ** 2
        light = 1.0 - rng.uniform(0.1, 0.3) * ramp - rng.uniform(0.1, 0.35) * vignette
        photo *= cv2.resize(np.clip(light, 0.6, 1.1).astype(np.float32), (rw, rh))[..., None]
    if distort.shadow and rng.random() < 0.5:
        target = grid_corners.mean(0) + (grid_corners[1] - grid_corners[0]) * rng.uniform(-0.4, 0.4)
        depth = rng.uniform(0.2, 0.4)
        photo *= (1 - depth * _hand_mask(rng, rw, rh, target)[..., None])
        settings["shadow"] = round(depth, 2)
    if distort.on("glare", "printed"):
        n = int(rng.integers(1, 4))
        spots = np.zeros((rh, rw), np.float32)
        for _ in range(n):
            at = grid_corners[0] + (grid_corners[1] - grid_corners[0]) * rng.uniform(0, 1) + \
                (grid_corners[3] - grid_corners[0]) * rng.uniform(0, 1)
            axes = (max(2, int(rng.uniform(0.3, 1.2) * layout.pitch * rw / layout.width)),
                    max(2, int(rng.uniform(0.2, 0.7) * layout.pitch * rw / layout.width)))
            blob = np.zeros_like(spots)
            cv2.ellipse(blob, tuple(int(v) for v in at), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
            spots = np.maximum(spots, cv2.GaussianBlur(blob, (0, 0), max(axes) * 0.5) * rng.uniform(0.25, 0.5))
        photo = photo + (255 - photo) * spots[..., None]
        settings["glare"] = n
    warm = distort.on("warm_light", "printed") and rng.random() < 0.5
    if warm:  # tungsten light that the phone balances only partly
        gains = np.array([rng.uniform(0.6, 0.8), rng.uniform(0.85, 0.95), 1.0])
        photo *= gains[None, None, :]
        settings["cast"] = tuple(round(float(g), 2) for g in gains)
    elif distort.colour_cast:
        photo = _colour_cast(photo, rng, settings)
    image = _lens(photo, rng, distort, settings, max_blur=1.5)
    if (rw, rh) != (w, h):
        image = cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA if w < rw else cv2.INTER_CUBIC)
        grid_corners = grid_corners * [w / rw, h / rh]
    return _saved(image, distort, settings), grid_corners, settings


def _second_sheet(photo: np.ndarray, H: np.ndarray, layout: Layout, rng: np.random.Generator,
                  settings: dict) -> np.ndarray:
    """``photo`` (the table, float) with another pad lying beside the photographed one (whose page
    ``H`` maps into the photo) on the side where the photo shows the most table, a little apart and
    a little shifted, so that part of it (its grid too) is in view."""
    h, w = photo.shape[:2]
    page = np.array([(0, 0), (layout.width, 0), (layout.width, layout.height), (0, layout.height)], np.float64)
    seen = cv2.perspectiveTransform(page.reshape(-1, 1, 2), H).reshape(-1, 2)
    room = {"left": seen[:, 0].min(), "right": w - seen[:, 0].max(), "top": seen[:, 1].min(),
            "bottom": h - seen[:, 1].max()}
    side = max(room, key=room.get)
    other = get_sheet(str(rng.choice(["standard", "coop-III", "red", "coop-V", "green"])))
    flat, other_layout = render_printed(other, rng, pitch=layout.pitch)
    gap = rng.uniform(0.2, 0.8) * layout.pitch
    along = rng.uniform(-0.25, 0.25)
    offset = {"left": (-other_layout.width - gap, along * layout.height),
              "right": (layout.width + gap, along * layout.height),
              "top": (along * layout.width, -other_layout.height - gap),
              "bottom": (along * layout.width, layout.height + gap)}[side]
    H2 = H @ np.array([[1, 0, offset[0]], [0, 1, offset[1]], [0, 0, 1]], np.float64)
    img = cv2.warpPerspective(flat, H2, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    cover = cv2.warpPerspective(np.ones(flat.shape[:2], np.float32), H2, (w, h), flags=cv2.INTER_LINEAR)
    grid = cv2.perspectiveTransform(other_layout.corners().reshape(-1, 1, 2), H2).reshape(-1, 2)
    inside = np.clip(grid, 0, (w, h))
    settings["second_sheet"] = (other.id, side, round(float(cv2.contourArea(inside.astype(np.float32))
                                                             / max(cv2.contourArea(grid.astype(np.float32)), 1.0)), 2))
    return photo * (1 - cover[..., None]) + img.astype(np.float32) * cover[..., None]


def synthetic_photo(sheet_id: str | Sheet, rng: np.random.Generator, *, distort: Distortions = Distortions(),
                    size: tuple[int, int] | None = None, style: str = "paper") -> SyntheticPhoto:
    """A photo (BGR uint8, ``size`` = (width, height)) of the printed sheet ``sheet_id`` (a shipped
    sheet's id, or a :class:`Sheet`) on a table, distorted as ``distort`` says with strengths drawn
    from ``rng``, and its truth. ``style``: ``"paper"`` (the sheet on white paper, 1600 x 1200 unless
    ``size`` says otherwise) or ``"printed"`` (as the real pads are printed, :func:`render_printed`;
    without a ``size``, one drawn from what phones and messaging apps send: 1600 x 1200, 4000 x 3000 or
    600 x 400 .. 1280 x 960)."""
    sheet = get_sheet(sheet_id) if isinstance(sheet_id, str) else sheet_id
    if style == "printed":
        image, grid_corners, settings = _printed_photo(sheet, rng, distort, size)
        return SyntheticPhoto(image, _truth(sheet, grid_corners, settings))
    if style != "paper":
        raise ValueError(f"unknown style {style!r}")
    size = size or (1600, 1200)
    flat, layout = render_sheet(sheet, rng, pitch=float(rng.uniform(52, 64)))
    image, grid_corners, settings = photograph(flat, layout.corners(), rng, distort, size)
    return SyntheticPhoto(image, _truth(sheet, grid_corners, settings))


def photograph(flat: np.ndarray, corners: np.ndarray, rng: np.random.Generator, distort: Distortions,
               size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, dict]:
    """A photo (``size`` = (width, height)) of the flat page ``flat`` lying on a table, distorted as
    ``distort`` says (white-paper style): the picture, where the page points ``corners`` (4x2) are
    in it, and the drawn settings. Also what a twenty one sheet's synthetic photos are taken with."""
    height_px, width_px = flat.shape[:2]
    w, h = size
    settings: dict = {}

    # where the sheet goes: a pinhole camera looking at the tilted, rotated page
    tilt_x = rng.uniform(-20, 20) if distort.perspective else 0.0
    tilt_y = rng.uniform(-20, 20) if distort.perspective else 0.0
    turn = rng.uniform(-15, 15) if distort.rotation else 0.0
    settings.update(tilt_x=round(tilt_x, 1), tilt_y=round(tilt_y, 1), rotation=round(turn, 1))
    rot = _rotation(np.radians(tilt_x), np.radians(tilt_y), np.radians(turn))
    focal = w * rng.uniform(0.9, 1.3)
    fill = rng.uniform(0.62, 0.92)
    page = np.array([(0, 0), (width_px, 0), (width_px, height_px), (0, height_px)], np.float64)
    centre = np.array([width_px / 2, height_px / 2])
    place = _camera(rng, centre, rot, focal, page, fill, (w, h), tries=20, margin=0.96, shrink=0.92)
    H = cv2.getPerspectiveTransform(page.astype(np.float32), place(page).astype(np.float32))
    grid_corners = cv2.perspectiveTransform(np.asarray(corners, np.float64).reshape(-1, 1, 2), H).reshape(-1, 2)

    photo = _table(rng, w, h)
    sheet_img = cv2.warpPerspective(flat, H, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    cover = cv2.warpPerspective(np.ones(flat.shape[:2], np.float32), H, (w, h), flags=cv2.INTER_LINEAR)
    photo = photo * (1 - cover[..., None]) + sheet_img.astype(np.float32) * cover[..., None]

    if distort.uneven_light:  # a gradient, a bright spot and darker corners
        sw, sh = 160, 120  # the light varies slowly: computed small, then scaled up
        yy, xx = (np.mgrid[0:sh, 0:sw].astype(np.float32) + 0.5) / [[[sh]], [[sw]]]
        direction = rng.normal(0, 1, 2)
        direction /= np.linalg.norm(direction)
        ramp = (xx - 0.5) * direction[0] + (yy - 0.5) * direction[1]
        spot = rng.uniform(0, 1, 2)
        bright = np.exp(-(((xx - spot[0]) ** 2 + ((yy - spot[1]) * h / w) ** 2) / (2 * 0.35 ** 2)))
        vignette = (xx - 0.5) ** 2 + (yy - 0.5) ** 2
        strength = rng.uniform(0.15, 0.4)
        light = 0.95 - strength * ramp + 0.12 * bright - rng.uniform(0.2, 0.5) * vignette
        light = cv2.resize(np.clip(light, 0.55, 1.1).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        photo *= light[..., None]
        settings["light"] = (round(float(light.min()), 2), round(float(light.max()), 2))
    if distort.shadow:
        target = grid_corners.mean(0) + (grid_corners[1] - grid_corners[0]) * rng.uniform(-0.4, 0.4)
        mask = _hand_mask(rng, w, h, target)
        depth = rng.uniform(0.3, 0.5)
        tint = np.array([1.0, 0.97, 0.94]) if rng.random() < 0.5 else np.ones(3)  # skylight: a bluish shadow
        photo *= (1 - depth * mask[..., None] * (2 - tint))
        settings["shadow"] = round(depth, 2)
    if distort.colour_cast:
        photo = _colour_cast(photo, rng, settings)
    image = _saved(_lens(photo, rng, distort, settings, max_blur=1.8), distort, settings)
    return image, grid_corners, settings


def _truth(sheet: Sheet, grid_corners: np.ndarray, settings: dict) -> Truth:
    number_fields = tuple(sorted(((cell_name((sq & -sq).bit_length() - 1), n) for n, sq in sheet.number_fields),
                                 key=lambda f: f[1]))
    return Truth(sheet.id, tuple(sheet.spec.grid), number_fields, grid_corners, settings,
                 tuple(sheet.spec.row_labels), tuple(sheet.first_points), tuple(sheet.later_points))
