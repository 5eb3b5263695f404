"""The compiled co-op game (nochmal.bots.kernel) plays what the Python engine plays: the same
seeded games both ways — every mission x 1-6 seats, every kernel policy (the random bot, the
largest cross, the co-op greedy), plus other sheets, tableaus and missions — with identical
actions (dice, crosses, failed rolls, team decisions) and identical outcomes (C-FAIL,
C-GOAL-10/19/27, C-CHECK, M1-M5, C-WIN, C-LOSE)."""

from __future__ import annotations

import collections
import random

import numpy as np
import pytest

from nochmal.bots.coop_weights import even_split
from nochmal.bots.kernel import coop, drivers, greedy, layout, mt, records, results
from nochmal.bots.settings import PlannerConfig
from nochmal.engine.coop import CoopGame, strike_splits
from nochmal.engine.coopdata import MissionSpec, get_tableau, tableau_from_data
from nochmal.engine.game import ACTIVE, PASSIVE
from nochmal.engine.moves import Cross, Pass
from nochmal.engine.sheet import get_sheet, sheet_from_rows

#: games per policy, mission and seat count in ``make test``: 2 x 5 x 6 x 12 = 720 of the simple
#: policies, 150 of the greedy, 30 of the planner; ``-m bench`` plays 50 of each policy in every cell
SEEDS = {"random": range(12), "largest": range(12), "greedy": range(5), "planner": range(1)}
BENCH_SEEDS = 50
#: the planner of the parity games: 3 rollouts a candidate (every decision rolls out, the paired
#: test decides as with more; the Python side's time is mostly its rollouts)
PLANNER = PlannerConfig(candidates=6, rollouts=3, switch_z=1.25, active_only=True, compiled=True)
COVERAGE: collections.Counter = collections.Counter()  # what the parity games went through
SIMPLE = ("random", "largest", "greedy")  # the policies without rollouts


def with_planner(seed: int, below: int) -> tuple[str, ...]:
    """Every policy for the first ``below`` seeds of a test (the planner's games cost the most),
    else :data:`SIMPLE`."""
    return (*SIMPLE, "planner") if seed < below else SIMPLE


def same_game(game, seed: int, policy: str) -> records.GameRecord:
    """Play one seed both ways; assert the same actions and outcome; the engine's record (the
    planner with :data:`PLANNER`'s settings)."""
    cfg = PLANNER if policy == "planner" else None
    ref = records.reference_record(game, seed, policy, cfg)
    fast = records.kernel_record(game, seed, policy, cfg)
    where = f"{policy} seats={game.n_seats} mission={game.mission.id} seed={seed}"
    for i, (a, b) in enumerate(zip(ref.events, fast.events)):
        assert a == b, f"{where}: action {i} differs: engine {a}, kernel {b}"
    assert len(ref.events) == len(fast.events), where
    assert ref.outcome == fast.outcome, where
    _count(ref.outcome, policy)
    return ref


def _count(o: dict, policy: str) -> None:
    COVERAGE[o["reason"]] += 1
    COVERAGE[f"removed {o['removed_die']}"] += 1
    if policy == "planner":  # the planner's C-GOAL-19 candidates: greedy's die and the other
        COVERAGE[f"planner removed {o['removed_die']}"] += 1
    if o["penalty_10"] is not None:
        per = o["penalty_10"][1]
        COVERAGE["strike " + ("all" if per == "all" else "none" if per is None else f"split {policy}")] += 1
    if o["mission_complete"] and not o["won"]:
        COVERAGE["mission complete but lost"] += 1
    COVERAGE[f"letters {len(o['sequence'])}"] += 1
    COVERAGE[f"won {policy}"] += o["won"]


def tableau(players: int, **values):
    """The shipped tableau with some values (or the track) changed."""
    data = get_tableau(players).model_dump(mode="json")
    for key, v in values.items():
        data[key] = v if key == "track" else {"value": v, "provenance": "user"}
    return tableau_from_data(data)


def with_mission(game, requirements) -> CoopGame:
    game.mission = MissionSpec(id=game.mission.id, name="test mission", summary="", requirements=requirements)
    return game


