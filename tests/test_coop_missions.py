"""Acceptance tests of the five co-op missions (``shared/RULES.md`` section 6, M1-M5).

Each scenario builds the team's sheets by setting ``seat.crossed`` directly (everything of a
row / column / colour / number square but one cell), then plays the decisive crosses through
``State.apply`` and checks ``game.progress(state).to_json()``: what is done, by whom (1-based
seats), what is missing, and that completing the mission ends the game won (C-WIN).

Co-op sheet I (UPPERCASE = star; rows P..V are 1..7; number fields 1 F1, 2 N1, 3 C2, 4 M3,
5 H6, 6 J6 = top-left cell of their 2x2 square)::

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

import pytest

from nochmal.engine import decisions
from nochmal.engine.cells import COLUMN_MASKS, COLUMNS, ROW_MASKS, mask_of, neighbours
from nochmal.engine.coop import CoopGame
from nochmal.engine.coopdata import get_tableau, tableau_from_data
from nochmal.engine.dice import Roll
from nochmal.engine.game import CHANCE, State
from nochmal.engine.moves import PASS, Cross

Y, G, B, R, O = range(5)


# --------------------------------------------------------------------------- helpers
def M(cells: str) -> int:
    return mask_of(cells.split())


def col(letter: str) -> int:
    return COLUMN_MASKS[COLUMNS.index(letter)]


def row(label: str) -> int:
    return ROW_MASKS["PQRSTUV".index(label)]


def game_for(players: int, mission: int, rules_version: int = 2, **values) -> CoopGame:
    data = get_tableau(players).model_dump(mode="json")
    data["id"] = "test"
    # interim goals that are always met: only the mission decides
    for key, value in {"goal_10": 0, "goal_19": 0, "goal_27": 0, **values}.items():
        data[key] = {"value": value, "provenance": "user"}
    return CoopGame.create(players, mission, tableau=tableau_from_data(data), rules_version=rules_version)


def cross_cell(sheet, cells: str, number_die: int | None = None) -> Cross:
    m = M(cells)
    colour = next(c for c in range(5) if sheet.colour_masks[c] & m)
    assert sheet.colour_masks[colour] & m == m
    return Cross(colour, number_die or m.bit_count(), colour, m)


def completes_something(seat, move) -> bool:
    after = seat.crossed | move.cells
    for cm in COLUMN_MASKS + ROW_MASKS:
        if after & cm == cm and seat.crossed & cm != cm:
            return True
    cm = seat.sheet.colour_masks[move.colour]
    if after & cm == cm and seat.crossed & cm != cm:
        return True
    return any(after & sq == sq and seat.crossed & sq != sq for _, sq in seat.sheet.number_fields)


def quiet_move(state: State, seat: int):
    """A legal cross that completes nothing (no column, row, colour, number square), else PASS."""
    s = state.seats[seat]
    for a in state.legal_actions(seat):
        if isinstance(a, Cross) and not completes_something(s, a):
            return a
    return PASS


def turn(state: State, moves: dict) -> None:
    """One turn: a roll offering every die the given moves need (twice, so a set-aside die does
    not matter), the given seats' moves, quiet moves for the others."""
    assert state.current_player() == CHANCE
    colours = [m.colour_die for m in moves.values()]
    numbers = [m.number_die for m in moves.values()]
    colours = (colours * 3)[:3] if colours else [Y, G, B]
    numbers = (numbers * 3)[:3] if numbers else [1, 1, 1]
    state.apply(Roll.of(colours, numbers))
    while state.current_player() >= 0:
        seat = state.current_player()
        state.apply(moves[seat] if seat in moves else quiet_move(state, seat), seat)


def colour_minus_one(sheet, colour: int) -> tuple[int, str]:
    cm = sheet.colour_masks[colour]
    for i in range(105):
        bit = 1 << i
        rest = cm & ~bit
        if cm & bit and (neighbours(rest) | sheet.start_mask) & bit and \
                not any((rest | bit) & c == c for c in COLUMN_MASKS + ROW_MASKS):
            return rest, f"{COLUMNS[i % 15]}{i // 15 + 1}"
    raise AssertionError("no last cell")


def req(progress: dict, kind: str) -> dict:
    (r,) = [r for r in progress["requirements"] if r["kind"] == kind]
    return r


