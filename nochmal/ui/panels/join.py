"""Joining a game from another device: the host's join link and QR codes (one for the game, one
per free seat), the lobby (who plays which seat on which device), the seat a joined device
claims, and the per-seat link that claims its seat at once (``/?game=ID&join=TOKEN&claim=N``).

The join token and the ``claim`` number in a link are hostile input: the token opens the game
only through the throttled check (``state.open_game``), and ``claim`` must be the number of a
human seat of this game (1-6, digits only), else the link is refused and nothing changes."""

from __future__ import annotations

import os
import re
from argparse import ArgumentTypeError
from pathlib import Path
from urllib.parse import quote, urlsplit

import segno
import streamlit as st

from nochmal.engine.errors import NochmalError
from nochmal.data.i18n import _, pgettext
from nochmal.store.db import StoreError
from nochmal.ui.storeerror import store_error_text
from nochmal.store.claims import format_short_code
from nochmal.store.errors import ConsentNeededError, GameOverError, RequestPendingError, SeatTakenError
from nochmal.cli import serve
from nochmal.cli.serve import PUBLIC_URL_ENV
from nochmal.ui import device, state
from nochmal.ui.housekeeping import prefixed
from nochmal.ui.actions import need, run_action
from nochmal.ui.labels import leader, seat_label
from nochmal.ui.safe import code, html_text, md

#: The URL parameter of a per-seat link: the seat (counted from 1) to claim at once.
CLAIM_PARAM = "claim"
PAGES_DIR = Path(__file__).resolve().parents[1] / "pages"
_CLAIM_RE = re.compile(r"^[1-9][0-9]?$")


def _claimed(ses, seat: int, seat_code: str) -> str:
    """This device plays ``seat`` now: the URL carries the seat's code, the browser keeps it,
    the Table page opens on that seat's sheet."""
    ss = st.session_state
    state.set_game(ses.game_id, seat_code, seat)
    ss["my_seat"] = seat
    ss["takeover"] = None
    ss["takeover_wait"] = None
    ss["claim_note"] = None
    state.remember_seat(ses, seat_code, seat)
    state.goto("table")
    return _("This device now plays seat {seat}: {name}.").format(seat=seat + 1, name=md(ses.seat_names[seat]))


def ended_text() -> str:
    return _("This game has ended: its seats can no longer be claimed.")


def _claim_or_ask(ses, seat: int, seen: object) -> str | None:
    """Claim ``seat`` (compare-and-set against ``seen``, the holder this device was shown); a
    seat whose device is still connected becomes a request to the mission leader instead
    (:meth:`~nochmal.store.session.GameSession.request_takeover`): this device then waits for the
    answer (:func:`claim_prompt`). Returns the message to show."""
    ss = st.session_state
    try:
        seat_code = ses.claim_seat(seat, device.device_id(), seen=seen)
    except GameOverError:
        ss["takeover"] = None
        return ended_text()
    except ConsentNeededError:
        try:
            token = ses.request_takeover(seat, device.device_id(), seen=seen)
        except RequestPendingError:
            ss["takeover"] = None
            return _("Another device already asks to take over seat {seat}. Try again later.").format(seat=seat + 1)
        ss["takeover"] = None
        ss["takeover_wait"] = {"game": ses.game_id, "seat": seat, "token": token}
        return _("Asked the {leader} to let this device take over seat {seat}.").format(
            leader=leader(ses.game.cooperative), seat=seat + 1)
    return _claimed(ses, seat, seat_code)


def _claim(seat_key: str, seen: dict) -> None:
    seat = st.session_state.get(seat_key)

    def do(ses, access):
        need(access in ("seat", "host"), _("a join link or join code is needed to claim a seat"))
        need(seat is not None, _("choose a seat first"))
        # compare-and-set against the claims this device was shown: a seat claimed meanwhile
        # by another device gives "just claimed by another device — try again"
        return _claim_or_ask(ses, int(seat), seen.get(str(seat)))

    run_action(do)


# --------------------------------------------------------------------------- per-seat links
def parse_claim(raw: object, n_seats: int) -> int | None:
    """The seat (0-based) a link's ``claim`` value names, or None unless it is the number of a
    seat of a game with ``n_seats`` seats, written in digits ("2"; not "02", "+2", "2.0")."""
    if not isinstance(raw, str) or not _CLAIM_RE.match(raw):
        return None
    seat = int(raw) - 1
    return seat if 0 <= seat < n_seats else None


