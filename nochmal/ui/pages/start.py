"""Start: a new game, resume or join a game, this device's games, delete a game."""

import streamlit as st

from nochmal.bots import policies
from nochmal.ui import tableview as tv
from nochmal.engine.coopdata import TABLEAU_KEYS, get_mission, get_tableau, load_missions
from nochmal.engine.errors import NochmalError
from nochmal.bots.plan import team_plan
from nochmal.store.session import AccessError, GameSession, TooManyGuessesError, format_short_code
from nochmal.engine.sheet import get_sheet, sheet_ids
from nochmal.store.db import StoreError
from nochmal.engine.game import variant
from nochmal.ui import state
from nochmal.ui.layout import follow_goto
from nochmal.ui.panels.join import join_info, seat_claim
from nochmal.ui.panels.team_plan import team_plan_panel
from nochmal.ui.safe import code, md

ss = st.session_state
KIND_LABELS = {"companion": "Companion — a real table: enter the roll and the crosses",
               "digital": "Digital — the app rolls; hot-seat humans and bots"}
MODE_LABELS = {"coop": "Co-op (mission)", "base": "Base game (2–6, competitive)", "solo": "Solo (30 rolls)"}
PLAYER_TYPES = {"human": "Human"} | {
    name: f"{name.capitalize()} bot 🤖{' (slow)' if name == 'planner' else ''}"
    for name in getattr(policies, "POLICY_NAMES", ("random",))}
VALUE_TEXT = {
    "goal_10": "team points needed after turn 10", "penalty_10_jokers": "\"!\" struck if missed (C-GOAL-10)",
    "goal_19": "team points needed after turn 19 (else a die leaves)",
    "goal_27": "team points + unused \"!\" needed after turn 27", "m1_colours": "M1: different colours",
    "m2_rows": "M2: different rows", "m3_colours": "M3: colours besides the stars",
    "m4_rows": "M4: rows besides the number fields", "m5_colours": "M5: colours besides N-O-C-H-M-A-L",
}
PROVENANCE_TEXT = {"rulebook": "printed in the rulebook", "derived": "stand-in, NOT the printed game",
                   "user": "entered by a user"}


# --------------------------------------------------------------------------- callbacks
def _defaults() -> None:
    ss.setdefault("new-kind", "companion")
    ss.setdefault("new-mode", "coop")
    ss.setdefault("new-players", 3)
    ss.setdefault("new-mission", 1)
    for i in range(6):
        ss.setdefault(f"new-name-{i}", f"Player {i + 1}")
        ss.setdefault(f"new-sheet-{i}", variant(ss["new-mode"]).default_sheets(6)[i])
        ss.setdefault(f"new-bot-{i}", "human")


def _players_in_range(rules) -> int:
    """The Players choice, kept inside the seat range of the mode ``rules``."""
    return min(max(int(ss.get("new-players") or rules.min_seats), rules.min_seats), rules.max_seats)


def _mode_changed() -> None:
    rules = variant(ss["new-mode"])
    ss["new-players"] = _players_in_range(rules)
    for i, sheet in enumerate(rules.default_sheets(6)):
        ss[f"new-sheet-{i}"] = sheet


def _create() -> None:
    kind, mode, n = ss["new-kind"], ss["new-mode"], int(ss["new-players"])
    names = [(ss.get(f"new-name-{i}") or "").strip() or f"Player {i + 1}" for i in range(n)]
    sheets = [ss.get(f"new-sheet-{i}") for i in range(n)]
    bots = [None] * n
    if kind == "digital":
        bots = [None if ss.get(f"new-bot-{i}", "human") == "human" else ss[f"new-bot-{i}"] for i in range(n)]
    seed_text = (ss.get("new-seed") or "").strip()
    if seed_text and not (seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 18):
        state.flash("error", f"The dice seed must be a whole number, got {md(repr(seed_text))}.")
        return
    title = (ss.get("new-title") or "").strip() or f"{MODE_LABELS[mode].split(' (')[0]} game, {n} player{'s' * (n > 1)}"
    try:
        game = tv.make_game(mode, sheets, int(ss.get("new-mission") or 1))
        ses = GameSession.create(state.store(), game, title=title, seat_names=names, kind=kind,
                                 seed=int(seed_text) if seed_text else None, bots=bots)
    except (NochmalError, StoreError) as err:
        state.flash("error", f"Could not create the game: {md(err)}")
        return
    state.open_as_host(ses)
    state.flash("success", f"Game created — id {code(ses.game_id)}, host code {code(ses.meta['host_code'])} "
                           f"(keep it to resume). Other devices join with the join link in the sidebar (or the "
                           f"short join code {code(format_short_code(ses.meta['join_code']))}).")
    state.goto("table")


