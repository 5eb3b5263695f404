"""How far is the solo planner from the best its rollouts could tell it? Regret against gold values.

A seeded solo game is played by a quick planner to a random roll. Every candidate the solo planner
would consider there is rolled out ``--gold`` times with the planner's own rollout policy (rollout
i with the same dice for every candidate): its *gold* value, what the planner estimates with fewer
rollouts. Each planner setting then decides the position with its own dice, and its *regret* is
the gold value it gave up (the best candidate's minus its choice's). The mean regret a decision,
times the game's 30 rolls, is about what a game's score could gain from more rollouts of the same
policy (a little high: the best of many noisy gold values is itself a little high). "greedy"
is the regret of greedy's own choice, for scale: what the search adds a decision.

    python tools/solo_regret.py --positions 40 --gold 1500
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from nochmal.bots.kernel.solo_driver import solo_sim
from nochmal.bots.planner import plan, seat_candidates
from nochmal.bots.settings import PLANNER_CONFIGS, PlannerConfig
from nochmal.engine.game import SoloGame
from nochmal.engine.sheet import shipped_sheet_ids

SHIPPED = PLANNER_CONFIGS["solo"]
SETTINGS = {
    "shipped": SHIPPED,
    "half the rollouts": dataclasses.replace(SHIPPED, rollouts=SHIPPED.rollouts // 2),
    "twice the rollouts": dataclasses.replace(SHIPPED, rollouts=SHIPPED.rollouts * 2),
}
#: plays the games to their positions (a planner with an eighth of the shipped rollouts)
QUICK = dataclasses.replace(SHIPPED, rollouts=SHIPPED.rollouts // 8)


def position(k: int, sheet: str):
    """Position ``k``: a seeded solo game played by :data:`QUICK` to the active phase of a random roll."""
    st = SoloGame([sheet]).new_state()
    rng = random.Random(77_000 + k)
    stop = rng.randrange(st.game.n_rolls - 1)
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply(st.sample_roll(rng))
        elif st.roll_index >= stop:
            return st
        else:
            st.apply(plan(st, rng, QUICK)[0][0])
    return None


def gold_values(state, cands, n: int) -> np.ndarray:
    """Each candidate's mean over ``n`` rollouts of the planner's rollout policy, the same dice
    for all (seeds apart from the planner's own)."""
    sim = solo_sim(state.game)
    boards, jokers, rolls = sim.candidate_starts(state, 0, cands)
    total = np.zeros(len(cands))
    for i in range(n):
        total += sim.play_rollouts(boards, jokers, sim.draw(random.Random(10**9 + i), rolls))
    return total / n


def regrets(args) -> dict | None:
    """Position ``k``'s gold values and each setting's regret (``reps`` decisions, other seeds)."""
    k, sheet, n_gold, settings, reps = args
    st = position(k, sheet)
    if st is None:
        return None
    cands = seat_candidates(st, 0, SHIPPED.candidates, random.Random(k))
    gold = gold_values(st, cands, n_gold)
    best = float(gold.max())
    out = {"k": k, "roll": st.roll_index, "candidates": len(cands), "greedy": best - float(gold[0])}
    for name, cfg in settings.items():
        picks = [plan(st, random.Random(1_000 * k + rep), cfg)[0][0] for rep in range(reps)]
        out[name] = statistics.fmean(best - float(gold[cands.index(a)]) for a in picks)
    return out


def report(rows: list[dict], names: list[str], rolls: int) -> None:
    print(f"{len(rows)} positions; regret: gold value given up a decision (95% interval), and times {rolls} rolls")
    for name in ["greedy"] + names:
        xs = [r[name] for r in rows]
        m = statistics.fmean(xs)
        half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")
        per_game = "(greedy's own choice, for scale)" if name == "greedy" else f"{m * rolls:6.2f} a game"
        print(f"  {name:20s} {m:7.4f} +- {half:.4f} a decision   {per_game}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--gold", type=int, default=1500, help="rollouts a candidate for the gold values")
    ap.add_argument("--reps", type=int, default=3, help="decisions a setting makes a position (other seeds)")
    ap.add_argument("--sheet", default="standard", choices=shipped_sheet_ids(), help="a shipped sheet (they have fitted tables)")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args(argv)
    if a.positions < 2 or a.gold < 2 or a.reps < 1 or a.workers < 1:
        ap.error("--positions and --gold need at least 2, --reps and --workers at least 1")
    jobs = [(k, a.sheet, a.gold, SETTINGS, a.reps) for k in range(a.positions)]
    with ProcessPoolExecutor(a.workers) as ex:
        rows = [r for r in ex.map(regrets, jobs) if r is not None]
    report(rows, list(SETTINGS), SoloGame([a.sheet]).n_rolls)
    return 0


if __name__ == "__main__":
    sys.exit(main())
