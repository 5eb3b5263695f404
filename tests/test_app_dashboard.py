"""AppTest flows of the Analytics page (``nochmal/ui/pages/dashboard.py``), by widget key.

The page is opened through ``app.py`` (``st.navigation``, then ``switch_page``), as a user
reaches it. The results file used here is made by the engine itself (``run_sweep`` and
``write_rows``): two policies and two tableaus for three players, so that every figure of the
page has something to show.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from nochmal.data import userdata
from nochmal.engine.coopdata import MISSIONS_DIR, TABLEAU_KEYS, get_tableau
from nochmal.analytics.sweep import SweepSpec, read_rows, run_sweep, write_rows

REPO = Path(__file__).resolve().parent.parent
APP = REPO / "app.py"
PAGES = REPO / "nochmal" / "ui" / "pages"
PAGE = "nochmal/ui/pages/dashboard.py"
ROUTED_PAGES = ("start.py", "table.py", "history.py", "sheets.py", "tableaus.py", "dashboard.py")
MISSING = [p for p in ROUTED_PAGES if not (PAGES / p).is_file()]
SHIPPED = next((p for p in (REPO / "docs" / f"calibration-sweep.{ext}" for ext in ("csv", "parquet")) if p.is_file()),
               REPO / "docs" / "calibration-sweep.csv")
TIMEOUT = 60
#: every figure of a results file with several policies and several tableaus for one player count
ALL_FIGURES = {"fig_heatmap", "fig_losses", "fig_points", "fig_turns", "fig_cells", "fig_policies", "fig_tableau",
               "fig_tableau_wins"}
#: and the one of results with the perfect-dice bound beside the bots
BOUND_FIGURE = "fig_bound"


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A private NOCHMAL_HOME and NOCHMAL_DB, set before any AppTest is created."""
    monkeypatch.setenv("NOCHMAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NOCHMAL_DB", str(tmp_path / "games.sqlite"))
    return tmp_path / "home"


@pytest.fixture(scope="module")
def results_rows(tmp_path_factory):
    """Mission 1, three players, random and greedy, with the shipped tableau and a user's."""
    base = tmp_path_factory.mktemp("results")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NOCHMAL_HOME", str(base / "home"))
        shipped = get_tableau(3)
        mine = userdata.save_user_tableau(3, {k: shipped.value(k) for k in TABLEAU_KEYS} | {"m1_colours": 2})
    spec = SweepSpec(missions=[1], players=[3], policies=["random", "greedy"], games=2, seed=5,
                     tableaus=[str(MISSIONS_DIR / "tableau-3.toml"), str(mine)])
    return run_sweep(spec, base / "parts", workers=1)


@pytest.fixture(scope="module")
def results_files(results_rows, tmp_path_factory):
    out = tmp_path_factory.mktemp("files")
    return {ext: write_rows(results_rows, out / f"sweep.{ext}") for ext in ("csv", "parquet")}


def open_dashboard() -> AppTest:
    if MISSING:
        pytest.skip(f"app.py routes to page files that do not exist yet: {', '.join(MISSING)}")
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    at.switch_page(PAGE)
    return ok(at)


