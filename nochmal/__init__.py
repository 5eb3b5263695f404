"""nochmal — rules engine for the dice game *Noch mal!* (base, solo and co-operative variant).

The engine is pure: it never imports streamlit. The app (``nochmal.ui``), the CLI, bots,
simulations and tests are clients of it.
"""

#: Bumped whenever a rule interpretation changes; stored with every saved game.
RULES_VERSION = 1

__all__ = ["RULES_VERSION"]
