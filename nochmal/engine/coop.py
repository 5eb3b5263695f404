"""The co-operative variant (RULES.md section 6) on the shared game contract.

Differences from the base game are class flags and hook overrides only: the turn track picks
the active seat (C-TRACK), a pass is a failed roll (C-FAIL), no colour bonuses or star
penalties (C-NO-STARS / C-NO-BONUS), interim checks after turns 10/19/27 whose penalties are
team decisions (C-GOAL-*), and the mission decides the end (C-WIN / C-LOSE / C-CHECK).
"""

from __future__ import annotations

import copy
from typing import ClassVar, NamedTuple

from nochmal.engine.version import RULES_VERSION
from nochmal.engine.coopdata import CHECK_TURNS, N_TURNS, TableauSpec, get_mission, get_tableau, load_tableau_file, tableau_from_data
from nochmal.engine.decisions import COOP_GOAL_27_BEFORE_MISSION, COOP_STRIKE_ALL_IF_SHORT, COOP_THIRD_FAIL_ENDS_AT_ONCE
from nochmal.engine.errors import IllegalMoveError, InvalidInputError
from nochmal.engine.game import DECISION, OVER, Game, Outcome, State, register_action, register_mode
from nochmal.engine.missions import MissionProgress, advance_sequence, mission_progress
from nochmal.engine.sheet import get_sheet

COOP_SHEETS = ("coop-I", "coop-II", "coop-III", "coop-IV", "coop-V", "coop-VI")


def strike_splits(lefts: tuple[int, ...], amount: int) -> list["StrikeJokers"]:
    """C-GOAL-10: every way to strike ``amount`` "!" from seats with ``lefts`` "!" left, largest
    split first (only the splits that add up are generated, not every combination)."""
    room = [sum(lefts[i + 1:]) for i in range(len(lefts))]  # what the seats after i can take at most

    def splits(i: int, rest: int):  # seats i.. strike ``rest`` between them
        if i == len(lefts) - 1:
            if rest <= lefts[i]:
                yield (rest,)
            return
        for n in range(max(0, rest - room[i]), min(lefts[i], rest) + 1):
            for tail in splits(i + 1, rest - n):
                yield (n, *tail)

    out = [StrikeJokers(split) for split in splits(0, amount)] if lefts else []
    out.sort(reverse=True)
    return out


class StrikeJokers(NamedTuple):
    """C-GOAL-10 penalty: how many "!" each seat strikes (a team decision)."""

    per_seat: tuple[int, ...]

    def to_json(self) -> dict:
        return {"type": "strike_jokers", "per_seat": list(self.per_seat)}

    def __str__(self) -> str:
        return "strike \"!\": " + ", ".join(f"seat {i + 1}: {n}" for i, n in enumerate(self.per_seat) if n)


class RemoveDie(NamedTuple):
    """C-GOAL-19 penalty: one die ("colour" or "number") leaves the game for good."""

    die: str

    def to_json(self) -> dict:
        return {"type": "remove_die", "die": self.die}

    def __str__(self) -> str:
        return f"remove a {self.die} die"


def _parse_strike(data: dict) -> StrikeJokers:
    per = data.get("per_seat")
    if not isinstance(per, list) or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in per):
        raise InvalidInputError(f"per_seat must be a list of whole numbers >= 0, got {per!r}", rule="C-GOAL-10")
    return StrikeJokers(tuple(per))


def _parse_remove(data: dict) -> RemoveDie:
    die = data.get("die")
    if die not in ("colour", "number"):
        raise InvalidInputError(f"die must be 'colour' or 'number', got {die!r}", rule="C-GOAL-19")
    return RemoveDie(die)


register_action("strike_jokers", _parse_strike)
register_action("remove_die", _parse_remove)


