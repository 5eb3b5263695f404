"""The command line refuses bad input before any work and prints nothing a file could abuse
(issue 17, item 5): every argument checked by the parser (exit code 2, one line naming the
argument, nothing written), control characters escaped on the terminal, ``play --save``
atomic under SIGKILL, ``games import`` refusing unreadable / oversized / malformed files."""

from __future__ import annotations

import json
import os
import pathlib
import random
import signal
import socket
import stat
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from nochmal.cli import args as argtypes
from nochmal.cli.play import saved_events
from test_coop_cli import run_main  # the same in-process CLI call as the co-op CLI tests
from nochmal.engine.errors import InvalidInputError
from nochmal.engine.game import play
from nochmal.bots.registry import get_policy
from nochmal.store.session import GameSession
from nochmal.store.transfer import MAX_EXPORT_BYTES, parse_export_bytes
from nochmal.analytics.simulate import make_game
from nochmal.store.db import GameStore
from nochmal.cli.terminal import printable

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture
def work(tmp_path, monkeypatch):
    """An empty working folder (the cwd) with its own user data folder and default store."""
    w = tmp_path / "work"
    w.mkdir()
    (w / "notes.txt").write_text("not a table\n", encoding="utf-8")
    (w / "folder").mkdir()
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NOCHMAL_DB", str(tmp_path / "default.sqlite3"))
    monkeypatch.chdir(w)
    return w


def run_proc(*argv, cwd, stdin: bytes = b"", timeout: float = 60) -> subprocess.CompletedProcess:
    env = dict(os.environ, NOCHMAL_HOME=str(cwd / "home"), NOCHMAL_DB=str(cwd / "default.sqlite3"))
    return subprocess.run([sys.executable, "-m", "nochmal.cli", *map(str, argv)], capture_output=True,
                          input=stdin, cwd=cwd, env=env, timeout=timeout)


def snapshot(folder: pathlib.Path) -> dict:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) if p.is_file() else "dir"
            for p in sorted(folder.rglob("*"))}


def assert_one_error_line(rc: int, out: str, err: str, *words: str) -> str:
    assert rc == 2, (rc, err)
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("nochmal: error: ")
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


