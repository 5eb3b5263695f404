"""The perfect-dice bound in solo mode (issue 21; nochmal.bots.bound): the solo planner's search
with the game's own dice in place of its rollouts' random ones. It reads the rolls the game will
make without moving the game's generator, values every legal move by the rollout policy's end with
exactly those rolls, and so ends far above the bots that cannot see the dice (R-SOLO-*)."""

from __future__ import annotations

import random
import statistics

from nochmal.analytics.simulate import make_game, play_one
from nochmal.bots import bound
from nochmal.bots.kernel.solo_driver import solo_sim
from nochmal.engine.dice import Roll
from nochmal.engine.game import play


def test_the_solo_bound_reads_the_dice_the_game_then_rolls():
    """At every decision, the rolls :func:`future_dice` reads are the rolls the game makes next,
    and reading them leaves the generator where it was (so the bound's game is the game's own)."""
    game = make_game("solo", None, None, None, None)
    seen = []

    def watching(state, rng):
        before = rng.getstate()
        seen.append((state.roll_index, bound.future_dice(state, rng)))
        action = bound.perfect_dice_policy(state, rng)
        assert rng.getstate() == before
        return action

    st = play(game.new_state(), watching, random.Random(11))
    rolls = [a for a in st.history if isinstance(a, Roll)]
    assert len(rolls) == game.n_rolls == 30 and len(seen) == 30
    for index, dice in seen:
        after = rolls[index + 1:]
        assert dice.shape == (len(after), 4)
        assert [Roll.of(d[:2], d[2:]) for d in dice.tolist()] == after, index


def test_the_solo_bound_chooses_the_move_whose_game_ends_best_with_those_dice():
    """Each legal move is valued by the rollout policy's final score with the game's rolls (the
    same as playing it on by hand with :meth:`SoloSim.play_rollouts`); the bound picks a best one."""
    game = make_game("solo", None, None, None, None)
    sim = solo_sim(game)
    st, rng = game.new_state(), random.Random(5)
    checked = 0
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply(st.sample_roll(rng))
            continue
        cands, values = bound.solo_values_with_the_games_dice(st, rng)
        assert set(cands) == set(st.legal_actions())
        choice = bound.perfect_dice_policy(st, rng)
        assert values[cands.index(choice)] == max(values)
        if st.roll_index % 10 == 3:  # a few by hand: one candidate played on alone with the same rolls
            j = len(cands) // 2
            boards, jokers, _ = sim.candidate_starts(st, 0, [cands[j]])
            assert sim.play_rollouts(boards, jokers, bound.future_dice(st, rng)).tolist() == [values[j]]
            checked += 1
        st.apply(choice, 0)
    assert checked == 3


def test_the_solo_bound_ends_far_above_the_bots_on_the_same_dice():
    """Knowing the dice is worth many points: on the same seeds the bound's mean is far above
    greedy's (about 31.5 against 14 over 1,000 games; docs/bots.md)."""
    seeds = range(12)
    score = {p: [play_one("solo", p, s)["best_score"] for s in seeds] for p in ("bound", "greedy")}
    assert statistics.mean(score["bound"]) > statistics.mean(score["greedy"]) + 8


def test_the_bound_is_defined_for_coop_and_solo_not_the_base_game():
    assert bound.bound_plays(make_game("solo", None, None, None, None))
    assert bound.bound_plays(make_game("coop", 3, 2, None, None))
    assert not bound.bound_plays(make_game("base", 3, None, None, None))