def _sentence(err: Exception) -> str:
    text = str(err).rstrip(".")
    return f"{text[:1].upper()}{text[1:]}."


def _open() -> None:
    gid, typed = (ss.get("open-id") or "").strip(), (ss.get("open-code") or "").strip()
    try:
        opened = state.check_code(gid, typed)  # throttled; the same answer for an unknown id and a wrong code
    except AccessError as err:
        state.flash("error", _sentence(err))  # our own fixed text: no user data in it
        return
    ses = opened.session
    if opened.role == "host":
        state.set_game(gid, typed)
        state.remember_game(gid, ses.title, typed)
        state.flash("success", f"Resumed {md(ses.title)}.")
        state.goto("table")
    elif opened.role == "seat":
        state.set_game(gid, typed, opened.seat)
        state.flash("success", f"Opened {md(ses.title)} as seat {opened.seat + 1}.")
        state.goto("table")
    else:  # the join link's token or the short code: the URL carries the token from here on
        state.set_game(gid, join=ses.meta.get("join_token") or typed)
        state.flash("info", f"Joined {md(ses.title)} — now choose the seat you play on this device.")


def _open_mine(gid: str, code: str) -> None:
    state.set_game(gid, code)
    state.goto("table")


def _close() -> None:
    state.set_game(None)


def _delete() -> None:
    gid, typed = (ss.get("del-id") or "").strip(), (ss.get("del-code") or "").strip()
    if not ss.get("del-confirm"):
        state.flash("error", "Tick the confirmation box to delete the game.")
        return
    try:
        opened = state.check_code(gid, typed)
    except TooManyGuessesError as err:
        state.flash("error", _sentence(err))
        return
    except AccessError:
        opened = None
    if opened is None or opened.role != "host":
        state.flash("error", "No game with this id and host code (deleting needs the host code).")
        return
    ses = opened.session
    try:
        state.store().delete_game(gid)
    except StoreError as err:
        state.flash("error", md(err))
        return
    state.forget_game(gid)
    ss["del-confirm"] = False
    state.flash("success", f"Game {md(ses.title)} ({code(gid)}) deleted.")


def _plan_preview(n: int, sheets: list, mission: int, kind: str) -> None:
    """The team plan for the mission, players and sheets chosen so far (nochmal.bots.plan)."""
    names = [(ss.get(f"new-name-{i}") or "").strip() or f"Player {i + 1}" for i in range(n)]
    bots = [kind == "digital" and ss.get(f"new-bot-{i}", "human") != "human" for i in range(n)]
    with st.expander("Team plan for this mission", expanded=True):
        try:
            game = tv.make_game("coop", sheets, mission)
        except NochmalError as err:
            st.caption(f"No team plan for these choices: {md(err)}")
            return
        team_plan_panel(team_plan(game), names, digital=kind == "digital", bots=bots)


# --------------------------------------------------------------------------- the page
follow_goto()
_defaults()
st.title("🎲 Noch mal! — mission leader")
state.show_flash()

opened = state.open_game()
if opened is None and ss.get("access_note"):
    st.warning(ss["access_note"])
if opened is not None:
    ses, access = opened
    with st.container(border=True):
        st.markdown(f"**Open game:** {md(ses.title)} · id {code(ses.game_id)} · "
                    f"{'host (all seats)' if access == 'host' else 'joined device'}")
        if access == "host":
            join_info(ses, key="start-join")
        if access == "seat" and state.my_seat() is None:
            seat_claim(ses)
        with st.container(horizontal=True):
            st.button("Go to the table", key="goto-table", type="primary", icon="🎲", on_click=state.goto,
                      args=("table",))
            st.button("Close this game", key="close-game", on_click=_close)

tab_new, tab_open, tab_mine, tab_delete = st.tabs(["New game", "Resume or join", "Games on this device", "Delete"])

