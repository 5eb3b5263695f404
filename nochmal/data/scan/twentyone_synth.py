"""Synthetic photos of a *twenty one* sheet, with their truth (tests only; no real photo of a printed
twenty one sheet was available when this was written).

:func:`render_twentyone` draws a sheet flat as this module supposes it is printed: a title, then
5 rows of 6 die fields, each a coloured rounded square with a dark outline and its printed value
in its middle (dark ink on white and yellow, white ink on the others), and a wider score box at
the end of each row. :func:`twentyone_photo` lays it on a table and photographs it with the
Noch mal! renderer's camera, light, shadow, colour cast, noise, blur and JPEG
(:func:`nochmal.data.scan.synth.photograph`).
"""

from __future__ import annotations

import cv2
import numpy as np

from nochmal.data.scan.synth import Distortions, photograph
from nochmal.engine.twentyone.components import N_FIELDS, N_ROWS
from nochmal.engine.twentyone.sheets import TwentyOneSheet

#: the colours as printed (BGR): white, black, red, blue, yellow, green
PRINT_BGR = np.array([(242, 244, 244), (40, 38, 36), (59, 65, 217), (208, 111, 47), (53, 203, 243), (84, 158, 58)],
                     dtype=np.float32)
#: the field square's side, as a share of the distance between two fields
SQUARE = 0.86
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX)


def render_twentyone(sheet: TwentyOneSheet, rng: np.random.Generator, pitch: float = 90.0
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The flat page (BGR uint8) and where its grid's outer corners are (TL, TR, BR, BL: the outer
    edges of the corner fields)."""
    left, top = 0.7 * pitch, 1.7 * pitch
    width = int(round(left + (N_FIELDS + 1.9) * pitch))
    height = int(round(top + (N_ROWS + 0.6) * pitch))
    page = np.full((height, width, 3), (238, 244, 246), np.uint8)
    font = FONTS[int(rng.integers(len(FONTS)))]
    cv2.putText(page, "twenty one", (int(left), int(0.9 * pitch)), font, pitch / 45, (60, 60, 60), 2, cv2.LINE_AA)
    side = SQUARE * pitch
    radius = int(0.12 * pitch)
    for r in range(N_ROWS):
        for p in range(N_FIELDS):
            x0, y0 = left + p * pitch, top + r * pitch
            colour = sheet.colour_at[r][p]
            fill = np.clip(PRINT_BGR[colour] + rng.normal(0, 4, 3), 0, 255)
            _rounded(page, x0, y0, side, radius, tuple(int(c) for c in fill))
            _rounded(page, x0, y0, side, radius, (30, 30, 30), thickness=max(1, int(0.03 * pitch)))
            ink = (20, 20, 20) if colour in (0, 4) else (250, 250, 250)
            text = str(sheet.value_at[r][p])
            scale = 0.4 * pitch / 22.0
            thick = max(1, int(round(0.05 * pitch)))
            (tw, th), _base = cv2.getTextSize(text, font, scale, thick)
            cv2.putText(page, text, (int(x0 + side / 2 - tw / 2), int(y0 + side / 2 + th / 2)), font, scale, ink,
                        thick, cv2.LINE_AA)
        # the row's score box: wider than a field, not a die field
        bx = left + N_FIELDS * pitch + 0.15 * pitch
        cv2.rectangle(page, (int(bx), int(top + r * pitch)), (int(bx + 1.5 * pitch), int(top + r * pitch + side)),
                      (30, 30, 30), max(1, int(0.03 * pitch)), cv2.LINE_AA)
    corners = np.array([(left, top), (left + (N_FIELDS - 1) * pitch + side, top),
                        (left + (N_FIELDS - 1) * pitch + side, top + (N_ROWS - 1) * pitch + side),
                        (left, top + (N_ROWS - 1) * pitch + side)], np.float64)
    return page, corners


def _rounded(img: np.ndarray, x0: float, y0: float, side: float, radius: int, colour, thickness: int = -1) -> None:
    x0, y0, x1, y1 = int(round(x0)), int(round(y0)), int(round(x0 + side)), int(round(y0 + side))
    if thickness < 0:
        cv2.rectangle(img, (x0 + radius, y0), (x1 - radius, y1), colour, -1)
        cv2.rectangle(img, (x0, y0 + radius), (x1, y1 - radius), colour, -1)
        for cx, cy in ((x0 + radius, y0 + radius), (x1 - radius, y0 + radius), (x1 - radius, y1 - radius),
                       (x0 + radius, y1 - radius)):
            cv2.circle(img, (cx, cy), radius, colour, -1, cv2.LINE_AA)
        return
    for a, b in (((x0 + radius, y0), (x1 - radius, y0)), ((x0 + radius, y1), (x1 - radius, y1)),
                 ((x0, y0 + radius), (x0, y1 - radius)), ((x1, y0 + radius), (x1, y1 - radius))):
        cv2.line(img, a, b, colour, thickness, cv2.LINE_AA)
    for (cx, cy), start in (((x0 + radius, y0 + radius), 180), ((x1 - radius, y0 + radius), 270),
                            ((x1 - radius, y1 - radius), 0), ((x0 + radius, y1 - radius), 90)):
        cv2.ellipse(img, (cx, cy), (radius, radius), 0, start, start + 90, colour, thickness, cv2.LINE_AA)


def twentyone_photo(sheet: TwentyOneSheet, rng: np.random.Generator, *, distort: Distortions = Distortions(),
                    size: tuple[int, int] = (1600, 1200)) -> tuple[np.ndarray, np.ndarray]:
    """A photo (BGR uint8) of ``sheet`` on a table, distorted as ``distort`` says, and where the
    grid's outer corners are in it."""
    flat, corners = render_twentyone(sheet, rng, pitch=float(rng.uniform(80, 100)))
    image, grid_corners, _settings = photograph(flat, corners, rng, distort, size)
    return image, grid_corners
