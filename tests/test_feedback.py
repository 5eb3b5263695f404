"""Feedback where the eye is (issue 19, item 4), the pure parts: refusals in words
(``nochmal.ui.explain``), the marks under a sheet's columns and colours, the announcements of a
game and "nothing to cross" (``nochmal.ui.tableview``), and the marks drawn by ``sheet_html``.

Positions are real: games played through ``State.apply`` (rolls entered as a table would), or
for the marks, a position set up as in ``test_rules.py`` (``seat.crossed`` set directly, then the
decisive crosses through ``apply``). The announcements are computed from real event logs
(``event_for``), the way ``GameSession`` records a game.
"""

from __future__ import annotations

import random
import re
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from nochmal.engine.cells import COLUMN_MASKS, COLUMNS, mask_of, neighbours
from nochmal.engine.coop import CoopGame, StrikeJokers
from nochmal.engine.coopdata import get_tableau, tableau_from_data
from nochmal.engine.dice import Roll
from nochmal.engine.errors import IllegalMoveError, InvalidInputError
from nochmal.engine.game import BaseGame, SoloGame
from nochmal.engine.moves import PASS, Cross
from nochmal.engine.sheet import get_sheet
from nochmal.store.events import CrossEvent, UndoEvent, event_for, fold
from nochmal.ui.explain import (
    event_text,
    RULE_ID_RE,
    RULE_WORDS,
    Refusal,
    cell_label,
    refusal,
    relabel_cells,
    strip_rule_ids,
)
from nochmal.ui.sheetview import sheet_html
from nochmal.ui.tableview import Item, colour_marks, column_marks, news, no_legal_cross

Y, G, B, R, O = range(5)
RULES_MD = Path(__file__).resolve().parents[1].parent / "shared" / "RULES.md"
ENGINE_CELL = re.compile(r"\b[A-O][1-7]\b")
STD = get_sheet("standard")
COOP_I = get_sheet("coop-I")


def M(cells: str) -> int:
    return mask_of(cells.split())


def col(letter: str) -> int:
    return COLUMN_MASKS[COLUMNS.index(letter)]


# --------------------------------------------------------------------------- a table that keeps a log
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


NAMES = ["Ann", "Bo", "Cy"]


# =========================================================================== explain: words
def rules_md_ids() -> list[str]:
    if not RULES_MD.is_file():
        pytest.skip(f"the rules specification is not here ({RULES_MD}): the shared folder is absent")
    text = RULES_MD.read_text(encoding="utf-8")
    ids = set(re.findall(r"\b(?:R|C)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b", text))
    ids |= set(re.findall(r"\*\*(M[1-9])\b", text))
    return sorted(ids)


def test_every_rule_id_of_RULES_md_has_plain_words():
    ids = rules_md_ids()
    assert {"R-ADJ", "R-COLUMN", "R-FIRST", "C-POINTS", "C-FAIL", "M1", "M5"} <= set(ids)
    missing = [i for i in ids if not RULE_WORDS.get(i, "").strip()]
    assert not missing, f"no words for {missing}"


def test_rule_words_are_sentences_without_rule_ids():
    for rule, words in RULE_WORDS.items():
        assert not RULE_ID_RE.search(words), (rule, words)
        assert words[0].isupper() and words.endswith("."), (rule, words)
        assert len(words) < 260, rule
    assert RULE_WORDS["R-ADJ"].startswith("A cross must touch a cell you already crossed")


def test_rule_id_pattern_and_stripping():
    assert RULE_ID_RE.findall("R-ADJ, C-GOAL-10, R-COLOUR-BONUS, (M5) and rule M2") == [
        "R-ADJ", "C-GOAL-10", "R-COLOUR-BONUS", "M5", "M2"]
    assert not RULE_ID_RE.search("cross M5 and H4, seat 2")  # M5 alone is a cell of the sheet
    assert strip_rule_ids("Failed roll (C-FAIL)") == "Failed roll"
    assert strip_rule_ids("R-ORDER: seat 2 must wait") == "seat 2 must wait"
    assert strip_rule_ids("a third failed roll at the final check (C-GOAL-27)") == \
        "a third failed roll at the final check"
    assert strip_rule_ids("both (rules R-FIRST, R-COLUMN) count") == "both count"
    assert strip_rule_ids("see rule R-ADJ.") == "see."
    assert strip_rule_ids("nothing to strip in A1") == "nothing to strip in A1"


