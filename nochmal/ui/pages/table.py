"""Table: the game. A device that plays a seat (a phone) sees its own sheet first and only
what that seat must decide now; the host device is the mission leader's screen (turn track,
goals, who has entered, the penalty decisions, mission progress, every sheet) and can enter
for any seat (a table with one device)."""

import streamlit as st

from nochmal.bots.plan import team_plan
from nochmal.engine.game import CHANCE, TEAM
from nochmal.data.i18n import _, ngettext
from nochmal.ui import state
from nochmal.ui import lang
from nochmal.ui import botplay, entry, eventlog, sheetmarks
from nochmal.ui.actions import bots_play, roll_key, run_action, show_toast
from nochmal.ui.labels import game_title, kind_label, mission_name, seat_label
from nochmal.ui.games import game_ui
from nochmal.ui.layout import PAGES_DIR, follow_goto, game_or_stop
from nochmal.ui.panels import news as news_panel
from nochmal.ui.panels.advisor import advisor_panel, selection_ctx
from nochmal.ui.panels.decision import decision_panel
from nochmal.ui.panels.dice import dice_entry, dice_panel, roll_button, roll_dice_text
from nochmal.ui.panels.join import claim_prompt, join_panel, lobby_panel, seat_claim, takeover_prompts
from nochmal.ui.panels.mission import mission_panel
from nochmal.ui.panels.move_entry import move_controls, readonly_sheet, reset_picks
from nochmal.ui.panels.outcome import outcome_panel
from nochmal.ui.panels.score import running_score
from nochmal.ui.panels.seats import seat_sheets
from nochmal.ui.panels.team_plan import team_plan_panel
from nochmal.ui.panels.track import turn_track
from nochmal.ui.panels.undo import undo_button
from nochmal.ui.safe import md
from nochmal.ui.scroll import scroll_to_top
from nochmal.ui.style import phone_css

ss = st.session_state


def _let_bots_play() -> None:
    def do(ses, access):
        n = botplay.play_bots(ses)
        return ngettext("Bots made {n} move.", "Bots made {n} moves.", n).format(n=n) if n else _(
            "No bot has to move now.")

    run_action(do)


def _bots(ses, bots, kind) -> None:
    """Digital games: bots play their seats (automatically unless switched off)."""
    if not (kind == "digital" and any(bots) and not ses.state.is_terminal()):
        return
    auto = st.toggle(_("Bots play automatically"), key="auto-bots")
    if auto and botplay.bot_to_move(ses.state, bots, kind) is not None:
        bots_play(ses, botplay.play_bots)
    elif not auto:
        st.button(_("Let bots play"), key="bots-btn", icon="🤖", on_click=_let_bots_play,
                  disabled=botplay.bot_to_move(ses.state, bots, kind) is None)


def _fresh_selection(ses, gs, seat: int) -> None:
    """A new roll or another seat: start a fresh selection."""
    ctx = selection_ctx(ses.game_id, seat, gs)
    if ss.get("sel-ctx") != ctx:
        ss["sel-ctx"] = ctx
        state.set_selection([])
        reset_picks(seat)


def _roll_area(ses, gs, names, bots, kind, allowed: bool) -> None:
    """Entering the roll (companion) or rolling (digital)."""
    nc, nn = ses.game.dice_in_play(gs)
    roller = seat_label(names, gs.active)
    with st.container(border=True, key="dice-area"):
        if kind == "digital":
            if bots[gs.active]:
                st.info(_("{seat} 🤖 rolls next.").format(seat=roller))
            else:
                st.markdown(_("**{seat}** is active and rolls ({colours} colour + {numbers} number dice).").format(
                    seat=roller, colours=nc, numbers=nn))
                roll_button(allowed, roll_key(gs))
        else:
            st.caption(_("{seat} is active and rolls {colours} colour + {numbers} number dice.").format(
                seat=roller, colours=nc, numbers=nn))
            dice_entry(nc, nn, allowed, roll_key(gs))


