"""numba's disk cache for the kernels, in a folder named after the sources the kernels are built from.

No Python twin: this is how the compiled code is kept. numba's own cache (``cache=True``) checks only
the file a function is written in; the constants a kernel reads from the engine (``COLOUR_JOKER``,
``NUMBER_FACES``, ``N_CELLS``, ...) are frozen into the compiled code, and an edit of the engine file
they come from would go unnoticed. Here every kernel is compiled with :func:`njit`, whose cache lives
in ``<base>/src-<key>``: the key hashes the text of every file of this package and of the engine's own modules
(:func:`source_key`), so an edit of either compiles afresh into a new folder, and the old one is
never read again. ``<base>`` is ``NUMBA_CACHE_DIR`` if set, else this package's ``__pycache__``
(or, where that cannot be written, a folder in the temporary directory). Old folders are not
removed (each about 20 MB): delete them at will.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import tempfile
from pathlib import Path

import numba

HERE = Path(__file__).resolve().parent


def source_files() -> list[Path]:
    """The files whose text the compiled kernels depend on: this package's and the engine's own
    modules (not its subpackages: *twenty one*'s rules, ``engine/twentyone``, are read by no kernel)."""
    import nochmal.engine

    engine = Path(nochmal.engine.__file__).resolve().parent
    return sorted(HERE.glob("*.py")) + sorted(engine.glob("*.py"))


@functools.cache
def source_key() -> str:
    """A hash of :func:`source_files`' names and texts (computed once a process)."""
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@functools.cache
def cache_dir() -> Path:
    """The folder of the kernels' numba cache for these sources (see the module's docstring)."""
    base = numba.config.CACHE_DIR
    if base:
        base = Path(base)
    else:
        base = HERE / "__pycache__"
        if not os.access(HERE, os.W_OK) or (base.exists() and not os.access(base, os.W_OK)):
            base = Path(tempfile.gettempdir()) / "nochmal-numba"
    return base / f"src-{source_key()}"


@contextlib.contextmanager
def _numba_cache_in(folder: Path):
    """numba places a cached function's files where ``numba.config.CACHE_DIR`` says when the function
    is decorated: set it for that moment only (other compiled code in the process keeps its own)."""
    before = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(folder)
    try:
        yield
    finally:
        numba.config.CACHE_DIR = before


def njit(**options):
    """``numba.njit(cache=True, **options)`` with its cache in :func:`cache_dir`."""

    def compile_cached(fn):
        with _numba_cache_in(cache_dir()):
            return numba.njit(cache=True, **options)(fn)

    return compile_cached
