"""Games played straight through the engine for the tests of what the app tells the players:
:class:`Table` plays a game as a table with the companion would (each roll entered, then every
seat's decision) and keeps the event log ``GameSession`` would record; :func:`towards` and
:func:`quiet` choose crosses; co-op games get a tableau whose goals a test chooses."""

from __future__ import annotations

from nochmal.engine.cells import COLUMN_MASKS, COLUMNS, mask_of, neighbours
from nochmal.engine.coop import CoopGame
from nochmal.engine.coopdata import get_tableau, tableau_from_data
from nochmal.engine.dice import Roll
from nochmal.engine.game import BaseGame
from nochmal.engine.moves import PASS, Cross
from nochmal.engine.sheet import get_sheet
from nochmal.store.events import UndoEvent, event_for, fold
from nochmal.ui.narration import news

Y, G, B, R, O = range(5)
STD = get_sheet("standard")
COOP_I = get_sheet("coop-I")


def M(cells: str) -> int:
    return mask_of(cells.split())


def col(letter: str) -> int:
    return COLUMN_MASKS[COLUMNS.index(letter)]


def tableau(players: int, **values):
    data = get_tableau(players).model_dump(mode="json")
    data["id"] = f"test-{players}"
    for key, value in values.items():
        data[key] = {"value": value, "provenance": "user"}
    return tableau_from_data(data, "test tableau")


def coop(players: int, mission: int = 1, **values) -> CoopGame:
    defaults = {"goal_10": 0, "goal_19": 0, "goal_27": 0, "m1_colours": 5}
    defaults.update(values)
    return CoopGame.create(players, mission, tableau=tableau(players, **defaults))


def base(n: int):
    return BaseGame(["standard"] * n).new_state()


def distance(frm: int, to: int) -> int:
    """Orthogonal steps from the cells ``frm`` to the nearest cell of ``to``."""
    if not to:
        return 0
    d, reach = 0, frm
    while not reach & to:
        grown = reach | neighbours(reach)
        if grown == reach:
            return 99
        reach, d = grown, d + 1
    return d


def towards(state, seat: int, target: int) -> Cross:
    """A legal cross (no jokers) bringing ``seat`` closest to having crossed all of ``target``."""
    s = state.seats[seat]
    table = s.sheet.move_table(s.crossed)
    rest = target & ~s.crossed
    best = None
    for colour in range(5):
        for k in range(1, 6):
            for m in table[colour][k]:
                key = ((m & rest).bit_count(), -distance(s.crossed | m, rest & ~m), -k)
                if best is None or key > best[0]:
                    best = (key, Cross(colour, k, colour, m))
    return best[1]


def quiet(state, seat: int, colours=()) -> Cross:
    """A one-cell cross that completes nothing and crosses no star (colours in ``colours`` first)."""
    s = state.seats[seat]
    table = s.sheet.move_table(s.crossed)
    order = list(colours) + [c for c in range(5) if c not in colours]
    for colour in order:
        for m in table[colour][1]:
            after = s.crossed | m
            if m & s.sheet.star_mask:
                continue
            if any(after & cm == cm and s.crossed & cm != cm for cm in COLUMN_MASKS):
                continue
            cm = s.sheet.colour_masks[colour]
            if after & cm == cm:
                continue
            return Cross(colour, 1, colour, m)
    return PASS


class Table:
    """Plays a game like a table with the companion: each roll is entered, then every seat's
    decision, and every action is kept as the event ``GameSession`` would record."""

    def __init__(self, game) -> None:
        self.game = game
        self.state = game.new_state()
        self.events: list = []

    def record(self, action, seat=None) -> None:
        self.state.apply(action, seat)
        self.events.append(event_for(action, len(self.events), seat, rules_version=self.game.rules_version))

    def undo(self) -> None:
        self.events.append(UndoEvent(seq=len(self.events), undoes=self.events[-1].seq,
                                     rules_version=self.game.rules_version))
        self.state = fold(self.game, self.events).state

    def turn(self, moves: dict | None = None) -> None:
        """One roll. ``moves``: seat -> a Cross, a cell mask (crossed with its own colour and
        count), "pass", or a function (state, seat) -> action. Other seats pass (base game) or
        make a quiet cross (co-op: a pass would be a failed roll). Dice are rolled to fit."""
        st, game = self.state, self.game
        moves = dict(moves or {})
        acts = {}
        for seat in range(game.n_seats):
            m = moves.get(seat)
            if callable(m):
                m = m(st, seat)
            if isinstance(m, int):
                i = (m & -m).bit_length() - 1
                colour = st.seats[seat].sheet.colour_of[i]
                m = Cross(colour, m.bit_count(), colour, m)
            if m is None:
                m = quiet(st, seat) if game.has_failed_rolls else PASS
            acts[seat] = PASS if m == "pass" else m
        active = st.active
        nc, nn = game.dice_in_play(st)
        a = acts[active]
        aside = isinstance(a, Cross) and game.sets_aside(st)
        others = [acts[s] for s in range(game.n_seats) if s != active and isinstance(acts[s], Cross)]
        mine = [a] if isinstance(a, Cross) else []
        if aside:  # the active seat's dice are set aside: the others need their own
            cols = [a.colour_die] + list(dict.fromkeys(x.colour_die for x in others))
            nums = [a.number_die] + list(dict.fromkeys(x.number_die for x in others))
        else:
            cols = list(dict.fromkeys(x.colour_die for x in mine + others))
            nums = list(dict.fromkeys(x.number_die for x in mine + others))
        assert len(cols) <= nc and len(nums) <= nn, f"no roll fits {acts}"
        cols += [cols[0] if cols else Y] * (nc - len(cols))
        nums += [nums[0] if nums else 1] * (nn - len(nums))
        self.record(Roll.of(cols, nums))
        self.record(a, active)
        for seat in list(st.pending):
            if st.phase != "passive":
                break
            self.record(acts[seat], seat)

    def decide(self, action=None) -> None:
        self.record(action if action is not None else self.state.legal_actions()[0])

    def texts(self, names) -> list[str]:
        return [it.text for it in news(self.game, self.events, names)]
