"""Whole co-op games in compiled code (numba): RULES.md section 6 under rules version 2 — the
dice, the turn track (C-TRACK), active and passive choices with the active seat's dice set
aside (R-ACTIVE, R-PASSIVE, R-FIRST3, R-ACTIVE-PASS), failed rolls (C-FAIL, the third ends the
game at once), the checks after turns 10, 19 and 27 with the team's penalty decisions
(C-GOAL-10/19/27, in the order of C-CHECK), the missions M1-M5 (N-O-C-H-M-A-L one letter per
moment) and the end (C-WIN / C-LOSE), for 1-6 seats on any sheets and tableau.

An unchecked fast path, named as such: it trusts its input and plays exactly what the Python
engine (:class:`nochmal.engine.coop.CoopGame`, the reference) plays with the same seed — the
same dice, the same actions in the same order, the same outcome. Tests compare them action by
action (``tests/test_coop_kernel.py``).

**The seeded stream.** The engine's games draw everything from one ``random.Random(seed)``
(:func:`nochmal.engine.game.play`): each roll is ``rng.choice`` per die, colour dice first. The
kernel carries CPython's generator itself (Mersenne Twister MT19937, seeded as ``random.seed``
seeds an integer, ``getrandbits`` and ``_randbelow`` as CPython computes them), so a kernel game
and an engine game with the same integer seed roll the same dice, also after a die has left the
game (C-GOAL-19) and however often a policy draws in between.

**The policies** (``POLICY_*``), each also a Python policy that drives the real engine:

* ``POLICY_RANDOM``: the project's random bot (:func:`nochmal.bots.policies.random_policy`):
  ``acts[rng.randrange(len(acts))]`` over the engine's sorted legal actions — the failed roll
  first, then the crosses by (colour die, number die, colour, count, block, cell set), or the
  team decision's actions (every split of the "!" to strike, largest first; the colour die or the
  number die).
* ``POLICY_LARGEST`` (:func:`largest_policy`): the legal cross with the most cells, ties: the
  first in the engine's order; a failed roll only when no cross is legal; the team decisions of
  the co-op greedy (:func:`nochmal.bots.greedy.team_decision`: the most even split of the "!",
  give up a colour die). Draws nothing from the stream but the dice.
* ``POLICY_GREEDY``: the co-op greedy (:func:`nochmal.bots.greedy.greedy_policy`): each seat's
  view of the heuristic with the mission's terms and the team plan (:class:`nochmal.bots.heuristic.SeatView`,
  :func:`nochmal.bots.coop_weights.coop_bias`, :func:`nochmal.bots.heuristic.score_cells`), the
  active seat's choice for the team (:func:`nochmal.bots.greedy.team_choices`) and its team
  decisions — the same values from the same floating-point operations in the same order, so
  ties break the same way. The team plan (:func:`nochmal.bots.plan.team_plan`, fixed for a game)
  and the heuristic's constants are read from the Python side when the tables are built. The
  other seats' replies to a dice pair are added one after another, as Python 3.11's ``sum`` adds
  floats (Python 3.12's ``sum`` compensates rounding: under it this sum must do the same).
* ``POLICY_PLANNER``: the co-op planner (:func:`nochmal.bots.planner.plan` with compiled
  rollouts, its settings in ``plan``: :func:`plan_params`): from turn 4 on (every turn with one
  seat) the active seat's team choice, and the team's C-GOAL-10 and C-GOAL-19 decisions, are
  each rolled out — every candidate with the same dice, greedy for every seat to the end — and
  the best mean is played if its rollouts beat greedy's choice's, paired, by ``switch_z``
  standard errors; the rest is greedy's. The same candidates in the same order, the same seeds
  (``rng.getrandbits(32)`` from the game's stream, then ``base + k``), the same rollout values
  (:func:`_value`) and sums, so the same choices as the Python planner.

A position is per seat a boolean array of the 105 cells; a cross is the index of a *cell set* of
the seat's sheet (the connected 1-5-cell subsets of its colour blocks), numbered as in
:class:`nochmal.bots.kernels.GreedyTables`. Dice faces are :mod:`nochmal.engine.dice`'s coding.
Rules version 1 (other end-of-game readings) is not played here: :func:`kernel_plays` says no.
"""

from __future__ import annotations

import contextlib
import hashlib
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numba
import numpy as np

from nochmal.engine.cells import CELL_NAMES, COLOURS, COLUMNS, FULL, N_CELLS, N_COLS, indices, neighbours
from nochmal.engine.coopdata import N_TURNS
from nochmal.engine.dice import COLOUR_JOKER, NUMBER_FACES, NUMBER_JOKER, Roll
from nochmal.engine.missions import requirement_count
from nochmal.engine.moves import PASS, Cross

POLICY_RANDOM = 0
POLICY_LARGEST = 1
POLICY_GREEDY = 2
POLICY_PLANNER = 3
POLICIES = {"random": POLICY_RANDOM, "largest": POLICY_LARGEST, "greedy": POLICY_GREEDY, "planner": POLICY_PLANNER}

MAX_SEATS = 6
MAX_CANDIDATES = 16  # 9 dice pairs and the failed roll; a planned split's candidates
MAX_EVENTS = N_TURNS * (1 + MAX_SEATS) + 2  # a roll and every seat per turn, two team decisions
EVENT_WIDTH = 8

# event rows of the trace: [kind, ...]
EV_ROLL = 0  # [0, colour faces x3, number faces x3] (sorted, -1: no die)
EV_CROSS = 1  # [1, seat, colour die, number die, colour, cell set]
EV_PASS = 2  # [2, seat]
EV_STRIKE = 3  # [3, "!" struck by seat 1..6]
EV_REMOVE = 4  # [4, die: 0 colour, 1 number]

# end reasons (the engine's reason texts in REASONS)
END_THIRD_FAIL, END_GOAL_27, END_WON, END_LOST = 0, 1, 2, 3
REASONS = ("a third failed roll (C-FAIL)", "a third failed roll at the final check (C-GOAL-27)",
           "mission complete (C-WIN)", f"mission not complete after turn {N_TURNS} (C-LOSE)")

# penalty after turn 10 (C-GOAL-10): none due, every "!" struck, a split chosen, nothing to strike
PEN_NONE, PEN_ALL, PEN_SPLIT, PEN_ZERO = 0, 1, 2, 3

# the result row of a game
R_WON, R_REASON, R_TURNS, R_REMOVED = 0, 1, 2, 3
R_PTS10, R_PEN10, R_AMT10, R_PTS19, R_PTS27 = 4, 5, 6, 7, 8  # points -1: the check did not run
R_TEAM, R_SEQ, R_EVENTS = 9, 10, 11
R_FAILED, R_JOKERS, R_STRIKE = 12, 18, 24  # per seat (6 slots)
R_SEQSEAT = 30  # the seat that counted each letter of the sequence (15 slots)
R_MISSION = 45  # 1: the mission is complete at the end (also in a game lost by a third failed roll)
R_SIZE = 48

# mission requirement kinds
REQ_KINDS = {"colours": 0, "rows": 1, "star_columns": 2, "number_fields": 3, "sequence": 4}

MASK32 = 0xFFFFFFFF
MAX_NB = 24  # neighbour cells of a 5-cell set: at most 12

# a cell set's facts (GreedyArrays.geo): size, stars, counts, its cells, neighbour cells, (column, k), (row, k)
G_SIZE, G_STARS, G_NBN, G_NCOLS, G_NROWS = 0, 1, 2, 3, 4
G_CELLS, G_NBS, G_COLS, G_COLK, G_ROWS, G_ROWK = 5, 10, 34, 39, 44, 49
G_WIDTH = 54
# a view's numbers (_Views.vf): the failed roll's cost, a star's value, column / colour / row values,
# M5's value of completing a column now (col_done) and whether it is set
F_FAIL, F_STAR, F_COLVAL, F_COLOURVAL, F_ROWVAL, F_DONE, F_HASDONE = 0, 1, 2, 17, 22, 29, 44
F_WIDTH = 48


class CoopArrays(NamedTuple):
    """What the kernel reads for one game configuration (sheets in seat order, tableau, mission)."""

    order: np.ndarray  # [seat, i]: cell set indices in the engine's order, by (colour, count) slices lo..hi
    lo: np.ndarray  # [seat, colour, count]
    hi: np.ndarray
    cells: np.ndarray  # [seat, cell set, 5]: its cells (-1 padded)
    size: np.ndarray  # [seat, cell set]
    cell_nb: np.ndarray  # [cell, 4]: orthogonal neighbours (-1 padded)
    start: np.ndarray  # [seat, cell]: in the start column
    star: np.ndarray  # [seat, cell]
    cell_colour: np.ndarray  # [seat, cell]
    colour_size: np.ndarray  # [seat, colour]
    first: np.ndarray  # [seat, column]: R-COLUMN first / later values
    later: np.ndarray
    jokers: np.ndarray  # [seat]: "!" on the sheet
    boxes: np.ndarray  # [seat]: failed-roll boxes (C-BOARDS)
    nf_num: np.ndarray  # [seat, field]: number of the number field (-1 padded)
    nf_cells: np.ndarray  # [seat, field, 4]: the four cells around it
    track: np.ndarray  # [turn]: 0-based active seat (C-TRACK)
    goals: np.ndarray  # goal_10, penalty_10_jokers, goal_19, goal_27
    req_kind: np.ndarray  # [requirement]: REQ_KINDS
    req_needed: np.ndarray  # [requirement]: how many are needed
    seq: np.ndarray  # the sequence's columns (M5), empty if none
    omask: np.ndarray  # [seat, i, 2]: the cells of order[seat, i] as a bit mask, cells 0-63 and 64-104


