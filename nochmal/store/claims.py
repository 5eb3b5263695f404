"""A game's codes and seat claims, as its meta holds them: the codes a new game gets, the links
and the short code as people see them, which device claimed which seat and when it was last seen,
codes retired by a take-over or a renewal, and the host's take-over requests.

Separate from :mod:`nochmal.store.access` (how any code is made, compared in constant time and
throttled) and from :mod:`nochmal.store.session` (which decides when a seat is claimed and writes
the meta through the store): these functions only make or read meta fields, or return a meta with
one change applied; :func:`mark_seat_seen` alone writes, one field, through the store."""

from __future__ import annotations

import hashlib
import hmac
import time
from urllib.parse import urlencode

from nochmal.store.access import new_short_code, new_token, normalize_short_code
from nochmal.store.db import GameStore


#: Meta fields that are codes or claims: never exported, never taken from an imported file.
CODE_FIELDS = ("host_code", "join_token", "join_code", "seat_codes", "claims", "revoked_seat_codes",
               "revoked_join", "seat_seen", "takeover_requests")
#: Longest code compared (longer input is cut first: a code is never that long).
MAX_CODE_LENGTH = 200
#: Seat codes of a seat that a later claim took over, remembered (as digests) per seat: the
#: device still holding one is told "taken over by another device" rather than "no game".
REVOKED_PER_SEAT = 8
#: Join tokens and short codes that the host renewed away, remembered (as digests): a device
#: that still holds one is told "the join link was renewed" rather than "no game".
REVOKED_JOIN = 8
#: A claimed seat whose device was seen (claimed it, or its page looked at the game) within this
#: many seconds is *held*: another device may take it over only with the host's consent. A phone
#: whose page stays open is seen every :data:`SEEN_EVERY_S`; a phone gone longer than this (closed,
#: broken, flat) leaves its seat to the next device that opens the seat's link, without asking.
SEAT_HELD_S = 600.0
#: How often a seat's device records that it is still there (at most).
SEEN_EVERY_S = 30.0
#: A take-over request the host has not answered (or whose answer its phone has not fetched)
#: within this many seconds lapses.
TAKEOVER_TTL_S = 600.0


def new_codes() -> dict:
    """The codes of a new (or newly imported) game, and no claims. ``host_code`` opens it with
    every seat, ``join_token`` (the join link) lets a device claim one seat, ``join_code`` is
    the short code a person may type instead of opening the link (throttled harder)."""
    return {"host_code": new_token(), "join_token": new_token(), "join_code": new_short_code(),
            "seat_codes": {}, "claims": {}}


def format_short_code(code: object) -> str:
    """The short code as shown to people: two groups of four letters (``ABCD-EFGH``); dashes
    and spaces are ignored when it is typed."""
    text = str(code or "")
    return f"{text[:4]}-{text[4:]}" if len(text) == 8 else text


def table_url_path(game_id: str, code: str) -> str:
    """The app path (with query) that opens ``game_id`` on the Table page with ``code``."""
    return "/table?" + urlencode({"game": game_id, "code": code})


def join_url_path(game_id: str, join_token: str, seat: int | None = None) -> str:
    """The join link's path: the app's main page (Start; being the default page it lives at
    ``/``), ready to claim a seat. With ``seat`` (0-based) the link claims that seat at once
    (``&claim=N``, N counted from 1)."""
    query = {"game": game_id, "join": join_token}
    if seat is not None:
        query["claim"] = str(int(seat) + 1)
    return "/?" + urlencode(query)


def _code_digest(code: object) -> str:
    given = code.strip()[:MAX_CODE_LENGTH] if isinstance(code, str) else ""
    return hashlib.sha256(given.encode("utf-8", "surrogatepass")).hexdigest()


