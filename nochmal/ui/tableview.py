"""What the table screen needs to know about a position, as pure functions (no streamlit).

The app's pages call these; so can the CLI or tests. Nothing here changes the rules: moves
are still validated by ``State.apply`` / ``GameSession.record``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from nochmal.data import coopset
from nochmal.engine.dice import COLOUR_JOKER
from nochmal.engine.errors import InvalidInputError
from nochmal.store.events import CrossEvent, PassEvent, RollEvent, UndoEvent
from nochmal.engine.game import ACTIVE, CHANCE, PASSIVE, TEAM, Game, variant
from nochmal.engine.moves import Cross, cross_for_selection
from nochmal.bots.policies import get_policy


# --------------------------------------------------------------------------- new games
def default_sheets(mode: str, players: int) -> list[str]:
    """The sheets the seats of a new ``mode`` game take unless chosen: in a co-op game the
    owner's co-op set, seat 1 on sheet I, seat 2 on II, ... with the stand-in of the slot where
    the set has none (:func:`nochmal.data.coopset.seat_sheets` holds that decision; C-BOARDS);
    else the variant's ``default_sheets`` (the standard sheet)."""
    rules = variant(mode)
    if rules.cooperative:
        return coopset.default_sheets(players)
    return rules.default_sheets(players)


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


