"""The rules in players' words (pure: no streamlit import, unit-testable).

A refused entry is told to the player as a short, specific sentence (:func:`refusal`): built
from the engine's reason, without the rule id, and with cells named the way the player's sheet
labels them (co-op sheets label the rows P..V: cell ``E2`` is ``EQ`` there). The rule id and
the rule's general words go into a "why" detail. :data:`RULE_WORDS` says every rule of
``RULES.md`` in one plain sentence; :func:`strip_rule_ids` takes rule ids out of a text.

Everything here speaks the language in force (:mod:`nochmal.data.i18n`). The engine's reasons are
English: a refusal is put in words from what the pattern of the reason says (the cells, the
dice, the numbers), never by translating the engine's text; an engine reason no pattern knows
is told in German by its rule's words (an entry the page itself refused keeps the page's own
words).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nochmal.engine.cells import COLUMNS, N_COLS, cell_index
from nochmal.engine.errors import IllegalMoveError, InvalidInputError
from nochmal.engine.ruleids import RULE_ID_RE, _ID, strip_rule_ids  # noqa: F401 (RULE_ID_RE: for the pages)
from nochmal.data import i18n
from nochmal.data.i18n import N_, _, ngettext, pgettext
from nochmal.store.events import CrossEvent, PassEvent, RemoveDieEvent, RollEvent, StrikeJokersEvent, UndoEvent

#: Every rule of ``RULES.md`` a player's entry can break or an outcome can refer to, in one plain
#: sentence a player understands (no rule ids inside).
RULE_WORDS: dict[str, str] = {
    # 1. components
    "R-DICE": N_("There are three colour dice (yellow, green, blue, red, orange or a black X joker) "
                 "and three number dice (1 to 5 or a ? joker)."),
    "R-SHEET": N_("Every sheet has 7 rows and 15 columns A to O; column H is the start column, and every column "
                  "has a first and a later value printed under it."),
    "R-JOKERS": N_("A sheet has 8 \"!\"; you strike one each time you use a joker (the black X or the ?)."),
    "R-COLOUR-BONUS": N_("Whoever completes a colour first gets 5 points for it; anyone who completes it later gets 3."),
    # 2. a roll
    "R-ROLL": N_("The active player rolls all the dice once, with no re-rolls."),
    "R-ACTIVE": N_("The active player picks one colour die and one number die from all the dice, or passes."),
    "R-PASSIVE": N_("The other players pick one colour die and one number die from the dice the active player "
                    "left, or pass; several players may pick the same dice."),
    "R-FIRST3": N_("In the first three rolls of a game nothing is set aside: everybody picks from all the dice."),
    "R-ACTIVE-PASS": N_("If the active player passes, the others pick from all the dice."),
    "R-ORDER": N_("The active player decides first; then the others decide, each on their own."),
    "R-NEXT": N_("After every roll the next player clockwise becomes the active player."),
    # 3. crossing cells
    "R-COUNT": N_("You cross exactly as many cells as the number die shows (1 to 5; the ? lets you choose 1 to 5)."),
    "R-COLOUR": N_("Every cell you cross must have the colour of the colour die you use "
                   "(the black X lets you choose any colour)."),
    "R-BLOCK": N_("All the cells of one cross must lie in a single area of touching cells of that colour."),
    "R-CONNECTED": N_("The cells of one cross must touch each other side by side, not only diagonally."),
    "R-ADJ": N_("A cross must touch a cell you already crossed (side by side, not diagonally), "
                "or use the start column H."),
    "R-START": N_("Your very first cross must include a cell of the start column H."),
    "R-FREE": N_("You cannot cross a cell that is already crossed."),
    "R-JOKER-COST": N_("Each joker you use (the black X or the ?) costs one \"!\", and you need enough \"!\" left."),
    # 4. base game scoring and end
    "R-COLUMN": N_("A full column scores its first value if nobody filled it in an earlier roll "
                   "(everyone who fills it in the same roll gets the first value), otherwise its later value."),
    "R-FIRST": N_("Who was first is decided after everybody has crossed for the roll, so players who complete "
                  "the same column or colour in the same roll all count as first."),
    "R-END": N_("The game ends after the roll in which somebody completes a second colour; "
                "everybody still finishes that roll."),
    "R-SCORE": N_("Your score is colour bonuses plus column points plus 1 for every unused \"!\", "
                  "minus 2 for every star you did not cross."),
    "R-TIE": N_("The highest score wins; on a tie more unused \"!\" win; otherwise the win is shared."),
    # 5. solo
    "R-SOLO-DICE": N_("Playing solo you roll two colour dice and two number dice."),
    "R-SOLO-LEN": N_("A solo game lasts exactly 30 rolls."),
    "R-SOLO-SCORE": N_("A solo game is scored like the base game: a full column scores its first value "
                       "and a completed colour 5 points."),
    # 6. co-operative variant
    "C-LEN": N_("A co-op game lasts at most 27 turns, one roll each."),
    "C-BOARDS": N_("In the co-op game everybody plays a numbered co-op sheet; its rows are labelled P to V."),
    "C-TRACK": N_("The turn track says whose turn it is; the team's goals are checked after turns 10, 19 and 27."),
    "C-NO-STARS": N_("In the co-op game uncrossed stars cost no points."),
    "C-NO-BONUS": N_("In the co-op game completed colours score no bonus points (they may still count for the mission)."),
    "C-POINTS": N_("The team's points are everybody's column points added up; at the end every unused \"!\" adds 1."),
    "C-FAIL": N_("If you cannot or will not use the dice you mark a failed roll; "
                 "a third failed roll loses the game for the whole team at once."),
    "C-GOAL-10": N_("After turn 10 the team needs the first goal's points, or it strikes the tableau's "
                    "number of \"!\", shared out as the team likes."),
    "C-GOAL-19": N_("After turn 19 the team needs the second goal's points, or one die (the team chooses which) "
                    "leaves the game for good."),
    "C-GOAL-27": N_("After turn 27 the team needs the last goal's points (unused \"!\" count too), "
                    "or everybody marks a failed roll."),
    "C-CHECK": N_("When a turn is complete the goals and the mission are checked in a fixed order: "
                  "after turn 27 the last goal first, then the mission."),
    "C-WIN": N_("The team wins as soon as the mission is complete at the end of a turn, "
                "unless somebody has three failed rolls."),
    "C-LOSE": N_("The team loses with a third failed roll, or if the mission is not complete after turn 27."),
    "C-SOLO": N_("Playing the co-op game alone you are always the active player, so nothing is ever set aside."),
    # missions
    "M1": N_("Mission colours: the team completes one different colour per player, on any sheet."),
    "M2": N_("Mission rows: the team completely fills the tableau's number of different rows P to V."),
    "M3": N_("Mission stars: every column A to O has a crossed star on some sheet, "
             "and the team completes the tableau's number of different colours."),
    "M4": N_("Mission four-blocks: every number field has all four cells around it crossed on one sheet, "
             "and the team fills the tableau's number of rows."),
    "M5": N_("Mission N-O-C-H-M-A-L: the team fills the columns N, O, C, H, M, A and L in this order "
             "(a column filled too early must be filled again later), and completes the tableau's "
             "number of colours."),
}

_ID_PREFIX = re.compile(rf"^\s*{_ID}\s*:\s*")
_EVENT_PREFIX = re.compile(r"^\s*(?:event \d+ \(\w+\)|action \d+)\s*:\s*")
_POSITION = re.compile(r"\s*\[(?:sheet=|mode=)[^\]]*\]\s*$")
_CELL_RE = re.compile(r"\b[A-O][1-7]\b")




# --------------------------------------------------------------------------- words
def translated(msgid: str) -> str:
    """``msgid``, a text marked with ``N_`` where it is written (a table's entry), in the
    language in force."""
    return i18n.translations(i18n.language()).gettext(msgid)


def rule_words(rule: str | None) -> str:
    """The rule's plain sentence (:data:`RULE_WORDS`) in the language in force; "" for an
    unknown rule."""
    words = RULE_WORDS.get(rule or "")
    return translated(words) if words else ""


def colour_word(name: str) -> str:
    """A colour's name as the engine writes it ("yellow") in the language in force ("gelb");
    anything else (the X of a colour die, a number) as it is."""
    words = {"yellow": pgettext("colour", "yellow"), "green": pgettext("colour", "green"),
             "blue": pgettext("colour", "blue"), "red": pgettext("colour", "red"),
             "orange": pgettext("colour", "orange")}
    return words.get(name, name)


def and_list(words) -> str:
    """["a", "b", "c"] -> "a, b and c" in the language in force."""
    words = [str(w) for w in words]
    if len(words) <= 1:
        return words[0] if words else ""
    return _("{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])


# --------------------------------------------------------------------------- cells
def cell_label(sheet, name: str | int) -> str:
    """A cell as ``sheet`` shows it: column letter A..O, then the row's label (standard sheets
    ``E3``; co-op sheets, rows P..V, ``EQ`` for ``E2``). ``name`` is an engine cell name or index."""
    i = cell_index(name) if isinstance(name, str) else int(name)
    col, row = COLUMNS[i % N_COLS], i // N_COLS
    labels = sheet.spec.row_labels if sheet is not None else None
    return f"{col}{labels[row] if labels else row + 1}"


def relabel_cells(sheet, text: str) -> str:
    """``text`` with every engine cell name (``E2``) replaced by its label on ``sheet``."""
    if sheet is None or tuple(sheet.spec.row_labels) == tuple(str(r) for r in range(1, 8)):
        return text
    return _CELL_RE.sub(lambda m: cell_label(sheet, m.group(0)), text)


def _event_words(ev, names: list[str] | None, game=None) -> str:
    """One line for the history, in the language in force; a pass is called what ``game`` calls
    it (a failed roll in co-op, a pass in the base game)."""
    def who(s: int) -> str:
        return names[s] if names and s < len(names) else _("seat {n}").format(n=s + 1)

    if isinstance(ev, RollEvent):
        colours, numbers = ", ".join(colour_word(c) for c in ev.colours), ", ".join(ev.numbers)
        if ev.source == "sampled":
            return _("the app rolls: colour dice {colours}; number dice {numbers}").format(
                colours=colours, numbers=numbers)
        return _("roll: colour dice {colours}; number dice {numbers}").format(colours=colours, numbers=numbers)
    if isinstance(ev, CrossEvent):
        return _("{who} crosses {cells} ({colour}, dice {colour_die} + {number_die})").format(
            who=who(ev.seat), colour=colour_word(ev.colour), cells=", ".join(ev.cells),
            colour_die=colour_word(ev.colour_die), number_die=ev.number_die)
    if isinstance(ev, PassEvent):
        if game is not None and game.has_failed_rolls:
            return _("{who} marks a failed roll").format(who=who(ev.seat))
        return _("{who} passes").format(who=who(ev.seat))
    if isinstance(ev, StrikeJokersEvent):
        return _('team strikes "!": {seats}').format(
            seats=", ".join(f"{who(i)} {n}" for i, n in enumerate(ev.per_seat) if n))
    if isinstance(ev, RemoveDieEvent):
        if ev.die == "number":
            return _("team removes a number die for good")
        return _("team removes a colour die for good")
    if isinstance(ev, UndoEvent):
        return _("undo of event {seq}").format(seq=ev.undoes)
    return repr(ev)


def event_text(game, ev, names) -> str:
    """An event in words (the history, an undo), its cells named as the deciding seat's sheet
    labels them ("HP" on a co-op sheet); names are left as they are."""
    seat = getattr(ev, "seat", None)
    sheet = game.sheets[seat] if isinstance(seat, int) and 0 <= seat < game.n_seats else None
    held = [f"\x00{i}\x00" for i in range(len(names))]  # the names wait outside the relabelling
    text = relabel_cells(sheet, _event_words(ev, held, game))
    for i, name in enumerate(names):
        text = text.replace(held[i], str(name))
    return text


# --------------------------------------------------------------------------- refusals
@dataclass(frozen=True)
class Refusal:
    """A refused entry for the player: ``words`` to read (no rule id), the ``rule`` id, and
    ``why``: the rule's general words with its id, for a "why" detail."""

    words: str
    rule: str | None
    why: str


