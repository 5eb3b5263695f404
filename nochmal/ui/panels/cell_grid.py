"""The cell grid: one button per cell of a seat's sheet, tapped to build the selection of
cells a cross will take, drawn with the sheet's colours and marks, and the column values
under it (circled and struck as on paper).

A tap on a cell button is caught in the page (:data:`SELECTION_JS`, a hidden Custom Component;
issue 42, item 1): the cell is drawn selected or not at once, and the tap goes to the server in the
component's state, the list of the taps the server has not yet acknowledged, each numbered. A
button's own click would reach the server as a one-off trigger, and a trigger that arrives while
a run is going can be lost (tried: five of six taps 0.1 s apart on a busy machine); a state is never
lost, the newest list wins, and it holds every tap still unacknowledged. The server toggles each
tap it has not applied yet (:func:`_taps_sent`) and sends back the selection and the number of the
last tap applied; the browser draws that selection with its later taps toggled on top. Toggles
commute, so a tap the server applies late, or a tap that went through the button before the
component was there, ends in the same selection; the server's own changes (Clear, an entered or
refused cross, the advisor's move, a new roll) replace the selection and later taps apply to the
new one. The buttons stay real buttons named after their cells (screen readers, keyboards, and
the app tests' clicks, which call :func:`_toggle_cell` on the server)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from nochmal.engine.cells import CELL_NAMES, COLUMNS, N_COLS, N_ROWS
from nochmal.data.i18n import _, pgettext
from nochmal.ui import state
from nochmal.ui.explain import cell_label
from nochmal.ui.labels import colour_name, translated
from nochmal.ui.safe import html_text
from nochmal.ui.sheetview import MARK_WORDS, PALETTE, colour_letters

_NAMES = frozenset(CELL_NAMES)
#: the height and least width of a cell button in CSS px: a finger's tap target
CELL_PX = 44
#: the page's background (the theme's, .streamlit/config.toml): behind the row labels that stay put
#: while a grid scrolls sideways
PAGE_BG = "#fffaf5"


SELECTION_JS = r"""
const CELL = /^st-key-cell-(\d+)-([A-O][1-7])$/;
const cellOf = (box) => [...box.classList].map((c) => c.match(CELL)).find(Boolean);
export default function (component) {
  const { data, setStateValue, parentElement } = component;
  const w = window;
  const reg = w.__nmSelection = w.__nmSelection || {};
  const s = reg[data.seat] = reg[data.seat] || { seq: 0, taps: [] };
  s.host = parentElement;
  s.send = setStateValue;
  s.letters = data.letters || {};
  s.selected = data.selected;
  s.focus = data.focus || [];
  s.taps = s.taps.filter((t) => t.n > data.applied);  // the server has applied the others
  s.seq = Math.max(s.seq, data.applied);
  s.shown = () => {
    const on = new Set(s.selected);
    s.taps.forEach((t) => { if (on.has(t.cell)) on.delete(t.cell); else on.add(t.cell); });
    return on;
  };
  // the selection is drawn by a style element of the page's own, not by marks on the buttons:
  // Streamlit may replace a button's element in any run, and a mark on it would go with it
  s.style = s.style || document.head.appendChild(document.createElement("style"));
  s.paint = () => {
    const grid = `.st-key-grid-${Number(data.seat)}`;
    s.style.textContent = [...s.shown()].filter((c) => /^[A-O][1-7]$/.test(c)).map((c) => {
      const letter = /^\p{Lu}\p{Ll}?$/u.test(s.letters[c] || "") ? s.letters[c] : "";
      const button = `${grid} .st-key-cell-${Number(data.seat)}-${c} button:not(:disabled)`;
      return `${button}{border:3px solid #000 !important;box-shadow:0 0 0 2px #fff inset}` +
        `${button}::after{content:"${letter}\u25cf" / "" !important}`;
    }).join("\n");
  };
  w.__nmSending = data.sending;
  if (!w.__nmSelectionClicks) {
    w.__nmSelectionClicks = true;
    // "Cross" and the failed roll show "Sending…" from the tap until the server's run has ended
    const app = document.querySelector("[data-testid=stApp]");
    if (app) {
      new MutationObserver(() => {
        if (app.getAttribute("data-test-script-state") !== "running") {
          document.querySelectorAll("button[data-nm-sending]").forEach((b) => b.removeAttribute("data-nm-sending"));
        }
      }).observe(app, { attributes: true, attributeFilter: ["data-test-script-state"] });
    }
    // capture, on the document: before the button's own handler (in React's root) sees the click
    document.addEventListener("click", (ev) => {
      const button = ev.target instanceof Element ? ev.target.closest("button") : null;
      if (button && !button.disabled && button.closest(".st-key-cross-btn, .st-key-fail-btn")) {
        button.setAttribute("data-nm-sending", w.__nmSending || "\u23f3");
        return;
      }
      const box = button && button.closest('[class*="st-key-cell-"]');
      const m = box && cellOf(box);
      const t = m && w.__nmSelection[m[1]];
      if (!t || button.disabled || !t.host || !t.host.isConnected) return;
      ev.preventDefault();
      ev.stopPropagation();
      t.seq += 1;
      t.taps.push({ n: t.seq, cell: m[2] });
      t.paint();
      t.send("taps", t.taps.slice());
    }, true);
  }
  // a sheet wider than its box (a phone held upright) scrolls sideways inside it: on a new roll,
  // and when the server changes the selection, the cells that matter now are brought into view
  // (the selection, else where a cross can go); the player's own scrolling is left alone otherwise
  s.reveal = () => {
    const box = document.querySelector(`.st-key-grid-${Number(data.seat)}`);
    if (!box || box.scrollWidth <= box.clientWidth + 1) return;
    const on = [...s.shown()];
    const cells = (on.length ? on : s.focus).filter((c) => /^[A-O][1-7]$/.test(c))
      .map((c) => box.querySelector(`.st-key-cell-${Number(data.seat)}-${c}`)).filter(Boolean);
    if (!cells.length) return;
    const left = box.getBoundingClientRect().left - box.scrollLeft;
    const lo = Math.min(...cells.map((e) => e.getBoundingClientRect().left - left));
    const hi = Math.max(...cells.map((e) => e.getBoundingClientRect().right - left));
    const labels = 18;  // the row labels stay at the left edge (sticky)
    const room = box.clientWidth - labels;
    if (lo >= box.scrollLeft + labels && hi <= box.scrollLeft + box.clientWidth) return;
    box.scrollLeft = Math.max(0, hi - lo <= room ? lo - labels - (room - (hi - lo)) / 2 : lo - labels);
  };
  const view = `${data.roll}|${[...data.selected].sort().join(",")}`;
  if (s.view !== view) {
    s.view = view;
    requestAnimationFrame(() => requestAnimationFrame(s.reveal));
  }
  s.paint();
  return () => { if (!s.host || !s.host.isConnected) s.style.textContent = ""; };
}
"""

_selection = st.components.v2.component("nochmal_selection", js=SELECTION_JS)


def _toggle_cell(name: str) -> None:
    """A button's own click reached the server (the app tests; a browser's taps go through the
    component): the server's change of the selection."""
    sel = list(st.session_state.get("selected_cells", []))
    if name in sel:
        sel.remove(name)
    else:
        sel.append(name)
    state.set_selection(sel)


