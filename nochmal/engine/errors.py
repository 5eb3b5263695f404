"""Typed errors. Every message names the offending input and, where one applies, the rule id
of ``RULES.md`` (``R-ADJ``, ``C-FAIL``, ...) or the data-file field that is wrong."""

from __future__ import annotations


class NochmalError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidInputError(NochmalError):
    """Malformed input: an unknown cell name, colour, die face, sheet id, a count out of range."""

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        self.rule = rule
        self.detail = message
        super().__init__(f"{rule}: {message}" if rule else message)


class IllegalMoveError(NochmalError):
    """A well-formed move that the rules forbid in this position.

    ``rule`` is the id of the rule that forbids it; ``position`` a compact serialisation of
    the player's position (sheet id, crossed cells, "!" left) so a report can be reproduced.
    """

    def __init__(self, rule: str, message: str, position: str = "") -> None:
        self.rule = rule
        self.reason = message
        self.position = position
        text = f"{rule}: {message}"
        if position:
            text += f" [{position}]"
        super().__init__(text)


class DataFileError(NochmalError):
    """A sheet, tableau or mission file that cannot be used. Names the file, field and rule."""

    def __init__(self, path: object, problems: list[str]) -> None:
        self.path = str(path)
        self.problems = list(problems)
        super().__init__(f"{self.path}: " + "; ".join(self.problems))
