"""Bots: ``greedy`` (one move ahead, a scored heuristic) and ``planner`` (Monte-Carlo rollouts
of greedy play over the dice still to come, scored by the team's/seat's result). Both are
seeded and deterministic: ``policy(state, rng) -> action``.

The planner rolls every candidate out with the same dice (common random numbers), spends its
rollouts where the choice is close (successive halving) and stops on a budget of simulated
actions, never of seconds, so a game replays the same on any machine. Solo games roll out in
compiled code (:class:`SoloSim` over :mod:`nochmal.solosim`), which plays exactly like greedy at
about 30 µs a whole game, so the solo planner affords thousands of rollouts a decision.

The heuristic values a move by how much closer it brings columns and colours to completion
(convex in the number of crossed cells, so finishing is worth more than starting), the points
it scores at once, stars crossed, "!" spent, and — in the co-op game — the mission: colours,
rows, stars per column, number fields, the next column of N-O-C-H-M-A-L, and the failed roll
a pass costs.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from dataclasses import dataclass

import numpy as np

from .cells import COLUMN_MASKS, FULL, components, N_CELLS, N_COLS, ROW_MASKS, neighbours
from .dice import COLOUR_FACES, COLOUR_JOKER, NUMBER_FACES, NUMBER_JOKER
from .dice import remove_faces
from .moves import PASS, Cross, move_groups

# --------------------------------------------------------------------------- precomputation
def _subset_info(sheet, mask: int):
    """(column counts, row counts, stars, size, neighbour mask) of a cell set; memoised on the sheet (a pure
    function of the sheet's fixed geometry)."""
    memo = sheet.bot_memo
    info = memo.get(mask)
    if info is None:
        cols: dict[int, int] = {}
        rows: dict[int, int] = {}
        m = mask
        while m:
            low = m & -m
            i = low.bit_length() - 1
            cols[i % N_COLS] = cols.get(i % N_COLS, 0) + 1
            rows[i // N_COLS] = rows.get(i // N_COLS, 0) + 1
            m ^= low
        info = memo[mask] = (tuple(cols.items()), tuple(rows.items()), (mask & sheet.star_mask).bit_count(),
                             mask.bit_count(), neighbours(mask))
    return info


def _gain_table(total: int, power: float) -> tuple[tuple[float, ...], ...]:
    """gain[n][k] = ((n+k)/total)^power - (n/total)^power: progress shaping, precomputed."""
    return tuple(tuple(((n + k) / total) ** power - (n / total) ** power if n + k <= total else 0.0
                       for k in range(6)) for n in range(total + 1))


_GAINS: dict[tuple[int, float], tuple] = {}


def gains(total: int, power: float):
    key = (total, power)
    g = _GAINS.get(key)
    if g is None:
        g = _GAINS[key] = _gain_table(total, power)
    return g


@dataclass(frozen=True)
class Weights:
    column: float = 1.0  # scale of the column-progress shaping
    colour: float = 1.0
    row: float = 0.0
    star: float = 2.0  # value of crossing a star (R-SCORE: -2 per uncrossed star)
    joker: float = 1.6  # cost of spending a "!"
    power: float = 2.0  # convexity of progress shaping
    fail: float = 0.0  # cost of a pass (co-op: a failed roll)
    cell: float = 0.05  # small value per cell crossed
    expand: float = 0.0  # value per free cell that becomes reachable (keeps the sheet open)
    flex: float = 0.0  # value per colour present on the reachable frontier after the move
    mission: bool = False  # co-op: score the mission's terms (rows, columns to complete or to leave open)


BASE_WEIGHTS = Weights(column=2.0, colour=0.375, star=3.0, joker=3.0, power=6.0, cell=0.05, expand=0.133)  # tuned on solo seeds 0-299


class SeatView:
    """What the heuristic needs about one seat; built once and kept while nothing it reads changes
    (:func:`seat_view`)."""

    __slots__ = ("g7", "g15", "g21", "sheet", "crossed", "reach", "col_n", "colour_n", "row_n", "col_val", "colour_val", "row_val",
                 "star_val", "nf_val", "col_done", "fail", "targets", "front", "memo")

    def __init__(self, state, seat: int, w: Weights, mission_bias=None) -> None:
        s = state.seats[seat]
        sh = s.sheet
        crossed = s.crossed
        game = state.game
        self.sheet = sh
        self.crossed = crossed
        self.g7, self.g15, self.g21 = gains(7, w.power), gains(15, w.power), gains(21, w.power)
        self.reach = ~(crossed | neighbours(crossed) | sh.start_mask) & FULL  # free cells not yet reachable
        self.col_n = [(crossed & cm).bit_count() for cm in COLUMN_MASKS]
        self.colour_n = [(crossed & cm).bit_count() for cm in sh.colour_masks]
        self.row_n = [(crossed & rm).bit_count() for rm in ROW_MASKS]
        claimed_c = state.claimed_columns
        # value of completing each column now (first or later points), 0 if already done
        self.col_val = [0.0 if c in s.columns else float(
            sh.later_points[c] if claimed_c >> c & 1 else sh.first_points[c]) for c in range(N_COLS)]
        first, later = game.colour_bonus
        self.colour_val = [0.0 if c in s.colours else float(later if state.claimed_colours >> c & 1 else first)
                           for c in range(5)]
        self.row_val = [0.0] * 7
        self.star_val = star_value(game, w)
        self.nf_val = 0.0
        self.targets = None  # co-op: [(weight, [(colour, its cells still to cross, their parts)], work)] (bots_coop.target)
        self.front = 0  # co-op (with targets): free cells a move may start from
        self.fail = w.fail  # cost of a pass (co-op: a failed roll)
        self.memo: dict[int, float] = {}  # cell mask -> score_cells value (kept with the view: a view never changes)
        self.col_done = None  # co-op: extra value of completing column c now (negative: too early)
        if mission_bias is not None:
            mission_bias(state, seat, self, w)


def star_value(game, w: Weights) -> float:
    """The heuristic's value of crossing a star (R-SCORE: minus points for each one left)."""
    return w.star * (game.star_penalty / 2 if game.star_penalty else 0)


def score_cells(view: SeatView, colour: int, cells: int, w: Weights) -> float:
    """Heuristic value of crossing ``cells`` (of ``colour``), "!" cost not included."""
    cols, rows, stars, size, nb = _subset_info(view.sheet, cells)
    v = w.cell * size + view.star_val * stars
    if w.expand:
        v += w.expand * (nb & view.reach).bit_count()
    if w.flex:
        crossed = view.crossed | cells
        front = (neighbours(crossed) | view.sheet.start_mask) & ~crossed
        v += w.flex * sum(1 for cm in view.sheet.colour_masks if front & cm)
    col_val, col_n, g7 = view.col_val, view.col_n, view.g7
    for c, k in cols:
        val = col_val[c]
        if val:
            v += w.column * val * g7[col_n[c]][k]
    cv = view.colour_val[colour]
    if cv:
        v += w.colour * cv * view.g21[view.colour_n[colour]][size]
    if w.mission:
        g15 = view.g15
        for r, k in rows:
            rv = view.row_val[r]
            if rv:
                v += w.row * rv * g15[view.row_n[r]][k]
        done = view.col_done
        if done is not None:
            for c, k in cols:
                if col_n[c] + k == 7:
                    v += done[c]
        if view.targets:
            reach = view.front | nb
            for wt, pieces, work0 in view.targets:
                work = 0
                for c, rest, parts in pieces:
                    if c == colour and cells & rest:
                        parts = components(rest & ~cells)
                    for p in parts:
                        work += 1 if p & reach else 2
                v += wt * (work0 - work)
    return v


def score_cross(view: SeatView, move: Cross, w: Weights) -> float:
    return score_cells(view, move.colour, move.cells, w) - w.joker * move.joker_cost


def seat_view(state, seat: int, w: Weights, bias) -> SeatView:
    """The seat's view, cached on the seat until its crosses or the firsts change (co-op: or
    anything else the mission terms read, ``bias.view_key``)."""
    s = state.seats[seat]
    key = (s.crossed, state.claimed_columns, state.claimed_colours, bias.view_key(state, seat) if bias else 0)
    cached = getattr(s, "_view", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    view = SeatView(state, seat, w, bias)
    s._view = (key, view)
    return view


# --------------------------------------------------------------------------- greedy
def _weights_for(state) -> tuple[Weights, object]:
    game = state.game
    if game.mode == "coop":
        from .bots_coop import coop_bias, coop_weights

        return coop_weights(game), coop_bias
    return BASE_WEIGHTS, None


def ranked_moves(state, seat: int | None = None, limit: int | None = None):
    """The legal actions of ``seat`` (default: the player to move) with heuristic values,
    best first (ties keep the engine's sorted order)."""
    if seat is None:
        seat = state.current_player()
    w, bias = _weights_for(state)
    view = seat_view(state, seat, w, bias)
    acts = state.legal_actions(seat)
    scored = [(-view.fail if a is PASS else score_cross(view, a, w), i, a) for i, a in enumerate(acts)]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(a, v) for v, _, a in (scored[:limit] if limit else scored)]


def _best_for_dice(state, seat: int, w: Weights, bias, colour_faces, number_faces, memo: dict | None = None,
                   view: SeatView | None = None):
    """(value, (cdie, ndie, colour, mask) or None) of ``seat``'s best move with these dice.
    ``memo`` (cell mask -> value for this seat) and ``view`` (the seat's :func:`seat_view`) may be
    shared by calls within one decision."""
    s = state.seats[seat]
    if view is None:
        view = seat_view(state, seat, w, bias)
    best, best_v = None, -view.fail
    if memo is None:
        memo = view.memo
    jw = w.joker
    for cdie, ndie, colour, masks in move_groups(s.table(), s.jokers_left, colour_faces, number_faces):
        cost = jw * ((cdie == COLOUR_JOKER) + (ndie == NUMBER_JOKER))
        for m in masks:
            v = memo.get(m)
            if v is None:
                v = memo[m] = score_cells(view, colour, m, w)
            v -= cost
            if v > best_v:
                best, best_v = (cdie, ndie, colour, m), v
    return best_v, best


def team_choices(state, w: Weights, bias) -> list:
    """Co-op: the active seat's dice decide what the others keep, so each of its dice pairs is
    scored by its own best move plus every passive seat's best move with the dice left (a pass
    frees all dice for the others). [(team value, action)], best first; ties keep the order of
    the dice pairs, a pass after the crosses."""
    seat = state.active
    cf, nf = state.dice_for(seat)
    others = [p for p in range(state.game.n_seats) if p != seat]
    views = {p: seat_view(state, p, w, bias) for p in range(state.game.n_seats)}
    memos = {p: v.memo for p, v in views.items()}  # per seat: its view's mask values
    replies: dict[tuple, float] = {}  # dice left -> the other seats' summed best values

    def others_value(colour_faces, number_faces) -> float:
        key = (colour_faces, number_faces)
        if key not in replies:
            replies[key] = sum(_best_for_dice(state, p, w, bias, colour_faces, number_faces, memos[p], views[p])[0]
                               for p in others)
        return replies[key]

    out = []
    for cdie in sorted(set(cf)):
        for ndie in sorted(set(nf)):
            own_v, own = _best_for_dice(state, seat, w, bias, (cdie,), (ndie,), memos[seat], views[seat])
            if own is not None:
                out.append((own_v + others_value(remove_faces(cf, cdie), remove_faces(nf, ndie)), Cross(*own)))
    out.append((-views[seat].fail + others_value(cf, nf), PASS))
    out.sort(key=lambda t: -t[0])  # stable: ties keep the order above, the pass last
    return out


def team_active_choice(state, w: Weights, bias):
    """Co-op: the active seat's choice for the team (the best of :func:`team_choices`)."""
    return team_choices(state, w, bias)[0][1]


#: co-op: let the active seat choose for the team (measured with nochmal simulate)
TEAM_ACTIVE = True


def team_choosing(state, seat: int) -> bool:
    """True when ``seat`` is the co-op active seat whose dice choice decides what the others keep."""
    return (TEAM_ACTIVE and state.game.mode == "coop" and seat == state.active and state.phase == "active"
            and state.game.n_seats > 1 and state.game.sets_aside(state))


def greedy_policy(state, rng: random.Random):
    """One move ahead: the legal action with the best heuristic value (ties: the first in
    the engine's sorted order). In co-op the active seat scores its choice for the team.
    Solo and base games decide in compiled code (:class:`GreedyKernel`, the same choices)."""
    seat = state.current_player()
    if seat < 0:  # a team decision (co-op penalties)
        return team_decision(state, rng)
    if COMPILED_GREEDY and state.game.mode != "coop":
        return _kernel_for(state.game, state.seats[seat].sheet).choose(state, seat)
    return _heuristic_choice(state, seat)


def reference_greedy(state, rng: random.Random | None = None):
    """:func:`greedy_policy` decided by the Python heuristic in every mode (what the compiled
    kernel is checked against)."""
    seat = state.current_player()
    if seat < 0:
        return team_decision(state, rng)
    return _heuristic_choice(state, seat)


def _heuristic_choice(state, seat: int):
    w, bias = _weights_for(state)
    if team_choosing(state, seat):
        return team_active_choice(state, w, bias)
    _, best = _best_for_dice(state, seat, w, bias, *state.dice_for(seat))
    return PASS if best is None else Cross(*best)


def team_decision(state, rng: random.Random):
    """Co-op penalties: strike "!" from the seats that have most left (the most even split that
    is left, ties: the smallest split); give up a die."""
    from .bots_coop import even_strike_due

    strike = even_strike_due(state)
    if strike is not None:
        return strike
    acts = state.legal_actions()
    if not acts:
        raise ValueError("no decision is due")
    # C-GOAL-19: which die to give up (REMOVE_DIE below; measured with nochmal simulate)
    return next((a for a in acts if getattr(a, "die", None) == REMOVE_DIE), acts[0])


REMOVE_DIE = "colour"


# --------------------------------------------------------------------------- planner
def _result_value(state, seat: int) -> float:
    """How good a finished (or cut-off) rollout is, seen from ``seat``/the team."""
    game = state.game
    if game.mode == "coop":
        from .bots_coop import coop_rollout_value

        return coop_rollout_value(state)
    return float(game.seat_score(state, seat).total)


class SoloSim:
    """Solo mode (R-SOLO-*) without building states: greedy's choice and whole rollouts,
    compiled (:mod:`nochmal.solosim`; one seat, every completion a first, nothing set aside).
    Chooses exactly what :func:`greedy_policy` chooses (a test checks it) at a small fraction of
    the cost, so the planner can afford many more rollouts."""

    def __init__(self, game, w: Weights = BASE_WEIGHTS) -> None:
        from . import solosim  # numba loads only when a solo game plans (~0.3 s to import)

        self.game = game
        self.sheet = game.sheets[0]
        self.w = w
        self.n_rolls = game.n_rolls
        self._k = solosim
        self._t = greedy_tables(game, self.sheet, w)

    def score(self, crossed: int, jokers_left: int) -> int:
        """R-SCORE of a finished solo sheet."""
        return int(self._k.score_one(self._k.bits_of(crossed), jokers_left, self._t.arrays))

    @staticmethod
    def after(seat, action) -> tuple[int, int]:
        """(crossed, "!" left) of ``seat`` once ``action`` (a cross or the pass) is made."""
        if isinstance(action, Cross):
            return seat.crossed | action.cells, seat.jokers_left - action.joker_cost
        return seat.crossed, seat.jokers_left

    def choose(self, crossed: int, jokers_left: int, colour_faces, number_faces):
        """Greedy's move as (cells, "!" spent), or None for a pass."""
        s, n_j, _c, _n, _col = _kernel_choice(self._k, self._t, self._k.bits_of(crossed), jokers_left,
                                              colour_faces, number_faces, 0, 0)
        return None if s < 0 else (self._t.masks[s], int(n_j))

    def draw(self, rng: random.Random, rolls: int):
        """``rolls`` rolls of 2 + 2 dice drawn as the engine draws them (R-SOLO-DICE)."""
        choice = rng.choice
        return np.array([(choice(COLOUR_FACES), choice(COLOUR_FACES), choice(NUMBER_FACES), choice(NUMBER_FACES))
                         for _ in range(rolls)], np.int64).reshape(rolls, 4)

    def rollout(self, crossed: int, jokers_left: int, next_roll: int, rng: random.Random) -> int:
        """Play greedy from roll ``next_roll`` (0-based) to the end; the final score."""
        return int(self.rollouts([(crossed, jokers_left)], self.draw(rng, self.n_rolls - next_roll))[0])

    def positions(self, starts):
        """(boards, "!" left) as the arrays :meth:`play` takes, for (crossed, "!" left) pairs."""
        boards = np.stack([self._k.bits_of(x) for x, _ in starts]) if starts else np.zeros((0, N_CELLS), np.bool_)
        return boards, np.array([jl for _, jl in starts], np.int64)

    def play(self, boards, jokers, dice):
        """Greedy from each position (arrays of :meth:`positions`) with the same ``dice``
        (shape (rolls, 4)); the final scores as a numpy array."""
        return self._k.play_many(boards, jokers, dice, self._t.arrays)

    def rollouts(self, starts, dice):
        """:meth:`play` from (crossed, "!" left) pairs."""
        return self.play(*self.positions(starts), dice)


def greedy_tables(game, sheet, w: Weights = BASE_WEIGHTS):
    """The compiled kernels' tables for ``sheet`` under ``game``'s scoring (cached on the sheet:
    base games are created by the thousand in sweeps, their sheets are shared)."""
    from . import solosim  # numba loads only when a compiled path is first used (~0.3 s to import)

    sv = star_value(game, w)
    key = ("greedy-tables", w, sv, tuple(game.colour_bonus), game.joker_value, game.star_penalty)
    tables = sheet.bot_memo.get(key)
    if tables is None:
        tables = sheet.bot_memo[key] = solosim.GreedyTables.build(game, sheet, w, sv, _subset_info)
    return tables


class GreedyKernel:
    """Greedy's decision outside co-op, compiled (:func:`nochmal.solosim.choose_one`): the move
    :func:`reference_greedy` makes, move for move and tie for tie (tests compare them), in a
    fraction of the time. Co-op decisions (mission terms, team choices) stay in Python."""

    def __init__(self, game, sheet) -> None:
        from . import solosim

        self._k = solosim
        self._t = greedy_tables(game, sheet)

    def choose(self, state, seat: int):
        """The greedy action of ``seat`` (a Cross or PASS) with the dice it may pick from."""
        s = state.seats[seat]
        k = self._k
        bits = s._bits
        if bits is None or bits[0] != s.crossed:
            bits = s._bits = (s.crossed, k.bits_of(s.crossed))
        i, _nj, cdie, ndie, colour = _kernel_choice(k, self._t, bits[1], s.jokers_left, *state.dice_for(seat),
                                                    state.claimed_columns, state.claimed_colours)
        return PASS if i < 0 else Cross(int(cdie), int(ndie), int(colour), self._t.masks[i])


_NO_DICE = (-1, -1, -1)


def _kernel_choice(solosim, tables, bits, jokers_left: int, colour_faces, number_faces, claimed_cols: int,
                   claimed_colours: int):
    """``solosim.choose_one`` (the module, loaded by the caller) with 1-3 faces of each kind, the
    rest padded as no die: (cell set index or -1, "!" spent, colour die, number die, colour)."""
    cf, nf = tuple(colour_faces) + _NO_DICE, tuple(number_faces) + _NO_DICE
    return solosim.choose_one(bits, jokers_left, cf[0], cf[1], cf[2], nf[0], nf[1], nf[2], claimed_cols,
                              claimed_colours, tables.arrays)


def _kernel_for(game, sheet) -> GreedyKernel:
    kernels = getattr(game, "_kernels", None)
    if kernels is None:
        kernels = game._kernels = {}
    kernel = kernels.get(id(sheet))  # the game holds its sheets, so the ids stay theirs
    if kernel is None:
        kernel = kernels[id(sheet)] = GreedyKernel(game, sheet)
    return kernel


#: base and solo games decide greedy's moves in compiled code (False: the Python heuristic)
COMPILED_GREEDY = True


def solo_sim(game) -> SoloSim | None:
    """The game's :class:`SoloSim` (cached on the game), or None when the game is not solo."""
    from .decisions import SOLO_ENDS_ON_SECOND_COLOUR

    if game.mode != "solo" or game.n_seats != 1 or SOLO_ENDS_ON_SECOND_COLOUR:
        return None
    sim = getattr(game, "_solo_sim", None)
    if sim is None:
        sim = game._solo_sim = SoloSim(game)
    return sim


def rollout(state, rng: random.Random, seat: int, horizon: int | None = None) -> float:
    st = state
    end_roll = st.roll_index + horizon if horizon else None
    while not st.is_terminal():
        if end_roll is not None and st.roll_index >= end_roll and st.is_chance_node():
            break
        if st.is_chance_node():
            st.apply(st.sample_roll(rng))
        else:
            st.apply(greedy_policy(st, rng))
    return _result_value(st, seat)


@dataclass(frozen=True)
class PlannerConfig:
    candidates: int = 6  # greedy's best moves considered (plus pass when it is not among them)
    rollouts: int = 24  # simulations per candidate at most (common random numbers across candidates)
    work: int | None = None  # stop adding rollouts once this many simulated actions were played
    #                          (rolls and decisions; deterministic, unlike a time budget); None = no cap
    horizon: int | None = None  # rolls to simulate; None = to the end
    budget_s: float | None = None  # optional wall-clock cap (makes play depend on the machine's speed)
    halving: bool = False  # successive halving: at the cut points below keep the better half
    halving_at: tuple[int, ...] = (6, 2)  # cut after rollouts // d rollouts, for each d
    margin: float = 0.0  # keep greedy's choice unless another candidate's mean beats it by this much
    switch_z: float | None = None  # ... and unless its rollouts beat greedy's choice's, paired rollout by
    #                                rollout (same dice), by this many standard errors (None: no test)
    active_only: bool = False  # co-op with several seats: plan the active seat's choice for the team
    #                            (its dice decide what everybody keeps); the passive seats play greedy


#: simulated actions a rollout search may play per decision, by mode (the planner's cap; the
#: advisor's budget at ``budget=1.0``). Calibrated on a 2-CPU machine: a 6-seat co-op decision
#: takes ~0.4 s (median), ~1 s at most (a co-op bot decision costs ~0.3-0.6 ms, a base one ~0.08 ms).
WORK_BUDGET = {"coop": 2500, "base": 14000, "solo": 14000}

#: co-op with several seats the planner plans once a turn (the active seat's team choice), so it
#: may spend more on it: ~0.7 s a 6-seat decision (``planner_decision_s``; ~1.0 s on a slower machine, see docs/bots.md)
COOP_PLAN_WORK = 4000

#: the planner's settings by mode, measured with ``nochmal simulate`` and ``nochmal bench``:
#: solo rolls out in compiled code (:class:`SoloSim`, ~30 µs a game): 20 candidates, up to 480
#: rollouts, halving after 60, 120 and 240 (measured: 25.7 with 12 candidates, 25.6 with 12 x 960,
#: 26.2 with 20 x 480 on 200 seeded games); a co-op rollout plays every seat through the engine with the mission checks
#: (~0.3-0.6 ms a decision), so its work cap keeps a 6-seat decision under a second. Co-op keeps
#: greedy's choice unless another candidate's rollouts beat it, paired by dice, by 1.25 standard
#: errors (measured on 129 held-out co-op decisions rolled out 160 times each, see docs/bots.md:
#: with 3-6 seats the planner gained +0.0029 a decision that way, +0.0005 with the 0.05 margin before).
PLANNER_CONFIGS = {
    "solo": PlannerConfig(candidates=20, rollouts=480, halving=True, halving_at=(8, 4, 2)),
    "base": PlannerConfig(candidates=6, rollouts=24, work=WORK_BUDGET["base"]),
    "coop": PlannerConfig(candidates=6, rollouts=24, work=COOP_PLAN_WORK, switch_z=1.25, active_only=True),
}


def planner_config(game) -> PlannerConfig:
    return PLANNER_CONFIGS.get(game.mode, PLANNER_CONFIGS["base"])


def plan(state, rng: random.Random, cfg: PlannerConfig | None = None, seat: int | None = None):
    """Monte-Carlo evaluation of the best candidates: [(action, mean value, n)] best first."""
    cfg = cfg or planner_config(state.game)
    if seat is None:
        seat = state.current_player()
    if seat < 0:  # a team decision (co-op penalties): greedy's own first, then the closest alternatives
        own = team_decision(state, rng)
        cands = [own] + [a for a in _decision_alternatives(state) if a != own][: cfg.candidates - 1]
        seat_for_value = 0
    elif team_choosing(state, seat):
        # the co-op active seat: its best choices for the team (greedy's own first), then the pass
        w, bias = _weights_for(state)
        cands = [a for _, a in team_choices(state, w, bias)][: cfg.candidates]
        if PASS not in cands:
            cands.append(PASS)
        seat_for_value = seat
    else:
        if cfg.active_only and state.game.mode == "coop" and state.game.n_seats > 1:
            return [(greedy_policy(state, rng), 0.0, 0)]
        # greedy's own choice first, then the heuristic's best moves, then the pass
        own = greedy_policy(state, rng)
        cands = [own] + [a for a, _ in ranked_moves(state, seat, cfg.candidates) if a != own][: cfg.candidates - 1]
        if PASS not in cands:
            cands.append(PASS)
        seat_for_value = seat
    if len(cands) == 1:
        return [(cands[0], 0.0, 0)]
    totals = [0.0] * len(cands)
    # paired with candidate 0 (greedy's choice) rollout by rollout: sums of the differences and their squares
    dsum, dsq = [0.0] * len(cands), [0.0] * len(cands)
    n = work = 0
    t0 = time.perf_counter()
    base_seed = rng.getrandbits(32)
    sim = solo_sim(state.game) if cfg.horizon is None and seat == 0 and state.phase == "active" else None
    if sim is not None:  # solo: compiled rollouts (the same play as the state-based rollout)
        boards, jokers = sim.positions([sim.after(state.seats[0], a) for a in cands])
        nxt = state.roll_index + 1
    alive = list(range(len(cands)))
    counts = [0] * len(cands)
    cut = tuple(max(2 + i, cfg.rollouts // d) for i, d in enumerate(cfg.halving_at)) if cfg.halving else ()
    while n < cfg.rollouts:
        if n in cut and len(alive) > 2:  # drop the worse half: the rollouts go where the choice is close
            alive.sort(key=lambda j: (-totals[j], j))
            alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
        if sim is not None:  # every candidate still in the race with the same dice, in one call
            scores = sim.play(boards[alive], jokers[alive], sim.draw(random.Random(base_seed + n), sim.n_rolls - nxt))
            for j, v in zip(alive, scores.tolist()):
                counts[j] += 1
                totals[j] += v
            work += 2 * (sim.n_rolls - nxt) * len(alive)
        else:
            v0 = None
            for j in alive:
                counts[j] += 1
                st = state.clone()
                st.history = []
                st.apply(cands[j], seat if seat >= 0 else None)
                v = rollout(st, random.Random(base_seed + n), seat_for_value, cfg.horizon)
                totals[j] += v
                work += len(st.history)
                if j == 0:
                    v0 = v
                elif v0 is not None:
                    dsum[j] += v - v0
                    dsq[j] += (v - v0) ** 2
        n += 1
        if n >= 2 and ((cfg.work is not None and work >= cfg.work)
                       or (cfg.budget_s is not None and time.perf_counter() - t0 > cfg.budget_s)):
            break
    # a candidate dropped by halving keeps the mean of its own rollouts (and ranks after the finalists)
    mean = [totals[j] / counts[j] for j in range(len(cands))]
    ranked = sorted(range(len(cands)), key=lambda j: (j not in alive, -mean[j], j))
    if (ranked[0] != 0 and (cfg.margin or cfg.switch_z is not None)
            and not _clearly_better(cfg, mean, ranked[0], counts, dsum, dsq)):
        # few, noisy rollouts: leave greedy's choice (candidate 0) only for a clearly better one
        ranked.remove(0)
        ranked.insert(0, 0)
    return [(cands[j], mean[j], counts[j]) for j in ranked]


def _decision_alternatives(state) -> list:
    """A team decision's legal actions, the likeliest good ones first: C-GOAL-10 splits by how
    evenly they leave the "!" spread (as :func:`nochmal.bots_coop.even_split` measures it), then
    as the engine lists them."""
    acts = list(state.legal_actions())
    lefts = [s.jokers_left for s in state.seats]

    def spread(a) -> int:
        per = getattr(a, "per_seat", None)
        if per is None:
            return 0
        after = [left - k for left, k in zip(lefts, per)]
        return max(after) - min(after)

    return sorted(acts, key=spread)  # stable: ties keep the engine's order


def _clearly_better(cfg: PlannerConfig, mean, j: int, counts, dsum, dsq) -> bool:
    """Does candidate ``j`` beat greedy's choice (candidate 0) clearly enough to be played instead:
    by the margin, and (``switch_z``) by ``switch_z`` standard errors of the paired differences of
    their rollouts (the same dice for both)?"""
    if mean[j] - mean[0] < cfg.margin:
        return False
    if cfg.switch_z is None:
        return True
    k = counts[j]
    if k < 2 or counts[0] < k:
        return False
    d = dsum[j] / k
    var = max(SWITCH_SD_FLOOR ** 2, (dsq[j] - k * d * d) / (k - 1))
    return d > cfg.switch_z * math.sqrt(var / k)


#: the paired test takes the differences' standard deviation as at least this (1 % of a win), so a
#: few rollouts that happen to differ by the same amount are no proof on their own
SWITCH_SD_FLOOR = 0.01


def make_planner(cfg: PlannerConfig | None = None):
    """The planner policy; ``cfg`` None: the settings for the game's mode (:data:`PLANNER_CONFIGS`)."""

    def planner_policy(state, rng: random.Random):
        if state.current_player() >= 0:
            acts = state.legal_actions()
            if len(acts) == 1:
                return acts[0]
        return plan(state, rng, cfg)[0][0]

    return planner_policy


planner_policy = make_planner()


# --------------------------------------------------------------------------- bench
def _decision_times(st, policy, rng: random.Random) -> list[float]:
    """Play ``st`` to the end with ``policy``; the seconds each decision took."""
    times = []
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply(st.sample_roll(rng))
            continue
        t0 = time.perf_counter()
        a = policy(st, rng)
        times.append(time.perf_counter() - t0)
        st.apply(a)
    return times


def bench_bots(quick: bool = False) -> dict:
    from .coop import CoopGame
    from .game import BaseGame, SoloGame

    rng = random.Random(3)
    samples = []
    for g in range(20 if quick else 200):
        samples += _decision_times(BaseGame(["standard", "red", "blue", "green"]).new_state(), greedy_policy, rng)
    out = {"greedy_decision_us": round(statistics.median(samples) * 1e6, 2)}
    # planner on 6-seat co-op positions (mid-game, greedy play to get there)
    ptimes = []
    for k in range(2 if quick else 6):
        st = CoopGame.create(6, mission=1 + k % 5).new_state()
        r = random.Random(k)
        while not st.is_terminal() and st.roll_index < 8:
            st.apply(st.sample_roll(r) if st.is_chance_node() else greedy_policy(st, r))
        if st.is_terminal():
            continue
        if st.is_chance_node():
            st.apply(st.sample_roll(r))
        t0 = time.perf_counter()
        plan(st, r)
        ptimes.append(time.perf_counter() - t0)
    out["planner_decision_s"] = round(statistics.median(ptimes), 3) if ptimes else None
    # the solo planner (its own settings) over whole games
    stimes = []
    for k in range(1 if quick else 3):
        stimes += _decision_times(SoloGame(["standard"]).new_state(), planner_policy, random.Random(100 + k))
    out["planner_solo_decision_s"] = round(statistics.median(stimes), 3)
    return out
