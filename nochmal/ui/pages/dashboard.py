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
from nochmal.analytics.calibrate import calibration_report, results_rules_versions, win_table
from nochmal.engine.coopdata import get_tableau, tableau_to_toml
from nochmal.engine.errors import NochmalError
from nochmal.engine.sheet import REPO_ROOT, get_sheet, user_boards_dir
from nochmal.analytics.sweep import SweepSpec, read_rows, run_sweep
from nochmal.ui import owner
from nochmal.ui.explain import rule_why, strip_rule_ids
from nochmal.ui.safe import code, md

ss = st.session_state
#: the calibration sweep the project ships in docs/ (CSV or Parquet), if any
SHIPPED_SWEEP = next((p for p in (REPO_ROOT / "docs" / f"calibration-sweep.{ext}" for ext in ("csv", "parquet"))
                      if p.is_file()), None)
SWEEP_POLICIES = ("greedy", "random")  # the planner is too slow for a sweep in the app
MAX_GAMES = 200
WORKERS = 2
DEFAULT_LADDER = (0.8, 0.65, 0.5, 0.35, 0.2)
SOURCES = {"sweep": "Run a small sweep here", "file": "Open a results file"}
if SHIPPED_SWEEP is not None:
    SOURCES["shipped"] = "The shipped calibration sweep"
POLICY_TEXT = {
    "random": "plays a random legal move — a floor, far weaker than any person",
    "greedy": "takes the move that helps most right now — weaker than a careful table",
    "planner": "plans for the mission and the goals — the strongest bot, still not a skilled table",
}
CHART = {"displayModeBar": False}


# --------------------------------------------------------------------------- state and callbacks
def _defaults() -> None:
    ss.setdefault("dash_rows", None)  # the results: a list of dicts (plain data)
    ss.setdefault("dash_source", "")  # where they came from, in words
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


def _set_results(df: pd.DataFrame, source: str) -> None:
    ss["dash_rows"] = df.to_dict(orient="records")
    ss["dash_source"] = source
    ss["dash_msg"] = ("success", f"Loaded {len(df)} games from {source}.")


def said(err: object) -> str:
    """An error's message as Markdown in words (the rule ids the engine cites left out)."""
    return md(strip_rule_ids(str(err)))


def _load_error(what: str, err: Exception) -> None:
    ss["dash_msg"] = ("error", f"Could not open {what} — {said(err).rstrip('.')}. "
                               "The results shown before (if any) are kept.")


def request_sweep() -> None:
    missions, players, policies = ss["dash_missions"], ss["dash_players"], ss["dash_policies"]
    missing = [w for w, v in (("a mission", missions), ("a player count", players), ("a policy", policies)) if not v]
    if missing:
        ss["dash_msg"] = ("error", f"Choose at least {' and '.join(missing)} before running a sweep.")
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
        _load_error("the uploaded file", err)
        return
    _set_results(df, f"the file {code(up.name)}")


def load_path() -> None:
    refused = owner.refusal("Reading a file of the machine the app runs on")
    if refused:
        ss["dash_msg"] = ("error", refused)
        return
    path = (ss.get("dash_path") or "").strip().strip('"')
    if not path:
        ss["dash_msg"] = ("error", "Type the path of a .csv or .parquet results file first.")
        return
    _load_file(path, "this results file", code(path))


def load_shipped() -> None:
    if SHIPPED_SWEEP is None:
        ss["dash_msg"] = ("error", "No calibration sweep is shipped in docs/.")
        return
    source = f"the shipped calibration sweep (`docs/{SHIPPED_SWEEP.name}`)"
    _load_file(SHIPPED_SWEEP, source, source)


