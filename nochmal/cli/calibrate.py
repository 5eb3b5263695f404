"""``nochmal calibrate``: the calibration report for the tableaus from a sweep's results."""

from __future__ import annotations

import argparse
import json
import sys

from nochmal.cli import args as at
from nochmal.cli.terminal import say
from nochmal.engine.errors import NochmalError


def _say_replay(mission: int, players: int, key: str, counts) -> None:
    print(f"calibrate: playing M{mission} with {players} player(s) again with {key} = "
          f"{counts.start}..{counts.stop - 1} (until the rate falls to the ladder's)", file=sys.stderr, flush=True)


def _cmd_calibrate(args) -> int:
    from nochmal.analytics.calibrate import calibration_report

    try:
        rep = calibration_report(args.results, ladder=args.ladder, on_replay=_say_replay)
    except KeyError as err:  # a table that is not a sweep's results
        raise NochmalError(f"{args.results}: not the results of nochmal sweep (no column {err})") from None
    if args.json:
        print(json.dumps(rep))
    else:
        for line in rep["text"].splitlines():
            say(line)
    return 0


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Add ``nochmal calibrate`` to the command line."""
    ca = subparsers.add_parser("calibrate", help="calibration report for the tableaus from a sweep's results")
    ca.add_argument("results", type=at.existing_file("results", (".csv", ".parquet")),
                    help="a results file written by nochmal sweep")
    ca.add_argument("--ladder", type=at.ladder, default="0.8,0.65,0.5,0.35,0.2",
                    help="wanted win rates for missions 1..5 (comma-separated)")
    ca.add_argument("--json", action="store_true")
    ca.set_defaults(func=_cmd_calibrate)
    return ca
