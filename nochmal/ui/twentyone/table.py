"""The Table page of a twenty one game. The host screen shows every sheet, the round, the dice,
who is still to enter and the end with the totals; it rolls (digital) or takes the physical roll
(six faces by colour), keeps or takes the second attempt, and enters for every seat without a
phone of its own. A phone that plays a seat sees its own sheet first and only its own controls.
Everything goes through the store (:class:`~nochmal.store.session.GameSession`): a reload loses
nothing. The engine refuses what the rules forbid; the refusal is shown at the seat's controls
in words, its rule id in a "why" detail."""

from __future__ import annotations

import streamlit as st

from nochmal.data.i18n import _, ngettext, pgettext
from nochmal.engine.errors import IllegalMoveError, InvalidInputError, NochmalError
from nochmal.engine.twentyone.actions import AGAIN, KEEP, CrossOut, Enter, Lot, Roll
from nochmal.engine.twentyone.components import COLOURS, KEPT_FACE
from nochmal.engine.twentyone.game import CHOOSE, LOT, SECOND
from nochmal.store.db import ConflictError, StoreError
from nochmal.store.errors import SeatTakenError
from nochmal.ui import changes, eventlog, state
from nochmal.ui.actions import bots_play, conflict_text, need, open_or_say, who
from nochmal.ui.labels import kind_label, seat_label, seat_text, translated
from nochmal.ui.layout import PAGES_DIR
from nochmal.ui.panels.join import join_panel, lobby_panel, takeover_prompts
from nochmal.ui.safe import md
from nochmal.ui.storeerror import store_error_text
from nochmal.ui.twentyone import bots as botplay
from nochmal.ui.twentyone.sheet import dice_html, sheet_html, sheets_html
from nochmal.ui.twentyone.refusals import refusal
from nochmal.ui.twentyone.words import die_colour, event_text, outcome_text, unfit_words

ss = st.session_state


def round_key(gs) -> str:
    """Names the position a control was drawn for: a decision made for an older one is a conflict."""
    return f"{gs.round_index}|{gs.phase}|{gs.first}|{gs.dice}"


# --------------------------------------------------------------------------- actions
def _run(do, seat: int | None = None) -> None:
    """Callback body: open the game, ``do(ses, access)``, report. A refusal changes nothing and is
    kept for the seat's controls (``seat``) or shown at the top."""
    opened = open_or_say()
    if opened is None:
        return
    ses, access = opened
    ss.pop("t21-refusal", None)
    state.clear_flash()
    try:
        msg = do(ses, access)
    except ConflictError:
        state.flash("warning", conflict_text())
        return
    except (IllegalMoveError, InvalidInputError) as err:
        r = refusal(err)
        ss["t21-refusal"] = {"seat": seat, "words": r.words, "why": r.why}
        if seat is None:
            state.flash("error", _("Not allowed: {words}").format(words=md(r.words)))
        return
    except SeatTakenError as err:
        state.flash("error", md(_("seat {seat}: this seat was just claimed by another device — try again")
                                .format(seat=err.seat + 1)))
        return
    except NochmalError as err:
        state.flash("error", md(err))
        return
    except StoreError as err:
        state.flash("error", store_error_text(err))
        return
    changes.poke(ses.game_id)
    if msg:
        state.flash("success", msg)


def _on_phone(ses, seat: int) -> bool:
    """Whether a phone plays ``seat`` (it enters for itself)."""
    return str(seat) in (ses.meta.get("claims") or {})


def _may_act(access: str, seat: int) -> bool:
    return access == "host" or state.my_seat() == seat


def _same(ses, seen: str) -> None:
    if round_key(ses.state) != seen:  # another device entered first
        raise ConflictError(ses.game_id, 0, ses.n_events)


def _roll(seen: str) -> None:
    def do(ses, access):
        _same(ses, seen)
        gs = ses.state
        need(_may_act(access, gs.active) or gs.phase == LOT, _("only the active seat's device rolls"))
        ses.roll_digital(by=who(access))
    _run(do)


def _lot(seen: str) -> None:
    def do(ses, access):
        _same(ses, seen)
        need(access == "host", _("only the host enters who won the draw"))
        seat = ss.get("t21-lot-seat")
        need(isinstance(seat, int), _("Choose the seat that won the draw for the first turn."))
        ses.record(Lot(seat), by=who(access))
    _run(do)