class GreedyArrays(NamedTuple):
    """What the co-op greedy reads besides the rules: per cell set the facts score_cells uses
    (:func:`nochmal.bots.heuristic.subset_info`), the heuristic's tables and weights, the team plan."""

    geo: np.ndarray  # [seat, cell set, G_WIDTH]: size, stars, its neighbours' cells, (column, count) and
    #                  (row, count) in subset_info's order (the G_* offsets)
    gains: np.ndarray  # [0 / 1 / 2, crossed, new cells]: gains(7 / 15 / 21, power)
    w: np.ndarray  # cell, expand, column, colour, row, joker, fail weights; star value
    fail_scale: np.ndarray  # FAIL_SCALE
    tw: np.ndarray  # TARGET_W: colours, rows, star columns, number fields, sequence, sequence later
    seq_w: np.ndarray  # SEQ_NEXT, SEQ_AFTER, SEQ_LATER, SEQ_OTHER, SEQ_EARLY by seats (6)
    plan_colour: np.ndarray  # [seat, colour]: the plan gives the seat this colour
    plan_row: np.ndarray  # [seat, label id]
    plan_star: np.ndarray  # [seat, column]
    plan_nf: np.ndarray  # [seat, number]
    plan_runs: np.ndarray  # [seat]: the seat runs the sequence
    plan_seqcol: np.ndarray  # [seat, column]: the column is in the seat's sequence
    lab0: np.ndarray  # [row]: label id of the first seat's row labels (mission progress names rows by them)
    lab: np.ndarray  # [seat, row]: label id of the seat's own row labels
    num_exists: np.ndarray  # [number]: some sheet has this number field
    tmax: np.ndarray  # [1]: most targets a view can have in this mission
    remove_die: np.ndarray  # [1]: the greedy's C-GOAL-19 choice (0 colour, 1 number)


@dataclass(frozen=True)
class CoopTables:
    """The kernel's arrays for a co-op game plus, per seat, cell set index <-> bit mask."""

    masks: tuple[tuple[int, ...], ...]  # [seat][cell set] -> mask
    index: tuple[dict, ...]  # [seat] mask -> cell set
    arrays: CoopArrays
    greedy: GreedyArrays

    @classmethod
    def build(cls, game) -> "CoopTables":
        sheets = game.sheets
        n = len(sheets)
        per = [_sheet_tables(sh) for sh in sheets]
        width = max(len(x.masks) for x in per)
        order = np.zeros((n, width), np.int32)
        lo = np.zeros((n, 5, 6), np.int32)
        hi = np.zeros((n, 5, 6), np.int32)
        cells = np.full((n, width, 5), -1, np.int16)
        size = np.zeros((n, width), np.int8)
        omask = np.zeros((n, width, 2), np.uint64)
        for p, x in enumerate(per):
            k = len(x.masks)
            order[p, :k] = x.order
            lo[p], hi[p] = x.lo, x.hi
            cells[p, :k] = x.cells
            size[p, :k] = x.size
            omask[p, :k] = x.omask
        cell_nb = np.full((N_CELLS, 4), -1, np.int16)
        for i in range(N_CELLS):
            nidx = list(indices(neighbours(1 << i) & FULL))
            cell_nb[i, :len(nidx)] = nidx
        start = np.zeros((n, N_CELLS), np.bool_)
        star = np.zeros((n, N_CELLS), np.bool_)
        for p, sh in enumerate(sheets):
            start[p, list(indices(sh.start_mask))] = True
            star[p, list(indices(sh.star_mask))] = True
        cell_colour = np.array([sh.colour_of for sh in sheets], np.int8)
        colour_size = np.array([[m.bit_count() for m in sh.colour_masks] for sh in sheets], np.int16)
        first = np.array([sh.first_points for sh in sheets], np.int64)
        later = np.array([sh.later_points for sh in sheets], np.int64)
        jokers = np.array([sh.jokers for sh in sheets], np.int64)
        state = game.new_state()
        boxes = np.array([game.failed_roll_boxes(s) for s in state.seats], np.int64)
        n_fields = max([len(sh.number_fields) for sh in sheets] + [1])
        nf_num = np.full((n, n_fields), -1, np.int64)
        nf_cells = np.zeros((n, n_fields, 4), np.int16)
        for p, sh in enumerate(sheets):
            for f, (num, sq) in enumerate(sh.number_fields):
                nf_num[p, f] = num
                nf_cells[p, f] = list(indices(sq))
        tab = game.tableau
        track = np.array([tab.active_seat(t) for t in range(N_TURNS)], np.int64)
        goals = np.array([tab.value("goal_10"), tab.value("penalty_10_jokers"), tab.value("goal_19"),
                          tab.value("goal_27")], np.int64)
        reqs = game.mission.requirements
        req_kind = np.array([REQ_KINDS[r.kind] for r in reqs], np.int64)
        req_needed = np.array([requirement_count(r, tab) if r.kind in ("colours", "rows") else 0 for r in reqs],
                              np.int64)
        seqs = [r.columns for r in reqs if r.kind == "sequence"]
        if len(seqs) > 1:
            raise ValueError("the compiled co-op game plays missions with one sequence at most")
        seq = np.array([COLUMNS.index(c) for c in (seqs[0] if seqs else "")], np.int64)
        arrays = CoopArrays(order, lo, hi, cells, size, cell_nb, start, star, cell_colour, colour_size, first,
                            later, jokers, boxes, nf_num, nf_cells, track, goals, req_kind, req_needed, seq, omask)
        masks = tuple(x.masks for x in per)
        return cls(masks, tuple(x.index for x in per), arrays, _greedy_arrays(game, per, width))


def _greedy_arrays(game, per: list[_SheetTables], width: int) -> GreedyArrays:
    from nochmal.bots import coop_weights as cw
    from nochmal.bots.greedy import REMOVE_DIE
    from nochmal.bots.heuristic import gains, star_value

    w = cw.coop_weights(game)
    sheets = game.sheets
    n = len(sheets)
    geo = np.zeros((n, width, G_WIDTH), np.int64)
    for p, x in enumerate(per):
        geo[p, :len(x.masks)] = x.geo
    gain = np.zeros((3, 22, 6), np.float64)
    for i, total in enumerate((7, 15, 21)):
        gain[i, :total + 1] = gains(total, w.power)
    weights = np.array([w.cell, w.expand, w.column, w.colour, w.row, w.joker, w.fail, star_value(game, w)],
                       np.float64)
    plan = cw.plan_of(game)["seats"]
    labels: dict[str, int] = {}
    label_id = lambda name: labels.setdefault(name, len(labels))  # noqa: E731
    lab0 = np.array([label_id(x) for x in sheets[0].spec.row_labels], np.int64)
    lab = np.array([[label_id(x) for x in sh.spec.row_labels] for sh in sheets], np.int64)
    for mine in plan:
        for x in mine["rows"]:
            label_id(x)
    plan_colour = np.array([[name in mine["colours"] for name in COLOURS] for mine in plan], np.bool_)
    plan_row = np.zeros((n, max(1, len(labels))), np.bool_)
    for p, mine in enumerate(plan):
        for x in mine["rows"]:
            plan_row[p, labels[x]] = True
    plan_star = np.array([[col in mine["star_columns"] for col in COLUMNS] for mine in plan], np.bool_)
    plan_nf = np.array([[num in mine["number_fields"] for num in range(10)] for mine in plan], np.bool_)
    plan_runs = np.array([bool(mine["columns"]) for mine in plan], np.bool_)
    plan_seqcol = np.array([[col in mine["columns"] for col in COLUMNS] for mine in plan], np.bool_)
    num_exists = np.zeros(10, np.bool_)
    for sh in sheets:
        for num, _ in sh.number_fields:
            num_exists[num] = True
    counts = {"colours": 5, "rows": 7, "star_columns": 15, "number_fields": 10}
    tmax = sum(counts.get(r.kind, len(r.columns or "")) for r in game.mission.requirements)
    # at most 5 + 7 + 15 + 10 + 15 = 52 targets: a cell's targets fit the bits of an int64 (_Views.cellt)
    seq_w = np.array([cw.SEQ_NEXT, cw.SEQ_AFTER, cw.SEQ_LATER, cw.SEQ_OTHER, *cw.SEQ_EARLY], np.float64)
    return GreedyArrays(geo, gain, weights,
                        np.array(cw.FAIL_SCALE, np.float64),
                        np.array([cw.TARGET_W[k] for k in ("colours", "rows", "star_columns", "number_fields",
                                                           "sequence", "sequence_later")], np.float64),
                        seq_w, plan_colour, plan_row, plan_star, plan_nf, plan_runs, plan_seqcol, lab0, lab,
                        num_exists, np.array([max(1, tmax)], np.int64),
                        np.array([0 if REMOVE_DIE == "colour" else 1], np.int64))


