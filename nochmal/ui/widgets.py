"""Reusable widgets of the game screens (start, table, history).

Widgets draw the position and offer controls; every change of the game happens in a callback
(:func:`run_action`) that re-opens the game from the store, asks the engine, and shows the
engine's answer. Errors never escape as tracebacks: rule violations are shown with their
rule id, store problems with their message.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import streamlit as st

from .. import tableview as tv
from ..cells import CELL_NAMES, COLOUR_LETTERS, COLOURS, COLUMNS, N_COLS, N_ROWS, mask_of
from ..coop import RemoveDie, StrikeJokers, turn_info
from ..dice import COLOUR_FACES, COLOUR_JOKER, NUMBER_FACES, NUMBER_JOKER, Roll
from ..errors import IllegalMoveError, InvalidInputError, NochmalError
from ..events import CrossEvent, PassEvent, describe
from ..game import TEAM
from ..moves import PASS, Cross
from ..session import format_short_code
from ..store import ConflictError, StoreError
from . import state
from .safe import code, html_text, md
from .sheetview import PALETTE, sheet_html

PAGES_DIR = Path(__file__).resolve().parent / "pages"
BADGES = ("yellow", "green", "blue", "red", "orange")  # Markdown badge colour per colour
SEAT_COLOURS = ("#6a3d9a", "#1b7f79", "#8c564b", "#3949ab", "#7f7f7f", "#a6761d")  # turn-track seat colours
CONFLICT_TEXT = "Someone else entered first — refreshed. Check the table and enter again if needed."


# --------------------------------------------------------------------------- labels
def colour_face_label(face: int) -> str:
    """A colour die's face as Markdown (a coloured badge with the colour's name)."""
    if face == COLOUR_JOKER:
        return ":gray-badge[**X** joker]"
    return f":{BADGES[face]}-badge[{COLOURS[face]}]"


def number_face_label(face: int) -> str:
    return "?" if face == NUMBER_JOKER else str(face)


def colour_label(colour: int) -> str:
    return f":{BADGES[colour]}-badge[{COLOURS[colour]}]"


def seat_label(names: list[str], seat: int) -> str:
    """A seat as Markdown (its number, then its name escaped): "2. Ada"."""
    return f"{seat + 1}. {md(names[seat])}"


def seat_text(names: list[str], seat: int) -> str:
    """A seat as plain text, for HTML (which escapes it) and plain-text widgets."""
    return f"{seat + 1}. {names[seat]}"


def number_order(face: int) -> int:
    return 6 if face == NUMBER_JOKER else face  # "?" after 5


def dice_text(colours, numbers) -> str:
    return "  ".join(colour_face_label(f) for f in colours) + "  |  " + "  ".join(
        f"**{number_face_label(f)}**" for f in sorted(numbers, key=number_order))


# --------------------------------------------------------------------------- actions
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


def _need(cond: bool, text: str) -> None:
    if not cond:
        raise InvalidInputError(text)


def who(access: str) -> str:
    seat = state.my_seat()
    return "host" if access == "host" else f"seat{seat + 1}" if seat is not None else "device"


# --------------------------------------------------------------------------- game header
def game_or_stop():
    """The open game, or a hint where to open one (and stop the page)."""
    opened = state.open_game()
    if opened is None:
        if st.session_state.get("access_note"):
            st.warning(st.session_state["access_note"])
        st.info("No game is open. Start a new one or open one with its id and code on the **Start** page.")
        st.page_link(str(PAGES_DIR / "start.py"), label="Go to Start", icon="🏁")
        st.stop()
    return opened


def turn_track(st_, names: list[str]) -> None:
    """C-TRACK: the 27 turn fields, one colour per seat, the current turn marked, and the
    team's points against the goals after turns 10, 19 and 27."""
    info = turn_info(st_)
    fields = tv.track_view(st_)
    boxes = []
    for f in fields:
        seat = f["seat"]
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        cur = f["status"] == "current" and not st_.is_terminal()
        style = (f"display:inline-block;min-width:22px;height:26px;line-height:26px;margin:1px;border-radius:4px;"
                 f"text-align:center;font:600 11px sans-serif;color:#fff;background:{colour};"
                 f"opacity:{'.45' if f['status'] == 'past' else '1'};"
                 f"{'outline:3px solid #d62728;outline-offset:1px;transform:scale(1.15);' if cur else ''}")
        title = f"turn {f['turn']}: {names[seat]}{' (now)' if cur else ''}"
        title = html_text(title)
        boxes.append(f'<span title="{title}" aria-label="{title}" style="{style}">{seat + 1}</span>')
        if "goal" in f:
            chk = f.get("check")
            if chk:
                bg = "#2e7d32" if chk["met"] else "#c62828"
                text = f"{chk['points']}/{chk['goal']} {'met' if chk['met'] else 'missed'}"
            else:
                bg = "#444"
                text = f"goal {f['goal']}: {info['team_points']}"
            boxes.append(f'<span title="goal after turn {f["turn"]}: team points / goal" style="display:inline-block;'
                         f'margin:0 6px 0 4px;padding:0 6px;border-radius:10px;background:{bg};color:#fff;'
                         f'font:600 11px/20px sans-serif;vertical-align:middle">{text}</span>')
    legend = " ".join(
        f'<span style="display:inline-block;width:12px;height:12px;border-radius:3px;background:'
        f'{SEAT_COLOURS[i % len(SEAT_COLOURS)]};vertical-align:middle"></span> {i + 1} {html_text(n)}'
        for i, n in enumerate(names))
    st.html(f'<div class="nm-track" role="list" aria-label="turn track" style="line-height:32px">{"".join(boxes)}</div>'
            f'<div style="font:12px sans-serif;margin-top:2px">{legend}</div>')
    checks = st_.extra.get("checks", {})
    parts = [f"Turn **{min(info['turn'], info['turns'])} of {info['turns']}**",
             f"team points **{info['team_points']}**"]
    for t in ("10", "19", "27"):
        c = checks.get(t)
        if c:
            pen = c.get("penalty")
            extra = ""
            if pen:
                if "removed_die" in pen:
                    extra = f" → a {pen['removed_die']} die left"
                elif "jokers" in pen:
                    extra = (f" → {pen['jokers']} \"!\" struck" if "per_seat" in pen
                             else f" → strike {pen['jokers']} \"!\" (team decision)")
            parts.append(f"after {t}: {c['points']}/{c['goal']} {'met' if c['met'] else 'missed'}{extra}")
    st.caption(" · ".join(parts))


