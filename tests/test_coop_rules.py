"""Acceptance tests of the co-operative variant (``shared/RULES.md`` section 6), one scenario per
rule id (C-LEN, C-BOARDS, C-TRACK, C-NO-STARS / C-NO-BONUS, C-POINTS, C-FAIL, C-GOAL-10,
C-GOAL-19, C-GOAL-27, C-CHECK, C-WIN, C-LOSE, C-SOLO) and every DECISION of that section.

Every scenario runs through ``State.apply`` on the stand-in co-op sheets I..VI. Turns before
the decisive one are played for real by a "quiet" policy (a one-cell cross that completes
nothing, so no failed roll and no points); the decisive position is then built by setting
``seat.crossed`` (and, where a test needs it, "!" used) directly, and the decisive actions go
through ``apply`` again. Interim goals are chosen with custom tableaus
(``tableau_from_data``) so that a check is met or missed on purpose.

Co-op sheet I, for reading the scenarios (UPPERCASE = star; rows P..V are 1..7)::

        ABCDEFGHIJKLMNO
     P  gggyyyyGbbbOyyg
     Q  ogYgYyoorBbooyg
     R  BgrgggGrrryyogg
     S  brrgoObrgoyyoRb
     T  roooorbbgoobrrr
     U  rBbRrrryYoGbbbO
     V  yybbbbryyyggRoo
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from nochmal.engine import decisions
from nochmal.engine.cells import COLUMN_MASKS, COLUMNS, mask_of, neighbours
from nochmal.engine.coop import COOP_SHEETS, CoopGame, RemoveDie, StrikeJokers, turn_info
from nochmal.engine.coopdata import N_TURNS, get_tableau, tableau_from_data
from nochmal.engine.dice import Roll
from nochmal.engine.errors import DataFileError, IllegalMoveError, InvalidInputError, NochmalError
from nochmal.engine.game import CHANCE, TEAM, TERMINAL, BaseGame, State, action_to_json, play, replay
from nochmal.engine.moves import PASS, Cross
from nochmal.bots.policies import random_policy
from nochmal.engine.sheet import get_sheet

Y, G, B, R, O = range(5)  # colours = colour-die faces
X = 5  # colour joker
Q = 0  # number joker "?"


# --------------------------------------------------------------------------- helpers
def M(cells: str) -> int:
    return mask_of(cells.split())


def col(letter: str) -> int:
    return COLUMN_MASKS[COLUMNS.index(letter)]


def tableau(players: int, track=None, **values):
    """The shipped tableau for ``players`` with some values replaced (provenance "user")."""
    data = get_tableau(players).model_dump(mode="json")
    data["id"] = f"test-{players}"
    for key, value in values.items():
        data[key] = {"value": value, "provenance": "user"}
    if track is not None:
        data["track"] = list(track)
    return tableau_from_data(data, "test tableau")


def new_game(players: int, mission: int = 1, rules_version: int = 2, **values) -> CoopGame:
    # by default no interim goal can be missed and the mission cannot complete by accident
    defaults = {"goal_10": 0, "goal_19": 0, "goal_27": 0, "m1_colours": 5}
    defaults.update(values)
    track = defaults.pop("track", None)
    return CoopGame.create(players, mission, tableau=tableau(players, track=track, **defaults),
                           rules_version=rules_version)


def snapshot(state: State) -> str:
    """A deep, immutable picture of the whole position (to_json + the seats' internals)."""
    seats = [(s.crossed, s.jokers_used, sorted(s.columns.items()), sorted(s.colours.items()), s.failed)
             for s in state.seats]
    return json.dumps([state.to_json(), seats], sort_keys=True, default=str)


def completes_something(seat, move) -> bool:
    after = seat.crossed | move.cells
    for cm in COLUMN_MASKS:
        if after & cm == cm and seat.crossed & cm != cm:
            return True
    cm = seat.sheet.colour_masks[move.colour]
    return after & cm == cm and seat.crossed & cm != cm


def quiet_move(state: State, seat: int, avoid: int = 0):
    """The first legal cross of ``seat`` that completes nothing and avoids ``avoid`` (else PASS)."""
    s = state.seats[seat]
    for a in state.legal_actions(seat):
        if isinstance(a, Cross) and not a.cells & avoid and not completes_something(s, a):
            return a
    return PASS


def quiet_roll(state: State) -> Roll:
    nc, nn = state.game.dice_in_play(state)
    t = state.roll_index
    return Roll.of([(t + k) % 5 for k in range(nc)], [1] * nn)


def finish_turn(state: State, moves: dict | None = None, avoid: int = 0) -> None:
    """After the roll: the active seat, then every passive seat, decide. ``moves`` maps a seat
    to its action; the others make a quiet move."""
    moves = moves or {}
    while state.current_player() >= 0:
        seat = state.current_player()
        state.apply(moves[seat] if seat in moves else quiet_move(state, seat, avoid), seat)


def play_turn(state: State, roll: Roll | None = None, moves: dict | None = None, avoid: int = 0) -> None:
    assert state.current_player() == CHANCE, state.summary()
    state.apply(roll if roll is not None else quiet_roll(state))
    finish_turn(state, moves, avoid)


def fast_forward(state: State, turn: int) -> None:
    """Play quiet turns until ``turn`` (1-based) is about to be rolled; no decision may come up."""
    while state.roll_index + 1 < turn:
        play_turn(state)
        assert state.current_player() == CHANCE, f"unexpected stop: {state.summary()}"
    assert state.roll_index + 1 == turn
    for s in state.seats:
        assert s.failed == 0 and not s.columns and not s.colours, "the quiet prefix must leave no trace"


def cross_cell(sheet, cell: str, number_die: int = 1) -> Cross:
    """A one-cell cross of ``cell`` with the colour die of its own colour."""
    m = M(cell)
    colour = next(c for c in range(5) if sheet.colour_masks[c] & m)
    return Cross(colour, number_die, colour, m)


def colour_minus_one(sheet, colour: int) -> tuple[int, str]:
    """(mask of every cell of ``colour`` but one, that last cell) such that crossing the last
    cell alone is legal and completes no column."""
    cm = sheet.colour_masks[colour]
    for i in range(105):
        bit = 1 << i
        if not cm & bit:
            continue
        rest = cm & ~bit
        if not (neighbours(rest) | sheet.start_mask) & bit:
            continue
        if any((rest | bit) & c == c for c in COLUMN_MASKS):
            continue
        name = f"{COLUMNS[i % 15]}{i // 15 + 1}"
        return rest, name
    raise AssertionError("no suitable last cell")


def column_minus(letter: str, cell: str) -> int:
    return col(letter) & ~M(cell)


def outcome(state: State) -> dict:
    assert state.is_terminal()
    return state.outcome().to_json()


# --------------------------------------------------------------------------- C-LEN
def test_C_LEN_a_game_has_at_most_27_turns():
    game = new_game(2)
    st = game.new_state()
    for turn in range(1, N_TURNS + 1):
        assert not st.is_terminal()
        assert st.roll_index + 1 == turn
        play_turn(st)
    assert st.is_terminal() and st.current_player() == TERMINAL
    out = outcome(st)
    assert out["turns"] == out["rolls"] == 27
    assert out["won"] is False
    assert "C-LOSE" in out["reason"]
    assert set(out["checks"]) == {"10", "19", "27"}
    assert st.legal_actions() == []
    with pytest.raises(IllegalMoveError):
        st.apply(quiet_roll(st))


def test_C_LEN_turn_info_shows_27_turns():
    game = new_game(3)
    st = game.new_state()
    play_turn(st)
    info = turn_info(st)
    assert info["turn"] == 2 and info["turns"] == 27
    assert len(info["track"]) == 27
    assert set(info["checks"]) == {10, 19, 27}


# --------------------------------------------------------------------------- C-BOARDS
@pytest.mark.parametrize("players", range(1, 7))
def test_C_BOARDS_sheets_I_to_VI_in_seat_order(players):
    game = CoopGame.create(players, 1)
    assert [s.id for s in game.sheets] == list(COOP_SHEETS[:players])
    assert game.sheets[0].id == "coop-I"  # the mission leader takes sheet I
    for sheet in game.sheets:
        assert sheet.spec.row_labels == tuple("PQRSTUV")
        assert sheet.spec.coop is not None and sheet.spec.coop.failed_roll_boxes == 3
        assert sorted(n for n, _ in sheet.number_fields) == [1, 2, 3, 4, 5, 6]
        for _, square in sheet.number_fields:  # a number field sits in a 2x2 square
            assert square.bit_count() == 4
        assert sheet.jokers == 8
        assert sheet.provenance == "stand-in"
    # "layouts differ slightly between numbers"
    grids = {tuple(s.spec.grid) for s in (get_sheet(i) for i in COOP_SHEETS)}
    assert len(grids) == 6


def test_C_BOARDS_bad_player_counts_and_sheet_lists():
    for bad in (0, 7, -1, "3", None):
        with pytest.raises(InvalidInputError) as e:
            CoopGame.create(bad, 1)
        assert e.value.rule == "C-BOARDS"
    with pytest.raises(InvalidInputError) as e:
        CoopGame.create(3, 1, sheets=["coop-I", "coop-II"])
    assert e.value.rule == "C-BOARDS"
    with pytest.raises(NochmalError):
        CoopGame.create(2, 1, sheets=["coop-I", "no-such-sheet"])
    with pytest.raises(NochmalError):
        CoopGame.create(2, 6)  # there are five missions


def test_C_BOARDS_chosen_sheets_and_number_field_missions():
    game = CoopGame.create(2, 1, sheets=["coop-III", "standard"])
    assert [s.id for s in game.sheets] == ["coop-III", "standard"]
    # mission 4 needs number fields: the verified standard sheet has none
    with pytest.raises(InvalidInputError) as e:
        CoopGame.create(2, 4, sheets=["standard", "standard"])
    assert e.value.rule == "C-BOARDS"
    CoopGame.create(2, 4, sheets=["coop-II", "standard"])  # one co-op sheet is enough


# --------------------------------------------------------------------------- C-TRACK
@pytest.mark.parametrize("players", [1, 2, 3, 5, 6])
def test_C_TRACK_round_robin_from_seat_1_by_default(players):
    assert decisions.COOP_TRACK_ROUND_ROBIN is True
    game = new_game(players)
    st = game.new_state()
    seen = []
    while not st.is_terminal():
        st.apply(quiet_roll(st))
        seen.append(st.active)
        assert st.current_player() == st.active
        finish_turn(st)
    assert seen == [t % players for t in range(27)]
    assert turn_info(st)["track"] == [t % players for t in range(27)]


def test_C_TRACK_a_tableau_with_its_own_track_is_followed():
    track = [1, 1, 3, 2, 2, 3, 1, 3, 3, 2, 1, 1, 2, 3, 3, 3, 2, 1, 2, 1, 3, 1, 2, 3, 1, 2, 2]
    assert len(track) == 27
    game = new_game(3, track=track)
    st = game.new_state()
    seen = []
    while not st.is_terminal():
        st.apply(quiet_roll(st))
        seen.append(st.active)
        # the active seat decides first, then the others clockwise from it
        assert st.current_player() == st.active
        st.apply(quiet_move(st, st.active))
        assert st.pending == [(st.active + k) % 3 for k in (1, 2)]
        finish_turn(st)
    assert seen == [s - 1 for s in track]
    assert turn_info(st)["track"] == [s - 1 for s in track]


def test_C_TRACK_a_track_from_a_tableau_file(tmp_path):
    from nochmal.engine.coopdata import tableau_to_toml

    track = [2, 2, 1] * 9
    path = tmp_path / "tableau.toml"
    path.write_text(tableau_to_toml(tableau(2, track=track, goal_10=0, goal_19=0, goal_27=0)), encoding="utf-8")
    game = CoopGame.create(2, 1, tableau=str(path))
    assert game.tableau.track == tuple(track)
    st = game.new_state()
    for t in range(6):
        st.apply(quiet_roll(st))
        assert st.active == track[t] - 1
        finish_turn(st)
    # the track survives the saved game config
    again = CoopGame.from_config(json.loads(json.dumps(game.config())))
    assert again.tableau.track == tuple(track)


def test_C_TRACK_bad_tracks_and_wrong_player_count_are_rejected():
    with pytest.raises(DataFileError, match="track"):
        tableau(3, track=[1, 2, 3] * 8 + [1, 2])  # 26 turns
    with pytest.raises(DataFileError, match="track"):
        tableau(3, track=[1, 2, 4] * 9)  # seat 4 in a 3-player tableau
    with pytest.raises(InvalidInputError) as e:
        CoopGame.create(4, 1, tableau=get_tableau(3))
    assert e.value.rule == "C-TRACK"


# --------------------------------------------------------------------------- R-FIRST3 / R-PASSIVE in co-op
def test_R_FIRST3_in_coop_dice_set_aside_from_turn_4_on():
    game = new_game(3)
    st = game.new_state()
    roll = Roll.of((Y, G, B), (1, 2, 3))
    for turn in (1, 2, 3):
        st.apply(roll)
        move = quiet_move(st, st.active)
        assert isinstance(move, Cross)
        st.apply(move)
        for seat in st.pending:
            assert st.dice_for(seat) == roll, f"turn {turn}: nothing is set aside"
        finish_turn(st)
    st.apply(roll)
    move = quiet_move(st, st.active)
    st.apply(move)
    cols = list(roll.colours)
    cols.remove(move.colour_die)
    nums = list(roll.numbers)
    nums.remove(move.number_die)
    for seat in st.pending:
        assert st.dice_for(seat) == (tuple(cols), tuple(nums))
        # a passive seat cannot use a die the active seat took
        taken = Cross(move.colour_die, move.number_die, move.colour, move.cells)
        if move.colour_die not in cols and move.number_die not in nums:
            assert taken not in st.legal_actions(seat)


# --------------------------------------------------------------------------- C-FAIL
def test_C_FAIL_a_pass_is_a_failed_roll_active_and_passive():
    game = new_game(3)
    st = game.new_state()
    st.apply(Roll.of((Y, G, B), (1, 2, 3)))
    acts = st.legal_actions()
    assert acts[0] == PASS and len(acts) > 1  # passing is allowed even when a cross exists
    st.apply(PASS)  # the active seat 1 fails
    assert st.seats[0].failed == 1
    st.apply(PASS, 2)  # a passive seat fails too (any order)
    assert st.seats[2].failed == 1
    st.apply(quiet_move(st, 1), 1)
    assert [s.failed for s in st.seats] == [1, 0, 1]
    assert st.to_json()["seats"][0]["failed"] == 1
    assert st.current_player() == CHANCE and st.roll_index == 1


def test_C_FAIL_active_failed_roll_frees_all_dice_for_the_others():
    game = new_game(3)
    st = game.new_state()
    fast_forward(st, 5)
    roll = Roll.of((Y, G, R), (1, 2, 5))
    st.apply(roll)
    active = st.active
    assert active == 4 % 3
    st.apply(PASS)
    assert st.seats[active].failed == 1
    for seat in st.pending:
        assert st.dice_for(seat) == roll  # R-ACTIVE-PASS: all dice
    finish_turn(st)


def test_C_FAIL_rules_version_1_third_failed_roll_loses_at_the_end_of_that_turn():
    """Rules version 1 (old saved games replay so); version 2 ends at once (the rules version 2 section below)."""
    game = new_game(3, rules_version=1)
    st = game.new_state()
    # seat 1 fails in turn 1 (active) and turn 2 (passive)
    play_turn(st, moves={0: PASS})
    play_turn(st, moves={0: PASS})
    play_turn(st)
    assert [s.failed for s in st.seats] == [2, 0, 0]
    # turn 4: seat 1 is active and fails a third time
    st.apply(Roll.of((Y, G, B), (1, 2, 3)))
    assert st.active == 0
    st.apply(PASS)
    assert st.seats[0].failed == 3
    assert not st.is_terminal(), "the others still finish the turn (C-CHECK)"
    assert st.current_player() == 1
    assert st.dice_for(1) == Roll.of((Y, G, B), (1, 2, 3))
    finish_turn(st)
    assert st.is_terminal()
    out = outcome(st)
    assert out["won"] is False
    assert "C-FAIL" in out["reason"]
    assert out["winners"] == []
    assert out["failed_rolls"] == [3, 0, 0]
    assert out["turns"] == 4


def test_C_FAIL_third_failed_roll_of_a_passive_seat():
    game = new_game(2)
    st = game.new_state()
    for _ in range(2):
        play_turn(st, moves={1: PASS})
    st.apply(quiet_roll(st))
    st.apply(quiet_move(st, st.active))
    st.apply(PASS)  # seat 2, passive, third failed roll
    assert st.is_terminal()
    out = outcome(st)
    assert out["won"] is False and "C-FAIL" in out["reason"] and out["failed_rolls"] == [0, 3]


# --------------------------------------------------------------------------- C-NO-STARS / C-NO-BONUS
def test_C_NO_STARS_C_NO_BONUS_no_colour_bonus_and_no_star_penalty():
    game = new_game(2)
    st = game.new_state()
    for seat in st.seats:
        seat.crossed = colour_minus_one(seat.sheet, Y)[0]
    last0 = colour_minus_one(st.seats[0].sheet, Y)[1]
    last1 = colour_minus_one(st.seats[1].sheet, Y)[1]
    # turn 1: seat 1 completes yellow (first), turn 2: seat 2 completes yellow (later)
    play_turn(st, Roll.of((Y, G, B), (1, 1, 1)), {0: cross_cell(st.seats[0].sheet, last0)}, avoid=M(last1))
    play_turn(st, Roll.of((Y, G, B), (1, 1, 1)), {1: cross_cell(st.seats[1].sheet, last1)})
    assert st.seats[0].colours == {Y: 0} and st.seats[1].colours == {Y: 0}
    for i in range(2):
        sc = game.seat_score(st, i)
        assert sc.colours == 0
        assert sc.stars == 0
        assert (st.seats[i].sheet.star_mask & ~st.seats[i].crossed) != 0  # uncrossed stars remain
        assert sc.colours_completed == ("yellow",)
    # the same sheets in the competitive game would score 5 / 3 and minus points for stars
    base = BaseGame(["coop-I", "coop-II"])
    assert base.colour_bonus == (5, 3) and base.star_penalty == 2
    assert game.colour_bonus == (0, 0) and game.star_penalty == 0


def test_C_NO_STARS_C_NO_BONUS_in_the_outcome():
    game = new_game(3, goal_27=0)
    st = play(game.new_state(), random_policy, random.Random(5))
    for sc in outcome(st)["scores"]:
        assert sc["colours"] == 0 and sc["stars"] == 0


# --------------------------------------------------------------------------- C-POINTS
def test_C_POINTS_team_points_sum_first_and_later_column_values():
    game = new_game(3, goal_10=14, goal_19=14, goal_27=14)
    st = game.new_state()
    fast_forward(st, 8)
    s0, s1, s2 = st.seats
    s0.crossed = column_minus("A", "A5") | column_minus("H", "H6")
    s1.crossed = column_minus("A", "A5")
    s2.crossed = column_minus("A", "A5")
    a5 = [cross_cell(s.sheet, "A5") for s in st.seats]
    assert {m.colour for m in a5} == {R}
    # turn 8 (seat 2 active): seats 1 and 2 complete column A in the same turn -> both first (5)
    play_turn(st, Roll.of((R, R, Y), (1, 1, 1)), {0: a5[0], 1: a5[1]}, avoid=M("A5 H6"))
    assert s0.columns == {0: 5} and s1.columns == {0: 5}
    assert game.team_points(st) == 10
    # turn 9 (seat 3 active): seat 3 completes A later (3), seat 1 completes H first (1)
    h6 = cross_cell(s0.sheet, "H6")
    assert h6.colour == Y
    play_turn(st, Roll.of((R, Y, Y), (1, 1, 1)), {2: a5[2], 0: h6})
    assert s2.columns == {0: 3} and s0.columns == {0: 5, 7: 1}
    assert game.team_points(st) == 5 + 5 + 3 + 1
    assert [game.seat_score(st, i).columns for i in range(3)] == [6, 5, 3]
    # turn 10: the check counts column points only, the "!" do not count yet
    play_turn(st)
    assert st.extra["checks"]["10"] == {"points": 14, "goal": 14, "met": True}
    assert st.current_player() == CHANCE


def test_C_POINTS_unused_jokers_count_only_at_the_27th_turn_check():
    # 16 unused "!" would meet the goal at turn 10 if they counted there
    game = new_game(2, goal_10=1, goal_19=1, goal_27=1)
    st = game.new_state()
    fast_forward(st, 10)
    play_turn(st)
    assert st.extra["checks"]["10"]["met"] is False
    assert st.extra["checks"]["10"]["points"] == 0
    assert st.current_player() == TEAM


@pytest.mark.parametrize("margin,met", [(0, True), (1, False)])
def test_C_POINTS_at_27_team_points_plus_unused_jokers(margin, met):
    # after turn 27: column O (first value 5) + 5 + 0 unused "!"
    expected = 5 + 5
    game = new_game(2, goal_27=expected + margin)
    st = game.new_state()
    fast_forward(st, 27)
    st.seats[0].jokers_used = 3
    st.seats[1].jokers_used = 8
    s0 = st.seats[0]
    s0.crossed = column_minus("O", "O3")
    o3 = cross_cell(s0.sheet, "O3")
    assert st.roll_index % 2 == 0  # seat 1 is active in turn 27
    play_turn(st, Roll.of((o3.colour, Y, B), (1, 1, 1)), {0: o3}, avoid=M("O3"))
    out = outcome(st)
    assert s0.columns == {14: 5}
    assert st.extra["checks"]["27"] == {"points": expected, "goal": expected + margin, "met": met}
    assert out["team_points"]["27"] == expected
    assert out["team_points_now"] == 5
    assert out["failed_rolls"] == ([0, 0] if met else [1, 1])
    assert "C-LOSE" in out["reason"]


# --------------------------------------------------------------------------- C-GOAL-10
def test_C_GOAL_10_goal_met_no_penalty():
    game = new_game(3, goal_10=0)
    st = game.new_state()
    fast_forward(st, 10)
    play_turn(st)
    assert st.extra["checks"]["10"] == {"points": 0, "goal": 0, "met": True}
    assert st.current_player() == CHANCE and st.roll_index == 10
    assert [s.jokers_left for s in st.seats] == [8, 8, 8]


def _at_goal_10_decision(players=3, jokers_used=(7, 0, 5), penalty=6):
    game = new_game(players, goal_10=1, goal_19=1, goal_27=1, penalty_10_jokers=penalty)
    st = game.new_state()
    fast_forward(st, 10)
    for s, used in zip(st.seats, jokers_used):
        s.jokers_used = used
    play_turn(st)
    return game, st


def test_C_GOAL_10_missed_the_team_decides_the_split():
    game, st = _at_goal_10_decision()
    assert st.current_player() == TEAM
    assert not st.is_chance_node() and not st.is_terminal()
    assert st.extra["checks"]["10"]["met"] is False
    lefts = [s.jokers_left for s in st.seats]
    assert lefts == [1, 8, 3]
    acts = list(st.legal_actions())
    expected = {(a, b, c) for a in range(2) for b in range(9) for c in range(4) if a + b + c == 6}
    assert {a.per_seat for a in acts} == expected
    assert len(acts) == len(expected)
    assert acts in (sorted(acts), sorted(acts, reverse=True))
    assert all(isinstance(a, StrikeJokers) for a in acts)
    # apply one split: the "!" are struck, the check records it, the next turn begins
    st.apply(StrikeJokers((1, 2, 3)))
    assert [s.jokers_left for s in st.seats] == [0, 6, 0]
    assert st.extra["checks"]["10"]["penalty"]["per_seat"] == [1, 2, 3]
    assert st.current_player() == CHANCE
    assert st.roll_index == 10
    assert st.active == 10 % 3
    play_turn(st)
    assert st.roll_index == 11


@pytest.mark.parametrize("split", [(2, 2, 2), (1, 1, 1), (0, 0, 7), (6, 0), (0, 3, 3, 0), (1, 6, 0)],
                         ids=["over-a-seat", "too-few", "too-many", "short", "long", "over-and-sum"])
def test_C_GOAL_10_illegal_split_raises_and_changes_nothing(split):
    game, st = _at_goal_10_decision()
    before = snapshot(st)
    with pytest.raises(IllegalMoveError) as e:
        st.apply(StrikeJokers(split))
    assert e.value.rule == "C-GOAL-10"
    assert snapshot(st) == before
    assert st.current_player() == TEAM


def test_C_GOAL_10_negative_split_is_illegal():
    game, st = _at_goal_10_decision()
    before = snapshot(st)
    assert StrikeJokers((0, 7, -1)) not in st.legal_actions()
    with pytest.raises(IllegalMoveError) as e:
        st.apply(StrikeJokers((0, 7, -1)))
    assert e.value.rule == "C-GOAL-10"
    assert snapshot(st) == before


def test_C_GOAL_10_other_actions_during_the_decision_are_rejected():
    game, st = _at_goal_10_decision()
    before = snapshot(st)
    for action in (RemoveDie("colour"), PASS, quiet_roll(st), Cross(Y, 1, Y, M("H6"))):
        with pytest.raises(NochmalError) as e:
            st.apply(action)
        if isinstance(action, RemoveDie):
            assert e.value.rule == "C-GOAL-10"
        assert snapshot(st) == before


def test_C_GOAL_10_fewer_jokers_than_demanded_all_remaining_are_struck():
    assert decisions.COOP_STRIKE_ALL_IF_SHORT is True
    game, st = _at_goal_10_decision(jokers_used=(7, 6, 7))  # 1 + 2 + 1 = 4 left, 6 demanded
    assert st.current_player() == CHANCE, "nothing to decide"
    assert st.roll_index == 10
    assert [s.jokers_left for s in st.seats] == [0, 0, 0]
    pen = st.extra["checks"]["10"]["penalty"]
    assert pen["jokers"] == 4 and pen["demanded"] == 6 and pen["per_seat"] == "all"


def test_C_GOAL_10_exactly_as_many_jokers_as_demanded():
    game, st = _at_goal_10_decision(jokers_used=(6, 6, 6))  # 6 left, 6 demanded
    assert st.current_player() in (CHANCE, TEAM)
    if st.current_player() == TEAM:  # only one split is possible
        assert [a.per_seat for a in st.legal_actions()] == [(2, 2, 2)]
        st.apply(StrikeJokers((2, 2, 2)))
    assert [s.jokers_left for s in st.seats] == [0, 0, 0]


def test_C_GOAL_10_one_seat_has_one_split():
    game, st = _at_goal_10_decision(players=1, jokers_used=(0,), penalty=2)
    assert st.current_player() == TEAM
    assert [a.per_seat for a in st.legal_actions()] == [(2,)]
    st.apply(st.legal_actions()[0])
    assert st.seats[0].jokers_left == 6


# --------------------------------------------------------------------------- C-GOAL-19
def _at_goal_19(goal_19=1, players=3):
    game = new_game(players, goal_10=0, goal_19=goal_19, goal_27=max(goal_19, 0))
    st = game.new_state()
    fast_forward(st, 19)
    play_turn(st)
    return game, st


def test_C_GOAL_19_goal_met_all_six_dice_stay():
    game, st = _at_goal_19(goal_19=0)
    assert st.extra["checks"]["19"]["met"] is True
    assert st.current_player() == CHANCE and st.roll_index == 19
    assert game.dice_in_play(st) == (3, 3)


@pytest.mark.parametrize("die,left", [("colour", ((Y,), (1, 3))), ("number", ((Y, B), (1,)))])
def test_C_GOAL_19_missed_a_die_leaves_the_game(die, left):
    game, st = _at_goal_19()
    assert st.current_player() == TEAM
    assert st.extra["checks"]["19"]["met"] is False
    assert sorted(st.legal_actions()) == sorted([RemoveDie("colour"), RemoveDie("number")])
    before = snapshot(st)
    with pytest.raises(IllegalMoveError) as e:
        st.apply(StrikeJokers((1, 1, 1)))
    assert e.value.rule == "C-GOAL-19"
    assert snapshot(st) == before
    st.apply(RemoveDie(die))
    assert st.current_player() == CHANCE and st.roll_index == 19
    assert st.extra["checks"]["19"]["penalty"] == {"removed_die": die}
    nc, nn = (2, 3) if die == "colour" else (3, 2)
    assert game.dice_in_play(st) == (nc, nn)
    # a roll of six dice is rejected and changes nothing
    before = snapshot(st)
    with pytest.raises(InvalidInputError) as e:
        st.apply(Roll.of((Y, G, B), (1, 2, 3)))
    assert e.value.rule == "R-ROLL"
    assert snapshot(st) == before
    sampled = st.sample_roll(random.Random(3))
    assert (len(sampled.colours), len(sampled.numbers)) == (nc, nn)
    # turn 20: five dice; the passive seats pick from the three the active seat left
    roll = Roll.of((Y, G, B)[:nc], (1, 2, 3)[:nn])
    st.apply(roll)
    active = st.active
    move = next(a for a in st.legal_actions() if isinstance(a, Cross) and a.colour_die == G
                and a.number_die == 2 and not completes_something(st.seats[active], a))
    st.apply(move)
    for seat in st.pending:
        assert st.dice_for(seat) == left
    finish_turn(st)
    # the die stays out for good, also after a JSON round trip
    fast_forward_decisions(st, 27)
    assert game.dice_in_play(st) == (nc, nn)
    data = json.loads(json.dumps(st.to_json()))
    again = State.from_json(CoopGame.from_config(json.loads(json.dumps(game.config()))), data)
    assert again.game.dice_in_play(again) == (nc, nn)
    assert again.to_json() == data
    assert outcome(st)["removed_die"] == die


def fast_forward_decisions(state: State, until_turn: int) -> None:
    """Quiet turns up to and including ``until_turn`` (or the end)."""
    while not state.is_terminal() and state.roll_index + 1 <= until_turn:
        play_turn(state)
        if state.current_player() == TEAM:
            state.apply(state.legal_actions()[0])


def test_C_GOAL_19_active_failed_roll_frees_all_five_dice():
    game, st = _at_goal_19()
    st.apply(RemoveDie("number"))
    roll = Roll.of((Y, G, B), (1, 2))
    st.apply(roll)
    st.apply(PASS)
    for seat in st.pending:
        assert st.dice_for(seat) == roll


# --------------------------------------------------------------------------- C-GOAL-27
def _at_turn_27(players=3, goal_27=0, failed=None):
    game = new_game(players, goal_10=0, goal_19=0, goal_27=goal_27)
    st = game.new_state()
    fast_forward(st, 27 if not failed else 20)
    if failed:
        # real failed rolls: the seat passes in turns 20, 21, ...
        for seat, n in failed.items():
            assert n < 3
        for k in range(max(failed.values())):
            play_turn(st, moves={seat: PASS for seat, n in failed.items() if n > k})
        while st.roll_index + 1 < 27:
            play_turn(st)
    return game, st


def test_C_GOAL_27_met_no_failed_roll_and_the_mission_is_lost():
    game, st = _at_turn_27(goal_27=3 * 8)  # 24 unused "!" meet it exactly
    play_turn(st)
    out = outcome(st)
    assert out["checks"]["27"]["met"] is True
    assert out["failed_rolls"] == [0, 0, 0]
    assert out["won"] is False and "C-LOSE" in out["reason"]
    assert out["turns"] == 27


def test_C_GOAL_27_missed_a_failed_roll_each():
    game, st = _at_turn_27(goal_27=3 * 8 + 1, failed={1: 1})
    play_turn(st)
    out = outcome(st)
    assert out["checks"]["27"]["met"] is False
    assert out["failed_rolls"] == [1, 2, 1]
    assert out["won"] is False and "C-LOSE" in out["reason"]


def test_C_GOAL_27_missed_and_someone_reaches_three():
    game, st = _at_turn_27(goal_27=200, failed={2: 2})
    assert [s.failed for s in st.seats] == [0, 0, 2]
    play_turn(st)
    out = outcome(st)
    assert out["failed_rolls"] == [1, 1, 3]
    assert out["won"] is False
    assert "C-GOAL-27" in out["reason"]
    assert out["turns"] == 27


# --------------------------------------------------------------------------- C-CHECK / C-WIN / C-LOSE
def _m1_one_colour_position(players=2):
    """Mission 1 needing one colour; seat 1 can complete yellow with one cross of its last cell."""
    game = new_game(players, m1_colours=1)
    st = game.new_state()
    rest, last = colour_minus_one(st.seats[0].sheet, Y)
    return game, st, rest, last


def test_C_CHECK_third_failed_roll_and_completed_mission_in_the_same_turn_lose():
    assert decisions.COOP_FAIL_BEATS_WIN_SAME_TURN is True
    game, st, rest, last = _m1_one_colour_position()
    play_turn(st, moves={1: PASS})
    play_turn(st, moves={1: PASS})
    assert [s.failed for s in st.seats] == [0, 2]
    st.seats[0].crossed = rest
    # turn 3: seat 1 (active) completes the mission, seat 2 fails a third time
    st.apply(Roll.of((Y, G, B), (1, 2, 3)))
    assert st.active == 0
    st.apply(cross_cell(st.seats[0].sheet, last))
    st.apply(PASS)
    assert game.progress(st).complete  # the mission itself is done ...
    out = outcome(st)
    assert out["won"] is False  # ... but the third failed roll loses (rule 7 of the variant)
    assert "C-FAIL" in out["reason"]
    assert out["winners"] == []
    assert out["turns"] == 3


def test_C_WIN_the_mission_wins_at_once_before_turn_27():
    game, st, rest, last = _m1_one_colour_position()
    play_turn(st, moves={1: PASS})
    play_turn(st, moves={1: PASS})
    st.seats[0].crossed = rest
    st.apply(Roll.of((Y, G, B), (1, 2, 3)))
    st.apply(cross_cell(st.seats[0].sheet, last))
    assert not st.is_terminal()  # the turn is finished by everybody first
    st.apply(quiet_move(st, 1))
    assert st.is_terminal()
    out = outcome(st)
    assert out["won"] is True and "C-WIN" in out["reason"]
    assert out["winners"] == [0, 1]
    assert out["turns"] == 3
    assert out["failed_rolls"] == [0, 2]
    assert out["mission"]["complete"] is True


def test_C_WIN_a_passive_seat_completes_the_mission():
    game = new_game(3, m1_colours=1)
    st = game.new_state()
    fast_forward(st, 5)
    rest, last = colour_minus_one(st.seats[2].sheet, G)
    st.seats[2].crossed = rest
    st.apply(Roll.of((G, G, G), (1, 1, 1)))
    assert st.active == 1  # seat 2 is active in turn 5
    st.apply(quiet_move(st, 1))
    assert st.pending == [2, 0]
    st.apply(quiet_move(st, 0), 0)  # passive seats decide independently, in any order
    assert not st.is_terminal()
    st.apply(cross_cell(st.seats[2].sheet, last), 2)
    out = outcome(st)
    assert out["won"] is True and "C-WIN" in out["reason"] and out["turns"] == 5
    assert out["winners"] == [0, 1, 2]
    assert out["mission"]["requirements"][0]["done"] == {"green": [3]}


def test_C_WIN_mission_complete_at_turn_10_beats_a_missed_goal():
    game = new_game(2, goal_10=5, goal_19=5, goal_27=5, m1_colours=1)
    st = game.new_state()
    fast_forward(st, 10)
    rest, last = colour_minus_one(st.seats[1].sheet, Y)
    st.seats[1].crossed = rest
    play_turn(st, Roll.of((Y, G, B), (1, 2, 3)), {1: cross_cell(st.seats[1].sheet, last)})
    out = outcome(st)
    assert out["won"] is True and "C-WIN" in out["reason"]
    assert "10" not in out["checks"], "the interim check comes after the end conditions (C-CHECK)"
    assert out["turns"] == 10


def test_C_CHECK_third_failed_roll_at_turn_10_no_penalty_decision():
    game = new_game(2, goal_10=5, goal_19=5, goal_27=5)
    st = game.new_state()
    fast_forward(st, 8)
    play_turn(st, moves={0: PASS})
    play_turn(st, moves={0: PASS})
    play_turn(st, moves={0: PASS})  # turn 10
    out = outcome(st)
    assert out["won"] is False and "C-FAIL" in out["reason"] and out["turns"] == 10
    assert st.current_player() == TERMINAL


def test_C_WIN_rules_version_1_at_turn_27_before_the_final_check():
    """Rules version 1 checked the mission before goal 27; version 2: the rules version 2 section below."""
    game = new_game(2, goal_27=200, m1_colours=1, rules_version=1)
    st = game.new_state()
    fast_forward(st, 27)
    rest, last = colour_minus_one(st.seats[0].sheet, B)
    st.seats[0].crossed = rest
    play_turn(st, Roll.of((Y, G, B), (1, 2, 3)), {0: cross_cell(st.seats[0].sheet, last)}, avoid=M(last))
    out = outcome(st)
    assert out["won"] is True and "C-WIN" in out["reason"]
    assert out["failed_rolls"] == [0, 0], "no C-GOAL-27 penalty after a win"
    assert out["turns"] == 27


def test_C_LOSE_mission_not_complete_after_turn_27():
    game = new_game(4)
    st = game.new_state()
    fast_forward(st, 27)
    play_turn(st)
    out = outcome(st)
    assert out["won"] is False and "C-LOSE" in out["reason"] and out["turns"] == 27
    assert out["winners"] == []
    assert out["mission"]["complete"] is False


# --------------------------------------------------------------------------- C-SOLO
def test_C_SOLO_one_seat_is_always_active_and_nothing_is_set_aside():
    assert decisions.COOP_ONE_SEAT_NOTHING_SET_ASIDE is True
    game = CoopGame.create(1, 1)
    assert game.sheets[0].id == "coop-I"
    st = game.new_state()
    for turn in range(1, 9):
        roll = Roll.of((Y, G, B), (1, 2, 3))
        st.apply(roll)
        assert st.active == 0 and st.current_player() == 0
        assert st.dice_for(0) == roll  # all dice, every turn
        st.apply(quiet_move(st, 0))
        assert st.current_player() == CHANCE, "nobody else picks: the turn is over"
        assert st.roll_index == turn
    assert not game.sets_aside(st)


@pytest.mark.parametrize("mission", range(1, 6))
def test_C_SOLO_plays_to_an_outcome(mission):
    game = CoopGame.create(1, mission)
    for seed in range(4):
        st = game.new_state()
        rng = random.Random(seed)
        while not st.is_terminal():
            cp = st.current_player()
            assert cp in (CHANCE, TEAM, 0)
            if cp == CHANCE:
                st.apply(st.sample_roll(rng))
            else:
                st.apply(random_policy(st, rng))
        out = outcome(st)
        assert out["players"] == 1 and out["turns"] <= 27
        assert out["won"] in (True, False)


def test_C_SOLO_quiet_game_reaches_all_three_checks():
    game = CoopGame.create(1, 1)  # the shipped 1-player tableau: 2 / 2 "!" / 6 / 13
    st = game.new_state()
    while not st.is_terminal():
        if st.current_player() == TEAM:
            acts = list(st.legal_actions())
            if st.extra["decision"]["kind"] == "strike_jokers":
                assert [a.per_seat for a in acts] == [(2,)]
            st.apply(acts[0])
        else:
            play_turn(st)
    out = outcome(st)
    assert set(out["checks"]) == {"10", "19", "27"}
    assert out["checks"]["10"]["penalty"]["per_seat"] == [2]
    assert out["removed_die"] in ("colour", "number")
    assert out["turns"] == 27


# --------------------------------------------------------------------------- state contract in co-op
def test_coop_replay_and_json_round_trip_through_decisions():
    game = new_game(3, goal_10=1, goal_19=1, goal_27=1)
    st = game.new_state()
    fast_forward(st, 10)
    play_turn(st)
    assert st.current_player() == TEAM
    data = json.loads(json.dumps(st.to_json()))
    assert replay(game, data["history"]).to_json() == data
    again = State.from_json(CoopGame.from_config(json.loads(json.dumps(game.config()))), data)
    assert again.to_json() == data
    assert again.current_player() == TEAM
    assert list(again.legal_actions()) == list(st.legal_actions())


def test_coop_clone_is_independent_during_a_decision():
    game, st = _at_goal_10_decision()
    cp = st.clone()
    cp.apply(cp.legal_actions()[0])
    assert st.current_player() == TEAM and cp.current_player() == CHANCE
    assert "decision" in st.extra and "decision" not in cp.extra


def test_coop_to_json_is_a_snapshot():
    game = new_game(2)
    st = game.new_state()
    data = st.to_json()
    frozen = json.loads(json.dumps(data))
    for _ in range(10):
        play_turn(st)
    assert data == frozen


def test_coop_progress_query_does_not_change_the_state():
    game = new_game(2, mission=5)
    st = game.new_state()
    before = json.dumps(st.to_json(), sort_keys=True)
    game.progress(st)
    assert json.dumps(st.to_json(), sort_keys=True) == before
    State.from_json(game, json.loads(json.dumps(st.to_json())))


@given(lefts=hst.lists(hst.integers(0, 8), min_size=1, max_size=6), amount=hst.integers(0, 14))
@settings(max_examples=300, deadline=None)
def test_strike_splits_are_every_legal_split_once_in_the_engines_order(lefts, amount):
    """C-GOAL-10: the team decision's actions are every way to strike ``amount`` "!" with no seat
    striking more than it has left, each once, largest split first."""
    from itertools import product

    from nochmal.engine.coop import strike_splits

    got = [a.per_seat for a in strike_splits(tuple(lefts), amount)]
    every = [s for s in product(*(range(left + 1) for left in lefts)) if sum(s) == amount]
    assert got == sorted(every, reverse=True)


# --------------------------------------------------------------------------- rules version 2
# RULES.md C-CHECK / C-FAIL / C-WIN were revised in rules version 2; games saved under version
# 1 replay under version 1 (the version-1 scenarios above say so in their names).
def test_C_FAIL_third_failed_roll_ends_the_game_at_once():
    assert decisions.COOP_THIRD_FAIL_ENDS_AT_ONCE == {1: False, 2: True}
    game = new_game(3)
    assert game.rules_version == 2
    st = game.new_state()
    play_turn(st, moves={0: PASS})
    play_turn(st, moves={0: PASS})
    play_turn(st)
    st.apply(Roll.of((Y, G, B), (1, 2, 3)))
    assert st.active == 0
    st.apply(PASS)  # the active seat's third failed roll
    assert st.is_terminal(), "nobody else enters anything for this turn"
    assert st.current_player() == TERMINAL and st.pending == [] and st.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="R-END"):
        st.apply(quiet_move(game.new_state(), 0), 1)
    out = outcome(st)
    assert out["won"] is False and "C-FAIL" in out["reason"]
    assert out["failed_rolls"] == [3, 0, 0] and out["turns"] == 4 and out["winners"] == []


