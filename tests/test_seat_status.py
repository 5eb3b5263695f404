"""The seat's status beside its sheet (``nochmal.ui.panels.seats.seat_status_html``): on a phone
(844x390) it counts without boxes, so it fits; the words carry no rule ids."""

from __future__ import annotations

from nochmal.ui import newgame
from pagegames import rule_ids


def test_the_phone_side_column_counts_without_boxes_so_it_fits_844x390_C_FAIL():
    from nochmal.ui.panels.seats import seat_status_html

    st_ = newgame.make_game("coop", newgame.default_sheets("coop", 2), 1).new_state()
    wide, narrow = seat_status_html(st_, 0), seat_status_html(st_, 0, compact=True)
    jokers = st_.seats[0].sheet.jokers
    assert wide.count(">!</span>") == jokers and "failed rolls: <b>0/3</b>" in wide
    assert ">!</span>" not in narrow and "border:2px solid #c62828" not in narrow  # no boxes to wrap
    assert f"<b>{jokers}</b>/{jokers}" in narrow and "failed rolls: <b>0/3</b>" in narrow
    assert not rule_ids(wide + narrow)  # the tooltip says it in words