def claim_from_link(ses, access: str) -> None:
    """Handle a per-seat link (``&claim=N`` beside the join token) on the page that opened it:
    a free seat (or one this device holds) is claimed at once and the Table page opens on its
    sheet; a seat another device plays asks first (:func:`claim_prompt`); a ``claim`` that is no
    human seat of this game is refused with a message and changes nothing. The parameter is
    dropped from the URL either way (a reload does not claim again). Call after
    ``state.open_game()``, then ``layout.follow_goto()`` to switch to the Table page."""
    ss = st.session_state
    raw = st.query_params.get(CLAIM_PARAM)
    if raw is None:
        return
    del st.query_params[CLAIM_PARAM]
    if access != "seat" or state.my_seat() is not None or state.opened_with() != "join":
        return  # opened with the host's or a seat's own code: there is nothing to claim
    n = ses.game.n_seats
    if ses.state.is_terminal():
        ss["takeover"] = None
        ss["claim_note"] = {"game": ses.game_id, "text": ended_text()}
        return
    seat = parse_claim(raw, n)
    bots = ses.meta.get("bots") or [None] * n
    ss["takeover"] = None
    if seat is None:
        ss["claim_note"] = {"game": ses.game_id, "text": _("This link names no seat of this game (it has seats "
                                                          "1–{n}). Choose your seat below.").format(n=n)}
        return
    if seat < len(bots) and bots[seat]:
        ss["claim_note"] = {"game": ses.game_id,
                            "text": _("Seat {seat} is played by a bot. Choose your seat below.").format(seat=seat + 1)}
        return
    ss["claim_note"] = None
    holder = (ses.meta.get("claims") or {}).get(str(seat))
    if holder is not None and holder != device.device_id():
        ss["takeover"] = {"game": ses.game_id, "seat": seat, "seen": holder}
        return
    try:
        seat_code = ses.claim_seat(seat, device.device_id(), seen=holder)
    except GameOverError:
        ss["claim_note"] = {"game": ses.game_id, "text": ended_text()}
        return
    except SeatTakenError:  # claimed between this device's look and its claim
        ses.refresh()
        ss["takeover"] = {"game": ses.game_id, "seat": seat, "seen": (ses.meta.get("claims") or {}).get(str(seat))}
        return
    except (NochmalError, StoreError) as err:  # a store error: a sentence, never the store's path
        error = store_error_text(err) if isinstance(err, StoreError) else md(err)
        ss["claim_note"] = {"game": ses.game_id,
                            "text": _("Could not claim seat {seat}: {error}").format(seat=seat + 1, error=error)}
        return
    state.flash("success", _claimed(ses, seat, seat_code))


def _take_over(seat: int, seen: object) -> None:
    def do(ses, access):
        need(access in ("seat", "host"), _("a join link or join code is needed to claim a seat"))
        try:
            return _claim_or_ask(ses, seat, seen)
        except SeatTakenError:
            ses.refresh()
            st.session_state["takeover"] = {"game": ses.game_id, "seat": seat,
                                            "seen": (ses.meta.get("claims") or {}).get(str(seat))}
            raise

    run_action(do)


def _stop_waiting() -> None:
    st.session_state["takeover_wait"] = None


def _waiting(ses, key: str) -> None:
    """A device that asked to take over a seat: the mission leader's answer, fetched on every
    run (the page reruns when the game's requests change: ``state.watch_game``)."""
    ss = st.session_state
    w = ss.get("takeover_wait")
    if not (w and w.get("game") == ses.game_id) or state.my_seat() is not None:
        return
    seat = int(w["seat"])
    status, seat_code = ses.takeover_answer(seat, w.get("token"))
    if status == "pending":
        with st.container(key=f"{key}-waiting"):
            st.info(_("Waiting for the {leader}'s consent to take over seat {seat} ({name}) on this "
                      "device…").format(leader=leader(ses.game.cooperative), seat=seat + 1,
                                        name=md(ses.seat_names[seat])), icon="⏳")
            st.button(_("Stop asking"), key=f"{key}-stop-asking", on_click=_stop_waiting)
        return
    ss["takeover_wait"] = None
    if status == "allowed" and seat_code:
        state.flash("success", _claimed(ses, seat, seat_code))
        st.rerun()  # the Table page opens on the seat's sheet (follow_goto at the next run's start)
    elif status == "refused":
        ss["claim_note"] = {"game": ses.game_id, "text": _(
            "The {leader} refused to let this device take over seat {seat}.").format(
                leader=leader(ses.game.cooperative), seat=seat + 1)}
    else:
        ss["claim_note"] = {"game": ses.game_id, "text": _(
            "The request to take over seat {seat} lapsed. Ask again if you still need the seat.").format(
                seat=seat + 1)}