def test_cell_label_names_cells_as_the_sheet_labels_them():
    assert cell_label(STD, "E3") == "E3"
    assert cell_label(COOP_I, "E2") == "EQ"
    assert cell_label(COOP_I, "A1") == "AP" and cell_label(COOP_I, "O7") == "OV"
    assert cell_label(COOP_I, 7) == "HP"  # by index too
    assert relabel_cells(COOP_I, "no cell of E2, E3 is in column H") == "no cell of EQ, ER is in column H"
    assert relabel_cells(STD, "E2, E3") == "E2, E3"
    assert relabel_cells(None, "E2") == "E2"


# --------------------------------------------------------------------------- refusals of real entries
def coop_after_first_roll(players: int = 2):
    st = coop(players).new_state()
    st.apply(Roll.of([Y, G, B], [1, 2, 3]))
    return st


def refused(state, action, seat=None) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        state.apply(action, seat)
    return info.value


def test_R_START_refusal_in_words_on_a_coop_sheet():
    st = coop_after_first_roll()
    err = refused(st, Cross(Y, 1, Y, M("E1")))  # coop-I E1 is yellow, not in column H
    assert err.rule == "R-START"
    r = refusal(err, st.seats[0].sheet)
    assert isinstance(r, Refusal) and r.rule == "R-START"
    assert r.words == "Your first cross must include a cell of the start column H."
    assert r.why.endswith("(rule R-START)") and RULE_WORDS["R-START"] in r.why


def test_R_ADJ_refusal_names_cells_as_the_coop_sheet_labels_them():
    st = coop_after_first_roll()
    st.apply(Cross(G, 1, G, M("H1")))  # coop-I H1 (HP) is green
    st.apply(Cross(G, 1, G, M("H1")), 1)
    st.apply(Roll.of([Y, G, B], [1, 2, 3]))
    seat = st.current_player()
    err = refused(st, Cross(Y, 2, Y, M("E1 F1")))
    assert err.rule == "R-ADJ" and "E1" in err.reason
    r = refusal(err, st.seats[seat].sheet)
    assert r.words == "Neither EP nor FP is in column H or next to a cell you already crossed."
    assert not ENGINE_CELL.search(r.words)
    assert r.why == RULE_WORDS["R-ADJ"] + " (rule R-ADJ)"
    # a standard sheet keeps its names
    assert "E1" in refusal(err, STD).words and "EP" not in refusal(err, STD).words


def test_R_COLOUR_refusal_in_words_on_a_coop_sheet():
    st = coop_after_first_roll()
    err = refused(st, Cross(Y, 1, Y, M("H1")))  # HP is green, the die is yellow
    assert err.rule == "R-COLOUR"
    r = refusal(err, st.seats[0].sheet)
    assert r.words == "HP is not yellow: every cell you cross must be yellow."
    err = refused(st, Cross(Y, 1, G, M("H1")))  # the die shows yellow, green chosen
    assert refusal(err, COOP_I).words == "The colour die shows yellow, so you cannot cross green cells with it."


def test_R_COUNT_refusal_in_words_on_a_coop_sheet():
    st = coop_after_first_roll()
    err = refused(st, Cross(G, 2, G, M("H1")))
    assert err.rule == "R-COUNT"
    r = refusal(err, COOP_I)
    assert r.words == "The number die shows 2, but you chose 1 cell: cross exactly 2."
    assert r.why.endswith("(rule R-COUNT)")


def test_refusal_from_the_event_log_drops_the_event_prefix_and_the_position():
    game = coop(2)
    events = [event_for(Roll.of([Y, G, B], [1, 2, 3]), 0),
              event_for(Cross(Y, 1, Y, M("E1")), 1, 0)]
    with pytest.raises(IllegalMoveError) as info:
        fold(game, events)
    assert info.value.reason.startswith("event 1 (cross): ")
    r = refusal(info.value, COOP_I)
    assert r.words == "Your first cross must include a cell of the start column H."
    # malformed input wrapped by the log: the rule id sits inside the text
    bad = [event_for(Roll.of([Y, G, B], [1, 2, 3]), 0).model_copy(update={"colours": ("yellow",)})]
    with pytest.raises(InvalidInputError) as info:
        fold(game, bad)
    r = refusal(info.value, COOP_I)
    assert r.rule == "R-ROLL" and r.words.startswith("This roll needs 3 colour dice")
    assert not RULE_ID_RE.search(r.words) and "[" not in r.words


