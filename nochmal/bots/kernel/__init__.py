"""The bots in compiled code (numba): an unchecked fast path, named as such, that trusts its input
and plays exactly what the Python bots on the Python engine play — the same dice, the same actions
in the same order, the same outcome, the same floating-point operations in the same order so that
even ties break the same way. Tests compare them action by action (``tests/test_coop_kernel.py``,
``tests/test_bots.py``).

Each module mirrors its Python twin, named in its docstring:

========================  ==========================================================================
``mt``                    CPython's ``random.Random`` (MT19937), so a kernel game and an engine game
                          with the same integer seed roll the same dice
``layout``                the policy numbers, event and result rows, the tables of a game and the
                          arrays of a position (the engine's ``State``, the heuristic's ``SeatView``)
``moves``                 :mod:`nochmal.engine.moves`: the one dice walk (:func:`~.moves.dice_pairs`),
                          the legal crosses, crossing
``missions``              :mod:`nochmal.engine.missions`
``coop``                  :mod:`nochmal.engine.coop` and :func:`nochmal.engine.game.play`: the co-op
                          turns, checks and end under rules version 2
``greedy``                :mod:`nochmal.bots.greedy`, :mod:`~nochmal.bots.heuristic`,
                          :mod:`~nochmal.bots.coop_weights` (the co-op greedy)
``policies``              :mod:`nochmal.bots.policies`: the action by policy number
``planner``               :mod:`nochmal.bots.planner` (the co-op planner's compiled rollouts)
``drivers``               the entry points: whole co-op games from seeds or from an engine position
``results``, ``records``  a kernel game read as the engine's; parity records of both sides
``solo``                  greedy's decision in solo and base games, whole solo games, the solo table
                          policy (:func:`nochmal.bots.greedy.reference_greedy`,
                          :mod:`nochmal.bots.solo_values`)
``solo_driver``           the solo and base kernels' interfaces (:class:`~.solo_driver.SoloSim`,
                          :class:`~.solo_driver.GreedyKernel`)
``cache``                 where the compiled code is kept (below)
========================  ==========================================================================

Only the modules a caller needs load: numba (~0.3 s to import) loads with the first compiled path
used, not with this package.

**A cache that cannot go stale.** Every kernel is compiled with :func:`nochmal.bots.kernel.cache.njit`
(``numba.njit(cache=True)``) into a numba cache folder named after a hash of the sources of this
package and of the engine (:func:`~nochmal.bots.kernel.cache.source_key`): numba itself checks only
the file a function is written in, while the kernels freeze the engine's constants they read
(``COLOUR_JOKER``, ``NUMBER_FACES``, ``N_CELLS``, ...) into their compiled code. An edit of any of
those files compiles afresh (about two minutes for the co-op game) into a new folder; the compile
lock (:func:`~nochmal.bots.kernel.drivers.compile_lock_path`) is one per folder, so processes that
start at once (``nochmal serve``'s background warm-up, a test session's, :mod:`nochmal.bots.warm`)
compile once. ``tests/test_kernel_cache.py`` proves it with an engine constant edited in a copy.
"""
