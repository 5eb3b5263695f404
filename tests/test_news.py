"""What the Table page announces (issue 19): the news of a game (``nochmal.ui.narration.news``,
computed from real event logs the way ``GameSession`` records them: columns and colours completed,
mission steps, goal checks and their penalties, failed rolls, the end), fast enough for a whole
game, and the "nothing to cross" notice (``no_legal_cross``).
"""

from __future__ import annotations

import random
import time

from enginegames import COOP_I, STD, G, O, R, Y, M, Table, base, col, coop, quiet, towards
from nochmal.engine.coop import StrikeJokers
from nochmal.engine.dice import Roll
from nochmal.engine.game import BaseGame, SoloGame
from nochmal.engine.moves import PASS, Cross
from nochmal.store.events import event_for
from nochmal.ui.explain import RULE_ID_RE
from nochmal.ui.entry import no_legal_cross
from nochmal.ui.narration import Item, news

NAMES = ["Ann", "Bo", "Cy"]


# --------------------------------------------------------------------------- nothing to cross
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


# --------------------------------------------------------------------------- news
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


# --------------------------------------------------------------------------- speed
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
