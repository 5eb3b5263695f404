"""Analytics: how hard each co-op mission is for each number of players, from simulated games.

Results come from a small sweep run here (a local process pool), from a results file written by
``nochmal sweep`` (uploaded, or a path on this machine), or from the calibration sweep shipped
in ``docs/``. They are kept in session state as plain rows (a list of dicts). Every figure is a
pure function of ``nochmal.analytics.figures``; this page only chooses, explains and shows them.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import uuid
from pathlib import Path

import pandas as pd
import streamlit as st

from nochmal.analytics import figures as F
from nochmal.data import userdata
from nochmal.engine.version import RULES_VERSION
from nochmal.bots.settings import ANALYTICS_COOP
from nochmal.bots.registry import LIMIT_POLICIES, policy_name
from nochmal.analytics.calibrate import best_bot, calibration_report, results_rules_versions, verdict_words, win_table
from nochmal.engine.coopdata import get_tableau, tableau_to_toml
from nochmal.engine.errors import NochmalError
from nochmal.engine.sheet import SHIPPED_ROOT, get_sheet, user_boards_dir
from nochmal.analytics.sweep import SweepSpec, read_rows, run_sweep
from nochmal.data.i18n import N_, _, ngettext, pgettext
from nochmal.data.i18n import _ as tr  # tr(TABLE[key]): a text of a table, marked there with N_()
from nochmal.store.games import DEFAULT_GAME, GAMES
from nochmal.ui.games import analytics_sections
from nochmal.ui import owner
from nochmal.ui.explain import rule_why, strip_rule_ids
from nochmal.ui.safe import code, md

ss = st.session_state
#: the calibration sweep the project ships in docs/ (CSV or Parquet; nochmal.engine.resources), if any
SHIPPED_SWEEP = next((p for p in (SHIPPED_ROOT / "docs" / f"calibration-sweep.{ext}" for ext in ("csv", "parquet"))
                      if p.is_file()), None)
SWEEP_POLICIES = ("greedy", "random", "planner")
MAX_GAMES = 1000
#: the analytics planner's games a second on WORKERS processes of a 2-core machine, rounded down
#: (``nochmal bench``: coop_planner_game_s, about 0.4 s a game on one core; docs/bots.md)
PLANNER_GAMES_PER_S = 4
WORKERS = 2
DEFAULT_LADDER = (0.8, 0.65, 0.5, 0.35, 0.2)
SOURCES = {"sweep": N_("Run a small sweep here"), "file": N_("Open a results file")}
if SHIPPED_SWEEP is not None:
    SOURCES["shipped"] = N_("The shipped calibration sweep")
POLICY_TEXT = {
    "random": N_("plays a random legal move — a floor, far weaker than any person"),
    "greedy": N_("takes the move that helps most right now — weaker than a careful table"),
    "planner": N_("plans for the mission and the goals — the strongest bot, still not a skilled table"),
    "bound": N_("knows the dice still to come — not a bot to play with but a limit no team can beat"),
}
CHART = {"displayModeBar": False}


# --------------------------------------------------------------------------- state and callbacks
def _defaults() -> None:
    ss.setdefault("dash_rows", None)  # the results: a list of dicts (plain data)
    ss.setdefault("dash_source", "")  # where they came from: a dict (see source_words), or words
    ss.setdefault("dash_pending", None)  # a sweep asked for by the Run button (plain dict)
    ss.setdefault("dash_msg", None)  # (kind, text) shown once
    ss.setdefault("dash_sid", uuid.uuid4().hex[:12])  # names this session's sweep folders
    ss.setdefault("dash_from", "sweep")
    ss.setdefault("dash_missions", [1, 2, 3, 4, 5])
    ss.setdefault("dash_players", [3])
    ss.setdefault("dash_policies", ["greedy"])
    ss.setdefault("dash_games", 20)
    ss.setdefault("dash_seed", 0)
    ss.setdefault("dash_path", "")
    for m, x in enumerate(DEFAULT_LADDER, start=1):
        ss.setdefault(f"dash_ladder_{m}", x)


def source_words(source: object) -> str:
    """Where the results came from, in words of the language in force: ``source`` is a plain
    dict (kept in session state, so the words follow a change of language) or words."""
    if not isinstance(source, dict):
        return str(source)
    kind = source.get("kind")
    if kind == "sweep":
        return _("a sweep run here (missions {missions}; {players} players; {policies}; {games} games each; "
                 "seed {seed})").format(missions=", ".join(map(str, source["missions"])),
                                        players=", ".join(map(str, source["players"])),
                                        policies=", ".join(map(policy_name, source["policies"])),
                                        games=source["games"],
                                        seed=source["seed"])
    if kind == "upload":
        return _("the file {name}").format(name=code(source["name"]))
    if kind == "shipped":
        return _("the shipped calibration sweep ({file})").format(file=f"`docs/{source['name']}`")
    return code(source.get("path", ""))


def _set_results(df: pd.DataFrame, source: dict) -> None:
    ss["dash_rows"] = df.to_dict(orient="records")
    ss["dash_source"] = source
    ss["dash_msg"] = ("success", _("Loaded {games} games from {source}.").format(games=len(df),
                                                                                   source=source_words(source)))


def said(err: object) -> str:
    """An error's message as Markdown in words (the rule ids the engine cites left out)."""
    return md(strip_rule_ids(str(err)))


