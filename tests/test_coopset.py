"""Tests for nochmal.data.coopset: the owner's co-op set of user sheets I–VI, the sheets a new
co-op game starts on, and the set file that carries sheets and tableau values elsewhere.

Every test writes into a temporary NOCHMAL_HOME; nothing is mocked.
"""

from __future__ import annotations

import tomllib

import pytest
import tomli_w

from nochmal.data import coopset, userdata
from nochmal.engine.coop import COOP_SHEETS, CoopGame
from nochmal.engine.coopdata import TABLEAU_KEYS, get_tableau
from nochmal.engine.errors import DataFileError, InvalidInputError
from nochmal.engine.sheet import get_sheet, sheet_ids
from nochmal.ui import newgame

VALUES_3 = dict(zip(TABLEAU_KEYS, (6, 7, 19, 41, 3, 4, 2, 2, 1)))
VALUES_5 = dict(zip(TABLEAU_KEYS, (9, 10, 31, 66, 5, 6, 3, 3, 2)))


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def files_under(path) -> dict:
    """Every file under ``path`` with its bytes (to show that nothing was written)."""
    if not path.exists():
        return {}
    return {p.relative_to(path): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def save_coop_sheet(slot: str, sheet_id: str | None = None, coop: bool = True) -> str:
    """A co-op user sheet: the stand-in's layout under the id ``my-coop-<slot>`` (a test pad)."""
    data = get_sheet(f"coop-{slot}").spec.model_dump(mode="json")
    data.update(id=sheet_id or coopset.slot_sheet_id(slot), name=f"My printed sheet {slot}", source="a test pad")
    if not coop:
        data.pop("coop")
    userdata.save_user_sheet(data)
    return data["id"]


def make_set(slots=("I", "II", "III"), name: str | None = None) -> list[str]:
    ids = []
    for slot in slots:
        ids.append(save_coop_sheet(slot))
        coopset.assign(slot, ids[-1])
    if name:
        coopset.rename(name)
    return ids


# --------------------------------------------------------------------------- the set file
def test_assign_load_unassign_and_rename(home):
    assert coopset.load_set() is None and coopset.filled_slots() == {}
    sid = save_coop_sheet("I")
    path = coopset.assign("I", sid)
    assert path == home / "coop-set.toml" == coopset.set_path()
    loaded = coopset.load_set()
    assert loaded.sheets == {"I": "my-coop-I"} and loaded.name == "My co-op set"
    coopset.assign("III", save_coop_sheet("III"))
    coopset.rename("  Our box ")
    loaded = coopset.load_set()
    assert loaded.name == "Our box" and loaded.ordered() == {"I": "my-coop-I", "III": "my-coop-III"}
    assert tomllib.loads(path.read_text(encoding="utf-8")) == {
        "name": "Our box", "sheets": {"I": "my-coop-I", "III": "my-coop-III"}}
    coopset.unassign("I")
    assert coopset.load_set().sheets == {"III": "my-coop-III"}
    assert userdata.user_sheet_path("my-coop-I").is_file(), "unassigning keeps the sheet"
    assert coopset.slot_sheet_id("IV") == "my-coop-IV"


@pytest.mark.parametrize("slot, sheet, field", [
    ("VII", "my-coop-I", "field slot"),
    ("i", "my-coop-I", "field slot"),
    ("II", "coop-II", "field sheet_id"),  # a shipped stand-in is not the owner's sheet
    ("II", "standard", "field sheet_id"),
    ("II", "nobody", "field sheet_id"),
    ("II", "../boards/coop-II", "field sheet_id"),
    ("II", "plain", "field sheet_id"),  # a user sheet without a co-op part
    ("II", "my-coop-I", "field sheet_id"),  # already fills slot I
])
def test_assign_refuses_with_the_field_and_writes_nothing(home, slot, sheet, field):
    make_set(("I",))
    save_coop_sheet("II", sheet_id="plain", coop=False)
    before = files_under(home)
    with pytest.raises(InvalidInputError, match=field):
        coopset.assign(slot, sheet)
    assert files_under(home) == before


def test_rename_refuses_a_blank_or_control_character_name(home):
    make_set(("I",), name="Our box")
    before = files_under(home)
    for bad in ("   ", "line\nbreak", "x" * 81):
        with pytest.raises(DataFileError, match="field name"):
            coopset.rename(bad)
    assert files_under(home) == before


def test_a_broken_set_file_names_the_field_and_counts_as_no_set(home):
    make_set(("I",))
    coopset.set_path().write_text('name = "x"\n[sheets]\nVII = "my-coop-I"\n', encoding="utf-8")
    with pytest.raises(DataFileError, match="sheets.VII"):
        coopset.load_set()
    assert coopset.filled_slots() == {} and coopset.default_sheets(2) == ["coop-I", "coop-II"]


# --------------------------------------------------------------------------- the sheets of a new game
@pytest.mark.parametrize("players", range(1, 7))
def test_a_full_set_gives_every_seat_its_slot(home, players):
    ids = make_set(coopset.SLOTS)
    assert coopset.set_sheets(players) == ids[:players]
    assert coopset.default_sheets(players) == ids[:players] == newgame.default_sheets("coop", players)
    assert all(s.from_set for s in coopset.seat_sheets(players))


@pytest.mark.parametrize("players", range(1, 7))
def test_a_partial_set_fills_its_slots_and_stand_ins_the_rest(home, players):
    ids = make_set(("I", "II", "III"))
    expected = (ids + list(COOP_SHEETS[3:]))[:players]
    assert coopset.default_sheets(players) == expected == newgame.default_sheets("coop", players)
    assert coopset.set_sheets(players) == (ids[:players] if players <= 3 else None)
    assert [s.from_set for s in coopset.seat_sheets(players)] == [i < 3 for i in range(players)]
    game = newgame.make_game("coop", newgame.default_sheets("coop", players))
    assert [s.id for s in game.sheets] == expected
    assert [s.provenance for s in game.sheets] == ["user" if i < 3 else "stand-in" for i in range(players)]


def test_a_gap_in_the_set_is_the_stand_in_of_that_slot(home):
    ids = make_set(("I", "III"))
    assert coopset.set_sheets(1) == ids[:1]
    assert coopset.set_sheets(2) is None and coopset.set_sheets(3) is None
    assert coopset.default_sheets(3) == ["my-coop-I", "coop-II", "my-coop-III"]


def test_a_deleted_or_no_longer_co_op_sheet_leaves_its_slot_empty(home):
    make_set(("I", "II"))
    userdata.delete_user_sheet("my-coop-II")
    assert coopset.load_set().sheets == {"I": "my-coop-I", "II": "my-coop-II"}  # the file still names it
    assert coopset.filled_slots() == {"I": "my-coop-I"}
    assert coopset.default_sheets(2) == ["my-coop-I", "coop-II"]
    save_coop_sheet("I", coop=False)  # my-coop-I saved again, without its co-op part
    assert coopset.default_sheets(2) == ["coop-I", "coop-II"]


def test_no_set_means_the_stand_ins_and_other_modes_are_untouched(home):
    assert coopset.set_sheets(3) is None
    assert newgame.default_sheets("coop", 3) == list(COOP_SHEETS[:3]) == CoopGame.default_sheets(3)
    make_set(("I",))
    assert newgame.default_sheets("base", 3) == ["standard"] * 3 and newgame.default_sheets("solo", 1) == ["standard"]


# --------------------------------------------------------------------------- export and import
def exported(home) -> bytes:
    make_set(("I", "II", "III"), name="Our box")
    userdata.save_user_tableau(3, VALUES_3)
    userdata.save_user_tableau(5, VALUES_5, track=[1, 2, 3, 4, 5] * 5 + [1, 2])
    return coopset.export_set()


def test_export_holds_the_name_every_sheet_and_the_tableaus(home):
    data = tomllib.loads(exported(home).decode("utf-8"))
    assert data["format"] == "nochmal-coop-set" and data["version"] == 1 and data["provenance"] == "user"
    assert data["name"] == "Our box" and list(data["sheets"]) == ["I", "II", "III"]
    assert data["sheets"]["II"]["grid"] == list(get_sheet("my-coop-II").spec.grid)
    assert data["sheets"]["II"]["coop"]["number_fields"][0] == {"number": 1, "cell": "J1"}
    assert sorted(data["tableaus"]) == ["3", "5"]
    assert data["tableaus"]["3"]["goal_10"] == {"value": 6, "provenance": "user"}
    assert len(data["tableaus"]["5"]["track"]) == 27
    with pytest.raises(InvalidInputError, match="tableaus.4"):
        coopset.export_set([3, 4])


def test_export_then_import_into_a_fresh_home_gives_the_same_set(home, tmp_path, monkeypatch):
    raw = exported(home)
    specs = {sid: get_sheet(sid).spec for sid in ("my-coop-I", "my-coop-II", "my-coop-III")}
    tableaus = {n: get_tableau(n) for n in (3, 5)}
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "elsewhere"))
    assert coopset.load_set() is None and "my-coop-I" not in sheet_ids()
    assert get_tableau(3).goal_10.provenance == "rulebook"
    done = coopset.import_set("coop-set.toml", raw)
    assert done.name == "Our box" and done.sheets == {"I": "my-coop-I", "II": "my-coop-II", "III": "my-coop-III"}
    assert done.tableaus == (3, 5) and done.replaced_sheets == () and done.replaced_tableaus == ()
    assert {sid: get_sheet(sid).spec for sid in specs} == specs
    assert {n: get_tableau(n) for n in (3, 5)} == tableaus
    assert coopset.load_set().name == "Our box"
    assert coopset.default_sheets(4) == ["my-coop-I", "my-coop-II", "my-coop-III", "coop-IV"]
    assert coopset.export_set() == raw
    again = coopset.import_set("coop-set.toml", raw)  # a second import replaces, and says so
    assert again.replaced_sheets == ("my-coop-I", "my-coop-II", "my-coop-III") and again.replaced_tableaus == (3, 5)


