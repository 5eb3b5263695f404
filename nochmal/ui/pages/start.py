"""Start: a new game, resume or join a game, this device's games, delete a game."""

import math

import streamlit as st

from nochmal.bots.registry import POLICY_NAMES, POLICY_WORDS, policy_name
from nochmal.ui import newgame
from nochmal.engine.coopdata import TABLEAU_KEYS, get_mission, get_tableau, load_missions
from nochmal.engine.errors import NochmalError
from nochmal.bots.plan import team_plan
from nochmal.store.errors import AccessError, TooManyGuessesError
from nochmal.store.games import DEFAULT_GAME, GAMES, game_kind
from nochmal.store.session import GameSession
from nochmal.engine.sheet import get_sheet, sheet_ids
from nochmal.store.db import StoreError
from nochmal.engine.game import variant
from nochmal.data import i18n, modes
from nochmal.data.i18n import _, ngettext, pgettext
from nochmal.data.provenance import value_meaning
from nochmal.ui import device, housekeeping, state
from nochmal.ui.labels import default_name, mission_name, provenance_label, provenance_summary_words, translated
from nochmal.ui.games import game_ui
from nochmal.ui.layout import follow_goto
from nochmal.ui.panels.coopset import page_link, sheets_note
from nochmal.ui.panels.join import (claim_from_link, claim_prompt, join_panel, lobby_panel, seat_claim,
                                    takeover_prompts)
from nochmal.ui.panels.team_plan import team_plan_panel
from nochmal.ui.safe import code, md
from nochmal.ui.storeerror import store_error_text

ss = st.session_state
#: the option values of the choices (language-free); their texts: :func:`kind_label` and so on
KINDS = ("companion", "digital")
MODES = tuple(modes.app_order())
PLAYER_TYPES = ("human", *POLICY_NAMES)


# The texts are made where they are shown (the language is known only in a page run).
def kind_label(kind: str) -> str:
    return {"companion": _("At a real table – you roll the dice and enter the roll and the crosses here"),
            "digital": _("Digital — the app rolls; hot-seat humans and bots")}[kind]


def mode_label(mode: str) -> str:
    return translated(modes.mode(mode).choice)


def player_type_label(name: str) -> str:
    """A seat's player type ("human" or a bot policy) for the Plays-as choice."""
    if name == "human":
        return _("Human")
    if name == "planner":
        return _("{bot} 🤖 (slow)").format(bot=policy_name(name))
    return f"{policy_name(name)} 🤖" if name in POLICY_WORDS else f"{name.capitalize()} bot 🤖"


def value_text(key: str) -> str:
    """What a value of the mission tableau is (TABLEAU_KEYS)."""
    return {
        "goal_10": _("team points needed after turn 10"),
        "penalty_10_jokers": _("\"!\" the team strikes if it misses the goal after turn 10"),
        "goal_19": _("team points needed after turn 19 (else a die leaves)"),
        "goal_27": _("team points + unused \"!\" needed after turn 27"),
        "m1_colours": _("mission 1: different colours"),
        "m2_rows": _("mission 2: different rows"), "m3_colours": _("mission 3: colours besides the stars"),
        "m4_rows": _("mission 4: rows besides the number fields"),
        "m5_colours": _("mission 5: colours besides the columns N, O, C, H, M, A, L"),
    }[key]


def provenance_text(provenance: str) -> str:
    """What a tableau value's provenance means."""
    return value_meaning(provenance)


