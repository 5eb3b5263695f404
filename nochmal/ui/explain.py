"""The rules in players' words (pure: no streamlit import, unit-testable).

A refused entry is told to the player as a short, specific sentence (:func:`refusal`): built
from the engine's reason, without the rule id, and with cells named the way the player's sheet
labels them (co-op sheets label the rows P..V: cell ``E2`` is ``EQ`` there). The rule id and
the rule's general words go into a "why" detail. :data:`RULE_WORDS` says every rule of
``RULES.md`` in one plain sentence; :func:`strip_rule_ids` takes rule ids out of a text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nochmal.engine.cells import COLUMNS, N_COLS, cell_index
from nochmal.engine.errors import IllegalMoveError, InvalidInputError
from nochmal.engine.ruleids import RULE_ID_RE, _ID, strip_rule_ids  # noqa: F401 (RULE_ID_RE: for the pages)
from nochmal.store.events import describe

#: Every rule of ``RULES.md`` a player's entry can break or an outcome can refer to, in one plain
#: sentence a player understands (no rule ids inside).
RULE_WORDS: dict[str, str] = {
    # 1. components
    "R-DICE": "There are three colour dice (yellow, green, blue, red, orange or a black X joker) "
              "and three number dice (1 to 5 or a ? joker).",
    "R-SHEET": "Every sheet has 7 rows and 15 columns A to O; column H is the start column, and every column "
               "has a first and a later value printed under it.",
    "R-JOKERS": "A sheet has 8 \"!\"; you strike one each time you use a joker (the black X or the ?).",
    "R-COLOUR-BONUS": "Whoever completes a colour first gets 5 points for it; anyone who completes it later gets 3.",
    # 2. a roll
    "R-ROLL": "The active player rolls all the dice once, with no re-rolls.",
    "R-ACTIVE": "The active player picks one colour die and one number die from all the dice, or passes.",
    "R-PASSIVE": "The other players pick one colour die and one number die from the dice the active player "
                 "left, or pass; several players may pick the same dice.",
    "R-FIRST3": "In the first three rolls of a game nothing is set aside: everybody picks from all the dice.",
    "R-ACTIVE-PASS": "If the active player passes, the others pick from all the dice.",
    "R-ORDER": "The active player decides first; then the others decide, each on their own.",
    "R-NEXT": "After every roll the next player clockwise becomes the active player.",
    # 3. crossing cells
    "R-COUNT": "You cross exactly as many cells as the number die shows (1 to 5; the ? lets you choose 1 to 5).",
    "R-COLOUR": "Every cell you cross must have the colour of the colour die you use "
                "(the black X lets you choose any colour).",
    "R-BLOCK": "All the cells of one cross must lie in a single area of touching cells of that colour.",
    "R-CONNECTED": "The cells of one cross must touch each other side by side, not only diagonally.",
    "R-ADJ": "A cross must touch a cell you already crossed (side by side, not diagonally), "
             "or use the start column H.",
    "R-START": "Your very first cross must include a cell of the start column H.",
    "R-FREE": "You cannot cross a cell that is already crossed.",
    "R-JOKER-COST": "Each joker you use (the black X or the ?) costs one \"!\", and you need enough \"!\" left.",
    # 4. base game scoring and end
    "R-COLUMN": "A full column scores its first value if nobody filled it in an earlier roll "
                "(everyone who fills it in the same roll gets the first value), otherwise its later value.",
    "R-FIRST": "Who was first is decided after everybody has crossed for the roll, so players who complete "
               "the same column or colour in the same roll all count as first.",
    "R-END": "The game ends after the roll in which somebody completes a second colour; "
             "everybody still finishes that roll.",
    "R-SCORE": "Your score is colour bonuses plus column points plus 1 for every unused \"!\", "
               "minus 2 for every star you did not cross.",
    "R-TIE": "The highest score wins; on a tie more unused \"!\" win; otherwise the win is shared.",
    # 5. solo
    "R-SOLO-DICE": "Playing solo you roll two colour dice and two number dice.",
    "R-SOLO-LEN": "A solo game lasts exactly 30 rolls.",
    "R-SOLO-SCORE": "A solo game is scored like the base game: a full column scores its first value "
                    "and a completed colour 5 points.",
    # 6. co-operative variant
    "C-LEN": "A co-op game lasts at most 27 turns, one roll each.",
    "C-BOARDS": "In the co-op game everybody plays a numbered co-op sheet; its rows are labelled P to V.",
    "C-TRACK": "The turn track says whose turn it is; the team's goals are checked after turns 10, 19 and 27.",
    "C-NO-STARS": "In the co-op game uncrossed stars cost no points.",
    "C-NO-BONUS": "In the co-op game completed colours score no bonus points (they may still count for the mission).",
    "C-POINTS": "The team's points are everybody's column points added up; at the end every unused \"!\" adds 1.",
    "C-FAIL": "If you cannot or will not use the dice you mark a failed roll; "
              "a third failed roll loses the game for the whole team at once.",
    "C-GOAL-10": "After turn 10 the team needs the first goal's points, or it strikes the tableau's "
                 "number of \"!\", shared out as the team likes.",
    "C-GOAL-19": "After turn 19 the team needs the second goal's points, or one die (the team chooses which) "
                 "leaves the game for good.",
    "C-GOAL-27": "After turn 27 the team needs the last goal's points (unused \"!\" count too), "
                 "or everybody marks a failed roll.",
    "C-CHECK": "When a turn is complete the goals and the mission are checked in a fixed order: "
               "after turn 27 the last goal first, then the mission.",
    "C-WIN": "The team wins as soon as the mission is complete at the end of a turn, "
             "unless somebody has three failed rolls.",
    "C-LOSE": "The team loses with a third failed roll, or if the mission is not complete after turn 27.",
    "C-SOLO": "Playing the co-op game alone you are always the active player, so nothing is ever set aside.",
    # missions
    "M1": "Mission colours: the team completes one different colour per player, on any sheet.",
    "M2": "Mission rows: the team completely fills the tableau's number of different rows P to V.",
    "M3": "Mission stars: every column A to O has a crossed star on some sheet, "
          "and the team completes the tableau's number of different colours.",
    "M4": "Mission four-blocks: every number field has all four cells around it crossed on one sheet, "
          "and the team fills the tableau's number of rows.",
    "M5": "Mission N-O-C-H-M-A-L: the team fills the columns N, O, C, H, M, A and L in this order "
          "(a column filled too early must be filled again later), and completes the tableau's "
          "number of colours.",
}

_ID_PREFIX = re.compile(rf"^\s*{_ID}\s*:\s*")
_EVENT_PREFIX = re.compile(r"^\s*(?:event \d+ \(\w+\)|action \d+)\s*:\s*")
_POSITION = re.compile(r"\s*\[(?:sheet=|mode=)[^\]]*\]\s*$")
_CELL_RE = re.compile(r"\b[A-O][1-7]\b")


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


def event_text(game, ev, names) -> str:
    """An event in words (:func:`~nochmal.store.events.describe`), its cells named as the
    deciding seat's sheet labels them ("HP" on a co-op sheet); names are left as they are."""
    seat = getattr(ev, "seat", None)
    sheet = game.sheets[seat] if isinstance(seat, int) and 0 <= seat < game.n_seats else None
    held = [f"\x00{i}\x00" for i in range(len(names))]  # the names wait outside the relabelling
    text = relabel_cells(sheet, describe(ev, held))
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
    words = RULE_WORDS.get(rule)
    return f"{words} (rule {rule})" if words else f"(rule {rule})"


