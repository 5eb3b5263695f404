"""Policies: ``policy(state, rng) -> action`` for the player to move (seeded, deterministic)."""

from __future__ import annotations

import random

from nochmal.engine.errors import InvalidInputError


def random_policy(state, rng: random.Random):
    """Uniform over the legal actions (pass / failed roll included)."""
    acts = state.legal_actions()
    return acts[rng.randrange(len(acts))]


def _policies() -> dict:
    from nochmal.bots.greedy import greedy_policy  # loaded when first asked for: the bots need numpy
    from nochmal.bots.bound import perfect_dice_policy
    from nochmal.bots.planner import planner_policy

    return {"random": random_policy, "greedy": greedy_policy, "planner": planner_policy, "bound": perfect_dice_policy}


#: the bots a seat can be played by
POLICY_NAMES = ("random", "greedy", "planner")
#: and for simulations only: the perfect-dice bound (it reads the game's dice before they are rolled)
ANALYTICS_POLICY_NAMES = (*POLICY_NAMES, "bound")
#: the policies that are a limit, not a bot a team could be (the analytics compare the bots with them)
LIMIT_POLICIES = frozenset({"bound"})


def get_policy(name: str):
    try:
        return _policies()[name]
    except KeyError:
        raise InvalidInputError(f"unknown policy {name!r}: {', '.join(ANALYTICS_POLICY_NAMES)}") from None