#: the browser sends at most this many unacknowledged taps (a longer list is not a player's)
MAX_TAPS = 500


def _applied_key(seat: int) -> str:
    return f"taps-applied-{seat}"


def selection_key(seat: int) -> str:
    """The key of ``seat``'s selection component (its state: the browser's taps)."""
    return f"nm-selection-{seat}"


def apply_browser_taps(seat: int) -> None:
    """The taps of ``seat`` that the browser has sent and the server has not applied yet, applied
    now. For Cross: on a busy page a tap's own run can be lost, and its taps then reach the server
    with the Cross click, in one run whose callbacks may call Cross first. Cross acts on the
    selection the player sees (a fresh-clone CI run was refused "HP, HQ and HR are not all one
    colour" for six cells drawn as selected). Applying twice changes nothing: taps are numbered."""
    _taps_sent(selection_key(seat), seat)


def _taps_sent(key: str, seat: int) -> None:
    """Apply the browser's taps (the component's state) that were not applied yet, in their order;
    checked, as all input: numbered taps of cell names, anything else is ignored."""
    taps = (st.session_state.get(key) or {}).get("taps")
    if not isinstance(taps, list) or len(taps) > MAX_TAPS:
        return
    applied = int(st.session_state.get(_applied_key(seat), 0))
    fresh = sorted((t["n"], t["cell"]) for t in taps if isinstance(t, dict) and type(t.get("n")) is int
                   and t["n"] > applied and t.get("cell") in _NAMES)
    if not fresh:
        return
    sel = list(st.session_state.get("selected_cells", []))
    for _n, name in fresh:
        if name in sel:
            sel.remove(name)
        else:
            sel.append(name)
    st.session_state["selected_cells"] = sel
    st.session_state[_applied_key(seat)] = fresh[-1][0]


def clear_cells() -> None:
    """Start the selection afresh (and forget a refusal shown for the old one)."""
    state.set_selection([])
    st.session_state.pop("refusal", None)


