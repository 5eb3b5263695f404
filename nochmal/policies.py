"""Policies: ``policy(state, rng) -> action`` for the player to move (seeded, deterministic)."""

from __future__ import annotations

import random

from .errors import InvalidInputError


def random_policy(state, rng: random.Random):
    """Uniform over the legal actions (pass / failed roll included)."""
    acts = state.legal_actions()
    return acts[rng.randrange(len(acts))]


POLICIES = {"random": random_policy}


def get_policy(name: str):
    try:
        return POLICIES[name]
    except KeyError:
        raise InvalidInputError(f"unknown policy {name!r}: {', '.join(sorted(POLICIES))}") from None
