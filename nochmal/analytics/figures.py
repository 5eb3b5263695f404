"""Figures of the mission analytics: pure functions ``DataFrame -> plotly Figure`` (no
streamlit), unit-tested on their own and shown by the dashboard page."""

from __future__ import annotations

import re

import pandas as pd
import plotly.graph_objects as go

from nochmal.analytics.calibrate import best_bot, pct, win_table
from nochmal.bots.registry import policy_name
from nochmal.engine.cells import COLUMNS, N_COLS, N_ROWS, cell_index
from nochmal.engine.coopdata import TABLEAU_KEYS, get_tableau
from nochmal.engine.ruleids import strip_rule_ids
from nochmal.data.userdata import tableau_key_label
from nochmal.data.provenance import provenance_words
from nochmal.data.i18n import N_, _, ngettext, pgettext
from nochmal.data.i18n import _ as tr  # tr(TABLE[key]): a text of a table, marked there with N_()

#: The engine's reasons (English, with the rule ids they cite) -> a chart's short label. The
#: labels stay English in the data (they key the colours); :func:`reason_label` translates.
REASON_SHORT = {
    "mission complete (C-WIN)": N_("won"),
    "a third failed roll (C-FAIL)": N_("third failed roll"),
    "a third failed roll at the final check (C-GOAL-27)": N_("failed roll at the final check"),
    "mission not complete after turn 27 (C-LOSE)": N_("mission not done after 27 turns"),
}
#: The engine's reasons -> the reason in words (the report's "Why games were lost").
REASON_WORDS = {
    "mission complete (C-WIN)": N_("mission complete"),
    "a third failed roll (C-FAIL)": N_("a third failed roll"),
    "a third failed roll at the final check (C-GOAL-27)": N_("a third failed roll at the final check"),
}
_NOT_COMPLETE = re.compile(r"mission not complete after turn (\d+) \(C-LOSE\)")
_NOT_COMPLETE_WORDS = re.compile(r"mission not complete after turn (\d+)")  # the same without its rule id


def reason_words(reason: str) -> str:
    """How a game ended, in a chart's words: the short label of a known reason, else the
    reason without the rule ids it cites (a file of an older version may hold other texts).
    English: the label keys :data:`REASON_COLOURS`; :func:`reason_label` shows it."""
    return REASON_SHORT.get(reason) or strip_rule_ids(str(reason))


def reason_label(words: str) -> str:
    """A label of :func:`reason_words` in the language in force (an unknown text as it is)."""
    if words in REASON_COLOURS:
        return tr(words)
    late = _NOT_COMPLETE_WORDS.fullmatch(words)
    if late:
        return _("mission not complete after turn {turn}").format(turn=late.group(1))
    return words


def reason_text(reason: str) -> str:
    """An engine's reason in words, in the language in force (English: the reason without its
    rule ids); a text of an older version it does not know stays as it is, without rule ids."""
    reason = str(reason)
    if reason in REASON_WORDS:
        return tr(REASON_WORDS[reason])
    late = _NOT_COMPLETE.fullmatch(reason)
    if late:
        return _("mission not complete after turn {turn}").format(turn=late.group(1))
    return strip_rule_ids(reason)


def tableau_words(provenance: str) -> str:
    """A tableau the results name by its provenance ("rulebook+derived", "user"), in a player's
    words: "yours" for a tableau entered by the user, else "shipped" and where its values come
    from ("shipped: rulebook + derived")."""
    parts = str(provenance).split("+")
    if "user" in parts:
        return _("yours")
    return _("shipped: {provenance}").format(provenance=" + ".join(provenance_words(p) for p in parts))


def tableaus_words(text: str) -> str:
    """Tableaus as the results name them ("tableau-3 (rulebook+derived), tableau-3 (user)") in
    the language in force, without the files' ids: "shipped: rulebook + derived, yours"."""
    found = re.findall(r"\(([^()]*)\)", str(text))
    return ", ".join(dict.fromkeys(tableau_words(p) for p in found)) if found else str(text)


