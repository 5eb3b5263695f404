"""Tests for nochmal.data.userdata: sheets and tableaus entered by owners of the printed game.

Every test writes into a temporary NOCHMAL_HOME; nothing is mocked.
"""

from __future__ import annotations

import random
import tomllib

import pytest

from nochmal.data import userdata
from nochmal.engine.coop import CoopGame
from nochmal.engine.coopdata import MISSIONS_DIR, TABLEAU_KEYS, get_tableau, tableau_path, user_tableaus_dir
from nochmal.engine.errors import DataFileError, InvalidInputError, NochmalError
from nochmal.engine.game import play
from nochmal.bots.policies import random_policy
from nochmal.engine.sheet import BOARDS_DIR, get_sheet, sheet_ids, sheet_paths, user_boards_dir

STANDARD_ROWS = [
    "gggyyyyGbbbOyyy",
    "ogYgYyoorBboogg",
    "BgrgggGrrryyogg",
    "brrgoObbggyyoRb",
    "roooorbbooorrrr",
    "rBbRrrryYoRbbbO",
    "yybbbbryyyggGoo",
]
PASTED = "\n".join(STANDARD_ROWS)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def files_under(path):
    return sorted(p.relative_to(path) for p in path.rglob("*") if p.is_file()) if path.exists() else []


# --------------------------------------------------------------------------- parse_sheet_text
def test_parse_standard_sheet_seven_lines():
    assert userdata.parse_sheet_text(PASTED) == STANDARD_ROWS
    assert STANDARD_ROWS == list(get_sheet("standard").spec.grid)


def test_parse_tolerates_spaces_commas_quotes_and_blank_lines():
    text = "\n\n" + "\n\n".join(
        f'  "{" ".join(row[:5])}, {row[5:10]} ,{row[10:]}",  ' for row in STANDARD_ROWS) + "\n\n"
    assert userdata.parse_sheet_text(text) == STANDARD_ROWS
    tabbed = "\n".join("\t".join(row) for row in STANDARD_ROWS)
    assert userdata.parse_sheet_text(tabbed) == STANDARD_ROWS


def test_parse_bad_letter_names_row_and_column():
    rows = list(STANDARD_ROWS)
    rows[2] = rows[2][:5] + "x" + rows[2][6:]  # row 3, column F
    with pytest.raises(InvalidInputError) as exc:
        userdata.parse_sheet_text("\n".join(rows))
    assert "grid row 3, column F: 'x' is not a colour letter" in str(exc.value)
    assert exc.value.problems == ["grid row 3, column F: 'x' is not a colour letter (y g b r o; UPPERCASE = star)"]


def test_parse_reports_every_problem_with_text_line_when_blank_lines_shift_rows():
    rows = list(STANDARD_ROWS)
    rows[0] = rows[0][:14]  # 14 letters
    rows[6] = "p" + rows[6][1:]
    text = rows[0] + "\n\n" + "\n".join(rows[1:])
    with pytest.raises(InvalidInputError) as exc:
        userdata.parse_sheet_text(text)
    problems = exc.value.problems
    assert "grid row 1: 14 letters, a row has 15 (columns A–O)" in problems
    assert any(p.startswith("grid row 7 (text line 8), column A: 'p'") for p in problems)


@pytest.mark.parametrize("n", [0, 6, 8])
def test_parse_wrong_row_count(n):
    rows = (STANDARD_ROWS * 2)[:n]
    with pytest.raises(InvalidInputError, match=f"grid: {n} rows given, a sheet has 7"):
        userdata.parse_sheet_text("\n".join(rows))


def test_parse_too_long_row_names_the_extra_letter():
    with pytest.raises(InvalidInputError) as exc:
        userdata.parse_sheet_text("\n".join(STANDARD_ROWS[:6] + [STANDARD_ROWS[6] + "y"]))
    assert exc.value.problems == ["grid row 7: 16 letters, a row has 15 (columns A–O)"]


def test_parse_rejects_non_text():
    with pytest.raises(InvalidInputError, match="grid: expected text"):
        userdata.parse_sheet_text(None)


