"""An uploaded data file (sheet or tableau) on its way in: who may import it, whether one was
chosen, its size, and how a refused file is reported (one error line per problem)."""

from __future__ import annotations

import streamlit as st

from nochmal.data import userdata
from nochmal.engine.sheet import MAX_DATA_FILE_BYTES
from nochmal.ui import owner
from nochmal.ui.safe import md


def checked_upload(upload_key: str, kind: str):
    """``(file, None)`` for the file uploaded under ``upload_key`` if it may be imported, else
    ``(None, message)``: not this app's owner, no file chosen, or a file over the size cap.
    ``kind`` names the file for people ("sheet", "tableau")."""
    refused = owner.refusal(f"Importing a {kind} file")
    if refused:
        return None, refused
    f = st.session_state.get(upload_key)
    if f is None:
        return None, f"Choose a {kind} file (.toml) first."
    if f.size > MAX_DATA_FILE_BYTES:
        return None, (f"{md(userdata.upload_label(f.name))}: {f.size:,} bytes, a {kind} file may have at most "
                      f"{MAX_DATA_FILE_BYTES:,} bytes ({MAX_DATA_FILE_BYTES // 1024} KiB). Nothing was saved.")
    return f, None


def refused_lines(err: Exception, name: str) -> list[str]:
    """The error lines of a refused file: where (the file or the field's path) and each problem."""
    where = md(getattr(err, "path", "") or userdata.upload_label(name))
    return [f"{where}: {md(p)} — nothing was saved." for p in userdata.problems_of(err)]
