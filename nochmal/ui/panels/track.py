"""The co-op turn track (C-TRACK): whose turn each of the 27 fields is, the current turn, and
the team's points against the goals after turns 10, 19 and 27."""

from __future__ import annotations

import streamlit as st

from nochmal.engine.coop import turn_info
from nochmal.data.i18n import _
from nochmal.ui import sheetmarks
from nochmal.ui.safe import html_text

SEAT_COLOURS = ("#6a3d9a", "#1b7f79", "#8c564b", "#3949ab", "#7f7f7f", "#a6761d")  # turn-track seat colours


def turn_track(st_, names: list[str]) -> None:
    """C-TRACK: the 27 turn fields, one colour per seat, the current turn marked, and the
    team's points against the goals after turns 10, 19 and 27."""
    info = turn_info(st_)
    fields = sheetmarks.track_view(st_)
    boxes = []
    for f in fields:
        seat = f["seat"]
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        cur = f["status"] == "current" and not st_.is_terminal()
        style = (f"display:inline-block;min-width:22px;height:26px;line-height:26px;margin:1px;border-radius:4px;"
                 f"text-align:center;font:600 11px sans-serif;color:#fff;background:{colour};"
                 f"opacity:{'.45' if f['status'] == 'past' else '1'};"
                 f"{'outline:3px solid #d62728;outline-offset:1px;transform:scale(1.15);' if cur else ''}")
        title = (_("turn {turn}: {name} (now)") if cur else _("turn {turn}: {name}")).format(
            turn=f["turn"], name=names[seat])
        title = html_text(title)
        boxes.append(f'<span title="{title}" aria-label="{title}" style="{style}">{seat + 1}</span>')
        if "goal" in f:
            chk = f.get("check")
            if chk:
                bg = "#2e7d32" if chk["met"] else "#c62828"
                text = (_("{points}/{goal} met") if chk["met"] else _("{points}/{goal} missed")).format(
                    points=chk["points"], goal=chk["goal"])
            else:
                bg = "#444"
                text = _("goal {goal}: {points}").format(goal=f["goal"], points=info["team_points"])
            tip = html_text(_("goal after turn {turn}: team points / goal").format(turn=f["turn"]))
            boxes.append(f'<span title="{tip}" style="display:inline-block;'
                         f'margin:0 6px 0 4px;padding:0 6px;border-radius:10px;background:{bg};color:#fff;'
                         f'font:600 11px/20px sans-serif;vertical-align:middle">{html_text(text)}</span>')
    legend = " ".join(
        f'<span style="display:inline-block;width:12px;height:12px;border-radius:3px;background:'
        f'{SEAT_COLOURS[i % len(SEAT_COLOURS)]};vertical-align:middle"></span> {i + 1} {html_text(n)}'
        for i, n in enumerate(names))
    track_label = html_text(_("turn track"))
    st.html(f'<div class="nm-track" role="list" aria-label="{track_label}" style="line-height:32px">{"".join(boxes)}</div>'
            f'<div style="font:12px sans-serif;margin-top:2px">{legend}</div>')
    checks = st_.extra.get("checks", {})
    parts = [_("Turn **{turn} of {turns}**").format(turn=min(info["turn"], info["turns"]), turns=info["turns"]),
             _("team points **{points}**").format(points=info["team_points"])]
    for t in ("10", "19", "27"):
        c = checks.get(t)
        if c:
            pen = c.get("penalty")
            extra = ""
            if pen:
                if "removed_die" in pen:
                    die = pen["removed_die"]
                    extra = " → " + (_("a colour die left") if die == "colour" else _("a number die left")
                                     if die == "number" else _("a {die} die left").format(die=die))
                elif "jokers" in pen:
                    extra = " → " + (_("{jokers} \"!\" struck") if "per_seat" in pen
                                     else _("strike {jokers} \"!\" (team decision)")).format(jokers=pen["jokers"])
            parts.append((_("after {turn}: {points}/{goal} met") if c["met"] else _("after {turn}: {points}/{goal} missed"))
                         .format(turn=t, points=c["points"], goal=c["goal"]) + extra)
    st.caption(" · ".join(parts))