def tableau_note(tab) -> str:
    """Which mission tableau a new co-op game uses, in words: the user's (entered values) or the
    shipped one, and which of its values are derived stand-ins (named by :func:`value_text`)."""
    provs = [getattr(tab, k).provenance for k in TABLEAU_KEYS]
    n = tab.players
    if all(p == "user" for p in provs):
        return ngettext("**Tableau:** yours for {n} player (every value entered by you, provenance user).",
                        "**Tableau:** yours for {n} players (every value entered by you, provenance user).",
                        n).format(n=n)
    derived = [k for k, p in zip(TABLEAU_KEYS, provs) if p == "derived"]
    if not derived:
        return ngettext("**Tableau:** the shipped one for {n} player ({provenance}).",
                        "**Tableau:** the shipped one for {n} players ({provenance}).", n).format(
            n=n, provenance=provenance_label(tab.provenance_summary()))
    if len(derived) == len(TABLEAU_KEYS):
        return ngettext("**Tableau:** the shipped stand-in for {n} player — every value is derived, not the printed "
                        "tableau; enter yours on the **Tableaus** page.",
                        "**Tableau:** the shipped stand-in for {n} players — every value is derived, not the printed "
                        "tableau; enter yours on the **Tableaus** page.", n).format(n=n)
    return ngettext("**Tableau:** the shipped one for {n} player — derived stand-ins, not the printed values: "
                    "{values}; enter yours on the **Tableaus** page.",
                    "**Tableau:** the shipped one for {n} players — derived stand-ins, not the printed values: "
                    "{values}; enter yours on the **Tableaus** page.", n).format(
        n=n, values="; ".join(value_text(k) for k in derived))


def variant_title(rules) -> str:
    """The variant's title at the start of a game's default title ("Base game", "Solo")."""
    return translated(modes.mode(rules.mode).title)


def _mission_summaries() -> dict:
    return {
        1: _("Complete one different colour per player."),
        2: _("Completely fill different rows P-V, how many depends on the number of players."),
        3: _("Cross at least one star in every column A-O, and complete different colours."),
        4: _("Fill every number field (all four cells around it on one sheet), and fill rows P-V."),
        5: _("Complete the columns N, O, C, H, M, A, L in this order, and complete different colours."),
    }


def _shipped(texts, mission_id: int, shown: str) -> str:
    """``shown`` (a text of the missions file) in the page's language if it is the shipped
    English text of ``texts()`` (by mission id); a text the app does not ship stays as it is."""
    with i18n.using(i18n.DEFAULT):
        english = texts().get(mission_id)
    return texts()[mission_id] if english is not None and shown == english else shown


def mission_summary(mission) -> str:
    return _shipped(_mission_summaries, mission.id, mission.summary)


# --------------------------------------------------------------------------- sheets and titles
def sheet_fits(sheet_id: object, rules) -> bool:
    """Whether the sheet ``sheet_id`` belongs in a game of the variant ``rules``: co-op games
    are played on the co-op backs (sheets with a ``[coop]`` part: number fields, failed-roll
    boxes, rows P-V; C-BOARDS), base and solo games on the other sheets. An unreadable or
    unknown sheet fits no game."""
    if not isinstance(sheet_id, str):
        return False
    try:
        sheet = get_sheet(sheet_id)
    except NochmalError:
        return False
    return (sheet.spec.coop is not None) == bool(rules.cooperative)


def fitting_sheets(rules) -> list[str]:
    """The sheet ids a seat of a ``rules`` game may choose from (:func:`sheet_fits`)."""
    return [sid for sid in sheet_ids() if sheet_fits(sid, rules)]


def checked_sheets(rules, chosen: list, defaults: list[str] | None = None) -> list[str]:
    """``chosen`` with every sheet that does not fit the variant replaced by the variant's default
    sheet for that seat: a stale choice (a sheet of the mode shown before) never reaches a game.
    ``defaults``: the seats' default sheets if already at hand (they read the owner's co-op set)."""
    if defaults is None and not all(sheet_fits(sid, rules) for sid in chosen):
        defaults = newgame.default_sheets(rules.mode, len(chosen))
    return [sid if sheet_fits(sid, rules) else defaults[i] for i, sid in enumerate(chosen)]


def default_title(rules, n: int, mission: int) -> str:
    """A new game's title unless one is typed: "Co-op mission 2, 3 players", "Base game, 4 players",
    "Solo game"."""
    if rules.has_mission:
        return ngettext("Co-op mission {mission}, {n} player", "Co-op mission {mission}, {n} players",
                        n).format(mission=mission, n=n)
    name = variant_title(rules)
    if rules.max_seats == 1:
        return _("{variant} game").format(variant=name)
    return ngettext("{variant}, {n} player", "{variant}, {n} players", n).format(variant=name, n=n)


