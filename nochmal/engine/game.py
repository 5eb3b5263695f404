"""The game contract shared by every mode (RULES.md sections 2, 4, 5).

A :class:`Game` is an immutable configuration (the variant's rules as class-level flags and a
few hook methods, plus the seats' sheets); a :class:`State` is one position. Every client
(app, CLI, bots, simulations, tests) uses the same five calls::

    state.current_player()   # a seat index, CHANCE (a roll is due), TEAM (a team decision), TERMINAL
    state.legal_actions()    # a sorted, lazy sequence; never empty until the game is over
    state.apply(action)      # a Roll, Cross or Pass (or a variant's decision); validates
    state.is_terminal()
    state.outcome()          # an Outcome: reason, per-seat breakdown, winners

Variants (:class:`BaseGame`, :class:`SoloGame`, the co-op game in ``nochmal.engine.coop``) differ only
by class flags and by overriding hooks — never by ``if mode == ...`` branches.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

from nochmal.engine.version import RULES_VERSION, SUPPORTED_RULES_VERSIONS
from nochmal.engine.cells import COLOURS, COLUMNS, N_COLS, indices, mask_of, names
from nochmal.engine.decisions import SOLO_ENDS_ON_SECOND_COLOUR
from nochmal.engine.dice import Roll, remove_faces
from nochmal.engine.contract import check_saved, replay_actions
from nochmal.engine.errors import IllegalMoveError, InvalidInputError, NochmalError
from nochmal.engine.moves import PASS, Cross, MoveList, Pass, check_cross, legal_moves, parse_cross
from nochmal.engine.sheet import Sheet, get_sheet

CHANCE = -1
TEAM = -2
TERMINAL = -4

ROLL, ACTIVE, PASSIVE, DECISION, OVER = "roll", "active", "passive", "decision", "over"


class Seat:
    """One player's sheet in a game."""

    __slots__ = ("sheet", "crossed", "jokers_used", "columns", "colours", "failed",
                 "new_columns", "new_colours", "_table_key", "_table", "_view", "_bits")

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        self.crossed = 0
        self.jokers_used = 0
        self.columns: dict[int, int] = {}  # completed column -> points scored for it
        self.colours: dict[int, int] = {}  # completed colour -> bonus scored for it
        self.failed = 0  # co-op failed rolls (C-FAIL)
        self.new_columns: list[int] = []  # completed in the current roll, not yet scored
        self.new_colours: list[int] = []
        self._table_key = -1
        self._table = None
        self._view = None  # a bot's cached evaluation of this seat (nochmal.bots.heuristic)
        self._bits = None  # (crossed, its cells as the compiled kernels' array) (nochmal.bots.kernel.solo_driver)

    @property
    def jokers_left(self) -> int:
        return self.sheet.jokers - self.jokers_used

    def table(self):
        """The sheet's move table for this seat's crosses (cached until the seat crosses)."""
        if self._table_key != self.crossed:
            self._table = self.sheet.move_table(self.crossed)
            self._table_key = self.crossed
        return self._table

    def cross(self, move: Cross) -> None:
        self.crossed |= move.cells
        self.jokers_used += move.joker_cost
        crossed = self.crossed
        cols = self.sheet.column_masks_touched(move.cells)
        for col, cmask in cols:
            if crossed & cmask == cmask and col not in self.columns and col not in self.new_columns:
                self.new_columns.append(col)
        cmask = self.sheet.colour_masks[move.colour]
        if crossed & cmask == cmask and move.colour not in self.colours and move.colour not in self.new_colours:
            self.new_colours.append(move.colour)

    def copy(self) -> "Seat":
        s = Seat.__new__(Seat)
        s.sheet = self.sheet
        s.crossed = self.crossed
        s.jokers_used = self.jokers_used
        s.columns = dict(self.columns)
        s.colours = dict(self.colours)
        s.failed = self.failed
        s.new_columns = list(self.new_columns)
        s.new_colours = list(self.new_colours)
        s._table_key = self._table_key
        s._table = self._table
        s._view = self._view
        s._bits = self._bits
        return s

    def to_json(self) -> dict:
        return {
            "sheet": self.sheet.id,
            "crossed": names(self.crossed),
            "jokers_used": self.jokers_used,
            "columns": {COLUMNS[c]: p for c, p in sorted(self.columns.items())},
            "colours": {COLOURS[c]: p for c, p in sorted(self.colours.items())},
            "failed": self.failed,
        }


