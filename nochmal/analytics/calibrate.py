"""Calibration of the stand-in tableaus from a sweep's results (``nochmal calibrate``).

Reports, per player count: the win rate of every mission (with 95% Wilson intervals) for the
best policy in the results; whether missions 1->5 really get harder; how often each interim
goal was met; and, for a chosen win-rate ladder, the mission requirement count that comes
closest to the wanted rate.

How the suggestion is estimated: a game that ended having done ``d`` items of a counted
requirement (colours, rows) would also have been won with any count ``<= d`` (fewer needed
ends it earlier, as a win), so the win rate for a lower count is the share of games that got
that far. Counts above the tableau's cannot be estimated from these games (they stopped when
they won): for those the report plays the games again with higher counts (the same seeds, in the
compiled co-op game, at most :data:`REPLAY_GAMES` of them) until the win rate falls to the
wanted one. A value printed in the rulebook
(provenance ``rulebook``) is never suggested for a change. The bots' plan also depends on the
count, so verify a suggestion with another sweep (``--tableau FILE``).

A limit in the results (the perfect-dice bound, :data:`nochmal.bots.registry.LIMIT_POLICIES`) is
never the report's policy: it is shown beside the bots, with how far the best bot is from it.
"""

from __future__ import annotations

import math
from pathlib import Path

from nochmal.engine.version import RULES_VERSION
from nochmal.data.i18n import DEFAULT, _, language, percent, pgettext
from nochmal.bots.registry import LIMIT_POLICIES
from nochmal.engine.coopdata import get_mission, get_tableau, tableau_from_data
from nochmal.engine.missions import requirement_count

#: the most a counted requirement can ask for: five colours, seven rows
MAX_COUNT = {"colours": 5, "rows": 7}
#: games played again for each higher count: the cell's first seeds (a 95 % interval of about
#: ±5 points; a whole 1,000-game cell would make the report take half a minute). The planner's
#: games cost about 0.4 s each (greedy's 1 ms): 100 of them (about ±10 points), some twenty
#: seconds a count on two threads
REPLAY_GAMES = 300
REPLAY_GAMES_BY_POLICY = {"planner": 100}
#: bots whose games are too slow to play again while a page waits (the Analytics page leaves their
#: higher counts to ``nochmal calibrate``)
SLOW_REPLAYS = frozenset({"planner"})
#: threads the games played again run on (the compiled game releases the GIL)
REPLAY_THREADS = 2


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


def played_rates(policy: str, players: int, mission, key: str, counts, seeds, tab, target: float) -> dict[int, float]:
    """Win rates with the tableau's ``key`` set to each of ``counts`` in turn (rising), the games
    of ``seeds`` played again in the compiled co-op game by ``policy`` (the planner with the
    analytics' settings, as in the sweeps; greedy where the compiled game does not play it);
    stops after the first count whose rate is at or below ``target``."""
    from nochmal.bots.kernel import drivers, layout
    from nochmal.bots.settings import ANALYTICS_COOP
    from nochmal.engine.coop import CoopGame

    rates = {}
    for k in counts:
        data = tab.model_dump(mode="json")
        data[key] = {"value": int(k), "provenance": "derived"}
        game = CoopGame.create(players, mission.id, tableau=tableau_from_data(data))
        pol = policy if drivers.kernel_plays(game, policy) else "greedy"
        rows = drivers.play_many(game, seeds, pol, threads=REPLAY_THREADS, cfg=ANALYTICS_COOP)
        rates[int(k)] = float(rows[:, layout.R_WON].mean())
        if rates[int(k)] <= target:
            break
    return rates


def best_bot(wt) -> str:
    """The policy with the highest mean win rate among the bots (a limit only if there is nothing else)."""
    means = wt.groupby("policy")["win_rate"].mean()
    bots = means[[p not in LIMIT_POLICIES for p in means.index]]
    return (bots if len(bots) else means).idxmax()


def results_rules_versions(df) -> list[int]:
    """The rules versions a results table was played under (files written before the column
    existed were all played under rules version 1)."""
    if "rules_version" not in df.columns:
        return [1]
    return sorted(int(v) for v in df["rules_version"].dropna().unique()) or [1]


