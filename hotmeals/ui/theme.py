"""The visual system: Radix Themes with one accent (tomato) on a warm gray (sand).

Radix's ``styles.css`` carries all 31 colour scales (about 110 KiB of CSS that blocks the first
paint); the app uses seven, so the lean plugin imports the base tokens, those six scales, the
components and the utilities, in the order ``styles.css`` has them.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import reflex as rx

ACCENT = "tomato"
GRAY = "sand"
# Every scale referenced by rx.color(...), color_scheme=... or var(--x-n) in hotmeals/ and
# assets/ (tests/unit/test_theme.py keeps this list honest).
COLOR_SCALES = ("gray", GRAY, ACCENT, "red", "grass", "orange", "blue")
RADIX_THEMES_PACKAGE = "@radix-ui/themes"


@dataclasses.dataclass
class LeanRadixThemesPlugin(rx.plugins.RadixThemesPlugin):
    def get_stylesheet_paths(self, **context: Any) -> tuple[str, ...]:
        if not self.enabled:
            return ()
        return (
            "@radix-ui/themes/tokens/base.css",
            *(f"@radix-ui/themes/tokens/colors/{c}.css" for c in COLOR_SCALES),
            "@radix-ui/themes/components.css",
            "@radix-ui/themes/utilities.css",
        )

    def pre_compile(self, **context: Any) -> None:
        """Runs after the pages compile, before the app root: take Radix Themes off the
        libraries the root imports whole for ``window.__reflex`` (dynamic components, which
        this app never renders). Each page then loads only the Radix components it shows
        (before, the first screens loaded all of them)."""
        super().pre_compile(**context)
        from reflex_base.registry import RegistrationContext

        bundled = RegistrationContext.ensure_context().bundled_libraries
        bundled[:] = [lib for lib in bundled if lib != RADIX_THEMES_PACKAGE]


def theme_plugin() -> LeanRadixThemesPlugin:
    return LeanRadixThemesPlugin(
        theme=rx.theme(
            appearance="light",
            accent_color=ACCENT,
            gray_color=GRAY,
            radius="large",
            scaling="100%",
        )
    )
