"""The registry of each game's own pages: the shared pages (Start, Table, History) ask the game
registry which game is open or chosen (:func:`nochmal.store.games.kind_of_meta`) and dispatch
through :func:`game_ui`. A game with an entry here brings its own Start form, Table page and
event words; *Noch mal!* has none: the pages are its own (unchanged)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from nochmal.store.games import GAMES, TWENTYONE, GameKind
from nochmal.ui.twentyone import analytics as twentyone_analytics
from nochmal.ui.twentyone import own_sheets as twentyone_sheets
from nochmal.ui.twentyone import start as twentyone_start
from nochmal.ui.twentyone import table as twentyone_table
from nochmal.ui.twentyone import words as twentyone_words


@dataclass(frozen=True)
class GameUI:
    """A game's own pages: the New game form, the Table page's body, an event in words."""

    #: ``new_game_form()``: inside the Start page's New game tab
    new_game_form: Callable[[], None]
    #: ``table_page(ses, access, seat)``: the Table page's body for an open game
    table_page: Callable[..., None]
    #: ``event_text(ev, names)``: a stored event in words (History)
    event_text: Callable[..., str]
    #: ``undo_button(ses, access, key)``: take back the last decision (History)
    undo_button: Callable[..., None]
    #: ``rules()``: every rule id the game checks -> its words (History's "rules in words")
    rules: Callable[[], dict[str, str]]
    #: ``analytics_section()``: the game's section of the Analytics page (None: the page's own)
    analytics_section: Callable[[], None] | None = None
    #: ``sheets_section()``: the game's section of the Sheets page (None: the page's own)
    sheets_section: Callable[[], None] | None = None


_UIS: dict[str, GameUI] = {
    kind.name: ui for kind, ui in (
        (TWENTYONE, GameUI(twentyone_start.new_game_form, twentyone_table.table_page, twentyone_words.event_text,
                              twentyone_table.undo_button, twentyone_words.rules_table,
                              twentyone_analytics.analytics_section, twentyone_sheets.sheets_section)),
    )
}


def analytics_sections() -> list[tuple[GameKind, Callable[[], None]]]:
    """The games with their own Analytics page, each with it, in the registry's order."""
    return [(GAMES[name], ui.analytics_section) for name, ui in _UIS.items() if ui.analytics_section is not None]


def sheets_sections() -> list[tuple[GameKind, Callable[[], None]]]:
    """The games with their own section of the Sheets page, each with it, in the registry's order."""
    return [(GAMES[name], ui.sheets_section) for name, ui in _UIS.items() if ui.sheets_section is not None]


def game_ui(kind: GameKind) -> GameUI | None:
    """The pages of the game ``kind``, or None where the shared pages are the game's own."""
    return _UIS[kind.name] if kind.name in _UIS else None
