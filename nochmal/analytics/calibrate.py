"""Calibration of the stand-in tableaus from a sweep's results (``nochmal calibrate``).

Reports, per player count: the win rate of every mission (with 95% Wilson intervals) for the
best policy in the results; whether missions 1->5 really get harder; how often each interim
goal was met; and, for a chosen win-rate ladder, the mission requirement count that comes
closest to the wanted rate.

How the suggestion is estimated: a game that ended having done ``d`` items of a counted
requirement (colours, rows) would also have been won with any count ``<= d`` (fewer needed
ends it earlier, as a win), so the win rate for a lower count is the share of games that got
that far. Counts above the tableau's cannot be estimated from these games (they stopped when
they won); such cells say so. The bots' plan also depends on the count, so verify a suggestion
with another sweep (``--tableau FILE``).
"""

from __future__ import annotations

import math
from pathlib import Path

from nochmal.engine.version import RULES_VERSION
from nochmal.data.i18n import DEFAULT, _, language, percent, pgettext
from nochmal.engine.coopdata import get_mission, get_tableau
from nochmal.engine.missions import requirement_count


def pct(share: float) -> str:
    """``share`` as a whole percentage in the language in force; in English exactly as
    ``f"{share:.0%}"`` writes it (the CLI's report stays byte for byte what it was)."""
    return f"{share:.0%}" if language() == DEFAULT else percent(share)


def verdict_words(verdict: str) -> str:
    """The report's answer to "harder 1->5?" ("yes", "no", "not clearly": the values kept in
    the report's data) in the language in force."""
    words = {"yes": pgettext("harder", "yes"), "no": pgettext("harder", "no"),
             "not clearly": pgettext("harder", "not clearly")}
    return words.get(verdict, verdict)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def win_table(df):
    """One row per (policy, players, mission): games, wins, win rate, 95% interval."""
    import pandas as pd

    g = df.groupby(["policy", "players", "mission"])["won"].agg(["count", "sum"]).reset_index()
    g = g.rename(columns={"count": "games", "sum": "wins"})
    g["wins"] = g["wins"].astype(int)
    g["win_rate"] = g["wins"] / g["games"]
    ci = [wilson(int(w), int(n)) for w, n in zip(g["wins"], g["games"])]
    g["ci_low"] = [c[0] for c in ci]
    g["ci_high"] = [c[1] for c in ci]
    return pd.DataFrame(g)


def _done_count(mission_done: str, kind: str) -> int:
    for part in str(mission_done).split(";"):
        k, _sep, items = part.partition(":")
        if k == kind:
            return len([x for x in items.split(",") if x])
    return 0


def _needed(req, tab) -> int:
    if req.kind in ("colours", "rows"):
        return requirement_count(req, tab)
    if req.kind == "star_columns":
        return 15
    if req.kind == "sequence":
        return len(req.columns)
    return 6  # number_fields: the stand-in sheets carry fields 1-6


def estimate_counts(sub, mission, tab, counted_index: int) -> dict[int, float]:
    """Estimated win rate for each count from the lowest sensible one up to the current."""
    req = mission.requirements[counted_index]
    current = requirement_count(req, tab)
    lowest = 0 if current == 0 else 1
    dones = [[_done_count(md, r.kind) for r in mission.requirements] for md in sub["mission_done"]]
    won = list(sub["won"].astype(bool))
    needed = [_needed(r, tab) for r in mission.requirements]
    # the other requirements were complete at the end of the game
    others_done = [all(d[i] >= needed[i] for i in range(len(needed)) if i != counted_index) for d in dones]
    est = {}
    for k in range(lowest, current + 1):
        if k == current:
            est[k] = sum(won) / len(won)
            continue
        ok = sum(w or (o and d[counted_index] >= k) for d, w, o in zip(dones, won, others_done))
        est[k] = ok / len(won)
    return est


def results_rules_versions(df) -> list[int]:
    """The rules versions a results table was played under (files written before the column
    existed were all played under rules version 1)."""
    if "rules_version" not in df.columns:
        return [1]
    return sorted(int(v) for v in df["rules_version"].dropna().unique()) or [1]


