"""Glue between the bots and the compiled solo and base kernels (:mod:`nochmal.bots.kernel.solo`, numba): the
kernels' tables for a sheet (:func:`greedy_tables`), greedy's single decision outside co-op
(:class:`GreedyKernel`) and whole solo games without building states (:class:`SoloSim`, the
solo planner's and the advisor's rollouts). Both choose exactly what the Python heuristic
(:func:`nochmal.bots.greedy.reference_greedy`) chooses; tests compare them move by move.
Python twins: :func:`nochmal.bots.greedy.greedy_policy` outside co-op and the solo planner's
state-based rollouts (:func:`nochmal.bots.planner.rollout`).

numba loads only when a compiled path is first used (~0.3 s to import the kernels), so the
kernels are imported inside the functions that use them.
"""

from __future__ import annotations

import functools
import random

import numpy as np

from nochmal.bots.heuristic import BASE_WEIGHTS, Weights, star_value, subset_info
from nochmal.engine.cells import N_CELLS
from nochmal.engine.dice import COLOUR_FACES, NUMBER_FACES
from nochmal.engine.moves import PASS, Cross


def greedy_tables(game, sheet, w: Weights = BASE_WEIGHTS):
    """The compiled kernels' tables for ``sheet`` under ``game``'s scoring (cached on the sheet:
    base games are created by the thousand in sweeps, their sheets are shared)."""
    from . import solo  # numba loads only when a compiled path is first used (~0.3 s to import)

    sv = star_value(game, w)
    key = ("greedy-tables", w, sv, tuple(game.colour_bonus), game.joker_value, game.star_penalty)
    tables = sheet.bot_memo.get(key)
    if tables is None:
        tables = sheet.bot_memo[key] = solo.GreedyTables.build(game, sheet, w, sv, subset_info)
    return tables


_NO_DICE = (-1, -1, -1)


def _kernel_choice(solo, tables, bits, jokers_left: int, colour_faces, number_faces, claimed_cols: int,
                   claimed_colours: int):
    """``solo.choose_one`` (the module, loaded by the caller) with 1-3 faces of each kind, the
    rest padded as no die: (cell set index or -1, "!" spent, colour die, number die, colour)."""
    cf, nf = tuple(colour_faces) + _NO_DICE, tuple(number_faces) + _NO_DICE
    return solo.choose_one(bits, jokers_left, cf[0], cf[1], cf[2], nf[0], nf[1], nf[2], claimed_cols,
                              claimed_colours, tables.arrays)


class GreedyKernel:
    """Greedy's decision outside co-op, compiled (:func:`nochmal.bots.kernel.solo.choose_one`): the move
    :func:`nochmal.bots.greedy.reference_greedy` makes, move for move and tie for tie (tests compare
    them), in a fraction of the time. Co-op decisions (mission terms, team choices) stay in Python."""

    def __init__(self, game, sheet) -> None:
        from . import solo

        self._k = solo
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


def kernel_for(game, sheet) -> GreedyKernel:
    """The game's :class:`GreedyKernel` for one of its sheets (cached on the game)."""
    cache = getattr(game, "_kernels", None)
    if cache is None:
        cache = game._kernels = {}
    kernel = cache.get(id(sheet))  # the game holds its sheets, so the ids stay theirs
    if kernel is None:
        kernel = cache[id(sheet)] = GreedyKernel(game, sheet)
    return kernel


class SoloSim:
    """Solo mode (R-SOLO-*) without building states: greedy's choice and whole rollouts,
    compiled (:mod:`nochmal.bots.kernel.solo`; one seat, every completion a first, nothing set aside).
    Chooses exactly what :func:`nochmal.bots.greedy.greedy_policy` chooses (a test checks it) at a
    small fraction of the cost, so the planner can afford many more rollouts."""

    def __init__(self, game, w: Weights = BASE_WEIGHTS) -> None:
        from . import solo  # numba loads only when a solo game plans (~0.3 s to import)

        self.game = game
        self.sheet = game.sheets[0]
        self.w = w
        self.n_rolls = game.n_rolls
        self._k = solo
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

    def candidate_starts(self, state, seat: int, cands):
        """The rollouts' starts once ``seat`` makes each of ``cands`` in ``state``'s current roll:
        (boards, "!" left) as :meth:`positions` gives them, and the rolls left after this one."""
        boards, jokers = self.positions([self.after(state.seats[seat], a) for a in cands])
        return boards, jokers, self.n_rolls - state.roll_index - 1

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

    @functools.cached_property
    def values(self):
        """The sheet's fitted completion tables (:mod:`nochmal.bots.solo_values`), or None; looked
        up once per simulator (every rollout batch of a planner decision reads it)."""
        from nochmal.bots.solo_values import tables_for

        return tables_for(self)

    @property
    def rollout_policy(self) -> str:
        """What :meth:`play_rollouts` plays: ``"tables"`` where the sheet has fitted tables, else ``"greedy"``."""
        return "greedy" if self.values is None else "tables"

    def play_rollouts(self, boards, jokers, dice):
        """The planner's and the advisor's rollouts: :meth:`play_values` where the sheet has
        fitted tables (a stronger policy than greedy), else :meth:`play`."""
        vt = self.values
        return self.play(boards, jokers, dice) if vt is None else self.play_values(boards, jokers, dice, vt)

    def play_values(self, boards, jokers, dice, vt):
        """The table policy (tables ``vt``) from each position with the same ``dice``, the
        game's last ``len(dice)`` rolls; the final scores."""
        if vt is None:
            raise ValueError(f"no fitted solo tables for the sheet {self.sheet.id!r} (nochmal fit-solo-values)")
        return self._k.play_values_many(boards, jokers, dice, self._t.arrays, vt)

    def choose_values(self, crossed: int, jokers_left: int, colour_faces, number_faces, rolls_after: int, vt):
        """The table policy's move as (cells, "!" spent), or None for a pass; ``rolls_after``:
        the rolls the game has left after this one."""
        (c1, c2), (n1, n2) = colour_faces, number_faces
        s, n_j, _c, _n, _col = self._k.choose_values(self._k.bits_of(crossed), jokers_left, c1, c2, n1, n2,
                                                      rolls_after, self._t.arrays, vt)
        return None if s < 0 else (self._t.masks[s], int(n_j))


def solo_sim_plays(game) -> bool:
    """Whether :class:`SoloSim` plays ``game`` exactly as the engine would: one seat (every
    completion a first, nothing set aside), a fixed number of rolls of 2 colour + 2 number dice
    with no early end, and greedy's plain heuristic (no mission, no team)."""
    return (game.n_seats == 1 and game.n_rolls is not None and not game.ends_on_second_colour
            and (game.n_colour_dice, game.n_number_dice) == (2, 2)
            and not game.cooperative and not game.has_mission)


def solo_sim(game) -> SoloSim | None:
    """The game's :class:`SoloSim` (cached on the game), or None when it does not play the game
    (:func:`solo_sim_plays`: solo games)."""
    if not solo_sim_plays(game):
        return None
    sim = getattr(game, "_solo_sim", None)
    if sim is None:
        sim = game._solo_sim = SoloSim(game)
    return sim
