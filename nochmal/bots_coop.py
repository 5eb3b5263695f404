"""Co-op parts of the bots' heuristic: mission-aware weights following the team plan, and the
value of a rollout."""

from __future__ import annotations

from .bots import Weights
from .cells import COLOURS, COLUMN_MASKS, COLUMNS, indices

COOP_WEIGHTS = Weights(column=2.0, colour=1.0, row=1.0, star=0.0, joker=1.5, power=3.0, fail=8.0, cell=0.1,
                       expand=0.2)


def coop_weights(game) -> Weights:
    return COOP_WEIGHTS


def plan_of(game) -> dict:
    plan = getattr(game, "_team_plan", None)
    if plan is None:
        from .plan import team_plan

        plan = game._team_plan = team_plan(game)
    return plan


def coop_bias(state, seat, view, w) -> None:
    """Point the seat's heuristic at the mission: its own plan targets are worth most, what
    the team still needs a little, what is done nothing."""
    game = state.game
    mine = plan_of(game)["seats"][seat]
    prog = game.progress(state)
    s = state.seats[seat]
    for req in prog.requirements:
        if req.complete:
            continue
        if req.kind == "colours":
            for c, name in enumerate(COLOURS):
                if c in s.colours:
                    continue
                view.colour_val[c] = 30.0 if name in mine["colours"] and name in req.missing else (
                    6.0 if name in req.missing else 1.0)
        elif req.kind == "rows":
            labels = s.sheet.spec.row_labels
            for r in range(7):
                view.row_val[r] = 25.0 if labels[r] in mine["rows"] and labels[r] in req.missing else (
                    4.0 if labels[r] in req.missing else 0.0)
        elif req.kind == "star_columns":
            view.star_val = 0.5
            for col in req.missing:
                c = COLUMNS.index(col)
                if s.sheet.star_mask & COLUMN_MASKS[c] & ~s.crossed:
                    # a star still open in a column the team needs: value it through the column slot
                    view.col_val[c] += 6.0 if col in mine["star_columns"] else 2.0
        elif req.kind == "number_fields":
            for num, sq in s.sheet.number_fields:
                if str(num) in req.missing:
                    # crossing the square's cells is progress towards the field
                    for i in indices(sq):
                        view.col_val[i % 15] += 3.0 if num in mine["number_fields"] else 1.0
        elif req.kind == "sequence" and req.next:
            c = COLUMNS.index(req.next)
            if c not in s.columns:
                view.col_val[c] += 20.0


def coop_rollout_value(state) -> float:
    """1 for a win; otherwise partial credit for mission progress and turns survived."""
    if state.is_terminal() and state.extra.get("won"):
        return 1.0 + (27 - state.roll_index) / 270.0
    prog = state.game.progress(state)
    frac = sum(min(len(r.done), r.needed) / r.needed if r.needed else 1.0 for r in prog.requirements) / len(prog.requirements)
    return 0.5 * frac + 0.01 * min(state.roll_index, 27) / 27