def test_refusal_of_input_without_rule_and_of_other_rules():
    r = refusal(InvalidInputError("tap the cells to cross first", rule="R-COUNT"))
    assert (r.words, r.rule) == ("Tap the cells to cross first.", "R-COUNT")
    r = refusal(InvalidInputError("nothing to undo"))
    assert (r.words, r.rule, r.why) == ("Nothing to undo.", None, "")
    r = refusal(IllegalMoveError("R-PASSIVE", "no colour die showing blue is available (available: yellow, green)"))
    assert r.words == "No colour die showing blue is available to you: the colour dice you may use show yellow and green."
    r = refusal(IllegalMoveError("R-ACTIVE", "no colour die showing X is available (available: blue, blue, red)"))
    assert r.words == ("No colour die showing the black X is available to you: "
                       "the colour dice you may use show blue and red.")
    r = refusal(IllegalMoveError("R-JOKER-COST", 'the move needs 2 "!" but 0 are left'))
    assert r.words == 'This cross needs 2 "!" for its jokers, but you have none left.'


def random_cells(sheet, rng: random.Random) -> int:
    """Mostly plausible cell sets: a connected piece of one colour block (sometimes two pieces),
    else a few cells anywhere."""
    if rng.random() < 0.25:
        return sum(1 << rng.randrange(105) for _ in range(rng.randrange(1, 7)))
    cells = 0
    for _ in range(1 if rng.random() < 0.8 else 2):
        block = sheet.blocks[rng.randrange(len(sheet.blocks))]
        cells |= rng.choice(block.subsets)  # connected, 1 to 5 cells
    return cells


def test_no_rule_id_and_no_engine_cell_name_in_the_words_of_refused_crosses():
    """Random illegal crosses on co-op positions, with random dice or with jokers (so that the
    dice pass and the cells are judged): the words never carry a rule id, cells are named by
    rows P..V, and every rule the engine cites has general words."""
    rng = random.Random(19)
    seen = set()
    for _ in range(80):
        st = coop(2).new_state()
        for _turn in range(rng.randrange(0, 8)):
            st.apply(Roll.of([rng.randrange(6) for _ in range(3)], [rng.randrange(6) for _ in range(3)]))
            while st.current_player() >= 0:
                acts = st.legal_actions()
                st.apply(acts[rng.randrange(1, len(acts))] if len(acts) > 1 else PASS)
            if st.current_player() != -1:
                break
        if st.current_player() != -1:
            continue
        jokers = rng.random() < 0.5
        st.apply(Roll.of([5, 5, 5], [0, 0, 0]) if jokers else
                 Roll.of([rng.randrange(6) for _ in range(3)], [rng.randrange(6) for _ in range(3)]))
        seat = st.current_player()
        sheet = st.seats[seat].sheet
        for _ in range(25):
            cells = random_cells(sheet, rng)
            colour = sheet.colour_of[(cells & -cells).bit_length() - 1] if rng.random() < 0.8 else rng.randrange(5)
            move = Cross(5, 0, colour, cells) if jokers else Cross(rng.randrange(6), rng.randrange(6), colour, cells)
            try:
                st.clone().apply(move, seat)
            except (IllegalMoveError, InvalidInputError) as err:
                r = refusal(err, sheet)
                seen.add(r.rule)
                assert not RULE_ID_RE.search(r.words), (err, r)
                assert not ENGINE_CELL.search(r.words), (err, r)
                assert r.words[0].isupper() and r.words.endswith((".", "!", "?")), r
                assert r.rule is None or r.rule in RULE_WORDS, r.rule
    assert {"R-ADJ", "R-START", "R-COLOUR", "R-COUNT", "R-ACTIVE", "R-FREE", "R-BLOCK"} <= seen, seen


# =========================================================================== marks under the sheet
def base(n: int):
    return BaseGame(["standard"] * n).new_state()


