"""Crash-safety helper: append a stream of events to one game, acknowledging each.

Usage: python store_writer.py DB_PATH GAME_ID MAX_EVENTS

For every append that has *returned* (i.e. committed and synced), prints the seq on its own
line and flushes stdout.  The test SIGKILLs this process at a random point and then checks
that every acknowledged seq survived with the right body.
"""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def body_for(seq: int) -> dict:
    """Deterministic event body for ``seq``; sizes vary from tiny to several pages."""
    size = (seq * 977) % 9000 if seq % 3 == 0 else seq % 50
    return {
        "seq": seq,
        "kind": "move",
        "payload": ("ab✓" * (size // 3 + 1))[:size],
        "cells": [[seq % 15, j] for j in range(seq % 7)],
        "flags": {"odd": bool(seq % 2), "ratio": seq / 7},
    }


def main(argv: list[str]) -> int:
    from nochmal.store.db import GameStore

    db_path, game_id, max_events = argv[1], argv[2], int(argv[3])
    with GameStore(db_path) as store:
        seq = store.n_events(game_id)
        while seq < max_events:
            store.append(game_id, seq, body_for(seq))
            sys.stdout.write(f"{seq}\n")
            sys.stdout.flush()
            seq += 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