# --------------------------------------------------------------------------- every argument checked
TAB2 = ROOT / "missions" / "tableau-2.toml"
SWEEP = ["sweep", "--out", "r.csv", "--quiet"]
BAD_ARGUMENTS = [  # (argv, words the line must hold: the argument's name first)
    (["play", "--mode", "base", "--players", "9"], "--players", "2-6", "9"),
    (["play", "--mode", "base", "--players", "1"], "--players", "2-6"),
    (["play", "--mode", "coop", "--players", "7"], "--players", "1-6", "7"),
    (["play", "--mode", "coop", "--players", "0"], "--players", "at least 1"),
    (["play", "--mode", "solo", "--players", "2"], "--players", "1 player"),
    (["play", "--players", "two"], "--players", "whole number"),
    (["play", "--mode", "coop", "--mission", "0"], "--mission", "at least 1"),
    (["play", "--mode", "coop", "--mission", "6"], "--mission", "1-5"),
    (["play", "--mode", "base", "--mission", "2"], "--mission", "coop"),
    (["play", "--mode", "base", "--tableau", str(TAB2)], "--tableau", "coop"),
    (["play", "--mode", "coop", "--players", "2", "--sheets", "coop-I"], "--sheets", "1 sheet", "2 player"),
    (["play", "--mode", "base", "--sheets", "standard,standard,standard"], "--sheets", "3 sheet"),
    (["play", "--sheets", ","], "--sheets", "at least one"),
    (["play", "--sheets", "standard,nope"], "--sheets", "nope", "R-SHEET"),
    (["play", "--mode", "coop", "--players", "2", "--tableau", "missing.toml"], "--tableau", "missing.toml", "no such file"),
    (["play", "--mode", "coop", "--players", "2", "--tableau", "folder"], "--tableau", "not a regular file"),
    (["play", "--mode", "coop", "--players", "3", "--tableau", str(TAB2)], "2 players"),
    (["play", "--policy", "nope"], "--policy", "nope"),
    (["play", "--seed", "1.5"], "--seed", "whole number"),
    (["play", "--save", "--db", "nowhere/g.sqlite3"], "--db", "nowhere", "does not exist"),
    (["play", "--save", "--db", "folder"], "--db", "folder"),
    (["play", "--save", "--db", "notes.txt/g.sqlite3"], "--db", "not a folder"),
    (["play", "--db", "g.sqlite3"], "--db", "--save"),
    (["play", "--mode", "solo", "--policy", "bound", "--save"], "--save", "--policy bound", "greedy"),
    (["play", "--mode", "base", "--policy", "bound"], "--policy bound", "--mode base", "coop", "solo"),
    (["simulate", "--mode", "base", "--players", "3", "--policy", "bound"], "--policy bound", "--mode base"),
    (["simulate", "--games", "0"], "--games", "at least 1"),
    (["simulate", "--games", "-3"], "--games", "at least 1"),
    (["simulate", "--games", str(10**12)], "--games", "1-1000000"),
    (["simulate", "--games", "9" * 5000], "--games", "whole number"),
    (["simulate", "--workers", "0"], "--workers", "at least 1"),
    (["simulate", "--mode", "solo", "--players", "3"], "--players", "1 player"),
    ([*SWEEP, "--games", "0"], "--games", "at least 1"),
    ([*SWEEP, "--chunk", "0"], "--chunk", "at least 1"),
    ([*SWEEP, "--workers", "0"], "--workers", "at least 1"),
    ([*SWEEP, "--dask-local", "0"], "--dask-local", "at least 1"),
    ([*SWEEP, "--missions", "6-7"], "--missions", "1-5", "6-7"),
    ([*SWEEP, "--missions", "3-1"], "--missions", "3-1", "1-3"),
    ([*SWEEP, "--missions", ""], "--missions", "at least one"),
    ([*SWEEP, "--missions", "1,x"], "--missions", "'x'"),
    ([*SWEEP, "--missions", "1-" + "9" * 5000], "--missions"),
    ([*SWEEP, "--players", "0-2"], "--players", "1-6"),
    ([*SWEEP, "--players", "7"], "--players", "1-6"),
    ([*SWEEP, "--policy", ","], "--policy", "at least one"),
    ([*SWEEP, "--policy", "greedy,clever"], "--policy", "clever"),
    ([*SWEEP, "--tableau", "missing.toml"], "--tableau", "no such file"),
    ([*SWEEP, "--tableau", str(TAB2), "--players", "3-4"], "--tableau", "2 players", "no game"),
    ([*SWEEP, "--parts", "notes.txt"], "--parts", "not a folder"),
    ([*SWEEP, "--scheduler", "tcp://"], "--scheduler", "tcp://host:8786"),
    ([*SWEEP, "--scheduler", "localhost"], "--scheduler", "port"),
    ([*SWEEP, "--scheduler", "tcp://localhost:0"], "--scheduler", "port"),
    ([*SWEEP, "--scheduler", "tcp://localhost:99999"], "--scheduler", "tcp://host:8786"),
    ([*SWEEP, "--scheduler", "http://localhost:8786"], "--scheduler", "tcp://"),
    ([*SWEEP, "--scheduler", "tcp://localhost:8786/x"], "--scheduler", "tcp://host:8786"),
    ([*SWEEP, "--scheduler", "tcp://no-such-host.invalid:8786"], "--scheduler", "no-such-host.invalid"),
    (["sweep", "--out", "r.txt"], "--out", ".csv or .parquet"),
    (["sweep", "--out", "nowhere/r.csv"], "--out", "does not exist"),
    (["sweep", "--out", "folder"], "--out", ".csv or .parquet"),
    (["calibrate", "missing.parquet"], "results", "no such file"),
    (["calibrate", "notes.txt"], "results", ".csv or .parquet"),
    (["calibrate", str(ROOT / "docs" / "calibration-sweep.parquet"), "--ladder", "0.8,0.6"], "--ladder", "five"),
    (["calibrate", str(ROOT / "docs" / "calibration-sweep.parquet"), "--ladder", "a,b,c,d,e"], "--ladder"),
    (["calibrate", str(ROOT / "docs" / "calibration-sweep.parquet"), "--ladder", "nan,1,1,1,1"], "--ladder"),
    (["games", "import"], "FILE"),
    (["games", "import", "missing.json"], "missing.json", "no such file"),
    (["games", "import", "folder"], "folder", "not a regular file"),
    (["games", "show"], "GAME_ID"),
    (["games", "list", "extra"], "games list", "extra"),
    (["games", "list", "--db", "nowhere/g.sqlite3"], "--db", "does not exist"),
    (["games", "show", "abc", "--db", "typo.sqlite3"], "--db", "typo.sqlite3", "no game store"),
    (["games", "list", "--out", "x.json"], "--out", "export"),
    (["games", "export", "abc", "--out", "nowhere/x.json"], "--out", "does not exist"),
    (["boards", "generate", "--count", "0"], "--count", "at least 1"),
    (["boards", "generate", "--count", "101"], "--count", "1-100"),
    (["boards", "generate", "--out", "notes.txt"], "--out", "not a folder"),
    (["boards", "generate", "--prefix", "../evil"], "--prefix", "../evil"),
    (["boards", "generate", "--base", "nope"], "--base", "nope"),
    (["boards", "check", "--dir", "nowhere"], "--dir", "no such folder"),
]


