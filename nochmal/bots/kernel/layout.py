"""The compiled co-op game's data: the policy numbers, the event and result rows, and the arrays a
game is played on — the tables built once per game configuration (:class:`CoopTables`: what the
rules read of the sheets, tableau and mission; what the greedy reads of the heuristic and the team
plan) and the mutable position and scratch of one game (:class:`_State`, :class:`_Views`,
:class:`_Hot`).

Python twins: a position mirrors the engine's :class:`nochmal.engine.game.State` and its seats; a
cross is the index of a *cell set* of the seat's sheet (the connected 1-5-cell subsets of its colour
blocks, in :meth:`nochmal.engine.sheet.Sheet.move_table`'s order), numbered as in
:class:`nochmal.bots.kernel.solo.GreedyTables`; a seat's view mirrors
:class:`nochmal.bots.heuristic.SeatView`. Dice faces are :mod:`nochmal.engine.dice`'s coding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from nochmal.engine.cells import COLOURS, COLUMNS, FULL, N_CELLS, N_COLS, indices, neighbours
from nochmal.engine.coopdata import N_TURNS
from nochmal.engine.missions import requirement_count

from .cache import njit
from .moves import MAX_PAIRS, PAIR_WIDTH, sheet_sets

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
    order: tuple[int, ...]  # the cell sets in the engine's order (see moves.sheet_sets)
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

    masks, order, lo, hi = sheet_sets(sheet)
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


def coop_tables(game) -> CoopTables:
    """The game's :class:`CoopTables` (cached on the game)."""
    tables = getattr(game, "_coop_tables", None)
    if tables is None:
        tables = game._coop_tables = CoopTables.build(game)
    return tables


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
    pairs: np.ndarray  # scratch [pair, PAIR_WIDTH]: the dice pairs of a seat's move (moves.dice_pairs)
    team_pairs: np.ndarray  # scratch: the dice pairs of the active seat's team choice (around the seats' moves)


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
    pairs: np.ndarray


MAX_PARTS = 64  # parts of one target (a 7 x 15 sheet has at most 53 cells no two of which touch)


@njit()
def _new_state(t):
    n = t.jokers.shape[0]
    return _State(np.zeros((n, 105), np.bool_), t.start.copy(), np.zeros((n, 15), np.int64),
                  np.zeros((n, 5), np.int64), np.zeros((n, 7), np.int64), t.jokers.copy(), np.zeros(n, np.int64),
                  np.full((n, 15), -1, np.int64), np.zeros((n, 5), np.bool_), np.zeros((n, 15), np.bool_),
                  np.zeros((n, 5), np.bool_), np.zeros(2, np.int64), np.zeros(t.order.shape, np.int64),
                  np.zeros((n, 5, 6), np.int64), np.zeros((n, 5, 6), np.int64), np.ones(n, np.bool_))


@njit()
def _new_views(t, g):
    n = t.jokers.shape[0]
    tm = g.tmax[0]
    m = t.order.shape[1]
    return _Views(np.zeros((n, F_WIDTH)), np.zeros((n, 2), np.int64), np.zeros((n, tm)), np.zeros((n, tm, 3), np.int64),
                  np.zeros((n, tm, 105), np.int64), np.zeros((n, tm, MAX_PARTS, 2), np.int64), np.full((n, tm, 105), -1, np.int64), np.zeros((n, m)),
                  np.full((n, m), -1, np.int64), np.zeros((3, 105), np.bool_), np.full((2, 105), -1, np.int64),
                  np.zeros(64, np.bool_), np.zeros(105, np.bool_), np.ones(n, np.bool_),
                  np.full((t.req_kind.shape[0], 66), -1, np.int64), np.zeros((n, 105), np.int64), np.zeros((n, 3, 3)), np.zeros((2, 1), np.int64),
                  np.zeros((MAX_CANDIDATES, 4 + MAX_SEATS), np.int64), np.zeros(MAX_CANDIDATES),
                  np.zeros((MAX_PAIRS, PAIR_WIDTH), np.int64), np.zeros((MAX_PAIRS, PAIR_WIDTH), np.int64))


@njit()
def _hot(t, g, st, V):
    return _Hot(g.geo, g.gains, g.w, t.cell_colour, t.cell_nb, V.vf, V.vi, V.tf, V.ti, V.tc, V.tp, V.lab, V.memo, V.stamp,
                V.sb, V.si, st.crossed, st.touch, st.col_n, st.colour_n, st.row_n, st.lg, st.lglo, st.lghi, st.jl,
                V.cellt, V.pv, V.one, V.pairs)


END_WIDTH = N_CELLS + N_COLS + 5  # an end position's numbers per seat (see run_games)
