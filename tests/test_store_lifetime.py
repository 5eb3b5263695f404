"""The store's file outlives every open and close in the process that serves it.

SQLite keeps its locks as POSIX advisory locks, and POSIX drops *all* of a process's locks on
a file as soon as *any* descriptor of that file is closed in that process ("How To Corrupt An
SQLite Database File", section 2.2). A second ``GameStore`` on the same file in a server
process (a client's ``clear_cache`` message used to make the app build one) must therefore
never open and close the file itself: the next process to close its own connection would
believe it is the last, checkpoint and delete the live ``-wal``/``-shm`` under the server, and
the server's later writes would go to a deleted file. These tests use a real file and a real
second process.
"""

from __future__ import annotations

import pathlib
import sqlite3
import subprocess
import sys
import textwrap

from nochmal.store.db import GameStore

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: Another process that opens the store, makes one game and closes it again, as
#: ``nochmal games list``, ``play --save`` or a second server would.
OTHER_PROCESS = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    from nochmal.store.db import GameStore
    with GameStore(sys.argv[2]) as store:
        print(store.create_game({"by": "other"}, title=sys.argv[3]))
""")


def _other_process_makes_a_game(db: pathlib.Path, title: str) -> str:
    out = subprocess.run([sys.executable, "-c", OTHER_PROCESS, str(ROOT), str(db), title],
                         capture_output=True, text=True, timeout=60, check=True)
    return out.stdout.strip()


def _integrity(db: pathlib.Path) -> str:
    con = sqlite3.connect(db)
    try:
        return con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()


def test_a_second_store_in_the_same_process_keeps_the_first_ones_locks(tmp_path):
    """The sequence that corrupted the store in 4 of 4 runs with a live server."""
    db = tmp_path / "games.sqlite3"
    server = GameStore(db)  # the server's store, with a write in its WAL
    made_here = [server.create_game({"by": "server"}, title="server 1")]
    for seq in range(5):
        server.append(made_here[0], seq, {"seq": seq})

    again = GameStore(db)  # what a dropped cache made: a second store in the same process
    made_elsewhere = [_other_process_makes_a_game(db, "other 1")]
    made_here.append(server.create_game({"by": "server"}, title="server 2"))
    server.append(made_here[1], 0, {"seq": 0})
    made_elsewhere.append(_other_process_makes_a_game(db, "other 2"))
    again.close()  # closing the second store must not drop the first one's locks either
    made_elsewhere.append(_other_process_makes_a_game(db, "other 3"))
    made_here.append(server.create_game({"by": "server"}, title="server 3"))
    server.close()

    assert _integrity(db) == "ok"
    with GameStore(db) as fresh:
        ids = [info.game_id for info in fresh.list_games()]
        assert sorted(ids) == sorted(made_here + made_elsewhere)
        assert len(ids) == len(set(ids)) == 6
        assert fresh.events(made_here[0]) == [{"seq": s} for s in range(5)]
        assert fresh.events(made_here[1]) == [{"seq": 0}]


def test_the_wal_is_never_deleted_while_a_connection_of_this_process_lives(tmp_path):
    db = tmp_path / "games.sqlite3"
    wal = pathlib.Path(f"{db}-wal")
    server = GameStore(db)
    game = server.create_game({}, title="kept")
    for _ in range(3):  # open and close a store here, then in another process, three times
        GameStore(db).close()
        _other_process_makes_a_game(db, "elsewhere")
        assert wal.exists(), "a closing connection took the WAL that the open store still uses"
    server.append(game, 0, {"after": "the others"})
    server.close()
    with GameStore(db) as fresh:
        assert fresh.events(game) == [{"after": "the others"}]
        assert len(fresh.list_games()) == 4
    assert _integrity(db) == "ok"
