"""How the game's things are named on screen: dice faces, colours, seats, a roll's dice, and
what passing is called in this variant (Markdown or plain text; no widgets)."""

from __future__ import annotations

from nochmal.engine.cells import COLOURS
from nochmal.engine.dice import COLOUR_FACES, COLOUR_JOKER, NUMBER_FACES, NUMBER_JOKER
from nochmal.data import i18n
from nochmal.data.i18n import _, pgettext
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


def seat_label(names: list[str], seat: int) -> str:
    """A seat as Markdown (its number, then its name escaped): "2. Ada"."""
    return f"{seat + 1}. {md(names[seat])}"


def seat_text(names: list[str], seat: int) -> str:
    """A seat as plain text, for HTML (which escapes it) and plain-text widgets."""
    return f"{seat + 1}. {names[seat]}"


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
    """What players call the game's variant ("base game", "solo", "co-op"; the engine's
    ``game.title``, English: an unknown one is shown as it is)."""
    title = game.title
    if title == "base game":
        return pgettext("variant", "base game")
    if title == "solo":
        return pgettext("variant", "solo")
    if title == "co-op":
        return pgettext("variant", "co-op")
    return title


def kind_label(kind: str) -> str:
    """How the game is played: "companion" (real dice) or "digital" (the app rolls); anything
    else as it is (Markdown-escaped)."""
    if kind == "companion":
        return pgettext("game kind", "companion")
    if kind == "digital":
        return pgettext("game kind", "digital")
    return md(kind)


def provenance_label(provenance: str) -> str:
    """Where a sheet's or a tableau's values come from ("verified", "stand-in", "user",
    "rulebook", "derived", or several joined by "+"), in the language in force; an unknown
    word as it is."""
    words = {"verified": pgettext("provenance", "verified"), "stand-in": pgettext("provenance", "stand-in"),
             "user": pgettext("provenance", "user"), "rulebook": pgettext("provenance", "rulebook"),
             "derived": pgettext("provenance", "derived")}
    return "+".join(words.get(p, p) for p in provenance.split("+"))


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
