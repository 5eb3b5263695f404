"""The results helpers of ``nochmal.analytics.figures`` used by the Analytics page (pure: no Streamlit)."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from nochmal.analytics import figures as F
from nochmal.analytics.sweep import SweepSpec, run_sweep


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    spec = SweepSpec(missions=[1, 3], players=[1, 2], policies=["random"], games=3, seed=2)
    return run_sweep(spec, tmp_path_factory.mktemp("parts"), workers=1)


def csv_bytes(df: pd.DataFrame) -> bytes:
    return df.to_csv(index=False).encode()


def test_check_results_accepts_a_sweep_and_makes_won_boolean(rows):
    df = pd.DataFrame(rows)
    df["won"] = df["won"].map({True: "True", False: "false"})
    out = F.check_results(df)
    assert out["won"].dtype == bool
    assert list(out["won"]) == [r["won"] for r in rows]
    assert list(out["players"]) == [r["players"] for r in rows]


@pytest.mark.parametrize("change, message", [
    (lambda d: d.drop(columns=["won", "turns"]), "no column(s) won, turns"),
    (lambda d: d.assign(players=7), "column players, row 1: 7 is not a whole number from 1 to 6"),
    (lambda d: d.assign(mission="x"), "column mission, row 1"),
    (lambda d: d.assign(turns=2.5), "column turns"),
    (lambda d: d.assign(won="maybe"), "column won, row 1: 'maybe' is not True or False"),
    (lambda d: d.iloc[0:0], "hold no games"),
    # text that would reach a chart label, which plotly reads as a little HTML
    (lambda d: d.assign(reason='<a href="http://127.0.0.1:9/">x</a>'), "column reason, row 1"),
    (lambda d: d.assign(policy="greedy<br>"), "column policy, row 1: 'greedy<br>' is not a policy name"),
    (lambda d: d.assign(sheets="coop-I,<b>x</b>"), "column sheets, row 1"),
])
def test_check_results_names_the_problem(rows, change, message):
    with pytest.raises(ValueError) as err:
        F.check_results(change(pd.DataFrame(rows)))
    assert message in str(err.value)


def test_read_results_bytes_csv_and_parquet(rows):
    df = pd.DataFrame(rows)
    assert len(F.read_results_bytes(csv_bytes(df), "r.csv")) == len(rows)
    buf = io.BytesIO()
    df.to_parquet(buf, index=False)
    back = F.read_results_bytes(buf.getvalue(), "R.PARQUET")
    assert list(back["seed"]) == [r["seed"] for r in rows]


@pytest.mark.parametrize("data, name, message", [
    (b"garbage", "x.parquet", "x.parquet: cannot read results"),
    (b"", "x.csv", "x.csv: cannot read results"),
    (b"a,b\n1,2\n", "x.csv", "x.csv: not results of `nochmal sweep`"),
    (b"a,b\n1,2\n", "x.txt", "use a .csv or .parquet results file"),
])
def test_read_results_bytes_errors_name_the_file(data, name, message):
    with pytest.raises(ValueError) as err:
        F.read_results_bytes(data, name)
    assert message in str(err.value)


def test_sheets_in_and_provenance(rows):
    df = pd.DataFrame(rows)
    assert F.sheets_in(df) == ["coop-I", "coop-II"]
    assert F.sheets_in(df.drop(columns=["sheets"])) == []
    prov = F.results_provenance(df)
    assert list(prov["players"]) == [1, 2]
    assert list(prov["tableau (provenance)"]) == ["tableau-1 (derived)", "tableau-2 (derived)"]
    assert list(prov["policies"]) == ["random", "random"]
    assert list(prov["missions"]) == ["M1, M3", "M1, M3"]
    assert list(prov["games"]) == [6, 6]


def test_players_with_several_tableaus(rows):
    df = pd.DataFrame(rows)
    assert F.players_with_several_tableaus(df) == []  # one tableau per player count is the normal case
    mixed = pd.concat([df, df[df["players"] == 2].assign(tableau_provenance="user")])
    assert F.players_with_several_tableaus(mixed) == [2]
    assert F.players_with_several_tableaus(df.drop(columns=["tableau"])) == []


def test_cell_frequency_reads_an_empty_field_back_from_csv_as_no_crosses(rows):
    df = pd.DataFrame(rows)
    first = int((df["players"] == 1).to_numpy().nonzero()[0][0])
    df.loc[first, "crossed"] = ""  # a one-seat game that crossed nothing: an empty CSV field, read back as NaN
    back = pd.read_csv(io.BytesIO(csv_bytes(df)))
    assert pd.isna(back.loc[first, "crossed"])
    fig = F.cell_frequency(back, "coop-I")
    seats = sum(1 for s in df["sheets"] for sid in s.split(",") if sid == "coop-I")
    assert f"({seats} sheets)" in fig.layout.title.text
    expected = F.cell_frequency(df, "coop-I").data[0].z
    assert [list(r) for r in fig.data[0].z] == [list(r) for r in expected]


def test_loss_reasons_colour_a_win_green(rows):
    fig = F.loss_reasons(pd.DataFrame(rows))
    colours = {t.name: t.marker.color for t in fig.data}
    assert set(colours) <= set(F.REASON_COLOURS)
    for name, colour in colours.items():
        assert colour == F.REASON_COLOURS[name]


def test_points_vs_goals_draws_one_panel_per_player_count(rows):
    """Two lines per player count in one chart made twelve overlapping lines for six counts
    (issue 42): each count has its panel, the legend names the two lines once."""
    fig = F.points_vs_goals(pd.DataFrame(rows))
    assert [a.text for a in fig.layout.annotations] == ["1 player", "2 players"]
    assert len(fig.data) == 4
    points = [t for t in fig.data if t.legendgroup == "points"]
    goals = [t for t in fig.data if t.legendgroup == "goal"]
    assert [t.xaxis for t in points] == [t.xaxis for t in goals] == ["x", "x2"]  # a panel each
    assert [t.showlegend for t in points + goals] == [True, False, True, False]
    assert {t.name for t in points} == {"team points (median, quartiles)"} and {t.name for t in goals} == {"goal"}
    for goal in goals:
        assert goal.line.dash == "dot" and "lines" in goal.mode and goal.line.color == goal.marker.color
    assert points[0].line.color != goals[0].line.color
    six = pd.concat([pd.DataFrame(rows).assign(players=n) for n in range(1, 7)])
    big = F.points_vs_goals(six)
    assert len(big.layout.annotations) == 6 and sum(t.showlegend for t in big.data) == 2


def test_heatmap_grows_with_the_player_counts(rows):
    df = pd.DataFrame(rows)
    small = F.win_rate_heatmap(df[df["players"] == 1]).layout.height
    six = pd.concat([df.assign(players=n) for n in range(1, 7)])
    assert F.win_rate_heatmap(six).layout.height > small >= 320