# --------------------------------------------------------------------------- dice
def _roll_keys(nc: int, nn: int) -> list[str]:
    return [f"roll-c-{i}" for i in range(nc)] + [f"roll-n-{i}" for i in range(nn)]


def roll_key(st_) -> str:
    """Names the roll a decision was made for (an undo and a new roll change it)."""
    return f"{st_.roll_index}|{st_.dice}"


def _same_roll(ses, seen_roll: str) -> None:
    if roll_key(ses.state) != seen_roll:  # another device entered first
        raise ConflictError(ses.game_id, 0, ses.n_events)


def _enter_roll(nc: int, nn: int, seen_roll: str) -> None:
    ss = st.session_state
    colours = [ss.get(f"roll-c-{i}") for i in range(nc)]
    numbers = [ss.get(f"roll-n-{i}") for i in range(nn)]

    def do(ses, access):
        _same_roll(ses, seen_roll)
        _need(all(c is not None for c in colours) and all(n is not None for n in numbers),
              "R-ROLL: choose the face of every die first")
        ses.record(Roll.of(colours, numbers), by=who(access))
        for k in _roll_keys(nc, nn):
            ss[k] = None

    run_action(do)


def _roll_digital(seen_roll: str) -> None:
    def do(ses, access):
        _same_roll(ses, seen_roll)
        ses.roll_digital(by=who(access))

    run_action(do)


def dice_entry(nc: int, nn: int, allowed: bool, seen_roll: str) -> None:
    """Companion: the faces the table rolled, one tap per die, then "Enter roll"."""
    st.markdown("**Enter the roll** — tap the face each die shows")
    for i in range(nc):
        st.segmented_control(f"Colour die {i + 1}", COLOUR_FACES, format_func=colour_face_label,
                             key=f"roll-c-{i}", disabled=not allowed)
    for i in range(nn):
        st.segmented_control(f"Number die {i + 1}", NUMBER_FACES, format_func=number_face_label,
                             key=f"roll-n-{i}", disabled=not allowed)
    st.button("Enter roll", key="roll-enter", type="primary", icon="🎲", on_click=_enter_roll, args=(nc, nn, seen_roll),
              disabled=not allowed)


def roll_button(allowed: bool, seen_roll: str) -> None:
    st.button("Roll the dice", key="roll-digital", type="primary", icon="🎲", on_click=_roll_digital,
              args=(seen_roll,), disabled=not allowed)


