"""The greedy bot: one move ahead, the legal action with the best heuristic value
(:mod:`nochmal.bots.heuristic`); seeded and deterministic, ``greedy_policy(state, rng) -> action``.

In a co-operative game the active seat scores each of its dice choices for the team (its own
best move plus every other seat's best move with the dice left), and team decisions (the
interim goals' penalties) follow fixed rules. Outside co-op the decision is made in compiled
code (:mod:`nochmal.bots.kernel.solo_driver`), move for move what the Python heuristic here decides.
"""

from __future__ import annotations

import random

from nochmal.bots.kernel.solo_driver import kernel_for
from nochmal.bots.coop_weights import coop_bias, coop_weights, even_strike_due
from nochmal.bots.heuristic import BASE_WEIGHTS, SeatView, Weights, score_cells, score_cross, seat_view
from nochmal.engine.dice import COLOUR_JOKER, NUMBER_JOKER, remove_faces
from nochmal.engine.floats import ordered_sum
from nochmal.engine.moves import PASS, Cross, move_groups

def _weights_for(state) -> tuple[Weights, object]:
    """The heuristic's weights and bias for the game: a game with a mission adds the mission's
    terms, following the team plan (:mod:`nochmal.bots.coop_weights`)."""
    game = state.game
    if game.has_mission:
        return coop_weights(game), coop_bias
    return BASE_WEIGHTS, None


def ranked_moves(state, seat: int | None = None, limit: int | None = None):
    """The legal actions of ``seat`` (default: the player to move) with heuristic values,
    best first (ties keep the engine's sorted order)."""
    if seat is None:
        seat = state.current_player()
    w, bias = _weights_for(state)
    view = seat_view(state, seat, w, bias)
    acts = state.legal_actions(seat)
    scored = [(-view.fail if a is PASS else score_cross(view, a, w), i, a) for i, a in enumerate(acts)]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(a, v) for v, _, a in (scored[:limit] if limit else scored)]


def _best_for_dice(state, seat: int, w: Weights, bias, colour_faces, number_faces, memo: dict | None = None,
                   view: SeatView | None = None):
    """(value, (cdie, ndie, colour, mask) or None) of ``seat``'s best move with these dice.
    ``memo`` (cell mask -> value for this seat) and ``view`` (the seat's :func:`seat_view`) may be
    shared by calls within one decision."""
    s = state.seats[seat]
    if view is None:
        view = seat_view(state, seat, w, bias)
    best, best_v = None, -view.fail
    if memo is None:
        memo = view.memo
    jw = w.joker
    for cdie, ndie, colour, masks in move_groups(s.table(), s.jokers_left, colour_faces, number_faces):
        cost = jw * ((cdie == COLOUR_JOKER) + (ndie == NUMBER_JOKER))
        for m in masks:
            v = memo.get(m)
            if v is None:
                v = memo[m] = score_cells(view, colour, m, w)
            v -= cost
            if v > best_v:
                best, best_v = (cdie, ndie, colour, m), v
    return best_v, best


def team_choices(state, w: Weights, bias) -> list:
    """Co-op: the active seat's dice decide what the others keep, so each of its dice pairs is
    scored by its own best move plus every passive seat's best move with the dice left (a pass
    frees all dice for the others). [(team value, action)], best first; ties keep the order of
    the dice pairs, a pass after the crosses."""
    seat = state.active
    cf, nf = state.dice_for(seat)
    others = [p for p in range(state.game.n_seats) if p != seat]
    views = {p: seat_view(state, p, w, bias) for p in range(state.game.n_seats)}
    memos = {p: v.memo for p, v in views.items()}  # per seat: its view's mask values
    replies: dict[tuple, float] = {}  # dice left -> the other seats' summed best values

    def others_value(colour_faces, number_faces) -> float:
        key = (colour_faces, number_faces)
        if key not in replies:
            replies[key] = ordered_sum(_best_for_dice(state, p, w, bias, colour_faces, number_faces, memos[p], views[p])[0]
                               for p in others)
        return replies[key]

    out = []
    for cdie in sorted(set(cf)):
        for ndie in sorted(set(nf)):
            own_v, own = _best_for_dice(state, seat, w, bias, (cdie,), (ndie,), memos[seat], views[seat])
            if own is not None:
                out.append((own_v + others_value(remove_faces(cf, cdie), remove_faces(nf, ndie)), Cross(*own)))
    out.append((-views[seat].fail + others_value(cf, nf), PASS))
    out.sort(key=lambda t: -t[0])  # stable: ties keep the order above, the pass last
    return out


def team_active_choice(state, w: Weights, bias):
    """Co-op: the active seat's choice for the team (the best of :func:`team_choices`)."""
    return team_choices(state, w, bias)[0][1]


#: co-op: let the active seat choose for the team (measured with nochmal simulate)
TEAM_ACTIVE = True


def team_choosing(state, seat: int) -> bool:
    """True when ``seat`` is the co-op active seat whose dice choice decides what the others keep."""
    return (TEAM_ACTIVE and state.game.cooperative and seat == state.active and state.phase == "active"
            and state.game.n_seats > 1 and state.game.sets_aside(state))


def greedy_policy(state, rng: random.Random):
    """One move ahead: the legal action with the best heuristic value (ties: the first in
    the engine's sorted order). In co-op the active seat scores its choice for the team.
    Solo and base games decide in compiled code (:class:`nochmal.bots.kernel.solo_driver.GreedyKernel`,
    the same choices)."""
    seat = state.current_player()
    if seat < 0:  # a team decision (co-op penalties)
        return team_decision(state, rng)
    if COMPILED_GREEDY and plain_heuristic(state.game):
        return kernel_for(state.game, state.seats[seat].sheet).choose(state, seat)
    return _heuristic_choice(state, seat)


def reference_greedy(state, rng: random.Random | None = None):
    """:func:`greedy_policy` decided by the Python heuristic in every mode (what the compiled
    kernel is checked against)."""
    seat = state.current_player()
    if seat < 0:
        return team_decision(state, rng)
    return _heuristic_choice(state, seat)


def _heuristic_choice(state, seat: int):
    w, bias = _weights_for(state)
    if team_choosing(state, seat):
        return team_active_choice(state, w, bias)
    _, best = _best_for_dice(state, seat, w, bias, *state.dice_for(seat))
    return PASS if best is None else Cross(*best)


def team_decision(state, rng: random.Random):
    """Co-op penalties: strike "!" from the seats that have most left (the most even split that
    is left, ties: the smallest split); give up a die."""
    strike = even_strike_due(state)
    if strike is not None:
        return strike
    acts = state.legal_actions()
    if not acts:
        raise ValueError("no decision is due")
    # C-GOAL-19: which die to give up (REMOVE_DIE below; measured with nochmal simulate)
    return next((a for a in acts if getattr(a, "die", None) == REMOVE_DIE), acts[0])


REMOVE_DIE = "colour"


def plain_heuristic(game) -> bool:
    """Whether greedy plays ``game`` with the plain heuristic, what the compiled kernel computes:
    no mission terms (:func:`_weights_for`) and no team choices (:func:`team_choosing`)."""
    return not (game.cooperative or game.has_mission)


#: games with the plain heuristic (base and solo) decide greedy's moves in compiled code
#: (False: the Python heuristic)
COMPILED_GREEDY = True