def test_long_problem_lists_are_cut():
    with pytest.raises(InvalidInputError) as exc:
        userdata.parse_sheet_text("\n".join(["x" * 15] * 7))
    assert len(exc.value.problems) == userdata.MAX_PROBLEMS + 1
    assert exc.value.problems[-1] == f"... and {105 - userdata.MAX_PROBLEMS} more problems"


# --------------------------------------------------------------------------- extras
def test_row_labels_and_number_fields_text():
    assert userdata.parse_row_labels("") == list("PQRSTUV")
    assert userdata.parse_row_labels("PQRSTUV") == list("PQRSTUV")
    assert userdata.parse_row_labels("a, b, c, d, e, f, g") == list("abcdefg")
    with pytest.raises(InvalidInputError, match="row_labels: 3 labels given"):
        userdata.parse_row_labels("P Q R")
    assert userdata.parse_number_fields("1: F1\n2=N1; 3 C2\n\n") == [
        {"number": 1, "cell": "F1"}, {"number": 2, "cell": "N1"}, {"number": 3, "cell": "C2"}]
    with pytest.raises(InvalidInputError) as exc:
        userdata.parse_number_fields("1: O3\nhello\n2: A7\n3: Z9")
    assert exc.value.problems == [
        "number_fields entry 1: O3 cannot be the top-left cell of a 2x2 square (columns A–N, rows 1–6)",
        "number_fields entry 2: 'hello' is not 'number: cell' (e.g. '1: F1')",
        "number_fields entry 3: A7 cannot be the top-left cell of a 2x2 square (columns A–N, rows 1–6)",
        "number_fields entry 4: 'Z9' is not a cell (A1..O7)",
    ]
    spec = get_sheet("coop-I").spec
    assert userdata.parse_number_fields(userdata.number_fields_text(spec)) == [
        f.model_dump() for f in spec.coop.number_fields]


def test_paint_cell():
    rows = userdata.paint_cell(STANDARD_ROWS, "A1", "r")
    assert rows[0] == "r" + STANDARD_ROWS[0][1:] and rows[1:] == STANDARD_ROWS[1:]
    rows = userdata.paint_cell(rows, "O7", "b", star=True)
    assert rows[6].endswith("B")
    assert STANDARD_ROWS[0].startswith("g")  # the input is not changed
    with pytest.raises(InvalidInputError, match="colour 'x'"):
        userdata.paint_cell(rows, "A1", "x")
    with pytest.raises(InvalidInputError, match="unknown cell 'P9'"):
        userdata.paint_cell(rows, "P9", "y")


# --------------------------------------------------------------------------- user sheets
def test_pasted_standard_sheet_saves_reloads_and_plays_a_coop_game(home):
    rows = userdata.parse_sheet_text(PASTED)
    data = userdata.sheet_data(rows, id="my-sheet", name="My printed sheet")
    path, warnings = userdata.save_user_sheet(data)
    assert path == user_boards_dir() / "my-sheet.toml" == home / "boards" / "my-sheet.toml"
    assert warnings == []
    assert tomllib.loads(path.read_text())["provenance"] == "user"
    assert "my-sheet" in sheet_ids()
    sheet = get_sheet("my-sheet")
    assert sheet.provenance == "user" and sheet.spec.name == "My printed sheet"
    assert list(sheet.spec.grid) == STANDARD_ROWS
    game = CoopGame.create(players=2, mission=1, sheets=["my-sheet", "coop-II"])
    state = play(game.new_state(), random_policy, random.Random(1))
    assert state.is_terminal()
    assert state.seats[0].sheet.id == "my-sheet" and state.seats[0].sheet.provenance == "user"