def _enter_roll(seen: str) -> None:
    def do(ses, access):
        _same(ses, seen)
        gs = ses.state
        need(_may_act(access, gs.active), _("only the active seat's device enters the roll"))
        faces = {}
        for c, colour in enumerate(COLOURS):
            face = ss.get(f"t21-face-{c}-{seen}")
            need(face is not None, _("Enter the face of the {colour} die.").format(colour=die_colour(c)))
            faces[colour] = face
        ses.record(Roll.parse(faces), by=who(access))
    _run(do, seat=-1)


def _choose(seen: str, again: bool) -> None:
    def do(ses, access):
        _same(ses, seen)
        gs = ses.state
        need(_may_act(access, gs.active), _("only the active seat decides on the second attempt"))
        ses.record(AGAIN if again else KEEP, seat=gs.active, by=who(access))
    _run(do, seat=-1)


def _enter(seat: int, seen: str) -> None:
    def do(ses, access):
        _same(ses, seen)
        need(_may_act(access, seat), _("this device enters only for its own seat"))
        picked = ss.get(f"t21-pick-{seat}-{seen}") or []
        need(bool(picked), _("Tap the dice to enter first (or cross out a field)."))
        try:
            ses.record(Enter.of(*picked), seat=seat, by=who(access))
        except IllegalMoveError as err:  # the engine refuses; say which dice and why, in words
            err.words = unfit_words(ses.state, seat, picked) or None
            raise
    _run(do, seat=seat)


def _cross(seat: int, seen: str, field: int) -> None:
    def do(ses, access):
        _same(ses, seen)
        need(_may_act(access, seat), _("this device enters only for its own seat"))
        ses.record(CrossOut(field), seat=seat, by=who(access))
    _run(do, seat=seat)


def _undo() -> None:
    def do(ses, access):
        ev = eventlog.last_effective_event(ses.events)
        need(ev is not None, _("nothing to undo"))
        need(access == "host" or (state.my_seat() is not None and getattr(ev, "seat", None) == state.my_seat()),
             _("this device may undo only its own seat's last entry"))
        ses.undo(by=who(access))
        return _("Undone: {event}").format(event=event_text(ev, ses.seat_names))
    _run(do)


def _let_bots_play() -> None:
    def do(ses, access):
        n = botplay.play_bots(ses)
        return ngettext("Bots made {n} move.", "Bots made {n} moves.", n).format(n=n) if n else None
    _run(do)


# --------------------------------------------------------------------------- panels
def _refusal_here(seat: int) -> None:
    r = ss.get("t21-refusal")
    if isinstance(r, dict) and r.get("seat") == seat:
        with st.container(key=f"t21-refused-{seat}"):
            st.error(_("Not allowed: {words}").format(words=md(r["words"])), icon="✋")
            with st.expander(_("Why?")):
                st.caption(md(r["why"]))


def _bots(ses, bots, digital) -> None:
    if not (digital and any(bots) and not ses.state.is_terminal()):
        return
    auto = st.toggle(_("Bots play automatically"), key="auto-bots")
    due = botplay.bot_to_move(ses.state, bots, digital) is not None
    if auto and due:
        bots_play(ses, botplay.play_bots)
    elif not auto:
        st.button(_("Let bots play"), key="t21-bots-btn", icon="🤖", on_click=_let_bots_play, disabled=not due)


