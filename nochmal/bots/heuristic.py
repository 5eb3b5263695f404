"""The bots' heuristic: what a move is worth one move ahead. :class:`Weights` (the terms and
their weights), :class:`SeatView` (what the terms read about one seat, cached while nothing it
reads changes) and :func:`score_cells` (the value of crossing a set of cells).

The value rewards how much closer a move brings columns and colours to completion (convex in
the number of crossed cells, so finishing is worth more than starting), the points it scores
at once, stars crossed and "!" spent. A variant with a mission adds its terms through a
``bias`` (:func:`nochmal.bots.coop_weights.coop_bias`) that fills the view's slots: rows, targets
of the team plan, the cost of a failed roll. Shared by the Python greedy
(:mod:`nochmal.bots.greedy`) and the compiled kernels' tables (:mod:`nochmal.bots.kernel.solo`).
"""

from __future__ import annotations

from dataclasses import dataclass

from nochmal.engine.cells import COLUMN_MASKS, FULL, components, N_COLS, ROW_MASKS, neighbours
from nochmal.engine.moves import Cross


# --------------------------------------------------------------------------- precomputation
def subset_info(sheet, mask: int):
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
        self.targets = None  # co-op: [(weight, [(colour, its cells still to cross, their parts)], work)] (coop_weights.target)
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
    cols, rows, stars, size, nb = subset_info(view.sheet, cells)
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
