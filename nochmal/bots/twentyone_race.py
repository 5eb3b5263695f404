"""The multiplayer bot of *twenty one*: the optimal practice player's values plus a term for the
race to row 5 (issue 44 item 6).

**The race.** With more players the game ends after the round in which anyone scores a fifth
row (T-END); everybody else then scores the row they are in as it stands (T-END-PARTIAL), and
the rows below it count nothing. The practice optimum (:mod:`nochmal.bots.twentyone_optimum`)
plays as if it had all the time in the world: it waits for the roll that makes a hit, and loses
its last rows when an opponent is faster.

**The term.** The bot solves each row as the optimum does, but with a *hazard* ``p``: after every
round the game ends with probability ``p`` (the row is then scored as it stands), and a filled
row is worth its bonus plus what the rows below it are worth if the game goes on (solved from
row 5 upwards with the same ``p``; :func:`nochmal.bots.twentyone_optimum.solve_row`'s ``hazard``
and ``carry``). With ``p = 0`` these are the practice tables, decision for decision; with
``p = 1`` (the game ends after this round for sure) the best entry is every die that fits.

``p`` is read from the race, before every decision: for each opponent the rounds they still need,
their free fields (to the end of row 5) over their pace so far (fields per round, starting from
the optimum's pace); ``p = weight / min(rounds)``, clipped to [0, 1] and rounded to a grid of
hazards (each solved once per sheet's printed values and kept). An opponent who has scored their
fifth row in this round ends the game for certain: ``p = 1``. ``weight`` (default
:data:`DEFAULT_WEIGHT`, chosen by ``tools/twentyone_bench.py``) is the tunable weight of the term:
0 plays the practice optimum.

The active bot decides the second attempt for its own sheet (the tables of its own row, as the
optimum does). Numpy through the optimum's solver; no compiled kernel.
"""

from __future__ import annotations

from pathlib import Path

from nochmal.bots.twentyone_optimum import OptimalPractice, RowTables, solve_row
from nochmal.engine.twentyone.components import FACES, N_FIELDS, N_ROWS
from nochmal.engine.twentyone.game import TwentyOneState

#: the hazards solved (the race's p is rounded to the nearest); 0 is the practice optimum
HAZARDS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0)
#: the race term's weight: of 0.5, 1, 2 and 3, 2 had the best win rates against the optimum and the
#: greedy together in 2-6 player games (tools/twentyone_bench.py --weights; 3 beats the optimum by
#: a little more and the greedy by less)
DEFAULT_WEIGHT = 2.0
#: the practice optimum's pace, fields per round (30 fields in about 24 rounds), and how many
#: fields that prior counts for before an opponent's own pace takes over
PACE = 1.25
PRIOR_FIELDS = 6


def race_rows(values: tuple[tuple[int, ...], ...], hazard: float, faces: int = len(FACES)) -> tuple[RowTables, ...]:
    """The rows of a sheet with printed ``values`` solved for the race with ``hazard``: from the
    last row up, each row's filled state carrying the worth of the rows below it (``faces``: a
    reduced game for tests)."""
    out: list[RowTables] = []
    carry = 0.0
    for row_values in reversed(values):
        tables = solve_row(row_values, faces, hazard=hazard, carry=carry)
        carry = float(tables.V[0, 0])
        out.append(tables)
    return tuple(reversed(out))


def fields_left(state: TwentyOneState, seat: int) -> int:
    """The fields ``seat`` still has to fill to score its fifth row."""
    s = state.seats[seat]
    return 0 if s.done else (N_ROWS - s.row) * N_FIELDS - bin(s.filled).count("1")


def rounds_left(state: TwentyOneState, seat: int) -> float:
    """How many rounds ``seat`` may still need: its free fields over its pace so far (fields per
    round played, with the optimum's pace as a prior worth :data:`PRIOR_FIELDS` fields)."""
    filled = N_ROWS * N_FIELDS - fields_left(state, seat)
    played = state.round_index + (state.seats[seat].acted is not None)
    pace = (filled + PRIOR_FIELDS) / (played + PRIOR_FIELDS / PACE)
    return fields_left(state, seat) / pace


def race_hazard(state: TwentyOneState, seat: int, weight: float = DEFAULT_WEIGHT) -> float:
    """The chance, as the bot reads the race, that the game ends after this round for ``seat``:
    1 if an opponent has scored their fifth row (T-END), else ``weight`` over the fewest rounds an
    opponent may still need (at least one), clipped to [0, 1]. 0 alone (T-PRACTICE)."""
    others = [o for o in range(len(state.seats)) if o != seat]
    if not others or weight <= 0:
        return 0.0
    if any(state.seats[o].done for o in others):
        return 1.0
    fastest = min(rounds_left(state, o) for o in others)
    return min(1.0, weight / max(1.0, fastest))


def nearest_hazard(p: float) -> float:
    return min(HAZARDS, key=lambda h: (abs(h - p), h))


class RaceBot(OptimalPractice):
    """``policy(state, rng)`` for 1-6 players: the optimum's decisions with the race term (module
    docstring). ``weight`` 0 is :class:`OptimalPractice` itself."""

    def __init__(self, weight: float = DEFAULT_WEIGHT, directory: Path | None = None) -> None:
        if not isinstance(weight, (int, float)) or weight != weight or weight < 0:
            raise ValueError(f"the race term's weight must be a number >= 0, got {weight!r}")
        super().__init__(directory)
        self.weight = float(weight)
        self._race: dict[tuple[tuple[tuple[int, ...], ...], float], tuple[RowTables, ...]] = {}

    def race_tables(self, values: tuple[tuple[int, ...], ...], hazard: float) -> tuple[RowTables, ...]:
        key = (values, hazard)
        if key not in self._race:
            self._race[key] = race_rows(values, hazard)
        return self._race[key]

    def hazard(self, state: TwentyOneState, seat: int) -> float:
        """The grid hazard ``seat`` decides by now."""
        return nearest_hazard(race_hazard(state, seat, self.weight))

    def row_tables_for(self, state: TwentyOneState, seat: int) -> RowTables:
        p = self.hazard(state, seat)
        s = state.seats[seat]
        if p == 0.0:
            return self.tables(s.sheet)[s.row]
        return self.race_tables(s.sheet.value_at, p)[s.row]
