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
    if colour_die is None and cf and colour not in cf and COLOUR_JOKER not in cf:
        # No die of the cells' colour (nor an X) for this seat: say so, rather than guess
        # another die and let the engine complain about that die's colour.
        from nochmal.engine.cells import COLOURS, names
        from nochmal.engine.errors import IllegalMoveError
        from nochmal.engine.moves import position_text
        from nochmal.ui.labels import sorted_dice

        s = state.seats[seat]
        pos = position_text(sheet, s.crossed, s.jokers_left)
        name = COLOURS[colour]
        wrong = cells & ~sheet.colour_masks[colour]
        if wrong:  # the cells themselves are of several colours: that is the problem
            raise IllegalMoveError("R-COLOUR", f"{', '.join(names(wrong))} not {name}", pos)
        usable = ", ".join("X joker" if f == COLOUR_JOKER else COLOURS[f] for f in sorted_dice(set(cf), ())[0])
        rolled = state.dice.colours if state.dice is not None else ()
        if colour in rolled:  # rolled, but the active player's pick set it aside
            raise IllegalMoveError("R-PASSIVE", f"the {name} colour die was set aside by the active player "
                                                f"(colour dice you may use: {usable})", pos)
        if COLOUR_JOKER in rolled:
            raise IllegalMoveError("R-PASSIVE", f"no {name} colour die this roll, and the X joker was set aside "
                                                f"by the active player (colour dice you may use: {usable})", pos)
        raise IllegalMoveError("R-COLOUR", f"no {name} colour die this roll (colour dice you may use: {usable})", pos)
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


# --------------------------------------------------------------------------- feedback where the eye is
# (the marks under a sheet's columns and colours, the announcements of a game, "nothing to cross")
from dataclasses import dataclass  # noqa: E402

from nochmal.engine.cells import COLOURS, COLUMNS, N_COLS  # noqa: E402
from nochmal.store.events import RemoveDieEvent, StrikeJokersEvent, action_of, parse_event  # noqa: E402
from nochmal.ui.explain import strip_rule_ids  # noqa: E402


def column_marks(state, seat: int) -> list[str | None]:
    """Per column A..O, what ``seat``'s sheet shows under it (R-COLUMN, R-FIRST):

    - "first": the seat filled the column and scores the first value (circle the first value);
    - "later": the seat filled it after somebody else had, in an earlier roll (strike the first
      value, circle the later one);
    - "gone": the seat has not filled it, but somebody filled it in an earlier roll, so the
      first value is no longer there for this seat (strike the first value);
    - None: nothing to mark.

    Read from the engine: a scored column's points (``Seat.columns``), and ``claimed_columns``
    (columns filled in an earlier roll). A column filled in the roll still being played is marked
    as the engine will score it when the roll is settled: "first" unless it was claimed in an
    earlier roll (players filling it in the same roll all get the first value); another seat's
    fill in this roll takes nothing away yet."""
    s = state.seats[seat]
    first, later = s.sheet.first_points, s.sheet.later_points
    out: list[str | None] = []
    for c in range(N_COLS):
        claimed = state.claimed_columns >> c & 1
        if c in s.columns:  # settled: the engine scored it
            out.append("later" if first[c] != later[c] and s.columns[c] == later[c] else "first")
        elif c in s.new_columns:  # filled in this roll, settled when everybody has decided
            out.append("later" if claimed else "first")
        else:
            out.append("gone" if claimed else None)
    return out


def colour_marks(state, seat: int) -> list[str | None]:
    """Per colour (yellow, green, blue, red, orange), the same marks for the colour bonuses
    (R-COLOUR-BONUS: 5 first / 3 later; R-FIRST). Where completed colours score nothing
    (co-op, C-NO-BONUS; they still count for missions) a completed colour is "done"."""
    s = state.seats[seat]
    first_bonus, later_bonus = state.game.colour_bonus
    out: list[str | None] = []
    for c in range(len(COLOURS)):
        completed = c in s.colours or c in s.new_colours
        if not (first_bonus or later_bonus):
            out.append("done" if completed else None)
            continue
        claimed = state.claimed_colours >> c & 1
        if c in s.colours:
            out.append("later" if first_bonus != later_bonus and s.colours[c] == later_bonus else "first")
        elif c in s.new_colours:
            out.append("later" if claimed else "first")
        else:
            out.append("gone" if claimed else None)
    return out