def test_C_FAIL_third_failed_roll_of_a_passive_seat_ends_the_game_before_the_others_decide():
    game = new_game(3)
    st = game.new_state()
    for _ in range(2):
        play_turn(st, moves={1: PASS})
    st.apply(quiet_roll(st))
    st.apply(quiet_move(st, st.active))
    assert st.active == 2 and st.pending == [0, 1]
    before = st.seats[0].crossed
    st.apply(PASS, 1)  # seat 2's third failed roll; seat 1 has not decided yet
    assert st.is_terminal()
    with pytest.raises(IllegalMoveError):
        st.apply(PASS, 0)
    assert st.seats[0].crossed == before and st.seats[0].failed == 0
    out = outcome(st)
    assert out["failed_rolls"] == [0, 3, 0] and out["turns"] == 3 and "C-FAIL" in out["reason"]


def test_C_FAIL_a_third_failed_roll_ending_the_game_replays_from_its_history():
    game = new_game(2)
    st = game.new_state()
    for _ in range(3):
        play_turn(st, moves={1: PASS})
    assert st.is_terminal()
    again = replay(game, [action_to_json(a) for a in st.history])
    assert again.is_terminal() and again.to_json() == st.to_json()


def test_C_CHECK_goal_27_is_checked_before_the_mission():
    assert decisions.COOP_GOAL_27_BEFORE_MISSION == {1: False, 2: True}
    game = new_game(2, goal_27=200, m1_colours=1)
    st = game.new_state()
    fast_forward(st, 27)
    rest, last = colour_minus_one(st.seats[0].sheet, B)
    st.seats[0].crossed = rest
    play_turn(st, Roll.of((Y, G, B), (1, 2, 3)), {0: cross_cell(st.seats[0].sheet, last)}, avoid=M(last))
    out = outcome(st)
    assert out["checks"]["27"]["met"] is False
    assert out["failed_rolls"] == [1, 1], "the missed goal 27 marks a failed roll for everyone first"
    assert out["won"] is True and "C-WIN" in out["reason"], "nobody reached three: the mission still wins"


