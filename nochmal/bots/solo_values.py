"""The solo planner's rollout policy: *completion tables*, fitted by self-play.

Greedy values a move by a fixed heuristic (about 14 points a solo game alone). The table policy
values it by what it does to the chances of completing things:
- each column it touches: the rise in the chance that the column ends complete — given *which*
  of its 7 cells are crossed and how many rolls are left — times the column's points;
- its colour block: the rise in the block's chance to end complete, times the chance that the
  colour's other blocks do (a colour completes when all six of its blocks do), times the colour
  bonus;
- plus the penalty each crossed star avoids and a little for each newly reachable cell, minus what
  the "!" it spends were worth (3 points each at the start, 1 at the end; one left over scores 1).
Alone it averages about 20 points on the standard sheet; as the planner's rollouts it makes the
planner stronger (docs/bots.md, "Solo: the table rollouts").

The chances are *fitted* (policy iteration): play many games with the current tables, count for
every (rolls left, column or block, crossed cells) seen how often it ended complete, pull the
tables towards those shares, repeat, and keep the round that scored best on other games. One
sheet takes about 1-2 minutes (``nochmal fit-solo-values``, ``make solo-values``); the shipped
sheets' tables are in ``boards/solo-values/<sheet id>.npz``, each with the sheet's fingerprint,
so a changed sheet is never played with stale tables. A sheet without tables (a user's own
board) plays the planner with greedy rollouts, as before.
"""

from __future__ import annotations

import hashlib
import json
import time
import zipfile
from pathlib import Path

import numpy as np

from nochmal.engine.cells import N_CELLS, N_COLS
from nochmal.engine.sheet import BOARDS_DIR

VALUES_DIR = BOARDS_DIR / "solo-values"
FORMAT = 2
#: a newly reachable cell's worth at the game's start (it falls to 0 at the end); fitted tables
#: were measured with it (docs/bots.md)
REACH_WEIGHT = 0.13
#: a "!" held is worth this much at the game's start and this much at its last roll (linear between)
JOKER_START, JOKER_END = 3.0, 1.0
#: how strongly a refit keeps the old chance: as if it had been seen this many more times
PRIOR_WEIGHT = 4.0


def fingerprint(sheet, rolls: int) -> str:
    """What the tables depend on: the sheet's colours, stars, start column, points and "!", and
    the game's number of rolls."""
    facts = [list(sheet.colour_of), sheet.star_mask, sheet.start_mask, list(sheet.first_points), sheet.jokers, rolls]
    return hashlib.sha256(json.dumps(facts).encode()).hexdigest()[:16]


def joker_values(jokers: int, rolls: int) -> np.ndarray:
    """[j, r]: what holding j "!" is worth with r rolls left after the current one."""
    rate = JOKER_END + (JOKER_START - JOKER_END) * np.arange(rolls) / max(rolls - 1, 1)
    return np.arange(jokers + 1)[:, None] * rate[None, :]


def _units(sheet) -> list[tuple[int, list[int]]]:
    """The units: (kind 0 column / 1 block, its cells in mask-bit order), columns first."""
    cols = [(0, [r * N_COLS + c for r in range(7)]) for c in range(N_COLS)]
    return cols + [(1, [i for i in range(N_CELLS) if b.mask >> i & 1]) for b in sheet.blocks]


def prior_tables(sheet, rolls: int) -> np.ndarray:
    """The first round's chances: a column's crossed share to the 6th power (as greedy's progress
    term), a block's crossed share."""
    units = _units(sheet)
    done = np.zeros((rolls, len(units), 128))
    pop = np.array([bin(m).count("1") for m in range(128)], np.float64)
    for u, (kind, cells) in enumerate(units):
        share = np.minimum(pop / len(cells), 1.0)
        done[:, u, :] = share ** 6 if kind == 0 else share
    return done


def refit(done, seen, hits, full) -> np.ndarray:
    """The tables pulled towards the shares seen (a position never seen keeps its chance)."""
    done = (hits + PRIOR_WEIGHT * done) / (seen + PRIOR_WEIGHT)
    done[:, np.arange(len(full)), full] = 1.0
    return done


def arrays(sheet, t, done, jokers: int, star_weight: float):
    """The kernels' :class:`nochmal.bots.kernel.solo.ValueArrays` for ``sheet`` (kernel tables ``t``)."""
    from nochmal.bots.kernel import solo

    rolls = done.shape[0]
    units = _units(sheet)
    full = np.array([(1 << len(cells)) - 1 for _, cells in units], np.int64)
    cell_unit = np.zeros(N_CELLS, np.int64)
    cell_bit = np.zeros(N_CELLS, np.int64)
    for u, (kind, cells) in enumerate(units):
        if kind == 1:
            for bit, i in enumerate(cells):
                cell_unit[i], cell_bit[i] = u, 1 << bit
    n_sets = t.size.shape[0]
    set_cells = [[int(t.cells[s, q]) for q in range(int(t.size[s]))] for s in range(n_sets)]
    set_block = np.array([cell_unit[cs[0]] for cs in set_cells], np.int64)
    set_bits = np.array([sum(int(cell_bit[i]) for i in cs) for cs in set_cells], np.int64)
    stars = np.array([sum(bool(t.star[i]) for i in cs) for cs in set_cells], np.float64)
    per_colour = [[u for u, (kind, cells) in enumerate(units) if kind == 1 and sheet.colour_of[cells[0]] == k]
                  for k in range(5)]
    colour_units = np.full((5, max(map(len, per_colour))), -1, np.int64)
    for k, us in enumerate(per_colour):
        colour_units[k, : len(us)] = us
    return solo.ValueArrays(np.ascontiguousarray(done, np.float32), full, joker_values(jokers, rolls),
                               REACH_WEIGHT * np.arange(rolls) / max(rolls - 1, 1), star_weight * stars,
                               solo.column_bits(t), set_block, set_bits, colour_units, cell_unit, cell_bit)


