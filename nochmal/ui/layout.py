"""Page setup, navigation (the pages, switching between them, the open game or a way to
open one) and the shared sidebar."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from nochmal.data.i18n import N_, _, pgettext
from nochmal.store.db import StoreError

from . import device, lang, owner, state, uploader_words
from .safe import md
from .storeerror import show_store_error

PAGES_DIR = Path(__file__).resolve().parent / "pages"

CSS = """
<style>
/* the sidebar-folding script (fold_sidebar) takes no room */
.st-key-nm-fold, div:has(> .st-key-nm-fold) { display: none !important; }
/* keep grids of cell buttons on one line, even at phone width */
div[data-testid="stHorizontalBlock"]:has(> div .nm-cellrow) { flex-wrap: nowrap !important; gap: 2px !important; }
.nm-sheet { border-collapse: separate; border-spacing: 2px; font-family: sans-serif; }
</style>
"""


#: the browser tab's title (in the page's language)
PAGE_TITLE = N_("Noch mal! — companion")


def setup_page() -> None:
    lang.resolve()  # before anything is written: every text of the run speaks it
    st.set_page_config(page_title=_(PAGE_TITLE), page_icon="🎲", layout="wide")
    state.init()
    device.sync()  # this browser's device id and remembered games (localStorage)
    owner.accept_link()
    st.markdown(CSS + uploader_words.style(), unsafe_allow_html=True)  # the uploaders' words: uploader_words.py


def pages() -> list:
    """The pages, titled in the language of this run (the URL paths stay the same)."""
    return [
        st.Page(str(PAGES_DIR / "start.py"), title=pgettext("page", "Start"), icon="🏁", url_path="start",
                default=True),
        st.Page(str(PAGES_DIR / "table.py"), title=pgettext("page", "Table"), icon="🎲", url_path="table"),
        st.Page(str(PAGES_DIR / "history.py"), title=pgettext("page", "History"), icon="📜", url_path="history"),
        st.Page(str(PAGES_DIR / "sheets.py"), title=pgettext("page", "Sheets"), icon="🗺️", url_path="sheets"),
        st.Page(str(PAGES_DIR / "tableaus.py"), title=pgettext("page", "Tableaus"), icon="🎯", url_path="tableaus"),
        st.Page(str(PAGES_DIR / "dashboard.py"), title=pgettext("page", "Analytics"), icon="📊",
                url_path="analytics"),
    ]


#: pages that follow the open game's events as other devices add them (the others only follow
#: its seat claims: an analytics page that reran on every cross would lose the reader's place)
FOLLOWS_EVENTS = ("table", "history")


def run(page):
    """The sidebar and the page; returns the box for the page's end marker (:func:`sidebar`). A
    game store that cannot be opened or written ends the run with one sentence, never its path
    (:mod:`nochmal.ui.storeerror`)."""
    end_box = None
    # the browser tab names the page as the app's navigation does, and the game ("Table · Noch mal!")
    st.set_page_config(page_title=pgettext("browser tab", "{page} · Noch mal!").format(page=page.title))
    fold_sidebar()
    try:
        end_box = sidebar(page)
        page.run()
    except StoreError as err:
        show_store_error(err)
    return end_box


#: a phone held sideways (a low, wide window): Streamlit opens the sidebar there (it closes it
#: only below 768 px width), over half the screen; the script folds it once per page load,
#: unless this browser has opened or closed the sidebar itself (Streamlit keeps that choice)
FOLD_JS = """
export default function () {
  if (window.__nmSidebarFold) return undefined;
  window.__nmSidebarFold = true;
  if (!window.matchMedia("(orientation: landscape) and (max-height: 500px)").matches) return undefined;
  try {
    for (let i = 0; i < window.localStorage.length; i++) {
      if ((window.localStorage.key(i) || "").startsWith("stSidebarCollapsed-")) return undefined;
    }
  } catch (e) {}
  let tries = 0;
  const fold = () => {
    const button = document.querySelector("[data-testid=stSidebarCollapseButton] button");
    const side = document.querySelector("section[data-testid=stSidebar]");
    if (button && side && side.getAttribute("data-collapsed") === "false") { button.click(); return; }
    if (side && side.getAttribute("data-collapsed") === "true") return;
    if (++tries < 100) setTimeout(fold, 50);
  };
  fold();
  return undefined;
}
"""
_fold = st.components.v2.component("nochmal_sidebar_fold", js=FOLD_JS, isolate_styles=True)


def fold_sidebar() -> None:
    """Mount the (invisible) script that folds the sidebar of a phone held sideways."""
    with st.container(key="nm-fold"):
        _fold(key="nm-fold-script", width="stretch", height="content")


def sidebar(page):
    """The sidebar of every page, and the open game's watcher (see :func:`state.watch_game`);
    returns the box for the page's end marker (``follow.page_ended``), None without a game."""
    with st.sidebar:
        lang.switch()
        state.colourblind_switch("colourblind-side")
        st.toggle(_("Colour-blind mode (letters on cells)"), key="colourblind-side", on_change=state.set_colourblind,
                  args=("colourblind-side",))
        opened = state.open_game()
        if opened is not None:
            ses, access = opened
            st.caption(_("Game **{title}**").format(title=md(ses.title)))
            humans = sum(1 for b in (ses.meta.get("bots") or [None] * ses.game.n_seats) if not b)
            if access == "host" and humans > 1:  # solo, or one person against bots: no phone to join
                st.caption(_("Phones join with the QR code or link under **📱 Join with phones** on the Table page."))
            elif state.my_seat() is not None:
                st.caption(_("This device plays seat {seat}: {name}").format(
                    seat=state.my_seat() + 1, name=md(ses.seat_names[state.my_seat()])))
            return state.watch_game(ses, events=page.url_path in FOLLOWS_EVENTS, focus=page.url_path == "table")
    return None


def game_or_stop():
    """The open game, or a hint where to open one (and stop the page)."""
    opened = state.open_game()
    if opened is None:
        if st.session_state.get("device_pending"):  # a reload: the code is in this browser's storage
            st.info(_("Opening the game on this device…"), icon="⏳")
            st.stop()
        lost = state.lost_seat_note()
        if lost:  # this device's seat code was taken over by another device's claim
            st.warning(lost, icon="📱")
            st.page_link(str(PAGES_DIR / "start.py"), label=_("Go to Start"), icon="🏁")
            st.stop()
        if st.session_state.get("access_note"):
            st.warning(st.session_state["access_note"])
        st.info(_("No game is open. Start a new one or open one with its id and code on the **Start** page."))
        st.page_link(str(PAGES_DIR / "start.py"), label=_("Go to Start"), icon="🏁")
        st.stop()
    return opened


def follow_goto() -> None:
    """Switch page if a callback asked for it (st.switch_page cannot run inside a callback);
    the open game's URL query goes along."""
    target = st.session_state.pop("goto", None)
    if target:
        st.switch_page(PAGES_DIR / f"{target}.py", query_params=st.query_params.to_dict())
