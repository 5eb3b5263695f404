"""``nochmal legal-moves`` answers every line, whatever it holds (issue 17, item 5).

The pure function :func:`nochmal.engine.queries.answer_line` is fuzzed with hypothesis: random bytes,
random JSON values, structural mutations of a valid query, truncations, deep nesting, huge
numbers, invalid UTF-8 and over-long lines. Every line must get exactly one JSON object with
"moves" xor "error", the catch-all for unexpected exceptions must never be reached, and rule
ids stay in the messages. One real subprocess then pipes a mix of bad and good lines through
the command and checks one answer per line, in order.

``SENT`` counts the lines each fuzz test sent (printed with ``pytest -s``)."""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from nochmal.engine.cells import CELL_NAMES, COLOURS
from nochmal.engine.queries import MAX_LINE_BYTES, answer_line, legal_cell_sets
from nochmal.engine.sheet import BOARDS_DIR, MAX_COUNT

SENT: collections.Counter = collections.Counter()
VALID = {"sheet": "standard", "crossed": ["H4", "H5", "G5"], "colour": "blue", "count": 2}
FIELDS = ("sheet", "crossed", "colour", "count")
SHEETS = sorted(p.stem for p in BOARDS_DIR.glob("*.toml"))  # the shipped sheets (no user boards)


def answer(raw: bytes, kind: str) -> dict:
    """answer_line, checked: one object, "moves" xor "error", serialisable as one line."""
    SENT[kind] += 1
    out = answer_line(raw)
    assert isinstance(out, dict) and len(out) == 1 and set(out) <= {"moves", "error"}, out
    line = json.dumps(out)
    assert "\n" not in line and json.loads(line) == out
    if "error" in out:
        msg = out["error"]
        assert isinstance(msg, str) and msg.strip()
        assert "internal error" not in msg, (raw[:200], msg)  # the catch-all is for bugs only
        assert "Traceback" not in msg and len(msg) < 600, msg
    else:
        moves = out["moves"]
        assert isinstance(moves, list) and moves == sorted(moves)
        assert all(m == sorted(m) and 1 <= len(m) <= MAX_COUNT and set(m) <= set(CELL_NAMES) for m in moves)
    return out


def line(value) -> bytes:
    return json.dumps(value).encode() + b"\n"


json_scalars = (hst.none() | hst.booleans() | hst.integers() | hst.floats(allow_nan=False, allow_infinity=False)
                | hst.text(max_size=20))
json_values = hst.recursive(json_scalars, lambda kids: hst.lists(kids, max_size=5)
                            | hst.dictionaries(hst.text(max_size=8), kids, max_size=5), max_leaves=20)


# --------------------------------------------------------------------------- fuzzing the pure function
@settings(max_examples=1000, deadline=None)
@given(hst.binary(max_size=300))
def test_random_bytes_are_answered(raw):
    answer(raw, "random bytes")


@settings(max_examples=600, deadline=None)
@given(json_values)
def test_random_json_values_are_answered(value):
    out = answer(line(value), "random JSON")
    if not isinstance(value, dict):
        assert "JSON object" in out["error"]


@settings(max_examples=800, deadline=None)
@given(hst.data())
def test_mutated_queries_are_answered(data):
    """Delete, add or replace fields of a valid query; the answer is the engine's own."""
    query = dict(VALID)
    for _ in range(data.draw(hst.integers(1, 3), label="mutations")):
        op = data.draw(hst.sampled_from(["delete", "add", "replace", "crossed", "good"]), label="op")
        if op == "delete" and query:
            query.pop(data.draw(hst.sampled_from(sorted(query))))
        elif op == "add":
            query[data.draw(hst.text(max_size=10))] = data.draw(json_values)
        elif op == "replace":
            query[data.draw(hst.sampled_from(FIELDS))] = data.draw(json_values)
        elif op == "crossed":
            query["crossed"] = data.draw(hst.lists(hst.sampled_from(CELL_NAMES) | hst.text(max_size=4), max_size=30))
        else:  # a value of the right kind
            query["sheet"] = data.draw(hst.sampled_from(SHEETS))
            query["colour"] = data.draw(hst.sampled_from(COLOURS))
            query["count"] = data.draw(hst.integers(-2, MAX_COUNT + 2))
    out = answer(line(query), "mutated query")
    try:
        expected = {"moves": legal_cell_sets(query)}
    except ValueError as err:
        expected = {"error": str(err)}
    assert out == expected
    crossed, count = query.get("crossed", []), query.get("count")
    only_count_wrong = (set(FIELDS) - {"crossed"} <= set(query) <= set(FIELDS) and query["sheet"] in SHEETS
                        and query["colour"] in COLOURS and isinstance(crossed, list)
                        and all(isinstance(c, str) and c in CELL_NAMES for c in crossed)
                        and isinstance(count, int) and not isinstance(count, bool) and not 1 <= count <= MAX_COUNT)
    if only_count_wrong:
        assert out["error"].startswith("R-COUNT"), out


