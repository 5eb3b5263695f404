"""The co-op game's turns in compiled code under rules version 2 (RULES.md section 6): the dice
(R-ROLL), the turn track (C-TRACK), active and passive choices with the active seat's dice set
aside (R-ACTIVE, R-PASSIVE, R-FIRST3, R-ACTIVE-PASS), completions settled at the end of a turn
(R-FIRST), failed rolls (C-FAIL, the third ends the game at once), the checks after turns 10, 19
and 27 with the team's penalty decisions (C-GOAL-10/19/27, in the order of C-CHECK), M5's letters
one per moment, the end (C-WIN / C-LOSE). Python twins: :mod:`nochmal.engine.coop`
(:class:`~nochmal.engine.coop.CoopGame`, :func:`~nochmal.engine.coop.strike_splits`) and
:func:`nochmal.engine.game.play`'s loop.
"""

from __future__ import annotations

import numpy as np

from nochmal.engine.cells import N_CELLS, N_COLS
from nochmal.engine.dice import NUMBER_FACES

from .cache import njit
from .greedy import _even_split
from .layout import (END_GOAL_27, END_LOST, END_THIRD_FAIL, END_WON, PEN_ALL, PEN_SPLIT, PEN_ZERO, R_AMT10,
                     R_EVENTS, R_FAILED, R_JOKERS, R_MISSION, R_PEN10, R_PTS10, R_PTS19, R_PTS27, R_REASON,
                     R_REMOVED, R_SEQ, R_SEQSEAT, R_STRIKE, R_TEAM, R_TURNS, R_WON, _hot)
from .missions import _mission_complete
from .moves import _count, _cross, _sort
from .mt import randbelow
from .policies import _decide


@njit()
def _ways(lefts, n, amount, ways):
    """ways[i, r]: the splits of r "!" over seats i.. (none more than it has left)."""
    ways[:, :] = 0
    ways[n, 0] = 1
    for i in range(n - 1, -1, -1):
        for r in range(amount + 1):
            tot = 0
            for k in range(min(lefts[i], r) + 1):
                tot += ways[i + 1, r - k]
            ways[i, r] = tot


@njit()
def _nth_split(lefts, n, amount, idx, out):
    """The ``idx``-th of every split of ``amount`` "!" in the engine's order
    (:func:`nochmal.engine.coop.strike_splits`: largest first, as tuples compare)."""
    ways = np.zeros((n + 1, amount + 1), np.int64)
    _ways(lefts, n, amount, ways)
    rest = amount
    for i in range(n):
        for k in range(min(lefts[i], rest), -1, -1):
            w = ways[i + 1, rest - k]
            if idx < w:
                out[i] = k
                rest -= k
                break
            idx -= w


@njit(_nrt=False)
def _settle(t, st, n):
    """R-FIRST / C-POINTS: score the columns completed this turn (first or later points) and
    record the colours completed."""
    claimed = st.sc[0]
    new = 0
    for p in range(n):
        for c in range(15):
            if st.newc[p, c]:
                st.col_pts[p, c] = t.later[p, c] if claimed >> c & 1 else t.first[p, c]
                new |= 1 << c
        for c in range(5):
            if st.newcol[p, c]:
                st.colour_done[p, c] = True
    st.sc[0] = claimed | new


@njit(_nrt=False)
def _team_points(st, n):
    pts = 0
    for p in range(n):
        for c in range(15):
            if st.col_pts[p, c] >= 0:
                pts += st.col_pts[p, c]
    return pts


@njit(_nrt=False)
def _event(trace, ev, kind, a, b, c, d, e, f, g):
    if ev < trace.shape[0]:
        trace[ev, 0], trace[ev, 1], trace[ev, 2], trace[ev, 3] = kind, a, b, c
        trace[ev, 4], trace[ev, 5], trace[ev, 6], trace[ev, 7] = d, e, f, g
    return ev + 1


