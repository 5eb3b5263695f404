"""Co-op parts of the bots' heuristic: mission-aware weights and a bias that follows the team
plan (:mod:`nochmal.bots.plan`), the value of a rollout, and the team's "!" split (C-GOAL-10)."""

from __future__ import annotations

from functools import lru_cache

from nochmal.bots.heuristic import Weights
from nochmal.bots.plan import team_plan
from nochmal.engine.cells import COLOURS, COLUMN_MASKS, COLUMNS, ROW_MASKS, components, indices, neighbours
from nochmal.engine.coop import StrikeJokers

COOP_WEIGHTS = Weights(column=2.0, colour=1.0, row=1.0, star=0.0, joker=1.5, power=3.0, fail=8.0, cell=0.1,
                       expand=0.2, mission=True)


#: M5: the next column of the sequence, the one after it (brought close, not completed), and the
#: cost of completing a later one too early, by number of seats (one seat: the mission is lost)
SEQ_NEXT, SEQ_AFTER, SEQ_LATER = 20.0, 4.0, 4.0
SEQ_EARLY = (40.0, 12.0, 12.0, 12.0, 12.0, 12.0)
#: M5: what a column outside the sequence is worth (share of its points) to the seats running the
#: sequence: its cells are paths there, and only the interim goals want its points
#: (chosen on 6 x 200 M5 games of another seed than the calibration sweep: 82 wins at 1.0, 98 at 0.3, 94 at 0)
SEQ_OTHER = 0.3


#: a failed roll's cost relative to ``Weights.fail`` by the boxes still empty (1: it loses the game)
FAIL_SCALE = (50.0, 2.0, 1.0)


#: value of one move fewer needed for a target the plan gives the seat: every part of it still
#: to cross needs a move of its own, a part out of reach one more (see :func:`target`)
TARGET_W = {"colours": 3.0, "rows": 6.0, "star_columns": 3.0, "number_fields": 3.0, "sequence": 3.0,
            "sequence_later": 1.0}


def target(view, seat, cells: int, weight: float) -> None:
    """Make ``cells`` a target of the seat's heuristic: a move is worth ``weight`` for each move it
    saves on the way there (a part crossed whole, a part brought in reach; splitting a part costs)."""
    rest = cells & ~seat.crossed
    if not rest or not weight:
        return
    if view.targets is None:
        view.targets = []
        view.front = neighbours(seat.crossed) | seat.sheet.start_mask
    pieces = []
    work = 0
    for c, cm in enumerate(seat.sheet.colour_masks):  # a move crosses one colour: parts are per colour
        if rest & cm:
            parts = components(rest & cm)
            pieces.append((c, rest & cm, parts))
            work += sum(1 if p & view.front else 2 for p in parts)
    view.targets.append((weight, tuple(pieces), work))


def coop_weights(game) -> Weights:
    return COOP_WEIGHTS


def plan_of(game) -> dict:
    plan = getattr(game, "_team_plan", None)
    if plan is None:
        plan = game._team_plan = team_plan(game)
    return plan


_last_progress: tuple = (None, None)  # (key, MissionProgress) of the last team position, rebound
#                                       whole (threads of the app never see a key with another's progress)


def team_progress(state):
    """``game.progress(state)`` (read only), computed once per team position: every input it
    reads is in the key (each sheet's crosses and completed colours, the M5 sequence counted so
    far), and a team choice builds every seat's view on the same position."""
    return _progress_entry(state)[0]


def _progress_entry(state) -> tuple:
    """(progress, its signature: what :func:`coop_bias` reads of it) for the team position."""
    global _last_progress
    game = state.game
    counted = state.extra.get("sequence", {}).get("counted", ())
    key = (game, tuple((s.crossed, tuple(s.colours)) for s in state.seats), tuple(map(tuple, counted)))
    last = _last_progress
    if last[0] == key:
        return last[1]
    prog = game.progress(state)
    sig = tuple((r.kind, r.complete, tuple(r.missing), r.next) for r in prog.requirements)
    _last_progress = (key, (prog, sig))
    return prog, sig


def coop_view_key(state, seat) -> tuple:
    """Everything :func:`coop_bias` reads besides the seat's crosses and the firsts claimed (which
    :func:`nochmal.bots.heuristic.seat_view` keys on already): a seat's view is built again only when one of
    these changes — not for every cross of another seat that leaves the mission's status alone."""
    s = state.seats[seat]
    return s.failed, tuple(s.columns), tuple(s.colours), _progress_entry(state)[1]


