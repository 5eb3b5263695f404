"""The advisor's words (no widgets): one short line per suggestion, in the players' words — the
move ("Take blue 3 (HP-IP-JP)") and why in game terms, from what the move does
(:class:`nochmal.bots.advice.Gist`) — and the one note when moves are within the noise ("Three
equally good moves"). Everything is Markdown; a player's name goes through :func:`md`."""

from __future__ import annotations

from nochmal.data.i18n import N_, _, ngettext, pgettext
from nochmal.engine.dice import COLOUR_JOKER, NUMBER_JOKER
from nochmal.ui.explain import cell_label
from nochmal.ui.labels import pass_label, seat_label
from nochmal.ui.safe import md


def colour_noun(colour: int) -> str:
    """A colour as a word of its own ("Take blue 3", German "Nimm Blau 3"), in the language in force."""
    return (pgettext("colour noun", "yellow"), pgettext("colour noun", "green"), pgettext("colour noun", "blue"),
            pgettext("colour noun", "red"), pgettext("colour noun", "orange"))[colour]


#: why a move is worth making, per gist kind (``nochmal.bots.advice.GIST_KINDS``); placeholders: the
#: gist's fields ({colour} as a word)
WHY = {
    "mission_colour": N_("completes {colour} for the mission ({count} of {total} colours)"),
    "mission_row": N_("fills row {row} for the mission"),
    "mission_star": N_("a star in column {columns} for the mission"),
    "mission_field": N_("fills number field {number} for the mission"),
    "sequence_done": N_("completes column {column}, the next of {sequence}"),
    "column_first": N_("completes column {column} first (+{points})"),
    "column_done": N_("completes column {column} (+{points})"),
    "colour_first": N_("completes {colour} first (+{points})"),
    "colour_points": N_("completes {colour} (+{points})"),
    "colour_done": N_("completes {colour}"),
    "sequence_step": N_("{left} to go in column {column}, the next of {sequence}"),
    "plan_colour": N_("{left} to go for {colour}, your plan colour"),
    "mission_colour_step": N_("{left} to go for {colour} (mission)"),
    "plan_row": N_("{left} to go in row {row}, your plan row"),
    "plan_field": N_("{left} to go in number field {number}, your plan"),
    "column_step": N_("{left} to go in column {column}"),
    "colour_step": N_("{left} to go for {colour}"),
    "leaves_moves": N_("leaves every other seat a move"),
    "opens": N_("opens {count} new cells"),
    "keeps_block": N_("keeps the {colour} block open ({left} to go)"),
    "no_move": N_("no move with these dice"),
    "saves_dice": N_("leaves all dice to the others"),
    "no_cross_worth": N_("no cross is worth a die"),
    "nothing_worth": N_("nothing worth crossing"),
    # what a move costs or risks (at most one, after the reason)
    "too_early": N_("but column {column} comes too early for {sequence}"),
    "ends_game": N_("the game ends after this roll"),
    "keeps_jokers": N_('keeps your "!"'),
    "failed_box": N_("{count} of {total} failed rolls"),
    "team_loses": N_("{count} of {total} failed rolls: the team loses"),
    "free_pass": N_("a pass costs nothing"),
}

#: "Three equally good moves …" by how many (more than three: the number)
EQUAL = {2: N_("Two equally good moves: the games played out cannot tell them apart."),
         3: N_("Three equally good moves: the games played out cannot tell them apart.")}


def gist_words(gist, names: list[str] | None = None) -> str:
    """One gist in words (Markdown), in the language in force."""
    k = gist.kind
    colour = colour_noun(gist.colour) if 0 <= gist.colour < 5 else ""
    if k == "stars":  # one star or cell: words of their own (no number in them, so no plural form)
        return (_("crosses a star: {points} points saved") if gist.count == 1 else
                _("crosses {count} stars: {points} points saved")).format(count=gist.count, points=gist.points)
    if k == "reach":
        return (_("opens the way to a {colour} cell") if gist.count == 1 else
                _("opens the way to {count} {colour} cells")).format(count=gist.count, colour=colour)
    if k == "small_step":
        return ngettext("a small step: {count} {colour} cell", "a small step: {count} {colour} cells",
                        gist.count).format(count=gist.count, colour=colour)
    if k == "spends":
        return ngettext('costs {count} "!" ({left} left)', 'costs {count} "!" ({left} left)',
                        gist.count).format(count=gist.count, left=gist.left)
    if k == "blocks" and len(gist.seats) == gist.total > 1:
        return _("but none of the others gets a move")
    if k == "blocks":
        who = ", ".join(seat_label(names, s) if names and s < len(names) else _("seat {n}").format(n=s + 1)
                        for s in gist.seats)
        return ngettext("but {seats} gets no move", "but {seats} get no move", len(gist.seats)).format(seats=who)
    if k not in WHY:
        return md(k)
    return _(WHY[k]).format(colour=colour, column=gist.column, columns=gist.column, row=md(gist.row),
                            number=gist.number, sequence=gist.sequence, count=gist.count, total=gist.total,
                            left=gist.left, points=gist.points)


def dice_words(action) -> str:
    """The dice a cross takes, as players say it: "blue 3", "X as blue + 3", "blue + ? as 3"."""
    colour = colour_noun(action.colour)
    number = str(action.count)
    if action.colour_die == COLOUR_JOKER:
        colour = _("{die} as {colour}").format(die="X", colour=colour)
    if action.number_die == NUMBER_JOKER:
        number = _("{die} as {number}").format(die="?", number=action.count)
    if action.joker_cost:
        return f"{colour} + {number}"
    return f"{colour} {number}"


def cells_words(game, sug) -> str:
    """A suggestion's cells as its seat's sheet names them (rows P-V on a co-op sheet: ``GT``, not ``G5``);
    Markdown text (a sheet's row labels are data)."""
    sheet = game.sheets[sug.seat] if 0 <= sug.seat < len(game.sheets) else None
    return md("-".join(cell_label(sheet, c) for c in sug.cells))


def move_words(game, sug) -> str:
    """The move: "Take blue 3 (HP-IP-JP)", or the pass button's name."""
    if sug.is_pass:
        return pass_label(game)
    return _("Take {dice} ({cells})").format(dice=dice_words(sug.action), cells=cells_words(game, sug))


def headline(game, sug, names: list[str] | None = None) -> str:
    """The suggestion's one line: the move, then why (and what it risks or costs)."""
    parts = [gist_words(g, names) for g in sug.why]
    if not parts:
        return move_words(game, sug)
    why = parts[0]
    for caveat in parts[1:]:
        why = _("{why}; {caveat}").format(why=why, caveat=caveat)
    return _("{move}: {why}").format(move=move_words(game, sug), why=why)


def verdict(suggestions: list) -> str | None:
    """Said once above the lines, from the suggestions' groups (moves the games played out cannot tell
    apart share one): "Three equally good moves …", "The first move is the best." or nothing (one
    suggestion)."""
    if len(suggestions) < 2:
        return None
    first = sum(1 for s in suggestions if s.group == suggestions[0].group)
    if first >= 2:
        text = _(EQUAL[first]) if first in EQUAL else _(
            "{n} equally good moves: the games played out cannot tell them apart.").format(n=first)
        if first < len(suggestions):
            weaker = len(suggestions) - first
            text += " " + (_("The last one is weaker.") if weaker == 1 else
                           _("The last {n} are weaker.").format(n=weaker))
        return text
    rest = suggestions[1:]
    if len(rest) >= 2 and all(s.group == rest[0].group for s in rest):
        return _("The first move is the best; the others are equally good.")
    return _("The first move is the best.")
