"""``nochmal fit-solo-values``: fit the solo planner's rollout tables for sheets."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from nochmal.cli import args as at
from nochmal.cli.terminal import say


def _cmd_fit_solo_values(args) -> int:
    """Fit the solo planner's completion tables (:mod:`nochmal.bots.solo_values`) for each sheet."""
    from tqdm import tqdm

    from nochmal.analytics.simulate import make_game
    from nochmal.bots import solo_values as sv
    from nochmal.bots.kernel.solo_driver import solo_sim
    from nochmal.engine.sheet import shipped_sheet_ids

    ids = args.sheets or shipped_sheet_ids()
    out_dir = Path(args.out) if args.out else sv.VALUES_DIR
    for sheet_id in ids:
        game = make_game("solo", sheets=[sheet_id])
        bar = tqdm(total=args.rounds, desc=f"solo tables {sheet_id}", unit="round", file=sys.stderr,
                   disable=args.quiet, dynamic_ncols=True)
        vt, rep = sv.fit(solo_sim(game), games=args.games, rounds=args.rounds, seed=args.seed,
                         progress=lambda k, n, r: (bar.update(1), bar.set_postfix(held_out=r["held_out_mean"])))
        bar.close()
        path = out_dir / f"{sheet_id}.npz"
        sv.save(path, vt, rep)
        say(f"{sheet_id}: the table policy averages {rep['held_out_mean']} on {rep['held_out']:,} other games "
            f"(round {rep['kept_round'] + 1} of {rep['rounds']}, {rep['seconds']} s) -> {path}")
    return 0


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Add ``nochmal fit-solo-values`` to the command line."""
    fs = subparsers.add_parser("fit-solo-values", help="fit the solo planner's rollout tables for sheets",
                               description="Fits the completion tables of the solo planner's rollout policy by "
                                           "self-play (about 40 s a sheet) and writes SHEET.npz into the folder.")
    fs.add_argument("--sheets", type=at.sheet_list, default=None,
                    help="comma-separated sheet ids (default: every shipped sheet)")
    fs.add_argument("--games", type=at.int_in("--games", 100, at.MAX_GAMES), default=40_000, help="games a round")
    fs.add_argument("--rounds", type=at.int_in("--rounds", 1, 100), default=12)
    fs.add_argument("--seed", type=at.int_in("--seed", 0, 2**63 - 1), default=1)
    fs.add_argument("--out", type=at.output_folder("--out"), default=None,
                    help="folder for the tables (default: boards/solo-values, where the planner looks)")
    fs.add_argument("--quiet", action="store_true", help="no progress bar")
    fs.set_defaults(func=_cmd_fit_solo_values)
    return fs
