"""The bots of *twenty one* by name, for simulations, the command line and the store's seats:
``random`` (a legal action, uniformly), ``greedy`` (:mod:`.twentyone_greedy`), ``optimum`` (the
exactly optimal practice player, :mod:`.twentyone_optimum`) and ``race`` (the optimum with the
term for the race to row 5, :mod:`.twentyone_race`). The names are data: importing this module
loads no bot (the optimum and the race bot bring numpy and their tables on first use)."""

from __future__ import annotations

from pathlib import Path

from nochmal.engine.errors import InvalidInputError

TWENTYONE_POLICIES = ("random", "greedy", "optimum", "race")


def twentyone_policy(name: object, directory: Path | None = None):
    """A new ``policy(state, rng)`` of the bot ``name`` (its tables kept for its own games); an
    unknown name raises InvalidInputError naming the choices."""
    if name == "random":
        from nochmal.bots.policies import random_policy

        return random_policy
    if name == "greedy":
        from nochmal.bots.twentyone_greedy import greedy_policy

        return greedy_policy
    if name == "optimum":
        from nochmal.bots.twentyone_optimum import OptimalPractice

        return OptimalPractice(directory)
    if name == "race":
        from nochmal.bots.twentyone_race import RaceBot

        return RaceBot(directory=directory)
    raise InvalidInputError(f"unknown twenty one bot {str(name)[:40]!r}: one of {', '.join(TWENTYONE_POLICIES)}")