def _who_waits(gs, names, bots, deciding) -> str:
    return ", ".join(seat_label(names, s) + (" 🤖" if bots[s] else "") for s in deciding)


def phone_view(ses, gs, names, bots, kind, seat: int) -> None:
    """A seat's own device: its sheet first, and only what this seat decides now."""
    st.html(phone_css())
    game = gs.game
    colourblind = bool(ss.get("colourblind"))
    if game.has_turn_track:
        where = _("Turn {turn}/{turns}").format(turn=min(gs.roll_index + 1, game.n_turns), turns=game.n_turns)
    elif game.n_rolls:
        where = _("Roll {roll}/{rolls}").format(roll=min(gs.roll_index + 1, game.n_rolls), rolls=game.n_rolls)
    else:
        where = _("Roll {roll}").format(roll=gs.roll_index + 1)
    if game.cooperative:
        where += " · " + _("{points} team points").format(points=game.team_points(gs))
    me = f"**{seat_label(names, seat)}**  \n{where}"
    deciding = entry.seats_to_decide(gs)
    marks = sheetmarks.column_marks(gs, seat)
    # the news of this roll and the last, beside the sheet of a seat that waits: a phone shows no
    # toasts (they would lie over its sheet, style.PHONE_CSS)
    rolls = [ev.seq for ev in eventlog.effective_events(ses.events) if getattr(ev, "type", "") == "roll"]
    since = rolls[-2] if len(rolls) > 1 else 0
    lost = game.cooperative and gs.is_terminal() and not gs.outcome().to_json().get("won")
    news = "".join(f"  \n{news_panel.icon(i, lost)} {md(i.text)}"
                   for i in reversed([i for i in news_panel.items(ses, names) if i.seq >= since][-2:]))
    with st.container(key="phone-sheet"):
        if gs.is_terminal():
            outcome_panel(gs, names)
            readonly_sheet(gs, seat, colourblind, marks=marks, status=me + "  \n" + _("The game is over."))
        elif gs.current_player() == CHANCE:
            if gs.active == seat and not bots[seat]:
                _roll_area(ses, gs, names, bots, kind, allowed=True)
                readonly_sheet(gs, seat, colourblind, marks=marks, status=me)
            else:
                readonly_sheet(gs, seat, colourblind, marks=marks,
                               status=me + "  \n" + _("Waiting for {seat} to roll.").format(
                                   seat=seat_label(names, gs.active)) + news)
        elif gs.current_player() == TEAM:
            readonly_sheet(gs, seat, colourblind, marks=marks, status=me + "  \n" + _(
                "A goal was missed: the team decides the penalty on the mission leader's screen.") + news)
        elif seat in deciding:
            _fresh_selection(ses, gs, seat)
            scroll_to_top(roll_key(gs))  # after the roll entry above it went, the sheet is in view
            role = _("active") if seat == gs.active and gs.phase == "active" else _("passive")
            move_controls(gs, seat, names, colourblind, marks=marks, own=True,
                          status=me + "  \n" + _("**Your turn** ({role})").format(role=role))
        else:
            waiting = (_("You are done this roll. Waiting for {seats}.") if gs.phase == "passive"
                       else _("Waiting for {seats}.")).format(seats=_who_waits(gs, names, bots, deciding))
            readonly_sheet(gs, seat, colourblind, marks=marks,  # this roll's dice: what the others decide on
                           status=me + "  \n" + waiting + "  \n" + roll_dice_text(gs) + news)
    running_score(gs, names, key="phone-score")  # base and solo: the score so far, under the sheet, as on paper
    state.show_flash()
    if not gs.is_terminal() and gs.current_player() not in (CHANCE, TEAM):
        with st.container(key="advisor-slot"):
            advisor_panel(ses, gs, [seat] if seat in deciding and not bots[seat] else [], names)
    with st.expander(_("The table: turn track, mission, the others' sheets") if game.cooperative
                     else _("The table: news and the others' sheets") if game.n_seats > 1 else _("News of the game")):
        if game.has_turn_track:
            turn_track(gs, names)
        if game.has_mission:
            mission_panel(game.progress(gs).to_json(), names)
        news_panel.news_list(ses, names)
        seat_sheets(gs, names, bots, skip=seat, recent=eventlog.recent_crosses(ses.events, game.n_seats),
                    colourblind=colourblind)
    undo_button(ses, "seat")
    # the phone's own settings: at hand, not inside "The table" (the sidebar's are hidden on a phone)
    state.colourblind_switch("colourblind-phone")
    st.toggle(_("Colour-blind mode (letters on cells)"), key="colourblind-phone", on_change=state.set_colourblind,
              args=("colourblind-phone",))
    with st.container(horizontal=True, key="phone-links"):
        st.page_link(str(PAGES_DIR / "start.py"), label=_("Start"), icon="🏁")
        st.page_link(str(PAGES_DIR / "history.py"), label=_("History"), icon="📜")
        lang.switch("lang-switch-phone")  # the sidebar's switch is hidden on a phone


