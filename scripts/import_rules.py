"""The import rules of the hotmeals package, read from the code (ast; nothing is imported).

    .venv/bin/python scripts/import_rules.py            # every rule, a summary per rule
    .venv/bin/python scripts/import_rules.py --root hotmeals

Three rules; exit status 1 when any is broken:

1. **Layers.** Each module belongs to one layer (``LAYERS``) and imports only the layers
   ``ALLOWED`` lists for it: ui, api and web reach the data through services (never
   ``hotmeals.db`` but for the table classes of ``hotmeals.db.models``, as types); services
   import domain, db, the gateway (``hotmeals.converge``), i18n and the configuration, never ui,
   api, web or an entrypoint; domain imports nothing of the app but i18n; db and the gateway
   import no services. Inside ui, the state several screens share (``ui/shared_state``)
   imports no component and no screen, the shared components (``ui/components``) no screen,
   and a screen (``ui/screens/<screen>``) no module of ui's top (the route table, the
   plugins). Imports under ``if TYPE_CHECKING:`` count too: a type is a dependency.
2. **Circles.** No strongly connected component in the graph of the imports that run: module
   level and function level (not ``TYPE_CHECKING``). ``from pkg import name`` depends on the
   module ``pkg.name`` when there is one, on ``pkg/__init__.py`` otherwise; importing
   ``a.b.c`` also runs ``a/__init__`` and ``a/b/__init__`` (an edge to each, unless the
   importer is itself inside that package, whose ``__init__`` has run first).
3. **Local imports say why.** A function-local import of the package's own modules carries a
   comment on one of its lines or on the line before it (or before the run of imports it
   stands in): what circle or cost it avoids. Pragmas (``noqa``, ``type: ignore``) are no why.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "hotmeals"

# The layer of a module: the longest prefix listed here that names it or one of its packages.
LAYERS: dict[str, str] = {
    "hotmeals": "config",  # the package's own __init__ (this entry names it alone)
    "hotmeals.settings": "config",
    "hotmeals.clock": "config",
    "hotmeals.logs": "config",
    "hotmeals.security": "config",
    "hotmeals.i18n": "i18n",
    "hotmeals.domain": "domain",
    "hotmeals.converge": "gateway",
    "hotmeals.db": "db",
    "hotmeals.services": "services",
    "hotmeals.api": "api",
    "hotmeals.web": "web",
    "hotmeals.ui": "ui",  # the app's UI top: the route table, theme, build plugins
    "hotmeals.ui.shared_state": "ui.shared_state",
    "hotmeals.ui.components": "ui.components",
    "hotmeals.ui.screens": "ui.screens",
    # Entrypoints: processes and commands that assemble the rest. They may import anything.
    "hotmeals.hotmeals": "entry",
    "hotmeals.serve": "entry",
    "hotmeals.mode": "entry",
    "hotmeals.cli": "entry",
    "hotmeals.admin": "entry",
    "hotmeals.demo": "entry",
    "hotmeals.jobs": "entry",
}

DB_MODELS = "hotmeals.db.models"  # the one part of db that ui, api and web may name (types)
UI_LAYERS = {"ui", "ui.screens", "ui.components", "ui.shared_state"}
EDGE_LAYERS = {"api", "web", *UI_LAYERS}
# What every part of ui may reach below it: the services, and the tables only as types.
UI_BELOW = {"services", "config", "domain", "i18n", "db.models"}

# What each layer may import. "db.models" is the table classes only; "*" is everything.
ALLOWED: dict[str, set[str]] = {
    "i18n": {"i18n"},
    "domain": {"domain", "i18n"},
    "config": {"config", "domain", "i18n"},
    "gateway": {"gateway", "config", "domain", "i18n"},
    "db": {"db", "config", "domain", "i18n"},
    "services": {"services", "db", "gateway", "config", "domain", "i18n"},
    "api": {"api", "services", "gateway", "config", "domain", "i18n", "db.models"},
    "web": {"web", "api", "services", "gateway", "config", "domain", "i18n", "db.models"},
    "ui": {*UI_LAYERS, *UI_BELOW},
    "ui.screens": {"ui.screens", "ui.components", "ui.shared_state", *UI_BELOW},
    "ui.components": {"ui.components", "ui.shared_state", *UI_BELOW},
    "ui.shared_state": {"ui.shared_state", *UI_BELOW},
    "entry": {"*"},
}

PRAGMA = re.compile(r"(noqa(:\s*[A-Z0-9, ]+)?|type:\s*ignore(\[[^\]]*\])?|pragma:[^#]*)", re.I)


@dataclass(frozen=True)
class Import:
    importer: str  # module name
    path: Path
    line: int
    target: str  # the module it depends on
    statement: str  # as written (first line)
    local: bool  # inside a function or method
    type_only: bool  # under ``if TYPE_CHECKING:``
    has_why: bool  # a comment on its lines or on the line before its run of imports
    implicit: bool = False  # a parent package's __init__ that the import runs


@dataclass
class Report:
    layers: list[str] = field(default_factory=list)
    circles: list[str] = field(default_factory=list)
    local_without_why: list[str] = field(default_factory=list)
    modules: int = 0
    imports: int = 0

    @property
    def clean(self) -> bool:
        return not (self.layers or self.circles or self.local_without_why)


# --- reading the package ----------------------------------------------------------------------


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def find_modules(root: Path) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def existing(name: str, modules: dict[str, Path]) -> str | None:
    """``name`` or its nearest enclosing module that exists in the package."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def absolute(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def comment_of(line: str) -> str | None:
    """The text of the line's comment (pragmas removed), None when there is none."""
    in_string: str | None = None
    for i, ch in enumerate(line):
        if in_string:
            if ch == in_string:
                in_string = None
        elif ch in "'\"":
            in_string = ch
        elif ch == "#":
            text = PRAGMA.sub("", line[i + 1 :]).strip(" #:-()")
            return text if re.search(r"[A-Za-z]{2}", text) else None
    return None


