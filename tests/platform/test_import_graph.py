"""No import circle inside kiosk/ nor inside games/: each room (kiosk's table, screens,
records, settings, platform, solving, commands; games' engine, families, players, search and
the games) can be read, tested and replaced from its imports down.

A circle hides behind a function-level import (kiosk.records.playlog once imported
kiosk.records.stats inside a method while stats imported playlog at the top), so every
import counts, wherever it is written; only ``if TYPE_CHECKING:`` blocks, which never run,
are left out. The graph is read with :mod:`ast`, so nothing is imported (no Kivy needed).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
KIOSK = REPO / "kiosk"
GAMES = REPO / "games"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    return {module_name(p): p for p in sorted(root.rglob("*.py"))}


def _runtime_nodes(tree: ast.AST, typing: bool = False):
    """Every node except the bodies of ``if TYPE_CHECKING:`` (those too with ``typing``)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if not typing and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def imports_of(name: str, path: Path, known: dict[str, Path], typing: bool = False) -> set[str]:
    """The modules of ``known`` that ``name`` imports (a package's ``__init__`` only when named)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8")), typing):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            targets = [f"{origin}.{a.name}" if f"{origin}.{a.name}" in known else origin
                       for a in node.names]
        else:
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def import_graph(root: Path = KIOSK, typing: bool = False) -> dict[str, set[str]]:
    """``typing``: the imports a type checker reads too (``if TYPE_CHECKING:`` blocks)."""
    known = modules(root)
    return {name: imports_of(name, path, known, typing) for name, path in known.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph`` as a path that ends where it starts, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_kiosk_package_has_no_import_circle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_the_games_package_has_no_import_circle():
    cycle = find_cycle(import_graph(GAMES))
    assert cycle is None, "import circle: " + " -> ".join(cycle)


@pytest.mark.parametrize("root", [KIOSK, GAMES], ids=["kiosk", "games"])
def test_not_even_the_type_checker_meets_a_circle(root):
    """A circle kept alive only for annotations still ties two modules together (the table
    screen and its hint helper were one): a module is given what it needs, typed by what it
    uses (a Protocol), instead of importing the module that owns it."""
    cycle = find_cycle(import_graph(root, typing=True))
    assert cycle is None, "import circle for the type checker: " + " -> ".join(cycle)


def test_the_engine_reaches_neither_the_families_nor_the_players():
    """The engine is the ground floor: what it needs of a family (is a game seated?) or of a
    game (its English name) is given to it, never fetched by an import."""
    graph = import_graph(GAMES)
    engine = {m for m in graph if m.startswith("games.engine")}
    reached = {t for m in engine for t in graph[m] if not t.startswith("games.engine")}
    assert not reached, reached


def test_the_graph_sees_imports_written_inside_functions():
    graph = import_graph()
    # a lazy import inside a handler is an edge like any other
    assert "kiosk.records.export" in graph["kiosk.commands.log"]
    assert "kiosk.records.stats" in graph["kiosk.app"]
    # `from kiosk.records import stats` names the module, not only its package
    assert "kiosk.records" not in graph["kiosk.app"]
    # the same in games/: the computer players are imported when a game asks for one
    assert "games.players.gin" in import_graph(GAMES)["games.players"]


def test_a_circle_is_found_and_named():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
