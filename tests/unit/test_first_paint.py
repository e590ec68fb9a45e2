"""Issue 11: the prerendered pages let the stylesheet and pictures go before the scripts."""

from __future__ import annotations

from hotmeals.ui.first_paint import FirstPaintPlugin, lower_preloads_in, lower_script_preloads

PAGE = (
    b'<head><link rel="preload" as="image" href="/parent/hero-tray.svg"/>'
    b'<link rel="modulepreload" href="/parent/assets/root-A1.js"/>'
    b'<link rel="modulepreload" href="/parent/assets/_index-B2.js"/>'
    b'<link href="/parent/assets/styles-C3.css" rel="stylesheet" type="text/css"/>'
    b'<script type="module" async="">import "/parent/assets/root-A1.js";</script></head>'
)


def test_script_preloads_are_low_priority_and_nothing_else_changes():
    lowered = lower_script_preloads(PAGE)
    assert lowered.count(b'<link rel="modulepreload" fetchpriority="low" href=') == 2
    assert b'<link rel="preload" as="image" href="/parent/hero-tray.svg"/>' in lowered
    assert b'rel="stylesheet"' in lowered and b'import "/parent/assets/root-A1.js"' in lowered
    assert lower_script_preloads(lowered) == lowered  # a second build step changes nothing


def test_the_plugin_rewrites_every_prerendered_page(tmp_path):
    (tmp_path / "sign-in").mkdir()
    for page in (tmp_path / "index.html", tmp_path / "sign-in" / "index.html"):
        page.write_bytes(PAGE)
    (tmp_path / "root-A1.js").write_bytes(b'"<link rel=\\"modulepreload\\""')  # not a page
    FirstPaintPlugin().post_build(static_dir=tmp_path)
    for page in (tmp_path / "index.html", tmp_path / "sign-in" / "index.html"):
        assert page.read_bytes().count(b'fetchpriority="low"') == 2
    assert b"fetchpriority" not in (tmp_path / "root-A1.js").read_bytes()
    assert lower_preloads_in(tmp_path) == 0


def test_the_build_uses_the_plugin():
    from rxconfig import config

    assert any(isinstance(p, FirstPaintPlugin) for p in config.plugins)
