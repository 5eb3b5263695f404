"""Changing a game from a widget: the callback body every control uses (:func:`run_action`),
which re-opens the game from the store, asks the engine, and shows the engine's answer.

Errors never escape as tracebacks: rule violations are shown with their rule id, store
problems with their message, and a position that changed under this device's eyes (another
device entered first) as a conflict.
"""

from __future__ import annotations

import streamlit as st

from nochmal.engine.errors import IllegalMoveError, InvalidInputError, NochmalError
from nochmal.data.i18n import N_, _
from nochmal.store.db import ConflictError, StoreError
from nochmal.store.errors import SeatTakenError
from nochmal.ui import changes, explain, state
from nochmal.ui.safe import md
from nochmal.ui.storeerror import store_error_text

#: the English text; pages show :func:`conflict_text` (in the page's language)
CONFLICT_TEXT = N_("Someone else entered first — refreshed. Check the table and enter again if needed.")


def conflict_text() -> str:
    """:data:`CONFLICT_TEXT` in the page's language."""
    return _("Someone else entered first — refreshed. Check the table and enter again if needed.")


def bots_play(ses, play) -> None:
    """Bots play their seats of a digital game now (``play(ses)``, the game's own bot driver),
    under a spinner. Another device moving first reloads the game and says so; a bot's refused
    move and a store that cannot be written (read-only, full, ...) are told in words, never with
    the store's path."""
    with st.spinner(_("Bots are playing…")):
        try:
            play(ses)
        except ConflictError:
            ses.refresh()
            st.warning(conflict_text())
        except NochmalError as err:
            st.error(_("A bot could not move: {error}").format(error=md(err)))
        except StoreError as err:
            st.error(store_error_text(err))


def open_or_say():
    """(session, access) of the game named in the URL, for a callback; None, with a message at
    the top, when this device's code no longer opens it."""
    opened = state.open_game()
    if opened is None:
        state.flash("error", _("This device has no game open any more (its code no longer opens it). "
                               "Open it again from Start."))
    return opened


def run_action(do, success: str | None = None, refusal: tuple[int, str] | None = None) -> None:
    """Callback body: open the game named in the URL, call ``do(ses, access)``, and report.
    Refused entries change nothing and are explained in words (the rule id only in a "why"
    detail). ``refusal=(seat, roll)``: an entry of that seat's sheet, whose refusal is shown
    next to the grid (:func:`refused_here`), and on a shared screen also as a toast rather than at
    the top; a seat's own phone shows no toast (it would lie over the sheet, issue 42, item 6)."""
    opened = open_or_say()
    if opened is None:
        return
    ses, access = opened
    st.session_state.pop("refusal", None)
    state.clear_flash()
    try:
        msg = do(ses, access)
    except ConflictError:
        state.set_selection([])
        state.flash("warning", conflict_text())
        return
    except (IllegalMoveError, InvalidInputError) as err:
        seat = refusal[0] if refusal else None
        sheet = ses.state.seats[seat].sheet if seat is not None and 0 <= seat < ses.game.n_seats else None
        r = explain.refusal(err, sheet)
        if refusal is not None:
            st.session_state["refusal"] = {"seat": refusal[0], "roll": refusal[1], "words": r.words, "why": r.why}
            if state.my_seat() is None:  # a phone: the refusal next to its grid is all it shows
                st.session_state["toast"] = r.words
        else:
            state.flash("error", _("Not allowed: {words}").format(words=md(r.words)))
        return
    except SeatTakenError as err:  # the store's text, in the page's language
        state.flash("error", md(_("seat {seat}: this seat was just claimed by another device — try again")
                                .format(seat=err.seat + 1)))
        return
    except NochmalError as err:
        state.flash("error", md(err))
        return
    except StoreError as err:  # read-only, full, ...: a sentence, never the store's path
        state.flash("error", store_error_text(err))
        return
    changes.poke(ses.game_id)  # the other devices' waiting requests look now
    state.set_selection([])
    if msg or success:
        state.flash("success", msg or success)


def refused_here(seat: int, roll: str) -> dict | None:
    """The refusal kept by :func:`run_action` for ``seat``'s entry in roll ``roll``, or None."""
    r = st.session_state.get("refusal")
    return r if isinstance(r, dict) and r.get("seat") == seat and r.get("roll") == roll else None


def show_toast() -> None:
    """The pending toast (a refused entry, an announcement), once."""
    text = st.session_state.pop("toast", None)
    if text:
        st.toast(md(text), icon="✋")


def need(cond: bool, text: str) -> None:
    """Refuse the action with ``text`` unless ``cond`` holds."""
    if not cond:
        raise InvalidInputError(text)


def who(access: str) -> str:
    """Who recorded an event, for the history: "host", "seat2" or "device"."""
    seat = state.my_seat()
    return "host" if access == "host" else f"seat{seat + 1}" if seat is not None else "device"


def roll_key(st_) -> str:
    """Names the roll a decision was made for (an undo and a new roll change it)."""
    return f"{st_.roll_index}|{st_.dice}"


def same_roll(ses, seen_roll: str) -> None:
    """Raise a conflict if the roll is no longer the one this device was shown."""
    if roll_key(ses.state) != seen_roll:  # another device entered first
        raise ConflictError(ses.game_id, 0, ses.n_events)
