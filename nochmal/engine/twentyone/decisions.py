"""Every **DECISION** of ``RULES-TWENTYONE.md`` (where the rulebook is silent), and the few readings
the engine itself had to make, in one place so each can be changed. Changing one is a rule change:
bump :data:`nochmal.engine.twentyone.version.RULES_VERSION`.

The engine reads these constants; it never repeats their choice in code of its own. Data that is
not public (the colour orders of sheets A-F, the printed values of rows 2-5) is not a decision but a
STAND-IN: it lives in the sheet files (``boards/twentyone/``), labelled by its provenance."""

# --------------------------------------------------------------------------- DECISIONs of the spec
#: T-END: the round in which someone scores their fifth row is finished first (everybody enters
#: from the same roll, and every row filled in it is scored), then the game ends.
END_FINISHES_ROUND = True

#: T-END-PARTIAL: "werten" of an unfinished row is T-ROW-SCORE: its numbers plus the bonus for
#: the hits it has (a row with nothing in it scores 0). False would score the numbers only.
PARTIAL_ROW_GETS_BONUS = True

#: T-WIN: equal highest totals share the win (no tie-break).
TIES_SHARE_THE_WIN = True

#: T-PRACTICE: one player alone may practise; they are always active, and the game ends when
#: their fifth row is scored. (1 is the fewest seats a game takes; the rulebook says 2-6.)
MIN_PLAYERS = 1
MAX_PLAYERS = 6

# --------------------------------------------------------------------------- the engine's readings
#: T-ENTER: a player's entries of one round are one action (the set of dice, entered at once).
#: The rulebook lets a player write one number after another; from the same roll, into the same
#: row, that is the same as entering the set, and one action per seat and round is what makes
#: "never both entering and crossing" (T-CROSS) checkable.
ENTRIES_ARE_ONE_ACTION = True

#: T-ROLL: a second attempt when all six dice show 1 would roll nothing; it is not offered.
SECOND_ATTEMPT_WITH_ONLY_ONES = False

#: T-START: with one player (T-PRACTICE) there is nobody to draw lots against: the lot is skipped.
LOT_WITH_ONE_PLAYER = False
