"""The exactly optimal practice player of *twenty one* (T-PRACTICE): the policy that maximises the
expected score of one player alone on one sheet, by dynamic programming over every roll.

**Why the game splits into rows.** In practice the player enters in the current row only
(T-ENTER, T-ONE-ROW), a row is scored the moment it is full (T-ROW-SCORE: its numbers plus the
bonus for its hits) and nothing of a row carries into the next: the next row starts empty and the
rounds are not counted (the game ends when the fifth row is scored, however many rounds that
took). So the total is the sum of five row scores, each row's rounds are played until it is full,
and the best policy for a row does not depend on the other rows: the optimum of the game is the
sum of five independent row optima, one per row (the rows' printed values may differ).

**The state of a row** is (fields filled, as a bit mask over the six fields; hits so far). The
numbers already entered are sunk (they add to the score whatever happens next); only the hits
matter for the future, because the bonus is not linear in them. ``V[mask, h]`` is the expected
sum of the numbers still to come plus the row's final bonus, and ``V[full, h] = bonus(h)``.

**A round from (mask, h)**: the dice of filled fields cannot be entered, so only the ``k`` dice of
free fields matter (6^k outcomes). For final faces ``y`` the best action is worth::

    W(y) = max( V[mask | leftmost free, h],                                # T-CROSS
                max over non-empty S of dice that fit:  sum(y_S) + V[mask | S, h + hits(S)] )

After the first attempt ``x`` the player keeps (``W(x)``) or tries again; the second attempt keeps
the dice showing 1 (set ``O(x)``) and rolls the others, worth ``R[O] = E[W(y) | y_O = 1]``. So
``V[mask, h] = E_x[ max(W(x), R[O(x)]) ]``. Every action fills at least one field, so the masks are
solved from full to empty, and every expectation is an exact average over all 6^k outcomes: the
value is exact (up to floating-point rounding), not sampled. The colours of the fields do not
enter: the six dice are alike but for their colour, and each colour has one field per row, so
which die goes where only relabels the outcomes. The optimum depends on the printed values alone,
and the disk cache is keyed on them (the six stand-in sheets share one table).

The tables kept for play are ``V`` and ``R`` (per mask, hits and set of 1s); the keep-or-again
and the entry decisions are then a few dozen additions at the table (:class:`OptimalPractice`).
Vectorised with numpy (a bots-wing module); no compiled kernel.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np

from nochmal.engine.twentyone.actions import AGAIN, KEEP, CrossOut, Enter
from nochmal.engine.twentyone.components import BONUS, FACES, KEPT_FACE
from nochmal.engine.twentyone.entries import Fit, cross_field, fitting_dice
from nochmal.engine.twentyone.game import CHOOSE, ENTER, TwentyOneState
from nochmal.engine.twentyone.sheets import TwentyOneSheet

#: bump when the tables' layout or meaning changes: old cache files are then ignored
FORMAT = 1


@dataclass(frozen=True)
class RowTables:
    """The solved row with printed ``values`` (left to right) and dice showing 1..``faces``.

    ``V[mask, h]``: expected numbers still to come plus final bonus (see the module docstring).
    ``R[mask, h, ones]``: the worth of a second attempt from (mask, h) when the dice of the free
    fields in ``ones`` show 1 (``ones`` a mask over fields; only subsets of the free fields used)."""

    values: tuple[int, ...]
    faces: int
    V: np.ndarray
    R: np.ndarray
    #: the worth at the end of a round (:func:`solve_row`'s hazard and carry); None: ``V``
    after: np.ndarray | None = None

    @property
    def next_worth(self) -> np.ndarray:
        """What an action's resulting (mask, hits) is worth: ``after`` if solved for a race, else ``V``."""
        return self.V if self.after is None else self.after

    @property
    def expected(self) -> float:
        """The expected score of the row under the optimal policy."""
        return float(self.V[0, 0])


def _outcomes(k: int, faces: int) -> np.ndarray:
    """Every outcome of ``k`` dice as rows of faces (1..faces), the first die varying slowest."""
    grid = np.indices((faces,) * k).reshape(k, -1).T
    return grid + 1


