"""The actions of *twenty one*, as frozen values (a dataclass compares its class too: ``Keep()`` is
not ``Again()``, ``CrossOut(1)`` is not ``Lot(1)``): chance actions (the lot for the first player, each
attempt's roll) and players' actions (keep or try again, enter dice, cross out a field).

Chance actions are applied through the same ``State.apply`` as a player's choice: a companion
enters them from the real table (:meth:`Roll.parse`), digital play samples them from a
``random.Random`` the caller passes in (``State.sample_chance``); both replay identically."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from nochmal.engine.errors import InvalidInputError
from nochmal.engine.twentyone.components import COLOUR_INDEX, COLOUR_LETTERS, COLOURS, FACES, KEPT_FACE, N_DICE, \
    N_FIELDS


@dataclass(frozen=True, order=True)
class Lot:
    """T-START: the seat (0-based) that won the draw for the first active player."""

    seat: int

    def to_json(self) -> dict:
        return {"type": "lot", "seat": self.seat}

    def __str__(self) -> str:
        return f"lot: seat {self.seat + 1} starts"


@dataclass(frozen=True, order=True)
class Roll:
    """T-ROLL: one attempt's six faces, in colour order (white, black, red, blue, yellow, green)."""

    faces: tuple[int, ...]

    @classmethod
    def of(cls, *faces: int) -> "Roll":
        """``Roll.of(4, 1, 6, 3, 2, 5)``: white 4, black 1, ... (checked as :meth:`parse`)."""
        return cls.parse(list(faces))

    @classmethod
    def sample(cls, rng: random.Random) -> "Roll":
        return cls(tuple(rng.choice(FACES) for _ in range(N_DICE)))

    @classmethod
    def again(cls, first: "Roll", rng: random.Random) -> "Roll":
        """The second attempt after ``first``: its 1s stay, every other die is rolled again."""
        return cls(tuple(f if f == KEPT_FACE else rng.choice(FACES) for f in first.faces))

    @classmethod
    def parse(cls, faces: object) -> "Roll":
        """Six faces as a list in colour order or as a mapping colour name -> face."""
        if isinstance(faces, dict):
            unknown = sorted(str(k) for k in faces if k not in COLOUR_INDEX)
            if unknown or len(faces) != N_DICE:
                raise InvalidInputError(f"a roll names each colour once ({', '.join(COLOURS)}), got "
                                        f"{sorted(map(str, faces))}", rule="T-DICE")
            faces = [faces[c] for c in COLOURS]
        if not isinstance(faces, (list, tuple)) or len(faces) != N_DICE:
            raise InvalidInputError(f"a roll is {N_DICE} faces, one per colour, got {faces!r}", rule="T-DICE")
        bad = [f for f in faces if type(f) is not int or f not in FACES]
        if bad:
            raise InvalidInputError(f"a die shows 1-6, got {bad[0]!r}", rule="T-DICE")
        return cls(tuple(faces))

    def to_json(self) -> dict:
        return {"type": "roll", "faces": {c: f for c, f in zip(COLOURS, self.faces)}}

    def __str__(self) -> str:
        return " ".join(f"{COLOUR_LETTERS[c].upper()}{f}" for c, f in enumerate(self.faces))


@dataclass(frozen=True, order=True)
class Keep:
    """T-ROLL: the active player is content with the first attempt."""

    def to_json(self) -> dict:
        return {"type": "keep"}

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, order=True)
class Again:
    """T-ROLL: the active player takes the second attempt (the 1s stay)."""

    def to_json(self) -> dict:
        return {"type": "again"}

    def __str__(self) -> str:
        return "second attempt"


KEEP = Keep()
AGAIN = Again()


@dataclass(frozen=True, order=True)
class Enter:
    """T-ENTER: the dice (colour indices, sorted, at least one) a player enters this round, each in
    the field of its own colour in their current row."""

    colours: tuple[int, ...]

    @classmethod
    def of(cls, *colours: int | str) -> "Enter":
        """``Enter.of("white", "red")`` or ``Enter.of(0, 2)``."""
        out = []
        for c in colours:
            if isinstance(c, str) and c in COLOUR_INDEX:
                out.append(COLOUR_INDEX[c])
            elif type(c) is int and 0 <= c < N_DICE:
                out.append(c)
            else:
                raise InvalidInputError(f"unknown die {c!r}: one of {', '.join(COLOURS)}", rule="T-DICE")
        if len(set(out)) != len(out):
            raise InvalidInputError(f"each die is entered once, got {[COLOURS[c] for c in out]}", rule="T-ENTER")
        return cls(tuple(sorted(out)))

    def to_json(self) -> dict:
        return {"type": "enter", "dice": [COLOURS[c] for c in self.colours]}

    def __str__(self) -> str:
        return "enter " + " ".join(COLOURS[c] for c in self.colours)


@dataclass(frozen=True, order=True)
class CrossOut:
    """T-CROSS: cross out field ``field`` (0-based, left to right) of the current row; only the
    leftmost free field may be crossed out."""

    field: int

    def to_json(self) -> dict:
        return {"type": "cross-out", "field": self.field}

    def __str__(self) -> str:
        return f"cross out field {self.field + 1}"


Action = Lot | Roll | Keep | Again | Enter | CrossOut


def parse_action(data: Any) -> Action:
    """An action from its JSON form (``{"type": "lot"|"roll"|"keep"|"again"|"enter"|"cross-out", ...}``)."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise InvalidInputError(f"an action must be an object with a 'type', got {data!r}")
    kind = data["type"]
    if kind == "roll":
        return Roll.parse(data.get("faces"))
    if kind == "keep":
        return KEEP
    if kind == "again":
        return AGAIN
    if kind == "enter":
        dice = data.get("dice")
        if not isinstance(dice, list):
            raise InvalidInputError("an entry needs a 'dice' list of colours", rule="T-ENTER")
        return Enter.of(*dice)
    if kind == "cross-out":
        f = data.get("field")
        if type(f) is not int or not 0 <= f < N_FIELDS:
            raise InvalidInputError(f"a cross-out names a field 0-{N_FIELDS - 1}, got {f!r}", rule="T-CROSS")
        return CrossOut(f)
    if kind == "lot":
        s = data.get("seat")
        if type(s) is not int or s < 0:
            raise InvalidInputError(f"a lot names a seat, got {s!r}", rule="T-START")
        return Lot(s)
    raise InvalidInputError(f"unknown twenty one action type {kind!r}")


def action_to_json(action: Action) -> dict:
    return action.to_json()