# --------------------------------------------------------------------------- callbacks
def _defaults() -> None:
    # a value of None (a widget whose first run was cut short) counts as not set
    for key, value in (("new-kind", "companion"), ("new-mode", modes.DEFAULT_MODE), ("new-mission", 1),
                       ("new-game", DEFAULT_GAME)):
        if ss.get(key) is None:
            ss[key] = value
    if ss.get("new-players") is None:
        ss["new-players"] = variant(ss["new-mode"]).default_players
    if any(f"new-sheet-{i}" not in ss for i in range(6)):  # the co-op set is read only when a default is due
        sheets = newgame.default_sheets(ss["new-mode"], 6)  # co-op: the owner's co-op set, stand-ins where it has none
        for i in range(6):
            ss.setdefault(f"new-sheet-{i}", sheets[i])
    for i in range(6):
        ss.setdefault(f"new-name-{i}", default_name(i))
        ss.setdefault(f"new-bot-{i}", "human")


def _players_in_range(rules) -> int:
    """The Players choice, kept inside the seat range of the mode ``rules``."""
    return min(max(int(ss.get("new-players") or rules.default_players), rules.min_seats), rules.max_seats)


def _mode_changed() -> None:
    rules = variant(ss["new-mode"])
    ss["new-players"] = _players_in_range(rules)
    for i, sheet in enumerate(newgame.default_sheets(rules.mode, 6)):
        ss[f"new-sheet-{i}"] = sheet


def _create() -> None:
    # The widgets' values arrive with the click: after a quick change of Mode they may still be
    # those of the mode shown before (players, sheets). They are checked against the mode here.
    kind, mode = ss["new-kind"], ss["new-mode"]
    rules = variant(mode)
    n = _players_in_range(rules)
    names = [(ss.get(f"new-name-{i}") or "").strip() or default_name(i) for i in range(n)]
    sheets = checked_sheets(rules, [ss.get(f"new-sheet-{i}") for i in range(n)])
    for i, sid in enumerate(sheets):
        ss[f"new-sheet-{i}"] = sid
    bots = [None] * n
    if kind == "digital":
        bots = [None if ss.get(f"new-bot-{i}", "human") == "human" else ss[f"new-bot-{i}"] for i in range(n)]
    seed_text = (ss.get("new-seed") or "").strip()
    if seed_text and not (seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 18):
        state.flash("error", _("The dice's starting number must be a whole number, got {seed}.").format(
            seed=md(repr(seed_text))))
        return
    title = (ss.get("new-title") or "").strip() or default_title(rules, n, int(ss.get("new-mission") or 1))
    quota = housekeeping.games_quota()
    if quota is not None and (wait := quota.take(("games", state.client()))) > 0:
        state.flash("error", _("This server allows {limit} new games per hour from one device's address; the next "
                               "one can be created in {minutes} min. Open a game you already have, or wait. "
                               "No game was created.").format(limit=quota.limit, minutes=max(1, math.ceil(wait / 60))))
        return
    try:
        game = newgame.make_game(mode, sheets, int(ss.get("new-mission") or 1))
        ses = GameSession.create(state.store(), game, title=title, seat_names=names, kind=kind,
                                 seed=int(seed_text) if seed_text else None, bots=bots)
    except NochmalError as err:
        state.flash("error", _("Could not create the game: {error}").format(error=md(err)))
        return
    except StoreError as err:
        state.flash("error", store_error_text(err))  # read-only, full, ...: never the store's path
        return
    state.open_as_host(ses)
    text = _("Game created. This browser keeps it: it is listed under **Games on this device** on the Start page.")
    if sum(1 for b in bots if not b) > 1:  # other people may play on their own phones
        text += " " + _("Phones join with the QR code under **📱 Join with phones** on the Table page.")
    state.flash("success", text)
    state.goto("table")


def _open() -> None:
    gid, typed = (ss.get("open-id") or "").strip(), (ss.get("open-code") or "").strip()
    try:
        opened = state.check_code(gid, typed)  # throttled; the same answer for an unknown id and a wrong code
    except AccessError as err:
        renewed = not isinstance(err, TooManyGuessesError) and state._join_renewed(gid, typed)
        state.flash("error", state.renewed_text() if renewed else state.access_text(err))  # our own fixed texts
        return
    ses = opened.session
    if opened.role == "host":
        state.set_game(gid, typed)
        state.remember_game(gid, ses.title, typed)
        state.flash("success", _("Resumed {title}.").format(title=md(ses.title)))
        state.goto("table")
    elif opened.role == "seat":
        state.set_game(gid, typed, opened.seat)
        state.remember_seat(ses, typed, opened.seat)
        state.flash("success", _("Opened {title} as seat {seat}.").format(title=md(ses.title), seat=opened.seat + 1))
        state.goto("table")
    else:  # the join link's token or the short code: the URL carries the token from here on
        state.set_game(gid, join=ses.meta.get("join_token") or typed)
        state.flash("info", _("Joined {title} — now choose the seat you play on this device.").format(
            title=md(ses.title)))


