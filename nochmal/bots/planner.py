"""The planner bot: Monte-Carlo rollouts of greedy play (:mod:`nochmal.bots.greedy`) over the
dice still to come, scored by the seat's result (co-op: the team's); seeded and deterministic,
``planner_policy(state, rng) -> action``.

The planner rolls every candidate out with the same dice (common random numbers), spends its
rollouts where the choice is close (successive halving) and stops on a budget of simulated
actions, never of seconds, so a game replays the same on any machine. Solo games roll out in
compiled code (:class:`nochmal.bots.kernel.solo_driver.SoloSim`) with the table policy where the sheet has
fitted tables (:mod:`nochmal.bots.solo_values`: about 20 points a game alone against greedy's 14,
at about 4-5 times greedy's cost), else with greedy's exact play (about 30 µs a whole game), so the
solo planner affords thousands of rollouts a decision.
"""

from __future__ import annotations

import math
import random
import time

from nochmal.bots.coop_weights import coop_rollout_value
from nochmal.bots.greedy import _weights_for, greedy_policy, ranked_moves, team_choices, team_choosing, team_decision
from nochmal.bots.kernel.solo_driver import solo_sim
from nochmal.bots.settings import ANALYTICS_COOP, PLANNER_CONFIGS, SWITCH_SD_FLOOR, PlannerConfig
from nochmal.engine.floats import ordered_sum
from nochmal.engine.moves import PASS


def _result_value(state, seat: int) -> float:
    """How good a finished (or cut-off) rollout is, seen from ``seat``/the team (a game with a
    mission: won or how much of the mission is done)."""
    game = state.game
    if game.has_mission:
        return coop_rollout_value(state)
    return float(game.seat_score(state, seat).total)


def rollout(state, rng: random.Random, seat: int, horizon: int | None = None) -> float:
    """Play greedy from ``state`` (changed in place) to the end, or for ``horizon`` rolls; the
    result's value for ``seat`` (:func:`_result_value`)."""
    st = state
    end_roll = st.roll_index + horizon if horizon else None
    while not st.is_terminal():
        if end_roll is not None and st.roll_index >= end_roll and st.is_chance_node():
            break
        if st.is_chance_node():
            st.apply(st.sample_roll(rng))
        else:
            st.apply(greedy_policy(st, rng))
    return _result_value(st, seat)


def analytics_planner(game):
    """The planner the analytics play ``game`` with (co-op: :data:`ANALYTICS_COOP`; else the
    mode's own, :data:`PLANNER_CONFIGS`)."""
    return make_planner(ANALYTICS_COOP if game.cooperative else None)


def planner_config(game) -> PlannerConfig:
    return PLANNER_CONFIGS[game.mode]


def team_candidates(state, seat: int, k: int, rng: random.Random) -> list:
    """The team's candidates at a team choice, greedy's own first: for a team decision (``seat``
    < 0, the co-op penalties) greedy's decision and the ``k - 1`` closest alternatives; for the
    co-op active seat its ``k`` best choices for the team, then the failed roll."""
    if seat < 0:
        own = team_decision(state, rng)
        return [own] + [a for a in _decision_alternatives(state) if a != own][: k - 1]
    w, bias = _weights_for(state)
    cands = [a for _, a in team_choices(state, w, bias)][:k]
    if PASS not in cands:
        cands.append(PASS)
    return cands


def seat_candidates(state, seat: int, k: int, rng: random.Random) -> list:
    """One seat's candidates outside a team choice: greedy's own choice first, then the
    heuristic's best moves (``k`` in all), then the pass."""
    own = greedy_policy(state, rng)
    cands = [own] + [a for a, _ in ranked_moves(state, seat, k) if a != own][: k - 1]
    if PASS not in cands:
        cands.append(PASS)
    return cands


def _one_seat_coop(state, seat: int) -> bool:
    """A co-op game with one seat: its candidates are those of a team choice (one per dice pair,
    the seat's best move for it, and the failed roll), as the compiled planner has them."""
    game = state.game
    return game.cooperative and game.n_seats == 1 and seat == 0 and state.phase == "active"


