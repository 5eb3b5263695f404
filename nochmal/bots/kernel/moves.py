"""A seat's legal crosses in compiled code. Python twins: :mod:`nochmal.engine.moves`
(:func:`~nochmal.engine.moves.move_groups`: the dice pairs and the cell sets each allows, in the
engine's sorted order) and the crossing of :class:`nochmal.engine.game.Seat`.

:func:`next_pair` is the one walk over the dice faces and the "!" they cost that every compiled
caller shares (the co-op rules, the co-op greedy, the solo and base greedy): the distinct colour
faces ascending, for each the distinct number faces ascending, the pairs the seat can pay for.
:func:`dice_pairs` writes its pairs into a table for the callers that come back to them.
"""

from __future__ import annotations

import numpy as np

from nochmal.engine.dice import COLOUR_JOKER, NUMBER_JOKER

from .cache import njit

#: a dice pair's row in :func:`dice_pairs`' table: colour die, number die, "!" it costs, the colours
#: lo..hi and the cell counts lo..hi it allows, the index of the first colour face and number face
#: showing it
PAIR_C, PAIR_N, PAIR_COST, PAIR_COL_LO, PAIR_COL_HI, PAIR_K_LO, PAIR_K_HI, PAIR_CI, PAIR_NI = range(9)
PAIR_WIDTH = 9
MAX_PAIRS = 9  # 3 colour faces x 3 number faces
#: :func:`next_pair`'s pairs: colour face index times this plus number face index
PAIR_STRIDE = 4


@njit(_nrt=False, inline="always")
def next_pair(cf, nc, nf, nn, jokers_left, at):
    """The walk itself: the dice pair after ``at`` (-1: before the first) that a seat with
    ``jokers_left`` "!" may cross with, colour faces ``cf[:nc]`` and number faces ``nf[:nn]``
    (each sorted), in the engine's order (:func:`nochmal.engine.moves.move_groups`: each distinct
    colour face ascending, for it each distinct number face ascending, those the seat can pay
    for). A pair is ``ci * PAIR_STRIDE + ni``, the indices of its first colour face and number
    face; -1 after the last. Callers that keep the pair in registers walk with this (the solo
    rollouts), the others read :func:`dice_pairs`' table."""
    ci = 0 if at < 0 else at // PAIR_STRIDE
    ni = 0 if at < 0 else at % PAIR_STRIDE + 1
    while ci < nc:
        cdie = cf[ci]
        ccost = 1 if cdie == COLOUR_JOKER else 0
        if (ci == 0 or cf[ci - 1] != cdie) and ccost <= jokers_left:
            while ni < nn:
                ndie = nf[ni]
                ncost = 1 if ndie == NUMBER_JOKER else 0
                if (ni == 0 or nf[ni - 1] != ndie) and ccost + ncost <= jokers_left:
                    return ci * PAIR_STRIDE + ni
                ni += 1
        ci += 1
        ni = 0
    return -1


@njit(_nrt=False, inline="always")
def pair_cost(cdie, ndie):
    """The "!" a pair of dice costs: one for each joker face."""
    return (1 if cdie == COLOUR_JOKER else 0) + (1 if ndie == NUMBER_JOKER else 0)


@njit(_nrt=False, inline="always")
def pair_colours(cdie):
    """The colours lo..hi a colour die allows (a joker: any of the five)."""
    return (0, 5) if cdie == COLOUR_JOKER else (cdie, cdie + 1)


@njit(_nrt=False, inline="always")
def pair_counts(ndie):
    """The cell counts lo..hi a number die allows (a joker: one to five)."""
    return (1, 6) if ndie == NUMBER_JOKER else (ndie, ndie + 1)


@njit(_nrt=False, inline="always")
def dice_pairs(cf, nc, nf, nn, jokers_left, pairs):
    """The dice pairs of :func:`next_pair`'s walk into the rows of ``pairs`` (the ``PAIR_*``
    columns). Their number."""
    m = 0
    at = next_pair(cf, nc, nf, nn, jokers_left, -1)
    while at >= 0:
        ci = at // PAIR_STRIDE
        ni = at % PAIR_STRIDE
        cdie = cf[ci]
        ndie = nf[ni]
        c_lo, c_hi = pair_colours(cdie)
        k_lo, k_hi = pair_counts(ndie)
        pairs[m, PAIR_C] = cdie
        pairs[m, PAIR_N] = ndie
        pairs[m, PAIR_COST] = pair_cost(cdie, ndie)
        pairs[m, PAIR_CI] = ci
        pairs[m, PAIR_NI] = ni
        pairs[m, PAIR_COL_LO] = c_lo
        pairs[m, PAIR_COL_HI] = c_hi
        pairs[m, PAIR_K_LO] = k_lo
        pairs[m, PAIR_K_HI] = k_hi
        m += 1
        at = next_pair(cf, nc, nf, nn, jokers_left, at)
    return m