def is_comment_line(line: str) -> bool:
    return line.lstrip().startswith("#") and comment_of(line) is not None


def walk(
    body: Iterable[ast.stmt], *, local: bool, type_only: bool
) -> Iterator[tuple[list[ast.stmt], ast.stmt, bool, bool]]:
    """Every import statement with the statement list it stands in and its context."""
    body = list(body)
    for stmt in body:
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            yield body, stmt, local, type_only
            continue
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from walk(stmt.body, local=True, type_only=type_only)
            continue
        if isinstance(stmt, ast.If) and is_type_checking(stmt.test):
            yield from walk(stmt.body, local=local, type_only=True)
            yield from walk(stmt.orelse, local=local, type_only=type_only)
            continue
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(stmt, name, None)
            if not inner:
                continue
            for part in inner:
                if isinstance(part, ast.ExceptHandler | ast.match_case):
                    yield from walk(part.body, local=local, type_only=type_only)
            stmts = [s for s in inner if isinstance(s, ast.stmt)]
            if stmts:
                yield from walk(stmts, local=local, type_only=type_only)


def has_why(body: list[ast.stmt], stmt: ast.stmt, lines: list[str]) -> bool:
    end = stmt.end_lineno or stmt.lineno
    if any(comment_of(lines[n - 1]) for n in range(stmt.lineno, end + 1)):
        return True
    # The run of imports this one stands in: a comment before its first one covers them all.
    first = stmt
    index = body.index(stmt)
    while index > 0:
        before = body[index - 1]
        if not isinstance(before, ast.Import | ast.ImportFrom):
            break
        if (before.end_lineno or before.lineno) + 1 != first.lineno:
            break
        if any(
            comment_of(lines[n - 1])
            for n in range(before.lineno, (before.end_lineno or before.lineno) + 1)
        ):
            return True
        first = before
        index -= 1
    return first.lineno >= 2 and is_comment_line(lines[first.lineno - 2])


def read_imports(modules: dict[str, Path]) -> list[Import]:
    found: list[Import] = []
    for name, path in modules.items():
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text, filename=str(path))
        is_package = path.name == "__init__.py"
        for body, stmt, local, type_only in walk(tree.body, local=False, type_only=False):
            targets: list[str] = []
            if isinstance(stmt, ast.Import):
                targets = [a.name for a in stmt.names]
            else:
                assert isinstance(stmt, ast.ImportFrom)
                base = absolute(stmt, name, is_package)
                for alias in stmt.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else base)
            why = has_why(body, stmt, lines) if local else True
            written = lines[stmt.lineno - 1].strip()
            for raw in dict.fromkeys(targets):
                if raw != PACKAGE and not raw.startswith(PACKAGE + "."):
                    continue
                target = existing(raw, modules)
                if target is None or target == name:
                    continue
                common = dict(
                    importer=name,
                    path=path,
                    line=stmt.lineno,
                    statement=written,
                    local=local,
                    type_only=type_only,
                    has_why=why,
                )
                found.append(Import(target=target, **common))
                # The packages the import runs on its way (not the importer's own).
                parts = target.split(".")
                for n in range(1, len(parts)):
                    parent = ".".join(parts[:n])
                    inside = name == parent or name.startswith(parent + ".")
                    if parent in modules and not inside:
                        found.append(Import(target=parent, implicit=True, **common))
    return found


# --- the rules --------------------------------------------------------------------------------


def layer_of(module: str) -> str | None:
    best = None
    for prefix in LAYERS:
        inside = module.startswith(prefix + ".") and prefix != PACKAGE  # the root: itself only
        if (module == prefix or inside) and (best is None or len(prefix) > len(best)):
            best = prefix
    return LAYERS[best] if best is not None else None


def layer_allows(importer_layer: str, target: str) -> bool:
    allowed = ALLOWED[importer_layer]
    if "*" in allowed:
        return True
    target_layer = layer_of(target)
    if target_layer == "db" and "db" not in allowed:
        return "db.models" in allowed and (
            target == DB_MODELS or target.startswith(DB_MODELS + ".")
        )
    return target_layer in allowed