def _load_file(path, what: str, source: str) -> None:
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
    if not req:
        return
    spec = SweepSpec(missions=req["missions"], players=req["players"], policies=req["policies"],
                     games=req["games"], seed=req["seed"])
    bar = st.progress(0.0, text="Starting the sweep…")

    def on_progress(done: int, total: int) -> None:
        bar.progress(done / total if total else 1.0, text=f"Sweep: {done} of {total} games played")

    try:
        parts = parts_dir(req)
        rows = run_sweep(spec, parts, workers=WORKERS, on_progress=on_progress)
    except Exception as err:  # a worker's failure too: say so instead of a traceback
        bar.empty()
        st.error(f"The sweep failed: {said(err)}")
        return
    shutil.rmtree(parts, ignore_errors=True)
    bar.empty()
    what = (f"a sweep run here (missions {', '.join(map(str, req['missions']))}; "
            f"{', '.join(map(str, req['players']))} players; {', '.join(req['policies'])}; "
            f"{req['games']} games each; seed {req['seed']})")
    _set_results(pd.DataFrame(rows), what)


# --------------------------------------------------------------------------- sections
def show_msg() -> None:
    msg = ss.get("dash_msg")
    if msg:
        kind, text = msg
        (st.success if kind == "success" else st.error)(text)
        ss["dash_msg"] = None


def sweep_form() -> None:
    c1, c2, c3 = st.columns([2, 2, 2])
    c1.multiselect("Missions", [1, 2, 3, 4, 5], key="dash_missions", format_func=lambda m: f"M{m}")
    c2.multiselect("Player counts", [1, 2, 3, 4, 5, 6], key="dash_players")
    c3.multiselect("Policies (bots)", list(SWEEP_POLICIES), key="dash_policies",
                   help="The planner bot is the strongest but far too slow to sweep here; run "
                        "`nochmal sweep --policy planner …` on the command line and open its results file.")
    c4, c5, c6 = st.columns([2, 2, 2])
    c4.number_input("Games per mission × player count × policy", min_value=1, max_value=MAX_GAMES, step=5,
                    key="dash_games")
    c5.number_input("Seed", min_value=0, max_value=2**31 - 1, step=1, key="dash_seed",
                    help="The same seed gives the same games")
    total = len(ss["dash_missions"]) * len(ss["dash_players"]) * len(ss["dash_policies"]) * int(ss["dash_games"])
    c6.metric("Games in total", total)
    st.caption(f"The planner bot is not offered: it is too slow for a sweep in the app (use `nochmal sweep "
               f"--policy planner` and open the file). The greedy bot plays roughly 10–20 games a second on "
               f"{WORKERS} worker processes, random a few times faster.")
    st.button("Run the sweep", key="dash_run", type="primary", on_click=request_sweep, disabled=total == 0)
    if total == 0:
        st.caption("Choose at least one mission, one player count and one policy to run a sweep.")


def file_form() -> None:
    st.file_uploader("A results file written by `nochmal sweep` (.csv or .parquet)", type=["csv", "parquet"],
                     key="dash_upload", on_change=load_upload)
    c1, c2 = st.columns([5, 1], vertical_alignment="bottom")
    c1.text_input("…or the path of a results file on this machine", key="dash_path",
                  placeholder="e.g. results/sweep.parquet")
    c2.button("Open", key="dash_open", on_click=load_path)


def shipped_form() -> None:
    st.markdown(f"The project ships the results of a larger calibration sweep in `docs/{SHIPPED_SWEEP.name}` "
                "(how it was made and what it says: `docs/calibration.md`).")
    st.button("Open the shipped calibration sweep", key="dash_open_shipped", type="primary", on_click=load_shipped)


def results_summary(df: pd.DataFrame) -> None:
    st.markdown(f"**Results in use:** {len(df)} games from {ss['dash_source']}.")
    versions = results_rules_versions(df)
    if versions != [RULES_VERSION]:
        st.warning(f"These games were played under rules version {', '.join(map(str, versions))}; this app plays "
                   f"rules version {RULES_VERSION}, which changed three end-of-game rules: a third failed roll ends "
                   "the game at once, after turn 27 the last goal is checked before the mission, and in mission 5 "
                   "one moment counts one letter at most. Win rates may differ under the current rules.")
        with st.expander("Why? The rules that changed"):
            for rule in ("C-FAIL", "C-CHECK", "M5"):
                st.caption(rule_why(rule))
    c1, c2, _ = st.columns([2, 2, 4])
    rows = ss["dash_rows"]
    c1.download_button("Download these results (CSV)", data=lambda: pd.DataFrame(rows).to_csv(index=False),
                       file_name="nochmal-results.csv", mime="text/csv", key="dash_download", on_click="ignore")
    c2.button("Clear the results", key="dash_clear", on_click=clear_results)