class _SheetTables(NamedTuple):
    """What the kernel's tables hold of one sheet, per cell set (:func:`_sheet_tables`)."""

    masks: tuple[int, ...]  # [cell set] -> mask
    index: dict  # mask -> cell set
    order: tuple[int, ...]  # the cell sets in the engine's order (see _sheet_sets)
    lo: np.ndarray  # [colour, count]: the slice of order
    hi: np.ndarray
    cells: np.ndarray  # [cell set, 5]: its cells, -1 after the last
    size: np.ndarray  # [cell set]
    geo: np.ndarray  # [cell set, G_WIDTH]: the greedy's geometry (heuristic.subset_info)
    omask: np.ndarray  # [i, 2]: the cells of cell set order[i] as a bit mask, cells 0-63 and 64-104


def _sheet_tables(sheet) -> _SheetTables:
    """The kernel's tables of ``sheet``, kept on the sheet object (a loaded sheet never changes;
    a sheet file edited on disk loads as a new object): every co-op game on it shares them."""
    cached = getattr(sheet, "_kernel_tables", None)
    if cached is not None:
        return cached
    from nochmal.bots.heuristic import subset_info

    masks, order, lo, hi = _sheet_sets(sheet)
    cells = np.full((len(masks), 5), -1, np.int16)
    size = np.zeros(len(masks), np.int8)
    geo = np.zeros((len(masks), G_WIDTH), np.int64)
    for i, m in enumerate(masks):
        idx = list(indices(m))
        cells[i, :len(idx)] = idx
        size[i] = len(idx)
        c_items, r_items, st, k, nb = subset_info(sheet, m)
        row = geo[i]
        row[G_SIZE], row[G_STARS], row[G_NCOLS], row[G_NROWS] = k, st, len(c_items), len(r_items)
        row[G_CELLS:G_CELLS + len(idx)] = idx
        nidx = list(indices(nb))
        row[G_NBN] = len(nidx)
        row[G_NBS:G_NBS + len(nidx)] = nidx
        for j, (c, kc) in enumerate(c_items):
            row[G_COLS + j], row[G_COLK + j] = c, kc
        for j, (r, kr) in enumerate(r_items):
            row[G_ROWS + j], row[G_ROWK + j] = r, kr
    omask = np.array([(masks[s] & (2**64 - 1), masks[s] >> 64) for s in order], np.uint64).reshape(-1, 2)
    for a in (lo, hi, cells, size, geo, omask):
        a.setflags(write=False)
    out = _SheetTables(tuple(masks), {m: i for i, m in enumerate(masks)}, tuple(order), lo, hi, cells, size, geo,
                       omask)
    sheet._kernel_tables = out
    return out


def _sheet_sets(sheet):
    """(cell set masks, their indices in the engine's order, lo, hi) of a sheet: within one
    (colour, count) the blocks in sheet order, each block's sets ascending (Sheet.move_table)."""
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


def coop_tables(game) -> CoopTables:
    """The game's :class:`CoopTables` (cached on the game)."""
    tables = getattr(game, "_coop_tables", None)
    if tables is None:
        tables = game._coop_tables = CoopTables.build(game)
    return tables


def kernel_plays(game, policy: str = "random") -> bool:
    """Whether the compiled game plays ``game`` as the engine does: a co-op game (turn track,
    mission, failed rolls) under rules version 2, 1-6 seats, 3 + 3 dice; for the greedy also its
    heuristic as the kernel computes it (the co-op weights without ``flex``, the team choice on)."""
    from nochmal.engine.decisions import (COOP_GOAL_27_BEFORE_MISSION, COOP_THIRD_FAIL_ENDS_AT_ONCE,
                                          M5_ONE_LETTER_PER_MOMENT)

    v = game.rules_version
    if policy in ("greedy", "planner"):  # the planner rolls out greedy
        from nochmal.bots import greedy
        from nochmal.bots.coop_weights import coop_weights

        w = coop_weights(game)
        if not (w.mission and w.flex == 0.0 and greedy.TEAM_ACTIVE and greedy.REMOVE_DIE in ("colour", "number")
                and all(num < 10 for sh in game.sheets for num, _ in sh.number_fields)):
            return False
    return (game.has_turn_track and game.has_mission and game.has_failed_rolls and 1 <= game.n_seats <= MAX_SEATS
            and (game.n_colour_dice, game.n_number_dice) == (3, 3) and game.free_rolls == 3
            and game.n_turns == N_TURNS and tuple(game.colour_bonus) == (0, 0)
            and COOP_GOAL_27_BEFORE_MISSION[v] and COOP_THIRD_FAIL_ENDS_AT_ONCE[v] and M5_ONE_LETTER_PER_MOMENT[v])


# --------------------------------------------------------------------------- CPython's random, compiled
@numba.njit(cache=True)
def mt_seed(seed, mt):
    """``random.Random(seed)`` for an integer 0 <= seed < 2**63: MT19937's ``init_by_array`` with
    the seed's 32-bit words, as CPython seeds it. ``mt``: 625 int64 (the state, then the index)."""
    key = np.zeros(2, np.int64)
    key[0] = seed & MASK32
    key[1] = seed >> 32
    klen = 2 if key[1] else 1
    mt[0] = 19650218
    for i in range(1, 624):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK32
    i, j = 1, 0
    for _ in range(max(624, klen)):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525) & MASK32)) + key[j] + j) & MASK32
        i += 1
        j += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        if j >= klen:
            j = 0
    for _ in range(623):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941) & MASK32)) - i) & MASK32
        i += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
    mt[0] = 0x80000000
    mt[624] = 624


@numba.njit(cache=True, _nrt=False)
def _mt_u32(mt):
    """The next 32-bit output of the generator (CPython's ``genrand_uint32``)."""
    i = mt[624]
    if i >= 624:
        for kk in range(624):
            y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % 624] & 0x7FFFFFFF)
            v = mt[(kk + 397) % 624] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            mt[kk] = v
        i = 0
    y = mt[i]
    mt[624] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@numba.njit(cache=True, _nrt=False)
def randbelow(mt, n):
    """``rng._randbelow(n)`` (so ``randrange(n)`` and ``choice`` of n items) for 0 < n < 2**32."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    r = _mt_u32(mt) >> (32 - k)
    while r >= n:
        r = _mt_u32(mt) >> (32 - k)
    return r


def mt_state(rng: random.Random) -> np.ndarray:
    """The kernel's form of a ``random.Random``'s state (to go on from where it stands)."""
    version, internal, _gauss = rng.getstate()
    return np.array(internal, np.int64)


# --------------------------------------------------------------------------- moves
NO_FACE = 99


@numba.njit(cache=True)
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


@numba.njit(cache=True)
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


@numba.njit(cache=True)
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


# --------------------------------------------------------------------------- the game's state
class _State(NamedTuple):
    """A game's position in the kernel, per seat (``sc``: claimed columns bit mask, letters counted)."""

    crossed: np.ndarray  # [seat, cell]
    touch: np.ndarray  # [seat, cell]: start column or next to a cross (the engine's anchor / the heuristic's front)
    col_n: np.ndarray  # [seat, column]: crossed cells
    colour_n: np.ndarray  # [seat, colour]
    row_n: np.ndarray  # [seat, row]
    jl: np.ndarray  # [seat]: "!" left
    failed: np.ndarray  # [seat]
    col_pts: np.ndarray  # [seat, column]: points of a completed column (settled at the end of a turn), -1: open
    colour_done: np.ndarray  # [seat, colour]: completed (settled at the end of a turn, as Seat.colours)
    newc: np.ndarray  # [seat, column]: completed in this turn, not settled yet
    newcol: np.ndarray  # [seat, colour]
    sc: np.ndarray  # [claimed columns, letters of the sequence counted]
    lg: np.ndarray  # [seat, i]: the cell sets legal now (R-FREE, R-ADJ / R-START) in the engine's order
    lglo: np.ndarray  # [seat, colour, count]: their (colour, count) slices
    lghi: np.ndarray
    lgdirty: np.ndarray  # [seat]: the seat crossed since its legal sets were listed


