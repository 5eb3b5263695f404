"""The errors of opening a game with a code and of claiming its seats: what a client tells the
person holding the code. A module of their own because the session raises them and the app and the
CLI catch them, without needing anything else of either. (The database's own errors,
:class:`~nochmal.store.db.StoreError` and :class:`~nochmal.store.db.ConflictError`, stay with it.)"""

from __future__ import annotations

import math

from nochmal.engine.errors import NochmalError


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
