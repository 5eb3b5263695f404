"""A seat's action by the kernel's policy number (``POLICY_*``): random, the largest cross, or the
co-op greedy. Python twins: :func:`nochmal.bots.policies.random_policy`,
:func:`nochmal.bots.kernel.records.largest_policy`, :func:`nochmal.bots.greedy.greedy_policy`.
"""

from __future__ import annotations

from .cache import njit
from .greedy import _best, _refresh, _team_choices, _view
from .moves import _legal, _scan
from .mt import randbelow


@njit(_nrt=False)
def _decide(t, g, V, st, h, p, cf, nc, nf, nn, policy, mt, team):
    """Seat ``p``'s action: (cell set or -1 for a failed roll, colour die, number die, colour).
    ``team``: the active seat chooses for the team (the greedy's team choice)."""
    if policy == 0:  # POLICY_RANDOM: acts[rng.randrange(len(acts))], the failed roll first
        n = _scan(t, st, p, cf, nc, nf, nn, 0, 0, V.pairs)[0]
        idx = randbelow(mt, n + 1)
        if idx == 0:
            return -1, -1, -1, -1
        _, s, cdie, ndie, colour = _scan(t, st, p, cf, nc, nf, nn, 1, idx - 1, V.pairs)
        return s, cdie, ndie, colour
    if policy == 1:  # POLICY_LARGEST
        _, s, cdie, ndie, colour = _scan(t, st, p, cf, nc, nf, nn, 2, 0, V.pairs)
        return s, cdie, ndie, colour
    n = t.jokers.shape[0]
    _refresh(t, g, V, st, n)
    if team:
        cand, cval = V.cand, V.cval
        _team_choices(t, g, V, st, h, n, p, cf, nc, nf, nn, cand, cval)
        return cand[0, 0], cand[0, 1], cand[0, 2], cand[0, 3]
    _legal(t, st, p)
    if V.dirty[p]:
        _view(t, g, V, st, p, n)
    _, s, cdie, ndie, colour = _best(h, p, cf, nc, nf, nn)
    return s, cdie, ndie, colour
