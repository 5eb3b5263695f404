"""Where the files the project ships beside its code are found: the app's entry, the sheets, the
tableaus and missions, the shipped calibration sweep, the JSON Schemas and the Streamlit config.

In a clone they are the repository's top level (``app.py``, ``boards/``, ``missions/``,
``.streamlit/``, ...). The wheel and the sdist carry the same tree inside the package, in
``nochmal/data/shipped/`` (``setup.py`` copies :data:`SHIPPED_PATHS` there when it builds; the
repository keeps one copy), found through :mod:`importlib.resources`. :func:`root` is the folder
that holds them, the one place the rest of the code asks. The installed tree wins when it exists
(it never does in a clone).

User data (user sheets and tableaus, the game store) is not here: it stays in the user data folder.
Pure: the standard library only.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

#: The shipped tree inside the installed package (``nochmal/<PACKAGED>``).
PACKAGED = ("data", "shipped")
#: What the build copies from the repository's top level into that tree, relative to both roots
#: (folders are copied whole). ``MANIFEST.in`` puts the same paths into the sdist.
SHIPPED_PATHS = (
    "app.py",
    "serve_app.py",
    ".streamlit/config.toml",
    "boards",
    "missions",
    "schemas",
    "docs/calibration-sweep.parquet",
)


def packaged_root() -> Path | None:
    """The shipped tree of an installed package, or None (a clone has none)."""
    found = importlib.resources.files("nochmal").joinpath(*PACKAGED)
    if not found.is_dir():
        return None
    # a package installed by pip, pipx or uv lies in a folder: files() is then a pathlib.Path;
    # a zipped package (zipimport) has no folder the app and Streamlit could read from
    return Path(str(found)) if isinstance(found, Path) else None


def clone_root() -> Path:
    """The top level of the repository this package's code lies in (whether or not it is one)."""
    return Path(__file__).resolve().parents[2]


def root() -> Path:
    """The folder that holds :data:`SHIPPED_PATHS`: the installed package's tree, else the clone's top level."""
    return packaged_root() or clone_root()


def missing(base: Path | None = None) -> list[str]:
    """The entries of :data:`SHIPPED_PATHS` that are not under ``base`` (default :func:`root`)."""
    base = root() if base is None else base
    return [p for p in SHIPPED_PATHS if not (base / p).exists()]
