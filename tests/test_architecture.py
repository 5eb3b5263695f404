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


def import_graph(top_level_only: bool) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (at module level only, or anywhere: inside
    functions too). A package's ``__init__`` that gathers its own modules (the engine's public
    contract) is not an edge from those modules back to it."""
    graph = {m: {i for i in imports(p, top_level_only) if i in MODULES and i != m} for m, p in MODULES.items()}
    for m in graph:
        graph[m] = {i for i in graph[m] if not (i in WINGS_PACKAGES and m.startswith(i + "."))}
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles a depth-first walk of ``graph`` meets (each as a path back to its start)."""
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
    return cycles


def test_no_import_cycles_between_modules():
    """No cycle at any level: the imports inside functions count too (a cycle kept alive by a
    function-level import is still two modules that cannot be understood one without the other)."""
    cycles = find_cycles(import_graph(top_level_only=False))
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles[:5])


def test_the_cycle_check_sees_imports_inside_functions():
    graph = import_graph(top_level_only=False)
    assert "nochmal.bots.kernel.drivers" in graph["nochmal.bots.planner"]  # compiled_rollout_ends' import
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("nochmal.bots")))
def test_no_module_of_the_bots_is_over_600_lines(module):
    n = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert n <= 600, f"{module}: {n} lines (split it by concern)"


def test_no_bot_imports_the_registry_of_bots():
    """The registry (every bot by name) imports the bots; a bot that imported it would close a cycle."""
    graph = import_graph(top_level_only=False)
    bots = [m for m in graph if m.startswith("nochmal.bots") and m != "nochmal.bots.registry"]
    assert not [m for m in bots if "nochmal.bots.registry" in graph[m]]
    assert not {i for i in graph["nochmal.bots.settings"] if i.startswith("nochmal.bots")}  # data only


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


# --------------------------------------------------------------------------- one registry of modes
#: the one module that may key a table by mode names (nochmal/data/modes.py)
MODE_REGISTRY = "nochmal.data.modes"


def _mode_names() -> set[str]:
    from nochmal.engine.game import variant_names

    return set(variant_names())


def _names_a_mode(node: ast.AST) -> bool:
    """An expression that holds a mode's name: ``mode``, ``args.mode``, ``game.mode``,
    ``ss["new-mode"]`` (a name, an attribute or a string key ending in "mode")."""
    if isinstance(node, ast.Name):
        return node.id.lower().endswith("mode")
    if isinstance(node, ast.Attribute):
        return node.attr.lower().endswith("mode")
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.lower().endswith("mode")
    return False


def mode_table_uses(tree: ast.AST, names: set[str], names_a_key=None, what: str = "mode") -> list[tuple[int, str]]:
    """Where code outside the registry branches on a mode's name or keeps a table of its own:

    1. a comparison with a mode-name literal (``== "coop"``, ``!= "solo"``, ``in ("base", "solo")``);
    2. a look-up with a default by a mode (``TABLE.get(game.mode, ...)``, ``.get(mode)``): a mode
       missing from the table passes silently;
    3. a look-up in a dict literal keyed by mode names (``{"base": 2, "coop": 3}[args.mode]``,
       ``{...}.get(x)``)."""
    names_a_key = names_a_key or _names_a_mode

    def literal(node) -> bool:
        return isinstance(node, ast.Constant) and node.value in names

    def mode_keyed(node) -> bool:
        return isinstance(node, ast.Dict) and any(k is not None and literal(k) for k in node.keys)

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                items = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
                if any(literal(x) for x in items):
                    found.append((node.lineno, f"compares a {what} name"))
                    break
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            if node.args and names_a_key(node.args[0]):
                found.append((node.lineno, f".get(<{what}>, ...) in a table of its own"))
            elif mode_keyed(node.func.value):
                found.append((node.lineno, f"a look-up in a dict literal keyed by {what} names"))
        elif isinstance(node, ast.Subscript) and mode_keyed(node.value):
            found.append((node.lineno, f"a look-up in a dict literal keyed by {what} names"))
        elif what != "mode" and isinstance(node, ast.Dict) and mode_keyed(node):
            found.append((node.lineno, f"a dict literal keyed by {what} names"))
    return found