def dice_panel(st_, names: list[str], bots: list, events: list) -> None:
    """The dice of this roll and which dice each undecided seat may still use."""
    d = st_.dice
    st.markdown(f"**Roll {st_.roll_index + 1}** — {dice_text(d.colours, d.numbers)}")
    decided = tv.this_roll(events)
    lines = []
    for seat in range(st_.game.n_seats):
        label = seat_label(names, seat) + (" 🤖" if bots[seat] else "")
        role = "active" if seat == st_.active else "passive"
        if seat in st_.pending or (st_.phase == "active" and seat == st_.active):
            cf, nf = st_.dice_for(seat)
            lines.append(f"- {label} ({role}) — to decide, may use {dice_text(cf, nf)}")
        elif st_.phase == "active":
            lines.append(f"- {label} ({role}) — waits for the active seat (R-ORDER)")
        else:
            ev = decided.get(seat)
            what = ("crossed " + ev.colour + " " + "-".join(ev.cells) if isinstance(ev, CrossEvent)
                    else "failed roll / pass" if isinstance(ev, PassEvent) else "decided")
            lines.append(f"- {label} ({role}) — done: {md(what)}")
    st.markdown("\n".join(lines))
    if st_.phase == "passive" and st_.game.sets_aside(st_) and isinstance(st_.active_move, Cross):
        am = st_.active_move
        st.caption(f"Set aside by the active seat (R-ACTIVE): {colour_face_label(am.colour_die)} and "
                   f"{number_face_label(am.number_die)}; the others pick from the rest (R-PASSIVE).")
    elif st_.roll_index < st_.game.free_rolls and st_.game.n_seats > 1:
        st.caption("First three rolls: nothing is set aside, everybody picks from all dice (R-FIRST3).")


# --------------------------------------------------------------------------- the cell grid
def _toggle_cell(name: str) -> None:
    sel = list(st.session_state.get("selected_cells", []))
    if name in sel:
        sel.remove(name)
    else:
        sel.append(name)
    st.session_state["selected_cells"] = sel


def _clear_cells() -> None:
    st.session_state["selected_cells"] = []


def cell_mark(sheet, crossed: int, selected: int, i: int, colourblind: bool) -> str:
    """What a cell shows: ✕ crossed, ● selected, ★ star (and the colour's letter in colour-blind mode)."""
    bit = 1 << i
    mark = "✕" if crossed & bit else "●" if selected & bit else "★" if sheet.star_mask & bit else ""
    if colourblind:
        return COLOUR_LETTERS[sheet.colour_of[i]].upper() + mark
    return mark or "·"


def _grid_css(key: str, seat: int, sheet, crossed: int, selected: int, highlight: int, colourblind: bool) -> str:
    """Colours, marks and borders of the cell buttons. A button's text is its cell name (its
    accessible name, e.g. "H4"); what it shows on screen comes from CSS."""
    cell = lambda i: f".st-key-cell-{seat}-{CELL_NAMES[i]} button"  # noqa: E731
    rules = [
        f".st-key-{key} button {{min-height:1.9rem;height:1.9rem;padding:0 !important;width:100%;min-width:0;"
        f"line-height:1;border:2px solid transparent;border-radius:4px}}",
        f".st-key-{key} button > div {{position:absolute;width:1px;height:1px;overflow:hidden;"
        f"clip:rect(0 0 0 0);white-space:nowrap}}",
        f".st-key-{key} button {{display:flex;align-items:center;justify-content:center}}",
        f".st-key-{key} button::after {{font:700 .8rem sans-serif}}",
        f".st-key-{key} .nm-lbl {{font:700 .8rem sans-serif;text-align:center;line-height:1.9rem}}",
        f".st-key-{key} .nm-hdr {{font:700 .7rem sans-serif;text-align:center}}",
        f".st-key-{key} .nm-hdr.start {{background:#333;color:#fff;border-radius:3px}}",
    ]
    by_style: dict[tuple, list[str]] = {}
    for i in range(len(CELL_NAMES)):
        by_style.setdefault(("colour", sheet.colour_of[i]), []).append(cell(i))
        by_style.setdefault(("mark", cell_mark(sheet, crossed, selected, i, colourblind)), []).append(cell(i) + "::after")
    for (what, value), sels in by_style.items():
        if what == "colour":
            fill, ink = PALETTE[value]
            style = f"background:{fill} !important;color:{ink} !important"
        else:
            style = f'content:"{value}" / ""'  # shown, but not part of the accessible name
        rules.append(f"{','.join(sels)} {{{style}}}")

    def group(mask: int, style: str) -> None:
        sels = [cell(i) for i in range(len(CELL_NAMES)) if mask >> i & 1]
        if sels:
            rules.append(f"{','.join(sels)} {{{style}}}")

    group(crossed, "opacity:.45")
    group(highlight & ~selected, "border:2px dashed #111 !important")
    group(selected, "border:3px solid #000 !important;box-shadow:0 0 0 2px #fff inset")
    return "<style>" + "\n".join(rules) + "</style>"


