"""The bots at an app's twenty one table (pure functions, no streamlit): what a bot does next,
with dice of fate that replay the same, and playing them until a person must act. The bots are
the registry's (:attr:`nochmal.store.games.GameKind.policy`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from nochmal.engine.twentyone.game import LOT


def bot_rng(seed, n_events: int, seat: int) -> random.Random:
    """A bot's dice of fate: the same game replayed makes the same bot choices."""
    return random.Random(f"twentyone-bot-{seed}-{n_events}-{seat}")


def seats_to_enter(state) -> list[int]:
    """The seats that still enter (or cross out) from this round's roll, clockwise from the active."""
    return list(state.pending) if not state.is_terminal() and not state.is_chance_node() and \
        state.current_player() in state.pending else []


def bot_to_move(state, bots: Sequence, digital: bool) -> tuple[str, int | None] | None:
    """What a bot does now: ("chance", None) the digital dice of a bot's turn (or the lot when
    only bots play), ("act", seat), or None when a person acts (or the game is over)."""
    if state.is_terminal():
        return None
    if state.is_chance_node():
        if not digital:
            return None
        mine = all(bots) if state.phase == LOT else bool(bots[state.active])
        return ("chance", None) if mine else None
    for seat in seats_to_enter(state) or [state.current_player()]:
        if bots[seat]:
            return ("act", seat)
    return None


def bot_action(kind, state, seat: int, policy_name: str, rng: random.Random):
    """What the bot ``policy_name`` does for ``seat`` (the seats enter in any order: a pending seat
    is asked as if it were next)."""
    policy = kind.policy(policy_name)
    if seat in state.pending and state.pending[0] != seat:
        view = state.clone()
        view.pending = [seat] + [s for s in view.pending if s != seat]
        return policy(view, rng)
    return policy(state, rng)


def play_bots(ses, max_actions: int = 2000, by: str = "bot") -> int:
    """Let the bots of a session play until a person must act; returns how many actions they
    recorded. Raises what ``GameSession.record`` raises (e.g. a store conflict)."""
    bots = ses.meta.get("bots") or [None] * ses.game.n_seats
    digital = ses.meta.get("kind") == "digital"
    seed = ses.meta.get("seed")
    done = 0
    while done < max_actions:
        step = bot_to_move(ses.state, bots, digital)
        if step is None:
            break
        what, seat = step
        if what == "chance":
            ses.roll_digital(by="dice")
        else:
            action = bot_action(ses.kind, ses.state, seat, bots[seat], bot_rng(seed, ses.n_events, seat))
            ses.record(action, seat=seat, by=f"{by}:{bots[seat]}")
        done += 1
    return done
