"""The rules version of *twenty one*, apart from *Noch mal!*'s (``nochmal.engine.version``): the two
games change their readings independently. Bumped whenever a DECISION of
:mod:`nochmal.engine.twentyone.decisions` changes; stored with every saved game (its config)."""

#: New games play this version.
RULES_VERSION = 1

#: The versions this program can replay.
SUPPORTED_RULES_VERSIONS = (1,)
