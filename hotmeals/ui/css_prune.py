"""A smaller render-blocking stylesheet: Radix Themes' ``components.css`` styles
every Radix component, and the app shows about half of them. After the production build this
plugin drops, from the built stylesheet, the rules whose every selector names a Radix component
class (``.rt-SelectTrigger``, ``.rt-DataListRoot``: ``rt-`` then a capital) that no built
script or page contains. Radix writes those class names as literal strings in its components,
so a component the app can render keeps its rules; the computed classes (``rt-r-size-2``,
``rt-variant-soft``, the responsive utilities) are never touched. Everything else (tokens,
keyframes, font faces, the app's own CSS) is kept byte for byte.

It runs before Reflex compresses the build, so the gzip and brotli copies are of the smaller
file. ``tests/unit/test_css_prune.py`` checks the parser and a real build's stylesheet.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import reflex as rx

COMPONENT_CLASS = re.compile(r"\.(rt-[A-Z][A-Za-z0-9]*)(?![A-Za-z0-9_-])")
COMMENT = re.compile(r"/\*.*?\*/", re.S)
USED_CLASS = re.compile(rb"rt-[A-Z][A-Za-z0-9]*")
# At-rules whose block holds rules (pruned inside); any other block (@keyframes, @font-face,
# @property, @page) is kept whole.
NESTING = ("@media", "@layer", "@supports", "@container", "@scope", "@document")


def _block_end(css: str, start: int) -> int:
    """Index just past the ``}`` matching the ``{`` at ``start`` (strings and comments aware)."""
    depth = 0
    i = start
    n = len(css)
    while i < n:
        skipped = _skip_quoted(css, i)
        if skipped is not None:
            i = skipped
            continue
        c = css[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced braces in stylesheet")


def _skip_quoted(css: str, i: int) -> int | None:
    """Index just past the string or comment that starts at ``i``; ``None`` if none does
    (braces and semicolons inside them are not the stylesheet's)."""
    if css[i] in "\"'":
        return _string_end(css, i)
    if css.startswith("/*", i):
        close = css.find("*/", i + 2)
        return len(css) if close < 0 else close + 2
    return None


def _string_end(css: str, start: int) -> int:
    quote = css[start]
    i = start + 1
    while i < len(css):
        if css[i] == "\\":
            i += 2
            continue
        if css[i] == quote:
            return i + 1
        i += 1
    raise ValueError("unterminated string in stylesheet")


def _split_selectors(prelude: str) -> list[str]:
    """A selector list split at its top-level commas (``:is(a, b)`` stays one)."""
    parts: list[str] = []
    depth = 0
    current = []
    i = 0
    while i < len(prelude):
        c = prelude[i]
        if c == "\\" and i + 1 < len(prelude):
            current.append(prelude[i : i + 2])
            i += 2
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(c)
        i += 1
    parts.append("".join(current))
    return parts


def _dead(selector: str, used: set[str]) -> bool:
    names = COMPONENT_CLASS.findall(COMMENT.sub("", selector))
    return any(name not in used for name in names)


def prune(css: str, used: Iterable[str]) -> str:
    """``css`` without the rules that only style components absent from ``used``."""
    return _prune(css, set(used))


def _prune(css: str, used: set[str]) -> str:
    out: list[str] = []
    i = 0
    n = len(css)
    while i < n:
        # The next statement: up to a top-level ';' (an at-rule without block) or '{'.
        j = i
        while j < n and css[j] not in "{};":
            skipped = _skip_quoted(css, j)
            j = j + 1 if skipped is None else skipped
        if j >= n:
            out.append(css[i:])
            break
        if css[j] in ";}":
            out.append(css[i : j + 1])
            i = j + 1
            continue
        end = _block_end(css, j)
        prelude = css[i:j]
        head = prelude.strip()
        if head.startswith("@"):
            if head.lower().startswith(NESTING):
                inner = _prune(css[j + 1 : end - 1], used)
                if inner.strip():
                    out.append(prelude + "{" + inner + "}")
            else:
                out.append(css[i:end])
        else:
            selectors = _split_selectors(prelude)
            alive = [s for s in selectors if not _dead(s, used)]
            if len(alive) == len(selectors):
                out.append(css[i:end])
            elif alive:
                out.append(",".join(alive) + css[j:end])
        i = end
    return "".join(out)


def used_component_classes(static_dir: Path) -> set[str]:
    """Every ``rt-Xxx`` class name written in the build's scripts and pages."""
    found: set[bytes] = set()
    for path in static_dir.rglob("*"):
        if path.suffix in (".js", ".html", ".mjs") and path.is_file():
            found.update(USED_CLASS.findall(path.read_bytes()))
    return {name.decode() for name in found}


def prune_build(static_dir: Path) -> dict[str, tuple[int, int]]:
    """Prune every built stylesheet under ``static_dir`` in place: {name: (before, after)}."""
    used = used_component_classes(static_dir)
    sizes: dict[str, tuple[int, int]] = {}
    for sheet in static_dir.rglob("*.css"):
        css = sheet.read_text(encoding="utf-8")
        smaller = prune(css, used)
        if smaller != css:
            sheet.write_text(smaller, encoding="utf-8")
            sizes[sheet.name] = (len(css.encode()), len(smaller.encode()))
    return sizes


class PruneCssPlugin(rx.plugins.Plugin):
    def post_build(self, **context: Any) -> None:
        prune_build(Path(context["static_dir"]))