class _Views(NamedTuple):
    """The greedy's view of each seat (:class:`nochmal.bots.heuristic.SeatView` with
    :func:`nochmal.bots.coop_weights.coop_bias` applied), built again when what it reads changes."""

    vf: np.ndarray  # [seat, F_WIDTH]: its numbers (F_* offsets)
    vi: np.ndarray  # [seat, 2]: targets, the view's number (memo entries of older views are stale)
    tf: np.ndarray  # [seat, target]: weight
    ti: np.ndarray  # [seat, target, 3]: moves needed now (work0), parts, cells still to cross
    tc: np.ndarray  # [seat, target, cell]: the cells still to cross, ascending
    tp: np.ndarray  # [seat, target, part, 2]: touches the front, colour
    lab: np.ndarray  # [seat, target, cell]: the part of each cell still to cross, -1: not in the target
    memo: np.ndarray  # [seat, cell set]: score_cells value
    stamp: np.ndarray  # [seat, cell set]: the view it belongs to
    sb: np.ndarray  # scratch [3, cell]: the move's cells, its neighbours, parts reached
    si: np.ndarray  # scratch [2, cell]: flood fill marks (-1 free), stack
    miss: np.ndarray  # scratch: a requirement's missing items
    tcells: np.ndarray  # scratch: a target's cells
    dirty: np.ndarray  # [seat]: the view must be built again (what it reads has changed)
    sig: np.ndarray  # [requirement, 66]: the mission progress the views were built on (complete, missing, letters)
    cellt: np.ndarray  # [seat, cell]: bit ti set if the cell has a part of target ti (lab >= 0)
    pv: np.ndarray  # scratch [seat, colour die, number die]: a seat's best value with one dice pair (_pair_values)
    one: np.ndarray  # scratch [2, 1]: one colour face, one number face
    cand: np.ndarray  # scratch: the greedy's team choices (_team_choices)
    cval: np.ndarray


class _Hot(NamedTuple):
    """The arrays the greedy's inner loops read, few and packed: every array handed to a compiled
    function costs at each call (its reference count is taken and given back), so :func:`_best`
    and :func:`_score` take only these — and are compiled without reference counting at all
    (``_nrt=False``: they allocate nothing, every array they read is owned by the game's buffers)."""

    geo: np.ndarray
    gains: np.ndarray
    w: np.ndarray
    ccol: np.ndarray  # [seat, cell]: colour
    cnb: np.ndarray  # [cell, 4]: neighbours
    vf: np.ndarray
    vi: np.ndarray
    tf: np.ndarray
    ti: np.ndarray
    tc: np.ndarray
    tp: np.ndarray
    lab: np.ndarray
    memo: np.ndarray
    stamp: np.ndarray
    sb: np.ndarray
    si: np.ndarray
    crossed: np.ndarray
    touch: np.ndarray
    col_n: np.ndarray
    colour_n: np.ndarray
    row_n: np.ndarray
    lg: np.ndarray
    lglo: np.ndarray
    lghi: np.ndarray
    jl: np.ndarray
    cellt: np.ndarray
    pv: np.ndarray
    one: np.ndarray


MAX_PARTS = 64  # parts of one target (a 7 x 15 sheet has at most 53 cells no two of which touch)


@numba.njit(cache=True)
def _new_state(t):
    n = t.jokers.shape[0]
    return _State(np.zeros((n, 105), np.bool_), t.start.copy(), np.zeros((n, 15), np.int64),
                  np.zeros((n, 5), np.int64), np.zeros((n, 7), np.int64), t.jokers.copy(), np.zeros(n, np.int64),
                  np.full((n, 15), -1, np.int64), np.zeros((n, 5), np.bool_), np.zeros((n, 15), np.bool_),
                  np.zeros((n, 5), np.bool_), np.zeros(2, np.int64), np.zeros(t.order.shape, np.int64),
                  np.zeros((n, 5, 6), np.int64), np.zeros((n, 5, 6), np.int64), np.ones(n, np.bool_))


@numba.njit(cache=True)
def _new_views(t, g):
    n = t.jokers.shape[0]
    tm = g.tmax[0]
    m = t.order.shape[1]
    return _Views(np.zeros((n, F_WIDTH)), np.zeros((n, 2), np.int64), np.zeros((n, tm)), np.zeros((n, tm, 3), np.int64),
                  np.zeros((n, tm, 105), np.int64), np.zeros((n, tm, MAX_PARTS, 2), np.int64), np.full((n, tm, 105), -1, np.int64), np.zeros((n, m)),
                  np.full((n, m), -1, np.int64), np.zeros((3, 105), np.bool_), np.full((2, 105), -1, np.int64),
                  np.zeros(64, np.bool_), np.zeros(105, np.bool_), np.ones(n, np.bool_),
                  np.full((t.req_kind.shape[0], 66), -1, np.int64), np.zeros((n, 105), np.int64), np.zeros((n, 3, 3)), np.zeros((2, 1), np.int64),
                  np.zeros((MAX_CANDIDATES, 4 + MAX_SEATS), np.int64), np.zeros(MAX_CANDIDATES))


@numba.njit(cache=True)
def _hot(t, g, st, V):
    return _Hot(g.geo, g.gains, g.w, t.cell_colour, t.cell_nb, V.vf, V.vi, V.tf, V.ti, V.tc, V.tp, V.lab, V.memo, V.stamp,
                V.sb, V.si, st.crossed, st.touch, st.col_n, st.colour_n, st.row_n, st.lg, st.lglo, st.lghi, st.jl,
                V.cellt, V.pv, V.one)


# --------------------------------------------------------------------------- moves
@numba.njit(cache=True, _nrt=False)
def _sort(a, n):
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@numba.njit(cache=True, _nrt=False)
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


@numba.njit(cache=True, _nrt=False)
def _scan(t, st, p, cf, nc, nf, nn, walk, target):
    """Walk seat ``p``'s legal crosses with colour faces ``cf[:nc]`` and number faces ``nf[:nn]``
    (each sorted) in the engine's order (:func:`nochmal.engine.moves.move_groups`).
    walk 0: count them; walk 1: stop at the ``target``-th (0-based); walk 2: the one with the
    most cells (the first of those). Returns (count, cell set or -1, colour die, number die, colour)."""
    _legal(t, st, p)
    jl = st.jl[p]
    count = 0
    best, best_k, best_c, best_n, best_col = -1, 0, -1, -1, -1
    prev_c = -1
    for ci in range(nc):
        cdie = cf[ci]
        if cdie == prev_c:
            continue
        prev_c = cdie
        ccost = 1 if cdie == COLOUR_JOKER else 0
        if ccost > jl:
            continue
        prev_n = -1
        for ni in range(nn):
            ndie = nf[ni]
            if ndie == prev_n:
                continue
            prev_n = ndie
            ncost = 1 if ndie == NUMBER_JOKER else 0
            if ccost + ncost > jl:
                continue
            c_lo, c_hi = (0, 5) if ccost else (cdie, cdie + 1)
            k_lo, k_hi = (1, 6) if ncost else (ndie, ndie + 1)
            for colour in range(c_lo, c_hi):
                for k in range(k_lo, k_hi):
                    lo, hi = st.lglo[p, colour, k], st.lghi[p, colour, k]
                    if lo == hi:
                        continue
                    if walk == 1 and target < count + hi - lo:
                        return count, st.lg[p, lo + target - count], cdie, ndie, colour
                    if walk == 2 and k > best_k:  # the first set of the largest size is kept
                        best, best_k, best_c, best_n, best_col = st.lg[p, lo], k, cdie, ndie, colour
                    count += hi - lo
    return count, best, best_c, best_n, best_col


