"""The co-op greedy in compiled code: each seat's view of the heuristic with the mission's terms and
the team plan, the value of a cross, a seat's best move with some dice, the active seat's choice for
the team, the team's most even strike of "!". The same values from the same floating-point
operations in the same order as the Python twins, so ties break the same way:
:mod:`nochmal.bots.greedy` (``_best_for_dice``, ``team_choices``), :mod:`nochmal.bots.heuristic`
(:class:`~nochmal.bots.heuristic.SeatView`, :func:`~nochmal.bots.heuristic.score_cells`) and
:mod:`nochmal.bots.coop_weights` (``coop_bias``, ``target``, ``even_split``). The other seats'
replies to a dice pair are added one after another, as the Python side adds them
(:func:`nochmal.engine.floats.ordered_sum`).
"""

from __future__ import annotations

import numpy as np

from .cache import njit
from .layout import (F_COLOURVAL, F_COLVAL, F_DONE, F_FAIL, F_HASDONE, F_ROWVAL, F_STAR, G_CELLS, G_COLK, G_COLS,
                     G_NBN, G_NBS, G_NCOLS, G_NROWS, G_ROWK, G_ROWS, G_SIZE, G_STARS)
from .missions import _progress
from .moves import PAIR_C, PAIR_CI, PAIR_COL_HI, PAIR_COL_LO, PAIR_COST, PAIR_K_HI, PAIR_K_LO, PAIR_N, PAIR_NI
from .moves import _legal, dice_pairs


@njit()
def _even_split(lefts, n, amount, out):
    """:func:`nochmal.bots.coop_weights.even_split`: of every split, the one leaving the "!" most
    evenly spread, ties: the smallest split. The same depth-first search, without recursion."""
    cap = np.zeros(n + 1, np.int64)
    for i in range(n - 1, -1, -1):
        cap[i] = cap[i + 1] + lefts[i]
    if n == 0 or amount > cap[0] or amount < 0:
        return False
    top = 0
    for i in range(n):
        top = max(top, lefts[i])
    k = np.zeros(n, np.int64)
    rest = np.zeros(n, np.int64)
    lo = np.zeros(n, np.int64)
    hi = np.zeros(n, np.int64)
    for spread in range(top + 1):
        i = 0
        rest[0], lo[0], hi[0] = amount, top + 1, -1
        k[0] = max(0, amount - cap[1]) - 1
        while i >= 0:
            k[i] += 1
            if k[i] > min(lefts[i], rest[i]):
                i -= 1
                continue
            after = lefts[i] - k[i]
            a, b = min(lo[i], after), max(hi[i], after)
            if b - a > spread:
                continue
            if i == n - 1:
                for q in range(n):
                    out[q] = k[q]
                return True
            rest[i + 1], lo[i + 1], hi[i + 1] = rest[i] - k[i], a, b
            k[i + 1] = max(0, rest[i + 1] - cap[i + 2]) - 1
            i += 1
    return False


@njit(_nrt=False)
def _target(t, V, st, p, cells, weight):
    """:func:`nochmal.bots.coop_weights.target`: ``cells`` (a bool array) a target of seat
    ``p``'s view: its cells still to cross labelled by part (a component of one colour), whether
    each part touches the front, and the moves it needs now (``work0``)."""
    rest_any = False
    for i in range(105):
        if cells[i] and not st.crossed[p, i]:
            rest_any = True
    if not rest_any or weight == 0.0:
        return
    ti = V.vi[p, 0]
    V.vi[p, 0] = ti + 1
    V.tf[p, ti] = weight
    label = V.lab[p, ti]
    for i in range(105):
        label[i] = -1
    parts = 0
    work = 0
    stack = V.si[1]
    for i in range(105):
        if cells[i] and not st.crossed[p, i] and label[i] < 0:
            colour = t.cell_colour[p, i]
            near = False
            label[i] = parts
            V.cellt[p, i] |= 1 << ti
            stack[0] = i
            top = 1
            while top:
                top -= 1
                c = stack[top]
                if st.touch[p, c]:
                    near = True
                for q in range(4):
                    nb = t.cell_nb[c, q]
                    if nb >= 0 and cells[nb] and not st.crossed[p, nb] and label[nb] < 0 \
                            and t.cell_colour[p, nb] == colour:
                        label[nb] = parts
                        V.cellt[p, nb] |= 1 << ti
                        stack[top] = nb
                        top += 1
            V.tp[p, ti, parts, 0] = near
            V.tp[p, ti, parts, 1] = colour
            work += 1 if near else 2
            parts += 1
    V.ti[p, ti, 0] = work
    V.ti[p, ti, 1] = parts
    q = 0
    for i in range(105):
        if label[i] >= 0:
            V.tc[p, ti, q] = i
            q += 1
    V.ti[p, ti, 2] = q


