"""Shared test setup: no test reads or writes the real user data folder or game store."""

import os

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


@pytest.fixture(autouse=True)
def _own_main_module():
    """``sys.modules["__main__"]`` as it was before the test. Streamlit's AppTest runs app.py as
    ``__main__`` and leaves it there; a process that a later test spawns (a Dask LocalCluster's
    workers, multiprocessing's spawn) imports the parent's ``__main__`` by its path, and would
    run the app in the worker (an AppTest file before tests/test_analytics.py in one pytest
    process failed so, on 3.11 and 3.13)."""
    import sys

    main = sys.modules.get("__main__")
    yield
    if main is not None and sys.modules.get("__main__") is not main:
        sys.modules["__main__"] = main


# --- the numba kernels, compiled while the browser tests run ----------------------------------------
# On a fresh clone numba compiles the kernels once (about a minute; kept on disk
# after). When a session runs the browser tests first (they mostly wait on the browser), that
# time is spent beside them in a background process, and the first test after them waits for
# it to end instead of compiling again. A session without browser tests compiles where needed
# (``make test`` runs the browser tests, then the compiled game's heaviest users, in a pytest process
# of their own, beside the other tests: tools/run_tests.sh).
_WARM: dict = {}


def pytest_collection_finish(session):
    import os
    import subprocess
    import sys

    items = session.items
    if any("browser" in item.nodeid.split("/")[:2] for item in items) and any(
            "browser" not in item.nodeid.split("/")[:2] for item in items):
        _WARM["process"] = subprocess.Popen([sys.executable, "-m", "nochmal.bots.warm"],
                                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, preexec_fn=lambda: os.nice(10))


def pytest_runtest_setup(item):
    process = _WARM.get("process")
    if process is not None and "browser" not in item.nodeid.split("/")[:2]:
        process.wait()  # its exit status does not matter: a test that needs the kernel compiles it
        _WARM.clear()


def pytest_sessionfinish(session):
    process = _WARM.pop("process", None)
    if process is not None:
        process.kill()
        process.wait()


# --- the game store on both backends -----------------------------------------------------------------
# ``store_url``: a fresh SQLite file, then a fresh schema of a PostgreSQL database on a throwaway cluster started
# once per session from Debian's binaries (tests/pgcluster.py). In CI (CI=true) a cluster that cannot
# start fails the tests; elsewhere they are skipped with the reason.
_PG: dict = {}


@pytest.fixture(scope="session")
def pg_cluster():
    import os

    from pgcluster import Cluster, ClusterError

    cluster = None
    try:
        import psycopg  # noqa: F401 (the store's PostgreSQL backend needs it)

        cluster = Cluster()
        admin = cluster.start()
    except (ClusterError, ImportError, OSError) as err:
        log = cluster.log() if cluster is not None else ""
        if cluster is not None:
            cluster.stop()
        reason = f"PostgreSQL for the store's tests cannot start: {err}\n{log}".strip()
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        yield cluster, admin
    finally:
        cluster.stop()


def fresh_pg_store(pg_cluster) -> str:
    """The URL of a new, empty schema in the session's ``stores`` database (the store's tables go
    into the connection's schema: ``search_path`` in the URL). A schema is as separate as a
    database for the store and costs no copy of a template database."""
    import psycopg

    cluster, admin = pg_cluster
    _PG["n"] = _PG.get("n", 0) + 1
    if _PG["n"] == 1:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("CREATE DATABASE stores")
    name = f"store_{_PG['n']}"
    with psycopg.connect(cluster.url("stores"), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    return cluster.url("stores", name)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path) -> str:
    """Where a test's game store is: an SQLite file in tmp_path, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return fresh_pg_store(request.getfixturevalue("pg_cluster"))