@njit()
def _reset(t, res, st):
    """A new game: the empty sheets and the result row of a game in which nothing has happened."""
    res[:] = 0
    for r in range(R_PTS10, R_PTS27 + 1):
        res[r] = -1
    res[R_PEN10] = 0
    res[R_AMT10] = 0
    res[R_REMOVED] = -1
    st.crossed[:, :] = False
    st.touch[:, :] = t.start
    st.col_n[:, :] = 0
    st.colour_n[:, :] = 0
    st.row_n[:, :] = 0
    st.jl[:] = t.jokers
    st.failed[:] = 0
    st.col_pts[:, :] = -1
    st.colour_done[:, :] = False
    st.sc[:] = 0


@njit(_nrt=False)
def _roll(mt, trace, ev, removed, dice_c, dice_n):
    """R-ROLL: colour dice first, each rng.choice of six faces (COLOUR_FACES: 0-5); the die out
    of the game (``removed``) is not rolled. (events, colour dice, number dice)."""
    nc = 2 if removed == 0 else 3
    nn = 2 if removed == 1 else 3
    for j in range(nc):
        dice_c[j] = randbelow(mt, 6)
    for j in range(nn):
        dice_n[j] = NUMBER_FACES[randbelow(mt, 6)]
    _sort(dice_c, nc)
    _sort(dice_n, nn)
    ev = _event(trace, ev, 0, dice_c[0], dice_c[1], dice_c[2] if nc == 3 else -1,
                dice_n[0], dice_n[1], dice_n[2] if nn == 3 else -1, 0)
    return ev, nc, nn


@njit(_nrt=False, inline="always")
def _set_aside(left, n, face):
    """:func:`nochmal.engine.dice.remove_faces`: the first of the ``n`` dice ``left`` that shows
    ``face`` leaves them; their number now."""
    for j in range(n):
        if left[j] == face:
            for q in range(j, n - 1):
                left[q] = left[q + 1]
            break
    return n - 1


@njit(inline="always")
def _turn_start(t, st, mt, trace, ev, ti, removed, dice_c, dice_n):
    """Turn ``ti`` (0-based) begins: nothing completed in it yet, its roll. (events, colour dice,
    number dice, the active seat)."""
    st.newc[:, :] = False
    st.newcol[:, :] = False
    ev, nc, nn = _roll(mt, trace, ev, removed, dice_c, dice_n)
    return ev, nc, nn, t.track[ti]


@njit(_nrt=False)
def _after_active(t, g, V, st, h, ti, dice_c, nc, dice_n, nn, s, cdie, ndie, colour, policy, mt, trace, ev, res,
                  left_c, left_n):
    """The rest of turn ``ti`` (0-based) once its active seat has chosen (``s`` the cell set, or
    -1 for a failed roll): that action, the passive seats' (``policy``), and the turn's end —
    completions settled, M5's letters, failed rolls, C-GOAL-27 before the mission, the mission.
    (events, end reason or -1)."""
    n = t.jokers.shape[0]
    active = t.track[ti]
    aside = ti >= 3 and n > 1
    reason = -1
    for j in range(3):
        left_c[j] = dice_c[j]
        left_n[j] = dice_n[j]
    lc, ln = nc, nn
    if s >= 0:
        ev = _event(trace, ev, 1, active, cdie, ndie, colour, s, 0, 0)
        _cross(t, st, active, s, colour, cdie, ndie)
        V.dirty[active] = True
        if aside:  # R-PASSIVE: the others pick from the dice left
            lc = _set_aside(left_c, lc, cdie)
            ln = _set_aside(left_n, ln, ndie)
    else:  # C-FAIL (R-ACTIVE-PASS: the others pick from all dice)
        ev = _event(trace, ev, 2, active, 0, 0, 0, 0, 0, 0)
        st.failed[active] += 1
        V.dirty[active] = True
        if st.failed[active] >= t.boxes[active]:
            reason = END_THIRD_FAIL
    if reason < 0:
        for k in range(1, n):  # the others, clockwise from the active seat
            p = (active + k) % n
            s, cdie, ndie, colour = _decide(t, g, V, st, h, p, left_c, lc, left_n, ln, policy, mt, p == active)
            if s >= 0:
                ev = _event(trace, ev, 1, p, cdie, ndie, colour, s, 0, 0)
                _cross(t, st, p, s, colour, cdie, ndie)
            else:
                ev = _event(trace, ev, 2, p, 0, 0, 0, 0, 0, 0)
                st.failed[p] += 1
            V.dirty[p] = True
            if s < 0 and st.failed[p] >= t.boxes[p]:
                reason = END_THIRD_FAIL  # C-FAIL: the game ends the moment it is marked
                break
    claimed = st.sc[0]
    _settle(t, st, n)
    if st.sc[0] != claimed:  # every view values columns by the points still to be had
        V.dirty[:] = True
    if reason >= 0:
        return ev, reason
    # C-CHECK, rules version 2. M5: the active seat's completions, then the others', one letter each
    seq_n = st.sc[1]
    if seq_n < t.seq.shape[0] and st.newc[active, t.seq[seq_n]]:
        res[R_SEQSEAT + seq_n] = active
        seq_n += 1
    if seq_n < t.seq.shape[0]:
        c = t.seq[seq_n]
        for p in range(n):
            if p != active and st.newc[p, c]:
                res[R_SEQSEAT + seq_n] = p
                seq_n += 1
                break
    st.sc[1] = seq_n
    for p in range(n):
        if st.failed[p] >= t.boxes[p]:
            return ev, END_THIRD_FAIL
    if ti == 26:  # C-GOAL-27 before the mission
        pts = _team_points(st, n)
        for p in range(n):
            pts += st.jl[p]
        res[R_PTS27] = pts
        if pts < t.goals[3]:
            for p in range(n):
                st.failed[p] += 1
            for p in range(n):
                if st.failed[p] >= t.boxes[p]:
                    reason = END_GOAL_27
            if reason >= 0:
                return ev, reason
    if _mission_complete(t, g, st, n, V.miss):
        return ev, END_WON
    return ev, -1


