"""Table: the main screen — turn track, team plan, dice, the advisor, every seat's sheet, the
move entry, penalties, mission progress, undo and the outcome."""

import streamlit as st

from nochmal.ui import tableview as tv
from nochmal.engine.errors import NochmalError
from nochmal.engine.game import CHANCE, TEAM
from nochmal.bots.plan import team_plan
from nochmal.store.db import ConflictError, StoreError
from nochmal.ui import state
from nochmal.ui.actions import CONFLICT_TEXT, roll_key, run_action
from nochmal.ui.labels import seat_label
from nochmal.ui.layout import follow_goto, game_or_stop
from nochmal.ui.panels.advisor import advisor_panel, selection_ctx
from nochmal.ui.panels.decision import decision_panel
from nochmal.ui.panels.dice import dice_entry, dice_panel, roll_button
from nochmal.ui.panels.join import seat_claim
from nochmal.ui.panels.mission import mission_panel
from nochmal.ui.panels.move_entry import move_controls, reset_picks
from nochmal.ui.panels.outcome import outcome_panel
from nochmal.ui.panels.seats import seat_sheets, seat_status_html
from nochmal.ui.panels.team_plan import team_plan_panel
from nochmal.ui.panels.track import turn_track
from nochmal.ui.panels.undo import live_refresh, undo_button
from nochmal.ui.safe import md

ss = st.session_state


def _let_bots_play() -> None:
    def do(ses, access):
        n = tv.play_bots(ses)
        return f"Bots made {n} move{'s' * (n != 1)}." if n else "No bot has to move now."

    run_action(do)


follow_goto()
if "advisor-on" in ss:  # keep the advisor's switch while the page shows no roll to advise on
    ss["advisor-on"] = ss["advisor-on"]
ses, access = game_or_stop()
names = ses.seat_names
n_seats = ses.game.n_seats
bots = ses.meta.get("bots") or [None] * n_seats
kind = ses.meta.get("kind", "companion")
device_seat = state.my_seat()
colourblind = bool(ss.get("colourblind"))
game = ses.game

st.subheader(md(ses.title))
facts = [game.title, md(kind)]
if game.has_mission:
    facts.append(f"mission {game.mission.id} — {md(game.mission.name)}")
facts.append("this device: " + ("host, enters for every seat" if access == "host" else
                                f"seat {device_seat + 1} ({md(names[device_seat])})" if device_seat is not None
                                else "joined, no seat yet"))
st.caption(" · ".join(facts))
if access == "seat" and device_seat is None:
    with st.container(border=True):
        seat_claim(ses)

# ---- bots (digital games) ----------------------------------------------------------------
if kind == "digital" and any(bots) and not ses.state.is_terminal():
    auto = st.toggle("Bots play automatically", key="auto-bots")
    if auto and tv.bot_to_move(ses.state, bots, kind) is not None:
        with st.spinner("Bots are playing…"):
            try:
                tv.play_bots(ses)
            except ConflictError:
                ses.refresh()
                st.warning(CONFLICT_TEXT)
            except (NochmalError, StoreError) as err:
                st.error(f"A bot could not move: {md(err)}")
    elif not auto:
        st.button("Let bots play", key="bots-btn", icon="🤖", on_click=_let_bots_play,
                  disabled=tv.bot_to_move(ses.state, bots, kind) is None)

gs = ses.state  # the position (after any bot moves)
events = ses.events

# ---- where we are ------------------------------------------------------------------------
if game.has_turn_track:
    turn_track(gs, names)
elif game.n_rolls:
    st.markdown(f"**Roll {min(gs.roll_index + 1, game.n_rolls)} of {game.n_rolls}**")
else:
    st.markdown(f"**Roll {gs.roll_index + 1}** · active: {seat_label(names, gs.active)}")

if game.has_mission:
    with st.expander("Team plan", expanded=gs.roll_index == 0 and not gs.is_terminal()):
        team_plan_panel(team_plan(game), names, digital=kind == "digital", bots=bots)

state.show_flash()
entry_seat = None

if gs.is_terminal():
    outcome_panel(gs, names)
elif gs.current_player() == TEAM:
    if access == "host" or device_seat is not None:
        decision_panel(gs, names)
    else:
        st.info("The team decides a penalty now.")
elif gs.current_player() == CHANCE:
    nc, nn = game.dice_in_play(gs)
    roller = seat_label(names, gs.active)
    allowed = access == "host" or device_seat == gs.active
    with st.container(border=True, key="dice-area"):
        if kind == "digital":
            if bots[gs.active]:
                st.info(f"{roller} 🤖 rolls next.")
            else:
                st.markdown(f"**{roller}** is active and rolls ({nc} colour + {nn} number dice).")
                roll_button(allowed, roll_key(gs))
        else:
            st.caption(f"{roller} is active and rolls {nc} colour + {nn} number dice.")
            dice_entry(nc, nn, allowed, roll_key(gs))
else:
    with st.container(border=True, key="dice-area"):
        dice_panel(gs, names, bots, events)
    deciding = tv.seats_to_decide(gs)
    mine = [s for s in deciding if tv.can_enter(access, device_seat, s) and not bots[s]]
    with st.container(key="advisor-slot"):  # one element whatever it shows: the entry below keeps its place
        advisor_panel(ses, gs, mine, names)
    if mine:
        if len(mine) > 1:
            if ss.get("entry-seat") not in mine:
                ss["entry-seat"] = mine[0]
            entry_seat = st.segmented_control("Entering for", mine, key="entry-seat", required=True,
                                              format_func=lambda s: seat_label(names, s))
            if entry_seat is None:
                entry_seat = mine[0]
        else:
            entry_seat = mine[0]
        ctx = selection_ctx(ses.game_id, entry_seat, gs)
        if ss.get("sel-ctx") != ctx:  # a new roll or another seat: start a fresh selection
            ss["sel-ctx"] = ctx
            ss["selected_cells"] = []
            reset_picks(entry_seat)
        role = "active" if entry_seat == gs.active and gs.phase == "active" else "passive"
        st.markdown(f"#### {seat_label(names, entry_seat)} decides ({role})")
        move_controls(gs, entry_seat, names, colourblind)
        st.html(seat_status_html(gs, entry_seat))
    else:
        waiting = ", ".join(seat_label(names, s) + (" 🤖" if bots[s] else "") for s in deciding)
        st.info(f"Waiting for {waiting}.")

# ---- every seat ----------------------------------------------------------------------------
st.markdown("##### Sheets")
seat_sheets(gs, names, bots, skip=entry_seat, recent=tv.recent_crosses(events, n_seats),
                    colourblind=colourblind)

if game.has_mission and not gs.is_terminal():
    with st.expander("Mission progress", expanded=True):
        mission_panel(game.progress(gs).to_json(), names)

undo_button(ses, access)
live_refresh(ses.game_id, ses.n_events)
