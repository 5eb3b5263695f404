"""Every import the store accepts opens on every page that shows a game (issue 46, item 3).

A real export (a digital co-op game played through the session API, with an undo) is mutated
by a seeded loop: the fields pages read (each event's ``at``, ``by``, dice, cells, ``source``,
the title, the seat names, the meta's timestamps and codes) get odd values, go missing or are
doubled. Each mutant goes through the real import into a real SQLite store; every one that is
accepted is opened as host on the Start, Table and History pages with Streamlit's AppTest, and
no page may show an exception, a traceback or a server path. Refused mutants must name a field.
"""

from __future__ import annotations

import copy
import random
import re

from apptools import HISTORY, START, TABLE, app, env  # noqa: F401 (env: a fixture)
from nochmal.engine.errors import InvalidInputError
from nochmal.store.transfer import import_game
from nochmal.store.db import GameStore
from test_import_validation import ODD_VALUES, _get, _mutate, _nodes, play_export

PAGES = (START, TABLE, HISTORY)
#: accepted mutants opened on every page (3 page loads each), and the most mutants tried
ACCEPTED_TARGET = 36
MAX_TRIES = 600

TIMESTAMPS = ["", " ", "2026-05-01", "2026-05-01T19:30:00", "2026-05-01T19:30:00Z", "2026-05-01T19:30:00+14:00",
              "2026-05-01T19:30:00.123456-09:30", "9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59",
              "9999-12-31T23:59:59+00:00", "1970-01-01T00:00:00+00:00", "2026-13-01T19:30:00+00:00",
              "2026-05-01T19:30:00+00:00\n", "yesterday", "2026-05-01 19:30:00+00:00", "+002026-05-01T19:30:00Z",
              "2026-05-01T19:30:00+24:00", "2026-02-30T10:00:00+00:00"]
NAMES = ["", " ", "x" * 65, "x" * 41, "Ada\nBo", "\u202eevil", "nul\x00", "<b>x</b> ![i](//127.0.0.1:9/i)", "🎲" * 20,
         "\ud800", "Zoë", 7, None, ["Ada"]]
FACES = ["RED", " red ", "Red\x1c", "red\x0b", "x", "?", "joker", "black", " 3", "3\t", "03", "+3", "٣", "6", 3, "",
         "yellow", "blue"]
CELLS = ["h3", "H3", "H8", "P1", "A0", "I2", "I3", " H3", "h03"]
FIELD_VALUES = {"at": TIMESTAMPS, "created": TIMESTAMPS, "by": NAMES, "title": NAMES, "seat_names": NAMES,
                "colours": FACES, "numbers": FACES, "colour_die": FACES, "number_die": FACES, "colour": FACES,
                "cells": CELLS, "source": ["entered", "sampled", "", "Entered", None],
                "die": ["colour", "number", "Colour", ""], "seat": [0, 1, 2, 3, 5, 6, -1, True],
                "undoes": [0, 1, 5, 9, 10, 11, True], "per_seat": [0, 1, 20, 21, -1]}
EXTRA_KEYS = ["at", "by", "created", "source", "x", "host_code", "claims"]


def _field(path: tuple) -> str | None:
    """The name of the field ``path`` is in (a list element: its list's name)."""
    for part in reversed(path):
        if isinstance(part, str):
            return part
    return None


def mutants(export: dict, rng: random.Random):
    """Endless mutants of ``export``: 1-2 mutations each, mostly on what pages read."""
    nodes = [p for p in _nodes(export) if p and p[0] in ("events", "meta", "title")]
    while True:
        doc, done = copy.deepcopy(export), []
        for _ in range(rng.choice((1, 1, 2))):
            path = rng.choice(nodes)
            try:
                _get(doc, path)
            except (KeyError, IndexError, TypeError):
                continue
            values = FIELD_VALUES.get(_field(path) or "")
            op = rng.choice(("replace", "replace", "replace", "delete", "duplicate", "add", "wrap", "stringify"))
            value = rng.choice(values) if values and rng.random() < 0.8 else rng.choice(ODD_VALUES[:21])
            key = rng.choice(EXTRA_KEYS)
            doc = _mutate(doc, op, path, value, key)
            done.append(f"{op} {'.'.join(map(str, path))}" + (f" = {value!r:.40}" if op == "replace" else "")
                        + (f" [{key}] = {value!r:.40}" if op == "add" else ""))
        yield doc, "; ".join(done)


def page_problems(at, where: str) -> list[str]:
    """What a page shows that it must not: exceptions, tracebacks, server paths."""
    found = [f"{where}: exception {e.value[:200]!r}" for e in at.exception]
    for kind in ("error", "warning", "info", "markdown", "caption", "success"):
        for e in getattr(at, kind):
            text = str(e.value)
            if "Traceback" in text or re.search(r'File "/|/tmp/|\.sqlite3|\.py\b', text):
                found.append(f"{where}: {kind} {text[:200]!r}")
    return found


def test_every_accepted_import_opens_on_every_page(env, tmp_path):
    with GameStore(tmp_path / "source.sqlite3") as source:
        export = play_export(source)
    rng = random.Random(46)
    counts = {"tried": 0, "refused": 0, "accepted": 0, "page loads": 0}
    problems: list[str] = []
    for doc, what in mutants(export, rng):
        if counts["accepted"] >= ACCEPTED_TARGET or counts["tried"] >= MAX_TRIES:
            break
        counts["tried"] += 1
        try:
            ses = import_game(env, doc, source="fuzz.json")
        except InvalidInputError as err:
            msg = str(err)
            assert msg.startswith("fuzz.json: ") and "\n" not in msg, msg
            assert re.search(r"\bfield [\w.\[\]'()]+", msg), msg
            counts["refused"] += 1
            continue
        counts["accepted"] += 1
        query = {"game": ses.game_id, "code": ses.meta["host_code"]}
        for page in PAGES:
            at = app(query)
            if page != START:
                at.switch_page(page).run()
            counts["page loads"] += 1
            problems += page_problems(at, f"{page.rsplit('/', 1)[-1]} after {what}")
    print(f"\nimport fuzz: {counts['tried']} mutants tried, {counts['refused']} refused (each naming a field), "
          f"{counts['accepted']} accepted, {counts['page loads']} page loads (Start, Table, History as host), "
          f"{len(problems)} with an exception or a traceback")
    assert counts["accepted"] >= 20, counts
    assert not problems, problems[:10]