def host_view(ses, gs, names, bots, kind, access: str) -> None:
    """The host's screen (a co-op game: the mission leader's); it enters for the seats without a
    phone of their own (one device for the table), and for a seat with a phone when asked."""
    game = gs.game
    events = ses.events
    if game.has_turn_track:
        turn_track(gs, names)
    elif game.n_rolls:
        st.markdown(_("**Roll {roll} of {rolls}**").format(roll=min(gs.roll_index + 1, game.n_rolls),
                                                            rolls=game.n_rolls))
    else:
        st.markdown(_("**Roll {roll}** · active: {seat}").format(roll=gs.roll_index + 1,
                                                                  seat=seat_label(names, gs.active)))
    if access == "host":
        join_box(ses, bots)  # right under the track: the phones join before the first roll
    if game.has_mission:
        with st.expander(_("Team plan")):
            team_plan_panel(team_plan(game), names, digital=kind == "digital", bots=bots)
    state.show_flash()
    if access == "host":
        takeover_prompts(ses)  # a device asks to take over a seat whose phone is still connected
    entry_seat = None
    claims = {int(k) for k in (ses.meta.get("claims") or {}) if str(k).isdigit()}
    deciding = entry.seats_to_decide(gs) if not gs.is_terminal() else []
    board, side = st.columns([3, 2])
    with board:  # what the table does now: the outcome, the penalty, the roll, or the dice in play
        if gs.is_terminal():
            outcome_panel(gs, names)
        elif gs.current_player() == TEAM:
            decision_panel(gs, names)
        elif gs.current_player() == CHANCE:
            _roll_area(ses, gs, names, bots, kind, allowed=True)
        else:
            with st.container(border=True, key="dice-area"):
                dice_panel(gs, names, bots, events)
        running_score(gs, names)  # base and solo: the score so far, as kept on paper
    with side:
        news_panel.news_strip(ses, names)
        if game.has_mission and not gs.is_terminal():
            with st.expander(_("Mission progress"), expanded=True):
                mission_panel(game.progress(gs).to_json(), names)
    if not (gs.is_terminal() or gs.current_player() in (CHANCE, TEAM)):
        mine = [s for s in deciding if not bots[s]]
        phones = [s for s in mine if s in claims]  # they decide on their own phones
        if ss.get("enter-phones-roll") != roll_key(gs):  # asked for one roll at a time
            ss["enter-phones-roll"] = roll_key(gs)
            ss["enter-phones"] = False
        offered = [s for s in mine if s not in claims or ss.get("enter-phones")]
        with st.container(key="advisor-slot"):  # one element whatever it shows: the entry below keeps its place
            advisor_panel(ses, gs, offered, names)
        if phones:
            with st.container(horizontal=True, key="phones-deciding", vertical_alignment="center"):
                st.caption(ngettext("📱 {seats} decides on their phone.", "📱 {seats} decide on their phones.",
                                    len(phones)).format(seats=", ".join(seat_label(names, s) for s in phones)))
                st.toggle(_("Enter for a seat with a phone"), key="enter-phones",
                          help=_("For a seat whose phone is away: its entry can also be made here."))
        if offered:
            default = next((s for s in offered if s not in claims), offered[0])
            if len(offered) > 1:
                if ss.get("entry-seat") not in offered:
                    ss["entry-seat"] = default
                entry_seat = st.segmented_control(_("Entering for"), offered, key="entry-seat", required=True,
                                                  format_func=lambda s: seat_label(names, s) + (" 📱" if s in claims else ""))
                if entry_seat is None:
                    entry_seat = default
            else:
                entry_seat = offered[0]
            _fresh_selection(ses, gs, entry_seat)
            who = seat_label(names, entry_seat)
            if game.n_seats == 1:  # solo: nobody else, so no active or passive role
                st.markdown(_("#### {seat} decides").format(seat=who))
            else:
                role = _("active") if entry_seat == gs.active and gs.phase == "active" else _("passive")
                st.markdown(_("#### {seat} decides ({role})").format(seat=who, role=role))
            move_controls(gs, entry_seat, names, bool(ss.get("colourblind")), marks=sheetmarks.column_marks(gs, entry_seat))
        elif not phones:
            st.info(_("Waiting for {seats}.").format(seats=_who_waits(gs, names, bots, deciding)))
    st.markdown(_("##### Sheets"))
    seat_sheets(gs, names, bots, skip=entry_seat, recent=eventlog.recent_crosses(events, game.n_seats),
                colourblind=bool(ss.get("colourblind")))
    undo_button(ses, access)