@pytest.mark.parametrize("argv_words", BAD_ARGUMENTS, ids=[" ".join(a[0])[:60] for a in BAD_ARGUMENTS])
def test_a_wrong_argument_is_one_line_exit_2_and_nothing_written(work, capsys, argv_words):
    argv, *words = argv_words
    before = snapshot(work.parent)
    rc, out, err = run_main(capsys, *argv)
    assert_one_error_line(rc, out, err, *words)
    assert snapshot(work.parent) == before  # no store, no results, no parts folder, no boards


def test_wrong_arguments_in_a_real_process(work):
    for argv, word in ((["simulate", "--games", "0"], "--games"), (["sweep", "--out", "r.csv", "--missions", "3-1"],
                                                                   "--missions"),
                       (["play", "--mode", "\x1b[31mcoop"], "--mode")):
        res = run_proc(*argv, cwd=work)
        err = res.stderr.decode()
        assert_one_error_line(res.returncode, res.stdout.decode(), err, word)
        assert "\x1b" not in err


def test_a_scheduler_that_does_not_answer_is_refused_within_seconds(work, capsys):
    """192.0.2.1 (TEST-NET-1) is never routed: the connect times out (or the network is
    unreachable at once); either way the parser refuses the address before any work."""
    t0 = time.monotonic()
    rc, out, err = run_main(capsys, *SWEEP, "--scheduler", "tcp://192.0.2.1:8786")
    assert time.monotonic() - t0 < argtypes.SCHEDULER_TIMEOUT_S + 3
    assert_one_error_line(rc, out, err, "--scheduler", "192.0.2.1")
    assert not (work / "r.csv").exists() and not (work / "r.csv.parts").exists()


def test_a_closed_port_is_refused_and_a_listening_one_accepted():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(Exception, match="refused|no Dask scheduler"):
        argtypes.scheduler_address(f"tcp://127.0.0.1:{port}")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        assert argtypes.scheduler_address(f"127.0.0.1:{port}") == f"tcp://127.0.0.1:{port}"
        assert argtypes.scheduler_address(f" tcp://127.0.0.1:{port} ") == f"tcp://127.0.0.1:{port}"


def test_scheduler_and_dask_local_exclude_each_other(work, capsys):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        rc, out, err = run_main(capsys, *SWEEP, "--scheduler", f"127.0.0.1:{port}", "--dask-local", "2")
    assert_one_error_line(rc, out, err, "--dask-local", "not allowed with", "--scheduler")
    assert not (work / "r.csv").exists()


def test_good_arguments_still_run(work, capsys):
    rc, out, err = run_main(capsys, "simulate", "--mode", "coop", "--players", "2", "--mission", "3", "--games", "2",
                            "--workers", "1", "--quiet", "--json")
    assert rc == 0, err
    assert json.loads(out)["games"] == 2 and json.loads(out)["mission"] == 3
    rc, out, err = run_main(capsys, "sweep", "--out", "r.csv", "--missions", "2", "--players", "1,2", "--games", "2",
                            "--chunk", "1", "--workers", "1", "--quiet", "--tableau", str(TAB2))
    assert rc == 0, err
    assert json.loads(out)["games"] == 2 and (work / "r.csv").is_file()  # 1 mission x the tableau's 2 players


