"""The event log of a game. Every decision is an event (a pydantic discriminated union) with
a sequence number and the rules version; the state is a fold of the events; an undo takes
back the last effective decision and is itself an event."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from dataclasses import dataclass
from typing import Annotated, Callable, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from nochmal.engine.version import RULES_VERSION
from nochmal.engine.dice import Roll
from nochmal.engine.errors import IllegalMoveError, InvalidInputError, NochmalError
from nochmal.engine.game import State, action_to_json, parse_action
from nochmal.engine.moves import Cross, Pass
from nochmal.engine.sheet import plain_text

Face = Annotated[str, Field(max_length=8)]
CellName = Annotated[str, Field(pattern=r"^[A-Oa-o][1-7]$")]
_AT_PATTERN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}"
                         r"(\.[0-9]{1,6})?(Z|[+-][0-9]{2}:[0-9]{2})")


def _check_at(value: str) -> str:
    """When an event was entered: ISO 8601 with a time zone, as :func:`now` writes it (empty:
    not recorded)."""
    if value:
        try:
            ok = _AT_PATTERN.fullmatch(value) is not None and datetime.fromisoformat(value).tzinfo is not None
        except (ValueError, OverflowError):
            ok = False
        if not ok:
            raise ValueError("must be a timestamp in ISO 8601 with a time zone, e.g. 2026-05-01T19:30:00+00:00")
    return value


#: The years a recorded moment may lie in (UTC): the app writes the present; the margins keep
#: every time zone a page may show it in within the years a date can hold (1-9999).
RECORDED_YEARS = (1970, 9998)


def recorded_at(value: str) -> str:
    """A moment as the app records it (an event's ``at``, a game's ``created``): a timestamp
    :func:`_check_at` accepts, present, and within :data:`RECORDED_YEARS` (for
    ``AfterValidator``; what an import must bring, while a stored game is read as it is)."""
    _check_at(value)
    if not value:
        raise ValueError("missing: the app records when each event was entered, as a timestamp in ISO 8601 "
                         "with a time zone, e.g. 2026-05-01T19:30:00+00:00")
    try:
        year = datetime.fromisoformat(value).astimezone(timezone.utc).year
    except (ValueError, OverflowError):
        year = 0
    low, high = RECORDED_YEARS
    if not low <= year <= high:
        raise ValueError(f"{value!r} is not between the years {low} and {high}")
    return value


Timestamp = Annotated[str, Field(max_length=40), AfterValidator(_check_at)]
#: who entered an event: a short plain name (markup characters are fine: pages escape them)
PlainName = Annotated[str, Field(max_length=64), AfterValidator(plain_text)]


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    seq: Annotated[StrictInt, Field(ge=0)]
    rules_version: StrictInt = RULES_VERSION
    at: Timestamp = ""  # when it was entered (events.now())
    by: PlainName = ""  # who entered it (seat name, device, bot)


class RollEvent(_Event):
    type: Literal["roll"] = "roll"
    colours: tuple[Face, ...]
    numbers: tuple[Face, ...]
    source: Literal["entered", "sampled"] = "entered"


class CrossEvent(_Event):
    type: Literal["cross"] = "cross"
    seat: Annotated[StrictInt, Field(ge=0, le=5)]
    colour_die: Face
    number_die: Face
    colour: Face
    cells: Annotated[tuple[CellName, ...], Field(min_length=1, max_length=5)]


class PassEvent(_Event):
    """A pass (base game) or a failed roll (co-op, C-FAIL)."""

    type: Literal["pass"] = "pass"
    seat: Annotated[StrictInt, Field(ge=0, le=5)]


class StrikeJokersEvent(_Event):
    type: Literal["strike_jokers"] = "strike_jokers"
    per_seat: tuple[Annotated[StrictInt, Field(ge=0, le=20)], ...]


class RemoveDieEvent(_Event):
    type: Literal["remove_die"] = "remove_die"
    die: Literal["colour", "number"]


class UndoEvent(_Event):
    type: Literal["undo"] = "undo"
    undoes: Annotated[StrictInt, Field(ge=0)]  # seq of the event taken back


Event = Annotated[Union[RollEvent, CrossEvent, PassEvent, StrikeJokersEvent, RemoveDieEvent, UndoEvent],
                  Field(discriminator="type")]
EVENT_ADAPTER = TypeAdapter(Event)


def pydantic_parser(adapter: TypeAdapter) -> Callable[[object, int | None], _Event]:
    """A codec's ``parse`` for a discriminated union of events: the error names the event and the
    field (``event 3: field seat: ...``)."""
    def parse(data: object, index: int | None = None) -> _Event:
        try:
            return adapter.validate_python(data)
        except ValidationError as err:
            where = f"event {index}" if index is not None else "event"
            first = err.errors()[0]
            path = first["loc"]
            if len(path) > 1 and isinstance(data, dict) and path[0] == data.get("type"):
                path = path[1:]  # the union's tag: "field by", not "field pass.by"
            loc = ".".join(str(p) for p in path)
            msg = first["msg"].removeprefix("Value error, ")
            raise InvalidInputError(f"{where}: field {loc or '(event)'}: {msg}") from None

    return parse


_PARSE_NOCHMAL = pydantic_parser(EVENT_ADAPTER)


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def parse_event(data: object, index: int | None = None) -> _Event:
    """Validate one stored/imported event dict of *Noch mal!*; the error names the event."""
    return _PARSE_NOCHMAL(data, index)


def parse_recorded_event(data: object, index: int | None = None) -> _Event:
    """An event of an imported *Noch mal!* game (:meth:`EventCodec.parse_recorded`)."""
    return NOCHMAL_EVENTS.parse_recorded(data, index)


def as_recorded(ev: _Event) -> _Event:
    """``ev`` with its decision written as the engine writes it (dice faces, colours and cells by
    their own names, e.g. "red" for " RED"): what pages show of an imported event is what the
    app would have recorded. The event must replay (its action parses)."""
    return NOCHMAL_EVENTS.as_recorded(ev)


def action_of(ev: _Event):
    """The game action an event stands for (None for an undo)."""
    if isinstance(ev, UndoEvent):
        return None
    data = ev.model_dump(mode="json", exclude={"seq", "rules_version", "at", "by", "seat", "source", "undoes"})
    return parse_action({**data, "cells": list(ev.cells)} if isinstance(ev, CrossEvent) else data)


def event_for(action, seq: int, seat: int | None = None, *, by: str = "", source: str = "entered",
              rules_version: int = RULES_VERSION) -> _Event:
    """The event that records ``action`` (of ``seat``) as event ``seq`` of a game played under
    ``rules_version`` (an old game goes on under the version it was saved with)."""
    data = action_to_json(action)
    data.update(seq=seq, at=now(), by=by, rules_version=rules_version)
    if isinstance(action, (Cross, Pass)):
        data["seat"] = seat
    if isinstance(action, Roll):
        data["source"] = source
    return parse_event(data)


def describe(ev: _Event, names: list[str] | None = None) -> str:
    """One line for the history page."""
    who = (lambda s: names[s] if names and s < len(names) else f"seat {s + 1}")
    if isinstance(ev, RollEvent):
        return f"roll ({ev.source}): {' '.join(ev.colours)} | {' '.join(ev.numbers)}"
    if isinstance(ev, CrossEvent):
        return f"{who(ev.seat)} crosses {ev.colour} {'-'.join(ev.cells)} with {ev.colour_die}+{ev.number_die}"
    if isinstance(ev, PassEvent):
        return f"{who(ev.seat)} passes / marks a failed roll"
    if isinstance(ev, StrikeJokersEvent):
        return "team strikes \"!\": " + ", ".join(f"{who(i)} {n}" for i, n in enumerate(ev.per_seat) if n)
    if isinstance(ev, RemoveDieEvent):
        return f"team removes a {ev.die} die for good"
    if isinstance(ev, UndoEvent):
        return f"undo of event {ev.undoes}"
    return repr(ev)


@dataclass(frozen=True)
class EventCodec:
    """How one game's decisions are written as events and read back: every game of the registry
    (:mod:`nochmal.store.games`) has one; the fold, the session and an import only go through it."""

    #: a stored or imported event dict -> the event (InvalidInputError naming the event and field)
    parse: Callable[[object, int | None], _Event]
    #: the game action an event stands for (None for an undo)
    action_of: Callable[[_Event], object]
    #: ``event_for(action, seq, seat, by=, source=, rules_version=)``: the event recording an action
    event_for: Callable[..., _Event]
    #: one line for a history (``describe(event, seat names)``)
    describe: Callable[[_Event, list[str] | None], str]
    #: an action's JSON form (the fields of its event)
    action_json: Callable[[object], dict]

    def parse_recorded(self, data: object, index: int | None = None) -> _Event:
        """An event of an imported game: :attr:`parse`, and its ``at`` as the app records it
        (:func:`recorded_at`; a stored event is read without that check, so older games open)."""
        ev = self.parse(data, index)
        try:
            recorded_at(ev.at)
        except ValueError as err:
            where = f"event {index}" if index is not None else "event"
            raise InvalidInputError(f"{where}: field at: {err}") from None
        return ev

    def as_recorded(self, ev: _Event) -> _Event:
        """``ev`` with its decision written as the engine writes it (:func:`as_recorded`)."""
        action = self.action_of(ev)
        if action is None:
            return ev
        return self.parse({**ev.model_dump(mode="json"), **self.action_json(action)}, None)


class Fold:
    """The state a list of events leads to, and the effective (not undone) decisions. The
    game's :class:`EventCodec` reads the events (default: *Noch mal!*'s)."""

    def __init__(self, game, codec: "EventCodec | None" = None) -> None:
        self.game = game
        self.codec = codec or NOCHMAL_EVENTS
        self.state = game.new_state()
        self.effective: list[tuple[int, object, int | None]] = []  # (seq, action, seat)
        self.events: list[_Event] = []

    def copy(self) -> "Fold":
        f = Fold.__new__(Fold)
        f.game, f.codec, f.state = self.game, self.codec, self.state.clone()
        f.effective, f.events = list(self.effective), list(self.events)
        return f

    def apply(self, ev: _Event, index: int | None = None) -> None:
        """Apply one event; raises naming the event, and leaves the fold unchanged on error."""
        i = len(self.events) if index is None else index
        if ev.seq != len(self.events):
            raise InvalidInputError(f"event {i}: seq is {ev.seq}, expected {len(self.events)}")
        if ev.rules_version != self.game.rules_version:
            raise InvalidInputError(
                f"event {i}: field rules_version is {ev.rules_version}, but the game is played under rules version "
                f"{self.game.rules_version}")
        if isinstance(ev, UndoEvent):
            if not self.effective or self.effective[-1][0] != ev.undoes:
                last = self.effective[-1][0] if self.effective else None
                raise InvalidInputError(f"event {i}: undo of event {ev.undoes}, but the last effective decision is {last}")
            kept = self.effective[:-1]
            st = self.game.new_state()
            for _, action, seat in kept:
                st.apply(action, seat)
            self.state, self.effective = st, kept
        else:
            seat = getattr(ev, "seat", None)
            st = self.state.clone()
            try:
                action = self.codec.action_of(ev)
                st.apply(action, seat)
            except IllegalMoveError as err:
                raise IllegalMoveError(err.rule, f"event {i} ({ev.type}): {err.reason}", err.position) from None
            except NochmalError as err:
                raise InvalidInputError(f"event {i} ({ev.type}): {err}") from None
            self.state = st
            self.effective.append((ev.seq, action, seat))
        self.events.append(ev)


def fold(game, events: list, codec: EventCodec | None = None) -> Fold:
    f = Fold(game, codec)
    for i, data in enumerate(events):
        f.apply(data if isinstance(data, _Event) else f.codec.parse(data, i), i)
    return f


#: *Noch mal!*'s events (base, solo, co-op)
NOCHMAL_EVENTS = EventCodec(parse=parse_event, action_of=action_of, event_for=event_for, describe=describe,
                            action_json=action_to_json)


__all__ = ["EventCodec", "NOCHMAL_EVENTS", "pydantic_parser", "Event", "RollEvent", "CrossEvent", "PassEvent", "StrikeJokersEvent", "RemoveDieEvent", "UndoEvent",
           "parse_event", "parse_recorded_event", "as_recorded", "recorded_at", "event_for", "fold", "Fold",
           "describe", "State"]
