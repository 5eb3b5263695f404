"""Research: a learned solo value (temporal-difference learning over sheet patterns) and the
policies it gives, one move deep and two. Not used by the app or the bots yet (docs/bots.md,
"Toward 30: a learned value").

The value of a position after a move, with ``r`` rolls left, is a sum of looked-up weights:
- each unit (a column: which of its 7 cells are crossed; a colour block: which of its cells),
- each colour's crossed count,
- the "!" left,
each weight kept per ``r``. Greedy on it (*one move deep*) picks the move whose position is worth
most. The weights are learned by TD(0) over its own games, as in the n-tuple networks of 2048
bots: after each move the previous position's value is pulled towards the new one's, and the last
towards the game's score. *Two moves deep* picks the move whose position has the highest expected
best value one roll later, over all 441 unordered rolls of 2 colour + 2 number dice (R-SOLO-DICE).

    python tools/solo_td.py --games 3000000 3000000 --alpha 0.3 0.03 --two-ply 400

prints each phase's held-out means and, with ``--two-ply N``, both policies on N seeded games
(the same dice for both). Everything is seeded: the same command prints the same scores (only
the seconds vary).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from nochmal.bots.kernel import solo as K
from nochmal.bots.kernel.cache import njit  # its cache keyed on the kernels it calls (and the engine)
from nochmal.bots.kernel.moves import MAX_PAIRS, PAIR_C, PAIR_COST, PAIR_N, PAIR_WIDTH, dice_pairs
from nochmal.bots.kernel.solo_driver import solo_sim
from nochmal.engine.dice import COLOUR_JOKER, NUMBER_JOKER
from nochmal.engine.game import SoloGame
from nochmal.engine.sheet import shipped_sheet_ids


@njit()
def _value(masks, colour_n, jl, r, wu, wk, wj):
    """The position's value: its weights summed (``r`` rolls left)."""
    v = wj[r, jl]
    for u in range(masks.shape[0]):
        v += wu[r, u, masks[u]]
    for k in range(5):
        v += wk[r, k, colour_n[k]]
    return v


@njit()
def _faces(c1, c2, n1, n2, jl, out_c, out_n, out_j):
    """The distinct (colour face, number face) pairs of a roll the "!" left allow (the kernels' one
    dice walk, :func:`nochmal.bots.kernel.moves.dice_pairs`); their count."""
    pairs = np.empty((MAX_PAIRS, PAIR_WIDTH), np.int64)
    n = dice_pairs(K._sorted3(c1, c2, -1), 2, K._sorted3(n1, n2, -1), 2, jl, pairs)
    for q in range(n):
        out_c[q], out_n[q], out_j[q] = pairs[q, PAIR_C], pairs[q, PAIR_N], pairs[q, PAIR_COST]
    return n


@njit()
def _legal(crossed, touch, jl, c1, c2, n1, n2, t, out_s, out_j):
    """Every legal (cell set, "!" spent) of the roll into ``out_s``/``out_j``; their count."""
    fc = np.empty(4, np.int64)
    fn = np.empty(4, np.int64)
    fj = np.empty(4, np.int64)
    n = 0
    for f in range(_faces(c1, c2, n1, n2, jl, fc, fn, fj)):
        c_lo, c_hi = (0, 5) if fc[f] == COLOUR_JOKER else (fc[f], fc[f] + 1)
        k_lo, k_hi = (1, 6) if fn[f] == NUMBER_JOKER else (fn[f], fn[f] + 1)
        for colour in range(c_lo, c_hi):
            for k in range(k_lo, k_hi):
                for oi in range(t.lo[colour, k], t.hi[colour, k]):
                    s = t.order[oi]
                    legal = True
                    anchored = False
                    for j in range(t.size[s]):
                        cell = t.cells[s, j]
                        if crossed[cell]:
                            legal = False
                            break
                        if touch[cell]:
                            anchored = True
                    if legal and anchored:
                        out_s[n], out_j[n] = s, fj[f]
                        n += 1
    return n


@njit()
def _best(crossed, touch, colour_n, masks, jl, c1, c2, n1, n2, r, t, vt, wu, wk, wj, out_s, out_j):
    """One move deep: (cell set or -1 for the pass, "!" spent, the position's value after it)."""
    base = _value(masks, colour_n, 0, r, wu, wk, wj) - wj[r, 0]
    best_s, best_j, best_v = -1, 0, base + wj[r, jl]
    for i in range(_legal(crossed, touch, jl, c1, c2, n1, n2, t, out_s, out_j)):
        s = out_s[i]
        v = base + wj[r, jl - out_j[i]]
        for j in range(t.ncols[s]):
            c = t.cols[s, j]
            m = masks[c]
            v += wu[r, c, m | vt.colbits[s, j]] - wu[r, c, m]
        u = vt.set_block[s]
        m = masks[u]
        v += wu[r, u, m | vt.set_bits[s]] - wu[r, u, m]
        colour = t.cell_colour[t.cells[s, 0]]
        v += wk[r, colour, colour_n[colour] + t.size[s]] - wk[r, colour, colour_n[colour]]
        if v > best_v:
            best_s, best_j, best_v = s, out_j[i], v
    return best_s, best_j, best_v


