"""RULES_VERSION: new games play rules version 2; a game saved under version 1 still opens,
replays and goes on under version 1 (RULES.md C-CHECK: "games saved under version 1 replay
under version 1"). Real SQLite stores in tmp_path, the real import path."""

from __future__ import annotations

import pytest

from nochmal.engine.version import RULES_VERSION
from nochmal.engine.version import SUPPORTED_RULES_VERSIONS
from nochmal.engine.coop import CoopGame
from nochmal.engine.dice import Roll
from nochmal.engine.errors import InvalidInputError
from nochmal.engine.game import CHANCE, BaseGame, game_from_config
from nochmal.engine.moves import PASS, Cross
from nochmal.store.session import GameSession
from nochmal.store.transfer import import_game
from nochmal.store.db import GameStore

Y, G, B = 0, 1, 2


def _quiet(ses: GameSession, seat: int):
    """A one-cell cross of ``seat`` (nothing completes this early in a game), else a pass."""
    for a in ses.state.legal_actions(seat):
        if isinstance(a, Cross) and a.cells.bit_count() == 1:
            return a
    return PASS


def _to_third_failed_roll(ses: GameSession) -> None:
    """3 seats: seat 1 fails in turns 1 and 2, and as the active seat of turn 4 a third time."""
    for turn in range(1, 5):
        ses.record(Roll.of((Y, G, B), (1, 2, 3)))
        while ses.state.current_player() >= 0:
            seat = ses.state.current_player()
            ses.record(PASS if seat == 0 and turn != 3 else _quiet(ses, seat), seat)
            if turn == 4:
                return


def test_RULES_VERSION_is_2_and_version_1_is_still_supported():
    assert RULES_VERSION == 2 and SUPPORTED_RULES_VERSIONS == (1, 2)
    assert CoopGame.create(3, 1).config()["rules_version"] == 2
    with pytest.raises(InvalidInputError, match="rules version 3"):
        game_from_config({"mode": "base", "sheets": ["standard", "standard"], "rules_version": 3})
    with pytest.raises(InvalidInputError, match="rules version"):
        game_from_config({"mode": "base", "sheets": ["standard", "standard"], "rules_version": True})


def test_RULES_VERSION_a_saved_version_1_game_still_opens_replays_and_goes_on_under_version_1(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    old = GameSession.create(store, CoopGame.create(3, 1, rules_version=1), title="saved under v1")
    _to_third_failed_roll(old)
    assert old.state.seats[0].failed == 3

    again = GameSession.load(GameStore(tmp_path / "games.sqlite3"), old.game_id)
    assert again.game.rules_version == 1 and again.meta["rules_version"] == 1
    assert not again.state.is_terminal(), "version 1: the others still finish the turn (C-FAIL v1)"
    assert again.state.current_player() == 1
    while again.state.current_player() >= 0:  # the game goes on under version 1
        again.record(_quiet(again, again.state.current_player()))
    assert again.state.is_terminal() and "C-FAIL" in again.state.outcome().reason
    assert {ev.rules_version for ev in again.events} == {1}

    imported = import_game(store, again.export(), source="v1.json")
    assert imported.game.rules_version == 1
    assert imported.state.to_json() == again.state.to_json()

    new = GameSession.create(store, CoopGame.create(3, 1), title="version 2")
    _to_third_failed_roll(new)
    assert new.state.is_terminal(), "version 2: the third failed roll ends the game at once"
    assert {ev.rules_version for ev in new.events} == {2}


def test_RULES_VERSION_an_export_whose_versions_disagree_is_refused(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    ses = GameSession.create(store, BaseGame(["standard", "standard"], rules_version=1))
    ses.record(Roll.of((Y, G, B), (1, 2, 3)))
    data = ses.export()
    data["events"][0]["rules_version"] = 2  # an event of another version in a version-1 game
    with pytest.raises(InvalidInputError, match="rules_version"):
        import_game(store, data, source="mixed.json")
    data = ses.export()
    data["meta"]["config"]["rules_version"] = data["rules_version"] = data["meta"]["rules_version"] = 9
    with pytest.raises(InvalidInputError, match="rules_version"):
        import_game(store, data, source="future.json")
    assert [g.game_id for g in store.list_games()] == [ses.game_id], "nothing was stored"
    assert ses.state.current_player() != CHANCE
