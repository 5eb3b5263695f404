"""Base and solo games on the Table page (issue 42, item 6), through Streamlit's AppTest:

* the running score of every seat (columns, colours, "!", stars, total), as the engine scores
  it, on the host screen and on a seat's phone; none in a co-op game;
* the host screen offers entry only for seats without a phone of their own, unless asked
  ("Enter for a seat with a phone", for one roll);
* no co-op words (mission, team, failed roll, ...) on the screens of a base or solo game.
"""

from __future__ import annotations

import random

from streamlit.testing.v1 import AppTest

from apptools import TABLE, app, env, keys, no_exception, shown, texts  # noqa: F401
from nochmal.bots.greedy import greedy_policy
from nochmal.engine.dice import Roll
from nochmal.engine.game import CHANCE
from nochmal.engine.moves import PASS, Cross
from nochmal.store.session import GameSession
from nochmal.ui import entry, newgame

COLUMNS = ["seat", "columns", "colours", "\"!\"", "stars", "total"]
#: words of the co-op game that a base or solo game's screens must not show
COOP_WORDS = ("mission", "team", "failed roll", "turn track", "goal")


def make(store, mode="base", players=3) -> GameSession:
    game = newgame.make_game(mode, newgame.default_sheets(mode, players), 1)
    return GameSession.create(store, game, title="t", seat_names=["Ada", "Bo", "Cy"][:players], kind="companion")


def page(ses: GameSession, code: str | None = None, seat: int | None = None, lang: str | None = None) -> AppTest:
    query = {"game": ses.game_id, "code": code or ses.meta["host_code"]}
    if seat is not None:
        query["seat"] = str(seat + 1)
    if lang:
        query["lang"] = lang
    at = app(query)
    at.switch_page(TABLE).run()
    no_exception(at)
    return at


def play_until(ses: GameSession, stop, seed: int = 5) -> None:
    """Rolls and the greedy bot's decisions, entered through the engine, until ``stop(ses)``."""
    rng = random.Random(seed)
    while not stop(ses):
        st_ = ses.state
        if st_.current_player() == CHANCE:
            ses.record(st_.sample_roll(rng), by="test")
        else:
            seat = entry.seats_to_decide(st_)[0]
            view = st_.clone()
            view.pending = [seat] + [s for s in view.pending if s != seat]
            ses.record(greedy_policy(view, rng), seat=seat, by="test")


def scored(ses: GameSession) -> bool:
    """A roll to enter, and some seat has a column and a colour scored (and an uncrossed star)."""
    st_ = ses.state
    return (st_.current_player() == CHANCE and any(s.columns for s in st_.seats)
            and any(s.colours for s in st_.seats))


def score_tables(at: AppTest) -> list:
    return [t.value for t in at.table if list(t.value.columns) == COLUMNS]


def expect_scores(at: AppTest, ses: GameSession) -> None:
    """One score table on the page, with the engine's score of every seat."""
    [df] = score_tables(at)
    game, st_ = ses.game, ses.state
    assert len(df) == game.n_seats
    for i, row in enumerate(df.to_dict("records")):
        sc = game.seat_score(st_, i)
        assert shown(row["seat"]) == f"{i + 1}. {ses.seat_names[i]}"  # a cell's "1." is no list
        got = [int(row[c]) for c in COLUMNS[1:]]
        assert got == [sc.columns, sc.colours, sc.jokers, sc.stars, sc.total], (i, row)


def visible_words(at: AppTest, expanders: bool = True) -> str:
    parts = []
    for kind in ("markdown", "caption", "info", "success", "warning", "error", "header", "subheader", "title"):
        parts += [e.value for e in getattr(at, kind)]
    parts += [e.label for e in at.button] + [e.label for e in at.toggle] + [e.label for e in at.expander if expanders]
    parts += [e.label for e in at.button_group if e.label]
    for t in at.table:
        parts += [str(c) for c in t.value.columns]
    return "\n".join(parts)


# --------------------------------------------------------------------------- the running score
def test_host_shows_the_running_score_of_every_seat_as_the_engine_scores_it(env):
    ses = make(env)
    play_until(ses, lambda s: s.state.roll_index >= 3 and s.state.current_player() == CHANCE)
    at = page(ses)
    assert any(m == "**Score so far**" for m in texts(at, "markdown"))
    expect_scores(at, ses)
    assert all(ses.game.seat_score(ses.state, i).stars < 0 for i in range(3))  # stars not crossed count minus
    # later: columns closed and colours completed, the table follows
    play_until(ses, scored)
    at.run()
    no_exception(at)
    expect_scores(at, load(env, ses))
    assert any(ses.game.seat_score(ses.state, i).columns > 0 for i in range(3))


def load(store, ses: GameSession) -> GameSession:
    return GameSession.load(store, ses.game_id)


def test_solo_shows_the_running_score(env):
    ses = make(env, mode="solo", players=1)
    play_until(ses, lambda s: s.state.roll_index >= 6 and s.state.current_player() == CHANCE)
    at = page(ses)
    expect_scores(at, ses)


def test_a_seat_s_phone_shows_the_running_score(env):
    ses = make(env)
    code = ses.claim_seat(1, "phone-bo")
    play_until(ses, scored)
    at = page(ses, code=code, seat=1)
    assert at.session_state["my_seat"] == 1
    expect_scores(at, ses)


