"""Greedy play compiled with numba: the solo planner's rollouts (R-SOLO-*: one sheet, 2 + 2
dice, 30 rolls, every completion a first, nothing set aside) and greedy's single decisions in
solo and base games (any 1-3 colour and number faces, first or later points).

An unchecked fast path, named as such: it trusts its input and chooses exactly what the bots'
Python heuristic (:func:`nochmal.bots.greedy.reference_greedy`) chooses outside co-op — the same moves
in the same order, the same heuristic values computed with the same floating-point operations,
so even ties break the same way; tests compare them move by move. Python twins:
:func:`nochmal.bots.greedy.reference_greedy` and :mod:`nochmal.bots.heuristic` (greedy), the
table policy of :mod:`nochmal.bots.solo_values`. :class:`nochmal.bots.kernel.solo_driver.SoloSim`
and :class:`nochmal.bots.kernel.solo_driver.GreedyKernel` are its interfaces.

A position is a boolean array of the 105 cells (row-major, ``A1`` first) plus "!" left; a move
is the index of a *cell set* — one of the connected 1-5-cell subsets of one colour block,
listed once per sheet in :class:`SoloTables`. Dice are ``(colour, colour, number, number)``
faces in :mod:`nochmal.engine.dice`'s coding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from nochmal.bots.heuristic import gains
from nochmal.engine.cells import FULL, N_CELLS, N_COLS, indices, neighbours

from .cache import njit
from .moves import PAIR_STRIDE, next_pair, pair_colours, pair_cost, pair_counts, sheet_sets

MAX_NB = 24  # neighbour cells of a 5-cell set: at most 12; room to spare


class Arrays(NamedTuple):
    """What the kernels read, for one sheet and one set of weights (numba takes a named tuple of
    arrays as one argument)."""

    order: np.ndarray  # cell set indices in greedy's order, by (colour, count) slices lo..hi
    lo: np.ndarray
    hi: np.ndarray
    cells: np.ndarray  # cell set -> its cells (-1 padded)
    size: np.ndarray
    base: np.ndarray  # cell set -> cell value + star value, as score_cells computes it
    nbs: np.ndarray  # cell set -> the cells of neighbours(mask) (-1 padded)
    nbn: np.ndarray
    cols: np.ndarray  # cell set -> (column, cells in it) in subset_info's order
    colk: np.ndarray
    ncols: np.ndarray
    col_gain: np.ndarray  # [first 0 / later 1][column][crossed][new cells]: score_cells' column term
    colour_gain: np.ndarray  # [first 0 / later 1][colour's crossed][new cells]: its colour term
    cell_nb: np.ndarray  # cell -> its orthogonal neighbours (-1 padded)
    start: np.ndarray
    star: np.ndarray
    cell_colour: np.ndarray
    colour_size: np.ndarray
    first: np.ndarray  # column points (solo: every completion a first)
    scalars: np.ndarray  # expand, joker, fail weights; joker value, star penalty, colour bonus


@dataclass(frozen=True)
class GreedyTables:
    """The kernels' arrays plus the cell set index -> bit mask map, for one sheet, one game's
    scoring and the weights."""

    masks: tuple[int, ...]  # cell set index -> bit mask (Python int)
    arrays: Arrays

    @classmethod
    def build(cls, game, sheet, w, star_val: float, subset_info) -> "GreedyTables":
        masks, order, lo, hi = sheet_sets(sheet)  # greedy's order: the engine's
        n = len(masks)
        cells = np.full((n, 5), -1, np.int16)
        size = np.zeros(n, np.int8)
        base = np.zeros(n, np.float64)
        nbs = np.full((n, MAX_NB), -1, np.int16)
        nbn = np.zeros(n, np.int8)
        cols = np.zeros((n, 5), np.int8)
        colk = np.zeros((n, 5), np.int8)
        ncols = np.zeros(n, np.int8)
        for i, m in enumerate(masks):
            c_items, _rows, stars, sz, nb = subset_info(sheet, m)
            idx = list(indices(m))
            cells[i, : len(idx)] = idx
            size[i] = sz
            base[i] = w.cell * sz + star_val * stars  # as score_cells computes it
            nidx = list(indices(nb))
            nbs[i, : len(nidx)] = nidx
            nbn[i] = len(nidx)
            ncols[i] = len(c_items)
            for j, (c, k) in enumerate(c_items):
                cols[i, j], colk[i, j] = c, k
        g7, g21 = gains(7, w.power), gains(21, w.power)
        # the same products as SeatView/score_cells: w.column * points * gain (a worthless column
        # adds 0.0 here where score_cells skips it: the same sum)
        col_gain = np.array([[[[w.column * float(pts[c]) * g7[n_][k] for k in range(6)] for n_ in range(8)]
                              for c in range(N_COLS)] for pts in (sheet.first_points, sheet.later_points)],
                            np.float64)
        colour_gain = np.array([[[w.colour * float(cv) * g21[n_][k] for k in range(6)] for n_ in range(22)]
                                for cv in game.colour_bonus], np.float64)
        cell_nb = np.full((N_CELLS, 4), -1, np.int16)
        for i in range(N_CELLS):
            nidx = list(indices(neighbours(1 << i) & FULL))
            cell_nb[i, : len(nidx)] = nidx
        start = np.zeros(N_CELLS, np.bool_)
        start[list(indices(sheet.start_mask))] = True
        star = np.zeros(N_CELLS, np.bool_)
        star[list(indices(sheet.star_mask))] = True
        cell_colour = np.array(sheet.colour_of, np.int8)
        colour_size = np.array([m.bit_count() for m in sheet.colour_masks], np.int16)
        scalars = np.array([w.expand, w.joker, w.fail, float(game.joker_value), float(game.star_penalty),
                            float(game.colour_bonus[0])], np.float64)
        first = np.array(sheet.first_points, np.int32)
        arrays = Arrays(np.array(order, np.int32), lo, hi, cells, size, base, nbs, nbn, cols, colk, ncols,
                        col_gain, colour_gain, cell_nb, start, star, cell_colour, colour_size, first, scalars)
        return cls(tuple(masks), arrays)


class ValueArrays(NamedTuple):
    """The solo table policy's arrays (:mod:`nochmal.bots.solo_values`), for one sheet and a game
    of ``R`` rolls; ``r`` below is the rolls left after the current one (0 at the last roll). A
    *unit* is a column (0-14, its cells' rows as a 7-bit mask) or a colour block (15 on, its
    cells in sheet order as a bit mask)."""

    done: np.ndarray  # [r, unit, crossed mask] -> the chance the unit ends complete (float32: half the cache)
    full: np.ndarray  # [unit] -> its mask when complete
    joker: np.ndarray  # ["!" held, r] -> what holding them is worth
    reach: np.ndarray  # [r] -> what a newly reachable cell is worth
    star_worth: np.ndarray  # [cell set] -> the penalty its stars avoid
    colbits: np.ndarray  # [cell set, j] -> the rows it crosses in its j-th column (aligned with Arrays.cols)
    set_block: np.ndarray  # [cell set] -> the unit of its block (R-BLOCK: a cell set lies in one)
    set_bits: np.ndarray  # [cell set] -> its cells in the block's mask
    colour_units: np.ndarray  # [colour, i] -> the units of its blocks (-1 padded)
    cell_unit: np.ndarray  # [cell] -> the unit of its block
    cell_bit: np.ndarray  # [cell] -> its bit in the block's mask


def column_bits(t: Arrays) -> np.ndarray:
    """``ValueArrays.colbits`` for the cell sets of ``t``."""
    n = t.size.shape[0]
    out = np.zeros((n, 5), np.int64)
    for s in range(n):
        for j in range(int(t.ncols[s])):
            c = int(t.cols[s, j])
            out[s, j] = sum(1 << (int(t.cells[s, q]) // N_COLS) for q in range(int(t.size[s]))
                            if int(t.cells[s, q]) % N_COLS == c)
    return out


def bits_of(crossed: int) -> np.ndarray:
    """A cell mask (Python int) as the kernels' boolean array."""
    raw = np.frombuffer(crossed.to_bytes((N_CELLS + 7) // 8, "little"), np.uint8)
    return np.unpackbits(raw, bitorder="little")[:N_CELLS].astype(np.bool_)


# --------------------------------------------------------------------------- kernels
@njit()
def _mark(i, crossed, touch, col_n, colour_n, t):
    """Count cell ``i`` as crossed: its column, its colour, and its neighbours become anchors."""
    crossed[i] = True
    col_n[i % N_COLS] += 1
    colour_n[t.cell_colour[i]] += 1
    for q in range(4):
        nb = t.cell_nb[i, q]
        if nb >= 0:
            touch[nb] = True


@njit()
def _setup(crossed, t):
    """(touch, column counts, colour counts) of a position: touch = start column or next to a cross."""
    touch = t.start.copy()
    col_n = np.zeros(N_COLS, np.int64)
    colour_n = np.zeros(5, np.int64)
    for i in range(crossed.shape[0]):
        if crossed[i]:
            _mark(i, crossed, touch, col_n, colour_n, t)
    return touch, col_n, colour_n


NO_FACE = 99  # an absent die (faces are 0-5)


@njit()
def _sorted3(a, b, c):
    """Up to three dice faces (-1: no die) ascending, absent ones last as NO_FACE."""
    a = NO_FACE if a < 0 else a
    b = NO_FACE if b < 0 else b
    c = NO_FACE if c < 0 else c
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return (a, b, c)


@njit()
def _present(faces):
    """How many of :func:`_sorted3`'s faces are dice (the absent ones, NO_FACE, come last)."""
    return (faces[0] != NO_FACE) + (faces[1] != NO_FACE) + (faces[2] != NO_FACE)


@njit()
def _choose(crossed, touch, col_n, colour_n, jokers_left, c1, c2, c3, n1, n2, n3, claimed_cols,
            claimed_colours, t):
    """Greedy's move with colour faces c1-c3 and number faces n1-n3 (-1: no die): (cell set index
    or -1 for a pass, "!" spent, colour die, number die, colour). ``claimed_cols``/``claimed_colours``:
    bit masks of what another seat completed first (later points, R-FIRST)."""
    return _best_move(crossed, touch, col_n, colour_n, jokers_left, c1, c2, c3, n1, n2, n3, claimed_cols,
                      claimed_colours, t, None, None, None, 0)


@njit()
def _best_move(crossed, touch, col_n, colour_n, jokers_left, c1, c2, c3, n1, n2, n3, claimed_cols,
               claimed_colours, t, vt, masks, others, r):
    """The best legal move with these faces, as :func:`_choose` returns it, valued by greedy's
    heuristic (``vt`` None; numba compiles that case without the table branch) or by the
    completion tables ``vt`` (:class:`ValueArrays`, solo: ``masks`` the units' crossed masks,
    ``others`` scratch for :func:`_colour_others`, filled in for the colours the dice reach, ``r``
    the rolls left after this one). Every legal (cell set, dice) is visited in greedy's order; a
    strictly higher value wins, so ties keep the first."""
    order, lo, hi, cells, size, base, nbs, nbn = t.order, t.lo, t.hi, t.cells, t.size, t.base, t.nbs, t.nbn
    cols, colk, ncols, col_gain, colour_gain = t.cols, t.colk, t.ncols, t.col_gain, t.colour_gain
    wexp, jw, wfail = t.scalars[0], t.scalars[1], t.scalars[2]
    best, best_nj, best_c, best_n, best_col = -1, 0, -1, -1, -1
    best_v = -wfail if vt is None else 0.0  # the pass
    cfs = _sorted3(c1, c2, c3)
    nfs = _sorted3(n1, n2, n3)
    have = 0  # (tables) the colours whose ``others`` are filled in
    nc, nn = _present(cfs), _present(nfs)
    at = next_pair(cfs, nc, nfs, nn, jokers_left, -1)
    while at >= 0:
        cdie, ndie = cfs[at // PAIR_STRIDE], nfs[at % PAIR_STRIDE]
        at = next_pair(cfs, nc, nfs, nn, jokers_left, at)
        n_j = pair_cost(cdie, ndie)
        c_lo, c_hi = pair_colours(cdie)
        k_lo, k_hi = pair_counts(ndie)
        if vt is None:
            cost = jw * n_j
        else:
            cost = vt.joker[jokers_left, r] - vt.joker[jokers_left - n_j, r]
        for colour in range(c_lo, c_hi):
            if vt is not None:
                if not have >> colour & 1:  # its blocks' chances, once a call, for the colours it visits
                    _colour_others(colour, masks, r, vt, others)
                    have |= 1 << colour
            cgain = colour_gain[claimed_colours >> colour & 1, colour_n[colour]]
            for k in range(k_lo, k_hi):
                for oi in range(lo[colour, k], hi[colour, k]):
                    s = order[oi]
                    legal = True
                    anchored = False
                    for j in range(size[s]):
                        cell = cells[s, j]
                        if crossed[cell]:
                            legal = False
                            break
                        if touch[cell]:
                            anchored = True
                    if not legal or not anchored:
                        continue
                    if vt is None:
                        v = base[s]
                        if wexp != 0.0:
                            cnt = 0
                            for j in range(nbn[s]):
                                cell = nbs[s, j]
                                if not crossed[cell] and not touch[cell]:
                                    cnt += 1
                            v += wexp * cnt
                        for j in range(ncols[s]):
                            c = cols[s, j]
                            v += col_gain[claimed_cols >> c & 1, c, col_n[c], colk[s, j]]
                        v = v + cgain[size[s]]
                    else:
                        v = _table_value(s, colour, crossed, touch, masks, others, r, t, vt)
                    v -= cost
                    if v > best_v:
                        best, best_nj, best_c, best_n, best_col, best_v = s, n_j, cdie, ndie, colour, v
    return best, best_nj, best_c, best_n, best_col


@njit(inline="always")
def _table_value(s, colour, crossed, touch, masks, others, r, t, vt):
    """What crossing cell set ``s`` (in ``colour``) is worth to the table policy: the rise in each
    touched column's chance to end complete times its points; the rise in its block's chance times
    the other blocks' chances of that colour (the colour completes when all its blocks do) times
    the colour bonus; the penalty a crossed star avoids; and a little for each cell it makes
    reachable (less as the game runs out)."""
    done = vt.done
    v = vt.star_worth[s]
    if vt.reach[r] != 0.0:
        cnt = 0
        for j in range(t.nbn[s]):
            cell = t.nbs[s, j]
            if not crossed[cell] and not touch[cell]:
                cnt += 1
        v += vt.reach[r] * cnt
    for j in range(t.ncols[s]):
        c = t.cols[s, j]
        m = masks[c]
        v += t.first[c] * (done[r, c, m | vt.colbits[s, j]] - done[r, c, m])
    u = vt.set_block[s]
    m = masks[u]
    v += t.scalars[5] * others[u] * (done[r, u, m | vt.set_bits[s]] - done[r, u, m])
    return v


@njit()
def _cross(s, crossed, touch, col_n, colour_n, t):
    for j in range(t.size[s]):
        _mark(t.cells[s, j], crossed, touch, col_n, colour_n, t)


@njit()
def _score(crossed, col_n, colour_n, jokers_left, t):
    """R-SCORE of a finished solo sheet (every completion a first)."""
    star, colour_size, first, scalars = t.star, t.colour_size, t.first, t.scalars
    v = jokers_left * int(scalars[3])
    for i in range(crossed.shape[0]):
        if star[i] and not crossed[i]:
            v -= int(scalars[4])
    for c in range(N_COLS):
        if col_n[c] == 7:
            v += first[c]
    for c in range(5):
        if colour_n[c] == colour_size[c]:
            v += int(scalars[5])
    return v


@njit()
def _play(crossed0, jokers_left, dice, t):
    """Greedy from ``crossed0`` over the rolls in ``dice`` (shape (rolls, 4)); the final score."""
    crossed = crossed0.copy()
    touch, col_n, colour_n = _setup(crossed, t)
    jl = jokers_left
    for r in range(dice.shape[0]):
        s, n_j, _c, _n, _col = _choose(crossed, touch, col_n, colour_n, jl, dice[r, 0], dice[r, 1], -1,
                                       dice[r, 2], dice[r, 3], -1, 0, 0, t)
        if s >= 0:
            _cross(s, crossed, touch, col_n, colour_n, t)
            jl -= n_j
    return _score(crossed, col_n, colour_n, jl, t)


@njit()
def play_many(starts, jokers, dice, t):
    """:func:`_play` from each start position (rows of ``starts``) with the same dice."""
    out = np.zeros(starts.shape[0], np.int64)
    for k in range(starts.shape[0]):
        out[k] = _play(starts[k], jokers[k], dice, t)
    return out


@njit()
def choose_one(crossed, jokers_left, c1, c2, c3, n1, n2, n3, claimed_cols, claimed_colours, t):
    """One decision from a position (see :func:`_choose`)."""
    touch, col_n, colour_n = _setup(crossed, t)
    return _choose(crossed, touch, col_n, colour_n, jokers_left, c1, c2, c3, n1, n2, n3, claimed_cols,
                   claimed_colours, t)


@njit()
def score_one(crossed, jokers_left, t):
    _touch, col_n, colour_n = _setup(crossed, t)
    return _score(crossed, col_n, colour_n, jokers_left, t)


# --------------------------------------------------------------------------- the solo table policy
@njit()
def _unit_masks(crossed, vt):
    """Each unit's crossed mask (:class:`ValueArrays`)."""
    masks = np.zeros(vt.full.shape[0], np.int64)
    for i in range(crossed.shape[0]):
        if crossed[i]:
            masks[i % N_COLS] |= 1 << (i // N_COLS)
            masks[vt.cell_unit[i]] |= vt.cell_bit[i]
    return masks


@njit()
def _colour_others(colour, masks, r, vt, others):
    """``others[u]`` for each block ``u`` of ``colour``: the chance that every *other* block of
    the colour ends complete (the product of their chances), with ``r`` rolls left."""
    cu = vt.colour_units
    for i in range(cu.shape[1]):
        u = cu[colour, i]
        if u < 0:
            break
        p = 1.0
        for i2 in range(cu.shape[1]):
            u2 = cu[colour, i2]
            if u2 < 0:
                break
            if u2 != u:
                p *= vt.done[r, u2, masks[u2]]
        others[u] = p


@njit()
def _play_values(crossed0, jokers_left, dice, t, vt, seen):
    """The table policy from ``crossed0`` over the game's last ``dice.shape[0]`` rolls; the final
    score. ``seen`` (empty: not kept) gets each roll's unit masks after the move, for fitting."""
    crossed = crossed0.copy()
    touch, col_n, colour_n = _setup(crossed, t)
    masks = _unit_masks(crossed, vt)
    others = np.zeros(masks.shape[0])
    jl = jokers_left
    n = dice.shape[0]
    for q in range(n):
        r = n - 1 - q
        s, n_j, _c, _n, _colour = _best_move(crossed, touch, col_n, colour_n, jl, dice[q, 0], dice[q, 1], -1,
                                             dice[q, 2], dice[q, 3], -1, 0, 0, t, vt, masks, others, r)
        if s >= 0:
            _cross(s, crossed, touch, col_n, colour_n, t)
            for j in range(t.ncols[s]):
                masks[t.cols[s, j]] |= vt.colbits[s, j]
            masks[vt.set_block[s]] |= vt.set_bits[s]
            jl -= n_j
        if seen.shape[0]:
            seen[q] = masks
    return _score(crossed, col_n, colour_n, jl, t)


@njit()
def play_values_many(starts, jokers, dice, t, vt):
    """:func:`_play_values` from each start position with the same dice (the planner's rollouts)."""
    out = np.zeros(starts.shape[0], np.int64)
    nothing = np.zeros((0, vt.full.shape[0]), np.int64)
    for k in range(starts.shape[0]):
        out[k] = _play_values(starts[k], jokers[k], dice, t, vt, nothing)
    return out


@njit()
def choose_values(crossed, jokers_left, c1, c2, n1, n2, r, t, vt):
    """The table policy's move with these dice, ``r`` rolls left after this one (see :func:`_choose`)."""
    touch, col_n, colour_n = _setup(crossed, t)
    masks = _unit_masks(crossed, vt)
    others = np.zeros(masks.shape[0])
    return _best_move(crossed, touch, col_n, colour_n, jokers_left, c1, c2, -1, n1, n2, -1, 0, 0, t, vt, masks,
                      others, r)


@njit()
def fit_counts(games, jokers, t, vt):
    """Whole games of the table policy from an empty sheet with ``jokers`` "!" (``games``: (n,
    rolls, 4) dice): their scores, and for each (r, unit, mask) seen after a move how often it
    was seen and how often that unit ended complete."""
    n_games, R = games.shape[0], games.shape[1]
    n_units = vt.full.shape[0]
    seen = np.zeros(vt.done.shape)
    hits = np.zeros(vt.done.shape)
    scores = np.zeros(n_games, np.int64)
    hist = np.zeros((R, n_units), np.int64)
    empty = np.zeros(N_CELLS, np.bool_)
    for g in range(n_games):
        scores[g] = _play_values(empty, jokers, games[g], t, vt, hist)
        for u in range(n_units):
            complete = hist[R - 1, u] == vt.full[u]
            for q in range(R):
                r = R - 1 - q
                seen[r, u, hist[q, u]] += 1
                if complete:
                    hits[r, u, hist[q, u]] += 1
    return scores, seen, hits
