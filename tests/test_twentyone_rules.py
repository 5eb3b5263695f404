"""One test per rule of ``shared/RULES-TWENTYONE.md``, named after the rule id, and the rulebook's
examples as scenarios (Tim's second attempt, Sarah's entries, Emma's cross-out and her row of 20,
the game's end). Positions are real: games played through ``apply``, rolls entered as at a table.

Sheet rows are typed for the scenarios (``sheet_from_rows``): the shipped colour orders are
stand-ins, and the rulebook's pictures need particular ones."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from nochmal.engine.errors import IllegalMoveError, InvalidInputError, NochmalError
from nochmal.engine.ruleids import RULE_ID_RE, strip_rule_ids
from nochmal.engine.twentyone import (AGAIN, BONUS, CHANCE, KEEP, RULE_IDS, RULES_VERSION, TERMINAL, CrossOut, Enter,
                                      Lot, Roll, TwentyOneGame, TwentyOneState, bonus, get_sheet, parse_action,
                                      replay, row_score, sheet_from_rows)
from nochmal.engine.twentyone import decisions as D

SPEC = Path(__file__).resolve().parents[1].parent / "shared" / "RULES-TWENTYONE.md"
ENGINE = Path(__file__).resolve().parents[1] / "nochmal" / "engine" / "twentyone"

W, K, R, B, Y, G = "white", "black", "red", "blue", "yellow", "green"


def sheet(colours: str, sid: str, values=None):
    """A typed sheet whose five rows all have the colour order ``colours`` (values 6 5 4 3 2 1)."""
    return sheet_from_rows([colours] * 5, values, id=sid)


def practice(colours: str = "wkrbyg") -> TwentyOneState:
    return TwentyOneGame([sheet(colours, "P")]).new_state()


def roll(st: TwentyOneState, *faces: int, again: tuple[int, ...] | None = None) -> None:
    """The active player's roll: keep it, or (``again``) take the second attempt with these faces."""
    st.apply(Roll.of(*faces))
    if again is None:
        st.apply(KEEP)
    else:
        st.apply(AGAIN)
        st.apply(Roll.of(*again))


def enter(st: TwentyOneState, seat: int, *colours: str) -> None:
    st.apply(Enter.of(*colours), seat=seat)


def cross(st: TwentyOneState, seat: int) -> None:
    st.apply(CrossOut(st.cross_field(seat)), seat=seat)


def refused(rule: str, fn, *args, **kw) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as err:
        fn(*args, **kw)
    assert err.value.rule == rule, err.value
    assert err.value.position.startswith("twentyone v1 round="), err.value.position
    return err.value


# --------------------------------------------------------------------------- components
def test_T_DICE_six_dice_one_of_each_colour_showing_1_to_6():
    assert Roll.of(1, 2, 3, 4, 5, 6).faces == (1, 2, 3, 4, 5, 6)
    assert Roll.parse({W: 4, K: 1, R: 6, B: 3, Y: 2, G: 5}) == Roll.of(4, 1, 6, 3, 2, 5)
    for bad in ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 7], [0, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, "2"], {W: 1}):
        with pytest.raises(InvalidInputError, match="T-DICE"):
            Roll.parse(bad)
    st = practice()
    with pytest.raises(InvalidInputError, match="T-DICE"):
        st.apply(Roll((1, 2, 3, 4, 5, 9)))
    rng = random.Random(1)
    seen = {f for _ in range(200) for f in Roll.sample(rng).faces}
    assert seen == {1, 2, 3, 4, 5, 6}
    with pytest.raises(InvalidInputError, match="T-DICE"):
        Enter.of("purple")


def test_T_SHEET_rows_of_six_fields_one_of_each_colour_values_as_printed():
    a = get_sheet("A")
    assert a.value_at[0] == (6, 5, 4, 3, 2, 1)
    assert all(sorted(r) == [0, 1, 2, 3, 4, 5] for r in a.colour_at)
    game = TwentyOneGame.create(6)
    assert [s.id for s in game.sheets] == list("ABCDEF")


