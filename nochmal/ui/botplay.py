"""The bots at an app's table (pure functions, no streamlit): which bot acts next, what it does,
with dice of fate that replay the same, and playing them until a human must act."""

from __future__ import annotations

import random
from collections.abc import Sequence

from nochmal.bots.registry import get_policy
from nochmal.engine.game import CHANCE, PASSIVE, TEAM
from nochmal.ui.entry import seats_to_decide


def bot_rng(seed, n_events: int, seat: int) -> random.Random:
    """A bot's dice of fate: the same game replayed makes the same bot choices."""
    return random.Random(f"nochmal-bot-{seed}-{n_events}-{seat}")


def bot_action(state, seat: int, policy_name: str, rng: random.Random):
    """What the bot ``policy_name`` does for ``seat`` (the active seat, or any pending passive
    seat: passive seats decide independently, so the bot is asked as if it were next)."""
    policy = get_policy(policy_name)
    if state.phase == PASSIVE and state.pending and state.pending[0] != seat:
        view = state.clone()
        view.pending = [seat] + [s for s in view.pending if s != seat]
        return policy(view, rng)
    return policy(state, rng)


def bot_to_move(state, bots: Sequence, kind: str) -> tuple[str, int | None] | None:
    """The next thing a bot does now: ("roll", None), ("move", seat), ("decide", None), or
    None when a human has to act (or the game is over)."""
    if state.is_terminal():
        return None
    cp = state.current_player()
    if cp == CHANCE:
        return ("roll", None) if kind == "digital" and bots[state.active] else None
    if cp == TEAM:
        return ("decide", None) if all(bots) else None
    for seat in seats_to_decide(state):
        if bots[seat]:
            return ("move", seat)
    return None


def play_bots(ses, max_actions: int = 1000, by: str = "bot") -> int:
    """Let the bots of a session play until a human must act; returns how many actions they
    recorded. Raises what ``GameSession.record`` raises (e.g. a store conflict)."""
    bots = ses.meta.get("bots") or [None] * ses.game.n_seats
    kind = ses.meta.get("kind", "companion")
    seed = ses.meta.get("seed")
    done = 0
    while done < max_actions:
        step = bot_to_move(ses.state, bots, kind)
        if step is None:
            break
        what, seat = step
        if what == "roll":
            ses.roll_digital(by="dice")
        elif what == "decide":
            acts = ses.state.legal_actions()
            ses.record(acts[bot_rng(seed, ses.n_events, -1).randrange(len(acts))], by=by)
        else:
            action = bot_action(ses.state, seat, bots[seat], bot_rng(seed, ses.n_events, seat))
            ses.record(action, seat=seat, by=f"{by}:{bots[seat]}")
        done += 1
    return done
