"""One test per rule of ``shared/RULES.md`` sections 1-5, named after the rule id.

Every scenario is played on the real ``standard`` sheet through ``State.apply`` (rolls are
chance actions entered like a real table's dice). Where a test needs a position deep into a
game it sets ``seat.crossed`` directly and then finishes with a legal cross through ``apply``.

The standard sheet, for reading the scenarios (UPPERCASE = star)::

        ABCDEFGHIJKLMNO
     1  gggyyyyGbbbOyyy
     2  ogYgYyoorBboogg
     3  BgrgggGrrryyogg
     4  brrgoObbggyyoRb
     5  roooorbbooorrrr
     6  rBbRrrryYoRbbbO
     7  yybbbbryyyggGoo
"""

from __future__ import annotations

import json
import random

import pytest

from nochmal.engine import decisions
from nochmal.engine.cells import COLUMN_MASKS, COLUMNS, N_COLS, N_ROWS, mask_of, names
from nochmal.engine.dice import COLOUR_FACES, NUMBER_FACES, Roll
from nochmal.engine.errors import IllegalMoveError, InvalidInputError
from nochmal.engine.game import CHANCE, SOLO_BANDS, BaseGame, SoloGame, replay, solo_band
from nochmal.engine.moves import PASS, Cross
from nochmal.engine.sheet import get_sheet

Y, G, B, R, O = range(5)  # colours (and colour-die faces)
X = 5  # colour-die joker
Q = 0  # number-die joker "?"

STD = get_sheet("standard")
GRID = STD.spec.grid


def M(cells: str) -> int:
    """``M("H4 H5")`` -> the mask of those cells."""
    return mask_of(cells.split())


def cells_of(letter: str) -> str:
    """All cells of a colour letter on the standard sheet, read from the grid text."""
    return " ".join(f"{COLUMNS[c]}{r + 1}" for r in range(N_ROWS) for c in range(N_COLS)
                    if GRID[r][c].lower() == letter)


def stars_of_grid() -> int:
    return M(" ".join(f"{COLUMNS[c]}{r + 1}" for r in range(N_ROWS) for c in range(N_COLS) if GRID[r][c].isupper()))


ALL_YELLOW = M(cells_of("y"))
ALL_GREEN = M(cells_of("g"))
COL_A = M("A1 A2 A3 A4 A5 A6 A7")
COL_B = M("B1 B2 B3 B4 B5 B6 B7")

NO_JOKER_ROLL = Roll.of([Y, G, B], [1, 2, 3])


def base(n: int = 2):
    return BaseGame(["standard"] * n).new_state()


def solo():
    return SoloGame(["standard"]).new_state()