def provenance(df: pd.DataFrame) -> None:
    st.subheader("Where these numbers come from")
    prov = F.results_provenance(df)
    st.dataframe(prov, hide_index=True)
    derived = [int(r["players"]) for _, r in prov.iterrows() if "derived" in r["tableau (provenance)"]]
    user = [int(r["players"]) for _, r in prov.iterrows() if "(user" in r["tableau (provenance)"]]
    text = ("**The tableau values are stand-ins for most player counts.** Only the 3-player goals, the \"!\" "
            "penalty and the mission 1 count are printed in the rulebook; the rest (*derived*) are scaled from the "
            "3-player tableau and are not the printed game. ")
    if derived:
        text += f"In these results, games with {', '.join(map(str, derived))} player(s) used derived values. "
    if user:
        text += f"Games with {', '.join(map(str, user))} player(s) used a tableau entered by you. "
    sheets = F.sheets_in(df)
    stand_in = [s for s in sheets if _sheet_provenance(s) == "stand-in"]
    if stand_in:
        text += f"The sheets {', '.join(md(s) for s in stand_in)} are stand-ins too (the printed co-op sheets are not public)."
    st.warning(text)
    pols = sorted(df["policy"].unique())
    st.info("**Played by bots:** " + "; ".join(f"**{md(p)}** {POLICY_TEXT.get(p, '')}".rstrip() for p in pols) +
            ". A win rate here is what that bot achieves, not what a good table achieves: compare missions "
            "and player counts with each other rather than reading the numbers as the real odds.")


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
        st.info(f"This figure cannot be drawn from these results: {said(err)}")
        return
    st.plotly_chart(fig, key=key, config=CHART)
    st.caption(note)


def figures(df: pd.DataFrame) -> None:
    policies = sorted(df["policy"].unique())
    st.subheader("How hard is each mission?")
    if len(policies) > 1:
        best = win_table(df).groupby("policy")["win_rate"].mean().idxmax()
        pol = st.selectbox("Policy shown in the heat map", policies, index=policies.index(best), key="dash_heat_policy",
                           help="Preselected: the policy with the highest mean win rate (the best bot in the results)")
    else:
        pol = policies[0]
    chart(F.win_rate_heatmap, df, pol, key="fig_heatmap",
          note="Read along a row: if missions get harder, the colour should go from green (mission 1) to red "
               "(mission 5); "
               "the interval under each rate shows how sure it is — overlapping intervals mean no real difference.")
    chart(F.loss_reasons, df, key="fig_losses",
          note="Which ending kills most games per mission: a third failed roll (usually missed interim goals) "
               "or a mission still unfinished after turn 27.")
    chart(F.points_vs_goals, df, key="fig_points",
          note="Where the median team points (bars: quartiles) sit below a goal mark, most games missed that interim "
               "goal — the lowest such check is the goal that kills most games. Goals are those of the tableau in "
               "use now.")
    chart(F.completion_turns, df, key="fig_turns",
          note="Won games only: a mission finished late (near turn 27) is barely achievable; early finishes mean "
               "its requirement is loose.")

    st.subheader("Which cells get crossed?")
    sheets = F.sheets_in(df)
    if "crossed" not in df.columns or not sheets:
        st.info("These results hold no crossed cells (swept with `--no-cells`).")
    else:
        sheet = st.selectbox("Sheet", sheets, key="dash_sheet")
        chart(F.cell_frequency, df, sheet, key="fig_cells",
              note="Dark cells are crossed in most games (by the end of the game); pale ones are hardly ever "
                   "reached — a mission needing them is hard on this sheet.")

    if len(policies) > 1:
        st.subheader("Policies compared")
        chart(F.policies_compared, df, key="fig_policies",
              note="The gap between bars is how much the numbers depend on the bot's strength; a mission order "
                   "that holds for every policy is trustworthy.")


