"""Rule ids of RULES.md (and of RULES-TWENTYONE.md: ``T-ENTER``, ...) in texts: finding them, and
taking them out of what a player reads.

The engine's messages cite the rule they apply ("(R-ADJ)", "C-GOAL-10: ..."); players read the
words and find the id in a "Why?" detail. One place knows what an id looks like, for every
wing that shows engine text (the app's pages, the analytics charts)."""

from __future__ import annotations

import re

#: a rule id standing alone: not a piece of a longer hyphenated word ("N-O-C-H-M-A-L" holds none)
#: (R-: the rules, C-: co-op, T-: twenty one, ``nochmal.engine.twentyone.rules``)
_ID = r"(?<![\w-])(?:R|C|T)-[A-Z0-9]+(?:-[A-Z0-9]+)*(?![\w-])"
#: A rule id in a text: ``R-ADJ``, ``C-GOAL-10`` anywhere; a mission id (``M1``..``M5``) only
#: where it stands as a rule id, in brackets or after "rule" (``M5`` alone is also a cell name).
RULE_ID_RE = re.compile(rf"{_ID}|(?<=\()M[1-5](?=\))|(?<=\brule )M[1-5]\b|(?<=\brules )M[1-5]\b")
_ANY_ID = rf"(?:{_ID}|M[1-5])"
_BRACKETED_IDS = re.compile(rf"\s*\((?:rules?\s+)?{_ANY_ID}(?:\s*(?:,|/|and|or)\s*{_ANY_ID})*\)")
_ONE_BRACKETED_ID = re.compile(rf"\s*\(({_ANY_ID})\)")


def strip_rule_ids(text: str) -> str:
    """``text`` without rule ids: "(R-ADJ)", "(rule C-FAIL)", a leading "R-ORDER: " and bare
    ids are taken out, and the spaces and punctuation left behind tidied."""
    out = _BRACKETED_IDS.sub("", text)
    out = re.sub(rf"(?m)^\s*{_ID}\s*:\s*", "", out)
    out = re.sub(rf"\b(?:rules?\s+)?{_ID}\s*:?\s*|\brules?\s+M[1-5]\b", "", out)
    out = re.sub(r"\((?:rules?)?\s*\)", "", out)
    out = re.sub(r"[ \t]{2,}", " ", out)
    out = re.sub(r"\s+([.,;:!?)])", r"\1", out)
    return out.strip()


def words_and_rules(text: str) -> tuple[str, list[str]]:
    """An engine text ("mission complete (C-WIN)") as player words ("mission complete") and the
    rule ids it cited in brackets (["C-WIN"]), for a "Why?" detail."""
    rules = [m.group(1) for m in _ONE_BRACKETED_ID.finditer(text)]
    return _ONE_BRACKETED_ID.sub("", text).strip(), rules