def test_T_BONUS_table_and_the_rulebook_example_three_hits_six_points():
    assert BONUS[1:] == (1, 3, 6, 10, 15, 21)
    assert bonus(0) == 0 and bonus(3) == 6
    # the rulebook's scoring example: 5 + X + 4 + 2 + 2 + 1 on row 1 (6 5 4 3 2 1), hits in the 4, 2, 1 fields
    assert row_score([5, 0, 4, 2, 2, 1], (6, 5, 4, 3, 2, 1)) == (14, 3, 6)


# --------------------------------------------------------------------------- a round
def test_T_START_the_first_player_is_drawn_by_lot_and_seeded():
    game = TwentyOneGame.create(3)
    st = game.new_state()
    assert st.current_player() == CHANCE and st.phase == "lot" and st.legal_actions() == []
    draws = [st.sample_chance(random.Random(seed)) for seed in range(40)]
    assert {d.seat for d in draws} == {0, 1, 2}
    assert st.sample_chance(random.Random(7)) == st.sample_chance(random.Random(7))
    st.apply(Lot(2))
    assert st.active == 2 and st.phase == "roll"
    refused("T-START", st.apply, Lot(1))
    with pytest.raises(InvalidInputError, match="T-START"):
        game.new_state().apply(Lot(3))
    # every player has a different sheet; 1-6 players
    with pytest.raises(InvalidInputError, match="T-START.*different sheet"):
        TwentyOneGame(["A", "A"])
    for n in (0, 7, "2"):
        with pytest.raises(InvalidInputError, match="T-START"):
            TwentyOneGame.create(n)


def test_T_ROLL_Tims_second_attempt_keeps_the_1s_and_rolls_the_others():
    st = practice("wkrbyg")
    st.apply(Roll.of(6, 4, 3, 3, 1, 1))  # Tim: 6, 4, 3, 3, 1, 1
    assert st.current_player() == 0 and st.legal_actions() == [KEEP, AGAIN]
    st.apply(AGAIN)
    assert st.current_player() == CHANCE
    for seed in range(30):
        second = st.sample_chance(random.Random(seed))
        assert second.faces[4:] == (1, 1)  # the two 1s stay
    refused("T-ROLL", st.apply, Roll.of(6, 4, 3, 3, 2, 1))  # a 1 may not be rolled again
    st.apply(Roll.of(2, 6, 5, 1, 1, 1))  # the four others rolled again (one shows 1 now)
    assert st.phase == "enter" and st.dice == Roll.of(2, 6, 5, 1, 1, 1)
    refused("T-ROLL", st.apply, Roll.of(1, 1, 1, 1, 1, 1))  # at most two attempts
    refused("T-ROLL", st.apply, AGAIN)


def test_T_ROLL_only_the_active_player_decides_and_only_once():
    st = TwentyOneGame.create(2).new_state()
    st.apply(Lot(0))
    refused("T-ROLL", st.apply, KEEP)  # nothing rolled yet
    st.apply(Roll.of(3, 3, 3, 3, 3, 3))
    refused("T-ROLL", st.apply, KEEP, seat=1)
    refused("T-ROLL", st.apply, Roll.of(3, 3, 3, 3, 3, 3))  # no roll is due: keep or try again
    st.apply(KEEP)
    refused("T-ROLL", st.apply, AGAIN)  # kept: no second attempt after that
    # six 1s: a second attempt would roll nothing (decisions.SECOND_ATTEMPT_WITH_ONLY_ONES)
    st = practice()
    st.apply(Roll.of(1, 1, 1, 1, 1, 1))
    assert st.legal_actions() == [KEEP] and not D.SECOND_ATTEMPT_WITH_ONLY_ONES
    refused("T-ROLL", st.apply, AGAIN)


