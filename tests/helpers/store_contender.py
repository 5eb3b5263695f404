"""Two-writer helper: read-then-append to one game, retrying on ConflictError.

Usage: python store_contender.py DB_PATH GAME_ID N_APPENDS WRITER_NAME GO_FILE THINK_SECONDS

Prints ``ready`` once the store is open, waits until GO_FILE exists (so that all writers
start together), then performs N_APPENDS successful appends of ``{"writer": NAME, "k": k}``.
Between reading ``n_events`` and appending it sleeps up to THINK_SECONDS to widen the race
window.  Finally prints one JSON line: {"ok": successes, "conflicts": conflicts, "seqs": [...]}.
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main(argv: list[str]) -> int:
    from nochmal.store.db import ConflictError, GameStore

    db_path, game_id, n_appends, name, go_file, think = argv[1:7]
    n_appends, think = int(n_appends), float(think)
    rng = random.Random(name)
    ok = conflicts = 0
    seqs: list[int] = []
    with GameStore(db_path) as store:
        print("ready", flush=True)
        deadline = time.monotonic() + 30
        while not os.path.exists(go_file):
            if time.monotonic() > deadline:
                print("go file never appeared", file=sys.stderr)
                return 2
            time.sleep(0.001)
        while ok < n_appends:
            expected = store.n_events(game_id)
            if think:
                time.sleep(rng.uniform(0, think))
            try:
                seq = store.append(game_id, expected, {"writer": name, "k": ok})
            except ConflictError as exc:
                assert exc.expected_seq == expected and exc.actual_seq > expected, exc
                conflicts += 1
                continue
            seqs.append(seq)
            ok += 1
    print(json.dumps({"ok": ok, "conflicts": conflicts, "seqs": seqs}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
