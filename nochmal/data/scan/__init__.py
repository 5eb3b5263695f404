"""Reading a photo of a printed sheet (issue 20).

- :mod:`nochmal.data.scan.reader`: :func:`~nochmal.data.scan.reader.scan` finds the 7x15 grid
  in a photo, corrects perspective and lighting and reads every cell's colour, the stars and
  the co-op number fields (OpenCV).
- :mod:`nochmal.data.scan.synth`: a renderer of any sheet as a synthetic, distorted photo with
  its ground truth, for the tests and ``tools/scan_accuracy.py``.

Both need OpenCV (``opencv-python-headless``), imported only when a scan or a rendering is
asked for, so importing :mod:`nochmal.data` stays light.
"""

from __future__ import annotations

__all__ = ["scan", "scan_bytes", "decode_photo", "MAX_PHOTO_BYTES", "ScanError", "ScanResult", "FoundNumberField"]



def __getattr__(name: str):  # lazy: the reader imports cv2
    if name in __all__:
        from . import reader

        return getattr(reader, name)
    raise AttributeError(name)
