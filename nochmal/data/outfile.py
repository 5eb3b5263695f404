"""Writing an output file safely: the one helper behind every ``--out`` of the command line and
every file the app saves (user sheets, tableaus, co-op sets).

:func:`write_file` writes regular files only, all at once:

* the target is looked at with ``os.lstat`` (a symbolic link is never followed): if something
  is there that is not a regular file (a symbolic link, even to a regular file; a FIFO; a
  character or block device such as ``/dev/full``; a folder; a socket), the write is refused
  with :class:`OutputPathError` before anything is written;
* the data go into a new temporary file in the target's own folder, are flushed and
  ``fsync``-ed, and the temporary file is renamed over the target (``os.replace``). A reader sees
  the old file or the new one, never a part; if writing fails midway (a full disk, a file size
  limit, an error of the writer) the old file stays as it was and the temporary file is removed.

The new file gets the old file's permission bits, or for a new file those ``open()`` would give
(0666 less the umask), not ``mkstemp``'s 0600."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from nochmal.engine.errors import InvalidInputError

#: What ``os.lstat`` may find at an output path that is not a regular file, in words.
_KINDS = ((stat.S_ISLNK, "a symbolic link"),
          (stat.S_ISDIR, "a folder"),
          (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


class OutputPathError(InvalidInputError):
    """An output path where something other than a regular file is (nothing was written)."""


def non_regular(path: str | os.PathLike) -> str | None:
    """What is at ``path`` if it exists and is not a regular file (in words), else None.
    A symbolic link counts as not regular, wherever it points (``os.lstat``: never followed)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except NotADirectoryError:  # a part of the path is a file: the write fails with its own error
        return None
    if stat.S_ISREG(mode):
        return None
    for test, words in _KINDS:
        if test(mode):
            return words
    return "not a regular file"


def check_output_path(path: str | os.PathLike, name: str | None = None) -> None:
    """Raise :class:`OutputPathError` (one line: ``NAME PATH: is a FIFO (named pipe); ...``) if
    something other than a regular file is at ``path``."""
    what = non_regular(path)
    if what is not None:
        label = f"{name} {os.fspath(path)}" if name else os.fspath(path)
        raise OutputPathError(f"{label}: is {what}; output goes only to a regular file or a new name, never "
                              "through a link or onto a device, so nothing was written")


def _umask() -> int:
    """The process's umask, read without changing it (``os.umask`` would, for a moment, for
    every thread)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


Writer = Callable[[BinaryIO], object]


def write_file(path: str | os.PathLike, data: str | bytes | Writer, *, name: str | None = None) -> Path:
    """Write ``data`` to ``path`` atomically, as a regular file (see the module's description).

    ``data``: text (written as UTF-8 with ``\\n`` line ends), bytes, or a function that writes
    into the binary file object it is given (e.g. ``lambda f: df.to_parquet(f)``). ``name``: the
    option the path came from (``"--out"``), named in the refusal. Returns the path."""
    path = Path(path)
    check_output_path(path, name)
    folder = path.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:100]}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            if isinstance(data, str):
                f.write(data.encode("utf-8"))
            elif isinstance(data, (bytes, bytearray, memoryview)):
                f.write(data)
            else:
                data(f)
            f.flush()
            try:
                old = os.lstat(path).st_mode
            except FileNotFoundError:
                old = None
            mode = stat.S_IMODE(old) if old is not None and stat.S_ISREG(old) else 0o666 & ~_umask()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        check_output_path(path, name)  # once more just before the rename (it replaces what it finds)
        os.replace(tmp, path)
    except BaseException as err:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(err, OSError) and err.filename is None and err.errno:  # e.g. a full disk: name the file
            raise OSError(err.errno, err.strerror, os.fspath(path)) from None
        raise
    _sync_folder(folder)
    return path


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: some file systems cannot sync a folder)."""
    try:
        fd = os.open(folder if str(folder) else ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
