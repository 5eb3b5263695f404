"""Every **DECISION** of ``RULES.md`` (where the rulebooks are silent or contradict each other)
lives here, in one place, so it can be changed. Changing one of these is a rule change:
bump :data:`nochmal.RULES_VERSION`."""

#: R-SOLO-LEN: completing a second colour does not end the solo game early.
SOLO_ENDS_ON_SECOND_COLOUR = False

#: R-SOLO-SCORE: a completed column scores its *first* value, a completed colour 5.
#: (With one player nobody can complete anything earlier, so R-FIRST gives exactly this.)
SOLO_COLUMN_VALUE = "first"
SOLO_COLOUR_BONUS = 5

#: C-GOAL-10: if fewer "!" remain than the penalty demands, all remaining are struck.
COOP_STRIKE_ALL_IF_SHORT = True

#: C-TRACK: the turn track is round-robin from seat 1 unless a tableau lists its 27 seats.
COOP_TRACK_ROUND_ROBIN = True

#: M5: completions in the same turn are taken in N-O-C-H-M-A-L order.
M5_SAME_TURN_IN_ORDER = True

#: C-CHECK: end conditions are evaluated when the turn is complete; a third failed roll and a
#: completed mission in the same turn lose.
COOP_FAIL_BEATS_WIN_SAME_TURN = True

#: C-SOLO: with one player the seat is always active, so nothing is ever set aside.
COOP_ONE_SEAT_NOTHING_SET_ASIDE = True
