"""The kernels' numba cache cannot go stale (nochmal/bots/kernel/cache.py): a kernel freezes the
engine constants it reads into its compiled code, and numba's own cache checks only the kernel's
file. Here, in a copy of the package with a cache of its own, a kernel that reads ``NUMBER_JOKER``
is compiled and cached; then that constant is edited in the copy's engine, and the next process
compiles afresh under a new key and plays the new value."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "nochmal"

#: one short kernel call: the dice walk with the number face 0 (the "?" in the engine's coding), as
#: (the cache key, the cache folder, the "!" the pair costs, whether the compiled code came from disk)
PROBE = """
import json
import numpy as np
from nochmal.bots.kernel import cache, moves
pairs = np.zeros((moves.MAX_PAIRS, moves.PAIR_WIDTH), np.int64)
n = moves.dice_pairs(np.array([1]), 1, np.array([0]), 1, 1, pairs)
print(json.dumps({"key": cache.source_key(), "dir": str(cache.cache_dir()), "pairs": int(n),
                  "cost": int(pairs[0, moves.PAIR_COST]), "hits": sum(moves.dice_pairs.stats.cache_hits.values())}))
"""


def probe(root: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(root / "numba-cache")}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=root, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_an_engine_constant_edit_compiles_afresh(tmp_path):
    shutil.copytree(PACKAGE, tmp_path / "nochmal", ignore=shutil.ignore_patterns("__pycache__"))
    first = probe(tmp_path)
    assert first["cost"] == 1 and first["hits"] == 0  # "?" costs a "!"; compiled, not loaded
    assert Path(first["dir"]).parent == tmp_path / "numba-cache" and Path(first["dir"]).is_dir()
    again = probe(tmp_path)
    assert again["key"] == first["key"] and again["hits"] == 1  # the same sources: loaded from the cache

    dice = tmp_path / "nochmal" / "engine" / "dice.py"
    text = dice.read_text()
    assert "NUMBER_JOKER = 0" in text
    dice.write_text(text.replace("NUMBER_JOKER = 0", "NUMBER_JOKER = 6", 1))  # 0 is a plain face now
    edited = probe(tmp_path)
    assert edited["key"] != first["key"] and edited["dir"] != first["dir"]
    assert edited["hits"] == 0 and edited["cost"] == 0  # compiled afresh, with the new constant
    assert Path(first["dir"]).is_dir()  # the old folder is left alone (never read again)


def test_the_key_covers_the_kernels_and_the_engine():
    from nochmal.bots.kernel import cache

    names = {p.relative_to(PACKAGE).as_posix() for p in cache.source_files()}
    assert {"bots/kernel/moves.py", "bots/kernel/coop.py", "engine/dice.py", "engine/cells.py"} <= names
    assert json.dumps(cache.source_key()) and len(cache.source_key()) == 16
