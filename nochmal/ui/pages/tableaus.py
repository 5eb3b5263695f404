"""Tableaus: the mission tableau for 1–6 players, where every value comes from, and a form to
enter the printed values (saved as a user file that overrides the shipped stand-in)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from nochmal.data import userdata
from nochmal.engine.coopdata import N_TURNS, TABLEAU_KEYS, get_tableau, tableau_path
from nochmal.engine.errors import NochmalError
from nochmal.engine.sheet import MAX_DATA_FILE_BYTES
from nochmal.ui import owner
from nochmal.ui.explain import rule_why, strip_rule_ids
from nochmal.ui.safe import code, md
from nochmal.ui.uploads import checked_upload, refused_lines

ss = st.session_state
PLAYER_COUNTS = range(1, 7)


def input_keys(n: int) -> list[str]:
    return [f"tab{n}_{k}" for k in TABLEAU_KEYS] + [f"tab{n}_track"]


def init_inputs(n: int, spec) -> None:
    """The form starts from the values in force (keys are dropped after a save or reset)."""
    for k in TABLEAU_KEYS:
        ss.setdefault(f"tab{n}_{k}", spec.value(k) if spec else 0)
    ss.setdefault(f"tab{n}_track", " ".join(map(str, spec.track)) if spec else "")


def forget_inputs(n: int) -> None:
    for key in input_keys(n):
        ss.pop(key, None)


def problems(err: NochmalError) -> list[str]:
    """An error's problems as Markdown lines in words: the rule ids the engine cites are left out."""
    return [md(strip_rule_ids(p)) for p in userdata.problems_of(err)]


def save(n: int) -> None:
    refused = owner.refusal("Saving a tableau")
    if refused:
        ss[f"tab{n}_result"] = ("error", [refused])
        return
    try:
        track = userdata.parse_track_text(ss[f"tab{n}_track"])
        values = {k: int(ss[f"tab{n}_{k}"]) for k in TABLEAU_KEYS}
        path = userdata.save_user_tableau(n, values, track)
    except NochmalError as err:
        ss[f"tab{n}_result"] = ("error", problems(err))
        return
    forget_inputs(n)
    ss[f"tab{n}_result"] = ("success", f"Saved your tableau for {n} player(s) to {code(path)}; new games use it.")


def reset(n: int) -> None:
    refused = owner.refusal("Resetting a tableau")
    if refused:
        ss[f"tab{n}_result"] = ("error", [refused])
        return
    removed = userdata.delete_user_tableau(n)
    forget_inputs(n)
    ss[f"tab{n}_result"] = ("success", f"Removed your tableau for {n} player(s): the shipped stand-in is back."
                            if removed else "There was no user tableau to remove.")


def import_file() -> None:
    """Save the uploaded tableau file as the user's tableau for its player count."""
    f, problem = checked_upload("tableau_upload", "tableau")
    if problem:
        ss["tab_import_result"] = ("error", [problem])
        return
    try:
        path, spec = userdata.import_tableau_file(f.name, f.getvalue())
    except NochmalError as err:
        ss["tab_import_result"] = ("error", [strip_rule_ids(line) for line in refused_lines(err, f.name)])
        return
    forget_inputs(spec.players)
    ss["tab_import_result"] = ("success", [
        f"Imported {md(userdata.upload_label(f.name))} as your tableau for {spec.players} player(s) "
        f"(every value: provenance user); new games use it."])


def show_result(n: int) -> None:
    result = ss.pop(f"tab{n}_result", None)
    if result:
        kind, body = result
        for line in [body] if isinstance(body, str) else body:
            (st.success if kind == "success" else st.error)(line)


def show_source(n: int, spec) -> None:
    path = tableau_path(n)
    if userdata.tableau_source(n) == "user":
        st.info(f"**File: yours** — {code(path)}. These values were entered by you and override the shipped "
                f"stand-in ({code('missions/' + path.name)}).")
    elif spec is not None and any(getattr(spec, k).provenance == "derived" for k in TABLEAU_KEYS):
        st.warning(f"**File: shipped stand-in** — `missions/{path.name}`. Values marked *derived* are NOT the "
                   f"printed numbers (they are not public): they are scaled from the 3-player tableau. "
                   f"Enter your printed tableau below.")
    else:
        st.success(f"**File: shipped** — `missions/{path.name}`.")