def _roll_panel(ses, gs, names, bots, digital, access) -> None:
    """The round's dice: the lot, rolling or entering the physical roll, keep or second attempt."""
    seen = round_key(gs)
    active = seat_label(names, gs.active)
    mine = _may_act(access, gs.active) and not bots[gs.active]
    if access == "host" and _on_phone(ses, gs.active) and not ss.get("t21-enter-phones"):
        mine = False  # the active seat rolls and decides on its own phone
    with st.container(border=True, key="t21-dice-area"):
        if gs.phase == LOT:
            if digital:
                st.markdown(_("Lots are drawn for the first turn."))
                if access == "host" or not all(bots):
                    st.button(_("Draw lots"), key="t21-lot-btn", icon="🎲", type="primary", on_click=_roll,
                              args=(seen,))
            elif access == "host":
                st.selectbox(_("Who won the draw for the first turn?"), list(range(gs.game.n_seats)),
                             format_func=lambda s: seat_text(names, s), key="t21-lot-seat")
                st.button(_("Start with this seat"), key="t21-lot-btn", type="primary", on_click=_lot, args=(seen,))
            else:
                st.info(_("The host enters who won the draw for the first turn."))
            return
        if gs.is_chance_node():
            second = gs.phase == SECOND
            if second:
                st.markdown(_("**{seat}** takes the second attempt: the 1s stay.").format(seat=active))
                st.html(dice_html(gs.first.faces, kept=tuple(c for c, f in enumerate(gs.first.faces) if f == KEPT_FACE)))
            else:
                st.markdown(_("**{seat}** is active and rolls the six dice.").format(seat=active))
            if digital and bots[gs.active]:
                st.info(_("{seat} 🤖 rolls.").format(seat=active))
            elif digital and mine:
                st.button(_("Roll the second attempt") if second else _("Roll"), key="t21-roll-btn", icon="🎲",
                          type="primary", on_click=_roll, args=(seen,))
            elif mine:
                for c in range(len(COLOURS)):
                    key = f"t21-face-{c}-{seen}"
                    if second and gs.first.faces[c] == KEPT_FACE:
                        ss[key] = KEPT_FACE
                    st.segmented_control(die_colour(c).capitalize(), [1, 2, 3, 4, 5, 6], key=key,
                                         disabled=second and gs.first.faces[c] == KEPT_FACE)
                st.button(_("Enter the roll"), key="t21-roll-btn", type="primary", on_click=_enter_roll, args=(seen,))
                _refusal_here(-1)
            else:
                st.info(_("Waiting for {seat} to roll.").format(seat=active))
            _phone_toggle(ses, gs, access)
            return
        st.html(dice_html(gs.dice.faces))
        if gs.phase == CHOOSE:
            if mine:
                st.markdown(_("**{seat}**: keep this roll, or take the second attempt (the 1s stay, every other die "
                              "is rolled again)?").format(seat=active))
                with st.container(horizontal=True):
                    st.button(_("Keep"), key="t21-keep", type="primary", on_click=_choose, args=(seen, False))
                    st.button(_("Second attempt"), key="t21-again", on_click=_choose, args=(seen, True),
                              disabled=AGAIN not in gs.legal_actions())
                _refusal_here(-1)
            else:
                st.info(_("{seat} decides: keep the roll or take the second attempt.").format(seat=active))
            _phone_toggle(ses, gs, access)
        else:
            st.caption(_("The round's roll: every player enters from it."))


def _phone_toggle(ses, gs, access) -> None:
    """On the host: enter for the active seat although its phone plays it (a phone that is away)."""
    if access == "host" and _on_phone(ses, gs.active):
        st.toggle(_("Enter for a seat with a phone"), key="t21-enter-phones")


def _entry_controls(gs, seat: int, names) -> None:
    """A seat's entry: tap the dice (those that fit say where they go, and which are hits), then
    Enter; or cross out the leftmost free field."""
    seen = round_key(gs)
    fits = {f.colour: f for f in gs.fits(seat)}
    s = gs.seats[seat]

    def label(c: int) -> str:
        face = gs.dice.faces[c]
        if c in fits:
            text = _("{colour} {face} → field {field}").format(colour=die_colour(c), face=face, field=fits[c].field + 1)
            return text + " ★" + _("hit") if fits[c].hit else text
        return _("{colour} {face} (does not fit)").format(colour=die_colour(c), face=face)

    with st.container(border=True, key=f"t21-entry-{seat}"):
        st.markdown(_("**{seat}** enters in row {row}:").format(seat=seat_label(names, seat), row=s.row + 1))
        st.pills(_("Tap the dice to enter"), list(range(len(COLOURS))), selection_mode="multi", format_func=label,
                 key=f"t21-pick-{seat}-{seen}")
        if not fits:
            st.caption(_("No die fits this row: cross out a field."))
        field = gs.cross_field(seat)
        with st.container(horizontal=True):
            st.button(_("Enter"), key=f"t21-enter-{seat}", type="primary", on_click=_enter, args=(seat, seen))
            if field is not None:
                st.button(_("Cross out field {field}").format(field=field + 1), key=f"t21-cross-{seat}",
                          on_click=_cross, args=(seat, seen, field))
        _refusal_here(seat)


def _status(gs, names, bots) -> str:
    if gs.is_terminal():
        return _("The game is over.")
    line = _("Round {round} · active: {seat}").format(round=gs.round_index + 1, seat=seat_label(names, gs.active))
    if not gs.is_chance_node() and gs.phase != CHOOSE:
        waiting = ", ".join(seat_label(names, s) + (" 🤖" if bots[s] else "") for s in gs.pending)
        line += "  \n" + _("Still to enter: {seats}").format(seats=waiting)
    return line


def _sheets(gs, names, skip: int | None = None) -> None:
    shown = [s for s in range(gs.game.n_seats) if s != skip]
    if shown:
        st.html(sheets_html([sheet_html(gs, s, seat_text(names, s)) for s in shown]))


