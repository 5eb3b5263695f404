"""The end of a game: won or lost and why, the scores, and (for a team) the goal checks and
the mission."""

from __future__ import annotations

import re

import streamlit as st

from nochmal.engine.coopdata import CHECK_TURNS
from nochmal.engine.ruleids import words_and_rules
from nochmal.data.i18n import N_, _, ngettext
from nochmal.ui.labels import colour_word, provenance_label, provenance_summary_words, translated
from nochmal.ui.safe import md
from nochmal.ui.panels.mission import mission_panel
from nochmal.ui.panels.score import seat_cell

#: R-SOLO-SCORE: the words of the solo rating bands (``nochmal.engine.game.SOLO_BANDS``)
SOLO_BAND_WORDS = {w: w for w in (
    N_("superhero"), N_("lucky or brilliant"), N_("professional level"), N_("excellent"), N_("very good"),
    N_("good run"), N_("experienced"), N_("good, can be better"), N_("getting there"), N_("not bad"),
    N_("needs practice"), N_("taking part is what counts"), N_("barely tried"))}


def _reason_text(rule: str | None, words: str) -> str | None:
    """The engine's end reasons (English, ``Game.roll_finished`` and the co-op game's ``_end``)
    in the language in force, told by the rule id they cite and their words; None for one
    not known here."""
    if rule == "C-FAIL" and words == "a third failed roll":
        return _("a third failed roll")
    if rule == "C-GOAL-27" and words == "a third failed roll at the final check":
        return _("a third failed roll at the final check")
    if rule == "C-WIN" and words == "mission complete":
        return _("mission complete")
    m = re.fullmatch(r"mission not complete after turn (\d+)", words)
    if rule == "C-LOSE" and m:
        return _("mission not complete after turn {turn}").format(turn=m[1])
    if rule in ("R-END", None) and words == "second colour completed":
        return _("second colour completed")
    m = re.fullmatch(r"(\d+) rolls played", words)
    if rule == "R-SOLO-LEN" and m:
        return _("{rolls} rolls played").format(rolls=m[1])
    return None


def reason_words(reason: str) -> tuple[str, list[str]]:
    """An engine end reason ("mission complete (C-WIN)") as words in the language in force (a
    reason not known here as the engine wrote it) and the rule ids it cites (for the "Why?"
    detail)."""
    words, rules = words_and_rules(reason)
    if len(rules) > 1:
        return words, rules
    text = _reason_text(rules[0] if rules else None, words)
    return (words if text is None else text), rules


def band_words(words: str) -> str:
    return translated(SOLO_BAND_WORDS[words]) if words in SOLO_BAND_WORDS else words


def _why(rules: list[str], extra: str = "") -> None:
    """The rule ids behind the ending, folded away in a "Why?" detail."""
    if rules or extra:
        with st.expander(_("Why?")):
            st.caption(" ".join(([ngettext("Rule {rules}.", "Rules {rules}.", len(rules)).format(
                rules=", ".join(rules))] if rules else []) + ([extra] if extra else [])))


def _penalty(pen: dict, turn: int, met: bool) -> str:
    """The penalty of a goal check in words ("—" for none: a bare "-" is drawn as a bullet)."""
    if not pen:
        # C-GOAL-27: the last check's penalty is a failed roll for every seat (kept on the seats)
        return _("a failed roll for every seat") if turn == CHECK_TURNS[-1] and not met else "—"
    if "removed_die" in pen:
        die = pen["removed_die"]
        if die == "colour":
            return _("a colour die removed")
        if die == "number":
            return _("a number die removed")
        return _("a {die} die removed").format(die=die)
    return _("{jokers} \"!\" struck").format(jokers=pen.get("jokers"))


def outcome_panel(st_, names: list[str]) -> None:
    """How the game ended: the team's result; a solo game's score and rating; or the scores and
    the winners."""
    out = st_.outcome().to_json()
    reason, rules = reason_words(out["reason"])
    with st.container(border=True, key="outcome"):
        if st_.game.cooperative:
            if out["won"]:
                st.success(_("🎉 The team WON — {reason} after {turns} turns.").format(
                    reason=md(reason), turns=out["turns"]))
            else:
                st.error(_("The team lost — {reason}.").format(reason=md(reason)))
            _why(rules)
            rows = []
            for t, c in sorted(out["checks"].items(), key=lambda kv: int(kv[0])):
                rows.append({_("after turn"): int(t), _("team points"): c["points"], _("goal"): c["goal"],
                             _("met"): _("yes") if c["met"] else _("no"),
                             _("penalty"): _penalty(c.get("penalty") or {}, int(t), c["met"])})
            if rows:
                st.table(rows)
            st.table([{_("seat"): seat_cell(names, i), _("failed rolls"): out["failed_rolls"][i],
                       _("\"!\" left"): out["jokers_left"][i], _("column points"): out["scores"][i]["columns"],
                       _("columns"): " ".join(out["scores"][i]["columns_completed"])}
                      for i in range(len(names))])
            st.caption(_("Team points now: {points}. Mission tableau: {tableau}; sheets: {sheets}.").format(
                points=out["team_points_now"], tableau=provenance_summary_words(out["tableau"]["provenance"]),
                sheets=", ".join(dict.fromkeys(provenance_label(p) for p in out["sheets_provenance"]))))
            mission_panel(out["mission"], names, over=True)
        elif len(out["scores"]) == 1:  # solo: a score and its rating, nobody to beat
            total = out["scores"][0]["total"]
            st.success(_("🏁 Game over after {rolls} rolls — {reason}. Your score: **{total}**").format(
                rolls=out["rolls"], reason=md(reason), total=total))
            _why(rules + ["R-SOLO-SCORE"] * bool(out.get("solo_band")))
        else:
            winners = ", ".join(md(names[w]) for w in out["winners"])
            text = (_("🏁 Game over after {rolls} rolls — {reason}. Winner: **{winners}**") if len(out["winners"]) == 1
                    else _("🏁 Game over after {rolls} rolls — {reason}. Winners: **{winners}**"))
            st.success(text.format(rolls=out["rolls"], reason=md(reason), winners=winners))
            _why(rules)
        if not st_.game.cooperative:
            st.table([{_("seat"): seat_cell(names, s["seat"]), _("colours"): s["colours"], _("columns"): s["columns"],
                       _("\"!\""): s["jokers"], _("stars"): s["stars"], _("total"): s["total"],
                       _("colours completed"): ", ".join(colour_word(c) for c in s["colours_completed"]),
                       _("columns completed"): " ".join(s["columns_completed"])} for s in out["scores"]])
            band = out.get("solo_band")
            if band:
                st.info(_("Solo rating: {stars} — {words} (band {band} of 13)").format(
                    stars="★" * band["stars"] or "—", words=band_words(band["words"]), band=band["band"] + 1))
