"""Speed measurements (``nochmal bench``). Benchmarks, never timed tests.

legal_moves_us
    median microseconds to enumerate every legal move of one player for one full roll of six
    dice (three colour, three number, jokers included) on mid-game positions, from a cold
    position (the seat's move table is computed afresh for every sample; the per-block memo of
    the sheet, a fixed precomputation, is warm).
legal_moves_jokers_us
    the same, restricted to rolls that show at least one X and one ? (the largest move lists).
random_decisions_per_s
    decisions (enumerate + choose + apply) per second in whole 4-player base games with the
    random policy, on one core; rolls are sampled and applied in the same loop.
greedy_decision_us
    median microseconds of one greedy decision in whole 4-player base games.
planner_decision_s, planner_solo_decision_s
    median seconds of one planner decision on mid-game 6-seat co-op positions, and over whole
    solo games (each mode with its own settings, ``nochmal.bots.settings.PLANNER_CONFIGS``).
solo_greedy_game_us, solo_table_game_us
    median microseconds of one whole solo game from an empty standard sheet as the solo planner's
    rollouts play it, greedy's and the table policy's (``nochmal.bots.solo_values``), 50 games a call.
coop_planner_game_s
    mean seconds of one whole co-op game of the analytics' planner in compiled code
    (``nochmal.bots.settings.ANALYTICS_COOP``) on one core, over every mission and 1-6 seats,
    two seeded games each (quick: mission 2 with 1 and 6 seats, one game each): a planner sweep
    of 6,000 games takes about 6,000 x this / the cores.
advisor_s, advisor_max_s, advisor_overlap
    median and longest seconds of the Table page's advisor (``nochmal.bots.advice.suggestions``, three
    suggestions, the budget of one seat) on co-op positions (every mission, 3 and 6 seats, rolls 4, 11
    and 18, greedy play to get there; the kernel compiled first, not timed), and the share of them whose
    top three have 95 % intervals that overlap (quick: two positions).
"""

from __future__ import annotations

import random
import statistics
import time

from nochmal.bots.greedy import greedy_policy
from nochmal.bots.planner import plan, planner_policy
from nochmal.bots.policies import random_policy
from nochmal.engine.coop import CoopGame
from nochmal.engine.dice import COLOUR_JOKER, NUMBER_JOKER, Roll
from nochmal.engine.game import BaseGame, SoloGame, play
from nochmal.engine.moves import legal_moves
from nochmal.engine.sheet import get_sheet, sheet_ids


#: the sheets of the 4-player base games the engine and bot figures are timed on
BENCH_SHEETS = ("standard", "red", "blue", "green")


def midgame_positions(n: int, seed: int = 12345) -> list[tuple]:
    """(sheet, crossed, jokers_left) taken from random 4-player base games between roll 15
    and the end, every shipped verified sheet."""
    rng = random.Random(seed)
    sheets = [sh for sh in map(get_sheet, sheet_ids()) if sh.provenance == "verified"]
    out = []
    while len(out) < n:
        game = BaseGame([rng.choice(sheets) for _ in range(4)])
        st = game.new_state()
        stop_at = rng.randint(15, 40)
        while not st.is_terminal() and st.roll_index < stop_at:
            if st.is_chance_node():
                st.apply(st.sample_roll(rng))
            else:
                st.apply(random_policy(st, rng))
        out.extend((s.sheet, s.crossed, s.jokers_left) for s in st.seats if s.crossed)
    return out[:n]


def _time_enumeration(positions, rolls) -> tuple[float, int]:
    samples = []
    total_moves = 0
    clock = time.perf_counter_ns
    for (sheet, crossed, jl), roll in zip(positions, rolls):
        t0 = clock()
        ml = legal_moves(sheet, crossed, jl, roll.colours, roll.numbers)
        t1 = clock()
        samples.append(t1 - t0)
        total_moves += len(ml)
    return statistics.median(samples) / 1000.0, total_moves // max(1, len(samples))