def test_C_CHECK_a_missed_goal_27_loses_a_mission_completed_in_turn_27():
    game = new_game(2, goal_27=200, m1_colours=1)
    st = game.new_state()
    fast_forward(st, 27)
    st.seats[1].failed = 2
    rest, last = colour_minus_one(st.seats[0].sheet, B)
    st.seats[0].crossed = rest
    play_turn(st, Roll.of((Y, G, B), (1, 2, 3)), {0: cross_cell(st.seats[0].sheet, last)}, avoid=M(last))
    assert game.progress(st).complete, "the mission itself is done ..."
    out = outcome(st)
    assert out["won"] is False and "C-GOAL-27" in out["reason"], "... but the last interim check comes first"
    assert out["failed_rolls"] == [1, 3] and out["turns"] == 27 and out["winners"] == []


def test_C_CHECK_version_1_checked_the_mission_first_at_turn_27():
    game = new_game(2, goal_27=200, m1_colours=1, rules_version=1)
    st = game.new_state()
    fast_forward(st, 27)
    st.seats[1].failed = 2
    rest, last = colour_minus_one(st.seats[0].sheet, B)
    st.seats[0].crossed = rest
    play_turn(st, Roll.of((Y, G, B), (1, 2, 3)), {0: cross_cell(st.seats[0].sheet, last)}, avoid=M(last))
    out = outcome(st)
    assert out["won"] is True and out["failed_rolls"] == [0, 2] and "27" not in out["checks"]


