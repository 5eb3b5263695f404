"""Parity helpers: a finished co-op game as a record both sides produce (every action as an event
row of the kernel's trace, and the outcome's facts), from the engine (:func:`engine_record`) and
from the kernel (:func:`kernel_record`), and the Python policies that drive the engine as the
kernel's policies play (:func:`python_policy`). Python twin: :func:`nochmal.engine.game.play`
itself; tests compare the two records action by action (``tests/test_coop_kernel.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from nochmal.engine.cells import COLOURS, COLUMNS, N_CELLS, N_COLS
from nochmal.engine.dice import Roll
from nochmal.engine.moves import PASS, Cross

from .drivers import _run
from .layout import (EV_CROSS, EV_PASS, EV_REMOVE, EV_ROLL, EV_STRIKE, EVENT_WIDTH, MAX_EVENTS, MAX_SEATS, PEN_ALL,
                     PEN_SPLIT, PEN_ZERO, POLICIES, R_AMT10, R_EVENTS, R_FAILED, R_JOKERS, R_MISSION, R_PEN10,
                     R_PTS10, R_PTS19, R_PTS27, R_REASON, R_SEQ, R_SEQSEAT, R_STRIKE, R_TEAM, R_TURNS, R_WON,
                     REASONS, coop_tables)
from .planner import plan_params
from .results import removed_die


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
        from nochmal.bots.planner import make_planner
        from nochmal.bots.settings import PLANNER_CONFIGS

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