@register_mode
class CoopGame(Game):
    mode = "coop"
    title = "co-op"
    min_seats = 1
    max_seats = 6
    default_players = 3
    cooperative = True
    n_rolls = N_TURNS
    has_turn_track = True
    has_mission = True
    has_failed_rolls = True
    pass_name = "failed roll"
    ends_on_second_colour = False
    colour_bonus = (0, 0)  # C-NO-BONUS
    star_penalty = 0  # C-NO-STARS
    joker_value = 1  # C-POINTS (counted at the 27th-turn check)
    n_turns: ClassVar[int] = N_TURNS

    def __init__(self, sheets, mission: int, tableau: TableauSpec, rules_version: int = RULES_VERSION) -> None:
        super().__init__(sheets, rules_version)
        if tableau.players != self.n_seats:
            raise InvalidInputError(
                f"the tableau {tableau.id!r} is for {tableau.players} players, the game has {self.n_seats}", rule="C-TRACK")
        self.tableau = tableau
        self.mission = get_mission(mission)
        if any(r.kind == "number_fields" for r in self.mission.requirements) and not any(
                sh.number_fields for sh in self.sheets):
            raise InvalidInputError(f"mission {mission} needs co-op sheets with number fields "
                                    f"(e.g. {', '.join(COOP_SHEETS[:self.n_seats])})", rule="C-BOARDS")

    @classmethod
    def create(cls, players: int | None = None, mission: int | None = 1, sheets=None, tableau=None,
               rules_version: int = RULES_VERSION) -> "CoopGame":
        """A co-op game with default sheets I, II, ... in seat order (C-BOARDS), played under
        ``rules_version`` (the current one unless an old game is rebuilt)."""
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 6:
            raise InvalidInputError(f"co-op games take 1-6 players, got {players!r}", rule="C-BOARDS")
        mission = 1 if mission is None else mission
        sheets = list(sheets) if sheets else cls.default_sheets(players)
        if len(sheets) != players:
            raise InvalidInputError(f"{len(sheets)} sheets named for {players} players", rule="C-BOARDS")
        if tableau is None:
            spec = get_tableau(players)
        elif isinstance(tableau, TableauSpec):
            spec = tableau
        else:
            spec = load_tableau_file(tableau)
        return cls(sheets, mission, spec, rules_version)

    def config(self) -> dict:
        return {"mode": self.mode, "sheets": [s.id for s in self.sheets], "mission": self.mission.id,
                "tableau": self.tableau.model_dump(mode="json"), "rules_version": self.rules_version}

    @classmethod
    def default_sheets(cls, players: int) -> list[str]:
        """C-BOARDS: the co-op sheets I, II, ... in seat order."""
        return list(COOP_SHEETS[:players])

    @classmethod
    def from_config(cls, config: dict) -> "CoopGame":
        missing = [k for k in ("sheets", "mission", "tableau") if k not in config]
        if missing:
            raise InvalidInputError(f"a co-op config needs {', '.join(missing)}")
        return cls([get_sheet(s) for s in config["sheets"]], config["mission"],
                   tableau_from_data(config["tableau"], "saved game tableau"),
                   rules_version=config.get("rules_version", RULES_VERSION))

    # ---- hooks -----------------------------------------------------------
    def dice_in_play(self, state):
        removed = state.extra.get("removed_die")
        return (self.n_colour_dice - (removed == "colour"), self.n_number_dice - (removed == "number"))

    def active_seat(self, state):  # C-TRACK
        return self.tableau.active_seat(min(state.roll_index, self.n_turns - 1))

    def sets_aside(self, state):  # R-FIRST3 holds; C-SOLO: one seat, nobody else picks
        return state.roll_index >= self.free_rolls and self.n_seats > 1

    def on_pass(self, state, seat):  # C-FAIL
        s = state.seats[seat]
        s.failed += 1
        if COOP_THIRD_FAIL_ENDS_AT_ONCE[self.rules_version] and s.failed >= self.failed_roll_boxes(s):
            return self._end(state, False, "a third failed roll (C-FAIL)")
        return None

    def team_points(self, state, with_jokers: bool = False) -> int:
        """C-POINTS: the sum of every seat's column points (+ unused "!" at the 27th turn)."""
        pts = sum(sum(s.columns.values()) for s in state.seats)
        if with_jokers:
            pts += sum(s.jokers_left for s in state.seats)
        return pts

    def progress(self, state) -> MissionProgress:
        labels = state.seats[0].sheet.spec.row_labels if state.seats else tuple("PQRSTUV")
        return mission_progress(self.mission, self.tableau, state.seats, state.extra.get("sequence", {}), labels)

    def failed_roll_boxes(self, seat) -> int:  # C-BOARDS: three red boxes on the co-op sheets
        coop = seat.sheet.spec.coop
        return coop.failed_roll_boxes if coop else 3

    def roll_finished(self, state):
        """C-CHECK: the checks when a turn is complete, in the order of the game's rules version."""
        x = state.extra
        advance_sequence(self.mission, x.setdefault("sequence", {}), state.completed_now, state.active,
                         self.rules_version)
        turn = state.roll_index + 1
        if self._third_failed(state):  # C-FAIL beats C-WIN (rules version 1 ends here)
            return self._end(state, False, "a third failed roll (C-FAIL)")
        last_first = turn == self.n_turns and COOP_GOAL_27_BEFORE_MISSION[self.rules_version]
        if last_first and self._check_27(state):
            return self._end(state, False, "a third failed roll at the final check (C-GOAL-27)")
        if self.progress(state).complete:
            return self._end(state, True, "mission complete (C-WIN)")
        checks = x.setdefault("checks", {})
        if turn == 10:
            pts = self.team_points(state)
            goal = self.tableau.value("goal_10")
            checks["10"] = {"points": pts, "goal": goal, "met": pts >= goal}
            if pts < goal:
                demanded = self.tableau.value("penalty_10_jokers")
                left = sum(s.jokers_left for s in state.seats)
                amount = min(demanded, left) if COOP_STRIKE_ALL_IF_SHORT else demanded
                checks["10"]["penalty"] = {"jokers": amount, "demanded": demanded}
                if amount >= left:  # nothing to choose: every remaining "!" is struck
                    for s in state.seats:
                        s.jokers_used = s.sheet.jokers
                    checks["10"]["penalty"]["per_seat"] = "all"
                elif amount > 0:
                    x["decision"] = {"kind": "strike_jokers", "turn": 10, "amount": amount}
                    state.phase = DECISION
        elif turn == 19:
            pts = self.team_points(state)
            goal = self.tableau.value("goal_19")
            checks["19"] = {"points": pts, "goal": goal, "met": pts >= goal}
            if pts < goal:
                x["decision"] = {"kind": "remove_die", "turn": 19}
                state.phase = DECISION
        elif turn == self.n_turns:
            if not last_first and self._check_27(state):
                return self._end(state, False, "a third failed roll at the final check (C-GOAL-27)")
            return self._end(state, False, f"mission not complete after turn {self.n_turns} (C-LOSE)")
        return None

    def _third_failed(self, state) -> bool:
        return any(s.failed >= self.failed_roll_boxes(s) for s in state.seats)

    def _check_27(self, state) -> bool:
        """C-GOAL-27: team points + unused "!" against the last goal; a miss marks a failed roll
        for everyone. True if that was somebody's third (the team loses)."""
        pts = self.team_points(state, with_jokers=True)
        goal = self.tableau.value("goal_27")
        state.extra.setdefault("checks", {})["27"] = {"points": pts, "goal": goal, "met": pts >= goal}
        if pts < goal:
            for s in state.seats:
                s.failed += 1
        return self._third_failed(state)

    def _end(self, state, won: bool, reason: str) -> str:
        state.extra["won"] = won
        return reason

    # ---- team decisions ----------------------------------------------------
    def decision_actions(self, state) -> list:
        d = state.extra.get("decision")
        if not d:
            return []
        if d["kind"] == "remove_die":
            return [RemoveDie("colour"), RemoveDie("number")]
        return strike_splits(tuple(s.jokers_left for s in state.seats), d["amount"])

    def apply_decision(self, state, action) -> None:
        d = state.extra.get("decision") or {}
        if d.get("kind") == "strike_jokers" and isinstance(action, StrikeJokers):
            per = action.per_seat
            if len(per) != self.n_seats:
                raise IllegalMoveError("C-GOAL-10", f"name a number of \"!\" for each of the {self.n_seats} seats", state.summary())
            for i, (n, s) in enumerate(zip(per, state.seats)):
                if n < 0:
                    raise IllegalMoveError("C-GOAL-10", f"seat {i + 1} cannot strike a negative number of \"!\" ({n})", state.summary())
                if n > s.jokers_left:
                    raise IllegalMoveError("C-GOAL-10", f"seat {i + 1} has only {s.jokers_left} \"!\" left, cannot strike {n}", state.summary())
            if sum(per) != d["amount"]:
                raise IllegalMoveError("C-GOAL-10", f"strike {d['amount']} \"!\" in total, not {sum(per)}", state.summary())
            for n, s in zip(per, state.seats):
                s.jokers_used += n
            state.extra["checks"]["10"]["penalty"]["per_seat"] = list(per)
        elif d.get("kind") == "remove_die" and isinstance(action, RemoveDie):
            state.extra["removed_die"] = action.die
            state.extra["checks"]["19"]["penalty"] = {"removed_die": action.die}
        else:
            raise IllegalMoveError(d.get("kind") == "remove_die" and "C-GOAL-19" or "C-GOAL-10",
                                   f"{action} is not the decision due now ({d.get('kind', 'none')})", state.summary())
        state.extra.pop("decision", None)
        state.advance()

    def extra_to_json(self, state) -> dict:
        return copy.deepcopy(state.extra)

    # ---- outcome -----------------------------------------------------------
    def outcome(self, state) -> Outcome:
        base = super().outcome(state)
        won = bool(state.extra.get("won"))
        checks = state.extra.get("checks", {})
        extra = {
            "won": won,
            "turns": state.roll_index + 1,
            "mission_id": self.mission.id,
            "players": self.n_seats,
            "team_points": {t: c["points"] for t, c in checks.items()},
            "team_points_now": self.team_points(state),
            "checks": checks,
            "failed_rolls": [s.failed for s in state.seats],
            "jokers_left": [s.jokers_left for s in state.seats],
            "removed_die": state.extra.get("removed_die"),
            "mission": self.progress(state).to_json(),
            "tableau": {"id": self.tableau.id, "provenance": self.tableau.provenance_summary()},
            "sheets_provenance": sorted({s.provenance for s in self.sheets}),
        }
        return Outcome(self.mode, base.reason, base.rolls, base.scores,
                       tuple(range(self.n_seats)) if won else (), extra=extra)


def turn_info(state: State) -> dict:
    """Where the team stands on the 27-turn track (for the app and CLI)."""
    game = state.game
    return {
        "turn": state.roll_index + 1,
        "turns": game.n_turns,
        "active": state.active,
        "track": [game.tableau.active_seat(t) for t in range(game.n_turns)],
        "checks": {t: {"goal": game.tableau.value(f"goal_{t}")} for t in CHECK_TURNS},
        "team_points": game.team_points(state),
    }
