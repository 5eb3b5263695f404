"""Simulation sweeps: missions x player counts x policies x sheets x tableaus x games.

Every game's seed comes from the sweep's seed and the game's coordinates (``game_seed``), so
its row is the same whichever executor ran it. Work is cut into chunks; each finished chunk
is written to ``<out>.parts/`` at once (atomically), so an interrupted sweep resumes without
redoing finished chunks. Executors: a local process pool (default), a dask.distributed
LocalCluster (``dask_local=K``), or an existing Dask cluster (``scheduler="tcp://..."``).
"""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from nochmal.engine.version import RULES_VERSION
from nochmal.engine.errors import InvalidInputError
from nochmal.analytics.simulate import game_seed, play_games

DEFAULT_CHUNK = 25


@dataclass(frozen=True)
class Chunk:
    mission: int
    players: int
    policy: str
    sheets: tuple[str, ...] | None
    tableau: str | None  # a tableau file, None = the shipped one for the player count
    start: int
    stop: int
    seed: int
    cells: bool = True

    @property
    def key(self) -> str:
        text = json.dumps([RULES_VERSION, asdict(self)], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:20]


def run_chunk(chunk: Chunk) -> list[dict]:
    """Play the games of one chunk (runs in a worker process; importable for Dask)."""
    games = range(chunk.start, chunk.stop)
    seeds = [game_seed(chunk.seed, "coop", chunk.mission, chunk.players, chunk.policy, ",".join(chunk.sheets or ()),
                       chunk.tableau or "", i) for i in games]
    rows = play_games("coop", chunk.policy, seeds, chunk.players, chunk.mission,
                      list(chunk.sheets) if chunk.sheets else None, chunk.tableau, cells=chunk.cells)
    for i, row in zip(games, rows):
        row["game"] = i
        row["sweep_seed"] = chunk.seed
    return rows


@dataclass
class SweepSpec:
    missions: list[int]
    players: list[int]
    policies: list[str] = field(default_factory=lambda: ["greedy"])
    games: int = 100
    seed: int = 0
    sheets: list[tuple[str, ...] | None] = field(default_factory=lambda: [None])
    tableaus: list[str | None] = field(default_factory=lambda: [None])
    chunk: int = DEFAULT_CHUNK
    cells: bool = True

    def chunks(self) -> list[Chunk]:
        out = []
        for tab in self.tableaus:
            tab_players = _tableau_players(tab) if tab else None
            for sh in self.sheets:
                for policy in self.policies:
                    for m in self.missions:
                        for n in self.players:
                            if tab_players is not None and tab_players != n:
                                continue
                            if sh is not None and len(sh) != n:
                                continue
                            for start in range(0, self.games, self.chunk):
                                out.append(Chunk(m, n, policy, sh, tab, start, min(self.games, start + self.chunk),
                                                 self.seed, self.cells))
        return out


def _tableau_players(path: str) -> int:
    from nochmal.engine.coopdata import load_tableau_file

    return load_tableau_file(path).players


def parse_range(text: str, lo: int, hi: int, what: str) -> list[int]:
    """"1-5" or "1,3,4" or "1-2,5" -> the sorted numbers. Every number must lie in ``lo``-``hi``
    and a range must go upwards; an empty text, a part like "3-1", "-2" or "x" is an error
    that names the option (``--what``) and the part."""
    shown = str(text) if len(str(text)) <= 40 else str(text)[:40] + "..."
    out: set[int] = set()
    for part in str(text).split(","):
        part = part.strip()
        if not part:
            continue
        ends = part.split("-")
        try:
            if len(ends) > 2:
                raise ValueError
            a, b = (int(ends[0]), int(ends[-1]))
        except ValueError:
            raise InvalidInputError(f"--{what}: expected numbers like {lo}-{hi} or {lo},{hi}, got {part[:40]!r} "
                                    f"in {shown!r}") from None
        for x in (a, b):
            if not lo <= x <= hi:
                raise InvalidInputError(f"--{what}: values must lie in {lo}-{hi}, got {part[:40]!r} in {shown!r}")
        if a > b:
            raise InvalidInputError(f"--{what}: the range {part!r} goes downwards; write {b}-{a}")
        out.update(range(a, b + 1))
    if not out:
        raise InvalidInputError(f"--{what}: name at least one value in {lo}-{hi} (like {lo}-{hi} or {lo},{hi}), "
                                f"got {shown!r}")
    return sorted(out)