def claim_prompt(ses, key: str = "claim-link") -> None:
    """What a per-seat link left to say: its refusal, "Seat 2 (Bo) is played on another
    device — take it over?" with one button, or the wait for the mission leader's consent."""
    ss = st.session_state
    _waiting(ses, key)
    note = ss.get("claim_note")
    if note and note.get("game") == ses.game_id and state.my_seat() is None:
        st.error(note["text"])
        if ses.state.is_terminal():
            st.page_link(str(PAGES_DIR / "history.py"), label=_("View the game (read-only)"), icon="📜")
    t = ss.get("takeover")
    if t and t.get("game") == ses.game_id and state.my_seat() is None:
        seat = int(t["seat"])
        with st.container(key=f"{key}-takeover-box"):
            st.warning(_("Seat {seat} ({name}) is played on another device — take it over?").format(
                seat=seat + 1, name=md(ses.seat_names[seat])))
            st.button(_("Take over seat {seat}").format(seat=seat + 1), key=f"{key}-takeover", type="primary",
                      icon="📱", on_click=_take_over, args=(seat, t.get("seen")))


def seat_claim(ses, key: str = "claim-seat") -> None:
    """A device that joined (join link or short code) picks the seat it plays."""
    if ses.state.is_terminal():
        st.info(ended_text())
        st.page_link(str(PAGES_DIR / "history.py"), label=_("View the game (read-only)"), icon="📜")
        return
    w = st.session_state.get("takeover_wait")
    if w and w.get("game") == ses.game_id:
        return  # waiting for the mission leader's answer (claim_prompt)
    claims = dict(ses.meta.get("claims") or {})
    bots = ses.meta.get("bots") or [None] * ses.game.n_seats
    options = [i for i in range(ses.game.n_seats) if not bots[i]]
    if not options:
        st.info(_("Every seat of this game is a bot."))
        return

    def fmt(i: int) -> str:
        if str(i) in claims and claims[str(i)] != st.session_state["device"]:
            return _("{seat} (claimed by another device)").format(seat=seat_label(ses.seat_names, i))
        return seat_label(ses.seat_names, i)

    st.radio(_("Which seat do you play on this device?"), options, format_func=fmt, key=key, index=None)
    st.button(_("Claim this seat"), key=f"{key}-btn", type="primary", on_click=_claim, args=(key, claims))


# --------------------------------------------------------------------------- the host's answers
def _answer(seat: int, allow: bool) -> None:
    def do(ses, access):
        need(access == "host", _("only the {leader}'s screen answers take-over requests").format(leader=leader(ses.game.cooperative)))
        if not ses.answer_takeover(seat, allow):
            return _("That request was already answered or has lapsed.")
        if allow:
            return _("Seat {seat} ({name}) now plays on the new device; the old one was told.").format(
                seat=seat + 1, name=md(ses.seat_names[seat]))
        return _("Refused: seat {seat} ({name}) stays on its device.").format(seat=seat + 1,
                                                                              name=md(ses.seat_names[seat]))

    run_action(do)


