"""``nochmal sweep``: simulate many co-op games per mission and player count, write CSV/Parquet."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from nochmal.cli import args as at
from nochmal.cli.args import UsageError
from nochmal.engine.errors import InvalidInputError


def _check_sweep(args) -> None:
    if args.parts is None:  # the default OUT.parts folder
        parts = Path(args.out).with_name(Path(args.out).name + ".parts")
        if parts.exists() and not parts.is_dir():
            raise UsageError(f"--out {args.out}: {parts} (its parts folder) is a file; remove it or give --parts")
    if args.tableau is not None:
        from nochmal.analytics.sweep import _tableau_players

        n = _tableau_players(args.tableau)
        if n not in args.players:
            raise UsageError(f"--tableau {args.tableau} is a tableau for {n} players, but --players lists only "
                             f"{','.join(map(str, args.players))}: the sweep would play no game")


def _cmd_sweep(args) -> int:
    from nochmal.analytics.sweep import SweepSpec, run_sweep, write_rows

    out = Path(args.out)
    before = []
    if args.add:  # checked before any game is played
        before = _rows_to_add_to(out, args.policy)
    spec = SweepSpec(missions=args.missions, players=args.players, policies=args.policy, games=args.games,
                     seed=args.seed, tableaus=[args.tableau] if args.tableau else [None], chunk=args.chunk,
                     cells=not args.no_cells)
    state = {"bar": None}

    def on_progress(done, total):
        if args.quiet:
            return
        if state["bar"] is None:
            from tqdm import tqdm

            state["bar"] = tqdm(total=total, initial=done, desc="sweep", unit="game", file=sys.stderr)
        else:
            state["bar"].update(done - state["bar"].n)

    parts = Path(args.parts) if args.parts else out.with_name(out.name + ".parts")
    rows = run_sweep(spec, parts, workers=args.workers, dask_local=args.dask_local, scheduler=args.scheduler,
                     on_progress=on_progress)
    if state["bar"] is not None:
        state["bar"].close()
    write_rows(before + rows, out)
    print(json.dumps({"games": len(rows), "out": str(out), "parts": str(parts), "rows_in_out": len(before) + len(rows)}))
    return 0


def _rows_to_add_to(out: Path, policies: list[str]) -> list[dict]:
    """The rows of the results file ``out`` that ``sweep --add`` keeps: refused (naming the
    file and why) if it is missing, not a sweep's results, or already holds one of ``policies``."""
    from nochmal.analytics.sweep import read_rows

    if not out.is_file():
        raise InvalidInputError(f"--add: {out} does not exist yet (run the first sweep without --add)")
    df = read_rows(out)
    if "policy" not in df.columns:
        raise InvalidInputError(f"--add: {out} is not the results of nochmal sweep (no column 'policy')")
    clash = sorted(set(policies) & set(df["policy"].astype(str)))
    if clash:
        raise InvalidInputError(f"--add: {out} already holds games of {', '.join(clash)}: "
                                "add other policies, or sweep without --add to replace the file")
    return df.to_dict(orient="records")


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Add ``nochmal sweep`` to the command line."""
    sw = subparsers.add_parser("sweep", help="simulate many co-op games per mission and player count, write "
                                             "CSV/Parquet")
    sw.add_argument("--missions", type=at.int_ranges("--missions", 1, 5), default="1-5", help="e.g. 1-5 or 1,3")
    sw.add_argument("--players", type=at.int_ranges("--players", 1, 6), default="1-6", help="e.g. 1-6 or 2,4")
    sw.add_argument("--policy", type=at.policy_list, default="greedy", help="one policy or several, comma-separated")
    sw.add_argument("--games", type=at.int_in("--games", 1, at.MAX_GAMES), default=100,
                    help="games per mission x player count x policy")
    sw.add_argument("--seed", type=at.int_in("--seed", -(2**63)), default=0)
    sw.add_argument("--tableau", type=at.existing_file("--tableau"), default=None,
                    help="a tableau file (used for its player count only)")
    sw.add_argument("--out", type=at.output_file("--out", (".csv", ".parquet")), required=True,
                    help="results file: .csv or .parquet")
    sw.add_argument("--parts", type=at.output_folder("--parts"), default=None,
                    help="folder for finished chunks (resume); default OUT.parts")
    sw.add_argument("--chunk", type=at.int_in("--chunk", 1), default=25, help="games per chunk")
    sw.add_argument("--workers", type=at.int_in("--workers", 1, at.MAX_WORKERS), default=None,
                    help="local process pool size (default: all cores)")
    grp = sw.add_mutually_exclusive_group()
    grp.add_argument("--dask-local", type=at.int_in("--dask-local", 1, at.MAX_WORKERS), default=None, metavar="K",
                     help="run on a Dask LocalCluster with K workers")
    grp.add_argument("--scheduler", type=at.scheduler_address, default=None, metavar="ADDR",
                     help=f"run on an existing Dask cluster, tcp://host:port (must answer within "
                          f"{at.SCHEDULER_TIMEOUT_S:g} s)")
    sw.add_argument("--no-cells", action="store_true", help="leave out the crossed cells of every game")
    sw.add_argument("--add", action="store_true",
                    help="add the rows to the results already in --out (other policies only, e.g. the bound with "
                         "fewer games beside the greedy)")
    sw.add_argument("--quiet", action="store_true")
    sw.set_defaults(func=_cmd_sweep, check=_check_sweep)
    return sw