def test_the_mode_rule_catches_what_it_names():
    names = {"base", "solo", "coop"}
    bad = ['x = args.mode == "solo"', 'y = m != "coop"', 'z = mode in ("base", "solo")', 'w = "coop" == game.mode',
           'PLAYERS.get(game.mode, 2)', 'CONFIGS.get(mode)', 'T.get(ss["new-mode"], 1)',
           'd = {"base": 2, "solo": 1, "coop": 3}[args.mode]', 'e = {"coop": "Co-op"}.get(m, "")']
    good = ['variant(mode).default_players', 'mode(args.mode).rules.has_mission', 'make_game("coop", sheets)',
            'data["coop"] = {"failed_roll_boxes": 3}', 'x = kind == "digital"', 'T.get(kind, 1)',
            'CONFIGS[game.mode]']
    assert all(mode_table_uses(ast.parse(src), names) for src in bad), \
        [src for src in bad if not mode_table_uses(ast.parse(src), names)]
    assert not any(mode_table_uses(ast.parse(src), names) for src in good), \
        [src for src in good if mode_table_uses(ast.parse(src), names)]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != MODE_REGISTRY))
def test_no_mode_tables_outside_the_registry(module):
    """Modes are named, counted and labelled in one registry (nochmal/data/modes.py) and told apart
    by the game's traits: no other module compares a mode's name or looks one up in a table of
    its own (issue 43, item 6)."""
    found = mode_table_uses(ast.parse(MODULES[module].read_text(encoding="utf-8")), _mode_names())
    assert not found, f"{module} " + "; ".join(f"line {n}: {what}" for n, what in found) + \
        " (ask nochmal.data.modes or the game's traits instead)"


def test_every_variant_has_its_entry_in_the_registry():
    from nochmal.data.modes import MODES

    assert set(MODES) == _mode_names()
    for name, m in MODES.items():
        assert m.rules.mode == name and m.min_seats <= m.default_players <= m.max_seats
        assert m.word and m.title and m.choice


# --------------------------------------------------------------------------- one registry of games
#: the one module that may name games in a table (nochmal/store/games.py)
GAME_REGISTRY = "nochmal.store.games"
#: each game's own package: Noch mal!'s engine (the whole engine wing, whose twenty one package is
#: the other game's), and what the store keeps of twenty one
GAME_PACKAGES = ("nochmal.engine", "nochmal.store.twentyone")


def _game_names() -> set[str]:
    from nochmal.store.games import GAMES

    return set(GAMES)


def _names_a_game(node: ast.AST) -> bool:
    """An expression that holds a game's name: ``game``, ``args.game``, ``meta["game"]``,
    ``game_name`` (a name, an attribute or a string key ending in "game" or "game_name")."""
    ends = ("game", "game_name")
    if isinstance(node, ast.Name):
        return node.id.lower().endswith(ends)
    if isinstance(node, ast.Attribute):
        return node.attr.lower().endswith(ends)
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.lower().endswith(ends)
    return False


def game_table_uses(source: str) -> list[tuple[int, str]]:
    return mode_table_uses(ast.parse(source), _game_names(), _names_a_game, "game")


def test_the_game_rule_catches_what_it_names():
    bad = ['x = args.game == "twentyone"', 'y = meta.get("game") != "nochmal"', 'z = g in ("nochmal", "twentyone")',
           'PLAYERS.get(args.game, 2)', 'WORDS.get(meta["game"])', 'd = {"twentyone": 1, "nochmal": 2}[name]',
           'BOTS = {"twentyone": ("greedy",)}', 'e = {"nochmal": "Noch mal!"}.get(n, "")']
    good = ['game_kind(args.game).policy("greedy")', 'kind_of_meta(meta).events', 'x = kind == "digital"',
            'GAMES[args.game]', 'f"nochmal-dice-{seed}"', 'T.get(kind, 1)']
    assert all(game_table_uses(src) for src in bad), [src for src in bad if not game_table_uses(src)]
    assert not any(game_table_uses(src) for src in good), [src for src in good if game_table_uses(src)]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != GAME_REGISTRY and not m.startswith(GAME_PACKAGES)))
def test_no_game_tables_outside_the_registry(module):
    """Games are named, worded and told apart in one registry (nochmal/store/games.py): no other
    module outside a game's own package compares a game's name (``"twentyone"``, ``"nochmal"``),
    keys a table by it or looks one up by it (issue 44, item 2)."""
    found = game_table_uses(MODULES[module].read_text(encoding="utf-8"))
    assert not found, f"{module} " + "; ".join(f"line {n}: {what}" for n, what in found) + \
        " (ask the registry of games, nochmal.store.games, instead)"


def test_every_game_has_its_entry_in_the_registry():
    from nochmal.engine.game import Game
    from nochmal.engine.twentyone import TwentyOneGame
    from nochmal.store.games import GAMES, kind_of_game

    assert {Game.game_name, TwentyOneGame.game_name} == set(GAMES)
    for name, kind in GAMES.items():
        assert kind.name == name and kind.word and kind.min_seats <= kind.default_players <= kind.max_seats
        assert kind.meta.stored_as == name and set(kind.policy_names) <= set(kind.all_policy_names)
        game = kind.new_game(None)
        assert kind_of_game(game) is kind and kind.from_config(game.config()).config() == game.config()
