"""The shipped sweeps (``docs/calibration-sweep.parquet``, ``docs/random-sweep.parquet``: the
figures of docs/calibration.md and the Analytics page) are what the code plays today: games drawn
from every mission x player count x policy of them, replayed from their seeds, give the same row,
field for field (issue 43: the compiled bots moved into a package "to the bit").

A sample, so that ``make test`` stays short; the whole files are replayed with the commands of
docs/calibration.md (the closing note of issue 43 gives the figures)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from nochmal.analytics.simulate import play_games

DOCS = Path(__file__).resolve().parent.parent / "docs"
#: rows replayed per (policy, mission, players) cell (the planner and the bound cost the most)
PER_CELL = {"greedy": 2, "random": 2, "planner": 1, "bound": 1}
SWEEP_ONLY = ("game", "sweep_seed")  # a row's place in its sweep, not the game's


def _sample(path: Path) -> pd.DataFrame:
    rows = pd.read_parquet(path)
    picked = [g.sort_values("game").head(PER_CELL[policy]) for (policy, _m, _p), g
              in rows.groupby(["policy", "mission", "players"], sort=True)]
    return pd.concat(picked, ignore_index=True)


@pytest.mark.parametrize("name", ["calibration-sweep.parquet", "random-sweep.parquet"])
def test_shipped_sweep_rows_replay_to_the_bit(name):
    shipped = _sample(DOCS / name)
    assert set(shipped["policy"]) <= set(PER_CELL), set(shipped["policy"])
    assert shipped["mission"].nunique() == 5 and shipped["players"].nunique() == 6
    replayed = []
    for (policy, mission, players), g in shipped.groupby(["policy", "mission", "players"], sort=False):
        sheets = g["sheets"].iloc[0].split(",")
        assert sheets == [f"coop-{r}" for r in ("I", "II", "III", "IV", "V", "VI")[:players]], sheets
        rows = play_games("coop", policy, [int(s) for s in g["seed"]], int(players), int(mission), cells=True)
        replayed += [{k: v for k, v in row.items() if k not in SWEEP_ONLY} for row in rows]
    fresh = pd.DataFrame(replayed)
    want = shipped.drop(columns=list(SWEEP_ONLY))
    assert list(fresh.columns) == list(want.columns)
    pd.testing.assert_frame_equal(fresh.reset_index(drop=True), want.reset_index(drop=True), check_dtype=False)