def test_coop_game_has_no_running_score(env):
    ses = make(env, mode="coop")
    play_until(ses, lambda s: s.state.roll_index >= 3 and s.state.current_player() == CHANCE)
    at = page(ses)
    assert not score_tables(at)
    assert "**Score so far**" not in texts(at, "markdown")


def test_the_finished_game_shows_its_outcome_not_a_running_score(env):
    ses = make(env, players=2)
    play_until(ses, lambda s: s.state.is_terminal())
    at = page(ses)
    assert "**Score so far**" not in texts(at, "markdown")
    assert any("Game over after" in s for s in texts(at, "success"))


# --------------------------------------------------------------------------- entry for seats with a phone
def passive_roll(ses: GameSession) -> None:
    """A roll entered and the active seat 1 (Ada) crossed: seats 2 and 3 decide."""
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    ses.record(next(a for a in ses.state.legal_actions(0) if isinstance(a, Cross)), seat=0)
    assert ses.state.pending == [1, 2]


def test_host_offers_entry_only_for_seats_without_a_phone_unless_asked(env):
    ses = make(env)
    ses.claim_seat(1, "phone-bo")  # Bo plays on a phone
    passive_roll(ses)
    at = page(ses)
    # only Cy (no phone) is entered here: no "Entering for" choice that offers Bo
    assert "entry-seat" not in {b.key for b in at.button_group}
    assert any("3. Cy decides (passive)" in m for m in texts(at, "markdown"))
    assert any("cell-2-" in k for k in keys(at)) and not any(k.startswith("cell-1-") for k in keys(at))
    assert any("📱 2. Bo decides on their phone." in c for c in texts(at, "caption"))
    # asked: Bo is offered too (Cy still first)
    at.toggle(key="enter-phones").set_value(True).run()
    no_exception(at)
    group = at.button_group(key="entry-seat")
    assert list(group.options) and group.value == 2
    group.set_value(1).run()
    no_exception(at)
    assert any("2. Bo decides (passive)" in m for m in texts(at, "markdown"))
    assert any(k.startswith("cell-1-") for k in keys(at))


def test_when_every_deciding_seat_has_a_phone_the_host_enters_nothing_unless_asked(env):
    ses = make(env, players=2)
    ses.claim_seat(1, "phone-bo")
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    ses.record(next(a for a in ses.state.legal_actions(0) if isinstance(a, Cross)), seat=0)
    assert ses.state.pending == [1]
    at = page(ses)
    assert "cross-btn" not in keys(at) and not any(k.startswith("cell-") for k in keys(at))
    assert any("📱 2. Bo decides on their phone." in c for c in texts(at, "caption"))
    assert not any("Waiting for" in i for i in texts(at, "info"))
    at.toggle(key="enter-phones").set_value(True).run()
    no_exception(at)
    assert "cross-btn" in keys(at) and any(k.startswith("cell-1-") for k in keys(at))
    # the next roll: asked again (the switch is off)
    ses = load(env, ses)
    ses.record(next(a for a in ses.state.legal_actions(1) if isinstance(a, Cross)), seat=1)
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))  # roll 2: Bo (phone) is active
    at.run()
    no_exception(at)
    assert at.toggle(key="enter-phones").value is False
    assert "cross-btn" not in keys(at)


def test_german_phone_seat_switch(env):
    ses = make(env, players=2)
    ses.claim_seat(1, "phone-bo")
    ses.record(Roll.parse(["green", "blue", "red"], [1, 2, 3]))
    ses.record(next(a for a in ses.state.legal_actions(0) if isinstance(a, Cross)), seat=0)
    at = page(ses, lang="de")
    assert any("📱 2. Bo entscheidet auf dem eigenen Handy." in c for c in texts(at, "caption"))
    assert at.toggle(key="enter-phones").label == "Für einen Platz mit Handy eintragen"
    assert any(m == "**Punktestand**" for m in texts(at, "markdown"))


# --------------------------------------------------------------------------- no co-op words
def test_base_and_solo_screens_say_no_co_op_words(env):
    base = make(env)
    base_code = base.claim_seat(1, "phone-bo")
    passive_roll(base)
    base.record(PASS, seat=1)  # Bo passes: the dice panel says so, in the base game's words
    solo = make(env, mode="solo", players=1)
    solo_code = solo.claim_seat(0, "phone-ada")
    solo.record(Roll.parse(["green", "blue"], [1, 2]))
    for ses, code, seat in ((base, None, None), (base, base_code, 1), (solo, None, None), (solo, solo_code, 0)):
        at = page(ses, code=code, seat=seat)
        # (a phone's "The table: turn track, mission, ..." expander: phone_view's words, not checked here)
        words = visible_words(at, expanders=seat is None).lower()
        for w in COOP_WORDS:
            assert w not in words, (ses.game.mode, seat, w, [t for t in words.splitlines() if w in t])
        if ses is base and seat is None:
            assert "2. bo (passive) — done: passed" in words
    # solo without a phone: one seat, no active or passive role on the host's entry
    solo = make(env, mode="solo", players=1)
    solo.record(Roll.parse(["green", "blue"], [1, 2]))
    at = page(solo)
    assert any(m.startswith("#### ") and m.endswith("1. Ada decides") for m in texts(at, "markdown"))