#: One colour per ending: a win green, the two failed-roll endings red/orange, running out of turns grey.
REASON_COLOURS = {
    "won": "#2e9e44",
    "third failed roll": "#d62728",
    "failed roll at the final check": "#ff7f0e",
    "mission not done after 27 turns": "#8c8c8c",
}
#: The team's points and the goals they are measured against (one panel per player count).
POINTS_COLOUR, GOAL_COLOUR = "#1f77b4", "#d62728"


def _coop(df: pd.DataFrame) -> pd.DataFrame:
    need = {"mission", "players", "won", "policy"}
    missing = need - set(df.columns)
    if missing:
        raise ValueError(f"these results have no column(s) {', '.join(sorted(missing))}: not a co-op sweep")
    out = df.copy()
    out["won"] = out["won"].astype(bool)
    return out


def _mission_grid(wt: pd.DataFrame, cell, title: str, **colours) -> go.Figure:
    """A heat map of mission x player count over the players and missions of ``wt``:
    ``cell(players, mission)`` gives a cell's (value, text), or None for no cell."""
    players = sorted(wt["players"].unique())
    missions = sorted(wt["mission"].unique())
    z, text = [], []
    for n in players:
        shown = [cell(n, m) or (None, "") for m in missions]
        z.append([v for v, _t in shown])
        text.append([t for _v, t in shown])
    fig = go.Figure(go.Heatmap(z=z, x=[f"M{m}" for m in missions], y=[_("{n} pl.").format(n=n) for n in players],
                               text=text, texttemplate="%{text}", hovertemplate="%{y}, %{x}: %{text}<extra></extra>",
                               **colours))
    fig.update_layout(title=title, xaxis_title=pgettext("chart", "mission"), yaxis_title=pgettext("chart", "players"),
                      height=max(320, 140 + 75 * len(players)))
    return fig


def _cells(wt: pd.DataFrame) -> dict:
    """The rows of a :func:`win_table` by (policy, players, mission)."""
    return {(r["policy"], r["players"], r["mission"]): r for r in wt.to_dict(orient="records")}


def win_rate_heatmap(df: pd.DataFrame, policy: str | None = None) -> go.Figure:
    """Win rate by mission x player count, each cell annotated with its 95% interval."""
    wt = win_table(_coop(df))
    policy = policy or best_bot(wt)
    rows = _cells(wt)

    def cell(n, m):
        r = rows.get((policy, n, m))
        return None if r is None else (
            r["win_rate"], f"{pct(r['win_rate'])}<br>({pct(r['ci_low'])}–{pct(r['ci_high'])})<br>n={r['games']}")

    return _mission_grid(wt[wt["policy"] == policy], cell,
                         _("Win rate by mission and player count ({policy}, 95% intervals)").format(
                             policy=policy_name(policy)),
                         zmin=0, zmax=1, colorscale="RdYlGn",
                         colorbar={"title": pgettext("chart", "win rate"), "tickformat": ".0%"})


def gap_to_bound(df: pd.DataFrame, limit: str) -> go.Figure:
    """Per mission x player count: the best bot's win rate, the limit's (``limit``, the
    perfect-dice bound) and the gap between them in percentage points (the colour)."""
    wt = win_table(_coop(df))
    bot = best_bot(wt)
    rows = _cells(wt)

    def cell(n, m):
        a, b = rows.get((bot, n, m)), rows.get((limit, n, m))
        if a is None or b is None:
            return None
        gap = 100 * (b["win_rate"] - a["win_rate"])
        return gap, f"{gap:+.0f}<br>{pct(a['win_rate'])} → {pct(b['win_rate'])}"

    return _mission_grid(wt, cell, _("Gap between {bot} and {limit}, win-rate points").format(
                             bot=policy_name(bot), limit=policy_name(limit)),
                         zmin=0, zmax=100, colorscale="Blues", colorbar={"title": pgettext("chart", "points to the bound")})


