"""The measurements of *twenty one* (issue 44, closing note): benchmarks, not timed tests.

* ``solve``: the time to compute the optimal practice policy for one sheet with a cold disk cache
  (and to read it back warm), and the optimal expected practice score of every stand-in sheet;
* ``practice``: ``--games`` practice games (T-PRACTICE) of the optimal policy against its exact
  expected value (within how many standard errors), and of the greedy bot (a wall-clock
  ``--budget`` in seconds stops each early: the games played are reported);
* ``legal``: the time of one ``legal_actions()`` (and of ``fits()``) at entering positions, in us;
* ``race``: the race bot's win share in 2-6 player games against the optimum and against the
  greedy (one race seat, the others the same bot; fair share 1/players), and the optimum's
  against the greedy for scale; ``--weights 1 2 3`` compares weights of the race term.

    python tools/twentyone_bench.py solve legal practice race --games 100000 --race-games 2000
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import timeit

from nochmal.analytics.simulate import game_seed
from nochmal.analytics.twentyone import simulate
from nochmal.bots.twentyone_greedy import greedy_policy
from nochmal.bots.twentyone_optimum import OptimalPractice, expected_score
from nochmal.bots.twentyone_race import RaceBot
from nochmal.engine.twentyone import SHEET_IDS, TwentyOneGame, get_sheet, play, sheet_from_rows
from nochmal.engine.twentyone.game import ENTER


def bench_solve() -> None:
    sheet = get_sheet("A")
    with tempfile.TemporaryDirectory() as cold:
        t = time.perf_counter()
        value = expected_score(sheet, cold)
        solve_s = time.perf_counter() - t
        t = time.perf_counter()
        expected_score(sheet, cold)
        warm_s = time.perf_counter() - t
    print(f"solve: optimal policy of sheet A, cold cache {solve_s:.3f} s, warm (read from disk) {warm_s * 1e3:.1f} ms")
    distinct = sheet_from_rows(["wkrbyg"] * 5, [[6, 5, 4, 3, 2, 1], [6, 6, 5, 4, 3, 2], [6, 5, 5, 4, 3, 2],
                                                [6, 5, 4, 4, 3, 2], [6, 5, 4, 3, 3, 1]])
    with tempfile.TemporaryDirectory() as cold:
        t = time.perf_counter()
        other = expected_score(distinct, cold)
        print(f"solve: a sheet of five different rows, cold cache {time.perf_counter() - t:.3f} s "
              f"(expected {other:.4f})")
    for s in SHEET_IDS:
        print(f"solve: sheet {s} optimal expected practice score {expected_score(get_sheet(s)):.4f}")
    print(f"solve: (all six share row values, so one table: {value:.4f})")


def practice_games(policy, games: int, seed: int, budget: float) -> list[int]:
    rng = random.Random(seed)
    sheet = get_sheet("A")
    scores, start = [], time.perf_counter()
    for _ in range(games):
        scores.append(play(TwentyOneGame([sheet]).new_state(), policy, rng).outcome().seats[0].total)
        if time.perf_counter() - start > budget:
            break
    return scores


def bench_practice(games: int, budget: float) -> None:
    expected = expected_score(get_sheet("A"))
    for name, policy in (("optimum", OptimalPractice()), ("greedy", greedy_policy)):
        t = time.perf_counter()
        scores = practice_games(policy, games, 2026, budget)
        took = time.perf_counter() - t
        mean, sd = statistics.fmean(scores), statistics.stdev(scores)
        se = sd / len(scores) ** 0.5
        print(f"practice: {name} {len(scores)} games (of {games} asked) mean {mean:.3f} sd {sd:.3f} se {se:.3f} "
              f"vs optimum {expected:.4f}: diff {mean - expected:+.3f} = {(mean - expected) / se:+.2f} se "
              f"({took:.1f} s, {took / len(scores) * 1e3:.3f} ms a game)")


def bench_legal(positions: int) -> None:
    rng = random.Random(5)
    states = []
    while len(states) < positions:
        state = TwentyOneGame.create(rng.randint(1, 6)).new_state()
        for _ in range(rng.randrange(300)):
            if state.is_terminal():
                break
            state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        while state.is_chance_node():
            state.apply(state.sample_chance(rng))
        if state.phase == ENTER:
            states.append(state)
    n = 2000
    for what, call in (("legal_actions()", lambda s: s.legal_actions()), ("fits(seat)", lambda s: s.fits(s.pending[0]))):
        per = [min(timeit.repeat(lambda: call(s), number=n, repeat=3)) / n * 1e6 for s in states]
        print(f"legal: {what} at {len(states)} entering positions: mean {statistics.fmean(per):.2f} us, "
              f"median {statistics.median(per):.2f} us, max {max(per):.2f} us, "
              f"actions {statistics.fmean(len(s.legal_actions()) for s in states):.1f} on average")


def seatwise(bots: list):
    def policy(state, rng):
        return bots[state.current_player()](state, rng)

    return policy


def win_share(me, other, players: int, games: int, seed: int) -> tuple[float, float]:
    """``me`` in seat ``g % players`` of game ``g``, ``other`` in every other seat: the mean win
    share of ``me`` and its standard error."""
    shares = []
    for g in range(games):
        rng = random.Random(game_seed(seed, "twentyone-bench", players, g))
        seat = g % players
        bots = [other] * players
        bots[seat] = me
        out = play(TwentyOneGame(rng.sample(SHEET_IDS, players)).new_state(), seatwise(bots), rng).outcome()
        shares.append(1 / len(out.winners) if seat in out.winners else 0.0)
    return statistics.fmean(shares), statistics.stdev(shares) / len(shares) ** 0.5


def bench_race(games: int, weights: list[float] | None) -> None:
    optimum = OptimalPractice()
    if weights:
        for w in weights:
            race = RaceBot(w)
            cells = []
            for n in range(2, 7):
                a, _ = win_share(race, optimum, n, games, 1)
                b, _ = win_share(race, greedy_policy, n, games, 2)
                cells.append(f"{n}p {a:.3f}/{b:.3f}")
            print(f"race weight {w}: win share vs optimum / vs greedy (fair 1/n): " + ", ".join(cells), flush=True)
        return
    for n in range(2, 7):
        t = time.perf_counter()
        df = simulate(n, ["race"] + ["optimum"] * (n - 1), games, 1)
        vs_opt = df[df["seat"] == 0]["win_share"]
        df = simulate(n, ["race"] + ["greedy"] * (n - 1), games, 2)
        vs_greedy = df[df["seat"] == 0]["win_share"]
        df = simulate(n, ["optimum"] + ["greedy"] * (n - 1), games, 3)
        opt_greedy = df[df["seat"] == 0]["win_share"]
        se = [s.std() / len(s) ** 0.5 for s in (vs_opt, vs_greedy, opt_greedy)]
        print(f"race: {n} players, {games} games a cell, fair share {1 / n:.3f}: race vs optimum "
              f"{vs_opt.mean():.3f} (se {se[0]:.3f}), race vs greedy {vs_greedy.mean():.3f} (se {se[1]:.3f}); "
              f"optimum vs greedy {opt_greedy.mean():.3f} (se {se[2]:.3f}) [{time.perf_counter() - t:.0f} s]",
              flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="+", choices=["solve", "practice", "legal", "race"])
    parser.add_argument("--games", type=int, default=100_000, help="practice games per bot")
    parser.add_argument("--budget", type=float, default=1200.0, help="seconds per bot's practice games at most")
    parser.add_argument("--race-games", type=int, default=2000, help="games per race cell")
    parser.add_argument("--weights", type=float, nargs="*", help="compare these weights of the race term")
    parser.add_argument("--positions", type=int, default=200, help="entering positions timed")
    args = parser.parse_args(argv)
    for what in args.what:
        if what == "solve":
            bench_solve()
        elif what == "practice":
            bench_practice(args.games, args.budget)
        elif what == "legal":
            bench_legal(args.positions)
        else:
            bench_race(args.race_games, args.weights)
    return 0


if __name__ == "__main__":
    sys.exit(main())