def test_simulate_seeds_unchanged_by_the_mission_default(work, capsys):
    """--mission now defaults to None (to tell "not given" from 1); the games are the same."""
    a = run_main(capsys, "simulate", "--mode", "coop", "--players", "2", "--games", "3", "--workers", "1",
                 "--quiet", "--json")
    b = run_main(capsys, "simulate", "--mode", "coop", "--players", "2", "--mission", "1", "--games", "3",
                 "--workers", "1", "--quiet", "--json")
    assert a[0] == b[0] == 0 and json.loads(a[1]) == json.loads(b[1])


# --------------------------------------------------------------------------- terminal escaping
@pytest.mark.parametrize("raw,shown", [
    ("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m"),
    ("\x9b2J", "\\x9b2J"),
    ("a\u202eb\u2066c", "a\\u202eb\\u2066c"),
    ("line\nforged\r\tx", "line\\nforged\\r\\tx"),
    ("\x00\x07\x08\x7f", "\\x00\\x07\\x08\\x7f"),
    ("a\u2028b\u2029c", "a\\u2028b\\u2029c"),
    ("zero\u200bwidth\ufeff", "zero\\u200bwidth\\ufeff"),
    ("\ud800", "\\ud800"),
    ("\U000e0041\U0010fffd", "\\U000e0041\\U0010fffd"),
    ("Jürgen ⚄ 日本 🎲 👨\u200d👩\u200d👧 é", "Jürgen ⚄ 日本 🎲 👨\u200d👩\u200d👧 é"),
    ("C:\\Users\\x <b>&amp;</b>", "C:\\Users\\x <b>&amp;</b>"),
])
def test_printable_escapes_controls_and_keeps_unicode(raw, shown):
    assert printable(raw) == shown
    assert printable(shown) == shown  # already printable: unchanged


def _no_raw_controls(text: str) -> None:
    import unicodedata

    for ch in text:
        if ch != "\n":
            assert unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp", "Cs") or ch == "\u200d", repr(ch)


def test_titles_and_seat_names_from_the_store_are_escaped(work, capsys):
    """A store written by someone else (an older version, another tool) holds control
    characters in a title and in seat names: games list / show print them escaped."""
    db = work / "g.sqlite3"
    rc, out, err = run_main(capsys, "play", "--mode", "coop", "--players", "2", "--seed", "3", "--json", "--save",
                            "--db", db)
    assert rc == 0, err
    store = GameStore(db)
    gid = json.loads(out)["game_id"]
    meta = dict(store.get(gid).meta, seat_names=["\x1b[2J\x1b[HEve", "Bob\u202eevil"])
    hostile = store.create_game(meta, title="x\x1b]0;pwned\x07 Jürgen 🎲\nforged line", events=store.events(gid))
    store.close()
    rc, out, err = run_main(capsys, "games", "list", "--db", db)
    assert rc == 0, err
    _no_raw_controls(out)
    assert "x\\x1b]0;pwned\\x07 Jürgen 🎲\\nforged line" in out
    assert len(out.splitlines()) == 2
    rc, out, err = run_main(capsys, "games", "show", hostile, "--db", db)
    _no_raw_controls(out + err)
    if rc == 0:  # (a stricter loader may refuse such a meta: then the error line is escaped too)
        assert "\\x1b[2J\\x1b[HEve crosses" in out or "\\x1b[2J\\x1b[HEve passes" in out
        assert "Bob\\u202eevil" in out
    rc, out, err = run_main(capsys, "games", "show", "\x1b[2Jnope\u202e", "--db", db)
    assert rc != 0 and out == ""
    _no_raw_controls(err)
    assert "\\x1b[2Jnope\\u202e" in err or "\\\\x1b" in err or "\\x1b" in err