def fits(sheet) -> bool:
    """Whether the tables can describe ``sheet``: every colour block has at most 7 cells."""
    return all(b.mask.bit_count() <= 7 for b in sheet.blocks)


def fit(sim, *, games: int = 40_000, held_out: int = 4_000, rounds: int = 12, seed: int = 1,
        progress=None) -> tuple[object, dict]:
    """Fit the tables for a solo game's sheet (``sim``: its :class:`nochmal.bots.kernel.solo_driver.SoloSim`):
    ``rounds`` of ``games`` games each, the round with the best mean on ``held_out`` other games
    kept. Returns (ValueArrays, report); ``progress(round, rounds, report)`` is called after each round."""
    from nochmal.bots.kernel import solo

    if sim is None or not fits(sim.sheet):
        raise ValueError("the table policy is fitted for solo games (R-SOLO-*) on sheets whose colour blocks "
                         "have at most 7 cells only")
    t, sheet, rolls = sim._t.arrays, sim.sheet, sim.n_rolls
    rng = np.random.default_rng(seed)  # faces 0-5 in nochmal.engine.dice's coding, uniform
    train = rng.integers(0, 6, (games, rolls, 4))
    other = rng.integers(0, 6, (held_out, rolls, 4))
    star_weight = float(sim.game.star_penalty)
    done = prior_tables(sheet, rolls)
    best = None
    rounds_seen = []
    t0 = time.perf_counter()
    for k in range(rounds):
        vt = arrays(sheet, t, done, sheet.jokers, star_weight)
        scores, seen, hits = solo.fit_counts(train, sheet.jokers, t, vt)
        held = float(solo.fit_counts(other, sheet.jokers, t, vt)[0].mean())
        rounds_seen.append({"round": k, "training_mean": round(float(scores.mean()), 3),
                            "held_out_mean": round(held, 3)})
        if best is None or held > best[0]:
            best = (held, k, vt)
        if progress is not None:
            progress(k + 1, rounds, rounds_seen[-1])
        done = refit(done, seen, hits, vt.full)
    report = {"format": FORMAT, "sheet": sheet.id, "fingerprint": fingerprint(sheet, rolls), "rolls": rolls,
              "games": games, "held_out": held_out, "rounds": rounds, "seed": seed, "kept_round": best[1],
              "held_out_mean": round(best[0], 3), "history": rounds_seen,
              "seconds": round(time.perf_counter() - t0, 1),
              "provenance": "fitted by `nochmal fit-solo-values` (self-play of the table policy; "
                            "not a printed value)"}
    return best[2], report


def save(path: Path, vt, report: dict) -> None:
    """Write the tables to ``path``: a regular file, atomically (never through a link or onto a
    device; :func:`nochmal.data.outfile.write_file`)."""
    from nochmal.data.outfile import write_file

    path.parent.mkdir(parents=True, exist_ok=True)
    done = vt.done.astype(np.float32)
    write_file(path, lambda fh: np.savez_compressed(fh, done=done, report=np.array(json.dumps(report, sort_keys=True))),
               name="--out")


def load(path: Path, sim):
    """The tables in ``path`` for a solo game's sheet (``sim``: its SoloSim), or None if the file
    is missing, malformed, or made for another sheet or game length (the planner then rolls out
    with greedy)."""
    if not fits(sim.sheet) or not path.is_file():
        return None
    t, sheet, rolls = sim._t.arrays, sim.sheet, sim.n_rolls
    try:
        with np.load(path, allow_pickle=False) as z:
            report = json.loads(str(z["report"]))
            done = z["done"].astype(np.float64)
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):  # a damaged or foreign file
        return None
    if (not isinstance(report, dict) or report.get("format") != FORMAT
            or report.get("fingerprint") != fingerprint(sheet, rolls)
            or done.shape != (rolls, N_COLS + len(sheet.blocks), 128)
            or not np.isfinite(done).all() or done.min() < 0 or done.max() > 1):
        return None
    return arrays(sheet, t, done, sheet.jokers, float(sim.game.star_penalty))


def tables_for(sim):
    """The shipped tables for a solo game's sheet (``sim``: its SoloSim; cached on the sheet), or None."""
    key = ("solo-values", fingerprint(sim.sheet, sim.n_rolls), float(sim.game.star_penalty))
    memo = sim.sheet.bot_memo
    if key not in memo:
        memo[key] = load(VALUES_DIR / f"{sim.sheet.id}.npz", sim)
    return memo[key]
