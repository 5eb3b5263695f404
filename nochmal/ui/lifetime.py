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
