"""What a game is: the pydantic models of its config and meta (as the app and the CLI create a
game and as an imported file may bring one), the limits on its seat names and title, and the
messages that name the field a check failed on. Separate from the session because both ways in,
creating a game and importing one, validate through these same models, and neither needs the store."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, Strict, TypeAdapter,
                      ValidationError, ValidationInfo, create_model, field_validator, model_validator)

from nochmal.bots.registry import POLICY_NAMES
from nochmal.engine.errors import InvalidInputError, NochmalError
from nochmal.engine.game import Game, game_from_config, variant
from nochmal.engine.sheet import StrictInt, not_blank, plain_text
from nochmal.store.events import now, recorded_at

SEAT_NAME_MAX = 40
TITLE_MAX = 80
SEED_MAX = 2**63 - 1


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


class _GameMeta(BaseModel):
    """What a game is, as the app and the CLI create it and as an imported file may bring it:
    one model for both, so nothing a file brings can break a page that a new game would not.
    Codes and claims are not part of it (:data:`~nochmal.store.claims.CODE_FIELDS`: new for every game).
    Each game of the registry (:mod:`nochmal.store.games`) has its own model (:func:`meta_model`):
    its config and its bots differ, the rest is this."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    #: the game's name as a stored meta records it (set by :func:`meta_model`)
    stored_as: ClassVar[str] = ""
    config: Any
    #: which game of the registry it is (stored as ``game``; a game stored before the registry
    #: has none and is *Noch mal!*)
    game_name: str | None = Field(default=None, alias="game")
    kind: Literal["companion", "digital"]
    seat_names: Annotated[tuple[SeatName, ...], Field(min_length=1, max_length=6)]
    bots: Annotated[tuple[str | None, ...], Field(min_length=1, max_length=6)]
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
        """The meta as the store keeps it (the engine's own config, which game it is), without codes."""
        return {"game": self.stored_as, "config": self.game.config(), "kind": self.kind,
                "seat_names": list(self.seat_names), "seed": self.seed, "bots": list(self.bots),
                "rules_version": self.game.rules_version, "created": self.created or now()}


def meta_model(name: str, config: type[BaseModel], game_name: str, policies: tuple[str, ...], *,
               stored_before: bool = False) -> type[_GameMeta]:
    """The meta model of one game: its ``config`` model, its name (``stored_before``: a meta
    without one is this game's, as every game stored before there were two) and the bots its
    seats may be played by."""
    name_type = Literal[game_name] | None if stored_before else Literal[game_name]
    default = None if stored_before else ...
    model = create_model(
        name, __base__=_GameMeta, __module__=__name__,
        config=(config, ...),
        game_name=(name_type, Field(default=default, alias="game")),
        bots=(Annotated[tuple[Literal[policies] | None, ...], Field(min_length=1, max_length=6)], ...))
    model.stored_as = game_name
    return model


#: *Noch mal!*'s meta (base, solo, co-op)
GameMeta = meta_model("GameMeta", GameConfig, Game.game_name, POLICY_NAMES, stored_before=True)


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


def validate_meta(data: Any, where: str = "", prefix: str = "", model: type[_GameMeta] | None = None) -> _GameMeta:
    """``data`` as a ``model`` (default :class:`GameMeta`, *Noch mal!*'s), else InvalidInputError
    naming ``where`` and the field."""
    try:
        return (model or GameMeta).model_validate(data)
    except ValidationError as err:
        raise InvalidInputError(f"{where}: " * bool(where) + validation_message(err, prefix)) from None
    except RecursionError:
        raise InvalidInputError(f"{where}: " * bool(where) + f"field {prefix or 'meta'}: nested too deeply") from None


def validate_title(title: Any, where: str = "") -> str:
    try:
        return TITLE_ADAPTER.validate_python(title)
    except ValidationError as err:
        raise InvalidInputError(f"{where}: " * bool(where) + validation_message(err, "title")) from None