def test_T_ENTER_Sarahs_entries():
    # row 1 printed 6 5 4 3 2 1 in the colours yellow green red blue white black
    st = practice("ygrbwk")
    roll(st, 4, 1, 1, 3, 4, 2)  # white 4, black 1, red 1, blue 3, yellow 4, green 2
    fits = {f.colour: f for f in st.fits(0)}
    assert sorted(fits) == [1, 2, 3, 4, 5]  # all but the white 4: higher than the white field's 2
    err = refused("T-ENTER", enter, st, 0, W, K)
    assert "white 4 is higher than the 2" in str(err) and "seat1=P row1" in err.position
    enter(st, 0, K, B, Y)  # red 1 and green 2 could go in too; Sarah does not want them
    s = st.seats[0]
    assert s.marks[0] == [4, None, None, 3, None, 1]  # yellow 4, blue 3 (hit), black 1 (hit)
    assert st.phase == "roll" and st.round_index == 1


def test_T_ENTER_every_player_enters_from_the_same_roll_in_any_order():
    st = TwentyOneGame([sheet("wkrbyg", "P"), sheet("gybrkw", "Q")]).new_state()
    st.apply(Lot(1))
    roll(st, 6, 5, 4, 3, 2, 1)
    assert st.pending == [1, 0] and st.current_player() == 1
    enter(st, 0, W, K)  # a passive seat may go first
    assert st.pending == [1] and st.phase == "enter"
    enter(st, 1, G)  # the green 1 into Q's green 6 field
    assert st.seats[0].marks[0][:2] == [6, 5] and st.seats[1].marks[0][0] == 1
    assert st.phase == "roll"


def test_T_ENTER_taken_fields_empty_entries_and_late_entries_are_refused():
    st = practice("wkrbyg")
    roll(st, 6, 5, 4, 3, 2, 1)
    refused("T-ENTER", st.apply, Enter(()))
    with pytest.raises(InvalidInputError, match="T-ENTER"):
        st.apply(Enter((2, 0)))  # not in colour order
    enter(st, 0, W)
    roll(st, 6, 5, 4, 3, 2, 1)
    err = refused("T-ENTER", enter, st, 0, W, K)
    assert "white field of row 1 is taken" in str(err)
    st2 = practice()
    st2.apply(Roll.of(6, 5, 4, 3, 2, 1))
    refused("T-ENTER", enter, st2, 0, W)  # the roll is not final before keep / second attempt


def test_T_ENTER_a_two_player_seat_enters_once_a_round():
    st = TwentyOneGame.create(2).new_state()
    st.apply(Lot(0))
    roll(st, 1, 1, 1, 1, 1, 3)
    enter(st, 0, W)
    refused("T-ENTER", enter, st, 0, K)  # a round's entries are one action (decisions)
    assert D.ENTRIES_ARE_ONE_ACTION


def test_T_HIT_a_die_equal_to_the_printed_value_is_a_hit():
    st = practice("wkrbyg")  # printed 6 5 4 3 2 1
    roll(st, 6, 4, 4, 1, 2, 1)
    hits = {f.colour: f.hit for f in st.fits(0)}
    assert hits == {0: True, 1: False, 2: True, 3: False, 4: True, 5: True}
    enter(st, 0, W, K, R, B, Y, G)
    assert st.seats[0].scores[0].hits == 4 and st.seats[0].scores[0].bonus == 10


def test_T_CROSS_Emmas_cross_out_and_her_row_of_20():
    # row 1 printed 6 5 4 3 2 1 in the colours yellow white red blue black green
    st = practice("ywrbkg")
    roll(st, 6, 2, 4, 2, 5, 6)
    enter(st, 0, Y, R, B, K)  # 5, ., 4, 2, 2, .: four fields filled
    roll(st, 6, 3, 3, 3, 3, 5)  # the green 5 and the white 6 are higher than their fields
    assert st.fits(0) == () and st.legal_actions() == [CrossOut(1)]
    refused("T-CROSS", st.apply, CrossOut(5))  # only the leftmost free field: the white 5
    cross(st, 0)
    assert st.seats[0].marks[0] == [5, 0, 4, 2, 2, None]
    roll(st, 6, 6, 6, 6, 6, 1)
    enter(st, 0, G)
    score = st.seats[0].scores[0]
    assert (score.numbers, score.hits, score.bonus, score.total, score.full) == (14, 3, 6, 20, True)


