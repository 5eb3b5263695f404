"""Tableaus: the mission tableau for 1–6 players, where every value comes from, and a form to
enter the printed values (saved as a user file that overrides the shipped stand-in)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from nochmal.data import userdata
from nochmal.engine.coopdata import N_TURNS, TABLEAU_KEYS, get_tableau, tableau_path
from nochmal.engine.errors import NochmalError
from nochmal.engine.sheet import MAX_DATA_FILE_BYTES
from nochmal.data.i18n import _, ngettext, pgettext
from nochmal.data.provenance import value_meaning
from nochmal.ui.labels import provenance_label
from nochmal.ui import owner
from nochmal.ui.explain import rule_why, strip_rule_ids
from nochmal.ui.safe import code, md
from nochmal.ui.uploads import checked_upload, refused_lines

ss = st.session_state
PLAYER_COUNTS = range(1, 7)


def value_provenance_text(provenance: str) -> str:
    """What a value's provenance means, in the page's language (an unknown one: the word)."""
    return value_meaning(provenance)


def key_text(k: str) -> str:
    """What tableau value ``k`` means (``userdata.TABLEAU_KEY_TEXT``) in the page's language."""
    return {
        "goal_10": _("team points needed after turn 10 ({rule})").format(rule="C-GOAL-10"),
        "penalty_10_jokers": _('"!" struck in total if the turn-10 goal is missed ({rule})').format(rule="C-GOAL-10"),
        "goal_19": _("team points needed after turn 19, else one die leaves ({rule})").format(rule="C-GOAL-19"),
        "goal_27": _('team points + unused "!" needed after turn 27, else a failed roll each ({rule})').format(
            rule="C-GOAL-27"),
        "m1_colours": _("mission 1: different colours to complete"),
        "m2_rows": _("mission 2: different rows P–V to fill"),
        "m3_colours": _("mission 3: colours besides a star in every column"),
        "m4_rows": _("mission 4: rows besides every number field"),
        "m5_colours": _("mission 5: colours besides N-O-C-H-M-A-L"),
    }.get(k) or userdata.TABLEAU_KEY_TEXT.get(k, k)


def key_label(k: str) -> str:
    """The short label of tableau value ``k`` (``userdata.TABLEAU_KEY_LABEL``) in the page's language."""
    return {
        "goal_10": _("Goal after turn 10"),
        "penalty_10_jokers": _('"!" struck if missed'),
        "goal_19": _("Goal after turn 19"),
        "goal_27": _("Goal after turn 27"),
        "m1_colours": _("M1 colours"),
        "m2_rows": _("M2 rows"),
        "m3_colours": _("M3 colours"),
        "m4_rows": _("M4 rows"),
        "m5_colours": _("M5 colours"),
    }.get(k) or userdata.TABLEAU_KEY_LABEL.get(k, k)


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
    refused = owner.refusal(_("Saving a tableau"))
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
    ss[f"tab{n}_result"] = ("success", _("Saved your tableau for {n} player(s) to {path}; new games use it.").format(
        n=n, path=code(path)))


def reset(n: int) -> None:
    refused = owner.refusal(_("Resetting a tableau"))
    if refused:
        ss[f"tab{n}_result"] = ("error", [refused])
        return
    removed = userdata.delete_user_tableau(n)
    forget_inputs(n)
    text = (_("Removed your tableau for {n} player(s): the shipped stand-in is back.").format(n=n) if removed
            else _("There was no user tableau to remove."))
    ss[f"tab{n}_result"] = ("success", text)


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
        _("Imported {file} as your tableau for {n} player(s) (every value: provenance user); new games use it.").format(
            file=md(userdata.upload_label(f.name)), n=spec.players)])


def show_result(n: int) -> None:
    result = ss.pop(f"tab{n}_result", None)
    if result:
        kind, body = result
        for line in [body] if isinstance(body, str) else body:
            (st.success if kind == "success" else st.error)(line)


