"""Bringing a game in from an export: reading the file's bytes safely (size, encoding, JSON,
nesting, huge numbers), then checking every field and replaying every event before the game is
stored with codes of its own. The export itself is :meth:`GameSession.export
<nochmal.store.session.GameSession.export>`, next to the format's name and version it writes; an
import creates a session, so it lives above the session module rather than inside it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nochmal.engine import jsonin
from nochmal.engine.errors import InvalidInputError, NochmalError
from nochmal.store.claims import CODE_FIELDS, new_codes
from nochmal.store.db import GameStore
from nochmal.store.events import Fold
from nochmal.store.games import kind_of_meta
from nochmal.store.meta import _loc_text, validate_meta, validate_title
from nochmal.store.session import EXPORT_FIELDS, EXPORT_FORMAT, EXPORT_VERSION, GameSession

DEFAULT_IMPORT_TITLE = "imported game"


def _brief(value: object, limit: int = 40) -> str:
    """A value quoted in an error message: its repr, cut to ``limit`` characters."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**limit:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"  # str() refuses > 4300
    text = repr(value) if isinstance(value, (str, int, float, bool, type(None))) else type(value).__name__
    return text if len(text) <= limit else text[:limit] + "…"


#: Nesting and numbers no game export has: refused before anything looks closer (a JSON file
#: is checked so by :func:`parse_export_bytes`; Python data given to :func:`import_game` too).
IMPORT_MAX_DEPTH = 32
IMPORT_MAX_INT = 10**30


def _out_of_bounds(data: Any) -> str | None:
    """``field <where>: ...`` for the first place nested deeper than :data:`IMPORT_MAX_DEPTH` or
    holding an integer beyond :data:`IMPORT_MAX_INT`, else None (no recursion)."""
    stack = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > IMPORT_MAX_INT:
            return f"field {_loc_text('', path)}: {_brief(value)} is out of range"
        if isinstance(value, (dict, list)):
            if len(path) >= IMPORT_MAX_DEPTH:
                return f"field {_loc_text('', path)}: nested more than {IMPORT_MAX_DEPTH} levels deep"
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((v, path + (k if isinstance(k, int) else str(k)[:40],)) for k, v in items)
    return None


def import_game(store: GameStore, data: Any, *, source: str = "<import>") -> GameSession:
    """Create a new game from an export. Every event is re-validated and replayed first; a
    tampered or corrupt file is rejected naming the first bad event, and nothing is stored."""
    problem = _out_of_bounds(data)
    if problem is not None:
        raise InvalidInputError(f"{source}: {problem}")
    if not isinstance(data, dict):
        raise InvalidInputError(f"{source}: field (top): not a nochmal game export (a JSON object with "
                                f"format {EXPORT_FORMAT!r}), got {type(data).__name__}")
    if data.get("format") != EXPORT_FORMAT:
        raise InvalidInputError(f"{source}: field format: not a nochmal game export (format must be "
                                f"{EXPORT_FORMAT!r}, got {_brief(data.get('format'))})")
    if data.get("version") != EXPORT_VERSION or type(data.get("version")) is not int:
        raise InvalidInputError(f"{source}: field version: export version {_brief(data.get('version'))} is not "
                                f"supported (this program reads version {EXPORT_VERSION})")
    meta = data.get("meta")
    if not isinstance(meta, dict) or not isinstance(meta.get("config"), dict):
        raise InvalidInputError(f"{source}: field meta.config is missing")
    try:
        which = kind_of_meta(meta)  # which game: an export made before there were two is Noch mal!
    except InvalidInputError as err:
        raise InvalidInputError(f"{source}: field meta.game: {err}") from None
    version = meta["config"].get("rules_version", which.rules_version)
    for where, holder in (("rules_version", data), ("meta.rules_version", meta), ("meta.config.rules_version", meta["config"])):
        if holder.get("rules_version", version) != version or type(version) is not int \
                or version not in which.rules_versions:
            raise InvalidInputError(f"{source}: field {where} is {holder.get('rules_version')!r}; this program "
                                    f"replays rules versions {', '.join(map(str, which.rules_versions))} and "
                                    f"the file's rules_version fields must agree")
    unknown = sorted(str(k)[:40] for k in data if k not in EXPORT_FIELDS)
    if unknown:
        raise InvalidInputError(f"{source}: field {unknown[0]}: not a field of a game export "
                                f"({', '.join(EXPORT_FIELDS)})")
    # the game as the app would create it; codes and claims of the file are dropped
    valid = validate_meta({k: v for k, v in meta.items() if k not in CODE_FIELDS}, source, "meta", model=which.meta)
    title = DEFAULT_IMPORT_TITLE if data.get("title") in (None, "") else validate_title(data["title"], source)
    events = data.get("events")
    if not isinstance(events, list):
        raise InvalidInputError(f"{source}: field events must be a list")
    replay = Fold(valid.game, which.events)
    for i, item in enumerate(events):
        try:
            replay.apply(which.events.parse_recorded(item, i), i)
        except NochmalError as err:
            raise InvalidInputError(f"{source}: field events[{i}]: {err}") from None
        except (ValueError, TypeError, KeyError, RecursionError) as err:  # belt and braces: never a traceback
            raise InvalidInputError(f"{source}: field events[{i}]: event {i}: {type(err).__name__}") from None
    # one transaction: the game and all its events, or nothing
    # each decision as the app records it (dice, colours and cells by the engine's names)
    gid = store.create_game(valid.stored() | new_codes(), title=title,
                            events=[which.events.as_recorded(e).model_dump(mode="json") for e in replay.events])
    return GameSession(store, gid)


#: Largest game export accepted (``games import``, the app's upload). Measured: a 6-player co-op
#: game played to the end (greedy bots, 190 events) exports to 58 KB, the longest 6-player base
#: game of 40 between random bots (1,267 events) to 266 KB.
MAX_EXPORT_BYTES = 1024 * 1024


def parse_export_bytes(data: bytes, source: str) -> Any:
    """The JSON value of an export file's bytes. Raises :class:`InvalidInputError` naming
    ``source`` for a file that is too large, not UTF-8, not JSON, nested too deeply or holds
    a number Python will not read (more than 4300 digits, NaN, Infinity)."""
    if len(data) > MAX_EXPORT_BYTES:
        raise InvalidInputError(f"{source}: larger than {MAX_EXPORT_BYTES // 1024} KiB, the limit for a game export")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InvalidInputError(f"{source}: not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start})") from None
    try:
        value = jsonin.loads(text)
    except InvalidInputError as err:
        raise InvalidInputError(f"{source}: not valid JSON: {err}") from None
    return value  # nesting and huge numbers: import_game refuses them, naming the field


def read_export_file(path: str | Path) -> Any:
    """The JSON of a game export file; :class:`InvalidInputError` naming the file if it cannot
    be read (missing, a folder or a device, unreadable) or is no JSON a game export could be."""
    import os
    import stat

    p = Path(path)
    try:
        st = os.stat(p)
        if not stat.S_ISREG(st.st_mode):  # a folder, a FIFO (would block), a device (endless)
            raise InvalidInputError(f"{p}: cannot read: not a regular file")
        if st.st_size > MAX_EXPORT_BYTES:
            raise InvalidInputError(f"{p}: larger than {MAX_EXPORT_BYTES // 1024} KiB, the limit for a game export")
        with open(p, "rb") as fh:
            data = fh.read(MAX_EXPORT_BYTES + 1)
    except OSError as err:
        raise InvalidInputError(f"{p}: cannot read: {err.strerror or err}") from None
    return parse_export_bytes(data, str(p))