@settings(max_examples=300, deadline=None)
@given(hst.sampled_from(SHEETS), hst.lists(hst.sampled_from(CELL_NAMES), max_size=40),
       hst.sampled_from(COLOURS), hst.integers(1, MAX_COUNT), hst.data())
def test_truncated_lines_are_answered(sheet, crossed, colour, count, data):
    raw = line({"sheet": sheet, "crossed": crossed, "colour": colour, "count": count})
    assert "moves" in answer(raw, "valid query")
    cut = data.draw(hst.integers(0, len(raw) - 2))
    out = answer(raw[:cut], "truncated")
    assert "error" in out  # no prefix of a JSON object is a JSON object


@settings(max_examples=100, deadline=None)
@given(hst.integers(500, 200_000), hst.sampled_from([b"[", b'{"a":', b'{"sheet":', b"[{\"x\":"]),
       hst.booleans())
def test_deep_nesting_is_answered(depth, opener, closed):
    closer = {b"[": b"]", b'{"a":': b"}", b'{"sheet":': b"}", b'[{"x":': b"}]"}[opener]
    raw = opener * depth + b"1" + (closer * depth if closed else b"")
    out = answer(raw[:MAX_LINE_BYTES], "deep nesting")
    assert "error" in out


@settings(max_examples=100, deadline=None)
@given(hst.integers(4_000, 12_000), hst.sampled_from(["count", "crossed", "sheet", "top"]), hst.booleans())
def test_huge_numbers_are_answered(digits, where, negative):
    number = ("-" if negative else "") + "9" * digits
    text = {"count": f'{{"sheet":"standard","colour":"blue","count":{number}}}',
            "crossed": f'{{"sheet":"standard","crossed":[{number}],"colour":"blue","count":1}}',
            "sheet": f'{{"sheet":{number},"colour":"blue","count":1}}',
            "top": number}[where]
    out = answer(text.encode(), "huge number")
    assert "error" in out
    if digits > 4300:
        assert "digits" in out["error"]
    elif where == "count":
        assert out["error"].startswith("R-COUNT")