def test_T_CROSS_possible_when_dice_fit_never_with_entries_at_most_once():
    st = TwentyOneGame.create(3).new_state()
    st.apply(Lot(0))
    roll(st, 1, 1, 1, 1, 1, 1)
    assert CrossOut(0) in st.legal_actions(0)  # "or will not": crossing is always allowed
    cross(st, 0)
    refused("T-CROSS", cross, st, 0)  # never more than one cross-out a round
    refused("T-CROSS", enter, st, 0, K)  # never both
    enter(st, 1, W)
    refused("T-CROSS", st.apply, CrossOut(1), seat=1)  # entered, then a cross-out: never both
    assert st.pending == [2]
    with pytest.raises(InvalidInputError, match="T-CROSS"):
        parse_action({"type": "cross-out", "field": 6})


def test_T_ONE_ROW_a_row_filled_this_round_is_scored_the_next_is_used_next_round():
    st = TwentyOneGame.create(2).new_state()
    st.apply(Lot(0))
    roll(st, 1, 1, 1, 1, 1, 1)
    enter(st, 0, W, K, R, B, Y, G)  # row 1 full: scored at once (T-ROW-SCORE)
    assert st.seats[0].row == 1 and st.seats[0].scores[0].total == 6 + 1  # six 1s, one hit
    err = refused("T-ONE-ROW", enter, st, 0, W)
    assert "row 2 is used from the next round on" in str(err)
    cross(st, 1)
    roll(st, 2, 2, 2, 2, 2, 2)
    assert st.seats[0].row == 1 and all(f.field == st.seats[0].sheet.field_of[1][f.colour] for f in st.fits(0))
    enter(st, 0, W)
    assert st.seats[0].marks[1].count(2) == 1 and st.seats[0].marks[0] == [1] * 6


def test_T_NEXT_the_next_player_clockwise_is_active_when_everyone_has_entered():
    st = TwentyOneGame.create(3).new_state()
    st.apply(Lot(2))
    actives = []
    for _ in range(4):
        actives.append(st.active)
        roll(st, 3, 3, 3, 3, 3, 3)
        assert st.pending == [st.active, (st.active + 1) % 3, (st.active + 2) % 3]
        for seat in list(st.pending):
            assert st.phase == "enter"  # nobody is active next before everyone entered
            cross(st, seat)
    assert actives == [2, 0, 1, 2]


def test_T_ROW_SCORE_numbers_plus_the_bonus_for_the_hits_at_once():
    st = practice("wkrbyg")
    roll(st, 5, 5, 1, 3, 1, 1)
    enter(st, 0, W, K, R, B, Y, G)  # 5 + 5 + 1 + 3 + 1 + 1 = 16; hits: black 5, blue 3, green 1
    assert st.seats[0].scores[0].to_json() == {"row": 1, "numbers": 16, "hits": 3, "bonus": 6, "total": 22,
                                               "full": True}
    assert st.total(0) == 22


def play_rounds(st: TwentyOneState, fill_seats: set[int], rounds: int) -> None:
    """``rounds`` rounds of six 1s kept: seats in ``fill_seats`` fill their row, the others cross out."""
    for _ in range(rounds):
        roll(st, 1, 1, 1, 1, 1, 1)
        for seat in list(st.pending):
            if seat in fill_seats:
                enter(st, seat, W, K, R, B, Y, G)
            else:
                cross(st, seat)


