"""tools/kernel_ab.py: which kernel version it loads, and the arguments it refuses (timing itself
compiles every version, minutes each: run by hand, see the tool's docstring)."""

import importlib.util
from pathlib import Path

import pytest

_path = Path(__file__).parents[1] / "tools" / "kernel_ab.py"
_spec = importlib.util.spec_from_file_location("kernel_ab", _path)
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


def test_the_working_tree_and_a_revision_are_the_kernel_source():
    assert tool.source(".") == (tool.ROOT / tool.KERNEL).read_text()
    text = tool.source("HEAD")  # the committed kernel: the same module, perhaps an older state
    assert "def play_many(" in text and "def _legal(" in text


def test_an_unknown_revision_is_named_in_the_error():
    with pytest.raises(SystemExit, match="revision 'no-such-rev'"):
        tool.source("no-such-rev")


@pytest.mark.parametrize("args", [["HEAD", "--runs", "0"], ["HEAD", "--games", "0"]])
def test_runs_and_games_must_be_positive(args, capsys):
    with pytest.raises(SystemExit) as err:
        tool.main(args)
    assert err.value.code == 2
    assert "--runs and --games must be at least 1" in capsys.readouterr().err
