"""The planner's and the advisor's settings, by mode: data only (it imports nothing from the bots),
so the planner, its compiled twin (:mod:`nochmal.bots.kernel.planner`), the advisor and the analytics
read them without importing each other. Every mode of the engine's variant registry
(:func:`nochmal.engine.game.variant_names`) has an entry in each table (a test checks it).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlannerConfig:
    candidates: int = 6  # greedy's best moves considered (plus pass when it is not among them)
    rollouts: int = 24  # simulations per candidate at most (common random numbers across candidates)
    work: int | None = None  # stop adding rollouts once this many simulated actions were played
    #                          (rolls and decisions; deterministic, unlike a time budget); None = no cap
    horizon: int | None = None  # rolls to simulate; None = to the end
    budget_s: float | None = None  # optional wall-clock cap (makes play depend on the machine's speed)
    halving: bool = False  # successive halving: at the cut points below keep the better half
    halving_at: tuple[int, ...] = (6, 2)  # cut after rollouts // d rollouts, for each d
    margin: float = 0.0  # keep greedy's choice unless another candidate's mean beats it by this much
    switch_z: float | None = None  # ... and unless its rollouts beat greedy's choice's, paired rollout by
    #                                rollout (same dice), by this many standard errors (None: no test)
    active_only: bool = False  # co-op with several seats: plan the active seat's choice for the team
    #                            (its dice decide what everybody keeps); the passive seats play greedy
    compiled: bool = False  # co-op: roll out in compiled code (nochmal.bots.kernel) where it plays the game,
    #                         every candidate's ``rollouts`` in one call (``work`` and ``halving`` do not apply)


#: simulated actions a rollout search may play per decision, by mode (the planner's cap; the
#: advisor's budget at ``budget=1.0``). Calibrated on a 2-CPU machine: a 6-seat co-op decision
#: takes ~0.4 s (median), ~1 s at most (a co-op bot decision costs ~0.3-0.6 ms, a base one ~0.08 ms).
WORK_BUDGET = {"coop": 2500, "base": 14000, "solo": 14000}

#: co-op with several seats the planner plans once a turn (the active seat's team choice), so it
#: may spend more on it: ~0.7 s a 6-seat decision (``planner_decision_s``; ~1.0 s on a slower machine, see docs/bots.md)
COOP_PLAN_WORK = 4000

#: co-op rollouts per candidate in compiled code: 10x what the Python rollouts afforded in a
#: 6-seat decision (6-12 a candidate under the work cap), in about the same time
COOP_COMPILED_ROLLOUTS = 80

#: the planner's settings by mode, measured with ``nochmal simulate`` and ``nochmal bench``:
#: solo rolls out in compiled code (:class:`nochmal.bots.kernel.solo_driver.SoloSim`; the table policy where the sheet has
#: tables, +1.57 on 394 paired games, docs/bots.md): 60 candidates (all the
#: legal moves in 9 of 10 positions), up to 480 rollouts, halving after 60, 120 and 240 (measured: 25.7 with 12
#: candidates, 25.6 with 12 x 960, 26.2 with 20 x 480 on 200 seeded games; over 1,000 games 26.22 with 20 and 26.61
#: with 60 candidates, docs/bots.md); a co-op rollout plays every seat through the engine with the mission checks
#: (~0.3-0.6 ms a decision), so its work cap keeps a 6-seat decision under a second. Co-op keeps
#: greedy's choice unless another candidate's rollouts beat it, paired by dice, by 1.25 standard
#: errors (measured on 129 held-out co-op decisions rolled out 160 times each, see docs/bots.md:
#: with 3-6 seats the planner gained +0.0029 a decision that way, +0.0005 with the 0.05 margin before).
PLANNER_CONFIGS = {
    "solo": PlannerConfig(candidates=60, rollouts=480, halving=True, halving_at=(8, 4, 2)),
    "base": PlannerConfig(candidates=6, rollouts=24, work=WORK_BUDGET["base"]),
    "coop": PlannerConfig(candidates=6, rollouts=COOP_COMPILED_ROLLOUTS, switch_z=1.25, active_only=True, compiled=True),
}

#: the co-op planner of the analytics (``nochmal simulate``, ``nochmal sweep``): the same planner with 8
#: rollouts a candidate instead of 80, so 6,000 games (5 missions x 6 player counts x 200) fit in half an
#: hour on a 2-core machine. It plays in compiled code (:mod:`nochmal.bots.kernel`, the same
#: decisions as :func:`plan` with these settings; measured in docs/bots.md)
ANALYTICS_COOP = PlannerConfig(candidates=6, rollouts=8, switch_z=1.25, active_only=True, compiled=True)


#: the co-op planner in Python, before the compiled rollouts (for comparisons: ``PLANNER_CONFIGS_PYTHON``)
COOP_PYTHON = PlannerConfig(candidates=6, rollouts=24, work=COOP_PLAN_WORK, switch_z=1.25, active_only=True)


#: the paired test takes the differences' standard deviation as at least this (1 % of a win), so a
#: few rollouts that happen to differ by the same amount are no proof on their own
SWITCH_SD_FLOOR = 0.01
