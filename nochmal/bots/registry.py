"""The bots by name: every policy a seat or a simulation can be played by, what the app calls each
one, and :func:`get_policy`. A client's module (the CLI, the app, the analytics, the store) reads
it; no bot imports it, so the bots import each other (and :func:`nochmal.bots.policies.random_policy`)
without a cycle."""

from __future__ import annotations

from nochmal.bots.policies import random_policy
from nochmal.data.i18n import N_, _
from nochmal.engine.errors import InvalidInputError


def _policies() -> dict:
    from nochmal.bots.bound import perfect_dice_policy  # loaded when first asked for: the bots need numpy
    from nochmal.bots.greedy import greedy_policy
    from nochmal.bots.planner import planner_policy

    return {"random": random_policy, "greedy": greedy_policy, "planner": planner_policy, "bound": perfect_dice_policy}


#: the bots a seat can be played by
POLICY_NAMES = ("random", "greedy", "planner")
#: and for simulations only: the perfect-dice bound (it reads the game's dice before they are rolled)
ANALYTICS_POLICY_NAMES = (*POLICY_NAMES, "bound")
#: the policies that are a limit, not a bot a team could be (the analytics compare the bots with them)
LIMIT_POLICIES = frozenset({"bound"})
#: what the app calls each policy: one name each, everywhere (a seat's player, the history, the
#: analytics' legends and choices); translated where shown (:func:`policy_name`)
POLICY_WORDS = {"random": N_("Random bot"), "greedy": N_("Greedy bot"), "planner": N_("Planner bot"),
                "bound": N_("Perfect-dice bound")}


def policy_name(name: str) -> str:
    """A policy's name in the language in force ("greedy" -> "Greedy bot"); an unknown name (from
    a results file) as it is."""
    return _(POLICY_WORDS[name]) if name in POLICY_WORDS else name


def get_policy(name: str):
    try:
        return _policies()[name]
    except KeyError:
        raise InvalidInputError(f"unknown policy {name!r}: {', '.join(ANALYTICS_POLICY_NAMES)}") from None
