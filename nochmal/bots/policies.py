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
    from nochmal.bots.planner import planner_policy

    return {"random": random_policy, "greedy": greedy_policy, "planner": planner_policy}


POLICY_NAMES = ("random", "greedy", "planner")


def get_policy(name: str):
    try:
        return _policies()[name]
    except KeyError:
        raise InvalidInputError(f"unknown policy {name!r}: {', '.join(POLICY_NAMES)}") from None