def calibration_report(results, ladder: str | list[float] = "0.8,0.65,0.5,0.35,0.2") -> dict:
    from nochmal.analytics.sweep import read_rows

    df = read_rows(results) if isinstance(results, (str, Path)) else results
    if isinstance(ladder, str):
        try:
            ladder = [float(x) for x in ladder.split(",")]
        except ValueError:
            raise ValueError(f"--ladder: expected 5 numbers like 0.8,0.65,0.5,0.35,0.2, got {ladder!r}") from None
    if len(ladder) != 5 or any(not 0 <= x <= 1 for x in ladder):
        raise ValueError("--ladder: five win rates between 0 and 1, one per mission")
    wt = win_table(df)
    best_policy = wt.groupby("policy")["win_rate"].mean().idxmax()
    best = wt[wt["policy"] == best_policy]
    versions = results_rules_versions(df)
    players = pgettext("report column", "players")
    about = {"policy": best_policy, "policies": ", ".join(sorted(wt["policy"].unique())),
             "games": int(best["games"].sum()), "versions": ", ".join(map(str, versions)), "current": RULES_VERSION}
    if versions == [RULES_VERSION]:
        head = _("Policy: **{policy}** (highest mean win rate among {policies}); {games} games; "
                 "rules version {versions}.").format(**about)
    else:
        head = _("Policy: **{policy}** (highest mean win rate among {policies}); {games} games; "
                 "rules version {versions} (this program plays rules version {current}).").format(**about)
    lines = [_("# Calibration of the co-op tableaus"), "", head, "",
             _("## Win rate by mission and player count (95% interval)"), "",
             f"| {players} | " + " | ".join(f"M{m}" for m in range(1, 6)) + f" | {_('harder 1→5?')} |",
             "|---|" + "---|" * 6]
    verdicts = {}
    for n in sorted(best["players"].unique()):
        cells = []
        rates = []
        for m in range(1, 6):
            r = best[(best["players"] == n) & (best["mission"] == m)]
            if r.empty:
                cells.append("–")
                continue
            r = r.iloc[0]
            rates.append((m, r["win_rate"], r["ci_low"], r["ci_high"]))
            cells.append(f"{pct(r['win_rate'])} ({pct(r['ci_low'])}–{pct(r['ci_high'])})")
        inversions = [(a[0], b[0]) for a, b in zip(rates, rates[1:]) if b[1] > a[1]]
        sure = [(a[0], b[0]) for a, b in zip(rates, rates[1:]) if b[2] > a[3]]
        verdict = "yes" if not inversions else ("no" if sure else "not clearly")
        verdicts[int(n)] = {"harder": verdict, "inversions": inversions, "significant_inversions": sure}
        lines.append(f"| {n} | " + " | ".join(cells) + f" | {verdict_words(verdict)}" +
                     (f" (M{'/M'.join(f'{a}<M{b}' for a, b in inversions)})" if inversions else "") + " |")
    lines += ["", _("## Interim goals met (share of games that reached the check)"), "",
              f"| {players} | " + " | ".join(_("after {turn}").format(turn=t) for t in (10, 19, 27)) + " |",
              "|---|---|---|---|"]
    goals = {}
    for n in sorted(df["players"].unique()):
        sub = df[(df["players"] == n) & (df["policy"] == best_policy)]
        tab = get_tableau(int(n))
        row = []
        for t in (10, 19, 27):
            col = sub[f"points_{t}"].dropna()
            met = float((col >= tab.value(f"goal_{t}")).mean()) if len(col) else float("nan")
            goals.setdefault(int(n), {})[t] = {"reached": int(len(col)), "met": met, "goal": tab.value(f"goal_{t}")}
            row.append("–" if not len(col) else _("{share} of {games} (goal {goal})").format(
                share=pct(met), games=len(col), goal=tab.value(f"goal_{t}")))
        lines.append(f"| {n} | " + " | ".join(row) + " |")
    lines += ["", _("## Why games were lost"), ""]
    lost = df[(df["policy"] == best_policy) & (~df["won"].astype(bool))]
    for reason, k in lost["reason"].value_counts().items():
        share = pct(k / max(1, len(df[df["policy"] == best_policy])))
        lines.append("- " + _("{reason}: {games} ({share} of games)").format(reason=reason, games=k, share=share))
    lines += ["", _("## Suggested mission counts for the ladder {ladder} (M1..M5)").format(
                  ladder=", ".join(pct(x) for x in ladder)), "",
              f"| {players} | " + " | ".join(f"M{m}" for m in range(1, 6)) + " |", "|---|" + "---|" * 5]
    suggestions = {}
    for n in sorted(best["players"].unique()):
        tab = get_tableau(int(n))
        cells = []
        for m in range(1, 6):
            sub = df[(df["players"] == n) & (df["mission"] == m) & (df["policy"] == best_policy)]
            mission = get_mission(m)
            counted = [i for i, r in enumerate(mission.requirements) if r.kind in ("colours", "rows") and r.count]
            if sub.empty or not counted:
                cells.append("–")
                continue
            ci = counted[0]
            req = mission.requirements[ci]
            current = requirement_count(req, tab)
            est = estimate_counts(sub, mission, tab, ci)
            target = ladder[m - 1]
            k_best = min(est, key=lambda k: (abs(est[k] - target), -k))
            note = (" " + _("(wants more than now: not estimable from these games)")
                    if k_best == current and est[current] > target else "")
            suggestions.setdefault(int(n), {})[m] = {"key": req.count, "current": current, "suggested": k_best,
                                                     "estimates": est, "target": target}
            cells.append(_("{key}={count} (now {current}, est. {share})").format(
                key=req.count, count=k_best, current=current, share=pct(est[k_best])) + note)
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    lines += ["", _("Estimates for lower counts assume the bots would have played the same way; verify a "
                    "suggested tableau with `nochmal sweep --tableau FILE`.")]
    return {"policy": best_policy, "win_table": best.to_dict(orient="records"), "harder": verdicts,
            "goals": goals, "suggestions": suggestions, "rules_versions": versions, "text": "\n".join(lines) + "\n"}
