"""tools/solo_regret.py: the solo planner's regret against gold values of its own rollout policy."""

import importlib.util
import re
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("solo_regret", Path(__file__).parents[1] / "tools" / "solo_regret.py")
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


def test_regret_is_measured_from_the_gold_best_candidate(capsys):
    rows = [tool.regrets((k, "standard", 60, {"shipped": tool.SHIPPED}, 1)) for k in (0, 1, 2)]
    rows = [r for r in rows if r is not None]
    for r in rows:
        assert 0 <= r["roll"] < 29 and r["candidates"] >= 1  # (the pass alone, when nothing else is legal)
        assert r["shipped"] >= 0 and r["greedy"] >= 0  # nothing beats the gold best
    choice = next(r for r in rows if r["candidates"] > 2)
    st = tool.position(choice["k"], "standard")
    cands = tool.seat_candidates(st, 0, tool.SHIPPED.candidates, tool.random.Random(choice["k"]))
    gold = tool.gold_values(st, cands, 60)
    assert len(cands) == choice["candidates"] and choice["greedy"] == pytest.approx(gold.max() - gold[0])
    tool.report(rows, ["shipped"], 30)
    out = capsys.readouterr().out
    per_game = float(re.search(r"shipped +[0-9.]+ \+- [0-9.n]+ a decision +([0-9.]+) a game", out).group(1))
    assert per_game == pytest.approx(30 * sum(r["shipped"] for r in rows) / len(rows), abs=0.01)


def test_bad_arguments_are_refused_by_name(capsys):
    for argv in (["--positions", "1"], ["--sheet", "nope"]):
        with pytest.raises(SystemExit):
            tool.main(argv)
    err = capsys.readouterr().err
    assert "--positions" in err and "--sheet" in err
