"""The advisor: for each seat this device enters for, the best moves of this roll, one short line
each in the players' words (:mod:`nochmal.ui.advice_words`) with the statistics under "Why?", and a
button that fills a suggestion in."""

from __future__ import annotations

import re

import streamlit as st

from nochmal.engine.dice import COLOUR_JOKER, NUMBER_JOKER
from nochmal.engine.errors import NochmalError
from nochmal.data.i18n import N_, _, ngettext, number, percent
from nochmal.ui import state
from nochmal.ui.advice_words import cells_words, headline, verdict
from nochmal.ui.actions import roll_key
from nochmal.ui.labels import (colour_face_label, colour_label, colour_name, colour_word, number_face_label, pass_icon,
                               pass_label, pass_word, seat_label, translated)
from nochmal.ui.safe import md
from nochmal.ui.panels.move_entry import pick_keys, reset_picks

ADVICE_CACHE = "advice-cache"

#: The phrases of a suggestion's reason (``nochmal.bots.advice``, English, joined by "; ") as
#: marked texts; each template is also the pattern its English phrase matches (a placeholder
#: matches what :data:`_PLACEHOLDER` says). A phrase none of them matches is shown as it is.
REASON_PHRASES = (
    # passing
    N_("no move with these dice"),
    N_("saves the dice for the others: they pick from all dice"),
    N_("no cross worth a die"),
    N_("nothing worth crossing"),
    N_("marks a failed roll ({count}/{boxes})"),
    N_("marks a failed roll ({count}/{boxes}): the team loses"),
    N_("a pass costs nothing"),
    # columns
    N_("completes column {column}, the next of {sequence}"),
    N_("column {column} comes too early for {sequence} (next: {next})"),
    N_("completes column {column} first (+{points})"),
    N_("completes column {column} (not first) (+{points})"),
    N_("column {column} (next of {sequence}) to {count}/7"),
    N_("column {column} to {count}/7"),
    # colours
    N_("completes {colour} for the mission ({have}/{needed} colours)"),
    N_("completes {colour}"),
    N_("completes {colour} first (+{points})"),
    N_("completes {colour} (not first) (+{points})"),
    N_("a second colour: the game ends after this roll"),
    N_("{colour} to {count}/{total}"),
    N_("{colour} to {count}/{total} (your plan colour)"),
    # rows, stars, number fields
    N_("fills row {row} for the mission"),
    N_("row {row} (your plan row) to {count}/{total}"),
    N_("a star in column {columns} for the mission"),
    N_("crosses a star (saves {points} points)"),
    N_("crosses {count} stars (saves {points} points)"),
    N_("fills number field {number} for the mission"),
    N_("number field {number} (your plan) to {count}/4"),
    # the others, the frontier, the rest
    N_("leaves seat {seat} no move (a failed roll)"),
    N_("leaves seats {seats} and {last} no move (a failed roll)"),
    N_("leaves every other seat a move"),
    N_("makes the {colour} cell reachable"),
    N_("makes the {colour} pair reachable"),
    N_("makes the {colour} block ({size} cells) reachable"),
    N_("opens {count} new cells"),
    N_("keeps the {colour} block reachable ({left} left)"),
    N_("{count} {colour} cell, a small step"),
    N_("{count} {colour} cells, a small step"),
    N_("spends {jokers} \"!\" ({left} left)"),
)
#: what each placeholder of :data:`REASON_PHRASES` matches in the English phrase
_PLACEHOLDER = {"colour": "yellow|green|blue|red|orange", "column": "[A-O]", "sequence": "[A-O](?:-[A-O])*",
                "columns": "[A-O](?:, [A-O])*", "next": r"\S+", "row": r"\S+", "seats": r"\d+(?:, \d+)*"}


def _phrase_pattern(template: str) -> re.Pattern:
    parts = re.split(r"\{(\w+)\}", template)
    out = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>{_PLACEHOLDER.get(p, r'-?[0-9]+')})"
                  for i, p in enumerate(parts))
    return re.compile(out)


_PHRASES = tuple((_phrase_pattern(t), t) for t in REASON_PHRASES)


def reason_text(reason: str) -> str:
    """A suggestion's reason (English phrases joined by "; ") in the language in force."""
    out = []
    for phrase in reason.split("; "):
        for pattern, template in _PHRASES:
            m = pattern.fullmatch(phrase)
            if m:
                values = {k: colour_word(v) if k == "colour" else v for k, v in m.groupdict().items()}
                out.append(translated(template).format(**values))
                break
        else:
            out.append(phrase)
    return "; ".join(out)


def selection_ctx(game_id: str, seat: int, st_) -> str:
    """Names the move being built (game, seat, roll): when it changes, the selection restarts."""
    return f"{game_id}|{seat}|{roll_key(st_)}"


def _use_suggestion(seat: int, cells: list[str], cdie, ndie, colour, ctx: str, text: str) -> None:
    """Fill the suggested move in (cells and dice pickers); the player still presses Cross."""
    ss = st.session_state
    ss["entry-seat"] = seat
    ss["sel-ctx"] = ctx  # keeps the page from starting a fresh selection for this seat
    kc, kn, kcol = pick_keys(seat)
    if cells:
        state.set_selection(cells)
        ss[kc], ss[kn] = cdie, ndie
        ss[kcol] = colour if cdie == COLOUR_JOKER else None
        state.flash("info", _("Advisor's move filled in: {move}. Press **Cross** to enter it.").format(move=text))
    else:
        state.set_selection([])
        reset_picks(seat)
        state.flash("info", _("The advisor suggests: {move}. Press the {move} button to enter it.").format(move=text))


