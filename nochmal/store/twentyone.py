"""What the store keeps of a *twenty one* game: its config and meta (:class:`TwentyOneConfig`,
:data:`TwentyOneMeta`) and its event log. Every decision of RULES-TWENTYONE.md (the lot, each
attempt's roll, keeping it or the second attempt, a seat's entry or cross-out) is an event with a
sequence number and the game's rules version, like *Noch mal!*'s (:mod:`nochmal.store.events`):
the same base fields, the same undo, the same fold. Only what a decision holds differs, so a
*Noch mal!* event sent to a twenty one game (or the other way round) is refused by its ``type``."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StrictInt, TypeAdapter, model_validator

from nochmal.engine.errors import NochmalError
from nochmal.bots.twentyone_policies import TWENTYONE_POLICIES
from nochmal.engine.twentyone.game import TwentyOneGame
from nochmal.engine.twentyone.actions import Again, CrossOut, Enter, Keep, Roll, parse_action
from nochmal.engine.twentyone.components import COLOURS, FACES, N_FIELDS
from nochmal.engine.twentyone.version import RULES_VERSION
from nochmal.store.events import EventCodec, UndoEvent, _Event, now, pydantic_parser
from nochmal.store.meta import SheetId, meta_model

#: the bots a seat of a twenty one game can be played by (:mod:`nochmal.bots.twentyone_policies`)
POLICY_NAMES = TWENTYONE_POLICIES


class TwentyOneConfig(BaseModel):
    """What rebuilds a twenty one game (``TwentyOneGame.config()``); checked by building the game."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    game_name: Literal[TwentyOneGame.name] = Field(alias="game")
    sheets: Annotated[tuple[SheetId | dict[str, Any], ...], Field(min_length=1, max_length=6)]
    rules_version: StrictInt | None = None
    _game: TwentyOneGame | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _builds_a_game(self) -> "TwentyOneConfig":
        try:
            self._game = TwentyOneGame.from_config(self.model_dump(mode="json", by_alias=True, exclude_none=True))
        except NochmalError as err:
            raise ValueError(str(err)) from None
        except (KeyError, TypeError, AttributeError, IndexError) as err:  # belt and braces
            raise ValueError(f"cannot build a game from it ({type(err).__name__}: {err})") from None
        return self

    @property
    def game(self) -> TwentyOneGame:
        assert self._game is not None
        return self._game


#: a twenty one game's meta: its own config and bots, the rest as every game's
TwentyOneMeta = meta_model("TwentyOneMeta", TwentyOneConfig, TwentyOneGame.game_name, POLICY_NAMES)

SeatIndex = Annotated[StrictInt, Field(ge=0, le=5)]
Colour = Literal[COLOURS]
Face = Annotated[StrictInt, Field(ge=min(FACES), le=max(FACES))]


class _TwentyOneEvent(_Event):
    rules_version: StrictInt = RULES_VERSION


class LotEvent(_TwentyOneEvent):
    """T-START: ``seat`` won the draw for the first turn."""

    type: Literal["lot"] = "lot"
    seat: SeatIndex


class DiceEvent(_TwentyOneEvent):
    """T-ROLL: one attempt's six faces, by colour."""

    type: Literal["roll"] = "roll"
    faces: dict[Colour, Face]
    source: Literal["entered", "sampled"] = "entered"


class KeepEvent(_TwentyOneEvent):
    """T-ROLL: the active seat keeps its first attempt."""

    type: Literal["keep"] = "keep"
    seat: SeatIndex


class AgainEvent(_TwentyOneEvent):
    """T-ROLL: the active seat takes the second attempt (the 1s stay)."""

    type: Literal["again"] = "again"
    seat: SeatIndex


class EnterEvent(_TwentyOneEvent):
    """T-ENTER: the dice a seat enters this round, each in the field of its colour."""

    type: Literal["enter"] = "enter"
    seat: SeatIndex
    dice: Annotated[tuple[Colour, ...], Field(min_length=1, max_length=len(COLOURS))]


class CrossOutEvent(_TwentyOneEvent):
    """T-CROSS: a seat crosses out the leftmost free field of its row (``field`` 0-based)."""

    type: Literal["cross-out"] = "cross-out"
    seat: SeatIndex
    field: Annotated[StrictInt, Field(ge=0, lt=N_FIELDS)]


class TwentyOneUndoEvent(UndoEvent):
    rules_version: StrictInt = RULES_VERSION


Event = Annotated[Union[LotEvent, DiceEvent, KeepEvent, AgainEvent, EnterEvent, CrossOutEvent, TwentyOneUndoEvent],
                  Field(discriminator="type")]
EVENT_ADAPTER = TypeAdapter(Event)
parse_event = pydantic_parser(EVENT_ADAPTER)

#: the fields every event has, and what only the store keeps (who entered it, where the dice came from)
_NOT_THE_ACTION = {"seq", "rules_version", "at", "by", "source", "undoes"}
#: the actions a seat takes (the seat is stored with them); the lot names the seat it drew in its own field
_SEAT_ACTIONS = (Keep, Again, Enter, CrossOut)


def action_of(ev: _Event):
    """The twenty one action an event stands for (None for an undo)."""
    if isinstance(ev, UndoEvent):
        return None
    data = ev.model_dump(mode="json", exclude=_NOT_THE_ACTION)
    if isinstance(ev, _SEAT_EVENTS):
        data.pop("seat")
    if isinstance(ev, EnterEvent):
        data["dice"] = list(ev.dice)
    return parse_action(data)


_SEAT_EVENTS = (KeepEvent, AgainEvent, EnterEvent, CrossOutEvent)


def event_for(action, seq: int, seat: int | None = None, *, by: str = "", source: str = "entered",
              rules_version: int = RULES_VERSION) -> _Event:
    """The event that records ``action`` (of ``seat``: the seat that keeps, tries again, enters
    or crosses out) as event ``seq``."""
    data = action.to_json()
    data.update(seq=seq, at=now(), by=by, rules_version=rules_version)
    if isinstance(action, _SEAT_ACTIONS):
        data["seat"] = seat
    if isinstance(action, Roll):
        data["source"] = source
    return parse_event(data)


def describe(ev: _Event, names: list[str] | None = None) -> str:
    """One line for a history."""
    who = (lambda s: names[s] if names and s < len(names) else f"seat {s + 1}")
    if isinstance(ev, LotEvent):
        return f"{who(ev.seat)} drew the first turn"
    if isinstance(ev, DiceEvent):
        return f"roll ({ev.source}): " + " ".join(f"{c} {ev.faces[c]}" for c in COLOURS if c in ev.faces)
    if isinstance(ev, KeepEvent):
        return f"{who(ev.seat)} keeps the first attempt"
    if isinstance(ev, AgainEvent):
        return f"{who(ev.seat)} takes the second attempt"
    if isinstance(ev, EnterEvent):
        return f"{who(ev.seat)} enters {' '.join(ev.dice)}"
    if isinstance(ev, CrossOutEvent):
        return f"{who(ev.seat)} crosses out field {ev.field + 1}"
    if isinstance(ev, UndoEvent):
        return f"undo of event {ev.undoes}"
    return repr(ev)


def _action_json(action) -> dict:
    return action.to_json()


#: twenty one's events
TWENTYONE_EVENTS = EventCodec(parse=parse_event, action_of=action_of, event_for=event_for, describe=describe,
                              action_json=_action_json)
