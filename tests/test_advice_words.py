"""The advisor's one line per suggestion (issue 42, item 4): the move as the sheet names it and why
in game terms, derived from what the move does (``nochmal.bots.advice.gists`` / ``why``), worded
by ``nochmal.ui.advice_words`` in English and German; moves within the noise grouped
(``tie_groups``) and said so once (``verdict``); a second stage of rollouts only for the moves
still in the noise beside the best one, where more rollouts could tell them apart."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from nochmal.bots import advice, coop_weights, planner
from nochmal.bots.advice import Gist, Suggestion, gists, suggestions, why
from nochmal.bots.rollout_stats import tie_groups
from nochmal.data.i18n import using
from nochmal.engine.cells import COLUMN_MASKS, COLUMNS, names
from nochmal.engine.coop import CoopGame
from nochmal.engine.dice import Roll
from nochmal.engine.game import BaseGame
from nochmal.engine.moves import PASS, Cross
from nochmal.ui.advice_words import headline, verdict
from nochmal.ui.explain import cell_label
from test_advice import G, M, Q, X, Y, _colour_minus_one, coop_game, played


def line(state, seat: int, move, lang: str = "en", keeps: bool = False, who=None) -> str:
    """The advisor's line for ``move`` (as a suggestion of it would show it), in ``lang``."""
    sug = Suggestion(seat=seat, action=move, cells=tuple(names(move.cells)) if isinstance(move, Cross) else (),
                     dice="", win_chance=0.5, est_score=None, rollouts=10, reason="",
                     why=why(gists(state, seat, move), keeps_jokers=keeps))
    with using(lang):
        return headline(state.game, sug, who)


# --------------------------------------------------------------------------- the reason: what the move does
def test_completing_a_mission_colour_says_so_with_the_cell_as_the_sheet_names_it():
    game = coop_game(1, 1, m1_colours=2)
    st = game.new_state()
    rest, last = _colour_minus_one(st.seats[0].sheet, Y)
    st.seats[0].crossed = rest
    st.apply(Roll.of([Y] * 3, [1, 1, 1]))
    move = Cross(Y, 1, Y, M(last))
    label = cell_label(st.seats[0].sheet, last)
    assert label[1] in "PQRSTUV" and label != last  # a co-op sheet's rows are P..V
    assert why(gists(st, 0, move))[0] == Gist("mission_colour", colour=Y, count=1, total=2)
    assert line(st, 0, move) == f"Take yellow 1 ({label}): completes yellow for the mission (1 of 2 colours)"
    assert line(st, 0, move, "de") == f"Nimm Gelb 1 ({label}): macht Gelb komplett für die Mission (1 von 2 Farben)"
    # the suggestion the advisor gives for it carries the same line
    sug = suggestions(st, 0, rollouts=2)
    assert sug[0].action == move and sug[0].why[0].kind == "mission_colour"


def test_completing_a_column_first_and_what_is_still_to_go():
    game = coop_game(1, 1, m1_colours=5)
    st = game.new_state()
    s = st.seats[0]
    s.crossed = COLUMN_MASKS[COLUMNS.index("H")] & ~M("H7")  # H1..H6 crossed, H7 (yellow, row V) open
    st.apply(Roll.of([Y, Y, Y], [1, 1, 1]))
    pts = s.sheet.first_points[COLUMNS.index("H")]
    assert line(st, 0, Cross(Y, 1, Y, M("H7"))) == f"Take yellow 1 (HV): completes column H first (+{pts})"
    assert line(st, 0, Cross(Y, 1, Y, M("H7")), "de") == \
        f"Nimm Gelb 1 (HV): macht Spalte H als Erstes komplett (+{pts})"
    # one cell short of column H: what is still to go, not a column "completed"
    st2 = coop_game(1, 2).new_state()  # M2: rows; no colour in the plan comes first
    st2.seats[0].crossed = COLUMN_MASKS[COLUMNS.index("H")] & ~M("H6 H7")
    st2.apply(Roll.of([Y, Y, Y], [1, 1, 1]))
    main = why(gists(st2, 0, Cross(Y, 1, Y, M("H7"))))[0]
    assert main == Gist("column_step", column="H", count=6, total=7, left=1)
    assert line(st2, 0, Cross(Y, 1, Y, M("H7"))) == "Take yellow 1 (HV): 1 to go in column H"
    assert line(st2, 0, Cross(Y, 1, Y, M("H7")), "de") == "Nimm Gelb 1 (HV): noch 1 in Spalte H"


