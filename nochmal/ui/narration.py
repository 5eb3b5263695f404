"""The announcements of a game in words (pure functions, no streamlit): columns and colours
completed, mission steps, interim goals, failed rolls and the end, replayed from the event log.
Their texts are put in words when they are read (:class:`Said`, :class:`Told`), in the language
in force then."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from nochmal.data.i18n import N_, _, ngettext
from nochmal.engine.cells import COLOURS, COLUMNS
from nochmal.engine.game import ACTIVE, PASSIVE, Game
from nochmal.store.events import (CrossEvent, PassEvent, RemoveDieEvent, StrikeJokersEvent, action_of,
                                  parse_event)
from nochmal.ui.eventlog import effective_events
from nochmal.ui.explain import and_list, colour_word, strip_rule_ids, translated


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