def _load_error(what: str, err: Exception) -> None:
    ss["dash_msg"] = ("error", _("Could not open {what} — {error}. The results shown before (if any) are "
                                 "kept.").format(what=what, error=said(err).rstrip(".")))


def request_sweep() -> None:
    refused = owner.refusal(_("Running a sweep"))
    if refused:  # sweeps take the server's cores for minutes: the owner's, or this machine's
        ss["dash_msg"] = ("error", refused)
        return
    missions, players, policies = ss["dash_missions"], ss["dash_players"], ss["dash_policies"]
    missing = [w for w, v in ((_("a mission"), missions), (_("a player count"), players), (_("a policy"), policies))
               if not v]
    if missing:
        items = missing[0]
        for item in missing[1:]:
            items = _("{first} and {second}").format(first=items, second=item)
        ss["dash_msg"] = ("error", _("Choose at least {items} before running a sweep.").format(items=items))
        return
    ss["dash_pending"] = {"missions": sorted(int(m) for m in missions), "players": sorted(int(n) for n in players),
                          "policies": list(policies), "games": int(ss["dash_games"]), "seed": int(ss["dash_seed"])}


def load_upload() -> None:
    up = ss.get("dash_upload")
    if up is None:
        return
    try:
        df = F.read_results_bytes(up.getvalue(), up.name)
    except ValueError as err:
        _load_error(_("the uploaded file"), err)
        return
    _set_results(df, {"kind": "upload", "name": str(up.name)})


def load_path() -> None:
    refused = owner.refusal(_("Reading a file of the machine the app runs on"))
    if refused:
        ss["dash_msg"] = ("error", refused)
        return
    path = (ss.get("dash_path") or "").strip().strip('"')
    if not path:
        ss["dash_msg"] = ("error", _("Type the path of a .csv or .parquet results file first."))
        return
    _load_file(path, _("this results file"), {"kind": "path", "path": path})


def load_shipped() -> None:
    if SHIPPED_SWEEP is None:
        ss["dash_msg"] = ("error", _("No calibration sweep is shipped in docs/."))
        return
    source = {"kind": "shipped", "name": SHIPPED_SWEEP.name}
    _load_file(SHIPPED_SWEEP, source_words(source), source)


def _load_file(path, what: str, source: dict) -> None:
    """Read a results file; ``what`` names it in an error, ``source`` once loaded."""
    try:
        df = F.check_results(read_rows(path))
    except (NochmalError, ValueError, OSError) as err:
        _load_error(what, err)
        return
    _set_results(df, source)


def clear_results() -> None:
    ss["dash_rows"] = None
    ss["dash_source"] = ""


def reset_ladder() -> None:
    for m, x in enumerate(DEFAULT_LADDER, start=1):
        ss[f"dash_ladder_{m}"] = x


# --------------------------------------------------------------------------- the sweep
def parts_dir(req: dict) -> Path:
    """A temporary folder under the user data folder for the sweep's finished chunks, named by
    this session, the request and the tableaus in use: an interrupted sweep (the page was left
    or rerun) resumes when the same sweep is run again. Removed once the sweep is done."""
    tableaus = [tableau_to_toml(get_tableau(n)) for n in req["players"]]
    text = json.dumps([ss["dash_sid"], req, tableaus], sort_keys=True)
    return user_boards_dir().parent / "sweep-tmp" / hashlib.sha256(text.encode()).hexdigest()[:16]