def _open_mine(entry: dict) -> None:
    """Resume a game this device remembers: its code checked again (throttled), then the
    Table page opens as host or on the seat it plays."""
    state.recheck_remembered(entry)
    r = state.check_remembered(entry, force=True)
    gid = entry["game"]
    if r["status"] == "wait":
        state.flash("error", r["text"])
    elif r["status"] == "taken":
        state.flash("warning", state.lost_seat_text(r["seat"], r["seat_name"]))
    elif r["status"] != "ok":
        state.flash("error", _("This game no longer opens with the code this device kept."))
    elif r["role"] == "host":
        state.set_game(gid, entry["code"])
        state.remember_game(gid, r["title"], entry["code"])
        state.flash("success", _("Resumed {title}.").format(title=md(r["title"])))
        state.goto("table")
    elif r["role"] == "seat":
        state.set_game(gid, entry["code"], r["seat"])
        ss["my_seat"] = r["seat"]
        state.flash("success", _("Resumed {title} as seat {seat}: {name}.").format(
            title=md(r["title"]), seat=r["seat"] + 1, name=md(r["seat_name"])))
        state.goto("table")
    else:  # a join link's token: ready to claim a seat
        state.set_game(gid, join=entry["code"])


def _forget_mine(gid: str) -> None:
    state.forget_game(gid)
    state.flash("info", _("This device forgot game {id}.").format(id=code(gid)))


def _device_entries() -> list[dict]:
    """The games this browser remembers (localStorage), then those of this session it has not
    reported (a browser that keeps nothing)."""
    entries = device.remembered()
    known = {e["game"] for e in entries}
    for g in ss.get("my_games", []):
        entry = device.valid_entry({"game": g["id"], "code": g["code"], "seat": None, "title": g["title"][:80]})
        if entry is not None and entry["game"] not in known:
            entries.append(entry)
    return entries[:device.MAX_ENTRIES]


def _seat(seat: int, name: str) -> str:
    """ "seat 2 (Bo)" as Markdown."""
    if name:
        return _("seat {seat} ({name})").format(seat=seat + 1, name=md(name))
    return _("seat {seat}").format(seat=seat + 1)


def _device_games(entries: list[dict], prefix: str) -> None:
    """One line per remembered game: title and role (from the store, after the throttled code
    check) and Resume, or why it no longer opens and Forget."""
    for entry in entries:
        gid = entry["game"]
        r = state.check_remembered(entry)
        with st.container(key=f"{prefix}-{gid}", horizontal=True, vertical_alignment="center"):
            if r["status"] == "ok":
                role = (_("host (all seats)") if r["role"] == "host" else
                        _seat(r["seat"], r["seat_name"]) if r["role"] == "seat" else _("joined, no seat yet"))
                st.markdown(_("**{title}** · {role} · id {id}").format(title=md(r["title"]), role=role, id=code(gid)),
                            width="stretch")
                st.button(_("Resume"), key=f"{prefix}-resume-{gid}", type="primary", icon="▶️", on_click=_open_mine,
                          args=(entry,))
            elif r["status"] == "unchecked":  # not looked up yet (too many that no longer open)
                st.markdown(_("Game {id} · not checked yet").format(id=code(gid)), width="stretch")
                st.button(_("Resume"), key=f"{prefix}-resume-{gid}", icon="▶️", on_click=_open_mine, args=(entry,))
            else:
                if r["status"] == "taken":
                    why = _("another device took your seat ({seat})").format(seat=_seat(r["seat"], r["seat_name"]))
                elif r["status"] == "wait":
                    why = md(r["text"])
                else:
                    why = _("no longer available")
                st.markdown(_("Game {id}: {why}").format(id=code(gid), why=why), width="stretch")
            st.button(_("Forget"), key=f"{prefix}-forget-{gid}", on_click=_forget_mine, args=(gid,))