def cell_grid(sheet, crossed: int, seat: int, *, selected: int, highlight: int, colourblind: bool) -> None:
    """Buttons for the cells of ``seat``'s sheet (15 narrow columns that never wrap). Each is a
    real button named after its cell (key ``cell-{seat}-{name}``); tapping toggles the cell in
    the selection; crossed cells are disabled."""
    key = f"grid-{seat}"
    st.html(_grid_css(key, seat, sheet, crossed, selected, highlight, colourblind))
    labels = sheet.spec.row_labels
    with st.grid(N_COLS + 1, wrap=False, gap=2, min_column_width=18, key=key, width=620):
        st.html('<div class="nm-hdr"></div>')
        for c in range(N_COLS):
            cls = "nm-hdr start" if c == sheet.start_col else "nm-hdr"
            st.html(f'<div class="{cls}">{COLUMNS[c]}</div>')
        for r in range(N_ROWS):
            st.html(f'<div class="nm-lbl">{html_text(labels[r])}</div>')
            for c in range(N_COLS):
                i = r * N_COLS + c
                bit = 1 << i
                name = CELL_NAMES[i]
                tip = f"{name} {COLOURS[sheet.colour_of[i]]}{' star' if sheet.star_mask & bit else ''}" + (
                    " (crossed)" if crossed & bit else " (selected)" if selected & bit else "")
                st.button(name, key=f"cell-{seat}-{name}", help=tip, on_click=_toggle_cell, args=(name,),
                          disabled=bool(crossed & bit), width="stretch")


def _pick_keys(seat: int) -> tuple[str, str, str]:
    return f"pick-c-{seat}", f"pick-n-{seat}", f"pick-col-{seat}"


def reset_picks(seat: int) -> None:
    for k in _pick_keys(seat):
        st.session_state[k] = None


def dice_picker(st_, seat: int) -> tuple[int | None, int | None, int | None]:
    """Which colour die and number die (and, for the X, which colour) the seat uses."""
    cf, nf = st_.dice_for(seat)
    kc, kn, kcol = _pick_keys(seat)
    ss = st.session_state
    for k, opts in ((kc, cf), (kn, nf), (kcol, range(5))):
        if ss.get(k) is not None and ss[k] not in opts:
            ss[k] = None
    cols = st.columns(2)
    with cols[0]:
        cd = st.segmented_control("Colour die", sorted(set(cf)), format_func=colour_face_label, key=kc)
    with cols[1]:
        nd = st.segmented_control("Number die", sorted(set(nf), key=number_order), format_func=number_face_label, key=kn)
    colour = None
    if cd == COLOUR_JOKER:
        colour = st.segmented_control("Colour for the X (costs one \"!\")", list(range(5)),
                                      format_func=colour_label, key=kcol)
    elif cd is not None:
        colour = cd
    return cd, nd, colour


def _check_seat(ses, access, seat: int, seen_roll: str) -> None:
    _need(tv.can_enter(access, state.my_seat(), seat), f"this device may enter only for seat {(state.my_seat() or 0) + 1}")
    _same_roll(ses, seen_roll)  # the roll changed under this device's eyes
    _need(seat in tv.seats_to_decide(ses.state), f"R-ORDER: seat {seat + 1} does not decide now")


def _cross(seat: int, seen_roll: str) -> None:
    ss = st.session_state
    names = list(ss.get("selected_cells", []))
    kc, kn, kcol = _pick_keys(seat)
    cd, nd, colour = ss.get(kc), ss.get(kn), ss.get(kcol)

    def do(ses, access):
        _check_seat(ses, access, seat, seen_roll)
        mask = mask_of(names)
        col = colour if cd == COLOUR_JOKER else None
        move = tv.build_cross(ses.state, seat, mask, cd, nd, col)
        ses.record(move, seat=seat, by=who(access))
        reset_picks(seat)
        return f"{md(ses.seat_names[seat])} crossed {COLOURS[move.colour]} {'-'.join(sorted(names))}."

    run_action(do)


def _fail(seat: int, seen_roll: str) -> None:
    def do(ses, access):
        _check_seat(ses, access, seat, seen_roll)
        ses.record(PASS, seat=seat, by=who(access))
        reset_picks(seat)
        if ses.game.mode == "coop":
            return f"{md(ses.seat_names[seat])} marked a failed roll (C-FAIL)."
        return f"{md(ses.seat_names[seat])} passed."

    run_action(do)


