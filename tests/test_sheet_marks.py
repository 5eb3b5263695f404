"""The marks under a sheet's columns and colours (issue 19): which column values and colour
bonuses a seat scores first, later, has lost, or (co-op) has done (``column_marks``,
``colour_marks`` of ``nochmal.ui.sheetmarks``, R-FIRST, R-COLUMN, R-COLOUR-BONUS, C-NO-BONUS), and
how ``sheet_html`` draws them for a real position.

A position is set up as in ``test_rules.py`` (``seat.crossed`` set directly), then the decisive
crosses go through ``apply``.
"""

from __future__ import annotations

from enginegames import STD, B, G, Y, M, base, col, coop, quiet
from nochmal.engine.dice import Roll
from nochmal.engine.moves import PASS, Cross
from nochmal.engine.sheet import get_sheet
from nochmal.ui.sheetview import sheet_html
from nochmal.ui.sheetmarks import colour_marks, column_marks
from test_sheetview import tds


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
