"""Refusals and entries in words (``nochmal.ui.explain``, issue 19): every rule id of RULES.md has
plain words without rule ids; a refused cross is worded with the cells named as the sheet labels
them (rows P..V on co-op sheets), the rule id kept for the "Why?" detail; an entry of the log
(Undo, History) names its cells the same way.

Positions are real: games played through ``State.apply`` (rolls entered as a table would).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from enginegames import COOP_I, STD, B, G, Table, Y, M, coop
from nochmal.engine.dice import Roll
from nochmal.engine.errors import IllegalMoveError, InvalidInputError
from nochmal.engine.game import BaseGame
from nochmal.engine.moves import PASS, Cross
from nochmal.store.events import CrossEvent, event_for, fold
from nochmal.ui.explain import (RULE_ID_RE, RULE_WORDS, Refusal, cell_label, event_text, refusal, relabel_cells,
                                strip_rule_ids)

RULES_MD = Path(__file__).resolve().parents[1].parent / "shared" / "RULES.md"
ENGINE_CELL = re.compile(r"\b[A-O][1-7]\b")


# --------------------------------------------------------------------------- words
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


# --------------------------------------------------------------------------- entries of the log
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