def test_a_joker_move_names_the_jokers_and_its_cost_and_a_plain_move_keeps_the_jokers():
    game = coop_game(1, 3)  # M3: a star in every column; H1 is a green star on sheet I
    st = game.new_state()
    st.apply(Roll.of([X, Y, Y], [Q, 2, 2]))
    left = st.seats[0].jokers_left
    joker = Cross(X, Q, G, M("H1"))  # X as green, ? as 1
    assert joker in st.legal_actions(0)
    assert line(st, 0, joker) == (f'Take X as green + ? as 1 (HP): a star in column H for the mission; '
                                  f'costs 2 "!" ({left - 2} left)')
    assert line(st, 0, joker, "de") == (f"Nimm X als Grün + ? als 1 (HP): ein Stern in Spalte H für die Mission; "
                                        f"kostet 2 „!“ (noch {left - 2})")
    plain = next(a for a in st.legal_actions(0) if isinstance(a, Cross) and not a.joker_cost)
    assert line(st, 0, plain, keeps=True).endswith('; keeps your "!"')
    assert line(st, 0, plain, "de", keeps=True).endswith("; spart deine „!“")
    assert "keeps" not in line(st, 0, plain)  # only beside a suggestion that spends "!"


def test_the_reason_follows_the_move_not_a_fixed_text():
    """Each move's reason is about that move: a column, colour or row it names is one the move
    crosses in; a mission colour it completes is the move's colour."""
    st = played(CoopGame.create(3, 2), 6, 2)
    seat = st.current_player()
    moves = [a for a in st.legal_actions(seat) if isinstance(a, Cross)][:80]
    sheet = st.seats[seat].sheet
    kinds = set()
    for a in moves:
        main = why(gists(st, seat, a))[0]
        kinds.add(main.kind)
        cells = names(a.cells)
        if main.column:
            assert main.column in {c[0] for c in cells}, (a, main)
        if main.row:
            assert main.row in {cell_label(sheet, c)[1] for c in cells}, (a, main)
        if main.colour >= 0 and main.kind != "reach":
            assert main.colour == a.colour, (a, main)
    assert len(kinds) >= 3
    lines = {line(st, seat, a) for a in moves}
    assert len(lines) == len(moves)  # each move its own line


def test_a_forced_failed_roll_and_the_last_one():
    game = coop_game(1, 1)
    st = game.new_state()
    s = st.seats[0]
    s.jokers_used = s.sheet.jokers
    st.apply(Roll.of([X, X, X], [Q, Q, Q]))
    assert line(st, 0, PASS) == "Failed roll: no move with these dice; 1 of 3 failed rolls"
    assert line(st, 0, PASS, "de") == "Fehlwurf: mit diesen Würfeln kein Zug möglich; 1 von 3 Fehlwürfen"
    s.failed = 2
    assert line(st, 0, PASS) == "Failed roll: no move with these dice; 3 of 3 failed rolls: the team loses"
    base = played(BaseGame(["standard"] * 2), 2, 23)
    assert line(base, base.active, PASS) == "Pass: nothing worth crossing; a pass costs nothing"


def _blocking(st) -> tuple:
    """A cross of the active seat that leaves others no move, and its gist saying so."""
    for a in st.legal_actions(st.active):
        if isinstance(a, Cross):
            g = next((g for g in why(gists(st, st.active, a)) if g.kind == "blocks"), None)
            if g is not None:
                return a, g
    raise AssertionError("no move here leaves another seat without a move")


def test_a_move_that_leaves_others_without_a_move_says_who_with_names_escaped():
    # the active seat's dice are set aside from roll 4 on: what it takes, the others cannot use
    st = played(CoopGame.create(4, 1), 8, 2)
    who = ["*Ada*", "Bea", "C_c", "Dan"]
    move, g = _blocking(st)
    assert len(g.seats) == 1
    other = g.seats[0]
    text = line(st, st.active, move, who=who)
    assert f"; but {other + 1}. " in text and "gets no move" in text
    with using("en"):
        from nochmal.ui.labels import seat_label
        assert seat_label(who, other) in text  # a name as Markdown text (escaped by md)
    assert "*Ada*" not in text
    assert "; aber dann hat " in line(st, st.active, move, "de", who=who)
    st3 = played(CoopGame.create(3, 1), 6, 39)
    move, g = _blocking(st3)
    assert len(g.seats) == 2
    assert "; but none of the others gets a move" in line(st3, st3.active, move)
    assert "; aber dann hat kein anderer Platz einen Zug" in line(st3, st3.active, move, "de")


def test_lines_are_short_and_hold_no_statistics():
    for players, mission, rolls, seed in [(3, 1, 4, 1), (6, 4, 12, 3), (2, 5, 9, 5)]:
        st = played(CoopGame.create(players, mission), rolls, seed)
        seat = st.current_player()
        for sug in suggestions(st, seat, rollouts=4):
            for lang in ("en", "de"):
                with using(lang):
                    text = headline(st.game, sug, [f"P{i}" for i in range(players)])
                assert len(text.split()) <= 24, text
                assert "%" not in text and "interval" not in text.lower() and "rollout" not in text.lower()
                assert "Simulation" not in text