def loss_reasons(df: pd.DataFrame) -> go.Figure:
    """Why games ended, per mission (stacked shares)."""
    d = _coop(df)
    d["why"] = d["reason"].map(reason_words)
    tab = d.groupby(["mission", "why"]).size().unstack(fill_value=0)
    share = tab.div(tab.sum(axis=1), axis=0)
    fig = go.Figure()
    for why in share.columns:
        label = reason_label(why)
        fig.add_bar(x=[f"M{m}" for m in share.index], y=share[why], name=label,
                    marker_color=REASON_COLOURS.get(why), hovertemplate=f"{label}: %{{y:.0%}}<extra></extra>")
    fig.update_layout(barmode="stack", title=_("How games ended, by mission"), yaxis_tickformat=".0%",
                      xaxis_title=pgettext("chart", "mission"), yaxis_title=_("share of games"), height=400)
    return fig


def points_vs_goals(df: pd.DataFrame) -> go.Figure:
    """Team points at the checks after turns 10/19/27 (median and quartiles) against the goals:
    one panel per player count (small multiples: two lines per count overlaid would make twelve
    for six counts), the points solid, the goals dotted with hollow diamonds."""
    from plotly.subplots import make_subplots

    d = _coop(df)
    counts = sorted(int(n) for n in d["players"].unique())
    cols = min(3, max(1, len(counts)))
    rows = -(-len(counts) // cols) if counts else 1
    fig = make_subplots(rows=rows, cols=cols, shared_yaxes=True, horizontal_spacing=0.04,
                        vertical_spacing=min(0.18, 0.5 / rows),
                        subplot_titles=[ngettext("{n} player", "{n} players", n).format(n=n) for n in counts] or None)
    points_name, goal_name = pgettext("chart", "team points (median, quartiles)"), pgettext("chart", "goal")
    for i, n in enumerate(counts):
        r, c = i // cols + 1, i % cols + 1
        sub = d[d["players"] == n]
        xs, med, lo, hi = [], [], [], []
        for t in (10, 19, 27):
            col = pd.to_numeric(sub.get(f"points_{t}"), errors="coerce").dropna()
            if len(col):
                xs.append(t)
                med.append(col.median())
                lo.append(col.median() - col.quantile(0.25))
                hi.append(col.quantile(0.75) - col.median())
        fig.add_scatter(x=xs, y=med, mode="lines+markers", name=points_name, legendgroup="points",
                        showlegend=i == 0, line={"color": POINTS_COLOUR},
                        error_y={"type": "data", "array": hi, "arrayminus": lo, "color": POINTS_COLOUR},
                        hovertemplate=_("{players}, after turn {turn}: median {points}").format(
                            players=ngettext("{n} player", "{n} players", n).format(n=n), turn="%{x}",
                            points="%{y}") + "<extra></extra>", row=r, col=c)
        tab = get_tableau(n)
        fig.add_scatter(x=[10, 19, 27], y=[tab.value("goal_10"), tab.value("goal_19"), tab.value("goal_27")],
                        mode="lines+markers", name=goal_name, legendgroup="goal", showlegend=i == 0,
                        line={"color": GOAL_COLOUR, "dash": "dot", "width": 2},
                        marker={"symbol": "diamond-open", "size": 12, "line": {"width": 2}, "color": GOAL_COLOUR},
                        hovertemplate=_("{players}, goal after turn {turn}: {points}").format(
                            players=ngettext("{n} player", "{n} players", n).format(n=n), turn="%{x}",
                            points="%{y}") + "<extra></extra>", row=r, col=c)
    fig.update_xaxes(tickvals=[10, 19, 27], range=[7, 30])
    for c in range(1, cols + 1):
        fig.update_xaxes(title_text=pgettext("chart", "turn"), row=rows, col=c)
    for r in range(1, rows + 1):
        fig.update_yaxes(title_text=pgettext("chart", "team points"), row=r, col=1)
    fig.update_layout(title=_("Team points at the interim checks (median, quartiles) against the goals"),
                      height=170 + 250 * rows, legend={"orientation": "h", "y": -0.12 if rows == 1 else -0.06})
    return fig


def completion_turns(df: pd.DataFrame) -> go.Figure:
    """When won games completed their mission: small multiples, one histogram per mission on a
    shared turn axis (five overlaid histograms hide each other)."""
    from plotly.subplots import make_subplots

    d = _coop(df)
    won = d[d["won"]]
    missions = sorted(won["mission"].unique())
    rows = max(1, len(missions))
    counts = {m: int((won["mission"] == m).sum()) for m in missions}
    fig = make_subplots(rows=rows, cols=1, shared_xaxes=True, vertical_spacing=min(0.08, 0.3 / rows),
                        subplot_titles=[ngettext("Mission {mission}: {n} won game", "Mission {mission}: {n} won games",
                                                 counts[m]).format(mission=m, n=counts[m])
                                        for m in missions] or None)
    for r, m in enumerate(missions, 1):
        fig.add_trace(go.Histogram(x=won[won["mission"] == m]["turns"], name=f"M{m}", showlegend=False,
                                   xbins={"start": 0.5, "end": 27.5, "size": 1},
                                   hovertemplate=_("M{mission}, turn {turn}: {games} games").format(
                                       mission=m, turn="%{x}", games="%{y}") + "<extra></extra>"), row=r, col=1)
        fig.update_yaxes(title_text=pgettext("chart", "games"), row=r, col=1)
    fig.update_xaxes(range=[0.5, 27.5], dtick=3)
    fig.update_xaxes(title_text=pgettext("chart", "turn"), row=rows, col=1)
    fig.update_layout(title=_("Turn in which the mission was completed (won games), one panel per mission"),
                      height=140 + 120 * rows, bargap=0.1)
    return fig


def cell_frequency(df: pd.DataFrame, sheet_id: str) -> go.Figure:
    """How often each cell of ``sheet_id`` was crossed by the end of a game (share of seats)."""
    from nochmal.engine.sheet import get_sheet

    if "crossed" not in df.columns or "sheets" not in df.columns:
        raise ValueError("these results have no crossed cells (swept with --no-cells?)")
    counts = [[0] * N_COLS for _ in range(N_ROWS)]
    seats = 0
    for sheets, crossed in zip(df["sheets"], df["crossed"]):
        if pd.isna(sheets):
            continue
        crossed = "" if pd.isna(crossed) else str(crossed)  # a CSV reads an empty field back as NaN
        for sid, cells in zip(str(sheets).split(","), crossed.split(";")):
            if sid != sheet_id:
                continue
            seats += 1
            for name in cells.split():
                i = cell_index(name)
                counts[i // N_COLS][i % N_COLS] += 1
    sheet = get_sheet(sheet_id)
    z = [[c / seats if seats else 0 for c in row] for row in counts]
    text = [[("★" if sheet.star_mask >> (r * N_COLS + c) & 1 else "") for c in range(N_COLS)] for r in range(N_ROWS)]
    fig = go.Figure(go.Heatmap(z=z, x=list(COLUMNS), y=list(sheet.spec.row_labels), text=text, texttemplate="%{text}",
                               colorscale="Blues", zmin=0, zmax=1,
                               colorbar={"title": pgettext("chart", "crossed"), "tickformat": ".0%"},
                               hovertemplate="%{x}%{y}: %{z:.0%}<extra></extra>"))
    fig.update_layout(title=_("How often each cell of {sheet} was crossed ({n} sheets)").format(sheet=sheet_id, n=seats),
                      yaxis={"autorange": "reversed"}, height=360)
    return fig


def policies_compared(df: pd.DataFrame) -> go.Figure:
    """Win rate per mission for each policy, with 95% intervals (all player counts pooled)."""
    d = _coop(df)
    g = d.groupby(["policy", "mission"])["won"].agg(["count", "sum"]).reset_index()
    from nochmal.analytics.calibrate import wilson

    fig = go.Figure()
    for pol in sorted(g["policy"].unique()):
        sub = g[g["policy"] == pol]
        rate = sub["sum"] / sub["count"]
        ci = [wilson(int(k), int(n)) for k, n in zip(sub["sum"], sub["count"])]
        fig.add_bar(x=[f"M{m}" for m in sub["mission"]], y=rate, name=policy_name(pol),
                    error_y={"type": "data", "array": [c[1] - r for c, r in zip(ci, rate)],
                             "arrayminus": [r - c[0] for c, r in zip(ci, rate)]})
    fig.update_layout(barmode="group", title=_("Policies compared: win rate by mission (95% intervals)"),
                      yaxis_tickformat=".0%", xaxis_title=pgettext("chart", "mission"),
                      yaxis_title=pgettext("chart", "win rate"), height=400)
    return fig


def tableau_comparison(players: int, user_values: dict[str, int] | None = None) -> go.Figure:
    """A tableau's values next to the shipped stand-in's for the same player count."""
    from nochmal.engine.coopdata import MISSIONS_DIR, load_tableau_file

    shipped = load_tableau_file(MISSIONS_DIR / f"tableau-{players}.toml")
    current = get_tableau(players)
    other = user_values or {k: current.value(k) for k in TABLEAU_KEYS}
    labels = [tableau_key_label(k) for k in TABLEAU_KEYS]
    fig = go.Figure()
    fig.add_bar(x=labels, y=[shipped.value(k) for k in TABLEAU_KEYS], name=_("shipped stand-in"),
                text=[provenance_words(getattr(shipped, k).provenance) for k in TABLEAU_KEYS], textposition="outside")
    fig.add_bar(x=labels, y=[other[k] for k in TABLEAU_KEYS], name=_("yours / in use"))
    fig.update_layout(barmode="group", title=_("Tableau for {n} players: yours against the stand-in").format(n=players),
                      yaxis_title=pgettext("chart", "value"), height=400)
    return fig


def tableau_win_rates(df: pd.DataFrame) -> go.Figure:
    """Win rate per mission for each tableau that appears in the results (e.g. yours vs the stand-in)."""
    d = _coop(df)
    key = d["tableau"].astype(str) + " (" + d["tableau_provenance"].astype(str) + ")"
    d = d.assign(tab=key)
    g = d.groupby(["players", "tab", "mission"])["won"].mean().reset_index()
    fig = go.Figure()
    named: dict[str, int] = {}
    for (n, tab), sub in g.groupby(["players", "tab"], sort=True):
        name = ngettext("{n} player: {tableau}", "{n} players: {tableau}", int(n)).format(n=n,
                                                                                        tableau=tableaus_words(tab))
        named[name] = named.get(name, 0) + 1
        if named[name] > 1:  # two tableaus of the same words (yours, changed in between): numbered
            name = f"{name} ({named[name]})"
        fig.add_bar(x=[f"M{m}" for m in sub["mission"]], y=sub["won"], name=name)
    fig.update_layout(barmode="group", title=_("Win rate by tableau"), yaxis_tickformat=".0%",
                      xaxis_title=pgettext("chart", "mission"), yaxis_title=pgettext("chart", "win rate"), height=380)
    return fig


# --------------------------------------------------------------------------- results files
#: Columns every figure needs; without them a file is not the output of ``nochmal sweep``.
RESULT_COLUMNS = ("mission", "players", "policy", "won", "reason", "turns")


def check_results(df: pd.DataFrame) -> pd.DataFrame:
    """A sweep's results, checked and with ``won`` as booleans; ``ValueError`` with a plain
    message if the table is not a co-op sweep (missing columns, impossible values, no rows)."""
    if not isinstance(df, pd.DataFrame) or df.empty:
        raise ValueError("the results hold no games")
    missing = [c for c in RESULT_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"not results of `nochmal sweep`: no column(s) {', '.join(missing)}")
    out = df.copy()
    for col, lo, hi in (("players", 1, 6), ("mission", 1, 5), ("turns", 0, 27)):
        num = pd.to_numeric(out[col], errors="coerce")
        bad = num.isna() | (num != num.round()) | (num < lo) | (num > hi)
        if bad.any():
            i = int(bad.to_numpy().nonzero()[0][0])
            raise ValueError(f"column {col}, row {i + 1}: {_plain(out[col].iloc[i])!r} is not a whole number "
                             f"from {lo} to {hi}")
        out[col] = num.astype(int)
    won = out["won"].map(lambda v: {"true": True, "false": False, "1": True, "0": False}.get(str(v).strip().lower()))
    if won.isna().any():
        i = int(won.isna().to_numpy().nonzero()[0][0])
        raise ValueError(f"column won, row {i + 1}: {_plain(out['won'].iloc[i])!r} is not True or False")
    out["won"] = won.astype(bool)
    out["policy"] = out["policy"].astype(str)
    out["reason"] = out["reason"].astype(str)
    # Text a file brings ends up in chart labels, which plotly reads as a little HTML: only the
    # plain text the sweep writes is accepted.
    for col, pattern, what in (("policy", POLICY_TEXT, "a policy name (letters, digits, - and _)"),
                               ("reason", REASON_TEXT, "a reason as nochmal writes it (no < > & or control characters)"),
                               ("sheets", SHEETS_TEXT, "sheet ids separated by commas")):
        if col not in out.columns:
            continue
        bad = ~out[col].astype(str).str.fullmatch(pattern)
        if bad.any():
            i = int(bad.to_numpy().nonzero()[0][0])
            raise ValueError(f"column {col}, row {i + 1}: {str(out[col].iloc[i])[:60]!r} is not {what}")
    return out


POLICY_TEXT = r"[A-Za-z][A-Za-z0-9_-]{0,39}"
REASON_TEXT = r"[^<>&\x00-\x1f\x7f-\x9f]{0,160}"
SHEETS_TEXT = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(,[A-Za-z0-9][A-Za-z0-9_.-]{0,63}){0,5}"


def _plain(value):
    """A numpy scalar as the Python value it holds (for messages)."""
    return value.item() if hasattr(value, "item") else value


#: An uploaded results file is refused above this size (the shipped calibration sweep, 42,000
#: games, is a 7.9 MB Parquet file; as CSV it would be 38 MB: a large CSV is opened by path).
MAX_RESULTS_MB = 10
MAX_RESULTS_BYTES = MAX_RESULTS_MB * 2**20
#: At most this many games (rows): the shipped calibration sweep has 42,000, the sweep the page
#: runs at most 5 × 6 × 3 × 1,000 = 90,000.
MAX_RESULT_ROWS = 100_000
#: At most this many columns (``nochmal sweep`` writes 28).
MAX_RESULT_COLUMNS = 64
#: At most this much data once read (the shipped sweep: 42 MB for 42,000 games, most of it the
#: ``crossed`` column of about 1.5 KB a game).
MAX_RESULT_DATA_BYTES = 160 * 2**20


def _check_shape(rows: int, columns: int) -> None:
    if rows > MAX_RESULT_ROWS:
        raise ValueError(f"the file holds {rows:,} rows; a results file may hold at most {MAX_RESULT_ROWS:,} games")
    if columns > MAX_RESULT_COLUMNS:
        raise ValueError(f"the file has {columns:,} columns; a results file may have at most {MAX_RESULT_COLUMNS}")


def _check_parquet(data: bytes) -> None:
    """Refuse a Parquet file that would take more memory than a real sweep's, from its footer
    and then its data read compactly (text columns as dictionaries), before pandas reads it."""
    import io

    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    footer = pq.ParquetFile(io.BytesIO(data))
    meta = footer.metadata
    _check_shape(meta.num_rows, meta.num_columns)
    schema = footer.schema_arrow
    nested = [f.name for f in schema if pa.types.is_nested(f.type)]
    if nested:
        raise ValueError(f"column {nested[0][:40]!r} holds lists or tables; a results file has plain values only")
    packed = sum(meta.row_group(r).column(c).total_uncompressed_size
                 for r in range(meta.num_row_groups) for c in range(meta.num_columns))
    if packed > MAX_RESULT_DATA_BYTES:
        raise ValueError(f"the file holds {packed / 2**20:,.0f} MB of data; a results file may hold at most "
                         f"{MAX_RESULT_DATA_BYTES // 2**20} MB")
    texts = [f.name for f in schema if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)
             or pa.types.is_binary(f.type) or pa.types.is_large_binary(f.type)]
    table = pq.ParquetFile(io.BytesIO(data), read_dictionary=texts).read(use_threads=False)
    size = 0
    for column in table.columns:
        for chunk in column.chunks:
            if pa.types.is_dictionary(chunk.type):  # what it takes once each value is written out
                lengths = pc.binary_length(chunk.dictionary)
                size += chunk.indices.nbytes + int(pc.sum(pc.take(lengths, chunk.indices)).as_py() or 0)
            else:
                size += chunk.nbytes
        if size > MAX_RESULT_DATA_BYTES:
            raise ValueError(f"the file holds more than {MAX_RESULT_DATA_BYTES // 2**20} MB of data once read; a "
                             f"results file may hold at most {MAX_RESULT_DATA_BYTES // 2**20} MB")


def _check_csv(data: bytes) -> None:
    """Refuse a CSV file with more rows or columns than a real sweep's, by counting lines and
    the header's fields before pandas reads it."""
    import csv

    lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    _check_shape(max(lines - 1, 0), 0)
    head = data[:data.find(b"\n")] if b"\n" in data else data
    try:
        fields = next(csv.reader([head.decode("utf-8-sig", errors="replace")]), [])
    except csv.Error:
        fields = []
    _check_shape(0, len(fields))


def read_results_bytes(data: bytes, name: str) -> pd.DataFrame:
    """Results uploaded as bytes (a ``.csv`` or ``.parquet`` file written by ``nochmal sweep``),
    checked by :func:`check_results`; ``ValueError`` naming the file if they cannot be used.
    Size, rows, columns and data size are checked before the file is read into memory
    (:data:`MAX_RESULTS_BYTES`, :data:`MAX_RESULT_ROWS`, :data:`MAX_RESULT_COLUMNS`,
    :data:`MAX_RESULT_DATA_BYTES`)."""
    import io

    if len(data) > MAX_RESULTS_BYTES:
        raise ValueError(f"{name}: the file has {len(data):,} bytes; an uploaded results file may have at most "
                         f"{MAX_RESULTS_MB} MB (open a larger one by its path on this machine)")
    suffix = str(name).lower().rsplit(".", 1)[-1] if "." in str(name) else ""
    try:
        if suffix == "csv":
            _check_csv(data)
            df = pd.read_csv(io.BytesIO(data))
        elif suffix == "parquet":
            _check_parquet(data)
            df = pd.read_parquet(io.BytesIO(data))
        else:
            raise ValueError("use a .csv or .parquet results file")
    except ValueError as err:
        raise ValueError(f"{name}: cannot read results: {err}") from None
    except Exception as err:  # pandas/pyarrow raise many kinds for a damaged file
        raise ValueError(f"{name}: cannot read results: {err}") from None
    try:
        return check_results(df)
    except ValueError as err:
        raise ValueError(f"{name}: {err}") from None


def sheets_in(df: pd.DataFrame) -> list[str]:
    """The sheet ids played in the results (for choosing a sheet of :func:`cell_frequency`)."""
    if "sheets" not in df.columns:
        return []
    ids = {sid for v in df["sheets"].dropna() for sid in str(v).split(",") if sid}
    return sorted(ids)


def results_provenance(df: pd.DataFrame) -> pd.DataFrame:
    """Where the numbers come from, one row per player count: the tableau(s) the games used and
    their provenance, the policies (bots) that played, and the number of games."""
    d = _coop(df)
    rows = []
    for n in sorted(d["players"].unique()):
        sub = d[d["players"] == n]
        if "tableau" in sub.columns:
            prov = sub["tableau_provenance"] if "tableau_provenance" in sub.columns else pd.Series("?", index=sub.index)
            tabs = sorted({f"{t} ({p})" for t, p in zip(sub["tableau"].astype(str), prov.astype(str))})
        else:
            tabs = ["?"]
        rows.append({"players": int(n), "tableau (provenance)": ", ".join(tabs),
                     "policies": ", ".join(sorted(sub["policy"].astype(str).unique())),
                     "missions": ", ".join(f"M{m}" for m in sorted(sub["mission"].unique())),
                     "games": int(len(sub))})
    return pd.DataFrame(rows, columns=["players", "tableau (provenance)", "policies", "missions", "games"])


def players_with_several_tableaus(df: pd.DataFrame) -> list[int]:
    """Player counts whose games used more than one tableau (e.g. yours and the stand-in)."""
    if "tableau" not in df.columns:
        return []
    prov = df["tableau_provenance"].astype(str) if "tableau_provenance" in df.columns else ""
    key = df["tableau"].astype(str) + "|" + prov
    counts = key.groupby(df["players"]).nunique()
    return sorted(int(n) for n, k in counts.items() if k > 1)
