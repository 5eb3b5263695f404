"""The command line, run as a real subprocess (``python -m nochmal.cli``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ACCEPTANCE_QUERY = '{"sheet":"standard","crossed":[],"colour":"blue","count":1}'
ACCEPTANCE_ANSWER = '{"moves": [["H4"], ["H5"]]}'


@pytest.fixture
def cli(tmp_path):
    """Run ``nochmal ARGS`` in an empty directory with an empty user data directory."""
    env = {**os.environ, "NOCHMAL_HOME": str(tmp_path / "home")}

    def run(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "nochmal.cli", *args], input=stdin, capture_output=True,
                              text=True, cwd=tmp_path, env=env, timeout=timeout)

    return run


def test_legal_moves_acceptance(cli):
    res = cli("legal-moves", stdin=ACCEPTANCE_QUERY + "\n")
    assert res.returncode == 0, res.stderr
    assert res.stdout == ACCEPTANCE_ANSWER + "\n"


def test_legal_moves_console_script(tmp_path):
    exe = Path(sys.executable).with_name("nochmal")
    if not exe.exists():
        exe = shutil.which("nochmal")
    if not exe:
        pytest.skip("the nochmal console script is not installed")
    res = subprocess.run(f"echo '{ACCEPTANCE_QUERY}' | '{exe}' legal-moves", shell=True, capture_output=True,
                         text=True, cwd=tmp_path, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout == ACCEPTANCE_ANSWER + "\n"


def test_legal_moves_answers_every_line(cli):
    queries = [
        '{"sheet":"standard","crossed":["H4"],"colour":"blue","count":2}',
        '{"sheet":"red","crossed":[],"colour":"yellow","count":3}',
    ]
    res = cli("legal-moves", stdin="\n".join(queries) + "\n")
    lines = res.stdout.splitlines()
    assert len(lines) == 2
    assert json.loads(lines[0]) == {"moves": [["G4", "G5"], ["G5", "H5"]]}
    moves = json.loads(lines[1])["moves"]
    assert moves == sorted(moves) and all(len(m) == 3 and m == sorted(m) for m in moves)
    assert all(any(c.startswith("H") for c in m) for m in moves)  # R-START


BAD_QUERIES = [  # (query line, words the error must contain)
    ('{"sheet":"nope","crossed":[],"colour":"blue","count":1}', ["sheet", "nope"]),
    ('{"sheet":"standard","crossed":["P9"],"colour":"blue","count":1}', ["cell", "P9"]),
    ('{"sheet":"standard","crossed":[],"colour":"blue","count":6}', ["count", "6"]),
    ('{"sheet":"standard","crossed":[],"colour":"purple","count":1}', ["colour", "purple"]),
    ('{"sheet":"standard","crossed":[],"colour":"blue",', ["invalid JSON"]),
    ('["standard", "blue"]', ["object"]),
    ('{"sheet":"standard","crossed":[],"colour":"blue","count":1,"extra":1}', ["extra"]),
    ('{"sheet":"standard","crossed":[]}', ["missing", "colour", "count"]),
    ('{"sheet":"standard","crossed":"H4","colour":"blue","count":1}', ["crossed"]),
]


def test_legal_moves_bad_queries(cli):
    """Each bad line gets an error line naming the problem; the good line after it is answered."""
    stdin = "".join(f"{q}\n{ACCEPTANCE_QUERY}\n" for q, _ in BAD_QUERIES)
    res = cli("legal-moves", stdin=stdin)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) == 2 * len(BAD_QUERIES)
    for (query, words), error_line, good_line in zip(BAD_QUERIES, lines[::2], lines[1::2]):
        error = json.loads(error_line)
        assert list(error) == ["error"], query
        for w in words:
            assert w in error["error"], (query, error)
        assert good_line == ACCEPTANCE_ANSWER


def _play(cli, *args):
    res = cli("play", *args, "--json")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


@pytest.mark.parametrize("args,n_seats", [
    (("--mode", "base", "--players", "4", "--policy", "random", "--seed", "1"), 4),
    (("--mode", "solo", "--policy", "random", "--seed", "1"), 1),
])
def test_play(cli, args, n_seats):
    out = _play(cli, *args)
    assert out["seed"] == 1 and out["policy"] == "random"
    assert len(out["scores"]) == n_seats
    for s in out["scores"]:
        assert s["total"] == s["colours"] + s["columns"] + s["jokers"] + s["stars"]
        assert -30 <= s["stars"] <= 0 and 0 <= s["jokers"] <= 8
    assert out["winners"] and set(out["winners"]) <= set(range(n_seats))
    if n_seats == 1:
        assert out["mode"] == "solo" and out["rolls"] == 30 and "solo_band" in out
    else:
        assert out["mode"] == "base" and any(len(s["colours_completed"]) >= 2 for s in out["scores"])
    assert _play(cli, *args) == out  # same seed, same game


def test_play_seed_matters(cli):
    games = [_play(cli, "--mode", "base", "--players", "2", "--seed", str(seed)) for seed in (1, 2)]
    assert len({json.dumps(g["scores"]) for g in games}) > 1


@pytest.mark.parametrize("args,words", [
    (("play", "--mode", "base", "--players", "9"), ["2-6", "9"]),
    (("play", "--mode", "base", "--players", "1"), ["2-6", "1"]),
    (("play", "--policy", "nope"), ["policy", "nope"]),
    (("play", "--mode", "solo", "--players", "2"), ["1 player"]),
    (("play", "--sheets", "standard,nope"), ["nope"]),
])
def test_wrong_argument_one_line_error(cli, args, words):
    res = cli(*args)
    assert res.returncode != 0
    assert res.stdout == ""
    assert "Traceback" not in res.stderr
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("nochmal: error:")
    for w in words:
        assert w in lines[0]


@pytest.mark.parametrize("args", [
    ("play", "--players", "x"),
    ("play", "--mode", "chess"),
    ("frobnicate",),
    (),
])
def test_usage_error_no_traceback(cli, args):
    res = cli(*args)
    assert res.returncode == 2
    assert "Traceback" not in res.stderr
    assert "error:" in res.stderr.splitlines()[-1]


def test_bench_quick_json(cli):
    res = cli("bench", "--json", "--quick", timeout=300)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    for key in ("legal_moves_us", "random_decisions_per_s", "greedy_decision_us", "planner_decision_s",
                "planner_solo_decision_s", "coop_planner_game_s", "solo_greedy_game_us", "solo_table_game_us",
                "advisor_s", "advisor_max_s"):
        assert isinstance(out[key], (int, float)) and out[key] > 0


def test_simulate_prints_one_json_line_and_a_progress_bar(cli):
    res = cli("simulate", "--mode", "solo", "--policy", "greedy", "--games", "40", "--seed", "3", "--json",
              "--workers", "1")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert res.stdout.count("\n") == 1 and out["games"] == 40 and out["policy"] == "greedy"
    assert 5 < out["mean_score"] < 30
    assert "solo/greedy" in res.stderr and "40/40" in res.stderr  # the progress bar
    two = cli("simulate", "--mode", "solo", "--policy", "greedy", "--games", "40", "--seed", "3", "--json",
              "--workers", "2", "--quiet")
    assert json.loads(two.stdout) == out and two.stderr == ""  # same games in two processes, no bar


def test_simulate_coop_reports_the_win_rate(cli):
    res = cli("simulate", "--mode", "coop", "--players", "2", "--mission", "4", "--policy", "random",
              "--games", "6", "--json", "--quiet")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["players"] == 2 and out["mission"] == 4 and 0 <= out["win_rate"] <= 1 and out["games"] == 6


@pytest.mark.parametrize("args, words", [
    (["--policy", "clever"], "unknown policy 'clever'"),
    (["--games", "0"], "--games must be at least 1"),
    (["--workers", "0"], "--workers must be at least 1"),
])
def test_simulate_bad_arguments_are_one_line(cli, args, words):
    res = cli("simulate", *args)
    assert res.returncode == 2 and words in res.stderr and "Traceback" not in res.stderr


def test_fit_solo_values_writes_tables_the_planner_accepts(cli, tmp_path):
    from nochmal.bots import solo_values as sv
    from nochmal.bots.kernel.solo_driver import solo_sim
    from nochmal.engine.game import SoloGame

    res = cli("fit-solo-values", "--sheets", "red", "--games", "400", "--rounds", "1", "--out", "tables", "--quiet")
    assert res.returncode == 0, res.stderr
    assert "red: the table policy averages" in res.stdout and "Traceback" not in res.stderr
    assert sv.load(tmp_path / "tables" / "red.npz", solo_sim(SoloGame(["red"]))) is not None
    bad = cli("fit-solo-values", "--sheets", "red", "--games", "5", "--out", "tables")
    assert bad.returncode == 2 and "--games must be at least 100" in bad.stderr and "Traceback" not in bad.stderr