def solve_row(values: tuple[int, ...], faces: int = len(FACES), second_attempt: bool = True,
              hazard: float = 0.0, carry: float = 0.0) -> RowTables:
    """Solve one row exactly (module docstring). ``values`` may be any length n with n+1 <= len(BONUS)
    (a reduced game for tests: fewer fields, fewer faces). ``second_attempt=False`` solves the row
    for a player who never tries again (what the second attempt is worth is the difference).

    ``hazard`` and ``carry`` are for the multiplayer race (:mod:`nochmal.bots.twentyone_race`):
    after every round the game ends with probability ``hazard`` (an opponent scored their fifth
    row, T-END), and the row is then scored as it stands (T-END-PARTIAL); a row filled in the round
    is worth its bonus plus ``carry`` (what the rows below it are worth) if the game goes on.
    The tables then hold in ``after`` the worth of a position at the end of a round (what an
    action leads to). With the defaults (0, 0) ``after`` is ``V`` exactly: the practice optimum."""
    values = tuple(int(v) for v in values)
    n = len(values)
    full = (1 << n) - 1
    V = np.zeros((1 << n, n + 1))
    R = np.zeros((1 << n, n + 1, 1 << n))
    T = np.zeros((1 << n, n + 1))  # the worth at the end of a round: the race's hazard and carry applied
    go_on = 1.0 - hazard
    for h in range(n + 1):
        V[full, h] = BONUS[h]
        T[full, h] = BONUS[h] + go_on * carry
    for mask in sorted(range(full), key=lambda m: -bin(m).count("1")):
        free = [p for p in range(n) if not mask >> p & 1]
        k = len(free)
        filled = n - k
        ys = _outcomes(k, faces)  # (6^k, k)
        printed = np.array([values[p] for p in free])
        fits = ys <= printed
        hit = ys == printed
        ones = ((ys == KEPT_FACE) * (1 << np.arange(k))).sum(axis=1)  # local mask of 1s
        cross_mask = mask | (1 << free[0])
        hs = range(filled + 1)
        w = {h: np.full(len(ys), T[cross_mask, h]) for h in hs}  # T-CROSS
        # every subset S of the free dice (a local bit mask), built from S without its lowest bit
        ok = {0: np.ones(len(ys), bool)}
        num = {0: np.zeros(len(ys), np.int8)}
        hits = {0: np.zeros(len(ys), np.int8)}
        for s in range(1, 1 << k):
            j = (s & -s).bit_length() - 1
            rest = s & (s - 1)
            ok[s] = ok[rest] & fits[:, j]
            num[s] = num[rest] + ys[:, j].astype(np.int8)
            hits[s] = hits[rest] + hit[:, j].astype(np.int8)
            new_mask = mask | sum(1 << free[i] for i in range(k) if s >> i & 1)
            for h in hs:
                value = num[s] + T[new_mask][h + hits[s]]
                np.maximum(w[h], np.where(ok[s], value, -np.inf), out=w[h])
        for h in hs:
            wk = w[h].reshape((faces,) * k)
            local_R = np.empty(1 << k)
            for o in range(1 << k):  # the dice in o show 1 and stay; the others are rolled again
                index = tuple(0 if o >> i & 1 else slice(None) for i in range(k))
                local_R[o] = float(np.mean(wk[index]))
                R[mask, h, sum(1 << free[i] for i in range(k) if o >> i & 1)] = local_R[o]
            V[mask, h] = float(np.mean(np.maximum(w[h], local_R[ones]) if second_attempt else w[h]))
            T[mask, h] = V[mask, h] if hazard == 0 else hazard * BONUS[h] + go_on * V[mask, h]
    return RowTables(values, faces, V, R, T)


# --------------------------------------------------------------------------- the disk cache
def cache_dir() -> Path:
    """``$NOCHMAL_HOME/cache/twentyone`` if set, else the user's cache folder."""
    base = os.environ.get("NOCHMAL_HOME")
    if base:
        return Path(base) / "cache" / "twentyone"
    try:
        from platformdirs import user_cache_dir
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        return Path(tempfile.gettempdir()) / "nochmal-cache" / "twentyone"
    return Path(user_cache_dir("nochmal")) / "twentyone"


def cache_key(values: tuple[int, ...], faces: int) -> str:
    """What a row's tables depend on: its printed values, the die's faces, the bonus table, the format."""
    facts = [FORMAT, list(values), faces, list(BONUS)]
    return hashlib.sha256(json.dumps(facts).encode()).hexdigest()[:16]


def row_tables(values: tuple[int, ...], faces: int = len(FACES), directory: Path | None = None) -> RowTables:
    """:func:`solve_row`, read from the disk cache if solved before (written there otherwise). A cache
    file that cannot be read is solved afresh and rewritten."""
    directory = cache_dir() if directory is None else Path(directory)
    path = directory / f"row-{cache_key(tuple(values), faces)}.npz"
    try:
        with np.load(path) as data:
            if tuple(data["values"].tolist()) == tuple(values) and int(data["faces"]) == faces:
                return RowTables(tuple(values), faces, data["V"], data["R"])
    except (OSError, KeyError, ValueError):
        pass
    tables = solve_row(tuple(values), faces)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, suffix=".npz")
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, values=np.array(values), faces=np.array(faces), V=tables.V, R=tables.R)
        os.replace(tmp, path)
    except OSError:  # a read-only place: play on without the cache
        pass
    return tables


