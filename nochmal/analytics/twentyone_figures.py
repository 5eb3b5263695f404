"""Figures of the *twenty one* analytics: pure functions ``DataFrame -> plotly Figure`` over the
frames of :mod:`nochmal.analytics.twentyone` (no streamlit), unit-tested on their own; the page
section that shows them is wired elsewhere."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from nochmal.data.i18n import _, ngettext, pgettext

#: the optimum with the second attempt, and without it
WITH_COLOUR, WITHOUT_COLOUR = "#1f77b4", "#aec7e8"
#: one colour per bot (as the Noch mal! charts keep one per ending)
POLICY_COLOURS = {"race": "#2e9e44", "optimum": "#1f77b4", "greedy": "#ff7f0e"}
FAIR_COLOUR = "#8c8c8c"


def _need(df: pd.DataFrame, columns: set[str], what: str) -> None:
    missing = columns - set(df.columns)
    if missing:
        raise ValueError(f"these results have no column(s) {', '.join(sorted(missing))}: not {what}")


def score_distribution_figure(dist: pd.DataFrame) -> go.Figure:
    """The exact distribution of the optimal practice score (:func:`score_distribution`): one bar
    trace with the second attempt, one without, each with its mean as a dotted line."""
    _need(dist, {"second_attempt", "score", "probability"}, "a score distribution")
    fig = go.Figure()
    for second, colour in ((True, WITH_COLOUR), (False, WITHOUT_COLOUR)):
        d = dist[dist["second_attempt"] == second]
        if d.empty:
            continue
        name = pgettext("chart", "with the second attempt") if second else pgettext("chart", "without it")
        fig.add_bar(x=d["score"], y=d["probability"], name=name, marker_color=colour, opacity=0.8,
                    hovertemplate="%{x}: %{y:.2%}<extra></extra>")
        mean = float((d["score"] * d["probability"]).sum())
        fig.add_vline(x=mean, line_dash="dot", line_color=colour)
    fig.update_layout(barmode="overlay", title=_("Optimal practice score: the exact distribution"),
                      xaxis_title=pgettext("chart", "score"), yaxis_title=pgettext("chart", "probability"),
                      yaxis_tickformat=".0%", height=400)
    return fig


def second_attempt_figure(table: pd.DataFrame) -> go.Figure:
    """Per sheet (:func:`optimum_table`): the optimal expected practice score with and without the
    second attempt, as grouped bars."""
    _need(table, {"sheet", "expected", "expected_without_second"}, "an optimum table")
    fig = go.Figure()
    fig.add_bar(x=table["sheet"], y=table["expected"], name=pgettext("chart", "with the second attempt"),
                marker_color=WITH_COLOUR, text=table["expected"].round(1), textposition="outside")
    fig.add_bar(x=table["sheet"], y=table["expected_without_second"], name=pgettext("chart", "without it"),
                marker_color=WITHOUT_COLOUR, text=table["expected_without_second"].round(1), textposition="outside")
    fig.update_layout(barmode="group", title=_("What the second attempt is worth, per sheet"),
                      xaxis_title=pgettext("chart", "sheet"), yaxis_title=_("optimal expected practice score"),
                      height=400)
    return fig


def game_length_figure(df: pd.DataFrame) -> go.Figure:
    """Rounds per game (each game once) by player count, one box per count."""
    _need(df, {"players", "seed", "rounds"}, "twenty one games")
    games = df.drop_duplicates(["players", "seed"])
    fig = go.Figure()
    for n in sorted(int(x) for x in games["players"].unique()):
        fig.add_box(y=games.loc[games["players"] == n, "rounds"], name=ngettext("{n} player", "{n} players", n)
                    .format(n=n), boxmean=True, marker_color=WITH_COLOUR)
    fig.update_layout(title=_("How long games last, by player count"), showlegend=False,
                      xaxis_title=pgettext("chart", "players"), yaxis_title=pgettext("chart", "rounds"), height=400)
    return fig


def sheet_ease_figure(ease: pd.DataFrame) -> go.Figure:
    """Which sheet is easiest (:func:`sheet_ease`): its win share in simulated games against the
    fair share, bars in rank order, the optimal practice score on each bar (without simulated
    games: the optimal practice score alone)."""
    _need(ease, {"sheet", "expected"}, "a sheet ease table")
    fig = go.Figure()
    text = [f"{e:.1f}" for e in ease["expected"]]
    if "win_share" in ease:
        fig.add_bar(x=ease["sheet"], y=ease["win_share"], name=pgettext("chart", "win share"), text=text,
                    marker_color=WITH_COLOUR, hovertemplate="%{x}: %{y:.1%}<extra></extra>")
        fig.add_scatter(x=ease["sheet"], y=ease["fair_share"], mode="markers", name=pgettext("chart", "fair share"),
                        marker={"symbol": "line-ew-open", "size": 28, "color": FAIR_COLOUR})
        fig.update_layout(yaxis_tickformat=".0%", yaxis_title=pgettext("chart", "win share"))
    else:
        fig.add_bar(x=ease["sheet"], y=ease["expected"], name=_("optimal expected practice score"), text=text,
                    marker_color=WITH_COLOUR)
        fig.update_layout(yaxis_title=_("optimal expected practice score"))
    fig.update_layout(title=_("Which sheet is easiest"), xaxis_title=pgettext("chart", "sheet"), height=400)
    return fig


def win_share_figure(summary: pd.DataFrame) -> go.Figure:
    """Each bot's win share by player count (:func:`policy_summary`), with the fair share (1/players)."""
    _need(summary, {"players", "policy", "win_share", "fair_share"}, "a bot summary")
    fig = go.Figure()
    for policy in sorted(summary["policy"].unique()):
        d = summary[summary["policy"] == policy]
        fig.add_bar(x=d["players"], y=d["win_share"], name=policy, marker_color=POLICY_COLOURS.get(policy),
                    hovertemplate=f"{policy}: %{{y:.1%}}<extra></extra>")
    fair = summary.drop_duplicates("players").sort_values("players")
    fig.add_scatter(x=fair["players"], y=fair["fair_share"], mode="lines+markers", name=pgettext("chart", "fair share"),
                    line={"dash": "dot", "color": FAIR_COLOUR})
    fig.update_layout(barmode="group", title=_("Win share of each bot, by player count"), yaxis_tickformat=".0%",
                      xaxis_title=pgettext("chart", "players"), yaxis_title=pgettext("chart", "win share"), height=400)
    return fig