@dataclass(frozen=True)
class SeatScore:
    """R-SCORE breakdown of one seat; ``total`` is the sum of the parts."""

    seat: int
    colours: int
    columns: int
    jokers: int
    stars: int  # negative: minus points for uncrossed stars
    total: int
    colours_completed: tuple[str, ...] = ()
    columns_completed: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {
            "seat": self.seat, "colours": self.colours, "columns": self.columns, "jokers": self.jokers,
            "stars": self.stars, "total": self.total, "colours_completed": list(self.colours_completed),
            "columns_completed": list(self.columns_completed),
        }


SOLO_BANDS = (  # R-SOLO-SCORE rating table, best first: (lowest score of the band, stars, words)
    (41, 5, "superhero"), (37, 5, "lucky or brilliant"), (33, 4, "professional level"),
    (29, 4, "excellent"), (25, 4, "very good"), (21, 3, "good run"), (17, 3, "experienced"),
    (13, 2, "good, can be better"), (9, 2, "getting there"), (5, 1, "not bad"),
    (1, 1, "needs practice"), (0, 0, "taking part is what counts"), (None, 0, "barely tried"),
)


def solo_band(score: int) -> tuple[int, int, str]:
    """(band index 0..12 best first, stars, words) for a solo score."""
    for i, (low, stars, words) in enumerate(SOLO_BANDS):
        if low is None or score >= low:
            return i, stars, words
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Outcome:
    """The end of a game as data."""

    mode: str
    reason: str
    rolls: int
    scores: tuple[SeatScore, ...]
    winners: tuple[int, ...]
    solo_band: tuple[int, int, str] | None = None
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        out = {
            "mode": self.mode, "reason": self.reason, "rolls": self.rolls,
            "scores": [s.to_json() for s in self.scores], "winners": list(self.winners),
        }
        if self.solo_band is not None:
            out["solo_band"] = {"band": self.solo_band[0], "stars": self.solo_band[1], "words": self.solo_band[2]}
        out.update(self.extra)
        return out


