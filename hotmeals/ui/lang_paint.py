"""First paint in the stored language: a French parent sees French from the first
frame, not English until the websocket has brought the state (100-460 ms, more on a phone).

The pages are prerendered in English. Three pieces make the first paint French:

1. **A cookie mirror of the choice.** The stored language is ``localStorage["lang"]``
   (``I18nState.lang``); a tiny inline script in the ``<head>`` (``LANG_COOKIE_SCRIPT``, in
   ``hotmeals/hotmeals.py``) copies it into the cookie ``hm_lang`` (path ``/parent``, one
   year) at every load and whenever the page's language changes, so the server knows it.
2. **A French copy of every prerendered page** (``french_page``), written after the build next
   to the English one (``sign-in/index.html`` -> ``sign-in/index.fr.html``), before Reflex
   compresses them (so it gets its ``.br``/``.gz``): every text node and every ``placeholder``,
   ``aria-label``, ``title`` and ``alt`` whose text is an English catalog string becomes the
   French string; ``<html>`` says ``lang="fr-CA"`` and carries ``data-hm-paint="fr"``.
   ``hotmeals.web.lang_pages.py`` answers a page with it when the cookie says ``fr``.
3. **The client's first render in the language of the HTML it hydrates**, or React would find
   French text where it renders English and redraw the whole page (a hydration error). The
   compiled initial state of ``I18nState`` (``utils/context.jsx``) is French in a browser
   whose page carries ``data-hm-paint="fr"``; the prerender (no ``document``) stays English.
   Reading the marker rather than the storage keeps the two in step even when they disagree
   (a first visit after a switch in another browser tab without the cookie: English HTML,
   English first render, then French as before).

An English string with two different French translations is left as it is (``ambiguous``);
tests/unit/test_lang_paint.py checks the transformation and the shape of Reflex's output.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import reflex as rx

from hotmeals.i18n import EN, FR

COOKIE = "hm_lang"
MARKER = 'data-hm-paint="fr"'
FRENCH_SUFFIX = ".fr.html"
HTML_LANG = "fr-CA"

# Copies the stored choice into the cookie at once, and again whenever something on the page
# changes its lang attribute (the app writes the storage before it redraws in the other
# language). 'unsafe-inline' scripts are allowed by the CSP (hotmeals.web.guard.py).
LANG_COOKIE_SCRIPT = (
    "(function(){var d=document.documentElement;function s(){try{"
    'var l=localStorage.getItem("lang")==="fr"?"fr":"en";'
    f'document.cookie="{COOKIE}="+l+"; path=/parent; max-age=31536000; SameSite=Lax"'
    '+(location.protocol==="https:"?"; Secure":"");'
    'var v=l==="fr"?"fr-CA":"en-CA";if(d.lang!==v)d.lang=v}catch(e){}}s();'
    "new MutationObserver(s).observe(d,{subtree:true,attributes:true,"
    'attributeFilter:["lang"]})})();'
)

# --- the French copy ----------------------------------------------------------------------------

_TOKENS = re.compile(
    rb"(<!--.*?-->|<script\b[^>]*>.*?</script>|<style\b[^>]*>.*?</style>|<[^>]*>)", re.S | re.I
)
_TRANSLATED_ATTRS = re.compile(rb'(\s(?:placeholder|aria-label|title|alt)=")([^"]*)(")')
_META_CONTENT = re.compile(rb'(\scontent=")([^"]*)(")')
_HTML_TAG = re.compile(rb"<html\b[^>]*>")
_LANG_ATTR = re.compile(rb'\slang="[^"]*"')


@dataclass
class Translation:
    """English -> French for every catalog string with one French translation."""

    table: dict[str, str]
    ambiguous: frozenset[str]

    @classmethod
    def from_catalogs(
        cls,
        en: Mapping[str, str],
        fr: Mapping[str, str],
        compiled: Iterable[tuple[str, str]] = (),
    ) -> Translation:
        """From the catalogs, and the (English, French) pairs the compiled pages choose between
        (``compiled_pairs``: the strings ``t()`` compiled with their placeholders filled)."""
        choices: dict[str, set[str]] = {}
        pairs = [(english, fr[key]) for key, english in en.items() if key in fr]
        for english, french in [*pairs, *compiled]:
            if english.strip():
                choices.setdefault(english.strip(), set()).add(french.strip())
        table = {e: next(iter(f)) for e, f in choices.items() if len(f) == 1}
        return cls(table, frozenset(e for e, f in choices.items() if len(f) > 1))


@dataclass
class Report:
    translated: int = 0
    ambiguous: set[str] = field(default_factory=set)


def _translate_text(raw: bytes, words: Translation, report: Report) -> bytes:
    text = html.unescape(raw.decode("utf-8"))
    core = text.strip()
    if not core:
        return raw
    if core in words.ambiguous:
        report.ambiguous.add(core)
        return raw
    french = words.table.get(core)
    if french is None or french == core:
        return raw
    report.translated += 1
    start = text.index(core)
    lead, trail = text[:start], text[start + len(core) :]
    return (html.escape(lead) + html.escape(french) + html.escape(trail)).encode("utf-8")


def _translate_attrs(
    tag: bytes, pattern: re.Pattern[bytes], words: Translation, r: Report
) -> bytes:
    return pattern.sub(
        lambda m: m.group(1) + _translate_text(m.group(2), words, r) + m.group(3), tag
    )


def _html_tag(tag: bytes) -> bytes:
    tag = _LANG_ATTR.sub(b"", tag)
    return tag[:5] + f' lang="{HTML_LANG}" {MARKER}'.encode() + tag[5:]


def french_page(page: bytes, words: Translation, report: Report | None = None) -> bytes:
    """The French copy of a prerendered page (module doc, point 2)."""
    report = report if report is not None else Report()
    out: list[bytes] = []
    pos = 0
    for token in _TOKENS.finditer(page):
        out.append(_translate_text(page[pos : token.start()], words, report))
        tag = token.group(0)
        if tag.startswith((b"<!--", b"<script", b"<style", b"<SCRIPT", b"<STYLE", b"</")):
            pass
        elif _HTML_TAG.fullmatch(tag):
            tag = _html_tag(tag)
        else:
            tag = _translate_attrs(tag, _TRANSLATED_ATTRS, words, report)
            if tag.startswith(b"<meta") and b'name="description"' in tag:
                tag = _translate_attrs(tag, _META_CONTENT, words, report)
        out.append(tag)
        pos = token.end()
    out.append(_translate_text(page[pos:], words, report))
    return b"".join(out)


def french_name(page: Path) -> Path:
    return page.with_name(page.name[: -len(".html")] + FRENCH_SUFFIX)


# What ``t(key)`` compiles to: (lang === "fr") ? "French" : "English", as JSON strings.
_JS_STRING = r'"(?:[^"\\\n]|\\.)*"'
_COMPILED_T = re.compile(
    r'i18n_state\.lang_rx_state_\?\.valueOf\?\.\(\) === "fr"\?\.valueOf\?\.\(\)\) \? '
    rf"({_JS_STRING}) : ({_JS_STRING})\)"
)


def compiled_pairs(sources: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Every (English, French) pair of string literals a compiled page chooses between by
    language (``t()`` of a formatted message, e.g. a price, is no catalog string)."""
    for source in sources:
        for match in _COMPILED_T.finditer(source):
            yield json.loads(match.group(2)), json.loads(match.group(1))