def check_layers(modules: dict[str, Path], imports: list[Import], root: Path) -> list[str]:
    problems = []
    for name, path in modules.items():
        if layer_of(name) is None:
            problems.append(f"{rel(path, root)}: {name} has no layer (add it to LAYERS)")
    for imp in imports:
        if imp.implicit:
            continue
        source = layer_of(imp.importer)
        if source is None or layer_allows(source, imp.target):
            continue
        kind = " (TYPE_CHECKING)" if imp.type_only else ""
        problems.append(
            f"{rel(imp.path, root)}:{imp.line}: {source} imports {layer_of(imp.target)} "
            f"({imp.target}){kind}"
        )
    return sorted(set(problems))


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components (iterative), those of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return sorted(out, key=lambda c: (-len(c), c))


def shortest_cycle(graph: dict[str, set[str]], members: set[str]) -> list[str]:
    """A shortest way round the component, from its first module back to it."""
    start = min(members)
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node] & members):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if nxt not in previous:
                    previous[nxt] = node
                    following.append(nxt)
        frontier = following
    return [start]


def check_circles(modules: dict[str, Path], imports: list[Import]) -> list[str]:
    graph: dict[str, set[str]] = {name: set() for name in modules}
    where: dict[tuple[str, str], Import] = {}
    for imp in imports:
        if imp.type_only:
            continue
        graph[imp.importer].add(imp.target)
        key = (imp.importer, imp.target)
        if key not in where or (where[key].local and not imp.local):
            where[key] = imp
    problems = []
    for component in strongly_connected(graph):
        cycle = shortest_cycle(graph, set(component))
        steps = []
        for a, b in zip(cycle, cycle[1:], strict=False):
            imp = where[(a, b)]
            how = "function level" if imp.local else "module level"
            how += f", runs {b}/__init__" if imp.implicit else ""
            steps.append(f"      {a} -> {b}  ({how}, line {imp.line})")
        problems.append(
            f"{len(component)} modules: {', '.join(component)}\n"
            f"    for example:\n" + "\n".join(steps)
        )
    return problems


def check_local_imports(imports: list[Import], root: Path) -> list[str]:
    seen: dict[tuple[Path, int], str] = {}
    for imp in imports:
        if imp.local and not imp.has_why and not imp.implicit:
            seen.setdefault(
                (imp.path, imp.line), f"{rel(imp.path, root)}:{imp.line}: {imp.statement}"
            )
    return [seen[k] for k in sorted(seen, key=lambda k: (str(k[0]), k[1]))]


def rel(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root.parent))
    except ValueError:
        return str(path)


def check(root: Path) -> Report:
    modules = find_modules(root)
    imports = read_imports(modules)
    return Report(
        layers=check_layers(modules, imports, root),
        circles=check_circles(modules, imports),
        local_without_why=check_local_imports(imports, root),
        modules=len(modules),
        imports=sum(1 for i in imports if not i.implicit),
    )


# --- the report -------------------------------------------------------------------------------


def by_area(lines: list[str]) -> str:
    counts: dict[str, int] = defaultdict(int)
    for line in lines:
        parts = line.split(":", 1)[0].split("/")
        area = parts[1] if len(parts) > 2 else parts[-1].removesuffix(".py")
        counts[area] += 1
    return ", ".join(f"{area} {n}" for area, n in sorted(counts.items(), key=lambda kv: -kv[1]))


def render(report: Report) -> str:
    out = [f"{report.modules} modules, {report.imports} imports of the package's own modules", ""]
    out.append(f"Rule 1, layers: {len(report.layers)} violation(s)")
    out += [f"  {line}" for line in report.layers]
    out.append("")
    out.append(f"Rule 2, circles: {len(report.circles)} circle(s)")
    out += [f"  {n}. {text}" for n, text in enumerate(report.circles, 1)]
    out.append("")
    out.append(f"Rule 3, function-local imports without a why: {len(report.local_without_why)}")
    out += [f"  {line}" for line in report.local_without_why]
    out.append("")
    in_circles = sum(int(c.split(" ", 1)[0]) for c in report.circles)
    out.append("Summary")
    out.append(
        f"  layers         {len(report.layers):>4}"
        + (f"   ({by_area(report.layers)})" if report.layers else "")
    )
    out.append(
        f"  circles        {len(report.circles):>4}"
        + (f"   ({in_circles} modules in them)" if report.circles else "")
    )
    out.append(
        f"  local imports  {len(report.local_without_why):>4}"
        + (f"   ({by_area(report.local_without_why)})" if report.local_without_why else "")
    )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = Path(__file__).resolve().parent.parent / PACKAGE
    parser.add_argument("--root", type=Path, default=default, help="the package folder")
    args = parser.parse_args(argv)
    report = check(args.root.resolve())
    print(render(report))
    return 0 if report.clean else 1


if __name__ == "__main__":
    sys.exit(main())
