"""The team's penalty decisions on the Table page (``nochmal.ui.panels.decision``, issue 19): the
turn-10 penalty (C-GOAL-10) comes with an even split of the "!" to strike filled in, one tap to
confirm; the penalty panels speak in words and keep the rule id in their "Why?" detail.

Every test has its own SQLite store and user folder (the ``env`` fixture of ``apptools``).
"""

from __future__ import annotations

import pytest

from apptools import env, no_exception, texts  # noqa: F401 (env: the fixture)
from nochmal.ui.panels.decision import even_split
from pagegames import drive_to_decision, host_table, load, make, rule_ids


@pytest.mark.parametrize("lefts, amount, split", [
    ([8, 8, 8], 6, [2, 2, 2]),
    ([8, 8, 8], 7, [3, 2, 2]),     # the remainder to the earlier seat when "!" left are equal
    ([6, 8, 8], 7, [2, 3, 2]),     # ... to the seat with most "!" left
    ([1, 8, 8], 6, [1, 3, 2]),     # never more than a seat has left
    ([0, 2, 8], 9, [0, 2, 7]),
    ([3, 3], 10, [3, 3]),          # fewer "!" than demanded: every one left
])
def test_even_split_C_GOAL_10(lefts, amount, split):
    assert even_split(lefts, amount) == split


def test_turn_10_penalty_comes_with_an_even_split_one_tap_to_confirm_C_GOAL_10(env):
    ses = make(env, kind="digital", seed=11)
    drive_to_decision(ses)
    d = ses.state.extra.get("decision")
    assert d and d["kind"] == "strike_jokers", ses.state.extra
    lefts = [s.jokers_left for s in ses.state.seats]
    at = host_table(ses)
    values = [at.number_input(key=f"strike-{i}").value for i in range(3)]
    assert values == even_split(lefts, d["amount"]) and sum(values) == d["amount"]
    assert all(v <= left for v, left in zip(values, lefts))
    assert not at.button(key="strike-btn").disabled
    # still editable: a changed split is kept over reruns and checked against the amount
    at.number_input(key="strike-0").set_value(values[0] + 1).run()
    assert at.number_input(key="strike-0").value == values[0] + 1 and at.button(key="strike-btn").disabled
    at.number_input(key="strike-0").set_value(values[0]).run()
    at.button(key="strike-btn").click().run()
    no_exception(at)
    ses = load(env, ses.game_id)
    assert [s.jokers_left for s in ses.state.seats] == [left - v for left, v in zip(lefts, values)]


def test_penalty_panels_speak_in_words_and_keep_the_rule_in_why_C_GOAL_10_C_GOAL_19(env):
    ses = make(env, kind="digital", seed=11)
    drive_to_decision(ses)
    at = host_table(ses)
    heads = [s for s in texts(at, "subheader") if s.startswith("Goal after turn 10 missed")]
    assert heads and not rule_ids(heads[0]), texts(at, "subheader")
    assert not [s for s in texts(at, "markdown") if "Strike" in s and rule_ids(s)]
    whys = [e for e in at.expander if e.label.startswith("Why")]
    assert any("C-GOAL-10" in c.value for e in whys for c in e.caption)
    at.button(key="strike-btn").click().run()
    done = [s for s in texts(at, "success") if "struck" in s]
    assert done and not any(rule_ids(s) for s in done), done
    drive_to_decision(load(env, ses.game_id))
    ses = load(env, ses.game_id)
    if (ses.state.extra.get("decision") or {}).get("kind") != "remove_die":
        pytest.skip("this seed's team met the goal after turn 19")
    at.run()
    heads = [s for s in texts(at, "subheader") if s.startswith("Goal after turn 19 missed")]
    assert heads and not rule_ids(heads[0]), texts(at, "subheader")
    at.button(key="remove-colour").click().run()
    done = [s for s in texts(at, "success") if "leaves the game" in s]
    assert done and not any(rule_ids(s) for s in done), done