def striped(k: int, boxes: int = 3):
    """A user sheet whose columns are single-colour blocks (columns complete fast: the sequence moves)."""
    rows = ["".join("ygbro"[(c + k) % 5] for c in range(15))] * 7
    return sheet_from_rows(rows, id=f"stripes-{k}", name="stripes", provenance="user", row_labels=list("PQRSTUV"),
                           coop={"failed_roll_boxes": boxes})


def all_stars(sheet_id: str):
    """A co-op sheet with a star on every cell (M3's star columns become reachable)."""
    spec = get_sheet(sheet_id).spec
    return sheet_from_rows([r.upper() for r in spec.grid], id=f"{sheet_id}-stars", name="all stars",
                           provenance="user", row_labels=list(spec.row_labels), coop=spec.coop.model_dump())


def one_field(sheet_id: str, boxes: int = 3):
    """A co-op sheet with a single number field next to the start column (M4 becomes reachable)."""
    spec = get_sheet(sheet_id).spec
    return sheet_from_rows(list(spec.grid), id=f"{sheet_id}-field", name="one field", provenance="user",
                           row_labels=list(spec.row_labels),
                           coop={"failed_roll_boxes": boxes, "number_fields": [{"number": 1, "cell": "H3"}]})


# --------------------------------------------------------------------------- the random stream
@pytest.mark.parametrize("seed", [0, 1, 7, 2**31, 2**32 - 1, 2**32, 123456789012345678, 2**63 - 1])
def test_the_kernel_carries_cpythons_random(seed):
    state = np.zeros(625, np.int64)
    mt.mt_seed(seed, state)
    rng = random.Random(seed)
    assert np.array_equal(state, mt.mt_state(rng))
    for n in [6, 1, 2, 3, 6, 7, 100, 2 + seed % 5000, 2**31 + 1] * 50:  # past one twist of the state
        assert mt.randbelow(state, n) == rng._randbelow(n)


# --------------------------------------------------------------------------- team decisions
def test_the_strike_splits_in_the_engines_order():
    """C-GOAL-10: the kernel's i-th split is the engine's (the random bot picks by index)."""
    rng = random.Random(5)
    for _ in range(150):
        n = rng.randint(1, 6)
        lefts = tuple(rng.randint(0, 8) for _ in range(n))
        amount = rng.randint(1, max(1, sum(lefts)))
        splits = strike_splits(lefts, amount)
        ways = np.zeros((n + 1, amount + 1), np.int64)
        coop._ways(np.array(lefts, np.int64), n, amount, ways)
        assert ways[0, amount] == len(splits)
        for i in sorted({0, len(splits) - 1, rng.randrange(max(1, len(splits)))}):
            if not splits:
                break
            out = np.zeros(6, np.int64)
            coop._nth_split(np.array(lefts, np.int64), n, amount, i, out)
            assert tuple(out[:n]) == splits[i].per_seat


def test_the_even_split_is_the_greedys():
    rng = random.Random(6)
    for _ in range(300):
        n = rng.randint(1, 6)
        lefts = tuple(rng.randint(0, 9) for _ in range(n))
        amount = rng.randint(0, sum(lefts) + 1)
        out = np.zeros(6, np.int64)
        found = greedy._even_split(np.array(lefts, np.int64), n, amount, out)
        want = even_split(lefts, amount)
        assert (tuple(out[:n]) if found else None) == want, (lefts, amount)


