"""The analytics of *twenty one* (issue 44 item 7): seeded simulations (one row per game and seat,
reproducible), the per-sheet optimum table, game length by player count, which sheet is easiest,
and the figures built from them (traces and data checked without Streamlit). Small runs only."""

from __future__ import annotations

import pandas as pd
import pytest

from nochmal.analytics import twentyone as T
from nochmal.analytics import twentyone_figures as F
from nochmal.engine.twentyone import get_sheet, sheet_from_rows


@pytest.fixture(scope="module")
def games() -> pd.DataFrame:
    return pd.concat([T.simulate(n, ["race", "optimum", "greedy"][:n] if n <= 3 else ["race"], 40, 5)
                      for n in (2, 3, 4)], ignore_index=True)


def test_simulate_gives_one_row_per_game_and_seat_and_is_reproducible(games):
    again = pd.concat([T.simulate(n, ["race", "optimum", "greedy"][:n] if n <= 3 else ["race"], 40, 5)
                       for n in (2, 3, 4)], ignore_index=True)
    pd.testing.assert_frame_equal(games, again)
    assert len(games) == 40 * (2 + 3 + 4)
    assert set(games.columns) >= {"game", "seed", "players", "seat", "policy", "sheet", "score", "rows_done",
                                  "rounds", "winner", "win_share"}
    per_game = games.groupby(["players", "game"])
    assert (per_game["win_share"].sum().round(9) == 1).all()  # T-WIN: one win per game, shared or not
    assert (per_game["sheet"].nunique() == per_game.size()).all()  # T-START: different sheets
    assert (per_game["rows_done"].max() == 5).all()  # T-END: someone scored a fifth row
    best = games.loc[games["winner"]].groupby(["players", "game"])["score"].min()
    assert (best == per_game["score"].max()).all()
    other = T.simulate(2, ["race", "optimum"], 40, 6)
    assert not other["score"].equals(games[games["players"] == 2]["score"].reset_index(drop=True))


def test_simulate_reports_progress_and_plays_the_given_sheets():
    seen = []
    df = T.simulate(1, ["optimum"], 5, 1, sheets=["C"], on_progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 5) for i in range(1, 6)]
    assert set(df["sheet"]) == {"C"} and (df["rows_done"] == 5).all() and df["winner"].all()


@pytest.mark.parametrize("kwargs, field", [
    ({"players": 0}, "players"), ({"players": 7}, "players"), ({"players": "2"}, "players"),
    ({"games": 0}, "games"), ({"games": 10**9}, "games"), ({"seed": 1.5}, "seed"),
    ({"policies": ["optimum", "race", "greedy"]}, "policies"), ({"policies": ["smart"]}, "smart"),
    ({"policies": "race"}, "policies"), ({"sheets": ["A"]}, "sheets"), ({"sheets": ["A", "A"]}, "sheets"),
    ({"sheets": ["Q", "A"]}, "Q"),
])
def test_hostile_input_is_refused_by_name(kwargs, field):
    args = {"players": 2, "policies": ["race"], "games": 3, "seed": 1} | kwargs
    with pytest.raises(Exception, match=field):
        T.simulate(**args)


def test_the_optimum_table_per_sheet_and_a_user_sheet():
    mine = sheet_from_rows(["wkrbyg"] * 5, [[6, 5, 4, 3, 2, 1]] + [[6, 6, 5, 4, 3, 2]] * 4)
    table = T.optimum_table([get_sheet("A"), mine])
    a, m = table.iloc[0], table.iloc[1]
    assert a["expected"] == pytest.approx(141.2722847852676, abs=1e-9)
    assert a["expected_without_second"] == pytest.approx(111.115, abs=1e-3)
    assert a["second_attempt_worth"] == pytest.approx(a["expected"] - a["expected_without_second"])
    assert a["q05"] < a["q50"] < a["q95"] and 10 < a["sd"] < 25
    assert m["expected"] > a["expected"]
    assert list(T.sheet_ease(sheets=[get_sheet("A"), mine])["rank"]) == [1, 2]
    assert T.sheet_ease(sheets=[get_sheet("A"), mine])["sheet"].iloc[0] == mine.id


def test_game_length_and_the_ease_of_sheets_from_games(games):
    length = T.game_length(games)
    assert list(length["players"]) == [2, 3, 4] and (length["games"] == 40).all()
    assert (length["min"] >= 5).all() and (length["mean"] <= length["max"]).all()
    ease = T.sheet_ease(games)
    assert sorted(ease["sheet"]) == list("ABCDEF") and list(ease["rank"]) == list(range(1, 7))
    assert ease["seated"].sum() == len(games)
    assert ease["win_share_over_fair"].is_monotonic_decreasing  # the stand-ins share one optimum
    summary = T.policy_summary(games)
    assert set(summary["policy"]) == {"race", "optimum", "greedy"}
    with pytest.raises(ValueError, match="rounds"):
        T.game_length(games.drop(columns=["rounds"]))


def test_the_figures_carry_the_data(games):
    dist = T.score_distribution("A")
    fig = F.score_distribution_figure(dist)
    assert [t.type for t in fig.data] == ["bar", "bar"]
    assert sum(fig.data[0].y) == pytest.approx(1.0, abs=1e-9) and sum(fig.data[1].y) == pytest.approx(1.0, abs=1e-9)
    assert len(fig.layout.shapes) == 2  # the two means
    table = T.optimum_table(["A", "B"])
    fig = F.second_attempt_figure(table)
    assert list(fig.data[0].x) == ["A", "B"] and fig.data[0].y[0] > fig.data[1].y[0]
    fig = F.game_length_figure(games)
    assert len(fig.data) == 3 and [len(t.y) for t in fig.data] == [40, 40, 40]
    ease = T.sheet_ease(games)
    fig = F.sheet_ease_figure(ease)
    assert list(fig.data[0].x) == list(ease["sheet"]) and list(fig.data[0].y) == list(ease["win_share"])
    assert [t.type for t in F.sheet_ease_figure(T.sheet_ease(sheets=["A"])).data] == ["bar"]
    fig = F.win_share_figure(T.policy_summary(games))
    assert {t.name for t in fig.data if t.type == "bar"} == {"race", "optimum", "greedy"}
    assert list(fig.data[-1].y) == pytest.approx([1 / 2, 1 / 3, 1 / 4])
    with pytest.raises(ValueError, match="probability"):
        F.score_distribution_figure(dist.drop(columns=["probability"]))
