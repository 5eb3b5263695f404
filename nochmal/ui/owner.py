"""The app owner's code: it guards the settings every game uses (user sheets, user tableaus,
imported sheet, tableau and game files). Reading stays open to everybody.

* The code is made when the server starts: ``nochmal serve`` makes it, prints it in its terminal
  and passes it in :data:`ENV_CODE`. Started any other way (``streamlit run app.py``), the app
  makes one at first use and prints it to the server's stderr, once per process.
* A browser on the machine itself (a loopback address) needs no code. With
  ``NOCHMAL_OWNER_LOCAL=code`` (``nochmal serve --code-on-localhost``) it needs the code too:
  for a reverse proxy on the same machine, where every client comes from a loopback address.
* Another device types the code once into the owner-code field of those pages (or opens the
  link ``/?owner=CODE`` that ``nochmal serve`` prints); it is remembered for that browser
  session. Codes are compared in constant time and wrong ones are throttled per client address
  (:class:`nochmal.store.access.Throttle`: 10 wrong in a minute, then a minute's wait).

Every write path calls :func:`refusal` in its callback (a hidden or disabled button is not the
guard), and shows :func:`owner_gate` where the field belongs.
"""

from __future__ import annotations

import ipaddress
import math
import os
import sys
import threading

import streamlit as st

from nochmal.data.i18n import _
from nochmal.store import access
from nochmal.ui.lifetime import for_the_process
from nochmal.cli.serve import OWNER_CODE_ENV as ENV_CODE
from nochmal.cli.serve import OWNER_LOCAL_ENV as ENV_LOCAL

#: Session-state keys: the code accepted for this browser session, the field, the last message.
SESSION_KEY = "owner_code"
ENTRY_KEY = "owner_code_entry"
MESSAGE_KEY = "owner_gate_message"
#: The query parameter of the link printed by ``nochmal serve``.
LINK_PARAM = "owner"

_lock = threading.Lock()
_made: list[str] = []  # the code this process made, if none was passed (at most one)


def _throttle() -> access.Throttle:
    """Wrong owner codes per client address, one counter for the whole server process (no
    client message can reset it: :mod:`nochmal.ui.lifetime`)."""
    return for_the_process("owner-code throttle", access.Throttle)


def owner_code() -> str:
    """The owner code of this server process (see the module doc)."""
    passed = os.environ.get(ENV_CODE, "").strip()
    if passed:
        return passed
    with _lock:
        if not _made:
            _made.append(access.new_token())
            port = st.get_option("server.port")
            print(f"nochmal: owner code for settings: {_made[0]} (on another device open "
                  f"http://<this computer's address>:{port}/?owner={_made[0]})", file=sys.stderr, flush=True)
        return _made[0]


def client_address() -> str | None:
    """The browser's address as Streamlit sees the connection (None: this machine, or no
    browser connection at all, as in a script run without a server, or AppTest's stand-in)."""
    address = st.context.ip_address
    return address if isinstance(address, str) else None


def is_local(address: str | None) -> bool:
    """Whether ``address`` is the machine itself (loopback; None = Streamlit's own loopback)."""
    if address is None or address == "localhost":
        return True
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)


def local_needs_code() -> bool:
    return os.environ.get(ENV_LOCAL, "trust").strip().lower() == "code"


def is_owner() -> bool:
    """Whether this browser may change the settings every game uses."""
    if not local_needs_code() and is_local(client_address()):
        return True
    given = st.session_state.get(SESSION_KEY)
    return isinstance(given, str) and access.codes_equal(given, owner_code())


def try_code(given: object) -> str | None:
    """Check a code typed on (or linked to) this browser; remembered for the session if right.
    Returns None if accepted, else what to tell the person."""
    given = str(given or "").strip()
    if not given:
        return _("Enter the owner code first.")
    key = ("owner", client_address() or "local")
    name, wait = _throttle().check(given, {"owner": owner_code()}, key)
    if name is not None:
        st.session_state[SESSION_KEY] = given
        return None
    if wait > 0:
        return _("Too many wrong owner codes from this device: wait {seconds} s, then try again. "
                 "Nothing was changed.").format(seconds=math.ceil(wait))
    return _("That is not the owner code (it was printed in the terminal where the app was started).")


def refusal(action: str) -> str | None:
    """None if this browser is the owner's, else the message a write callback shows instead of
    doing ``action`` (e.g. "Saving a user sheet", already in the page's language)."""
    if is_owner():
        return None
    return _("{action} needs the app owner's code on this device: enter it in the owner-code field on this "
             "page (it was printed in the terminal where the app was started). Nothing was changed.").format(
                 action=action)


def accept_link() -> None:
    """Take ``?owner=CODE`` out of the URL and try it (the link that ``nochmal serve`` prints).
    Called on every run of every page; the first one also makes (and prints) the code of a
    server that was started without one."""
    owner_code()
    if LINK_PARAM not in st.query_params:
        return
    given = st.query_params.get(LINK_PARAM, "")
    del st.query_params[LINK_PARAM]
    problem = try_code(given)
    st.toast(_("Owner link: {problem}").format(problem=problem) if problem else
             _("Owner code accepted: this browser may change sheets, tableaus and imports until it is closed."),
             icon="⚠️" if problem else "🔓")


def _entered() -> None:
    problem = try_code(st.session_state.get(ENTRY_KEY, ""))
    st.session_state[MESSAGE_KEY] = ("error", problem) if problem else (
        "success", _("Owner code accepted for this browser session."))


def _forget() -> None:
    st.session_state.pop(SESSION_KEY, None)
    st.session_state[MESSAGE_KEY] = ("success", _("This browser no longer holds the owner code."))


def _show_message() -> None:
    message = st.session_state.pop(MESSAGE_KEY, None)
    if message:
        kind, text = message
        (st.success if kind == "success" else st.error)(text)


def owner_gate(what: str) -> bool:
    """The owner-code field for a page whose ``what`` (e.g. "saving and deleting user sheets", in
    the page's language) needs the owner; returns whether this browser is the owner's. On the
    machine itself nothing is shown. Whatever it shows sits in one container, so the elements
    after it keep their place (a browser would otherwise reset the tabs below when the gate
    opens)."""
    owner = is_owner()
    with st.container(border=not owner, key="owner-gate"):
        if owner:
            if st.session_state.get(SESSION_KEY) and (local_needs_code() or not is_local(client_address())):
                c1, c2 = st.columns([4, 1], vertical_alignment="center")
                c1.caption(_("🔓 This browser holds the owner code: it may change the settings every game uses."))
                c2.button(_("Forget the code"), key="owner_forget", on_click=_forget)
            _show_message()
            return True
        st.markdown(_("🔒 **This device needs the app owner's code for {what}.** Reading stays open. The code was "
                      "printed in the terminal where the app was started.").format(what=what))
        with st.form("owner-form", clear_on_submit=True, border=False):
            c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
            c1.text_input(_("Owner code"), type="password", key=ENTRY_KEY, autocomplete="off")
            c2.form_submit_button(_("Unlock"), key="owner_unlock", on_click=_entered)
        _show_message()
    return False