def _compiled_sources(web_dir: Path) -> Iterator[str]:
    for folder in ("app", "app_components"):
        for path in sorted((web_dir / folder).rglob("*.js*")):
            if path.suffix in (".js", ".jsx"):
                yield path.read_text(encoding="utf-8")


def write_french_pages(
    static_dir: Path, words: Translation | None = None, web_dir: Path | None = None
) -> Report:
    """A French copy beside every prerendered page under ``static_dir``."""
    if words is None:
        compiled = compiled_pairs(_compiled_sources(web_dir)) if web_dir else ()
        words = Translation.from_catalogs(EN, FR, compiled)
    report = Report()
    for page in sorted(static_dir.rglob("*.html")):
        if page.name.endswith(FRENCH_SUFFIX):
            continue
        french_name(page).write_bytes(french_page(page.read_bytes(), words, report))
    return report


# --- the client's first render ------------------------------------------------------------------

I18N_STATE_KEY = re.compile(
    r'"(reflex___state____state\.[\w.]*___i18n___i18n_state)": (\{[^{}]*\})'
)
# The French value of each I18nState field (the state's own vars: lang and what follows from it).
FRENCH_FIELDS = {"lang": "fr", "is_fr": True, "html_lang": HTML_LANG}
FIELD_SUFFIX = "_rx_state_"
IN_A_FRENCH_PAGE = (
    'typeof document !== "undefined" && document.documentElement.hasAttribute("data-hm-paint")'
)


class ContextShapeError(RuntimeError):
    """Reflex's compiled initial state does not have the shape this module knows."""


def french_first_render(context_js: str) -> str:
    """``utils/context.jsx`` with the initial I18nState French in a French page (module doc,
    point 3). Raises ContextShapeError when Reflex's output no longer has the known shape."""
    found = list(I18N_STATE_KEY.finditer(context_js))
    if len(found) != 1 or "export const initialState = {" not in context_js:
        raise ContextShapeError(f"expected one I18nState in initialState, found {len(found)}")
    match = found[0]
    english = json.loads(match.group(2))
    names = {k.removesuffix(FIELD_SUFFIX) for k in english if k.endswith(FIELD_SUFFIX)}
    if names != set(FRENCH_FIELDS) or len(names) != len(english):
        raise ContextShapeError(f"I18nState fields changed: {sorted(english)}")
    french = {k: FRENCH_FIELDS[k.removesuffix(FIELD_SUFFIX)] for k in english}
    value = f"(({IN_A_FRENCH_PAGE}) ? {json.dumps(french)} : {match.group(2)})"
    return context_js[: match.start(2)] + value + context_js[match.end(2) :]


class LangPaintPlugin(rx.plugins.Plugin):
    """Listed after FirstPaintPlugin in rxconfig.py: the French copies are made from the pages
    as that plugin left them, and Reflex compresses both after the last plugin."""

    def pre_compile(self, **context: Any) -> None:
        from reflex.compiler.utils import get_context_path

        context["add_modify_task"](get_context_path(), french_first_render)

    def post_build(self, **context: Any) -> None:
        static_dir = Path(context["static_dir"])  # <web>/build/client
        write_french_pages(static_dir, web_dir=static_dir.parents[1])