# --------------------------------------------------------------------------- within the noise
def test_tie_groups_put_moves_the_paired_rollouts_cannot_tell_apart_together():
    r = random.Random(1)
    a = [float(r.random() < 0.5) for _ in range(200)]
    close = list(a)
    close[3] = 1 - close[3]
    close[7] = 1 - close[7]  # differs in two rollouts of 200
    assert tie_groups([a, a, a]) == [0, 0, 0]
    assert tie_groups([a, close, a]) == [0, 0, 0]
    worse = [0.0] * 200
    assert tie_groups([a, worse, worse]) == [0, 1, 1]
    assert tie_groups([[1.0] * 50, [0.5] * 50, [0.0] * 50]) == [0, 1, 2]
    assert tie_groups([a, close, worse]) == [0, 0, 1]


def _sug(group: int) -> Suggestion:
    return Suggestion(seat=0, action=PASS, cells=(), dice="", win_chance=0.3, est_score=None, rollouts=9, reason="",
                      group=group)


@pytest.mark.parametrize("groups,en,de", [
    ([0, 0, 0], "Three equally good moves: the games played out cannot tell them apart.",
     "Drei gleich gute Züge: Die durchgespielten Partien unterscheiden sie nicht."),
    ([0, 0, 1], "Two equally good moves: the games played out cannot tell them apart. The last one is weaker.",
     "Zwei gleich gute Züge: Die durchgespielten Partien unterscheiden sie nicht. Der letzte ist schwächer."),
    ([0, 1, 1], "The first move is the best; the others are equally good.",
     "Der erste Zug ist der beste; die anderen sind gleich gut."),
    ([0, 1, 2], "The first move is the best.", "Der erste Zug ist der beste."),
    ([0, 0], "Two equally good moves: the games played out cannot tell them apart.",
     "Zwei gleich gute Züge: Die durchgespielten Partien unterscheiden sie nicht."),
    ([0], None, None),
])
def test_the_verdict_is_said_once_from_the_groups(groups, en, de):
    sug = [_sug(g) for g in groups]
    with using("en"):
        assert verdict(sug) == en
    with using("de"):
        assert verdict(sug) == de


# --------------------------------------------------------------------------- the second stage
class _End:
    """A finished rollout as the advisor reads it: won or not, the mission's share done."""

    def __init__(self, won: bool):
        self.extra = {"won": won}
        self.game = SimpleNamespace(progress=lambda st: SimpleNamespace(share=0.5))


def test_stage_two_spends_rollouts_only_where_they_can_change_the_answer(monkeypatch):
    """Rollouts with known win chances (the same dice, seed by seed, for every move): the best move
    (50 %) and one a little worse (44 %) are not told apart by the first stage, so both get more
    until they are; a move with the very same results as the best gets no more (no number of
    rollouts could tell them apart: they stay "equally good"), nor do the clearly worse ones; the
    second stage stays within its budget."""
    st = played(CoopGame.create(3, 1), 8, 12)
    seat = st.active
    cands = advice.candidates(st, seat, 4)
    assert len(cands) == 5
    best, near, same = cands[0], cands[1], cands[2]
    chance = {best: 0.50, near: 0.44, same: 0.50, cands[3]: 0.1, cands[4]: 0.1}
    calls = []

    def rollouts(state, moves, seat_, seeds):
        calls.append((list(moves), len(seeds)))
        return [[_End(random.Random(s).random() < chance[a]) for s in seeds] for a in moves]

    monkeypatch.setattr(planner, "compiled_rollout_ends", rollouts)
    monkeypatch.setattr(coop_weights, "coop_rollout_value", lambda end: float(end.extra["won"]))
    budget = 0.25
    sug = suggestions(st, seat, budget=budget)
    by = {s.action: s for s in sug}
    first = calls[0][1]
    assert calls[0][0] == cands and len(calls) > 1  # stage one: every move; then a second stage
    for moves, _ in calls[1:]:
        assert set(moves) == {best, near}  # only the two the first stage could not tell apart
    assert by[best].rollouts == by[near].rollouts > first == by[same].rollouts
    assert set(by) == {best, near, same}
    assert by[best].group == by[same].group != by[near].group  # told apart by the second stage
    per_rollout = (st.game.n_turns - st.roll_index) * st.game.n_seats
    assert sum(len(m) * n for m, n in calls[1:]) * per_rollout <= advice.STAGE2_WORK * budget
    # without the second stage the same rollouts do not tell "near" from the best
    calls.clear()
    again = suggestions(st, seat, rollouts=first)
    assert len(calls) == 1 and len({s.group for s in again if s.action in (best, near)}) == 1
