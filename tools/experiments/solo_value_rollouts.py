"""Experiment (issue 21, solo planner towards a mean of 30), not shipped code: a rollout policy for
the solo planner that values a move by *completion-probability tables* instead of greedy's
heuristic, and a paired comparison of the planner with those rollouts against greedy rollouts.

The tables, for the standard sheet and 30 rolls:
- ``Pc[r, c, m]``: the chance that column ``c`` ends complete, given the set ``m`` of its 7 cells
  crossed (a 7-bit mask: which rows) when ``r`` rolls remain;
- ``Pk[r, k, n]``: the same for colour ``k`` with ``n`` of its cells crossed.
A move is worth sum(first points x the change in Pc) + 5 x the change in Pk + 2 a star + a
little for cells it makes reachable, minus a "!" cost falling from 3 to 1 over the game; a pass
is worth 0. The tables are fitted by policy iteration: play 40,000 games with the current
tables, count how often each (r, c, m) ended complete, smooth towards the old table, repeat.

    python tools/experiments/solo_value_rollouts.py train --out /tmp/solo-values.npz
    python tools/experiments/solo_value_rollouts.py plan --tables /tmp/solo-values.npz --rollouts value --games 100
    python tools/experiments/solo_value_rollouts.py plan --tables /tmp/solo-values.npz --rollouts greedy --games 100

``plan`` plays a planner like the shipped one (candidates ranked by the table values, the pass
always among them, successive halving after 1/8, 1/4 and 1/2 of the rollouts) with either
rollout policy, on the same dice (seeded numpy draws), and saves the scores for a paired test.
Results and their figures: docs/bots.md, "Solo: towards 30".
"""

from __future__ import annotations

import argparse
import random
import time

import numba
import numpy as np

from nochmal.analytics.simulate import make_game
from nochmal.bots import kernels as K
from nochmal.bots.compiled import SoloSim

