"""Shared test setup: no test reads or writes the real user data folder or game store."""

import pytest


@pytest.fixture(autouse=True, scope="session")
def _isolated_user_data(tmp_path_factory):
    """Shipped data only: no user tableaus/boards of the machine running the tests, and a
    throw-away game store. Tests that need their own set these again (monkeypatch)."""
    home = tmp_path_factory.mktemp("nochmal-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NOCHMAL_HOME", str(home))
        mp.setenv("NOCHMAL_DB", str(home / "games.sqlite3"))
        yield home
