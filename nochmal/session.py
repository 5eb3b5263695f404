"""A game being played and saved: the event log folded into a state, persisted in the store
one event at a time. Every client (app, CLI) records decisions through :class:`GameSession`:
an entry is checked on a copy of the state first, so an illegal one changes nothing, and the
append carries the sequence number it expects, so a second writer gets a conflict."""

from __future__ import annotations

import json
import random
import secrets
from pathlib import Path
from typing import Any

from . import RULES_VERSION
from .dice import Roll
from .errors import InvalidInputError, NochmalError
from .events import UndoEvent, event_for, fold, now, parse_event
from .game import Game, game_from_config
from .store import GameStore, StoreError

EXPORT_FORMAT = "nochmal-game"
EXPORT_VERSION = 1


def digital_roll(seed: int, roll_index: int, n_colour: int, n_number: int) -> Roll:
    """The digital dice of roll ``roll_index`` in a game with ``seed``: the same roll every time
    (a game can be replayed; undoing a roll and rolling again gives the same faces)."""
    return Roll.sample(random.Random(f"nochmal-dice-{seed}-{roll_index}"), n_colour, n_number)


def new_join_code() -> str:
    return secrets.token_hex(3).upper()


class GameSession:
    def __init__(self, store: GameStore, game_id: str) -> None:
        self.store = store
        self.game_id = game_id
        self.refresh()

    # ---- creation / loading ------------------------------------------------
    @classmethod
    def create(cls, store: GameStore, game: Game, *, title: str = "", seat_names: list[str] | None = None,
               kind: str = "companion", seed: int | None = None, bots: list[str | None] | None = None) -> "GameSession":
        n = game.n_seats
        meta = {
            "config": game.config(),
            "kind": kind,
            "seat_names": list(seat_names or [f"Player {i + 1}" for i in range(n)]),
            "seed": seed if seed is not None else (secrets.randbelow(10**9) if kind == "digital" else None),
            "bots": list(bots or [None] * n),
            "join_code": new_join_code(),  # lets another device claim a seat
            "host_code": new_join_code() + new_join_code(),  # full control (the mission leader's device)
            "rules_version": RULES_VERSION,
            "created": now(),
        }
        if len(meta["seat_names"]) != n or len(meta["bots"]) != n:
            raise InvalidInputError(f"name {n} seats and {n} bot choices")
        gid = store.create_game(meta, title=title or f"{game.mode} game")
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

    def access(self, code: str | None) -> str | None:
        """What a device holding ``code`` may do: "host" (everything), "seat" (claim a seat and
        enter its own crosses), or None (neither read nor change the game)."""
        if not code:
            return None
        code = code.strip().upper()
        if code == str(self.meta.get("host_code", "")).upper():
            return "host"
        if code == str(self.meta.get("join_code", "")).upper() or self.seat_of_code(code) is not None:
            return "seat"
        return None

    def seat_of_code(self, code: str | None) -> int | None:
        """The seat a seat code (handed out by :meth:`claim_seat`) belongs to, else None."""
        if not code:
            return None
        code = code.strip().upper()
        for seat, c in self.meta.get("seat_codes", {}).items():
            if c == code:
                return int(seat)
        return None

    def claim_seat(self, seat: int, device: str) -> str:
        """``device`` plays ``seat``: returns the seat's own code, which lets a device enter
        that seat's crosses and nothing else. Claiming a seat again (a phone was replaced)
        hands out a new code; the old one stops working."""
        if not 0 <= seat < self.game.n_seats:
            raise InvalidInputError(f"seat {seat + 1} does not exist in this {self.game.n_seats}-seat game")
        claims = dict(self.meta.get("claims", {}))
        codes = dict(self.meta.get("seat_codes", {}))
        claims[str(seat)] = device
        codes[str(seat)] = new_join_code() + new_join_code()
        self.meta = dict(self.meta, claims=claims, seat_codes=codes)
        self.store.update_meta(self.game_id, self.meta)
        return codes[str(seat)]

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
        ev = event_for(action, self.n_events, seat, by=by, source=source)
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
        ev = UndoEvent(seq=self.n_events, undoes=self._fold.effective[-1][0], at=now(), by=by)
        trial = self._fold.copy()
        trial.apply(ev)
        self.store.append(self.game_id, ev.seq, ev.model_dump(mode="json"))
        self._fold = trial
        return ev

    # ---- export / import -------------------------------------------------------
    def export(self) -> dict:
        return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "rules_version": RULES_VERSION,
                "title": self.title, "meta": self.meta,
                "events": [e.model_dump(mode="json") for e in self._fold.events]}


def import_game(store: GameStore, data: Any, *, source: str = "<import>") -> GameSession:
    """Create a new game from an export. Every event is re-validated and replayed first; a
    tampered or corrupt file is rejected naming the first bad event, and nothing is stored."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise InvalidInputError(f"{source}: not a nochmal game export (field 'format' must be {EXPORT_FORMAT!r})")
    if data.get("version") != EXPORT_VERSION:
        raise InvalidInputError(f"{source}: export version {data.get('version')!r} is not supported")
    meta = data.get("meta")
    if not isinstance(meta, dict) or not isinstance(meta.get("config"), dict):
        raise InvalidInputError(f"{source}: field meta.config is missing")
    for where, holder in (("rules_version", data), ("meta.rules_version", meta), ("meta.config.rules_version", meta["config"])):
        if holder.get("rules_version", RULES_VERSION) != RULES_VERSION:
            raise InvalidInputError(f"{source}: field {where} is {holder.get('rules_version')!r}; this program "
                                    f"implements rules version {RULES_VERSION}")
    try:
        game = game_from_config(meta["config"])
    except (NochmalError, KeyError, TypeError) as err:
        raise InvalidInputError(f"{source}: field meta.config: {err}") from None
    events = data.get("events")
    if not isinstance(events, list):
        raise InvalidInputError(f"{source}: field events must be a list")
    try:
        fold(game, events)
    except NochmalError as err:
        raise InvalidInputError(f"{source}: {err}") from None
    gid = store.create_game(dict(meta, join_code=new_join_code(), host_code=new_join_code() + new_join_code()), title=str(data.get("title") or "imported game"))
    try:
        for i, ev in enumerate(events):
            store.append(gid, i, ev)
    except StoreError:
        store.delete_game(gid)
        raise
    return GameSession(store, gid)


def read_export_file(path: str | Path) -> Any:
    p = Path(path)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except OSError as err:
        raise InvalidInputError(f"{p}: cannot read: {err.strerror or err}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise InvalidInputError(f"{p}: not valid JSON: {err}") from None