def test_R_FIRST_two_seats_completing_column_in_same_roll_both_get_first():
    st = base(3)
    for s in (0, 2):
        st.seats[s].crossed = col("A") & ~M("A7")
    st.apply(Roll.of([Y, Y, G], [1, 1, 2]))  # roll 1: nothing set aside
    st.apply(Cross(Y, 1, Y, M("A7")))  # seat 0 (active) fills column A
    # not settled yet: seat 0 will score the first value; nobody has lost it yet (R-FIRST)
    assert column_marks(st, 0)[0] == "first"
    assert column_marks(st, 1)[0] is None and column_marks(st, 2)[0] is None
    st.apply(Cross(Y, 1, Y, M("A7")), 2)  # seat 2 fills it in the same roll
    assert column_marks(st, 2)[0] == "first"
    st.apply(PASS, 1)
    assert st.seats[0].columns == {0: 5} and st.seats[2].columns == {0: 5}
    assert column_marks(st, 0)[0] == column_marks(st, 2)[0] == "first"
    assert column_marks(st, 1)[0] == "gone"  # seat 1 can only score the later value now
    assert column_marks(st, 0)[1:] == [None] * 14


def test_R_COLUMN_a_later_completion_strikes_the_first_value_and_circles_the_later():
    st = base(2)
    st.seats[0].crossed = col("A") & ~M("A7")
    st.seats[1].crossed = col("A") & ~M("A7")
    st.apply(Roll.of([Y, G, B], [1, 2, 3]))
    st.apply(Cross(Y, 1, Y, M("A7")))
    st.apply(PASS, 1)
    assert column_marks(st, 0)[0] == "first" and column_marks(st, 1)[0] == "gone"
    st.apply(Roll.of([Y, G, B], [1, 2, 3]))
    assert st.current_player() == 1
    st.apply(Cross(Y, 1, Y, M("A7")))
    assert column_marks(st, 1)[0] == "later"  # before the roll is settled: claimed in an earlier roll
    st.apply(PASS, 0)
    assert st.seats[1].columns == {0: 3}
    assert column_marks(st, 1)[0] == "later" and column_marks(st, 0)[0] == "first"


def test_R_COLOUR_BONUS_marks_first_later_and_gone():
    st = base(3)
    yellow = STD.colour_masks[Y]
    for s in range(3):
        st.seats[s].crossed = yellow & ~M("A7")
    st.apply(Roll.of([Y, G, B], [1, 2, 3]))
    st.apply(Cross(Y, 1, Y, M("A7")))
    assert colour_marks(st, 0) == ["first", None, None, None, None]
    st.apply(PASS, 1)
    st.apply(PASS, 2)
    assert st.seats[0].colours == {Y: 5}
    assert colour_marks(st, 1)[Y] == "gone"
    st.apply(Roll.of([Y, G, B], [1, 2, 3]))
    st.apply(Cross(Y, 1, Y, M("A7")))  # seat 1 is active now
    st.apply(PASS, 2)
    st.apply(PASS, 0)
    assert st.seats[1].colours == {Y: 3}
    assert colour_marks(st, 1)[Y] == "later" and colour_marks(st, 0)[Y] == "first"
    assert colour_marks(st, 2)[Y] == "gone"


def test_C_NO_BONUS_a_completed_colour_is_done_in_coop():
    st = coop(2).new_state()
    st.seats[1].crossed = get_sheet("coop-II").colour_masks[G] & ~M("H1")
    q = quiet(st, 0)
    st.apply(Roll.of([q.colour_die, G, B], [1, 2, 3]))
    st.apply(q)
    assert colour_marks(st, 0) == [None] * 5
    sheet1 = st.seats[1].sheet
    assert sheet1.colour_of[7] == G
    st.apply(Cross(G, 1, G, M("H1")), 1)
    assert st.seats[1].colours == {G: 0}
    assert colour_marks(st, 1) == [None, "done", None, None, None]
    assert colour_marks(st, 0)[G] is None  # no bonus: nothing is gone for the others


def test_column_marks_in_coop_count_for_the_team_values():
    st = coop(2).new_state()
    st.seats[0].crossed = col("H") & ~M("H1")
    st.apply(Roll.of([G, Y, B], [1, 2, 3]))
    st.apply(Cross(G, 1, G, M("H1")))
    st.apply(quiet(st, 1, (G,)), 1)
    assert st.seats[0].columns == {7: 1}
    assert column_marks(st, 0)[7] == "first" and column_marks(st, 1)[7] == "gone"