def taken_over_seat(meta: object, code: object) -> int | None:
    """The seat whose own code ``code`` was until another claim took the seat over (its code
    is in the meta's ``revoked_seat_codes``), else None. Only the holder of such an old code
    learns it: nothing is said about a code that never opened the game."""
    revoked = meta.get("revoked_seat_codes") if isinstance(meta, dict) else None
    if not isinstance(code, str) or not code.strip() or not isinstance(revoked, dict):
        return None
    digest = _code_digest(code).encode()
    found = None
    for seat, digests in revoked.items():
        for d in digests if isinstance(digests, list) else ():
            if isinstance(d, str) and hmac.compare_digest(digest, d.encode()) and found is None:
                found = seat
    return int(found) if isinstance(found, str) and found.isdigit() else None


def seat_held(meta: object, seat: int, device: object = None, at: float | None = None) -> bool:
    """Whether ``seat`` is claimed by a device other than ``device`` that was seen within
    :data:`SEAT_HELD_S` (taking it over then needs the host's consent)."""
    if not isinstance(meta, dict):
        return False
    holder = (meta.get("claims") or {}).get(str(seat))
    if holder is None or holder == device:
        return False
    seen = (meta.get("seat_seen") or {}).get(str(seat))
    if isinstance(seen, bool) or not isinstance(seen, (int, float)):
        return False  # a claim from before seats were seen: nobody to ask
    return (time.time() if at is None else at) - seen < SEAT_HELD_S


def _request_live(req: object, at: float) -> bool:
    return (isinstance(req, dict) and isinstance(req.get("at"), (int, float))
            and at - req["at"] < TAKEOVER_TTL_S)


def join_renewed(meta: object, code: object) -> bool:
    """Whether ``code`` was this game's join token or short join code before the host renewed
    them (only a holder of such a code learns it)."""
    revoked = meta.get("revoked_join") if isinstance(meta, dict) else None
    if not isinstance(code, str) or not code.strip() or not isinstance(revoked, list):
        return False
    digests = {_code_digest(code).encode(), _code_digest(normalize_short_code(code)).encode()}
    found = False
    for d in revoked:
        for mine in digests:
            if isinstance(d, str) and hmac.compare_digest(mine, d.encode()):
                found = True
    return found


def mark_seat_seen(store: GameStore, game_id: str, seat: int, device: str) -> bool:
    """``device``, which plays ``seat``, is still there (its page looked at the game): the seat
    stays held (:func:`seat_held`). Nothing is written unless the seat is still this device's."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        return False
    done = []

    def seen(meta: dict) -> dict:
        if (meta.get("claims") or {}).get(str(seat)) != device:
            raise _NotMine()
        done.append(True)
        return dict(meta, seat_seen=dict(meta.get("seat_seen") or {}, **{str(seat): time.time()}))

    try:
        store.change_meta(game_id, seen)
    except _NotMine:
        return False
    return bool(done)


class _NotMine(Exception):
    """Raised inside a meta change to write nothing."""


def _retire_seat_code(meta: dict, seat: int, codes: dict) -> dict:
    """``meta`` with seat ``seat``'s current code (if any) among its revoked ones: the device
    still holding it is told "taken over by another device"."""
    if not codes.get(str(seat)):
        return meta
    revoked = dict(meta.get("revoked_seat_codes") or {})
    kept = [d for d in revoked.get(str(seat)) or [] if isinstance(d, str)][-(REVOKED_PER_SEAT - 1):]
    revoked[str(seat)] = kept + [_code_digest(codes[str(seat)])]
    return dict(meta, revoked_seat_codes=revoked)


def _claimed_meta(meta: dict, seat: int, device: object, code: str) -> dict:
    """``meta`` with ``seat`` claimed by ``device`` under the new ``code`` (an old code of the
    seat retired), seen now."""
    claims = dict(meta.get("claims") or {})
    codes = dict(meta.get("seat_codes") or {})
    meta = _retire_seat_code(meta, seat, codes)
    claims[str(seat)], codes[str(seat)] = str(device), code
    seen = dict(meta.get("seat_seen") or {}, **{str(seat): time.time()})
    return dict(meta, claims=claims, seat_codes=codes, seat_seen=seen)
