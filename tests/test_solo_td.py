"""tools/solo_td.py: a learned solo value (TD learning) and its one- and two-move-deep policies (R-SOLO-*)."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from nochmal.bots.kernel.solo_driver import solo_sim
from nochmal.engine.game import SoloGame

_spec = importlib.util.spec_from_file_location("solo_td", Path(__file__).parents[1] / "tools" / "solo_td.py")
tool = importlib.util.module_from_spec(_spec)
sys.modules["solo_td"] = tool  # numba's cache finds the compiled functions' module by its name
_spec.loader.exec_module(tool)


@pytest.fixture(scope="module")
def sim():
    return solo_sim(SoloGame(["standard"]))


@pytest.fixture(scope="module")
def held(sim):
    return np.random.default_rng(1).integers(0, 6, (300, sim.n_rolls, 4))


@pytest.fixture(scope="module")
def trained(sim, held):
    """Weights after 60,000 games of learning (the tests share them: learning is the slow part)."""
    w = tool.new_weights(sim)
    tool.train(sim, w, 60_000, 0.3, np.random.default_rng(2), held, batch=30_000, report=lambda s: None)
    return w


def test_learning_lifts_the_policy_and_replays_the_same(sim, held, trained):
    untrained = tool.play(sim, tool.new_weights(sim), held)
    # zero weights value every move alike, so the pass (first in line) is kept: no cross all game
    assert (untrained == sim.sheet.jokers - sim.game.star_penalty * bin(sim.sheet.star_mask).count("1")).all()
    scores = tool.play(sim, trained, held)
    assert scores.mean() > 12  # greedy's level, about 14, after a hundredth of the 6 million games
    assert (tool.play(sim, trained, held) == scores).all()  # playing does not learn
    a, b = tool.new_weights(sim), tool.new_weights(sim)
    for w in (a, b):
        tool.train(sim, w, 5_000, 0.3, np.random.default_rng(3), held[:10], report=lambda s: None)
    assert all(np.array_equal(a[k], b[k]) for k in a)  # seeded: the same weights again
    assert any(a[k].any() for k in a)  # and learning did change them


def test_two_moves_deep_plays_legal_games_and_differs_from_one(sim, trained):
    w = trained
    dice = np.random.default_rng(5).integers(0, 6, (4, sim.n_rolls, 4))
    one = tool.play(sim, w, dice)
    two = tool.play(sim, w, dice, two=True)
    worst = sim.sheet.jokers - sim.game.star_penalty * bin(sim.sheet.star_mask).count("1")
    assert (two > worst).all() and (two < 80).all()
    # the last roll is decided one move deep either way: with one roll left the two agree
    assert (tool.play(sim, w, dice[:, -1:], two=True) == tool.play(sim, w, dice[:, -1:])).all()
    assert not np.array_equal(one, two)


def test_bad_arguments_are_refused_by_name(capsys):
    for argv in (["--games", "10", "10", "--alpha", "0.3"], ["--sheet", "nope"], ["--two-ply", "-1"]):
        with pytest.raises(SystemExit):
            tool.main(argv)
    err = capsys.readouterr().err
    assert "--games and --alpha" in err and "--sheet" in err
