"""A game being played and saved: the event log folded into a state, persisted in the store
one event at a time. Every client (app, CLI) records decisions through :class:`GameSession`:
an entry is checked on a copy of the state first, so an illegal one changes nothing, and the
append carries the sequence number it expects, so a second writer gets a conflict."""

from __future__ import annotations

import hashlib
import hmac
import math
import random
import re
import secrets
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlencode

from pydantic import (AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, Strict, TypeAdapter,
                      ValidationError, ValidationInfo, field_validator, model_validator)

from nochmal.engine.version import RULES_VERSION, SUPPORTED_RULES_VERSIONS
from nochmal.engine.dice import Roll
from nochmal.engine import jsonin
from nochmal.engine.errors import InvalidInputError, NochmalError
from nochmal.store.events import (Fold, UndoEvent, as_recorded, event_for, fold, now, parse_recorded_event,
                                  recorded_at)
from nochmal.engine.game import Game, game_from_config, variant
from nochmal.store.access import (SHORT_CODE_LENGTH, Throttle, match_code, new_short_code, new_token,
                     normalize_short_code)
from nochmal.bots.policies import POLICY_NAMES
from nochmal.engine.sheet import StrictInt, not_blank, plain_text
from nochmal.store.db import GameStore, StoreError

EXPORT_FORMAT = "nochmal-game"
EXPORT_VERSION = 1
EXPORT_FIELDS = ("format", "version", "rules_version", "title", "meta", "events")


def digital_roll(seed: int, roll_index: int, n_colour: int, n_number: int) -> Roll:
    """The digital dice of roll ``roll_index`` in a game with ``seed``: the same roll every time
    (a game can be replayed; undoing a roll and rolling again gives the same faces)."""
    return Roll.sample(random.Random(f"nochmal-dice-{seed}-{roll_index}"), n_colour, n_number)


# --------------------------------------------------------------------------- codes
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


# --------------------------------------------------------------------------- what a game is
SEAT_NAME_MAX = 40
TITLE_MAX = 80
SEED_MAX = 2**63 - 1
DEFAULT_IMPORT_TITLE = "imported game"


def _timestamp(text: str) -> str:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text[:40]!r} is not an ISO 8601 timestamp") from None
    return text


#: A seat's name: short plain text (markup characters are fine: every page escapes them).
SeatName = Annotated[str, Strict(), Field(min_length=1, max_length=SEAT_NAME_MAX), AfterValidator(plain_text),
                     AfterValidator(not_blank)]
#: A game's title, by the same rule.
Title = Annotated[str, Strict(), Field(min_length=1, max_length=TITLE_MAX), AfterValidator(plain_text),
                  AfterValidator(not_blank)]
