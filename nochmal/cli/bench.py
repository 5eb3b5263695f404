"""``nochmal bench``: measure the engine's speed."""

from __future__ import annotations

import argparse

from nochmal.cli.terminal import print_table


def _cmd_bench(args) -> int:
    from nochmal.analytics.bench import run_bench

    res = run_bench(quick=args.quick)
    print_table(res, args.json, width=28)
    return 0


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Add ``nochmal bench`` to the command line."""
    be = subparsers.add_parser("bench", help="measure engine speed")
    be.add_argument("--json", action="store_true")
    be.add_argument("--quick", action="store_true", help="fewer samples (for smoke tests)")
    be.set_defaults(func=_cmd_bench)
    return be
