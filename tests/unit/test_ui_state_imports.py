"""The UI states import each other without circles: the step machine depends on
nothing in the app, and no state module reaches back - not even through an import hidden in a
function body. Every state module is one mypy reads with every function typed."""

from __future__ import annotations

import ast
import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI_DIR = ROOT / "hotmeals" / "ui"
STEPS = UI_DIR / "shared_state" / "steps.py"


def state_modules() -> dict[str, Path]:
    """``{module: path}`` of every Reflex state module: ui/shared_state/, and each screen's
    state.py and <part>_state.py."""
    paths = [
        *(UI_DIR / "shared_state").glob("*.py"),
        *(UI_DIR / "screens").glob("*/state.py"),
        *(UI_DIR / "screens").glob("*/*_state.py"),
    ]
    return {
        ".".join(p.relative_to(ROOT).with_suffix("").parts): p
        for p in paths
        if p.name != "__init__.py"
    }


def _imports() -> dict[str, set[str]]:
    """``{module: the state modules it imports}``, anywhere in the file."""
    modules = state_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            found |= {t for t in targets if t in modules}
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
    source = STEPS.read_text()
    assert "hotmeals" not in source.replace('"""', "").split("import reflex as rx", 1)[1]


def test_the_ui_states_import_each_other_without_circles():
    graph = _imports()
    assert "hotmeals.ui.shared_state.steps" in graph  # the walk found the modules
    assert "hotmeals.ui.screens.cart.state" in graph
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_every_state_module_has_every_function_typed():
    """A state module mypy would read without ``disallow_untyped_defs`` would let a handler's
    arguments go unchecked: each one is named by that section of pyproject.toml."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = [
        pattern
        for section in config["tool"]["mypy"]["overrides"]
        if section.get("disallow_untyped_defs")
        for pattern in section["module"]
    ]

    def named(module: str) -> bool:
        # mypy's "a.*" names a and what is under it; a star inside names one or more parts.
        return any(
            module == p.removesuffix(".*") or fnmatch.fnmatchcase(module, p) for p in patterns
        )

    assert len(state_modules()) > 30
    assert [m for m in sorted(state_modules()) if not named(m)] == []
