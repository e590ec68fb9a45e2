"""First paint before the JavaScript: the pages are prerendered HTML, so a phone can
paint them as soon as the HTML and the stylesheet are in; the scripts only make them live.

React Router writes a ``<link rel="modulepreload">`` for every script of the route and an inline
module that imports them at once. Chrome fetches all of them beside the stylesheet that blocks
the paint: on a slow phone line the ~250 KiB of scripts share the line with the stylesheet and
the hero picture, and the paint waits for all of them. After the production build this plugin
rewrites every prerendered page (before Reflex compresses it):

- the inline bootstrap waits for the first paint (the browser's first-contentful-paint entry,
  at most 3 s; not at all on a guarded page, whose prerendered spinner paints nothing), then
  adds the same modulepreload links (the scripts still load in parallel) and imports the same
  modules in the same order, so React Router hydrates exactly as before, only after the page
  is on screen;
- the modulepreload links of the head are dropped (the bootstrap adds them after the paint).

A page whose bootstrap does not have the expected shape (another React Router version) keeps it,
with its preloads only lowered to ``fetchpriority="low"``; tests/unit/test_first_paint.py
checks the shape of a real build's page. The trade-off: on a slow line the page is readable
sooner and becomes interactive about one stylesheet's download later.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import reflex as rx

_PRELOAD = re.compile(rb'<link rel="modulepreload"(?![^>]*fetchpriority)')
LOW = b'<link rel="modulepreload" fetchpriority="low"'
_PRELOAD_LINK = re.compile(rb'<link rel="modulepreload"(?: fetchpriority="low")? href="([^"]+)"/>')
_BOOTSTRAP = re.compile(
    rb'<script type="module" async="">(?P<body>import "[^"]+";'
    rb"[^<]*?window\.__reactRouterRouteModules[^<]*?)</script>"
)
_SIDE_EFFECT_IMPORT = re.compile(rb'^import ("[^"]+");', re.M)
_NAMESPACE_IMPORT = re.compile(rb'^import \* as (\w+) from ("[^"]+");', re.M)
# Wait for the browser's own "first-contentful-paint" entry (reported once the frame is on
# screen; a frame callback alone can run before a busy machine shows it), at most 3 s. A tab
# opened in the background paints nothing, and neither does a page whose prerendered body is
# only a placeholder (a guarded page's spinner, ``data-hm-placeholder``, until its scripts have
# checked the session): both start at once.
AFTER_PAINT = (
    b"await new Promise((go) => {"
    b' if (document.visibilityState !== "visible") return go();'
    b' if (document.querySelector("[data-hm-placeholder]")) return go();'
    b' const painted = () => performance.getEntriesByName("first-contentful-paint").length > 0;'
    b" if (painted()) return go();"
    b" const seen = new PerformanceObserver(() => { if (painted()) { seen.disconnect(); go(); } });"
    b' seen.observe({ type: "paint", buffered: true }); setTimeout(go, 3000); });\n'
)


# Reflex writes <html lang="en">; assets/forms.js sets the stored language's tag ("en-CA",
# "fr-CA") at load. Changing <html>'s lang restyles and lays out the whole page (about 50-100
# ms of a 4x-slowed phone's main thread): the English pages say "en-CA" from the
# start, so an English page is left as it is (the French copies say "fr-CA", ui/lang_paint.py).
_HTML_LANG_EN = b'<html lang="en">'
HTML_LANG_EN_CA = b'<html lang="en-CA">'


def document_lang(html: bytes) -> bytes:
    """The page's ``<html>`` in the tag forms.js would set for English."""
    return html.replace(_HTML_LANG_EN, HTML_LANG_EN_CA, 1)


def lower_script_preloads(html: bytes) -> bytes:
    """Every modulepreload link of a page, at low fetch priority (idempotent)."""
    return _PRELOAD.sub(LOW, html)


def scripts_after_first_paint(html: bytes) -> bytes:
    """The page with its scripts started after its first paint (module doc); a page without
    the expected bootstrap only gets its preloads lowered."""
    boot = _BOOTSTRAP.search(html)
    hrefs = _PRELOAD_LINK.findall(html)
    if boot is None or not hrefs:
        return lower_script_preloads(html)
    body = boot.group("body")
    body = _SIDE_EFFECT_IMPORT.sub(rb"await import(\1);", body)
    body = _NAMESPACE_IMPORT.sub(rb"const \1 = await import(\2);", body)
    preload = (
        b"for (const href of ["
        + b", ".join(b'"' + h + b'"' for h in hrefs)
        + b']) { const link = document.createElement("link"); link.rel = "modulepreload";'
        b" link.href = href; document.head.append(link); }\n"
    )
    script = b'<script type="module" async="">' + AFTER_PAINT + preload + body + b"</script>"
    html = html[: boot.start()] + script + html[boot.end() :]
    return _PRELOAD_LINK.sub(b"", html)


def lower_preloads_in(static_dir: Path) -> int:
    """Rewrite the prerendered pages under ``static_dir``; returns how many changed."""
    changed = 0
    for page in static_dir.rglob("*.html"):
        html = page.read_bytes()
        lowered = document_lang(scripts_after_first_paint(html))
        if lowered != html:
            page.write_bytes(lowered)
            changed += 1
    return changed


class FirstPaintPlugin(rx.plugins.Plugin):
    def post_build(self, **context: Any) -> None:
        lower_preloads_in(Path(context["static_dir"]))
