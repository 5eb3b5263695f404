"""A refused *twenty one* entry in the player's words, in the language in force (pure: no streamlit).

The engine's reasons are English (``T-ENTER: the red 5 is higher than the 4 printed in its field
of row 2``). As for *Noch mal!* (:mod:`nochmal.ui.explain`), a refusal is put in words from what
the pattern of the reason says (the dice, the fields, the rows), never by translating the engine's
text: :data:`REWRITES` holds one pattern per kind of refusal the engine of
:mod:`nochmal.engine.twentyone` raises. The player reads a sentence without the rule id; the
"why" detail holds the rule's general words and its id. A reason no pattern knows is told as it
is in English and by its rule's words in another language."""

from __future__ import annotations

import re
from dataclasses import dataclass

from nochmal.data import i18n
from nochmal.data.i18n import _, ngettext
from nochmal.engine.errors import IllegalMoveError, InvalidInputError
from nochmal.engine.ruleids import strip_rule_ids
from nochmal.ui.twentyone.words import die_colour, rule_words

_POSITION = re.compile(r"\s*\[twentyone v[^\]]*\]\s*$")
_COLOUR = r"(white|black|red|blue|yellow|green)"


def _and_list(words: list[str]) -> str:
    if len(words) <= 1:
        return words[0] if words else ""
    return _("{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])


def _ones_stay(m) -> str:
    dice = [d.strip() for d in m[1].split(",") if d.strip()]
    return ngettext("At the second attempt the 1s stay: the {dice} die showed 1 and cannot be rolled again.",
                    "At the second attempt the 1s stay: the {dice} dice showed 1 and cannot be rolled again.",
                    len(dice)).format(dice=_and_list([die_colour(d) for d in dice]))


#: (rule, pattern of the engine's reason, the words in the language in force), one per kind of
#: refusal the twenty one engine raises; tried in order (the rule must match where one is named)
REWRITES: list[tuple[str | None, re.Pattern, object]] = [
    ("T-END", re.compile(r"^the game is over$"), lambda m: _("The game is over: nothing more can be entered.")),
    ("T-START", re.compile(r"^the first player is drawn once, at the start$"),
     lambda m: _("Who starts is drawn once, at the start of the game.")),
    ("T-START", re.compile(r"^no seat (\S+) in a game of (\d+)$"),
     lambda m: _("There is no such seat in a game of {n} players.").format(n=m[2])),
    (None, re.compile(r"^no seat (\S+) in a game of (\d+)$"),
     lambda m: _("There is no such seat in a game of {n} players.").format(n=m[2])),
    ("T-START", re.compile(r"^a lot names a seat, got .*$"), lambda m: _("The draw names the seat that starts.")),
    ("T-ROLL", re.compile(rf"^the 1s stay at the second attempt: ((?:{_COLOUR}(?:, )?)+) showed 1$"), _ones_stay),
    ("T-ROLL", re.compile(r"^no roll is due now: the active player keeps the roll or tries again$"),
     lambda m: _("No roll is due now: first the active player keeps the roll or takes the second attempt.")),
    ("T-ROLL", re.compile(r"^no roll is due now: at most two attempts; players are entering$"),
     lambda m: _("No roll is due now: there are at most two attempts, and the players are entering this roll.")),
    ("T-ROLL", re.compile(r"^no roll is due now: the first player is drawn first$"),
     lambda m: _("No roll is due now: first draw who starts.")),
    ("T-ROLL", re.compile(r"^keeping or trying again is decided once, after the first attempt$"),
     lambda m: _("Keeping the roll or taking the second attempt is decided once, right after the first attempt.")),
    ("T-ROLL", re.compile(r"^only the active seat (\d+) rolls$"),
     lambda m: _("Only the active player (seat {seat}) rolls and decides on the second attempt.").format(seat=m[1])),
    ("T-ROLL", re.compile(r"^every die shows 1: a second attempt would roll nothing$"),
     lambda m: _("Every die shows 1: they all stay, so a second attempt would roll nothing.")),
    ("T-ENTER", re.compile(r"^nobody enters before the roll is final \(keep or second attempt\)$"),
     lambda m: _("Nobody enters yet: first the active player keeps the roll or takes the second attempt.")),
    ("T-ENTER", re.compile(r"^enter at least one die, or cross out a field$"),
     lambda m: _("Enter at least one die, or cross out a field.")),
    ("T-ENTER", re.compile(rf"^the {_COLOUR} field of row (\d) is taken$"),
     lambda m: _("The {colour} field of row {row} is already filled: every field takes one number.").format(
         colour=die_colour(m[1]), row=m[2])),
    ("T-ENTER", re.compile(rf"^the {_COLOUR} (\d) is higher than the (\d) printed in its field of row (\d)$"),
     lambda m: _("The {colour} die shows {face}, more than the {printed} printed in its field of row {row}: "
                 "a die may show at most the printed number.").format(
         colour=die_colour(m[1]), face=m[2], printed=m[3], row=m[4])),
    ("T-ENTER", re.compile(r"^this seat has already entered its dice this round \(a round's entries are one "
                           r"action\)$"),
     lambda m: _("This seat has already entered its dice this round: a round's dice are entered in one go.")),
    ("T-ENTER", re.compile(r"^each die is entered once, got .*$"), lambda m: _("Each die is entered once.")),
    ("T-ENTER", re.compile(r"^an entry names distinct dice in colour order, got .*$"),
     lambda m: _("Each die is entered once.")),
    ("T-ENTER", re.compile(r"^an entry needs a 'dice' list of colours$"),
     lambda m: _("Tap the dice to enter first (or cross out a field).")),
    ("T-ONE-ROW", re.compile(r"^row (\d) was filled this round; row (\d) is used from the next round on$"),
     lambda m: _("Row {row} was filled this round: row {next} is used from the next round on.").format(
         row=m[1], next=m[2])),
    ("T-CROSS", re.compile(r"^field (\d) is not the leftmost free field \(field (\d)\) of row (\d)$"),
     lambda m: _("Only the leftmost free field of row {row} may be crossed out: that is field {leftmost}, "
                 "not field {field}.").format(row=m[3], leftmost=m[2], field=m[1])),
    ("T-CROSS", re.compile(r"^never both entering and crossing out, and at most one cross-out, in a round$"),
     lambda m: _("This seat has already entered or crossed out this round: never both, and at most one "
                 "cross-out a round.")),
    ("T-CROSS", re.compile(r"^a cross-out names a field (?:0|1)-(\d), got .*$"),
     lambda m: _("A cross-out names a field from 1 to 6.")),
    ("T-DICE", re.compile(r"^a roll names each colour once .*$"),
     lambda m: _("A roll gives each of the six dice one face: white, black, red, blue, yellow and green.")),
    ("T-DICE", re.compile(r"^a roll is (\d) faces, one per colour, got .*$"),
     lambda m: _("A roll gives each of the six dice one face: white, black, red, blue, yellow and green.")),
    ("T-DICE", re.compile(r"^a die shows 1-6, got .*$"), lambda m: _("A die shows 1 to 6.")),
    ("T-DICE", re.compile(r"^unknown die .*$"),
     lambda m: _("That is not one of the six dice: white, black, red, blue, yellow or green.")),
]


@dataclass(frozen=True)
class Refusal:
    """A refused entry: ``words`` to read (no rule id), the ``rule`` id, and ``why`` (the rule's
    general words and its id, for a "why" detail)."""

    words: str
    rule: str | None
    why: str


def _reason(err: BaseException) -> tuple[str | None, str]:
    """The rule id and the engine's reason without the id, the position and trailing ids."""
    if isinstance(err, IllegalMoveError):
        rule, reason = err.rule, err.reason
    elif isinstance(err, InvalidInputError):
        rule, reason = err.rule, err.detail
    else:
        rule, reason = getattr(err, "rule", None), str(err)
    return rule, strip_rule_ids(_POSITION.sub("", str(reason))).strip()


def engine_words(err: BaseException) -> str | None:
    """The words of :data:`REWRITES` for the engine's reason in ``err``; None if no pattern knows it."""
    rule, reason = _reason(err)
    reason = reason.rstrip(" .")
    for which, pattern, make in REWRITES:
        if which is not None and which != rule:
            continue
        m = pattern.match(reason)
        if m:
            return make(m)
    return None


def rule_why(rule: str | None) -> str:
    """The "why" detail: the rule's words and its id."""
    if not rule:
        return ""
    words = rule_words(rule)
    return _("{words} (rule {rule})").format(words=words, rule=rule) if words else _("(rule {rule})").format(rule=rule)


def refusal(err: BaseException) -> Refusal:
    """The engine's refusal for a player, in the language in force. Words the page put on the error
    (``err.words``: which dice do not fit, already in the page's language) come first; then the
    words of the reason's pattern; an error without a rule is the page's own check, told as it is."""
    rule, reason = _reason(err)
    if not rule and not isinstance(err, IllegalMoveError):
        words = engine_words(err) or reason
        return Refusal(words, None, words)
    words = getattr(err, "words", None) or engine_words(err)
    if not words:
        english = i18n.language() == i18n.DEFAULT
        words = (reason if english and reason else "") or rule_words(rule) or _("That entry is not allowed.")
        words = strip_rule_ids(words).strip()
        words = words[:1].upper() + words[1:] + ("" if words[-1:] in (".", "!", "?") else ".")
    return Refusal(words, rule, rule_why(rule))
