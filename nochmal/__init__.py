"""nochmal — the digital mission leader for the co-operative variant of the dice game *Noch mal!*
(and the base game and solo mode), in wings:

* :mod:`nochmal.engine` — the rules (pure: imports nothing heavier than pydantic),
* :mod:`nochmal.data` — user sheets and tableaus, the stand-in generator, JSON Schemas,
* :mod:`nochmal.store` — the event log, games being played, the SQLite store, game codes,
* :mod:`nochmal.bots` — greedy and planner policies, the team plan, the advisor, compiled kernels,
* :mod:`nochmal.analytics` — simulations, sweeps, calibration, figures, benchmarks,
* :mod:`nochmal.ui` — the Streamlit app (the only wing that imports streamlit),
* :mod:`nochmal.cli` — the command line.
"""

from nochmal.engine.version import RULES_VERSION, SUPPORTED_RULES_VERSIONS

__all__ = ["RULES_VERSION", "SUPPORTED_RULES_VERSIONS"]
