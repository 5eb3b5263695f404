"""A simple greedy player of *twenty one*, the yardstick the optimum is compared with
(:mod:`nochmal.bots.twentyone_optimum`): it enters every die that fits (T-ENTER), crosses out only
when nothing fits (T-CROSS), and as the active player tries a second attempt only when nothing of
the first fits its own row (T-ROLL). No look-ahead, no use of the other sheets."""

from __future__ import annotations

from nochmal.engine.twentyone.actions import AGAIN, KEEP, CrossOut, Enter
from nochmal.engine.twentyone.entries import cross_field, fitting_dice
from nochmal.engine.twentyone.game import CHOOSE, ENTER, TwentyOneState


def greedy_policy(state: TwentyOneState, rng=None):
    """``policy(state, rng)`` for :func:`nochmal.engine.twentyone.play`."""
    if state.phase == CHOOSE:
        s = state.seats[state.active]
        fits = fitting_dice(s.sheet, s.row, s.filled, state.dice.faces)
        return AGAIN if not fits and AGAIN in state.legal_actions() else KEEP
    if state.phase == ENTER:
        seat = state.current_player()
        fits = state.fits(seat)
        if fits:  # every die that fits, the highest first (the order does not change the entry)
            return Enter(tuple(sorted(f.colour for f in sorted(fits, key=lambda f: -f.face))))
        return CrossOut(cross_field(state.seats[seat].filled))
    raise ValueError(f"no player decision is due (phase {state.phase})")
