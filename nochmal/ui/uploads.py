"""An uploaded data file (sheet, tableau or co-op set) on its way in: who may import it, whether one was
chosen, its size, and how a refused file is reported (one error line per problem)."""

from __future__ import annotations

import streamlit as st

from nochmal.data import userdata
from nochmal.engine.sheet import MAX_DATA_FILE_BYTES
from nochmal.data.i18n import _, number, pgettext
from nochmal.ui import owner
from nochmal.ui.safe import md


def _kind_word(kind: str) -> str:
    """The kind of file in the page's language ("sheet", "tableau", "set"; anything else as it is)."""
    if kind == "sheet":
        return pgettext("file kind", "sheet")
    if kind == "tableau":
        return pgettext("file kind", "tableau")
    if kind == "set":
        return pgettext("file kind", "co-op set")
    return kind


def checked_upload(upload_key: str, kind: str, limit: int = MAX_DATA_FILE_BYTES):
    """``(file, None)`` for the file uploaded under ``upload_key`` if it may be imported, else
    ``(None, message)``: not this app's owner, no file chosen, or a file over the size cap
    ``limit`` (bytes; a sheet or tableau file's unless given). ``kind`` names the file for people
    ("sheet", "tableau", "set")."""
    word = _kind_word(kind)
    refused = owner.refusal(_("Importing a {kind} file").format(kind=word))
    if refused:
        return None, refused
    f = st.session_state.get(upload_key)
    if f is None:
        return None, _("Choose a {kind} file (.toml) first.").format(kind=word)
    if f.size > limit:
        return None, _("{file}: {size} bytes, a {kind} file may have at most {limit} bytes ({kib} KiB). "
                       "Nothing was saved.").format(file=md(userdata.upload_label(f.name)), size=number(f.size),
                                                    kind=word, limit=number(limit), kib=limit // 1024)
    return f, None


def refused_lines(err: Exception, name: str) -> list[str]:
    """The error lines of a refused file: where (the file or the field's path) and each problem."""
    where = md(getattr(err, "path", "") or userdata.upload_label(name))
    return [_("{where}: {problem} — nothing was saved.").format(where=where, problem=md(p))
            for p in userdata.problems_of(err)]