def bench_legal_moves(n: int = 4000, seed: int = 7) -> dict:
    rng = random.Random(seed)
    positions = midgame_positions(n)
    rolls = [Roll.sample(rng, 3, 3) for _ in positions]
    joker_rolls = []
    while len(joker_rolls) < len(positions):
        r = Roll.sample(rng, 3, 3)
        if COLOUR_JOKER in r.colours and NUMBER_JOKER in r.numbers:
            joker_rolls.append(r)
    _time_enumeration(positions[:500], rolls[:500])  # warm the per-block memo
    _time_enumeration(positions[:500], joker_rolls[:500])
    us, mean_moves = _time_enumeration(positions, rolls)
    jus, jmean = _time_enumeration(positions, joker_rolls)
    return {"legal_moves_us": round(us, 2), "legal_moves_mean_count": mean_moves,
            "legal_moves_jokers_us": round(jus, 2), "legal_moves_jokers_mean_count": jmean,
            "positions": len(positions)}


def bench_random_decisions(seconds: float = 3.0, seed: int = 99) -> dict:
    rng = random.Random(seed)
    decisions = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        st = play(BaseGame(list(BENCH_SHEETS)).new_state(), random_policy, rng)
        decisions += sum(1 for a in st.history if not isinstance(a, Roll))
        games += 1
    el = time.perf_counter() - t0
    return {"random_decisions_per_s": round(decisions / el), "random_games": games}


# --------------------------------------------------------------------------- bots
def _decision_times(st, policy, rng: random.Random) -> list[float]:
    """Play ``st`` to the end with ``policy``; the seconds each decision took."""
    times = []
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply(st.sample_roll(rng))
            continue
        t0 = time.perf_counter()
        a = policy(st, rng)
        times.append(time.perf_counter() - t0)
        st.apply(a)
    return times


def bench_bots(quick: bool = False) -> dict:
    rng = random.Random(3)
    samples = []
    for g in range(20 if quick else 200):
        samples += _decision_times(BaseGame(list(BENCH_SHEETS)).new_state(), greedy_policy, rng)
    out = {"greedy_decision_us": round(statistics.median(samples) * 1e6, 2)}
    # planner on 6-seat co-op positions (mid-game, greedy play to get there)
    ptimes = []
    for k in range(2 if quick else 6):
        st = CoopGame.create(6, mission=1 + k % 5).new_state()
        r = random.Random(k)
        while not st.is_terminal() and st.roll_index < 8:
            st.apply(st.sample_roll(r) if st.is_chance_node() else greedy_policy(st, r))
        if st.is_terminal():
            continue
        if st.is_chance_node():
            st.apply(st.sample_roll(r))
        t0 = time.perf_counter()
        plan(st, r)
        ptimes.append(time.perf_counter() - t0)
    out["planner_decision_s"] = round(statistics.median(ptimes), 3) if ptimes else None
    # the solo planner (its own settings) over whole games
    stimes = []
    for k in range(1 if quick else 3):
        stimes += _decision_times(SoloGame(["standard"]).new_state(), planner_policy, random.Random(100 + k))
    out["planner_solo_decision_s"] = round(statistics.median(stimes), 3)
    out.update(_solo_rollout_game_us(5 if quick else 40))
    cells = [(2, 1), (2, 6)] if quick else [(m, n) for m in range(1, 6) for n in range(1, 7)]
    out["coop_planner_game_s"] = _coop_planner_game_s(cells, 1 if quick else 2)
    return out


def _solo_rollout_game_us(calls: int) -> dict:
    """``solo_greedy_game_us`` and ``solo_table_game_us`` (each call 50 games with one roll
    sequence, as the planner's rollouts of 50 candidates; the first call compiles, not timed)."""
    from nochmal.bots.kernel.solo_driver import solo_sim

    sim = solo_sim(SoloGame(["standard"]))
    boards, jokers = sim.positions([(0, sim.sheet.jokers)] * 50)
    out = {}
    for name, run in (("solo_greedy_game_us", lambda d: sim.play(boards, jokers, d)),
                      ("solo_table_game_us", lambda d: sim.play_rollouts(boards, jokers, d))):
        if name == "solo_table_game_us" and sim.rollout_policy != "tables":
            out[name] = None
            continue
        run(sim.draw(random.Random(0), sim.n_rolls))
        times = []
        for k in range(calls):
            dice = sim.draw(random.Random(k + 1), sim.n_rolls)
            t0 = time.perf_counter()
            run(dice)
            times.append((time.perf_counter() - t0) / 50)
        out[name] = round(statistics.median(times) * 1e6, 1)
    return out


