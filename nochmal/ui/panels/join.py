"""Joining a game from another device: the host's join link and short code, and the seat a
joined device claims."""

from __future__ import annotations

from urllib.parse import urlsplit

import streamlit as st

from nochmal.store.session import format_short_code
from nochmal.ui import state
from nochmal.ui.actions import need, run_action
from nochmal.ui.labels import seat_label
from nochmal.ui.safe import code, md


def _claim(seat_key: str, seen: dict) -> None:
    seat = st.session_state.get(seat_key)

    def do(ses, access):
        need(access in ("seat", "host"), "a join link or join code is needed to claim a seat")
        need(seat is not None, "choose a seat first")
        # compare-and-set against the claims this device was shown: a seat claimed meanwhile
        # by another device gives "just claimed by another device — try again"
        seat_code = ses.claim_seat(int(seat), st.session_state["device"], seen=seen.get(str(seat)))
        state.set_game(ses.game_id, seat_code, int(seat))
        st.session_state["my_seat"] = int(seat)
        state.goto("table")
        return f"This device now plays seat {int(seat) + 1}: {md(ses.seat_names[int(seat)])}."

    run_action(do)


def seat_claim(ses, key: str = "claim-seat") -> None:
    """A device that joined (join link or short code) picks the seat it plays."""
    claims = dict(ses.meta.get("claims") or {})
    bots = ses.meta.get("bots") or [None] * ses.game.n_seats
    options = [i for i in range(ses.game.n_seats) if not bots[i]]
    if not options:
        st.info("Every seat of this game is a bot.")
        return

    def fmt(i: int) -> str:
        taken = " (claimed by another device)" if str(i) in claims and claims[str(i)] != st.session_state["device"] else ""
        return f"{seat_label(ses.seat_names, i)}{taken}"

    st.radio("Which seat do you play on this device?", options, format_func=fmt, key=key, index=None)
    st.button("Claim this seat", key=f"{key}-btn", type="primary", on_click=_claim, args=(key, claims))


def join_link(ses) -> str:
    """The join link as this browser reaches the app (just the path where it cannot tell)."""
    path = ses.join_url_path()
    url = urlsplit(str(getattr(st.context, "url", None) or ""))
    return f"{url.scheme}://{url.netloc}{path}" if url.scheme in ("http", "https") and url.netloc else path


def join_info(ses, key: str) -> None:
    """For the host: the join link (to open on another device, where it is ready to claim a
    seat) and the short join code (to type instead, on Start → Resume or join)."""
    ses.ensure_codes()  # a game saved before join links: gets a link and an 8-letter code once
    link = join_link(ses)
    st.caption("**Join link** for another device (opens the game there, ready to claim a seat):")
    with st.container(key=f"{key}-link"):
        st.code(link, language=None, wrap_lines=True)
    if (urlsplit(link).hostname or "") in ("localhost", "127.0.0.1", "::1"):
        st.caption("This browser reaches the app as *localhost*: on a phone, put this computer's network "
                   "address in its place.")
    st.caption(f"Or type on **Start → Resume or join**: game id {code(ses.game_id)}, short join code "
               f"{code(format_short_code(ses.meta.get('join_code')))}")