def progress(game, state) -> dict:
    return game.progress(state).to_json()


def assert_won(state: State, turns: int) -> dict:
    assert state.is_terminal()
    out = state.outcome().to_json()
    assert out["won"] is True and "C-WIN" in out["reason"], out["reason"]
    assert out["turns"] == turns
    assert out["winners"] == list(range(state.game.n_seats))
    assert out["mission"]["complete"] is True
    return out


# --------------------------------------------------------------------------- M1 colours
def test_M1_one_different_colour_per_player():
    game = game_for(3, 1, m1_colours=3)
    st = game.new_state()
    s0, s1, s2 = st.seats
    y0, ly0 = colour_minus_one(s0.sheet, Y)
    b0, lb0 = colour_minus_one(s0.sheet, B)
    y1, ly1 = colour_minus_one(s1.sheet, Y)
    g2, lg2 = colour_minus_one(s2.sheet, G)
    s0.crossed, s1.crossed, s2.crossed = y0 | b0, y1, g2
    p = progress(game, st)
    assert p["mission"] == 1 and p["complete"] is False
    assert req(p, "colours") == {"kind": "colours", "needed": 3, "have": 0, "complete": False, "done": {},
                                 "missing": ["yellow", "green", "blue", "red", "orange"]}
    # turn 1: seats 1 and 2 both complete yellow: it counts once
    turn(st, {0: cross_cell(s0.sheet, ly0), 1: cross_cell(s1.sheet, ly1)})
    r = req(progress(game, st), "colours")
    assert r["done"] == {"yellow": [1, 2]} and r["have"] == 1
    assert r["missing"] == ["green", "blue", "red", "orange"]
    # turn 2: seat 3 completes green
    turn(st, {2: cross_cell(s2.sheet, lg2)})
    r = req(progress(game, st), "colours")
    assert r["done"] == {"yellow": [1, 2], "green": [3]} and r["have"] == 2 and not r["complete"]
    assert not st.is_terminal()
    # turn 3: seat 1 completes a second colour (one player may complete several) -> won
    turn(st, {0: cross_cell(s0.sheet, lb0)})
    out = assert_won(st, 3)
    r = req(out["mission"], "colours")
    assert r["done"] == {"yellow": [1, 2], "green": [3], "blue": [1]}
    assert r["have"] == 3 and r["complete"] is True and r["missing"] == ["red", "orange"]


@pytest.mark.parametrize("players,needed", [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 5)])
def test_M1_colours_needed_by_player_count(players, needed):
    game = CoopGame.create(players, 1)
    assert req(progress(game, game.new_state()), "colours")["needed"] == needed


def test_M1_one_player_completing_the_colours_alone():
    game = game_for(2, 1, m1_colours=2)
    st = game.new_state()
    s0 = st.seats[0]
    y, ly = colour_minus_one(s0.sheet, Y)
    g, lg = colour_minus_one(s0.sheet, G)
    s0.crossed = y | g
    turn(st, {0: cross_cell(s0.sheet, ly)})
    assert not st.is_terminal()
    turn(st, {0: cross_cell(s0.sheet, lg)})
    out = assert_won(st, 2)
    assert req(out["mission"], "colours")["done"] == {"yellow": [1], "green": [1]}


# --------------------------------------------------------------------------- M2 rows
def test_M2_different_rows_by_label():
    game = game_for(3, 2)  # 3 players: 4 rows (stand-in)
    st = game.new_state()
    s0, s1, s2 = st.seats
    s0.crossed = (row("P") & ~M("H1")) | (row("T") & ~M("H5"))
    s1.crossed = row("R") & ~M("H3")
    s2.crossed = (row("P") & ~M("H1")) | (row("V") & ~M("H7"))
    p = progress(game, st)
    assert req(p, "rows") == {"kind": "rows", "needed": 4, "have": 0, "complete": False, "done": {},
                              "missing": list("PQRSTUV")}
    turn(st, {0: cross_cell(s0.sheet, "H1"), 1: cross_cell(s1.sheet, "H3"), 2: cross_cell(s2.sheet, "H1")})
    r = req(progress(game, st), "rows")
    assert r["done"] == {"P": [1, 3], "R": [2]}  # row P counts once, whoever fills it
    assert r["have"] == 2 and r["missing"] == ["Q", "S", "T", "U", "V"]
    assert not st.is_terminal()
    turn(st, {0: cross_cell(s0.sheet, "H5"), 2: cross_cell(s2.sheet, "H7")})
    out = assert_won(st, 2)
    r = req(out["mission"], "rows")
    assert r["done"] == {"P": [1, 3], "R": [2], "T": [1], "V": [3]}
    assert r["missing"] == ["Q", "S", "U"]


