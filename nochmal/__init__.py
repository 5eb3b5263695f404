"""nochmal — rules engine for the dice game *Noch mal!* (base, solo and co-operative variant).

The engine is pure: it never imports streamlit. The app (``nochmal.ui``), the CLI, bots,
simulations and tests are clients of it.
"""

#: Bumped whenever a rule interpretation changes; stored with every saved game. New games play
#: this version; a game saved under an older supported version replays under its own version
#: (the decisions that differ are keyed by version in :mod:`nochmal.decisions`).
RULES_VERSION = 2

#: The versions this program can replay: 1 (three end-of-game rules read more loosely) and 2.
SUPPORTED_RULES_VERSIONS = (1, 2)

__all__ = ["RULES_VERSION", "SUPPORTED_RULES_VERSIONS"]