# --------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("policy", sorted(layout.POLICIES))
@pytest.mark.parametrize("mission", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_the_kernel_plays_the_engines_games(players, mission, policy):
    game = CoopGame.create(players, mission)
    assert drivers.kernel_plays(game, policy)
    for seed in SEEDS[policy]:
        same_game(game, 1000 * mission + seed, policy)


@pytest.mark.bench
@pytest.mark.parametrize("policy", sorted(layout.POLICIES))
@pytest.mark.parametrize("mission", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_fifty_games_each(players, mission, policy):
    """The issue's bar: 50 seeded games per policy, mission and seat count beyond those of
    ``make test`` (a few minutes in all, mostly the Python greedy)."""
    game = CoopGame.create(players, mission)
    for seed in range(BENCH_SEEDS):
        same_game(game, 50_000 + 1000 * mission + seed, policy)


def test_other_sheets_tableaus_and_tracks():
    """Any sheets (base and colour sheets, other failed-roll boxes), a listed track, goals that
    are missed at once, no "!" to strike (C-GOAL-10 with penalty 0)."""
    sheets = ["standard", "coop-III", "green", one_field("coop-I", boxes=2)]
    track = [(7 * t) % 4 + 1 for t in range(27)]
    games = [CoopGame(sheets, 1, tableau(4, track=track)),
             CoopGame(sheets, 2, tableau(4, goal_10=60, penalty_10_jokers=0, goal_19=60, goal_27=200)),
             CoopGame(sheets[:2], 5, tableau(2, goal_10=50, penalty_10_jokers=20, goal_19=50, goal_27=100))]
    for game in games:
        for seed in range(12):
            for policy in with_planner(seed, 2):
                same_game(game, seed, policy)
    assert COVERAGE["strike none"] > 0


def test_missions_the_simple_policies_can_win():
    """Sheets and tableaus that make M1, M3 and M4 reachable: wins, and a mission complete in a
    turn that also brought a third failed roll (C-CHECK: lost)."""
    won = collections.Counter()
    for n in (1, 3, 6):
        games = [CoopGame([all_stars(s) for s in CoopGame.default_sheets(n)], 3, tableau(n, m3_colours=0)),
                 CoopGame([one_field(s) for s in CoopGame.default_sheets(n)], 4, tableau(n, m4_rows=0)),
                 CoopGame.create(n, 1, tableau=tableau(n, m1_colours=1))]
        for game in games:
            for seed in (*range(10), 21):  # 21: six seats complete M3 in a turn with a third failed roll
                for policy in with_planner(seed, 1):
                    won[game.mission.id] += same_game(game, seed, policy).outcome["won"]
    assert won[1] and won[3] and won[4], won
    assert COVERAGE["mission complete but lost"] > 0


def _moments(game, record_history):
    """Per turn of an engine game: (letters counted before, the active seat's completed columns,
    the other seats') — to see what the sequence met (M5, one letter per moment)."""
    st = game.new_state()
    out = []
    for action in record_history:
        active = st.active
        before = len(st.extra.get("sequence", {}).get("counted", []))
        st.apply(action)
        if isinstance(action, (Cross, Pass)) and st.phase not in (ACTIVE, PASSIVE):
            mine = {c for s, c in st.completed_now if s == active}
            others = {c for s, c in st.completed_now if s != active}
            out.append((before, mine, others))
    return out


def test_the_sequence_one_letter_per_moment():
    """M5 (rules version 2) on sheets whose columns fill fast: several letters counted, a column
    completed at the same moment as the letter before it not counted, an active seat's letter
    and the others' next letter in one turn both counted, and the short sequence won."""
    from nochmal.engine.cells import COLUMNS

    seen = collections.Counter()
    for n in (1, 2, 3, 6):
        for columns in ("HIGJFK", "IHJG", "HIG"):
            game = with_mission(CoopGame([striped(k) for k in range(n)], 5, tableau(n, m5_colours=0)),
                                ({"kind": "sequence", "columns": columns},))
            seq = [COLUMNS.index(c) for c in columns]
            for seed in (*range(12), 18, 20, 34, 53):  # with games where both moments count a letter
                for policy in with_planner(seed, 1 if n in (1, 3) else 0):
                    o = same_game(game, seed, policy).outcome
                    seen["won"] += o["won"]
                    seen["3+ letters"] += len(o["sequence"]) >= 3
                    for k, mine, others in _moments(game, records.reference_state(game, seed, policy, PLANNER if policy == "planner" else None).history):
                        if k + 1 < len(seq) and {seq[k], seq[k + 1]} <= (mine if seq[k] in mine else others):
                            seen["same moment"] += 1
                        if k + 1 < len(seq) and seq[k] in mine and seq[k + 1] in others:
                            seen["two moments"] += 1
    assert all(seen[k] for k in ("won", "3+ letters", "same moment", "two moments")), seen


def test_the_parity_games_went_through_the_rules():
    """The games above met every end and every penalty (run after them: pytest keeps file order)."""
    if sum(COVERAGE.values()) < 850:
        pytest.skip("counts what the parity games of this file met: run them with it")
    for key in (*layout.REASONS, "removed colour", "removed number", "strike all", "strike split random",
                "strike split largest", "strike split greedy", "strike split planner", "letters 1", "won largest",
                "won greedy", "won planner", "planner removed colour", "planner removed number"):
        assert COVERAGE[key] > 0, (key, COVERAGE)


def test_rules_version_1_is_not_played_in_compiled_code():
    assert drivers.kernel_plays(CoopGame.create(3, 1)) and drivers.kernel_plays(CoopGame.create(3, 1), "greedy")
    assert not drivers.kernel_plays(CoopGame.create(3, 1, rules_version=1))


def test_the_greedy_only_with_the_heuristic_the_kernel_computes(monkeypatch):
    from nochmal.bots import coop_weights, greedy
    from nochmal.bots.heuristic import Weights

    game = CoopGame.create(2, 3)
    monkeypatch.setattr(greedy, "TEAM_ACTIVE", False)
    assert not drivers.kernel_plays(game, "greedy") and drivers.kernel_plays(game, "random")
    monkeypatch.setattr(greedy, "TEAM_ACTIVE", True)
    monkeypatch.setattr(coop_weights, "coop_weights", lambda game: Weights(flex=0.5, mission=True))
    assert not drivers.kernel_plays(game, "greedy")


def test_many_games_in_one_call_are_the_single_games():
    game = CoopGame.create(3, 5)
    rows = drivers.play_many(game, range(20), "largest")
    for seed in (0, 7, 19):
        record = records.kernel_record(game, seed, "largest")
        assert rows[seed, layout.R_TURNS] == record.outcome["turns"]
        assert rows[seed, layout.R_TEAM] == record.outcome["team_points"]
        assert layout.REASONS[rows[seed, layout.R_REASON]] == record.outcome["reason"]
    with pytest.raises(ValueError, match="seeds"):
        drivers.play_many(game, [-1])


def test_games_on_two_threads_are_the_same_games():
    game = CoopGame.create(4, 2)
    for policy in layout.POLICIES:
        k = 6 if policy == "planner" else 40
        cfg = PLANNER if policy == "planner" else None
        assert np.array_equal(drivers.play_many(game, range(k), policy, threads=2, cfg=cfg),
                              drivers.play_many(game, range(k), policy, cfg=cfg))


@pytest.mark.parametrize("policy", ["random", "greedy", "planner"])
def test_sweep_rows_from_the_kernel_are_the_engines_rows(policy):
    """The analytics row of a kernel game (read from the kernel's arrays: ``kernel_rows``) is the
    row of the same seeded engine game, field for field and in the same order (a results file's
    columns): points at the checks, failed rolls, "!" left, the removed die, the mission's share
    and what was done, the seats' scores and cells."""
    from nochmal.analytics.simulate import play_games, play_one

    cells = {"random": range(1, 7), "greedy": (1, 3, 6), "planner": (1, 4)}[policy]
    games = {"random": 6, "greedy": 3, "planner": 1}[policy]  # the planner: the analytics' (8 rollouts)
    for mission in range(1, 6):
        for players in cells:
            seeds = [mission * 1000 + players * 10 + k for k in range(games)]
            fast = play_games("coop", policy, seeds, players, mission, cells=True)
            for seed, row in zip(seeds, fast):
                ref = play_one("coop", policy, seed, players, mission, cells=True)
                assert row == ref, (policy, mission, players, seed)
                assert list(row) == list(ref), (policy, mission, players, seed)


def test_sweep_rows_of_other_sheets_and_tableaus():
    """``kernel_rows`` on sheets whose rows are named 1-7 or P-V, number fields of one sheet only,
    other failed-roll boxes and goals, stars everywhere, columns that complete fast (letters
    counted), with and without the cells: each row is the row of the
    kernel game's end rebuilt as an engine state (``end_state``), and the same with ``cells``
    off but for the cells; a seat's rows are the engine's ``game_row`` of that state."""
    from nochmal.analytics.simulate import game_row, kernel_rows

    sheets = ["standard", "coop-III", "green", one_field("coop-I", boxes=2)]
    games = [CoopGame(sheets, 2, tableau(4, goal_10=60, penalty_10_jokers=0, goal_19=60, goal_27=200)),
             CoopGame(sheets[::-1], 2, tableau(4)), CoopGame(sheets, 4, tableau(4)),
             CoopGame([all_stars("coop-II"), "coop-V", "standard"], 3, tableau(3)),
             CoopGame([striped(1), striped(3)], 5, tableau(2, goal_10=50, goal_19=50, goal_27=100))]
    for game in games:
        seeds = list(range(30))
        rows, ends = drivers.play_many(game, seeds, "greedy", ends=True)
        fast = kernel_rows("coop", "greedy", seeds, game, rows, ends, cells=True)
        bare = kernel_rows("coop", "greedy", seeds, game, rows, ends, cells=False)
        for seed, row, end, got, got_bare in zip(seeds, rows, ends, fast, bare):
            ref = game_row("coop", "greedy", seed, game, results.end_state(game, row, end), cells=True)
            assert got == ref and list(got) == list(ref), (game.mission.id, seed)
            del ref["crossed"]
            assert got_bare == ref and list(got_bare) == list(ref), (game.mission.id, seed)


def test_the_cycle_collector_is_paused_only_inside_the_block():
    """``gc_paused``: off inside the block, on again after it (also when the block raises), and
    left off after it where it was off before (a caller that paused it keeps it paused)."""
    import gc

    assert gc.isenabled()
    with results.gc_paused():
        assert not gc.isenabled()
        with results.gc_paused():  # nested: the inner block does not resume it
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError):
        with results.gc_paused():
            1 / 0
    assert gc.isenabled()
    gc.disable()
    try:
        with results.gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    states = results.end_states(CoopGame.create(3, mission=1), np.zeros((2, layout.R_SIZE), np.int64),
                                np.zeros((2, 3, layout.END_WIDTH), np.int64))
    assert len(states) == 2 and gc.isenabled()


def test_the_crossed_cells_text_of_empty_and_full_sheets():
    """The ``crossed`` column names each seat's cells as ``names`` does; a seat with no cross is
    an empty name list between its neighbours' (no name of another seat leaks into it)."""
    from nochmal.engine.cells import CELL_NAMES, names

    ends = np.zeros((3, 3, layout.END_WIDTH), np.int64)
    ends[0, 1, :layout.N_CELLS] = 1  # game 0: seat 2 crossed everything, seats 1 and 3 nothing
    ends[1, 0, [0, 17, 104]] = 1
    ends[1, 2, [5]] = 1  # game 1: seat 2 nothing; game 2: nobody anything
    got = results.crossed_texts(ends)
    want = [";".join(" ".join(names(sum(1 << i for i in range(layout.N_CELLS) if e[p, i]))) for p in range(3))
            for e in ends]
    assert got == want
    assert got[0] == ";" + " ".join(sorted(CELL_NAMES)) + ";"
    assert got[1] == "A1 C2 O7;;F1"
    assert got[2] == ";;"
    assert [results.crossed_text(e) for e in ends] == got


# --------------------------------------------------------------------------- going on from a position
def position_at(game, seed: int, turn: int, policy: str):
    """The engine game of ``policy`` from ``random.Random(seed)`` at the start of ``turn`` (its
    roll due), or None if the game ended before."""
    act = records.python_policy(policy)
    rng = random.Random(seed)
    state = game.new_state()
    while not state.is_terminal():
        if state.is_chance_node():
            if state.roll_index == turn - 1:
                return state
            state.apply(state.sample_roll(rng))
        else:
            state.apply(act(state, rng))
    return None


def same_continuation(game, state, seed: int, policy: str, seen: collections.Counter) -> None:
    """``state`` played on in the engine (a clone, ``random.Random(seed)``) and in the kernel: the
    same analytics row, the same letters and penalty; ``seen`` counts what the position held."""
    from nochmal.analytics.simulate import game_row
    from nochmal.engine.game import play

    before = state.to_json()
    ref = play(state.clone(), records.python_policy(policy), random.Random(seed))
    row, end = drivers.resume(game, state, seed, policy)
    assert state.to_json() == before  # the position is only read
    fast = results.end_state(game, row, end)
    where = (f"{policy} seats={game.n_seats} mission={game.mission.id} turn={state.roll_index + 1} "
             f"seed={seed}")
    assert game_row("coop", policy, seed, game, fast, cells=True) == \
        game_row("coop", policy, seed, game, ref, cells=True), where
    letters = lambda st: [tuple(c) for c in st.extra.get("sequence", {}).get("counted", [])]  # noqa: E731
    assert letters(fast) == letters(ref), where
    assert [s.columns for s in fast.seats] == [s.columns for s in ref.seats], where
    pen = ref.extra.get("checks", {}).get("10", {}).get("penalty")
    if pen is None:
        kind = layout.PEN_NONE
    else:
        per = pen.get("per_seat")
        kind = layout.PEN_ALL if per == "all" else layout.PEN_ZERO if per is None else layout.PEN_SPLIT
        assert row[layout.R_AMT10] == pen["jokers"], where
    assert row[layout.R_PEN10] == kind, where
    if kind == layout.PEN_SPLIT:
        assert list(row[layout.R_STRIKE:layout.R_STRIKE + game.n_seats]) == pen["per_seat"], where
    checks = state.extra.get("checks", {})
    seen["positions"] += 1
    seen["after 10"] += "10" in checks
    seen["after 19"] += "19" in checks
    seen["die removed"] += state.extra.get("removed_die") is not None
    seen["penalty"] += "penalty" in checks.get("10", {})
    seen["letters"] += bool(state.extra.get("sequence", {}).get("counted"))
    seen["won"] += bool(ref.extra.get("won"))


@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("mission", [1, 2, 3, 4, 5])
def test_the_kernel_goes_on_from_an_engine_position(mission, policy):
    """An engine game stopped at the start of a turn (after the checks of turn 10 and 19, with a
    "!" penalty, a die removed, letters counted) and played on both ways with the same new
    generator ends the same: 4 seat counts x 3 positions (turn 11, 20 and a random one) x 5 seeds
    (greedy) or 10 (random), the positions of games that ended earlier left out (about 50-70)."""
    seen = collections.Counter()
    pick = random.Random(mission)
    for players in (1, 2, 4, 6):
        game = CoopGame.create(players, mission)
        for k in range(5 if policy == "greedy" else 10):
            seed = 7000 + 100 * mission + 10 * players + k
            for turn in (11, 20, pick.randint(2, 26)):
                state = position_at(game, seed, turn, policy)
                if state is not None:
                    same_continuation(game, state, seed + 12345, policy, seen)
    assert seen["positions"] >= 45 and seen["after 19"] and seen["die removed"] and seen["penalty"], seen
    assert seen["letters"] >= (10 if mission == 5 and policy == "greedy" else 0), seen


def test_the_kernel_goes_on_with_letters_counted():
    """M5 on sheets whose columns fill fast: positions with letters counted (by different seats),
    die removed or not, played on both ways; every policy."""
    seen = collections.Counter()
    for n in (1, 2, 4, 6):
        game = with_mission(CoopGame([striped(k) for k in range(n)], 5, tableau(n, m5_colours=0)),
                            ({"kind": "sequence", "columns": "HIGJFKEL"},))
        for seed in range(4):
            for turn in (5, 8, 12, 16, 21):
                for policy in SIMPLE:
                    state = position_at(game, seed, turn, policy)
                    if state is not None:
                        same_continuation(game, state, 99 + seed, policy, seen)
    assert seen["letters"] >= 10 and seen["won"], seen


def test_going_on_from_the_first_turn_is_the_whole_game():
    """resume from a new game's position is play_many's game (the same row, events included), and
    many seeds from one position are the single ones."""
    game = CoopGame.create(3, 5)
    for policy in SIMPLE:
        rows, ends = drivers.play_many(game, range(5), policy, ends=True)
        for seed in range(5):
            row, end = drivers.resume(game, game.new_state(), seed, policy)
            assert np.array_equal(row, rows[seed]) and np.array_equal(end, ends[seed]), (policy, seed)
    state = position_at(game, 3, 15, "greedy")
    rows, ends = drivers.resume_many(game, state, range(10, 16))
    for i, seed in enumerate(range(10, 16)):
        row, end = drivers.resume(game, state, seed)
        assert np.array_equal(row, rows[i]) and np.array_equal(end, ends[i])
    with pytest.raises(ValueError, match="start of a turn"):
        state.apply(state.sample_roll(random.Random(0)))
        drivers.resume(game, state, 0)


def test_the_planners_compiled_rollouts_are_its_python_rollouts():
    """The co-op planner's rollouts in compiled code (the candidate and the rest of its turn in the
    engine, then the kernel) give each candidate the value that the Python rollout gives it from the
    same seed, to the last bit."""
    from nochmal.bots.greedy import _weights_for, greedy_policy, team_choices
    from nochmal.bots.planner import _compiled_rollouts, rollout
    from nochmal.engine.moves import PASS

    checked = 0
    for seats, mission, stop in ((1, 2, 5), (3, 5, 9), (4, 4, 11), (6, 1, 18), (2, 3, 20)):
        st = CoopGame.create(seats, mission=mission).new_state()
        r = random.Random(seats * 10 + mission)
        while not st.is_terminal() and (st.roll_index < stop or not st.is_chance_node()):
            st.apply(st.sample_roll(r) if st.is_chance_node() else greedy_policy(st, r))
        assert not st.is_terminal()
        st.apply(st.sample_roll(r))
        seat = st.current_player()
        w, bias = _weights_for(st)
        cands = [a for _, a in team_choices(st, w, bias)][:3] + [PASS]
        seeds = [101, 202, 303]
        for a, values in zip(cands, _compiled_rollouts(st, cands, seat, seeds)):
            for seed, value in zip(seeds, values):
                ref = st.clone()
                ref.history = []
                ref.apply(a, seat)
                assert value == rollout(ref, random.Random(seed), seat), (seats, mission, a, seed)
                checked += 1
    assert checked >= 50


def test_the_perfect_dice_bound_plays_out_with_the_games_own_dice():
    """The bound (nochmal.bots.bound) values a candidate by the game played on with the dice the
    game's generator will roll: the same value as a Python rollout with a copy of that generator;
    the generator itself is not moved, and the bound is no bot a seat can be given."""
    from nochmal.bots import bound
    from nochmal.bots.greedy import greedy_policy
    from nochmal.bots.planner import rollout
    from nochmal.bots.registry import POLICY_NAMES, get_policy

    assert "bound" not in POLICY_NAMES and get_policy("bound") is bound.perfect_dice_policy
    checked = 0
    for seats, mission in ((1, 1), (3, 5), (6, 2)):
        st = CoopGame.create(seats, mission=mission).new_state()
        rng = random.Random(seats * 7 + mission)
        while st.roll_index < 6 or not st.is_chance_node():
            st.apply(st.sample_roll(rng) if st.is_chance_node() else greedy_policy(st, rng))
        st.apply(st.sample_roll(rng))
        seat = st.current_player()
        before = rng.getstate()
        choice = bound.perfect_dice_policy(st, rng)
        assert rng.getstate() == before and choice in bound._candidates(st, seat)
        for a in bound._candidates(st, seat)[:3]:
            ref = st.clone()
            ref.history = []
            ref.apply(a, seat)
            copy = random.Random()
            copy.setstate(before)
            assert bound._value_with_the_games_dice(st, a, seat, rng) == rollout(ref, copy, seat), (seats, a)
            checked += 1
    assert checked == 9


def test_processes_share_the_compile_lock():
    """While one process compiles the co-op kernel (or loads it), another that needs it waits for
    the lock instead of compiling it a second time; once it is free, the other gets it."""
    import subprocess
    import sys

    probe = ("import fcntl, sys; fh = open(sys.argv[1], 'a')\n"
             "try:\n    fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB); print('free')\n"
             "except BlockingIOError:\n    print('held')\n")
    path = str(drivers.compile_lock_path())
    with drivers._compile_lock():
        held = subprocess.run([sys.executable, "-c", probe, path], capture_output=True, text=True, timeout=60)
    free = subprocess.run([sys.executable, "-c", probe, path], capture_output=True, text=True, timeout=60)
    assert (held.stdout.strip(), free.stdout.strip()) == ("held", "free"), (held.stderr, free.stderr)