def _list(cells: str) -> str:
    """"EQ, ER, ES" -> "EQ, ER and ES"."""
    parts = [p.strip() for p in cells.split(",") if p.strip()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _are(cells: str) -> str:
    return "is" if len([p for p in cells.split(",") if p.strip()]) == 1 else "are"


def _no_die(kind: str, face: str, available: str) -> str:
    faces = list(dict.fromkeys(p.strip() for p in available.split(",") if p.strip()))
    shown = "the black X" if face == "X" else face
    if not faces or faces == ["none"]:
        return f"You have no {kind} die to use now."
    faces = ["the black X" if f == "X" else f for f in faces]
    return f"No {kind} die showing {shown} is available to you: the {kind} dice you may use show {_list(', '.join(faces))}."


def _not_adjacent(cells: str, column: str) -> str:
    parts = [p.strip() for p in cells.split(",") if p.strip()]
    if len(parts) == 1:
        return f"{parts[0]} is not in column {column} and does not touch a cell you already crossed."
    if len(parts) == 2:
        return f"Neither {parts[0]} nor {parts[1]} is in column {column} or next to a cell you already crossed."
    return f"None of {_list(cells)} is in column {column} or next to a cell you already crossed."


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


#: (rule or None for any, reason pattern, the plain words) tried in order
_REWRITES: list[tuple[str | None, re.Pattern, object]] = [
    (None, re.compile(r"^no (colour|number) die showing (\S+) is available \(available: (.*)\)$"),
     lambda m: _no_die(m[1], m[2], m[3])),
    ("R-COLOUR", re.compile(r"^the colour die shows (\w+), so (\w+) cannot be crossed with it$"),
     lambda m: f"The colour die shows {m[1]}, so you cannot cross {m[2]} cells with it."),
    ("R-COLOUR", re.compile(r"^(.+) not (yellow|green|blue|red|orange)$"),
     lambda m: f"{_list(m[1])} {_are(m[1])} not {m[2]}: every cell you cross must be {m[2]}."),
    ("R-COUNT", re.compile(r"^0 cells: .*$"), lambda m: "Choose at least one cell to cross."),
    ("R-COUNT", re.compile(r"^(\d+) cells: a move crosses 1 to 5 cells$"),
     lambda m: f"You chose {m[1]} cells, but one cross takes 1 to 5 cells."),
    ("R-COUNT", re.compile(r"^the number die shows (\d), but (\d+) cells? (?:was|were) chosen$"),
     lambda m: f"The number die shows {m[1]}, but you chose {m[2]} cell{'s' if m[2] != '1' else ''}: "
               f"cross exactly {m[1]}."),
    ("R-FREE", re.compile(r"^(.+) already crossed$"),
     lambda m: f"{_list(m[1])} {_are(m[1])} already crossed."),
    ("R-BLOCK", re.compile(r"^(.+) lie in more than one (\w+) block$"),
     lambda m: f"{_list(m[1])} lie in separate {m[2]} areas: one cross stays inside one area of touching "
               f"{m[2]} cells."),
    ("R-CONNECTED", re.compile(r"^(.+) are not orthogonally connected$"),
     lambda m: (f"{_list(m[1])} do not touch side by side" if m[1].count(",") == 1 else
                f"{_list(m[1])} are not all joined side by side") +
               ": the cells of one cross must touch each other side by side (diagonally does not count)."),
    ("R-START", re.compile(r"^the first move must include a cell of the start column (\w)$"),
     lambda m: f"Your first cross must include a cell of the start column {m[1]}."),
    ("R-ADJ", re.compile(r"^no cell of (.+) is in column (\w) or next to a crossed cell$"),
     lambda m: _not_adjacent(m[1], m[2])),
    ("R-JOKER-COST", re.compile(r"^the move needs (\d+) \"!\" but (\d+) are left$"),
     lambda m: f"This cross needs {m[1]} \"!\" for its joker{'s' if m[1] != '1' else ''}, "
               f"but you have {'none' if m[2] == '0' else m[2]} left."),
    ("R-ORDER", re.compile(r"^seat (\d+) must wait: the active seat (\d+) decides first$"),
     lambda m: f"Seat {m[1]} must wait: the active player (seat {m[2]}) decides first."),
    ("R-ORDER", re.compile(r"^seat (\d+) has already decided in this roll$"),
     lambda m: f"Seat {m[1]} has already decided for this roll."),
    ("R-ORDER", re.compile(r"^no player may cross now$"), lambda m: "Nobody may cross now: the dice are not rolled yet."),
    ("R-ORDER", re.compile(r"^.* is not expected now \(phase (\w+)\)$"),
     lambda m: "That cannot be entered now." if m[1] != "decision" else "The team has a penalty to decide first."),
    ("R-END", re.compile(r"^the game is over$"), lambda m: "The game is over: nothing more can be entered."),
]


def refusal(err: BaseException, sheet=None) -> Refusal:
    """What a refused entry tells the player. ``err`` is the engine's
    :class:`~nochmal.engine.errors.IllegalMoveError` (``.rule``, ``.reason``) or
    :class:`~nochmal.engine.errors.InvalidInputError` (``.rule`` may be None); ``sheet`` the
    player's sheet, so cells are named as it labels them."""
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
        words = strip_rule_ids(reason) or (RULE_WORDS.get(rule or "", "") or "That entry is not allowed.")
    words = _sentence(relabel_cells(sheet, strip_rule_ids(words)))
    return Refusal(words, rule, rule_why(rule))
