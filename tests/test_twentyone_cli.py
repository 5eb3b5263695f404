"""The command line with ``--game twentyone``, run as a real subprocess (``python -m nochmal.cli``):
``play`` with bots to the end and with a person at the terminal (stdin), ``--save`` and ``games
list/show/export/import``, ``legal-moves``, and the refusals of arguments that do not fit the game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cli(tmp_path):
    """Run ``nochmal ARGS`` in an empty directory, with this checkout's package first on the path."""
    env = {**os.environ, "NOCHMAL_HOME": str(tmp_path / "home"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}

    def run(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "nochmal.cli", *args], input=stdin, capture_output=True,
                              text=True, cwd=tmp_path, env=env, timeout=timeout)

    return run


def test_play_twentyone_with_bots_to_the_end(cli):
    r = cli("play", "--game", "twentyone", "--players", "3", "--policy", "greedy", "--seed", "5", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["game"] == "twentyone" and out["reason"].endswith("(T-END)") and len(out["seats"]) == 3
    assert any(len(s["rows"]) == 5 and all(row["full"] for row in s["rows"]) for s in out["seats"])
    assert out["winners"] and all(out["seats"][w]["total"] == max(s["total"] for s in out["seats"])
                                  for w in out["winners"])
    again = cli("play", "--game", "twentyone", "--players", "3", "--policy", "greedy", "--seed", "5", "--json")
    assert json.loads(again.stdout) == out  # the same seed, the same game
    text = cli("play", "--game", "twentyone", "--players", "2", "--policy", "random", "--seed", "1")
    assert text.returncode == 0 and text.stdout.startswith("twenty one, seed 1: a fifth row was scored")
    assert "winner(s): seat" in text.stdout


def test_play_twentyone_with_a_person_at_the_terminal_and_the_second_attempt(cli):
    """Seat 1 is asked; it answers 2 (the second attempt) whenever that is offered and 1 otherwise;
    one wrong answer first is asked again."""
    answers = "x\n" + "2\n" * 400  # 2 = "second attempt" at a choice, the second entry otherwise
    r = cli("play", "--game", "twentyone", "--seats", "human,greedy", "--seed", "2", "--json", stdin=answers)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "    1: keep" in lines and "    2: second attempt" in lines
    assert any("'x' is not one of 1-2" in line for line in lines)
    out = json.loads(lines[-1])
    assert out["players"] == ["human", "greedy"] and out["reason"].endswith("(T-END)")
    cut = cli("play", "--game", "twentyone", "--seats", "human,greedy", "--seed", "2", stdin="1\n")
    assert cut.returncode == 2 and "the input ended while seat 1 (human) was to choose" in cut.stderr


def test_play_save_then_games_list_show_export_import(cli, tmp_path):
    db = str(tmp_path / "games.sqlite3")
    saved = cli("play", "--game", "twentyone", "--players", "2", "--policy", "greedy", "--seed", "3", "--save",
                "--db", db, "--json")
    assert saved.returncode == 0, saved.stderr
    gid = json.loads(saved.stdout)["game_id"]
    base = cli("play", "--players", "2", "--policy", "greedy", "--seed", "3", "--save", "--db", db, "--json")
    listed = {g["game_id"]: g for g in json.loads(cli("games", "list", "--db", db, "--json").stdout)}
    assert listed[gid]["game"] == "twentyone" and listed[json.loads(base.stdout)["game_id"]]["game"] == "nochmal"
    text = cli("games", "list", "--db", db).stdout
    assert any(gid in line and "twentyone" in line for line in text.splitlines())
    show = cli("games", "show", gid, "--db", db)
    assert show.returncode == 0, show.stderr
    assert "(twentyone, 2 seats)" in show.stdout and "drew the first turn" in show.stdout
    assert "a fifth row was scored (T-END)" in show.stdout
    shown = json.loads(cli("games", "show", gid, "--db", db, "--json").stdout)
    assert shown["outcome"] == {k: v for k, v in json.loads(saved.stdout).items()
                                if k not in ("seed", "game_id", "policy")}
    out = tmp_path / "t21.json"
    assert cli("games", "export", gid, "--db", db, "--out", str(out)).returncode == 0
    imported = cli("games", "import", str(out), "--db", db)
    assert imported.returncode == 0, imported.stderr
    new = imported.stdout.strip()
    assert json.loads(cli("games", "show", new, "--db", db, "--json").stdout)["outcome"] == shown["outcome"]


def test_legal_moves_twentyone(cli):
    lines = [
        {"sheets": ["A", "B"], "history": [{"type": "lot", "seat": 1}, {"type": "roll", "faces": [1, 2, 3, 4, 5, 6]}]},
        {"sheets": ["A", "B"], "history": [{"type": "lot", "seat": 1}, {"type": "roll", "faces": [1, 2, 3, 4, 5, 6]},
                                           {"type": "keep"}], "seat": 0},
        {"sheets": ["A"]},
        {"sheets": ["A", "A"]},
        {"sheets": ["A"], "history": [{"type": "enter", "dice": ["white"]}]},
        {"sheet": "standard", "crossed": [], "colour": "blue", "count": 1},
    ]
    r = cli("legal-moves", "--game", "twentyone", stdin="\n".join(json.dumps(x) for x in lines) + "\nnot json\n")
    assert r.returncode == 0, r.stderr
    answers = [json.loads(line) for line in r.stdout.splitlines()]
    assert answers[0] == {"player": 1, "actions": [{"type": "keep"}, {"type": "again"}]}
    assert answers[1]["player"] == 1 and answers[1]["actions"][-1] == {"type": "cross-out", "field": 0}
    assert {"type": "enter", "dice": ["white"]} in answers[1]["actions"]
    assert answers[2] == {"player": "chance", "actions": []}
    assert answers[3] == {"error": "line 4: field sheets: T-START: every player has a different sheet, got ['A', 'A']"}
    assert answers[4]["error"].startswith("line 5: field history: T-ENTER: action 0: nobody enters before")
    assert answers[5] == {"error": "line 6: field 'colour': not a field of a twenty one query (sheets, history, seat)"}
    assert answers[6]["error"].startswith("line 7: invalid JSON")
    plain = cli("legal-moves", stdin='{"sheet":"standard","crossed":[],"colour":"blue","count":1}\n')
    assert plain.stdout == '{"moves": [["H4"], ["H5"]]}\n'  # Noch mal! stays the default


@pytest.mark.parametrize("args, message", [
    (["--mode", "coop"], "--mode is only for --game nochmal, not --game twentyone"),
    (["--mission", "2"], "--mission is only for --game nochmal, not --game twentyone"),
    (["--players", "7"], "--players must be 1-6 for --game twentyone, got 7"),
    (["--policy", "planner"], "--policy: unknown twenty one bot 'planner': one of random, greedy, optimum, race"),
    (["--sheets", "A,Z", "--players", "2"], "--sheets: T-SHEET: unknown twenty one sheet 'Z'"),
    (["--sheets", "A,B", "--players", "3"], "--sheets names 2 sheet(s) for 3 player(s)"),
    (["--seats", "human,planner"], "--seats: 'planner' is not human or a bot a seat can be played by"),
    (["--game", "chess"], "argument --game: invalid choice: 'chess'"),
])
def test_arguments_that_do_not_fit_twentyone_are_refused(cli, args, message):
    r = cli("play", "--game", "twentyone", *args)
    assert r.returncode == 2 and message in r.stderr and r.stdout == "", r.stderr
    assert len(r.stderr.splitlines()) == 1


def test_simulate_twentyone_summarises_the_analytics_rows_and_repeats_with_its_seed(cli):
    import statistics

    from nochmal.analytics.twentyone import simulate

    args = ("simulate", "--game", "twentyone", "--players", "3", "--policy", "race", "--games", "30",
            "--seed", "4", "--json", "--quiet")
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    rows = simulate(3, ["race"], 30, 4)
    assert out["game"] == "twentyone" and out["players"] == 3 and out["games"] == 30
    assert out["mean_score"] == round(statistics.fmean(rows["score"]), 2)
    assert out["mean_rounds"] == round(statistics.fmean(rows.drop_duplicates("game")["rounds"]), 2)
    assert json.loads(cli(*args).stdout) == out  # the same seed, the same games
    other = json.loads(cli(*args[:-4], "--seed", "5", "--json", "--quiet").stdout)
    assert other["mean_score"] != out["mean_score"]


def test_simulate_twentyone_shows_progress_unless_quiet(cli):
    r = cli("simulate", "--game", "twentyone", "--policy", "greedy", "--games", "7")
    assert r.returncode == 0, r.stderr
    assert "twentyone/greedy" in r.stderr and "7/7" in r.stderr
    assert "mean_score" in r.stdout


@pytest.mark.parametrize("args, says", [
    (("--policy", "planner"), "unknown twenty one bot 'planner'"),
    (("--mission", "2"), "--mission is only for --game nochmal"),
    (("--mode", "coop"), "--mode is only for --game nochmal"),
    (("--players", "7"), "--players must be 1-6 for --game twentyone"),
    (("--players", "3", "--sheets", "A,B"), "--sheets names 2 sheet(s) for 3 player(s)"),
])
def test_simulate_twentyone_refuses_what_does_not_fit_the_game(cli, args, says):
    r = cli("simulate", "--game", "twentyone", "--games", "2", *args)
    assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr
    assert r.stdout == ""


def test_simulate_nochmal_still_refuses_a_twentyone_bot(cli):
    r = cli("simulate", "--mode", "coop", "--players", "2", "--policy", "race", "--games", "2")
    assert r.returncode == 2 and "race" in r.stderr and "Traceback" not in r.stderr