@njit(_nrt=False)
def _view(t, g, V, st, p, n):
    """Seat ``p``'s view now: :class:`nochmal.bots.heuristic.SeatView` for the co-op weights,
    then :func:`nochmal.bots.coop_weights.coop_bias` — the same values from the same operations.
    A new view forgets the scores of the last one. Reads the mission progress of :func:`_refresh`."""
    V.dirty[p] = False
    vf = V.vf[p]
    claimed = st.sc[0]
    for c in range(15):
        vf[F_COLVAL + c] = 0.0 if st.col_pts[p, c] >= 0 else float(t.later[p, c] if claimed >> c & 1 else t.first[p, c])
    for c in range(5):
        vf[F_COLOURVAL + c] = 0.0  # C-NO-BONUS: a colour is worth nothing but what the mission adds
    for r in range(7):
        vf[F_ROWVAL + r] = 0.0
    vf[F_STAR] = g.w[7]
    vf[F_HASDONE] = 0.0
    V.vi[p, 0] = 0
    V.vi[p, 1] += 1
    V.cellt[p, :] = 0
    left = t.boxes[p] - st.failed[p]
    vf[F_FAIL] = g.w[6] * g.fail_scale[min(left, g.fail_scale.shape[0]) - 1] if left > 0 else g.w[6]
    miss = V.miss
    cells = V.tcells
    for r in range(t.req_kind.shape[0]):  # the progress _refresh found for this decision
        if V.sig[r, 0]:
            continue
        for i in range(64):
            miss[i] = V.sig[r, 1 + i] != 0
        kind = t.req_kind[r]
        if kind == 0:
            for c in range(5):
                if st.colour_done[p, c]:
                    continue
                mine = g.plan_colour[p, c] and miss[c]
                vf[F_COLOURVAL + c] = 30.0 if mine else (6.0 if miss[c] else 1.0)
                if mine:
                    for i in range(105):
                        cells[i] = t.cell_colour[p, i] == c
                    _target(t, V, st, p, cells, g.tw[0])
        elif kind == 1:
            for row in range(7):
                lab = g.lab[p, row]
                mine = g.plan_row[p, lab] and miss[lab]
                vf[F_ROWVAL + row] = 25.0 if mine else (4.0 if miss[lab] else 0.0)
                if mine:
                    for i in range(105):
                        cells[i] = i // 15 == row
                    _target(t, V, st, p, cells, g.tw[1])
        elif kind == 2:
            vf[F_STAR] = 0.5
            for c in range(15):
                if not miss[c]:
                    continue
                open_star = False
                for row in range(7):
                    cell = row * 15 + c
                    if t.star[p, cell] and not st.crossed[p, cell]:
                        open_star = True
                if open_star:
                    vf[F_COLVAL + c] += 6.0 if g.plan_star[p, c] else 2.0
                    if g.plan_star[p, c]:
                        for i in range(105):
                            cells[i] = i % 15 == c and t.star[p, i]
                        _target(t, V, st, p, cells, g.tw[2])
        elif kind == 3:
            for f in range(t.nf_num.shape[1]):
                num = t.nf_num[p, f]
                if num < 0 or not miss[num]:
                    continue
                for j in range(4):  # the square's cells ascending
                    vf[F_COLVAL + t.nf_cells[p, f, j] % 15] += 3.0 if g.plan_nf[p, num] else 1.0
                if g.plan_nf[p, num]:
                    for i in range(105):
                        cells[i] = False
                    for j in range(4):
                        cells[t.nf_cells[p, f, j]] = True
                    _target(t, V, st, p, cells, g.tw[3])
        else:
            k = st.sc[1]
            c = t.seq[k]
            runs = g.plan_runs[p]
            if runs:
                for o in range(15):
                    if not g.plan_seqcol[p, o]:
                        vf[F_COLVAL + o] *= g.seq_w[3]
            if st.col_pts[p, c] < 0 and runs:
                vf[F_COLVAL + c] += g.seq_w[0]
                for i in range(105):
                    cells[i] = i % 15 == c
                _target(t, V, st, p, cells, g.tw[4])
            vf[F_HASDONE] = 1.0
            for o in range(15):
                vf[F_DONE + o] = 0.0
            for i in range(k + 1, t.seq.shape[0]):
                c = t.seq[i]
                if st.col_pts[p, c] < 0:
                    vf[F_DONE + c] = -g.seq_w[4 + min(n, 6) - 1]
                    if runs:
                        vf[F_COLVAL + c] += g.seq_w[1] if i == k + 1 else g.seq_w[2]
                        for q in range(105):
                            cells[q] = q % 15 == c
                        _target(t, V, st, p, cells, g.tw[5])