def ok(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def charts(at: AppTest) -> set[str]:
    """The keys of the plotly charts on the page (``fig_*``)."""
    keys = [node.proto.id.rsplit("-", 1)[-1] for node in at.get("plotly_chart")]
    assert len(set(keys)) == len(keys) and set(keys) <= ALL_FIGURES | {BOUND_FIGURE}, keys
    return set(keys)


def texts(elements) -> list[str]:
    return [e.value for e in elements]


def test_page_renders_without_results(home):
    at = open_dashboard()
    assert texts(at.title) == ["Mission analytics"]
    assert any("No results yet" in t for t in texts(at.info))
    assert not at.get("plotly_chart") and not at.error
    # the sweep form: the three bots, and how fast each plays
    assert at.multiselect(key="dash_policies").options == ["Greedy bot", "Random bot", "Planner bot"]
    assert any("the planner about 4 games a second" in c and "8 games out" in c for c in texts(at.caption))
    assert at.number_input(key="dash_games").value == 20
    sources = at.radio(key="dash_from").options
    assert sources[:2] == ["Run a small sweep here", "Open a results file"]
    assert ("The shipped calibration sweep" in sources) == SHIPPED.is_file()


def choose_sweep(at, missions, players, policies, games: int) -> None:
    """Set the sweep form's widgets as a person would."""
    at.multiselect(key="dash_missions").set_value(missions)
    at.multiselect(key="dash_players").set_value(players)
    at.multiselect(key="dash_policies").set_value(policies)
    at.number_input(key="dash_games").set_value(games)
    ok(at)


def run_sweep_here(at) -> None:
    """Press the Run button; the sweep runs in the page without an error."""
    at.button(key="dash_run").click()
    ok(at)
    assert not at.error, texts(at.error)


def test_a_tiny_sweep_through_the_widgets_draws_the_figures(home):
    at = open_dashboard()
    choose_sweep(at, [2], [1, 2], ["greedy"], 2)
    assert at.metric[0].value == "4"
    run_sweep_here(at)
    assert any("Loaded 4 games from a sweep run here" in s for s in texts(at.success))
    rows = at.session_state["dash_rows"]
    assert isinstance(rows, list) and len(rows) == 4 and all(isinstance(r, dict) for r in rows)
    assert {(r["mission"], r["players"], r["policy"]) for r in rows} == {(2, 1, "greedy"), (2, 2, "greedy")}
    # one policy and one tableau per player count: no comparison of policies or tableaus
    assert charts(at) == ALL_FIGURES - {"fig_policies", "fig_tableau_wins"}
    assert at.get("download_button")
    # provenance: stand-in tableau values and the policy that played
    assert any("stand-ins for most player counts" in w for w in texts(at.warning))
    assert any("You have not saved a tableau for 1 player" in c for c in texts(at.caption))
    assert any("**Greedy bot** takes the move" in i for i in texts(at.info))
    # the calibration report is on the page; its temporary sweep folder is gone
    assert any("Calibration of the co-op tableaus" in m for m in texts(at.markdown))
    assert not any((home / "sweep-tmp").glob("*"))


def test_the_planner_is_swept_in_the_app_beside_greedy(home):
    """The planner plays its sweep in the app too (compiled, the analytics' settings): its rows
    are the ones ``nochmal sweep`` writes for the same seed, and the page compares the two bots."""
    from nochmal.analytics.sweep import SweepSpec, run_sweep

    at = open_dashboard()
    choose_sweep(at, [2], [1], ["greedy", "planner"], 3)
    assert at.metric[0].value == "6"
    run_sweep_here(at)
    rows = at.session_state["dash_rows"]
    assert sorted(r["policy"] for r in rows) == ["greedy"] * 3 + ["planner"] * 3
    cli = run_sweep(SweepSpec(missions=[2], players=[1], policies=["planner"], games=3, seed=0), home / "cli-parts",
                    workers=1)
    ours = sorted((r for r in rows if r["policy"] == "planner"), key=lambda r: r["seed"])
    assert [(r["seed"], r["won"], r["turns"], r["points_end"]) for r in ours] == \
        [(r["seed"], r["won"], r["turns"], r["points_end"]) for r in sorted(cli, key=lambda r: r["seed"])]
    assert "fig_policies" in charts(at)


def test_an_empty_choice_does_not_run(home):
    at = open_dashboard()
    at.multiselect(key="dash_missions").set_value([])
    ok(at)
    assert at.button(key="dash_run").disabled
    assert any("Choose at least one mission" in c for c in texts(at.caption))
    assert at.session_state["dash_rows"] is None
    assert not at.get("plotly_chart")


@pytest.mark.parametrize("ext", ["csv", "parquet"])
def test_a_results_file_by_path_shows_every_figure(home, results_files, results_rows, ext):
    at = open_dashboard()
    at.radio(key="dash_from").set_value("file")
    ok(at)
    at.text_input(key="dash_path").input(str(results_files[ext]))
    at.button(key="dash_open").click()
    ok(at)
    assert not at.error, texts(at.error)
    assert len(at.session_state["dash_rows"]) == len(results_rows)
    assert charts(at) == ALL_FIGURES
    prov = at.dataframe[0].value
    assert list(prov["players"]) == [3]
    # in words: no file ids, no internal policy names
    assert prov["tableau (provenance)"][0] == "shipped: rulebook + derived, yours"
    assert prov["policies"][0] == "Greedy bot, Random bot"


def test_an_uploaded_results_file_shows_every_figure(home, results_files):
    shipped = get_tableau(3)
    userdata.save_user_tableau(3, {k: shipped.value(k) for k in TABLEAU_KEYS} | {"m1_colours": 2})
    at = open_dashboard()
    at.radio(key="dash_from").set_value("file")
    ok(at)
    at.file_uploader(key="dash_upload").set_value(
        ("sweep.parquet", results_files["parquet"].read_bytes(), "application/octet-stream"))
    ok(at)
    assert not at.error, texts(at.error)
    assert charts(at) == ALL_FIGURES
    # the policy of the heat map can be chosen; the sheet of the cell map among those played
    assert set(at.selectbox(key="dash_heat_policy").options) == {"Greedy bot", "Random bot"}
    assert at.selectbox(key="dash_sheet").options == ["coop-I", "coop-II", "coop-III"]
    assert at.selectbox(key="dash_tab_players").value == 3
    assert any("You saved a tableau for 3 players" in c for c in texts(at.caption))
    at.selectbox(key="dash_sheet").set_value("coop-II")
    ok(at)
    assert "fig_cells" in charts(at)


@pytest.mark.parametrize("name, content", [
    ("broken.parquet", b"this is not parquet"),
    ("broken.csv", b"a,b\n1,2\n"),
    ("broken.csv", b"mission,players,policy,won,reason,turns\n9,3,greedy,True,x,12\n"),
    ("empty.csv", b""),
])
def test_a_broken_upload_shows_an_error(home, name, content):
    at = open_dashboard()
    at.radio(key="dash_from").set_value("file")
    ok(at)
    at.file_uploader(key="dash_upload").set_value((name, content, "application/octet-stream"))
    ok(at)
    errors = texts(at.error)
    assert any(e.startswith("Could not open the uploaded file — ") and name in e for e in errors), errors
    assert not at.get("plotly_chart")


def test_a_broken_or_missing_path_shows_an_error_and_keeps_the_results(home, tmp_path, results_files):
    at = open_dashboard()
    at.radio(key="dash_from").set_value("file")
    ok(at)
    at.text_input(key="dash_path").input(str(results_files["csv"]))
    at.button(key="dash_open").click()
    ok(at)
    n = len(at.session_state["dash_rows"])
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"garbage")
    for path in (bad, tmp_path / "nowhere.csv"):
        at.text_input(key="dash_path").input(str(path))
        at.button(key="dash_open").click()
        ok(at)
        assert any(str(path) in e for e in texts(at.error)), texts(at.error)
        assert len(at.session_state["dash_rows"]) == n  # the results before are kept
        assert charts(at) == ALL_FIGURES


