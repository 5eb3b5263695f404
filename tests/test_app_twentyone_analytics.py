"""AppTest of twenty one's Analytics page (``nochmal/ui/twentyone/analytics.py``), reached as a user
reaches it: the Analytics page, then its game choice. The numbers on the page are compared with
what :mod:`nochmal.analytics.twentyone` computes itself, not with numbers written here."""

from __future__ import annotations

import statistics

from apptools import app, env, no_exception  # noqa: F401 (env: the fixture)

from nochmal.analytics import twentyone as A

DASHBOARD = "nochmal/ui/pages/dashboard.py"


def analytics(query: dict | None = None):
    at = app(query, timeout=120)
    at.switch_page(DASHBOARD).run()
    no_exception(at)
    return at


def chart_keys(at) -> set[str]:
    return {node.proto.id.rsplit("-", 1)[-1] for node in at.get("plotly_chart")}


def test_the_analytics_page_offers_twentyone_and_keeps_noch_mal_first(env):
    at = analytics()
    choice = at.get("button_group")[0] if at.get("button_group") else None
    assert choice is not None
    assert [t.value for t in at.title] == ["Mission analytics"]  # Noch mal!'s missions by default
    assert not chart_keys(at) & {"t21_dist", "t21_wins"}


def test_twentyone_shows_the_exact_optimum_of_every_sheet_and_its_distribution(env):
    at = analytics()
    at.get("button_group")[0].set_value(1).run()
    no_exception(at)
    assert [t.value for t in at.title] == ["twenty one analytics"]
    table = at.dataframe[0].value
    want = A.optimum_table()
    assert list(table["sheet"]) == list(want["sheet"]) == ["A", "B", "C", "D", "E", "F"]
    assert list(table["expected score"]) == list(want["expected"].round(2))
    assert list(table["the second attempt is worth"]) == list(want["second_attempt_worth"].round(2))
    assert "t21_dist" in chart_keys(at)
    at.selectbox(key="t21_dist_sheet").set_value("D").run()
    no_exception(at)
    assert any("sheet D alone" in c.value for c in at.caption)


def test_bots_play_seeded_games_on_the_page_and_the_figures_follow(env):
    at = analytics()
    at.get("button_group")[0].set_value(1).run()
    at.number_input(key="t21_players").set_value(3)
    at.number_input(key="t21_games").set_value(20)
    at.number_input(key="t21_seed").set_value(7)
    at.selectbox(key="t21_bot_first").set_value("race")
    at.selectbox(key="t21_bot_others").set_value("greedy")
    at.button(key="FormSubmitter:t21_games_form-Play the games").click().run()
    no_exception(at)
    assert {"t21_wins", "t21_length", "t21_ease"} <= chart_keys(at)
    assert any("20 games of 3 players" in c.value for c in at.caption)
    rows = A.simulate(3, ["race", "greedy", "greedy"], 20, 7)
    shown = at.session_state["t21_rows"]
    assert statistics.fmean(r["score"] for r in shown) == statistics.fmean(rows["score"])
    assert [r["seed"] for r in shown] == list(rows["seed"])


def test_twentyone_analytics_in_german(env):
    at = analytics({"lang": "de"})
    at.get("button_group")[0].set_value(1).run()
    no_exception(at)
    words = " ".join(m.value for m in at.markdown) + " ".join(s.value for s in at.subheader)
    assert "Zettel" in " ".join(at.dataframe[0].value.columns)
    assert "zweite" in words.lower() and "Bots" in words


def test_the_owners_sheets_are_analysed_too_and_an_edited_sheet_is_computed_again(env):
    """A sheet of the owner's is in the optimum table ("your sheet") and in the distribution's choice;
    saved again with other values under the same id, the page's numbers follow the new content (the
    cached tables are keyed on the sheet's content, not its id)."""
    from nochmal.data import twentyoneuser as U
    from nochmal.engine.twentyone import get_sheet

    colours = [list("wkrbyg")] * 5
    first = [[6, 6, 6, 6, 6, 6], [5, 5, 5, 4, 4, 4], [6, 5, 4, 3, 2, 1], [4, 4, 4, 3, 2, 2], [3, 3, 3, 3, 3, 3]]
    U.save_user_sheet(U.typed_sheet_data("mine", colours, first))
    at = analytics()
    at.get("button_group")[0].set_value(1).run()
    no_exception(at)
    table = at.dataframe[0].value
    assert list(table["sheet"]) == ["A", "B", "C", "D", "E", "F", "mine"]
    mine = table[table["sheet"] == "mine"].iloc[0]
    assert mine["provenance"] == "your sheet"
    want = A.optimum_table([get_sheet("mine")]).iloc[0]
    assert mine["expected score"] == round(want["expected"], 2) != table["expected score"].iloc[0]
    at.selectbox(key="t21_dist_sheet").set_value("mine").run()
    no_exception(at)
    assert any("sheet mine alone" in c.value for c in at.caption)
    figure_before = [n.proto.spec for n in at.get("plotly_chart") if n.proto.id.endswith("t21_dist")]
    # the owner corrects the values: same id, new content
    second = [[6, 5, 4, 3, 2, 1]] * 5
    U.save_user_sheet(U.typed_sheet_data("mine", colours, second))
    at.run()
    no_exception(at)
    table = at.dataframe[0].value
    again = table[table["sheet"] == "mine"].iloc[0]["expected score"]
    assert again == round(A.optimum_table([get_sheet("mine")]).iloc[0]["expected"], 2) != mine["expected score"]
    assert again == table["expected score"].iloc[0]  # every row 6 5 4 3 2 1, as the stand-ins: their optimum
    figure_after = [n.proto.spec for n in at.get("plotly_chart") if n.proto.id.endswith("t21_dist")]
    assert figure_before and figure_after and figure_before != figure_after
