"""A game being played and saved: the event log folded into a state, persisted in the store
one event at a time. Every client (app, CLI) records decisions through :class:`GameSession`:
an entry is checked on a copy of the state first, so an illegal one changes nothing, and the
append carries the sequence number it expects, so a second writer gets a conflict.

A game is opened with a code through :func:`open_with_code`. What the session keeps in its meta
lives in modules of its own: what a game is (:mod:`~nochmal.store.meta`), its codes and seat
claims (:mod:`~nochmal.store.claims`), the errors of a code or a claim
(:mod:`~nochmal.store.errors`); importing an export is :mod:`~nochmal.store.transfer`."""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass

from nochmal.engine.errors import InvalidInputError, NochmalError
from nochmal.store.access import (SHORT_CODE_LENGTH, Throttle, match_code, new_short_code, new_token,
                                  normalize_short_code)
from nochmal.store.claims import (CODE_FIELDS, MAX_CODE_LENGTH, REVOKED_JOIN, _claimed_meta, _code_digest,
                                  _request_live, _retire_seat_code, join_renewed, join_url_path, mark_seat_seen,
                                  new_codes, seat_held, table_url_path, taken_over_seat)
from nochmal.store.db import GameStore, StoreError
from nochmal.store.errors import (ConsentNeededError, GameOverError, NoGameError, RequestPendingError,
                                  SeatTakenError, TooManyGuessesError)
from nochmal.store.events import UndoEvent, fold, now
from nochmal.store.games import digital_roll, kind_of_game, kind_of_meta  # noqa: F401 (digital_roll: read from here too)
from nochmal.store.meta import validate_meta, validate_title

EXPORT_FORMAT = "nochmal-game"
EXPORT_VERSION = 1
EXPORT_FIELDS = ("format", "version", "rules_version", "title", "meta", "events")


class GameSession:
    def __init__(self, store: GameStore, game_id: str) -> None:
        self.store = store
        self.game_id = game_id
        self.refresh()

    # ---- creation / loading ------------------------------------------------
    @classmethod
    def create(cls, store: GameStore, game, *, title: str = "", seat_names: list[str] | None = None,
               kind: str = "companion", seed: int | None = None, bots: list[str | None] | None = None,
               events: list[dict] | tuple[dict, ...] = ()) -> "GameSession":
        """A new game in ``store`` (any game of the registry, :mod:`nochmal.store.games`).
        ``events`` (dicts of events 0, 1, ..., e.g. a whole game played by ``nochmal play --save``)
        are written in the same transaction as the game."""
        n = game.n_seats
        which = kind_of_game(game)
        meta = validate_meta({
            "game": which.name,
            "config": game.config(),
            "kind": kind,
            "seat_names": list(seat_names or [f"Player {i + 1}" for i in range(n)]),
            "seed": seed if seed is not None else (secrets.randbelow(10**9) if kind == "digital" else None),
            "bots": list(bots or [None] * n),
            "rules_version": game.rules_version,
            "created": now(),
        }, model=which.meta)
        title = validate_title(title or which.default_title(game))
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
        self.kind = kind_of_meta(self.meta)
        self.game = self.kind.from_config(self.meta["config"])
        self._fold = fold(self.game, self.store.events(self.game_id), self.kind.events)

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
        if seat is None and not self.state.is_chance_node():
            cp = self.state.current_player()
            seat = cp if cp >= 0 else None
        ev = self.kind.events.event_for(action, self.n_events, seat, by=by, source=source,
                                        rules_version=self.game.rules_version)
        trial = self._fold.copy()
        trial.apply(ev)
        self.store.append(self.game_id, ev.seq, ev.model_dump(mode="json"))
        self._fold = trial
        return ev

    def roll_digital(self, by: str = "dice"):
        """The digital dice (or the lot) due now, the same for the same seed and position."""
        return self.record(self.kind.digital_chance(self.state, self.meta.get("seed") or 0), by=by, source="sampled")

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
