"""*twenty one* (Benndorf & Staupe, NSV 2017): the rules of ``RULES-TWENTYONE.md`` (ids ``T-...``),
pure like the rest of the engine (nothing heavier than pydantic).

    from nochmal.engine.twentyone import TwentyOneGame, Roll, KEEP, AGAIN, Enter, CrossOut

    game = TwentyOneGame.create(1)                  # practice (T-PRACTICE) on sheet A
    state = game.new_state()
    state.apply(Roll.of(4, 1, 6, 3, 2, 5))          # a chance action: white 4, black 1, ...
    state.apply(KEEP)                               # or AGAIN: the 1s stay, the rest are rolled again
    state.fits(0)                                   # the dice seat 0 may enter, each with its field
    state.apply(Enter.of("white", "black"))         # or the cross-out in state.legal_actions()

Every DECISION lives in :mod:`.decisions`; every rule id in :data:`RULE_IDS`; the rules version,
stored with every game, in :mod:`.version`.
"""

from nochmal.engine.twentyone.actions import AGAIN, KEEP, Again, CrossOut, Enter, Keep, Lot, Roll, parse_action
from nochmal.engine.twentyone.components import BONUS, COLOURS, N_FIELDS, N_ROWS, bonus, row_score
from nochmal.engine.twentyone.entries import Fit, cross_field, fitting_dice
from nochmal.engine.twentyone.game import (CHANCE, TERMINAL, Outcome, RowScore, SeatResult, TwentyOneGame,
                                           TwentyOneState, play, replay)
from nochmal.engine.twentyone.rules import RULE_IDS
from nochmal.engine.twentyone.sheets import SHEET_IDS, TwentyOneSheet, get_sheet, load_sheet_file, sheet_from_rows
from nochmal.engine.twentyone.version import RULES_VERSION, SUPPORTED_RULES_VERSIONS

__all__ = [
    "AGAIN", "Again", "BONUS", "CHANCE", "COLOURS", "CrossOut", "Enter", "Fit", "KEEP", "Keep", "Lot", "N_FIELDS",
    "N_ROWS", "Outcome", "RULES_VERSION", "RULE_IDS", "Roll", "RowScore", "SHEET_IDS", "SUPPORTED_RULES_VERSIONS",
    "SeatResult", "TERMINAL", "TwentyOneGame", "TwentyOneSheet", "TwentyOneState", "bonus", "cross_field",
    "fitting_dice", "get_sheet", "load_sheet_file", "parse_action", "play", "replay", "row_score", "sheet_from_rows",
]