def no_legal_cross(state, seat: int) -> bool:
    """True when ``seat`` decides now (the active seat, or a passive seat still to decide) and
    no cross is legal for it with the dice it may use: it can only pass (co-op: mark a failed
    roll, C-FAIL)."""
    if seat not in seats_to_decide(state):
        return False
    acts = state.legal_actions(seat)
    crosses = getattr(acts, "crosses", None)
    if crosses is not None:
        return crosses() == 0
    return not any(isinstance(a, Cross) for a in acts)


@dataclass(frozen=True)
class Item:
    """One announcement: caused by event ``seq`` (its index in the log), about ``seat`` (None:
    the team or the game), of a ``kind`` ("column", "colour", "mission", "goal", "failed",
    "end"), in plain words (no rule ids), with the points it is worth where it has some."""

    seq: int
    seat: int | None
    kind: str
    text: str
    points: int | None = None


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _mission_steps(before, after, seq: int, who) -> list[Item]:
    """Items for the requirements of the mission that moved on between two progress reports."""
    items = []
    for old, new in zip(before.requirements, after.requirements):
        fresh = [k for k in new.done if k not in old.done]
        if not fresh:
            continue
        seat = new.done[fresh[0]][0] if new.done[fresh[0]] else None
        if new.kind == "sequence":
            seqtext = "-".join(list(new.done) + list(new.missing))
            step = ", ".join(f"column {k} counts ({_and([who(s) for s in new.done[k]])})" for k in fresh)
            then = f"next column {new.next}" if new.next else "all columns done"
            items.append(Item(seq, seat, "mission", f"Mission {seqtext}: {step}, {then}"))
            continue
        have, old_have = min(len(new.done), new.needed), min(len(old.done), new.needed)
        if have == old_have:
            continue  # more than the mission asks for
        what = {"colours": "different colours", "rows": "rows filled", "number_fields": "number fields filled",
                "star_columns": "columns with a crossed star"}.get(new.kind, new.kind)
        label = {"rows": "row ", "number_fields": "field ", "star_columns": "column "}.get(new.kind, "")
        by = ", ".join(f"{label}{k}: {_and([who(s) for s in new.done[k]])}" for k in fresh)
        done = " — done!" if new.complete else ""
        items.append(Item(seq, seat, "mission", f"Mission: {have} of {new.needed} {what} ({by}){done}"))
    return items


def _goal_item(seq: int, turn: str, check: dict) -> Item:
    pts, goal = check["points"], check["goal"]
    extra = ' (unused "!" included)' if turn == "27" else ""
    if check.get("met"):
        return Item(seq, None, "goal", f"Goal after turn {turn} met: {pts} of {goal} points{extra}", pts)
    if turn == "10":
        pen = check.get("penalty") or {}
        n = pen.get("jokers", 0)
        then = ('every remaining "!" is struck' if pen.get("per_seat") == "all" else
                f'the team strikes {n} "!"' if n else 'no "!" is left to strike')
    elif turn == "19":
        then = "one die leaves the game for good"
    else:
        then = "everybody marks a failed roll"
    return Item(seq, None, "goal", f"Goal after turn {turn} missed: {pts} of {goal} points{extra} — {then}", pts)


def _failed_item(seq: int, state, i: int, who, cause: str) -> Item:
    s = state.seats[i]
    return Item(seq, i, "failed", f"{who(i)} marks a failed roll{cause}: "
                                  f"{s.failed} of {state.game.failed_roll_boxes(s)} failed rolls")


def _end_item(seq: int, state, who) -> Item:
    game = state.game
    out = state.outcome()
    if game.cooperative:
        pts = game.team_points(state)
        if out.extra.get("won"):
            return Item(seq, None, "end", f"Mission complete — the team wins! ({_points(pts)})", pts)
        third = [who(i) for i, s in enumerate(state.seats) if s.failed >= game.failed_roll_boxes(s)]
        why = (f"a third failed roll ({_and(third)})" if third else strip_rule_ids(out.reason))
        return Item(seq, None, "end", f"The team loses: {why}", pts)
    if out.solo_band is not None:
        total = out.scores[0].total
        return Item(seq, 0, "end", f"Game over: {_points(total)} — {out.solo_band[2]}", total)
    reason = strip_rule_ids(out.reason)
    total = max(sc.total for sc in out.scores)
    winners = [who(i) for i in out.winners]
    verb = "wins" if len(winners) == 1 else "share the win"
    head = f"Game over ({reason})" if reason else "Game over"
    return Item(seq, out.winners[0] if len(out.winners) == 1 else None, "end",
                f"{head}: {_and(winners)} {verb} with {_points(total)}", total)


