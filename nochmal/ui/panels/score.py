"""The running score of a base or solo game, as players on paper keep it at the foot of their
sheets: points for closed columns, colour bonuses, "!" left, stars not crossed (minus) and the
total. The engine's scoring works it out (``Game.seat_score``, R-SCORE); nothing is counted here.
A co-op game has none: its screens show team points and the mission instead."""

from __future__ import annotations

import streamlit as st

from nochmal.data.i18n import _
from nochmal.ui.labels import seat_text
from nochmal.ui.safe import md


def seat_cell(names: list[str], seat: int) -> str:
    """A seat in a table cell (Markdown): "1\\. Ada", its name escaped; as :func:`seat_label`
    writes it ("1. Ada"), a cell would show a numbered list without its number."""
    return md(seat_text(names, seat))


def score_rows(gs, names: list[str]) -> list[dict]:
    """One row per seat: columns, colours, "!", stars, total (as the engine scores them now)."""
    game = gs.game
    rows = []
    for i in range(game.n_seats):
        sc = game.seat_score(gs, i)
        rows.append({_("seat"): seat_cell(names, i), _("columns"): sc.columns, _("colours"): sc.colours,
                     _("\"!\""): sc.jokers, _("stars"): sc.stars, _("total"): sc.total})
    return rows


def running_score(gs, names: list[str], key: str = "running-score") -> None:
    """The score so far of every seat, in a small table; nothing in a co-op game or once the game
    is over (the outcome shows the final scores)."""
    if gs.game.cooperative or gs.is_terminal():
        return
    with st.container(key=key, gap="xsmall"):
        st.markdown(_("**Score so far**"))
        st.table(score_rows(gs, names), hide_index=True, border="horizontal")
        if any(s.new_columns or s.new_colours for s in gs.seats):  # R-FIRST: settled at the roll's end
            st.caption(_("Columns and colours completed in this roll count once the roll is over."))
