"""How the game's things are named on screen: dice faces, colours, seats, a roll's dice, and
what passing is called in this variant (Markdown or plain text; no widgets)."""

from __future__ import annotations

from nochmal.engine.cells import COLOURS
from nochmal.engine.dice import COLOUR_FACES, COLOUR_JOKER, NUMBER_FACES, NUMBER_JOKER
from nochmal.data import i18n
from nochmal.data.i18n import N_, _, pgettext
from nochmal.data.modes import mode
from nochmal.data.provenance import provenance_words, summary_phrase
from nochmal.ui.safe import md

BADGES = ("yellow", "green", "blue", "red", "orange")  # Markdown badge colour per colour


def translated(msgid: str) -> str:
    """``msgid``, a text marked with ``N_`` where it is written (a table's entry), in the
    language in force."""
    return i18n.translations(i18n.language()).gettext(msgid)


def colour_name(colour: int) -> str:
    """A colour's name (0..4: yellow, green, blue, red, orange) in the language in force."""
    return (pgettext("colour", "yellow"), pgettext("colour", "green"), pgettext("colour", "blue"),
            pgettext("colour", "red"), pgettext("colour", "orange"))[colour]


def colour_word(name: str) -> str:
    """An English colour name from the engine ("red") in the language in force; anything else
    (not one of the five colours) as it is."""
    return colour_name(COLOURS.index(name)) if name in COLOURS else name


def colour_face_label(face: int) -> str:
    """A colour die's face as Markdown (a coloured badge with the colour's name)."""
    if face == COLOUR_JOKER:
        return _(":gray-badge[**X** joker]")
    return f":{BADGES[face]}-badge[{colour_name(face)}]"


def number_face_label(face: int) -> str:
    return "?" if face == NUMBER_JOKER else str(face)


def colour_label(colour: int) -> str:
    return f":{BADGES[colour]}-badge[{colour_name(colour)}]"


#: A seat's name when none is typed (Start page); "Player {n}" names its seat already
DEFAULT_NAME = N_("Player {n}")


def default_name(seat: int) -> str:
    """The name a seat gets when none is typed: "Player 2" (in the language in force)."""
    return _(DEFAULT_NAME).format(n=seat + 1)


def is_default_name(name: str, seat: int) -> bool:
    """Whether ``name`` is the default name of ``seat`` in one of the languages (a game keeps the
    names of the language it was created in)."""
    if not isinstance(name, str) or not name[-1:].isdigit():
        return False
    return any(name == i18n.translations(lang).gettext(DEFAULT_NAME).format(n=seat + 1) for lang in i18n.LANGUAGES)


def seat_label(names: list[str], seat: int) -> str:
    """A seat as Markdown (its number, then its name escaped): "2. Ada"; a default name alone
    ("Player 2", never "2. Player 2")."""
    if is_default_name(names[seat], seat):
        return md(names[seat])
    return f"{seat + 1}. {md(names[seat])}"


def seat_text(names: list[str], seat: int) -> str:
    """A seat as plain text, for HTML (which escapes it) and plain-text widgets."""
    if is_default_name(names[seat], seat):
        return names[seat]
    return f"{seat + 1}. {names[seat]}"


def leader(cooperative: bool) -> str:
    """Who runs the table's shared screen: the mission leader (co-op) or the host (base, solo)."""
    return pgettext("author", "mission leader") if cooperative else pgettext("author", "host")


def author_label(by: str, names: list[str], cooperative: bool) -> str:
    """Who recorded an event (its ``by``: "host", "seat2", "device", "dice", "bot:greedy", ...), in
    words for the history: the host's screen is the mission leader's (co-op) or the host's, a
    seat's device its player's name; anything else as it is."""
    if by == "host":
        return leader(cooperative)
    if by.startswith("seat") and by[4:].isdigit() and 1 <= int(by[4:]) <= len(names):
        return names[int(by[4:]) - 1]
    if by == "device":
        return pgettext("author", "a device")
    if by == "dice":
        return pgettext("author", "the app's dice")
    if by == "bot":
        return pgettext("author", "the bots")
    if by.startswith("bot:"):
        from nochmal.bots.registry import policy_name

        return policy_name(by[4:])
    return by