def test_T_END_the_round_is_finished_first_then_the_game_ends():
    st = TwentyOneGame.create(2).new_state()
    st.apply(Lot(0))
    play_rounds(st, {0}, 4)
    roll(st, 1, 1, 1, 1, 1, 1)
    assert st.pending == [0, 1]
    enter(st, 0, W, K, R, B, Y, G)  # seat 1 scores its fifth row ...
    assert st.seats[0].row == 5 and st.phase == "enter" and st.pending == [1]  # ... the round goes on (DECISION)
    enter(st, 1, Y)
    assert st.is_terminal() and st.current_player() == TERMINAL and D.END_FINISHES_ROUND
    out = st.outcome()
    assert "T-END" in out.reason and out.rounds == 5
    assert [len(s.rows) for s in out.seats] == [5, 1]  # seat 2: row 1 scored partially
    refused("T-END", st.apply, Roll.of(1, 1, 1, 1, 1, 1))
    with pytest.raises(NochmalError):
        TwentyOneGame.create(2).new_state().outcome()


def test_T_END_PARTIAL_the_others_score_the_row_they_are_in_with_its_hits():
    st = TwentyOneGame([sheet("wkrbyg", "P"), sheet("wkrbyg", "Q")]).new_state()
    st.apply(Lot(0))
    play_rounds(st, {0}, 4)  # seat 2 crossed out white, black, red and blue of row 1
    roll(st, 1, 1, 1, 1, 2, 1)
    enter(st, 0, W, K, R, B, Y, G)
    enter(st, 1, Y)  # the yellow 2: a hit in the yellow 2 field; the green field stays free
    assert st.is_terminal()
    row = st.outcome().seats[1].rows[0]
    assert D.PARTIAL_ROW_GETS_BONUS  # "werten": numbers plus the bonus for the hits it has
    assert (row.row, row.numbers, row.hits, row.bonus, row.total, row.full) == (0, 2, 1, 1, 3, False)


def test_T_END_PARTIAL_an_empty_row_scores_0():
    st = TwentyOneGame([sheet("wkrbyg", "P"), sheet("wkrbyg", "Q")]).new_state()
    st.apply(Lot(0))
    play_rounds(st, {0}, 4)
    roll(st, 1, 1, 1, 1, 2, 1)
    enter(st, 0, W, K, R, B, Y, G)
    enter(st, 1, Y, G)  # fills seat 2's row 1 (2 + 1, two hits) in the last round: row 2 has nothing
    rows = st.outcome().seats[1].rows
    assert [(r.row, r.numbers, r.hits, r.total, r.full) for r in rows] == [(0, 3, 2, 6, True), (1, 0, 0, 0, False)]


def test_T_WIN_the_highest_total_wins_equal_totals_share():
    st = TwentyOneGame.create(3).new_state()
    st.apply(Lot(0))
    play_rounds(st, {0, 1}, 5)
    out = st.outcome()
    assert [s.total for s in out.seats] == [35, 35, 0] and out.winners == (0, 1) and D.TIES_SHARE_THE_WIN
    st = TwentyOneGame.create(2).new_state()
    st.apply(Lot(0))
    play_rounds(st, {1}, 5)
    assert st.outcome().winners == (1,)


def test_T_PEEK_every_sheet_is_open_to_everyone():
    st = TwentyOneGame.create(3).new_state()
    st.apply(Lot(0))
    roll(st, 2, 2, 2, 2, 2, 2)
    enter(st, 1, W)
    data = st.to_json()
    assert [s["sheet"] for s in data["seats"]] == ["A", "B", "C"]
    assert data["seats"][1]["marks"][0].count(2) == 1  # another seat's entries are in the public state
    assert st.legal_actions(2)  # any seat's options can be asked by anyone


def test_T_PRACTICE_one_player_is_always_active_and_ends_with_the_fifth_row():
    st = TwentyOneGame.create(1).new_state()
    assert st.phase == "roll" and not D.LOT_WITH_ONE_PLAYER  # no lot with one player
    rng = random.Random(3)
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply(st.sample_chance(rng))
        else:
            assert st.current_player() == 0 and st.active == 0
            st.apply(rng.choice(st.legal_actions()))
    out = st.outcome()
    assert len(out.seats[0].rows) == 5 and all(r.full for r in out.seats[0].rows) and out.winners == (0,)