with tab_new:
    st.radio("How do you play?", list(KIND_LABELS), format_func=KIND_LABELS.get, key="new-kind")
    st.radio("Mode", list(MODE_LABELS), format_func=MODE_LABELS.get, key="new-mode", horizontal=True,
             on_change=_mode_changed)
    mode, kind = ss["new-mode"], ss["new-kind"]
    rules = variant(mode)
    lo, hi = rules.min_seats, rules.max_seats
    if ss.get("new-players") not in range(lo, hi + 1):
        ss["new-players"] = _players_in_range(rules)
    n = st.selectbox("Players", list(range(lo, hi + 1)), key="new-players")
    st.text_input("Title (optional)", key="new-title", max_chars=60, placeholder="e.g. Friday night")

    all_sheets = sheet_ids()

    def sheet_label(sid: str) -> str:
        try:
            sh = get_sheet(sid)
        except NochmalError:
            return f"{sid} (unreadable)"
        return f"{sid} — {sh.provenance}"

    st.markdown("**Seats** (in clockwise order; seat 1 is the mission leader)")
    for i in range(n):
        cols = st.columns([3, 3, 2] if kind == "digital" else [3, 3])
        cols[0].text_input(f"Name of seat {i + 1}", key=f"new-name-{i}", max_chars=30)
        if ss.get(f"new-sheet-{i}") not in all_sheets:
            ss[f"new-sheet-{i}"] = rules.default_sheets(6)[i]
        cols[1].selectbox(f"Sheet of seat {i + 1}", all_sheets, format_func=sheet_label, key=f"new-sheet-{i}")
        if kind == "digital":
            cols[2].selectbox(f"Seat {i + 1} plays as", list(PLAYER_TYPES), format_func=PLAYER_TYPES.get,
                              key=f"new-bot-{i}")
    chosen = [ss.get(f"new-sheet-{i}") for i in range(n)]
    provs = {}
    for sid in chosen:
        try:
            provs[sid] = get_sheet(sid).provenance
        except NochmalError as err:
            st.error(md(err))
    if any(p == "stand-in" for p in provs.values()):
        stand_ins = sorted(s for s, p in provs.items() if p == "stand-in")
        st.warning("Stand-in sheets (" + ", ".join(md(s) for s in stand_ins) +
                   ") are generated look-alikes, **not the printed sheets** of the game: their layouts are not "
                   "public. Sheets marked *verified* match the printed sheet; *user* sheets were entered by you.")

    if rules.has_mission:
        missions = load_missions()
        st.selectbox("Mission", sorted(missions), key="new-mission",
                     format_func=lambda m: f"{m} — {missions[m].name}")
        mission = get_mission(int(ss["new-mission"]))
        st.caption(md(mission.summary))
        try:
            tab = get_tableau(n)
        except NochmalError as err:
            st.error(f"The tableau for {n} players cannot be used: {md(err)}")
        else:
            st.markdown(f"**Mission tableau for {n} player{'s' * (n > 1)}** ({code(tab.id)}, "
                        f"provenance: {tab.provenance_summary()})")
            st.table([{"value": VALUE_TEXT[k], "number": tab.value(k), "provenance": getattr(tab, k).provenance,
                       "meaning": PROVENANCE_TEXT[getattr(tab, k).provenance]} for k in TABLEAU_KEYS])
            if any(getattr(tab, k).provenance == "derived" for k in TABLEAU_KEYS):
                st.warning("**Derived** values are stand-ins scaled from the rulebook's 3-player example — they are "
                           "not the printed tableau. If you own the game, enter the real values on the "
                           "**Tableaus** page (they become *user* values).")
        _plan_preview(n, chosen, int(ss["new-mission"]), kind)
    if kind == "digital":
        st.text_input("Dice seed (optional, a whole number; blank = random)", key="new-seed")
    st.button("Create game", key="new-create", type="primary", icon="▶️", on_click=_create)

with tab_open:
    st.markdown("Open a game with its **id** and a **code**. The host code opens it with all seats; the "
                "short join code (or, simpler, the host's **join link** opened on this device) lets this device "
                "claim one seat and enter that seat's crosses. Without a code a game can be neither read nor "
                "changed; after 10 wrong codes in a minute this device must wait a minute.")
    with st.form("open-form"):
        st.text_input("Game id", key="open-id")
        st.text_input("Host code or join code", key="open-code", type="password")
        st.form_submit_button("Open game", on_click=_open, type="primary")

with tab_mine:
    mine = ss.get("my_games", [])
    if not mine:
        st.caption("No games started on this device in this browser session. (They are kept only while this "
                   "tab is open: note the id and host code to resume later.)")
    for g in mine:
        cols = st.columns([4, 1])
        cols[0].markdown(f"**{md(g['title'])}** · id {code(g['id'])} · host code {code(g['code'])}")
        cols[1].button("Open", key=f"mine-open-{g['id']}", on_click=_open_mine, args=(g["id"], g["code"]))

with tab_delete:
    with st.form("del-form"):
        st.text_input("Game id", key="del-id")
        st.text_input("Host code", key="del-code", type="password")
        st.checkbox("Yes, delete this game and its whole history for good", key="del-confirm")
        st.form_submit_button("Delete game", on_click=_delete)