@pytest.mark.parametrize("players,needed", [(1, 3), (2, 3), (3, 4), (4, 5), (5, 6), (6, 6)])
def test_M2_rows_needed_by_player_count(players, needed):
    game = CoopGame.create(players, 2)
    r = req(progress(game, game.new_state()), "rows")
    assert 3 <= r["needed"] <= 6 and r["needed"] == needed


def test_M2_a_row_with_one_cell_missing_does_not_count():
    game = game_for(1, 2, m2_rows=1)
    st = game.new_state()
    st.seats[0].crossed = row("Q") & ~M("A2")
    turn(st, {})
    assert req(progress(game, st), "rows")["done"] == {}
    assert not st.is_terminal()


# --------------------------------------------------------------------------- M3 stars
def _first_star(sheet, letter: str) -> int:
    stars = sheet.star_mask & col(letter)
    assert stars, f"{sheet.id} has no star in column {letter}"
    return stars & -stars


def test_M3_a_star_in_every_column_plus_colours():
    game = game_for(3, 3)  # 3 players: 2 colours (stand-in)
    st = game.new_state()
    s0, s1, s2 = st.seats
    for sheet in (s0.sheet, s1.sheet, s2.sheet):  # every sheet has a star in every column
        assert all(sheet.star_mask & col(c) for c in COLUMNS)
    stars0 = sum(_first_star(s0.sheet, c) for c in "ABCDEFG")
    stars1 = sum(_first_star(s1.sheet, c) for c in "HIJKLMN")
    y0, ly0 = colour_minus_one(s0.sheet, Y)
    g1, lg1 = colour_minus_one(s1.sheet, G)
    s0.crossed = stars0 | y0
    s1.crossed = stars1 | g1
    o6 = M("O6")
    assert s2.sheet.star_mask & o6
    s2.crossed = M("O7 N6")  # O6 is a star; its neighbours are crossed
    p = progress(game, st)
    r = req(p, "star_columns")
    assert r["needed"] == 15 and r["have"] == 14 and r["missing"] == ["O"]
    for c in "ABCDEFG":
        assert 1 in r["done"][c]
    for c in "HIJKLMN":
        assert 2 in r["done"][c]
    assert not s2.sheet.star_mask & M("O7")  # a crossed non-star cell of column O does not count
    # turn 1: the star in column O: stars done, but no colour yet -> the game goes on
    turn(st, {2: cross_cell(s2.sheet, "O6")})
    p = progress(game, st)
    assert req(p, "star_columns")["complete"] is True
    assert req(p, "star_columns")["done"]["O"] == [3]
    assert req(p, "colours") == {"kind": "colours", "needed": 2, "have": 0, "complete": False, "done": {},
                                 "missing": ["yellow", "green", "blue", "red", "orange"]}
    assert p["complete"] is False and not st.is_terminal()
    # turn 2: two different colours -> won
    turn(st, {0: cross_cell(s0.sheet, ly0), 1: cross_cell(s1.sheet, lg1)})
    out = assert_won(st, 2)
    assert req(out["mission"], "colours")["done"] == {"yellow": [1], "green": [2]}


# --------------------------------------------------------------------------- M4 four-blocks
def _square(sheet, number: int) -> int:
    (sq,) = [sq for n, sq in sheet.number_fields if n == number]
    return sq


