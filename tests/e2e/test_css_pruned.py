"""The served stylesheet is the pruned one (hotmeals/ui/css_prune.py): it styles the
Radix components the build can render, and none that it never names."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from hotmeals.ui.css_prune import COMPONENT_CLASS, used_component_classes
from tests.e2e.server import AppServer


def test_the_served_stylesheet_styles_only_components_the_build_names(app: AppServer) -> None:
    page = httpx.get(app.url("/"), timeout=60).text
    href = re.search(r'href="(/parent/assets/__reflex_global_styles-[^"]+\.css)"', page)
    assert href, "the landing page links its stylesheet"
    css = httpx.get(app.base_url + href.group(1), timeout=60).text
    styled = set(COMPONENT_CLASS.findall(css))
    build = Path(app.env["REFLEX_WEB_WORKDIR"]) / "build" / "client"
    named = used_component_classes(build)
    # What the first screens show is still styled ...
    assert {"rt-Button", "rt-Card", "rt-Heading", "rt-Text", "rt-TextFieldRoot"} <= styled
    # ... and every component rule left is for a component some script or page names.
    assert styled <= named
    assert len(named) >= len(styled) > 40


def test_no_page_imports_the_map_of_every_lucide_icon(app: AppServer) -> None:
    """rx.icon with a Var for its name compiles to Lucide's DynamicIcon, whose import map of
    every icon (~37 KiB compressed) then loads with the page: icons are named in Python."""
    assets = Path(app.env["REFLEX_WEB_WORKDIR"]) / "build" / "client" / "parent" / "assets"
    scripts = list(assets.glob("*.js"))
    assert len(scripts) > 20
    # The map's chunk lists every icon's chunk (a-arrow-down ... zoom-out) for Vite to preload.
    dynamic = [p.name for p in scripts if '"assets/a-arrow-down-' in p.read_text()]
    assert dynamic == [], f"a page names an icon by a Var: {dynamic}"