def rule_why(rule: str | None) -> str:
    """The rule's general words and its id, e.g. "... or use the start column H. (rule R-ADJ)"."""
    if not rule:
        return ""
    words = rule_words(rule)
    return _("{words} (rule {rule})").format(words=words, rule=rule) if words else \
        _("(rule {rule})").format(rule=rule)


def _items(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def _list(cells: str) -> str:
    """"EQ, ER, ES" -> "EQ, ER and ES"."""
    return and_list(_items(cells))


def _face(face: str) -> str:
    """A die's face as the engine names it ("X", "yellow", "3") in words."""
    if face == "?":
        return pgettext("die face", "?")  # "?" as it is in English; German quotes it
    return _("the black X") if face == "X" else colour_word(face)


def _die(name: str) -> str:
    """A usable colour die as :func:`~nochmal.ui.entry.build_cross` names it ("X joker", "red")."""
    return _("X joker") if name == "X joker" else colour_word(name)


def _no_die(kind: str, face: str, available: str) -> str:
    faces = list(dict.fromkeys(_items(available)))
    if not faces or faces == ["none"]:
        return _("You have no colour die to use now.") if kind == "colour" else _("You have no number die to use now.")
    shown, listed = _face(face), and_list(_face(f) for f in faces)
    if kind == "colour":
        return _("No colour die showing {face} is available to you: the colour dice you may use show {faces}.").format(
            face=shown, faces=listed)
    return _("No number die showing {face} is available to you: the number dice you may use show {faces}.").format(
        face=shown, faces=listed)


def _not_adjacent(cells: str, column: str) -> str:
    parts = _items(cells)
    if len(parts) == 1:
        return _("{cell} is not in column {column} and does not touch a cell you already crossed.").format(
            cell=parts[0], column=column)
    if len(parts) == 2:
        return _("Neither {first} nor {second} is in column {column} or next to a cell you already crossed.").format(
            first=parts[0], second=parts[1], column=column)
    return _("None of {cells} is in column {column} or next to a cell you already crossed.").format(
        cells=_list(cells), column=column)


def _not_colour(m) -> str:
    return ngettext("{cells} is not {colour}: every cell you cross must be {colour}.",
                    "{cells} are not {colour}: every cell you cross must be {colour}.",
                    len(_items(m[1]))).format(cells=_list(m[1]), colour=colour_word(m[2]))


def _not_connected(m) -> str:
    if m[1].count(",") == 1:
        text = _("{cells} do not touch side by side: the cells of one cross must touch each other side by side "
                 "(diagonally does not count).")
    else:
        text = _("{cells} are not all joined side by side: the cells of one cross must touch each other side by "
                 "side (diagonally does not count).")
    return text.format(cells=_list(m[1]))


def _joker_cost(m) -> str:
    n = int(m[1])
    if m[2] == "0":
        text = ngettext('This cross needs {n} "!" for its joker, but you have none left.',
                        'This cross needs {n} "!" for its jokers, but you have none left.', n)
    else:
        text = ngettext('This cross needs {n} "!" for its joker, but you have {left} left.',
                        'This cross needs {n} "!" for its jokers, but you have {left} left.', n)
    return text.format(n=m[1], left=m[2])


def _number_dice(m) -> str:
    """"the number dice (you may use) show 2, 3, 4, but 1 cell was chosen" in words, every die named."""
    dice, n = and_list(_face(f) for f in _items(m[2])), int(m[3])
    if m[1]:
        text = ngettext("The number dice you may use show {dice}, but you chose {n} cell: "
                        "cross as many cells as one of them shows.",
                        "The number dice you may use show {dice}, but you chose {n} cells: "
                        "cross as many cells as one of them shows.", n)
    else:
        text = ngettext("The number dice show {dice}, but you chose {n} cell: cross as many cells as one of them shows.",
                        "The number dice show {dice}, but you chose {n} cells: cross as many cells as one of them "
                        "shows.", n)
    return text.format(dice=dice, n=n)


def _usable(dice: str) -> str:
    return ", ".join(_die(d) for d in _items(dice))


#: (rule or None for any, reason pattern, the plain words in the language in force) tried in order
_REWRITES: list[tuple[str | None, re.Pattern, object]] = [
    (None, re.compile(r"^no (colour|number) die showing (\S+) is available \(available: (.*)\)$"),
     lambda m: _no_die(m[1], m[2], m[3])),
    (None, re.compile(r"^nothing to undo$"), lambda m: _("Nothing to undo.")),
    (None, re.compile(r"^seat (\d+) is played by the (\S+) bot$"),
     lambda m: _("Seat {seat} is played by the {bot} bot.").format(seat=m[1], bot=m[2])),
    ("R-PASSIVE", re.compile(r"^the (\w+) colour die was set aside by the active player "
                             r"\(colour dice you may use: (.*)\)$"),
     lambda m: _("The {colour} colour die was set aside by the active player (colour dice you may use: "
                 "{dice}).").format(colour=colour_word(m[1]), dice=_usable(m[2]))),
    ("R-PASSIVE", re.compile(r"^no (\w+) colour die this roll, and the X joker was set aside by the active player "
                             r"\(colour dice you may use: (.*)\)$"),
     lambda m: _("No {colour} colour die this roll, and the X joker was set aside by the active player "
                 "(colour dice you may use: {dice}).").format(colour=colour_word(m[1]), dice=_usable(m[2]))),
    ("R-COLOUR", re.compile(r"^no (\w+) colour die this roll \(colour dice you may use: (.*)\)$"),
     lambda m: _("No {colour} colour die this roll (colour dice you may use: {dice}).").format(
         colour=colour_word(m[1]), dice=_usable(m[2]))),
    ("R-COLOUR", re.compile(r"^the colour die shows (\w+), so (\w+) cannot be crossed with it$"),
     lambda m: _("The colour die shows {die}, so you cannot cross {colour} cells with it.").format(
         die=colour_word(m[1]), colour=colour_word(m[2]))),
    ("R-COLOUR", re.compile(r"^(.+) not (yellow|green|blue|red|orange)$"), _not_colour),
    ("R-COUNT", re.compile(r"^tap the cells to cross first$"), lambda m: _("Tap the cells to cross first.")),
    ("R-COUNT", re.compile(r"^0 cells: .*$"), lambda m: _("Choose at least one cell to cross.")),
    ("R-COUNT", re.compile(r"^(\d+) cells: a move crosses 1 to 5 cells$"),
     lambda m: _("You chose {n} cells, but one cross takes 1 to 5 cells.").format(n=m[1])),
    ("R-COUNT", re.compile(r"^the number dice( you may use)? show (.+), but (\d+) cells? (?:was|were) chosen$"),
     _number_dice),
    ("R-COUNT", re.compile(r"^the number die you may use shows (.), but (\d+) cells? (?:was|were) chosen$"),
     lambda m: ngettext("The number die you may use shows {die}, but you chose {n} cell: cross exactly {die}.",
                        "The number die you may use shows {die}, but you chose {n} cells: cross exactly {die}.",
                        int(m[2])).format(die=_face(m[1]), n=m[2])),
    (None, re.compile(r"^the (\d) number die was set aside by the active player \(number dice you may use: (.*)\)$"),
     lambda m: _("The {die} number die was set aside by the active player (number dice you may use: {dice}).").format(
         die=m[1], dice=and_list(_face(f) for f in _items(m[2])))),
    ("R-BLOCK", re.compile(r"^(.+) are not all one colour$"),
     lambda m: _("{cells} are not all one colour: one cross stays inside one area of touching cells of one "
                 "colour.").format(cells=_list(m[1]))),
    ("R-COUNT", re.compile(r"^the number die shows (\d), but (\d+) cells? (?:was|were) chosen$"),
     lambda m: ngettext("The number die shows {die}, but you chose {n} cell: cross exactly {die}.",
                        "The number die shows {die}, but you chose {n} cells: cross exactly {die}.",
                        int(m[2])).format(die=m[1], n=m[2])),
    ("R-FREE", re.compile(r"^(.+) already crossed$"),
     lambda m: ngettext("{cells} is already crossed.", "{cells} are already crossed.",
                        len(_items(m[1]))).format(cells=_list(m[1]))),
    ("R-BLOCK", re.compile(r"^(.+) lie in more than one (\w+) block$"),
     lambda m: _("{cells} lie in separate {colour} areas: one cross stays inside one area of touching "
                 "{colour} cells.").format(cells=_list(m[1]), colour=colour_word(m[2]))),
    ("R-CONNECTED", re.compile(r"^(.+) are not orthogonally connected$"), _not_connected),
    ("R-START", re.compile(r"^the first move must include a cell of the start column (\w)$"),
     lambda m: _("Your first cross must include a cell of the start column {column}.").format(column=m[1])),
    ("R-ADJ", re.compile(r"^no cell of (.+) is in column (\w) or next to a crossed cell$"),
     lambda m: _not_adjacent(m[1], m[2])),
    ("R-JOKER-COST", re.compile(r"^the move needs (\d+) \"!\" but (\d+) are left$"), _joker_cost),
    ("R-ROLL", re.compile(r"^choose the face of every die first$"), lambda m: _("Choose the face of every die first.")),
    ("R-ROLL", re.compile(r"^a roll is not due now: players are still deciding$"),
     lambda m: _("A roll is not due now: players are still deciding.")),
    ("R-ROLL", re.compile(r"^this roll needs (\d+) colour dice and (\d+) number dice, got (\d+) and (\d+)$"),
     lambda m: _("This roll needs {colours} colour dice and {numbers} number dice, got {got_colours} and "
                 "{got_numbers}.").format(colours=m[1], numbers=m[2], got_colours=m[3], got_numbers=m[4])),
    ("R-ORDER", re.compile(r"^seat (\d+) must wait: the active seat (\d+) decides first$"),
     lambda m: _("Seat {seat} must wait: the active player (seat {active}) decides first.").format(
         seat=m[1], active=m[2])),
    ("R-ORDER", re.compile(r"^seat (\d+) has already decided in this roll$"),
     lambda m: _("Seat {seat} has already decided for this roll.").format(seat=m[1])),
    ("R-ORDER", re.compile(r"^seat (\d+) does not decide in this roll now$"),
     lambda m: _("Seat {seat} does not decide in this roll now.").format(seat=m[1])),
    ("R-ORDER", re.compile(r"^no player may cross now$"),
     lambda m: _("Nobody may cross now: the dice are not rolled yet.")),
    ("R-ORDER", re.compile(r"^.* is not expected now \(phase (\w+)\)$"),
     lambda m: _("That cannot be entered now.") if m[1] != "decision" else _("The team has a penalty to decide first.")),
    ("C-GOAL-10", re.compile(r"^seat (\d+) has only (\d+) \"!\" left, cannot strike (\d+)$"),
     lambda m: _('Seat {seat} has only {left} "!" left, cannot strike {n}.').format(seat=m[1], left=m[2], n=m[3])),
    ("C-GOAL-10", re.compile(r"^strike (\d+) \"!\" in total, not (\d+)$"),
     lambda m: _('Strike {amount} "!" in total, not {given}.').format(amount=m[1], given=m[2])),
    ("C-GOAL-10", re.compile(r"^name a number of \"!\" for each of the (\d+) seats$"),
     lambda m: _('Name a number of "!" for each of the {n} seats.').format(n=m[1])),
    ("R-END", re.compile(r"^the game is over$"), lambda m: _("The game is over: nothing more can be entered.")),
]


def refusal(err: BaseException, sheet=None) -> Refusal:
    """What a refused entry tells the player, in the language in force. ``err`` is the engine's
    :class:`~nochmal.engine.errors.IllegalMoveError` (``.rule``, ``.reason``) or
    :class:`~nochmal.engine.errors.InvalidInputError` (``.rule`` may be None); ``sheet`` the
    player's sheet, so cells are named as it labels them.

    A reason no pattern of :data:`_REWRITES` knows is told as it is in English. In another
    language an engine refusal (:class:`~nochmal.engine.errors.IllegalMoveError`) is told by
    its rule's words; an :class:`~nochmal.engine.errors.InvalidInputError` as it is: the
    pages raise their own refusals so, already in the page's language (the engine raises it
    for malformed input the pages do not produce; the one it can, a roll of the wrong size, has
    a pattern)."""
    if isinstance(err, IllegalMoveError):
        rule, reason = err.rule, err.reason
    elif isinstance(err, InvalidInputError):
        rule, reason = err.rule, err.detail
    else:
        rule, reason = getattr(err, "rule", None), str(err)
    reason = _POSITION.sub("", _EVENT_PREFIX.sub("", str(reason)))
    found = _ID_PREFIX.match(reason)  # "event 3 (cross): R-ROLL: ..." wrapped by the event log
    if found:
        rule = rule or found.group(0).split(":")[0].strip()
        reason = reason[found.end():]
        reason = _POSITION.sub("", reason)
    reason = reason.strip()
    words = None
    for which, pattern, make in _REWRITES:
        if which is not None and which != rule:
            continue
        m = pattern.match(reason)
        if m:
            words = make(m)
            break
    if words is None:
        own = strip_rule_ids(reason)
        if own and (i18n.language() == i18n.DEFAULT or not isinstance(err, IllegalMoveError)):
            words = own
        else:
            words = rule_words(rule) or _("That entry is not allowed.")
    words = _sentence(relabel_cells(sheet, strip_rule_ids(words)))
    return Refusal(words, rule, rule_why(rule))


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."
