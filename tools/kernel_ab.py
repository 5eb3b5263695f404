"""Is one version of the co-op kernel faster than another? Greedy games, interleaved, fastest runs.

This machine's speed drifts by a quarter within an hour (the same 3,000 greedy games took 2.3 s
and 3.2 s minutes apart), so one timing of each version says little. Here each version's kernel
package ``nochmal/bots/kernel/`` (at a git revision, or the working tree: ``.``; at a revision from
before the package, its single kernel file, ``LEGACY``) is loaded as a package of its own (own numba
cache in ``--cache``; compiling a version the first time takes about two minutes), and the versions
play the same seeded greedy games in turn, configuration by
configuration (missions 1-5 x 1-6 seats), ``--runs`` times. Each configuration's fastest run
counts (slowdowns only add), summed over the 30:

    python tools/kernel_ab.py HEAD~1 HEAD --runs 20

A version plays the same games as any other that keeps the parity tests, so only time differs.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNEL = "nochmal/bots/kernel"
LEGACY = "nochmal/bots/coop_kernel.py"  # the one file the co-op kernel was before the package


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)


def source(rev: str) -> dict[str, str]:
    """The kernel's files at ``rev`` ('.': the working tree), by file name; a revision from before
    the package: its one file as ``__init__.py`` (a package of one module)."""
    if rev == ".":
        return {p.name: p.read_text() for p in sorted((ROOT / KERNEL).glob("*.py"))}
    listing = _git("ls-tree", "--name-only", f"{rev}:{KERNEL}")
    if listing.returncode == 0:
        names = [n for n in listing.stdout.split() if n.endswith(".py")]
        return {n: _git("show", f"{rev}:{KERNEL}/{n}").stdout for n in names}
    out = _git("show", f"{rev}:{LEGACY}")
    if out.returncode != 0:
        raise SystemExit(f"kernel_ab: revision {rev!r}: {out.stderr.strip()}")
    return {"__init__.py": out.stdout}


def load(name: str, files: dict[str, str], cache: Path):
    """The version ``files`` as the package ``name`` in ``cache`` (files unchanged since the last run
    are not written again: numba's cache stays valid); its module that plays games."""
    folder = cache / name
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.py"):
        if old.name not in files:
            old.unlink()
    for fname, text in files.items():
        path = folder / fname
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    return importlib.import_module(f"{name}.drivers" if "drivers.py" in files else name)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("revs", nargs="+", help="git revisions of the kernel, '.' for the working tree")
    ap.add_argument("--runs", type=int, default=10, help="runs of every configuration and version (default 10)")
    ap.add_argument("--games", type=int, default=50, help="games a configuration a run (default 50)")
    ap.add_argument("--cache", default="/tmp/nochmal-kernel-ab", help="folder of the versions and their numba cache")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.games < 1:
        ap.error("--runs and --games must be at least 1")
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = str(cache / "numba")  # read once, when numba is first imported (below)
    sys.path.insert(0, str(cache))
    from nochmal.analytics.simulate import make_game
    from nochmal.bots.settings import ANALYTICS_COOP

    mods = {rev: load(f"kernel_v{i}", source(rev), cache) for i, rev in enumerate(args.revs)}
    games = {}
    for rev, ck in mods.items():  # a game keeps its kernel tables: one set of games a version
        games[rev] = [make_game("coop", n, m) for m in range(1, 6) for n in range(1, 7)]
        t0 = time.perf_counter()
        for g in games[rev]:
            for sheet in g.sheets:  # the loaded sheets are shared: their tables are built by this version
                vars(sheet).pop("_kernel_tables", None)
            ck.play_many(g, [0], "greedy", cfg=ANALYTICS_COOP)
        print(f"{rev}: loaded in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    seeds = list(range(1, args.games + 1))
    best = {rev: [float("inf")] * 30 for rev in mods}
    for _ in range(args.runs):
        for c in range(30):
            for rev, ck in mods.items():
                t0 = time.perf_counter()
                ck.play_many(games[rev][c], seeds, "greedy", ends=True, cfg=ANALYTICS_COOP)
                best[rev][c] = min(best[rev][c], time.perf_counter() - t0)
    base = sum(best[args.revs[0]])
    for rev in mods:
        total = sum(best[rev])
        print(f"{rev:>12}  {total:.3f} s for {30 * args.games:,} games (fastest of {args.runs} a configuration)"
              f"  {100 * (total / base - 1):+.1f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