def seat_focus(state, seat: int) -> str | None:
    """What a seat's own device needs while the seat decides in this roll (its roll, phase,
    dice and own sheet), or None when it does not decide now. Another seat's entry in the same
    roll leaves it as it is: the deciding device is not run again for it (a whole run of the page
    while the player taps could lose the tap; see :mod:`nochmal.ui.changes`)."""
    if state.is_terminal() or seat not in seats_to_decide(state):
        return None
    s = state.seats[seat]
    return (f"{state.roll_index}|{state.phase}|{state.active}|{state.dice}|{state.left}|"
            f"{s.crossed}|{s.jokers_used}|{s.failed}")


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
    legal one, read by the engine (:func:`~nochmal.engine.moves.cross_for_selection`) from the
    dice the seat may use now; a selection no reading makes legal raises
    :class:`~nochmal.engine.errors.IllegalMoveError` naming the first rule it breaks.

    A seat that does not decide now gets a plain reading of the cells, so that ``State.apply``
    refuses it for the order of play (R-ORDER)."""
    if not cells:
        raise InvalidInputError("tap the cells to cross first", rule="R-COUNT")
    s = state.seats[seat]
    if seat not in seats_to_decide(state):
        first_colour = s.sheet.colour_of[(cells & -cells).bit_length() - 1]
        return Cross(colour_die if colour_die is not None else first_colour,
                     number_die if number_die is not None else min(cells.bit_count(), 5),
                     colour if colour is not None else first_colour, cells)
    cf, nf = state.dice_for(seat)
    rolled = (state.dice.colours, state.dice.numbers) if state.dice is not None else None
    return cross_for_selection(s.sheet, s.crossed, s.jokers_left, cells, cf, nf,
                               colour_die=colour_die, number_die=number_die,
                               colour=colour if colour_die == COLOUR_JOKER else None, rolled=rolled,
                               dice_rule="R-ACTIVE" if state.phase == ACTIVE else "R-PASSIVE")


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
from nochmal.data.i18n import N_, _, ngettext  # noqa: E402
from nochmal.ui.explain import and_list, colour_word, strip_rule_ids, translated  # noqa: E402


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


# ---- texts put in words when they are read (the announcements wait in a session cache, and the
# page's language may change in the meantime: they are read in the language in force then)
@dataclass(frozen=True)
class Said:
    """A text put in words when it is read (``str(said)``), in the language in force then: the
    marked ``msgid`` translated, with ``values`` filled in (a value that is itself a
    :class:`Said` or :class:`Told` is read then too). Plain data: it may wait in a cache."""

    msgid: str
    values: tuple[tuple[str, object], ...] = ()

    def __str__(self) -> str:
        return translated(self.msgid).format(**{k: _read(v) for k, v in self.values})


@dataclass(frozen=True)
class Told:
    """A text made when it is read by ``make(*args)`` (a module-level function: plural forms,
    lists, the engine's words told in the language in force), its args read first."""

    make: Callable[..., str]
    args: tuple = ()

    def __str__(self) -> str:
        return self.make(*(_read(a) for a in self.args))


def _read(value):
    if isinstance(value, (Said, Told)):
        return str(value)
    if isinstance(value, tuple):
        return tuple(_read(v) for v in value)
    return value


def say(msgid: str, **values) -> Said:
    """``msgid`` (marked with ``N_``) with ``values``, put in words when it is read."""
    return Said(msgid, tuple(values.items()))


@dataclass(frozen=True)
class Item:
    """One announcement: caused by event ``seq`` (its index in the log), about ``seat`` (None:
    the team or the game), of a ``kind`` ("column", "colour", "mission", "goal", "failed",
    "end"), in plain words (no rule ids), with the points it is worth where it has some.
    ``words`` are put in words when :attr:`text` is read, in the language in force then;
    ``lost``: the end of a lost co-op game."""

    seq: int
    seat: int | None
    kind: str
    words: str | Said | Told
    points: int | None = None
    lost: bool = False

    @property
    def text(self) -> str:
        """The announcement in the language in force."""
        return str(self.words)


def _points_text(n: int) -> str:
    return ngettext("{n} point", "{n} points", n).format(n=n)


def _points(n: int) -> Told:
    return Told(_points_text, (n,))


def _and(words: list) -> Told:
    return Told(and_list, (tuple(words),))


def _colour_name(name: str) -> str:
    return colour_word(name).capitalize()


def _joined(parts: tuple) -> str:
    return ", ".join(parts)


def _pair(item: str, who: str) -> str:
    return f"{item}: {who}"


def _counts(whos: tuple, counts: tuple) -> str:
    return ", ".join(f"{w} {n}" for w, n in zip(whos, counts))


#: what a mission requirement counts, by its kind ("Mission: 2 of 3 different colours")
_WHAT = {"colours": N_("different colours"), "rows": N_("rows filled"), "number_fields": N_("number fields filled"),
         "star_columns": N_("columns with a crossed star")}
#: a requirement's item, by its kind ("row P: Ann"; colours: "yellow: Ann")
_ITEM = {"rows": N_("row {item}: {who}"), "number_fields": N_("field {item}: {who}"),
         "star_columns": N_("column {item}: {who}")}


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
            steps = Told(_joined, (tuple(say(N_("column {column} counts ({who})"), column=k,
                                             who=_and([who(s) for s in new.done[k]])) for k in fresh),))
            then = say(N_("next column {column}"), column=new.next) if new.next else say(N_("all columns done"))
            items.append(Item(seq, seat, "mission", say(N_("Mission {sequence}: {steps}, {next}"),
                                                         sequence=seqtext, steps=steps, next=then)))
            continue
        have, old_have = min(len(new.done), new.needed), min(len(old.done), new.needed)
        if have == old_have:
            continue  # more than the mission asks for
        what = say(_WHAT[new.kind]) if new.kind in _WHAT else new.kind
        parts = []
        for k in fresh:
            names = _and([who(s) for s in new.done[k]])
            if new.kind in _ITEM:
                parts.append(say(_ITEM[new.kind], item=k, who=names))
            else:
                parts.append(Told(_pair, (Told(colour_word, (k,)) if new.kind == "colours" else k, names)))
        by = Told(_joined, (tuple(parts),))
        if new.complete:
            words = say(N_("Mission: {have} of {needed} {what} ({by}) — done!"),
                        have=have, needed=new.needed, what=what, by=by)
        else:
            words = say(N_("Mission: {have} of {needed} {what} ({by})"), have=have, needed=new.needed, what=what, by=by)
        items.append(Item(seq, seat, "mission", words))
    return items


def _goal_item(seq: int, turn: str, check: dict) -> Item:
    pts, goal = check["points"], check["goal"]
    if check.get("met"):
        if turn == "27":
            msgid = N_('Goal after turn {turn} met: {points} of {goal} points (unused "!" included)')
        else:
            msgid = N_("Goal after turn {turn} met: {points} of {goal} points")
        return Item(seq, None, "goal", say(msgid, turn=turn, points=pts, goal=goal), pts)
    if turn == "10":
        pen = check.get("penalty") or {}
        n = pen.get("jokers", 0)
        then = (say(N_('every remaining "!" is struck')) if pen.get("per_seat") == "all" else
                say(N_('the team strikes {n} "!"'), n=n) if n else say(N_('no "!" is left to strike')))
    elif turn == "19":
        then = say(N_("one die leaves the game for good"))
    else:
        then = say(N_("everybody marks a failed roll"))
    if turn == "27":
        msgid = N_('Goal after turn {turn} missed: {points} of {goal} points (unused "!" included) — {penalty}')
    else:
        msgid = N_("Goal after turn {turn} missed: {points} of {goal} points — {penalty}")
    return Item(seq, None, "goal", say(msgid, turn=turn, points=pts, goal=goal, penalty=then), pts)


def _failed_item(seq: int, state, i: int, who, for_goal: bool) -> Item:
    s = state.seats[i]
    if for_goal:
        msgid = N_("{who} marks a failed roll for the missed goal: {failed} of {boxes} failed rolls")
    else:
        msgid = N_("{who} marks a failed roll: {failed} of {boxes} failed rolls")
    return Item(seq, i, "failed", say(msgid, who=who(i), failed=s.failed, boxes=state.game.failed_roll_boxes(s)))


#: how a game ended, as the engine says it (rule ids taken out), in words
_END_REASONS = {
    "second colour completed": N_("second colour completed"),
    "a third failed roll": N_("a third failed roll"),
    "a third failed roll at the final check": N_("a third failed roll at the final check"),
    "mission complete": N_("mission complete"),
}
_MISSION_NOT_COMPLETE = re.compile(r"^mission not complete after turn (\d+)$")
_ROLLS_PLAYED = re.compile(r"^(\d+) rolls played$")

#: the solo rating bands (R-SOLO-SCORE) in the rulebook's words, by the engine's words
_SOLO_BANDS = {
    "superhero": N_("superhero"), "lucky or brilliant": N_("lucky or brilliant"),
    "professional level": N_("professional level"), "excellent": N_("excellent"), "very good": N_("very good"),
    "good run": N_("good run"), "experienced": N_("experienced"), "good, can be better": N_("good, can be better"),
    "getting there": N_("getting there"), "not bad": N_("not bad"), "needs practice": N_("needs practice"),
    "taking part is what counts": N_("taking part is what counts"), "barely tried": N_("barely tried"),
}


def _reason_text(reason: str) -> str:
    """The engine's reason for the end of a game (rule ids taken out) in words; a reason not
    known here as the engine says it."""
    if reason in _END_REASONS:
        return translated(_END_REASONS[reason])
    m = _MISSION_NOT_COMPLETE.match(reason)
    if m:
        return _("mission not complete after turn {turn}").format(turn=m[1])
    m = _ROLLS_PLAYED.match(reason)
    if m:
        return _("{n} rolls played").format(n=m[1])
    return reason


def _band_text(words: str) -> str:
    return translated(_SOLO_BANDS[words]) if words in _SOLO_BANDS else words


def _end_item(seq: int, state, who) -> Item:
    game = state.game
    out = state.outcome()
    if game.cooperative:
        pts = game.team_points(state)
        if out.extra.get("won"):
            return Item(seq, None, "end", say(N_("Mission complete — the team wins! ({points})"),
                                              points=_points(pts)), pts)
        third = [who(i) for i, s in enumerate(state.seats) if s.failed >= game.failed_roll_boxes(s)]
        why = (say(N_("a third failed roll ({who})"), who=_and(third)) if third else
               Told(_reason_text, (strip_rule_ids(out.reason),)))
        return Item(seq, None, "end", say(N_("The team loses: {why}"), why=why), pts, lost=True)
    if out.solo_band is not None:
        total = out.scores[0].total
        return Item(seq, 0, "end", say(N_("Game over: {points} — {band}"), points=_points(total),
                                       band=Told(_band_text, (out.solo_band[2],))), total)
    reason = strip_rule_ids(out.reason)
    total = max(sc.total for sc in out.scores)
    winners = [who(i) for i in out.winners]
    one = len(winners) == 1
    if reason:
        msgid = (N_("Game over ({reason}): {winners} wins with {points}") if one else
                 N_("Game over ({reason}): {winners} share the win with {points}"))
    else:
        msgid = (N_("Game over: {winners} wins with {points}") if one else
                 N_("Game over: {winners} share the win with {points}"))
    words = say(msgid, reason=Told(_reason_text, (reason,)), winners=_and(winners), points=_points(total))
    return Item(seq, out.winners[0] if one else None, "end", words, total)


def news(game: Game, events: Sequence, names: Sequence[str] | None = None) -> list[Item]:
    """The announcements of a game, event by event (undone events left out): columns and
    colours completed (first or not, and what they are worth), mission steps, interim goals met
    or missed, failed rolls, and the end. Replays the effective events with the engine; each
    completion is announced at the cross that made it (what it is worth does not change
    before the roll is settled: only columns and colours claimed in an earlier roll score the
    later value, R-FIRST); mission steps, goals and the end at the event that finished the turn.

    The items' texts are put in words when they are read (:attr:`Item.text`), in the language
    in force then: a cache of the items needs no language in its key."""
    evs = [ev if not isinstance(ev, dict) else parse_event(ev, i) for i, ev in enumerate(events)]

    def who(seat: int):
        return names[seat] if names and seat < len(names) and names[seat] else say(N_("Seat {n}"), n=seat + 1)

    state = game.new_state()
    has_bonus = any(game.colour_bonus)
    team = game.cooperative
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
                if team:
                    msgid = (N_("{who}: Column {column} full — first! ({points} for the team)") if first else
                             N_("{who}: Column {column} full ({points} for the team)"))
                else:
                    msgid = (N_("{who}: Column {column} full — first! ({points})") if first else
                             N_("{who}: Column {column} full ({points})"))
                text = say(msgid, who=who(seat), column=COLUMNS[c], points=_points(pts))
                items.append(Item(seq, seat, "column", text, pts))
            for c in sorted((set(s.colours) | set(s.new_colours)) - had_colours):
                name = Told(_colour_name, (COLOURS[c],))
                if has_bonus:
                    first = not claimed_colours >> c & 1
                    pts = s.colours.get(c, game.colour_bonus[0 if first else 1])
                    msgid = (N_("{who}: {colour} complete — first! ({points})") if first else
                             N_("{who}: {colour} complete ({points})"))
                    text = say(msgid, who=who(seat), colour=name, points=_points(pts))
                    items.append(Item(seq, seat, "colour", text, pts))
                else:
                    items.append(Item(seq, seat, "colour", say(N_("{who}: {colour} complete"),
                                                               who=who(seat), colour=name)))
        elif isinstance(ev, StrikeJokersEvent):
            struck = [(who(i), n) for i, n in enumerate(ev.per_seat) if n]
            seats = Told(_counts, (tuple(w for w, _n in struck), tuple(n for _w, n in struck)))
            items.append(Item(seq, None, "goal", say(N_('Penalty: "!" struck — {seats}'), seats=seats)))
        elif isinstance(ev, RemoveDieEvent):
            if ev.die == "number":
                words = say(N_("Penalty: a number die leaves the game for good"))
            else:
                words = say(N_("Penalty: a colour die leaves the game for good"))
            items.append(Item(seq, None, "goal", words))
        marked = [i for i, s in enumerate(state.seats) if s.failed > failed[i]] if game.has_failed_rolls else []
        passed = seat if isinstance(ev, PassEvent) else None
        if passed in marked:  # the seat's own failed roll (C-FAIL)
            items.append(_failed_item(seq, state, passed, who, False))
        for t in sorted(set(state.extra.get("checks", {})) - checks, key=int):
            items.append(_goal_item(seq, t, state.extra["checks"][t]))
        for i in marked:  # a missed last goal marks one for everybody (C-GOAL-27)
            if i != passed:
                items.append(_failed_item(seq, state, i, who, True))
        if progress is not None and state.phase not in (ACTIVE, PASSIVE) and isinstance(ev, (CrossEvent, PassEvent)):
            now = game.progress(state)
            items.extend(_mission_steps(progress, now, seq, who))
            progress = now
        if state.is_terminal():
            items.append(_end_item(seq, state, who))
    return items
