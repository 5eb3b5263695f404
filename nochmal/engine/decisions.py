"""Every **DECISION** of ``RULES.md`` (where the rulebooks are silent or contradict each other)
lives here, in one place, so it can be changed. Changing one of these is a rule change:
bump :data:`nochmal.RULES_VERSION`.

Decisions revised by a rules version are dicts keyed by that version: a game saved under an
older version replays with the decisions of its own version (``D[game.rules_version]``)."""

from nochmal.engine.version import SUPPORTED_RULES_VERSIONS

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

#: M5, rules version 1: completions in the same turn are taken in N-O-C-H-M-A-L order, so one
#: turn could count several letters.
M5_SAME_TURN_IN_ORDER = True

#: M5 (revised in rules version 2): a column counts only if filled strictly after the previous
#: letter was counted. The active seat's cross is one moment, the passive seats' crosses the
#: next; columns completed at the same moment advance N-O-C-H-M-A-L by one letter at most.
M5_ONE_LETTER_PER_MOMENT = {1: False, 2: True}

#: C-CHECK: end conditions are evaluated when the turn is complete; a third failed roll and a
#: completed mission in the same turn lose.
COOP_FAIL_BEATS_WIN_SAME_TURN = True

#: C-CHECK (revised in rules version 2): after turn 27 the last interim check (C-GOAL-27) runs
#: before the mission check, so a missed goal can still lose a completed mission. Version 1
#: checked the mission first.
COOP_GOAL_27_BEFORE_MISSION = {1: False, 2: True}

#: C-FAIL (revised in rules version 2): a third failed roll ends the game the moment it is
#: marked; no other seat enters anything for that turn. Version 1 ended it when the turn was
#: complete.
COOP_THIRD_FAIL_ENDS_AT_ONCE = {1: False, 2: True}

#: C-SOLO: with one player the seat is always active, so nothing is ever set aside.
COOP_ONE_SEAT_NOTHING_SET_ASIDE = True

_BY_VERSION = {name: value for name, value in dict(globals()).items()
               if name.isupper() and isinstance(value, dict)}
assert all(set(v) == set(SUPPORTED_RULES_VERSIONS) for v in _BY_VERSION.values()), \
    "every versioned decision names every supported rules version"

#: The order in which a selection of cells is judged (:func:`nochmal.engine.moves.cross_for_selection`): the
#: first rule broken is the one a refusal names. It changes only which reason is told, never what
#: is legal, so it needs no new rules version. The rulebook's order (start column, the count
#: against the number dice and at most 5 cells, one block of one colour, the colour against the
#: colour dice, adjacency); before it R-FREE (a crossed cell cannot be chosen at all), R-CONNECTED
#: right after R-BLOCK (both say the cells are not one piece), and R-JOKER-COST last (it depends
#: on the dice the cells need). An unavailable die (picked, or set aside by the active player) is
#: reported where its kind is checked (numbers: R-COUNT's place; colours: R-COLOUR's).
SELECTION_ORDER = ("R-FREE", "R-START", "R-COUNT", "R-BLOCK", "R-CONNECTED", "R-COLOUR", "R-ADJ", "R-JOKER-COST")
