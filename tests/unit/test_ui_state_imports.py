"""The UI states import each other without circles: the step machine depends on
nothing in the app, and no state module reaches back - not even through an import hidden in a
function body."""

from __future__ import annotations

import ast
from pathlib import Path

STATE_DIR = Path(__file__).resolve().parents[2] / "hotmeals" / "ui" / "state"
PACKAGE = "hotmeals.ui.state"


def _imports() -> dict[str, set[str]]:
    """``{module: the hotmeals.ui.state modules it imports}``, anywhere in the file."""
    graph: dict[str, set[str]] = {}
    for path in STATE_DIR.glob("*.py"):
        name = path.stem
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                module = node.module
            elif isinstance(node, ast.Import):
                module = node.names[0].name
            else:
                continue
            if module.startswith(PACKAGE + "."):
                found.add(module.removeprefix(PACKAGE + ".").split(".")[0])
        graph[name] = found - {name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return None
        for nxt in sorted(graph.get(node, ())):
            found = visit(nxt, [*path, node])
            if found:
                return found
        done.add(node)
        return None

    for start in sorted(graph):
        found = visit(start, [])
        if found:
            return found
    return None


def test_the_step_machine_imports_nothing_from_the_app_ui():
    source = (STATE_DIR / "steps.py").read_text()
    assert "hotmeals" not in source.replace('"""', "").split("import reflex as rx", 1)[1]


def test_the_ui_states_import_each_other_without_circles():
    graph = _imports()
    assert "steps" in graph and "auth" in graph  # the walk found the modules
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