def cell_mark(sheet, crossed: int, selected: int, i: int, colourblind: bool) -> str:
    """What a cell shows: ✕ crossed, ● selected, ★ star (and the colour's letters in colour-blind
    mode, :func:`~nochmal.ui.sheetview.colour_letters`)."""
    bit = 1 << i
    mark = "✕" if crossed & bit else "●" if selected & bit else "★" if sheet.star_mask & bit else ""
    if colourblind:
        return colour_letters()[sheet.colour_of[i]] + mark
    return mark or "·"


def _grid_css(key: str, seat: int, sheet, crossed: int, selected: int, highlight: int, colourblind: bool,
              scroll: bool = False) -> str:
    """Colours, marks and borders of the cell buttons. A button's text is its cell name (its
    accessible name, e.g. "H4"); what it shows on screen comes from CSS. ``scroll``: every cell is
    at least :data:`CELL_PX` wide too, and a grid wider than its box scrolls sideways inside it
    with the row labels kept at its left edge (a phone held upright: 15 columns of 44 px do not
    fit 390 px)."""
    cell = lambda i: f".st-key-cell-{seat}-{CELL_NAMES[i]} button"  # noqa: E731
    px = CELL_PX
    least = f"{px}px" if scroll else "0"
    rules = [
        f".st-key-nm-selection-{seat}-box {{display: none !important}}",
        f".st-key-{key} {{gap:2px !important;grid-template-columns:14px repeat({N_COLS},minmax({least},1fr)) !important}}",
        f".st-key-{key} button {{min-height:{px}px;height:{px}px;padding:0 !important;width:100%;min-width:0;"
        f"line-height:1;border:2px solid transparent;border-radius:5px}}",
        f".st-key-{key} button > div {{position:absolute;width:1px;height:1px;overflow:hidden;"
        f"clip:rect(0 0 0 0);white-space:nowrap}}",
        f".st-key-{key} button {{display:flex;align-items:center;justify-content:center}}",
        f".st-key-{key} button::after {{font:700 1.05rem sans-serif}}",
        f".st-key-{key} .nm-lbl {{font:700 .8rem sans-serif;text-align:center;line-height:{px}px}}",
        f".st-key-{key} .nm-hdr {{font:700 .7rem/14px sans-serif;text-align:center}}",
        f".st-key-{key} .nm-hdr.start {{background:#333;color:#fff;border-radius:3px}}",
        f".st-key-{key} .nm-pts {{font:600 .68rem/12px sans-serif;text-align:center;white-space:nowrap}}",
        f".st-key-{key} .nm-pts span {{display:inline-block;min-width:14px;border-radius:50%}}",
        f".st-key-{key} .nm-pts .circled {{outline:2px solid #111;outline-offset:-1px;font-weight:800}}",
        f".st-key-{key} .nm-pts .struck {{text-decoration:line-through;opacity:.45}}",
    ]
    if scroll:
        first = (f".st-key-{key} > [data-testid=stGridCell]:has(.nm-lbl), "
                 f".st-key-{key} > [data-testid=stGridCell]:has(.nm-hdr:empty), "
                 f".st-key-{key} > [data-testid=stGridCell]:has(.nm-pts:empty)")
        rules += [f".st-key-{key} {{overflow-x:auto;overflow-y:hidden;overscroll-behavior-x:contain;"
                  f"padding-bottom:2px}}",
                  f"{first} {{position:sticky;left:0;z-index:4;background:{PAGE_BG};box-shadow:2px 0 0 {PAGE_BG}}}"]
    by_style: dict[tuple, list[str]] = {}
    for i in range(len(CELL_NAMES)):
        by_style.setdefault(("colour", sheet.colour_of[i]), []).append(cell(i))
        by_style.setdefault(("mark", cell_mark(sheet, crossed, 0, i, colourblind)), []).append(cell(i) + "::after")
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

    # co-op number fields: a round badge where the four cells of the square meet
    for number, square in sheet.number_fields:
        corner = (square & -square).bit_length() - 1
        rules.append(
            f".st-key-cell-{seat}-{CELL_NAMES[corner]} {{position:relative;overflow:visible}}"
            f".st-key-cell-{seat}-{CELL_NAMES[corner]}::after {{content:\"{int(number)}\";position:absolute;"
            f"right:-11px;bottom:-11px;z-index:3;width:20px;height:20px;border-radius:50%;background:#fff;"
            f"border:1.5px solid #111;font:700 11px/18px sans-serif;text-align:center;pointer-events:none}}")
    group(crossed, "opacity:.45")
    group(highlight & ~selected, "border:2px dashed #111 !important")
    # Cross or the failed roll tapped, the server has not answered yet (SELECTION_JS)
    rules.append(".st-key-cross-btn button[data-nm-sending] p, .st-key-fail-btn button[data-nm-sending] p "
                 "{display: none !important}"
                 ".st-key-cross-btn button[data-nm-sending]::after, .st-key-fail-btn button[data-nm-sending]::after "
                 "{content: attr(data-nm-sending)}")
    # the selection: the browser's, drawn by SELECTION_JS in a style element of its own
    return "<style>" + "\n".join(rules) + "</style>"