def value_table(spec) -> None:
    rows = userdata.tableau_rows(spec)
    df = pd.DataFrame(rows, columns=["key", "value", "provenance", "meaning"])
    df["meaning"] = df["meaning"].map(strip_rule_ids)  # the rules stay in the form's tooltips
    st.table(df, hide_index=True)
    if spec.track:
        st.caption("Track (active seat each turn): " + " ".join(map(str, spec.track)))
    else:
        st.caption("Track: none given — the active seat goes round from seat 1.", help=rule_why("C-TRACK"))


def entry_form(n: int, is_user: bool) -> None:
    with st.form(f"tableau-form-{n}"):
        st.markdown(f"**Enter the printed tableau for {n} player(s)**")
        cols = st.columns(3)
        for j, k in enumerate(TABLEAU_KEYS):
            cols[j % 3].number_input(userdata.TABLEAU_KEY_LABEL[k], min_value=0, max_value=200, step=1,
                                     key=f"tab{n}_{k}", help=f"{k}: {userdata.TABLEAU_KEY_TEXT[k]}")
        st.text_input(f"Track (optional): the {N_TURNS} active seats, 1-based, separated by spaces",
                      key=f"tab{n}_track", placeholder="blank = round-robin from seat 1")
        st.form_submit_button("Save as my printed tableau", key=f"tab{n}_save", type="primary",
                              on_click=save, args=(n,), disabled=not may_change)
    st.button("Reset to the shipped stand-in", key=f"tab{n}_reset", on_click=reset, args=(n,),
              disabled=not (is_user and may_change), help="Deletes your file for this player count")


# --------------------------------------------------------------------------- the page
st.title("Mission tableaus")
st.markdown(
    "The co-op tableau sets the team goals and mission counts for each number of players. Only the "
    "3-player values in **bold** in the rulebook are public; every value says where it comes from:\n"
    f"- **rulebook** = {userdata.VALUE_PROVENANCE_TEXT['rulebook']}\n"
    f"- **derived** = {userdata.VALUE_PROVENANCE_TEXT['derived']}\n"
    f"- **user** = {userdata.VALUE_PROVENANCE_TEXT['user']}")

may_change = owner.owner_gate("saving, importing and resetting tableaus")
with st.expander("Import a tableau file (.toml)"):
    st.caption(f"A tableau file in the layout of `missions/tableau-N.toml`, at most {MAX_DATA_FILE_BYTES // 1024} KiB; "
               "its `players` says which player count it replaces. Every value must be a whole number; the file "
               "is checked first and a file that cannot be used is refused with nothing saved.")
    st.file_uploader("Tableau file", type=["toml"], key="tableau_upload", disabled=not may_change)
    st.button("Import tableau file", key="tableau_import", on_click=import_file, disabled=not may_change)
    result = ss.pop("tab_import_result", None)
    if result:
        for line in result[1]:
            (st.success if result[0] == "success" else st.error)(line)

tableaus, broken = {}, {}
for n in PLAYER_COUNTS:
    try:
        tableaus[n] = get_tableau(n)
    except NochmalError as err:
        broken[n] = err
if tableaus:
    st.plotly_chart(userdata.tableau_goals_figure(tableaus), config={"displayModeBar": False})

tabs = st.tabs([f"{n} player{'s' if n > 1 else ''}" for n in PLAYER_COUNTS])
for n, tab in zip(PLAYER_COUNTS, tabs):
    with tab:
        spec = tableaus.get(n)
        init_inputs(n, spec)
        show_result(n)
        show_source(n, spec)
        if n in broken:
            for problem in problems(broken[n]):
                st.error(f"This tableau file cannot be used: {problem}")
        else:
            value_table(spec)
        entry_form(n, userdata.tableau_source(n) == "user")