def test_import_replaces_the_whole_set(home):
    raw = exported(home)
    coopset.assign("IV", save_coop_sheet("IV"))
    coopset.import_set("coop-set.toml", raw)
    assert coopset.load_set().ordered() == {"I": "my-coop-I", "II": "my-coop-II", "III": "my-coop-III"}


def as_toml(data: dict) -> bytes:
    return tomli_w.dumps(data).encode("utf-8")


def _row_of_14(d):
    d["sheets"]["III"]["grid"][2] = d["sheets"]["III"]["grid"][2][:14]


def _unknown_colour(d):
    d["sheets"]["II"]["grid"][0] = "x" + d["sheets"]["II"]["grid"][0][1:]


def _shipped_id(d):
    d["sheets"]["I"]["id"] = "coop-I"


def _tableau_out_of_range(d):
    d["tableaus"]["3"]["goal_10"]["value"] = 999


def _tableau_as_text(d):
    d["tableaus"]["5"]["m1_colours"]["value"] = "5"


def _no_coop_part(d):
    del d["sheets"]["II"]["coop"]


def _same_id_twice(d):
    d["sheets"]["III"]["id"] = "my-coop-I"


def _unknown_slot(d):
    d["sheets"]["VII"] = d["sheets"].pop("III")


def _wrong_players(d):
    d["tableaus"]["3"]["players"] = 5


