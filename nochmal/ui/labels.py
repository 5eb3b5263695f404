"""How the game's things are named on screen: dice faces, colours, seats, a roll's dice, and
what passing is called in this variant (Markdown or plain text; no widgets)."""

from __future__ import annotations

from nochmal.engine.cells import COLOURS
from nochmal.engine.dice import COLOUR_FACES, COLOUR_JOKER, NUMBER_FACES, NUMBER_JOKER
from nochmal.ui.safe import md

BADGES = ("yellow", "green", "blue", "red", "orange")  # Markdown badge colour per colour


def colour_face_label(face: int) -> str:
    """A colour die's face as Markdown (a coloured badge with the colour's name)."""
    if face == COLOUR_JOKER:
        return ":gray-badge[**X** joker]"
    return f":{BADGES[face]}-badge[{COLOURS[face]}]"


def number_face_label(face: int) -> str:
    return "?" if face == NUMBER_JOKER else str(face)


def colour_label(colour: int) -> str:
    return f":{BADGES[colour]}-badge[{COLOURS[colour]}]"


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
    """The pass button's words: "Pass", or "Failed roll" where a pass marks a failed roll."""
    return game.pass_name.capitalize()


def pass_icon(game) -> str:
    """The pass button's icon: a red box where a pass marks a failed roll, else "skip"."""
    return "🟥" if game.has_failed_rolls else "⏭️"