@njit(_nrt=False)
def _strike_due(t, st, n):
    """C-GOAL-10 after turn 10: "!" to strike by a split the team chooses (0 < amount < "!" left),
    else -1 (nothing to strike, every "!", or the goal reached)."""
    if _team_points(st, n) >= t.goals[0]:
        return -1
    left = 0
    for p in range(n):
        left += st.jl[p]
    amount = min(t.goals[1], left)
    return amount if 0 < amount < left else -1


@njit()
def _interim(t, g, st, ti, removed, policy, mt, trace, ev, res, per, split, die):
    """The interim checks after turn ``ti`` (0-based) 9, 18 and 26 (C-GOAL-10/19, C-LOSE after
    turn 27): the team's penalty decision by ``policy``, or the one given (``split[0]`` >= 0: the
    "!" to strike per seat; ``die`` >= 0: the die to give up). (events, end reason or -1, the
    removed die)."""
    n = t.jokers.shape[0]
    if ti == 9:
        pts = _team_points(st, n)
        res[R_PTS10] = pts
        if pts < t.goals[0]:
            left = 0
            for p in range(n):
                left += st.jl[p]
            amount = min(t.goals[1], left)
            res[R_AMT10] = amount
            if amount >= left:
                res[R_PEN10] = PEN_ALL
                for p in range(n):
                    st.jl[p] = 0
            elif amount > 0:
                res[R_PEN10] = PEN_SPLIT
                per[:] = 0
                if split[0] >= 0:
                    for p in range(n):
                        per[p] = split[p]
                elif policy == 0:
                    ways = np.zeros((n + 1, amount + 1), np.int64)
                    _ways(st.jl, n, amount, ways)
                    _nth_split(st.jl, n, amount, randbelow(mt, ways[0, amount]), per)
                else:
                    _even_split(st.jl, n, amount, per)
                for p in range(n):
                    st.jl[p] -= per[p]
                    res[R_STRIKE + p] = per[p]
                ev = _event(trace, ev, 3, per[0], per[1], per[2], per[3], per[4], per[5], 0)
            else:
                res[R_PEN10] = PEN_ZERO
    elif ti == 18:
        pts = _team_points(st, n)
        res[R_PTS19] = pts
        if pts < t.goals[2]:
            if die >= 0:
                removed = die
            else:
                removed = randbelow(mt, 2) if policy == 0 else g.remove_die[0]  # 0 colour, 1 number
            res[R_REMOVED] = removed
            ev = _event(trace, ev, 4, removed, 0, 0, 0, 0, 0, 0)
    elif ti == 26:
        return ev, END_LOST, removed
    return ev, -1, removed


