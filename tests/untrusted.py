"""A game and user sheets full of markup, for the tests that no page renders it (issue 17).

Every free-text field holds a payload: the title, every seat name, each event's ``by``, a user
sheet's name and source, and the file name (= id) of a broken user sheet. The game comes into
a store through the real import path (:func:`nochmal.store.transfer.import_game`).
"""

from __future__ import annotations

import json
from pathlib import Path

from nochmal.ui import entry, newgame
from nochmal.engine.game import CHANCE, TEAM
from nochmal.engine.moves import PASS, Cross
from nochmal.store.session import GameSession
from nochmal.store.transfer import import_game
from nochmal.engine.sheet import SheetSpec, get_sheet, sheet_to_toml
from nochmal.store.db import GameStore

LEAK = "127.0.0.1:9/"  # nothing listens there: a request to it is the leak the payloads try
#: one per seat (a seat name has at most 40 characters)
SEAT_NAMES = [
    '<img src=x onerror="window.__xss=1">',
    "<style>body{display:none}</style>",
    "![x](http://127.0.0.1:9/leak.png)",
    "[link](javascript:alert(1))",
    '<iframe src="http://127.0.0.1:9/f">',
    "http://127.0.0.1:9/a www.example.com",
]
TITLE = '<iframe srcdoc="<script>parent.__xss=1</script>">![t](//127.0.0.1:9/t)'
#: the ``by`` of the events, in turn (at most 64 characters)
BYS = [
    '<meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/">',
    '<img src=x onerror="window.__xss=1">',
    "[by](javascript:alert(1))",
    '<iframe srcdoc="<script>parent.__xss=1</script>">',
    "![b](http://127.0.0.1:9/b.png)",
]
SHEET_ID = "markup-pad"
SHEET_NAME = '<img src=x onerror="window.__xss=1"> ![s](http://127.0.0.1:9/s.png)'
SHEET_SOURCE = ('<meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/"> [src](javascript:alert(1)) '
                "<style>body{display:none}</style> <iframe srcdoc=\"<script>parent.__xss=1</script>\">")
BROKEN_SHEET_ID = "[x](javascript:alert(2)) <img src=x onerror=window.__xss=2>"


def write_user_sheets(home: Path) -> None:
    """Into ``home``/boards (NOCHMAL_HOME): a valid co-op sheet with markup in its name and
    source, and a file that cannot be read whose name (its id) is markup."""
    boards = home / "boards"
    boards.mkdir(parents=True, exist_ok=True)
    data = get_sheet("coop-I").spec.model_dump(mode="json")
    data.update(id=SHEET_ID, name=SHEET_NAME, source=SHEET_SOURCE, provenance="user")
    (boards / f"{SHEET_ID}.toml").write_text(sheet_to_toml(SheetSpec.model_validate(data)), encoding="utf-8")
    (boards / f"{BROKEN_SHEET_ID}.toml").write_text('id = "<b>broken\n', encoding="utf-8")


def _play(ses: GameSession, decisions: int, bys: list[str]) -> None:
    """Digital dice and plain crosses (else a failed roll), each event entered "by" one of ``bys``."""
    for i in range(decisions):
        by = bys[i % len(bys)]
        st = ses.state
        if st.current_player() == CHANCE:
            ses.roll_digital(by=by)
        elif st.current_player() == TEAM:
            ses.record(st.legal_actions()[0], by=by)
        else:
            seat = entry.seats_to_decide(st)[0]
            plain = [a for a in st.legal_actions(seat) if isinstance(a, Cross) and not a.joker_cost]
            ses.record(plain[0] if plain and i % 4 else PASS, seat=seat, by=by)
    ses.undo(by=bys[0])


def markup_export(tmp: Path, decisions: int = 12, *, control: bool = False) -> dict:
    """An exported co-op game (6 seats, the markup sheet for seat 1), made in a store of its
    own under ``tmp``. The user sheets must be in NOCHMAL_HOME already. ``control``: the same
    game with plain names (what a page shows of it is the yardstick)."""
    store = GameStore(tmp / f"source-games-{control}.sqlite3")
    names, title, bys = (([f"Seat {i + 1}" for i in range(6)], "Control game", ["host", "dice"]) if control
                         else (list(SEAT_NAMES), TITLE, BYS))
    try:
        sheets = [SHEET_ID] + newgame.default_sheets("coop", 6)[1:]
        ses = GameSession.create(store, newgame.make_game("coop", sheets, 1), title=title, seat_names=names,
                                 kind="digital", seed=5)
        _play(ses, decisions, bys)
        return json.loads(json.dumps(ses.export()))
    finally:
        store.close()


def import_markup_game(store: GameStore, tmp: Path, *, control: bool = False) -> GameSession:
    """The markup game (or its ``control``), imported into ``store`` as a file would be."""
    return import_game(store, markup_export(tmp, control=control), source="markup-game.json")