def undo_button(ses, access: str, key: str = "t21-undo") -> None:
    """Take back the last decision still in force (the host: any; a phone: its own seat's)."""
    ev = eventlog.last_effective_event(ses.events)
    if ev is None:
        return
    allowed = access == "host" or (state.my_seat() is not None and getattr(ev, "seat", None) == state.my_seat())
    st.button(_("Undo: {event}").format(event=event_text(ev, ses.seat_names)), key=key, icon="↩️",
              on_click=_undo, disabled=not allowed,
              help=_("Takes back the last decision still in force (the undo itself is kept in the history)"))


def _join_box(ses, bots) -> None:
    if sum(1 for b in bots if not b) <= 1:
        return
    claims = {int(k) for k in (ses.meta.get("claims") or {}) if str(k).isdigit()}
    free = [i for i in range(ses.game.n_seats) if not bots[i] and i not in claims]
    label = (ngettext("📱 Join with phones — {n} seat free", "📱 Join with phones — {n} seats free", len(free))
             .format(n=len(free)) if free else _("📱 Join with phones"))
    with st.expander(label, expanded=bool(free) and ses.state.round_index == 0 and not ses.state.history):
        lobby_panel(ses, key="table-lobby")
        join_panel(ses, key="table-join")


def host_view(ses, gs, names, bots, digital, access) -> None:
    st.subheader(md(ses.title))
    st.caption(" · ".join((translated(ses.kind.word), kind_label(ses.meta.get("kind", "companion")),
                           _("this device: host, enters for every seat"))))
    if access == "host":
        _join_box(ses, bots)
        takeover_prompts(ses)
    _bots(ses, bots, digital)
    gs = ses.state  # the bots may have moved
    state.show_flash()
    st.markdown(_status(gs, names, bots))
    if gs.is_terminal():
        with st.container(border=True, key="t21-outcome"):
            st.markdown(outcome_text(gs, names))
    else:
        _roll_panel(ses, gs, names, bots, digital, access)
        claims = {int(k) for k in (ses.meta.get("claims") or {}) if str(k).isdigit()}
        if not gs.is_chance_node() and gs.phase != CHOOSE:
            for seat in gs.pending:
                if bots[seat]:
                    continue
                if seat in claims and not ss.get("t21-enter-phones-entry"):
                    st.caption(_("📱 {seat} enters on their phone.").format(seat=seat_label(names, seat)))
                    continue
                _entry_controls(gs, seat, names)
            if any(s in claims for s in gs.pending):
                st.toggle(_("Enter for a seat with a phone"), key="t21-enter-phones-entry")
    st.markdown(pgettext("twenty one", "##### Sheets"))
    _sheets(gs, names)
    undo_button(ses, access)


def phone_view(ses, gs, names, bots, digital, seat: int) -> None:
    _bots(ses, bots, digital)
    gs = ses.state
    st.markdown(f"**{seat_label(names, seat)}** · " + _status(gs, names, bots))
    state.show_flash()
    if gs.is_terminal():
        with st.container(border=True, key="t21-outcome"):
            st.markdown(outcome_text(gs, names))
    else:
        if gs.is_chance_node() or gs.phase == CHOOSE or gs.active == seat:
            _roll_panel(ses, gs, names, bots, digital, "seat")
        else:
            st.html(dice_html(gs.dice.faces))
        if not gs.is_chance_node() and gs.phase != CHOOSE and seat in gs.pending:
            _entry_controls(gs, seat, names)
        elif not gs.is_chance_node() and gs.phase != CHOOSE:
            st.caption(_("You have entered this round."))
    st.html(sheet_html(gs, seat, seat_text(names, seat)))  # its own sheet first
    with st.expander(_("The other sheets")):
        _sheets(gs, names, skip=seat)
    undo_button(ses, "seat")
    with st.container(horizontal=True, key="phone-links"):
        st.page_link(str(PAGES_DIR / "start.py"), label=_("Start"), icon="🏁")
        st.page_link(str(PAGES_DIR / "history.py"), label=_("History"), icon="📜")


def table_page(ses, access: str, seat: int | None) -> None:
    """The page body for an open twenty one game (the host screen, or a phone's seat)."""
    names = ses.seat_names
    bots = ses.meta.get("bots") or [None] * ses.game.n_seats
    digital = ses.meta.get("kind") == "digital"
    if seat is not None:
        phone_view(ses, ses.state, names, bots, digital, seat)
    else:
        host_view(ses, ses.state, names, bots, digital, access)
