"""The game store's own errors (:mod:`nochmal.store.db` re-exports them): a module of their own so
that the store's backends (:mod:`nochmal.store.sqlitedb`, :mod:`nochmal.store.pgdb`) raise them
without importing the store that chooses them."""

from __future__ import annotations

import os

__all__ = ["ConflictError", "MetaConflictError", "StoreError", "UnknownGameError"]


class StoreError(Exception):
    """Anything that went wrong in the store: bad file, bad schema, corrupt row, bad input."""


class ConflictError(StoreError):
    """``append`` was called with an ``expected_seq`` that is not the game's event count."""

    def __init__(self, game_id: str, expected_seq: int, actual_seq: int):
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq
        super().__init__(
            f"conflict on game {game_id!r}: expected to write seq {expected_seq}, "
            f"but the game has {actual_seq} event(s) (next seq is {actual_seq})"
        )

    def __reduce__(self):  # keep picklable (multiprocessing) despite the custom __init__
        return (type(self), (self.game_id, self.expected_seq, self.actual_seq))


class MetaConflictError(StoreError):
    """``update_meta(..., expected=...)`` found the stored meta changed since it was read."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        super().__init__(f"conflict on game {game_id!r}: its meta changed since it was read")

    def __reduce__(self):
        return (type(self), (self.game_id,))


class UnknownGameError(StoreError, KeyError):
    """No game with this id exists in the store."""

    def __init__(self, game_id: str, path: str | os.PathLike | None = None):
        self.game_id = game_id
        self.path = path
        where = f" in {os.fspath(path)}" if path is not None else ""
        super().__init__(f"unknown game {game_id!r}{where}")

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""

    def __reduce__(self):
        return (type(self), (self.game_id, self.path))