@pytest.mark.parametrize("turn,goal", [(10, "goal_10"), (19, "goal_19")])
def test_C_CHECK_a_mission_completed_in_turn_10_or_19_wins_before_its_penalty(turn, goal):
    goals = {"goal_10": 0 if turn == 19 else 100, "goal_19": 100, "goal_27": 100}  # turn 19: goal 10 is met
    game = new_game(2, m1_colours=1, **goals)
    st = game.new_state()
    fast_forward(st, turn)
    rest, last = colour_minus_one(st.seats[1].sheet, Y)
    st.seats[1].crossed = rest
    play_turn(st, Roll.of((Y, Y, Y), (1, 1, 1)), {1: cross_cell(st.seats[1].sheet, last)})
    assert st.current_player() == TERMINAL, "nobody is asked to decide a penalty in a game already won"
    out = outcome(st)
    assert out["won"] is True and str(turn) not in out["checks"] and out["turns"] == turn


def test_C_WIN_in_turn_27_only_after_the_last_interim_check():
    game = new_game(2, goal_27=0, m1_colours=1)
    st = game.new_state()
    fast_forward(st, 27)
    rest, last = colour_minus_one(st.seats[0].sheet, B)
    st.seats[0].crossed = rest
    play_turn(st, Roll.of((Y, G, B), (1, 2, 3)), {0: cross_cell(st.seats[0].sheet, last)}, avoid=M(last))
    out = outcome(st)
    assert out["checks"]["27"]["met"] is True, "the check ran (and was met) before the win"
    assert out["won"] is True and out["failed_rolls"] == [0, 0] and out["turns"] == 27
