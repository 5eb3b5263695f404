"""Compile every numba kernel (or load it from numba's cache): about a minute on a fresh
machine, a second after. ``python -m nochmal.bots.warm`` runs in the background where the time
would otherwise be spent in the foreground: while ``nochmal serve`` starts the app, and beside the
browser tests of a test session (tests/conftest.py)."""

from __future__ import annotations

import random


def warm() -> None:
    """One short call of each compiled entry point: the solo and base greedy and rollouts, the
    solo table policy's rollouts (:mod:`nochmal.bots.kernels`) and the co-op game
    (:mod:`nochmal.bots.coop_kernel`)."""
    from nochmal.analytics.simulate import make_game
    from nochmal.bots import coop_kernel
    from nochmal.bots.compiled import solo_sim

    sim = solo_sim(make_game("solo"))
    start = (0, sim.sheet.jokers)
    sim.score(*start)
    sim.choose(*start, [0], [1])
    sim.rollout(*start, 0, random.Random(0))
    if sim.values is not None:
        sim.play_rollouts(*sim.positions([start]), sim.draw(random.Random(0), 2))
        sim.choose_values(*start, (0, 0), (1, 1), 0, sim.values)
    coop_kernel.warm()


if __name__ == "__main__":  # pragma: no cover - run as a background process
    warm()