def _humans(ses) -> int:
    """How many seats of the game people play (not bots): a game of one has no phones to join."""
    return sum(1 for b in (ses.meta.get("bots") or [None] * ses.game.n_seats) if not b)


def _close() -> None:
    state.set_game(None)


def _delete() -> None:
    gid, typed = (ss.get("del-id") or "").strip(), (ss.get("del-code") or "").strip()
    if not ss.get("del-confirm"):
        state.flash("error", _("Tick the confirmation box to delete the game."))
        return
    try:
        opened = state.check_code(gid, typed)
    except TooManyGuessesError as err:
        state.flash("error", state.access_text(err))
        return
    except AccessError:
        opened = None
    if opened is None or opened.role != "host":
        state.flash("error", _("No game with this id and host code (deleting needs the host code)."))
        return
    ses = opened.session
    try:
        state.store().delete_game(gid)
    except StoreError as err:
        state.flash("error", store_error_text(err))
        return
    state.forget_game(gid)
    ss["del-confirm"] = False
    state.flash("success", _("Game {title} ({id}) deleted.").format(title=md(ses.title), id=code(gid)))


def _plan_preview(n: int, sheets: list, mission: int, kind: str) -> None:
    """The team plan for the mission, players and sheets chosen so far (nochmal.bots.plan)."""
    names = [(ss.get(f"new-name-{i}") or "").strip() or default_name(i) for i in range(n)]
    bots = [kind == "digital" and ss.get(f"new-bot-{i}", "human") != "human" for i in range(n)]
    with st.expander(_("Team plan for this mission"), expanded=True):
        try:
            game = newgame.make_game("coop", sheets, mission)
        except NochmalError as err:
            st.caption(_("No team plan for these choices: {error}").format(error=md(err)))
            return
        team_plan_panel(team_plan(game), names, digital=kind == "digital", bots=bots)