def run_pending_sweep() -> None:
    """Run the sweep the Run button asked for, with a progress bar (it must run in the page, not
    in the callback, for the bar to show); the rows go to session state."""
    req = ss.get("dash_pending")
    ss["dash_pending"] = None
    if not req or owner.refusal(_("Running a sweep")):
        return
    spec = SweepSpec(missions=req["missions"], players=req["players"], policies=req["policies"],
                     games=req["games"], seed=req["seed"])
    bar = st.progress(0.0, text=_("Starting the sweep…"))

    def on_progress(done: int, total: int) -> None:
        bar.progress(done / total if total else 1.0,
                     text=_("Sweep: {done} of {total} games played").format(done=done, total=total))

    try:
        parts = parts_dir(req)
        rows = run_sweep(spec, parts, workers=WORKERS, on_progress=on_progress)
    except Exception as err:  # a worker's failure too: say so instead of a traceback
        bar.empty()
        st.error(_("The sweep failed: {error}").format(error=said(err)))
        return
    shutil.rmtree(parts, ignore_errors=True)
    bar.empty()
    _set_results(pd.DataFrame(rows), {"kind": "sweep", **{k: req[k] for k in ("missions", "players", "policies",
                                                                               "games", "seed")}})


# --------------------------------------------------------------------------- sections
def show_msg() -> None:
    msg = ss.get("dash_msg")
    if msg:
        kind, text = msg
        (st.success if kind == "success" else st.error)(text)
        ss["dash_msg"] = None


def sweep_form() -> None:
    may_run = owner.owner_gate(_("running sweeps (they keep this computer's cores busy for minutes)"))
    c1, c2, c3 = st.columns([2, 2, 2])
    c1.multiselect(_("Missions"), [1, 2, 3, 4, 5], key="dash_missions", format_func=lambda m: f"M{m}")
    c2.multiselect(_("Player counts"), [1, 2, 3, 4, 5, 6], key="dash_players")
    c3.multiselect(_("Policies (bots)"), list(SWEEP_POLICIES), key="dash_policies", format_func=policy_name,
                   help=_("The planner is the strongest bot and the slowest: it tries its best moves against the "
                          "dice to come before each choice. For hundreds of its games a cell, run `nochmal sweep "
                          "--policy planner …` on the command line and open its results file."))
    c4, c5, c6 = st.columns([2, 2, 2])
    c4.number_input(_("Games per mission × player count × policy"), min_value=1, max_value=MAX_GAMES, step=5,
                    key="dash_games")
    c5.number_input(_("Seed"), min_value=0, max_value=2**31 - 1, step=1, key="dash_seed",
                    help=_("The same seed gives the same games"))
    total = len(ss["dash_missions"]) * len(ss["dash_players"]) * len(ss["dash_policies"]) * int(ss["dash_games"])
    c6.metric(_("Games in total"), total)
    st.caption(_("The bots play co-op games in compiled code on {workers} worker processes: the greedy and the "
                 "random bot several hundred games a second, the planner about {rate} games a second (it rolls "
                 "{rollouts} games out for each of its best moves at every choice). On a fresh install the first "
                 "sweep may wait a minute or two while that code is compiled.").format(
                     workers=WORKERS, rate=PLANNER_GAMES_PER_S, rollouts=ANALYTICS_COOP.rollouts))
    st.button(_("Run the sweep"), key="dash_run", type="primary", on_click=request_sweep,
              disabled=total == 0 or not may_run)
    if total == 0:
        st.caption(_("Choose at least one mission, one player count and one policy to run a sweep."))


def file_form() -> None:
    st.file_uploader(_("A results file written by `nochmal sweep` (.csv or .parquet, at most {mb} MB)").format(
                         mb=F.MAX_RESULTS_MB), type=["csv", "parquet"], key="dash_upload", on_change=load_upload,
                     max_upload_size=F.MAX_RESULTS_MB)
    owner.owner_gate(_("opening a results file of this computer by its path"))
    c1, c2 = st.columns([5, 1], vertical_alignment="bottom")
    c1.text_input(_("…or the path of a results file on this machine"), key="dash_path",
                  placeholder=_("e.g. {path}").format(path="results/sweep.parquet"))
    c2.button(_("Open"), key="dash_open", on_click=load_path)


