"""The build step ``pyproject.toml`` cannot say (setuptools runs this file when it builds).

* The files the project ships beside its code (:data:`nochmal.engine.resources.SHIPPED_PATHS`:
  ``app.py``, ``serve_app.py``, ``.streamlit/config.toml``, ``boards/``, ``missions/``,
  ``schemas/``, the shipped calibration sweep) are copied into the package, in
  ``nochmal/data/shipped/``, where an installed package finds them. The repository keeps them at
  its top level, one copy each; ``MANIFEST.in`` puts them into the sdist.
* The German catalog is compiled (``.po`` -> ``.mo``, as ``make i18n-compile`` does) and the wheel
  carries the compiled file only.

An editable install (``pip install -e .``, ``make``) copies nothing: the clone's files are used.
"""

import runpy
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
# the list lives in the package (stdlib only), read without importing the package
RESOURCES = runpy.run_path(str(HERE / "nochmal" / "engine" / "resources.py"))
LOCALE = ("nochmal", "data", "locale")


def copy_shipped(target: Path) -> None:
    """Copy every shipped path from the top level into ``target`` (emptied first: no stale file)."""
    if target.exists():
        shutil.rmtree(target)
    for rel in RESOURCES["SHIPPED_PATHS"]:
        src, dst = HERE / rel, target / rel
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif src.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
        else:
            raise SystemExit(f"setup.py: {rel} is missing, the package cannot carry it")


def compile_catalogs(locale: Path) -> None:
    """Compile each ``<lang>/LC_MESSAGES/*.po`` under ``locale`` to its ``.mo``; drop the sources."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=po.parts[-3], domain=po.stem)
        with po.with_suffix(".mo").open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=False)
        po.unlink()
    for pot in locale.glob("*.pot"):
        pot.unlink()


class BuildPy(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        package = Path(self.build_lib, "nochmal")
        copy_shipped(package.joinpath(*RESOURCES["PACKAGED"]))
        compile_catalogs(Path(self.build_lib, *LOCALE))


if __name__ == "__main__":  # as setuptools runs it (tests/test_packaging.py reads the functions)
    setup(cmdclass={"build_py": BuildPy})