def sheet_sets(sheet):
    """(cell set masks, their indices in the engine's order, lo, hi) of a sheet: within one
    (colour, count) the blocks in sheet order, each block's sets ascending (Sheet.move_table; also
    greedy's order). ``order[lo[colour, k]:hi[colour, k]]``: the sets of that colour and size."""
    masks: list[int] = []
    index: dict[int, int] = {}
    for b in sheet.blocks:
        for s in b.subsets:
            index[s] = len(masks)
            masks.append(s)
    order: list[int] = []
    lo = np.zeros((5, 6), np.int32)
    hi = np.zeros((5, 6), np.int32)
    for colour in range(5):
        for k in range(1, 6):
            lo[colour, k] = len(order)
            order += [index[s] for b in sheet.blocks if b.colour == colour for s in b.subsets if s.bit_count() == k]
            hi[colour, k] = len(order)
    return masks, order, lo, hi


@njit(_nrt=False)
def _sort(a, n):
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@njit(_nrt=False)
def _legal(t, st, p):
    """List seat ``p``'s legal cell sets again if it crossed since (Sheet.move_table's order:
    by (colour, count), blocks in sheet order, each block's sets ascending)."""
    if not st.lgdirty[p]:
        return
    st.lgdirty[p] = False
    one = np.uint64(1)
    cr0 = cr1 = to0 = to1 = np.uint64(0)  # the crossed cells and the cells next to a cross, as masks
    for c in range(64):
        if st.crossed[p, c]:
            cr0 |= one << np.uint64(c)
        if st.touch[p, c]:
            to0 |= one << np.uint64(c)
    for c in range(64, 105):
        if st.crossed[p, c]:
            cr1 |= one << np.uint64(c - 64)
        if st.touch[p, c]:
            to1 |= one << np.uint64(c - 64)
    zero = np.uint64(0)
    q = 0
    for colour in range(5):
        for k in range(1, 6):
            st.lglo[p, colour, k] = q
            for oi in range(t.lo[p, colour, k], t.hi[p, colour, k]):
                m0 = t.omask[p, oi, 0]
                m1 = t.omask[p, oi, 1]
                # legal: none of its cells crossed; anchored: one of them next to a cross (or in the start column)
                if (m0 & cr0) | (m1 & cr1) == zero and (m0 & to0) | (m1 & to1) != zero:
                    st.lg[p, q] = t.order[p, oi]
                    q += 1
            st.lghi[p, colour, k] = q


@njit(_nrt=False)
def _scan(t, st, p, cf, nc, nf, nn, walk, target, pairs):
    """Walk seat ``p``'s legal crosses with colour faces ``cf[:nc]`` and number faces ``nf[:nn]``
    (each sorted) in the engine's order (:func:`nochmal.engine.moves.move_groups`).
    walk 0: count them; walk 1: stop at the ``target``-th (0-based); walk 2: the one with the
    most cells (the first of those). ``pairs``: scratch for :func:`dice_pairs`. Returns (count, cell set or
    -1, colour die, number die, colour)."""
    _legal(t, st, p)
    count = 0
    best, best_k, best_c, best_n, best_col = -1, 0, -1, -1, -1
    for q in range(dice_pairs(cf, nc, nf, nn, st.jl[p], pairs)):
        cdie, ndie = pairs[q, PAIR_C], pairs[q, PAIR_N]
        for colour in range(pairs[q, PAIR_COL_LO], pairs[q, PAIR_COL_HI]):
            for k in range(pairs[q, PAIR_K_LO], pairs[q, PAIR_K_HI]):
                lo, hi = st.lglo[p, colour, k], st.lghi[p, colour, k]
                if lo == hi:
                    continue
                if walk == 1 and target < count + hi - lo:
                    return count, st.lg[p, lo + target - count], cdie, ndie, colour
                if walk == 2 and k > best_k:  # the first set of the largest size is kept
                    best, best_k, best_c, best_n, best_col = st.lg[p, lo], k, cdie, ndie, colour
                count += hi - lo
    return count, best, best_c, best_n, best_col


@njit(_nrt=False, inline="always")
def _count(t, st, p, cell):
    """Count seat ``p``'s crossed ``cell``: its column, colour and row, and its neighbours touch a cross."""
    st.col_n[p, cell % 15] += 1
    st.colour_n[p, t.cell_colour[p, cell]] += 1
    st.row_n[p, cell // 15] += 1
    for q in range(4):
        nb = t.cell_nb[cell, q]
        if nb >= 0:
            st.touch[p, nb] = True


@njit(_nrt=False)
def _cross(t, st, p, s, colour, cdie, ndie):
    """Seat ``p`` crosses cell set ``s``: its counts, "!" spent, the columns and the colour it
    completes (settled at the end of the turn, R-FIRST)."""
    for j in range(t.size[p, s]):
        cell = t.cells[p, s, j]
        st.crossed[p, cell] = True
        _count(t, st, p, cell)
    for j in range(t.size[p, s]):
        c = t.cells[p, s, j] % 15
        if st.col_n[p, c] == 7:
            st.newc[p, c] = True
    st.lgdirty[p] = True
    st.jl[p] -= (1 if cdie == COLOUR_JOKER else 0) + (1 if ndie == NUMBER_JOKER else 0)
    if st.colour_n[p, colour] == t.colour_size[p, colour] and not st.colour_done[p, colour]:
        st.newcol[p, colour] = True