def advice_for(ses, st_, seats: list[int]) -> dict[int, list]:
    """Suggestions per seat, cached in the session per (game id, number of events, seat)."""
    from nochmal.bots.advice import suggestions

    cache = st.session_state.get(ADVICE_CACHE) or {}
    cache = {k: v for k, v in cache.items() if k[:2] == (ses.game_id, ses.n_events)}  # drop old positions
    todo = [s for s in seats if (ses.game_id, ses.n_events, s) not in cache]
    if todo:
        budget = 1.0 / len(seats)  # several seats share the time of one (1-2 s in all)
        with st.spinner(_("The advisor plays the game out with each candidate move…")):
            for seat in todo:
                cache[(ses.game_id, ses.n_events, seat)] = suggestions(st_, seat, k=3, rng_seed=ses.n_events,
                                                                       budget=budget)
    st.session_state[ADVICE_CACHE] = cache
    return {s: cache[(ses.game_id, ses.n_events, s)] for s in seats}


def cells_text(game, sug) -> str:
    """A suggestion's cells as its seat's sheet names them (rows P-V on a co-op sheet: ``GT``, not ``G5``)."""
    return cells_words(game, sug)


def details_markdown(sug, game) -> str:
    """What stands behind a suggestion (its "Why?"): the dice, the estimate with its interval and the
    number of games played out, everything the move does."""
    if sug.is_pass:
        move = f"{pass_icon(game)} **{pass_word(game)}**"
    else:
        a = sug.action
        dice = colour_face_label(a.colour_die)
        if a.colour_die == COLOUR_JOKER:
            dice = _("{die} as {colour}").format(die=dice, colour=colour_name(a.colour))
        num = number_face_label(a.number_die)
        if a.number_die == NUMBER_JOKER:
            num = _("{die} as {number}").format(die=num, number=a.count)
        move = _("{colour} **{cells}** · dice {colour_die} + **{number_die}**").format(
            colour=colour_label(a.colour), cells=cells_text(game, sug), colour_die=dice, number_die=num)
    if sug.win_chance is not None:  # whole percents, rounded as before (then written as the language does)
        est = _("win chance **{percent}**").format(percent=percent(round(100 * sug.win_chance) / 100))
        if sug.win_low is not None and sug.win_high is not None:
            est += " " + _("(95% interval {low}–{high})").format(low=percent(round(100 * sug.win_low) / 100),
                                                                  high=percent(round(100 * sug.win_high) / 100))
        if sug.mission_share is not None and sug.win_chance < 1:
            est += " · " + _("mission {percent} done on average").format(
                percent=percent(round(100 * sug.mission_share) / 100))
    else:
        est = _("estimated final score **{score}**").format(score=number(float(f"{sug.est_score:.1f}"), 1))
    games = ngettext("{n} game played out after this move", "{n} games played out after this move",
                     sug.rollouts).format(n=sug.rollouts)
    return f"{move}  \n{est}  \n{games}  \n" + _("What it does: {reason}").format(reason=reason_text(sug.reason))


def advisor_panel(ses, st_, seats: list[int], names: list[str]) -> None:
    """The advisor (off by default): for each seat this device enters for, the best moves of this
    roll, one short line each (the move and why, in game terms) with a "Use" button and the
    statistics under "Why?"; moves the games played out cannot tell apart are said so once."""
    on = st.toggle(_("Advisor: the best moves for this roll"), key="advisor-on",
                   help=_("Suggests three moves per seat, each with what it does for the game, from games played "
                          "out by the greedy bots. Takes a second or two per roll."))
    if not on:
        return
    if not seats:
        st.caption(_("The advisor has nothing to suggest to this device now (no seat of it decides)."))
        return
    team = st_.game.cooperative
    try:
        by_seat = advice_for(ses, st_, seats)
    except NochmalError as err:
        st.error(_("The advisor could not look at this position: {error}").format(error=md(err)))
        return
    with st.container(border=True, key="advisor"):
        for seat in seats:
            role = _("active") if seat == st_.active and st_.phase == "active" else _("passive")
            st.markdown(_("**Advisor — {seat}** ({role})").format(seat=seat_label(names, seat), role=role))
            note = verdict(by_seat[seat])
            if note:
                st.markdown(f"*{note}*")
            ctx = selection_ctx(ses.game_id, seat, st_)
            for i, sug in enumerate(by_seat[seat]):
                cols = st.columns([4, 1], vertical_alignment="top")  # room for "Übernehmen" at 844 px
                cols[0].markdown(f"**{i + 1}.** " + headline(st_.game, sug, names))
                with cols[0].expander(_("Why?")):
                    st.markdown(details_markdown(sug, st_.game))
                a = sug.action
                if sug.is_pass:
                    args = (seat, [], None, None, None, ctx, pass_label(st_.game))
                else:
                    args = (seat, list(sug.cells), a.colour_die, a.number_die, a.colour, ctx,
                            f"{colour_name(a.colour)} {cells_text(st_.game, sug)}")
                cols[1].button(_("Use"), key=f"advise-{seat}-{i}", on_click=_use_suggestion, args=args,
                               help=_("Fill this move in (cells and dice); you still press Cross"))
        st.caption(_("How: after each candidate move the greedy bots play the game to its end many times, every "
                     "move with the same dice, and more often where the best moves are close; the estimate is "
                     "the share of those games the team won, and the interval how sure it is.") if team else
                   _("How: after each candidate move the greedy bots play the game to its end several times, "
                     "every move with the same dice; the estimate is the seat's average final score in them. "
                     "Few rollouts: take it as a hint."))