# --------------------------------------------------------------------------- actions
def parse_action(data: Any):
    """An action from its JSON form (``{"type": "roll"|"cross"|"pass", ...}``)."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise InvalidInputError(f"an action must be an object with a 'type', got {data!r}")
    kind = data["type"]
    if kind == "roll":
        c, n = data.get("colours"), data.get("numbers")
        if not isinstance(c, list) or not isinstance(n, list):
            raise InvalidInputError("a roll needs 'colours' and 'numbers' lists", rule="R-ROLL")
        return Roll.parse(c, n)
    if kind == "cross":
        return parse_cross(data)
    if kind == "pass":
        return PASS
    return _parse_variant_action(kind, data)


_VARIANT_ACTIONS: dict[str, Any] = {}


def register_action(kind: str, parser) -> None:
    """Variants register the JSON parsers of their own actions here."""
    _VARIANT_ACTIONS[kind] = parser


def _parse_variant_action(kind: str, data: dict):
    if kind not in _VARIANT_ACTIONS:
        raise InvalidInputError(f"unknown action type {kind!r}")
    return _VARIANT_ACTIONS[kind](data)


def action_to_json(action) -> dict:
    if isinstance(action, Roll):
        return {"type": "roll", **action.to_json()}
    return action.to_json()


# --------------------------------------------------------------------------- the game
class Game:
    """Rules of one variant (class flags + hooks) and the seats' sheets."""

    #: which game of this project it is (a stored game records it; *twenty one* is the other)
    game_name: ClassVar[str] = "nochmal"
    mode: ClassVar[str] = "base"
    #: what players call this variant (the app's words)
    title: ClassVar[str] = "base game"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    #: players when a caller names none (the CLI, simulations)
    default_players: ClassVar[int] = 2
    # ---- traits: what the variant has, for clients that must not compare mode names
    #: all seats win or lose together (co-op) rather than against each other
    cooperative: ClassVar[bool] = False
    #: a fixed number of rolls (solo: 30, co-op: 27 turns), or None (the game ends by R-END)
    n_rolls: ClassVar[int | None] = None
    #: a 27-field turn track with interim goals (C-TRACK); the game has ``tableau`` and ``n_turns``
    has_turn_track: ClassVar[bool] = False
    #: a mission decides the end (C-WIN); the game has ``mission`` and ``progress(state)``
    has_mission: ClassVar[bool] = False
    #: a pass is marked as a failed roll, and the last box loses (C-FAIL)
    has_failed_rolls: ClassVar[bool] = False
    #: what passing is called: "pass" or "failed roll"
    pass_name: ClassVar[str] = "pass"
    #: completing a second colour ends the game after that roll (R-END)
    ends_on_second_colour: ClassVar[bool] = True
    n_colour_dice: ClassVar[int] = 3
    n_number_dice: ClassVar[int] = 3
    free_rolls: ClassVar[int] = 3  # R-FIRST3: nothing is set aside in the first rolls
    colour_bonus: ClassVar[tuple[int, int]] = (5, 3)  # R-COLOUR-BONUS (first, later)
    star_penalty: ClassVar[int] = 2  # R-SCORE
    joker_value: ClassVar[int] = 1  # R-SCORE

    def __init__(self, sheets: list[Sheet | str], rules_version: int = RULES_VERSION) -> None:
        self.sheets = tuple(get_sheet(s) if isinstance(s, str) else s for s in sheets)
        self.rules_version = check_rules_version(rules_version)
        n = len(self.sheets)
        if not self.min_seats <= n <= self.max_seats:
            raise InvalidInputError(
                f"{self.mode} games take {self.min_seats}-{self.max_seats} players, got {n}")

    @property
    def n_seats(self) -> int:
        return len(self.sheets)

    def new_state(self) -> "State":
        return State(self)

    @classmethod
    def create(cls, players: int | None = None, *, sheets=None, mission: int | None = None, tableau=None,
               rules_version: int = RULES_VERSION) -> "Game":
        """A new game of this variant: ``players`` seats (may be left out only where the number
        is fixed, as in solo) on ``sheets`` (default: :meth:`default_sheets`). ``mission`` and
        ``tableau`` belong to variants with a mission; giving them to another variant is an error."""
        if mission is not None or tableau is not None:
            raise InvalidInputError(f"{cls.mode} games have no mission or tableau")
        n = cls.min_seats if players is None and cls.min_seats == cls.max_seats else players
        if not isinstance(n, int) or isinstance(n, bool) or not cls.min_seats <= n <= cls.max_seats:
            raise InvalidInputError(f"{cls.mode} games take {cls.min_seats}-{cls.max_seats} players, got {n!r}")
        return cls(list(sheets) if sheets else cls.default_sheets(n), rules_version=rules_version)

    @classmethod
    def default_sheets(cls, players: int) -> list[str]:
        """The sheet ids seats take unless chosen (base and solo: the standard sheet)."""
        return ["standard"] * players

    def failed_roll_boxes(self, seat: "Seat") -> int:
        """How many failed rolls ``seat`` may mark before the last one loses (0: passing is free)."""
        return 0

    def config(self) -> dict:
        """What is needed to rebuild this game (stored with every saved game)."""
        return {"mode": self.mode, "sheets": [s.id for s in self.sheets], "rules_version": self.rules_version}

    # ---- hooks -----------------------------------------------------------
    def dice_in_play(self, state: "State") -> tuple[int, int]:
        """How many colour and number dice are rolled now."""
        return self.n_colour_dice, self.n_number_dice

    def active_seat(self, state: "State") -> int:
        """R-NEXT: who is active in the current roll (round-robin clockwise)."""
        return state.roll_index % self.n_seats

    def sets_aside(self, state: "State") -> bool:
        """R-FIRST3: from the fourth roll on the active player's dice are set aside."""
        return state.roll_index >= self.free_rolls

    def on_pass(self, state: "State", seat: int) -> str | None:
        """R-ACTIVE / R-PASSIVE: passing costs nothing in the base game. A variant may return
        the reason the game ends at once (co-op: a third failed roll, C-FAIL)."""
        return None

    def roll_finished(self, state: "State") -> str | None:
        """R-END: the game ends after the roll in which someone completed a second colour.
        Returns the reason the game ended, or None."""
        if any(len(s.colours) >= 2 for s in state.seats):
            return "second colour completed (R-END)"
        return None

    # team decisions (co-op) -------------------------------------------------
    def decision_actions(self, state: "State") -> list:
        raise NochmalError("no team decision is due")

    def apply_decision(self, state: "State", action) -> None:
        raise IllegalMoveError("R-ORDER", f"{action!r} is not a decision this game knows")

    def extra_to_json(self, state: "State") -> dict:
        return {}

    def extra_from_json(self, state: "State", data: dict) -> None:
        pass

    # ---- scoring ---------------------------------------------------------
    def seat_score(self, state: "State", i: int) -> SeatScore:
        s = state.seats[i]
        colours = sum(s.colours.values())
        columns = sum(s.columns.values())
        jokers = s.jokers_left * self.joker_value
        stars = -self.star_penalty * (s.sheet.star_mask & ~s.crossed).bit_count()
        return SeatScore(i, colours, columns, jokers, stars, colours + columns + jokers + stars,
                         tuple(COLOURS[c] for c in sorted(s.colours)),
                         tuple(COLUMNS[c] for c in sorted(s.columns)))

    def outcome(self, state: "State") -> Outcome:
        scores = tuple(self.seat_score(state, i) for i in range(self.n_seats))
        # R-TIE: highest total, then more unused "!", otherwise shared
        best = max((sc.total, state.seats[sc.seat].jokers_left) for sc in scores)
        winners = tuple(sc.seat for sc in scores if (sc.total, state.seats[sc.seat].jokers_left) == best)
        return Outcome(self.mode, state.end_reason or "", state.roll_index + 1, scores, winners)


