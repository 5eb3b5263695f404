"""Importing a game (issue 17, items 3, 5 and 6): the imported meta goes through the same model
the app creates games with (``GameMeta``), so nothing accepted can break a page later; an import
gets new codes and no claims; every bad file is refused with one clean line naming the file and
the field, and the store is unchanged. Hypothesis mutates a real export (wrong types,
missing/extra fields, deep nesting, huge numbers) and cuts/corrupts its JSON text; the CLI's
``games import --json`` is run as a process and the path it prints is opened in the app."""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apptools import TABLE, app, env, keys, no_exception, texts  # noqa: F401 (env: a fixture)
from nochmal.engine.coop import CoopGame
from nochmal.engine.errors import InvalidInputError
from nochmal.engine.game import CHANCE
from nochmal.store.claims import CODE_FIELDS
from nochmal.store.meta import SEAT_NAME_MAX, GameMeta, validate_meta
from nochmal.store.session import GameSession
from nochmal.store.transfer import import_game, read_export_file
from nochmal.store.db import GameStore

REPO = Path(__file__).resolve().parent.parent
SOURCE = "game.json"


def play_export(store: GameStore) -> dict:
    """A real export: a digital 3-seat co-op game, some turns played, a claimed seat, an undo."""
    ses = GameSession.create(store, CoopGame.create(3, 2), title="Friday <b>night</b>", kind="digital", seed=5,
                             seat_names=["Ada", "Bo [x](y)", "Cy"], bots=[None, None, "greedy"])
    rng = random.Random(3)
    while ses.state.roll_index < 4:
        if ses.state.current_player() == CHANCE:
            ses.roll_digital()
        else:
            acts = ses.state.legal_actions(ses.state.current_player())
            ses.record(acts[rng.randrange(len(acts))], by="test")
    ses.undo(by="test")
    ses.claim_seat(0, "phone-of-ada")
    return json.loads(json.dumps(ses.export()))


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    with GameStore(tmp_path_factory.mktemp("export") / "games.sqlite3") as store:
        return play_export(store)


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path / "games.sqlite3") as s:
        yield s


def snapshot(store: GameStore) -> list:
    return [(g.game_id, g.updated_at, g.n_events, json.dumps(g.meta, sort_keys=True)) for g in store.list_games()]


def refused(store: GameStore, data, source: str = SOURCE) -> str:
    """The one-line error of importing ``data``; asserts that nothing was stored."""
    before = snapshot(store)
    with pytest.raises(InvalidInputError) as e:
        import_game(store, data, source=source)
    assert snapshot(store) == before
    msg = str(e.value)
    assert msg.startswith(f"{source}: ") and "\n" not in msg and "Traceback" not in msg, msg
    return msg


# --------------------------------------------------------------------------- what an import keeps and drops
def test_an_import_gets_new_codes_and_no_claims(store, export):
    assert not set(CODE_FIELDS) & set(export["meta"])  # an export carries no code
    data = copy.deepcopy(export)
    old = {"host_code": "H" * 22, "join_token": "J" * 22, "join_code": "ABCDEFGH",
           "seat_codes": {"0": "S" * 22, "1": "T" * 22}, "claims": {"0": "phone", "1": "tablet"}}
    data["meta"].update(old)  # an export of an older version carried them
    ses = import_game(store, data, source=SOURCE)
    assert ses.meta["claims"] == {} and ses.meta["seat_codes"] == {}
    for field in ("host_code", "join_token", "join_code"):
        assert ses.meta[field] and ses.meta[field] != old[field]
    for code in ("H" * 22, "J" * 22, "ABCDEFGH", "S" * 22, "T" * 22):
        assert ses.access(code) is None, code
    assert ses.access(ses.meta["host_code"]) == "host"
    # the rest is what the file said, checked by the model the app creates games with
    kept = {k: v for k, v in ses.meta.items() if k not in CODE_FIELDS}
    assert kept == export["meta"]
    assert GameMeta.model_validate(kept).stored() == kept
    assert ses.title == export["title"] and ses.n_events == len(export["events"])


def test_markup_in_names_is_accepted_as_text(store, export):
    """Markup characters are plain text (every page escapes them); control characters are not."""
    data = copy.deepcopy(export)
    data["meta"]["seat_names"] = ["<img src=x onerror=alert(1)>", "**Bo** `x` $y$", ":red[Cy] ¡ 🎲"]
    data["title"] = "<iframe srcdoc='<script>alert(1)</script>'>"
    ses = import_game(store, data, source=SOURCE)
    assert ses.seat_names == data["meta"]["seat_names"] and ses.title == data["title"]


