"""Policies: ``policy(state, rng) -> action`` for the player to move (seeded, deterministic). The
random bot lives here; the registry of every bot by name is :mod:`nochmal.bots.registry` (which no
bot imports, so the bots may import each other without a cycle)."""

from __future__ import annotations

import random


def random_policy(state, rng: random.Random):
    """Uniform over the legal actions (pass / failed roll included)."""
    acts = state.legal_actions()
    return acts[rng.randrange(len(acts))]
