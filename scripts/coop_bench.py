"""Games per second of the compiled co-op game (nochmal.bots.kernel) by policy and number
of seats, next to the Python engine playing the same seeded games (one core), and a greedy sweep
of every mission x 1-6 seats timed as a whole.

    python scripts/coop_bench.py [--games 2000] [--mission 1] [--python-games 20] [--threads 1]
                                        [--sweep 30000]
"""

from __future__ import annotations

import argparse
import time

from nochmal.bots.kernel import drivers, layout, records
from nochmal.engine.coop import CoopGame


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2_000, help="kernel games per policy and seat count")
    ap.add_argument("--mission", type=int, default=1)
    ap.add_argument("--python-games", type=int, default=20, help="engine games per policy and seat count (0: none)")
    ap.add_argument("--threads", type=int, default=1, help="numba threads for the kernel games")
    ap.add_argument("--sweep", type=int, default=0, help="greedy games spread over every mission x 1-6 seats (0: none)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    drivers.play_many(CoopGame.create(1, args.mission), [0], "greedy", threads=args.threads)  # compiled or cached
    print(f"kernel ready in {time.perf_counter() - t0:.1f} s")
    print(f"{'policy':<8} {'seats':>5} {'kernel games/s':>15} {'engine games/s':>15} {'turns':>6} {'won':>6}")
    for policy in layout.POLICIES:
        for seats in range(1, 7):
            game = CoopGame.create(seats, args.mission)
            drivers.play_many(game, [0], policy)  # tables built once per game configuration
            t0 = time.perf_counter()
            rows = drivers.play_many(game, range(args.games), policy, threads=args.threads)
            fast = args.games / (time.perf_counter() - t0)
            slow = float("nan")
            if args.python_games:
                t0 = time.perf_counter()
                for seed in range(args.python_games):
                    records.reference_state(game, seed, policy)
                slow = args.python_games / (time.perf_counter() - t0)
            print(f"{policy:<8} {seats:>5} {fast:>15,.0f} {slow:>15,.0f} {rows[:, layout.R_TURNS].mean():>6.1f} "
                  f"{rows[:, layout.R_WON].mean():>6.1%}")
    if args.sweep:
        games = [CoopGame.create(seats, mission) for mission in range(1, 6) for seats in range(1, 7)]
        for game in games:
            layout.coop_tables(game)
        each = -(-args.sweep // len(games))
        t0 = time.perf_counter()
        won = sum(int(drivers.play_many(game, range(each), "greedy", threads=args.threads)[:, layout.R_WON].sum())
                  for game in games)
        dt = time.perf_counter() - t0
        print(f"greedy sweep: {each * len(games):,} games (5 missions x 1-6 seats) in {dt:.1f} s "
              f"({each * len(games) / dt:,.0f} games/s, {args.threads} thread(s)), {won / (each * len(games)):.1%} won")


if __name__ == "__main__":
    main()
