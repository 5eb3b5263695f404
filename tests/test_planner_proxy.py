"""tools/planner_proxy.py: the choice rules it replays are the planner's, scored on held-out rollouts."""

import importlib.util
import re
import random
from pathlib import Path

from nochmal.bots.settings import PlannerConfig

_spec = importlib.util.spec_from_file_location("planner_proxy", Path(__file__).parents[1] / "tools" / "planner_proxy.py")
proxy = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(proxy)


def synthetic(gap: float, noise: float, rollouts: int = 40, seed: int = 0) -> dict:
    """Greedy's choice (candidate 0), a challenger ``gap`` better on average, and the pass."""
    rng = random.Random(seed)
    base = [rng.random() for _ in range(rollouts)]
    return {"k": seed, "candidates": ["greedy", "other", "pass"],
            "values": [base, [b + gap + (noise if i % 2 else -noise) for i, b in enumerate(base)], [0.0] * rollouts],
            "work": [[10] * rollouts for _ in range(3)]}


def test_a_consistently_better_challenger_is_played_and_noise_is_not():
    clear, noisy = synthetic(0.05, 0.01), synthetic(0.02, 0.5)
    z = PlannerConfig(work=400, switch_z=1.25)
    sample = list(range(20))
    assert proxy.choose(clear, sample, z) == 1
    assert proxy.choose(noisy, sample, PlannerConfig(work=400)) == 1  # best mean without a test
    assert proxy.choose(noisy, sample, z) == 0  # the paired test keeps greedy's choice
    assert proxy.choose(clear, sample, PlannerConfig(work=400, margin=0.1)) == 0


def test_a_rule_sees_only_as_many_rollouts_as_its_work_buys(capsys):
    pos = synthetic(0.05, 0.01)
    pos["values"][1][:2] = [pos["values"][0][i] - 0.1 for i in range(2)]  # its first two rollouts lose
    assert proxy.choose(pos, list(range(40)), PlannerConfig(work=60)) == 0  # two rounds of 3 x 10 work
    assert proxy.choose(pos, list(range(40)), PlannerConfig(work=1200)) == 1
    proxy.compare([synthetic(0.05, 0.01, seed=s) for s in range(3)],
                  {"best mean": PlannerConfig(work=1200), "never": PlannerConfig(work=1200, margin=9)}, splits=2, seen=20)
    out = capsys.readouterr().out
    gains = dict(re.findall(r"^  (best mean|never) +gain a decision ([-+.0-9]+)", out, re.M))
    assert abs(float(gains["best mean"]) - 0.05) <= 0.01 and float(gains["never"]) == 0.0
