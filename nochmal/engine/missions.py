"""Mission progress (RULES.md section 6, M1-M5) as data: for each requirement what is done,
on whose sheet, and what is missing. Progress is team-wide: any sheet counts."""

from __future__ import annotations

from dataclasses import dataclass, field

from nochmal.engine.cells import COLOURS, COLUMN_MASKS, COLUMNS, ROW_MASKS
from nochmal.engine.coopdata import MissionSpec, Requirement, TableauSpec
from nochmal.engine.floats import ordered_sum


@dataclass
class RequirementProgress:
    kind: str
    needed: int
    done: dict[str, list[int]] = field(default_factory=dict)  # item -> seats (0-based) that did it
    missing: list[str] = field(default_factory=list)
    next: str | None = None  # sequence: the next column

    @property
    def complete(self) -> bool:
        return len(self.done) >= self.needed

    def to_json(self, labels=None) -> dict:
        out = {"kind": self.kind, "needed": self.needed, "have": min(len(self.done), self.needed),
               "complete": self.complete,
               "done": {k: [s + 1 for s in v] for k, v in self.done.items()}, "missing": self.missing}
        if self.kind == "sequence":
            out["next"] = self.next
        return out


@dataclass
class MissionProgress:
    mission: int
    name: str
    requirements: list[RequirementProgress]

    @property
    def complete(self) -> bool:
        return all(r.complete for r in self.requirements)

    @property
    def share(self) -> float:
        """The share of the mission done, 0..1: each requirement counts equally."""
        reqs = self.requirements
        return ordered_sum(min(len(r.done), r.needed) / r.needed if r.needed else 1.0 for r in reqs) / len(reqs)

    def to_json(self) -> dict:
        return {"mission": self.mission, "name": self.name, "complete": self.complete,
                "requirements": [r.to_json() for r in self.requirements]}


def requirement_count(req: Requirement, tableau: TableauSpec) -> int:
    return req.number if req.number is not None else tableau.value(req.count)


def _colours(req, seats, tableau, row_labels, sequence_state) -> RequirementProgress:
    done: dict[str, list[int]] = {}
    for i, s in enumerate(seats):
        for c in sorted(s.colours):
            done.setdefault(COLOURS[c], []).append(i)
    return RequirementProgress("colours", requirement_count(req, tableau), done,
                               [c for c in COLOURS if c not in done])


def _rows(req, seats, tableau, row_labels, sequence_state) -> RequirementProgress:
    done: dict[str, list[int]] = {}
    for r, rm in enumerate(ROW_MASKS):
        for i, s in enumerate(seats):
            if s.crossed & rm == rm:
                done.setdefault(row_labels[r], []).append(i)
    return RequirementProgress("rows", requirement_count(req, tableau), done,
                               [row_labels[r] for r in range(len(ROW_MASKS)) if row_labels[r] not in done])


def _star_columns(req, seats, tableau, row_labels, sequence_state) -> RequirementProgress:
    stars = [s.crossed & s.sheet.star_mask for s in seats]  # each seat's crossed stars
    done: dict[str, list[int]] = {}
    for c, cm in enumerate(COLUMN_MASKS):
        seats_c = [i for i, x in enumerate(stars) if x & cm]
        if seats_c:
            done[COLUMNS[c]] = seats_c
    return RequirementProgress("star_columns", len(COLUMNS), done, [c for c in COLUMNS if c not in done])


def _number_fields(req, seats, tableau, row_labels, sequence_state) -> RequirementProgress:
    # Team-wide: number n counts once some sheet has all four cells around its field n crossed.
    numbers = sorted({n for s in seats for n, _ in s.sheet.number_fields})
    done: dict[str, list[int]] = {}
    for i, s in enumerate(seats):
        for n, sq in s.sheet.number_fields:
            if s.crossed & sq == sq:
                done.setdefault(str(n), []).append(i)
    return RequirementProgress("number_fields", len(numbers), done, [str(n) for n in numbers if str(n) not in done])


def _sequence(req, seats, tableau, row_labels, sequence_state) -> RequirementProgress:
    cols = req.columns
    counted = sequence_state.get("counted", [])  # [(column letter, seat)]
    done = {c: [seat] for c, seat in counted}
    k = len(counted)
    return RequirementProgress("sequence", len(cols), done, list(cols[k:]), cols[k] if k < len(cols) else None)


_KINDS = {"colours": _colours, "rows": _rows, "star_columns": _star_columns,
          "number_fields": _number_fields, "sequence": _sequence}


def mission_progress(mission: MissionSpec, tableau: TableauSpec, seats, sequence_state: dict,
                     row_labels=tuple("PQRSTUV")) -> MissionProgress:
    return MissionProgress(mission.id, mission.name, [
        _KINDS[r.kind](r, seats, tableau, row_labels, sequence_state) for r in mission.requirements])


def advance_sequence(mission: MissionSpec, sequence_state: dict, completed_this_turn: list[tuple[int, int]],
                     active: int, rules_version: int) -> None:
    """M5: count the columns (seat, column) completed this turn whose letter is next.

    Rules version 2 (DECISION ``M5_ONE_LETTER_PER_MOMENT``): the active seat's cross is one
    moment and the passive seats' crosses the next; each moment counts one letter at most, so a
    column completed at the same moment as the previous letter does not count. Rules version 1
    took every completion of the turn in N-O-C-H-M-A-L order (``M5_SAME_TURN_IN_ORDER``)."""
    from nochmal.engine.decisions import M5_ONE_LETTER_PER_MOMENT, M5_SAME_TURN_IN_ORDER

    for req in mission.requirements:
        if req.kind != "sequence":
            continue
        counted = sequence_state.setdefault("counted", [])
        if M5_ONE_LETTER_PER_MOMENT[rules_version]:
            moments = [[(s, c) for s, c in completed_this_turn if s == active],
                       [(s, c) for s, c in completed_this_turn if s != active]]
            per_moment = 1
        else:
            moments = [list(completed_this_turn)]
            per_moment = len(req.columns) if M5_SAME_TURN_IN_ORDER else 1
        for moment in moments:
            by_col: dict[int, int] = {}
            for seat, col in moment:
                by_col.setdefault(col, seat)
            for _ in range(per_moment):
                if len(counted) == len(req.columns):
                    break
                letter = req.columns[len(counted)]
                seat = by_col.pop(COLUMNS.index(letter), None)
                if seat is None:
                    break
                counted.append([letter, seat])
