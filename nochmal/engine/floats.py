"""Adding floats the way the compiled kernels add them.

DECISION (kept here, once): every sum of floats that a compiled kernel repeats (a bot's values,
a mission's share, a planner's rollout means) is added one value at a time, left to right,
starting from 0.0. Python 3.12 made the built-in ``sum`` of floats compensate its rounding
(Neumaier), so under 3.12 and later ``sum`` can differ from a plain loop in the last bit; the
kernels add in a plain loop, and a last-bit difference breaks a tie the other way. With this
function the Python bots and the kernels play the same game, to the bit, on 3.11, 3.12 and 3.13.

Before 3.12 the built-in ``sum`` of floats *is* that loop (a C double, added left to right), and
about four times faster than the loop written in Python: there :func:`ordered_sum` is ``sum`` from 0.0.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

if sys.version_info < (3, 12):
    def ordered_sum(values: Iterable[float]) -> float:
        """``values`` added one at a time, left to right, from 0.0 (here the built-in ``sum``)."""
        return sum(values, 0.0)
else:
    def ordered_sum(values: Iterable[float]) -> float:
        """``values`` added one at a time, left to right, from 0.0 (not the built-in ``sum``)."""
        total = 0.0
        for v in values:
            total += v
        return total