def _nochmal_form() -> None:
    """The New game form of *Noch mal!* (its modes, players, mission, seats and sheets)."""
    # issue 42, item 5: the choices every table makes and the Create button come first, within a
    # phone's first screen; the seats' names and sheets are folded above the button, the notes on
    # stand-in sheets and the tableau folded below it
    st.radio(_("How do you play?"), list(KINDS), format_func=kind_label, key="new-kind")
    st.radio(_("Mode"), list(MODES), format_func=mode_label, key="new-mode", horizontal=True,
             on_change=_mode_changed)
    mode, kind = ss["new-mode"], ss["new-kind"]
    rules = variant(mode)
    lo, hi = rules.min_seats, rules.max_seats
    if ss.get("new-players") not in range(lo, hi + 1):
        ss["new-players"] = _players_in_range(rules)
    missions = load_missions() if rules.has_mission else {}
    with st.container(horizontal=True, key="new-main"):
        n = st.selectbox(_("Players"), list(range(lo, hi + 1)), key="new-players", width=120)
        if rules.has_mission:
            st.selectbox(_("Mission"), sorted(missions), key="new-mission",
                         format_func=lambda m: f"{m} — {mission_name(missions[m].name)}")
    if rules.has_mission:
        st.caption(md(mission_summary(get_mission(int(ss["new-mission"])))))

    all_sheets = fitting_sheets(rules)  # co-op games: the co-op backs; base and solo: the other sheets

    def sheet_label(sid: str) -> str:
        try:
            sh = get_sheet(sid)
        except NochmalError:
            return _("{sheet} (unreadable)").format(sheet=sid)
        return f"{sid} — {provenance_label(sh.provenance)}"

    seat_defaults = newgame.default_sheets(mode, 6)
    for i in range(n):
        if ss.get(f"new-sheet-{i}") not in all_sheets:
            ss[f"new-sheet-{i}"] = seat_defaults[i]
    # open for a digital game (who plays as a bot is chosen here), folded at a real table
    with st.expander(_("Seats: names, sheets, who plays; title") if kind == "digital"
                     else _("Seats: names and sheets; title"), expanded=kind == "digital"):
        st.markdown(_("**Seats** (in clockwise order; seat 1 is the mission leader)") if rules.has_mission
                    else _("**Seats** (in clockwise order)") if n > 1 else _("**Seat**"))
        for i in range(n):
            cols = st.columns([3, 3, 2] if kind == "digital" else [3, 3])
            cols[0].text_input(_("Name of seat {seat}").format(seat=i + 1), key=f"new-name-{i}", max_chars=30)
            cols[1].selectbox(_("Sheet of seat {seat}").format(seat=i + 1), all_sheets, format_func=sheet_label,
                              key=f"new-sheet-{i}")
            if kind == "digital":
                cols[2].selectbox(_("Seat {seat} plays as").format(seat=i + 1), list(PLAYER_TYPES),
                                  format_func=player_type_label, key=f"new-bot-{i}")
        st.text_input(_("Title (optional)"), key="new-title", max_chars=60, placeholder=_("e.g. Friday night"))
        if kind == "digital":
            st.text_input(_("Starting number of the dice (optional: the same number gives the same rolls; blank = "
                            "random)"), key="new-seed")
    chosen = [ss.get(f"new-sheet-{i}") for i in range(n)]
    # the seats at a glance while their box is folded (names are the user's: Markdown-escaped)
    st.caption(" · ".join(
        "{name} ({sheet}{bot})".format(name=md((ss.get(f"new-name-{i}") or "").strip() or default_name(i)),
                                       sheet=md(chosen[i]),
                                       bot=" 🤖" if kind == "digital" and ss.get(f"new-bot-{i}", "human") != "human"
                                       else "")
        for i in range(n)))
    provs = {}
    for sid in chosen:
        try:
            provs[sid] = get_sheet(sid).provenance
        except NochmalError as err:
            st.error(md(err))  # a sheet that cannot be played stays in view, above the button
    tab = None  # the mission tableau the game will use (co-op)
    if rules.has_mission:
        try:
            tab = get_tableau(n)
        except NochmalError as err:
            st.error(_("The tableau for {n} players cannot be used: {error}").format(n=n, error=md(err)))
    st.button(_("Create game"), key="new-create", type="primary", icon="▶️", on_click=_create)

    stand_ins = sorted(s for s, p in provs.items() if p == "stand-in")
    derived = tab is not None and any(getattr(tab, k).provenance == "derived" for k in TABLEAU_KEYS)
    notes_label = (_("⚠️ Notes: stand-in sheets, derived tableau values") if stand_ins and derived
                   else _("⚠️ Notes: stand-in sheets") if stand_ins
                   else _("⚠️ Notes: derived tableau values") if derived
                   else _("Notes: the sheets and the tableau") if tab is not None else _("Notes: the sheets"))
    with st.expander(notes_label, key="new-notes"):
        if stand_ins:
            st.warning(_("Stand-in sheets ({sheets}) are generated look-alikes, **not the printed sheets** of the "
                         "game: their layouts are not public. Sheets marked *verified* match the printed sheet; "
                         "*user* sheets were entered by you.").format(sheets=", ".join(md(s) for s in stand_ins)))
        sheets_note(checked_sheets(rules, chosen, seat_defaults))  # in words: the sheets the game will use
        if tab is not None:
            st.markdown(ngettext("**Mission tableau for {n} player** ({provenance})",
                                 "**Mission tableau for {n} players** ({provenance})", n).format(
                n=n, provenance=provenance_summary_words(tab.provenance_summary())))
            columns = (pgettext("tableau table", "value"), pgettext("tableau table", "number"),
                       pgettext("tableau table", "provenance"), pgettext("tableau table", "meaning"))
            st.table([dict(zip(columns, (value_text(k), tab.value(k), provenance_label(getattr(tab, k).provenance),
                                         provenance_text(getattr(tab, k).provenance))))
                      for k in TABLEAU_KEYS])
            if derived:
                st.warning(_("**Derived** values are stand-ins scaled from the rulebook's 3-player example — they "
                             "are not the printed tableau. If you own the game, enter the real values on the "
                             "**Tableaus** page (they become *user* values)."))
            st.markdown(tableau_note(tab))
            if derived:
                page_link("tableaus", _("Enter your printed tableau (Tableaus page)"), "🎯")
    if rules.has_mission:
        _plan_preview(n, chosen, int(ss["new-mission"]), kind)


# --------------------------------------------------------------------------- the page
follow_goto()
_defaults()
st.title("🎲 Noch mal!")
state.show_flash()