def test_save_forces_provenance_user_and_keeps_coop_extras(home):
    data = userdata.sheet_data(STANDARD_ROWS, id="coop-mine", coop=True, row_labels="P Q R S T U V",
                               number_fields="1: F1\n2: N1", failed_roll_boxes=2)
    data["provenance"] = "verified"  # a user cannot claim a verified sheet
    path, _ = userdata.save_user_sheet(data)
    sheet = get_sheet("coop-mine")
    assert sheet.provenance == "user"
    assert sheet.spec.row_labels == tuple("PQRSTUV")
    assert [(f.number, f.cell) for f in sheet.spec.coop.number_fields] == [(1, "F1"), (2, "N1")]
    assert sheet.spec.coop.failed_roll_boxes == 2
    # saving again replaces the file
    userdata.save_user_sheet(userdata.sheet_data(STANDARD_ROWS, id="coop-mine", name="renamed"))
    assert get_sheet("coop-mine").spec.name == "renamed"
    assert get_sheet("coop-mine").spec.coop is None


def test_broken_invariants_save_with_warnings(home):
    rows = userdata.paint_cell(STANDARD_ROWS, "A1", "r")  # green loses A1 to red ...
    rows = userdata.paint_cell(rows, "B1", "y", star=True)  # ... and B1 to a starred yellow: column B has two stars
    path, warnings = userdata.save_user_sheet(userdata.sheet_data(rows, id="odd"))
    assert path.is_file()
    ids = {v.invariant for v in warnings}
    assert {"INV-COLOUR-CELLS", "INV-BLOCK-SIZES", "INV-STARS-TOTAL", "INV-STARS-COLUMN"} <= ids
    assert "green has 19 cells, every colour needs 21" in [v.message for v in warnings]
    assert {v.invariant for v in get_sheet("odd").warnings} == ids


def test_shipped_ids_are_refused_naming_the_field(home):
    for sid in ("standard", "coop-I", "Standard"):
        with pytest.raises(DataFileError) as exc:
            userdata.save_user_sheet(userdata.sheet_data(STANDARD_ROWS, id=sid))
        assert exc.value.problems[0].startswith(f"field id: {sid!r} is the id of a shipped sheet")
    with pytest.raises(DataFileError, match="field id"):
        userdata.delete_user_sheet("standard")
    assert files_under(home) == []
    assert (BOARDS_DIR / "standard.toml").is_file()


@pytest.mark.parametrize("sid", ["", "my sheet", "../evil", "-x", "a" * 65])
def test_bad_ids_are_refused(home, sid):
    with pytest.raises(DataFileError, match="field id: .* is not a usable id"):
        userdata.save_user_sheet(userdata.sheet_data(STANDARD_ROWS, id=sid))
    assert files_under(home.parent) == []


def test_invalid_sheet_data_names_the_field_and_writes_nothing(home):
    data = userdata.sheet_data(STANDARD_ROWS, id="bad")
    data["grid"] = STANDARD_ROWS[:6] + ["xxxxxxxxxxxxxxx"]
    with pytest.raises(DataFileError) as exc:
        userdata.save_user_sheet(data)
    assert any(p.startswith("field grid.6") for p in exc.value.problems)
    data = userdata.sheet_data(STANDARD_ROWS, id="bad", coop=True, number_fields="1: A1\n2: B1")
    with pytest.raises(DataFileError, match="number_fields: the square at B1 overlaps"):
        userdata.save_user_sheet(data)
    with pytest.raises(DataFileError, match="field jokers"):
        userdata.save_user_sheet({**userdata.sheet_data(STANDARD_ROWS, id="bad"), "jokers": 99})
    with pytest.raises(DataFileError, match="field colour"):
        userdata.save_user_sheet({**userdata.sheet_data(STANDARD_ROWS, id="bad"), "colour": "pink"})
    with pytest.raises(InvalidInputError, match="row_labels"):
        userdata.sheet_data(STANDARD_ROWS, id="bad", coop=True, row_labels="1 2")
    with pytest.raises(InvalidInputError):
        userdata.save_user_sheet(["not", "a", "mapping"])
    assert files_under(home) == []


