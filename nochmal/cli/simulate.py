"""``nochmal simulate``: play many seeded games with a policy and summarise them. Any game of the
registry (``--game``, :mod:`nochmal.store.games`): *Noch mal!* by mode (and mission), in worker
processes; a game without modes through its entry's ``simulate``."""

from __future__ import annotations

import argparse
import os

from nochmal.cli import args as at
from nochmal.cli.game_options import add_game_options, check_game_args
from nochmal.cli.terminal import print_table
from nochmal.data.modes import mode
from nochmal.store.games import game_kind


#: games a worker plays in one go (the compiled co-op game plays a batch in one call); the planner one by one
SIMULATE_BATCH = 50


def _play_batch(job: tuple) -> list[dict]:
    from nochmal.analytics.simulate import play_games

    return play_games(*job)


def _cmd_simulate(args) -> int:
    kind = game_kind(args.game)
    if kind.simulate is not None:
        return _simulate_game(args, kind)
    from nochmal.analytics.simulate import game_seed, progress, summarize

    seeds = [game_seed(args.seed, args.mode, args.players, args.mission, args.policy, i) for i in range(args.games)]
    size = 1 if args.policy == "planner" else SIMULATE_BATCH
    jobs = [(args.mode, args.policy, seeds[i:i + size], args.players, args.mission, args.sheets, args.tableau)
            for i in range(0, len(seeds), size)]
    workers = min(args.workers or os.cpu_count() or 1, len(jobs))
    bar = f"{args.mode}/{args.policy}"
    rows: list[dict] = []
    if workers == 1:
        batches = map(_play_batch, jobs)
    else:  # the same rows in the same order whatever the number of processes (a game's seed is its own)
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=workers)
        batches = pool.map(_play_batch, jobs)
    try:
        for row in progress((r for batch in batches for r in batch), args.games, bar, not args.quiet):
            rows.append(row)
    finally:
        if workers > 1:
            pool.shutdown()
    out = summarize(rows)
    out.update({"mode": args.mode, "policy": args.policy, "seed": args.seed})
    if mode(args.mode).rules.has_mission:
        out.update({"players": rows[0]["players"], "mission": rows[0]["mission"]})
    print_table(out, args.json, width=12)
    return 0


def _simulate_game(args, kind) -> int:
    """``--games`` games of a game without modes, every seat played by ``--policy``: the mean
    score and its spread, the wins, the rounds; ``--json`` one line."""
    import statistics
    import sys

    players = args.players if args.players is not None else (len(args.sheets) if args.sheets else kind.default_players)
    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(total=args.games, desc=f"{kind.name}/{args.policy}", file=sys.stderr, unit="game",
                   dynamic_ncols=True)
    try:
        rows = kind.simulate(players, args.policy, args.games, args.seed, args.sheets,
                             (lambda done, total: bar.update(1)) if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    scores = rows["score"].tolist()
    rounds = rows.drop_duplicates("game")["rounds"].tolist()
    out = {"game": kind.name, "policy": args.policy, "players": players, "games": args.games, "seed": args.seed,
           "mean_score": round(statistics.fmean(scores), 2),
           "sd_score": round(statistics.stdev(scores), 2) if len(scores) > 1 else 0.0,
           "se_score": round(statistics.stdev(scores) / len(scores) ** 0.5, 3) if len(scores) > 1 else 0.0,
           "min_score": min(scores), "max_score": max(scores),
           "mean_rounds": round(statistics.fmean(rounds), 2),
           "rows_done": round(float(rows["rows_done"].mean()), 2)}
    print_table(out, args.json, width=12)
    return 0


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Add ``nochmal simulate`` to the command line."""
    si = subparsers.add_parser("simulate", help="play many seeded games with a policy and summarise them")
    add_game_options(si, "solo", games=True)
    si.add_argument("--policy", default="greedy",
                    help="random, greedy or planner; or bound (the perfect-dice bound, co-op and solo); "
                         "twenty one: random, greedy, optimum or race")
    si.add_argument("--games", type=at.int_in("--games", 1, at.MAX_GAMES), default=100)
    si.add_argument("--seed", type=at.int_in("--seed", -(2**63)), default=0)
    si.add_argument("--json", action="store_true")
    si.add_argument("--quiet", action="store_true", help="no progress bar")
    si.add_argument("--workers", type=at.int_in("--workers", 1, at.MAX_WORKERS), default=None,
                    help="processes to play in (default: one per CPU)")
    si.set_defaults(func=_cmd_simulate, check=check_game_args)
    return si
