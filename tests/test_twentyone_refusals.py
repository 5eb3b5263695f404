"""A refused *twenty one* entry in words (``nochmal.ui.twentyone.refusals``): every kind of refusal
the engine raises is provoked for real (a game played through ``apply``, or the engine's parsers)
and told in English and in German in the game's words, without the rule id; the "why" detail holds
the rule's words and its id, and in German no English engine text."""

from __future__ import annotations

import random

import pytest

from nochmal.bots.twentyone_greedy import greedy_policy
from nochmal.data import i18n
from nochmal.engine.errors import IllegalMoveError, InvalidInputError, NochmalError
from nochmal.engine.ruleids import RULE_ID_RE
from nochmal.engine.twentyone import AGAIN, KEEP, CrossOut, Enter, Lot, Roll, TwentyOneGame, parse_action, play
from nochmal.ui.twentyone.refusals import REWRITES, _reason, engine_words, refusal

# sheet A, row 1: w6 g5 r4 y3 b2 k1; a roll's faces are in colour order: white black red blue yellow green
ROW1_ALL_HITS = (6, 1, 4, 2, 3, 5)


def practice():
    return TwentyOneGame.create(1).new_state()


def two(entering: bool = True):
    st = TwentyOneGame.create(2).new_state()
    st.apply(Lot(0))
    if entering:
        st.apply(Roll.of(*ROW1_ALL_HITS))
        st.apply(KEEP)
    return st


def rolled(*faces):
    st = practice()
    st.apply(Roll.of(*faces))
    st.apply(KEEP)
    return st


def over():
    st = play(practice(), greedy_policy, random.Random(3))
    st.apply(Roll.of(1, 2, 3, 4, 5, 6))


def ones_stay(first, second):
    st = practice()
    st.apply(Roll.of(*first))
    st.apply(AGAIN)
    st.apply(Roll.of(*second))


def twice(first, then):
    st = two()
    st.apply(first, seat=0)
    st.apply(then, seat=0)


def taken():
    st = rolled(6, 6, 6, 6, 6, 6)
    st.apply(Enter.of("white"))
    st.apply(Roll.of(6, 6, 6, 6, 6, 6))
    st.apply(KEEP)
    st.apply(Enter.of("white"))


def roll_then(action, again: bool = False):
    st = practice()
    st.apply(Roll.of(2, 2, 2, 2, 2, 2))
    if again:
        st.apply(KEEP)
    st.apply(action)


# name -> (how the engine is made to refuse, rule, a piece of the English words, a piece of the German words)
CASES = {
    "game over": (over, "T-END", "The game is over", "Das Spiel ist vorbei"),
    "lot twice": (lambda: two(False).apply(Lot(1)), "T-START", "drawn once", "nur einmal ausgelost"),
    "no such seat": (lambda: TwentyOneGame.create(2).new_state().apply(Lot(5)), "T-START",
                     "no such seat in a game of 2", "Platz gibt es in einem Spiel zu 2"),
    "lot without seat": (lambda: parse_action({"type": "lot", "seat": "x"}), "T-START", "names the seat",
                         "nennt den Platz"),
    "a 1 rolled again": (lambda: ones_stay((1, 2, 3, 4, 5, 6), (2, 2, 3, 4, 5, 6)), "T-ROLL",
                         "the white die showed 1", "Würfel weiß zeigte"),
    "two 1s rolled again": (lambda: ones_stay((1, 1, 3, 4, 5, 6), (2, 2, 3, 4, 5, 6)), "T-ROLL",
                            "the white and black dice showed 1", "Würfel weiß und schwarz zeigten"),
    "roll while choosing": (lambda: roll_then(Roll.of(3, 3, 3, 3, 3, 3)), "T-ROLL",
                            "first the active player keeps", "zweiten Versuch"),
    "roll while entering": (lambda: roll_then(Roll.of(3, 3, 3, 3, 3, 3), again=True), "T-ROLL",
                            "at most two attempts", "höchstens zwei Versuche"),
    "roll before the lot": (lambda: TwentyOneGame.create(2).new_state().apply(Roll.of(3, 3, 3, 3, 3, 3)),
                            "T-ROLL", "first draw who starts", "ausgelost"),
    "keep twice": (lambda: roll_then(KEEP, again=True), "T-ROLL", "decided once", "einmal entschieden"),
    "keep by another seat": (lambda: (st := two(False), st.apply(Roll.of(*ROW1_ALL_HITS)), st.apply(KEEP, seat=1)),
                             "T-ROLL", "Only the active player (seat 1)", "Nur der aktive Spieler (Platz 1)"),
    "again with only 1s": (lambda: (st := practice(), st.apply(Roll.of(1, 1, 1, 1, 1, 1)), st.apply(AGAIN)),
                           "T-ROLL", "Every die shows 1", "Alle Würfel zeigen eine 1"),
    "enter before keep": (lambda: (st := practice(), st.apply(Roll.of(2, 2, 2, 2, 2, 2)),
                                   st.apply(Enter.of("white"))), "T-ENTER", "Nobody enters yet",
                          "Noch trägt niemand ein"),
    "cross not leftmost": (lambda: rolled(2, 2, 2, 2, 2, 2).apply(CrossOut(3)), "T-CROSS",
                           "that is field 1, not field 4", "das ist Feld 1, nicht Feld 4"),
    "enter nothing": (lambda: rolled(2, 2, 2, 2, 2, 2).apply(Enter(())), "T-ENTER", "at least one die",
                      "mindestens einen Würfel"),
    "field taken": (taken, "T-ENTER", "white field of row 1 is already filled", "schon belegt"),
    "die too high": (lambda: rolled(6, 6, 6, 6, 6, 6).apply(Enter.of("black")), "T-ENTER",
                     "The black die shows 6, more than the 1 printed in its field of row 1",
                     "Der Würfel schwarz zeigt 6, mehr als die 1"),
    "enter after a filled row": (lambda: twice(Enter.of(*range(6)), Enter.of("white")), "T-ONE-ROW",
                                 "row 2 is used from the next round on", "Reihe 2 ist erst ab der nächsten Runde"),
    "cross after entering": (lambda: twice(Enter.of("white"), CrossOut(1)), "T-CROSS", "never both",
                             "nie beides"),
    "enter twice": (lambda: twice(Enter.of("white"), Enter.of("black")), "T-ENTER", "in one go",
                    "auf einmal"),
    "a die twice": (lambda: Enter.of("white", "white"), "T-ENTER", "Each die is entered once",
                    "Jeder Würfel wird einmal eingetragen"),
    "dice out of order": (lambda: rolled(2, 2, 2, 2, 2, 2).apply(Enter((2, 0))), "T-ENTER",
                          "Each die is entered once", "Jeder Würfel wird einmal eingetragen"),
    "entry without dice": (lambda: parse_action({"type": "enter"}), "T-ENTER", "Tap the dice",
                           "Tippe"),
    "cross-out of no field": (lambda: parse_action({"type": "cross-out", "field": 9}), "T-CROSS",
                              "a field from 1 to 6", "ein Feld von 1 bis 6"),
    "cross-out of field 9 in play": (lambda: rolled(2, 2, 2, 2, 2, 2).apply(CrossOut(9)), "T-CROSS",
                                     "a field from 1 to 6", "ein Feld von 1 bis 6"),
    "roll missing a colour": (lambda: Roll.parse({"white": 1}), "T-DICE", "each of the six dice one face",
                              "jedem der sechs Würfel"),
    "roll of two faces": (lambda: Roll.parse([1, 2]), "T-DICE", "each of the six dice one face",
                          "jedem der sechs Würfel"),
    "a face of 7": (lambda: Roll.parse([7, 1, 1, 1, 1, 1]), "T-DICE", "A die shows 1 to 6",
                    "Ein Würfel zeigt 1 bis 6"),
    "unknown die": (lambda: Enter.of("purple"), "T-DICE", "not one of the six dice", "keiner der sechs Würfel"),
}


