"""The prerendered pages paint before their scripts load (hotmeals/ui/first_paint.py).
PAGE has the shape React Router 8 gives a prerendered page (checked against a real build)."""

from __future__ import annotations

import re
from pathlib import Path

from hotmeals.ui.first_paint import (
    AFTER_PAINT,
    FirstPaintPlugin,
    lower_preloads_in,
    scripts_after_first_paint,
)

PAGE = (
    b'<head><link rel="preload" as="image" href="/parent/hero-tray.svg"/>'
    b'<link rel="modulepreload" href="/parent/assets/manifest-1a.js"/>'
    b'<link rel="modulepreload" href="/parent/assets/entry.client-2b.js"/>'
    b'<link rel="modulepreload" href="/parent/assets/root-3c.js"/>'
    b'<link rel="modulepreload" href="/parent/assets/_sign-in_._index-4d.js"/>'
    b'<link href="/parent/assets/styles-C3.css" rel="stylesheet" type="text/css"/>'
    b'<script type="module" async="">import "/parent/assets/manifest-1a.js";\n'
    b'import * as route0 from "/parent/assets/root-3c.js";\n'
    b'import * as route1 from "/parent/assets/_sign-in_._index-4d.js";\n  \n'
    b'  window.__reactRouterRouteModules = {"root":route0,"routes/[sign-in]._index":route1};\n\n'
    b'import("/parent/assets/entry.client-2b.js");</script></head><body><main>Log in</main>'
)


def _bootstrap(html: bytes) -> bytes:
    [script] = re.findall(rb'<script type="module" async="">(.*?)</script>', html, re.S)
    return script


def test_the_scripts_start_after_the_first_paint_in_the_same_order():
    out = scripts_after_first_paint(PAGE)
    assert b'rel="modulepreload"' not in out  # no preload competes with the stylesheet
    assert b'<link rel="preload" as="image" href="/parent/hero-tray.svg"/>' in out
    assert b'rel="stylesheet"' in out and out.endswith(b"<body><main>Log in</main>")
    script = _bootstrap(out)
    assert script.startswith(AFTER_PAINT)
    assert b"import " not in script.replace(b"import(", b"")  # no static import left
    order = [
        script.index(b'link.rel = "modulepreload"'),
        script.index(b'await import("/parent/assets/manifest-1a.js");'),
        script.index(b'const route0 = await import("/parent/assets/root-3c.js");'),
        script.index(b'const route1 = await import("/parent/assets/_sign-in_._index-4d.js");'),
        script.index(b"window.__reactRouterRouteModules = "),
        script.index(b'import("/parent/assets/entry.client-2b.js");'),
    ]
    assert order == sorted(order)
    for href in (b"manifest-1a", b"entry.client-2b", b"root-3c", b"_sign-in_._index-4d"):
        assert b'"/parent/assets/' + href + b'.js"' in script.split(b"]) {")[0]
    assert scripts_after_first_paint(out) == out  # a second pass changes nothing


def test_an_unknown_bootstrap_is_kept_with_its_preloads_lowered():
    other = PAGE.replace(b"window.__reactRouterRouteModules", b"window.__somethingElse")
    out = scripts_after_first_paint(other)
    assert out.count(b'<link rel="modulepreload" fetchpriority="low" href=') == 4
    assert _bootstrap(out) == _bootstrap(other)


def test_the_plugin_rewrites_every_prerendered_page(tmp_path):
    (tmp_path / "sign-in").mkdir()
    pages = (tmp_path / "index.html", tmp_path / "sign-in" / "index.html")
    for page in pages:
        page.write_bytes(PAGE)
    (tmp_path / "root-3c.js").write_bytes(b'"<link rel=\\"modulepreload\\""')  # not a page
    FirstPaintPlugin().post_build(static_dir=tmp_path)
    for page in pages:
        assert _bootstrap(page.read_bytes()).startswith(AFTER_PAINT)
    assert b"modulepreload" in (tmp_path / "root-3c.js").read_bytes()
    assert lower_preloads_in(tmp_path) == 0


def test_the_build_uses_the_plugin():
    from rxconfig import config

    assert any(isinstance(p, FirstPaintPlugin) for p in config.plugins)


def test_the_app_root_does_not_import_all_of_radix_themes():
    """Radix Themes leaves the libraries the root imports whole (window.__reflex), so each page
    loads only the Radix components it shows; React and the rest stay."""
    from reflex_base.components.dynamic import _bundle_library
    from reflex_base.registry import RegistrationContext

    from hotmeals.ui.theme import RADIX_THEMES_PACKAGE, theme_plugin

    bundled = RegistrationContext.ensure_context().bundled_libraries
    before = list(bundled)
    try:
        _bundle_library(RADIX_THEMES_PACKAGE)
        _bundle_library("react")
        assert RADIX_THEMES_PACKAGE in bundled
        theme_plugin().pre_compile(
            add_save_task=lambda *a, **k: None,
            add_modify_task=lambda *a: None,
            radix_themes_plugin=None,
        )
        assert RADIX_THEMES_PACKAGE not in bundled and "react" in bundled
    finally:
        bundled[:] = before


def test_a_guarded_page_starts_its_scripts_without_waiting_for_a_paint():
    """A guarded page prerenders only a spinner (nothing contentful: the first-contentful-paint
    entry would come only after the scripts), so its bootstrap must not wait for one."""
    from hotmeals.ui.components.screens import loading_screen

    assert "data-hm-placeholder" in str(loading_screen())
    assert b'document.querySelector("[data-hm-placeholder]")) return go();' in AFTER_PAINT
    waits = AFTER_PAINT.index(b"new PerformanceObserver")
    assert AFTER_PAINT.index(b"data-hm-placeholder") < waits


def test_english_pages_say_en_ca_from_the_start():
    """forms.js sets <html lang="en-CA"> for English: the page already says it, so no restyle
    of the whole page at load."""
    from hotmeals.ui.first_paint import HTML_LANG_EN_CA, document_lang

    page = b'<!DOCTYPE html><html lang="en"><head></head><body lang="en"></body></html>'
    assert document_lang(page).startswith(b"<!DOCTYPE html>" + HTML_LANG_EN_CA)
    assert b'<body lang="en">' in document_lang(page)
    assert document_lang(document_lang(page)) == document_lang(page)
    forms_js = Path(__file__).parents[2] / "assets" / "forms.js"
    assert b'var value = "en-CA";' in forms_js.read_bytes()  # what it sets for English