def test_no_legal_cross_before_the_seat_tries():
    st = base(2)
    assert not no_legal_cross(st, 0)  # nobody decides before the roll
    blocked = None
    for c in range(5):
        for n in range(1, 6):
            trial = st.clone()
            trial.apply(Roll.of([c] * 3, [n] * 3))
            if trial.legal_actions().crosses() == 0:
                blocked = (c, n)
                break
        if blocked:
            break
    assert blocked, "some roll allows no first cross on the standard sheet"
    st.apply(Roll.of([blocked[0]] * 3, [blocked[1]] * 3))
    assert no_legal_cross(st, 0)
    assert not no_legal_cross(st, 1)  # seat 1 is not deciding yet (the active seat decides first)
    st.apply(PASS)
    assert no_legal_cross(st, 1)  # passive, same dice, same empty sheet
    st.apply(PASS, 1)
    st.apply(Roll.of([G, O, R], [1, 1, 1]))
    assert not no_legal_cross(st, st.current_player())


# =========================================================================== news
COLUMN_H_STD = [M("H1"), M("H2"), M("H3"), M("H4 H5"), M("H6 H7")]  # green, orange, red, blue, yellow


def test_news_R_COLUMN_first_then_later_and_its_event():
    t = Table(BaseGame(["standard"] * 2))
    for k in range(6):  # seat 0 fills column H in rolls 1-5, seat 1 in rolls 2-6
        moves = {}
        if k < 5:
            moves[0] = COLUMN_H_STD[k]
        if k >= 1:
            moves[1] = COLUMN_H_STD[k - 1]
        t.turn(moves)
    items = news(t.game, t.events, NAMES)
    cols = [it for it in items if it.kind == "column"]
    assert [(it.seat, it.text, it.points) for it in cols] == [
        (0, "Ann: Column H full — first! (1 point)", 1),
        (1, "Bo: Column H full (0 points)", 0)]
    ev = t.events[cols[0].seq]
    assert ev.type == "cross" and ev.seat == 0 and set(ev.cells) == {"H6", "H7"}
    assert t.state.seats[0].columns == {7: 1} and t.state.seats[1].columns == {7: 0}


def test_news_R_FIRST_same_roll_both_first():
    t = Table(BaseGame(["standard"] * 3))
    for k in range(5):
        t.turn({0: COLUMN_H_STD[k], 2: COLUMN_H_STD[k]})
    cols = [it for it in news(t.game, t.events, NAMES) if it.kind == "column"]
    assert sorted(it.text for it in cols) == ["Ann: Column H full — first! (1 point)",
                                              "Cy: Column H full — first! (1 point)"]
    assert cols[0].seq != cols[1].seq  # each at its own cross (seat 1 was active, Cy decided before Ann)


def test_news_announces_a_completion_before_the_roll_is_settled():
    t = Table(BaseGame(["standard"] * 2))
    for k in range(4):
        t.turn({0: COLUMN_H_STD[k]})
    t.record(Roll.of([Y, Y, Y], [2, 2, 2]))
    t.record(Cross(Y, 2, Y, M("H6 H7")), t.state.active)  # seat 0 is active in roll 5
    assert t.state.phase == "passive"
    assert t.texts(NAMES)[-1] == "Ann: Column H full — first! (1 point)"


def test_news_leaves_out_undone_events():
    t = Table(BaseGame(["standard"] * 2))
    for k in range(4):
        t.turn({0: COLUMN_H_STD[k]})
    t.record(Roll.of([Y, Y, Y], [2, 2, 2]))
    t.record(Cross(Y, 2, Y, M("H6 H7")), t.state.active)
    t.undo()
    assert not [x for x in t.texts(NAMES) if "Column" in x]
    assert t.texts(NAMES) == [it.text for it in news(t.game, [e.model_dump(mode="json") for e in t.events], NAMES)]


def test_news_R_COLOUR_BONUS_yellow_first_with_5_points():
    t = Table(BaseGame(["standard"] * 2))
    target = STD.colour_masks[Y]
    for _ in range(26):
        if t.state.seats[0].crossed & target == target:
            break
        t.turn({0: lambda st, seat: towards(st, seat, target)})
    assert t.state.seats[0].colours == {Y: 5}
    colours = [it for it in news(t.game, t.events, NAMES) if it.kind == "colour"]
    assert [(it.seat, it.text, it.points) for it in colours] == [(0, "Ann: Yellow complete — first! (5 points)", 5)]