_MODES: dict[str, type[Game]] = {}


def register_mode(cls: type[Game]) -> type[Game]:
    """Variants register themselves here (the engine package imports every variant)."""
    _MODES[cls.mode] = cls
    return cls


def variant_names() -> list[str]:
    return sorted(_MODES)


class BaseGame(Game):
    """The competitive base game, 2-6 players (R-ROLL ... R-TIE)."""


register_mode(BaseGame)


class SoloGame(Game):
    """Solo mode (R-SOLO-*): 2 colour + 2 number dice, exactly 30 rolls, rating band."""

    mode = "solo"
    title = "solo"
    min_seats = max_seats = default_players = 1
    n_colour_dice = n_number_dice = 2
    n_rolls = 30
    ends_on_second_colour = SOLO_ENDS_ON_SECOND_COLOUR

    def sets_aside(self, state):  # one player: nobody else picks
        return False

    def roll_finished(self, state):
        if self.ends_on_second_colour and len(state.seats[0].colours) >= 2:
            return "second colour completed"
        if state.roll_index + 1 >= self.n_rolls:
            return f"{self.n_rolls} rolls played (R-SOLO-LEN)"
        return None

    def outcome(self, state):
        out = super().outcome(state)
        return Outcome(out.mode, out.reason, out.rolls, out.scores, out.winners,
                       solo_band=solo_band(out.scores[0].total))


register_mode(SoloGame)