@njit(_nrt=False)
def _refresh(t, g, V, st, n):
    """Mark every view to be built again if the mission progress it read has changed (the
    greedy keys its cached views on it: :func:`nochmal.bots.coop_weights.coop_view_key`)."""
    miss = V.miss
    changed = False
    for r in range(t.req_kind.shape[0]):
        comp = 1 if _progress(t, g, st, n, r, miss) else 0
        if V.sig[r, 0] != comp or V.sig[r, 65] != st.sc[1]:
            changed = True
        V.sig[r, 0] = comp
        V.sig[r, 65] = st.sc[1]
        for i in range(64):
            m = 1 if miss[i] else 0
            if V.sig[r, 1 + i] != m:
                changed = True
            V.sig[r, 1 + i] = m
    if changed:
        for p in range(n):
            V.dirty[p] = True


@njit(_nrt=False)  # allocates nothing: no reference counts (see _Hot)
def _score(h, p, s, colour):
    """:func:`nochmal.bots.heuristic.score_cells` of seat ``p`` crossing cell set ``s`` (of
    ``colour``) with its current view ("!" not included)."""
    geo, w, vf, gains = h.geo, h.w, h.vf, h.gains
    size = geo[p, s, G_SIZE]
    v = w[0] * size + vf[p, F_STAR] * geo[p, s, G_STARS]
    nbn = geo[p, s, G_NBN]
    if w[1] != 0.0:
        cnt = 0
        for j in range(nbn):
            cell = geo[p, s, G_NBS + j]
            if not h.crossed[p, cell] and not h.touch[p, cell]:
                cnt += 1
        v += w[1] * cnt
    for j in range(geo[p, s, G_NCOLS]):
        c = geo[p, s, G_COLS + j]
        val = vf[p, F_COLVAL + c]
        if val != 0.0:
            v += w[2] * val * gains[0, h.col_n[p, c], geo[p, s, G_COLK + j]]
    cv = vf[p, F_COLOURVAL + colour]
    if cv != 0.0:
        v += w[3] * cv * gains[2, h.colour_n[p, colour], size]
    for j in range(geo[p, s, G_NROWS]):
        r = geo[p, s, G_ROWS + j]
        rv = vf[p, F_ROWVAL + r]
        if rv != 0.0:
            v += w[4] * rv * gains[1, h.row_n[p, r], geo[p, s, G_ROWK + j]]
    if vf[p, F_HASDONE] != 0.0:
        for j in range(geo[p, s, G_NCOLS]):
            c = geo[p, s, G_COLS + j]
            if h.col_n[p, c] + geo[p, s, G_COLK + j] == 7:
                v += vf[p, F_DONE + c]
    near_t = 0  # the targets with a cell in the move or next to it: every other target's term is 0
    if h.vi[p, 0] > 0:
        for j in range(size):
            near_t |= h.cellt[p, geo[p, s, G_CELLS + j]]
        for j in range(nbn):
            near_t |= h.cellt[p, geo[p, s, G_NBS + j]]
    if near_t:
        sb, si = h.sb, h.si
        for j in range(size):
            sb[0, geo[p, s, G_CELLS + j]] = True
        for j in range(nbn):
            sb[1, geo[p, s, G_NBS + j]] = True
        ti = -1
        while near_t:  # ascending, the order the engine adds the targets' terms in
            ti += 1
            if not near_t >> ti & 1:
                continue
            near_t ^= 1 << ti
            overlap = False
            for j in range(size):
                if h.lab[p, ti, geo[p, s, G_CELLS + j]] >= 0:
                    overlap = True
            if not overlap:  # the work saved: the parts away from the front that the move's neighbours reach
                for j in range(nbn):  # sb[2]: the parts counted (the marks of earlier calls cleared first)
                    lab = h.lab[p, ti, geo[p, s, G_NBS + j]]
                    if lab >= 0:
                        sb[2, lab] = False
                gain = 0
                for j in range(nbn):
                    lab = h.lab[p, ti, geo[p, s, G_NBS + j]]
                    if lab >= 0 and not h.tp[p, ti, lab, 0] and not sb[2, lab]:
                        sb[2, lab] = True
                        gain += 1
                v += h.tf[p, ti] * gain
                continue
            npart = h.ti[p, ti, 1]
            for q in range(npart):
                sb[2, q] = False
            for j in range(nbn):
                lab = h.lab[p, ti, geo[p, s, G_NBS + j]]
                if lab >= 0:
                    sb[2, lab] = True
            work = 0
            for q in range(npart):
                if overlap and h.tp[p, ti, q, 1] == colour:
                    continue
                work += 1 if h.tp[p, ti, q, 0] or sb[2, q] else 2
            if overlap:  # the parts of this colour once the move's cells are crossed
                ncells = h.ti[p, ti, 2]
                for x in range(ncells):
                    i = h.tc[p, ti, x]
                    if h.ccol[p, i] == colour and not sb[0, i] and si[0, i] < 0:
                        si[0, i] = 1
                        si[1, 0] = i
                        top = 1
                        near = False
                        while top:
                            top -= 1
                            c = si[1, top]
                            if h.touch[p, c] or sb[1, c]:
                                near = True
                            for q in range(4):
                                nb = h.cnb[c, q]
                                if nb >= 0 and h.lab[p, ti, nb] >= 0 and not sb[0, nb] and si[0, nb] < 0 \
                                        and h.ccol[p, nb] == colour:
                                    si[0, nb] = 1
                                    si[1, top] = nb
                                    top += 1
                        work += 1 if near else 2
                for x in range(ncells):
                    si[0, h.tc[p, ti, x]] = -1
            v += h.tf[p, ti] * (h.ti[p, ti, 0] - work)
        for j in range(size):
            sb[0, geo[p, s, G_CELLS + j]] = False
        for j in range(nbn):
            sb[1, geo[p, s, G_NBS + j]] = False
    return v