def move_controls(st_, seat: int, names: list[str], colourblind: bool) -> None:
    """The interactive sheet of the seat entering now: grid, dice pair, Cross / Fail."""
    s = st_.seats[seat]
    cd, nd, colour = dice_picker(st_, seat)
    selected = mask_of(st.session_state.get("selected_cells", []))
    highlight = 0
    if cd is not None or nd is not None:
        highlight = tv.start_cells(st_, seat, cd, nd, colour if cd == COLOUR_JOKER else None)
    left, right = st.columns([3, 2])
    with left:
        cell_grid(s.sheet, s.crossed, seat, selected=selected, highlight=highlight, colourblind=colourblind)
    with right:
        st.html(sheet_html(s.sheet, s.crossed, selected=selected, highlight=highlight, colourblind=colourblind,
                           title=f"{seat_text(names, seat)} — {s.sheet.spec.name}", compact=True))
        if highlight:
            st.caption("Dashed: cells where a legal move with these dice can go.")
        elif cd is not None or nd is not None:
            st.caption("No legal move with these dice.")
        if selected:
            ok = tv.moves_for_cells(st_, seat, selected, cd, nd, colour if cd == COLOUR_JOKER else None)
            if ok:
                m = ok[0]
                st.caption(f"✓ legal: {colour_label(m.colour)} ×{m.count} with dice "
                           f"{colour_face_label(m.colour_die)} + {number_face_label(m.number_die)}"
                           + (f" (costs {m.joker_cost} \"!\")" if m.joker_cost else ""))
            else:
                st.caption("Selected: " + ", ".join(sorted(st.session_state["selected_cells"])) +
                           " — not a legal move with these dice yet.")
    fail_label = "Failed roll (C-FAIL)" if st_.game.mode == "coop" else "Pass"
    with st.container(horizontal=True):
        st.button("Cross", key="cross-btn", type="primary", icon="✖️", on_click=_cross, args=(seat, roll_key(st_)),
                  disabled=not selected)
        st.button("Clear selection", key="clear-btn", on_click=_clear_cells, disabled=not selected)
        st.button(fail_label, key="fail-btn", icon="🟥" if st_.game.mode == "coop" else "⏭️", on_click=_fail,
                  args=(seat, roll_key(st_)), help="Use no combination this roll" +
                  (": marks the leftmost red box; the third loses the game" if st_.game.mode == "coop" else ""))


# --------------------------------------------------------------------------- seats
def seat_status_html(st_, seat: int) -> str:
    s = st_.seats[seat]
    jl = s.jokers_left
    box = ("display:inline-block;width:15px;height:17px;margin-right:2px;border-radius:3px;text-align:center;"
           "font:700 11px/17px sans-serif;vertical-align:middle;")
    jokers = "".join(
        f'<span style="{box}border:1px solid #333;background:#fff;color:#000">!</span>' if k < jl else
        f'<span style="{box}border:1px solid #bbb;background:#eee;color:#aaa;text-decoration:line-through">!</span>'
        for k in range(s.sheet.jokers))
    out = (f'<span style="white-space:nowrap;margin-right:10px" title="{jl} of {s.sheet.jokers} &quot;!&quot; left">'
           f'"!" left: <b>{jl}</b> {jokers}</span>')
    if st_.game.mode == "coop":
        boxes = s.sheet.spec.coop.failed_roll_boxes if s.sheet.spec.coop else 3
        fails = "".join(
            f'<span style="{box}border:2px solid #c62828;background:{"#c62828" if k < s.failed else "#fff"};'
            f'color:#fff">{"✕" if k < s.failed else ""}</span>' for k in range(boxes))
        out += (f'<span style="white-space:nowrap" title="{s.failed} of {boxes} failed rolls (C-FAIL)">failed rolls: '
                f'<b>{s.failed}/{boxes}</b> {fails}</span>')
    return f'<div class="nm-status" style="font:13px sans-serif;margin:2px 0 6px">{out}</div>'


def seat_sheets(st_, names: list[str], bots: list, *, skip: int | None, recent: list[int], colourblind: bool) -> None:
    """Every seat's sheet (HTML) with "!" left and failed rolls; ``skip`` is drawn elsewhere."""
    seats = [i for i in range(st_.game.n_seats) if i != skip]
    if not seats:
        return
    per_row = 2
    for start in range(0, len(seats), per_row):
        cols = st.columns(per_row)
        for col, seat in zip(cols, seats[start:start + per_row]):
            s = st_.seats[seat]
            with col:
                tag = " 🤖" if bots[seat] else ""
                prov = "" if s.sheet.provenance == "verified" else f" ({s.sheet.provenance})"
                st.html(sheet_html(s.sheet, s.crossed, last=recent[seat], colourblind=colourblind, compact=True,
                                   title=f"{seat_text(names, seat)}{tag} — {s.sheet.id}{prov}")
                        + seat_status_html(st_, seat))


# --------------------------------------------------------------------------- team decisions
def _decide(action, done: str) -> None:
    def do(ses, access):
        if ses.state.current_player() != TEAM:  # another device decided first
            raise ConflictError(ses.game_id, 0, ses.n_events)
        ses.record(action, by=who(access))
        return done

    run_action(do)


def _strike(n: int) -> None:
    per = tuple(int(st.session_state.get(f"strike-{i}") or 0) for i in range(n))
    _decide(StrikeJokers(per), "The \"!\" are struck (C-GOAL-10).")


def _remove(die: str) -> None:
    _decide(RemoveDie(die), f"A {die} die leaves the game (C-GOAL-19).")


