"""Sweeps, calibration and the analytics figures (issue: mission analytics)."""

import json
import os
import subprocess
import sys

import pandas as pd
import plotly.graph_objects as go
import pytest

from nochmal.analytics import figures as F
from nochmal.analytics.calibrate import calibration_report, wilson, win_table
from nochmal.engine.errors import InvalidInputError
from nochmal.analytics.sweep import Chunk, SweepSpec, parse_range, run_chunk, run_sweep, write_rows, read_rows

SMALL = dict(missions=[1, 2], players=[1, 2], policies=["greedy"], games=6, seed=11, chunk=3)


@pytest.fixture(scope="module")
def pool_rows(tmp_path_factory):
    return run_sweep(SweepSpec(**SMALL), tmp_path_factory.mktemp("pool"), workers=2)


def test_sweep_rows_are_complete_and_ordered(pool_rows):
    assert len(pool_rows) == 2 * 2 * 6
    keys = [(r["policy"], r["mission"], r["players"], r["game"]) for r in pool_rows]
    assert keys == sorted(keys, key=lambda k: (k[0], k[1], k[2], k[3]))
    for r in pool_rows:
        assert r["turns"] <= 27 and r["reason"]
        assert isinstance(r["won"], bool)
        assert len(r["crossed"].split(";")) == r["players"]


def test_sweep_same_rows_on_a_dask_local_cluster(pool_rows, tmp_path):
    """The acceptance check: identical per-game rows on the local pool and a real LocalCluster."""
    rows = run_sweep(SweepSpec(**SMALL), tmp_path / "dask", dask_local=2)
    assert rows == pool_rows