BAD_META = [
    ("seat_names", ["Ada", "Bo"], "meta.seat_names: 2 entries for the 3 seats"),
    ("seat_names", ["Ada", "Bo", "x" * (SEAT_NAME_MAX + 1)], "meta.seat_names[2]: String should have at most 40"),
    ("seat_names", ["Ada", "Bo\nand more", "Cy"], "meta.seat_names[1]: character 3 is the control character U+000A"),
    ("seat_names", ["Ada", "\u202eoB", "Cy"], "meta.seat_names[1]: character 1 is the control character U+202E"),
    ("seat_names", ["Ada", "   ", "Cy"], "meta.seat_names[1]: must not be blank"),
    ("seat_names", ["Ada", "", "Cy"], "meta.seat_names[1]: String should have at least 1"),
    ("seat_names", ["Ada", 7, "Cy"], "meta.seat_names[1]: Input should be a valid string"),
    ("seat_names", "Ada", "meta.seat_names: Input should be a valid tuple"),
    ("bots", [None, None, "skynet"], "meta.bots[2]: Input should be 'random', 'greedy' or 'planner'"),
    ("bots", [None, None], "meta.bots: 2 entries for the 3 seats"),
    ("kind", "chess", "meta.kind: Input should be 'companion' or 'digital'"),
    ("seed", -1, "meta.seed: Input should be greater than or equal to 0"),
    ("seed", 2**63, "meta.seed: Input should be less than or equal to"),
    ("seed", 10**400, "meta.seed: a number of about 401 digits is out of range"),
    ("seed", [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
     "meta.seed[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: "
     "nested more than 32 levels deep"),
    ("seed", "5", "meta.seed: Input should be a valid integer"),
    ("seed", 5.0, "meta.seed: Input should be a valid integer"),
    ("seed", True, "meta.seed: Input should be a valid integer"),
    ("created", "yesterday", "meta.created: 'yesterday' is not an ISO 8601 timestamp"),
    ("surprise", 1, "meta.surprise: Extra inputs are not permitted"),
]


@pytest.mark.parametrize("field,value,expected", BAD_META, ids=[f"{f}-{i}" for i, (f, _, _) in enumerate(BAD_META)])
def test_a_bad_meta_field_is_named(store, export, field, value, expected):
    data = copy.deepcopy(export)
    data["meta"][field] = value
    assert f"{SOURCE}: field {expected}" in refused(store, data)


def test_bots_only_in_digital_games(store, export):
    data = copy.deepcopy(export)
    data["meta"]["kind"] = "companion"
    assert "field meta.bots: bots play only in digital games" in refused(store, data)


@pytest.mark.parametrize("change,expected", [
    (lambda c: c.update(sheets=["standard", "nope", "standard"]), "meta.config: R-SHEET: unknown sheet 'nope'"),
    (lambda c: c.update(sheets=["standard"] * 7), "meta.config.sheets: Tuple should have at most 6"),
    (lambda c: c.update(mode="chess"), "meta.config.mode: Input should be 'base', 'solo' or 'coop'"),
    (lambda c: c.update(mission="1"), "meta.config.mission: Input should be a valid integer"),
    (lambda c: c.pop("tableau"), "meta.config: a co-op config needs a mission and a tableau"),
    (lambda c: c.update(extra=1), "meta.config.extra: Extra inputs are not permitted"),
    (lambda c: c["tableau"].update(goal_10="5"), "meta.config: saved game tableau"),
    (lambda c: c.update(sheets=["../../etc/passwd"] * 3), "meta.config.sheets[0]: String should match pattern"),
], ids=["unknown-sheet", "seven-sheets", "mode", "mission-string", "no-tableau", "extra", "tableau-string",
        "sheet-path"])
def test_a_bad_config_is_named(store, export, change, expected):
    data = copy.deepcopy(export)
    change(data["meta"]["config"])
    assert f"field {expected}" in refused(store, data)


def test_a_config_with_another_seat_count_than_the_names_is_refused(store, export):
    data = copy.deepcopy(export)
    data["meta"]["config"] = CoopGame.create(4, 2).config()
    assert "field meta.seat_names: 3 entries for the 4 seats" in refused(store, data)


@pytest.mark.parametrize("title,expected", [
    ("x" * 81, "field title: String should have at most 80"),
    ("a\x1b[2Jb", "field title: character 2 is the control character U+001B"),
    (["a"], "field title: Input should be a valid string"),
    (10**400, "field title: a number of about 401 digits is out of range"),
], ids=["long", "escape", "list", "huge"])
def test_a_bad_title_is_named(store, export, title, expected):
    data = copy.deepcopy(export)
    data["title"] = title
    assert expected in refused(store, data)


def test_bad_top_level_fields_and_events_are_named(store, export):
    data = copy.deepcopy(export)
    data["owner"] = "me"
    assert "field owner: not a field of a game export" in refused(store, data)
    data = copy.deepcopy(export)
    data["events"][3]["seq"] = 10**400
    assert "field events[3].seq: a number of about 401 digits is out of range" in refused(store, data)
    data = copy.deepcopy(export)
    data["events"][3]["seq"] = 10**20  # in range for the scan, wrong for the replay
    assert "field events[3]: event 3: seq is 100000000000000000000, expected 3" in refused(store, data)
    data = copy.deepcopy(export)
    data["events"][2] = "roll"
    assert "field events[2]: " in refused(store, data)
    data = copy.deepcopy(export)
    data["version"] = "1" * 5000
    msg = refused(store, data)
    assert "field version: " in msg and len(msg) < 300


def test_the_app_creates_games_through_the_same_model(store):
    game = CoopGame.create(3, 1)
    with pytest.raises(InvalidInputError, match=r"^field seat_names\[1\]: character 1 is the control character"):
        GameSession.create(store, game, seat_names=["a", "\x07b", "c"])
    with pytest.raises(InvalidInputError, match=r"^field bots: bots play only in digital games"):
        GameSession.create(store, game, bots=[None, "greedy", None])
    with pytest.raises(InvalidInputError, match=r"^field title: String should have at most 80"):
        GameSession.create(store, game, title="t" * 81)
    with pytest.raises(InvalidInputError, match=r"^field seed: Input should be less than or equal to"):
        GameSession.create(store, game, kind="digital", seed=2**64)
    assert store.list_games() == []
    assert validate_meta(GameSession.create(store, game, kind="digital", seed=1).export()["meta"])


# --------------------------------------------------------------------------- fuzzing
DEEP_LIST: list = []
_node = DEEP_LIST
for _ in range(1000):
    _node.append([])
    _node = _node[0]
DEEP_DICT: dict = {}
_node2 = DEEP_DICT
for _ in range(1000):
    _node2["a"] = {}
    _node2 = _node2["a"]

ODD_VALUES = [None, True, False, 0, -1, 1.5, 1e308, -0.0, 10**400, -(10**400), "", " ", "x", "x" * 5000,
              "\x00\x1b[31m", "<img src=x onerror=alert(1)>", "\ud800", [], {}, [1, 2, 3], {"k": "v"},
              DEEP_LIST, DEEP_DICT, ["x"] * 1000]


def _nodes(doc, path=()):
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _nodes(v, path + (i,))


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def _mutate(doc, op: str, path: tuple, value, key: str):
    """One structural mutation of ``doc`` at ``path`` (in place); returns the new document."""
    if not path:
        return value if op in ("replace", "wrap") else doc
    parent, last = _get(doc, path[:-1]), path[-1]
    if op == "replace":
        parent[last] = value
    elif op == "delete":
        del parent[last]
    elif op == "wrap":
        parent[last] = [parent[last]]
    elif op == "stringify":
        parent[last] = json.dumps(parent[last])
    elif op == "bump" and isinstance(parent[last], int) and not isinstance(parent[last], bool):
        parent[last] += 1
    elif op == "add" and isinstance(parent[last], dict):
        parent[last][key] = value
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    return doc


def test_fuzzed_imports_are_refused_naming_a_field_or_accepted_valid(export, tmp_path):
    nodes = list(_nodes(export))
    counts = {"refused": 0, "accepted": 0}
    mutation = st.tuples(st.sampled_from(["replace", "replace", "delete", "wrap", "stringify", "bump", "add",
                                          "duplicate"]),
                         st.integers(0, len(nodes) - 1), st.sampled_from(ODD_VALUES),
                         st.sampled_from(["x", "seat_codes", "claims", "host_code", "__proto__", "rules_version"]))
    store = GameStore(tmp_path / "fuzz.sqlite3")

    @settings(max_examples=600, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.lists(mutation, min_size=1, max_size=3))
    def check(mutations):
        doc = copy.deepcopy(export)
        for op, i, value, key in mutations:
            path = nodes[i]
            try:
                _get(doc, path)
            except (KeyError, IndexError, TypeError):
                continue  # an earlier mutation removed this place
            doc = _mutate(doc, op, path, value, key)
        before = snapshot(store)
        try:
            ses = import_game(store, doc, source="fuzz.json")
        except InvalidInputError as err:
            msg = str(err)
            assert msg.startswith("fuzz.json: ") and "\n" not in msg, msg
            assert re.search(r"\bfield [\w.\[\]'()]+", msg), msg  # names the field
            assert snapshot(store) == before
            counts["refused"] += 1
            return
        # accepted: what was stored passes the app's model again and opens as a game
        counts["accepted"] += 1
        again = GameSession.load(store, ses.game_id)
        assert again.meta["claims"] == {} and again.meta["seat_codes"] == {}
        GameMeta.model_validate({k: v for k, v in again.meta.items() if k not in CODE_FIELDS})
        assert again.state.to_json() == ses.state.to_json()
        store.delete_game(ses.game_id)

    try:
        check()
    finally:
        store.close()
    total = counts["refused"] + counts["accepted"]
    print(f"\nfuzzed imports: {total} files, {counts['refused']} refused (each naming a field, store unchanged), "
          f"{counts['accepted']} accepted and valid")
    assert counts["refused"] >= 0.7 * total


def test_cut_and_corrupted_export_files_are_refused_naming_the_file(export, tmp_path):
    text = json.dumps(export, indent=1).encode()
    store = GameStore(tmp_path / "games.sqlite3")
    path = tmp_path / "game.json"
    n = 0
    cuts = sorted(set(range(0, len(text), max(1, len(text) // 400))) | {len(text) - 1})
    bad_bytes = [b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xe2\x82"]
    rng = random.Random(17)
    variants = [text[:cut] for cut in cuts]
    for _ in range(200):
        at = rng.randrange(len(text))
        variants.append(text[:at] + rng.choice(bad_bytes) + text[at:])
    variants += [b"[" * 100_000, b'{"format": "nochmal-game", "version": ' + b"9" * 5000 + b"}",
                 text.replace(b'"seed": 5', b'"seed": ' + b"9" * 5000), text.replace(b'"seed": 5', b'"seed": NaN'),
                 text.replace(b'"seed": 5', b'"seed": 1e999'), b"", b"\xef\xbb\xbf", b"null"]
    for data in variants:
        path.write_bytes(data)
        with pytest.raises(InvalidInputError) as e:
            import_game(store, read_export_file(path), source=str(path))
        msg = str(e.value)
        assert msg.startswith(str(path)) and "\n" not in msg, msg
        n += 1
    assert store.list_games() == []
    store.close()
    print(f"\ncut or corrupted export files: {n} refused")


# --------------------------------------------------------------------------- the CLI and the path it prints
def test_cli_games_import_json_prints_the_host_path_that_opens_the_game(env, export, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "nochmal.cli", "games", "import", str(path), "--json",
                          "--db", str(env.path)], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert set(answer) == {"id", "host_code", "host_url_path"}
    ses = GameSession.load(env, answer["id"])
    assert ses.meta["host_code"] == answer["host_code"] and ses.meta["claims"] == {}
    url = urlsplit(answer["host_url_path"])
    assert url.path == "/table"
    query = dict(parse_qsl(url.query))
    assert query == {"game": answer["id"], "code": answer["host_code"]}
    at = app(query)
    at.switch_page(TABLE).run()
    no_exception(at)
    assert any(k.startswith("cell-0-") for k in keys(at)) or "roll-digital" in keys(at)
    assert not any("No game is open" in t for t in texts(at, "info"))
    # a bad file: one line on stderr naming the file and field, nothing stored
    data = copy.deepcopy(export)
    data["meta"]["bots"] = [None, None, "skynet"]
    path.write_text(json.dumps(data), encoding="utf-8")
    before = snapshot(env)
    out = subprocess.run([sys.executable, "-m", "nochmal.cli", "games", "import", str(path), "--json",
                          "--db", str(env.path)], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert out.returncode != 0 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and f"{path}: field meta.bots[2]: " in out.stderr, out.stderr
    assert snapshot(env) == before