def provoke(make) -> NochmalError:
    with pytest.raises((IllegalMoveError, InvalidInputError)) as err:
        make()
    return err.value


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_refusal_of_the_engine_is_told_in_words_in_english_and_german(name):
    make, rule, english, german = CASES[name]
    err = provoke(make)
    assert err.rule == rule, err
    with i18n.using("en"):
        en = refusal(err)
    with i18n.using("de"):
        de = refusal(err)
        assert engine_words(err) == de.words  # a pattern knows it: not the rule's general words
    assert english in en.words, (en.words, str(err))
    assert german in de.words, (de.words, str(err))
    for r in (en, de):
        assert r.rule == rule and not RULE_ID_RE.search(r.words), r
        assert f"({'rule' if r is en else 'Regel'} {rule})" in r.why, r.why
    # the German detail is German: no piece of the engine's English reason in it
    reason = getattr(err, "reason", None) or err.detail
    assert reason not in de.why and reason not in de.words
    assert de.words != en.words


def test_every_pattern_is_met_by_a_refusal_of_the_engine():
    met = set()
    for make, *_ in CASES.values():
        err = provoke(make)
        which, reason = _reason(err)
        for i, (rule, pattern, _make) in enumerate(REWRITES):
            if (rule is None or rule == which) and pattern.match(reason.rstrip(" .")):
                met.add(i)
                break
    unused = [REWRITES[i][1].pattern for i in range(len(REWRITES)) if i not in met]
    # the first "no seat" pattern names its rule, the second catches the same reason without one
    assert unused == [r"^no seat (\S+) in a game of (\d+)$"], unused


def test_words_of_the_page_come_first_and_an_unknown_reason_falls_back_to_the_rule():
    err = provoke(lambda: rolled(6, 6, 6, 6, 6, 6).apply(Enter.of("black")))
    err.words = "schwarz 6: höher als die 1"
    assert refusal(err).words == "schwarz 6: höher als die 1"
    odd = IllegalMoveError("T-ENTER", "a reason no pattern knows", "twentyone v1 round=1")
    with i18n.using("en"):
        assert refusal(odd).words == "A reason no pattern knows."
    with i18n.using("de"):
        r = refusal(odd)
        assert "Würfel" in r.words and "pattern" not in r.words and "T-ENTER" not in r.words
    # the page's own check (no rule): its words as they are
    own = InvalidInputError("Tippe zuerst die Würfel an.")
    assert refusal(own).words == "Tippe zuerst die Würfel an." and refusal(own).rule is None