def test_error_lines_that_quote_input_are_escaped(work, capsys):
    rc, out, err = run_main(capsys, "play", "--sheets", "\x1b[31mred\u202e")
    assert_one_error_line(rc, out, err, "--sheets")
    _no_raw_controls(err)
    rc, out, err = run_main(capsys, "play", "--mode", "coop", "--players", "2", "--tableau", "t\x1b[2J\u2066.toml")
    line = assert_one_error_line(rc, out, err, "--tableau")
    _no_raw_controls(err)
    assert "t\\x1b[2J\\u2066.toml" in line


# --------------------------------------------------------------------------- play --save
def test_saved_events_are_those_record_would_write(work):
    """The one-transaction save writes the events GameSession.record wrote one by one before:
    same actions, same seats, same fields (the time stamps aside)."""
    game = make_game("coop", 3, 2)
    state = play(game.new_state(), get_policy("greedy"), random.Random(5))
    batch = saved_events(game, state.history, "greedy")
    store = GameStore(work / "r.sqlite3")
    ses = GameSession.create(store, make_game("coop", 3, 2), kind="digital", seed=5, bots=["greedy"] * 3)
    for action in state.history:
        ses.record(action, by="greedy")
    one_by_one = store.events(ses.game_id)
    strip = (lambda evs: [{k: v for k, v in e.items() if k != "at"} for e in evs])
    assert strip(batch) == strip(one_by_one)
    assert any(e.get("seat") not in (None, 0) for e in batch)  # passive seats' entries carry their seat


def _expected(seed: int) -> tuple[int, dict]:
    st = play(make_game("coop", 6, 5).new_state(), get_policy("greedy"), random.Random(seed))
    return len(st.history), json.loads(json.dumps(st.outcome().to_json()))


def test_play_save_killed_at_any_moment_leaves_no_half_game(work):
    """20 runs of ``play --save`` (6-player co-op, ~190 events each), killed with SIGKILL at
    staggered moments from just after the start to after the end: every game in the store is
    whole (all its events, over, replays to the same outcome); the killed runs left nothing."""
    db = work / "kill.sqlite3"
    env = dict(os.environ, NOCHMAL_HOME=str(work.parent / "home"))

    def start(seed: int) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "nochmal.cli", "play", "--mode", "coop", "--players", "6",
                                 "--mission", "5", "--policy", "greedy", "--seed", str(seed), "--json", "--save",
                                 "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=work)

    t0 = time.monotonic()
    first = start(100)
    out, err = first.communicate(timeout=60)
    full = time.monotonic() - t0
    assert first.returncode == 0, err
    finished = {100: json.loads(out)["game_id"]}
    killed = []
    trials = 20
    for k in range(trials):
        seed = 101 + k
        delay = full * (0.05 + 1.25 * k / (trials - 1))  # from the imports to past the commit
        proc = start(seed)
        try:
            out, err = proc.communicate(timeout=delay)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
            killed.append(seed)
        else:
            assert proc.returncode == 0, err
            finished[seed] = json.loads(out)["game_id"]
    assert killed, "no run was killed"
    store = GameStore(db)
    games = store.list_games()
    seeds = {}
    for g in games:
        ses = GameSession.load(store, g.game_id)
        seed = ses.meta["seed"]
        seeds[seed] = g.game_id
        n_events, outcome = _expected(seed)
        assert ses.n_events == g.n_events == n_events, (seed, ses.n_events, n_events)
        assert ses.state.is_terminal()
        assert json.loads(json.dumps(ses.state.outcome().to_json())) == outcome
    assert all(seeds.get(s) == gid for s, gid in finished.items())  # every finished run saved its game
    assert set(seeds) <= set(finished) | set(killed)
    assert len(set(killed) - set(seeds)) >= 1  # some runs died before their commit and left nothing


# --------------------------------------------------------------------------- games import FILE
@pytest.fixture
def export_file(work, capsys):
    db = work / "g.sqlite3"
    rc, out, err = run_main(capsys, "play", "--mode", "coop", "--players", "6", "--mission", "5", "--policy",
                            "greedy", "--seed", "4", "--json", "--save", "--db", db)
    assert rc == 0, err
    gid = json.loads(out)["game_id"]
    path = work / "game.json"
    rc, out, err = run_main(capsys, "games", "export", gid, "--db", db, "--out", path)
    assert rc == 0, err
    return db, path