def test_the_ladder_changes_the_calibration_report(home, results_files):
    at = open_dashboard()
    at.radio(key="dash_from").set_value("file")
    ok(at)
    at.text_input(key="dash_path").input(str(results_files["csv"]))
    at.button(key="dash_open").click()
    ok(at)
    assert any("for the ladder 80%, 65%, 50%, 35%, 20%" in m for m in texts(at.markdown))
    at.number_input(key="dash_ladder_1").set_value(0.5)
    ok(at)
    assert any("for the ladder 50%, 65%, 50%, 35%, 20%" in m for m in texts(at.markdown))
    at.button(key="dash_ladder_reset").click()
    ok(at)
    assert at.number_input(key="dash_ladder_1").value == pytest.approx(0.8)


def test_clear_results(home, results_files):
    at = open_dashboard()
    at.radio(key="dash_from").set_value("file")
    ok(at)
    at.text_input(key="dash_path").input(str(results_files["csv"]))
    at.button(key="dash_open").click()
    ok(at)
    at.button(key="dash_clear").click()
    ok(at)
    assert not at.get("plotly_chart") and any("No results yet" in t for t in texts(at.info))


@pytest.mark.skipif(not SHIPPED.is_file(), reason="docs/calibration-sweep.csv/.parquet is not shipped yet")
def test_the_shipped_calibration_sweep(home):
    at = open_dashboard()
    at.radio(key="dash_from").set_value("shipped")
    ok(at)
    at.button(key="dash_open_shipped").click()
    ok(at)
    assert not at.error, texts(at.error)
    shipped = read_rows(SHIPPED)
    assert {"fig_heatmap", "fig_losses", "fig_points", "fig_turns", "fig_tableau", "fig_policies",
            BOUND_FIGURE} <= charts(at)
    assert len(at.session_state["dash_rows"]) == len(shipped)
    assert any("shipped calibration sweep" in s for s in texts(at.success))
    # the bots beside the perfect-dice bound: the heat map shows the best bot, never the bound
    assert set(shipped["policy"]) == {"greedy", "planner", "bound"}
    assert at.selectbox(key="dash_heat_policy").value == "planner"  # the best bot of the three
    report = " ".join(texts(at.markdown))
    assert "The bots and the perfect-dice bound" in report and "gap to the bound" in report
    # the report rests on the planner; its games are not played again while the page waits
    assert "Policy: **planner**" in report
    assert "higher counts are not played again here: `nochmal calibrate` plays them" in report