def takeover_prompts(ses, key: str = "takeover-ask") -> None:
    """For the host screen: every device that asks to take over a seat whose phone is still
    connected, with Allow / Refuse."""
    for req in ses.takeover_requests():
        seat = req["seat"]
        with st.container(key=f"{key}-{seat}", border=True):
            st.warning(_("Device {id} asks to take over seat {seat} ({name}), which plays on device {holder}.").format(
                id=code(str(req["device"])[:6]), seat=seat + 1, name=md(ses.seat_names[seat]),
                holder=code(str(req.get("holder") or "")[:6])), icon="📱")
            with st.container(horizontal=True):
                st.button(_("Allow"), key=f"{key}-{seat}-allow", type="primary", on_click=_answer, args=(seat, True))
                st.button(_("Refuse"), key=f"{key}-{seat}-refuse", on_click=_answer, args=(seat, False))


def _renew() -> None:
    def do(ses, access):
        need(access == "host", _("only the {leader}'s screen renews the join link").format(leader=leader(ses.game.cooperative)))
        ses.renew_join_codes()
        return _("New join link and short join code: the old ones no longer open this game. Phones that "
                 "play a seat keep it.")

    run_action(do)


def _release(seat: int) -> None:
    def do(ses, access):
        need(access == "host", _("only the {leader}'s screen frees a seat").format(leader=leader(ses.game.cooperative)))
        ses.release_seat(seat)
        return _("Seat {seat} is free: its link plays it on the next device that opens it.").format(seat=seat + 1)

    run_action(do)


def join_link(ses, seat: int | None = None) -> str:
    """The join link: under ``nochmal serve --public-url`` that address; else as this browser
    reaches the app, under Streamlit's base URL path (just the path where it cannot tell); with
    ``seat`` (0-based) the link that claims that seat at once."""
    path = ses.join_url_path(seat) if seat is not None else ses.join_url_path()
    public = os.environ.get(PUBLIC_URL_ENV, "").strip()
    if public:
        try:
            return serve.public_url(public) + path
        except ArgumentTypeError:  # set by hand, not by nochmal serve: the browser's address instead
            pass
    path = prefixed(path)
    url = urlsplit(str(getattr(st.context, "url", None) or ""))
    if url.scheme in ("http", "https") and url.netloc:
        return f"{url.scheme}://{quote(url.netloc, safe=':[]@')}{path}"
    return path


#: Light modules around a QR code (the "quiet zone" a scanner needs to find it).
QR_BORDER = 3


def qr_modules(text: str) -> tuple[int, list[tuple[int, int]]]:
    """A QR code of ``text`` (segno, error correction M): its size in modules (quiet zone
    included) and the (x, y) of its dark modules."""
    rows = list(segno.make(text, error="m").matrix_iter(border=QR_BORDER))
    return len(rows), [(x, y) for y, row in enumerate(rows) for x, dark in enumerate(row) if dark]


def qr_html(text: str, label: str, module: int = 4) -> str:
    """A QR code of ``text`` as one small HTML element: a white square, and a module-sized box
    whose shadows are the dark modules (``module`` px each). The markup holds the modules only,
    never ``text``; ``label`` (its accessible name) is escaped. Plain ``div``s and styles, as
    every ``st.html`` of the app: no image, no SVG, no link."""
    size, dark = qr_modules(text)
    dots = ",".join(f"{x * module}px {y * module}px #000" for x, y in dark)
    return (f'<div class="nm-qr" role="img" aria-label="{html_text(label)}" style="position:relative;'
            f'width:{size * module}px;height:{size * module}px;background:#fff">'
            f'<div class="nm-qr-dots" style="position:absolute;left:0;top:0;width:{module}px;height:{module}px;'
            f'box-shadow:{dots}"></div></div>')


def qr_code(text: str, label: str, module: int = 4) -> None:
    """Show a QR code of ``text`` (:func:`qr_html`)."""
    st.html(qr_html(text, label, module), width="content")


def free_seats(ses) -> list[int]:
    """The human seats no device has claimed yet."""
    claims = ses.meta.get("claims") or {}
    bots = ses.meta.get("bots") or [None] * ses.game.n_seats
    return [i for i in range(ses.game.n_seats) if not bots[i] and str(i) not in claims]


