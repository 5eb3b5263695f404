"""Parsing is bounded by cost (issue 46, build item 2): a TOML or JSON text from outside is
checked for size and nesting by one linear scan before :mod:`tomllib` / :mod:`json` see it.

Why: :mod:`tomllib` keeps a record of every prefix of a dotted key, so a key ``a.a.a...`` of
depth d costs memory ~ d²: 4,000 parts take ~60 MB, a 260 KB co-op set file of one such key
over 20 GB. Real files are read; nothing is mocked.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import tracemalloc
from pathlib import Path

import pytest

from nochmal.data import coopset, userdata
from nochmal.engine import jsonin, tomlin
from nochmal.engine.errors import DataFileError, InvalidInputError
from nochmal.engine.sheet import get_sheet, parse_data_file, read_data_file, sheet_to_toml
from nochmal.store.transfer import MAX_EXPORT_BYTES, parse_export_bytes

ROOT = Path(__file__).resolve().parent.parent
MB = 2**20


def dotted(depth: int) -> bytes:
    return b".".join([b"a"] * depth) + b" = 1\n"


def peak_of(fn) -> tuple[object, int]:
    """What ``fn()`` returned or raised, and the peak of Python memory it allocated (bytes)."""
    tracemalloc.start()
    try:
        try:
            out: object = fn()
        except Exception as err:  # noqa: BLE001 - the test looks at it
            out = err
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --------------------------------------------------------------------------- TOML
@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.mark.parametrize("importer", ["sheet", "tableau", "set"])
def test_a_deep_dotted_key_is_refused_before_parsing_with_little_memory(home, importer):
    # 8,000 parts: tomllib alone peaks at ~250 MB on it (quadratic); refused here, under 50 MB
    raw = b'name = "x"\n' + dotted(8000)
    run = {"sheet": userdata.import_sheet_file, "tableau": userdata.import_tableau_file,
           "set": coopset.import_set}[importer]
    err, peak = peak_of(lambda: run("deep.toml", raw))
    assert isinstance(err, DataFileError), err
    assert str(err).startswith("uploaded file 'deep.toml': ")
    assert "a dotted key has more than 16 parts; a data file may nest at most 16 levels" in str(err)
    assert peak < 50 * MB, f"peak {peak / MB:.0f} MB"
    assert not home.exists() or not any(p.is_file() for p in home.rglob("*"))


@pytest.mark.parametrize("text,problem", [
    ("".join("[" + ".".join([f"t{i}"] * 17) + "]\n" for i in range(200)),
     "a dotted key has more than 16 parts"),
    ("[[" + ".".join(["t"] * 16) + "]]\n", "a table header nests 17 levels deep"),
    ("[" + ".".join(["t"] * 8) + "]\n" + ".".join(["k"] * 9) + " = 1\n", "a key nests 17 levels deep"),
    ("x = " + "[" * 5000 + "]" * 5000 + "\n", "arrays and tables nest 17 levels deep"),
    ("x = " + "{ a = " * 5000 + "1" + " }" * 5000 + "\n", "a key nests 17 levels deep"),
    ("x = { " + ".".join(["a"] * 400) + " = 1 }\n", "a dotted key has more than 16 parts"),
    (" . ".join(['"a"'] * 400) + " = 1\n", "a dotted key has more than 16 parts"),
])
def test_every_way_of_nesting_deeply_is_named(text, problem):
    with pytest.raises(DataFileError) as exc:
        parse_data_file(text.encode(), "f.toml", limit=coopset.MAX_SET_FILE_BYTES)
    assert problem in str(exc.value) and "at most 16" in str(exc.value)


@pytest.mark.parametrize("text", [
    'name = "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s"\nx = \'[[[[[[[[[[[[[[[[[[[[\'\n',
    "# [[[[[[[[[[[[[[[[[[[[ a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r = \nx = 1 # {{{{{{{{{{{{{{{{{{{{\n",
    'x = """\n[[[[[[[[[[[[[[[[[[\na.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r = 1\n"""""\n'
    "y = '''\n{{{{{{{{{{{{{{{{{{{{{'''\n",
    "x = [" + ", ".join(["1.5"] * 300) + "]\nwhen = 1979-05-27T07:32:00.999999\n",
    'x = "a\\"[[[[[[[[[[[[[[[[[[[[[[[[[\\\\"\n"q.\\"k" = 1\n',
    "x = [\n  [1, 2],\n  [3, 4],\n]\n[t]\ny = 2\n",
])
def test_strings_comments_and_numbers_do_not_count_as_nesting(text):
    assert tomlin.loads(text) == __import__("tomllib").loads(text)


def test_every_shipped_file_and_a_full_co_op_set_still_parse():
    files = sorted((ROOT / "boards").glob("*.toml")) + sorted((ROOT / "missions").glob("*.toml"))
    assert len(files) >= 20
    for path in files:
        assert isinstance(read_data_file(path), dict), path
    # a set with all six co-op sheets and six tableaus nests deepest of all real files (6)
    lines = []
    for slot in coopset.SLOTS:
        lines += [f"[sheets.{slot}]", *(f"[sheets.{slot}.coop]" if line == "[coop]" else line
                                       for line in sheet_to_toml(get_sheet(f"coop-{slot}").spec).splitlines())]
    for n in range(1, 7):
        lines += [f"[tableaus.{n}]", *(line for line in (ROOT / "missions" / f"tableau-{n}.toml").read_text()
                                       .splitlines() if not line.startswith("#"))]
    text = "\n".join(lines) + "\n"
    assert tomlin.nesting_problem(text, 5) is not None and tomlin.nesting_problem(text) is None
    assert set(parse_data_file(text.encode(), "set", limit=coopset.MAX_SET_FILE_BYTES)["sheets"]) == set(coopset.SLOTS)


def test_no_module_parses_toml_but_through_the_checked_helper():
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "nochmal").rglob("*.py")
                 if "tomllib.load" in p.read_text(encoding="utf-8") and p.name != "tomlin.py"]
    assert offenders == []


def test_the_260_kb_set_file_of_the_report_is_refused_in_bounded_memory(tmp_path):
    """The file of the report (one dotted key of 130,000 parts) in a child process whose address
    space is capped at 1.5 GB: tomllib alone would need over 20 GB (a MemoryError here); the
    checked import refuses it and the child's peak resident memory stays small."""
    raw = dotted(130_000)
    assert 250_000 < len(raw) <= coopset.MAX_SET_FILE_BYTES
    (tmp_path / "evil.toml").write_bytes(raw)
    code = textwrap.dedent(f"""
        import resource, sys
        from nochmal.data import coopset
        from nochmal.engine.errors import DataFileError
        raw = open({str(tmp_path / "evil.toml")!r}, "rb").read()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))
        try:
            coopset.import_set("evil.toml", raw)
            print("ACCEPTED")
        except DataFileError as err:
            print("REFUSED", err)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print("GROWTH_KB", after - before)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"NOCHMAL_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "REFUSED uploaded file 'evil.toml': not usable TOML: a dotted key has more than 16 parts" in out, out
    growth_kb = int(out.split("GROWTH_KB")[1])
    assert growth_kb < 50 * 1024, out


# --------------------------------------------------------------------------- JSON
def test_deep_json_is_refused_by_the_scan_before_parsing():
    text = "[" * (MAX_EXPORT_BYTES - 10)
    err, peak = peak_of(lambda: jsonin.loads(text))
    assert isinstance(err, InvalidInputError)
    assert str(err) == "arrays and objects nested more than 32 levels deep (at most 32 are accepted)"
    assert peak < 10 * MB, f"peak {peak / MB:.1f} MB"
    with pytest.raises(InvalidInputError, match="nested more than 32 levels deep"):
        parse_export_bytes(("{\"a\": " * 40 + "1" + "}" * 40).encode(), "game.json")
    # brackets in strings (escaped quotes too) are no nesting
    assert jsonin.loads('{"a": "[[[[\\"[[[[", "b": [["\\\\", {"c": "{{{{"}]]}') == \
        {"a": '[[[["[[[[', "b": [["\\", {"c": "{{{{"}]]}
    assert jsonin.nesting_depth(json.dumps([[[["x"]]]])) == 4


def test_an_overlong_json_text_is_refused_naming_the_limit():
    with pytest.raises(InvalidInputError, match=r"at most 1,048,576 \(1024 KiB\)"):
        jsonin.loads(" " * (jsonin.MAX_CHARS + 1) + "1")


# --------------------------------------------------------------------------- the page
def test_the_sheets_page_shows_the_limit_for_a_deep_set_file(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NOCHMAL_DB", str(tmp_path / "games.sqlite3"))
    at = AppTest.from_file(str(ROOT / "nochmal" / "ui" / "pages" / "sheets.py"), default_timeout=60).run()
    raw = b'name = "Our box"\n' + dotted(100_000)
    at.file_uploader(key="coopset_upload").set_value(("box.toml", raw, "application/toml")).run()
    at.button(key="coopset_import").click().run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    assert any("a dotted key has more than 16 parts; a data file may nest at most 16 levels" in e
               and "box.toml" in e for e in errors), errors
    assert not (tmp_path / "home").exists() or not any(p.is_file() for p in (tmp_path / "home").rglob("*"))