def test_news_coop_colour_mission_step_and_win_C_WIN_M1():
    # one player, mission 1 with one colour: completing yellow is a colour, a mission step and the win
    game = coop(1, mission=1, m1_colours=1)
    t = Table(game)
    target = COOP_I.colour_masks[Y]
    for _ in range(27):
        if t.state.is_terminal():
            break
        t.turn({0: lambda st, seat: towards(st, seat, target)})
    assert t.state.is_terminal() and t.state.extra["won"]
    texts = t.texts(["Ann"])
    assert "Ann: Yellow complete" in texts  # no bonus points in co-op (C-NO-BONUS)
    assert "Mission: 1 of 1 different colours (yellow: Ann) — done!" in texts
    assert texts[-1].startswith("Mission complete — the team wins!")
    assert not [x for x in texts if "Column" in x and "for the team" not in x]


def test_news_coop_mission_step_M3_star_column():
    game = coop(2, mission=3)
    t = Table(game)
    t.turn({0: M("H1")})  # coop-I HP: a green star in column H
    items = news(t.game, t.events, NAMES)
    steps = [it for it in items if it.kind == "mission"]
    assert [(it.seat, it.text) for it in steps] == [(0, "Mission: 1 of 15 columns with a crossed star (column H: Ann)")]
    assert steps[0].seq == len(t.events) - 1  # announced when the turn is complete


def test_news_coop_mission_step_M5_next_column():
    game = coop(1, mission=5)
    t = Table(game)
    target = col("N")
    for _ in range(27):
        if t.state.seats[0].crossed & target == target:
            break
        t.turn({0: lambda st, seat: towards(st, seat, target)})
    steps = [x for x in t.texts(["Ann"]) if x.startswith("Mission N-O-C-H-M-A-L")]
    assert steps == ["Mission N-O-C-H-M-A-L: column N counts (Ann), next column O"]


def test_news_C_GOAL_10_missed_and_the_penalty():
    game = coop(2, goal_10=50, goal_19=50, goal_27=50, penalty_10_jokers=6)
    t = Table(game)
    for _ in range(10):
        t.turn()
    assert t.state.current_player() == -2  # the team decides how to strike 6 "!"
    t.decide(StrikeJokers((3, 3)))
    items = news(t.game, t.events, NAMES)
    goals = [it for it in items if it.kind == "goal"]
    assert [(it.text, it.points) for it in goals] == [
        ('Goal after turn 10 missed: 0 of 50 points — the team strikes 6 "!"', 0),
        ('Penalty: "!" struck — Ann 3, Bo 3', None)]


def test_news_C_GOAL_19_met():
    game = coop(2, goal_10=0, goal_19=0)
    t = Table(game)
    for _ in range(19):
        t.turn()
    texts = t.texts(NAMES)
    assert "Goal after turn 10 met: 0 of 0 points" in texts
    assert "Goal after turn 19 met: 0 of 0 points" in texts


def test_news_C_FAIL_failed_rolls_and_the_loss():
    game = coop(2)
    t = Table(game)
    for _ in range(3):
        t.turn({1: "pass"})
    assert t.state.is_terminal()
    items = news(t.game, t.events, NAMES)
    failed = [(it.seat, it.text) for it in items if it.kind == "failed"]
    assert failed == [(1, "Bo marks a failed roll: 1 of 3 failed rolls"),
                      (1, "Bo marks a failed roll: 2 of 3 failed rolls"),
                      (1, "Bo marks a failed roll: 3 of 3 failed rolls")]
    assert items[-1].kind == "end" and items[-1].text == "The team loses: a third failed roll (Bo)"
    # a lost game is announced without the trophy a win gets
    from nochmal.ui.panels.news import ICONS, icon
    assert icon(items[-1]) != ICONS["end"]
    assert icon(Item(0, None, "end", "Mission complete — the team wins! (3 points)", 3)) == ICONS["end"]


def test_news_C_GOAL_27_missed_marks_a_failed_roll_for_everybody():
    game = coop(2, goal_27=99)
    t = Table(game)
    for _ in range(27):
        t.turn()
    texts = t.texts(NAMES)
    assert "Goal after turn 27 missed: 16 of 99 points (unused \"!\" included) — everybody marks a failed roll" in texts
    assert "Ann marks a failed roll for the missed goal: 1 of 3 failed rolls" in texts
    assert texts[-1] == "The team loses: mission not complete after turn 27"


