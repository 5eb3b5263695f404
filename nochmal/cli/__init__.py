"""Command line: ``nochmal legal-moves | play | bench | ...`` (``nochmal --help``).

Every argument is checked before any work starts: by its argparse ``type`` (numbers and their
ranges, files that must exist, folders that must be writable, a Dask scheduler that must
answer) and then, for what depends on several arguments (players per mode, sheets per
player, a tableau's player count), by the command's ``check``. A wrong argument gives exit
code 2 and one line ``nochmal: error: ...`` naming it; nothing is written. Text from files,
the store or the user is printed through :func:`nochmal.cli.terminal.printable`.

Each command lives in a module of its own (``nochmal/cli/play.py``, ``games.py``, ...) that adds
its parser with ``add_cli``; this module only builds the parser from them and dispatches."""

from __future__ import annotations

import argparse
import os
import sys

from nochmal.cli import bench, boards, calibrate, games, legal_moves, play, serve, simulate, solo_values, sweep
from nochmal.cli.terminal import printable
from nochmal.engine.errors import NochmalError


class _Parser(argparse.ArgumentParser):
    """argparse, but a wrong argument gives one line (no usage block): nochmal: error: ..."""

    def error(self, message: str):  # noqa: D401
        head, sep, rest = message.partition(": ")
        if head.startswith("argument ") and sep and rest.startswith(tuple(head[len("argument "):].split("/"))):
            message = rest  # our messages name their option already
        self.exit(2, f"nochmal: error: {printable(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="nochmal", description="Noch mal! rules engine, co-op mission leader and analytics")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    # in the order of nochmal --help (serve: the app with a fresh owner code)
    for command in (legal_moves, play, simulate, sweep, calibrate, games, boards, serve, solo_values, bench):
        command.add_cli(sub)
    return p


def _error(message: object, code: int = 2) -> int:
    print(f"nochmal: error: {printable(message)}", file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a name the terminal's encoding cannot show: escaped, not a crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    from nochmal.store.db import StoreError

    check = getattr(args, "check", None)
    try:
        if check is not None:
            try:
                check(args)
            except NochmalError as err:
                command = " ".join(x for x in ("nochmal", args.command, getattr(args, "boards_action", None)) if x)
                return _error(f"{err} (see {command} --help)")
        return args.func(args)
    except (NochmalError, StoreError) as err:
        return _error(err)
    except BrokenPipeError:  # e.g. piping into head
        return 0
    except KeyboardInterrupt:
        return _error("interrupted", 130)
    except OSError as err:  # a disk full, a file that vanished, a scheduler that hung up
        where = f"{err.filename}: " if getattr(err, "filename", None) else ""
        return _error(f"{where}{err.strerror or err}", 1)
    except Exception as err:  # noqa: BLE001 - a bug: one line, not a traceback (NOCHMAL_TRACEBACK=1 shows it)
        if os.environ.get("NOCHMAL_TRACEBACK"):
            raise
        return _error(f"unexpected {type(err).__name__}: {err} (a bug: please report it; set NOCHMAL_TRACEBACK=1 "
                      "to see where)", 1)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