def _coop_planner_game_s(cells, games: int) -> float:
    """``coop_planner_game_s`` over ``cells`` (mission, seats), ``games`` each (the kernel
    compiled first, not timed)."""
    from nochmal.bots.kernel import drivers
    from nochmal.bots.settings import ANALYTICS_COOP

    drivers.warm()
    total = 0.0
    for mission, seats in cells:
        game = CoopGame.create(seats, mission)
        t0 = time.perf_counter()
        drivers.play_many(game, range(700, 700 + games), "planner", cfg=ANALYTICS_COOP)
        total += time.perf_counter() - t0
    return round(total / (len(cells) * games), 3)


def advisor_positions(quick: bool = False) -> list[tuple]:
    """(state, seat) of :func:`bench_advisor`: a seat that decides now, in co-op games played by greedy."""
    cells = [(1, 3, 4), (5, 6, 11)] if quick else [(m, n, r) for m in range(1, 6) for n in (3, 6) for r in (4, 11, 18)]
    out = []
    for k, (mission, seats, rolls) in enumerate(cells):
        st = CoopGame.create(seats, mission).new_state()
        r = random.Random(500 + k)
        while not st.is_terminal() and (st.roll_index < rolls or not st.is_chance_node()):
            st.apply(st.sample_roll(r) if st.is_chance_node() else greedy_policy(st, r))
        if st.is_terminal():
            continue
        st.apply(st.sample_roll(r))
        out.append((st, st.current_player()))
    return out


def bench_advisor(quick: bool = False) -> dict:
    """``advisor_s``, ``advisor_max_s`` and ``advisor_overlap`` (the module's docstring)."""
    from nochmal.bots.kernel import drivers
    from nochmal.bots.advice import suggestions

    drivers.warm()
    times, overlap = [], 0
    for st, seat in advisor_positions(quick):
        t0 = time.perf_counter()
        sug = suggestions(st, seat, k=3, rng_seed=st.roll_index)
        times.append(time.perf_counter() - t0)
        lows = [s.win_low for s in sug if s.win_low is not None]
        highs = [s.win_high for s in sug if s.win_high is not None]
        overlap += len(lows) > 1 and max(lows) <= min(highs)
    return {"advisor_s": round(statistics.median(times), 3), "advisor_max_s": round(max(times), 3),
            "advisor_overlap": round(overlap / len(times), 2)}


def bench_scan(n: int = 13, seed: int = 20) -> dict:
    """Seconds per scan of a photo of a printed sheet (issue 20's goal: at most 2 s): ``n``
    seeded synthetic photos (1600 x 1200, every distortion on) of the shipped sheets in turn, each
    read from its JPEG bytes as an upload is; the median. The rendering is not timed."""
    import cv2
    import numpy as np

    from nochmal.data.scan.reader import scan_bytes
    from nochmal.data.scan.synth import synthetic_photo
    from nochmal.engine.sheet import shipped_sheet_ids

    ids = shipped_sheet_ids()
    times = []
    for i in range(n):
        photo = synthetic_photo(ids[i % len(ids)], np.random.default_rng([seed, i]))
        data = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()
        t0 = time.perf_counter()
        scan_bytes(data)
        times.append(time.perf_counter() - t0)
    return {"scan_s": round(statistics.median(times), 3), "scan_max_s": round(max(times), 3)}


def run_bench(quick: bool = False) -> dict:
    res = {}
    res.update(bench_legal_moves(n=400 if quick else 4000))
    res.update(bench_random_decisions(seconds=0.5 if quick else 3.0))
    res.update(bench_bots(quick=quick))
    res.update(bench_advisor(quick=quick))
    res.update(bench_scan(n=3 if quick else 13))
    return res
