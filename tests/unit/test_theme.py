"""The lean Radix stylesheet set covers every colour scale the code uses."""

from __future__ import annotations

import re
from pathlib import Path

from hotmeals.ui.theme import COLOR_SCALES, theme_plugin

ROOT = Path(__file__).resolve().parents[2]
RADIX_SCALES = (
    "amber blue bronze brown crimson cyan gold grass gray green indigo iris jade lime mauve mint "
    "olive orange pink plum purple red ruby sage sand sky slate teal tomato violet yellow"
).split()
PATTERNS = [
    # Any scale name as a Python string: rx.color("red"), color_scheme="grass", or a mapping
    # such as {"info": "blue"} that reaches color_scheme later.
    re.compile(r'"(' + "|".join(RADIX_SCALES) + r')"'),
    re.compile(r"var\(--([a-z]+)-a?\d+\)"),
]
# Radix tokens that are not colour scales (--focus-N is Radix's alias of --accent-N for rings).
NOT_SCALES = {
    *"accent radius space font color shadow cursor line letter focus".split(),
}


def test_every_colour_scale_used_is_imported():
    used: set[str] = set()
    files = [
        *(p for p in ROOT.joinpath("hotmeals", "ui").rglob("*.py") if p.name != "theme.py"),
        *ROOT.joinpath("assets").glob("*.css"),
    ]
    for path in files:
        text = path.read_text(encoding="utf-8")
        for pattern in PATTERNS:
            used.update(pattern.findall(text))
    missing = used - NOT_SCALES - set(COLOR_SCALES)
    assert not missing, f"add these scales to hotmeals.ui.theme.COLOR_SCALES: {sorted(missing)}"


def test_stylesheets_keep_radix_order():
    paths = theme_plugin().get_stylesheet_paths()
    assert paths[0].endswith("tokens/base.css")
    assert paths[-2:] == ("@radix-ui/themes/components.css", "@radix-ui/themes/utilities.css")
    assert all(f"colors/{c}.css" in " ".join(paths) for c in COLOR_SCALES)