def rest_of_turn(state, action, seat: int):
    """A clone of ``state`` (history empty) with ``action`` made by ``seat`` (-1: the team) and
    the rest of that turn played by greedy: at the next roll, or over."""
    st = state.clone()
    st.history = []
    st.apply(action, seat if seat >= 0 else None)
    rng = random.Random(0)  # the greedy draws nothing from it
    while not st.is_terminal() and not st.is_chance_node():
        st.apply(greedy_policy(st, rng))
    return st


def plan(state, rng: random.Random, cfg: PlannerConfig | None = None, seat: int | None = None):
    """Monte-Carlo evaluation of the best candidates: [(action, mean value, n)] best first."""
    cfg = cfg or planner_config(state.game)
    if seat is None:
        seat = state.current_player()
    if seat < 0 or team_choosing(state, seat) or _one_seat_coop(state, seat):
        cands = team_candidates(state, seat, cfg.candidates, rng)
        seat_for_value = max(seat, 0)
    else:
        if cfg.active_only and state.game.cooperative and state.game.n_seats > 1:
            return [(greedy_policy(state, rng), 0.0, 0)]
        cands = seat_candidates(state, seat, cfg.candidates, rng)
        seat_for_value = seat
    if len(cands) == 1:
        return [(cands[0], 0.0, 0)]
    totals = [0.0] * len(cands)
    # paired with candidate 0 (greedy's choice) rollout by rollout: sums of the differences and their squares
    dsum, dsq = [0.0] * len(cands), [0.0] * len(cands)
    n = work = 0
    t0 = time.perf_counter()
    base_seed = rng.getrandbits(32)
    sim = solo_sim(state.game) if cfg.horizon is None and seat == 0 and state.phase == "active" else None
    if sim is not None:  # solo: compiled rollouts (the same play as the state-based rollout)
        boards, jokers, rolls = sim.candidate_starts(state, 0, cands)
    if sim is None and cfg.compiled and cfg.horizon is None:
        values = _compiled_rollouts(state, cands, seat, [base_seed + k for k in range(cfg.rollouts)])
        if values is not None:
            return _ranked(cfg, cands, values)
    alive = list(range(len(cands)))
    counts = [0] * len(cands)
    cut = tuple(max(2 + i, cfg.rollouts // d) for i, d in enumerate(cfg.halving_at)) if cfg.halving else ()
    while n < cfg.rollouts:
        if n in cut and len(alive) > 2:  # drop the worse half: the rollouts go where the choice is close
            alive.sort(key=lambda j: (-totals[j], j))
            alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
        if sim is not None:  # every candidate still in the race with the same dice, in one call
            scores = sim.play_rollouts(boards[alive], jokers[alive], sim.draw(random.Random(base_seed + n), rolls))
            for j, v in zip(alive, scores.tolist()):
                counts[j] += 1
                totals[j] += v
            work += 2 * rolls * len(alive)
        else:
            v0 = None
            for j in alive:
                counts[j] += 1
                st = state.clone()
                st.history = []
                st.apply(cands[j], seat if seat >= 0 else None)
                v = rollout(st, random.Random(base_seed + n), seat_for_value, cfg.horizon)
                totals[j] += v
                work += len(st.history)
                if j == 0:
                    v0 = v
                elif v0 is not None:
                    dsum[j] += v - v0
                    dsq[j] += (v - v0) ** 2
        n += 1
        if n >= 2 and ((cfg.work is not None and work >= cfg.work)
                       or (cfg.budget_s is not None and time.perf_counter() - t0 > cfg.budget_s)):
            break
    # a candidate dropped by halving keeps the mean of its own rollouts (and ranks after the finalists)
    mean = [totals[j] / counts[j] for j in range(len(cands))]
    ranked = sorted(range(len(cands)), key=lambda j: (j not in alive, -mean[j], j))
    if (ranked[0] != 0 and (cfg.margin or cfg.switch_z is not None)
            and not _clearly_better(cfg, mean, ranked[0], counts, dsum, dsq)):
        # few, noisy rollouts: leave greedy's choice (candidate 0) only for a clearly better one
        ranked.remove(0)
        ranked.insert(0, 0)
    return [(cands[j], mean[j], counts[j]) for j in ranked]


def compiled_rollout_ends(state, cands, seat: int, seeds: list[int]) -> list[list] | None:
    """Each candidate's finished rollouts, one engine state per seed, played in compiled code: the
    candidate and the rest of its turn (the other seats' greedy choices, a team decision) in the
    engine, then the game on to the end in :mod:`nochmal.bots.kernel.drivers` with
    ``random.Random(seed)``'s dice — the games :func:`rollout` plays from the same seeds (seeds
    0 <= seed < 2**63). None where the kernel does not play the game."""
    from nochmal.bots.kernel import drivers, results

    game = state.game
    if not drivers.kernel_plays(game, "greedy"):
        return None
    out = []
    for a in cands:
        st = rest_of_turn(state, a, seat)  # the seeds' dice start at the next roll
        if st.is_terminal():
            out.append([st] * len(seeds))
            continue
        rows, ends = drivers.resume_many(game, st, seeds, "greedy")
        out.append(results.end_states(game, rows, ends))
    return out


def _compiled_rollouts(state, cands, seat: int, seeds: list[int]) -> list[list[float]] | None:
    """:func:`compiled_rollout_ends`' rollout values (:func:`_result_value`), or None."""
    ends = compiled_rollout_ends(state, cands, seat, seeds)
    return None if ends is None else [[_result_value(st, 0) for st in sts] for sts in ends]


def _ranked(cfg: PlannerConfig, cands: list, values: list[list[float]]) -> list:
    """:func:`plan`'s answer from every candidate's rollout values (the same seeds for all)."""
    k = len(values[0])
    mean = [ordered_sum(v) / k for v in values]
    counts = [k] * len(cands)
    dsum = [ordered_sum(a - b for a, b in zip(v, values[0])) for v in values]
    dsq = [ordered_sum((a - b) ** 2 for a, b in zip(v, values[0])) for v in values]
    ranked = sorted(range(len(cands)), key=lambda j: (-mean[j], j))
    if ranked[0] != 0 and (cfg.margin or cfg.switch_z is not None) and \
            not _clearly_better(cfg, mean, ranked[0], counts, dsum, dsq):
        ranked.remove(0)
        ranked.insert(0, 0)
    return [(cands[j], mean[j], counts[j]) for j in ranked]


def _decision_alternatives(state) -> list:
    """A team decision's legal actions, the likeliest good ones first: C-GOAL-10 splits by how
    evenly they leave the "!" spread (as :func:`nochmal.bots.coop_weights.even_split` measures it), then
    as the engine lists them."""
    acts = list(state.legal_actions())
    lefts = [s.jokers_left for s in state.seats]

    def spread(a) -> int:
        per = getattr(a, "per_seat", None)
        if per is None:
            return 0
        after = [left - k for left, k in zip(lefts, per)]
        return max(after) - min(after)

    return sorted(acts, key=spread)  # stable: ties keep the engine's order


def _clearly_better(cfg: PlannerConfig, mean, j: int, counts, dsum, dsq) -> bool:
    """Does candidate ``j`` beat greedy's choice (candidate 0) clearly enough to be played instead:
    by the margin, and (``switch_z``) by ``switch_z`` standard errors of the paired differences of
    their rollouts (the same dice for both)?"""
    if mean[j] - mean[0] < cfg.margin:
        return False
    if cfg.switch_z is None:
        return True
    k = counts[j]
    if k < 2 or counts[0] < k:
        return False
    d = dsum[j] / k
    var = max(SWITCH_SD_FLOOR ** 2, (dsq[j] - k * d * d) / (k - 1))
    return d > cfg.switch_z * math.sqrt(var / k)


def make_planner(cfg: PlannerConfig | None = None):
    """The planner policy; ``cfg`` None: the settings for the game's mode (:data:`PLANNER_CONFIGS`)."""

    def planner_policy(state, rng: random.Random):
        if state.current_player() >= 0:
            acts = state.legal_actions()
            if len(acts) == 1:
                return acts[0]
        return plan(state, rng, cfg)[0][0]

    return planner_policy


planner_policy = make_planner()