def test_delete_user_sheet(home):
    userdata.save_user_sheet(userdata.sheet_data(STANDARD_ROWS, id="gone"))
    assert "gone" in sheet_ids()
    path = userdata.delete_user_sheet("gone")
    assert not path.exists() and "gone" not in sheet_ids()
    with pytest.raises(InvalidInputError, match="field id: there is no user sheet 'gone'"):
        userdata.delete_user_sheet("gone")


def test_catalogue_lists_broken_user_files_without_failing(home):
    userdata.save_user_sheet(userdata.sheet_data(STANDARD_ROWS, id="fine"))
    (home / "boards" / "broken.toml").write_text("id = [", encoding="utf-8")
    cat = {row["id"]: row for row in userdata.sheet_catalogue()}
    assert cat["fine"]["provenance"] == "user" and cat["fine"]["user"] and cat["fine"]["error"] is None
    assert cat["standard"]["provenance"] == "verified" and not cat["standard"]["user"]
    assert cat["coop-I"]["provenance"] == "stand-in"
    assert "not valid TOML" in cat["broken"]["error"]
    assert set(cat) == set(sheet_paths())


def test_preview_sheet_accepts_a_blank_id():
    sheet, violations = userdata.preview_sheet(userdata.sheet_data(STANDARD_ROWS, id=""))
    assert sheet.id == "preview" and sheet.provenance == "user" and violations == []


# --------------------------------------------------------------------------- user tableaus
PRINTED = {"goal_10": 6, "penalty_10_jokers": 7, "goal_19": 20, "goal_27": 44,
           "m1_colours": 3, "m2_rows": 5, "m3_colours": 2, "m4_rows": 3, "m5_colours": 1}


def test_user_tableau_overrides_and_delete_restores_the_shipped_one(home):
    shipped = get_tableau(3)
    assert tableau_path(3) == MISSIONS_DIR / "tableau-3.toml"
    path = userdata.save_user_tableau(3, PRINTED)
    assert path == user_tableaus_dir() / "tableau-3.toml" == home / "tableaus" / "tableau-3.toml"
    assert userdata.tableau_source(3) == "user"
    mine = get_tableau(3)
    assert {k: getattr(mine, k).provenance for k in TABLEAU_KEYS} == dict.fromkeys(TABLEAU_KEYS, "user")
    assert {k: mine.value(k) for k in TABLEAU_KEYS} == PRINTED
    assert mine.provenance_summary() == "user"
    assert get_tableau(2) == get_tableau(2) and userdata.tableau_source(2) == "shipped"
    assert userdata.delete_user_tableau(3) is True
    assert get_tableau(3) == shipped and userdata.tableau_source(3) == "shipped"
    assert userdata.delete_user_tableau(3) is False


def test_user_tableau_is_used_by_a_new_coop_game(home):
    userdata.save_user_tableau(2, {**PRINTED, "m1_colours": 2}, track=[1, 2] * 13 + [1])
    game = CoopGame.create(players=2, mission=1)
    assert game.tableau.goal_27.value == 44 and game.tableau.goal_27.provenance == "user"
    assert game.tableau.track[:3] == (1, 2, 1)


@pytest.mark.parametrize(("players", "values", "track", "field"), [
    (3, {**PRINTED, "goal_10": 50}, (), "goal_10 <= goal_19 <= goal_27"),
    (3, {k: v for k, v in PRINTED.items() if k != "m2_rows"}, (), "field m2_rows: missing"),
    (3, {**PRINTED, "m9": 1}, (), "field m9: not a tableau value"),
    (3, {**PRINTED, "m1_colours": 6}, (), "m1_colours: only five colours exist"),
    (3, {**PRINTED, "m4_rows": 8}, (), "m4_rows: a sheet has seven rows"),
    (3, {**PRINTED, "goal_27": -1}, (), "field goal_27"),
    (3, {**PRINTED, "goal_27": "lots"}, (), "field goal_27: 'lots' is not a whole number"),
    (3, PRINTED, (1, 2, 3), "field track: lists 3 seats, a track has 27"),
    (2, PRINTED, (1, 2, 3) * 9, "field track: seats are 1–2 for 2 players, got 3"),
    (7, PRINTED, (), "field players"),
    (0, PRINTED, (), "field players"),
])
def test_invalid_tableau_names_the_field_and_writes_nothing(home, players, values, track, field):
    with pytest.raises(NochmalError) as exc:
        userdata.save_user_tableau(players, values, track)
    assert field in str(exc.value)
    assert files_under(home.parent) == []