@njit()
def _apply(s, n_j, crossed, touch, col_n, colour_n, masks, t, vt):
    K._cross(s, crossed, touch, col_n, colour_n, t)
    for j in range(t.ncols[s]):
        masks[t.cols[s, j]] |= vt.colbits[s, j]
    masks[vt.set_block[s]] |= vt.set_bits[s]


@njit()
def _best2(crossed, touch, col_n, colour_n, masks, jl, c1, c2, n1, n2, r, t, vt, wu, wk, wj):
    """Two moves deep: the move (or pass) whose position has the highest expected best value one
    roll later (one move deep at the last roll)."""
    out_s = np.empty(4096, np.int64)
    out_j = np.empty(4096, np.int64)
    if r == 0:
        s, n_j, _v = _best(crossed, touch, colour_n, masks, jl, c1, c2, n1, n2, r, t, vt, wu, wk, wj, out_s, out_j)
        return s, n_j
    cand_s = np.empty(4096, np.int64)
    cand_j = np.empty(4096, np.int64)
    n = _legal(crossed, touch, jl, c1, c2, n1, n2, t, cand_s, cand_j)
    best_s, best_j, best_v = -1, 0, -1e300
    for i in range(n + 1):  # the pass last
        cr, to, cn, kn, ms = crossed.copy(), touch.copy(), col_n.copy(), colour_n.copy(), masks.copy()
        j2 = jl
        if i < n:
            _apply(cand_s[i], cand_j[i], cr, to, cn, kn, ms, t, vt)
            j2 -= cand_j[i]
        ev = 0.0
        for a in range(6):  # the next roll's unordered faces, weighted by their chance (x 1296)
            for b in range(a, 6):
                for x in range(6):
                    for y in range(x, 6):
                        w = (1.0 if a == b else 2.0) * (1.0 if x == y else 2.0)
                        ev += w * _best(cr, to, kn, ms, j2, a, b, x, y, r - 1, t, vt, wu, wk, wj, out_s, out_j)[2]
        if ev > best_v + 1e-9:
            best_v = ev
            best_s, best_j = (cand_s[i], cand_j[i]) if i < n else (-1, 0)
    return best_s, best_j


@njit()
def _game(dice, jokers, t, vt, wu, wk, wj, alpha, two):
    """One game from an empty sheet (``dice``: (rolls, 4)); learns with step ``alpha`` (0: not);
    ``two``: two moves deep (never learns). The final score."""
    crossed = np.zeros(t.start.shape[0], np.bool_)
    touch, col_n, colour_n = K._setup(crossed, t)
    masks = K._unit_masks(crossed, vt)
    out_s = np.empty(4096, np.int64)
    out_j = np.empty(4096, np.int64)
    pm = masks.copy()
    pk = colour_n.copy()
    pj, pr = 0, -1
    jl = jokers
    n = dice.shape[0]
    for q in range(n):
        r = n - 1 - q
        if two:
            s, n_j = _best2(crossed, touch, col_n, colour_n, masks, jl, dice[q, 0], dice[q, 1], dice[q, 2],
                            dice[q, 3], r, t, vt, wu, wk, wj)
            v = 0.0
        else:
            s, n_j, v = _best(crossed, touch, colour_n, masks, jl, dice[q, 0], dice[q, 1], dice[q, 2], dice[q, 3],
                              r, t, vt, wu, wk, wj, out_s, out_j)
        if s >= 0:
            _apply(s, n_j, crossed, touch, col_n, colour_n, masks, t, vt)
            jl -= n_j
        if alpha > 0.0 and pr >= 0:
            _learn(pm, pk, pj, pr, v, alpha, wu, wk, wj)
        pm[:] = masks
        pk[:] = colour_n
        pj, pr = jl, r
    score = K._score(crossed, col_n, colour_n, jl, t)
    if alpha > 0.0:
        _learn(pm, pk, pj, pr, float(score), alpha, wu, wk, wj)
    return score


