"""The team plan: before a co-op game, who aims at what (colours, rows, star columns,
number fields, the N-O-C-H-M-A-L columns). Pure data, shown to people and followed by bots.

Ease of a target on a sheet = how near its cells lie to the start column (crossing spreads
out from there), so each seat is given the targets its own sheet makes easiest, and no target
is given twice while another seat is free."""

from __future__ import annotations

from nochmal.engine.cells import COLOURS, COLUMN_MASKS, COLUMNS, N_COLS, ROW_MASKS, indices
from nochmal.engine.floats import ordered_sum
from nochmal.engine.missions import requirement_count


def _distance(sheet, mask: int) -> float:
    cols = [i % N_COLS for i in indices(mask)]
    return sum(abs(c - sheet.start_col) for c in cols) / max(1, len(cols))


def _assign(n_seats: int, items: list, cost, per_seat: int | None = None) -> list[list]:
    """Greedy matching: repeatedly give the cheapest (seat, item) pair; seats take turns so
    the work is spread evenly."""
    out: list[list] = [[] for _ in range(n_seats)]
    left = list(items)
    while left:
        for seat in sorted(range(n_seats), key=lambda s: len(out[s])):
            if not left:
                break
            if per_seat is not None and len(out[seat]) >= per_seat:
                continue
            best = min(left, key=lambda it: (cost(seat, it), str(it)))
            out[seat].append(best)
            left.remove(best)
        if per_seat is not None and all(len(o) >= per_seat for o in out):
            break
    return out


def team_plan(game) -> dict:
    """{"seats": [{"colours": [...], "rows": [...], "star_columns": [...], "number_fields": [...],
    "columns": [...]}], "notes": [...]}: the division of labour for the game's mission."""
    n = game.n_seats
    sheets = game.sheets
    seats = [{"seat": i, "colours": [], "rows": [], "star_columns": [], "number_fields": [], "columns": []}
             for i in range(n)]
    notes = []
    for req in game.mission.requirements:
        if req.kind == "colours":
            k = requirement_count(req, game.tableau)
            ranked = sorted(range(5), key=lambda c: ordered_sum(_distance(sh, sh.colour_masks[c]) for sh in sheets))
            wanted = ranked[:k]
            parts = _assign(n, wanted, lambda s, c: _distance(sheets[s], sheets[s].colour_masks[c]))
            for s, cs in enumerate(parts):
                seats[s]["colours"] = [COLOURS[c] for c in cs]
            notes.append(f"complete {k} colours: " + "; ".join(
                f"seat {s + 1} {', '.join(seats[s]['colours'])}" for s in range(n) if seats[s]["colours"]))
        elif req.kind == "rows":
            k = requirement_count(req, game.tableau)
            ranked = sorted(range(7), key=lambda r: abs(r - 3))  # middle rows first: reachable from H both ways
            parts = _assign(n, ranked[:k], lambda s, r: abs(r - 3))
            labels = sheets[0].spec.row_labels
            for s, rs in enumerate(parts):
                seats[s]["rows"] = [labels[r] for r in rs]
            notes.append(f"fill {k} rows: " + "; ".join(
                f"seat {s + 1} {', '.join(seats[s]['rows'])}" for s in range(n) if seats[s]["rows"]))
        elif req.kind == "star_columns":
            def star_cost(s, c):
                star = sheets[s].star_mask & COLUMN_MASKS[c]
                return abs(c - sheets[s].start_col) + (0 if star else 99)
            parts = _assign(n, list(range(N_COLS)), star_cost)
            for s, cs in enumerate(parts):
                seats[s]["star_columns"] = [COLUMNS[c] for c in sorted(cs)]
            notes.append("a star in every column: " + "; ".join(
                f"seat {s + 1} {''.join(seats[s]['star_columns'])}" for s in range(n)))
        elif req.kind == "number_fields":
            numbers = sorted({num for sh in sheets for num, _ in sh.number_fields})

            def nf_cost(s, num):
                sq = dict(sheets[s].number_fields).get(num)
                return _distance(sheets[s], sq) if sq else 99

            parts = _assign(n, numbers, nf_cost)
            for s, ns in enumerate(parts):
                seats[s]["number_fields"] = sorted(ns)
            notes.append("fill the number fields: " + "; ".join(
                f"seat {s + 1} {', '.join(map(str, seats[s]['number_fields']))}" for s in range(n) if seats[s]["number_fields"]))
    for req in game.mission.requirements:
        if req.kind == "sequence":
            # a 21-cell colour needs a seat's whole attention: the seats without one run the sequence
            free = [s for s in range(n) if not seats[s]["colours"]] or list(range(n))
            for s in free:
                seats[s]["columns"] = list(req.columns)
            who = "everybody" if len(free) == n else "seat " + ", ".join(str(s + 1) for s in free)
            notes.append(f"{who} completes the next column of {'-'.join(req.columns)} as soon as it is due; "
                         "nobody completes a later one early")
    return {"mission": game.mission.id, "seats": seats, "notes": notes}
