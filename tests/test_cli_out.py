"""Every ``--out`` writes regular files only, atomically (issue 46, Build 6): real command-line
processes against real files. Something other than a regular file at the path (a FIFO, a
symbolic link, even one to a regular file, a character device, a folder) is refused before
anything is written: exit code 2, one line naming ``--out`` and what is there, the thing left
exactly as it was. A regular file is replaced by a new one in one rename (never written in
place), keeping its permissions; a write that fails midway leaves the old file intact and no
temporary file behind."""

from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from nochmal.data.outfile import OutputPathError, write_file

def nochmal(*argv, cwd: Path, file_size_limit: int | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """``nochmal ARGV`` in a process of its own (with a file size limit: writing past it fails
    with EFBIG, as on a full disk)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    env = dict(os.environ, NOCHMAL_HOME=str(cwd / "home"), NOCHMAL_DB=str(cwd / "default.sqlite3"))
    return subprocess.run([sys.executable, "-m", "nochmal.cli", *map(str, argv)], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=timeout, preexec_fn=limit if file_size_limit else None)


def refused(res: subprocess.CompletedProcess, *words: str) -> str:
    assert res.returncode == 2, (res.returncode, res.stdout, res.stderr)
    assert res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("nochmal: error: --out "), res.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> tuple[Path, str, str]:
    """A store with one finished 6-player co-op game: (store, game id, its export's text)."""
    work = tmp_path_factory.mktemp("out")
    db = work / "games.sqlite3"
    res = nochmal("play", "--mode", "coop", "--players", "6", "--mission", "5", "--policy", "greedy", "--seed", "4",
                  "--json", "--save", "--db", db, cwd=work)
    assert res.returncode == 0, res.stderr
    gid = json.loads(res.stdout)["game_id"]
    res = nochmal("games", "export", gid, "--db", db, cwd=work)
    assert res.returncode == 0, res.stderr
    return db, gid, res.stdout


@pytest.fixture
def work(tmp_path) -> Path:
    (tmp_path / "home").mkdir()
    return tmp_path


def export(saved, out: Path, cwd: Path, **kw) -> subprocess.CompletedProcess:
    db, gid, _text = saved
    return nochmal("games", "export", gid, "--db", db, "--out", out, cwd=cwd, **kw)


def test_a_fifo_is_refused_and_stays_a_fifo(saved, work):
    fifo = work / "pipe.json"
    os.mkfifo(fifo)
    refused(export(saved, fifo, work, timeout=60), str(fifo), "FIFO")  # a write into it would hang: the timeout
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert leftovers(work) == []


def test_a_symlink_to_a_regular_file_is_refused_and_neither_changes(saved, work):
    target = work / "precious.txt"
    target.write_text("keep me\n", encoding="utf-8")
    link = work / "game.json"
    link.symlink_to(target)
    refused(export(saved, link, work), str(link), "symbolic link")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text(encoding="utf-8") == "keep me\n"
    # a dangling link is not followed either: nothing appears where it points
    dangling = work / "dangling.json"
    dangling.symlink_to(work / "nowhere.json")
    refused(export(saved, dangling, work), "symbolic link")
    assert not (work / "nowhere.json").exists() and dangling.is_symlink()
    assert leftovers(work) == []


def test_a_symlink_to_dev_full_is_refused_and_dev_full_is_untouched(saved, work):
    before = os.lstat("/dev/full")
    assert stat.S_ISCHR(before.st_mode)
    link = work / "full.json"
    link.symlink_to("/dev/full")
    refused(export(saved, link, work), "symbolic link")
    after = os.lstat("/dev/full")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    assert link.is_symlink()


def test_a_character_device_is_refused_and_stays_a_device(saved, work):
    """A device node like /dev/full (major 1, minor 7) made in the tmp folder: as root the old
    code renamed its export over it (and over /dev/full itself)."""
    node = work / "full"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except PermissionError:
        pytest.skip("making a device node needs root (CAP_MKNOD)")
    before = os.lstat(node)
    refused(export(saved, node, work), str(node), "character device")
    after = os.lstat(node)
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    assert leftovers(work) == []


def test_a_folder_is_refused(saved, work):
    folder = work / "exports"
    folder.mkdir()
    refused(export(saved, folder, work), str(folder), "folder")
    assert folder.is_dir() and list(folder.iterdir()) == []


def test_a_regular_file_is_replaced_atomically_keeping_its_permissions(saved, work):
    _db, _gid, text = saved
    out = work / "game.json"
    out.write_text("old export\n", encoding="utf-8")
    os.chmod(out, 0o640)
    old_inode = os.lstat(out).st_ino
    res = export(saved, out, work)
    assert res.returncode == 0 and res.stdout == "" and res.stderr == "", res.stderr
    assert out.read_text(encoding="utf-8") == text  # the same text as printed to stdout
    st = os.lstat(out)
    assert stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o640
    assert st.st_ino != old_inode  # a new file renamed over the old one, not the old one rewritten
    assert leftovers(work) == []
    # a new file gets the permissions open() would give (0666 less the umask), not mkstemp's 0600
    umask = os.umask(0o022)
    os.umask(umask)
    fresh = work / "fresh.json"
    assert export(saved, fresh, work).returncode == 0
    assert stat.S_IMODE(os.lstat(fresh).st_mode) == 0o666 & ~umask


def test_a_write_that_fails_midway_leaves_the_old_file_intact(saved, work):
    """The export (58 KB) is cut off at 45,000 bytes by a file size limit, as by a full disk (the
    store's 32 KiB -shm file fits under it): the old file keeps every byte and no temporary file
    is left."""
    _db, _gid, text = saved
    assert len(text.encode()) > 50_000
    out = work / "game.json"
    out.write_text("the old export\n", encoding="utf-8")
    res = export(saved, out, work, file_size_limit=45_000)
    assert res.returncode == 1, (res.returncode, res.stderr)
    assert res.stderr.splitlines() == [f"nochmal: error: {out}: File too large"], res.stderr
    assert out.read_text(encoding="utf-8") == "the old export\n"
    assert leftovers(work) == []
    # an export that fails before writing (an unknown game) leaves it as well
    db, _gid, _ = saved
    res = nochmal("games", "export", "no-such-game", "--db", db, "--out", out, cwd=work)
    assert res.returncode == 2 and out.read_text(encoding="utf-8") == "the old export\n"


def test_every_out_of_the_command_line_refuses_a_symlink(work):
    """sweep --out (a results file), boards scan --out (a sheet file) and boards generate --out
    (a folder, and each sheet file in it) refuse a link before any work."""
    target = work / "target.csv"
    target.write_text("a,b\n1,2\n", encoding="utf-8")
    (work / "r.csv").symlink_to(target)
    refused(nochmal("sweep", "--out", "r.csv", "--games", "1", "--missions", "1", "--players", "1", "--quiet",
                    cwd=work), "r.csv", "symbolic link")
    assert target.read_text(encoding="utf-8") == "a,b\n1,2\n" and not (work / "r.csv.parts").exists()

    (work / "photo.png").write_bytes(b"\x89PNG not read: the parser refuses --out first")
    (work / "mine.toml").symlink_to(target)
    refused(nochmal("boards", "scan", "photo.png", "--out", "mine.toml", cwd=work), "mine.toml", "symbolic link")
    assert target.read_text(encoding="utf-8") == "a,b\n1,2\n"

    real = work / "boards"
    real.mkdir()
    (work / "linked").symlink_to(real)
    res = nochmal("boards", "generate", "--out", "linked", "--count", "2", cwd=work)
    assert res.returncode == 2 and "--out linked: is a symbolic link" in res.stderr, res.stderr
    assert list(real.iterdir()) == []
    os.mkfifo(real / "coop-s5-II.toml")  # where the second sheet goes: refused before the first is written
    res = nochmal("boards", "generate", "--out", real, "--seed", "5", "--count", "2", cwd=work, timeout=60)
    refused(res, "coop-s5-II.toml", "FIFO")
    assert sorted(p.name for p in real.iterdir()) == ["coop-s5-II.toml"]
    os.unlink(real / "coop-s5-II.toml")
    res = nochmal("boards", "generate", "--out", real, "--seed", "5", "--count", "2", cwd=work)
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in real.iterdir()) == ["coop-s5-I.toml", "coop-s5-II.toml"]
    assert all(stat.S_ISREG(os.lstat(p).st_mode) for p in real.iterdir())


def test_the_helper_refuses_what_is_not_a_regular_file_and_keeps_the_old_on_a_writer_error(tmp_path):
    """:func:`write_file` itself (the app's saves and the sweep's results go through it): a
    writer that raises midway leaves the old file and no temporary file."""
    out = tmp_path / "r.parquet"
    out.write_bytes(b"old")

    def half_then_fail(f) -> None:
        f.write(b"x" * 10_000)
        raise RuntimeError("the writer broke")

    with pytest.raises(RuntimeError, match="the writer broke"):
        write_file(out, half_then_fail, name="--out")
    assert out.read_bytes() == b"old" and leftovers(tmp_path) == []
    sock_path = tmp_path / "s.sock"
    import socket

    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(sock_path))
        with pytest.raises(OutputPathError, match=r"^--out .*s\.sock: is a socket"):
            write_file(sock_path, "x", name="--out")
    assert stat.S_ISSOCK(os.lstat(sock_path).st_mode)
    assert write_file(out, b"new") == out and out.read_bytes() == b"new"
