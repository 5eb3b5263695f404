"""The compiled co-op game's entry points: whole games from the empty sheets or from an engine
position, one per seed, on one or more threads (:func:`play_many`, :func:`resume_many`,
:func:`resume_rng`), behind the one compiled entry point :func:`run_games`, compiled once a process
under a lock (:func:`_ensure_compiled`). Python twin: :func:`nochmal.engine.game.play` with the
policies of :mod:`nochmal.bots.kernel.records` (:func:`~nochmal.bots.kernel.records.python_policy`).
"""

from __future__ import annotations

import contextlib
import hashlib
import random
import tempfile
from pathlib import Path

import numpy as np

from nochmal.engine.cells import COLOURS, COLUMNS, N_CELLS, N_COLS, indices
from nochmal.engine.coopdata import N_TURNS

from .cache import cache_dir, njit
from .coop import _finish, _load, _loop, _reset, _start, _write_end
from .layout import (END_WIDTH, EVENT_WIDTH, MAX_SEATS, PEN_ALL, PEN_SPLIT, PEN_ZERO, POLICIES, POLICY_PLANNER,
                     R_AMT10, R_PEN10, R_PTS10, R_PTS19, R_PTS27, R_REMOVED, R_SEQSEAT, R_SIZE, R_STRIKE,
                     coop_tables, _new_state, _new_views)
from .mt import mt_seed, mt_state
from .planner import PLAN_ROLLOUTS, _loop_planned, _new_planner, plan_params


@njit(inline="always")
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


@njit(nogil=True)
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


def _seeds(seeds) -> np.ndarray:
    seeds = [int(s) for s in seeds]
    if any(not 0 <= s < 2**63 for s in seeds):
        raise ValueError("the compiled co-op game takes seeds 0 <= seed < 2**63")
    return np.array(seeds, np.int64)


_COMPILED = []  # [True] once run_games is compiled or loaded in this process


def compile_lock_path() -> Path:
    """The lock file of :func:`_ensure_compiled`: one per numba cache folder (per installed copy of
    the kernels and version of their sources, :func:`nochmal.bots.kernel.cache.cache_dir`)."""
    copy = hashlib.sha256(str(cache_dir()).encode()).hexdigest()[:12]
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


def warm() -> None:
    """Compile the co-op kernel (about two minutes on a fresh machine; numba keeps it on disk after)
    or load it: one short game (see :mod:`nochmal.bots.warm`)."""
    from nochmal.engine.coop import CoopGame

    play_many(CoopGame.create(1, 1), [0], "greedy")
