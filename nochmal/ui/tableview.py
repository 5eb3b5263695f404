"""What the table screen needs to know about a position, as pure functions (no streamlit).

The app's pages call these; so can the CLI or tests. Nothing here changes the rules: moves
are still validated by ``State.apply`` / ``GameSession.record``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from nochmal.engine.dice import COLOUR_JOKER, NUMBER_JOKER
from nochmal.engine.errors import InvalidInputError
from nochmal.store.events import CrossEvent, PassEvent, RollEvent, UndoEvent
from nochmal.engine.game import ACTIVE, CHANCE, PASSIVE, TEAM, Game, variant
from nochmal.engine.moves import Cross
from nochmal.bots.policies import get_policy


# --------------------------------------------------------------------------- new games
def default_sheets(mode: str, players: int) -> list[str]:
    """The sheets the seats of a new ``mode`` game take unless chosen (the variant's
    ``default_sheets``: co-op sheets I, II, ... in seat order, C-BOARDS; else the standard sheet)."""
    return variant(mode).default_sheets(players)


def make_game(mode: str, sheets: Sequence[str], mission: int = 1) -> Game:
    """A new game of the variant ``mode`` with one sheet id per seat (and ``mission``, for a
    variant that has one)."""
    rules = variant(mode)
    if not rules.min_seats <= len(sheets) <= rules.max_seats:
        raise InvalidInputError(f"{mode} games take {rules.min_seats}-{rules.max_seats} players, got {len(sheets)}")
    return rules.create(len(sheets), sheets=list(sheets), mission=mission if rules.has_mission else None)


# --------------------------------------------------------------------------- who decides
def seats_to_decide(state) -> list[int]:
    """Seats that still decide in the current roll (the active seat first; R-ORDER)."""
    if state.phase == ACTIVE:
        return [state.active]
    if state.phase == PASSIVE:
        return list(state.pending)
    return []


def can_enter(access: str | None, device_seat: int | None, seat: int) -> bool:
    """A host device enters for every seat; a joined device only for the seat it claimed."""
    if access == "host":
        return True
    return access == "seat" and device_seat is not None and device_seat == seat


# --------------------------------------------------------------------------- moves
def _matching(state, seat: int, colour_die=None, number_die=None, colour=None):
    for mv in state.legal_actions(seat):
        if not isinstance(mv, Cross):
            continue
        if colour_die is not None and mv.colour_die != colour_die:
            continue
        if number_die is not None and mv.number_die != number_die:
            continue
        if colour is not None and mv.colour != colour:
            continue
        yield mv


def start_cells(state, seat: int, colour_die=None, number_die=None, colour=None) -> int:
    """The union of the cells of every legal cross of ``seat`` with these dice (None: any)."""
    out = 0
    for mv in _matching(state, seat, colour_die, number_die, colour):
        out |= mv.cells
    return out


def moves_for_cells(state, seat: int, cells: int, colour_die=None, number_die=None, colour=None) -> list[Cross]:
    """Legal crosses of exactly ``cells`` (with the dice given), cheapest in "!" first."""
    found = [mv for mv in _matching(state, seat, colour_die, number_die, colour) if mv.cells == cells]
    found.sort(key=lambda m: (m.joker_cost, m.colour_die, m.number_die, m.colour))
    return found


def build_cross(state, seat: int, cells: int, colour_die=None, number_die=None, colour=None) -> Cross:
    """The cross a player means by tapping ``cells`` (and maybe choosing dice): the cheapest
    legal one if there is one; otherwise the most plausible reading, so that
    ``State.apply`` rejects it with the rule it breaks."""
    if not cells:
        raise InvalidInputError("tap the cells to cross first", rule="R-COUNT")
    legal = moves_for_cells(state, seat, cells, colour_die, number_die, colour)
    if legal:
        return legal[0]
    sheet = state.seats[seat].sheet
    first_cell = (cells & -cells).bit_length() - 1
    if colour is None:
        colour = colour_die if colour_die is not None and colour_die != COLOUR_JOKER else sheet.colour_of[first_cell]
    cf, nf = state.dice_for(seat)
    if colour_die is None:
        colour_die = colour if colour in cf else COLOUR_JOKER if COLOUR_JOKER in cf else (cf[0] if cf else colour)
    if number_die is None:
        count = cells.bit_count()
        number_die = count if count in nf else NUMBER_JOKER if NUMBER_JOKER in nf else (nf[0] if nf else min(count, 5))
    return Cross(colour_die, number_die, colour, cells)


# --------------------------------------------------------------------------- the event log
def effective_events(events: Sequence) -> list:
    """The events still in force (undone ones and the undos themselves removed)."""
    stack: list = []
    for ev in events:
        if isinstance(ev, UndoEvent):
            if stack:
                stack.pop()
        else:
            stack.append(ev)
    return stack


def last_effective_event(events: Sequence):
    """The decision an undo would take back, or None."""
    eff = effective_events(events)
    return eff[-1] if eff else None


def recent_crosses(events: Sequence, n_seats: int) -> list[int]:
    """Per seat, the cells crossed in the current and the previous roll (as masks)."""
    from nochmal.engine.cells import mask_of

    eff = effective_events(events)
    rolls = [i for i, ev in enumerate(eff) if isinstance(ev, RollEvent)]
    start = rolls[-2] if len(rolls) >= 2 else 0
    out = [0] * n_seats
    for ev in eff[start:]:
        if isinstance(ev, CrossEvent) and ev.seat < n_seats:
            out[ev.seat] |= mask_of(ev.cells)
    return out


def this_roll(events: Sequence) -> dict[int, object]:
    """What each seat decided since the last roll: seat -> CrossEvent / PassEvent."""
    eff = effective_events(events)
    out: dict[int, object] = {}
    for ev in reversed(eff):
        if isinstance(ev, RollEvent):
            break
        if isinstance(ev, (CrossEvent, PassEvent)):
            out.setdefault(ev.seat, ev)
    return out


# --------------------------------------------------------------------------- bots
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


# --------------------------------------------------------------------------- co-op track
def track_view(state) -> list[dict]:
    """The 27 turn fields: seat, whether it is past / current / future, and the goal after it."""
    game = state.game
    turn = state.roll_index + 1
    checks = state.extra.get("checks", {})
    out = []
    for t in range(1, game.n_turns + 1):
        field = {"turn": t, "seat": game.tableau.active_seat(t - 1),
                 "status": "past" if t < turn else "current" if t == turn else "future"}
        if t in (10, 19, 27):
            done = checks.get(str(t))
            field["goal"] = game.tableau.value(f"goal_{t}")
            field["check"] = done
        out.append(field)
    return out