def decision_panel(st_, names: list[str]) -> None:
    """C-GOAL-10 / C-GOAL-19 penalties: a team decision, entered here."""
    d = st_.extra.get("decision") or {}
    chk = st_.extra.get("checks", {}).get(str(d.get("turn")), {})
    with st.container(border=True, key="decision-panel"):
        if d.get("kind") == "strike_jokers":
            amount = d["amount"]
            st.subheader("Goal after turn 10 missed (C-GOAL-10)")
            st.write(f"The team has **{chk.get('points')}** points, the goal was **{chk.get('goal')}**. "
                     f"Strike **{amount}** \"!\" in total, split as you like.")
            cols = st.columns(min(len(names), 6))
            total = 0
            for i, s in enumerate(st_.seats):
                with cols[i % len(cols)]:
                    v = st.number_input(f"{seat_label(names, i)} ({s.jokers_left} left)", min_value=0,
                                        max_value=s.jokers_left, step=1, key=f"strike-{i}")
                    total += int(v or 0)
            st.caption(f"Chosen: {total} of {amount}.")
            st.button("Strike these \"!\"", key="strike-btn", type="primary", on_click=_strike,
                      args=(len(names),), disabled=total != amount)
        elif d.get("kind") == "remove_die":
            st.subheader("Goal after turn 19 missed (C-GOAL-19)")
            st.write(f"The team has **{chk.get('points')}** points, the goal was **{chk.get('goal')}**. "
                     "One die leaves the game for good — the team chooses which kind.")
            with st.container(horizontal=True):
                st.button("Remove a colour die", key="remove-colour", on_click=_remove, args=("colour",))
                st.button("Remove a number die", key="remove-number", on_click=_remove, args=("number",))


# --------------------------------------------------------------------------- mission / outcome
KIND_TEXT = {"colours": "different colours completed", "rows": "different rows filled",
             "star_columns": "columns with a crossed star", "number_fields": "number fields filled",
             "sequence": "columns N-O-C-H-M-A-L in order"}


def mission_panel(progress: dict, names: list[str], over: bool = False) -> None:
    """Each requirement: what is done (and by whom), what is missing, for M5 the next column."""
    head = "✅ complete" if progress["complete"] else "not complete" if over else "in progress"
    st.markdown(f"**Mission {progress['mission']} — {md(progress['name'])}** ({head})")
    for r in progress["requirements"]:
        ok = "✅" if r["complete"] else "⬜"
        done = ", ".join(f"{k} ({', '.join(md(names[s - 1]) if s - 1 < len(names) else str(s) for s in v)})"
                         for k, v in r["done"].items()) or "nothing yet"
        line = f"{ok} **{r['have']}/{r['needed']}** {KIND_TEXT.get(r['kind'], r['kind'])} — done: {done}"
        if r["kind"] == "sequence":
            line += f"; next column: **{r.get('next') or '—'}**"
        if r["missing"] and not r["complete"]:
            line += f"; missing: {', '.join(r['missing'])}"
        st.markdown(line)


def outcome_panel(st_, names: list[str]) -> None:
    out = st_.outcome().to_json()
    with st.container(border=True, key="outcome"):
        if st_.game.mode == "coop":
            if out["won"]:
                st.success(f"🎉 The team WON — {md(out['reason'])} after {out['turns']} turns.")
            else:
                st.error(f"The team lost — {md(out['reason'])}.")
            rows = []
            for t, c in sorted(out["checks"].items(), key=lambda kv: int(kv[0])):
                pen = c.get("penalty") or {}
                rows.append({"after turn": int(t), "team points": c["points"], "goal": c["goal"],
                             "met": "yes" if c["met"] else "no",
                             "penalty": ("-" if not pen else f"a {pen['removed_die']} die removed"
                                         if "removed_die" in pen else f"{pen.get('jokers')} \"!\" struck")})
            if rows:
                st.table(rows)
            st.table([{"seat": seat_label(names, i), "failed rolls": out["failed_rolls"][i],
                       "\"!\" left": out["jokers_left"][i], "column points": out["scores"][i]["columns"],
                       "columns": " ".join(out["scores"][i]["columns_completed"])}
                      for i in range(len(names))])
            st.caption(f"Team points now: {out['team_points_now']}. Tableau {md(out['tableau']['id'])} "
                       f"({out['tableau']['provenance']}); sheets: {', '.join(out['sheets_provenance'])}.")
            mission_panel(out["mission"], names, over=True)
        else:
            winners = ", ".join(md(names[w]) for w in out["winners"])
            st.success(f"🏁 Game over after {out['rolls']} rolls — {md(out['reason'])}. "
                       f"{'Winner' if len(out['winners']) == 1 else 'Winners'}: **{winners}**")
            st.table([{"seat": seat_label(names, s["seat"]), "colours": s["colours"], "columns": s["columns"],
                       "\"!\"": s["jokers"], "stars": s["stars"], "total": s["total"],
                       "colours completed": ", ".join(s["colours_completed"]),
                       "columns completed": " ".join(s["columns_completed"])} for s in out["scores"]])
            band = out.get("solo_band")
            if band:
                st.info(f"Solo rating: {'★' * band['stars'] or '—'} — {band['words']} "
                        f"(band {band['band'] + 1} of 13, R-SOLO-SCORE)")