#: When a game was created: as the app records moments (with a time zone, a year it can show).
Timestamp = Annotated[str, Strict(), Field(max_length=40), AfterValidator(_timestamp), AfterValidator(recorded_at)]
SheetId = Annotated[str, Strict(), Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")]
PolicyName = Literal[POLICY_NAMES]
TITLE_ADAPTER = TypeAdapter(Title)


class GameConfig(BaseModel):
    """What rebuilds a game (``Game.config()``); checked by building the game from it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    mode: Literal["base", "solo", "coop"]
    sheets: Annotated[tuple[SheetId, ...], Field(min_length=1, max_length=6)]
    mission: Annotated[StrictInt, Field(ge=1, le=99)] | None = None
    tableau: dict[str, Any] | None = None
    rules_version: StrictInt | None = None  # which versions replay is the engine's to say
    _game: Game | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _builds_a_game(self) -> "GameConfig":
        if variant(self.mode).has_mission and (self.mission is None or self.tableau is None):
            raise ValueError("a co-op config needs a mission and a tableau")
        try:
            self._game = game_from_config(self.model_dump(exclude_none=True))
        except NochmalError as err:
            raise ValueError(str(err)) from None
        except (KeyError, TypeError, AttributeError, IndexError) as err:  # belt and braces
            raise ValueError(f"cannot build a game from it ({type(err).__name__}: {err})") from None
        return self

    @property
    def game(self) -> Game:
        assert self._game is not None
        return self._game


class GameMeta(BaseModel):
    """What a game is, as the app and the CLI create it and as an imported file may bring it:
    one model for both, so nothing a file brings can break a page that a new game would not.
    Codes and claims are not part of it (:data:`CODE_FIELDS`: new for every game)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    config: GameConfig
    kind: Literal["companion", "digital"]
    seat_names: Annotated[tuple[SeatName, ...], Field(min_length=1, max_length=6)]
    bots: Annotated[tuple[PolicyName | None, ...], Field(min_length=1, max_length=6)]
    seed: Annotated[StrictInt, Field(ge=0, le=SEED_MAX)] | None = None
    rules_version: StrictInt | None = None
    created: Timestamp | None = None

    @field_validator("seat_names", "bots")
    @classmethod
    def _one_per_seat(cls, value: tuple, info: ValidationInfo) -> tuple:
        config = info.data.get("config")
        if config is not None and len(value) != config.game.n_seats:
            raise ValueError(f"{len(value)} entries for the {config.game.n_seats} seats of this game")
        return value

    @field_validator("bots")
    @classmethod
    def _bots_play_digital_games(cls, value: tuple, info: ValidationInfo) -> tuple:
        if info.data.get("kind") == "companion" and any(value):
            raise ValueError("bots play only in digital games (kind 'digital')")
        return value

    @field_validator("rules_version")
    @classmethod
    def _same_version_as_config(cls, value: int | None, info: ValidationInfo) -> int | None:
        config = info.data.get("config")
        if value is not None and config is not None and value != config.game.rules_version:
            raise ValueError(f"is {value}, but meta.config plays rules version {config.game.rules_version}")
        return value

    @property
    def game(self) -> Game:
        return self.config.game

    def stored(self) -> dict:
        """The meta as the store keeps it (the engine's own config), without codes."""
        return {"config": self.game.config(), "kind": self.kind, "seat_names": list(self.seat_names),
                "seed": self.seed, "bots": list(self.bots), "rules_version": self.game.rules_version,
                "created": self.created or now()}


def _loc_text(prefix: str, loc: tuple) -> str:
    out = prefix
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


def validation_message(err: ValidationError, prefix: str = "") -> str:
    """``field <where>: <what>`` of the first error (and how many more there are)."""
    errors = err.errors(include_url=False, include_input=False)
    first = errors[0]
    msg = re.sub(r"^(Value|Assertion) error, ", "", first["msg"])
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"field {_loc_text(prefix, first['loc'])}: {msg}{more}"


def validate_meta(data: Any, where: str = "", prefix: str = "") -> GameMeta:
    """``data`` as a :class:`GameMeta`, else InvalidInputError naming ``where`` and the field."""
    try:
        return GameMeta.model_validate(data)
    except ValidationError as err:
        raise InvalidInputError(f"{where}: " * bool(where) + validation_message(err, prefix)) from None
    except RecursionError:
        raise InvalidInputError(f"{where}: " * bool(where) + f"field {prefix or 'meta'}: nested too deeply") from None


def validate_title(title: Any, where: str = "") -> str:
    try:
        return TITLE_ADAPTER.validate_python(title)
    except ValidationError as err:
        raise InvalidInputError(f"{where}: " * bool(where) + validation_message(err, "title")) from None


class AccessError(NochmalError):
    """A code did not open a game."""


class NoGameError(AccessError):
    """No game with this id and code: the same answer for an unknown id and a wrong code."""

    def __init__(self) -> None:
        super().__init__("No game with this id and code.")


class TooManyGuessesError(AccessError):
    """Too many wrong codes from this client (or for this game's short code): wait."""

    def __init__(self, wait: float) -> None:
        self.wait = float(wait)
        super().__init__(f"too many wrong codes, try again in {max(1, math.ceil(self.wait))} s")


class SeatTakenError(NochmalError):
    """Another device claimed the seat between this device's look and its claim."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        super().__init__(f"seat {seat + 1}: this seat was just claimed by another device — try again")


class ConsentNeededError(NochmalError):
    """The seat's device is still there: taking it over needs the host's consent (a request)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        super().__init__(f"seat {seat + 1} is played on a device that is still connected: the mission "
                         f"leader must allow a take-over")


class RequestPendingError(NochmalError):
    """Another device already asks to take this seat over."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        super().__init__(f"seat {seat + 1}: another device already asks to take this seat over — try again later")


class GameOverError(NochmalError):
    """The game has ended: no seat can be claimed any more."""

    def __init__(self) -> None:
        super().__init__("this game has ended: its seats can no longer be claimed")


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


class GameSession:
    def __init__(self, store: GameStore, game_id: str) -> None:
        self.store = store
        self.game_id = game_id
        self.refresh()

    # ---- creation / loading ------------------------------------------------
    @classmethod
    def create(cls, store: GameStore, game: Game, *, title: str = "", seat_names: list[str] | None = None,
               kind: str = "companion", seed: int | None = None, bots: list[str | None] | None = None,
               events: list[dict] | tuple[dict, ...] = ()) -> "GameSession":
        """A new game in ``store``. ``events`` (dicts of events 0, 1, ..., e.g. a whole game played
        by ``nochmal play --save``) are written in the same transaction as the game."""
        n = game.n_seats
        meta = validate_meta({
            "config": game.config(),
            "kind": kind,
            "seat_names": list(seat_names or [f"Player {i + 1}" for i in range(n)]),
            "seed": seed if seed is not None else (secrets.randbelow(10**9) if kind == "digital" else None),
            "bots": list(bots or [None] * n),
            "rules_version": game.rules_version,
            "created": now(),
        })
        title = validate_title(title or f"{game.mode} game")
        gid = store.create_game(meta.stored() | new_codes(), title=title, events=events)
        return cls(store, gid)

    @classmethod
    def load(cls, store: GameStore, game_id: str) -> "GameSession":
        return cls(store, game_id)

    def refresh(self) -> None:
        """Re-read the game from the store (another device may have added events)."""
        info = self.store.get(self.game_id)
        self.meta = info.meta
        self.title = info.title
        self.game = game_from_config(self.meta["config"])
        self._fold = fold(self.game, self.store.events(self.game_id))

    def _tokens(self) -> dict[str, object]:
        m = self.meta
        codes = {"host": m.get("host_code"), "join": m.get("join_token")}
        seat_codes = m.get("seat_codes")
        for seat, code in (seat_codes.items() if isinstance(seat_codes, dict) else ()):
            codes[f"seat {seat}"] = code
        return codes

    def identify(self, code: object) -> tuple[str | None, int | None]:
        """What ``code`` opens: ("host", None) — everything; ("join", None) — the join link's
        token, or ("short", None) — the short join code: claim a seat; ("seat", n) — seat n's own
        code; (None, None) — nothing. Every code of the game is compared, in constant time."""
        return _identify(code, self._tokens(), self.meta.get("join_code"))

    def access(self, code: object) -> str | None:
        """What a device holding ``code`` may do: "host" (everything), "seat" (claim a seat and
        enter its own crosses), or None (neither read nor change the game). Not throttled:
        a client that takes codes from people goes through :func:`open_with_code`."""
        role, _ = self.identify(code)
        return None if role is None else "host" if role == "host" else "seat"

    def seat_of_code(self, code: object) -> int | None:
        """The seat a seat code (handed out by :meth:`claim_seat`) belongs to, else None."""
        role, seat = self.identify(code)
        return seat if role == "seat" else None

    def claim_seat(self, seat: int, device: str, *, seen: object = ..., host: bool = False) -> str:
        """``device`` plays ``seat``: returns the seat's own code, which lets a device enter
        that seat's crosses and nothing else.

        A claim is a compare-and-set in the store: ``seen`` is who held the seat when the
        device looked (default: as this session last read it). If the seat's claim changed
        since, :class:`SeatTakenError` ("just claimed by another device — try again") is raised
        and nothing is written. Claims of other seats made meanwhile are kept (the claim is
        applied to the meta as stored at that moment). Claiming a seat that a device held when
        this one looked takes it over (a phone was replaced): a new code, the old one stops
        working. The code returned is the one stored.

        Unless ``host`` (the host's own decision: a consent given, a seat moved), a seat held by
        another device (:func:`seat_held`: seen within :data:`SEAT_HELD_S`) is not taken over:
        :class:`ConsentNeededError`, and the device may :meth:`request_takeover`. A game that
        has ended refuses every claim but the host's (:class:`GameOverError`)."""
        self._check_seat(seat)
        if not host and self.state.is_terminal():
            raise GameOverError()
        if seen is ...:
            seen = (self.meta.get("claims") or {}).get(str(seat))
        code = new_token()

        def claim(meta: dict) -> dict:
            claims = dict(meta.get("claims") or {})
            if claims.get(str(seat)) != seen:
                raise SeatTakenError(seat)
            if not host and seat_held(meta, seat, device):
                raise ConsentNeededError(seat)
            return _claimed_meta(meta, seat, device, code)

        self.meta = self.store.change_meta(self.game_id, claim)
        return code

    def _check_seat(self, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.n_seats:
            raise InvalidInputError(f"seat {seat!r}: this game has seats 1-{self.game.n_seats}")
        bots = self.meta.get("bots") or []
        if seat < len(bots) and bots[seat]:
            raise InvalidInputError(f"seat {seat + 1} is played by the {bots[seat]} bot")

    # ---- take-over requests (the host's consent) ------------------------------------------
    def request_takeover(self, seat: int, device: str, *, seen: object = ...) -> str:
        """``device`` asks to take over ``seat``, which another device holds: a request stored
        in the meta (compare-and-set, like a claim) for the host to allow or refuse. Returns the
        request's secret token: only the device holding it learns the answer
        (:meth:`takeover_answer`). One live request per seat: another device's pending one gives
        :class:`RequestPendingError`; a seat no longer held is claimed at once instead (the
        token's answer is then "allowed" already). Refused for an ended game."""
        self._check_seat(seat)
        if self.state.is_terminal():
            raise GameOverError()
        if seen is ...:
            seen = (self.meta.get("claims") or {}).get(str(seat))
        token, code = new_token(), new_token()

        def ask(meta: dict) -> dict:
            at = time.time()
            claims = dict(meta.get("claims") or {})
            if claims.get(str(seat)) != seen:
                raise SeatTakenError(seat)
            requests = {k: v for k, v in dict(meta.get("takeover_requests") or {}).items() if _request_live(v, at)}
            old = requests.get(str(seat))
            if old is not None and old.get("device") != str(device) and old.get("status") in ("pending", "allowed"):
                raise RequestPendingError(seat)
            request = {"token": _code_digest(token), "device": str(device), "holder": seen, "at": at}
            if not seat_held(meta, seat, device, at):  # nobody left to ask: claimed at once
                meta = _claimed_meta(meta, seat, device, code)
                request |= {"status": "allowed", "code": code}
            else:
                request["status"] = "pending"
            requests[str(seat)] = request
            return dict(meta, takeover_requests=requests)

        self.meta = self.store.change_meta(self.game_id, ask)
        return token

    def takeover_requests(self) -> list[dict]:
        """The requests waiting for the host's answer: ``{"seat", "device", "holder", "at"}``,
        oldest first."""
        at = time.time()
        out = []
        for seat, req in (self.meta.get("takeover_requests") or {}).items():
            if _request_live(req, at) and req.get("status") == "pending" and str(seat).isdigit():
                out.append({"seat": int(seat), "device": req.get("device"), "holder": req.get("holder"),
                            "at": req["at"]})
        return sorted(out, key=lambda r: r["at"])

    def answer_takeover(self, seat: int, allow: bool) -> bool:
        """The host's answer to the pending request for ``seat``: allowed, the requesting device
        gets the seat (a new code; the old phone's code is retired and says "taken over");
        refused, nothing changes but the request's answer. Returns False if there was no
        pending request (answered meanwhile, or lapsed)."""
        self._check_seat(seat)
        code = new_token()
        answered = []

        def answer(meta: dict) -> dict:
            at = time.time()
            requests = {k: v for k, v in dict(meta.get("takeover_requests") or {}).items() if _request_live(v, at)}
            req = requests.get(str(seat))
            if req is None or req.get("status") != "pending":
                return dict(meta, takeover_requests=requests)
            answered.append(True)
            if allow:
                meta = _claimed_meta(meta, seat, req.get("device"), code)
                requests[str(seat)] = dict(req, status="allowed", code=code, at=at)
            else:
                requests[str(seat)] = dict(req, status="refused", at=at)
            return dict(meta, takeover_requests=requests)

        self.meta = self.store.change_meta(self.game_id, answer)
        return bool(answered)

    def takeover_answer(self, seat: int, token: object) -> tuple[str, str | None]:
        """What became of the request with ``token`` for ``seat``: ("pending", None),
        ("allowed", the seat's code), ("refused", None), or ("gone", None) (lapsed, renewed
        away, or never made). An answer is handed out once: the request is removed."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(token, str) or not token:
            return "gone", None
        digest = _code_digest(token).encode()

        def mine(meta: dict) -> dict | None:
            req = (meta.get("takeover_requests") or {}).get(str(seat))
            ok = isinstance(req, dict) and isinstance(req.get("token"), str) and \
                hmac.compare_digest(digest, req["token"].encode())
            return req if ok and _request_live(req, time.time()) else None

        self.meta = self.store.get(self.game_id).meta  # the answer may have come from another device
        req = mine(self.meta)
        if req is None or req.get("status") == "pending":
            return ("pending", None) if req is not None else ("gone", None)
        result = []

        def collect(meta: dict) -> dict:
            found = mine(meta)
            result.append(found)
            if found is None or found.get("status") == "pending":
                return meta
            requests = dict(meta.get("takeover_requests") or {})
            requests.pop(str(seat), None)
            return dict(meta, takeover_requests=requests)

        self.meta = self.store.change_meta(self.game_id, collect)
        found = result[-1] if result else None
        if found is None:
            return "gone", None
        status = str(found.get("status"))
        if status == "allowed":
            return "allowed", str(found.get("code") or "")
        return (status if status in ("pending", "refused") else "gone"), None

    def mark_seen(self, seat: int, device: str) -> bool:
        """``device``, which plays ``seat``, is still there (:func:`mark_seat_seen`)."""
        ok = mark_seat_seen(self.store, self.game_id, seat, device)
        self.meta = self.store.get(self.game_id).meta
        return ok

    def release_seat(self, seat: int) -> None:
        """The host frees ``seat``: its device's code is retired (that device is told its seat
        was taken over) and the seat's own link claims it again, on any device, at once."""
        self._check_seat(seat)

        def release(meta: dict) -> dict:
            claims = dict(meta.get("claims") or {})
            codes = dict(meta.get("seat_codes") or {})
            meta = _retire_seat_code(meta, seat, codes)
            claims.pop(str(seat), None)
            codes.pop(str(seat), None)
            seen = dict(meta.get("seat_seen") or {})
            seen.pop(str(seat), None)
            return dict(meta, claims=claims, seat_codes=codes, seat_seen=seen)

        self.meta = self.store.change_meta(self.game_id, release)

    def renew_join_codes(self) -> None:
        """The host renews the join link's token and the short join code: the old ones stop
        opening the game at once (a device still holding one is told they were renewed); seat
        codes already handed out keep working. Pending take-over requests lapse."""
        def renew(meta: dict) -> dict:
            revoked = [d for d in meta.get("revoked_join") or [] if isinstance(d, str)]
            for old in (meta.get("join_token"), meta.get("join_code")):
                if isinstance(old, str) and old:
                    revoked.append(_code_digest(old))
            return dict(meta, join_token=new_token(), join_code=new_short_code(),
                        revoked_join=revoked[-REVOKED_JOIN:], takeover_requests={})

        self.meta = self.store.change_meta(self.game_id, renew)

    def join_renewed(self, code: object) -> bool:
        """Whether ``code`` is a join token or short code the host renewed away."""
        return join_renewed(self.meta, code)

    def ensure_codes(self) -> None:
        """A game saved before join links existed gets a join token, and a short join code of
        :data:`~nochmal.store.access.SHORT_CODE_LENGTH` letters instead of its shorter one (once; the
        host code stays, so the host's link keeps working)."""
        def needs(meta: dict) -> bool:
            return not meta.get("join_token") or len(str(meta.get("join_code") or "")) < SHORT_CODE_LENGTH

        if not needs(self.meta):
            return

        def upgrade(meta: dict) -> dict:
            if not needs(meta):
                return meta
            meta = dict(meta)
            if not meta.get("join_token"):
                meta["join_token"] = new_token()
            if len(str(meta.get("join_code") or "")) < SHORT_CODE_LENGTH:
                meta["join_code"] = new_short_code()
            return meta

        self.meta = self.store.change_meta(self.game_id, upgrade)

    def join_url_path(self, seat: int | None = None) -> str:
        """The join link's path and query (``/?game=ID&join=TOKEN``); with ``seat`` the link
        that claims that seat at once (``&claim=N``)."""
        return join_url_path(self.game_id, str(self.meta.get("join_token") or ""), seat)

    def taken_over_seat(self, code: object) -> int | None:
        """The seat ``code`` belonged to before another claim took it over (:func:`taken_over_seat`)."""
        return taken_over_seat(self.meta, code)

    def host_url_path(self) -> str:
        """The path and query that open this game as host (``/table?game=ID&code=HOST``)."""
        return table_url_path(self.game_id, str(self.meta.get("host_code") or ""))

    # ---- reading -------------------------------------------------------------
    @property
    def state(self):
        return self._fold.state

    @property
    def events(self):
        return list(self._fold.events)

    @property
    def n_events(self) -> int:
        return len(self._fold.events)

    @property
    def seat_names(self) -> list[str]:
        return self.meta["seat_names"]

    @property
    def can_undo(self) -> bool:
        return bool(self._fold.effective)

    # ---- writing -------------------------------------------------------------
    def record(self, action, seat: int | None = None, *, by: str = "", source: str = "entered"):
        """Check ``action`` (for ``seat``) on a copy, then persist and apply it. Raises the
        engine's error (naming the rule) and changes nothing if it is illegal; raises
        :class:`ConflictError` if another writer got there first."""
        if seat is None and not isinstance(action, Roll):
            cp = self.state.current_player()
            seat = cp if cp >= 0 else None
        ev = event_for(action, self.n_events, seat, by=by, source=source, rules_version=self.game.rules_version)
        trial = self._fold.copy()
        trial.apply(ev)
        self.store.append(self.game_id, ev.seq, ev.model_dump(mode="json"))
        self._fold = trial
        return ev

    def roll_digital(self, by: str = "dice"):
        nc, nn = self.game.dice_in_play(self.state)
        seed = self.meta.get("seed") or 0
        return self.record(digital_roll(seed, self.state.roll_index, nc, nn), by=by, source="sampled")

    def undo(self, by: str = ""):
        if not self._fold.effective:
            raise InvalidInputError("nothing to undo")
        ev = UndoEvent(seq=self.n_events, undoes=self._fold.effective[-1][0], at=now(), by=by,
                       rules_version=self.game.rules_version)
        trial = self._fold.copy()
        trial.apply(ev)
        self.store.append(self.game_id, ev.seq, ev.model_dump(mode="json"))
        self._fold = trial
        return ev

    # ---- export / import -------------------------------------------------------
    def export(self) -> dict:
        """The game as one JSON object. Codes and claims stay behind (:data:`CODE_FIELDS`): a
        file carries no key to this game, and an import gets codes of its own."""
        return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "rules_version": self.game.rules_version,
                "title": self.title, "meta": {k: v for k, v in self.meta.items() if k not in CODE_FIELDS},
                "events": [e.model_dump(mode="json") for e in self._fold.events]}


#: Every code of a game that does not exist is compared as often as a real game's would be.
_NO_GAME_TOKENS = {"host": new_token(), "join": new_token(), **{f"seat {i}": new_token() for i in range(3)}}
_NO_GAME_SHORT = new_short_code()


def _identify(code: object, tokens: dict[str, object], short: object) -> tuple[str | None, int | None]:
    given = code.strip()[:MAX_CODE_LENGTH] if isinstance(code, str) else ""
    name = match_code(given, tokens)
    short_ok = match_code(normalize_short_code(given), {"short": short}) is not None
    if not given:
        return None, None
    if name is None:
        return ("short", None) if short_ok else (None, None)
    if name.startswith("seat "):
        return "seat", int(name.removeprefix("seat "))
    return name, None


@dataclass(frozen=True)
class Opened:
    """A game opened with a code: what the code is (``role``: host, join, short, seat) and the
    seat it belongs to (a seat code only)."""

    session: GameSession
    role: str
    seat: int | None = None

    @property
    def access(self) -> str:
        """"host" (every seat) or "seat" (its own seat, or claiming one)."""
        return "host" if self.role == "host" else "seat"


def open_with_code(store: GameStore, game_id: object, code: object, *, throttle: Throttle | None = None,
                   client: object = "unknown") -> Opened:
    """Open ``game_id`` with ``code`` the way a client that takes codes from people must.

    * An unknown id and a wrong code give the same answer (:class:`NoGameError`); an empty code
      is no guess.
    * Wrong guesses count against this ``client`` and this game (``throttle``: by default 10
      wrong within 60 s -> wait 60 s). While the client waits, every code it gives is refused,
      the right one too (:class:`TooManyGuessesError`, "try again in N s"). While the game
      waits, its short join code (38 bits, the only code worth guessing) is refused to
      everybody, so guessing from many clients gets no further; its 128-bit tokens (join link,
      host and seat codes) still open it, so wrong guesses by others never lock a table out.
    """
    client_key, game_key = ("client", str(client)[:100]), ("game", str(game_id)[:100])
    if throttle is not None and (wait := throttle.wait(client_key)) > 0:
        raise TooManyGuessesError(wait)
    ses = None
    if isinstance(game_id, str) and 0 < len(game_id) <= 64:
        try:
            ses = GameSession.load(store, game_id)
        except (StoreError, NochmalError):
            ses = None
    if ses is not None:
        role, seat = ses.identify(code)
    else:
        role, seat = _identify(code, _NO_GAME_TOKENS, _NO_GAME_SHORT)
        role = seat = None
    if not (isinstance(code, str) and code.strip()):
        raise NoGameError()
    if role in ("host", "join", "seat"):
        return Opened(ses, role, seat)
    if throttle is not None:
        if (wait := throttle.wait(game_key)) > 0:
            if role is None:
                throttle.failed(client_key)
            raise TooManyGuessesError(wait)  # right or wrong: the answer tells nothing
        if role is None and (wait := throttle.failed(game_key, client_key)) > 0:
            raise TooManyGuessesError(wait)
    if role == "short":
        return Opened(ses, role, None)
    raise NoGameError()


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
    version = meta["config"].get("rules_version", RULES_VERSION)
    for where, holder in (("rules_version", data), ("meta.rules_version", meta), ("meta.config.rules_version", meta["config"])):
        if holder.get("rules_version", version) != version or type(version) is not int \
                or version not in SUPPORTED_RULES_VERSIONS:
            raise InvalidInputError(f"{source}: field {where} is {holder.get('rules_version')!r}; this program "
                                    f"replays rules versions {', '.join(map(str, SUPPORTED_RULES_VERSIONS))} and "
                                    f"the file's rules_version fields must agree")
    unknown = sorted(str(k)[:40] for k in data if k not in EXPORT_FIELDS)
    if unknown:
        raise InvalidInputError(f"{source}: field {unknown[0]}: not a field of a game export "
                                f"({', '.join(EXPORT_FIELDS)})")
    # the game as the app would create it; codes and claims of the file are dropped
    valid = validate_meta({k: v for k, v in meta.items() if k not in CODE_FIELDS}, source, "meta")
    title = DEFAULT_IMPORT_TITLE if data.get("title") in (None, "") else validate_title(data["title"], source)
    events = data.get("events")
    if not isinstance(events, list):
        raise InvalidInputError(f"{source}: field events must be a list")
    replay = Fold(valid.game)
    for i, item in enumerate(events):
        try:
            replay.apply(parse_recorded_event(item, i), i)
        except NochmalError as err:
            raise InvalidInputError(f"{source}: field events[{i}]: {err}") from None
        except (ValueError, TypeError, KeyError, RecursionError) as err:  # belt and braces: never a traceback
            raise InvalidInputError(f"{source}: field events[{i}]: event {i}: {type(err).__name__}") from None
    # one transaction: the game and all its events, or nothing
    # each decision as the app records it (dice, colours and cells by the engine's names)
    gid = store.create_game(valid.stored() | new_codes(), title=title,
                            events=[as_recorded(e).model_dump(mode="json") for e in replay.events])
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
