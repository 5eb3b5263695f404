"""The bots of *twenty one* by name, for simulations and the command line: ``optimum`` (the exactly
optimal practice player, :mod:`.twentyone_optimum`), ``race`` (the optimum with the term for the
race to row 5, :mod:`.twentyone_race`) and ``greedy`` (:mod:`.twentyone_greedy`)."""

from __future__ import annotations

from pathlib import Path

from nochmal.bots.twentyone_greedy import greedy_policy
from nochmal.bots.twentyone_optimum import OptimalPractice
from nochmal.bots.twentyone_race import RaceBot

TWENTYONE_POLICIES = ("optimum", "race", "greedy")


def twentyone_policy(name: object, directory: Path | None = None):
    """A new ``policy(state, rng)`` of the bot ``name`` (its tables kept for its own games)."""
    if name == "optimum":
        return OptimalPractice(directory)
    if name == "race":
        return RaceBot(directory=directory)
    if name == "greedy":
        return greedy_policy
    raise ValueError(f"unknown twenty one bot {name!r}: one of {', '.join(TWENTYONE_POLICIES)}")
