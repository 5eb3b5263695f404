"""Co-op parts of the bots' heuristic: mission-aware weights and the value of a rollout."""

from __future__ import annotations

from .bots import Weights
from .cells import COLUMN_MASKS, COLUMNS, ROW_MASKS


def coop_weights(game) -> Weights:
    return Weights(column=1.0, colour=1.0, row=1.0, star=0.0, joker=1.2, power=2.0, fail=6.0, cell=0.1)


def coop_bias(state, seat, view, w) -> None:
    """Point the seat's heuristic at the mission: what the team still needs is worth more."""
    game = state.game
    prog = game.progress(state)
    mission_cols = 0
    for req in prog.requirements:
        if req.complete:
            continue
        if req.kind == "colours":
            s = state.seats[seat]
            for c in range(5):
                if c not in s.colours:
                    name = ("yellow", "green", "blue", "red", "orange")[c]
                    view.colour_val[c] = 12.0 if name in req.missing else 2.0
        elif req.kind == "rows":
            labels = state.seats[seat].sheet.spec.row_labels
            for r in range(7):
                view.row_val[r] = 10.0 if labels[r] in req.missing else 0.0
        elif req.kind == "star_columns":
            view.star_val = 3.0  # any star; the missing columns' stars more below
            mask = 0
            for col in req.missing:
                mask |= COLUMN_MASKS[COLUMNS.index(col)]
            view.nf_val = mask  # reused slot: star columns still missing (mask)
        elif req.kind == "sequence" and req.next:
            c = COLUMNS.index(req.next)
            if view.col_val[c] == 0:  # completed already on this sheet: nothing to gain here
                continue
            view.col_val[c] += 12.0
            mission_cols |= 1 << c
    # interim goals: team points come from columns; keep them attractive
    return None


def coop_rollout_value(state) -> float:
    """1 for a win; otherwise partial credit for mission progress and turns survived."""
    if state.is_terminal() and state.extra.get("won"):
        return 1.0 + (27 - state.roll_index) / 270.0
    prog = state.game.progress(state)
    frac = sum(min(len(r.done), r.needed) / r.needed if r.needed else 1.0 for r in prog.requirements) / len(prog.requirements)
    return 0.5 * frac + 0.01 * min(state.roll_index, 27) / 27