# --------------------------------------------------------------------------- the state
class State:
    """A position. Mutable; :meth:`clone` for search. ``history`` holds every action applied."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seats = [Seat(sh) for sh in game.sheets]
        self.roll_index = 0  # 0-based index of the current roll (= turn - 1)
        self.phase = ROLL
        self.dice: Roll | None = None
        self.active = game.active_seat(self)
        self.active_move = None  # what the active seat did this roll
        self.left: tuple[tuple[int, ...], tuple[int, ...]] | None = None  # dice for the others
        self.pending: list[int] = []  # seats still to decide in this roll, in clockwise order
        self.claimed_columns = 0  # bit c: column c completed by somebody in an earlier roll
        self.claimed_colours = 0
        self.end_reason: str | None = None
        self.history: list = []
        self.completed_now: list[tuple[int, int]] = []  # (seat, column) completed in the roll just finished
        self.extra: dict = {}  # variant state (co-op: turn track, removed dice, checks, ...)

    # ---- the contract ------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == ROLL:
            return CHANCE
        if self.phase == ACTIVE:
            return self.active
        if self.phase == PASSIVE:
            return self.pending[0]
        if self.phase == DECISION:
            return TEAM
        return TERMINAL

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase == ROLL

    def dice_for(self, seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The dice faces ``seat`` may pick from in the current roll."""
        if self.phase == ACTIVE and seat == self.active:
            return self.dice.colours, self.dice.numbers
        if self.phase == PASSIVE and seat in self.pending:
            return self.left
        return (), ()

    def legal_actions(self, seat: int | None = None):
        """Every legal action of the player to move (or of ``seat``, a passive seat that has
        not decided yet), sorted. At a chance node: empty (roll with :meth:`sample_roll`)."""
        if self.phase in (ACTIVE, PASSIVE):
            if seat is None:
                seat = self.current_player()
            s = self.seats[seat]
            cf, nf = self.dice_for(seat)
            return legal_moves(s.sheet, s.crossed, s.jokers_left, cf, nf, s.table())
        if self.phase == DECISION:
            return self.game.decision_actions(self)
        return []

    def sample_roll(self, rng: random.Random) -> Roll:
        nc, nn = self.game.dice_in_play(self)
        return Roll.sample(rng, nc, nn)

    def apply(self, action, seat: int | None = None) -> None:
        """Apply a roll, a seat's cross/pass, or a team decision. Validates first: an illegal
        action raises (IllegalMoveError / InvalidInputError) and changes nothing. ``seat`` lets
        passive seats decide in any order (they decide independently, R-ORDER)."""
        if self.phase == OVER:
            raise IllegalMoveError("R-END", "the game is over", self.summary())
        if isinstance(action, Roll):
            self._apply_roll(action)
        elif isinstance(action, (Cross, Pass)):
            self._apply_move(action, seat)
        elif self.phase == DECISION:
            self.game.apply_decision(self, action)
        else:
            raise IllegalMoveError("R-ORDER", f"{action!r} is not expected now (phase {self.phase})", self.summary())
        self.history.append(action)

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise NochmalError("the game is not over yet")
        return self.game.outcome(self)

    # ---- internals -----------------------------------------------------------
    def _apply_roll(self, roll: Roll) -> None:
        if self.phase != ROLL:
            raise IllegalMoveError("R-ROLL", "a roll is not due now: players are still deciding", self.summary())
        nc, nn = self.game.dice_in_play(self)
        if len(roll.colours) != nc or len(roll.numbers) != nn:
            raise InvalidInputError(
                f"this roll needs {nc} colour dice and {nn} number dice, got {len(roll.colours)} and {len(roll.numbers)}",
                rule="R-ROLL")
        if any(not 0 <= f <= 5 for f in roll.colours + roll.numbers):
            raise InvalidInputError(f"impossible die face in {roll!r}", rule="R-DICE")
        self.dice = Roll.of(roll.colours, roll.numbers)
        self.active = self.game.active_seat(self)
        self.active_move = None
        self.left = None
        self.phase = ACTIVE

    def _apply_move(self, move, seat: int | None) -> None:
        if self.phase not in (ACTIVE, PASSIVE):
            raise IllegalMoveError("R-ORDER", "no player may cross now", self.summary())
        if seat is None:
            seat = self.current_player()
        elif self.phase == ACTIVE and seat != self.active:
            raise IllegalMoveError("R-ORDER", f"seat {seat + 1} must wait: the active seat {self.active + 1} decides first",
                                   self.summary())
        elif self.phase == PASSIVE and seat not in self.pending:
            raise IllegalMoveError("R-ORDER", f"seat {seat + 1} has already decided in this roll", self.summary())
        s = self.seats[seat]
        cf, nf = self.dice_for(seat)
        if isinstance(move, Cross):
            check_cross(s.sheet, s.crossed, s.jokers_left, move, cf, nf,
                        dice_rule="R-ACTIVE" if self.phase == ACTIVE else "R-PASSIVE")
            s.cross(move)
        else:
            reason = self.game.on_pass(self, seat)
            if reason:  # the game ends the moment the pass is marked: nobody else decides
                self._settle_roll()
                self.end_reason, self.phase = reason, OVER
                return
        if self.phase == ACTIVE:
            self.active_move = move
            if isinstance(move, Cross) and self.game.sets_aside(self):
                self.left = (remove_faces(cf, move.colour_die), remove_faces(nf, move.number_die))
            else:  # R-FIRST3, R-ACTIVE-PASS
                self.left = (cf, nf)
            n = self.game.n_seats
            self.pending = [(self.active + k) % n for k in range(1, n)]
            self.phase = PASSIVE
        else:
            self.pending.remove(seat)
        if not self.pending:
            self._finish_roll()

    def _finish_roll(self) -> None:
        """R-FIRST: settle column and colour firsts for the whole roll, then the end checks."""
        self._settle_roll()
        self.phase = ROLL
        reason = self.game.roll_finished(self)  # may also open a DECISION phase
        if reason:
            self.end_reason = reason
            self.phase = OVER
        elif self.phase == ROLL:
            self.advance()

    def _settle_roll(self) -> None:
        """R-FIRST: score the columns and colours completed in this roll (ties share firsts)."""
        first_c, later_c = self.game.colour_bonus
        new_cols = new_colours = 0
        self.completed_now = [(i, col) for i, s in enumerate(self.seats) for col in s.new_columns]
        for s in self.seats:
            for col in s.new_columns:
                claimed = self.claimed_columns >> col & 1
                s.columns[col] = s.sheet.later_points[col] if claimed else s.sheet.first_points[col]
                new_cols |= 1 << col
            for c in s.new_colours:
                s.colours[c] = later_c if self.claimed_colours >> c & 1 else first_c
                new_colours |= 1 << c
            s.new_columns.clear()
            s.new_colours.clear()
        self.claimed_columns |= new_cols
        self.claimed_colours |= new_colours
        self.pending = []

    def advance(self) -> None:
        """Move on to the next roll (called by variants after a team decision too)."""
        self.roll_index += 1
        self.dice = None
        self.left = None
        self.active = self.game.active_seat(self)
        self.phase = ROLL

    # ---- copying, serialisation, replay ---------------------------------------
    def clone(self) -> "State":
        st = State.__new__(State)
        st.__dict__.update(self.__dict__)
        st.seats = [s.copy() for s in self.seats]
        st.pending = list(self.pending)
        st.history = list(self.history)
        st.extra = copy.deepcopy(self.extra) if self.extra else {}
        return st

    def summary(self) -> str:
        """Compact position text for error messages."""
        return (f"mode={self.game.mode} roll={self.roll_index + 1} phase={self.phase} "
                f"active=seat{self.active + 1} dice={self.dice if self.dice else '-'}")

    def to_json(self) -> dict:
        return {
            "rules_version": self.game.rules_version,
            "game": self.game.config(),
            "roll_index": self.roll_index,
            "phase": self.phase,
            "active": self.active,
            "dice": self.dice.to_json() if self.dice else None,
            "active_move": action_to_json(self.active_move) if self.active_move is not None else None,
            "left": (Roll(*self.left).to_json() if self.left is not None else None),
            "pending": list(self.pending),
            "claimed_columns": [COLUMNS[c] for c in range(N_COLS) if self.claimed_columns >> c & 1],
            "claimed_colours": [COLOURS[c] for c in range(5) if self.claimed_colours >> c & 1],
            "end_reason": self.end_reason,
            "seats": [s.to_json() for s in self.seats],
            "extra": self.game.extra_to_json(self),
            "history": [action_to_json(a) for a in self.history],
        }

    @classmethod
    def from_json(cls, game: Game, data: dict) -> "State":
        """Rebuild a state from :meth:`to_json` output by replaying its history (so a tampered
        file cannot produce a position the rules do not allow), then check it matches."""
        return check_saved(replay(game, data.get("history", [])), data,
                           ("roll_index", "phase", "seats", "extra", "end_reason"))


