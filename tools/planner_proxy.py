"""How much does the co-op planner's choice rule gain a decision? A proxy that needs no whole games.

``collect`` plays seeded greedy co-op games to a decision, rolls every candidate the planner
would consider out R times (rollout i with the same dice for every candidate) and saves the
rollout values. ``compare`` then replays the planner's choice rules on those numbers: each rule
sees a random subset of the rollouts (as many as its work budget buys) and its choice is scored
by the *other* rollouts (held out), as gain over greedy's choice. Averaged over positions and
splits, that is the expected value a rule adds to one decision, with far less noise than whole
games. The selection uses :func:`nochmal.bots.planner._clearly_better`, the planner's own test.

    python tools/planner_proxy.py collect --seats 3-6 --positions 80 --out proxy36.json
    python tools/planner_proxy.py compare proxy36.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor

from nochmal.bots.greedy import _weights_for, greedy_policy, ranked_moves, team_choices, team_choosing
from nochmal.bots.planner import _clearly_better, rollout
from nochmal.bots.settings import COOP_PLAN_WORK, PlannerConfig
from nochmal.engine.moves import PASS
from nochmal.analytics.sweep import parse_range
from nochmal.engine.coop import CoopGame


def _decision(k: int, seats: list[int], kind: str):
    """Position k: a seeded greedy game stopped at the first decision of ``kind`` after a random roll."""
    n = seats[k % len(seats)]
    mission = 1 + (k // len(seats)) % 5
    st = CoopGame.create(n, mission=mission).new_state()
    rng = random.Random(9000 + k)
    stop = rng.randint(1, 25)

    def due() -> bool:
        if st.is_chance_node() or st.current_player() < 0:
            return False
        seat = st.current_player()
        if kind == "team":
            return team_choosing(st, seat) or n == 1
        return st.phase == "passive" and len(st.legal_actions()) > 2

    while not st.is_terminal() and (st.roll_index < stop or not due()):
        st.apply(st.sample_roll(rng) if st.is_chance_node() else greedy_policy(st, rng))
    return None if st.is_terminal() else (st, n, mission, rng)


def collect_one(args) -> dict | None:
    k, seats, kind, rollouts = args
    found = _decision(k, seats, kind)
    if found is None:
        return None
    st, n, mission, rng = found
    seat = st.current_player()
    if team_choosing(st, seat):
        w, bias = _weights_for(st)
        cands = [a for _, a in team_choices(st, w, bias)][:9]  # the planner's order: greedy's choice first
    else:
        own = greedy_policy(st, rng)
        cands = [own] + [a for a, _ in ranked_moves(st, seat, 9) if a != own][:8]
    if PASS not in cands:
        cands.append(PASS)
    values = [[0.0] * rollouts for _ in cands]
    work = [[0] * rollouts for _ in cands]
    for i in range(rollouts):
        for j, a in enumerate(cands):
            s2 = st.clone()
            s2.history = []
            s2.apply(a, seat)
            values[j][i] = rollout(s2, random.Random(10**6 * k + i), seat)
            work[j][i] = len(s2.history)
    return {"k": k, "seats": n, "mission": mission, "roll": st.roll_index, "candidates": [str(a) for a in cands],
            "values": values, "work": work}


def choose(pos: dict, sample: list[int], cfg: PlannerConfig, n_cands: int = 6) -> int:
    """The candidate a planner with ``cfg`` plays, seeing only the rollouts in ``sample``."""
    cands = pos["candidates"]
    idx = list(range(min(n_cands, len(cands))))
    p = cands.index(str(PASS))
    if p not in idx:
        idx.append(p)
    values, work = pos["values"], pos["work"]
    totals, counts = [0.0] * len(cands), [0] * len(cands)
    dsum, dsq = [0.0] * len(cands), [0.0] * len(cands)
    spent = rounds = 0
    for i in sample:
        for j in idx:
            v = values[j][i]
            totals[j] += v
            counts[j] += 1
            spent += work[j][i]
            d = v - values[0][i]
            dsum[j] += d
            dsq[j] += d * d
        rounds += 1
        if rounds >= 2 and cfg.work is not None and spent >= cfg.work:
            break
    mean = [totals[j] / counts[j] if counts[j] else float("-inf") for j in range(len(cands))]
    best = min(idx, key=lambda j: (-mean[j], j))
    if best != 0 and (cfg.margin or cfg.switch_z is not None) and not _clearly_better(cfg, mean, best, counts, dsum, dsq):
        best = 0
    return best


def compare(positions: list[dict], rules: dict[str, PlannerConfig], splits: int = 20, seen: int = 80) -> None:
    print(f"{len(positions)} positions, {len(positions[0]['values'][0])} rollouts each; "
          f"a rule sees up to {seen}, the rest score its choice")
    per_rule = {}
    for name, cfg in rules.items():
        gains, switched = [], []
        for pos in positions:
            r = len(pos["values"][0])
            g = []
            for s in range(splits):
                order = list(range(r))
                random.Random(s * 1000 + pos["k"]).shuffle(order)
                j = choose(pos, order[:seen], cfg)
                held = order[seen:]
                g.append(statistics.fmean(pos["values"][j][i] - pos["values"][0][i] for i in held))
                switched.append(j != 0)
            gains.append(statistics.fmean(g))
        per_rule[name] = gains
        print(f"  {name:34s} gain a decision {statistics.fmean(gains):+.4f}   plays another than greedy's "
              f"{statistics.fmean(switched):.0%}")
    names = list(per_rule)
    if len(names) > 1:
        base = per_rule[names[0]]
        for name in names[1:]:
            d = [b - a for a, b in zip(base, per_rule[name])]
            se = statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else float("nan")
            print(f"  {name} - {names[0]}: {statistics.fmean(d):+.4f} (standard error over positions {se:.4f})")


RULES = {
    "margin 0.05 (before)": PlannerConfig(work=COOP_PLAN_WORK, margin=0.05),
    "paired z 1.0": PlannerConfig(work=COOP_PLAN_WORK, switch_z=1.0),
    "paired z 1.25 (shipped)": PlannerConfig(work=COOP_PLAN_WORK, switch_z=1.25),
    "paired z 1.5": PlannerConfig(work=COOP_PLAN_WORK, switch_z=1.5),
    "no test (best mean)": PlannerConfig(work=COOP_PLAN_WORK),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--seats", default="3-6")
    c.add_argument("--positions", type=int, default=80)
    c.add_argument("--rollouts", type=int, default=160)
    c.add_argument("--kind", choices=["team", "passive"], default="team",
                   help="team: the active seat's team choice (one seat: every decision); passive: a passive seat's move")
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--out", required=True)
    m = sub.add_parser("compare")
    m.add_argument("files", nargs="+")
    a = ap.parse_args(argv)
    if a.cmd == "collect":
        seats = parse_range(a.seats, 1, 6, "seats")
        jobs = [(k, seats, a.kind, a.rollouts) for k in range(a.positions)]
        with ProcessPoolExecutor(a.workers) as ex:
            found = [p for p in ex.map(collect_one, jobs) if p is not None]
        with open(a.out, "w") as f:
            json.dump(found, f)
        print(f"{len(found)} positions -> {a.out}", file=sys.stderr)
    else:
        positions = [p for f in a.files for p in json.load(open(f))]
        compare(positions, RULES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
