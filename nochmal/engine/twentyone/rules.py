"""The rule ids of ``RULES-TWENTYONE.md``, each with what it governs. Engine messages cite them
(``T-ENTER: ...``) as *Noch mal!*'s cite ``R-ADJ``; :mod:`nochmal.engine.ruleids` recognises the
``T-`` prefix, so the same "Why?" handling takes them out of what a player reads. A test checks
that this table, the specification and the ids cited in the code agree."""

RULE_IDS: dict[str, str] = {
    "T-DICE": "six dice, one of each colour, each showing 1-6",
    "T-SHEET": "six different sheets of five rows of six fields, one of each colour per row",
    "T-BONUS": "1, 3, 6, 10, 15, 21 points for 1-6 hits in a row",
    "T-START": "the first active player is drawn by lot; every player has a different sheet",
    "T-ROLL": "the active player rolls; once, a second attempt with the 1s kept; at most two attempts",
    "T-ENTER": "every player enters dice of the roll in their current row: own colour, free field, at most "
               "the printed value",
    "T-HIT": "a die equal to the printed value is a hit",
    "T-CROSS": "who enters nothing crosses out the leftmost free field; never both, at most one a round",
    "T-ONE-ROW": "one row per round: a row filled this round is scored, the next is used from the next round",
    "T-NEXT": "when everyone has entered, the next player clockwise is active",
    "T-ROW-SCORE": "a full row scores the sum of its numbers plus the bonus for its hits",
    "T-END": "the game ends when a player has scored their fifth row, after that round",
    "T-END-PARTIAL": "at the end every other player scores the row they are in",
    "T-WIN": "the highest total wins; equal totals share",
    "T-PEEK": "every sheet is open to everyone",
    "T-PRACTICE": "one player may practise alone: always active, the game ends with their fifth row",
}