def coop_bias(state, seat, view, w) -> None:
    """Point the seat's heuristic at the mission: its own plan targets are worth most, what
    the team still needs a little, what is done nothing."""
    game = state.game
    mine = plan_of(game)["seats"][seat]
    prog = team_progress(state)
    s = state.seats[seat]
    left = game.failed_roll_boxes(s) - s.failed  # failed-roll boxes still empty; the last one loses the game
    view.fail = w.fail * FAIL_SCALE[min(left, len(FAIL_SCALE)) - 1] if left > 0 else w.fail
    for req in prog.requirements:
        if req.complete:
            continue
        if req.kind == "colours":
            for c, name in enumerate(COLOURS):
                if c in s.colours:
                    continue
                view.colour_val[c] = 30.0 if name in mine["colours"] and name in req.missing else (
                    6.0 if name in req.missing else 1.0)
                if name in mine["colours"] and name in req.missing:
                    target(view, s, s.sheet.colour_masks[c], TARGET_W["colours"])
        elif req.kind == "rows":
            labels = s.sheet.spec.row_labels
            for r in range(7):
                view.row_val[r] = 25.0 if labels[r] in mine["rows"] and labels[r] in req.missing else (
                    4.0 if labels[r] in req.missing else 0.0)
                if labels[r] in mine["rows"] and labels[r] in req.missing:
                    target(view, s, ROW_MASKS[r], TARGET_W["rows"])
        elif req.kind == "star_columns":
            view.star_val = 0.5
            for col in req.missing:
                c = COLUMNS.index(col)
                if s.sheet.star_mask & COLUMN_MASKS[c] & ~s.crossed:
                    # a star still open in a column the team needs: value it through the column slot
                    view.col_val[c] += 6.0 if col in mine["star_columns"] else 2.0
                    if col in mine["star_columns"]:
                        target(view, s, s.sheet.star_mask & COLUMN_MASKS[c], TARGET_W["star_columns"])
        elif req.kind == "number_fields":
            for num, sq in s.sheet.number_fields:
                if str(num) in req.missing:
                    # crossing the square's cells is progress towards the field
                    for i in indices(sq):
                        view.col_val[i % 15] += 3.0 if num in mine["number_fields"] else 1.0
                    if num in mine["number_fields"]:
                        target(view, s, sq, TARGET_W["number_fields"])
        elif req.kind == "sequence" and req.next:
            c = COLUMNS.index(req.next)
            runs = bool(mine["columns"])  # the plan gives this seat the sequence
            if runs:
                for o, col in enumerate(COLUMNS):
                    if col not in mine["columns"]:
                        view.col_val[o] *= SEQ_OTHER
            if c not in s.columns and runs:
                view.col_val[c] += SEQ_NEXT
                target(view, s, COLUMN_MASKS[c], TARGET_W["sequence"])
            # a column of the sequence completed before its turn counts only if somebody completes it
            # again later: leave its last cell open (with one player nobody else can)
            done = view.col_done = [0.0] * len(COLUMNS)
            later = req.missing[1:]  # the columns due after the next one
            for i, col in enumerate(later):
                c = COLUMNS.index(col)
                if c not in s.columns:
                    done[c] = -SEQ_EARLY[min(game.n_seats, len(SEQ_EARLY)) - 1]
                    if runs:
                        view.col_val[c] += SEQ_AFTER if i == 0 else SEQ_LATER
                        target(view, s, COLUMN_MASKS[c], TARGET_W["sequence_later"])


def coop_rollout_value(state) -> float:
    """1 for a win; otherwise partial credit for mission progress and turns survived."""
    if state.is_terminal() and state.extra.get("won"):
        return 1.0 + (27 - state.roll_index) / 270.0
    return 0.5 * state.game.progress(state).share + 0.01 * min(state.roll_index, 27) / 27


def even_strike_due(state):
    """C-GOAL-10 due now: the bots' split (:func:`even_split`) as the action, else None."""
    d = state.extra.get("decision") if state.game.has_turn_track else None  # C-GOAL-10: an interim goal's penalty
    if not d or d.get("kind") != "strike_jokers":
        return None
    per = even_split(tuple(s.jokers_left for s in state.seats), d["amount"])
    return None if per is None else StrikeJokers(per)


@lru_cache(maxsize=4096)
def even_split(lefts: tuple[int, ...], amount: int) -> tuple[int, ...] | None:
    """Of every way to strike ``amount`` "!" (no seat more than it has left), the one leaving the "!"
    most evenly spread (smallest max - min left), ties: the smallest split (as tuples compare);
    None if there is none. Found without listing every split: for spreads 0, 1, ... a depth-first
    search tries each seat's number in ascending order and drops what leaves the spread window,
    so the first split it finds is the answer."""
    n = len(lefts)
    cap = [sum(lefts[i:]) for i in range(n + 1)]  # what seats i.. can strike at most
    out = [0] * n

    def search(i: int, rest: int, lo: int, hi: int, spread: int) -> bool:
        if i == n:
            return rest == 0
        left = lefts[i]
        for k in range(max(0, rest - cap[i + 1]), min(left, rest) + 1):
            after = left - k
            a, b = min(lo, after), max(hi, after)
            if b - a > spread:
                continue
            out[i] = k
            if search(i + 1, rest - k, a, b, spread):
                return True
        return False

    if n == 0 or amount > cap[0] or amount < 0:
        return None
    for spread in range(max(lefts) + 1):
        if search(0, amount, max(lefts) + 1, -1, spread):
            return tuple(out)
    return None


coop_bias.view_key = coop_view_key  # what seat_view keys a co-op seat's cached view on
