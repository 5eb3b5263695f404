"""Changing a game from a widget: the callback body every control uses (:func:`run_action`),
which re-opens the game from the store, asks the engine, and shows the engine's answer.

Errors never escape as tracebacks: rule violations are shown with their rule id, store
problems with their message, and a position that changed under this device's eyes (another
device entered first) as a conflict.
"""

from __future__ import annotations

import re

import streamlit as st

from nochmal.engine.errors import IllegalMoveError, InvalidInputError, NochmalError
from nochmal.store.db import ConflictError, StoreError
from nochmal.ui import state
from nochmal.ui.safe import md

CONFLICT_TEXT = "Someone else entered first — refreshed. Check the table and enter again if needed."


def run_action(do, success: str | None = None) -> None:
    """Callback body: open the game named in the URL, call ``do(ses, access)``, and report.
    Illegal moves are shown with their rule id and change nothing."""
    opened = state.open_game()
    if opened is None:
        state.flash("error", "No game is open on this device (or its code is wrong).")
        return
    ses, access = opened
    try:
        msg = do(ses, access)
    except ConflictError:
        st.session_state["selected_cells"] = []
        state.flash("warning", CONFLICT_TEXT)
        return
    except IllegalMoveError as err:
        reason = re.sub(r"^event \d+ \(\w+\): ", "", err.reason)  # the log position means nothing here
        state.flash("error", f"Not allowed — {md(err.rule)}: {md(reason)}")
        return
    except InvalidInputError as err:
        state.flash("error", f"Not accepted — {md(err)}")
        return
    except (NochmalError, StoreError) as err:
        state.flash("error", md(err))
        return
    st.session_state["selected_cells"] = []
    if msg or success:
        state.flash("success", msg or success)


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