def test_M4_every_number_field_filled_on_some_sheet_plus_rows():
    game = game_for(3, 4)  # 3 players: 2 rows (stand-in)
    st = game.new_state()
    s0, s1, s2 = st.seats
    sq6_0 = _square(s0.sheet, 6)  # coop-I: J6 K6 J7 K7
    sq6_2 = _square(s2.sheet, 6)  # coop-III: L6 M6 L7 M7
    assert sq6_0 == M("J6 K6 J7 K7") and sq6_2 == M("L6 M6 L7 M7")
    s0.crossed = _square(s0.sheet, 1) | _square(s0.sheet, 2) | _square(s0.sheet, 3) | (sq6_0 & ~M("K7"))
    s1.crossed = _square(s1.sheet, 4) | _square(s1.sheet, 5) | (row("Q") & ~M("H2")) | (row("S") & ~M("H4"))
    s2.crossed = sq6_2 & ~M("M7")  # three of four cells on two sheets: field 6 is not filled
    p = progress(game, st)
    r = req(p, "number_fields")
    assert r["needed"] == 6
    assert r["done"] == {"1": [1], "2": [1], "3": [1], "4": [2], "5": [2]}
    assert r["missing"] == ["6"] and r["complete"] is False
    assert req(p, "rows")["needed"] == 2
    # turn 1: seat 1 fills field 6 (the fourth cell K7), seat 2 fills row Q
    turn(st, {0: cross_cell(s0.sheet, "K7"), 1: cross_cell(s1.sheet, "H2")})
    p = progress(game, st)
    r = req(p, "number_fields")
    assert r["complete"] is True and r["done"]["6"] == [1] and r["missing"] == []
    assert req(p, "rows")["done"] == {"Q": [2]}
    assert not st.is_terminal(), "one row is still missing"
    # turn 2: seat 2 (active) fills row S -> won
    turn(st, {1: cross_cell(s1.sheet, "H4")})
    out = assert_won(st, 2)
    assert req(out["mission"], "rows")["done"] == {"Q": [2], "S": [2]}


def test_M4_the_same_number_filled_on_two_sheets_lists_both():
    game = game_for(2, 4, m4_rows=0)
    st = game.new_state()
    s0, s1 = st.seats
    for n in range(1, 7):
        s0.crossed |= _square(s0.sheet, n)
    s1.crossed = _square(s1.sheet, 2) & ~M("C3")  # coop-II field 2: B2 C2 B3 C3
    p = progress(game, st)
    assert req(p, "number_fields")["complete"] is True
    assert req(p, "rows") == {"kind": "rows", "needed": 0, "have": 0, "complete": True, "done": {},
                              "missing": list("PQRSTUV")}
    st.seats[1].crossed |= M("C3")
    assert req(progress(game, st), "number_fields")["done"]["2"] == [1, 2]


# --------------------------------------------------------------------------- M5 NOCH MAL
def _col_minus_4(letter: str) -> int:
    return col(letter) & ~M(f"{letter}4")


def test_M5_rules_version_1_columns_in_order_too_early_completions_count_only_when_repeated():
    """Rules version 1 (games saved under it replay so): several letters could count in one turn.
    Version 2: the rules version 2 section below."""
    game = game_for(2, 5, rules_version=1)  # 2 players: no colour needed
    st = game.new_state()
    s0, s1 = st.seats
    s0.crossed = sum(_col_minus_4(c) for c in "OCHMA")
    s1.crossed = sum(_col_minus_4(c) for c in "HNOAL")
    last = {seat: {c: cross_cell(st.seats[seat].sheet, f"{c}4") for c in cols}
            for seat, cols in ((0, "OCHMA"), (1, "HNOAL"))}
    p = progress(game, st)
    assert req(p, "colours")["needed"] == 0 and req(p, "colours")["complete"] is True
    seq = req(p, "sequence")
    assert seq == {"kind": "sequence", "needed": 7, "have": 0, "complete": False, "done": {},
                   "missing": list("NOCHMAL"), "next": "N"}

    # turn 1: O and H completed before N: too early, nothing counts
    turn(st, {0: last[0]["O"], 1: last[1]["H"]})
    assert s0.columns and s1.columns
    seq = req(progress(game, st), "sequence")
    assert seq["done"] == {} and seq["next"] == "N"
    # turn 2: N counts
    turn(st, {1: last[1]["N"]})
    seq = req(progress(game, st), "sequence")
    assert seq["done"] == {"N": [2]} and seq["next"] == "O"
    # turn 3: seat 2 completes O again (counts now), seat 1 completes C in the same turn: both count
    turn(st, {0: last[0]["C"], 1: last[1]["O"]})
    seq = req(progress(game, st), "sequence")
    assert seq["done"] == {"N": [2], "O": [2], "C": [1]} and seq["next"] == "H"
    assert seq["missing"] == list("HMAL") and seq["have"] == 3
    # turn 4 (dice set aside from now on): H counts (seat 1 completes it again); A is too early
    turn(st, {0: last[0]["H"], 1: last[1]["A"]})
    seq = req(progress(game, st), "sequence")
    assert list(seq["done"]) == list("NOCH") and seq["done"]["H"] == [1] and seq["next"] == "M"
    # turn 5: M
    turn(st, {0: last[0]["M"]})
    assert req(progress(game, st), "sequence")["next"] == "A"
    # turn 6: A, completed again by seat 1
    turn(st, {0: last[0]["A"]})
    seq = req(progress(game, st), "sequence")
    assert seq["done"]["A"] == [1] and seq["next"] == "L"
    assert not st.is_terminal()
    # turn 7: L -> mission complete, won
    turn(st, {1: last[1]["L"]})
    out = assert_won(st, 7)
    seq = req(out["mission"], "sequence")
    assert list(seq["done"]) == list("NOCHMAL") and seq["missing"] == [] and seq["next"] is None
    assert seq["done"] == {"N": [2], "O": [2], "C": [1], "H": [1], "M": [1], "A": [1], "L": [2]}


