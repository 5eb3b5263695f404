"""Dice (R-DICE). Colour dice show a colour (0..4) or the colour joker ``X``; number dice
show 1..5 or the number joker ``?``. A roll is a chance action: entered from a real table
(:meth:`Roll.parse`) or sampled from a ``random.Random`` the caller passes in
(:meth:`Roll.sample`); both are applied through the same ``State.apply``."""

from __future__ import annotations

import random
from typing import NamedTuple

from nochmal.engine.cells import COLOURS, COLOUR_INDEX
from nochmal.engine.errors import InvalidInputError

COLOUR_JOKER = 5  #: the black X
NUMBER_JOKER = 0  #: the "?"
COLOUR_FACES = (0, 1, 2, 3, 4, COLOUR_JOKER)
NUMBER_FACES = (1, 2, 3, 4, 5, NUMBER_JOKER)


def colour_face_name(face: int) -> str:
    return "X" if face == COLOUR_JOKER else COLOURS[face]


def number_face_name(face: int) -> str:
    return "?" if face == NUMBER_JOKER else str(face)


def parse_colour_face(text: object) -> int:
    if isinstance(text, str):
        t = text.strip().lower()
        if t in ("x", "joker", "black"):
            return COLOUR_JOKER
        if t in COLOUR_INDEX:
            return COLOUR_INDEX[t]
    raise InvalidInputError(
        f"unknown colour die face {text!r}: one of {', '.join(COLOURS)}, X", rule="R-DICE"
    )


def parse_number_face(text: object) -> int:
    if isinstance(text, int) and not isinstance(text, bool) and 1 <= text <= 5:
        return text
    if isinstance(text, str):
        t = text.strip()
        if t == "?":
            return NUMBER_JOKER
        if t.isdigit() and 1 <= int(t) <= 5:
            return int(t)
    raise InvalidInputError(f"unknown number die face {text!r}: one of 1-5, ?", rule="R-DICE")


class Roll(NamedTuple):
    """The faces of one roll, each tuple sorted (dice of one kind are interchangeable)."""

    colours: tuple[int, ...]
    numbers: tuple[int, ...]

    @classmethod
    def of(cls, colours, numbers) -> "Roll":
        return cls(tuple(sorted(colours)), tuple(sorted(numbers)))

    @classmethod
    def sample(cls, rng: random.Random, n_colour: int, n_number: int) -> "Roll":
        return cls.of(
            [rng.choice(COLOUR_FACES) for _ in range(n_colour)],
            [rng.choice(NUMBER_FACES) for _ in range(n_number)],
        )

    @classmethod
    def parse(cls, colours, numbers) -> "Roll":
        return cls.of([parse_colour_face(c) for c in colours], [parse_number_face(n) for n in numbers])

    def to_json(self) -> dict:
        return {
            "colours": [colour_face_name(c) for c in self.colours],
            "numbers": [number_face_name(n) for n in self.numbers],
        }

    def __str__(self) -> str:
        return " ".join(colour_face_name(c) for c in self.colours) + " | " + " ".join(
            number_face_name(n) for n in self.numbers
        )


def remove_faces(faces: tuple[int, ...], used: int) -> tuple[int, ...]:
    """``faces`` with one die showing ``used`` set aside."""
    i = faces.index(used)
    return faces[:i] + faces[i + 1 :]
