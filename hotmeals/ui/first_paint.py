"""First paint before the JavaScript (issue 11): the pages are prerendered HTML, so a phone can
paint them as soon as the HTML and the stylesheet are in; the scripts only make them live.

React Router writes a ``<link rel="modulepreload">`` for every script of the route. Chrome
fetches those at high priority, beside the stylesheet that blocks the paint: on a slow phone
network the ~250 KiB of scripts share the line with the stylesheet and the paint waits for
all of them. ``fetchpriority="low"`` keeps the preloads (the scripts still start at once and
are not fetched twice) but lets the stylesheet and the hero picture go first.

A Reflex plugin (``rxconfig.py``): after the production build, it marks the preloads in every
prerendered page (``*.html``) before Reflex compresses them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import reflex as rx

_PRELOAD = re.compile(rb'<link rel="modulepreload"(?![^>]*fetchpriority)')
LOW = b'<link rel="modulepreload" fetchpriority="low"'


def lower_script_preloads(html: bytes) -> bytes:
    """Every modulepreload link of a page, at low fetch priority (idempotent)."""
    return _PRELOAD.sub(LOW, html)


def lower_preloads_in(static_dir: Path) -> int:
    """Rewrite the prerendered pages under ``static_dir``; returns how many changed."""
    changed = 0
    for page in static_dir.rglob("*.html"):
        html = page.read_bytes()
        lowered = lower_script_preloads(html)
        if lowered != html:
            page.write_bytes(lowered)
            changed += 1
    return changed


class FirstPaintPlugin(rx.plugins.Plugin):
    def post_build(self, **context: Any) -> None:
        lower_preloads_in(Path(context["static_dir"]))
