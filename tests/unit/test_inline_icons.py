"""The first screens' icons are inline SVG drawn as Lucide draws them
(hotmeals/ui/components/icons.py)."""

from __future__ import annotations

import pytest
from reflex_components_lucide.icon import LUCIDE_ICON_LIST

from hotmeals.ui.components.icons import SHAPES, icon


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_inline_icon_is_a_lucide_icon(name: str):
    assert name.replace("-", "_") in LUCIDE_ICON_LIST
    assert SHAPES[name]


def test_an_inline_icon_has_lucide_s_attributes_not_styles():
    js = str(icon("mail", 16, aria_hidden="true"))
    for attr in (
        'className:"lucide lucide-mail"',
        'width:"16"',
        'height:"16"',
        'viewBox:"0 0 24 24"',
        'fill:"none"',
        'stroke:"currentColor"',
        'strokeWidth:"2"',
        'strokeLinecap:"round"',
        'strokeLinejoin:"round"',
        '"aria-hidden":"true"',
    ):
        assert attr in js
    assert "css:" not in js  # no Emotion style to insert while the page hydrates