def test_M5_DECISION_rules_version_1_one_cross_completing_N_and_O_advances_by_two():
    assert decisions.M5_SAME_TURN_IN_ORDER is True and decisions.M5_ONE_LETTER_PER_MOMENT[1] is False
    game = game_for(1, 5, rules_version=1)
    st = game.new_state()
    s0 = st.seats[0]
    s0.crossed = (col("N") | col("O")) & ~M("N3 O3")
    move = Cross(G, 2, G, M("N3 O3"))
    turn(st, {0: move})
    assert set(s0.columns) == {COLUMNS.index("N"), COLUMNS.index("O")}
    seq = req(progress(game, st), "sequence")
    assert seq["done"] == {"N": [1], "O": [1]} and seq["next"] == "C"


def test_M5_DECISION_rules_version_1_same_turn_taken_in_sequence_order_not_seat_order():
    game = game_for(3, 5, rules_version=1)
    st = game.new_state()
    s0, s1, s2 = st.seats
    s0.crossed = _col_minus_4("C")
    s1.crossed = _col_minus_4("O")
    s2.crossed = _col_minus_4("N")
    turn(st, {0: cross_cell(s0.sheet, "C4"), 1: cross_cell(s1.sheet, "O4"), 2: cross_cell(s2.sheet, "N4")})
    seq = req(progress(game, st), "sequence")
    assert seq["done"] == {"N": [3], "O": [2], "C": [1]} and seq["next"] == "H"


def test_M5_same_turn_without_the_next_column_counts_nothing():
    game = game_for(2, 5)
    st = game.new_state()
    s0, s1 = st.seats
    s0.crossed = _col_minus_4("O")
    s1.crossed = _col_minus_4("C")
    turn(st, {0: cross_cell(s0.sheet, "O4"), 1: cross_cell(s1.sheet, "C4")})
    seq = req(progress(game, st), "sequence")
    assert seq["done"] == {} and seq["next"] == "N"


def test_M5_colours_needed_with_three_players():
    game = game_for(3, 5)  # 3 players: 1 colour
    st = game.new_state()
    s0, s1, s2 = st.seats
    s0.crossed = _col_minus_4("N") | _col_minus_4("H") | _col_minus_4("L")
    s1.crossed = _col_minus_4("O") | _col_minus_4("M")
    y1, ly1 = colour_minus_one(s1.sheet, Y)
    s1.crossed |= y1
    s2.crossed = _col_minus_4("C") | _col_minus_4("A")
    lc = lambda seat, c: cross_cell(st.seats[seat].sheet, f"{c}4")  # noqa: E731
    assert not M(ly1) & (col("O") | col("M"))
    for seat, letter in zip((0, 1, 2, 0, 1, 2, 0), "NOCHMAL"):  # one letter a turn, by the active seat
        assert st.roll_index % 3 == seat
        turn(st, {seat: lc(seat, letter)})
    p = progress(game, st)
    assert req(p, "sequence")["complete"] is True
    assert req(p, "colours")["needed"] == 1 and req(p, "colours")["complete"] is False
    assert not st.is_terminal(), "the colour is still missing"
    turn(st, {1: cross_cell(s1.sheet, ly1)})
    out = assert_won(st, 8)
    assert req(out["mission"], "colours")["done"] == {"yellow": [2]}


