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
    files = tool.source(".")
    assert files["drivers.py"] == (tool.ROOT / tool.KERNEL / "drivers.py").read_text()
    assert "def play_many(" in files["drivers.py"] and "def _legal(" in files["moves.py"]
    text = "".join(tool.source("HEAD").values())  # the committed kernel: the package, or the file before it
    assert "def play_many(" in text and "def _legal(" in text


def test_a_version_loads_as_a_package_of_its_own(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = tool.load("kernel_vtest", {"__init__.py": "", "drivers.py": "from .layout import X\n",
                                     "layout.py": "X = 1\n"}, tmp_path)
    assert mod.__name__ == "kernel_vtest.drivers" and mod.X == 1
    legacy = tool.load("kernel_vlegacy", {"__init__.py": "def play_many(): pass\n"}, tmp_path)
    assert legacy.__name__ == "kernel_vlegacy" and callable(legacy.play_many)


def test_an_unknown_revision_is_named_in_the_error():
    with pytest.raises(SystemExit, match="revision 'no-such-rev'"):
        tool.source("no-such-rev")


@pytest.mark.parametrize("args", [["HEAD", "--runs", "0"], ["HEAD", "--games", "0"]])
def test_runs_and_games_must_be_positive(args, capsys):
    with pytest.raises(SystemExit) as err:
        tool.main(args)
    assert err.value.code == 2
    assert "--runs and --games must be at least 1" in capsys.readouterr().err