def test_parse_track_text():
    assert userdata.parse_track_text("") == ()
    assert userdata.parse_track_text("1 2, 3;1") == (1, 2, 3, 1)
    with pytest.raises(InvalidInputError, match="track entry 2: 'x' is not a seat number"):
        userdata.parse_track_text("1 x")


def test_problems_of_strips_pydantic_noise(home):
    with pytest.raises(DataFileError) as exc:
        userdata.save_user_tableau(3, {**PRINTED, "goal_19": 1})
    assert userdata.problems_of(exc.value) == ["goal_10 <= goal_19 <= goal_27 must hold"]
    assert userdata.problems_of(InvalidInputError("plain")) == ["plain"]


def test_tableau_rows_cover_every_key():
    rows = userdata.tableau_rows(get_tableau(3))
    assert [r["key"] for r in rows] == list(TABLEAU_KEYS)
    assert rows[0] == {"key": "goal_10", "meaning": userdata.TABLEAU_KEY_TEXT["goal_10"], "value": 5,
                       "provenance": "rulebook"}
    assert rows[5]["provenance"] == "derived"


# --------------------------------------------------------------------------- figure
def test_tableau_goals_figure(home):
    userdata.save_user_tableau(4, {**PRINTED, "m1_colours": 4})
    tableaus = {n: get_tableau(n) for n in range(1, 7)}
    fig = userdata.tableau_goals_figure(tableaus)
    assert [t.name for t in fig.data] == ["after turn 10", "after turn 19", "after turn 27"]
    assert list(fig.data[0].x) == ["1 player", "2 players", "3 players", "4 players", "5 players", "6 players"]
    assert list(fig.data[2].y) == [13, 27, 40, 44, 67, 80]
    assert list(fig.data[0].customdata) == ["derived", "derived", "rulebook", "user", "derived", "derived"]
    assert list(fig.data[0].marker.pattern.shape) == ["/", "/", "", "", "/", "/"]
    assert fig.data[0].marker.pattern.fillmode == "overlay"  # the bar keeps its colour under the hatching
    assert fig.layout.barmode == "group"
    # any iterable of specs, any order
    again = userdata.tableau_goals_figure(reversed(list(tableaus.values())))
    assert list(again.data[1].y) == list(fig.data[1].y)


def test_column_points_typed_are_checked_and_only_other_points_are_written():
    from nochmal.engine.sheet import STANDARD_FIRST, STANDARD_LATER

    rows = list(get_sheet("standard").spec.grid)
    assert userdata.parse_points("", "first_points") is None
    assert userdata.parse_points("5,3 3;3 2 2 2 1 2 2 2 3 3 3 5", "first_points") == list(STANDARD_FIRST)
    with pytest.raises(userdata.SheetTextError) as info:
        userdata.parse_points("5 3 3", "first_points")
    assert info.value.problems == ["first_points: 3 numbers given, a sheet has 15 columns (A-O)"]
    with pytest.raises(userdata.SheetTextError) as info:
        userdata.sheet_data(rows, id="p", first_points=" ".join(["4"] * 14 + ["x"]), later_points="1 " * 14 + "99")
    assert info.value.problems == ["first_points: 'x' is not a whole number from 0 to 20",
                                   "later_points: '99' is not a whole number from 0 to 20"]
    standard = userdata.sheet_data(rows, id="p", first_points=" ".join(map(str, STANDARD_FIRST)),
                                   later_points=" ".join(map(str, STANDARD_LATER)))
    assert "first_points" not in standard and "later_points" not in standard
    other = userdata.sheet_data(rows, id="p", first_points="4 " * 15, later_points="")
    assert other["first_points"] == [4] * 15 and other["later_points"] == list(STANDARD_LATER)
