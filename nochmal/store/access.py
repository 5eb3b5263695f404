"""Codes that open a game or the app's settings, and how guesses at them are checked (pure:
no Streamlit).

* Tokens (join links, host codes, seat codes, the owner code) carry :data:`TOKEN_BITS` random
  bits; the short join code that people may type instead carries about :func:`short_code_bits`.
* :func:`codes_equal` / :func:`match_code` compare in constant time: the time taken does not
  depend on how much of a guess is right, nor on which of several codes it matched.
* :class:`Quota` counts uses per key (games created by a client) in a sliding window and
  refuses the one over its limit.
* :class:`Throttle` counts wrong guesses per key (a game, a client): after ``limit`` wrong
  guesses within ``window`` seconds the key must wait ``lockout`` seconds. The right code is
  refused too while a key waits, so waiting is the only way on.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Mapping

#: Random bits of every token handed out in a link or kept by a device.
TOKEN_BITS = 128
#: The short code's letters: no look-alikes (0/O, 1/I/L, 5/S are left out, and B beside 8).
SHORT_CODE_ALPHABET = "2346789ACDEFGHJKMNPQRTUVWXYZ"
SHORT_CODE_LENGTH = 8

#: Throttle defaults (say them in the README when they change).
THROTTLE_LIMIT = 10
THROTTLE_WINDOW_S = 60.0
THROTTLE_LOCKOUT_S = 60.0
THROTTLE_MAX_KEYS = 10_000  # keys remembered at most (oldest dropped first)


def new_token() -> str:
    """A url-safe token with :data:`TOKEN_BITS` random bits."""
    return secrets.token_urlsafe(TOKEN_BITS // 8)


def new_short_code() -> str:
    """A code to type: :data:`SHORT_CODE_LENGTH` letters of :data:`SHORT_CODE_ALPHABET`."""
    return "".join(secrets.choice(SHORT_CODE_ALPHABET) for _ in range(SHORT_CODE_LENGTH))


def short_code_bits() -> float:
    return SHORT_CODE_LENGTH * math.log2(len(SHORT_CODE_ALPHABET))


def normalize_short_code(text: str) -> str:
    """What a person typed, as the short code is stored: upper case, no spaces or dashes."""
    return "".join(ch for ch in str(text).upper() if ch not in " -\t")


def _digest(text: object) -> bytes:
    return hashlib.sha256(str(text).encode("utf-8", "surrogatepass")).digest()


def codes_equal(given: object, expected: object) -> bool:
    """Constant-time comparison (both sides hashed first, so their lengths leak nothing).
    An empty expected code never matches."""
    if not expected:
        _digest(given)
        return False
    return hmac.compare_digest(_digest(given), _digest(expected))


def match_code(given: object, candidates: Mapping[str, object]) -> str | None:
    """The name of the candidate code ``given`` equals, else None. Every candidate is compared
    (no early exit), so the time does not tell which one matched or how many there are."""
    found = None
    for name, code in candidates.items():
        if codes_equal(given, code) and found is None:
            found = name
    return found


class Throttle:
    """Wrong guesses per key in a sliding window (thread-safe; one per server process)."""

    def __init__(self, limit: int = THROTTLE_LIMIT, window: float = THROTTLE_WINDOW_S,
                 lockout: float = THROTTLE_LOCKOUT_S, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = THROTTLE_MAX_KEYS) -> None:
        if limit < 1 or window <= 0 or lockout <= 0:
            raise ValueError("limit >= 1, window > 0 and lockout > 0")
        self.limit, self.window, self.lockout, self.clock, self.max_keys = limit, window, lockout, clock, max_keys
        self._wrong: dict[Hashable, deque[float]] = {}
        self._until: dict[Hashable, float] = {}
        self._lock = threading.Lock()

    def wait(self, *keys: Hashable) -> float:
        """Seconds until every one of ``keys`` may guess again (0.0: now)."""
        now = self.clock()
        with self._lock:
            return max((self._until.get(k, now) - now for k in keys), default=0.0) if keys else 0.0

    def failed(self, *keys: Hashable) -> float:
        """Count one wrong guess against each key; returns :meth:`wait` afterwards."""
        now = self.clock()
        with self._lock:
            for k in keys:
                q = self._wrong.pop(k, None) or deque()
                self._wrong[k] = q  # most recently used last
                q.append(now)
                while q and q[0] <= now - self.window:
                    q.popleft()
                if len(q) >= self.limit:
                    self._until[k] = now + self.lockout
                    q.clear()
            while len(self._wrong) > self.max_keys:
                old = next(iter(self._wrong))
                self._wrong.pop(old)
                self._until.pop(old, None)
            for k in [k for k, t in self._until.items() if t <= now]:
                self._until.pop(k)
        return self.wait(*keys)

    def check(self, given: object, candidates: Mapping[str, object], *keys: Hashable) -> tuple[str | None, float]:
        """Compare ``given`` with ``candidates`` unless a key must wait. Returns (the name
        matched or None, seconds to wait). A wrong guess counts against every key."""
        wait = self.wait(*keys)
        if wait > 0:
            return None, wait
        name = match_code(given, candidates)
        if name is None:
            return None, self.failed(*keys)
        return name, 0.0


class Quota:
    """At most ``limit`` uses per key within ``window`` seconds (thread-safe; one per server process)."""

    def __init__(self, limit: int, window: float = 3600.0, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = THROTTLE_MAX_KEYS) -> None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1 or not window > 0:
            raise ValueError("limit >= 1 and window > 0")
        self.limit, self.window, self.clock, self.max_keys = limit, window, clock, max_keys
        self._used: dict[Hashable, deque[float]] = {}
        self._lock = threading.Lock()

    def take(self, key: Hashable) -> float:
        """Count one use for ``key`` and return 0.0; or, if ``key`` has used its ``limit`` within
        the window, count nothing and return the seconds until its oldest use leaves the window."""
        now = self.clock()
        with self._lock:
            q = self._used.pop(key, None) or deque()
            self._used[key] = q  # most recently used last
            while q and q[0] <= now - self.window:
                q.popleft()
            if len(q) >= self.limit:
                return max(q[0] + self.window - now, 0.001)
            q.append(now)
            while len(self._used) > self.max_keys:
                self._used.pop(next(iter(self._used)))
            return 0.0