@pytest.mark.parametrize("players,needed", [(1, 0), (2, 0), (3, 1), (4, 2), (5, 3), (6, 3)])
def test_M5_colours_by_player_count(players, needed):
    game = CoopGame.create(players, 5)
    p = progress(game, game.new_state())
    assert req(p, "colours")["needed"] == needed
    assert req(p, "colours")["complete"] is (needed == 0)


# --------------------------------------------------------------------------- M5, rules version 2
# A column counts only if filled strictly after the previous letter was counted. The active
# seat's cross is one moment, the passive seats' crosses the next (DECISION
# M5_ONE_LETTER_PER_MOMENT): each moment advances N-O-C-H-M-A-L by one letter at most.
def test_M5_one_cross_completing_N_and_O_counts_N_only():
    assert decisions.M5_ONE_LETTER_PER_MOMENT == {1: False, 2: True}
    game = game_for(1, 5)
    assert game.rules_version == 2
    st = game.new_state()
    s0 = st.seats[0]
    s0.crossed = (col("N") | col("O")) & ~M("N3 O3")
    turn(st, {0: Cross(G, 2, G, M("N3 O3"))})
    assert set(s0.columns) == {COLUMNS.index("N"), COLUMNS.index("O")}
    seq = req(progress(game, st), "sequence")
    assert seq["done"] == {"N": [1]} and seq["next"] == "O", "O was filled at the same moment as N"


def test_M5_two_passive_seats_completing_N_and_O_count_N_only():
    game = game_for(3, 5)
    st = game.new_state()
    s0, s1, s2 = st.seats
    s1.crossed = _col_minus_4("N")
    s2.crossed = _col_minus_4("O")
    assert st.roll_index % 3 == 0  # seat 1 is active and completes nothing
    turn(st, {1: cross_cell(s1.sheet, "N4"), 2: cross_cell(s2.sheet, "O4")})
    seq = req(progress(game, st), "sequence")
    assert seq["done"] == {"N": [2]} and seq["next"] == "O"


def test_M5_the_active_seat_then_a_passive_seat_count_one_letter_each():
    game = game_for(3, 5)
    st = game.new_state()
    s0, s1, s2 = st.seats
    s0.crossed = _col_minus_4("N")
    s1.crossed = _col_minus_4("O")
    s2.crossed = _col_minus_4("C")
    turn(st, {0: cross_cell(s0.sheet, "N4"), 1: cross_cell(s1.sheet, "O4"), 2: cross_cell(s2.sheet, "C4")})
    seq = req(progress(game, st), "sequence")
    assert seq["done"] == {"N": [1], "O": [2]} and seq["next"] == "C", "C came at the same moment as O"


def test_M5_the_active_seat_filling_the_later_letter_does_not_count_after_a_passive_seat():
    game = game_for(2, 5)
    st = game.new_state()
    s0, s1 = st.seats
    s0.crossed = _col_minus_4("O")
    s1.crossed = _col_minus_4("N")
    turn(st, {0: cross_cell(s0.sheet, "O4"), 1: cross_cell(s1.sheet, "N4")})
    seq = req(progress(game, st), "sequence")
    assert seq["done"] == {"N": [2]} and seq["next"] == "O", "the active seat's O came before N"


def test_M5_a_saved_rules_version_1_game_keeps_counting_several_letters_a_turn():
    game = game_for(3, 5, rules_version=1)
    st = game.new_state()
    s0, s1, s2 = st.seats
    s1.crossed = _col_minus_4("N")
    s2.crossed = _col_minus_4("O")
    turn(st, {1: cross_cell(s1.sheet, "N4"), 2: cross_cell(s2.sheet, "O4")})
    assert req(progress(game, st), "sequence")["done"] == {"N": [2], "O": [3]}