@njit(_nrt=False)  # allocates nothing: no reference counts (see _Hot)
def _best(h, p, cf, nc, nf, nn):
    """:func:`nochmal.bots.greedy._best_for_dice`: (value, cell set or -1, colour die, number die,
    colour) of seat ``p``'s best move with these faces (each sorted), a failed roll at -fail.
    Seat ``p``'s legal sets are listed (:func:`_legal`) and its view is current."""
    jw = h.w[5]
    cur = h.vi[p, 1]
    best, best_c, best_n, best_col = -1, -1, -1, -1
    best_v = -h.vf[p, F_FAIL]
    pairs = h.pairs
    for q in range(dice_pairs(cf, nc, nf, nn, h.jl[p], pairs)):
        cdie, ndie = pairs[q, PAIR_C], pairs[q, PAIR_N]
        cost = jw * pairs[q, PAIR_COST]
        for colour in range(pairs[q, PAIR_COL_LO], pairs[q, PAIR_COL_HI]):
            for k in range(pairs[q, PAIR_K_LO], pairs[q, PAIR_K_HI]):
                for oi in range(h.lglo[p, colour, k], h.lghi[p, colour, k]):
                    s = h.lg[p, oi]
                    if h.stamp[p, s] == cur:  # the view's memo (SeatView.memo)
                        v = h.memo[p, s]
                    else:
                        v = _score(h, p, s, colour)
                        h.memo[p, s] = v
                        h.stamp[p, s] = cur
                    v -= cost
                    if v > best_v:
                        best, best_c, best_n, best_col, best_v = s, cdie, ndie, colour, v
    return best_v, best, best_c, best_n, best_col