#: The one order dice are shown in, everywhere (roll entry, dice lists, pickers): the colour
#: dice yellow, green, blue, red, orange, X; the number dice 1..5, then "?".
COLOUR_ORDER: tuple[int, ...] = tuple(COLOUR_FACES)
NUMBER_ORDER: tuple[int, ...] = tuple(NUMBER_FACES)


def colour_order(face: int) -> int:
    """Sort key of a colour die's face (:data:`COLOUR_ORDER`)."""
    return COLOUR_ORDER.index(face)


def number_order(face: int) -> int:
    """Sort key of a number die's face (:data:`NUMBER_ORDER`: "?" after 5)."""
    return NUMBER_ORDER.index(face)


def sorted_dice(colours, numbers) -> tuple[list[int], list[int]]:
    """The colour and number dice faces in the one display order (repeated faces kept)."""
    return sorted(colours, key=colour_order), sorted(numbers, key=number_order)


def dice_text(colours, numbers) -> str:
    """A roll's (or a seat's usable) dice as Markdown, in the one display order."""
    cs, ns = sorted_dice(colours, numbers)
    return "  ".join(colour_face_label(f) for f in cs) + "  |  " + "  ".join(
        f"**{number_face_label(f)}**" for f in ns)


def pass_label(game) -> str:
    """The pass button's words: "Pass", or "Failed roll" where a pass marks a failed roll
    (from the engine's ``game.pass_name``, English: an unknown name is shown as it is)."""
    name = game.pass_name
    if name == "pass":
        return pgettext("pass button", "Pass")
    if name == "failed roll":
        return pgettext("pass button", "Failed roll")
    return name.capitalize()


def pass_word(game) -> str:
    """What passing is called in a sentence: "pass" or "failed roll" (``game.pass_name``)."""
    name = game.pass_name
    if name == "pass":
        return pgettext("pass in a sentence", "pass")
    if name == "failed roll":
        return pgettext("pass in a sentence", "failed roll")
    return name


def game_title(game) -> str:
    """What players call the game's variant ("base game", "solo", "co-op": the mode registry's
    word, :mod:`nochmal.data.modes`) in the language in force."""
    return translated(mode(game.mode).word)


def kind_label(kind: str) -> str:
    """How the game is played: "companion" (real dice) or "digital" (the app rolls); anything
    else as it is (Markdown-escaped)."""
    if kind == "companion":
        return pgettext("game kind", "at a real table – you roll the dice")
    if kind == "digital":
        return pgettext("game kind", "the app rolls the dice")
    return md(kind)


def provenance_label(provenance: str) -> str:
    """Where a sheet's or a tableau's values come from ("verified", "stand-in", "user",
    "rulebook", "derived", or several joined by "+"), in the language in force; an unknown
    word as it is (the one table: :mod:`nochmal.data.provenance`)."""
    return provenance_words(provenance)


def provenance_summary_words(summary: str) -> str:
    """Where a tableau's values come from (its ``provenance_summary``: "rulebook",
    "rulebook+derived", ...) in a player's words: "from the rulebook", "partly from the rulebook,
    partly derived stand-ins"; an unknown word as it is."""
    parts = [summary_phrase(p) for p in summary.split("+") if p]
    if len(parts) == 1:
        return parts[0]
    return ", ".join(_("partly {what}").format(what=w) for w in parts)


def mission_name(name: str) -> str:
    """A shipped mission's name ("Colours", "Rows", "Stars", "Four-blocks", "NOCH MAL") in the
    language in force; another name (data) as it is."""
    words = {"Colours": pgettext("mission", "Colours"), "Rows": pgettext("mission", "Rows"),
             "Stars": pgettext("mission", "Stars"), "Four-blocks": pgettext("mission", "Four-blocks"),
             "NOCH MAL": pgettext("mission", "NOCH MAL")}
    return words.get(name, name)


def pass_icon(game) -> str:
    """The pass button's icon: a red box where a pass marks a failed roll, else "skip"."""
    return "🟥" if game.has_failed_rolls else "⏭️"
