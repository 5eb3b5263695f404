"""Sheet, tableau and mission files: written with tomli-w, read strictly, every bad file refused
with one clean error naming the file and the field, and nothing written on error.

Real files in a temporary NOCHMAL_HOME; nothing is mocked.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nochmal.data import userdata
from nochmal.engine.coopdata import (
    MISSIONS_DIR,
    TABLEAU_KEYS,
    TableauSpec,
    get_tableau,
    load_missions,
    load_tableau_file,
    tableau_from_data,
    tableau_to_toml,
)
from nochmal.engine.errors import DataFileError, NochmalError
from nochmal.engine.sheet import (
    BOARDS_DIR,
    MAX_DATA_FILE_BYTES,
    SheetSpec,
    control_character,
    get_sheet,
    load_sheet_file,
    sheet_to_toml,
)

STANDARD = get_sheet("standard").spec
VALID_SHEET = sheet_to_toml(STANDARD.model_copy(update={"id": "fuzzed", "provenance": "user"})).encode()
VALID_TABLEAU = tableau_to_toml(get_tableau(3)).encode()

#: Names that are plain text but full of TOML and markup syntax: they must come back exactly.
HOSTILE_NAMES = [
    'Sheet "I" \\ test',
    "\\u0000 is six characters here, not a NUL",
    "'''\"\"\" quotes of every kind ' \"",
    "<img src=x onerror=alert(1)>",
    "<iframe srcdoc='<script>parent.location=1</script>'>",
    "[[mission]] # not a comment",
    'x" \nid = "evil',  # a newline: refused below, listed here to show it never reaches a file
    "**bold** _em_ `code` [link](http://x) :red[red] $x$",
    "Ünïcödé ✓ 🎲 ノート",
    "back\\slash\\\\double",
    " leading and trailing spaces ",
]
CONTROL_CHARACTERS = ["\x00", "\x07", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\x9b", "\u2028", "\u2029",
                      "\u202e", "\u2066", "\u200f", "\ud800"]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def snapshot(path: Path) -> dict:
    return {p.relative_to(path): p.read_bytes() for p in path.rglob("*") if p.is_file()} if path.exists() else {}


def sheet_data(**update) -> dict:
    data = STANDARD.model_dump(mode="json")
    data.update({"id": "mine", "provenance": "user"}, **update)
    return data


# --------------------------------------------------------------------------- writing with tomli-w
@pytest.mark.parametrize("name", [n for n in HOSTILE_NAMES if control_character(n) is None])
def test_hostile_names_and_sources_round_trip_exactly(home, name):
    name = name[:80]
    path, _ = userdata.save_user_sheet(sheet_data(name=name, source=name + " (source)"))
    loaded = load_sheet_file(path).spec
    assert loaded.name == name and loaded.source == name + " (source)"
    tomllib.loads(path.read_text(encoding="utf-8"))  # one valid document, nothing injected
    assert set(tomllib.loads(path.read_text(encoding="utf-8"))) == set(SheetSpec.model_fields) - {"coop"}


@pytest.mark.parametrize("ch", CONTROL_CHARACTERS, ids=[f"U+{ord(c):04X}" for c in CONTROL_CHARACTERS])
@pytest.mark.parametrize("field", ["name", "source"])
def test_control_characters_in_names_are_refused_naming_the_field(home, ch, field):
    with pytest.raises(DataFileError) as exc:
        userdata.save_user_sheet(sheet_data(**{field: f"Pad{ch}I"}))
    message = str(exc.value)
    assert f"field {field}:" in message and f"U+{ord(ch):04X}" in message
    assert "mine.toml" in message  # the file it would have been
    assert snapshot(home) == {}


def test_tableau_names_refuse_control_characters_and_files_round_trip(tmp_path):
    data = tomllib.loads(VALID_TABLEAU.decode())
    data["name"] = 'Tableau "3" \\ <b>x</b>'
    spec = tableau_from_data(data)
    (tmp_path / "t.toml").write_text(tableau_to_toml(spec), encoding="utf-8")
    assert load_tableau_file(tmp_path / "t.toml") == spec
    data["name"] = "Tableau\x1b[31m"
    with pytest.raises(DataFileError, match=r"t\.toml: field name: .*U\+001B"):
        tableau_from_data(data, path=tmp_path / "t.toml")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(min_size=1, max_size=80), source=st.text(max_size=120))
def test_any_name_round_trips_or_is_refused_naming_the_field(home, name, source):
    try:
        path, _ = userdata.save_user_sheet(sheet_data(name=name, source=source))
    except DataFileError as err:
        assert re.search(r"field (name|source):", str(err)), str(err)
        assert control_character(name) or control_character(source) or not name.strip()
        return
    spec = load_sheet_file(path).spec
    assert (spec.name, spec.source) == (name, source)


def test_the_writer_keeps_the_layout_of_the_shipped_files():
    for path in sorted(BOARDS_DIR.glob("*.toml")):
        assert sheet_to_toml(load_sheet_file(path).spec) == path.read_text(encoding="utf-8"), path


# --------------------------------------------------------------------------- strict values
@pytest.mark.parametrize("bad", ['"5"', "5.0", "true", "5e0", "[5]", "{ v = 5 }"])
def test_tableau_values_must_be_whole_numbers(tmp_path, bad):
    text = VALID_TABLEAU.decode().replace("goal_19 = { value = 18,", f"goal_19 = {{ value = {bad},", 1)
    assert text != VALID_TABLEAU.decode()
    path = tmp_path / "tableau-3.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as exc:
        load_tableau_file(path)
    assert str(exc.value).startswith(f"{path}: field goal_19.value:"), str(exc.value)


@pytest.mark.parametrize("line, field", [("players = 3", 'players = "3"'), ("players = 3", "players = 3.0"),
                                         ("players = 3", "players = true")])
def test_tableau_players_and_track_are_strict(tmp_path, line, field):
    path = tmp_path / "t.toml"
    path.write_text(VALID_TABLEAU.decode().replace(line, field), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"t\.toml: field players:"):
        load_tableau_file(path)
    track = ", ".join(["1", "2", "3"] * 9).replace("3", '"3"', 1)
    path.write_text(VALID_TABLEAU.decode().replace("players = 3\n", f"players = 3\ntrack = [{track}]\n"),
                    encoding="utf-8")
    with pytest.raises(DataFileError, match=r"t\.toml: field track\.2:"):
        load_tableau_file(path)


def test_sheet_numbers_are_strict_too(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(VALID_SHEET.decode().replace("jokers = 8", "jokers = 8.0"), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"s\.toml: field jokers: Input should be a valid integer"):
        load_sheet_file(path)


def test_save_user_tableau_refuses_strings_and_floats(home):
    values = {k: get_tableau(2).value(k) for k in TABLEAU_KEYS}
    for bad in ("5", 5.0, True):
        with pytest.raises(DataFileError, match="field goal_10: .* is not a whole number"):
            userdata.save_user_tableau(2, {**values, "goal_10": bad})
    assert snapshot(home) == {}


# --------------------------------------------------------------------------- missions
def test_a_duplicate_mission_id_names_the_file_and_the_id(tmp_path):
    text = (MISSIONS_DIR / "missions.toml").read_text(encoding="utf-8")
    assert len(load_missions()) == 5
    dup = tmp_path / "missions.toml"
    dup.write_text(text.replace("[[mission]]\nid = 3", "[[mission]]\nid = 2", 1), encoding="utf-8")
    with pytest.raises(DataFileError) as exc:
        load_missions(dup)
    assert str(exc.value).startswith(f"{dup}: field mission: ")
    assert "mission id 2 appears more than once" in str(exc.value)


# --------------------------------------------------------------------------- bad files, one clean error each
BAD_FILES = {
    "not UTF-8": lambda raw: raw.replace(b'name = "', b'name = "\xc3\x28', 1),
    "not TOML": lambda raw: raw + b"\nthis is [not toml\n",
    "truncated": lambda raw: raw[: len(raw) // 2],
    "wrong type": lambda raw: re.sub(rb"^name = .*$", b"name = 12", raw, count=1, flags=re.M),
    "missing field": lambda raw: re.sub(rb"^name = .*\n", b"", raw, count=1, flags=re.M),
    "huge number": lambda raw: re.sub(rb"^players = 3$|^jokers = 8$", b"jokers = " + b"9" * 5000, raw, count=1,
                                      flags=re.M),
    "large number": lambda raw: re.sub(rb"^players = 3$|^jokers = 8$", b"jokers = " + b"9" * 400, raw, count=1,
                                       flags=re.M),
    "deep nesting": lambda raw: raw + b"\ndeep = " + b"[" * 3000 + b"]" * 3000 + b"\n",
    "deep tables": lambda raw: raw + b"\ndeep = " + b"{ a = " * 2000 + b"1" + b" }" * 2000 + b"\n",
    "deep dotted key": lambda raw: raw + b"\n" + b".".join([b"a"] * 8000) + b" = 1\n",
    "deep table headers": lambda raw: raw + b"".join(b"\n[" + b".".join([b"t%d" % i] * 40) + b"]" for i in range(50)),
    "too large": lambda raw: raw + b"# " + b"x" * MAX_DATA_FILE_BYTES + b"\n",
    "unknown field": lambda raw: b"colour = \"red\"\n" + raw,
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
@pytest.mark.parametrize("what", ["sheet", "tableau"])
def test_bad_uploads_give_one_clean_error_and_write_nothing(home, kind, what):
    raw = BAD_FILES[kind](VALID_SHEET if what == "sheet" else VALID_TABLEAU)
    importer = userdata.import_sheet_file if what == "sheet" else userdata.import_tableau_file
    with pytest.raises(DataFileError) as exc:
        importer("bad <b>file</b>.toml", raw)
    message = str(exc.value)
    assert message.startswith("uploaded file 'bad <b>file</b>.toml': "), message
    assert "\n" not in message and "Traceback" not in message and len(message) < 2000
    assert snapshot(home) == {}


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_bad_files_in_the_user_folder_never_break_the_lists(home, kind):
    boards, tableaus = home / "boards", home / "tableaus"
    boards.mkdir(parents=True)
    tableaus.mkdir(parents=True)
    (boards / "broken.toml").write_bytes(BAD_FILES[kind](VALID_SHEET))
    (tableaus / "tableau-3.toml").write_bytes(BAD_FILES[kind](VALID_TABLEAU))
    row = {r["id"]: r for r in userdata.sheet_catalogue()}["broken"]
    assert row["error"] and row["error"].startswith(str(boards / "broken.toml") + ": "), row
    with pytest.raises(DataFileError) as exc:
        get_tableau(3)
    assert str(exc.value).startswith(str(tableaus / "tableau-3.toml") + ": ")


# --------------------------------------------------------------------------- fuzzing
VALUE_TEXTS = st.one_of(
    st.integers(min_value=-(10**25), max_value=10**25).map(str),
    st.sampled_from(['"5"', "5.0", "true", "1e999", "nan", "inf", "[]", "{}", '""', '"x"', '[1, "a"]', "1979-05-27",
                     '"\\u0007"', '"\\u202e"', '"<b>x</b>"', "[[1], [2]]", "{ value = 5 }", '"""a\nb"""',
                     "9" * 5000, "[" * 3000 + "]" * 3000, "{ a = " * 1500 + "1" + " }" * 1500]),
    st.text(max_size=12).map(lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'),
)


@st.composite
def mutated(draw, raw: bytes) -> bytes:
    """``raw`` changed by one to three structural mutations."""
    for _ in range(draw(st.integers(1, 3))):
        lines = raw.split(b"\n")
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["value", "value", "drop", "duplicate", "truncate", "insert", "flip", "bad utf-8"]))
        if op == "value" and b" = " in lines[i]:
            key = lines[i].split(b" = ", 1)[0]
            lines[i] = key + b" = " + draw(VALUE_TEXTS).encode("utf-8", "surrogatepass")
        elif op == "drop":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        raw = b"\n".join(lines)
        at = draw(st.integers(0, len(raw)))
        if op == "truncate":
            raw = raw[:at]
        elif op == "insert":
            raw = raw[:at] + draw(st.binary(min_size=1, max_size=6)) + raw[at:]
        elif op == "flip" and raw:
            at = min(at, len(raw) - 1)
            raw = raw[:at] + bytes([raw[at] ^ draw(st.integers(1, 255))]) + raw[at + 1:]
        elif op == "bad utf-8":
            raw = raw[:at] + draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"])) + raw[at:]
    return raw


FUZZ = Counter()


def _fuzz_one(importer, raw: bytes) -> None:
    root = Path(tempfile.mkdtemp(prefix="nochmal-fuzz-"))
    old = os.environ.get("NOCHMAL_HOME")
    os.environ["NOCHMAL_HOME"] = str(root)
    try:
        try:
            importer("fuzzed.toml", raw)
        except DataFileError as err:
            FUZZ["refused"] += 1
            assert err.path == "uploaded file 'fuzzed.toml'" and err.problems, err
            assert all(p and "\n" not in p for p in err.problems), err.problems
            assert snapshot(root) == {}  # nothing written
        except NochmalError as err:  # pragma: no cover - every refusal is a DataFileError
            raise AssertionError(f"{type(err).__name__} instead of DataFileError: {err}") from None
        else:
            FUZZ["accepted"] += 1
            written = snapshot(root)
            assert len(written) == 1
            (path_rel, text), = written.items()
            tomllib.loads(text.decode("utf-8"))
    finally:
        if old is None:
            os.environ.pop("NOCHMAL_HOME", None)
        else:
            os.environ["NOCHMAL_HOME"] = old
        shutil.rmtree(root, ignore_errors=True)


@settings(max_examples=500, deadline=None)
@given(raw=mutated(VALID_SHEET))
def test_fuzzed_sheet_files_are_saved_or_refused_cleanly(raw):
    _fuzz_one(userdata.import_sheet_file, raw)


@settings(max_examples=500, deadline=None)
@given(raw=mutated(VALID_TABLEAU))
def test_fuzzed_tableau_files_are_saved_or_refused_cleanly(raw):
    _fuzz_one(userdata.import_tableau_file, raw)


def test_fuzzing_met_both_outcomes():
    """The mutations are neither all harmless nor all fatal (run after the fuzz tests)."""
    if not FUZZ:
        pytest.skip("run together with the fuzz tests")
    assert FUZZ["refused"] > 0, FUZZ
    print(f"fuzzed data files: {FUZZ['refused']} refused, {FUZZ['accepted']} accepted")


def test_a_valid_upload_is_saved_as_a_user_file(home):
    path, _, spec = userdata.import_sheet_file("pad.toml", VALID_SHEET.replace(b'"fuzzed"', b'"my-pad"', 1))
    assert path == home / "boards" / "my-pad.toml" and spec.provenance == "user"
    verified = sheet_to_toml(STANDARD.model_copy(update={"id": "claims-verified"})).encode()
    _, _, spec = userdata.import_sheet_file("v.toml", verified)
    assert spec.provenance == "user"  # an upload is never a verified sheet
    path, spec = userdata.import_tableau_file("t.toml", VALID_TABLEAU)
    assert path == home / "tableaus" / "tableau-3.toml" and isinstance(spec, TableauSpec)
    assert {getattr(spec, k).provenance for k in TABLEAU_KEYS} == {"user"}
    assert get_tableau(3) == spec


# --------------------------------------------------------------------------- the pages
@pytest.mark.parametrize("name", ["sheets", "tableaus"])
def test_pages_show_hostile_and_broken_files_without_breaking(home, name):
    from streamlit.testing.v1 import AppTest

    userdata.save_user_sheet(sheet_data(id="hostile", name=HOSTILE_NAMES[0][:80], source=HOSTILE_NAMES[4]))
    (home / "boards" / "broken.toml").write_bytes(BAD_FILES["deep nesting"](VALID_SHEET))
    (home / "tableaus").mkdir()
    (home / "tableaus" / "tableau-2.toml").write_bytes(BAD_FILES["huge number"](VALID_TABLEAU))
    page = Path(__file__).resolve().parent.parent / "nochmal" / "ui" / "pages" / f"{name}.py"
    at = AppTest.from_file(str(page), default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    if name == "sheets":
        at.selectbox(key="view_sheet").set_value("broken").run()
        assert any("nest 17 levels deep; a data file may nest at most 16" in e.value for e in at.error), \
            [e.value for e in at.error]
        at.selectbox(key="view_sheet").set_value("hostile").run()
        assert not at.exception, [e.value for e in at.exception]
    else:
        assert any("too many digits" in e.value for e in at.error), [e.value for e in at.error]