def styles_in_place(key: str, css: str) -> None:
    """``css`` (a ``<style>`` element) drawn where the call stands, in a box (key ``key``) that
    hides itself. A ``st.html`` of style tags alone goes to Streamlit's event container instead, and
    there a rerun of a fragment does not replace the style of the run before: the grid kept
    showing the cells selected before a refused Cross, Clear or an untap (issue 42, item 1)."""
    with st.container(key=key):
        st.html(f"<style>.st-key-{key}{{display: none !important}}</style>{css}<span></span>")


def points_html(sheet, c: int, mark: str | None) -> str:
    """Column ``c``'s values under the grid: the first value over the later one; "first"
    circles the first value, "later" strikes it and circles the later one, "gone" strikes
    the first value (another seat completed the column in an earlier roll)."""
    first_cls = "circled" if mark == "first" else "struck" if mark in ("later", "gone") else ""
    later_cls = "circled" if mark == "later" else ""
    what = translated(MARK_WORDS[mark]) if mark in ("first", "later", "gone") else ""
    title = _("{what}: {first} first, {later} later").format(
        what=_("column {column}").format(column=COLUMNS[c]), first=sheet.first_points[c],
        later=sheet.later_points[c]) + (f" ({what})" if what else "")
    return (f'<div class="nm-pts" title="{html_text(title)}"><span class="{first_cls}">{sheet.first_points[c]}</span>'
            f'<br><span class="{later_cls}">{sheet.later_points[c]}</span></div>')


def cell_grid(sheet, crossed: int, seat: int, *, selected: int, highlight: int, colourblind: bool,
              marks: Sequence[str | None] | None = None, enabled: bool = True, scroll: bool = False,
              roll: str = "") -> None:
    """Buttons for the cells of ``seat``'s sheet (15 columns that never wrap, each cell at
    least :data:`CELL_PX` tall), the column letters over them and the column values under
    them. Each is a real button named after its cell as the sheet labels it (key
    ``cell-{seat}-{name}``); tapping toggles the cell in the selection; crossed cells (and
    every cell while ``enabled`` is false) are disabled. ``scroll``: the cells are 44 px wide too,
    and the grid scrolls sideways in its box where it does not fit (a seat's own phone), bringing
    the selection, else the cells a cross can take, into view on each new roll ``roll``."""
    key = f"grid-{seat}"
    styles_in_place(f"{key}-css", _grid_css(key, seat, sheet, crossed, selected, highlight, colourblind, scroll))
    labels = sheet.spec.row_labels
    with st.grid(N_COLS + 1, wrap=False, gap=2, min_column_width=14, key=key, width="stretch"):
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
                shown = cell_label(sheet, name)
                tip = (_("{cell} {colour} star") if sheet.star_mask & bit else _("{cell} {colour}")).format(
                    cell=shown, colour=colour_name(sheet.colour_of[i]))
                if crossed & bit:
                    tip += " (" + pgettext("cell state", "crossed") + ")"
                elif selected & bit:
                    tip += " (" + pgettext("cell state", "selected") + ")"
                st.button(shown, key=f"cell-{seat}-{name}", help=tip, on_click=_toggle_cell, args=(name,),
                          disabled=bool(crossed & bit) or not enabled, width="stretch")
        if marks is not None:
            st.html('<div class="nm-pts"></div>')
            for c in range(N_COLS):
                st.html(points_html(sheet, c, marks[c]))
    if enabled:
        _selection_box(sheet, seat, colourblind, focus=[CELL_NAMES[i] for i in range(len(CELL_NAMES))
                                                        if (highlight | selected) >> i & 1], roll=roll)


def _selection_box(sheet, seat: int, colourblind: bool, focus: list[str], roll: str) -> None:
    """The hidden component that draws the browser's taps and sends them (see the module's text)."""
    ss = st.session_state
    selected = [c for c in ss.get("selected_cells", []) if c in _NAMES]
    words = colour_letters()
    letters = {name: words[sheet.colour_of[i]] for i, name in enumerate(CELL_NAMES)} if colourblind else {}
    key = selection_key(seat)
    with st.container(key=f"{key}-box"):  # hidden (see _grid_css)
        _selection(key=key, data={"seat": seat, "selected": selected, "applied": int(ss.get(_applied_key(seat), 0)),
                                  "focus": focus, "roll": roll,
                                  "letters": letters, "sending": "⏳ " + _("Sending…")},
                   on_taps_change=lambda: _taps_sent(key, seat), width="stretch", height="content")