def test_news_R_END_base_game_end_names_the_winner():
    t = Table(BaseGame(["standard"] * 2))
    for colour in (Y, G):  # seat 0 completes two colours: the game ends after that roll
        target = STD.colour_masks[colour]
        for _ in range(30):
            if t.state.is_terminal() or t.state.seats[0].crossed & target == target:
                break
            t.turn({0: lambda st, seat: towards(st, seat, target)})
    assert t.state.is_terminal()
    total = t.state.outcome().scores[0].total
    texts = t.texts(NAMES)
    assert texts[-1] == f"Game over (second colour completed): Ann wins with {total} points"


def test_news_R_SOLO_LEN_solo_end_with_its_band():
    t = Table(SoloGame(["standard"]))
    for _ in range(30):
        t.turn({0: lambda st, seat: quiet(st, seat)})
    assert t.state.is_terminal()
    out = t.state.outcome()
    assert t.texts(["Ann"])[-1] == f"Game over: {out.scores[0].total} points — {out.solo_band[2]}"


def test_news_texts_carry_no_rule_ids():
    rng = random.Random(5)
    game = coop(3, goal_10=8, goal_19=20, goal_27=40)
    st = game.new_state()
    events = []
    while not st.is_terminal() and len(events) < 400:
        if st.current_player() == -1:
            action, seat = st.sample_roll(rng), None
        elif st.current_player() == -2:
            acts = st.legal_actions()
            action, seat = acts[rng.randrange(len(acts))], None
        else:
            acts = st.legal_actions()
            action, seat = (acts[rng.randrange(1, len(acts))] if len(acts) > 1 else PASS), st.current_player()
        st.apply(action, seat)
        events.append(event_for(action, len(events), seat))
    items = news(game, events, NAMES)
    assert items and all(isinstance(it, Item) for it in items)
    for it in items:
        assert not RULE_ID_RE.search(it.text), it
        assert it.kind in {"column", "colour", "mission", "goal", "failed", "end"}