def sheet_tables(sheet: TwentyOneSheet, directory: Path | None = None) -> tuple[RowTables, ...]:
    """One solved row per row of ``sheet`` (rows with the same values share their tables)."""
    solved: dict[tuple[int, ...], RowTables] = {}
    for values in sheet.value_at:
        if values not in solved:
            solved[values] = row_tables(values, directory=directory)
    return tuple(solved[v] for v in sheet.value_at)


def expected_score(sheet: TwentyOneSheet, directory: Path | None = None) -> float:
    """The optimal expected practice score of ``sheet``: the sum of its rows' optima."""
    return float(sum(t.expected for t in sheet_tables(sheet, directory)))


# --------------------------------------------------------------------------- playing it
def best_entry(tables: RowTables, mask: int, h: int, fits: tuple[Fit, ...]) -> tuple[float, Enter | CrossOut]:
    """The best action for dice ``fits`` in a row at (mask, h) and its worth ``W``: the cross-out or
    the subset of fits with the most numbers plus ``V`` after it (ties: the first found, the
    cross-out first, then by size and colour)."""
    p = cross_field(mask)
    worth = tables.next_worth
    best, action = float(worth[mask | (1 << p), h]), CrossOut(p)
    for size in range(1, len(fits) + 1):
        for subset in combinations(fits, size):
            new_mask = mask
            gain = hits = 0
            for f in subset:
                new_mask |= 1 << f.field
                gain += f.face
                hits += f.hit
            value = gain + float(worth[new_mask, h + hits])
            if value > best:
                best, action = value, Enter(tuple(f.colour for f in subset))
    return best, action


def _row_position(state: TwentyOneState, seat: int) -> tuple[int, int, int]:
    """(row, filled mask, hits so far) of ``seat``'s current row."""
    s = state.seats[seat]
    printed = s.sheet.value_at[s.row]
    hits = sum(1 for v, p in zip(s.marks[s.row], printed) if v and v == p)
    return s.row, s.filled, hits


class OptimalPractice:
    """The optimal practice policy for a seat's sheet, as ``policy(state, rng)`` for
    :func:`nochmal.engine.twentyone.play`: keeps the first attempt when it is worth at least the
    second, and enters the best subset (or crosses out). With more players it plays each sheet as
    if alone (no race to row 5)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory
        self._tables: dict[tuple[tuple[int, ...], ...], tuple[RowTables, ...]] = {}  # by the sheet's values

    def tables(self, sheet: TwentyOneSheet) -> tuple[RowTables, ...]:
        if sheet.value_at not in self._tables:
            self._tables[sheet.value_at] = sheet_tables(sheet, self.directory)
        return self._tables[sheet.value_at]

    def row_tables_for(self, state: TwentyOneState, seat: int) -> RowTables:
        """The tables ``seat`` decides by in its current row (a subclass may choose others: the race)."""
        s = state.seats[seat]
        return self.tables(s.sheet)[s.row]

    def second_attempt(self, state: TwentyOneState) -> bool:
        """Whether the active seat should try again: the worth of rolling its free fields' non-1
        dice again is more than that of the best action on the first attempt."""
        seat = state.active
        s = state.seats[seat]
        row, mask, h = _row_position(state, seat)
        tables = self.row_tables_for(state, seat)
        keep, _ = best_entry(tables, mask, h, fitting_dice(s.sheet, row, mask, state.dice.faces))
        ones = 0
        for colour, face in enumerate(state.dice.faces):
            p = s.sheet.field_of[row][colour]
            if face == KEPT_FACE and not mask >> p & 1:
                ones |= 1 << p
        return float(tables.R[mask, h, ones]) > keep

    def __call__(self, state: TwentyOneState, rng=None):
        if state.phase == CHOOSE:
            return AGAIN if AGAIN in state.legal_actions() and self.second_attempt(state) else KEEP
        if state.phase == ENTER:
            seat = state.current_player()
            _row, mask, h = _row_position(state, seat)
            return best_entry(self.row_tables_for(state, seat), mask, h, state.fits(seat))[1]
        raise ValueError(f"no player decision is due (phase {state.phase})")