def join_box(ses, bots) -> None:
    """The lobby and the join codes, open before the first roll while a human seat has no device
    of its own; none in a game one person plays (solo, or one person against bots)."""
    if sum(1 for b in bots if not b) <= 1:
        return
    claims = {int(k) for k in (ses.meta.get("claims") or {}) if str(k).isdigit()}
    free = [i for i in range(ses.game.n_seats) if not bots[i] and i not in claims]
    label = (ngettext("📱 Join with phones — {n} seat free", "📱 Join with phones — {n} seats free", len(free))
             .format(n=len(free)) if free else _("📱 Join with phones"))
    with st.expander(label,
                     expanded=bool(free) and ses.state.roll_index == 0):
        lobby_panel(ses, key="table-lobby")
        join_panel(ses, key="table-join")


# ---- the page ------------------------------------------------------------------------------
follow_goto()
if "advisor-on" in ss:  # keep the advisor's switch while the page shows no roll to advise on
    ss["advisor-on"] = ss["advisor-on"]
ses, access = game_or_stop()
names = ses.seat_names
bots = ses.meta.get("bots") or [None] * ses.game.n_seats
kind = ses.meta.get("kind", "companion")
device_seat = state.my_seat()
own_ui = game_ui(ses.kind)  # a game with pages of its own (nochmal.ui.games); None: Noch mal!
show_toast()

if access == "seat" and device_seat is None:
    st.subheader(md(ses.title))
    with st.container(border=True):
        claim_prompt(ses)
        seat_claim(ses)
elif own_ui is not None:
    own_ui.table_page(ses, access, device_seat)
elif device_seat is not None:
    _bots(ses, bots, kind)
    phone_view(ses, ses.state, names, bots, kind, device_seat)
else:
    st.subheader(md(ses.title))
    facts = [game_title(ses.game), kind_label(kind)]
    if ses.game.has_mission:
        facts.append(_("mission {id}: {name}").format(id=ses.game.mission.id,
                                                      name=md(mission_name(ses.game.mission.name))))
    facts.append(_("this device: mission leader's screen, enters for every seat") if ses.game.cooperative
                 else _("this device: host, enters for every seat"))
    st.caption(" · ".join(facts))
    _bots(ses, bots, kind)
    host_view(ses, ses.state, names, bots, kind, access)

if own_ui is None:
    news_panel.announce_new(ses, names)
# the page follows the game through the sidebar's watcher (layout.sidebar, state.watch_game)
