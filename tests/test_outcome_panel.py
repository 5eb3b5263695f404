"""How a game's end shows on the Table page (issue 19): a solo game's outcome is a score and a
rating, no winner (R-SOLO-SCORE); a base game names its winner; the outcome names every goal
check's penalty (C-GOAL-27); news comes as toasts during the game, not over the outcome.

Every test has its own SQLite store and user folder (the ``env`` fixture of ``apptools``).
"""

from __future__ import annotations

from apptools import env, no_exception, texts  # noqa: F401 (env: the fixture)
from nochmal.engine.game import CHANCE
from nochmal.engine.moves import PASS
from nochmal.ui import entry, narration
from pagegames import cheapest_cross, host_table, make, rule_ids, step


def test_solo_outcome_shows_score_and_rating_and_no_winner_R_SOLO_SCORE(env):
    ses = make(env, mode="solo", players=1, kind="digital", seed=2)
    while not ses.state.is_terminal():
        if ses.state.current_player() == CHANCE:
            ses.roll_digital()
        else:
            ses.record(cheapest_cross(ses.state, 0) or PASS, seat=0)
    at = host_table(ses)
    total = ses.state.outcome().scores[0].total
    done = [s for s in texts(at, "success") if "Game over" in s]
    assert done and all("Winner" not in s for s in done), done
    assert any(f"score: **{total}**" in s for s in done), done
    rating = [s for s in texts(at, "info") if "Solo rating" in s]
    assert rating and not any(rule_ids(s) for s in done + rating), done + rating
    whys = [e for e in at.expander if e.label.startswith("Why")]
    assert any("R-SOLO-SCORE" in c.value for e in whys for c in e.caption)  # the rule id, folded away


def test_base_game_outcome_still_names_the_winner(env):
    ses = make(env, mode="base", players=2, kind="digital", seed=9)
    while not ses.state.is_terminal():
        st_ = ses.state
        if st_.current_player() == CHANCE:
            ses.roll_digital()
        else:
            seat = entry.seats_to_decide(st_)[0]
            ses.record(cheapest_cross(st_, seat) or PASS, seat=seat)
    at = host_table(ses)
    done = [s for s in texts(at, "success") if "Game over" in s]
    assert any("Winner" in s for s in done) and not any(rule_ids(s) for s in done), done


def test_the_outcome_names_every_check_s_penalty_C_GOAL_27(env):
    """A missed turn-27 goal costs every seat a failed roll: the outcome says so (it used to show
    "-", which the table drew as a bullet), and a met check shows a dash."""
    for seed in range(1, 40):  # the first seeded game that reaches the last check and misses it
        ses = make(env, mode="coop", players=3, kind="digital", seed=seed)
        while not ses.state.is_terminal():
            step(ses)
        checks = ses.state.outcome().to_json()["checks"]
        if "27" in checks and not checks["27"]["met"]:
            break
    assert "27" in checks and not checks["27"]["met"], checks
    at = host_table(ses)
    table = next(t.value for t in at.table if "penalty" in t.value.columns)
    penalties = dict(zip(table["after turn"].astype(int), table["penalty"]))
    assert penalties[27] == "a failed roll for every seat", penalties
    assert all(p not in ("-", "") for p in penalties.values()), penalties


def test_news_comes_as_toasts_during_the_game_and_not_over_the_outcome(env):
    ses = make(env, mode="coop", players=2, kind="digital", seed=4)
    at = host_table(ses)  # the page has seen the game: later events bring toasts
    toasted = False
    while not ses.state.is_terminal():
        step(ses)
        if not toasted and not ses.state.is_terminal() and narration.news(ses.game, ses.events, ses.seat_names):
            at.run()  # mid-game: the first news comes as a toast
            assert at.toast, "news during the game comes as a toast"
            toasted = True
    at.run()
    no_exception(at)
    assert any(s.startswith(("🎉 The team WON", "The team lost")) for s in texts(at, "success") + texts(at, "error"))
    assert not at.toast, [t.value for t in at.toast]
