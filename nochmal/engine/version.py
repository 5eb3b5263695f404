"""The rules version: bumped whenever a rule interpretation changes; stored with every saved game."""

#: New games play this version; a game saved under an older supported version replays under its
#: own version (the decisions that differ are keyed by version in :mod:`nochmal.engine.decisions`).
RULES_VERSION = 2

#: The versions this program can replay: 1 (three end-of-game rules read more loosely) and 2.
SUPPORTED_RULES_VERSIONS = (1, 2)
