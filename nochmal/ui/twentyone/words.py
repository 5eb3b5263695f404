"""twenty one in words, in the language in force: the dice's colours, the rules, a stored event,
dice that do not fit, the end of the game (a refusal: :mod:`.refusals`). Plain text or Markdown; no
widgets, no streamlit (tested without a page)."""

from __future__ import annotations

from nochmal.data.i18n import _, ngettext, pgettext
from nochmal.engine.twentyone.components import COLOURS
from nochmal.engine.twentyone.rules import RULE_IDS
from nochmal.ui.labels import seat_label


def die_colour(colour: int | str) -> str:
    """A die's colour (index or the engine's English name) in the language in force."""
    words = (pgettext("twenty one die", "white"), pgettext("twenty one die", "black"),
             pgettext("twenty one die", "red"), pgettext("twenty one die", "blue"),
             pgettext("twenty one die", "yellow"), pgettext("twenty one die", "green"))
    if isinstance(colour, str):
        return words[COLOURS.index(colour)] if colour in COLOURS else colour
    return words[colour]


def rule_words(rule: str | None) -> str:
    """What the rule ``rule`` (an id of RULES-TWENTYONE.md) says, in the game's own words."""
    words = {
        "T-DICE": _("Six dice, one of each colour; each shows 1 to 6."),
        "T-START": _("The first active player is drawn by lot, once, at the start."),
        "T-ROLL": _("The active player rolls all six dice; once, they may take a second attempt: the 1s stay, "
                    "every other die is rolled again."),
        "T-ENTER": _("Every player enters at least one die in their current row: each die in the field of its "
                     "colour, if that field is free and the die shows at most the printed number."),
        "T-CROSS": _("Who cannot or will not enter crosses out the leftmost free field of the row; never both "
                     "entering and crossing out in one round."),
        "T-ONE-ROW": _("One row per round: a row filled this round is scored, the next row is used from the next "
                       "round on."),
        "T-END": _("When a player has scored their fifth row, the round is finished and the game ends."),
        "T-SHEET": _("Every player has a different sheet: five rows of six fields, one field of each colour per row, "
                     "each with a printed number."),
        "T-BONUS": _("Hits in a row earn a bonus: 1, 3, 6, 10, 15, 21 points for 1 to 6 hits."),
        "T-HIT": _("A die that equals the printed number is a hit."),
        "T-NEXT": _("When everyone has entered or crossed out, the next player clockwise is active."),
        "T-ROW-SCORE": _("A full row is scored at once: the sum of its numbers (crossed fields 0) plus the bonus for "
                         "its hits."),
        "T-END-PARTIAL": _("At the end every other player scores the row they are in, full or not."),
        "T-WIN": _("The highest total wins; equal totals share the win."),
        "T-PEEK": _("Every sheet is open to everyone."),
        "T-PRACTICE": _("One player alone practises: always active, the game ends with the fifth row."),
    }
    return words[rule] if rule in words else ""


def rules_table() -> dict[str, str]:
    """Every rule of twenty one the app checks: its id -> its words (History's "rules in words")."""
    return {rule: rule_words(rule) for rule in RULE_IDS}


def unfit_words(state, seat: int, colours) -> str:
    """Why the dice ``colours`` (indices) do not go into ``seat``'s current row (T-ENTER), in words:
    "white 4: higher than the 3 printed in its field of row 1" (an empty text if they all fit)."""
    s = state.seats[seat]
    parts = []
    for c in colours:
        p = s.sheet.field_of[s.row][c]
        printed, face = s.sheet.value_at[s.row][p], state.dice.faces[c]
        if s.filled >> p & 1:
            parts.append(_("{colour} {face}: its field in row {row} is taken").format(
                colour=die_colour(c), face=face, row=s.row + 1))
        elif face > printed:
            parts.append(_("{colour} {face}: higher than the {printed} printed in its field of row {row}").format(
                colour=die_colour(c), face=face, printed=printed, row=s.row + 1))
    return "; ".join(parts)


def event_text(ev, names: list[str]) -> str:
    """A stored twenty one event in words (the History page, an undo)."""
    who = (lambda s: seat_label(names, s))
    kind = getattr(ev, "type", "")
    if kind == "lot":
        return _("{seat} drew the first turn").format(seat=who(ev.seat))
    if kind == "roll":
        faces = ", ".join(f"{die_colour(c)} {ev.faces[c]}" for c in COLOURS if c in ev.faces)
        return (_("digital dice: {faces}") if ev.source == "sampled" else _("roll entered: {faces}")).format(
            faces=faces)
    if kind == "keep":
        return _("{seat} keeps the first attempt").format(seat=who(ev.seat))
    if kind == "again":
        return _("{seat} takes the second attempt (the 1s stay)").format(seat=who(ev.seat))
    if kind == "enter":
        return _("{seat} enters {dice}").format(seat=who(ev.seat), dice=", ".join(die_colour(c) for c in ev.dice))
    if kind == "cross-out":
        return _("{seat} crosses out field {field}").format(seat=who(ev.seat), field=ev.field + 1)
    if kind == "undo":
        return _("undo of event {seq}").format(seq=ev.undoes)
    return kind


def outcome_text(state, names: list[str]) -> str:
    """The end of the game: every seat's total (highest first) and the winner(s), as Markdown."""
    out = state.outcome()
    winners = ", ".join(seat_label(names, w) for w in out.winners)
    lines = [ngettext("**{winners} wins!**", "**{winners} share the win!**", len(out.winners)).format(
        winners=winners)]
    for r in sorted(out.seats, key=lambda r: -r.total):
        rows = " + ".join(str(x.total) for x in r.rows)
        # the points first: a line that starts with a seat ("1. Ada") would be read as a list
        lines.append(_("**{total}** points — {seat} (rows {rows})").format(seat=seat_label(names, r.seat),
                                                                           total=r.total, rows=rows))
    return "  \n".join(lines)