def _version(d):
    d["version"] = 2


MUTATIONS = [
    (_row_of_14, "field sheets.III.grid[2]: String should match pattern"),
    (_unknown_colour, "field sheets.II.grid[0]: String should match pattern"),
    (_shipped_id, "field sheets.I.id: 'coop-I' is the id of a shipped sheet"),
    (_tableau_out_of_range, "field tableaus.3.goal_10.value: Input should be less than or equal to 200"),
    (_tableau_as_text, "field tableaus.5.m1_colours.value: Input should be a valid integer"),
    (_no_coop_part, "field sheets.II.coop: missing"),
    (_same_id_twice, "field sheets.III.id: 'my-coop-I' is also the id of slot I"),
    (_unknown_slot, "field sheets.VII: 'VII' is not a slot"),
    (_wrong_players, "field tableaus.3.players: is 5, the table is for 3 players"),
    (_version, "field version: is 2"),
]


@pytest.mark.parametrize("mutate, problem", MUTATIONS, ids=[m.__name__.strip("_") for m, _p in MUTATIONS])
def test_a_bad_set_is_refused_naming_the_field_and_nothing_is_saved(home, tmp_path, monkeypatch, mutate, problem):
    data = tomllib.loads(exported(home).decode("utf-8"))
    mutate(data)
    fresh = tmp_path / "fresh"
    monkeypatch.setenv("NOCHMAL_HOME", str(fresh))
    with pytest.raises(DataFileError) as caught:
        coopset.import_set("pad.toml", as_toml(data))
    assert caught.value.path == "uploaded file 'pad.toml'"
    assert any(p.startswith(problem) for p in caught.value.problems), caught.value.problems
    assert files_under(fresh) == {}, "nothing is written"


@pytest.mark.parametrize("case, problem", [
    ("not toml", "not valid TOML"),
    ("too large", "a co-op set file may have at most 262,144 bytes"),
    ("not utf-8", "not UTF-8 text"),
    ("not bytes", "expected the bytes of a file"),
])
def test_an_unreadable_set_file_is_refused_and_nothing_is_saved(home, case, problem):
    raw = exported(home)
    before = files_under(home)
    bad = {"not toml": raw.replace(b'name = "Our box"', b'name = "Our box'),
           "too large": raw + b"#" * coopset.MAX_SET_FILE_BYTES,
           "not utf-8": raw.replace(b"My printed sheet II", b"My printed sheet \xff"),
           "not bytes": raw.decode("utf-8")}[case]
    with pytest.raises(DataFileError) as caught:
        coopset.import_set("pad.toml", bad)
    assert any(problem in p for p in caught.value.problems), caught.value.problems
    assert files_under(home) == before


def test_a_set_a_bit_over_one_data_file_is_still_read(home):
    """The set's cap is four times a single sheet's: a set with long comments is not refused."""
    raw = exported(home) + b"\n" + b"# a note\n" * 8000
    assert len(raw) > userdata.MAX_DATA_FILE_BYTES
    assert coopset.import_set("pad.toml", raw).sheets["I"] == "my-coop-I"


def test_every_problem_is_listed_at_once(home):
    data = tomllib.loads(exported(home).decode("utf-8"))
    _row_of_14(data)
    _shipped_id(data)
    _tableau_out_of_range(data)
    with pytest.raises(DataFileError) as caught:
        coopset.import_set("pad.toml", as_toml(data))
    fields = [p.split(":")[0] for p in caught.value.problems]
    assert {"field sheets.III.grid[2]", "field sheets.I.id", "field tableaus.3.goal_10.value"} <= set(fields)
