"""The in-game advisor (nochmal.bots.advice) on the real engine: suggestions are legal, ranked by
their estimate, deterministic, explained in words; co-op estimates are win chances.

Positions are reached by bot play, or built by setting ``seat.crossed`` directly (as the
co-op mission tests do) and then rolling through ``State.apply``.

Co-op sheet I (UPPERCASE = star; rows P..V)::

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

from nochmal.bots import advice
from nochmal.bots.advice import Suggestion, explain, suggestions
from nochmal.bots.greedy import greedy_policy
from nochmal.engine.cells import COLOURS, COLUMN_MASKS, COLUMNS, mask_of, neighbours
from nochmal.engine.coop import CoopGame
from nochmal.engine.coopdata import get_tableau, tableau_from_data
from nochmal.engine.dice import Roll
from nochmal.engine.errors import InvalidInputError
from nochmal.engine.game import BaseGame, SoloGame
from nochmal.engine.moves import PASS, Cross

Y, G, B, R, O = range(5)
X, Q = 5, 0  # the jokers


def M(cells: str) -> int:
    return mask_of(cells.split())


def coop_game(players: int, mission: int = 1, **values) -> CoopGame:
    """A co-op game whose interim goals are always met (only the mission decides)."""
    data = get_tableau(players).model_dump(mode="json")
    data["id"] = "test"
    for key, value in {"goal_10": 0, "goal_19": 0, "goal_27": 0, **values}.items():
        data[key] = {"value": value, "provenance": "user"}
    return CoopGame.create(players, mission, tableau=tableau_from_data(data))


def played(game, rolls: int, seed: int):
    """Greedy play up to roll ``rolls`` (0-based), then roll once: a seat decides."""
    st = game.new_state()
    rng = random.Random(seed)
    while not st.is_terminal() and st.roll_index < rolls:
        st.apply(st.sample_roll(rng) if st.is_chance_node() else greedy_policy(st, rng))
    assert not st.is_terminal()
    if st.is_chance_node():
        st.apply(st.sample_roll(rng))
    return st


def snapshot(state) -> str:
    seats = [(s.crossed, s.jokers_used, sorted(s.columns.items()), sorted(s.colours.items()), s.failed,
              list(s.new_columns), list(s.new_colours)) for s in state.seats]
    return json.dumps([state.to_json(), seats], sort_keys=True, default=str)


def check_list(state, seat: int, sug: list[Suggestion], coop: bool) -> None:
    assert 1 <= len(sug) <= 3
    legal = state.legal_actions(seat)
    for s in sug:
        assert s.seat == seat
        assert s.action in legal
        assert s.reason and isinstance(s.reason, str)
        assert s.rollouts >= 1
        if isinstance(s.action, Cross):
            assert mask_of(s.cells) == s.action.cells and s.dice
        else:
            assert s.cells == () and s.dice == ""
        if coop:
            assert s.est_score is None and 0.0 <= s.win_chance <= 1.0
            assert 0.0 <= s.mission_share <= 1.0
            assert "win chance" in s.estimate_text
        else:
            assert s.win_chance is None and s.est_score is not None
            assert "estimated final score" in s.estimate_text
    est = [s.estimate for s in sug]
    assert est == sorted(est, reverse=True)
    assert len({s.action for s in sug}) == len(sug)


# --------------------------------------------------------------------------- ranking, legality
@pytest.mark.parametrize("players,mission,rolls,seed", [(3, 1, 0, 1), (3, 2, 6, 2), (3, 4, 12, 3), (6, 3, 5, 4),
                                                         (6, 5, 9, 5), (2, 1, 15, 6)])
def test_coop_suggestions_are_legal_ranked_and_win_chances(players, mission, rolls, seed):
    st = played(CoopGame.create(players, mission), rolls, seed)
    before = snapshot(st)
    seats = [st.active] if st.phase == "active" else list(st.pending)
    for seat in seats:
        sug = suggestions(st, seat, rollouts=3)
        check_list(st, seat, sug, coop=True)
    assert snapshot(st) == before  # the position is left as it was


def test_passive_seats_get_suggestions_for_their_own_dice():
    st = played(CoopGame.create(3, 1), 5, 7)
    st.apply(greedy_policy(st, random.Random(0)))  # the active seat decides
    assert st.phase == "passive" and len(st.pending) == 2
    last = st.pending[-1]  # not the next in clockwise order: passive seats decide independently
    sug = suggestions(st, last, rollouts=3)
    check_list(st, last, sug, coop=True)
    cf, nf = st.left
    for s in sug:
        if isinstance(s.action, Cross):
            assert s.action.colour_die in cf and s.action.number_die in nf
    with pytest.raises(InvalidInputError):
        suggestions(st, st.active)  # has decided already


def test_a_waiting_seat_gets_no_suggestions():
    st = played(CoopGame.create(3, 1), 5, 8)
    waiting = next(s for s in range(3) if s != st.active)
    with pytest.raises(InvalidInputError, match="does not decide"):
        suggestions(st, waiting)
    st2 = CoopGame.create(3, 1).new_state()  # a roll is due
    with pytest.raises(InvalidInputError):
        suggestions(st2, 0)


@pytest.mark.parametrize("game", [BaseGame(["standard"] * 3), SoloGame(["standard"])], ids=["base", "solo"])
def test_base_and_solo_estimate_the_final_score(game):
    st = played(game, 4, 11)
    seat = st.active
    sug = suggestions(st, seat, rollouts=4)
    check_list(st, seat, sug, coop=False)


def test_default_budget_runs_several_rollouts_and_k_is_respected():
    st = played(CoopGame.create(3, 1), 8, 12)
    sug = suggestions(st, st.active)
    assert len(sug) <= 3 and sug[0].rollouts >= advice.MIN_ROLLOUTS
    # every candidate had the same first dice sequences; more went only to moves still in the noise
    assert advice.COMPILED_MIN <= min(s.rollouts for s in sug) <= max(s.rollouts for s in sug) <= advice.COMPILED_MAX
    fixed = suggestions(st, st.active, rollouts=5)
    assert len({s.rollouts for s in fixed}) == 1  # rollouts given: no second stage
    assert len(suggestions(st, st.active, k=1, rollouts=2)) == 1


def test_deterministic_for_a_seed():
    st = played(CoopGame.create(3, 2), 7, 13)
    a = [s.to_json() for s in suggestions(st, st.active, rng_seed=5)]
    b = [s.to_json() for s in suggestions(st.clone(), st.active, rng_seed=5)]
    assert a == b
    st2 = played(BaseGame(["standard"] * 2), 3, 14)
    assert [s.to_json() for s in suggestions(st2, st2.active, rng_seed=1, rollouts=5)] == \
           [s.to_json() for s in suggestions(st2, st2.active, rng_seed=1, rollouts=5)]


# --------------------------------------------------------------------------- reasons
def test_completing_a_column_first_is_named():
    game = coop_game(1, 1, m1_colours=5)
    st = game.new_state()
    s = st.seats[0]
    s.crossed = COLUMN_MASKS[COLUMNS.index("H")] & ~M("H7")  # H1..H6 crossed, H7 (yellow) open
    st.apply(Roll.of([Y, Y, Y], [1, 1, 1]))
    move = Cross(Y, 1, Y, M("H7"))
    assert move in st.legal_actions(0)
    text = explain(st, 0, move)
    assert "completes column H first" in text
    pts = s.sheet.first_points[COLUMNS.index("H")]
    assert f"(+{pts})" in text
    sug = suggestions(st, 0, rollouts=2, n_candidates=10)
    hit = [x for x in sug if x.action == move]
    assert hit and "column H" in hit[0].reason
    # once somebody completed H in an earlier roll, it is no longer "first"
    st2 = game.new_state()
    st2.seats[0].crossed = s.crossed
    st2.claimed_columns = 1 << COLUMNS.index("H")
    st2.apply(Roll.of([Y, Y, Y], [1, 1, 1]))
    assert "completes column H (not first)" in explain(st2, 0, move)


def _colour_minus_one(sheet, colour: int) -> tuple[int, str]:
    """Every cell of ``colour`` but one that may be crossed alone, completing no column."""
    cm = sheet.colour_masks[colour]
    for i in range(105):
        bit = 1 << i
        rest = cm & ~bit
        if not cm & bit or not (neighbours(rest) | sheet.start_mask) & bit:
            continue
        if any((rest | bit) & c == c for c in COLUMN_MASKS):
            continue
        return rest, f"{COLUMNS[i % 15]}{i // 15 + 1}"
    raise AssertionError("no suitable last cell")


@pytest.mark.parametrize("colour", [Y, B, O])
def test_completing_a_mission_colour_is_named(colour):
    game = coop_game(1, 1, m1_colours=2)
    st = game.new_state()
    rest, last = _colour_minus_one(st.seats[0].sheet, colour)
    st.seats[0].crossed = rest
    st.apply(Roll.of([colour] * 3, [1, 1, 1]))
    move = Cross(colour, 1, colour, M(last))
    assert move in st.legal_actions(0)
    text = explain(st, 0, move)
    assert f"completes {COLOURS[colour]} for the mission (1/2 colours)" in text
    sug = suggestions(st, 0, rollouts=2)
    assert sug[0].action == move  # the bots' favourite; ties of the estimate keep their order
    assert COLOURS[colour] in sug[0].reason


def test_mission_items_rows_stars_number_fields_and_sequence():
    # M2 rows: the last cell of row P fills it
    game = coop_game(1, 2)
    st = game.new_state()
    st.seats[0].crossed = M(" ".join(f"{c}1" for c in "ABCDEFGHIJKLMN"))
    st.apply(Roll.of([G, G, G], [1, 1, 1]))
    assert "fills row P for the mission" in explain(st, 0, Cross(G, 1, G, M("O1")))
    # M3 stars: H1 is a green star on sheet I, in the start column
    game = coop_game(1, 3)
    st = game.new_state()
    st.apply(Roll.of([G, G, G], [1, 1, 1]))
    assert "a star in column H for the mission" in explain(st, 0, Cross(G, 1, G, M("H1")))
    # M4 number fields: field 5 sits in the square H6 I6 H7 I7
    game = coop_game(1, 4)
    st = game.new_state()
    st.seats[0].crossed = M("H6 H7 I7")
    st.apply(Roll.of([Y, Y, Y], [1, 1, 1]))
    assert "fills number field 5 for the mission" in explain(st, 0, Cross(Y, 1, Y, M("I6")))
    # M5 N-O-C-H-M-A-L: completing N is the next column of the sequence
    game = coop_game(1, 5)
    st = game.new_state()
    n = COLUMNS.index("N")
    st.seats[0].crossed = (COLUMN_MASKS[n] & ~M("N1")) | M("H1 I1 J1 K1 L1 M1")
    st.apply(Roll.of([Y, Y, Y], [1, 1, 1]))
    text = explain(st, 0, Cross(Y, 1, Y, M("N1")))
    assert "completes column N, the next of N-O-C-H-M-A-L" in text


def test_jokers_and_the_dice_left_for_the_others():
    st = played(CoopGame.create(3, 1), 6, 21)  # from roll 4 on the active seat's dice are set aside
    assert st.phase == "active" and st.game.sets_aside(st)
    for a in list(st.legal_actions())[1:40]:
        text = explain(st, st.active, a)
        assert "leaves every other seat a move" in text or "no move (a failed roll)" in text
        if a.joker_cost:
            assert f"spends {a.joker_cost} \"!\"" in text


def test_a_forced_failed_roll_is_explained():
    game = coop_game(1, 1)
    st = game.new_state()
    s = st.seats[0]
    s.jokers_used = s.sheet.jokers  # no "!" left, and the roll shows only jokers
    st.apply(Roll.of([X, X, X], [Q, Q, Q]))
    assert list(st.legal_actions(0)) == [PASS]
    sug = suggestions(st, 0)
    assert [x.action for x in sug] == [PASS]
    assert "no move with these dice" in sug[0].reason
    assert "failed roll (1/3)" in sug[0].reason
    assert 0.0 <= sug[0].win_chance <= 1.0
    s.failed = 2
    assert "the team loses" in explain(st, 0, PASS)


def test_passing_as_the_active_seat_saves_the_dice_for_the_others():
    st = played(CoopGame.create(3, 1), 5, 22)
    assert st.phase == "active" and st.legal_actions().crosses()
    assert "saves the dice for the others" in explain(st, st.active, PASS)
    base = played(BaseGame(["standard"] * 2), 2, 23)
    assert "a pass costs nothing" in explain(base, base.active, PASS)


def test_solo_advice_on_bit_masks_equals_the_engine_rollouts(monkeypatch):
    """Solo suggestions roll out in compiled code; switching that off gives the same estimates."""
    st = played(SoloGame(["standard"]), 9, 5)
    fast = suggestions(st, 0, rollouts=6)
    monkeypatch.setattr(advice, "solo_sim", lambda game: None)
    slow = suggestions(st, 0, rollouts=6)
    assert [(s.action, s.est_score) for s in fast] == [(s.action, s.est_score) for s in slow]
    assert len(fast) == 3 and fast[0].est_score >= fast[-1].est_score


def test_the_win_chance_interval_is_wilsons():
    low, high = advice.wilson(50, 100)
    assert abs(low - 0.4038) < 1e-4 and abs(high - 0.5962) < 1e-4
    assert advice.wilson(0, 40)[0] == 0.0 and 0.08 < advice.wilson(0, 40)[1] < 0.09
    assert advice.wilson(40, 40)[1] == 1.0


def test_coop_advice_gives_intervals_and_says_when_moves_are_equally_good():
    """Co-op advice from compiled rollouts: each suggestion's win chance inside its 95 % interval,
    far more rollouts than the Python rollouts afforded (6-12), the same answer twice, and a tie
    said (``as_good_as_next``) exactly where the paired rollouts do not tell two moves apart."""
    st = CoopGame.create(3, mission=1).new_state()
    r = random.Random(2)
    while st.roll_index < 6 or not st.is_chance_node():
        st.apply(st.sample_roll(r) if st.is_chance_node() else greedy_policy(st, r))
    st.apply(st.sample_roll(r))
    seat = st.current_player()
    first = advice.suggestions(st, seat)
    assert first == advice.suggestions(st, seat)
    assert len(first) == 3 and all(s.rollouts >= 100 for s in first)
    for s in first:
        assert s.win_low <= s.win_chance <= s.win_high and s.win_high - s.win_low < 0.2
    assert not first[-1].as_good_as_next
    wide = advice.suggestions(st, seat, rollouts=4)  # few rollouts: intervals wide
    assert all(s.win_high - s.win_low > 0.3 for s in wide)