@njit(_nrt=False)  # allocates nothing: no reference counts (see _Hot)
def _pair_values(h, n, active, cf, nc, nf, nn, pv):
    """``pv[p, i, j]``: each other seat's best value with the one dice pair ``cf[i]``, ``nf[j]``
    (its failed roll at least). A seat's best with several faces is the largest of its pairs'."""
    one_c = h.one[0]
    one_n = h.one[1]
    for p in range(n):
        if p == active:
            continue
        for i in range(nc):
            one_c[0] = cf[i]
            for j in range(nn):
                one_n[0] = nf[j]
                pv[p, i, j] = _best(h, p, one_c, 1, one_n, 1)[0]


@njit(_nrt=False)  # allocates nothing: no reference counts (see _Hot)
def _others_value(h, n, active, nc, nn, pv, skip_c, skip_n):
    """The other seats' best values with the dice left once colour die ``skip_c`` and number die
    ``skip_n`` are set aside (-1: none), summed in seat order (team_choices): the largest of
    each seat's pair values (:func:`_pair_values`), its failed roll if no pair is left."""
    total = 0.0
    for p in range(n):
        if p == active:
            continue
        best = -h.vf[p, F_FAIL]
        for i in range(nc):
            if i == skip_c:
                continue
            for j in range(nn):
                if j != skip_n and pv[p, i, j] > best:
                    best = pv[p, i, j]
        total += best
    return total


@njit(_nrt=False)
def _team_choices(t, g, V, st, h, n, active, cf, nc, nf, nn, cand, cval):
    """:func:`nochmal.bots.greedy.team_choices`: each distinct dice pair with the active seat's
    best move for it, valued as that move plus the others' best with the dice left, and the
    failed roll, best first (a stable sort: ties keep the dice pairs' order, the failed roll
    last) — into ``cand`` (cell set or -1, colour die, number die, colour) and ``cval``. Their
    number. The greedy plays the first; the planner rolls the first few out."""
    for p in range(n):
        _legal(t, st, p)
        if V.dirty[p]:
            _view(t, g, V, st, p, n)
    pv = h.pv
    _pair_values(h, n, active, cf, nc, nf, nn, pv)
    one_c = h.one[0]
    one_n = h.one[1]
    m = 0
    pairs = V.team_pairs  # every distinct pair: nobody pays more than 2 "!" for one
    for q in range(dice_pairs(cf, nc, nf, nn, 2, pairs)):
        one_c[0] = pairs[q, PAIR_C]
        one_n[0] = pairs[q, PAIR_N]
        own_v, s, oc, on, ocol = _best(h, active, one_c, one_c.shape[0], one_n, one_n.shape[0])
        if s < 0:
            continue
        # remove_faces: the first die showing cdie (ndie) is set aside
        cval[m] = own_v + _others_value(h, n, active, nc, nn, pv, pairs[q, PAIR_CI], pairs[q, PAIR_NI])
        cand[m, 0], cand[m, 1], cand[m, 2], cand[m, 3] = s, oc, on, ocol
        m += 1
    cval[m] = -V.vf[active, F_FAIL] + _others_value(h, n, active, nc, nn, pv, -1, -1)
    cand[m, 0], cand[m, 1], cand[m, 2], cand[m, 3] = -1, -1, -1, -1
    m += 1
    for i in range(1, m):  # insertion sort, best value first; equal values keep their order
        j = i
        while j > 0 and cval[j - 1] < cval[j]:
            v = cval[j - 1]
            cval[j - 1] = cval[j]
            cval[j] = v
            for c in range(4):
                x = cand[j - 1, c]
                cand[j - 1, c] = cand[j, c]
                cand[j, c] = x
            j -= 1
    return m