# --------------------------------------------------------------------------- rule ids, versions, undo
def test_every_rule_id_of_the_spec_is_registered_and_every_cited_id_exists():
    cited = set()
    for path in ENGINE.glob("*.py"):
        cited |= set(re.findall(r"\bT-[A-Z]+(?:-[A-Z]+)*\b", path.read_text(encoding="utf-8")))
    assert cited <= set(RULE_IDS), sorted(cited - set(RULE_IDS))
    assert {"T-ROLL", "T-ENTER", "T-CROSS", "T-ONE-ROW", "T-END", "T-START", "T-DICE"} <= cited
    if not SPEC.is_file():
        pytest.skip(f"the specification is not here ({SPEC})")
    spec_ids = set(re.findall(r"^- \*\*(T-[A-Z-]+)\*\*", SPEC.read_text(encoding="utf-8"), re.M))
    assert spec_ids == set(RULE_IDS), sorted(spec_ids ^ set(RULE_IDS))


def test_T_ids_are_rule_ids_to_the_engines_text_helpers():
    assert RULE_ID_RE.findall("refused (T-ENTER), see T-END-PARTIAL") == ["T-ENTER", "T-END-PARTIAL"]
    assert strip_rule_ids("T-CROSS: only the leftmost free field") == "only the leftmost free field"
    assert strip_rule_ids("the game is over (T-END)") == "the game is over"
    assert not RULE_ID_RE.search("a T-shirt")


def test_the_rules_version_is_stored_with_every_game():
    st = TwentyOneGame.create(2).new_state()
    assert st.to_json()["rules_version"] == RULES_VERSION == st.game.config()["rules_version"]
    with pytest.raises(InvalidInputError, match="rules version"):
        TwentyOneGame(["A"], rules_version=99)
    assert TwentyOneGame.from_config(st.game.config()).config() == st.game.config()
    typed = TwentyOneGame([sheet("gybrkw", "mine")])  # a sheet that is not shipped travels whole
    assert TwentyOneGame.from_config(typed.config()).sheets[0].spec == typed.sheets[0].spec


def test_undo_then_redo_gives_the_same_state_and_json_replays():
    st = TwentyOneGame.create(2).new_state()
    rng = random.Random(11)
    for _ in range(30):
        st.apply(st.sample_chance(rng) if st.is_chance_node() else rng.choice(st.legal_actions()))
    last = st.history[-1]
    before = st.undo()
    assert len(before.history) == len(st.history) - 1
    before.apply(last)
    assert before.to_json() == st.to_json()
    assert TwentyOneState.from_json(st.to_json()).to_json() == st.to_json()
    data = st.to_json()
    data["seats"][0]["marks"][0][0] = 6
    with pytest.raises(InvalidInputError, match="does not match its own history"):
        TwentyOneState.from_json(data)
    bad = st.to_json()["history"]
    bad.insert(1, {"type": "keep"})  # keep before anything was rolled
    with pytest.raises(IllegalMoveError, match="T-ROLL: action 1"):
        replay(st.game, bad)
    with pytest.raises(NochmalError, match="nothing to undo"):
        TwentyOneGame.create(1).new_state().undo()


def test_errors_carry_the_rule_id_and_the_position():
    st = practice("wkrbyg")
    roll(st, 6, 6, 6, 6, 6, 6)
    err = refused("T-ENTER", enter, st, 0, K)
    assert str(err).startswith("T-ENTER: the black 6 is higher than the 5")
    assert "dice=W6 K6 R6 B6 Y6 G6" in err.position and "printed w6 k5 r4 b3 y2 g1" in err.position
    assert st.history[-1] == KEEP and st.phase == "enter"  # a refusal changes nothing


def test_every_rule_id_has_a_test_named_after_it():
    names = set()
    for path in Path(__file__).resolve().parent.glob("test_twentyone_*.py"):
        names |= set(re.findall(r"^def (test_T_[A-Z_]+?)_[a-z]", path.read_text(encoding="utf-8"), re.M))
    missing = [r for r in RULE_IDS if f"test_{r.replace('-', '_')}" not in names]
    assert not missing, missing