def shipped_form() -> None:
    st.markdown(_("The project ships the results of a larger calibration sweep in {file} (how it was made and "
                  "what it says: {doc}).").format(file=f"`docs/{SHIPPED_SWEEP.name}`", doc="`docs/calibration.md`"))
    st.button(_("Open the shipped calibration sweep"), key="dash_open_shipped", type="primary",
              on_click=load_shipped)


def results_summary(df: pd.DataFrame) -> None:
    st.markdown(_("**Results in use:** {games} games from {source}.").format(games=len(df),
                                                                             source=source_words(ss["dash_source"])))
    versions = results_rules_versions(df)
    if versions != [RULES_VERSION]:
        st.warning(_("These games were played under rules version {versions}; this app plays rules version "
                     "{current}, which changed three end-of-game rules: a third failed roll ends the game at once, "
                     "after turn 27 the last goal is checked before the mission, and in mission 5 one moment counts "
                     "one letter at most. Win rates may differ under the current rules.").format(
                         versions=", ".join(map(str, versions)), current=RULES_VERSION))
        with st.expander(_("Why? The rules that changed")):
            _why("C-FAIL", "C-CHECK", "M5")
    c1, c2, _c3 = st.columns([2, 2, 4])
    rows = ss["dash_rows"]
    c1.download_button(_("Download these results (CSV)"), data=lambda: pd.DataFrame(rows).to_csv(index=False),
                       file_name="nochmal-results.csv", mime="text/csv", key="dash_download", on_click="ignore")
    c2.button(_("Clear the results"), key="dash_clear", on_click=clear_results)


def _why(*rules: str) -> None:
    """The rules ``rules`` cite, each in a sentence (inside a "Why?" detail)."""
    for rule in rules:
        st.caption(rule_why(rule))


def provenance(df: pd.DataFrame) -> None:
    st.subheader(_("Where these numbers come from"))
    prov = F.results_provenance(df)
    shown = prov.assign(**{"tableau (provenance)": prov["tableau (provenance)"].map(F.tableaus_words),
                           "policies": prov["policies"].map(lambda ps: ", ".join(policy_name(p.strip())
                                                                                 for p in ps.split(",")))})
    st.dataframe(shown.rename(columns=provenance_headings()), hide_index=True)
    derived = [int(r["players"]) for _i, r in prov.iterrows() if "derived" in r["tableau (provenance)"]]
    user = [int(r["players"]) for _i, r in prov.iterrows() if "(user" in r["tableau (provenance)"]]
    text = _("**The tableau values are stand-ins for most player counts.** Only the 3-player goals, the \"!\" "
             "penalty and the mission 1 count are printed in the rulebook; the rest (*derived*) are scaled from the "
             "3-player tableau and are not the printed game.") + " "
    if derived:
        text += _("In these results, games with {counts} player(s) used derived values.").format(
            counts=", ".join(map(str, derived))) + " "
    if user:
        text += _("Games with {counts} player(s) used a tableau entered by you.").format(
            counts=", ".join(map(str, user))) + " "
    sheets = F.sheets_in(df)
    stand_in = [s for s in sheets if _sheet_provenance(s) == "stand-in"]
    if stand_in:
        text += _("The sheets {sheets} are stand-ins too (the printed co-op sheets are not public).").format(
            sheets=", ".join(md(s) for s in stand_in))
    st.warning(text)
    pols = sorted(df["policy"].unique())
    played = "; ".join(f"**{md(policy_name(p))}** {tr(POLICY_TEXT[p]) if p in POLICY_TEXT else ''}".rstrip()
                       for p in pols)
    st.info(_("**Played by bots:** {policies}. A win rate here is what that bot achieves, not what a good table "
              "achieves: compare missions and player counts with each other rather than reading the numbers as the "
              "real odds.").format(policies=played))


def provenance_headings() -> dict[str, str]:
    """The columns of the provenance table (the names the code reads) -> their headings."""
    return {"players": pgettext("provenance column", "players"),
            "tableau (provenance)": pgettext("provenance column", "tableau (provenance)"),
            "policies": pgettext("provenance column", "policies"),
            "missions": pgettext("provenance column", "missions"),
            "games": pgettext("provenance column", "games")}


def _sheet_provenance(sheet_id: str) -> str:
    try:
        return get_sheet(sheet_id).provenance
    except (NochmalError, KeyError):
        return "?"