BAD_UTF8 = [b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\x80", b"\xe2\x82", b"\xf8\x88\x80\x80\x80", b"\xf4\x90\x80\x80"]


@settings(max_examples=300, deadline=None)
@given(hst.sampled_from(BAD_UTF8), hst.data())
def test_invalid_utf8_is_answered(bad, data):
    raw = line(VALID)
    at = data.draw(hst.integers(0, len(raw) - 1))
    out = answer(raw[:at] + bad + raw[at:], "bad UTF-8")
    assert "UTF-8" in out["error"]


@settings(max_examples=30, deadline=None)
@given(hst.integers(1, 5_000), hst.sampled_from([b" ", b"x", b"\xff", b"["]))
def test_over_long_lines_are_answered(extra, filler):
    out = answer(filler * (MAX_LINE_BYTES + extra) + line(VALID), "over-long")
    assert "longer" in out["error"] or "too long" in out["error"]
    assert str(MAX_LINE_BYTES) in out["error"]


def test_lines_at_the_limit_are_still_read():
    raw = line(VALID)
    padded = raw[:-1] + b" " * (MAX_LINE_BYTES - len(raw) + 1) + b"\r\n"
    assert len(padded.rstrip(b"\r\n")) == MAX_LINE_BYTES
    assert "moves" in answer(padded, "limit")


@pytest.mark.parametrize("raw,words", [
    (b'{"sheet":"standard","crossed":[],"colour":"blue","count":6}', ["R-COUNT", "6"]),
    (b'{"sheet":"standard","crossed":[],"colour":"blue","count":true}', ["R-COUNT", "True"]),
    (b'{"sheet":"standard","crossed":[],"colour":"blue","count":1.0}', ["R-COUNT", "1.0"]),
    (b'{"sheet":"standard","crossed":[],"colour":"pink","count":1}', ["R-COLOUR", "pink"]),
    (b'{"sheet":"standard","crossed":[],"colour":7,"count":1}', ["R-COLOUR", "7"]),
    (b'{"sheet":"nope","crossed":[],"colour":"blue","count":1}', ["R-SHEET", "nope"]),
    (b'{"sheet":["standard"],"crossed":[],"colour":"blue","count":1}', ["R-SHEET", "string"]),
    (b'{"sheet":"standard","crossed":[],"colour":"blue","count":NaN}', ["NaN"]),
    (b'{"sheet":"standard","crossed":[],"colour":"blue","count":Infinity}', ["Infinity"]),
    (b'{"sheet":"standard","crossed":["H4",["H5"]],"colour":"blue","count":1}', ["crossed"]),
    (b'{"sheet":"standard","crossed":["H4","Q9"],"colour":"blue","count":1}', ["crossed[1]", "Q9"]),
    (b'{"sheet":"standard","crossed":' + json.dumps(["H4"] * 5000).encode() + b',"colour":"blue","count":1}',
     ["crossed", "5000"]),
    (b"", ["empty"]),
    (b"   \t\r\n", ["empty"]),
    (b"\xef\xbb\xbf{}", ["invalid JSON"]),
])
def test_errors_name_the_field_and_rule(raw, words):
    out = answer(raw, "named errors")
    for w in words:
        assert w in out["error"], out


class _Exploding(bytes):
    """Bytes whose conversion fails with an exception the code does not expect (a bug)."""

    def __bytes__(self):
        raise RuntimeError("boom")


def test_an_unexpected_exception_is_still_one_error_line():
    out = answer_line(_Exploding(b"{}"))
    assert list(out) == ["error"] and "internal error" in out["error"] and "RuntimeError" in out["error"]
    assert "boom" not in out["error"] and "Traceback" not in out["error"]


def test_fuzzed_line_count(capsys):
    """Runs last in this file (pytest keeps file order): how many lines were fuzzed."""
    total = sum(SENT.values())
    with capsys.disabled():
        print(f"\nlegal-moves fuzz: {total} lines answered ({', '.join(f'{k} {v}' for k, v in sorted(SENT.items()))})")
    if len(SENT) >= 9:  # the whole file ran (not a -k selection)
        assert total >= 3000


# --------------------------------------------------------------------------- the real command
def test_command_answers_every_line_in_order(tmp_path):
    good = b'{"sheet":"standard","crossed":[],"colour":"blue","count":1}'
    good_answer = {"moves": [["H4"], ["H5"]]}
    bad = [
        b"\xff\xfe\xfd",                                        # invalid UTF-8
        b"[" * 1500,                                            # RecursionError in the parser
        b"{" * 3000 + b"}" * 3000,
        b'{"sheet":"standard","crossed":[],"colour":"blue","count":' + b"7" * 5000 + b"}",  # int digit limit
        b"9" * 5000,
        b'{"sheet":"standard","crossed":[],"colour":"blue","count":"1"}',  # wrong types
        b'{"sheet":1,"crossed":[],"colour":"blue","count":1}',
        b'{"sheet":"standard","crossed":{},"colour":"blue","count":1}',
        b'{"sheet":"standard","crossed":[],"colour":null,"count":1}',
        b"[]", b"null", b"true", b'"text"', b"1e999",
        b"",                                                    # blank line
        b'{"sheet":"standard","crossed":' + json.dumps(["H4"] * 9000).encode() + b',"colour":"blue","count":1}',
        b"x" * (MAX_LINE_BYTES + 10),                           # over the line cap
        b" " * (3 * 1024 * 1024) + good,                        # 3 MiB on one line: refused, skipped
        b'{"sheet":"\\u001b[2J\xe2\x80\xae","crossed":[],"colour":"blue","count":1}',  # ESC, U+202E
        b'{"sheet":"standard","crossed":[],"colour":"blue","count":NaN}',
        b'{"sheet":"standard","crossed":[],"colour":"blue",',   # truncated
        b'{"sheet":"standard","crossed":[],"colour":"blue","count":1,"x":' + b"[" * 2000,
    ]
    lines = []
    for i, b in enumerate(bad):
        lines.append(b)
        if i % 3 == 2:
            lines.append(good)
    lines += [good, good + b"\r"]  # a CRLF line too
    stdin = b"\n".join(lines) + b"\n" + good  # the last line without a newline is answered too
    n_lines = len(lines) + 1
    env = {**os.environ, "NOCHMAL_HOME": str(tmp_path / "home")}
    res = subprocess.run([sys.executable, "-m", "nochmal.cli", "legal-moves"], input=stdin, capture_output=True,
                         cwd=tmp_path, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stderr == b""
    out = res.stdout.decode("ascii").splitlines()  # json.dumps escapes everything else
    assert len(out) == n_lines
    answers = [json.loads(x) for x in out]
    expected_good = [i for i, b in enumerate(lines) if b.rstrip(b"\r") == good] + [n_lines - 1]
    for i, a in enumerate(answers):
        assert len(a) == 1
        if i in expected_good:
            assert a == good_answer, (i, a)
        else:
            assert list(a) == ["error"], (i, lines[i][:80], a)
            assert a["error"].startswith(f"line {i + 1}: "), a
            assert "internal error" not in a["error"]
    assert len(expected_good) >= 10
    named = answers[lines.index(bad[18])]["error"]
    assert "R-SHEET" in named and "\x1b" not in named and "\u202e" not in named  # quoted escaped: \\x1b