def replay(game: Game, actions: list) -> State:
    """Apply JSON actions one by one from the start; raises naming the first bad action."""
    return replay_actions(game.new_state(), actions, parse_action)




def check_rules_version(version: object) -> int:
    """A rules version this program can play or replay, else InvalidInputError."""
    if type(version) is not int or version not in SUPPORTED_RULES_VERSIONS:
        raise InvalidInputError(f"rules version {version!r} is not supported: this program plays rules version "
                                f"{RULES_VERSION} and replays {', '.join(map(str, SUPPORTED_RULES_VERSIONS))}")
    return int(version)


def variant(mode: object) -> type[Game]:
    """The game class of a variant by its name ("base", "solo", "coop": every variant the
    engine package registered)."""
    if mode not in _MODES:
        raise InvalidInputError(f"unknown mode {mode!r}: {', '.join(sorted(_MODES))}")
    return _MODES[mode]


def game_from_config(config: dict) -> Game:
    if not isinstance(config, dict):
        raise InvalidInputError(f"a game config must be an object, got {config!r}")
    cls = variant(config.get("mode"))
    version = check_rules_version(config.get("rules_version", RULES_VERSION))
    return cls.from_config(config) if hasattr(cls, "from_config") else cls(config["sheets"], rules_version=version)


def play(state: State, policy, rng: random.Random, max_actions: int = 100_000) -> State:
    """Play to the end: chance nodes sample from ``rng``, players ask ``policy(state, rng)``."""
    for _ in range(max_actions):
        if state.is_terminal():
            return state
        if state.is_chance_node():
            state.apply(state.sample_roll(rng))
        else:
            state.apply(policy(state, rng))
    raise NochmalError(f"game did not end within {max_actions} actions")
