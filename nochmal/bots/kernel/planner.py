"""The co-op planner in compiled code: from turn 4 on (every turn with one seat) the active seat's
team choice, and the team's C-GOAL-10 and C-GOAL-19 decisions, are each rolled out — every
candidate with the same dice, greedy for every seat to the end — and the best mean is played if its
rollouts beat greedy's choice's, paired, by ``switch_z`` standard errors; the rest is greedy's.
Python twin: :mod:`nochmal.bots.planner` (:func:`~nochmal.bots.planner.plan` with compiled
rollouts): the same candidates in the same order, the same seeds (``rng.getrandbits(32)`` from the
game's stream, then ``base + k``), the same rollout values
(:func:`nochmal.bots.coop_weights.coop_rollout_value`) and sums, so the same choices.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .cache import njit
from .coop import _after_active, _interim, _loop, _nth_split, _start, _strike_due, _team_points, _turn_start, _ways
from .greedy import _even_split, _refresh, _team_choices
from .layout import (END_LOST, END_WON, EVENT_WIDTH, MAX_CANDIDATES, MAX_SEATS, POLICY_GREEDY, R_SIZE, _hot,
                     _new_state, _new_views, _State, _Views)
from .missions import _counts
from .mt import _mt_u32, mt_seed
from .policies import _decide


@njit()
def _value(t, g, st, n, reason, turn, miss):
    """:func:`nochmal.bots.coop_weights.coop_rollout_value` of a finished game (``turn`` the last
    one played, 1-based): 1 and a bit for the turns to spare for a win, else half the share of
    the mission done and a little for the turns survived — the same operations in the same order."""
    ri = turn - 1  # the engine's roll_index at the end
    if reason == END_WON:
        return 1.0 + (27 - ri) / 270.0
    m = t.req_kind.shape[0]
    total = 0.0
    for r in range(m):
        have, need = _counts(t, g, st, n, r, miss)
        total += min(have, need) / need if need else 1.0
    return 0.5 * (total / m) + 0.01 * min(ri, 27) / 27


class _Planner(NamedTuple):
    """The planner's scratch: a rollout's position, views, result row and generator, and per
    decision its candidates and their rollout values."""

    st: _State
    V: _Views
    res: np.ndarray
    mt: np.ndarray
    trace: np.ndarray  # no rows: rollouts are not traced
    cand: np.ndarray  # [candidate, 4 + MAX_SEATS]: cell set (-1 failed roll), colour die, number die, colour | split
    cval: np.ndarray  # [candidate]: greedy's value of it (the team choice's order)
    vals: np.ndarray  # [candidate, rollout]
    left_c: np.ndarray
    left_n: np.ndarray
    per: np.ndarray
    dice_c: np.ndarray
    dice_n: np.ndarray
    split: np.ndarray  # a split to play (MAX_SEATS)
    no_split: np.ndarray  # [-1]: none given
    greedy: np.ndarray  # [POLICY_GREEDY]
    kinds: np.ndarray  # [0, 1, 2]: the decisions planned (see _rollout)


PLAN_ROLLOUTS, PLAN_CANDIDATES, PLAN_Z, PLAN_FLOOR2 = 0, 1, 2, 3  # the plan parameters (run_games' ``plan``)


@njit()
def _new_planner(t, g, rollouts):
    return _Planner(_new_state(t), _new_views(t, g), np.zeros(R_SIZE, np.int64), np.zeros(625, np.int64),
                    np.zeros((0, EVENT_WIDTH), np.int64), np.zeros((MAX_CANDIDATES, 4 + MAX_SEATS), np.int64),
                    np.zeros(MAX_CANDIDATES), np.zeros((MAX_CANDIDATES, max(rollouts, 1))), np.zeros(3, np.int64),
                    np.zeros(3, np.int64), np.zeros(MAX_SEATS, np.int64), np.zeros(3, np.int64),
                    np.zeros(3, np.int64), np.zeros(MAX_SEATS, np.int64), np.full(1, -1, np.int64),
                    np.full(1, POLICY_GREEDY, np.int64), np.arange(3, dtype=np.int64))


@njit()
def _copy_state(src, dst):
    dst.crossed[:, :] = src.crossed
    dst.touch[:, :] = src.touch
    dst.col_n[:, :] = src.col_n
    dst.colour_n[:, :] = src.colour_n
    dst.row_n[:, :] = src.row_n
    dst.jl[:] = src.jl
    dst.failed[:] = src.failed
    dst.col_pts[:, :] = src.col_pts
    dst.colour_done[:, :] = src.colour_done
    dst.newc[:, :] = src.newc
    dst.newcol[:, :] = src.newcol
    dst.sc[:] = src.sc


@njit()
def _choose(P, m, k, plan):
    """:func:`nochmal.bots.planner._ranked`: the candidate with the best mean of its ``k`` rollout
    values (ties: the first), unless it is not candidate 0 (greedy's choice) and does not beat it
    rollout for rollout by ``plan[PLAN_Z]`` standard errors of the paired differences
    (:func:`nochmal.bots.planner._clearly_better`, the margin 0). The same sums in the same order."""
    best, best_mean, mean0 = 0, 0.0, 0.0
    for j in range(m):
        tot = 0.0
        for q in range(k):
            tot += P.vals[j, q]
        mean = tot / k
        if j == 0:
            mean0 = mean
        if j == 0 or mean > best_mean:
            best, best_mean = j, mean
    if best == 0:
        return 0
    if best_mean - mean0 < 0.0 or k < 2:
        return 0
    dsum = 0.0
    dsq = 0.0
    for q in range(k):
        dsum += P.vals[best, q] - P.vals[0, q]
    for q in range(k):
        diff = P.vals[best, q] - P.vals[0, q]
        dsq += diff * diff
    d = dsum / k
    var = max(plan[PLAN_FLOOR2], (dsq - k * d * d) / (k - 1))
    return best if d > plan[PLAN_Z] * np.sqrt(var / k) else 0


@njit(inline="always")
def _rollout(t, g, P, h2, st, res, ti, removed, kind, j, seed, dice_c, nc, dice_n, nn):
    """One rollout of candidate ``j`` (``kind`` 0: the active seat's choice in turn ``ti``, 1: a
    C-GOAL-10 split, 2: the C-GOAL-19 die) from the position ``st`` / ``res``: the candidate, the
    rest of its turn by greedy, then greedy with ``random.Random(seed)``'s dice to the end
    (:func:`nochmal.bots.planner.compiled_rollout_ends`). Its value (:func:`_value`)."""
    n = t.jokers.shape[0]
    s2 = P.st
    _copy_state(st, s2)
    P.res[:] = res
    _start(t, g, s2, P.V)
    c = P.cand[j]
    # numba compiles a function once per literal value it is handed (a constant policy, decision
    # kind or event count would compile everything below it again): these are read from arrays
    greedy = P.greedy[0]
    none = P.no_split[0]
    ev = P.kinds[0]
    reason = -1
    rem = removed
    if kind == 0:
        ev, reason = _after_active(t, g, P.V, s2, h2, ti, dice_c, nc, dice_n, nn, c[0], c[1], c[2], c[3],
                                   greedy, P.mt, P.trace, ev, P.res, P.left_c, P.left_n)
        if reason < 0:
            ev, reason, rem = _interim(t, g, s2, ti, rem, greedy, P.mt, P.trace, ev, P.res, P.per, P.no_split, none)
    elif kind == 1:
        for p in range(MAX_SEATS):
            P.split[p] = c[4 + p]
        ev, reason, rem = _interim(t, g, s2, ti, rem, greedy, P.mt, P.trace, ev, P.res, P.per, P.split, none)
    else:
        ev, reason, rem = _interim(t, g, s2, ti, rem, greedy, P.mt, P.trace, ev, P.res, P.per, P.no_split, c[0])
    turn = ti + 1
    if reason < 0:
        mt_seed(seed, P.mt)
        ev, reason, turn = _loop(t, g, P.mt, greedy, P.trace, P.res, s2, P.V, h2, ti + 1, rem, P.left_c, P.left_n,
                                 P.per, P.dice_c, P.dice_n, P.no_split)
    return _value(t, g, s2, n, reason, turn, P.V.miss)


@njit(inline="always")
def _plan(t, g, P, h2, st, res, ti, removed, kind, m, mt, plan, dice_c, nc, dice_n, nn):
    """Roll each of the ``m`` candidates in ``P.cand`` out ``plan[PLAN_ROLLOUTS]`` times with the
    same dice (seeds ``base`` + k, ``base`` the game stream's next 32 bits, as
    ``rng.getrandbits(32)``); the chosen one's index (:func:`_choose`)."""
    if m == 1:
        return 0
    k = int(plan[PLAN_ROLLOUTS])
    base = _mt_u32(mt)
    for q in range(k):
        for j in range(m):
            P.vals[j, q] = _rollout(t, g, P, h2, st, res, ti, removed, kind, j, base + q, dice_c, nc, dice_n, nn)
    return _choose(P, m, k, plan)


@njit()
def _active_candidates(t, g, V, st, h, P, n, active, cf, nc, nf, nn, k):
    """:func:`nochmal.bots.planner.team_candidates` for the active seat: the first ``k`` of
    :func:`_team_choices`, and the failed roll if it is not among them. Their number."""
    _refresh(t, g, V, st, n)
    m = _team_choices(t, g, V, st, h, n, active, cf, nc, nf, nn, P.cand, P.cval)
    if m <= k:
        return m
    for j in range(k):
        if P.cand[j, 0] < 0:
            return k
    for j in range(k, m):  # the failed roll after the first k
        if P.cand[j, 0] < 0:
            for c in range(4):
                P.cand[k, c] = P.cand[j, c]
    return k + 1


@njit()
def _split_candidates(t, P, st, n, amount, k):
    """:func:`nochmal.bots.planner.team_candidates` for C-GOAL-10: greedy's split (the most even,
    :func:`_even_split`) first, then the splits in the engine's order, the most even first
    (:func:`nochmal.bots.planner._decision_alternatives`), ``k`` in all at most. Their number."""
    own = np.zeros(MAX_SEATS, np.int64)
    _even_split(st.jl, n, amount, own)
    P.cand[0, :] = 0
    for p in range(n):
        P.cand[0, 4 + p] = own[p]
    ways = np.zeros((n + 1, amount + 1), np.int64)
    _ways(st.jl, n, amount, ways)
    total = ways[0, amount]
    per = np.zeros(MAX_SEATS, np.int64)
    top = 0
    for p in range(n):
        top = max(top, st.jl[p])
    m = 1
    for spread in range(top + 1):
        for idx in range(total):
            if m >= k:
                return m
            per[:] = 0
            _nth_split(st.jl, n, amount, idx, per)
            lo, hi, same = 1 << 30, -1, True
            for p in range(n):
                after = st.jl[p] - per[p]
                lo = min(lo, after)
                hi = max(hi, after)
                if per[p] != own[p]:
                    same = False
            if hi - lo != spread or same:
                continue
            P.cand[m, :] = 0
            for p in range(n):
                P.cand[m, 4 + p] = per[p]
            m += 1
    return m


@njit(inline="always")
def _loop_planned(t, g, mt, trace, res, st, V, h, first_turn, removed, left_c, left_n, per, dice_c, dice_n,
                  no_split, P, plan):
    """:func:`_loop` with the planner (:func:`nochmal.bots.planner.plan` with compiled rollouts): the
    active seat's team choice from turn 4 on (every choice with one seat) and the team's penalty
    decisions by rollouts; the passive seats and the first three turns' choices by greedy."""
    n = t.jokers.shape[0]
    k = int(plan[PLAN_CANDIDATES])
    greedy = P.greedy[0]
    h2 = _hot(t, g, P.st, P.V)
    ev = 0
    turn = first_turn
    for ti in range(first_turn, 27):
        turn = ti + 1
        ev, nc, nn, active = _turn_start(t, st, mt, trace, ev, ti, removed, dice_c, dice_n)
        if ti >= 3 or n == 1:
            kind = P.kinds[0]
            m = _active_candidates(t, g, V, st, h, P, n, active, dice_c, nc, dice_n, nn, k)
            j = _plan(t, g, P, h2, st, res, ti, removed, kind, m, mt, plan, dice_c, nc, dice_n, nn)
            s, cdie, ndie, colour = P.cand[j, 0], P.cand[j, 1], P.cand[j, 2], P.cand[j, 3]
        else:
            s, cdie, ndie, colour = _decide(t, g, V, st, h, active, dice_c, nc, dice_n, nn, greedy, mt,
                                            ti >= 3 and n > 1)
        ev, reason = _after_active(t, g, V, st, h, ti, dice_c, nc, dice_n, nn, s, cdie, ndie, colour, greedy,
                                   mt, trace, ev, res, left_c, left_n)
        if reason >= 0:
            return ev, reason, turn
        split = no_split
        die = no_split[0]
        if ti == 9:
            amount = _strike_due(t, st, n)
            if amount > 0:
                kind = P.kinds[1]
                m = _split_candidates(t, P, st, n, amount, k)
                j = _plan(t, g, P, h2, st, res, ti, removed, kind, m, mt, plan, dice_c, nc, dice_n, nn)
                split = P.split
                for p in range(MAX_SEATS):
                    split[p] = P.cand[j, 4 + p]
        elif ti == 18 and _team_points(st, n) < t.goals[2]:
            kind = P.kinds[2]
            m = P.kinds[2]  # two candidates
            P.cand[0, 0] = g.remove_die[0]
            P.cand[1, 0] = 1 - g.remove_die[0]
            die = P.cand[_plan(t, g, P, h2, st, res, ti, removed, kind, m, mt, plan, dice_c, nc, dice_n, nn), 0]
        ev, reason, removed = _interim(t, g, st, ti, removed, greedy, mt, trace, ev, res, per, split, die)
        if reason >= 0:
            return ev, reason, turn
    return ev, END_LOST, turn


def plan_params(cfg=None) -> np.ndarray:
    """The planner's settings as :func:`run_games` reads them (``PLAN_*``) from a
    :class:`nochmal.bots.settings.PlannerConfig` (None: the co-op planner's) that the compiled
    planner plays: rollouts to the end for every candidate (no work cap, no halving, no margin),
    greedy's choice kept unless the paired test says otherwise."""
    from nochmal.bots.settings import PLANNER_CONFIGS, SWITCH_SD_FLOOR

    cfg = cfg or PLANNER_CONFIGS["coop"]
    if not (cfg.active_only and cfg.switch_z is not None and cfg.horizon is None and cfg.budget_s is None
            and cfg.margin == 0.0 and cfg.rollouts >= 1 and 1 <= cfg.candidates < MAX_CANDIDATES):
        raise ValueError(f"the compiled co-op planner does not play {cfg}")
    return np.array([cfg.rollouts, cfg.candidates, cfg.switch_z, SWITCH_SD_FLOOR ** 2], np.float64)