def show_source(n: int, spec) -> None:
    path = tableau_path(n)
    if userdata.tableau_source(n) == "user":
        st.info(_("**File: yours** — {path}. These values were entered by you and override the shipped "
                  "stand-in ({shipped}).").format(path=code(path), shipped=code("missions/" + path.name)))
    elif spec is not None and any(getattr(spec, k).provenance == "derived" for k in TABLEAU_KEYS):
        st.warning(_("**File: shipped stand-in** — `missions/{file}`. Values marked *derived* are NOT the "
                     "printed numbers (they are not public): they are scaled from the 3-player tableau. "
                     "Enter your printed tableau below.").format(file=path.name))
    else:
        st.success(_("**File: shipped** — `missions/{file}`.").format(file=path.name))


def value_table(spec) -> None:
    rows = userdata.tableau_rows(spec)
    df = pd.DataFrame(rows, columns=["key", "value", "provenance", "meaning"])
    df["meaning"] = df["key"].map(lambda k: strip_rule_ids(key_text(k)))  # the rules stay in the form's tooltips
    df["provenance"] = df["provenance"].map(provenance_label)
    df.columns = [pgettext("tableau column", "key"), pgettext("tableau column", "value"),
                  pgettext("tableau column", "provenance"), pgettext("tableau column", "meaning")]
    st.table(df, hide_index=True)
    if spec.track:
        st.caption(_("Track (active seat each turn): {track}").format(track=" ".join(map(str, spec.track))))
    else:
        st.caption(_("Track: none given — the active seat goes round from seat 1."), help=rule_why("C-TRACK"))


def entry_form(n: int, is_user: bool) -> None:
    with st.form(f"tableau-form-{n}"):
        st.markdown(_("**Enter the printed tableau for {n} player(s)**").format(n=n))
        cols = st.columns(3)
        for j, k in enumerate(TABLEAU_KEYS):
            cols[j % 3].number_input(key_label(k), min_value=0, max_value=200, step=1, key=f"tab{n}_{k}",
                                     help=f"{k}: {key_text(k)}")
        st.text_input(_("Track (optional): the {turns} active seats, 1-based, separated by spaces").format(
            turns=N_TURNS), key=f"tab{n}_track", placeholder=_("blank = round-robin from seat 1"))
        st.form_submit_button(_("Save as my printed tableau"), key=f"tab{n}_save", type="primary",
                              on_click=save, args=(n,), disabled=not may_change)
    st.button(_("Reset to the shipped stand-in"), key=f"tab{n}_reset", on_click=reset, args=(n,),
              disabled=not (is_user and may_change), help=_("Deletes your file for this player count"))


# --------------------------------------------------------------------------- the page
st.title(_("Mission tableaus"))
st.markdown(_(
    "The co-op tableau sets the team goals and mission counts for each number of players. Only the "
    "3-player values in **bold** in the rulebook are public; every value says where it comes from:\n"
    "- **rulebook** = {rulebook}\n"
    "- **derived** = {derived}\n"
    "- **user** = {user}").format(
        **{p: value_provenance_text(p) for p in ("rulebook", "derived", "user")}))

may_change = owner.owner_gate(_("saving, importing and resetting tableaus"))
with st.expander(_("Import a tableau file (.toml)")):
    st.caption(_("A tableau file in the layout of `missions/tableau-N.toml`, at most {kib} KiB; its `players` says "
                 "which player count it replaces. Every value must be a whole number; the file is checked first and "
                 "a file that cannot be used is refused with nothing saved.").format(kib=MAX_DATA_FILE_BYTES // 1024))
    st.file_uploader(_("Tableau file"), type=["toml"], key="tableau_upload", disabled=not may_change,
                     max_upload_size=1)  # MB, the least Streamlit takes; checked_upload: 64 KiB
    st.button(_("Import tableau file"), key="tableau_import", on_click=import_file, disabled=not may_change)
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

tabs = st.tabs([ngettext("{n} player", "{n} players", n).format(n=n) for n in PLAYER_COUNTS])
for n, tab in zip(PLAYER_COUNTS, tabs):
    with tab:
        spec = tableaus.get(n)
        init_inputs(n, spec)
        show_result(n)
        show_source(n, spec)
        if n in broken:
            for problem in problems(broken[n]):
                st.error(_("This tableau file cannot be used: {problem}").format(problem=problem))
        else:
            value_table(spec)
        entry_form(n, userdata.tableau_source(n) == "user")