def news(game: Game, events: Sequence, names: Sequence[str] | None = None) -> list[Item]:
    """The announcements of a game, event by event (undone events left out): columns and
    colours completed (first or not, and what they are worth), mission steps, interim goals met
    or missed, failed rolls, and the end. Replays the effective events with the engine; each
    completion is announced at the cross that made it (what it is worth does not change
    before the roll is settled: only columns and colours claimed in an earlier roll score the
    later value, R-FIRST); mission steps, goals and the end at the event that finished the turn."""
    evs = [ev if not isinstance(ev, dict) else parse_event(ev, i) for i, ev in enumerate(events)]

    def who(seat: int) -> str:
        return names[seat] if names and seat < len(names) and names[seat] else f"Seat {seat + 1}"

    state = game.new_state()
    has_bonus = any(game.colour_bonus)
    team = " for the team" if game.cooperative else ""
    progress = game.progress(state) if game.has_mission else None
    items: list[Item] = []
    for ev in effective_events(evs):
        seat = getattr(ev, "seat", None)
        claimed_cols, claimed_colours = state.claimed_columns, state.claimed_colours
        failed = [s.failed for s in state.seats]
        checks = set(state.extra.get("checks", {}))
        if seat is not None:
            s = state.seats[seat]
            had_cols = set(s.columns) | set(s.new_columns)
            had_colours = set(s.colours) | set(s.new_colours)
        state.apply(action_of(ev), seat)
        seq = ev.seq
        if isinstance(ev, CrossEvent):
            s = state.seats[seat]
            for c in sorted((set(s.columns) | set(s.new_columns)) - had_cols):
                first = not claimed_cols >> c & 1
                pts = s.columns.get(c, s.sheet.first_points[c] if first else s.sheet.later_points[c])
                text = f"{who(seat)}: Column {COLUMNS[c]} full{' — first!' if first else ''} ({_points(pts)}{team})"
                items.append(Item(seq, seat, "column", text, pts))
            for c in sorted((set(s.colours) | set(s.new_colours)) - had_colours):
                name = COLOURS[c].capitalize()
                if has_bonus:
                    first = not claimed_colours >> c & 1
                    pts = s.colours.get(c, game.colour_bonus[0 if first else 1])
                    text = f"{who(seat)}: {name} complete{' — first!' if first else ''} ({_points(pts)})"
                    items.append(Item(seq, seat, "colour", text, pts))
                else:
                    items.append(Item(seq, seat, "colour", f"{who(seat)}: {name} complete"))
        elif isinstance(ev, StrikeJokersEvent):
            who_struck = [f"{who(i)} {n}" for i, n in enumerate(ev.per_seat) if n]
            items.append(Item(seq, None, "goal", 'Penalty: "!" struck — ' + ", ".join(who_struck)))
        elif isinstance(ev, RemoveDieEvent):
            items.append(Item(seq, None, "goal", f"Penalty: a {ev.die} die leaves the game for good"))
        marked = [i for i, s in enumerate(state.seats) if s.failed > failed[i]] if game.has_failed_rolls else []
        passed = seat if isinstance(ev, PassEvent) else None
        if passed in marked:  # the seat's own failed roll (C-FAIL)
            items.append(_failed_item(seq, state, passed, who, ""))
        for t in sorted(set(state.extra.get("checks", {})) - checks, key=int):
            items.append(_goal_item(seq, t, state.extra["checks"][t]))
        for i in marked:  # a missed last goal marks one for everybody (C-GOAL-27)
            if i != passed:
                items.append(_failed_item(seq, state, i, who, " for the missed goal"))
        if progress is not None and state.phase not in (ACTIVE, PASSIVE) and isinstance(ev, (CrossEvent, PassEvent)):
            now = game.progress(state)
            items.extend(_mission_steps(progress, now, seq, who))
            progress = now
        if state.is_terminal():
            items.append(_end_item(seq, state, who))
    return items
