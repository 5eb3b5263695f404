"""The Sheets page's "Digitize: scan a photo" tab: a photo of a printed sheet (a file, or the
phone's camera) is read by :func:`nochmal.data.scan.scan`, shown beside what was read, checked
and corrected with one tap per cell, and saved as a user sheet (and, for a co-op back, as one
sheet of the owner's co-op set, :mod:`nochmal.data.coopset`).

The photo goes in through :func:`scan_bytes` (the upload and camera callbacks call it): a file
that is too large, not an image or not a readable sheet leaves a message saying what to try and
changes nothing else. Every scan is kept by the file's hash for the session, so a rerun (every
tap) never reads the photo again. OpenCV and numpy are imported only when a photo comes in.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import threading

import streamlit as st

from nochmal.data import userdata
from nochmal.data.scan.limits import MAX_PHOTO_MB
from nochmal.data.i18n import _, ngettext
from nochmal.engine.cells import CELL_NAMES, COLOUR_LETTERS, N_COLS, cell_index
from nochmal.engine.errors import NochmalError
from nochmal.engine.sheet import COOP_ROW_LABELS, STANDARD_FIRST, STANDARD_LATER
from nochmal.ui import owner
from nochmal.ui.explain import strip_rule_ids
from nochmal.ui.labels import colour_name
from nochmal.ui.safe import code, md
from nochmal.ui.panels.tap_grid import invariant_notes, tap_grid
from nochmal.ui.sheetview import sheet_html

ss = st.session_state

PHOTO_TYPES = ("jpg", "jpeg", "png", "webp")
#: a cell read with less confidence than this is marked for checking (the reader names those below 0.35)
CHECK_BELOW = 0.5
#: the photo beside the result is shown at most this many pixels wide or high
THUMB_PX = 1200
#: scans kept per session (by the file's hash)
CACHE_SIZE = 6
UNDO_DEPTH = 200
#: the source written into the file: a record of where the sheet came from (the file's data, like
#: userdata's "entered by hand from a printed sheet"); it always contains "scanned", before what the
#: person typed in the (empty) Source field
SOURCE = "scanned from a photo"
COOP_LABELS = " ".join(COOP_ROW_LABELS)
STANDARD_POINTS = (" ".join(map(str, STANDARD_FIRST)), " ".join(map(str, STANDARD_LATER)))
_UNREAD = re.compile(r"^\?+\s*[:=]?\s*([A-Za-z]\d+)$")
#: photos read at the same time by this server process, whatever device sent them: each takes up
#: to ~180 MB for a moment (a 64-megapixel JPEG, decoded at a quarter of its pixels)
MAX_SCANS_AT_ONCE = 2
#: how long a photo waits for a free reader before the device is told to try again
SCAN_WAIT_S = 5.0
_SCANS = threading.BoundedSemaphore(MAX_SCANS_AT_ONCE)
#: the client addresses with a photo being read now: one at a time per device (however many tabs
#: it opens), so one device never holds every reader
_READING: set[str] = set()
_READING_LOCK = threading.Lock()


@contextlib.contextmanager
def _one_per_client(client: str):
    """True (and ``client`` marked as reading) unless a photo of ``client`` is being read now."""
    with _READING_LOCK:
        free = client not in _READING
        _READING.add(client)
    try:
        yield free
    finally:
        if free:
            with _READING_LOCK:
                _READING.discard(client)


# --------------------------------------------------------------------------- reading a photo
def _refused(what: str, advice: str) -> dict:
    return {"ok": False, "what": what, "advice": advice}


def _thumbnail(image, corners) -> bytes:
    """The photo scaled down to :data:`THUMB_PX`, with the grid found outlined (JPEG bytes)."""
    import cv2
    import numpy as np

    h, w = image.shape[:2]
    f = min(1.0, THUMB_PX / max(h, w))
    small = cv2.resize(image, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA) \
        if f < 1.0 else image.copy()
    quad = np.array([[x * f, y * f] for x, y in corners], np.float64).round().astype(np.int32)
    thick = max(2, round(max(small.shape[:2]) / 300))
    cv2.polylines(small, [quad.reshape(-1, 1, 2)], True, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.polylines(small, [quad.reshape(-1, 1, 2)], True, (60, 220, 60), thick, cv2.LINE_AA)
    ok, jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return jpeg.tobytes() if ok else b""


def read_photo(data: bytes, client: str = "", reader=None) -> dict:
    """What a photo file shows: ``{"ok": True, "result": ScanResult, "thumb": JPEG bytes}``, or
    ``{"ok": False, "what": ..., "advice": ...}`` for a file that is not a readable sheet, with
    ``"busy": True`` if another photo of the same ``client`` (its address) is being read, or
    :data:`MAX_SCANS_AT_ONCE` photos from other devices were being read for :data:`SCAN_WAIT_S`
    (nothing was read: the same photo may be sent again). ``reader(image)`` reads the decoded photo
    (default: a Noch mal! sheet, :func:`nochmal.data.scan.scan`; a result with ``corners``), under
    the same limits whatever it reads."""
    with _one_per_client(client) as free:
        if not free:
            return dict(_refused(_("A photo from this device is still being read"),
                                 _("Wait until it is shown, then choose the next photo")), busy=True)
        return _read_photo(data, reader)


def _read_photo(data: bytes, reader=None) -> dict:
    from nochmal.data.scan import ScanError, decode_photo, scan

    reader = reader or scan

    if not _SCANS.acquire(timeout=SCAN_WAIT_S):
        return dict(_refused(_("Other devices are having photos read right now"),
                             _("Wait a few seconds, then remove the photo and choose it again")), busy=True)
    try:
        image = decode_photo(data)
        result = reader(image)
        thumb = _thumbnail(image, result.corners)
    except ScanError as err:
        return _refused(err.what, err.advice)
    except Exception as err:  # noqa: BLE001 - whatever a photo does to the reader, the page shows a message
        return _refused(_("The photo could not be read ({error})").format(error=type(err).__name__),
                        _("Take the photo again, from above and in good light"))
    finally:
        image = None  # the decoded photo goes before the next one is let in
        _SCANS.release()
    return {"ok": True, "result": result, "thumb": thumb}


def scan_bytes(name: str, data: bytes) -> bool:
    """Read the photo file ``data`` (called ``name`` on the person's device) and put what was read
    into the editor; a photo that cannot be read leaves its message and changes nothing else.
    Each file is read once per session (kept by its hash). Returns whether the photo was read."""
    data = bytes(data or b"")
    digest = hashlib.sha256(data).hexdigest()
    cache = ss.setdefault("scan_cache", {})
    entry = cache.get(digest)
    if entry is None:
        entry = dict(read_photo(data, client=owner.client_address() or "this machine"), name=str(name or ""))
        if not entry.get("busy"):  # a busy reader is no answer about this photo: not kept
            cache[digest] = entry
        for old in [d for d in cache if d not in (digest, ss.get("scan_loaded"))][:max(0, len(cache) - CACHE_SIZE)]:
            del cache[old]  # the oldest first; never the photo in the editor
    if not entry["ok"]:
        ss["scan_refused"] = (str(name or ""), entry["what"], entry["advice"])
        return False
    ss.pop("scan_refused", None)
    if ss.get("scan_loaded") != digest:
        load(digest, entry["result"])
    return True


def unread_fields(text: str) -> list[str]:
    """The cells of the number fields whose digit is still a ``?``."""
    entries = (e.strip() for e in re.split(r"[\n;,]", text or ""))
    return [m.group(1).upper() for m in map(_UNREAD.match, entries) if m]


def known_lines(text: str) -> str:
    """The number-field text without the entries whose digit is still a ``?``."""
    return "\n".join(e for e in (e.strip() for e in re.split(r"[\n;,]", text or "")) if e and not _UNREAD.match(e))


def load(digest: str, result) -> None:
    """Put a scan into the editor: the grid read, the cells to check, the number fields."""
    ss["scan_loaded"] = digest
    ss["scan_grid"] = list(result.grid)
    ss["scan_undo"] = []
    unsure = [(v, CELL_NAMES[r * N_COLS + c]) for r, row in enumerate(result.confidence) for c, v in enumerate(row)
              if v < CHECK_BELOW]
    ss["scan_unsure"] = [name for _v, name in sorted(unsure)]
    ss["scan_numbers"] = ss["scan_numbers_kept"] = result.number_fields_text()
    ss["scan_labels"] = " ".join(result.row_labels) if result.number_fields else COOP_LABELS
    ss["scan_first"] = " ".join(map(str, result.first_points))
    ss["scan_later"] = " ".join(map(str, result.later_points))
    ss["scan_edges_read"] = (result.labels_read, result.points_read)
    ss["scan_coop"] = bool(result.number_fields) or bool(ss.get("scan_slot_kept"))
    ss.pop("scan_saved", None)
    coopset = _coopset()
    if result.number_fields and coopset is not None and not ss.get("scan_slot_kept") \
            and not (ss.get("scan_id") or "").strip():
        # a co-op back and no slot chosen yet: it goes into the first empty slot of the set
        # (an owner scans I, II, III ... in a row); the select changes it
        ss["scan_slot"] = next_slot(coopset, "")
        slot_chosen()


def take(key: str) -> None:
    """The upload's (or the camera's) callback: read the photo now in the widget ``key``."""
    f = ss.get(key)
    if f is None:
        ss.pop("scan_refused", None)
        return
    scan_bytes(f.name, f.getvalue())


# --------------------------------------------------------------------------- fixes
def numbers_typed() -> None:
    """Keep the number fields typed while the co-op box is unticked (a hidden widget's value goes)."""
    ss["scan_numbers_kept"] = ss.get("scan_numbers", "")


def fix(cell: str) -> None:
    """One tap: the cell takes the chosen colour (and star) and counts as checked."""
    grid = list(ss.get("scan_grid") or [])
    if not grid:
        return
    unsure = list(ss.get("scan_unsure", []))
    ss["scan_grid"] = userdata.paint_cell(grid, cell, ss.get("scan_colour") or "y", bool(ss.get("scan_star")))
    undo = ss.setdefault("scan_undo", [])
    undo.append((grid, unsure))
    del undo[:-UNDO_DEPTH]
    ss["scan_unsure"] = [c for c in unsure if c != cell]


def undo_fix() -> None:
    undo = ss.get("scan_undo") or []
    if undo:
        ss["scan_grid"], ss["scan_unsure"] = undo.pop()


def all_checked() -> None:
    ss.setdefault("scan_undo", []).append((list(ss.get("scan_grid") or []), list(ss.get("scan_unsure", []))))
    ss["scan_unsure"] = []


# --------------------------------------------------------------------------- the co-op set
def _coopset():
    """The co-op set's module, or None while it is not there."""
    try:
        from nochmal.data import coopset
    except ImportError:
        return None
    return coopset


def slot_label(slot: str) -> str:
    return _("co-op sheet {slot} of your set").format(slot=slot) if slot else _("not part of a set")


def slot_name(slot: str) -> str:
    return _("Co-op sheet {slot} (scanned)").format(slot=slot)


def slot_chosen() -> None:
    """A slot picked: the id and name it is saved under are filled in."""
    slot = ss.get("scan_slot") or ""
    ss["scan_slot_kept"] = slot
    coopset = _coopset()
    if slot and coopset is not None:
        ss["scan_id"] = coopset.slot_sheet_id(slot)
        ss["scan_name"] = slot_name(slot)


def next_slot(coopset, after: str) -> str:
    """The slot to scan after ``after``: the first later one that the set leaves empty, else the
    one right after it; "" after the last."""
    slots = list(coopset.SLOTS)
    later = slots[slots.index(after) + 1:] if after in slots else slots
    try:
        filled = coopset.filled_slots()
    except NochmalError:  # a set file that cannot be read: its tab says why
        filled = {}
    return next((slot for slot in later if slot not in filled), later[0] if later else "")


# --------------------------------------------------------------------------- save
def save() -> None:
    refused = owner.refusal(_("Saving a user sheet"))
    if refused:
        ss["scan_message"] = ("error", [refused])
        return
    grid = ss.get("scan_grid")
    if not grid:
        ss["scan_message"] = ("error", [_("Scan a photo of the sheet first.")])
        return
    coop = bool(ss.get("scan_coop"))
    numbers = ss.get("scan_numbers", "")
    unread = unread_fields(numbers) if coop else []
    if unread:
        ss["scan_message"] = ("error", [_("Write the digit of every number field first (in place of the ? at {cells}). "
                                          "Nothing was saved.").format(cells=", ".join(unread))])
        return
    source = (ss.get("scan_source") or "").strip()
    if "scanned" not in source.lower():
        source = f"{SOURCE}: {source}" if source else SOURCE
    slot = (ss.get("scan_slot") or "") if coop else ""
    coopset = _coopset() if slot else None
    sheet_id = (ss.get("scan_id") or "").strip()
    if not sheet_id and coopset is not None:
        sheet_id = coopset.slot_sheet_id(slot)
    try:
        data = _form_sheet_data(grid, sheet_id, numbers, name=ss.get("scan_name", ""), source=source)
        path, warnings = userdata.save_user_sheet(data)
    except NochmalError as err:
        ss["scan_message"] = ("error", [md(strip_rule_ids(p)) for p in userdata.problems_of(err)])
        return
    sid = md(data["id"])
    if warnings:  # the English says "warning(s)" for any number; the German picks its plural form
        text = ngettext("Saved the scanned sheet as user sheet **{sheet_id}** with {n} invariant warning(s) to "
                        "{path}. It is now in the list on the **View** tab and can be picked for a new game.",
                        "Saved the scanned sheet as user sheet **{sheet_id}** with {n} invariant warning(s) to "
                        "{path}. It is now in the list on the **View** tab and can be picked for a new game.",
                        len(warnings))
    else:
        text = _("Saved the scanned sheet as user sheet **{sheet_id}** to {path}. It is now in the list on the "
                 "**View** tab and can be picked for a new game.")
    lines = [("success", text.format(sheet_id=sid, n=len(warnings), path=code(path)))]
    if slot:
        try:
            if coopset is None:
                raise ImportError("nochmal.data.coopset")
            coopset.assign(slot, data["id"])
        except (ImportError, NochmalError, OSError) as err:
            lines.append(("error", _("It could not be recorded as co-op sheet {slot} of your set: {problem}").format(
                slot=slot, problem=md(strip_rule_ids(str(err))))))
        else:
            lines.append(("success", _("**{sheet_id}** is now co-op sheet {slot} of your set.").format(
                sheet_id=sid, slot=slot)))
    ss["scan_saved"] = lines
    ss["view_sheet"] = data["id"]
    next_sheet(next_slot(coopset, slot) if coopset is not None and slot else "")


def next_sheet(slot: str = "") -> None:
    """Empty the tab for the next photo (the message of the last save stays); ``slot``: the slot
    of the owner's co-op set that the next sheet will fill."""
    ss["scan_round"] = ss.get("scan_round", 0) + 1  # new upload and camera widgets: empty
    for key in ("scan_loaded", "scan_grid", "scan_undo", "scan_unsure", "scan_refused", "scan_message"):
        ss.pop(key, None)
    ss["scan_slot_kept"] = slot
    # the form's fields: filled in again (for the next slot) when the next photo is read
    for key in ("scan_slot", "scan_id", "scan_name", "scan_source", "scan_numbers", "scan_numbers_kept", "scan_labels",
                "scan_first", "scan_later", "scan_edges_read"):
        ss.pop(key, None)


def start_over() -> None:
    next_sheet(ss.get("scan_slot_kept", ""))
    ss.pop("scan_saved", None)


# --------------------------------------------------------------------------- pieces
def _show(kind_lines) -> None:
    for kind, line in kind_lines:
        (st.success if kind == "success" else st.error)(line)


def _unsure_mask(cells) -> int:
    return sum(1 << cell_index(c) for c in cells)


def _form_sheet_data(rows: list[str], sheet_id: str, numbers: str, name: str = "", source: str = "") -> dict:
    """:func:`userdata.sheet_data` of the grid ``rows`` with the form's co-op box, row labels,
    failed-roll boxes and column points, the number fields ``numbers``."""
    return userdata.sheet_data(rows, id=sheet_id, name=name, source=source, coop=bool(ss.get("scan_coop")),
                               row_labels=ss.get("scan_labels", COOP_LABELS), number_fields=numbers,
                               failed_roll_boxes=int(ss.get("scan_failed", 3)),
                               first_points=ss.get("scan_first", ""), later_points=ss.get("scan_later", ""))


def form_data(rows: list[str]) -> tuple[dict | None, list[str]]:
    """The sheet the form holds, for the picture (number fields still asked for left out), and
    the problems of what was typed."""
    try:
        return _form_sheet_data(rows, "preview", known_lines(ss.get("scan_numbers", ""))), []
    except NochmalError as err:
        return None, [md(strip_rule_ids(p)) for p in userdata.problems_of(err)]


def show_invariants(violations) -> None:
    invariant_notes(violations, _(
        "The sheet read keeps every invariant of the printed sheets (21 cells per colour, blocks 1–6, 15 stars, "
        "one per column, ...)."), ngettext(
        "**{n} invariant warning(s).** Printed base-game sheets keep these, so a broken one usually means a cell "
        "was read wrongly: check the cells it names. A co-op back may differ; you can save anyway.",
        "**{n} invariant warning(s).** Printed base-game sheets keep these, so a broken one usually means a cell "
        "was read wrongly: check the cells it names. A co-op back may differ; you can save anyway.",
        len(violations)))


def details(coopset) -> None:
    """Id, name, source, the co-op extras and the slot of the co-op set."""
    kept = ss.get("scan_slot_kept", "") if coopset is not None else ""
    for key, value in (("scan_id", coopset.slot_sheet_id(kept) if kept else ""), ("scan_name", slot_name(kept) if kept
                       else ""), ("scan_source", ""), ("scan_labels", COOP_LABELS), ("scan_failed", 3),
                       ("scan_coop", False), ("scan_first", STANDARD_POINTS[0]), ("scan_later", STANDARD_POINTS[1])):
        ss.setdefault(key, value)
    st.checkbox(_("Co-op back (rows labelled P–V, number fields, failed-roll boxes)"), key="scan_coop",
                help=_("Ticked by itself when the photo shows number fields."))
    if ss["scan_coop"] and coopset is not None:
        slots = ["", *coopset.SLOTS]
        if ss.get("scan_slot") not in slots:
            ss["scan_slot"] = kept if kept in slots else ""
        st.selectbox(_("This sheet is"), slots, key="scan_slot", format_func=slot_label, on_change=slot_chosen,
                     help=_("Saving records the sheet as that sheet of your co-op set (the tab **Your co-op set**)."))
    c1, c2 = st.columns(2)
    c1.text_input(_("Sheet id"), key="scan_id", placeholder=_("e.g. my-coop-I"),
                  help=_("1–64 letters, digits, '-', '_' or '.'; the ids of shipped sheets are reserved"))
    c2.text_input(_("Name"), key="scan_name", placeholder=_("e.g. Co-op sheet I (my printed pad)"))
    st.text_input(_("Source"), key="scan_source", placeholder=_("e.g. my own pad"),
                  help=_("Where the sheet comes from (optional); the saved sheet also says that it was scanned from "
                         "a photo."))
    sid = (ss.get("scan_id") or "").strip()
    if userdata.ID_PATTERN.match(sid) and userdata.user_sheet_path(sid).is_file():
        st.caption(_("A user sheet **{sheet_id}** exists; saving replaces it.").format(sheet_id=md(sid)))
    labels_read, points_read = ss.get("scan_edges_read", (False, False))
    if ss["scan_coop"]:
        c1, c2 = st.columns([3, 1])
        c1.text_input(_("Row labels, top to bottom"), key="scan_labels",
                      help=_("As read in the photo.") if labels_read else
                      _("Not found in the photo: the co-op backs' P–V. Change them if your sheet prints others."))
        c2.number_input(_("Failed-roll boxes"), min_value=1, max_value=5, step=1, key="scan_failed")
    c1, c2 = st.columns(2)
    c1.text_input(_("Column points, first to fill (A–O)"), key="scan_first",
                  help=_("The circled points under the columns: what a column earns whoever fills it first."))
    c2.text_input(_("Column points, later (A–O)"), key="scan_later",
                  help=_("The points below them: what a column earns everyone who fills it later."))
    st.caption(_("Row labels and column points as read in the photo.") if (labels_read or not ss["scan_coop"])
               and points_read else _("Not everything under and beside the grid could be read in the photo: the "
                                      "usual labels and points are filled in. Compare them with your sheet."))


# --------------------------------------------------------------------------- the tab
def photo_input() -> None:
    n = ss.get("scan_round", 0)
    c1, c2 = st.columns(2)
    upload = f"scan_upload_{n}"
    c1.file_uploader(_("Photo of a printed sheet (JPEG, PNG or WebP, at most {mb} MB)").format(mb=MAX_PHOTO_MB),
                     type=list(PHOTO_TYPES), key=upload, max_upload_size=MAX_PHOTO_MB, on_change=take, args=(upload,))
    c2.toggle(_("📷 Take the photo with this device's camera"), key="scan_camera_on")
    if ss.get("scan_camera_on"):
        camera = f"scan_camera_{n}"
        # at the camera's 1080p: by default the widget captures at its own size on screen (about 350 px wide on
        # a phone), too few pixels to read the sheet
        c2.camera_input(_("Photo of the sheet"), key=camera, on_change=take, args=(camera,), resolution="1080p")
    refused = ss.get("scan_refused")
    if refused:
        name, what, advice = refused
        st.error(_("**{file} could not be read as a sheet:** {what}.  \n**What to try:** {advice}.").format(
            file=md(name) or _("The photo"), what=md(what), advice=md(advice)))


def check_and_correct(grid: list[str], unsure: list[str]) -> None:
    st.subheader(_("Check and correct"))
    st.markdown(_("Compare the result with your sheet. To fix a cell, choose its colour (and whether it has a star), "
                  "then tap the cell: one tap per fix."))
    c1, c2, c3 = st.columns([3, 1, 1], vertical_alignment="bottom")
    ss.setdefault("scan_colour", "y")
    c1.segmented_control(_("Colour"), list(COLOUR_LETTERS), key="scan_colour", required=True,
                         format_func=lambda letter: colour_name(COLOUR_LETTERS.index(letter)))
    c2.toggle(_("★ Star"), key="scan_star")
    c3.button(_("↩ Undo last fix"), key="scan_undo_fix", on_click=undo_fix, disabled=not ss.get("scan_undo"))
    tap_grid("scan", grid, fix, set(unsure))
    if unsure:
        st.warning(ngettext("**Check this cell** (⚠, read with little certainty): {cells}. A tap sets it and counts "
                            "as checked.",
                            "**Check these cells** (⚠, read with little certainty): {cells}. A tap sets each and "
                            "counts as checked.", len(unsure)).format(cells=", ".join(unsure)))
        st.button(_("They are all right"), key="scan_all_checked", on_click=all_checked)
    if ss.get("scan_coop"):
        unread = unread_fields(ss.get("scan_numbers", ss.get("scan_numbers_kept", "")))
        for cell in unread:
            st.warning(_("**Number field at {cell}:** its digit could not be read. Write the digit you see on your "
                         "sheet in place of the ? below.").format(cell=cell))
        ss.setdefault("scan_numbers", ss.get("scan_numbers_kept", ""))
        st.text_area(_("Number fields, one `number: cell` a line"), key="scan_numbers", height=150,
                     on_change=numbers_typed,
                     help=_("cell = the top-left cell of the 2×2 square whose middle holds the round number field"))


def scan_panel(may_change: bool) -> None:
    """The tab: photo in, result beside it, fixes, invariants, save."""
    st.markdown(_("Take a photo of a printed sheet, from above and in good light, with the whole coloured grid in the "
                  "picture. The app reads every cell's colour, the stars and the co-op number fields; you check the "
                  "result, fix what was misread with a tap, and save it as a user sheet."))
    photo_input()
    saved = ss.get("scan_saved")
    if saved:
        _show(saved)
    loaded = ss.get("scan_loaded")
    entry = ss.get("scan_cache", {}).get(loaded) if loaded else None
    grid = ss.get("scan_grid")
    if entry is None or not grid:
        kept = ss.get("scan_slot_kept", "")
        if saved:
            st.info(_("**Scan the next sheet:** {slot}.").format(slot=slot_label(kept)) if kept else
                    _("**Scan the next sheet**, or switch to the **View** tab to see the one just saved."))
        elif not ss.get("scan_refused"):  # a photo that could not be read has said so above: one message
            st.info(_("No photo yet: choose one or take one with the camera; what was read appears here."))
        return
    result = entry["result"]
    unsure = [c for c in ss.get("scan_unsure", []) if c in CELL_NAMES]

    data, typed = form_data(grid)
    try:
        sheet, violations = userdata.preview_sheet(data or userdata.sheet_data(grid, id="preview"))
    except NochmalError as err:  # e.g. number fields that overlap: the picture shows the grid alone
        typed += [md(strip_rule_ids(p)) for p in userdata.problems_of(err)]
        sheet, violations = userdata.preview_sheet(userdata.sheet_data(grid, id="preview"))
    left, right = st.columns(2)
    with left:
        st.image(entry["thumb"], caption=_("Your photo ({file}); the green frame is where the grid was found.").format(
            file=md(entry["name"]) or _("camera")))
    with right:
        st.html(sheet_html(sheet, highlight=_unsure_mask(unsure), colourblind=ss.get("colourblind", False),
                           title=_("What was read (with your fixes)")))
        if unsure:
            st.caption(_("A dashed outline marks a cell read with little certainty."))
    if result.problems:
        st.markdown(_("**What the reader noticed in the photo:**"))
    for problem in result.problems:
        st.warning(md(problem))
    check_and_correct(grid, unsure)
    for p in typed:
        st.error(p)
    show_invariants(violations)

    st.subheader(_("Save"))
    details(_coopset())
    st.button(_("Save as user sheet"), key="scan_save", type="primary", on_click=save, disabled=not may_change)
    message = ss.pop("scan_message", None)
    if message:
        kind, lines = message
        for line in lines:
            (st.success if kind == "success" else st.error)(line)
    st.button(_("Start over with another photo"), key="scan_start_over", on_click=start_over)
