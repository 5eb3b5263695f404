"""One dice order everywhere (R-DICE, issue 19): yellow, green, blue, red, orange, X; then
1..5, ? — in ``nochmal.ui.labels`` and in every dice widget and list of the Table page.

Every page test has its own SQLite store and user folder (the ``env`` fixture of ``apptools``).
"""

from __future__ import annotations

from apptools import env, no_exception, texts  # noqa: F401 (env: the fixture)
from nochmal.engine.cells import COLOURS
from nochmal.engine.dice import COLOUR_JOKER, NUMBER_JOKER, Roll
from nochmal.ui.labels import COLOUR_ORDER, NUMBER_ORDER, colour_face_label, dice_text, number_face_label, sorted_dice
from pagegames import host_table, make


def test_the_dice_order_is_the_colour_faces_order():
    assert [COLOURS[f] if f != COLOUR_JOKER else "X" for f in COLOUR_ORDER] == \
        ["yellow", "green", "blue", "red", "orange", "X"]
    assert list(NUMBER_ORDER) == [1, 2, 3, 4, 5, NUMBER_JOKER]
    assert sorted_dice([5, 3, 0, 2], [0, 4, 1]) == ([0, 2, 3, 5], [1, 4, 0])


def test_dice_text_shows_the_dice_in_the_one_order():
    text = dice_text([5, 2, 0], [0, 3, 1])  # X, blue, yellow | ?, 3, 1 as rolled
    colours, numbers = text.split("|")
    where = [colours.index(colour_face_label(f)) for f in (0, 2, 5)]
    assert where == sorted(where), text
    assert numbers.split() == ["**1**", "**3**", "**?**"]


def test_every_dice_widget_and_list_uses_the_one_order(env):
    ses = make(env, mode="coop", players=3)
    at = host_table(ses)  # the roll entry
    for i in range(3):
        assert at.button_group(key=f"roll-c-{i}").options == [colour_face_label(f) for f in COLOUR_ORDER]
        assert at.button_group(key=f"roll-n-{i}").options == [number_face_label(f) for f in NUMBER_ORDER]
    ses.record(Roll.of([5, 2, 0], [0, 3, 1]))  # X, blue, yellow | ?, 3, 1
    at.run()
    no_exception(at)
    cs, ns = sorted_dice([5, 2, 0], [0, 3, 1])
    assert at.button_group(key="pick-c-0").options == [colour_face_label(f) for f in cs]  # the dice picker
    assert at.button_group(key="pick-n-0").options == [number_face_label(f) for f in ns]
    rolled = [m for m in texts(at, "markdown") if m.startswith("**Roll 1**")]
    assert rolled and dice_text(cs, ns) in rolled[0], rolled