def test_sweep_resumes_without_redoing_finished_chunks(pool_rows, tmp_path, monkeypatch):
    spec = SweepSpec(**SMALL)
    parts = tmp_path / "parts"
    chunks = spec.chunks()
    # finish half of the chunks, as an interrupted run would have
    from nochmal.analytics import sweep as S

    for c in chunks[: len(chunks) // 2]:
        S._write_part(parts if parts.exists() else (parts.mkdir() or parts), c, run_chunk(c))
    ran = []
    real = S.run_chunk
    monkeypatch.setattr(S, "run_chunk", lambda c: ran.append(c) or real(c))
    rows = run_sweep(spec, parts, workers=1)
    assert rows == pool_rows
    assert sorted(c.key for c in ran) == sorted(c.key for c in chunks[len(chunks) // 2:])  # each once, no other
    assert [c.players for c in ran] == sorted((c.players for c in ran), reverse=True)  # the longest first


def test_a_damaged_part_is_redone(pool_rows, tmp_path):
    spec = SweepSpec(**SMALL)
    run_sweep(spec, tmp_path, workers=1)
    part = sorted(tmp_path.glob("*.jsonl"))[0]
    part.write_text("{not json\n")
    assert run_sweep(spec, tmp_path, workers=1) == pool_rows


def test_chunk_seed_does_not_depend_on_chunking():
    a = run_chunk(Chunk(1, 2, "random", None, None, 0, 4, 5, False))
    b = run_chunk(Chunk(1, 2, "random", None, None, 2, 4, 5, False))
    assert a[2:] == b


def test_write_and_read_csv_and_parquet(pool_rows, tmp_path):
    for name in ("r.csv", "r.parquet"):
        p = write_rows(pool_rows, tmp_path / name)
        df = read_rows(p)
        assert len(df) == len(pool_rows)
        assert list(df["seed"]) == [r["seed"] for r in pool_rows]
    with pytest.raises(InvalidInputError, match="csv or .parquet"):
        write_rows(pool_rows, tmp_path / "r.txt")
    (tmp_path / "bad.parquet").write_bytes(b"garbage")
    with pytest.raises(InvalidInputError, match="cannot read"):
        read_rows(tmp_path / "bad.parquet")


def test_parse_range():
    assert parse_range("1-3,5", 1, 6, "players") == [1, 2, 3, 5]
    for bad in ("0-2", "7", "a-b", ""):
        with pytest.raises(InvalidInputError, match="--players"):
            parse_range(bad, 1, 6, "players")


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert 0.23 < lo < 0.24 and 0.76 < hi < 0.77
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_calibration_report(pool_rows):
    rep = calibration_report(pd.DataFrame(pool_rows))
    assert rep["policy"] == "greedy"
    assert set(rep["harder"]) == {1, 2}
    for n, v in rep["harder"].items():
        assert v["harder"] in ("yes", "no", "not clearly")
    # estimates for lower counts can only be at least the rate for the current count (higher
    # counts played again are measured, noise and all)
    for n, by_m in rep["suggestions"].items():
        for m, s in by_m.items():
            est = s["estimates"]
            ks = sorted(k for k in est if k not in s["played"])
            assert all(est[a] >= est[b] for a, b in zip(ks, ks[1:]))
    assert "| players |" in rep["text"]


@pytest.mark.parametrize("fn", [F.win_rate_heatmap, F.loss_reasons, F.points_vs_goals, F.completion_turns,
                                F.policies_compared, F.tableau_win_rates])
def test_figures_build_from_results(pool_rows, fn):
    fig = fn(pd.DataFrame(pool_rows))
    assert isinstance(fig, go.Figure) and fig.data and fig.layout.title.text


def test_heatmap_values_match_the_rows(pool_rows):
    df = pd.DataFrame(pool_rows)
    fig = F.win_rate_heatmap(df)
    z = fig.data[0].z
    for i, n in enumerate(sorted(df["players"].unique())):
        for j, m in enumerate(sorted(df["mission"].unique())):
            sub = df[(df["players"] == n) & (df["mission"] == m)]
            assert z[i][j] == pytest.approx(sub["won"].mean())


def test_cell_frequency_counts_crossed_cells(pool_rows):
    df = pd.DataFrame(pool_rows)
    fig = F.cell_frequency(df, "coop-I")
    z = fig.data[0].z
    # every coop-I sheet starts in column H: some H cell is crossed on every sheet that moved
    assert max(z[r][7] for r in range(7)) > 0
    assert all(0 <= v <= 1 for row in z for v in row)


def test_figures_reject_non_coop_results():
    with pytest.raises(ValueError, match="not a co-op sweep"):
        F.win_rate_heatmap(pd.DataFrame([{"mode": "solo", "score_seat1": 3}]))


def test_tableau_comparison_shows_both():
    fig = F.tableau_comparison(3, {k: 1 for k in ("goal_10", "penalty_10_jokers", "goal_19", "goal_27", "m1_colours",
                                                  "m2_rows", "m3_colours", "m4_rows", "m5_colours")})
    assert [t.name for t in fig.data] == ["shipped stand-in", "yours / in use"]
    assert list(fig.data[1].y) == [1] * 9


def test_cli_sweep_and_calibrate(tmp_path):
    out = tmp_path / "res.csv"
    cmd = [sys.executable, "-m", "nochmal.cli", "sweep", "--missions", "1", "--players", "1-2", "--games", "4",
           "--seed", "3", "--out", str(out), "--quiet", "--workers", "1"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 8
    r = subprocess.run([sys.executable, "-m", "nochmal.cli", "calibrate", str(out)], capture_output=True, text=True)
    assert r.returncode == 0 and "Win rate by mission" in r.stdout
    bad_cmd = [str(tmp_path / "x.txt") if a == str(out) else a for a in cmd]
    bad = subprocess.run(bad_cmd, capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and ".parquet" in bad.stderr


def test_cli_sweep_add_puts_another_policy_beside_the_first(tmp_path):
    """``sweep --add``: the bound's games beside the greedy's in one results file (the shipped
    calibration sweep is made so); a policy already in the file, or no file, is refused with
    the reason and leaves the file as it was."""
    out = tmp_path / "res.parquet"
    base = [sys.executable, "-m", "nochmal.cli", "sweep", "--missions", "2", "--players", "2", "--seed", "5",
            "--out", str(out), "--quiet", "--workers", "1"]
    missing = subprocess.run(base + ["--policy", "bound", "--games", "2", "--add"], capture_output=True, text=True)
    assert missing.returncode == 2 and "does not exist yet" in missing.stderr and not out.exists()
    assert subprocess.run(base + ["--games", "6"], capture_output=True, text=True).returncode == 0
    r = subprocess.run(base + ["--policy", "bound", "--games", "2", "--add"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["rows_in_out"] == 8
    df = pd.read_parquet(out)
    assert df.groupby("policy").size().to_dict() == {"bound": 2, "greedy": 6}
    again = subprocess.run(base + ["--games", "3", "--add"], capture_output=True, text=True)
    assert again.returncode == 2 and "already holds games of greedy" in again.stderr
    assert "Traceback" not in again.stderr and len(pd.read_parquet(out)) == 8
    rep = subprocess.run([sys.executable, "-m", "nochmal.cli", "calibrate", str(out)], capture_output=True, text=True)
    assert rep.returncode == 0 and "gap to the bound" in rep.stdout


def _greedy_rows(players: int, mission: int, games: int, seed0: int = 0) -> list[dict]:
    from nochmal.analytics.simulate import play_games

    return play_games("coop", "greedy", list(range(seed0, seed0 + games)), players, mission)


def test_calibration_keeps_values_printed_in_the_rulebook():
    """m1_colours for 3 players is printed in the rulebook (provenance rulebook): whatever the
    ladder, the report keeps it and says so; a derived count beside it is still suggested."""
    from nochmal.engine.coopdata import get_tableau

    assert get_tableau(3).m1_colours.provenance == "rulebook" and get_tableau(4).m1_colours.provenance == "derived"
    df = pd.DataFrame(_greedy_rows(3, 1, 60) + _greedy_rows(4, 1, 60))
    for ladder in ("0.99,0.65,0.5,0.35,0.2", "0.01,0.65,0.5,0.35,0.2"):
        rep = calibration_report(df, ladder)
        kept, derived = rep["suggestions"][3][1], rep["suggestions"][4][1]
        assert kept["printed"] and kept["suggested"] == kept["current"] == 3
        assert "printed in the rulebook: kept" in rep["text"]
        assert not derived["printed"]
    assert calibration_report(df, "0.99,0.65,0.5,0.35,0.2")["suggestions"][4][1]["suggested"] == 1
    assert calibration_report(df, "0.01,0.65,0.5,0.35,0.2")["suggestions"][4][1]["suggested"] > 1


def test_calibration_plays_higher_counts_instead_of_calling_them_not_estimable():
    """Mission 4 with 2 players (m4_rows = 1, derived) is won more often than a ladder of 20 %
    wants: the report plays the same seeds again with 2, 3, ... rows, stops at the first count at
    or below the wanted rate, and those rates are the compiled games' own (played here again)."""
    from nochmal.analytics.calibrate import played_rates
    from nochmal.engine.coopdata import get_mission, get_tableau

    rows = _greedy_rows(2, 4, 80)
    rep = calibration_report(pd.DataFrame(rows), "0.8,0.65,0.5,0.2,0.2")
    s = rep["suggestions"][2][4]
    assert s["current"] == 1 and s["estimates"][1] > 0.2
    played = s["played"]
    assert played and min(played) == 2 and s["suggested"] > 1
    ks = sorted(played)
    assert all(played[k] > 0.2 for k in ks[:-1]) and (played[ks[-1]] <= 0.2 or ks[-1] == 7)
    again = played_rates("greedy", 2, get_mission(4), "m4_rows", ks, [r["seed"] for r in rows], get_tableau(2), 0.2)
    assert again == played
    assert "not estimable" not in rep["text"] and "played again with m4_rows=" in rep["text"]


def test_the_bound_is_shown_beside_the_bots_never_as_the_reports_bot(pool_rows):
    """A limit in the results (the perfect-dice bound) is never the report's policy nor the heat
    map's default, even with the highest win rate; the report's table and the gap figure show it
    beside the best bot."""
    from nochmal.analytics.calibrate import best_bot

    df = pd.DataFrame(pool_rows)
    bound = df.assign(policy="bound", won=True)
    both = pd.concat([df, bound], ignore_index=True)
    rep = calibration_report(both)
    assert rep["policy"] == "greedy" == best_bot(win_table(both))
    assert "## The bots and the perfect-dice bound" in rep["text"]
    greedy = df.groupby(["players", "mission"])["won"].mean()
    for (n, m), rate in greedy.items():
        assert f"| {n} | M{m} |" in rep["text"]
    fig = F.gap_to_bound(both, "bound")
    for i, n in enumerate(sorted(df["players"].unique())):
        for j, m in enumerate(sorted(df["mission"].unique())):
            assert fig.data[0].z[i][j] == pytest.approx(100 * (1 - greedy[(n, m)]))
    assert "(Greedy bot" in F.win_rate_heatmap(both).layout.title.text


def test_completion_turns_is_one_panel_per_mission_not_an_overlay():
    rows = [{"mission": m, "players": 3, "won": True, "policy": "greedy", "turns": t}
            for m in range(1, 6) for t in (10 + m, 14 + m, 20 + m)]
    rows += [{"mission": 1, "players": 3, "won": False, "policy": "greedy", "turns": 27}]
    fig = F.completion_turns(pd.DataFrame(rows))
    assert len(fig.data) == 5 and fig.layout.barmode != "overlay"
    assert len({t.yaxis for t in fig.data}) == 5, "each mission on its own panel"
    assert {t.name for t in fig.data} == {f"M{m}" for m in range(1, 6)}
    assert all(len(t.x) == 3 for t in fig.data)  # won games only
    assert all(t.opacity in (None, 1) for t in fig.data)
