"""tools/solo_td.py: a learned solo value (TD learning) and its one- and two-move-deep policies (R-SOLO-*)."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from nochmal.bots.compiled import solo_sim
from nochmal.engine.game import SoloGame

_spec = importlib.util.spec_from_file_location("solo_td", Path(__file__).parents[1] / "tools" / "solo_td.py")
tool = importlib.util.module_from_spec(_spec)
sys.modules["solo_td"] = tool  # numba's cache finds the compiled functions' module by its name
_spec.loader.exec_module(tool)


@pytest.fixture(scope="module")
def sim():
    return solo_sim(SoloGame(["standard"]))


def test_learning_lifts_the_policy_and_replays_the_same(sim):
    held = np.random.default_rng(1).integers(0, 6, (300, sim.n_rolls, 4))
    w = tool.new_weights(sim)
    untrained = tool.play(sim, w, held)
    # zero weights value every move alike, so the pass (first in line) is kept: no cross all game
    assert (untrained == sim.sheet.jokers - sim.game.star_penalty * bin(sim.sheet.star_mask).count("1")).all()
    tool.train(sim, w, 60_000, 0.3, np.random.default_rng(2), held, batch=30_000, report=lambda s: None)
    trained = tool.play(sim, w, held)
    assert trained.mean() > 12  # greedy's level, about 14, after a fraction of the 6 million games
    assert (tool.play(sim, w, held) == trained).all()  # playing does not learn
    w2 = tool.new_weights(sim)
    tool.train(sim, w2, 60_000, 0.3, np.random.default_rng(2), held, batch=30_000, report=lambda s: None)
    assert all(np.array_equal(w[k], w2[k]) for k in w)  # seeded: the same weights again


def test_two_moves_deep_plays_legal_games_and_differs_from_one(sim):
    w = tool.new_weights(sim)
    tool.train(sim, w, 60_000, 0.3, np.random.default_rng(2), np.zeros((1, sim.n_rolls, 4), np.int64),
               batch=60_000, report=lambda s: None)
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
