"""The perfect-dice bound: a planner that knows the rest of the game's dice (issue 21).

At each of the team's choices (the active seat's choice for the team, the penalty decisions) it
plays every candidate out once, with the very dice the game will roll (the game's generator,
copied where it stands), greedy play for every seat after it, and keeps the candidate whose game
ends best (:func:`nochmal.bots.coop_weights.coop_rollout_value`); the passive seats play greedy.
No team can see the dice coming, so its win rate is a limit for a greedy team that could: how far
the bots are from it says how much better choices alone could still win.

It is an estimate of that limit, not a proof: the rollouts after each choice are greedy (a
clairvoyant search over every later choice would do better still), and where a choice changes
whether a die leaves the game after turn 19 (C-GOAL-19), the dice after it are drawn from the same
stream in a different order than the rollout saw.

In solo mode (R-SOLO-*) the bound is the solo planner's search with the game's own dice in place of
its rollouts' random ones: every legal move is played out once, with the rolls the game has left and
the planner's rollout policy (the fitted tables where the sheet has them), and the best end wins.
The competitive base game has no bound: its players play against each other, not against the dice
(:func:`bound_plays`).
"""

from __future__ import annotations

import random

from nochmal.bots.kernel.solo_driver import solo_sim
from nochmal.bots.coop_weights import coop_rollout_value
from nochmal.bots.greedy import greedy_policy, team_choosing, team_decision
from nochmal.bots.planner import rest_of_turn, seat_candidates, team_candidates

#: candidates weighed at each team choice (greedy's own first)
CANDIDATES = 8
#: in solo mode: every legal move (the planner's candidate order, greedy's own first)
SOLO_CANDIDATES = 10**6


def bound_plays(game) -> bool:
    """Whether the bound is defined for ``game``: a co-op game (a team against its mission) or a
    solo game (one player against the dice), not the competitive base game."""
    return game.has_mission or solo_sim(game) is not None


def _candidates(state, seat: int) -> list:
    return team_candidates(state, seat, CANDIDATES, random.Random(0))


def _value_with_the_games_dice(state, action, seat: int, rng: random.Random) -> float:
    from nochmal.bots.kernel import drivers, results

    st = rest_of_turn(state, action, seat)
    if st.is_terminal():
        return coop_rollout_value(st)
    row, end = drivers.resume_rng(st.game, st, rng)
    return coop_rollout_value(results.end_state(st.game, row, end))


def future_dice(state, rng: random.Random):
    """The rolls a solo game has left after the current one, as :func:`nochmal.engine.game.play`
    will draw them from ``rng`` (:meth:`nochmal.bots.kernel.solo_driver.SoloSim.draw` from a copy: ``rng``
    is not moved): rows of (colour, colour, number, number)."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return solo_sim(state.game).draw(copy, state.game.n_rolls - state.roll_index - 1)


def solo_values_with_the_games_dice(state, rng: random.Random) -> tuple[list, list[int]]:
    """Every legal move of the solo player in ``state`` and the score each one's game ends with,
    played on by the solo planner's rollout policy with the game's own dice (:func:`future_dice`)."""
    sim = solo_sim(state.game)
    cands = seat_candidates(state, 0, SOLO_CANDIDATES, random.Random(0))
    boards, jokers, _left = sim.candidate_starts(state, 0, cands)
    return cands, sim.play_rollouts(boards, jokers, future_dice(state, rng)).tolist()


def _best(cands: list, values: list):
    """The candidate with the best value; on a tie the first (greedy's own comes first)."""
    return cands[max(range(len(cands)), key=lambda j: (values[j], -j))]


def perfect_dice_policy(state, rng: random.Random):
    """The bound's choice in ``state``; ``rng`` is the game's own generator (as
    :func:`nochmal.engine.game.play` passes it), read but not advanced."""
    from nochmal.bots.kernel import drivers

    seat = state.current_player()
    game = state.game
    if solo_sim(game) is not None and seat == 0 and state.phase == "active":
        return _best(*solo_values_with_the_games_dice(state, rng))
    choosing = seat < 0 or team_choosing(state, seat) or (game.n_seats == 1 and state.phase == "active")
    if not game.has_mission or not choosing or not drivers.kernel_plays(game, "greedy"):
        return team_decision(state, rng) if seat < 0 else greedy_policy(state, rng)
    cands = _candidates(state, seat)
    if len(cands) == 1:
        return cands[0]
    return _best(cands, [_value_with_the_games_dice(state, a, seat, rng) for a in cands])