def snapshot(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def faces(colours, numbers) -> tuple:
    """Dice faces as the engine reports them (each kind sorted)."""
    return tuple(Roll.of(colours, numbers))


def rejected(state, action, rule: str, seat: int | None = None) -> IllegalMoveError:
    """``action`` is rejected citing ``rule``, and the state is exactly as before."""
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as info:
        state.apply(action, seat)
    err = info.value
    assert err.rule == rule, str(err)
    assert str(err).startswith(rule)
    assert err.position, "the message carries a compact serialisation of the position"
    assert snapshot(state) == before, "a rejected action must change nothing"
    return err


def finish_roll(state, moves: dict | None = None) -> None:
    """Every seat still to decide in this roll applies ``moves[seat]`` (default: pass)."""
    moves = moves or {}
    start = state.roll_index
    asked = set()
    while not state.is_terminal() and not state.is_chance_node():
        seat = state.current_player()
        asked.add(seat)
        state.apply(moves.get(seat, PASS))
    assert state.is_terminal() or state.roll_index == start + 1
    assert set(moves) <= asked, "a scripted move was never asked for"


def roll(state, dice: Roll = NO_JOKER_ROLL, moves: dict | None = None) -> None:
    state.apply(dice)
    finish_roll(state, moves)


def pass_rolls(state, n: int) -> None:
    for _ in range(n):
        roll(state)


# --------------------------------------------------------------------------- 1. components
def test_R_DICE():
    # colour dice: five colours and the black X; number dice: 1-5 and "?"
    assert sorted(COLOUR_FACES) == [Y, G, B, R, O, X]
    assert sorted(NUMBER_FACES) == [Q, 1, 2, 3, 4, 5]
    # six dice: three of each kind, and every face turns up
    state = base()
    rng = random.Random(3)
    seen_c, seen_n = set(), set()
    for _ in range(300):
        r = state.sample_roll(rng)
        assert len(r.colours) == 3 and len(r.numbers) == 3
        seen_c.update(r.colours)
        seen_n.update(r.numbers)
    assert seen_c == set(COLOUR_FACES) and seen_n == set(NUMBER_FACES)
    # a face no die has is rejected before anything changes
    before = snapshot(state)
    for bad in (Roll.of([Y, G, 6], [1, 2, 3]), Roll.of([Y, G, B], [1, 2, 6]), Roll.of([Y, G, -1], [1, 2, 3])):
        with pytest.raises(InvalidInputError) as info:
            state.apply(bad)
        assert info.value.rule == "R-DICE"
    assert snapshot(state) == before
    with pytest.raises(InvalidInputError) as info:
        Roll.parse(["purple", "blue", "x"], [1, 2, 3])
    assert info.value.rule == "R-DICE" and "purple" in str(info.value)
    with pytest.raises(InvalidInputError) as info:
        Roll.parse(["red", "blue", "x"], [1, 2, 6])
    assert info.value.rule == "R-DICE"
    assert Roll.parse(["X", "red", "blue"], ["?", "5", 1]) == Roll.of([X, R, B], [Q, 5, 1])


def test_R_DICE_replay_keeps_rule_id():
    game = BaseGame(["standard", "standard"])
    with pytest.raises(InvalidInputError) as info:
        replay(game, [{"type": "roll", "colours": ["red", "blue", "purple"], "numbers": [1, 2, 3]}])
    assert "action 0" in str(info.value)
    assert info.value.rule == "R-DICE"


def test_R_SHEET():
    spec = STD.spec
    assert len(spec.grid) == 7 and all(len(row) == 15 for row in spec.grid)
    assert set("".join(spec.grid).lower()) == set("ygbro")
    assert spec.start_column == "H" and STD.start_mask == COLUMN_MASKS[7] == M("H1 H2 H3 H4 H5 H6 H7")
    assert tuple(spec.first_points) == (5, 3, 3, 3, 2, 2, 2, 1, 2, 2, 2, 3, 3, 3, 5)
    assert tuple(spec.later_points) == (3, 2, 2, 2, 1, 1, 1, 0, 1, 1, 1, 2, 2, 2, 3)
    assert STD.star_mask == stars_of_grid() and STD.star_mask
    # colour blocks: orthogonally touching cells of one colour, 1-6 cells
    sizes = sorted(b.mask.bit_count() for b in STD.blocks)
    assert min(sizes) == 1 and max(sizes) == 6
    assert names(STD.block_of[M("G4").bit_length() - 1].mask) == ["G4", "G5", "H4", "H5"]
    # diagonal contact does not join blocks: yellow C2 touches the yellow D1 only diagonally
    assert names(STD.block_of[M("C2").bit_length() - 1].mask) == ["C2"]
    assert STD.block_of[M("D1").bit_length() - 1].mask.bit_count() == 6


def test_R_JOKERS():
    assert STD.jokers == 8
    state = base()
    assert state.seats[0].jokers_left == 8
    # X alone strikes one "!"
    roll(state, Roll.of([X, G, B], [1, 2, 3]), {0: Cross(X, 1, R, M("H3"))})
    assert state.seats[0].jokers_left == 7
    # X and ? together strike two; the passive seat's "!" are its own
    roll(state, Roll.of([X, G, B], [Q, 2, 3]), {1: Cross(X, Q, B, M("H4 H5")), 0: Cross(G, Q, G, M("H1"))})
    assert state.seats[1].jokers_left == 6
    assert state.seats[0].jokers_left == 6
    # no joker symbol: nothing struck
    roll(state, NO_JOKER_ROLL, {0: Cross(B, 2, B, M("H4 H5"))})
    assert state.seats[0].jokers_left == 6


def test_R_COLOUR_BONUS():
    state = base(2)
    for seat in state.seats:
        seat.crossed = ALL_YELLOW & ~M("A7")
    # roll 1: seat 0 completes yellow first -> 5
    roll(state, NO_JOKER_ROLL, {0: Cross(Y, 1, Y, M("A7"))})
    assert state.seats[0].colours == {Y: 5}
    assert state.to_json()["claimed_colours"] == ["yellow"]
    assert not state.is_terminal()
    # roll 2: seat 1 completes it later -> 3
    roll(state, NO_JOKER_ROLL, {1: Cross(Y, 1, Y, M("A7"))})
    assert state.seats[1].colours == {Y: 3}
    assert state.seats[0].colours == {Y: 5}
    assert state.game.seat_score(state, 0).colours == 5
    assert state.game.seat_score(state, 1).colours == 3


# --------------------------------------------------------------------------- 2. a roll
def test_R_ROLL():
    state = base()
    assert state.current_player() == CHANCE and state.is_chance_node()
    assert list(state.legal_actions()) == []
    # nobody may cross before the dice are rolled
    rejected(state, Cross(B, 2, B, M("H4 H5")), "R-ORDER")
    # the wrong number of dice is malformed
    with pytest.raises(InvalidInputError) as info:
        state.apply(Roll.of([Y, G], [1, 2]))
    assert info.value.rule == "R-ROLL"
    state.apply(NO_JOKER_ROLL)
    assert state.current_player() == 0
    # rolled once: no re-roll while players decide
    rejected(state, Roll.of([R, R, R], [5, 5, 5]), "R-ROLL")
    state.apply(PASS)
    rejected(state, Roll.of([R, R, R], [5, 5, 5]), "R-ROLL")
    state.apply(PASS)
    assert state.is_chance_node() and state.roll_index == 1


def test_R_ACTIVE():
    state = base(3)
    pass_rolls(state, 3)  # from the fourth roll on dice are set aside
    state.apply(Roll.of([B, R, G], [2, 3, 4]))
    assert state.current_player() == 0
    # the active player picks from every rolled die ...
    acts = state.legal_actions()
    assert acts[0] == PASS
    assert {(a.colour_die, a.number_die) for a in acts[1:]} <= {(c, n) for c in (B, R, G) for n in (2, 3, 4)}
    assert Cross(B, 2, B, M("H4 H5")) in acts and Cross(R, 3, R, M("H3 I3 J3")) in acts
    # ... but only dice that were rolled, and one colour die + one number die
    with pytest.raises(IllegalMoveError):
        state.apply(Cross(Y, 2, Y, M("H6 H7")))
    with pytest.raises(IllegalMoveError):
        state.apply(Cross(B, 1, B, M("H4")))
    rejected(state, Cross(B, 3, B, M("H4 H5")), "R-COUNT")  # cells must match the number die
    state.apply(Cross(B, 2, B, M("H4 H5")))
    # the two dice used are set aside
    assert state.to_json()["left"] == {"colours": ["green", "red"], "numbers": ["3", "4"]}
    assert state.to_json()["active_move"]["cells"] == ["H4", "H5"]


def test_R_ACTIVE_unrolled_die_cites_R_ACTIVE():
    state = base(2)
    state.apply(Roll.of([B, R, G], [2, 3, 4]))
    rejected(state, Cross(Y, 2, Y, M("H6 H7")), "R-ACTIVE")


def test_R_PASSIVE():
    state = base(3)
    pass_rolls(state, 3)
    state.apply(Roll.of([B, R, G], [2, 3, 4]))
    state.apply(Cross(B, 2, B, M("H4 H5")))  # seat 0 (active) sets blue + 2 aside
    assert state.current_player() == 1
    cf, nf = state.dice_for(1)
    assert (cf, nf) == faces([G, R], [3, 4])  # normally 2 colour + 2 number dice
    # a passive player cannot use a die set aside
    rejected(state, Cross(B, 2, B, M("H4 H5")), "R-PASSIVE")
    rejected(state, Cross(R, 2, R, M("H3 I3")), "R-PASSIVE")
    rejected(state, Cross(B, 3, B, M("G4 H4 H5")), "R-PASSIVE")
    acts = state.legal_actions()
    assert all(a == PASS or (a.colour_die in (G, R) and a.number_die in (3, 4)) for a in acts)
    # several players may pick the same combination
    same = Cross(R, 3, R, M("H3 I3 J3"))
    assert same in acts
    state.apply(same)
    state.apply(same)
    assert state.is_chance_node()
    assert state.seats[1].crossed == state.seats[2].crossed == M("H3 I3 J3")
    # or pass
    state.apply(Roll.of([B, R, G], [2, 3, 4]))
    state.apply(PASS)
    state.apply(PASS)
    state.apply(PASS)
    assert state.is_chance_node()
    # with two dice of the same face only one of them is set aside
    state = base(2)
    pass_rolls(state, 4)
    state.apply(Roll.of([B, B, G], [2, 2, 3]))  # roll 5: seat 0 active
    state.apply(Cross(B, 2, B, M("H4 H5")))
    assert state.dice_for(1) == faces([B, G], [2, 3])
    state.apply(Cross(B, 2, B, M("H4 H5")))
    assert state.seats[1].crossed == M("H4 H5")


def test_R_FIRST3():
    state = base(2)
    dice = Roll.of([B, R, G], [1, 2, 3])
    for move in (Cross(B, 2, B, M("H4 H5")), Cross(R, 3, R, M("H3 I3 J3")), Cross(G, 1, G, M("H1"))):
        # rolls 1-3: nothing is set aside, the other player may use the very same dice
        state.apply(dice)
        state.apply(move)
        other = state.current_player()
        assert state.dice_for(other) == faces([B, R, G], [1, 2, 3])
        state.apply(move)
    assert state.seats[0].crossed == state.seats[1].crossed == M("H1 H3 I3 J3 H4 H5")
    # roll 4: now the active player's dice are set aside
    state.apply(Roll.of([B, Y, G], [2, 3, 4]))
    assert state.current_player() == 1
    state.apply(Cross(Y, 3, Y, M("H6 H7 I7")))
    assert state.dice_for(0) == faces([G, B], [2, 4])
    rejected(state, Cross(Y, 3, Y, M("H6 H7 I7")), "R-PASSIVE")


def test_R_ACTIVE_PASS():
    state = base(3)
    pass_rolls(state, 4)
    state.apply(Roll.of([B, R, G], [2, 3, 4]))
    active = state.current_player()
    assert active == 1
    state.apply(PASS)
    # the others pick from all dice
    assert state.to_json()["pending"] == [2, 0]
    for seat in (2, 0):
        assert state.dice_for(seat) == faces([B, G, R], [2, 3, 4])
    state.apply(Cross(B, 2, B, M("H4 H5")))  # the very dice the active player could have used
    state.apply(Cross(B, 2, B, M("H4 H5")))
    assert state.is_chance_node()
    assert state.seats[2].crossed == state.seats[0].crossed == M("H4 H5")


def test_R_ORDER():
    state = base(3)
    state.apply(NO_JOKER_ROLL)
    # the active player decides first
    rejected(state, Cross(B, 2, B, M("H4 H5")), "R-ORDER", seat=1)
    rejected(state, PASS, "R-ORDER", seat=2)
    state.apply(Cross(B, 2, B, M("H4 H5")), 0)
    # the others decide independently: any order
    state.apply(Cross(B, 2, B, M("H4 H5")), 2)
    rejected(state, PASS, "R-ORDER", seat=2)  # decided already
    rejected(state, PASS, "R-ORDER", seat=0)
    state.apply(PASS, 1)
    assert state.is_chance_node()

    # firsts are settled only after everybody has crossed for this roll
    state = base(3)
    for seat in state.seats:
        seat.crossed = COL_A & ~M("A7")
    state.apply(NO_JOKER_ROLL)
    state.apply(Cross(Y, 1, Y, M("A7")))  # seat 0 completes column A ...
    assert state.to_json()["claimed_columns"] == []  # ... but nothing is settled yet
    assert state.seats[0].columns == {}
    state.apply(Cross(Y, 1, Y, M("A7")), 2)  # seat 2, deciding before seat 1, completes it too
    state.apply(PASS, 1)
    assert state.to_json()["claimed_columns"] == ["A"]
    assert state.seats[0].columns == {0: 5} and state.seats[2].columns == {0: 5}


def test_R_NEXT():
    state = base(3)
    for k in range(7):
        state.apply(NO_JOKER_ROLL)
        assert state.current_player() == k % 3
        state.apply(PASS)
        # then the others, clockwise
        assert state.to_json()["pending"] == [(k + 1) % 3, (k + 2) % 3]
        assert state.current_player() == (k + 1) % 3
        state.apply(PASS)
        assert state.current_player() == (k + 2) % 3
        state.apply(PASS)
        assert state.is_chance_node() and state.roll_index == k + 1


# --------------------------------------------------------------------------- 3. crossing cells
def test_R_COUNT():
    state = base(2)
    state.apply(Roll.of([B, R, G], [2, 3, 4]))
    rejected(state, Cross(B, 2, B, M("H4")), "R-COUNT")
    rejected(state, Cross(R, 3, R, M("H3 I3 J3 I2")), "R-COUNT")
    rejected(state, Cross(B, 2, B, 0), "R-COUNT")
    state.apply(Cross(B, 2, B, M("H4 H5")))
    assert state.seats[0].crossed.bit_count() == 2

    # "?" lets the player choose 1-5 cells, never 6, even where a 6-cell block is open
    state = base(2)
    state.seats[0].crossed = M("H3")  # G3 now touches a crossed cell: the green 6-block is open
    six = M("D2 D3 D4 E3 F3 G3")
    state.apply(Roll.of([G, G, G], [Q, Q, Q]))
    acts = state.legal_actions()
    counts = {a.cells.bit_count() for a in acts[1:] if a.cells & ~six == 0}
    assert counts == {1, 2, 3, 4, 5}
    assert all(a.cells.bit_count() <= 5 for a in acts[1:])
    assert Cross(G, Q, G, M("D4 D3 E3 F3 G3")) in acts
    rejected(state, Cross(G, Q, G, six), "R-COUNT")
    state.apply(Cross(G, Q, G, M("E3 F3 G3")))
    assert state.seats[0].crossed == M("H3 E3 F3 G3")


def test_R_COLOUR():
    state = base(2)
    state.apply(Roll.of([B, R, G], [1, 2, 3]))
    rejected(state, Cross(B, 2, R, M("H3 I3")), "R-COLOUR")  # die shows blue, red chosen
    rejected(state, Cross(B, 2, B, M("H3 I3")), "R-COLOUR")  # cells are red
    rejected(state, Cross(B, 3, B, M("H3 H4 H5")), "R-COLOUR")  # one red cell among blue ones
    with pytest.raises(InvalidInputError):  # colour numbers are 0-4
        state.apply(Cross(B, 1, 7, M("H4")))
    state.apply(Cross(B, 2, B, M("H4 H5")))
    state.apply(PASS)
    # the black X lets the player choose any of the five colours
    state.apply(Roll.of([X, X, X], [1, 1, 1]))
    acts = state.legal_actions()
    assert {a.colour for a in acts[1:]} == {Y, G, B, R, O}
    assert Cross(X, 1, G, M("H1")) in acts and Cross(X, 1, O, M("H2")) in acts
    state.apply(Cross(X, 1, G, M("H1")))
    assert state.seats[1].crossed == M("H1")


def test_R_BLOCK():
    state = base(2)
    # blue H4 and blue I1 are in two different blue blocks: a count of 2 cannot be split
    state.seats[0].crossed = M("H1")  # I1 touches H1
    state.apply(Roll.of([B, R, G], [1, 2, 3]))
    assert Cross(B, 1, B, M("I1")) in state.legal_actions()
    rejected(state, Cross(B, 2, B, M("H4 I1")), "R-BLOCK")
    rejected(state, Cross(B, 3, B, M("H4 H5 I1")), "R-BLOCK")
    state.apply(Cross(B, 1, B, M("I1")))
    assert state.seats[0].crossed == M("H1 I1")


def test_R_CONNECTED():
    state = base(2)
    state.apply(Roll.of([B, R, G], [1, 2, 3]))
    # G4 and H5 are in one blue block but touch only diagonally
    rejected(state, Cross(B, 2, B, M("G4 H5")), "R-CONNECTED")
    rejected(state, Cross(B, 2, B, M("H4 G5")), "R-CONNECTED")
    state.apply(Cross(B, 2, B, M("G4 H4")))
    state.apply(PASS)
    # later, cells of a block that are cut apart by crosses cannot be taken together
    state.seats[0].crossed = M("H3 I3")  # red block H3 I2 I3 J3: I2 and J3 left, diagonal
    state.apply(Roll.of([R, R, G], [2, 2, 3]))
    state.apply(PASS)
    rejected(state, Cross(R, 2, R, M("I2 J3")), "R-CONNECTED")


def test_R_ADJ():
    state = base(2)
    state.seats[0].crossed = M("H4 H5")
    state.apply(Roll.of([Y, G, O], [1, 2, 3]))
    # A7 is far from every crossed cell and not in column H
    rejected(state, Cross(Y, 1, Y, M("A7")), "R-ADJ")
    rejected(state, Cross(O, 1, O, M("F4")), "R-ADJ")  # next to G4, which is not crossed
    acts = state.legal_actions()
    # adjacent to a crossed cell of another colour is enough (any colour)
    assert Cross(G, 1, G, M("I4")) in acts  # right of H4 (blue)
    assert Cross(O, 1, O, M("I5")) in acts  # right of H5 (blue)
    assert Cross(O, 2, O, M("I5 J5")) in acts  # one anchored cell is enough
    # a cell of column H is always allowed
    assert Cross(Y, 1, Y, M("H7")) in acts and Cross(G, 1, G, M("H1")) in acts
    state.apply(Cross(O, 2, O, M("J5 I5")))
    assert state.seats[0].crossed == M("H4 H5 I5 J5")


def test_R_START():
    state = base(2)
    state.apply(Roll.of([B, O, G], [1, 2, 3]))
    # the very first move must contain a cell of column H
    rejected(state, Cross(B, 1, B, M("G4")), "R-START")
    rejected(state, Cross(B, 2, B, M("G4 G5")), "R-START")
    rejected(state, Cross(O, 1, O, M("G2")), "R-START")
    acts = state.legal_actions()
    assert all(a == PASS or a.cells & STD.start_mask for a in acts)
    assert Cross(B, 2, B, M("G4 G5")) not in acts
    state.apply(Cross(B, 2, B, M("G4 H4")))
    state.apply(PASS)
    # from then on a cell next to a crossed one will do
    state.apply(Roll.of([B, O, G], [1, 2, 3]))  # seat 1 is active and still has to start in H
    rejected(state, Cross(B, 1, B, M("G5")), "R-START")
    state.apply(PASS)
    state.apply(Cross(B, 1, B, M("G5")))
    assert state.seats[0].crossed == M("G4 H4 G5")


def test_R_FREE():
    state = base(2)
    state.seats[0].crossed = M("H4 H5")
    state.apply(Roll.of([B, R, G], [1, 2, 3]))
    rejected(state, Cross(B, 1, B, M("H4")), "R-FREE")
    rejected(state, Cross(B, 2, B, M("G4 H4")), "R-FREE")
    acts = state.legal_actions()
    assert all(a == PASS or not a.cells & M("H4 H5") for a in acts)
    state.apply(Cross(B, 2, B, M("G4 G5")))


def test_R_JOKER_COST():
    state = base(2)
    state.seats[0].jokers_used = 7  # one "!" left
    state.apply(Roll.of([X, R, G], [Q, 1, 3]))
    rejected(state, Cross(X, Q, B, M("H4 H5")), "R-JOKER-COST")  # needs two
    acts = state.legal_actions()
    assert not any(a != PASS and a.colour_die == X and a.number_die == Q for a in acts)
    assert Cross(X, 1, B, M("H4")) in acts and Cross(R, Q, R, M("H3 I3")) in acts
    state.apply(Cross(X, 1, B, M("H4")))
    assert state.seats[0].jokers_left == 0
    state.apply(PASS)
    # none left: no joker symbol at all
    state.apply(Roll.of([X, R, G], [Q, 1, 3]))
    state.apply(PASS)
    rejected(state, Cross(X, 1, B, M("H5")), "R-JOKER-COST")
    rejected(state, Cross(R, Q, R, M("H3")), "R-JOKER-COST")
    acts = state.legal_actions()
    assert not any(a != PASS and (a.colour_die == X or a.number_die == Q) for a in acts)
    assert Cross(R, 1, R, M("H3")) in acts
    state.apply(Cross(R, 1, R, M("H3")))
    assert state.seats[0].jokers_left == 0


# --------------------------------------------------------------------------- 4. scoring and end
def test_R_COLUMN():
    state = base(2)
    state.seats[0].crossed = (COL_A | COL_B) & ~M("A7 B7")
    state.seats[1].crossed = COL_A & ~M("A7")
    # one move may complete several columns: A7 B7 completes A and B -> first values 5 + 3
    roll(state, Roll.of([Y, G, B], [1, 2, 3]), {0: Cross(Y, 2, Y, M("A7 B7"))})
    assert state.seats[0].columns == {0: 5, 1: 3}
    assert state.to_json()["claimed_columns"] == ["A", "B"]
    # seat 1 completes A in a later roll: the later value
    roll(state, Roll.of([Y, G, B], [1, 2, 3]), {1: Cross(Y, 1, Y, M("A7"))})
    assert state.seats[1].columns == {0: 3}
    assert state.game.seat_score(state, 0).columns == 8
    assert state.game.seat_score(state, 1).columns == 3
    # column H: first 1, later 0
    state.seats[0].crossed |= STD.start_mask & ~M("H6")
    state.seats[1].crossed |= STD.start_mask & ~M("H6")
    roll(state, Roll.of([Y, G, B], [1, 2, 3]), {0: Cross(Y, 1, Y, M("H6"))})
    roll(state, Roll.of([Y, G, B], [1, 2, 3]), {1: Cross(Y, 1, Y, M("H6"))})
    assert state.seats[0].columns[7] == 1 and state.seats[1].columns[7] == 0


def test_R_FIRST():
    state = base(3)
    for seat in state.seats:
        seat.crossed = (COL_A & ~M("A7")) | (ALL_YELLOW & ~M("A7"))
    # roll 4 (dice set aside): two yellow dice and two 1s let seats 0 and 2 both finish
    pass_rolls(state, 3)
    state.apply(Roll.of([Y, Y, G], [1, 1, 2]))
    assert state.current_player() == 0
    state.apply(Cross(Y, 1, Y, M("A7")))
    state.apply(Cross(Y, 1, Y, M("A7")), 2)
    state.apply(PASS, 1)
    # ties in the same roll share the first value; same for the colour bonus
    for i in (0, 2):
        assert state.seats[i].columns == {0: 5}
        assert state.seats[i].colours == {Y: 5}
    # whoever follows in a later roll gets the later values
    roll(state, Roll.of([Y, Y, G], [1, 1, 2]), {1: Cross(Y, 1, Y, M("A7"))})
    assert state.seats[1].columns == {0: 3} and state.seats[1].colours == {Y: 3}


def test_R_END():
    state = base(2)
    state.seats[0].crossed = (ALL_YELLOW & ~M("A7")) | (ALL_GREEN & ~M("H1"))
    roll(state, NO_JOKER_ROLL, {0: Cross(Y, 1, Y, M("A7"))})
    assert state.seats[0].colours == {Y: 5}
    assert not state.is_terminal()  # one colour does not end the game
    pass_rolls(state, 3)
    assert state.roll_index == 4
    state.apply(Roll.of([G, B, R], [1, 2, 3]))
    assert state.current_player() == 0
    state.apply(Cross(G, 1, G, M("H1")))  # the second colour
    # the roll is finished by everybody first, from the dice left
    assert not state.is_terminal()
    assert state.current_player() == 1
    assert state.dice_for(1) == ((B, R), (2, 3))
    rejected(state, Cross(G, 1, G, M("H1")), "R-PASSIVE")
    state.apply(Cross(B, 2, B, M("H4 H5")))
    assert state.is_terminal()
    assert state.seats[1].crossed == M("H4 H5")
    out = state.outcome()
    assert "R-END" in out.reason and out.rolls == 5
    assert out.scores[0].colours == 10
    rejected(state, Roll.of([G, B, R], [1, 2, 3]), "R-END")
    rejected(state, PASS, "R-END")


def test_R_END_passive_completes_second_colour():
    state = base(3)
    state.seats[2].crossed = (ALL_YELLOW & ~M("A7")) | (ALL_GREEN & ~M("H1"))
    roll(state, NO_JOKER_ROLL, {2: Cross(Y, 1, Y, M("A7"))})
    pass_rolls(state, 2)
    state.apply(Roll.of([G, B, R], [1, 2, 3]))  # roll 4: seat 0 active
    state.apply(Cross(B, 2, B, M("H4 H5")))
    state.apply(Cross(G, 1, G, M("H1")), 2)  # seat 2 completes a second colour first ...
    assert not state.is_terminal()
    state.apply(Cross(R, 1, R, M("H3")), 1)  # ... seat 1 still gets its pick
    assert state.is_terminal() and state.outcome().rolls == 4
    assert state.seats[1].crossed == M("H3")


def test_R_SCORE():
    state = base(2)
    stars = stars_of_grid()
    state.seats[0].crossed = (ALL_YELLOW & ~M("A7")) | (ALL_GREEN & ~M("H1")) | (COL_A & ~M("A7"))
    roll(state, NO_JOKER_ROLL, {0: Cross(Y, 1, Y, M("A7"))})  # yellow (5) and column A (5)
    roll(state, Roll.of([X, G, B], [Q, 1, 2]), {1: Cross(X, Q, B, M("H4 H5"))})  # seat 1 uses two "!"
    roll(state, Roll.of([X, R, B], [1, 3, 4]), {0: Cross(X, 1, G, M("H1"))})  # green (5), one "!"
    assert state.is_terminal()
    out = state.outcome()
    s0, s1 = out.scores
    crossed0 = state.seats[0].crossed
    assert (s0.colours, s0.columns, s0.jokers) == (10, 5, 7)
    assert s0.stars == -2 * (stars & ~crossed0).bit_count()
    assert s0.total == 10 + 5 + 7 + s0.stars
    assert (s1.colours, s1.columns, s1.jokers, s1.stars) == (0, 0, 6, -30)
    assert s1.total == -24
    assert out.winners == (0,)
    js = out.to_json()["scores"][0]
    assert js["total"] == js["colours"] + js["columns"] + js["jokers"] + js["stars"]
    assert js["colours_completed"] == ["yellow", "green"] and js["columns_completed"] == ["A"]


def _tie_game(extra_star_seat0: bool, extra_jokers_seat0: int):
    state = base(2)
    for seat in state.seats:
        seat.crossed = (ALL_YELLOW & ~M("A7")) | (ALL_GREEN & ~M("H1"))
    if extra_star_seat0:
        state.seats[0].crossed |= M("A3")  # a blue star: +2 against seat 1
    state.seats[0].jokers_used = extra_jokers_seat0
    roll(state, NO_JOKER_ROLL, {0: Cross(Y, 1, Y, M("A7")), 1: Cross(Y, 1, Y, M("A7"))})
    roll(state, Roll.of([G, B, R], [1, 2, 3]), {0: Cross(G, 1, G, M("H1")), 1: Cross(G, 1, G, M("H1"))})
    assert state.is_terminal()
    return state.outcome()


def test_R_TIE():
    # equal totals, equal "!": shared victory
    out = _tie_game(False, 0)
    assert out.scores[0].total == out.scores[1].total
    assert out.winners == (0, 1)
    # equal totals: more unused "!" wins
    out = _tie_game(True, 2)
    assert out.scores[0].total == out.scores[1].total
    assert out.scores[0].jokers == 6 and out.scores[1].jokers == 8
    assert out.winners == (1,)
    # highest total wins
    out = _tie_game(True, 0)
    assert out.scores[0].total == out.scores[1].total + 2
    assert out.winners == (0,)


# --------------------------------------------------------------------------- 5. solo
def test_R_SOLO_DICE():
    state = solo()
    assert state.game.n_seats == 1
    r = state.sample_roll(random.Random(1))
    assert len(r.colours) == 2 and len(r.numbers) == 2
    before = snapshot(state)
    with pytest.raises(InvalidInputError) as info:
        state.apply(NO_JOKER_ROLL)  # three + three dice
    assert info.value.rule == "R-ROLL"
    assert snapshot(state) == before
    state.apply(Roll.of([B, R], [2, 3]))
    acts = state.legal_actions()
    assert {(a.colour_die, a.number_die) for a in acts[1:]} <= {(B, 2), (B, 3), (R, 2), (R, 3)}
    with pytest.raises(IllegalMoveError):  # no green die in this roll
        state.apply(Cross(G, 1, G, M("H1")))
    state.apply(Cross(B, 2, B, M("H4 H5")))
    assert state.is_chance_node() and state.roll_index == 1
    # nothing is ever set aside: the single player uses any of the four dice each roll
    for _ in range(5):
        state.apply(Roll.of([B, R], [2, 3]))
        assert state.dice_for(0) == ((B, R), (2, 3))
        state.apply(PASS)


def test_R_SOLO_LEN():
    state = solo()
    for k in range(29):
        roll(state, Roll.of([B, R], [2, 3]))
        assert not state.is_terminal()
    roll(state, Roll.of([B, R], [2, 3]))
    assert state.is_terminal()
    assert state.outcome().rolls == 30 and "R-SOLO-LEN" in state.outcome().reason
    rejected(state, Roll.of([B, R], [2, 3]), "R-END")

    # DECISION: a second colour does not end the solo game early
    assert decisions.SOLO_ENDS_ON_SECOND_COLOUR is False
    state = solo()
    state.seats[0].crossed = (ALL_YELLOW & ~M("A7")) | (ALL_GREEN & ~M("H1"))
    roll(state, Roll.of([Y, G], [1, 2]), {0: Cross(Y, 1, Y, M("A7"))})
    roll(state, Roll.of([Y, G], [1, 2]), {0: Cross(G, 1, G, M("H1"))})
    assert len(state.seats[0].colours) == 2
    assert not state.is_terminal()
    for _ in range(28):
        assert not state.is_terminal()
        roll(state, Roll.of([B, R], [2, 3]))
    assert state.is_terminal() and state.outcome().rolls == 30


BAND_EDGES = [  # (score, band index, best first)
    (60, 0), (41, 0), (40, 1), (37, 1), (36, 2), (33, 2), (32, 3), (29, 3), (28, 4), (25, 4),
    (24, 5), (21, 5), (20, 6), (17, 6), (16, 7), (13, 7), (12, 8), (9, 8), (8, 9), (5, 9),
    (4, 10), (1, 10), (0, 11), (-1, 12), (-30, 12),
]


@pytest.mark.parametrize("score,band", BAND_EDGES)
def test_R_SOLO_SCORE_bands(score, band):
    assert solo_band(score)[0] == band


def test_R_SOLO_SCORE():
    # thirteen bands, best first; the best is five stars, "superheroes"
    assert len(SOLO_BANDS) == 13
    assert len({solo_band(s)[0] for s in range(-40, 80)}) == 13
    assert solo_band(41)[1] == 5 and "superhero" in solo_band(41)[2]
    stars = [solo_band(s)[1] for s in range(80, -40, -1)]
    assert stars == sorted(stars, reverse=True)
    # DECISION: a completed column scores its first value, a completed colour 5
    assert decisions.SOLO_COLUMN_VALUE == "first" and decisions.SOLO_COLOUR_BONUS == 5
    state = solo()
    state.seats[0].crossed = (COL_A & ~M("A7")) | (ALL_YELLOW & ~M("A7"))
    for _ in range(9):
        roll(state, Roll.of([B, R], [2, 3]))
    roll(state, Roll.of([Y, R], [1, 3]), {0: Cross(Y, 1, Y, M("A7"))})  # roll 10
    assert state.seats[0].columns == {0: 5} and state.seats[0].colours == {Y: 5}
    while not state.is_terminal():
        roll(state, Roll.of([X, R], [Q, 3]), {0: PASS})
    out = state.outcome()
    sc = out.scores[0]
    expected_stars = -2 * (stars_of_grid() & ~state.seats[0].crossed).bit_count()
    assert (sc.colours, sc.columns, sc.jokers, sc.stars) == (5, 5, 8, expected_stars)
    assert sc.total == 18 + expected_stars
    assert out.solo_band == solo_band(sc.total)
    assert out.to_json()["solo_band"]["band"] == solo_band(sc.total)[0]