def calibration_report(results, ladder: str | list[float] = "0.8,0.65,0.5,0.35,0.2", *, slow_replays: bool = True,
                       on_replay=None) -> dict:
    """The report (Markdown lines and their data) for a sweep's results. ``slow_replays``: also
    play the games of a bot in :data:`SLOW_REPLAYS` again for higher counts (minutes);
    ``on_replay(mission, players, key, counts)`` is told before each cell is played again."""
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
    best_policy = best_bot(wt)
    best = wt[wt["policy"] == best_policy]
    versions = results_rules_versions(df)
    players = pgettext("report column", "players")
    about = {"policy": best_policy, "policies": ", ".join(sorted(wt["policy"].unique())),
             "games": int(best["games"].sum()), "versions": ", ".join(map(str, versions)), "current": RULES_VERSION}
    if versions == [RULES_VERSION]:
        head = _("Policy: **{policy}** (the bot with the highest mean win rate among {policies}); {games} games; "
                 "rules version {versions}.").format(**about)
    else:
        head = _("Policy: **{policy}** (the bot with the highest mean win rate among {policies}); {games} games; "
                 "rules version {versions} (this program plays rules version {current}).").format(**about)
    lines = [_("# Calibration of the co-op tableaus"), "", head, "",
             _("## Win rate by mission and player count (95% interval)"), "",
             f"| {players} | " + " | ".join(f"M{m}" for m in range(1, 6)) + " | " + _("harder 1→5?") + " |",
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
    limits = sorted(p for p in wt["policy"].unique() if p in LIMIT_POLICIES)
    if limits:
        lines += _bots_and_bounds(wt, best_policy, limits[0])
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
            played = {}
            printed = getattr(tab, req.count).provenance == "rulebook"  # kept: never played again
            higher = est[current] > target and current < MAX_COUNT[req.kind] and not printed
            skipped = higher and not slow_replays and best_policy in SLOW_REPLAYS
            if higher and not skipped:  # more than now: play it
                if on_replay is not None:
                    on_replay(m, int(n), req.count, range(current + 1, MAX_COUNT[req.kind] + 1))
                seeds = [int(x) for x in sub["seed"]][:REPLAY_GAMES_BY_POLICY.get(best_policy, REPLAY_GAMES)]
                played = played_rates(best_policy, int(n), mission, req.count, range(current + 1, MAX_COUNT[req.kind] + 1),
                                      seeds, tab, target)
                est = {**est, **played}
            k_best = min(est, key=lambda k: (abs(est[k] - target), -k))
            suggestions.setdefault(int(n), {})[m] = {"key": req.count, "current": current,
                                                     "suggested": current if printed else k_best,
                                                     "estimates": est, "played": played, "target": target,
                                                     "printed": printed}
            if printed:
                cells.append(_("{key}={current} (printed in the rulebook: kept; now {share})").format(
                    key=req.count, current=current, share=pct(est[current])))
                continue
            note = ""
            if skipped:
                cells.append(_("{key}={current} (now {share}; higher counts are not played again here: "
                               "`nochmal calibrate` plays them)").format(key=req.count, current=current,
                                                                         share=pct(est[current])))
                continue
            if k_best in played:
                note = " " + _("(played again with {key}={count})").format(key=req.count, count=k_best)
            elif k_best == current and all(v > target for v in (played or est).values()):
                note = " " + _("(no count up to {most} is as hard)").format(most=MAX_COUNT[req.kind])
            cells.append(_("{key}={count} (now {current}, est. {share})").format(
                key=req.count, count=k_best, current=current, share=pct(est[k_best])) + note)
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    lines += ["", _("Estimates for lower counts assume the bots would have played the same way; higher counts "
                    "were played again with the same seeds. Values printed in the rulebook are kept. Verify a "
                    "suggested tableau with `nochmal sweep --tableau FILE`.")]
    return {"policy": best_policy, "win_table": best.to_dict(orient="records"), "harder": verdicts,
            "goals": goals, "suggestions": suggestions, "rules_versions": versions, "text": "\n".join(lines) + "\n"}


def _bots_and_bounds(wt, best_policy: str, limit: str) -> list[str]:
    """The report's table of every policy side by side per mission and player count, and how far
    the best bot is from the limit (percentage points)."""
    pols = [p for p in sorted(wt["policy"].unique()) if p not in LIMIT_POLICIES] + [limit]
    players = pgettext("report column", "players")
    lines = ["", _("## The bots and the perfect-dice bound (win rate, 95% interval)"), "",
             _("The bound (**{limit}**) knows the dice still to come: no team can beat it. The last column is how "
               "far the best bot (**{policy}**) is from it.").format(limit=limit, policy=best_policy), "",
             f"| {players} | " + pgettext("report column", "mission") + " | " + " | ".join(pols) + " | " +
             _("gap to the bound") + " |", "|---|---|" + "---|" * (len(pols) + 1)]
    cell = {(r["policy"], int(r["players"]), int(r["mission"])): r for r in wt.to_dict(orient="records")}
    for n in sorted(wt["players"].unique()):
        for m in sorted(wt["mission"].unique()):
            row = [cell.get((p, int(n), int(m))) for p in pols]
            if all(r is None for r in row):
                continue
            shown = ["–" if r is None else f"{pct(r['win_rate'])} ({pct(r['ci_low'])}–{pct(r['ci_high'])})"
                     for r in row]
            best, bound = cell.get((best_policy, int(n), int(m))), row[-1]
            gap = "–" if best is None or bound is None else \
                _("{points} points").format(points=round(100 * (bound["win_rate"] - best["win_rate"])))
            lines.append(f"| {n} | M{m} | " + " | ".join(shown) + f" | {gap} |")
    return lines