def chart(build, *args, key: str, note: str) -> None:
    """One figure and the sentence saying what to read from it; a figure the results cannot
    draw says why instead of failing the page."""
    try:
        fig = build(*args)
    except (NochmalError, ValueError, KeyError) as err:
        st.info(_("This figure cannot be drawn from these results: {error}").format(error=said(err)))
        return
    st.plotly_chart(fig, key=key, config=CHART)
    st.caption(note)


def figures(df: pd.DataFrame) -> None:
    policies = sorted(df["policy"].unique())
    st.subheader(_("How hard is each mission?"))
    if len(policies) > 1:
        best = best_bot(win_table(df))
        pol = st.selectbox(_("Policy shown in the heat map"), policies, index=policies.index(best),
                           key="dash_heat_policy", format_func=policy_name,
                           help=_("Preselected: the bot with the highest mean win rate in the results"))
    else:
        pol = policies[0]
    chart(F.win_rate_heatmap, df, pol, key="fig_heatmap",
          note=_("Read along a row: if missions get harder, the colour should go from green (mission 1) to red "
                 "(mission 5); the interval under each rate shows how sure it is — overlapping intervals mean no "
                 "real difference."))
    chart(F.loss_reasons, df, key="fig_losses",
          note=_("Which ending kills most games per mission: a third failed roll (usually missed interim goals) "
                 "or a mission still unfinished after turn 27."))
    chart(F.points_vs_goals, df, key="fig_points",
          note=_("Where the median team points (bars: quartiles) sit below a goal mark, most games missed that "
                 "interim goal — the lowest such check is the goal that kills most games. Goals are those of the "
                 "tableau in use now."))
    chart(F.completion_turns, df, key="fig_turns",
          note=_("Won games only: a mission finished late (near turn 27) is barely achievable; early finishes mean "
                 "its requirement is loose."))

    st.subheader(_("Which cells get crossed?"))
    sheets = F.sheets_in(df)
    if "crossed" not in df.columns or not sheets:
        st.info(_("These results hold no crossed cells (swept with `--no-cells`)."))
    else:
        sheet = st.selectbox(_("Sheet"), sheets, key="dash_sheet")
        chart(F.cell_frequency, df, sheet, key="fig_cells",
              note=_("Dark cells are crossed in most games (by the end of the game); pale ones are hardly ever "
                     "reached — a mission needing them is hard on this sheet."))

    if len(policies) > 1:
        st.subheader(_("Policies compared"))
        chart(F.policies_compared, df, key="fig_policies",
              note=_("The gap between bars is how much the numbers depend on the bot's strength; a mission order "
                     "that holds for every policy is trustworthy."))
    limits = [p for p in policies if p in LIMIT_POLICIES]
    if limits and len(policies) > len(limits):
        chart(F.gap_to_bound, df, limits[0], key="fig_bound",
              note=_("The bound knows the dice still to come, so no team beats it. A small gap: the bots already "
                     "play the mission about as well as choices can; a large one: better play could still win "
                     "many more games, so the bots' rate understates what a strong table achieves."))


def tableau_section(df: pd.DataFrame) -> None:
    st.subheader(_("Your tableau against the stand-in"))
    counts = sorted(int(n) for n in df["players"].unique())
    n = st.selectbox(_("Player count"), [1, 2, 3, 4, 5, 6], index=(3 if 3 in counts else counts[0]) - 1,
                     key="dash_tab_players", format_func=lambda k: ngettext("{n} player", "{n} players", k).format(n=k))
    if userdata.tableau_source(n) == "user":
        whose = ngettext("You saved a tableau for {n} player: the light bars are yours.",
                         "You saved a tableau for {n} players: the light bars are yours.", n).format(n=n)
    else:
        whose = ngettext("You have not saved a tableau for {n} player (Tableaus page), so both bars show the "
                         "shipped stand-in.",
                         "You have not saved a tableau for {n} players (Tableaus page), so both bars show the "
                         "shipped stand-in.", n).format(n=n)
    chart(F.tableau_comparison, n, key="fig_tableau",
          note=whose + " " + _("The label on each stand-in bar says whether the value is printed in the rulebook or "
                               "derived; sweep your tableau to see what it changes."))
    several = F.players_with_several_tableaus(df)
    if several:
        chart(F.tableau_win_rates, df[df["players"].isin(several)], key="fig_tableau_wins",
              note=_("Games with {counts} player(s) were played with more than one tableau: the bars show how much "
                     "a tableau changes the win rate of each mission.").format(counts=", ".join(map(str, several))))