NR = 30
GAME = make_game("solo")
SIM = SoloSim(GAME)
T = SIM._t.arrays
_N_SETS = T.size.shape[0]
#: per cell set, the rows it crosses in each of its columns (aligned with T.cols)
COLBITS = np.zeros((_N_SETS, 5), np.int64)
for _s in range(_N_SETS):
    for _j in range(T.ncols[_s]):
        _c = T.cols[_s, _j]
        COLBITS[_s, _j] = sum(1 << (int(T.cells[_s, q]) // 15) for q in range(T.size[_s]) if T.cells[_s, q] % 15 == _c)
POP = np.array([bin(m).count("1") for m in range(128)])


def dice_arr(n: int, seed: int) -> np.ndarray:
    return np.stack([SIM.draw(random.Random(seed * 1000003 + i), NR) for i in range(n)])


def joker_table(start: float = 3.0, end: float = 1.0) -> np.ndarray:
    """J[j, r]: the value of holding j "!" with r rolls left (linear in j, its rate from start to end)."""
    return np.array([[j * (end + (start - end) * r / 29.0) for r in range(NR)] for j in range(9)])


@numba.njit(inline="always")
def move_value(s, colour, crossed, touch, col_m, colour_n, r, Pc, Pk, wexp, wstar, t, colbits):
    stars = 0
    for j in range(t.size[s]):
        if t.star[t.cells[s, j]]:
            stars += 1
    v = wstar * stars
    cnt = 0
    for j in range(t.nbn[s]):
        cell = t.nbs[s, j]
        if not crossed[cell] and not touch[cell]:
            cnt += 1
    v += wexp * cnt * r / 29.0
    for j in range(t.ncols[s]):
        c = t.cols[s, j]
        m = col_m[c]
        v += t.first[c] * (Pc[r, c, m | colbits[s, j]] - Pc[r, c, m])
    v += 5.0 * (Pk[r, colour, colour_n[colour] + t.size[s]] - Pk[r, colour, colour_n[colour]])
    return v


@numba.njit
def moves(crossed, touch, col_m, colour_n, jl, dice_r, r, Pc, Pk, J, prm, t, colbits, out_s, out_j, out_v):
    """Every legal move with these dice (one per cell set, its cheapest dice) and its value; row 0 the pass."""
    order, lo, hi, cells, size = t.order, t.lo, t.hi, t.cells, t.size
    out_s[0] = -1
    out_j[0] = 0
    out_v[0] = 0.0
    m = 1
    for a in range(2):
        cdie = dice_r[a]
        if a == 1 and dice_r[1] == dice_r[0]:
            continue
        ccost = 1 if cdie == 5 else 0
        for b in range(2):
            ndie = dice_r[2 + b]
            if b == 1 and dice_r[3] == dice_r[2]:
                continue
            ncost = 1 if ndie == 0 else 0
            n_j = ccost + ncost
            if n_j > jl:
                continue
            cost = J[jl, r] - J[jl - n_j, r]
            c_lo, c_hi = (0, 5) if ccost else (cdie, cdie + 1)
            k_lo, k_hi = (1, 6) if ncost else (ndie, ndie + 1)
            for colour in range(c_lo, c_hi):
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
                        v = move_value(s, colour, crossed, touch, col_m, colour_n, r, Pc, Pk, prm[0], prm[1], t,
                                       colbits) - cost
                        q = 1
                        while q < m and out_s[q] != s:
                            q += 1
                        if q == m:
                            out_s[m] = s
                            out_j[m] = n_j
                            out_v[m] = v
                            m += 1
                        elif out_j[q] > n_j:
                            out_j[q] = n_j
                            out_v[q] = v
    return m


@numba.njit
def apply(s, crossed, touch, col_n, colour_n, col_m, t, colbits):
    K._cross(s, crossed, touch, col_n, colour_n, t)
    for j in range(t.ncols[s]):
        col_m[t.cols[s, j]] |= colbits[s, j]


@numba.njit
def play_values(dice, i0, crossed0, jl0, Pc, Pk, J, prm, t, colbits, rec, cnt_c, hit_c, cnt_k, hit_k, buf_s, buf_j,
                buf_v):
    """The table policy from roll ``i0`` to the end; the score. ``rec``: count the visited (r, c, m)
    and (r, k, n) and whether each ended complete."""
    crossed = crossed0.copy()
    touch, col_n, colour_n = K._setup(crossed, t)
    col_m = np.zeros(15, np.int64)
    for i in range(105):
        if crossed[i]:
            col_m[i % 15] |= 1 << (i // 15)
    jl = jl0
    hist_c = np.zeros((NR, 15), np.int64)
    hist_k = np.zeros((NR, 5), np.int64)
    for i in range(i0, NR):
        r = NR - 1 - i
        m = moves(crossed, touch, col_m, colour_n, jl, dice[i], r, Pc, Pk, J, prm, t, colbits, buf_s, buf_j, buf_v)
        best = 0
        for q in range(1, m):
            if buf_v[q] > buf_v[best]:
                best = q
        if buf_s[best] >= 0:
            apply(buf_s[best], crossed, touch, col_n, colour_n, col_m, t, colbits)
            jl -= buf_j[best]
        if rec:
            hist_c[i] = col_m
            hist_k[i] = colour_n
    if rec:
        for i in range(i0, NR):
            r = NR - 1 - i
            for c in range(15):
                cnt_c[r, c, hist_c[i, c]] += 1
                if col_n[c] == 7:
                    hit_c[r, c, hist_c[i, c]] += 1
            for c in range(5):
                cnt_k[r, c, hist_k[i, c]] += 1
                if colour_n[c] == t.colour_size[c]:
                    hit_k[r, c, hist_k[i, c]] += 1
    return K._score(crossed, col_n, colour_n, jl, t)


@numba.njit
def play_batch(D, Pc, Pk, J, prm, t, colbits, rec):
    cnt_c = np.zeros((NR, 15, 128))
    hit_c = np.zeros((NR, 15, 128))
    cnt_k = np.zeros((NR, 5, 22))
    hit_k = np.zeros((NR, 5, 22))
    buf_s = np.zeros(4000, np.int64)
    buf_j = np.zeros(4000, np.int64)
    buf_v = np.zeros(4000)
    out = np.zeros(D.shape[0], np.int64)
    z = np.zeros(105, np.bool_)
    for g in range(D.shape[0]):
        out[g] = play_values(D[g], 0, z, 8, Pc, Pk, J, prm, t, colbits, rec, cnt_c, hit_c, cnt_k, hit_k, buf_s, buf_j,
                             buf_v)
    return out, cnt_c, hit_c, cnt_k, hit_k


def prior_tables():
    """The start: (crossed share)^6, as greedy's progress shaping."""
    Pc = np.broadcast_to((POP / 7.0) ** 6, (NR, 15, 128)).copy()
    n = np.arange(22)
    Pk = np.stack([np.stack([np.minimum(n / T.colour_size[k], 1.0) ** 6 for k in range(5)])] * NR)
    return Pc, Pk


def refit(Pc, Pk, cnt_c, hit_c, cnt_k, hit_k, prior=4.0):
    Pc = (hit_c + prior * Pc) / (cnt_c + prior)
    Pc[:, :, 127] = 1.0
    Pk = (hit_k + prior * Pk) / (cnt_k + prior)
    for k in range(5):
        Pk[:, k, T.colour_size[k]:] = 1.0
    Pk = np.maximum.accumulate(Pk, axis=2)
    return Pc, Pk


@numba.njit
def draw(n):
    d = np.zeros((n, 4), np.int64)
    for i in range(n):
        for j in range(4):
            d[i, j] = np.random.randint(6)
    return d


@numba.njit
def greedy_rollout(crossed0, jl0, i0, t, dice):
    crossed = crossed0.copy()
    touch, col_n, colour_n = K._setup(crossed, t)
    jl = jl0
    for i in range(i0, NR):
        s, n_j, _c, _n, _col = K._choose(crossed, touch, col_n, colour_n, jl, dice[i, 0], dice[i, 1], -1,
                                         dice[i, 2], dice[i, 3], -1, 0, 0, t)
        if s >= 0:
            K._cross(s, crossed, touch, col_n, colour_n, t)
            jl -= n_j
    return K._score(crossed, col_n, colour_n, jl, t)


@numba.njit
def planner_game(dice, Pc, Pk, J, prm, t, colbits, value_rollouts, ncand, R, seed):
    np.random.seed(seed)
    crossed = np.zeros(105, np.bool_)
    touch, col_n, colour_n = K._setup(crossed, t)
    col_m = np.zeros(15, np.int64)
    jl = 8
    out_s = np.zeros(4000, np.int64)
    out_j = np.zeros(4000, np.int64)
    out_v = np.zeros(4000)
    buf_s = np.zeros(4000, np.int64)
    buf_j = np.zeros(4000, np.int64)
    buf_v = np.zeros(4000)
    nothing = np.zeros((1, 1, 1))
    for i in range(NR):
        r = NR - 1 - i
        m = moves(crossed, touch, col_m, colour_n, jl, dice[i], r, Pc, Pk, J, prm, t, colbits, out_s, out_j, out_v)
        idx = np.argsort(-out_v[:m])
        nc = min(m, ncand)
        cand = list(idx[:nc])
        if 0 not in cand:
            cand.append(0)
        nc = len(cand)
        pick = cand[0]
        if nc > 1 and i < NR - 1:
            tot = np.zeros(nc)
            cnt = np.zeros(nc)
            alive = np.ones(nc, np.bool_)
            boards = np.zeros((nc, 105), np.bool_)
            jls = np.zeros(nc, np.int64)
            for q in range(nc):
                boards[q] = crossed
                s = out_s[cand[q]]
                if s >= 0:
                    for j in range(t.size[s]):
                        boards[q, t.cells[s, j]] = True
                jls[q] = jl - out_j[cand[q]]
            for n in range(R):
                if (n == R // 8 or n == R // 4 or n == R // 2) and alive.sum() > 2:
                    keep = max(2, (alive.sum() + 1) // 2)
                    means = np.where(alive, tot / np.maximum(cnt, 1), -1e9)
                    o = np.argsort(-means)
                    alive[:] = False
                    alive[o[:keep]] = True
                d = draw(NR)
                for q in range(nc):
                    if alive[q]:
                        if value_rollouts:
                            tot[q] += play_values(d, i + 1, boards[q], jls[q], Pc, Pk, J, prm, t, colbits, False, nothing,
                                                  nothing, nothing, nothing, buf_s, buf_j, buf_v)
                        else:
                            tot[q] += greedy_rollout(boards[q], jls[q], i + 1, t, d)
                        cnt[q] += 1
            means = np.where(alive, tot / np.maximum(cnt, 1), -1e9)
            pick = cand[int(np.argmax(means))]
        if out_s[pick] >= 0:
            apply(out_s[pick], crossed, touch, col_n, colour_n, col_m, t, colbits)
            jl -= out_j[pick]
    return K._score(crossed, col_n, colour_n, jl, t)


PRM = np.array([0.13, 2.0])  # the reachable-cell weight (falling to 0 over the game), a star's value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    tr = sub.add_parser("train")
    tr.add_argument("--out", required=True)
    tr.add_argument("--iterations", type=int, default=8)
    tr.add_argument("--games", type=int, default=40000)
    pl = sub.add_parser("plan")
    pl.add_argument("--tables", required=True)
    pl.add_argument("--rollouts", choices=("value", "greedy"), required=True)
    pl.add_argument("--candidates", type=int, default=60)
    pl.add_argument("--per-candidate", type=int, default=480)
    pl.add_argument("--games", type=int, default=100)
    pl.add_argument("--out")
    a = ap.parse_args()
    J = joker_table()
    if a.cmd == "train":
        Pc, Pk = prior_tables()
        train, test = dice_arr(a.games, 1), dice_arr(4000, 2)
        best = None
        for it in range(a.iterations):
            t0 = time.time()
            out, *counts = play_batch(train, Pc, Pk, J, PRM, T, COLBITS, True)
            held = play_batch(test, Pc, Pk, J, PRM, T, COLBITS, False)[0].mean()
            print(f"iteration {it}: the table policy's mean {out.mean():.3f} (training games), {held:.3f} "
                  f"(4,000 other games), {time.time() - t0:.1f} s", flush=True)
            if best is None or held > best[0]:
                best = (held, Pc, Pk)
            Pc, Pk = refit(Pc, Pk, *counts)
        np.savez(a.out, Pc=best[1], Pk=best[2])
        print(f"kept the tables with the best mean on the other games: {best[0]:.3f} -> {a.out}")
    else:
        z = np.load(a.tables)
        D = dice_arr(a.games, 5)
        t0, scores = time.time(), []
        for g in range(a.games):
            scores.append(planner_game(D[g], z["Pc"], z["Pk"], J, PRM, T, COLBITS, a.rollouts == "value",
                                       a.candidates, a.per_candidate, g))
            if g % 20 == 19:
                print(g + 1, np.mean(scores), round(time.time() - t0), flush=True)
        print(f"{a.rollouts} rollouts, {a.candidates} x {a.per_candidate}: mean {np.mean(scores):.2f} over {a.games}")
        if a.out:
            np.save(a.out, np.array(scores))


if __name__ == "__main__":
    main()
