"""The advisor: for each seat this device enters for, the best moves of this roll with their
estimate and reason, and a button that fills a suggestion in."""

from __future__ import annotations

import streamlit as st

from nochmal.engine.cells import COLOURS
from nochmal.engine.dice import COLOUR_JOKER, NUMBER_JOKER
from nochmal.engine.errors import NochmalError
from nochmal.ui import state
from nochmal.ui.actions import roll_key
from nochmal.ui.labels import colour_face_label, colour_label, number_face_label, pass_icon, pass_label, seat_label
from nochmal.ui.safe import md
from nochmal.ui.panels.move_entry import pick_keys, reset_picks

ADVICE_CACHE = "advice-cache"


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
        ss["selected_cells"] = list(cells)
        ss[kc], ss[kn] = cdie, ndie
        ss[kcol] = colour if cdie == COLOUR_JOKER else None
        state.flash("info", f"Advisor's move filled in: {text}. Press **Cross** to enter it.")
    else:
        ss["selected_cells"] = []
        reset_picks(seat)
        state.flash("info", f"The advisor suggests: {text}. Press the {text} button to enter it.")


def advice_for(ses, st_, seats: list[int]) -> dict[int, list]:
    """Suggestions per seat, cached in the session per (game id, number of events, seat)."""
    from nochmal.bots.advice import suggestions

    cache = st.session_state.get(ADVICE_CACHE) or {}
    cache = {k: v for k, v in cache.items() if k[:2] == (ses.game_id, ses.n_events)}  # drop old positions
    todo = [s for s in seats if (ses.game_id, ses.n_events, s) not in cache]
    if todo:
        budget = min(1.0, max(0.5, 2.0 / len(seats)))  # several seats: share the time
        with st.spinner("The advisor plays the game out with each candidate move…"):
            for seat in todo:
                cache[(ses.game_id, ses.n_events, seat)] = suggestions(st_, seat, k=3, rng_seed=ses.n_events,
                                                                       budget=budget)
    st.session_state[ADVICE_CACHE] = cache
    return {s: cache[(ses.game_id, ses.n_events, s)] for s in seats}


def suggestion_markdown(sug, game) -> str:
    """One suggestion as Markdown: the move, its estimate and the reason."""
    if sug.is_pass:
        move = f"{pass_icon(game)} **{game.pass_name}**"
    else:
        a = sug.action
        dice = colour_face_label(a.colour_die) + (f" as {COLOURS[a.colour]}" if a.colour_die == COLOUR_JOKER else "")
        num = number_face_label(a.number_die) + (f" as {a.count}" if a.number_die == NUMBER_JOKER else "")
        move = f"{colour_label(a.colour)} **{'-'.join(sug.cells)}** · dice {dice} + **{num}**"
    if sug.win_chance is not None:
        est = f"win chance **{round(100 * sug.win_chance)}%**"
        if sug.mission_share is not None and sug.win_chance < 1:
            est += f" · mission {round(100 * sug.mission_share)}% done on average"
    else:
        est = f"estimated final score **{sug.est_score:.1f}**"
    return f"{move}  \n{est} ({sug.rollouts} rollouts) — {sug.reason}"


def advisor_panel(ses, st_, seats: list[int], names: list[str]) -> None:
    """The advisor (off by default): for each seat this device enters for, the three best
    moves of this roll with their estimate and reason, each with a "Use" button."""
    on = st.toggle("Advisor: the best moves for this roll", key="advisor-on",
                   help="Suggests three moves per seat, each with its estimated win chance (co-op) or final score, "
                        "from games played out by the greedy bots. Takes a second or two per roll.")
    if not on:
        return
    if not seats:
        st.caption("The advisor has nothing to suggest to this device now (no seat of it decides).")
        return
    team = st_.game.cooperative
    try:
        by_seat = advice_for(ses, st_, seats)
    except NochmalError as err:
        st.error(f"The advisor could not look at this position: {md(err)}")
        return
    with st.container(border=True, key="advisor"):
        for seat in seats:
            role = "active" if seat == st_.active and st_.phase == "active" else "passive"
            st.markdown(f"**Advisor — {seat_label(names, seat)}** ({role})")
            ctx = selection_ctx(ses.game_id, seat, st_)
            for i, sug in enumerate(by_seat[seat]):
                cols = st.columns([9, 1], vertical_alignment="center")
                cols[0].markdown(f"**{i + 1}.** " + suggestion_markdown(sug, st_.game))
                a = sug.action
                if sug.is_pass:
                    args = (seat, [], None, None, None, ctx, pass_label(st_.game))
                else:
                    args = (seat, list(sug.cells), a.colour_die, a.number_die, a.colour, ctx,
                            f"{COLOURS[a.colour]} {'-'.join(sug.cells)}")
                cols[1].button("Use", key=f"advise-{seat}-{i}", on_click=_use_suggestion, args=args,
                               help="Fill this move in (cells and dice); you still press Cross")
        what = "the share of those games the team won" if team else "the seat's average final score in them"
        st.caption(f"How: after each candidate move the greedy bots play the game to its end several times, "
                   f"every move with the same dice; the estimate is {what}. Few rollouts: take it as a hint.")