# --------------------------------------------------------------------------- undo / live
def may_undo(access: str, ev) -> bool:
    if access == "host":
        return True
    seat = state.my_seat()
    return seat is not None and getattr(ev, "seat", None) == seat


def _undo() -> None:
    def do(ses, access):
        ev = tv.last_effective_event(ses.events)
        _need(ev is not None, "nothing to undo")
        _need(may_undo(access, ev), "this device may undo only its own seat's last entry")
        ses.undo(by=who(access))
        return f"Undone: {md(describe(ev, ses.seat_names))}"

    run_action(do)


def undo_button(ses, access: str, key: str = "undo-btn") -> None:
    ev = tv.last_effective_event(ses.events)
    if ev is None:
        st.caption("Nothing to undo yet.")
        return
    text = md(describe(ev, ses.seat_names))
    st.button(f"Undo: {text}", key=key, icon="↩️", on_click=_undo, disabled=not may_undo(access, ev),
              help="Takes back the last decision still in force (the undo itself is kept in the history)")


def live_refresh(game_id: str, seen: int) -> None:
    """Re-read the game every 1.5 s; rerun the page when another device added an event."""

    @st.fragment(run_every=1.5)
    def _watch() -> None:
        try:
            n = state.store().n_events(game_id)
        except StoreError:
            return
        if n != seen:
            st.rerun()

    _watch()


# --------------------------------------------------------------------------- seats / join
def _claim(seat_key: str, seen: dict) -> None:
    seat = st.session_state.get(seat_key)

    def do(ses, access):
        _need(access in ("seat", "host"), "a join link or join code is needed to claim a seat")
        _need(seat is not None, "choose a seat first")
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


def export_json(ses) -> str:
    return json.dumps(ses.export(), indent=1)


def follow_goto() -> None:
    """Switch page if a callback asked for it (st.switch_page cannot run inside a callback);
    the open game's URL query goes along."""
    target = st.session_state.pop("goto", None)
    if target:
        st.switch_page(PAGES_DIR / f"{target}.py", query_params=st.query_params.to_dict())


# --------------------------------------------------------------------------- team plan
PLAN_FIELDS = (("colours", "colours"), ("rows", "rows"), ("star_columns", "star columns"),
               ("number_fields", "number fields"), ("columns", "columns (in order)"))


def team_plan_rows(plan: dict, names: list[str], bots: list | None = None) -> list[dict]:
    """The team plan as table rows: seat -> its targets (only the kinds the mission has)."""
    seats = plan["seats"]
    used = [(k, label) for k, label in PLAN_FIELDS if any(s[k] for s in seats)]
    rows = []
    for s in seats:
        i = s["seat"]
        name = names[i] if i < len(names) else ""
        # seat number and name in two cells ("1. Ada" would be drawn as a Markdown list)
        row = {"seat": i + 1, "player": name + (" 🤖" if bots and i < len(bots) and bots[i] else "")}
        for k, label in used:
            vals = [str(v) for v in s[k]]
            row[label] = ("-".join(vals) if k == "columns" else ", ".join(vals)) or "—"
        rows.append(row)
    return rows


def team_plan_markdown(rows: list[dict]) -> str:
    """The plan's rows as a Markdown table (not ``st.table``: the pages' tables keep their order)."""
    if not rows:
        return ""
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(md(r[h]) for h in head) + " |" for r in rows]
    return "\n".join(lines)


def team_plan_panel(plan: dict, names: list[str], *, digital: bool = False, bots: list | None = None) -> None:
    """Who aims at what for the mission (``nochmal.plan.team_plan``): the notes and a table."""
    st.markdown("\n".join(f"- {note}" for note in plan["notes"]) or "- nothing to divide for this mission")
    st.markdown(team_plan_markdown(team_plan_rows(plan, names, bots)))
    if digital:
        st.caption("🤖 Bots in this game follow this plan: their own targets count most for them, what the team "
                   "still needs a little.")
    else:
        st.caption("A suggestion: each seat gets the targets its own sheet makes easiest (nearest the start column), "
                   "and no target twice while another seat is free.")


# --------------------------------------------------------------------------- advisor
ADVICE_CACHE = "advice-cache"


def selection_ctx(game_id: str, seat: int, st_) -> str:
    """Names the move being built (game, seat, roll): when it changes, the selection restarts."""
    return f"{game_id}|{seat}|{roll_key(st_)}"


