"""The rules of *Noch mal!* (RULES.md): pure, imports nothing heavier than pydantic.

The public contract for users of the engine as a library::

    from nochmal.engine import CoopGame, BaseGame, SoloGame, Roll, Cross, PASS, IllegalMoveError

    game = CoopGame.create(players=3, mission=1)
    state = game.new_state()
    state.apply(Roll.of((0, 1, 2), (1, 2, 3)))       # a chance action: the roll
    state.legal_actions()                            # sorted; never empty until the game is over

Importing the package registers every variant (base, solo, co-op), so a saved game's config
rebuilds its game (:func:`game_from_config`) without the contract importing a variant back.
"""

from nochmal.engine.coop import CoopGame, RemoveDie, StrikeJokers
from nochmal.engine.dice import Roll
from nochmal.engine.errors import DataFileError, IllegalMoveError, InvalidInputError, NochmalError
from nochmal.engine.game import (CHANCE, TEAM, TERMINAL, BaseGame, Game, Outcome, SoloGame, State, action_to_json,
                                 game_from_config, parse_action, play, replay, variant)
from nochmal.engine.moves import PASS, Cross, Pass
from nochmal.engine.version import RULES_VERSION, SUPPORTED_RULES_VERSIONS

__all__ = [
    "BaseGame", "CHANCE", "CoopGame", "Cross", "DataFileError", "Game", "IllegalMoveError", "InvalidInputError",
    "NochmalError", "Outcome", "PASS", "Pass", "RULES_VERSION", "RemoveDie", "Roll", "SUPPORTED_RULES_VERSIONS",
    "SoloGame", "State", "StrikeJokers", "TEAM", "TERMINAL", "action_to_json", "game_from_config", "parse_action",
    "play", "replay", "variant",
]