# =========================================================================== sheet_html marks
class Parsed(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tds: list[dict] = []
        self._td = None

    def handle_starttag(self, tag, attrs):
        if tag == "td":
            self._td = {"attrs": dict(attrs), "html": ""}
            self.tds.append(self._td)
        elif self._td is not None:
            self._td["html"] += self.get_starttag_text()

    def handle_endtag(self, tag):
        if tag == "td":
            self._td = None
        elif self._td is not None:
            self._td["html"] += f"</{tag}>"

    def handle_data(self, data):
        if self._td is not None:
            self._td["html"] += data


def tds(html: str) -> list[dict]:
    p = Parsed()
    p.feed(html)
    return p.tds


def test_sheet_html_circles_and_strikes_column_values():
    marks = ["first", "later", "gone"] + [None] * 12
    html = sheet_html(STD, column_marks=marks)
    pts = [td for td in tds(html) if td["attrs"].get("title", "").startswith("column ")]
    assert len(pts) == 15
    a, b, c, d = pts[0]["html"], pts[1]["html"], pts[2]["html"], pts[3]["html"]
    assert re.match(r'<span style="[^"]*border-radius:50%[^"]*">5</span><br>', a)  # first value circled
    assert re.match(r'<span style="[^"]*line-through[^"]*">3</span><br><span style="[^"]*border-radius:50%', b)
    assert re.match(r'<span style="[^"]*line-through[^"]*">3</span><br><span style="opacity:.6">2</span>', c)
    assert "line-through" not in d and "border-radius" not in d
    assert pts[0]["attrs"]["data-mark"] == "first" and "completed first" in pts[0]["attrs"]["title"]
    assert "first value gone" in pts[2]["attrs"]["title"]


def test_sheet_html_colour_bonus_column_base_and_coop():
    html = sheet_html(STD, column_marks=[None] * 15, colour_marks=["first", "later", "gone", None, None])
    bonus = [td for td in tds(html) if "data-colour" in td["attrs"]]
    assert [td["attrs"]["data-colour"] for td in bonus] == ["yellow", "green", "blue", "red", "orange"]
    assert re.match(r'<span style="[^"]*border-radius:50%[^"]*">5</span>', bonus[0]["html"])
    assert "line-through" in bonus[1]["html"] and "border-radius:50%" in bonus[1]["html"]
    assert "line-through" in bonus[2]["html"] and bonus[3]["html"] == '5<br><span style="opacity:.6">3</span>'
    coop_html = sheet_html(COOP_I, colour_marks=["done", None, None, None, None], colour_bonus=(0, 0))
    bonus = [td for td in tds(coop_html) if "data-colour" in td["attrs"]]
    assert [td["html"] for td in bonus] == ["✓", "", "", "", ""]
    assert bonus[0]["attrs"]["title"] == "yellow completed"


def test_sheet_html_names_coop_cells_by_rows_P_to_V_and_stays_compatible():
    cells = {td["attrs"]["data-cell"]: td["attrs"] for td in tds(sheet_html(COOP_I)) if "data-cell" in td["attrs"]}
    assert cells["E2"]["title"].startswith("EQ ") and cells["E2"]["aria-label"] == cells["E2"]["title"]
    assert cells["H1"]["title"] == "HP green star open"
    std = {td["attrs"]["data-cell"]: td["attrs"] for td in tds(sheet_html(STD)) if "data-cell" in td["attrs"]}
    assert std["E3"]["title"].startswith("E3 ")
    # no marks given: the drawing is the same as before (no bonus column, plain values)
    assert sheet_html(STD) == sheet_html(STD, column_marks=None, colour_marks=None)
    assert "data-colour" not in sheet_html(STD) and "data-mark" not in sheet_html(STD)


def test_sheet_html_marks_from_a_real_position():
    st = base(2)
    st.seats[0].crossed = col("A") & ~M("A7")
    st.apply(Roll.of([Y, G, B], [1, 2, 3]))
    st.apply(Cross(Y, 1, Y, M("A7")))
    st.apply(PASS, 1)
    html0 = sheet_html(STD, st.seats[0].crossed, column_marks=column_marks(st, 0), colour_marks=colour_marks(st, 0))
    html1 = sheet_html(STD, st.seats[1].crossed, column_marks=column_marks(st, 1), colour_marks=colour_marks(st, 1))
    a0 = next(td for td in tds(html0) if td["attrs"].get("title", "").startswith("column A"))
    a1 = next(td for td in tds(html1) if td["attrs"].get("title", "").startswith("column A"))
    assert a0["attrs"]["data-mark"] == "first" and a1["attrs"]["data-mark"] == "gone"


# =========================================================================== speed
def test_news_of_a_whole_27_turn_six_seat_game_is_fast():
    rng = random.Random(27)
    game = coop(6, goal_10=0, goal_19=0, goal_27=0, m1_colours=5)
    st = game.new_state()
    events = []
    while not st.is_terminal():
        cp = st.current_player()
        if cp == -1:
            action, seat = st.sample_roll(rng), None
        elif cp == -2:
            action, seat = st.legal_actions()[0], None
        else:
            acts = st.legal_actions()
            action, seat = (acts[rng.randrange(1, len(acts))] if len(acts) > 1 else PASS), cp
        st.apply(action, seat)
        events.append(event_for(action, len(events), seat))
    best = min(_timed(lambda: news(game, events, [f"P{i}" for i in range(6)])) for _ in range(3))
    assert best < 0.25, f"news of {len(events)} events took {best * 1000:.0f} ms"


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def test_event_text_names_cells_as_the_coop_sheet_does_and_keeps_seat_names():
    """Undo and History name an entry's cells by the sheet's rows (P-V on co-op sheets); a
    seat named like a cell keeps its name."""
    game = coop(2)
    t = Table(game)
    t.turn()
    cross = next(ev for ev in t.events if isinstance(ev, CrossEvent))
    names_ = ["A1", "Bo"]
    text = event_text(game, cross, names_)
    sheet = game.sheets[cross.seat]
    assert all(cell_label(sheet, c) in text for c in cross.cells), text
    assert not any(re.search(rf"\b{c}\b", text) for c in cross.cells), text
    assert names_[cross.seat] in text
    # a base-game sheet's cells keep their names
    base = BaseGame(["standard"] * 2)
    assert all(re.search(rf"\b{c}\b", event_text(base, cross, names_)) for c in cross.cells)
