"""The one registry of modes that the command line and the app read: each variant the engine
registers (:func:`nochmal.engine.game.variant`), with its seat range and default player count
(the engine's class flags) and what players call it (marked with ``N_``, translated where it
is shown). No client keeps a table of its own keyed by mode names, nor compares a mode's name:
it asks this registry or the game's traits (``tests/test_architecture.py`` checks it).

The engine stays pure (it imports nothing of ``nochmal.data``), so the words live here, beside
it, and a test checks that every variant the engine registers has its entry."""

from __future__ import annotations

from dataclasses import dataclass

from nochmal.data.i18n import N_
from nochmal.engine import Game, variant
from nochmal.engine.errors import InvalidInputError


@dataclass(frozen=True)
class Mode:
    """A variant as its clients name it."""

    #: the engine's name of the variant (``Game.mode``, ``--mode``, a saved game's config)
    name: str
    #: the variant in a sentence and among a game's facts ("co-op")
    word: str
    #: at the start of a game's default title ("Co-op, 3 players")
    title: str
    #: the Start page's choice, with what sets it apart ("Co-op (mission)")
    choice: str
    #: why the player count is fixed, where it is (the CLI's message for a wrong ``--players``)
    players_note: str | None = None

    @property
    def rules(self) -> type[Game]:
        """The engine's class of the variant: its rules, flags and traits."""
        return variant(self.name)

    @property
    def min_seats(self) -> int:
        return self.rules.min_seats

    @property
    def max_seats(self) -> int:
        return self.rules.max_seats

    @property
    def default_players(self) -> int:
        """Players (and so sheets) when a caller names none."""
        return self.rules.default_players


#: Every mode, in the engine's order (the CLI's ``--mode`` choices).
MODES: dict[str, Mode] = {m.name: m for m in (
    Mode("base", N_("base game"), N_("Base game"), N_("Base game (2–6, competitive)")),
    Mode("solo", N_("solo"), N_("Solo"), N_("Solo (30 rolls)"),
         players_note="solo mode has exactly 1 player, R-SOLO-DICE"),
    Mode("coop", N_("co-op"), N_("Co-op"), N_("Co-op (mission)")),
)}
#: The mode the app offers first (a new game on the Start page).
DEFAULT_MODE = "coop"


def mode(name: object) -> Mode:
    """The registry's entry of the mode ``name``; an unknown name raises InvalidInputError."""
    if name not in MODES:
        raise InvalidInputError(f"unknown mode {name!r}: {', '.join(MODES)}")
    return MODES[name]


def app_order() -> list[str]:
    """The modes as the app offers them: the default first, then the others in registry order."""
    return [DEFAULT_MODE] + [name for name in MODES if name != DEFAULT_MODE]


def players_help() -> str:
    """The player counts of the modes that let one choose ("base 2-6, coop 1-6")."""
    return ", ".join(f"{m.name} {m.min_seats}-{m.max_seats}" for m in MODES.values() if m.min_seats != m.max_seats)
