"""Property tests of the move generator against a deliberately naive legality checker.

The naive checker below shares no code with the engine: it reads the colours from the sheet's
grid letters, finds colour blocks by flood fill over ``(row, col)`` tuples, and tries every
combination of free cells of a block by brute force, keeping those that satisfy RULES.md
section 3 (R-COUNT, R-COLOUR, R-BLOCK, R-CONNECTED, R-ADJ/R-START, R-FREE, R-JOKER-COST).
Only the documented encodings are shared: cell index ``row * 15 + col``, colours in the order
yellow green blue red orange (0..4), colour joker X = 5, number joker ? = 0.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from nochmal.engine.errors import IllegalMoveError
from nochmal.engine.moves import PASS, Cross, check_cross, is_legal_cross, legal_moves
from nochmal.engine.sheet import get_sheet

VERIFIED = ("standard", "red", "blue", "green", "orange", "purple", "yellow")
LETTERS = "ygbro"
X, Q = 5, 0
ROWS, COLS = 7, 15
ALL_CELLS = [(r, c) for r in range(ROWS) for c in range(COLS)]


# --------------------------------------------------------------------------- the naive checker
class Naive:
    """A sheet as Python sets, built from the grid letters only."""

    def __init__(self, sheet_id: str) -> None:
        spec = get_sheet(sheet_id).spec
        self.colour = {(r, c): LETTERS.index(spec.grid[r][c].lower()) for r, c in ALL_CELLS}
        self.start_col = "ABCDEFGHIJKLMNO".index(spec.start_column)
        self.blocks: list[frozenset] = []
        self.block_id: dict[tuple, int] = {}
        for cell in ALL_CELLS:
            if cell in self.block_id:
                continue
            block, todo = {cell}, [cell]
            while todo:
                for n in neighbours(todo.pop()):
                    if n not in block and self.colour[n] == self.colour[cell]:
                        block.add(n)
                        todo.append(n)
            for b in block:
                self.block_id[b] = len(self.blocks)
            self.blocks.append(frozenset(block))

    def anchored(self, cells, crossed) -> bool:
        return any(c == self.start_col or any(n in crossed for n in neighbours((r, c))) for r, c in cells)

    def legal_sets(self, crossed: set, colour: int, count: int) -> set[frozenset]:
        """Every cell set that is a legal cross of ``count`` cells of ``colour``."""
        out = set()
        for block in self.blocks:
            if self.colour[next(iter(block))] != colour:
                continue
            free = sorted(block - crossed)
            for combo in combinations(free, count):
                if connected(combo) and self.anchored(combo, crossed):
                    out.add(frozenset(combo))
        return out

    def is_legal(self, crossed, jokers_left, cdie, ndie, colour, cells, colour_faces=None, number_faces=None) -> bool:
        if colour_faces is not None and cdie not in colour_faces:
            return False
        if number_faces is not None and ndie not in number_faces:
            return False
        if cdie != X and colour != cdie:
            return False
        if not 1 <= len(cells) <= 5 or (ndie != Q and len(cells) != ndie):
            return False
        if cells & crossed:
            return False
        if any(self.colour[c] != colour for c in cells):
            return False
        if len({self.block_id[c] for c in cells}) != 1:
            return False
        if not connected(cells) or not self.anchored(cells, crossed):
            return False
        return (cdie == X) + (ndie == Q) <= jokers_left

    def all_crosses(self, crossed, jokers_left, colour_faces, number_faces) -> set[tuple]:
        """(colour die, number die, colour, frozenset of cells) for every legal cross."""
        out = set()
        for cdie in set(colour_faces):
            for ndie in set(number_faces):
                if (cdie == X) + (ndie == Q) > jokers_left:
                    continue
                for colour in (range(5) if cdie == X else [cdie]):
                    for count in (range(1, 6) if ndie == Q else [ndie]):
                        out |= {(cdie, ndie, colour, s) for s in self.legal_sets(crossed, colour, count)}
        return out


def neighbours(cell):
    r, c = cell
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= r + dr < ROWS and 0 <= c + dc < COLS:
            yield (r + dr, c + dc)


def connected(cells) -> bool:
    cells = set(cells)
    if not cells:
        return False
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


def to_mask(cells) -> int:
    return sum(1 << (r * COLS + c) for r, c in cells)


@lru_cache(maxsize=None)
def naive(sheet_id: str) -> Naive:
    return Naive(sheet_id)


def random_position(sheet_id: str, seed: int, steps: int) -> set:
    """A reachable position: ``steps`` random legal crosses (by the naive checker) from empty."""
    nv = naive(sheet_id)
    rng = random.Random(seed)
    crossed: set = set()
    for _ in range(steps):
        options = sorted(nv.legal_sets(crossed, rng.randrange(5), rng.randint(1, 5)), key=sorted)
        if options:
            crossed |= rng.choice(options)
    return crossed


sheets = st.sampled_from(VERIFIED)
positions = st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 70))
colour_faces = st.lists(st.integers(0, 5), min_size=1, max_size=3)
number_faces = st.lists(st.integers(0, 5), min_size=1, max_size=3)
PROPERTY = settings(max_examples=300, deadline=None)


# --------------------------------------------------------------------------- properties
def test_naive_checker_sanity():
    """The naive checker itself agrees with facts read off the rules and the sheet."""
    nv = naive("standard")
    assert sorted(len(b) for b in nv.blocks) == sorted([1, 2, 3, 4, 5, 6] * 5)
    blue_h = nv.legal_sets(set(), 2, 1)
    assert blue_h == {frozenset({(3, 7)}), frozenset({(4, 7)})}  # H4, H5
    assert nv.legal_sets(set(), 2, 4) == {frozenset({(3, 6), (3, 7), (4, 6), (4, 7)})}
    assert not connected([(3, 6), (4, 7)])


@PROPERTY
@given(sheet_id=sheets, pos=positions)
def test_move_table_equals_naive(sheet_id, pos):
    sheet = get_sheet(sheet_id)
    nv = naive(sheet_id)
    crossed = random_position(sheet_id, *pos)
    table = sheet.move_table(to_mask(crossed))
    block_low = {i: min(r * COLS + c for r, c in b) for i, b in enumerate(nv.blocks)}
    for colour in range(5):
        assert table[colour][0] == []
        for count in range(1, 6):
            expected = sorted(
                (to_mask(s) for s in nv.legal_sets(crossed, colour, count)),
                key=lambda m: (block_low[nv.block_id[divmod((m & -m).bit_length() - 1, COLS)]], m),
            )
            # same sets, no duplicates, in the documented order (block by lowest cell, then mask)
            assert table[colour][count] == expected, (sheet_id, sorted(crossed), colour, count)


@PROPERTY
@given(sheet_id=sheets, pos=positions, cf=colour_faces, nf=number_faces, jokers_left=st.integers(0, 8),
       probe=st.integers(0, 10**6))
def test_legal_moves_are_legal_and_complete(sheet_id, pos, cf, nf, jokers_left, probe):
    sheet = get_sheet(sheet_id)
    nv = naive(sheet_id)
    crossed = random_position(sheet_id, *pos)
    cmask = to_mask(crossed)
    ml = legal_moves(sheet, cmask, jokers_left, cf, nf)
    moves = list(ml)
    assert moves[0] == PASS and PASS in ml
    for m in moves[1:]:
        check_cross(sheet, cmask, jokers_left, m, cf, nf)  # every enumerated move is legal
        assert m in ml
    event(f"{min(len(moves) - 1, 100) // 25 * 25}+ crosses")
    listed = {(m.colour_die, m.number_die, m.colour, m.cells) for m in moves[1:]}
    assert len(listed) == len(moves) - 1, "duplicates in the enumeration"
    expected = {(cd, nd, col, to_mask(s)) for cd, nd, col, s in nv.all_crosses(crossed, jokers_left, cf, nf)}
    assert listed == expected  # no legal move missing, nothing extra
    # the lazy view: len, indexing (also negative) agree with iteration
    assert len(ml) == len(moves) == ml.crosses() + 1
    i = probe % len(moves)
    assert ml[i] == moves[i] and ml[i - len(moves)] == moves[i]
    assert ml[1:4] == moves[1:4]


@st.composite
def candidate_cells(draw, sheet_id: str, crossed: set):
    """Arbitrary cell sets: scattered cells, connected clusters of any colour, or a legal set
    with a cell added or removed."""
    kind = draw(st.sampled_from(["scattered", "cluster", "near-legal", "near-legal"]))
    if kind == "scattered":
        return set(draw(st.lists(st.sampled_from(ALL_CELLS), min_size=0, max_size=7)))
    if kind == "cluster":
        cells = {draw(st.sampled_from(ALL_CELLS))}
        for _ in range(draw(st.integers(0, 6))):
            frontier = sorted({n for c in cells for n in neighbours(c)} - cells)
            cells.add(draw(st.sampled_from(frontier)))
        return cells
    nv = naive(sheet_id)
    options = sorted(nv.legal_sets(crossed, draw(st.integers(0, 4)), draw(st.integers(1, 5))), key=sorted)
    cells = set(draw(st.sampled_from(options))) if options else {draw(st.sampled_from(ALL_CELLS))}
    edit = draw(st.sampled_from(["keep", "keep", "add", "remove"]))
    if edit == "add":
        cells.add(draw(st.sampled_from(ALL_CELLS)))
    elif edit == "remove" and len(cells) > 1:
        cells.remove(draw(st.sampled_from(sorted(cells))))
    return cells


@PROPERTY
@given(data=st.data())
def test_is_legal_cross_agrees_with_naive(data):
    sheet_id = data.draw(sheets)
    sheet = get_sheet(sheet_id)
    nv = naive(sheet_id)
    crossed = random_position(sheet_id, *data.draw(positions))
    cells = data.draw(candidate_cells(sheet_id, crossed))
    if cells and data.draw(st.booleans()):  # dice that fit the cells, so that legal sets are common
        colour = nv.colour[min(cells)]
        cdie = data.draw(st.sampled_from([colour, X]))
        ndie = data.draw(st.sampled_from([min(len(cells), 5), Q]))
    else:
        cdie = data.draw(st.integers(0, 5))
        ndie = data.draw(st.integers(0, 5))
        colour = cdie if cdie != X and data.draw(st.booleans()) else data.draw(st.integers(0, 4))
    jokers_left = data.draw(st.integers(0, 8))
    faces = data.draw(st.one_of(st.none(), st.tuples(colour_faces, number_faces)))
    cf, nf = faces if faces is not None else (None, None)
    if cf is not None and data.draw(st.booleans()):
        cf, nf = cf + [cdie], nf + [ndie]
    move = Cross(cdie, ndie, colour, to_mask(cells))
    expected = nv.is_legal(crossed, jokers_left, cdie, ndie, colour, cells, cf, nf)
    event("legal" if expected else "illegal")
    cmask = to_mask(crossed)
    assert is_legal_cross(sheet, cmask, jokers_left, move, cf, nf) == expected, (sheet_id, sorted(crossed), move)
    if not expected:
        with pytest.raises(IllegalMoveError):
            check_cross(sheet, cmask, jokers_left, move, cf, nf)
    if cf is not None:
        assert (move in legal_moves(sheet, cmask, jokers_left, cf, nf)) == expected