opened = state.open_game()
if opened is not None:
    claim_from_link(*opened)  # a per-seat link (&claim=N): claims that seat at once
    follow_goto()  # ... and opens its sheet on the Table page
if opened is None and ss.get("device_pending") and st.query_params.get("game"):
    # a reload or a browser restart: the game's code is in this browser's storage, which reports
    # a moment after the page is drawn; say so at once (never a page that looks empty or a form
    # that is replaced a second later)
    with st.container(border=True, key="open-game-pending"):
        st.info(_("Opening the game on this device…"), icon="⏳")
elif opened is None and state.lost_seat_note():
    st.warning(state.lost_seat_note(), icon="📱")
elif opened is None and ss.get("access_note"):
    st.warning(ss["access_note"])
if opened is None and _device_entries():
    with st.container(border=True, key="resume-box"):
        st.markdown(_("**Resume on this device**"))
        _device_games(_device_entries()[:3], "top")
if opened is not None:
    ses, access = opened
    my_seat = state.my_seat()
    with st.container(border=True, key="open-game"):
        host_role = _("mission leader's screen (all seats)") if ses.game.cooperative else _("host (all seats)")
        role = (host_role if access == "host" else
                _("this device plays {seat}").format(seat=_seat(my_seat, ses.seat_names[my_seat]))
                if my_seat is not None else _("joined device — choose your seat"))
        st.markdown(_("**Open game:** {title} · {role}").format(title=md(ses.title), role=role))
        if access == "host":
            takeover_prompts(ses)
            if _humans(ses) > 1:  # solo, or one person against bots: no phone to join
                with st.expander(_("📱 Join with phones"), expanded=True):
                    lobby_panel(ses, key="start-lobby")
                    join_panel(ses, key="start-join")
            with st.expander(_("🔑 Go on with this game on another computer")):
                st.markdown(_("This browser keeps the game. On another computer, type on **Start → Resume or join** "
                              "the game id {id} and the host code {host_code}: they open it with all seats.").format(
                    id=code(ses.game_id), host_code=code(ses.meta["host_code"])))
        if access == "seat" and my_seat is None:
            claim_prompt(ses)
            seat_claim(ses)
        with st.container(horizontal=True):
            st.button(_("Go to the table"), key="goto-table", type="primary", icon="🎲", on_click=state.goto,
                      args=("table",))
            st.button(_("Close this game"), key="close-game", on_click=_close)

tab_new, tab_open, tab_mine, tab_delete = st.tabs([_("New game"), _("Resume or join"), _("Games on this device"),
                                                   _("Delete")])

with tab_new:
    # one line without its label: on a phone the Create button stays on the first screen
    st.radio(_("Game"), list(GAMES), format_func=lambda g: translated(GAMES[g].word), key="new-game",
             horizontal=True, label_visibility="collapsed")
    chosen_ui = game_ui(game_kind(ss["new-game"]))
    if chosen_ui is not None:  # a game with pages of its own (nochmal.ui.games)
        chosen_ui.new_game_form()
    else:
        _nochmal_form()

with tab_open:
    st.markdown(_("Open a game with its **id** and a **code**. The host code opens it with all seats; the "
                  "short join code (or, simpler, the host's **join link** opened on this device) lets this device "
                  "claim one seat and enter that seat's crosses. Without a code a game can be neither read nor "
                  "changed; after 10 wrong codes in a minute this device must wait a minute."))
    with st.form("open-form"):
        st.text_input(_("Game id"), key="open-id")
        st.text_input(_("Host code or join code"), key="open-code", type="password")
        st.form_submit_button(_("Open game"), on_click=_open, type="primary")

with tab_mine:
    mine = _device_entries()
    if not mine:
        st.caption(_("No games on this device yet. Games you create here and seats you claim here are kept in "
                     "this browser (also after a restart) and listed here to resume."))
    _device_games(mine, "mine")

with tab_delete:
    with st.form("del-form"):
        st.text_input(_("Game id"), key="del-id")
        st.text_input(_("Host code"), key="del-code", type="password")
        st.checkbox(_("Yes, delete this game and its whole history for good"), key="del-confirm")
        st.form_submit_button(_("Delete game"), on_click=_delete)