def test_the_import_cap_fits_the_largest_real_export(export_file, capsys):
    """A 6-player co-op game played to the end (27 turns at most: ~190 events) is far below the
    cap; a file of exactly the cap is still read, one byte more is refused."""
    db, path = export_file
    size = path.stat().st_size
    assert len(json.loads(path.read_text())["events"]) > 150
    assert size * 8 < MAX_EXPORT_BYTES, size
    text = path.read_text(encoding="utf-8")
    at_cap = path.with_name("at-cap.json")
    at_cap.write_text(text + " " * (MAX_EXPORT_BYTES - len(text.encode())), encoding="utf-8")
    assert at_cap.stat().st_size == MAX_EXPORT_BYTES
    rc, out, err = run_main(capsys, "games", "import", at_cap, "--db", db)
    assert rc == 0, err
    over = path.with_name("over.json")
    over.write_text(text + " " * (MAX_EXPORT_BYTES - len(text.encode()) + 1), encoding="utf-8")
    rc, out, err = run_main(capsys, "games", "import", over, "--db", db)
    assert_one_error_line(rc, out, err, str(over), "1024 KiB")


def _bad_files(folder: pathlib.Path, good: bytes) -> dict[str, pathlib.Path]:
    files = {
        "not-utf8": b"\xff\xfe{\x00}",
        "latin1": good.replace(b"coop", "co\xf6p".encode("latin-1"), 1),
        "not-json": b"{nope",
        "truncated": good[: len(good) // 2],
        "deep-1e5": b"[" * 100_000 + b"]" * 100_000,
        "deep-40": b"[" * 40 + b"]" * 40,
        "deep-in-meta": good.replace(b'"meta": {', b'"meta": {"x": ' + b"[" * 50 + b"]" * 50 + b",", 1),
        "huge-number": b'{"format": "nochmal-game", "version": ' + b"9" * 5000 + b"}",
        "nan": b'{"format": "nochmal-game", "version": NaN}',
        "too-large": b"[" + b"0," * (MAX_EXPORT_BYTES // 2) + b"0]",
        "empty": b"",
    }
    paths = {}
    for name, data in files.items():
        p = folder / f"{name}.json"
        p.write_bytes(data)
        paths[name] = p
    fifo = folder / "fifo.json"
    os.mkfifo(fifo)  # opening it would wait for a writer for ever
    paths["fifo"] = fifo
    paths["device"] = pathlib.Path("/dev/zero")  # endless
    return paths


def test_bad_import_files_are_one_line_naming_the_file_and_change_nothing(export_file, capsys):
    db, path = export_file
    good = path.read_bytes()
    files = _bad_files(path.parent, good)
    locked = path.parent / "locked.json"
    locked.write_bytes(good)
    locked.chmod(0)
    if os.geteuid() != 0:  # root reads it anyway
        files["unreadable"] = locked
    before = db.read_bytes()
    for name, p in files.items():
        rc, out, err = run_main(capsys, "games", "import", p, "--db", db)
        line = assert_one_error_line(rc, out, err, str(p))
        assert db.read_bytes() == before, name  # the store is not even opened
        assert "Traceback" not in line
    locked.chmod(stat.S_IRUSR | stat.S_IWUSR)
    rc, out, err = run_main(capsys, "games", "import", locked, "--db", db)  # readable again: imported
    assert rc == 0, err


def test_bad_import_files_in_a_real_process(export_file):
    db, path = export_file
    files = _bad_files(path.parent, path.read_bytes())
    for name in ("deep-1e5", "huge-number", "fifo", "not-utf8"):
        res = run_proc("games", "import", files[name], "--db", db, cwd=path.parent, timeout=30)
        assert_one_error_line(res.returncode, res.stdout.decode(), res.stderr.decode(), str(files[name]))


@settings(max_examples=300, deadline=None)
@given(hst.binary(max_size=400) | hst.builds(lambda n, o: o * n, hst.integers(0, 3000), hst.sampled_from([b"[", b"{\"a\":"])))
def test_parse_export_bytes_raises_only_input_errors(data):
    try:
        parse_export_bytes(data, "upload.json")
    except InvalidInputError as err:
        assert str(err).startswith("upload.json: ")