def join_panel(ses, key: str) -> None:
    """For the host screen: a QR code of the game's join link (a phone that scans it picks its
    seat), the link and the short code to type instead, and for every free human seat its own
    QR code and link (a phone that scans it plays that seat at once)."""
    ses.ensure_codes()  # a game saved before join links: gets a link and an 8-letter code once
    link = join_link(ses)
    names = ses.seat_names
    with st.container(key=key):
        left, right = st.columns([1, 2], vertical_alignment="center")
        with left, st.container(key=f"{key}-qr"):
            qr_code(link, _("QR code of the join link"))
        with right:
            st.markdown(_("**Scan to join** — the phone then picks its seat. Or scan a seat's own code below: "
                          "that phone plays the seat at once."))
            with st.container(key=f"{key}-link"):
                st.code(link, language=None, wrap_lines=True)
            if (urlsplit(link).hostname or "") in ("localhost", "127.0.0.1", "::1"):
                st.caption(_("This browser reaches the app as *localhost*: a phone needs this computer's network "
                             "address in its place (start with `nochmal serve --host 0.0.0.0`)."))
            st.caption(_("Or type on **Start → Resume or join**: game id {id}, short join code {code}").format(
                id=code(ses.game_id), code=code(format_short_code(ses.meta.get("join_code")))))
            st.button(_("Renew join link and code"), key=f"{key}-renew", icon="🔄", on_click=_renew,
                      help=_("A new link and short code: the old ones stop working at once (phones that already "
                             "play a seat keep it)."))
        free = free_seats(ses)
        if not free:
            st.caption(_("Every human seat has a device."))
            return
        st.markdown(_("**Seats** — one code per free seat:"))
        # Every human seat keeps its card in the same place: a seat that a phone claims shows who
        # has it instead of its code, so the cards left do not jump while the table joins.
        claims = ses.meta.get("claims") or {}
        bots = ses.meta.get("bots") or [None] * ses.game.n_seats
        humans = [i for i in range(ses.game.n_seats) if not bots[i]]
        cols = st.columns(min(len(humans), 3))
        for j, seat in enumerate(humans):
            with cols[j % len(cols)], st.container(key=f"{key}-seat-{seat}", border=True):
                st.markdown(f"**{seat_label(names, seat)}**")
                if seat not in free:
                    st.markdown(_("📱 joined on {device}").format(device=device_label(claims.get(str(seat)))))
                    st.button(_("Free this seat"), key=f"{key}-seat-{seat}-free", type="tertiary",
                              on_click=_release, args=(seat,),
                              help=_("For a new phone: the seat's link plays it there at once, and the old "
                                     "device is told."))
                    continue
                url = join_link(ses, seat)
                with st.container(key=f"{key}-seat-{seat}-qr"):
                    qr_code(url, _("QR code that claims seat {seat}").format(seat=seat + 1), module=3)
                with st.container(key=f"{key}-seat-{seat}-link"):
                    st.code(url, language=None, wrap_lines=True)


def device_label(holder: object) -> str:
    """A claim's device as Markdown: "this device" or "device `3fa2c1`"."""
    if holder == device.device_id():
        return _("this device")
    return _("device {id}").format(id=code(str(holder)[:6]))


def lobby_panel(ses, key: str, links: bool = True) -> None:
    """Who plays which seat: claimed (by this device or another one, named by a short id), a
    bot, or free (with its per-seat link when ``links``: only for the host)."""
    claims = ses.meta.get("claims") or {}
    bots = ses.meta.get("bots") or [None] * ses.game.n_seats
    names = ses.seat_names
    with st.container(key=key):
        st.markdown(_("**Lobby**"))
        for i in range(ses.game.n_seats):
            free = not bots[i] and str(i) not in claims
            if bots[i]:
                status = _("🤖 {bot} bot").format(bot=md(bots[i]))
            elif str(i) in claims:
                status = f"📱 {device_label(claims[str(i)])}"
            else:
                status = pgettext("seat", "free")
            with st.container(key=f"{key}-seat-{i}", horizontal=True, vertical_alignment="center"):
                st.markdown(f"**{seat_label(names, i)}** · {status}")
                if links and free:
                    with st.popover(_("seat link"), type="tertiary", icon=":material/qr_code_2:",
                                    key=f"{key}-seat-{i}-pop"):
                        st.caption(_("Opened on a phone, this link plays seat {seat} there at once:").format(
                            seat=i + 1))
                        qr_code(join_link(ses, i), _("QR code that claims seat {seat}").format(seat=i + 1), module=3)
                        st.code(join_link(ses, i), language=None, wrap_lines=True)