@numba.njit(cache=True, _nrt=False)
def _cross(t, st, p, s, colour, cdie, ndie):
    """Seat ``p`` crosses cell set ``s``: its counts, "!" spent, the columns and the colour it
    completes (settled at the end of the turn, R-FIRST)."""
    for j in range(t.size[p, s]):
        cell = t.cells[p, s, j]
        st.crossed[p, cell] = True
        st.col_n[p, cell % 15] += 1
        st.colour_n[p, t.cell_colour[p, cell]] += 1
        st.row_n[p, cell // 15] += 1
        for q in range(4):
            nb = t.cell_nb[cell, q]
            if nb >= 0:
                st.touch[p, nb] = True
    for j in range(t.size[p, s]):
        c = t.cells[p, s, j] % 15
        if st.col_n[p, c] == 7:
            st.newc[p, c] = True
    st.lgdirty[p] = True
    st.jl[p] -= (1 if cdie == COLOUR_JOKER else 0) + (1 if ndie == NUMBER_JOKER else 0)
    if st.colour_n[p, colour] == t.colour_size[p, colour] and not st.colour_done[p, colour]:
        st.newcol[p, colour] = True


@numba.njit(cache=True, _nrt=False)
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


@numba.njit(cache=True, _nrt=False)
def _team_points(st, n):
    pts = 0
    for p in range(n):
        for c in range(15):
            if st.col_pts[p, c] >= 0:
                pts += st.col_pts[p, c]
    return pts


# --------------------------------------------------------------------------- missions
@numba.njit(cache=True, _nrt=False)
def _counts(t, g, st, n, r, miss):
    """Requirement ``r`` now (:func:`nochmal.engine.missions.mission_progress`): (items done, items
    needed), and ``miss`` marks what is missing (colours 0-4; row labels by id; columns 0-14; numbers)."""
    miss[:] = False
    kind = t.req_kind[r]
    if kind == 0:  # colours completed (settled) on any sheet
        have = 0
        for c in range(5):
            done = False
            for p in range(n):
                if st.colour_done[p, c]:
                    done = True
            have += done
            miss[c] = not done
        return have, t.req_needed[r]
    if kind == 1:  # rows filled on any sheet, by label (the first seat's labels)
        for row in range(7):
            miss[g.lab0[row]] = True
        for row in range(7):
            for p in range(n):
                if st.row_n[p, row] == 15:
                    miss[g.lab0[row]] = False
        have = 0
        for row in range(7):  # distinct labels done
            lab = g.lab0[row]
            if not miss[lab]:
                first = True
                for q in range(row):
                    if g.lab0[q] == lab:
                        first = False
                have += first
        return have, t.req_needed[r]
    if kind == 2:  # a star crossed in every column
        have = 0
        for c in range(15):
            found = False
            for p in range(n):
                for row in range(7):
                    cell = row * 15 + c
                    if t.star[p, cell] and st.crossed[p, cell]:
                        found = True
            have += found
            miss[c] = not found
        return have, 15
    if kind == 3:  # every number of the sheets filled on a sheet that has it
        have = 0
        need = 0
        for num in range(g.num_exists.shape[0]):
            if not g.num_exists[num]:
                continue
            need += 1
            done = False
            for q in range(n):
                for f in range(t.nf_num.shape[1]):
                    if t.nf_num[q, f] == num:
                        full = True
                        for j in range(4):
                            if not st.crossed[q, t.nf_cells[q, f, j]]:
                                full = False
                        if full:
                            done = True
            have += done
            miss[num] = not done
        return have, need
    return st.sc[1], t.seq.shape[0]  # the sequence (settled at the end of a turn)


@numba.njit(cache=True, _nrt=False)
def _progress(t, g, st, n, r, miss):
    """Requirement ``r`` is met (:func:`_counts`; ``miss`` marks what is missing)."""
    have, need = _counts(t, g, st, n, r, miss)
    return have >= need


@numba.njit(cache=True, _nrt=False)
def _mission_complete(t, g, st, n, miss):
    """M1-M5: every requirement met, team-wide (any sheet counts)."""
    for r in range(t.req_kind.shape[0]):
        if not _progress(t, g, st, n, r, miss):
            return False
    return True


# --------------------------------------------------------------------------- the co-op greedy
@numba.njit(cache=True, _nrt=False)
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


@numba.njit(cache=True, _nrt=False)
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


@numba.njit(cache=True, _nrt=False)
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


@numba.njit(cache=True, _nrt=False)  # allocates nothing: no reference counts (see _Hot)
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


@numba.njit(cache=True, _nrt=False)  # allocates nothing: no reference counts (see _Hot)
def _best(h, p, cf, nc, nf, nn):
    """:func:`nochmal.bots.greedy._best_for_dice`: (value, cell set or -1, colour die, number die,
    colour) of seat ``p``'s best move with these faces (each sorted), a failed roll at -fail.
    Seat ``p``'s legal sets are listed (:func:`_legal`) and its view is current."""
    jl = h.jl[p]
    jw = h.w[5]
    cur = h.vi[p, 1]
    best, best_c, best_n, best_col = -1, -1, -1, -1
    best_v = -h.vf[p, F_FAIL]
    prev_c = -1
    for ci in range(nc):
        cdie = cf[ci]
        if cdie == prev_c:
            continue
        prev_c = cdie
        ccost = 1 if cdie == COLOUR_JOKER else 0
        if ccost > jl:
            continue
        prev_n = -1
        for ni in range(nn):
            ndie = nf[ni]
            if ndie == prev_n:
                continue
            prev_n = ndie
            ncost = 1 if ndie == NUMBER_JOKER else 0
            if ccost + ncost > jl:
                continue
            cost = jw * (ccost + ncost)
            c_lo, c_hi = (0, 5) if ccost else (cdie, cdie + 1)
            k_lo, k_hi = (1, 6) if ncost else (ndie, ndie + 1)
            for colour in range(c_lo, c_hi):
                for k in range(k_lo, k_hi):
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


@numba.njit(cache=True, _nrt=False)  # allocates nothing: no reference counts (see _Hot)
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


@numba.njit(cache=True, _nrt=False)  # allocates nothing: no reference counts (see _Hot)
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


@numba.njit(cache=True, _nrt=False)
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
    prev_c = -1
    for ci in range(nc):
        cdie = cf[ci]
        if cdie == prev_c:
            continue
        prev_c = cdie
        prev_n = -1
        for ni in range(nn):
            ndie = nf[ni]
            if ndie == prev_n:
                continue
            prev_n = ndie
            one_c[0] = cdie
            one_n[0] = ndie
            own_v, s, oc, on, ocol = _best(h, active, one_c, one_c.shape[0], one_n, one_n.shape[0])
            if s < 0:
                continue
            # remove_faces: the first die showing cdie (ndie) is set aside
            cval[m] = own_v + _others_value(h, n, active, nc, nn, pv, ci, ni)
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


@numba.njit(cache=True, _nrt=False)
def _decide(t, g, V, st, h, p, cf, nc, nf, nn, policy, mt, team):
    """Seat ``p``'s action: (cell set or -1 for a failed roll, colour die, number die, colour).
    ``team``: the active seat chooses for the team (the greedy's team choice)."""
    if policy == 0:  # POLICY_RANDOM: acts[rng.randrange(len(acts))], the failed roll first
        n = _scan(t, st, p, cf, nc, nf, nn, 0, 0)[0]
        idx = randbelow(mt, n + 1)
        if idx == 0:
            return -1, -1, -1, -1
        _, s, cdie, ndie, colour = _scan(t, st, p, cf, nc, nf, nn, 1, idx - 1)
        return s, cdie, ndie, colour
    if policy == 1:  # POLICY_LARGEST
        _, s, cdie, ndie, colour = _scan(t, st, p, cf, nc, nf, nn, 2, 0)
        return s, cdie, ndie, colour
    n = t.jokers.shape[0]
    _refresh(t, g, V, st, n)
    if team:
        cand, cval = V.cand, V.cval
        _team_choices(t, g, V, st, h, n, p, cf, nc, nf, nn, cand, cval)
        return cand[0, 0], cand[0, 1], cand[0, 2], cand[0, 3]
    _legal(t, st, p)
    if V.dirty[p]:
        _view(t, g, V, st, p, n)
    _, s, cdie, ndie, colour = _best(h, p, cf, nc, nf, nn)
    return s, cdie, ndie, colour


# --------------------------------------------------------------------------- the game
@numba.njit(cache=True, _nrt=False)
def _event(trace, ev, kind, a, b, c, d, e, f, g):
    if ev < trace.shape[0]:
        trace[ev, 0], trace[ev, 1], trace[ev, 2], trace[ev, 3] = kind, a, b, c
        trace[ev, 4], trace[ev, 5], trace[ev, 6], trace[ev, 7] = d, e, f, g
    return ev + 1


@numba.njit(cache=True)
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


@numba.njit(cache=True, _nrt=False)
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


@numba.njit(cache=True, _nrt=False)
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
            for j in range(lc):
                if left_c[j] == cdie:
                    for q in range(j, lc - 1):
                        left_c[q] = left_c[q + 1]
                    break
            lc -= 1
            for j in range(ln):
                if left_n[j] == ndie:
                    for q in range(j, ln - 1):
                        left_n[q] = left_n[q + 1]
                    break
            ln -= 1
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


@numba.njit(cache=True, _nrt=False)
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


@numba.njit(cache=True)
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


@numba.njit(cache=True)
def _start(t, g, st, V):
    """Views and legal sets to be built again for the position in ``st``: the greedy's arrays."""
    st.lgdirty[:] = True
    V.dirty[:] = True
    V.sig[:, :] = -1
    return _hot(t, g, st, V)


@numba.njit(cache=True)
def _loop(t, g, mt, policy, trace, res, st, V, h, first_turn, removed, left_c, left_n, per, dice_c, dice_n, no_split):
    """The turns from ``first_turn`` (0-based, its roll due) to the end by ``policy`` (random,
    largest or greedy). (events, end reason, the last turn played, 1-based)."""
    ev = 0
    turn = first_turn
    for ti in range(first_turn, 27):
        turn = ti + 1
        active = t.track[ti]
        st.newc[:, :] = False
        st.newcol[:, :] = False
        ev, nc, nn = _roll(mt, trace, ev, removed, dice_c, dice_n)
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


@numba.njit(cache=True)
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


@numba.njit(cache=True)
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


@numba.njit(cache=True)
def _new_planner(t, g, rollouts):
    return _Planner(_new_state(t), _new_views(t, g), np.zeros(R_SIZE, np.int64), np.zeros(625, np.int64),
                    np.zeros((0, EVENT_WIDTH), np.int64), np.zeros((MAX_CANDIDATES, 4 + MAX_SEATS), np.int64),
                    np.zeros(MAX_CANDIDATES), np.zeros((MAX_CANDIDATES, max(rollouts, 1))), np.zeros(3, np.int64),
                    np.zeros(3, np.int64), np.zeros(MAX_SEATS, np.int64), np.zeros(3, np.int64),
                    np.zeros(3, np.int64), np.zeros(MAX_SEATS, np.int64), np.full(1, -1, np.int64),
                    np.full(1, POLICY_GREEDY, np.int64), np.arange(3, dtype=np.int64))


@numba.njit(cache=True)
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


@numba.njit(cache=True)
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


@numba.njit(cache=True, inline="always")
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


@numba.njit(cache=True, inline="always")
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


@numba.njit(cache=True)
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


@numba.njit(cache=True)
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


@numba.njit(cache=True, inline="always")
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
        active = t.track[ti]
        st.newc[:, :] = False
        st.newcol[:, :] = False
        ev, nc, nn = _roll(mt, trace, ev, removed, dice_c, dice_n)
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


@numba.njit(cache=True, inline="always")
def play_from(t, g, mt, policy, trace, res, st, V, first_turn, removed, P, plan):
    """Play on from the start of turn ``first_turn + 1`` (0-based ``first_turn``, its roll not
    made yet) to the end: the position is in ``st`` (crossed cells and what follows from them,
    "!" left, failed rolls, settled columns and colours, ``sc``: claimed columns and letters
    counted), what happened before in ``res`` (the checks run, the penalty, the letters' seats,
    ``R_REMOVED``) and ``removed`` the die out of the game (-1 none, 0 colour, 1 number). The
    seats' legal sets and views are built again. The trace and ``R_EVENTS`` count the actions
    from here on. The planner (``POLICY_PLANNER``) uses ``P`` and ``plan``."""
    h = _start(t, g, st, V)
    left_c = np.zeros(3, np.int64)
    left_n = np.zeros(3, np.int64)
    per = np.zeros(MAX_SEATS, np.int64)
    dice_c = np.zeros(3, np.int64)
    dice_n = np.zeros(3, np.int64)
    no_split = np.full(1, -1, np.int64)
    if policy == POLICY_PLANNER:
        ev, reason, turn = _loop_planned(t, g, mt, trace, res, st, V, h, first_turn, removed, left_c, left_n, per,
                                         dice_c, dice_n, no_split, P, plan)
    else:
        ev, reason, turn = _loop(t, g, mt, policy, trace, res, st, V, h, first_turn, removed, left_c, left_n, per,
                                 dice_c, dice_n, no_split)
    _finish(t, g, st, V, res, reason, turn, ev)


@numba.njit(cache=True)
def _write_end(st, n, end):
    """The end position into ``end`` [seat, END_WIDTH] (see :func:`run_games`)."""
    for p in range(n):
        for i in range(N_CELLS):
            end[p, i] = 1 if st.crossed[p, i] else 0
        for c in range(N_COLS):
            end[p, N_CELLS + c] = st.col_pts[p, c]
        for c in range(5):
            end[p, N_CELLS + N_COLS + c] = 1 if st.colour_done[p, c] else 0


END_WIDTH = N_CELLS + N_COLS + 5  # an end position's numbers per seat (see run_games)


@numba.njit(cache=True)
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
                st.col_n[p, cell % 15] += 1
                st.colour_n[p, t.cell_colour[p, cell]] += 1
                st.row_n[p, cell // 15] += 1
                for q in range(4):
                    nb = t.cell_nb[cell, q]
                    if nb >= 0:
                        st.touch[p, nb] = True
    st.jl[:] = jl
    st.failed[:] = failed
    st.col_pts[:, :] = col_pts
    st.colour_done[:, :] = colour_done
    st.newc[:, :] = False
    st.newcol[:, :] = False
    st.sc[:] = sc


@numba.njit(cache=True, nogil=True)
def run_games(t, g, crossed, jl, failed, col_pts, colour_done, sc, res0, first_turn, removed, seeds, mts, policy,
              plan, trace, out, ends, lo, hi):
    """Games ``lo``..``hi``, each into its row of ``out`` (the R_* rows): the one compiled entry
    point (every other way in would be compiled again, for a minute, on a fresh machine).

    Each game starts from the position given (see :func:`_load`; ``res0`` the result row so far,
    ``first_turn`` the 0-based turn whose roll is due, ``removed`` the die out of the game), or
    with ``first_turn`` < 0 from the empty sheets; its dice are ``random.Random(seeds[k])``'s,
    or (``mts`` not empty) those of the generator state ``mts[k]`` (:func:`mt_state`). With
    ``ends`` not empty also each game's end position (:func:`_write_end`); the trace is written
    if it has rows (then one game). ``plan``: the planner's settings (``PLAN_*``). Releases the
    GIL: threads may each run a part."""
    mt = np.zeros(625, np.int64)
    st = _new_state(t)
    V = _new_views(t, g)
    P = _new_planner(t, g, int(plan[PLAN_ROLLOUTS]) if policy == POLICY_PLANNER else 1)
    n = t.jokers.shape[0]
    for k in range(lo, hi):
        if first_turn < 0:
            _reset(t, out[k], st)
        else:
            _load(t, st, crossed, jl, failed, col_pts, colour_done, sc)
            out[k, :] = res0
        if mts.shape[0] > 0:
            mt[:] = mts[k]
        else:
            mt_seed(seeds[k], mt)
        play_from(t, g, mt, policy, trace, out[k], st, V, max(first_turn, 0), removed, P, plan)
        if ends.shape[0] > 0:
            _write_end(st, n, ends[k])


# --------------------------------------------------------------------------- Python side
def largest_policy(state, rng: random.Random):
    """POLICY_LARGEST on the engine: the legal cross with the most cells (ties: the first in the
    engine's order), a failed roll only when none is legal; team decisions as the co-op greedy's."""
    if state.current_player() < 0:
        from nochmal.bots.greedy import team_decision

        return team_decision(state, rng)
    best, best_k = PASS, 0
    for a in state.legal_actions():
        if a is not PASS and a.count > best_k:
            best, best_k = a, a.count
    return best


def python_policy(name: str, cfg=None):
    """The Python policy that drives the engine as the kernel's policy ``name`` plays (``cfg``:
    the planner's settings, :func:`plan_params`)."""
    if name == "planner":
        from nochmal.bots.planner import PLANNER_CONFIGS, make_planner

        plan_params(cfg)  # the compiled planner plays these settings
        return make_planner(cfg or PLANNER_CONFIGS["coop"])
    if name == "random":
        from nochmal.bots.policies import random_policy

        return random_policy
    if name == "largest":
        return largest_policy
    if name == "greedy":
        from nochmal.bots.greedy import greedy_policy

        return greedy_policy
    raise ValueError(f"unknown kernel policy {name!r}: {', '.join(POLICIES)}")


@dataclass
class GameRecord:
    """A finished co-op game in a form both sides produce: every action as an event row (the
    kernel's trace format) and the outcome's facts."""

    events: list[tuple[int, ...]]
    outcome: dict


def _faces(faces, k=3, pad=-1) -> list[int]:
    return list(faces) + [pad] * (k - len(faces))


def engine_record(game, state) -> GameRecord:
    """The record of a finished engine game (its history replayed for the seats that acted)."""
    tables = coop_tables(game)
    st = game.new_state()
    rows = []
    for action in state.history:
        seat = st.current_player()
        if isinstance(action, Roll):
            rows.append((EV_ROLL, *_faces(action.colours), *_faces(action.numbers), 0))
        elif isinstance(action, Cross):
            rows.append((EV_CROSS, seat, action.colour_die, action.number_die, action.colour,
                         tables.index[seat][action.cells], 0, 0))
        elif action == PASS:
            rows.append((EV_PASS, seat, 0, 0, 0, 0, 0, 0))
        elif hasattr(action, "per_seat"):
            rows.append((EV_STRIKE, *_faces(action.per_seat, MAX_SEATS, 0), 0))
        else:
            rows.append((EV_REMOVE, 0 if action.die == "colour" else 1, 0, 0, 0, 0, 0, 0))
        st.apply(action)
    x = state.outcome().extra
    checks = x["checks"]
    pen = checks.get("10", {}).get("penalty")
    counted = state.extra.get("sequence", {}).get("counted", [])
    outcome = {
        "won": x["won"], "reason": state.end_reason, "turns": x["turns"],
        "removed_die": x["removed_die"],
        "points_10": checks.get("10", {}).get("points"), "points_19": checks.get("19", {}).get("points"),
        "points_27": checks.get("27", {}).get("points"),
        "penalty_10": None if pen is None else (pen["jokers"], pen.get("per_seat")),
        "team_points": x["team_points_now"], "failed_rolls": x["failed_rolls"], "jokers_left": x["jokers_left"],
        "sequence": [(letter, seat) for letter, seat in counted],
        "crossed": [s.crossed for s in state.seats],
        "columns": [dict(sorted(s.columns.items())) for s in state.seats],
        "colours": [sorted(s.colours) for s in state.seats],
        "mission_complete": x["mission"]["complete"],
    }
    return GameRecord(rows, outcome)


def kernel_record(game, seed: int, policy: str, cfg=None) -> GameRecord:
    """Play ``game`` in the kernel from ``random.Random(seed)``; its record (``cfg``: the
    planner's settings)."""
    t = coop_tables(game).arrays
    n = game.n_seats
    trace = np.zeros((MAX_EVENTS, EVENT_WIDTH), np.int64)
    rows, ends = _run(game, None, np.array([abs(seed)], np.int64), None, policy, trace=trace, cfg=cfg)
    res, end = rows[0], ends[0]
    crossed = end[:, :N_CELLS] > 0
    col_pts = end[:, N_CELLS:N_CELLS + N_COLS]
    colour_done = end[:, N_CELLS + N_COLS:] > 0
    rows = [tuple(int(v) for v in row) for row in trace[:res[R_EVENTS]]]
    pen = None
    kind = int(res[R_PEN10])
    if kind:
        per = {PEN_ALL: "all", PEN_SPLIT: [int(v) for v in res[R_STRIKE:R_STRIKE + n]], PEN_ZERO: None}[kind]
        pen = (int(res[R_AMT10]), per)
    opt = lambda v: None if v < 0 else int(v)  # noqa: E731
    won = bool(res[R_WON])
    seq = "".join(COLUMNS[c] for c in t.seq)
    outcome = {
        "won": won, "reason": REASONS[res[R_REASON]], "turns": int(res[R_TURNS]),
        "removed_die": removed_die(res),
        "points_10": opt(res[R_PTS10]), "points_19": opt(res[R_PTS19]), "points_27": opt(res[R_PTS27]),
        "penalty_10": pen,
        "team_points": int(res[R_TEAM]), "failed_rolls": [int(v) for v in res[R_FAILED:R_FAILED + n]],
        "jokers_left": [int(v) for v in res[R_JOKERS:R_JOKERS + n]],
        "sequence": [(seq[i], int(res[R_SEQSEAT + i])) for i in range(res[R_SEQ])],
        "crossed": [sum(1 << i for i in range(N_CELLS) if crossed[p, i]) for p in range(n)],
        "columns": [{c: int(col_pts[p, c]) for c in range(N_COLS) if col_pts[p, c] >= 0} for p in range(n)],
        "colours": [[c for c in range(len(COLOURS)) if colour_done[p, c]] for p in range(n)],
        "mission_complete": bool(res[R_MISSION]),
    }
    return GameRecord(rows, outcome)


def reference_state(game, seed: int, policy: str, cfg=None):
    """The finished engine game (:func:`nochmal.engine.game.play` from ``random.Random(seed)``)
    with the Python form of ``policy``."""
    from nochmal.engine.game import play

    return play(game.new_state(), python_policy(policy, cfg), random.Random(seed))


def reference_record(game, seed: int, policy: str, cfg=None) -> GameRecord:
    """The record of :func:`reference_state`'s game."""
    return engine_record(game, reference_state(game, seed, policy, cfg))


def _seeds(seeds) -> np.ndarray:
    seeds = [int(s) for s in seeds]
    if any(not 0 <= s < 2**63 for s in seeds):
        raise ValueError("the compiled co-op game takes seeds 0 <= seed < 2**63")
    return np.array(seeds, np.int64)


def plan_params(cfg=None) -> np.ndarray:
    """The planner's settings as :func:`run_games` reads them (``PLAN_*``) from a
    :class:`nochmal.bots.planner.PlannerConfig` (None: the co-op planner's) that the compiled
    planner plays: rollouts to the end for every candidate (no work cap, no halving, no margin),
    greedy's choice kept unless the paired test says otherwise."""
    from nochmal.bots import planner

    cfg = cfg or planner.PLANNER_CONFIGS["coop"]
    if not (cfg.active_only and cfg.switch_z is not None and cfg.horizon is None and cfg.budget_s is None
            and cfg.margin == 0.0 and cfg.rollouts >= 1 and 1 <= cfg.candidates < MAX_CANDIDATES):
        raise ValueError(f"the compiled co-op planner does not play {cfg}")
    return np.array([cfg.rollouts, cfg.candidates, cfg.switch_z, planner.SWITCH_SD_FLOOR ** 2], np.float64)


_COMPILED = []  # [True] once run_games is compiled or loaded in this process


def compile_lock_path() -> Path:
    """The lock file of :func:`_ensure_compiled` (one per installed copy of this module)."""
    copy = hashlib.sha256(__file__.encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"nochmal-coop-kernel-{copy}.lock"


@contextlib.contextmanager
def _compile_lock():
    """An exclusive lock shared by every process of this copy of the module (none where locks
    are not available)."""
    try:
        import fcntl

        fh = open(compile_lock_path(), "a")
    except (ImportError, OSError):
        yield
        return
    with fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _ensure_compiled() -> None:
    """Compile :func:`run_games` (about two minutes on a fresh machine) or load it from numba's
    disk cache, once a process, under :func:`_compile_lock`: processes that start at once
    (``nochmal serve``'s background warm-up and the app, two test processes) compile it once; the
    others wait and load the first's."""
    if _COMPILED:
        return
    with _compile_lock():
        if not _COMPILED:
            _COMPILED.append(True)  # before the short game, whose own call comes back here
            warm()


def _run(game, pos, seeds, mts, policy: str, threads: int = 1, trace=None, ends: bool = True, cfg=None):
    """:func:`run_games` for ``game`` from ``pos`` (:func:`position`; None: a new game), one game
    per seed or per generator state in ``mts``, on ``threads`` threads: (rows, end positions;
    none without ``ends``). ``cfg``: the planner's settings (:func:`plan_params`)."""
    _ensure_compiled()
    tables = coop_tables(game)
    plan = plan_params(cfg) if policy == "planner" else np.zeros(4, np.float64)
    n = game.n_seats
    if pos is None:
        pos = (np.zeros((n, N_CELLS), np.bool_), np.zeros(n, np.int64), np.zeros(n, np.int64),
               np.full((n, N_COLS), -1, np.int64), np.zeros((n, len(COLOURS)), np.bool_), np.zeros(2, np.int64),
               np.zeros(R_SIZE, np.int64), -1, -1)
    if mts is None:
        mts = np.zeros((0, 625), np.int64)
    games = mts.shape[0] or seeds.shape[0]
    out = np.zeros((games, R_SIZE), np.int64)
    end_pos = np.zeros((games if ends else 0, n, END_WIDTH), np.int64)
    if trace is None:
        trace = np.zeros((0, EVENT_WIDTH), np.int64)

    def part(lo: int, hi: int) -> None:
        run_games(tables.arrays, tables.greedy, *pos, seeds, mts, POLICIES[policy], plan, trace, out, end_pos, lo, hi)

    threads = max(1, min(threads, games))
    if threads == 1:
        part(0, games)
    else:
        from concurrent.futures import ThreadPoolExecutor

        cuts = [games * i // (threads * 4) for i in range(threads * 4 + 1)]
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(part, cuts[:-1], cuts[1:]))
    return out, end_pos


def play_many(game, seeds, policy: str = "random", threads: int = 1, ends: bool = False, cfg=None):
    """The R_* rows of one kernel game per seed (no traces: for sweeps and timing), on
    ``threads`` threads; with ``ends`` also the end positions (rows, ends). ``cfg``: the
    planner's settings (:func:`plan_params`)."""
    rows, out_ends = _run(game, None, _seeds(seeds), None, policy, threads, ends=ends, cfg=cfg)
    return (rows, out_ends) if ends else rows


def position(game, state):
    """The kernel's form of ``state``, an engine position of ``game`` at the start of a turn (a
    roll due, the game not over): the arguments of :func:`run_games` before the seeds — per
    seat crossed cells, "!" left, failed rolls, column points (-1: open), completed colours; the
    claimed columns and letters counted; the result row so far (the checks run, the penalty after
    turn 10, the letters' seats, the removed die); the turn (0-based) and the removed die."""
    if state.game is not game:
        raise ValueError("the state is not a position of this game")
    if state.is_terminal() or not state.is_chance_node():
        raise ValueError(f"the kernel goes on from the start of a turn (a roll due), not from {state.summary()}")
    t = coop_tables(game).arrays
    n = game.n_seats
    crossed = np.zeros((n, N_CELLS), np.bool_)
    jl = np.zeros(n, np.int64)
    failed = np.zeros(n, np.int64)
    col_pts = np.full((n, N_COLS), -1, np.int64)
    colour_done = np.zeros((n, len(COLOURS)), np.bool_)
    for p, seat in enumerate(state.seats):
        if seat.new_columns or seat.new_colours:
            raise ValueError("the position has completions not settled yet")
        crossed[p, list(indices(seat.crossed))] = True
        jl[p] = seat.jokers_left
        failed[p] = seat.failed
        for c, pts in seat.columns.items():
            col_pts[p, c] = pts
        for c in seat.colours:
            colour_done[p, c] = True
    x = state.extra
    res0 = np.zeros(R_SIZE, np.int64)
    checks = x.get("checks", {})
    for turn, r in (("10", R_PTS10), ("19", R_PTS19), ("27", R_PTS27)):  # -1: not run yet
        res0[r] = checks[turn]["points"] if turn in checks else -1
    pen = checks.get("10", {}).get("penalty")
    if pen is not None:
        res0[R_AMT10] = pen["jokers"]
        per = pen.get("per_seat")
        if per == "all":
            res0[R_PEN10] = PEN_ALL
        elif per is not None:
            res0[R_PEN10] = PEN_SPLIT
            res0[R_STRIKE:R_STRIKE + n] = per
        else:
            res0[R_PEN10] = PEN_ZERO
    die = x.get("removed_die")
    removed = -1 if die is None else ("colour", "number").index(die)
    res0[R_REMOVED] = removed
    counted = x.get("sequence", {}).get("counted", [])
    seq = "".join(COLUMNS[c] for c in t.seq)
    if [letter for letter, _ in counted] != list(seq[:len(counted)]):
        raise ValueError(f"letters counted {counted} are not the start of the sequence {seq!r}")
    for i, (_, seat) in enumerate(counted):
        res0[R_SEQSEAT + i] = seat
    sc = np.array([state.claimed_columns, len(counted)], np.int64)
    return crossed, jl, failed, col_pts, colour_done, sc, res0, int(state.roll_index), removed


def resume_many(game, state, seeds, policy: str = "greedy"):
    """Play ``state`` (an engine position of ``game`` at the start of a turn: :func:`position`)
    on to the end once per seed in the kernel, each with ``random.Random(seed)``'s dice (and
    choices, for the random policy) from there — as :func:`nochmal.engine.game.play` of a clone of
    ``state`` with that generator and the policy's Python form would. (rows, ends) as
    :func:`play_many` with ``ends``; a row's ``R_EVENTS`` counts the actions played here."""
    if not kernel_plays(game, policy):
        raise ValueError(f"the compiled co-op game does not play this game with the {policy} policy")
    seeds = _seeds(seeds)
    return _run(game, position(game, state), seeds, None, policy)


def resume_rng(game, state, rng: random.Random, policy: str = "greedy"):
    """:func:`resume` with the dice ``rng`` would draw from where it stands (``rng`` unchanged):
    (row, end)."""
    if not kernel_plays(game, policy):
        raise ValueError(f"the compiled co-op game does not play this game with the {policy} policy")
    rows, ends = _run(game, position(game, state), np.zeros(0, np.int64), mt_state(rng)[None, :], policy)
    return rows[0], ends[0]


def resume(game, state, seed: int, policy: str = "greedy"):
    """One game of :func:`resume_many`: (row, end) for :func:`end_state`."""
    rows, ends = resume_many(game, state, [seed], policy)
    return rows[0], ends[0]


def end_state(game, row: np.ndarray, end: np.ndarray):
    """The engine's finished :class:`~nochmal.engine.game.State` of a kernel game (its R_* ``row``
    and end position ``end``, from :func:`play_many` with ``ends``): the seats' crosses, "!",
    failed rolls, columns and colours, the turn, the checks' points, the removed die, the
    sequence, the end; :meth:`Game.outcome` of it is the engine's outcome of the same game."""
    return end_states(game, row[None, :], end[None, :, :])[0]


def end_states(game, rows: np.ndarray, ends: np.ndarray) -> list:
    """:func:`end_state` of each game of ``rows`` and ``ends`` (as :func:`play_many` returns them
    with ``ends``), converted together: numpy's work is done once for all games, not per seat."""
    from nochmal.engine.game import OVER

    masks = crossed_masks(ends != 0)
    tail = ends[:, :, N_CELLS:N_CELLS + N_COLS + len(COLOURS)].tolist()
    all_rows = rows.tolist()  # Python ints: numpy's scalars are slow to read one by one
    bonus = game.colour_bonus[0]  # C-NO-BONUS
    goals = {turn: game.tableau.value(f"goal_{turn}") for turn in ("10", "19", "27")}
    seq = sequence_columns(game)
    out = []
    for g, row in enumerate(all_rows):
        st = game.new_state()
        for p, seat in enumerate(st.seats):
            seat.crossed = masks[g][p]
            seat.jokers_used = seat.sheet.jokers - row[R_JOKERS + p]
            cols = tail[g][p]
            seat.columns = {c: cols[c] for c in range(N_COLS) if cols[c] >= 0}
            seat.colours = {c: bonus for c in range(len(COLOURS)) if cols[N_COLS + c]}
            seat.failed = row[R_FAILED + p]
        st.roll_index = row[R_TURNS] - 1
        st.phase = OVER
        st.end_reason = REASONS[row[R_REASON]]
        x = st.extra
        x["checks"] = {turn: {"points": row[r], "goal": goals[turn]}
                       for turn, r in (("10", R_PTS10), ("19", R_PTS19), ("27", R_PTS27)) if row[r] >= 0}
        x["won"] = bool(row[R_WON])
        x["removed_die"] = removed_die(row)
        x["sequence"] = sequence_state(seq, row)
        out.append(st)
    return out


def crossed_masks(marks: np.ndarray) -> list[list[int]]:
    """Each game's seats' crossed cells as the engine's bit masks, from ``marks`` (``ends != 0``
    of :func:`play_many` with ``ends``, or its first N_CELLS numbers per seat)."""
    games, n = marks.shape[:2]
    nbytes = (N_CELLS + 7) // 8
    data = np.packbits(marks[:, :, :N_CELLS], axis=-1, bitorder="little").tobytes()
    flat = [int.from_bytes(data[i * nbytes:(i + 1) * nbytes], "little") for i in range(games * n)]
    return [flat[g * n:(g + 1) * n] for g in range(games)]


def removed_die(row) -> str | None:
    """The die the team gave up at C-GOAL-19 in a result row (``R_REMOVED``), or None."""
    return None if row[R_REMOVED] < 0 else ("colour", "number")[row[R_REMOVED]]


def sequence_columns(game) -> str:
    """The columns of the mission's N-O-C-H-M-A-L sequence (M5), "" without one."""
    return next((r.columns for r in game.mission.requirements if r.kind == "sequence"), "")


def sequence_state(seq: str, row) -> dict:
    """The engine's ``extra["sequence"]`` of a result row: the letters of ``seq`` counted and by whom."""
    return {"counted": [(seq[i], row[R_SEQSEAT + i]) for i in range(row[R_SEQ])]} if seq else {}


_BY_NAME = np.array(sorted(range(N_CELLS), key=CELL_NAMES.__getitem__))
#: every cell's name and a space, in name order (every name is a column letter and a row digit)
_NAMES3 = np.frombuffer("".join(CELL_NAMES[i] + " " for i in _BY_NAME).encode("ascii"), np.uint8).reshape(N_CELLS, 3)


def crossed_text(end: np.ndarray) -> str:
    """The analytics row's ``crossed`` of a kernel game's end position (:func:`play_many` with
    ``ends``): each seat's crossed cells by name (``names``), space-separated, seats by ";"."""
    return crossed_texts(end[None, :, :] != 0)[0]


def crossed_texts(marks: np.ndarray) -> list[str]:
    """:func:`crossed_text` of each game, from ``marks`` (as :func:`crossed_masks` takes them)."""
    marks = marks[:, :, _BY_NAME]  # [game, seat, cell by name]
    at = np.flatnonzero(marks) % N_CELLS
    text = _NAMES3[at].tobytes().decode("ascii")  # "A1 A3 B2 ...": each name and a space
    cuts = np.concatenate(([0], np.cumsum(marks.sum(axis=2).ravel()) * 3)).tolist()
    n = marks.shape[1]
    seats = [text[a:b - 1] if b > a else "" for a, b in zip(cuts[:-1], cuts[1:])]
    return [";".join(seats[g * n:(g + 1) * n]) for g in range(marks.shape[0])]


def warm() -> None:
    """Compile the kernel (about a minute on a fresh machine; numba keeps it on disk after) or
    load it: one short game (see :mod:`nochmal.bots.warm`)."""
    from nochmal.engine.coop import CoopGame

    play_many(CoopGame.create(1, 1), [0], "greedy")
