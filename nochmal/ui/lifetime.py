"""What lives as long as the server process: the game store and the wrong-code throttles.

Not ``st.cache_resource``: Streamlit empties that cache for the whole server whenever any
connected device sends the ``clear_cache`` back-message (the viewer toolbar only hides the menu
item; the message needs no code). An emptied cache made the next page run open a second store
on the same file, and reset every throttle. Objects made here are dropped only with the process.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import TypeVar

from nochmal.store.access import Throttle
from nochmal.store.db import GameStore, default_store_location

T = TypeVar("T")

_lock = threading.Lock()
_made: dict[Hashable, object] = {}


def for_the_process(key: Hashable, make: Callable[[], T]) -> T:
    """The object made for ``key`` in this process, made by ``make()`` on first use (under a lock,
    so two page runs at once make it once). If ``make`` raises, nothing is kept and the next call
    tries again."""
    with _lock:
        if key not in _made:
            _made[key] = make()
        return _made[key]  # type: ignore[return-value]


def _store_path() -> str:
    return str(default_store_location())


def store() -> GameStore:
    """The game store ($NOCHMAL_DB: an SQLite file or a postgresql:// URL; else the SQLite file in
    the user data folder): one per file or database for the
    server process's whole life, never dropped by a client. Here, not in :mod:`nochmal.ui.state`,
    so that the change route (:mod:`nochmal.ui.changes`, which state imports) reads it without
    importing state back."""
    path = _store_path()
    return for_the_process(("store", path), lambda: GameStore(path))


def shared_key(name: str) -> bytes:
    """The store's key ``name`` (:meth:`~nochmal.store.db.GameStore.shared_key`), read once per
    process: every server process on the same store has the same one."""
    the_store = store()  # first: for_the_process's lock is not reentrant
    return for_the_process(("key", name, _store_path()), lambda: the_store.shared_key(name))


def throttle() -> Throttle:
    """The server's one counter of wrong code guesses (thread-safe, shared by every session on
    purpose: a guesser opens new sessions; no client message can reset it). One per store, so
    tests with stores of their own do not count each other's guesses."""
    return for_the_process(("code throttle", _store_path()), Throttle)