def report_safe(df: pd.DataFrame) -> pd.DataFrame:
    """The results with their free-text columns (policy, reason: from a file) escaped for
    Markdown, for the calibration report, which is Markdown and quotes them; the reasons in
    words of the language in force (without the rule ids the engine cites)."""
    return df.assign(policy=df["policy"].map(md), reason=df["reason"].map(lambda r: md(F.reason_text(r))))


@st.cache_data(max_entries=4, show_spinner=False)
def cached_report(df: pd.DataFrame, ladder: tuple[float, ...]) -> dict:
    """:func:`calibration_report` once per results and ladder (it plays greedy's games again:
    seconds; the planner's would take minutes, so its higher counts are left to ``nochmal calibrate``)."""
    return calibration_report(df, list(ladder), slow_replays=False)


def calibration(df: pd.DataFrame) -> None:
    st.subheader(_("Calibration report"))
    st.markdown(_("The wanted win rate of each mission (the *ladder*): the report suggests the mission counts "
                  "that come closest to it."))
    cols = st.columns(6, vertical_alignment="bottom")
    for m in range(1, 6):
        cols[m - 1].number_input(f"M{m}", min_value=0.0, max_value=1.0, step=0.05, format="%.2f",
                                 key=f"dash_ladder_{m}")
    cols[5].button(_("Default ladder"), key="dash_ladder_reset", on_click=reset_ladder)
    ladder = [float(ss[f"dash_ladder_{m}"]) for m in range(1, 6)]
    try:
        with st.spinner(_("Writing the report (counts above the tableau's are played again)…")):
            rep = cached_report(report_safe(df), tuple(ladder))
    except (NochmalError, ValueError, KeyError) as err:
        st.error(_("No calibration report for these results: {error}").format(error=said(err)))
        return
    per_count = df.groupby("players")["mission"].nunique()
    verdicts = {n: v["harder"] for n, v in rep["harder"].items() if per_count.get(n, 0) > 1}
    if verdicts:
        answers = "; ".join(ngettext("{n} player: **{verdict}**", "{n} players: **{verdict}**", n).format(
            n=n, verdict=verdict_words(v)) for n, v in sorted(verdicts.items()))
        st.markdown(_("**Do missions 1→5 get harder** (for the policy of the report)? {verdicts} — *not clearly* "
                      "means an inversion within the 95% intervals.").format(verdicts=answers))
    else:
        st.caption(_("Whether missions get harder needs results for at least two missions per player count."))
    with st.container(border=True):
        # the report's headings one level down, so they sit under this page's title
        st.markdown(re.sub(r"^(#+) ", r"##\1 ", rep["text"], flags=re.M))


# --------------------------------------------------------------------------- the page
# a game with its own analytics (twenty one, from the registry of the games' pages) is one choice away
OTHER_GAMES = analytics_sections()
if OTHER_GAMES:
    choices = [GAMES[DEFAULT_GAME].word] + [kind.word for kind, _section in OTHER_GAMES]
    picked = st.segmented_control(_("Game"), range(len(choices)), format_func=lambda i: tr(choices[i]),
                                  default=0, key="dash_game")
    if picked:  # None (nothing chosen) and 0: Noch mal!'s missions
        OTHER_GAMES[picked - 1][1]()
        st.stop()
_defaults()
st.title(_("Mission analytics"))
st.markdown(_("How hard is mission 4 for three players? Does mission 5 really beat mission 1 in difficulty? Which "
              "interim goal kills most games? Bots play many seeded co-op games; the figures below show what "
              "happened."))

st.subheader(_("Results"))
st.radio(_("Where the results come from"), list(SOURCES), key="dash_from", format_func=lambda k: tr(SOURCES[k]),
         horizontal=True)
if ss["dash_from"] == "file":
    file_form()
elif ss["dash_from"] == "shipped" and "shipped" in SOURCES:
    shipped_form()
else:
    sweep_form()
run_pending_sweep()
show_msg()

results = None
if ss.get("dash_rows"):
    try:
        results = F.check_results(pd.DataFrame(ss["dash_rows"]))
    except ValueError as err:
        st.error(_("These results cannot be used: {error}").format(error=said(err)))
if results is None:
    st.info(_("No results yet: run a sweep, or open a results file."))
else:
    results_summary(results)
    provenance(results)
    figures(results)
    tableau_section(results)
    calibration(results)