def _part_path(parts: Path, chunk: Chunk) -> Path:
    return parts / f"{chunk.key}.jsonl"


def _write_part(parts: Path, chunk: Chunk, rows: list[dict]) -> None:
    from nochmal.data.outfile import write_file

    write_file(_part_path(parts, chunk), "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows),
               name="--parts")


def _read_part(parts: Path, chunk: Chunk) -> list[dict] | None:
    p = _part_path(parts, chunk)
    if not p.is_file():
        return None
    try:
        rows = [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, json.JSONDecodeError):
        return None  # a damaged part is simply redone
    return rows if len(rows) == chunk.stop - chunk.start else None


def run_sweep(spec: SweepSpec, parts_dir: str | Path, *, workers: int | None = None, dask_local: int | None = None,
              scheduler: str | None = None, on_progress: Callable[[int, int], None] | None = None) -> list[dict]:
    """Run (or resume) a sweep; every game's row, in coordinate order."""
    parts = Path(parts_dir)
    parts.mkdir(parents=True, exist_ok=True)
    chunks = spec.chunks()
    results: dict[str, list[dict]] = {}
    todo = []
    for c in chunks:
        rows = _read_part(parts, c)
        if rows is None:
            todo.append(c)
        else:
            results[c.key] = rows
    total_games = sum(c.stop - c.start for c in chunks)
    done_games = total_games - sum(c.stop - c.start for c in todo)
    if on_progress:
        on_progress(done_games, total_games)

    def finished(c: Chunk, rows: list[dict]) -> None:
        nonlocal done_games
        _write_part(parts, c, rows)
        results[c.key] = rows
        done_games += c.stop - c.start
        if on_progress:
            on_progress(done_games, total_games)

    # the longest chunks first (a game takes longer the more seats it has), so that no worker is
    # left with a long one at the end while the others wait; the rows keep coordinate order
    todo.sort(key=lambda c: -c.players * (c.stop - c.start))
    if todo:
        if dask_local or scheduler:
            _run_dask(todo, finished, dask_local, scheduler)
        elif (workers or os.cpu_count() or 1) == 1:
            for c in todo:
                finished(c, run_chunk(c))
        else:
            pool = ProcessPoolExecutor(max_workers=workers or os.cpu_count())
            try:
                futs = {pool.submit(run_chunk, c): c for c in todo}
                for f in as_completed(futs):
                    finished(futs[f], f.result())
            finally:  # interrupted (e.g. the page reran): drop the chunks not started yet
                pool.shutdown(wait=True, cancel_futures=True)
    rows = [r for c in chunks for r in results[c.key]]
    return rows


def _run_dask(todo: list[Chunk], finished, dask_local: int | None, scheduler: str | None) -> None:
    from dask.distributed import Client, LocalCluster, as_completed as dask_completed

    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = LocalCluster(n_workers=dask_local, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        futs = {}
        for c in todo:
            futs[client.submit(run_chunk, c, key=f"nochmal-chunk-{c.key}", pure=False)] = c
        for f in dask_completed(list(futs)):
            finished(futs[f], f.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def write_rows(rows: list[dict], out: str | Path) -> Path:
    """CSV or Parquet, by the file extension; a regular file written atomically
    (:func:`nochmal.data.outfile.write_file`: never through a link or onto a device)."""
    import pandas as pd

    from nochmal.data.outfile import write_file

    out = Path(out)
    df = pd.DataFrame(rows)
    if out.suffix.lower() == ".parquet":
        write_file(out, lambda f: df.to_parquet(f, index=False), name="--out")
    elif out.suffix.lower() == ".csv":
        write_file(out, lambda f: df.to_csv(f, index=False), name="--out")
    else:
        raise InvalidInputError(f"--out: use a .csv or .parquet file name, got {out.name!r}")
    return out


def read_rows(path: str | Path):
    import pandas as pd

    p = Path(path)
    if not p.is_file():
        raise InvalidInputError(f"{p}: no such results file")
    try:
        if p.suffix.lower() == ".parquet":
            return pd.read_parquet(p)
        if p.suffix.lower() == ".csv":
            return pd.read_csv(p)
    except Exception as err:  # pandas raises many kinds for a damaged file
        raise InvalidInputError(f"{p}: cannot read results: {err}") from None
    raise InvalidInputError(f"{p}: use a .csv or .parquet results file")