@njit()
def _start(t, g, st, V):
    """Views and legal sets to be built again for the position in ``st``: the greedy's arrays."""
    st.lgdirty[:] = True
    V.dirty[:] = True
    V.sig[:, :] = -1
    return _hot(t, g, st, V)


@njit()
def _loop(t, g, mt, policy, trace, res, st, V, h, first_turn, removed, left_c, left_n, per, dice_c, dice_n, no_split):
    """The turns from ``first_turn`` (0-based, its roll due) to the end by ``policy`` (random,
    largest or greedy). (events, end reason, the last turn played, 1-based)."""
    ev = 0
    turn = first_turn
    for ti in range(first_turn, 27):
        turn = ti + 1
        ev, nc, nn, active = _turn_start(t, st, mt, trace, ev, ti, removed, dice_c, dice_n)
        # the active seat decides first (R-ORDER); from turn 4 on its dice are set aside (R-FIRST3, C-SOLO)
        s, cdie, ndie, colour = _decide(t, g, V, st, h, active, dice_c, nc, dice_n, nn, policy, mt,
                                        ti >= 3 and t.jokers.shape[0] > 1)
        ev, reason = _after_active(t, g, V, st, h, ti, dice_c, nc, dice_n, nn, s, cdie, ndie, colour, policy, mt,
                                   trace, ev, res, left_c, left_n)
        if reason >= 0:
            return ev, reason, turn
        if ti == 9 or ti == 18 or ti == 26:  # (a call hands over every array of t, g and st: only when due)
            ev, reason, removed = _interim(t, g, st, ti, removed, policy, mt, trace, ev, res, per, no_split,
                                           no_split[0])
            if reason >= 0:
                return ev, reason, turn
    return ev, END_LOST, turn


@njit()
def _finish(t, g, st, V, res, reason, turn, ev):
    """The result row's end: won, why it ended, the turn, the team's points, letters, events, the
    mission, per seat failed rolls and "!" left."""
    n = t.jokers.shape[0]
    res[R_WON] = 1 if reason == END_WON else 0
    res[R_REASON] = reason
    res[R_TURNS] = turn
    res[R_TEAM] = _team_points(st, n)
    res[R_SEQ] = st.sc[1]
    res[R_EVENTS] = ev
    res[R_MISSION] = 1 if _mission_complete(t, g, st, n, V.miss) else 0
    for p in range(n):
        res[R_FAILED + p] = st.failed[p]
        res[R_JOKERS + p] = st.jl[p]


@njit()
def _load(t, st, crossed, jl, failed, col_pts, colour_done, sc):
    """Put a position into ``st``: per seat its crossed cells, "!" left, failed rolls, settled
    column points (-1: open) and completed colours, and ``sc`` (claimed columns, letters counted);
    the counts and the cells that touch the crosses (start column or next to a crossed cell, as
    :func:`_cross` keeps them) follow from the crossed cells."""
    n = t.jokers.shape[0]
    st.crossed[:, :] = crossed
    st.touch[:, :] = t.start
    st.col_n[:, :] = 0
    st.colour_n[:, :] = 0
    st.row_n[:, :] = 0
    for p in range(n):
        for cell in range(N_CELLS):
            if crossed[p, cell]:
                _count(t, st, p, cell)
    st.jl[:] = jl
    st.failed[:] = failed
    st.col_pts[:, :] = col_pts
    st.colour_done[:, :] = colour_done
    st.newc[:, :] = False
    st.newcol[:, :] = False
    st.sc[:] = sc


@njit()
def _write_end(st, n, end):
    """The end position into ``end`` [seat, END_WIDTH] (see :func:`run_games`)."""
    for p in range(n):
        for i in range(N_CELLS):
            end[p, i] = 1 if st.crossed[p, i] else 0
        for c in range(N_COLS):
            end[p, N_CELLS + c] = st.col_pts[p, c]
        for c in range(5):
            end[p, N_CELLS + N_COLS + c] = 1 if st.colour_done[p, c] else 0