@njit()
def _learn(masks, colour_n, jl, r, target, alpha, wu, wk, wj):
    """TD(0): every weight of the position moves ``alpha`` of the way its value misses ``target``."""
    d = alpha * (target - _value(masks, colour_n, jl, r, wu, wk, wj))
    wj[r, jl] += d
    for u in range(masks.shape[0]):
        wu[r, u, masks[u]] += d
    for k in range(5):
        wk[r, k, colour_n[k]] += d


@njit()
def games(dice, jokers, t, vt, wu, wk, wj, alpha, two):
    """:func:`_game` for each of ``dice`` (shape (games, rolls, 4)); the scores."""
    out = np.zeros(dice.shape[0], np.int64)
    for g in range(dice.shape[0]):
        out[g] = _game(dice[g], jokers, t, vt, wu, wk, wj, alpha, two)
    return out


def new_weights(sim) -> dict:
    """Zero weights for a solo sheet (``sim``: its :class:`nochmal.bots.kernel.solo_driver.SoloSim`)."""
    rolls, units = sim.n_rolls, sim.values.full.shape[0]
    colour_cells = int(sim._t.arrays.colour_size.max())  # a colour's crossed count runs 0..its cells
    return {"wu": np.zeros((rolls, units, 128)), "wk": np.zeros((rolls, 5, colour_cells + 1)),
            "wj": np.zeros((rolls, sim.sheet.jokers + 1))}


def play(sim, w: dict, dice, *, alpha: float = 0.0, two: bool = False) -> np.ndarray:
    """Games with ``dice``; learning (``alpha`` > 0, one move deep) changes ``w`` in place."""
    dice = np.ascontiguousarray(dice, np.int64)  # one compiled version for every caller's array
    return games(dice, sim.sheet.jokers, sim._t.arrays, sim.values, w["wu"], w["wk"], w["wj"], alpha, two)


def train(sim, w: dict, n_games: int, alpha: float, rng, held, *, batch: int = 100_000, report=print) -> None:
    """``n_games`` games of TD learning with step ``alpha`` (shared by the weights a position has:
    one a unit, one a colour, one for the "!"), reporting the held-out mean (one move deep) after
    every batch."""
    step = alpha / (w["wu"].shape[1] + 6)
    t0, done = time.perf_counter(), 0
    while done < n_games:
        k = min(batch, n_games - done)
        train_mean = play(sim, w, rng.integers(0, 6, (k, sim.n_rolls, 4)), alpha=step).mean()
        done += k
        report(f"  {done:>9,} games (alpha {alpha}): training {train_mean:.2f}, held-out "
               f"{play(sim, w, held).mean():.3f} ({time.perf_counter() - t0:.0f} s)")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sheet", default="standard", choices=shipped_sheet_ids())
    p.add_argument("--games", type=int, nargs="+", default=[3_000_000, 3_000_000],
                   help="games of each learning phase")
    p.add_argument("--alpha", type=float, nargs="+", default=[0.3, 0.03], help="each phase's step")
    p.add_argument("--held-out", type=int, default=4000, help="games that measure each batch")
    p.add_argument("--two-ply", type=int, default=0, metavar="N",
                   help="then play N seeded games one and two moves deep (about 0.5 s a game two deep)")
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--out", help="save the weights (.npz)")
    a = p.parse_args(argv)
    if len(a.games) != len(a.alpha) or min(a.games) < 1 or min(a.alpha) <= 0 or a.held_out < 1 or a.two_ply < 0:
        p.error("--games and --alpha: one positive number for each phase; --held-out at least 1, --two-ply 0 or more")
    sim = solo_sim(SoloGame([a.sheet]))
    if sim is None or sim.values is None:
        p.error(f"sheet {a.sheet!r}: no solo tables to read the units from (nochmal fit-solo-values)")
    rng = np.random.default_rng(a.seed)
    held = rng.integers(0, 6, (a.held_out, sim.n_rolls, 4))
    w = new_weights(sim)
    for n, alpha in zip(a.games, a.alpha):
        train(sim, w, n, alpha, rng, held, report=lambda s: print(s, flush=True))
    if a.out:
        np.savez_compressed(a.out, **w)
    if a.two_ply:
        dice = np.random.default_rng(a.seed + 1).integers(0, 6, (a.two_ply, sim.n_rolls, 4))
        one = play(sim, w, dice)
        t0 = time.perf_counter()
        two = play(sim, w, dice, two=True)
        secs = (time.perf_counter() - t0) / a.two_ply
        d = two - one
        print(f"{a.two_ply} games: one move deep {one.mean():.2f}, two moves deep {two.mean():.2f} "
              f"(difference {d.mean():+.2f}, standard error {d.std(ddof=1) / np.sqrt(len(d)):.2f}; "
              f"{secs:.2f} s a game two deep)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
