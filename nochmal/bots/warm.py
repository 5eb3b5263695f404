"""Compile every numba kernel (or load it from numba's cache): about a minute on a fresh
machine, a second after. ``python -m nochmal.bots.warm`` runs in the background where the time
would otherwise be spent in the foreground: while ``nochmal serve`` starts the app, and beside the
browser tests of a test session (tests/conftest.py)."""

from __future__ import annotations

import random


def warm() -> None:
    """One short call of each compiled entry point: the co-op game first (:mod:`nochmal.bots.kernel.drivers`,
    the longest to compile and the one most tests wait for), then the solo and base greedy and
    rollouts and the solo table policy's rollouts (:mod:`nochmal.bots.kernel.solo`)."""
    from nochmal.analytics.simulate import make_game
    from nochmal.bots.kernel import drivers
    from nochmal.bots.kernel.solo_driver import solo_sim

    drivers.warm()
    sim = solo_sim(make_game("solo"))
    start = (0, sim.sheet.jokers)
    sim.score(*start)
    sim.choose(*start, [0], [1])
    sim.rollout(*start, 0, random.Random(0))
    if sim.values is not None:
        sim.play_rollouts(*sim.positions([start]), sim.draw(random.Random(0), 2))


if __name__ == "__main__":  # pragma: no cover - run as a background process
    warm()
