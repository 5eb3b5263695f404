"""Games for the page tests: created through :class:`GameSession` in the test's own store, shown
on the Table page through AppTest, and played on by a simple policy (the cheapest cross); and
:func:`rule_ids`, which finds the rule ids a text shows (a player should see words instead)."""

from __future__ import annotations

import re

from apptools import TABLE, app, no_exception
from nochmal.engine.game import CHANCE, TEAM
from nochmal.engine.moves import PASS, Cross
from nochmal.store.session import GameSession
from nochmal.ui import entry, newgame

#: A rule id of RULES.md (R-ADJ, C-GOAL-10, M5-...); "M1".."M5" alone where used as a rule id.
RULE_ID = re.compile(r"\b(?:R|C|M[1-5]?)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b|\(M[1-5]\)|\bM[1-5]:")
#: Column sequences such as N-O-C-H-M-A-L look like rule ids to the pattern above: not rule ids.
COLUMN_SEQUENCE = re.compile(r"\b[A-O](?:-[A-O]){2,}\b")


def rule_ids(text: str) -> list[str]:
    return RULE_ID.findall(COLUMN_SEQUENCE.sub("", text))


def load(store, gid: str) -> GameSession:
    return GameSession.load(store, gid)


def make(store, mode="coop", players=3, kind="companion", bots=None, seed=None, mission=1) -> GameSession:
    game = newgame.make_game(mode, newgame.default_sheets(mode, players), mission)
    return GameSession.create(store, game, title="t", seat_names=[f"P{i + 1}" for i in range(players)],
                              kind=kind, seed=seed, bots=bots)


def cheapest_cross(state, seat):
    best = None
    for mv in state.legal_actions(seat):
        if isinstance(mv, Cross) and (best is None or mv.joker_cost < best.joker_cost):
            best = mv
    return best


def host_table(ses: GameSession):
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(TABLE).run()
    no_exception(at)
    return at


def drive_to_decision(ses, limit=400):
    """Play on to the team's next decision (or the end): one-cell moves keep the team far below
    the goals without failed rolls."""
    for _ in range(limit):
        st_ = ses.state
        if st_.current_player() == TEAM or st_.is_terminal():
            return
        if st_.current_player() == CHANCE:
            ses.roll_digital()
        else:
            seat = entry.seats_to_decide(st_)[0]
            small = [m for m in st_.legal_actions(seat) if isinstance(m, Cross) and m.count == 1 and not m.joker_cost]
            ses.record(small[0] if small else cheapest_cross(st_, seat) or PASS, seat=seat)


def step(ses) -> None:
    """One entry of a digital co-op game: the roll, the team's first penalty choice, or the
    cheapest cross (a failed roll when there is none)."""
    st_ = ses.state
    if st_.current_player() == CHANCE:
        ses.roll_digital()
    elif st_.current_player() == TEAM:
        ses.record(st_.legal_actions(TEAM)[0], TEAM)
    else:
        seat = entry.seats_to_decide(st_)[0]
        ses.record(cheapest_cross(st_, seat) or PASS, seat=seat)
