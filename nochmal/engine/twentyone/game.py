"""The game of *twenty one* (RULES-TWENTYONE.md sections 2-4): a :class:`TwentyOneGame` is an immutable
configuration (the seats' sheets, the rules version); a :class:`TwentyOneState` is one position.
The contract is the one every game of this project keeps::

    state.current_player()   # a seat index, CHANCE (a lot or a roll is due), TERMINAL
    state.legal_actions()    # sorted; empty only at a chance node or at the end
    state.apply(action)      # validates; an illegal action raises and changes nothing
    state.is_terminal()
    state.outcome()          # an Outcome: reason, per-seat row scores, winners

A round goes: the active player's first attempt (a chance action), their choice to keep it or try
again (T-ROLL), the second attempt if taken (a chance action: the 1s stay), then every seat,
the active one too, enters dice or crosses out a field (T-ENTER, T-CROSS) in any order. With 2-6
players the first active seat is drawn by lot (T-START, a chance action). Every DECISION the
rules leave open is read from :mod:`nochmal.engine.twentyone.decisions`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from nochmal.engine.contract import check_saved, replay_actions
from nochmal.engine.errors import IllegalMoveError, InvalidInputError, NochmalError
import nochmal.engine.twentyone.decisions as D
from nochmal.engine.twentyone.actions import AGAIN, KEEP, Action, Again, CrossOut, Enter, Keep, Lot, Roll, \
    parse_action
from nochmal.engine.twentyone.components import COLOUR_LETTERS, COLOURS, FULL_ROW, KEPT_FACE, N_FIELDS, N_ROWS, \
    row_score
from nochmal.engine.twentyone.entries import Fit, cross_field, fitting_dice, legal_row_actions
from nochmal.engine.twentyone.sheets import SHEET_IDS, TwentyOneSheet, get_sheet, spec_from_data
from nochmal.engine.twentyone.version import RULES_VERSION, SUPPORTED_RULES_VERSIONS

CHANCE = -1
TERMINAL = -4

LOT, ROLL, CHOOSE, SECOND, ENTER, OVER = "lot", "roll", "choose", "second", "enter", "over"
FREE, CROSSED = None, 0  # a field's mark: free, crossed out, or the number entered (1..6)

END_REASON = "a fifth row was scored (T-END)"


# --------------------------------------------------------------------------- scores and the outcome
@dataclass(frozen=True)
class RowScore:
    """T-ROW-SCORE of one row (0-based ``row``); ``full`` is False for a row scored unfinished
    at the end (T-END-PARTIAL)."""

    row: int
    numbers: int
    hits: int
    bonus: int
    full: bool

    @property
    def total(self) -> int:
        return self.numbers + self.bonus

    def to_json(self) -> dict:
        return {"row": self.row + 1, "numbers": self.numbers, "hits": self.hits, "bonus": self.bonus,
                "total": self.total, "full": self.full}


@dataclass(frozen=True)
class SeatResult:
    seat: int
    sheet: str
    rows: tuple[RowScore, ...]

    @property
    def total(self) -> int:
        return sum(r.total for r in self.rows)

    def to_json(self) -> dict:
        return {"seat": self.seat, "sheet": self.sheet, "rows": [r.to_json() for r in self.rows],
                "total": self.total}


@dataclass(frozen=True)
class Outcome:
    """The end of a game as data: why, after how many rounds, every seat's rows, the winners."""

    reason: str
    rounds: int
    seats: tuple[SeatResult, ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict:
        return {"game": TwentyOneGame.name, "reason": self.reason, "rounds": self.rounds,
                "seats": [s.to_json() for s in self.seats], "winners": list(self.winners)}


# --------------------------------------------------------------------------- a seat
class Seat:
    """One player's sheet: ``marks[row][field]`` is FREE (None), CROSSED (0) or the number entered;
    ``row`` is the current row (0-based; N_ROWS when all five are scored); ``filled`` the current
    row's taken fields as a bit mask; ``acted`` what the seat did this round (None: not yet)."""

    __slots__ = ("sheet", "marks", "row", "filled", "scores", "acted", "filled_row")

    def __init__(self, sheet: TwentyOneSheet) -> None:
        self.sheet = sheet
        self.marks: list[list[int | None]] = [[FREE] * N_FIELDS for _ in range(N_ROWS)]
        self.row = 0
        self.filled = 0
        self.scores: list[RowScore] = []
        self.acted: Enter | CrossOut | None = None
        self.filled_row: int | None = None  # the row this seat filled in the current round (T-ONE-ROW)

    @property
    def done(self) -> bool:
        return self.row >= N_ROWS

    def copy(self) -> "Seat":
        s = Seat.__new__(Seat)
        s.sheet, s.row, s.filled, s.acted, s.filled_row = self.sheet, self.row, self.filled, self.acted, self.filled_row
        s.marks = [list(m) for m in self.marks]
        s.scores = list(self.scores)
        return s

    def score_row(self, full: bool) -> RowScore:
        numbers, hits, b = row_score(self.marks[self.row], self.sheet.value_at[self.row])
        if not full and not D.PARTIAL_ROW_GETS_BONUS:
            b = 0
        return RowScore(self.row, numbers, hits, b, full)

    def mark(self, fields: dict[int, int]) -> None:
        """Write ``fields`` (field -> number, 0 for a cross) in the current row; a row filled by it
        is scored at once and the next row becomes current (T-ROW-SCORE, T-ONE-ROW)."""
        for p, v in fields.items():
            self.marks[self.row][p] = v
            self.filled |= 1 << p
        if self.filled == FULL_ROW:
            self.scores.append(self.score_row(full=True))
            self.filled_row = self.row
            self.row += 1
            self.filled = 0

    def row_text(self, row: int | None = None) -> str:
        """A row as ``5 X 4 . . .`` (numbers, X crossed, . free)."""
        r = self.row if row is None else row
        if r >= N_ROWS:
            return "done"
        return " ".join("." if v is FREE else "X" if v == CROSSED else str(v) for v in self.marks[r])

    def to_json(self) -> dict:
        return {"sheet": self.sheet.id, "row": self.row + 1, "marks": [list(m) for m in self.marks],
                "scores": [s.to_json() for s in self.scores],
                "acted": self.acted.to_json() if self.acted is not None else None}


# --------------------------------------------------------------------------- the game
class TwentyOneGame:
    """1-6 seats (T-PRACTICE, T-START), each with a different sheet (T-SHEET), and the rules version."""

    name = "twentyone"
    #: which game of this project it is (as :attr:`nochmal.engine.game.Game.game_name`)
    game_name = name
    title = "twenty one"
    #: a competitive game (what the app's shared panels ask a game: the host is no mission leader)
    cooperative = False
    min_seats = D.MIN_PLAYERS
    max_seats = D.MAX_PLAYERS

    def __init__(self, sheets: list[TwentyOneSheet | str], rules_version: int = RULES_VERSION) -> None:
        self.sheets = tuple(get_sheet(s) if isinstance(s, str) else s for s in sheets)
        self.rules_version = check_rules_version(rules_version)
        n = len(self.sheets)
        if not self.min_seats <= n <= self.max_seats:
            raise InvalidInputError(f"twenty one takes {self.min_seats}-{self.max_seats} players, got {n}",
                                    rule="T-START")
        ids = [s.id for s in self.sheets]
        if len(set(ids)) != n:
            raise InvalidInputError(f"every player has a different sheet, got {ids}", rule="T-START")

    @classmethod
    def create(cls, players: int, *, sheets: list[TwentyOneSheet | str] | None = None,
               rules_version: int = RULES_VERSION) -> "TwentyOneGame":
        """A game of ``players`` seats on ``sheets`` (default: A, B, ... in seat order)."""
        if type(players) is not int or not cls.min_seats <= players <= cls.max_seats:
            raise InvalidInputError(f"twenty one takes {cls.min_seats}-{cls.max_seats} players, got {players!r}",
                                    rule="T-START")
        return cls(list(sheets) if sheets else list(SHEET_IDS[:players]), rules_version=rules_version)

    @property
    def n_seats(self) -> int:
        return len(self.sheets)

    def new_state(self) -> "TwentyOneState":
        return TwentyOneState(self)

    def config(self) -> dict:
        """What rebuilds this game (stored with every saved game): shipped sheets by id, any
        other sheet as its whole data."""
        def sheet(s: TwentyOneSheet):
            shipped = s.id in SHEET_IDS and get_sheet(s.id).spec == s.spec
            return s.id if shipped else s.spec.model_dump(mode="json")

        return {"game": self.name, "sheets": [sheet(s) for s in self.sheets], "rules_version": self.rules_version}

    @classmethod
    def from_config(cls, config: object) -> "TwentyOneGame":
        if not isinstance(config, dict) or config.get("game") != cls.name or not isinstance(config.get("sheets"), list):
            raise InvalidInputError(f"not a twenty one game config: {config!r}")
        sheets = [s if isinstance(s, str) else TwentyOneSheet(spec_from_data(s, path="<game config>"))
                  for s in config["sheets"]]
        return cls(sheets, rules_version=config.get("rules_version", RULES_VERSION))


def check_rules_version(version: object) -> int:
    if type(version) is not int or version not in SUPPORTED_RULES_VERSIONS:
        raise InvalidInputError(f"twenty one rules version {version!r} is not supported: this program plays "
                                f"{RULES_VERSION} and replays {', '.join(map(str, SUPPORTED_RULES_VERSIONS))}")
    return version


# --------------------------------------------------------------------------- the state
class TwentyOneState:
    """A position. Mutable; :meth:`clone` for search; ``history`` holds every action applied, so
    :func:`replay` rebuilds it and :meth:`undo` is a replay without the last action."""

    def __init__(self, game: TwentyOneGame) -> None:
        self.game = game
        self.seats = [Seat(s) for s in game.sheets]
        self.round_index = 0
        self.active = 0
        self.first: Roll | None = None  # the first attempt of this round
        self.dice: Roll | None = None  # the attempt in force (the round's roll once entering starts)
        self.pending: list[int] = []  # seats still to enter or cross this round, in clockwise order
        self.end_reason: str | None = None
        self.history: list[Action] = []
        lot = game.n_seats > 1 or D.LOT_WITH_ONE_PLAYER
        self.phase = LOT if lot else ROLL

    # ---- the contract ------------------------------------------------------
    def current_player(self) -> int:
        if self.phase in (LOT, ROLL, SECOND):
            return CHANCE
        if self.phase == CHOOSE:
            return self.active
        if self.phase == ENTER:
            return self.pending[0]
        return TERMINAL

    def is_chance_node(self) -> bool:
        return self.phase in (LOT, ROLL, SECOND)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def fits(self, seat: int) -> tuple[Fit, ...]:
        """T-ENTER: the dice ``seat`` may enter now (each with its field and whether it is a hit);
        every non-empty subset of them is a legal entry. Empty when the seat has nothing to decide."""
        s = self.seats[seat]
        if self.phase != ENTER or seat not in self.pending or s.done:
            return ()
        return fitting_dice(s.sheet, s.row, s.filled, self.dice.faces)

    def cross_field(self, seat: int) -> int | None:
        """T-CROSS: the field ``seat`` would cross out now (the leftmost free one of its row)."""
        s = self.seats[seat]
        return cross_field(s.filled) if self.phase == ENTER and seat in self.pending else None

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal actions of the player to move (or of ``seat``, any seat still to enter this
        round), sorted: keep before a second attempt; entries by size then colour, the cross-out
        last. Empty at a chance node (:meth:`sample_chance`) and at the end."""
        if self.phase == CHOOSE and (seat is None or seat == self.active):
            again_offered = D.SECOND_ATTEMPT_WITH_ONLY_ONES or any(f != KEPT_FACE for f in self.dice.faces)
            return [KEEP, AGAIN] if again_offered else [KEEP]
        if self.phase == ENTER:
            seat = self.pending[0] if seat is None else seat
            if seat not in self.pending:
                return []
            return legal_row_actions(self.fits(seat), self.seats[seat].filled)
        return []

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        try:
            self._check(action, seat)
        except NochmalError:
            return False
        return True

    def sample_chance(self, rng: random.Random) -> Lot | Roll:
        """The chance action due, drawn from ``rng``: the lot (T-START), the first attempt, or the
        second attempt with the first's 1s kept (T-ROLL)."""
        if self.phase == LOT:
            return Lot(rng.randrange(self.game.n_seats))
        if self.phase == ROLL:
            return Roll.sample(rng)
        if self.phase == SECOND:
            return Roll.again(self.first, rng)
        raise NochmalError(f"no chance action is due (phase {self.phase})")

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply a chance action or a player's action. Validates first: an illegal action raises
        (IllegalMoveError with the rule id and the position, InvalidInputError) and changes nothing.
        ``seat`` lets the seats enter in any order (they decide independently)."""
        seat = self._check(action, seat)
        if isinstance(action, Lot):
            self.active = action.seat
            self.phase = ROLL
        elif isinstance(action, Roll):
            if self.phase == ROLL:
                self.first = self.dice = action
                self.phase = CHOOSE
            else:
                self.dice = action
                self._start_entering()
        elif isinstance(action, Keep):
            self._start_entering()
        elif isinstance(action, Again):
            self.phase = SECOND
        else:
            self._enter(seat, action)
        self.history.append(action)

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise NochmalError("the game is not over yet")
        results = tuple(SeatResult(i, s.sheet.id, tuple(s.scores)) for i, s in enumerate(self.seats))
        best = max(r.total for r in results)
        assert D.TIES_SHARE_THE_WIN, "only shared wins are implemented"
        winners = tuple(r.seat for r in results if r.total == best)  # T-WIN
        return Outcome(self.end_reason or "", self.round_index + 1, results, winners)

    def total(self, seat: int) -> int:
        """The seat's points so far (its scored rows)."""
        return sum(r.total for r in self.seats[seat].scores)

    # ---- checks --------------------------------------------------------------
    def _refuse(self, rule: str, message: str, seat: int | None = None) -> IllegalMoveError:
        return IllegalMoveError(rule, message, self.summary(seat))

    def _check(self, action: object, seat: int | None) -> int | None:
        """The seat that acts, if ``action`` is legal now; raises otherwise (changes nothing)."""
        if self.phase == OVER:
            raise self._refuse("T-END", "the game is over")
        if isinstance(action, Lot):
            if self.phase != LOT:
                raise self._refuse("T-START", "the first player is drawn once, at the start")
            if type(action.seat) is not int or not 0 <= action.seat < self.game.n_seats:
                raise InvalidInputError(f"no seat {action.seat!r} in a game of {self.game.n_seats}", rule="T-START")
            return None
        if isinstance(action, Roll):
            Roll.parse(action.faces)  # malformed faces: InvalidInputError (T-DICE)
            if self.phase == SECOND:
                moved = [COLOURS[c] for c, (a, b) in enumerate(zip(self.first.faces, action.faces))
                         if a == KEPT_FACE and b != KEPT_FACE]
                if moved:
                    raise self._refuse("T-ROLL", f"the 1s stay at the second attempt: {', '.join(moved)} showed 1")
            elif self.phase != ROLL:
                raise self._refuse("T-ROLL", "no roll is due now: " + (
                    "the active player keeps the roll or tries again" if self.phase == CHOOSE else
                    "at most two attempts; players are entering" if self.phase == ENTER else
                    "the first player is drawn first (T-START)"))
            return None
        if isinstance(action, (Keep, Again)):
            if self.phase != CHOOSE:
                raise self._refuse("T-ROLL", "keeping or trying again is decided once, after the first attempt")
            if seat is not None and seat != self.active:
                raise self._refuse("T-ROLL", f"only the active seat {self.active + 1} rolls")
            if isinstance(action, Again) and action not in self.legal_actions():
                raise self._refuse("T-ROLL", "every die shows 1: a second attempt would roll nothing")
            return self.active
        if not isinstance(action, (Enter, CrossOut)):
            raise InvalidInputError(f"{action!r} is not a twenty one action")
        if self.phase != ENTER:
            raise self._refuse("T-ENTER", "nobody enters before the roll is final (keep or second attempt)")
        seat = self.pending[0] if seat is None else seat
        if type(seat) is not int or not 0 <= seat < self.game.n_seats:
            raise InvalidInputError(f"no seat {seat!r} in a game of {self.game.n_seats}")
        if seat not in self.pending:
            self._refuse_second_action(action, seat)
        s = self.seats[seat]
        if isinstance(action, CrossOut):
            if type(action.field) is not int or not 0 <= action.field < N_FIELDS:
                raise InvalidInputError(f"a cross-out names a field 1-{N_FIELDS}, got {action.field!r}", rule="T-CROSS")
            leftmost = cross_field(s.filled)
            if action.field != leftmost:
                raise self._refuse("T-CROSS", f"field {action.field + 1} is not the leftmost free field "
                                              f"(field {leftmost + 1}) of row {s.row + 1}", seat)
            return seat
        if not isinstance(action.colours, tuple) or Enter.of(*action.colours) != action:
            raise InvalidInputError(f"an entry names distinct dice in colour order, got {action.colours!r}",
                                    rule="T-ENTER")
        if not action.colours:
            raise self._refuse("T-ENTER", "enter at least one die, or cross out a field (T-CROSS)", seat)
        for c in action.colours:
            p = s.sheet.field_of[s.row][c]
            face, printed = self.dice.faces[c], s.sheet.value_at[s.row][p]
            if s.filled >> p & 1:
                raise self._refuse("T-ENTER", f"the {COLOURS[c]} field of row {s.row + 1} is taken", seat)
            if face > printed:
                raise self._refuse("T-ENTER", f"the {COLOURS[c]} {face} is higher than the {printed} "
                                              f"printed in its field of row {s.row + 1}", seat)
        return seat

    def _refuse_second_action(self, action: Enter | CrossOut, seat: int) -> None:
        """A seat that has already entered or crossed this round: name the rule it would break."""
        s = self.seats[seat]
        if s.filled_row is not None and isinstance(action, Enter):
            raise self._refuse("T-ONE-ROW", f"row {s.filled_row + 1} was filled this round; row {s.filled_row + 2} "
                                            f"is used from the next round on", seat)
        if isinstance(action, CrossOut) or isinstance(s.acted, CrossOut):
            raise self._refuse("T-CROSS", "never both entering and crossing out, and at most one cross-out, "
                                          "in a round", seat)
        raise self._refuse("T-ENTER", "this seat has already entered its dice this round "
                                      "(a round's entries are one action)", seat)

    # ---- internals -----------------------------------------------------------
    def _start_entering(self) -> None:
        """T-ENTER: every seat, the active one first, enters from the same roll."""
        n = self.game.n_seats
        self.pending = [(self.active + k) % n for k in range(n) if not self.seats[(self.active + k) % n].done]
        for s in self.seats:
            s.acted, s.filled_row = None, None
        self.phase = ENTER

    def _enter(self, seat: int, action: Enter | CrossOut) -> None:
        s = self.seats[seat]
        if isinstance(action, CrossOut):
            s.mark({action.field: CROSSED})
        else:
            s.mark({s.sheet.field_of[s.row][c]: self.dice.faces[c] for c in action.colours})
        s.acted = action
        self.pending.remove(seat)
        if s.done and not D.END_FINISHES_ROUND:
            self.pending = []
        if not self.pending:
            self._finish_round()

    def _finish_round(self) -> None:
        """T-END (the round is finished first, DECISION) and T-END-PARTIAL, else T-NEXT."""
        if any(s.done for s in self.seats):
            for s in self.seats:
                if not s.done:
                    s.scores.append(s.score_row(full=False))
            self.end_reason = END_REASON
            self.phase = OVER
            return
        self.round_index += 1
        self.active = (self.active + 1) % self.game.n_seats
        self.first = self.dice = None
        self.phase = ROLL

    # ---- copying, serialisation, replay, undo ---------------------------------
    def clone(self) -> "TwentyOneState":
        st = TwentyOneState.__new__(TwentyOneState)
        st.__dict__.update(self.__dict__)
        st.seats = [s.copy() for s in self.seats]
        st.pending = list(self.pending)
        st.history = list(self.history)
        return st

    def undo(self) -> "TwentyOneState":
        """The position before the last action (a replay of the history without it)."""
        if not self.history:
            raise NochmalError("nothing to undo")
        return replay(self.game, self.history[:-1])

    def summary(self, seat: int | None = None) -> str:
        """Compact position text for error messages (and the seat's row, if one is named)."""
        text = (f"twentyone v{self.game.rules_version} round={self.round_index + 1} phase={self.phase} "
                f"active=seat{self.active + 1} dice={self.dice if self.dice else '-'}")
        if seat is not None and 0 <= seat < len(self.seats):
            s = self.seats[seat]
            printed = "" if s.done else " printed " + " ".join(
                f"{COLOUR_LETTERS[c]}{v}" for c, v in zip(s.sheet.colour_at[s.row], s.sheet.value_at[s.row]))
            text += f" seat{seat + 1}={s.sheet.id} row{min(s.row, N_ROWS - 1) + 1}: {s.row_text()}{printed}"
        return text

    def to_json(self) -> dict:
        """Everything, every sheet included: all sheets are open to everyone (T-PEEK)."""
        return {
            "rules_version": self.game.rules_version,
            "game": self.game.config(),
            "round": self.round_index + 1,
            "phase": self.phase,
            "active": self.active,
            "first": self.first.to_json() if self.first else None,
            "dice": self.dice.to_json() if self.dice else None,
            "pending": list(self.pending),
            "end_reason": self.end_reason,
            "seats": [s.to_json() for s in self.seats],
            "history": [a.to_json() for a in self.history],
        }

    @classmethod
    def from_json(cls, data: dict) -> "TwentyOneState":
        """Rebuild a state by replaying its history (so a tampered file cannot make a position the
        rules do not allow), then check it matches what was saved."""
        if not isinstance(data, dict):
            raise InvalidInputError("a saved twenty one game must be an object")
        return check_saved(replay(TwentyOneGame.from_config(data.get("game")), data.get("history", [])), data,
                           ("round", "phase", "active", "seats", "end_reason"))


def replay(game: TwentyOneGame, actions: list) -> TwentyOneState:
    """Apply actions (or their JSON forms) one by one from the start; raises naming the first bad one."""
    return replay_actions(game.new_state(), actions, parse_action)


def play(state: TwentyOneState, policy, rng: random.Random, max_actions: int = 100_000) -> TwentyOneState:
    """Play to the end: chance nodes sample from ``rng``, players ask ``policy(state, rng)`` (which
    answers for ``state.current_player()``)."""
    for _ in range(max_actions):
        if state.is_terminal():
            return state
        state.apply(state.sample_chance(rng) if state.is_chance_node() else policy(state, rng))
    raise NochmalError(f"game did not end within {max_actions} actions")
