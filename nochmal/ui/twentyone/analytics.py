"""twenty one's Analytics page: the exactly optimal practice score of each sheet
(T-PRACTICE) with its distribution and what the second attempt is worth, and seeded games of the
bots (how long games last, which sheet is easiest, how the bots fare against each other). The
numbers come from :mod:`nochmal.analytics.twentyone`, the figures from
:mod:`nochmal.analytics.twentyone_figures`; this module only asks and shows."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from nochmal.analytics import twentyone as A
from nochmal.analytics import twentyone_figures as F
from nochmal.bots.twentyone_policies import TWENTYONE_POLICIES
from nochmal.data.i18n import _
from nochmal.engine.errors import NochmalError
from nochmal.engine.twentyone.sheets import TwentyOneSheet, get_sheet, sheet_ids, spec_from_data
from nochmal.ui.labels import provenance_label
from nochmal.ui.safe import md
from nochmal.ui.twentyone.own_sheets import sheet_option

ss = st.session_state
CHART = {"displayModeBar": False}
#: the most games one run of the page plays (a run of the command line may play more)
MAX_PAGE_GAMES = 2000
#: the bots the page offers (random is there for the command line and tests)
PAGE_BOTS = tuple(p for p in TWENTYONE_POLICIES if p != "random")


def sheet_texts() -> dict[str, str]:
    """Every sheet the page offers (A-F, then the owner's), each as the JSON of its whole content:
    the cached tables below are keyed on it, so an edited sheet of the owner's is computed again
    (a sheet that cannot be read is left out)."""
    out = {}
    for sid in sheet_ids():
        try:
            out[sid] = json.dumps(get_sheet(sid).spec.model_dump(mode="json"), sort_keys=True)
        except NochmalError:
            continue
    return out


def _sheet(text: str) -> TwentyOneSheet:
    return TwentyOneSheet(spec_from_data(json.loads(text), path="<analytics>"))


@st.cache_data(show_spinner=False, max_entries=4)
def optimum_table(texts: tuple[str, ...]) -> pd.DataFrame:
    """The optimum table of these sheets (about a second and a half per set of row values; the
    optimum itself is cached on disk by the rows' values)."""
    return A.optimum_table([_sheet(t) for t in texts])


@st.cache_data(show_spinner=False, max_entries=12)
def score_distribution(text: str) -> pd.DataFrame:
    return A.score_distribution(_sheet(text))


def provenance_word(provenance: str) -> str:
    return _("your sheet") if provenance == "user" else provenance_label(provenance)


def bot_word(name: str) -> str:
    return {"optimum": _("optimum (the best practice player)"), "race": _("race (the optimum, racing to row 5)"),
            "greedy": _("greedy")}.get(name, name)


def _chart(fig, key: str, note: str) -> None:
    st.plotly_chart(fig, key=key, config=CHART)
    st.caption(note)


def _optimum() -> None:
    sheets = sheet_texts()
    table = optimum_table(tuple(sheets.values()))
    st.markdown(_("The best expected score of one player practising alone, computed exactly over "
                  "every roll and every second attempt. Rows 2–5 of the shipped sheets are **stand-ins** (the "
                  "printed values are not public), so every shipped sheet has the same optimum; the colour "
                  "order does not change it."))
    shown = table.assign(provenance=table["provenance"].map(provenance_word))[
        ["sheet", "provenance", "expected", "sd", "q05", "q50", "q95", "expected_without_second",
         "second_attempt_worth"]].rename(columns={
             "sheet": _("sheet"), "provenance": _("provenance"), "expected": _("expected score"), "sd": _("SD"),
             "q05": _("5 %"), "q50": _("median"), "q95": _("95 %"),
             "expected_without_second": _("without a second attempt"),
             "second_attempt_worth": _("the second attempt is worth")})
    st.dataframe(shown.round(2), hide_index=True, key="t21_optimum_table")
    if ss.get("t21_dist_sheet") not in sheets:
        ss["t21_dist_sheet"] = next(iter(sheets))
    sheet = st.selectbox(_("Sheet"), list(sheets), key="t21_dist_sheet", format_func=sheet_option)
    _chart(F.score_distribution_figure(score_distribution(sheets[sheet])), "t21_dist",
           _("How likely each final score is when the optimum plays sheet {sheet} alone, with and without the "
             "second attempt (dotted: the means).").format(sheet=sheet))


def _run_games() -> None:
    n, games, seed = ss["t21_players"], ss["t21_games"], ss["t21_seed"]
    policies = [ss["t21_bot_first"]] + [ss["t21_bot_others"]] * (n - 1)
    bar = st.progress(0.0, text=_("Playing {games} games…").format(games=games))

    def tick(done: int, total: int) -> None:
        if done == total or done % max(1, total // 50) == 0:
            bar.progress(done / total, text=_("Playing games: {done} of {total}").format(done=done, total=total))

    try:
        ss["t21_rows"] = A.simulate(n, policies, games, seed, on_progress=tick).to_dict("records")
    except ValueError as err:
        st.error(_("These games cannot be played: {error}").format(error=md(err)))
    bar.empty()


def _games_form() -> None:
    with st.form("t21_games_form"):
        cols = st.columns(3)
        cols[0].number_input(_("Players"), 2, 6, 4, key="t21_players")
        cols[1].number_input(_("Games"), 10, MAX_PAGE_GAMES, 200, step=10, key="t21_games")
        cols[2].number_input(_("Seed"), 0, 2**31 - 1, 0, key="t21_seed")
        cols = st.columns(2)
        cols[0].selectbox(_("Bot in seat 1"), PAGE_BOTS, index=PAGE_BOTS.index("race"), format_func=bot_word,
                          key="t21_bot_first")
        cols[1].selectbox(_("Bot in the other seats"), PAGE_BOTS, index=PAGE_BOTS.index("greedy"),
                          format_func=bot_word, key="t21_bot_others")
        run = st.form_submit_button(_("Play the games"), type="primary")
    if run:
        _run_games()


def _games() -> None:
    st.markdown(_("Bots play seeded games (each on sheets drawn from A–F); the same seed gives the same games."))
    _games_form()
    rows = ss.get("t21_rows")
    if not rows:
        return
    df = pd.DataFrame(rows)
    st.caption(_("{games} games of {players} players.").format(games=df["game"].nunique(),
                                                             players=int(df["players"].iloc[0])))
    _chart(F.win_share_figure(A.policy_summary(df)), "t21_wins",
           _("How often each bot won (a shared win counted in part), against a fair share."))
    _chart(F.game_length_figure(df), "t21_length",
           _("How many rounds the games lasted: the game ends with the round in which someone scores row 5."))
    _chart(F.sheet_ease_figure(A.sheet_ease(df)), "t21_ease",
           _("Which sheet is easiest: its optimal practice score, and how often its player won against a fair "
             "share. With the stand-in sheets every difference is chance."))


def analytics_section() -> None:
    """twenty one on the Analytics page."""
    st.title(_("twenty one analytics"))
    st.subheader(_("The best possible practice score"))
    _optimum()
    st.subheader(_("Bots against each other"))
    _games()