def _use_suggestion(seat: int, cells: list[str], cdie, ndie, colour, ctx: str, text: str) -> None:
    """Fill the suggested move in (cells and dice pickers); the player still presses Cross."""
    ss = st.session_state
    ss["entry-seat"] = seat
    ss["sel-ctx"] = ctx  # keeps the page from starting a fresh selection for this seat
    kc, kn, kcol = _pick_keys(seat)
    if cells:
        ss["selected_cells"] = list(cells)
        ss[kc], ss[kn] = cdie, ndie
        ss[kcol] = colour if cdie == COLOUR_JOKER else None
        state.flash("info", f"Advisor's move filled in: {text}. Press **Cross** to enter it.")
    else:
        ss["selected_cells"] = []
        reset_picks(seat)
        state.flash("info", f"The advisor suggests: {text}. Press the {text} button to enter it.")


def advice_for(ses, st_, seats: list[int]) -> dict[int, list]:
    """Suggestions per seat, cached in the session per (game id, number of events, seat)."""
    from ..advice import suggestions

    cache = st.session_state.get(ADVICE_CACHE) or {}
    cache = {k: v for k, v in cache.items() if k[:2] == (ses.game_id, ses.n_events)}  # drop old positions
    todo = [s for s in seats if (ses.game_id, ses.n_events, s) not in cache]
    if todo:
        budget = min(1.0, max(0.5, 2.0 / len(seats)))  # several seats: share the time
        with st.spinner("The advisor plays the game out with each candidate move…"):
            for seat in todo:
                cache[(ses.game_id, ses.n_events, seat)] = suggestions(st_, seat, k=3, rng_seed=ses.n_events,
                                                                       budget=budget)
    st.session_state[ADVICE_CACHE] = cache
    return {s: cache[(ses.game_id, ses.n_events, s)] for s in seats}


def suggestion_markdown(sug, coop: bool) -> str:
    if sug.is_pass:
        move = "🟥 **failed roll**" if coop else "⏭️ **pass**"
    else:
        a = sug.action
        dice = colour_face_label(a.colour_die) + (f" as {COLOURS[a.colour]}" if a.colour_die == COLOUR_JOKER else "")
        num = number_face_label(a.number_die) + (f" as {a.count}" if a.number_die == NUMBER_JOKER else "")
        move = f"{colour_label(a.colour)} **{'-'.join(sug.cells)}** · dice {dice} + **{num}**"
    if sug.win_chance is not None:
        est = f"win chance **{round(100 * sug.win_chance)}%**"
        if sug.mission_share is not None and sug.win_chance < 1:
            est += f" · mission {round(100 * sug.mission_share)}% done on average"
    else:
        est = f"estimated final score **{sug.est_score:.1f}**"
    return f"{move}  \n{est} ({sug.rollouts} rollouts) — {sug.reason}"


def advisor_panel(ses, st_, seats: list[int], names: list[str]) -> None:
    """The advisor (off by default): for each seat this device enters for, the three best
    moves of this roll with their estimate and reason, each with a "Use" button."""
    on = st.toggle("Advisor: the best moves for this roll", key="advisor-on",
                   help="Suggests three moves per seat, each with its estimated win chance (co-op) or final score, "
                        "from games played out by the greedy bots. Takes a second or two per roll.")
    if not on:
        return
    if not seats:
        st.caption("The advisor has nothing to suggest to this device now (no seat of it decides).")
        return
    coop = st_.game.mode == "coop"
    try:
        by_seat = advice_for(ses, st_, seats)
    except NochmalError as err:
        st.error(f"The advisor could not look at this position: {md(err)}")
        return
    with st.container(border=True, key="advisor"):
        for seat in seats:
            role = "active" if seat == st_.active and st_.phase == "active" else "passive"
            st.markdown(f"**Advisor — {seat_label(names, seat)}** ({role})")
            ctx = selection_ctx(ses.game_id, seat, st_)
            for i, sug in enumerate(by_seat[seat]):
                cols = st.columns([9, 1], vertical_alignment="center")
                cols[0].markdown(f"**{i + 1}.** " + suggestion_markdown(sug, coop))
                a = sug.action
                if sug.is_pass:
                    args = (seat, [], None, None, None, ctx, "Failed roll (C-FAIL)" if coop else "Pass")
                else:
                    args = (seat, list(sug.cells), a.colour_die, a.number_die, a.colour, ctx,
                            f"{COLOURS[a.colour]} {'-'.join(sug.cells)}")
                cols[1].button("Use", key=f"advise-{seat}-{i}", on_click=_use_suggestion, args=args,
                               help="Fill this move in (cells and dice); you still press Cross")
        what = "the share of those games the team won" if coop else "the seat's average final score in them"
        st.caption(f"How: after each candidate move the greedy bots play the game to its end several times, "
                   f"every move with the same dice; the estimate is {what}. Few rollouts: take it as a hint.")
