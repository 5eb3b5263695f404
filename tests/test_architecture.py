"""The package's shape (README "Layout"): wings, no import cycles between modules, a pure engine,
and variants that differ by hooks, not by comparing mode names outside the engine."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "nochmal"
WINGS = {"engine", "data", "store", "bots", "analytics", "ui", "cli"}
HEAVY = {"numpy", "numba", "pandas", "dask", "distributed", "streamlit", "plotly", "pyarrow"}


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts}


def imports(path: Path, top_level_only: bool) -> set[str]:
    """Modules ``path`` imports (absolute names), at module level only or anywhere."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    if top_level_only:  # also imports inside `if TYPE_CHECKING:` / try blocks at module level
        nodes = [n for stmt in tree.body for n in ast.walk(stmt) if not isinstance(stmt, (ast.FunctionDef,
                                                                                          ast.AsyncFunctionDef,
                                                                                          ast.ClassDef))]
    out = set()
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    for node in nodes:
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            for a in node.names:  # `from pkg import module`
                if f"{mod}.{a.name}" in MODULES:
                    out.add(f"{mod}.{a.name}")
    return out


def test_ls_nochmal_shows_the_wings():
    entries = {p.name for p in PACKAGE.iterdir() if p.name != "__pycache__"}
    assert entries == WINGS | {"__init__.py"}, sorted(entries)


def test_no_import_cycles_between_modules():
    graph = {m: {i for i in imports(p, top_level_only=True) if i in MODULES and i != m} for m, p in MODULES.items()}
    # a package's __init__ that gathers its own modules (the engine's public contract) is not a cycle
    for m in graph:
        graph[m] = {i for i in graph[m] if not (i in WINGS_PACKAGES and m.startswith(i + "."))}
    seen, stack, cycles = set(), [], []

    def visit(m):
        if m in stack:
            cycles.append(stack[stack.index(m):] + [m])
            return
        if m in seen:
            return
        seen.add(m)
        stack.append(m)
        for n in sorted(graph[m]):
            visit(n)
        stack.pop()

    for m in sorted(graph):
        visit(m)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles[:5])


WINGS_PACKAGES = {f"nochmal.{w}" for w in WINGS}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("nochmal.engine")))
def test_the_engine_is_pure(module):
    used = {i.split(".")[0] for i in imports(MODULES[module], top_level_only=False)}
    assert not used & HEAVY, f"{module} imports {sorted(used & HEAVY)}"
    outside = {i for i in imports(MODULES[module], top_level_only=False)
               if i.startswith("nochmal.") and not i.startswith("nochmal.engine")}
    assert not outside, f"{module} imports {sorted(outside)} outside the engine"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not m.startswith("nochmal.ui")))
def test_only_the_ui_imports_streamlit(module):
    used = {i.split(".")[0] for i in imports(MODULES[module], top_level_only=False)}
    assert "streamlit" not in used, module


MODE_COMPARISON = re.compile(r"""(\.mode|\bmode)\s*(==|!=|\bin\b|\bnot in\b)|["'](coop|base|solo)["']\s*(==|!=)\s*\w*mode""")


@pytest.mark.parametrize("module", sorted(m for m in MODULES
                                          if not m.startswith(("nochmal.engine", "nochmal.cli"))))
def test_no_mode_name_comparisons_outside_the_engine_and_the_cli(module):
    lines = [f"{i}: {line.strip()}" for i, line in enumerate(MODULES[module].read_text(encoding="utf-8").splitlines(), 1)
             if MODE_COMPARISON.search(line) and not line.strip().startswith("#")]
    assert not lines, f"{module} branches on a mode name (ask the game instead):\n" + "\n".join(lines)


def test_the_engine_contract_for_library_users():
    import nochmal.engine as engine

    assert set(engine.__all__) >= {"BaseGame", "SoloGame", "CoopGame", "Roll", "Cross", "PASS", "IllegalMoveError",
                                   "InvalidInputError", "RULES_VERSION", "game_from_config", "play"}
    game = engine.CoopGame.create(2, 1)
    state = game.new_state()
    state.apply(engine.Roll.of((0, 1, 2), (1, 2, 3)))
    assert state.current_player() == 0 and len(state.legal_actions()) > 0
    with pytest.raises(engine.IllegalMoveError, match="R-"):
        state.apply(engine.Cross(0, 1, 0, 1 << 0))  # A1: not in the start column
    rebuilt = engine.game_from_config(game.config())
    assert type(rebuilt) is engine.CoopGame and rebuilt.config() == game.config()
    assert engine.variant("solo").create().n_seats == 1 and engine.variant("coop") is engine.CoopGame


def test_nothing_lives_in_a_cache_that_a_client_can_clear():
    """Any connected device can send Streamlit's ``clear_cache`` back-message, which empties
    ``st.cache_resource`` for the whole server: the store and the throttles live for the process
    instead (nochmal/ui/lifetime.py). ``st.cache_data`` only costs a recomputation."""
    found = [f"{module_name(p)}:{n}" for p in MODULES.values()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\bcache_resource\b", line) and not line.lstrip().startswith("#")
             and "lifetime" not in p.name]
    assert not found, found