def tableau_section(df: pd.DataFrame) -> None:
    st.subheader("Your tableau against the stand-in")
    counts = sorted(int(n) for n in df["players"].unique())
    n = st.selectbox("Player count", [1, 2, 3, 4, 5, 6], index=(3 if 3 in counts else counts[0]) - 1,
                     key="dash_tab_players", format_func=lambda k: f"{k} player{'s' if k > 1 else ''}")
    if userdata.tableau_source(n) == "user":
        whose = f"You saved a tableau for {n} player{'s' if n > 1 else ''}: the light bars are yours."
    else:
        whose = (f"You have not saved a tableau for {n} player{'s' if n > 1 else ''} (Tableaus page), so both bars "
                 "show the shipped stand-in.")
    chart(F.tableau_comparison, n, key="fig_tableau",
          note=f"{whose} The label on each stand-in bar says whether the value is printed in the rulebook or "
               "derived; sweep your tableau to see what it changes.")
    several = F.players_with_several_tableaus(df)
    if several:
        chart(F.tableau_win_rates, df[df["players"].isin(several)], key="fig_tableau_wins",
              note=f"Games with {', '.join(map(str, several))} player(s) were played with more than one tableau: "
                   "the bars show how much a tableau changes the win rate of each mission.")


def report_safe(df: pd.DataFrame) -> pd.DataFrame:
    """The results with their free-text columns (policy, reason: from a file) escaped for
    Markdown, for the calibration report, which is Markdown and quotes them; the reasons in
    words (without the rule ids the engine cites)."""
    return df.assign(policy=df["policy"].map(md), reason=df["reason"].map(lambda r: md(strip_rule_ids(r))))


def calibration(df: pd.DataFrame) -> None:
    st.subheader("Calibration report")
    st.markdown("The wanted win rate of each mission (the *ladder*): the report suggests the mission counts "
                "that come closest to it.")
    cols = st.columns(6, vertical_alignment="bottom")
    for m in range(1, 6):
        cols[m - 1].number_input(f"M{m}", min_value=0.0, max_value=1.0, step=0.05, format="%.2f",
                                 key=f"dash_ladder_{m}")
    cols[5].button("Default ladder", key="dash_ladder_reset", on_click=reset_ladder)
    ladder = [float(ss[f"dash_ladder_{m}"]) for m in range(1, 6)]
    try:
        rep = calibration_report(report_safe(df), ladder)
    except (NochmalError, ValueError, KeyError) as err:
        st.error(f"No calibration report for these results: {said(err)}")
        return
    per_count = df.groupby("players")["mission"].nunique()
    verdicts = {n: v["harder"] for n, v in rep["harder"].items() if per_count.get(n, 0) > 1}
    if verdicts:
        st.markdown("**Do missions 1→5 get harder** (for the policy of the report)? " + "; ".join(
            f"{n} player{'s' if n > 1 else ''}: **{v}**" for n, v in sorted(verdicts.items())) +
            " — *not clearly* means an inversion within the 95% intervals.")
    else:
        st.caption("Whether missions get harder needs results for at least two missions per player count.")
    with st.container(border=True):
        # the report's headings one level down, so they sit under this page's title
        st.markdown(re.sub(r"^(#+) ", r"##\1 ", rep["text"], flags=re.M))


# --------------------------------------------------------------------------- the page
_defaults()
st.title("Mission analytics")
st.markdown("How hard is mission 4 for three players? Does mission 5 really beat mission 1 in difficulty? Which "
            "interim goal kills most games? Bots play many seeded co-op games; the figures below show what "
            "happened.")

st.subheader("Results")
st.radio("Where the results come from", list(SOURCES), key="dash_from", format_func=SOURCES.get, horizontal=True)
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
        st.error(f"These results cannot be used: {said(err)}")
if results is None:
    st.info("No results yet: run a sweep, or open a results file.")
else:
    results_summary(results)
    provenance(results)
    figures(results)
    tableau_section(results)
    calibration(results)
