"""The compiled co-op kernel, function by function, against its Python twin (issue 43).

``tests/test_coop_kernel.py`` holds the kernel to the engine game by game: the same seeded games,
the same actions. A whole game can agree while a function inside it is wrong on positions the
games happen not to reach, and a game that disagrees says little about where. Here each kernel
function meets its twin on positions hypothesis draws — mid-game positions of engine games
played by the random bot or the co-op greedy, on 1-6 seats and every mission — and on drawn
numbers where the function is pure:

* the generator (``mt_seed``, ``randbelow``) — CPython's ``random.Random`` (seed, ``_randbelow``);
* the legal crosses (``_legal`` + ``_scan``) — :meth:`nochmal.engine.game.State.legal_actions`;
* a cross and the end of a turn (``_cross``, ``_settle``) — the engine applying the same cross;
* the mission's counts and a rollout's value (``_value``) — :func:`nochmal.bots.coop_weights.coop_rollout_value`;
* the active seat's choice for the team (``_team_choices``) — :func:`nochmal.bots.greedy.team_choices`,
  the values compared to the bit (where a float summed in another order shows);
* the planner's pick from rollout values (``_choose``) — :func:`nochmal.bots.planner._ranked`;
* the "!" splits (``_even_split``, ``_nth_split``) — :func:`nochmal.bots.coop_weights.even_split`
  and :func:`nochmal.engine.coop.strike_splits`.

Like OpenSpiel's consistency checks, which walk states and compare two implementations at each,
and stumpy's habit of testing each compiled kernel against a naive twin. CI runs this file on
every Python we support (``make parity``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as hst

from nochmal.bots.kernel import coop as kcoop
from nochmal.bots.kernel import drivers as kdrivers
from nochmal.bots.kernel import greedy as kgreedy
from nochmal.bots.kernel import layout as klayout
from nochmal.bots.kernel import missions as kmissions
from nochmal.bots.kernel import moves as kmoves
from nochmal.bots.kernel import mt as kmt
from nochmal.bots.kernel import planner as kplanner
from nochmal.bots.coop_weights import coop_rollout_value, even_split
from nochmal.bots.greedy import _weights_for, reference_greedy, team_choices, team_choosing
from nochmal.bots.planner import PlannerConfig, _ranked
from nochmal.bots.policies import random_policy
from nochmal.engine.coop import CoopGame, strike_splits
from nochmal.engine.moves import PASS, Cross

#: each drawn position is a Python game played to its turn: few examples, each one rich
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    derandomize=True)
GAMES: dict[tuple[int, int], CoopGame] = {}


def game_of(players: int, mission: int) -> CoopGame:
    key = (players, mission)
    if key not in GAMES:
        GAMES[key] = CoopGame.create(players, mission)
    return GAMES[key]


@hst.composite
def positions(draw, bots=("random", "greedy")):
    """An engine position at the start of a turn (its roll due), reached by a drawn bot from a
    drawn seed: (game, state, rng) with ``rng`` the generator that played it (it rolls next)."""
    players = draw(hst.integers(1, 6), label="players")
    mission = draw(hst.integers(1, 5), label="mission")
    bot = draw(hst.sampled_from(bots), label="bot")
    seed = draw(hst.integers(0, 2**32 - 1), label="seed")
    turn = draw(hst.integers(1, 27), label="turn")
    game = game_of(players, mission)
    act = random_policy if bot == "random" else reference_greedy
    rng = random.Random(seed)
    state = game.new_state()
    while not state.is_terminal():
        if state.is_chance_node():
            if state.roll_index == turn - 1:
                return game, state, rng
            state.apply(state.sample_roll(rng))
        else:
            state.apply(act(state, rng))
    assume(False)  # the game ended before that turn


class Kernel:
    """The kernel's form of an engine position: its tables, state, views and hot arrays, loaded
    as :func:`nochmal.bots.kernel.drivers.run_games` loads a position."""

    def __init__(self, game, state):
        tables = klayout.coop_tables(game)
        self.index = tables.index
        self.t, self.g = tables.arrays, tables.greedy
        crossed, jl, failed, col_pts, colour_done, sc, _res0, _turn, _removed = kdrivers.position(game, state)
        self.st = klayout._new_state(self.t)
        self.V = klayout._new_views(self.t, self.g)
        kcoop._load(self.t, self.st, crossed, jl, failed, col_pts, colour_done, sc)
        self.h = kcoop._start(self.t, self.g, self.st, self.V)
        self.n = game.n_seats

    def engine_cross(self, p: int, a: Cross) -> tuple:
        return (a.colour_die, a.number_die, a.colour, self.index[p][a.cells])


def faces(values) -> tuple[np.ndarray, int]:
    out = np.zeros(3, np.int64)  # faces past the count are not read
    vals = sorted(values)
    out[:len(vals)] = vals
    return out, len(vals)


# --------------------------------------------------------------------------- the generator
@given(seed=hst.integers(0, 2**63 - 1), draws=hst.lists(hst.integers(1, 2**32 - 1), min_size=1, max_size=700))
@settings(max_examples=60, deadline=None)
def test_the_generator_is_cpythons(seed, draws):
    """mt_seed + randbelow: ``random.Random(seed)`` and its ``_randbelow`` (the dice, the random bot,
    the planner's seeds), across a twist of the state (624 words)."""
    mt = np.zeros(625, np.int64)
    kmt.mt_seed(seed, mt)
    rng = random.Random(seed)
    assert np.array_equal(mt, kmt.mt_state(rng))
    assert [kmt.randbelow(mt, n) for n in draws] == [rng._randbelow(n) for n in draws]


# --------------------------------------------------------------------------- the rules
@given(pos=positions())
@SETTINGS
def test_the_legal_crosses_are_the_engines(pos):
    """_legal + _scan: the active seat's legal crosses with all the dice, in the engine's order
    (the random bot picks one by its index), and a passive seat's with the dice left."""
    game, state, rng = pos
    k = Kernel(game, state)
    state.apply(state.sample_roll(rng))
    for _ in range(2):  # the active seat, then (after its choice) the first passive seat
        if state.is_terminal() or state.current_player() < 0:
            return
        p = state.current_player()
        want = [k.engine_cross(p, a) for a in state.legal_actions() if isinstance(a, Cross)]
        (cf, nc), (nf, nn) = faces(state.dice_for(p)[0]), faces(state.dice_for(p)[1])
        count = kmoves._scan(k.t, k.st, p, cf, nc, nf, nn, 0, 0, k.V.pairs)[0]
        got = []
        for i in range(count):
            _, s, cdie, ndie, colour = kmoves._scan(k.t, k.st, p, cf, nc, nf, nn, 1, i, k.V.pairs)
            got.append((int(cdie), int(ndie), int(colour), int(s)))
        assert got == want, f"seat {p}, {state.summary()}"
        largest = kmoves._scan(k.t, k.st, p, cf, nc, nf, nn, 2, 0, k.V.pairs)
        if want:
            most = max(bin(a.cells).count("1") for a in state.legal_actions() if isinstance(a, Cross))
            assert int(k.t.size[p, largest[1]]) == most
        else:
            assert largest[1] == -1
        action = state.legal_actions()[-1]  # the last cross (or the failed roll)
        if isinstance(action, Cross):
            kmoves._cross(k.t, k.st, p, k.index[p][action.cells], action.colour, action.colour_die, action.number_die)
        state.apply(action)
        seat = state.seats[p]
        assert {i for i in range(105) if k.st.crossed[p, i]} == {i for i in range(105) if seat.crossed >> i & 1}
        assert int(k.st.jl[p]) == seat.jokers_left


@given(pos=positions(), pick=hst.randoms(use_true_random=False))
@SETTINGS
def test_a_turns_crosses_settle_as_the_engines(pos, pick):
    """_cross for every seat's cross of one turn, then _settle (R-FIRST, C-POINTS): the same
    crossed cells, "!", column points and completed colours as the engine at the next turn."""
    game, state, rng = pos
    assume(state.roll_index + 1 not in (10, 19, 27))  # a check's penalties are _interim's, not a turn's
    k = Kernel(game, state)
    state.apply(state.sample_roll(rng))
    while not state.is_terminal() and not state.is_chance_node():
        p = state.current_player()
        if p < 0:
            break  # a team decision after a check: the turn is over and settled
        acts = state.legal_actions()
        crosses = [a for a in acts if isinstance(a, Cross)]
        action = pick.choice(crosses) if crosses and pick.random() < 0.9 else PASS
        if isinstance(action, Cross):
            kmoves._cross(k.t, k.st, p, k.index[p][action.cells], action.colour, action.colour_die, action.number_die)
        state.apply(action)
    assume(not state.is_terminal())  # a third failed roll ends the game at once, unsettled
    kcoop._settle(k.t, k.st, k.n)
    for p, seat in enumerate(state.seats):
        assert {i for i in range(105) if k.st.crossed[p, i]} == {i for i in range(105) if seat.crossed >> i & 1}
        assert int(k.st.jl[p]) == seat.jokers_left
        assert {c: int(v) for c, v in enumerate(k.st.col_pts[p]) if v >= 0} == dict(seat.columns), f"seat {p}"
        assert {c for c in range(5) if k.st.colour_done[p, c]} == set(seat.colours), f"seat {p}"


@given(pos=positions())
@SETTINGS
def test_a_positions_value_is_the_rollout_value(pos):
    """_value (through _counts: the mission's requirements counted as the engine counts them) is
    :func:`coop_rollout_value` of a game that ends at this position, not won — to the bit."""
    game, state, _ = pos
    k = Kernel(game, state)
    miss = np.zeros(64, np.bool_)
    got = kplanner._value(k.t, k.g, k.st, k.n, klayout.END_LOST, state.roll_index + 1, miss)
    assert got == coop_rollout_value(state), state.summary()
    assert kmissions._mission_complete(k.t, k.g, k.st, k.n, miss) == game.progress(state).complete


# --------------------------------------------------------------------------- the co-op greedy
@given(pos=positions())
@SETTINGS
def test_the_team_choices_are_the_greedys_to_the_bit(pos):
    """_team_choices: the active seat's choices for the team with their values, best first, as
    :func:`nochmal.bots.greedy.team_choices` lists them — every value equal to the last bit (the
    other seats' replies summed in the same order), so ties break the same way."""
    game, state, rng = pos
    k = Kernel(game, state)
    state.apply(state.sample_roll(rng))
    p = state.current_player()
    assume(p >= 0 and team_choosing(state, p))
    w, bias = _weights_for(state)
    want = [(v, (PASS if a is PASS else k.engine_cross(p, a))) for v, a in team_choices(state, w, bias)]
    cf, nc = faces(state.dice_for(p)[0])
    nf, nn = faces(state.dice_for(p)[1])
    kgreedy._refresh(k.t, k.g, k.V, k.st, k.n)
    m = kgreedy._team_choices(k.t, k.g, k.V, k.st, k.h, k.n, p, cf, nc, nf, nn, k.V.cand, k.V.cval)
    got = []
    for i in range(m):
        s, cdie, ndie, colour = (int(x) for x in k.V.cand[i, :4])
        got.append((float(k.V.cval[i]), PASS if s < 0 else (cdie, ndie, colour, s)))
    assert [a for _, a in got] == [a for _, a in want], state.summary()
    assert [v.hex() for v, _ in got] == [float(v).hex() for v, _ in want], state.summary()


# --------------------------------------------------------------------------- the planner
values = hst.floats(0.0, 1.1, allow_nan=False, width=64)


@given(data=hst.data(), m=hst.integers(1, 8), k=hst.integers(1, 12), z=hst.sampled_from([0.0, 0.5, 1.25, 3.0]))
@settings(max_examples=200, deadline=None)
def test_the_planners_pick_is_its_python_twins(data, m, k, z):
    """_choose: of ``m`` candidates' ``k`` rollout values each (candidate 0 greedy's), the one
    :func:`nochmal.bots.planner._ranked` puts first — the means, paired sums and squares added in
    the same order, so near-ties (drawn on purpose: values from a few levels) fall the same way."""
    levels = data.draw(hst.lists(values, min_size=1, max_size=4), label="levels")
    vals = [[data.draw(hst.sampled_from(levels) if data.draw(hst.booleans()) else values) for _ in range(k)]
            for _ in range(m)]
    cfg = PlannerConfig(candidates=m, rollouts=k, switch_z=z, active_only=True, compiled=True)
    P = kplanner._new_planner(klayout.coop_tables(game_of(1, 1)).arrays, klayout.coop_tables(game_of(1, 1)).greedy, k)
    P.vals[:m, :k] = np.array(vals)
    got = kplanner._choose(P, m, k, kplanner.plan_params(cfg))
    want = _ranked(cfg, list(range(m)), vals)[0][0]
    assert got == want, vals


# --------------------------------------------------------------------------- the team's "!"
lefts_amount = hst.lists(hst.integers(0, 9), min_size=1, max_size=6).flatmap(
    lambda lefts: hst.tuples(hst.just(tuple(lefts)), hst.integers(0, sum(lefts) + 1)))


@given(la=lefts_amount)
@settings(max_examples=300, deadline=None)
def test_the_even_split_is_the_greedys(la):
    """_even_split: C-GOAL-10's split that leaves the "!" most evenly spread (None: there is none)."""
    lefts, amount = la
    out = np.zeros(6, np.int64)
    found = kgreedy._even_split(np.array(lefts, np.int64), len(lefts), amount, out)
    assert (tuple(int(v) for v in out[:len(lefts)]) if found else None) == even_split(lefts, amount)


@given(la=lefts_amount, data=hst.data())
@settings(max_examples=200, deadline=None)
def test_the_nth_split_is_the_engines(la, data):
    """_ways + _nth_split: the number of C-GOAL-10 splits and the i-th of them in the engine's order."""
    lefts, amount = la
    assume(amount >= 1)
    n = len(lefts)
    splits = strike_splits(lefts, amount)
    ways = np.zeros((n + 1, amount + 1), np.int64)
    kcoop._ways(np.array(lefts, np.int64), n, amount, ways)
    assert ways[0, amount] == len(splits)
    if splits:
        i = data.draw(hst.integers(0, len(splits) - 1), label="i")
        out = np.zeros(6, np.int64)
        kcoop._nth_split(np.array(lefts, np.int64), n, amount, i, out)
        assert tuple(int(v) for v in out[:n]) == splits[i].per_seat


def test_a_drawn_position_can_disagree():
    """The comparisons above can fail: a kernel state one cross ahead of the engine's gives other
    legal crosses (a guard against a helper that compares a thing with itself)."""
    game = game_of(2, 1)
    state = game.new_state()
    rng = random.Random(3)
    state.apply(state.sample_roll(rng))
    p = state.current_player()
    crosses = [a for a in state.legal_actions() if isinstance(a, Cross)]
    assert crosses
    k = Kernel(game, game.new_state())
    a = crosses[-1]
    kmoves._cross(k.t, k.st, p, k.index[p][a.cells], a.colour, a.colour_die, a.number_die)
    (cf, nc), (nf, nn) = faces(state.dice_for(p)[0]), faces(state.dice_for(p)[1])
    count = kmoves._scan(k.t, k.st, p, cf, nc, nf, nn, 0, 0, k.V.pairs)[0]
    assert count != len(crosses)


pytestmark = pytest.mark.filterwarnings("ignore::numba.NumbaPerformanceWarning")
