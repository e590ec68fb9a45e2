"""The French copy of the prerendered pages and the French first render
(hotmeals/ui/lang_paint.py). CONTEXT has the shape Reflex 0.10.1 compiles utils/context.jsx to
(checked against a real build)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hotmeals.i18n import EN, FR
from hotmeals.ui.lang_paint import (
    LANG_COOKIE_SCRIPT,
    MARKER,
    ContextShapeError,
    Report,
    Translation,
    compiled_pairs,
    french_first_render,
    french_page,
    write_french_pages,
)

WORDS = Translation.from_catalogs(
    {
        "a": "Log in",
        "b": "Email address",
        "c": "Password",
        "d": "Log in — Hot Meals",
        "e": "Close",
        "f": "Close",
        "g": "Back",
        "h": "Back",
        "i": "Tom & Jerry's <list>",
        "j": "Hot Meals",
    },
    {
        "a": "Connexion",
        "b": "Adresse courriel",
        "c": "Mot de passe",
        "d": "Connexion — Hot Meals",
        "e": "Fermer",
        "f": "Fermer",
        "g": "Retour",
        "h": "Précédent",
        "i": "L'<liste> de Tom & Jerry",
        "j": "Hot Meals",
    },
)

PAGE = (
    b'<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>'
    b'<meta content="Log in" name="description"/><meta content="Log in" property="og:title"/>'
    b"<title>Log in \xe2\x80\x94 Hot Meals</title>"
    b'<script>const t = "Log in"; if (a<b) {}</script>'
    b"<style>.x::after{content:'Password'}</style></head>"
    b'<body><main><h1>Log in</h1><label for="e">Email address<!-- --> <span>Back</span></label>'
    b'<input placeholder="Email address" aria-label="Password" value="Log in"/>'
    b'<img alt="Close" title="Password"/><p>  Password\n</p>'
    b"<p>Tom &amp; Jerry&#x27;s &lt;list&gt;</p>"
    b"<p>Log in now</p><!-- Log in --><p>Hot Meals</p></main></body></html>"
)


def test_text_and_attributes_in_the_catalog_become_french():
    report = Report()
    out = french_page(PAGE, WORDS, report).decode()
    assert out.startswith(f'<!DOCTYPE html><html lang="fr-CA" {MARKER}><head>')
    assert "<title>Connexion — Hot Meals</title>" in out
    assert '<meta content="Connexion" name="description"/>' in out
    assert '<meta content="Log in" property="og:title"/>' in out  # only the description
    assert "<h1>Connexion</h1>" in out
    # React's text separator stays where it is; each side is its own text node
    assert '<label for="e">Adresse courriel<!-- --> <span>Back</span></label>' in out
    assert 'placeholder="Adresse courriel" aria-label="Mot de passe" value="Log in"' in out
    assert '<img alt="Fermer" title="Mot de passe"/>' in out
    assert "<p>  Mot de passe\n</p>" in out  # the whitespace around it is kept
    assert "<p>L&#x27;&lt;liste&gt; de Tom &amp; Jerry</p>" in out  # escaped again
    assert "<p>Log in now</p>" in out  # only whole strings
    assert "<!-- Log in -->" in out
    assert '<script>const t = "Log in"; if (a<b) {}</script>' in out
    assert "<style>.x::after{content:'Password'}</style>" in out
    assert report.ambiguous == {"Back"}  # Retour or Précédent: left alone, counted
    assert report.translated == 10


def test_an_english_string_with_two_translations_is_left_alone():
    assert "Back" in WORDS.ambiguous and "Back" not in WORDS.table
    assert WORDS.table["Close"] == "Fermer"  # two keys, one translation: not ambiguous


def test_the_real_catalogs_translate_the_shell():
    words = Translation.from_catalogs(EN, FR)
    assert words.table[EN["nav.skip_to_content"]] == FR["nav.skip_to_content"]
    assert words.table[EN["title.sign_in"]] == FR["title.sign_in"]
    assert words.table[EN["nav.switch_to_other_code"]] == FR["nav.switch_to_other_code"]


def test_every_page_gets_a_french_copy_beside_it(tmp_path: Path):
    (tmp_path / "parent" / "sign-in").mkdir(parents=True)
    (tmp_path / "parent" / "sign-in" / "index.html").write_bytes(PAGE)
    (tmp_path / "parent" / "index.html").write_bytes(PAGE)
    write_french_pages(tmp_path, WORDS)
    write_french_pages(tmp_path, WORDS)  # a second run does not copy the copies
    names = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.html"))
    assert names == [
        "parent/index.fr.html",
        "parent/index.html",
        "parent/sign-in/index.fr.html",
        "parent/sign-in/index.html",
    ]
    assert (tmp_path / "parent" / "index.html").read_bytes() == PAGE  # English untouched
    assert b"<h1>Connexion</h1>" in (tmp_path / "parent" / "index.fr.html").read_bytes()


I18N = (
    '"reflex___state____state.hotmeals___ui___state___i18n___i18n_state": '
    '{"html_lang_rx_state_": "en-CA", "is_fr_rx_state_": false, "lang_rx_state_": "en"}'
)
CONTEXT = (
    'import { createContext } from "react"\n\n'
    'export const initialState = {"reflex___state____state": {"is_hydrated_rx_state_": false}, '
    '"reflex___state____state.hotmeals___ui___state___content____content_state": '
    '{"title_en_rx_state_": ""}, '
    + I18N
    + ', "reflex___state____state.reflex___state____on_load_internal_state": {}}\n\n'
    'export const clientStorage = {"cookies": {}, "local_storage": '
    '{"reflex___state____state.hotmeals___ui___state___i18n___i18n_state.lang_rx_state_": '
    '{"name": "lang", "sync": true}}, "session_storage": {}}\n'
)


def _initial_i18n(context_js: str, *, french_page: bool | None) -> dict:
    """Evaluate the patched initialState in Node: no document (the prerender), or a page with
    or without the French marker."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed (the frontend build needs it too)")
    start = context_js.index("export const initialState = ") + len("export const initialState = ")
    expr = context_js[start : context_js.index("\n", start)]
    setup = ""
    if french_page is not None:
        setup = (
            "globalThis.document = {documentElement: {hasAttribute: (n) => "
            f"{'true' if french_page else 'false'} && n === 'data-hm-paint'}}}};"
        )
    code = f"{setup} const s = ({expr}); console.log(JSON.stringify(s));"
    out = subprocess.run([node, "-e", code], capture_output=True, text=True, check=True).stdout
    state = json.loads(out)
    return next(v for k, v in state.items() if k.endswith("i18n_state"))


def test_the_first_render_is_french_only_in_a_french_page():
    patched = french_first_render(CONTEXT)
    english = {"html_lang_rx_state_": "en-CA", "is_fr_rx_state_": False, "lang_rx_state_": "en"}
    french = {"html_lang_rx_state_": "fr-CA", "is_fr_rx_state_": True, "lang_rx_state_": "fr"}
    assert _initial_i18n(patched, french_page=None) == english  # the prerender
    assert _initial_i18n(patched, french_page=False) == english
    assert _initial_i18n(patched, french_page=True) == french
    assert patched.endswith(CONTEXT[CONTEXT.index("\n\nexport const clientStorage") :])


def test_an_unknown_context_shape_fails_the_build_loudly():
    with pytest.raises(ContextShapeError):
        french_first_render(CONTEXT.replace("i18n_state", "language_state"))
    with pytest.raises(ContextShapeError):
        french_first_render(
            CONTEXT.replace('"lang_rx_state_": "en"}', '"lang_rx_state_": "en", "x_rx_state_": 1}')
        )


def test_a_real_compiled_context_has_the_known_shape():
    """When a build folder is at hand (any .web* of this checkout), its context.jsx patches."""
    root = Path(__file__).resolve().parents[2]
    built = sorted(root.glob(".web*/utils/context.jsx"), key=lambda p: p.stat().st_mtime)
    if not built:
        pytest.skip("no compiled frontend in this checkout")
    source = built[-1].read_text()
    if 'document.documentElement.hasAttribute("data-hm-paint")' in source:
        return  # already patched by the plugin at compile time: the shape was known
    assert "data-hm-paint" in french_first_render(source)


def test_the_head_script_mirrors_the_stored_choice_in_a_cookie():
    assert 'localStorage.getItem("lang")' in LANG_COOKIE_SCRIPT
    assert "hm_lang=" in LANG_COOKIE_SCRIPT and "path=/parent" in LANG_COOKIE_SCRIPT
    assert "max-age=31536000" in LANG_COOKIE_SCRIPT and "SameSite=Lax" in LANG_COOKIE_SCRIPT
    assert "</" not in LANG_COOKIE_SCRIPT and len(LANG_COOKIE_SCRIPT) < 400


def test_the_strings_a_compiled_page_chooses_between_by_language_are_translated():
    lang = (
        "reflex___state____state__hotmeals___ui___state___i18n___i18n_state.lang_rx_state_"
        '?.valueOf?.() === "fr"?.valueOf?.())'
    )
    source = (
        f'jsx("p",{{}},(({lang} ? "Les repas d\\u00e8s 5\\u00a0$" : "Meals from $5")),'
        f'jsx("p",{{}},(({lang} ? "Dit \\"oui\\"" : "Say \\"yes\\"")),'
        f'jsx("p",{{}},(({lang} ? "Retour" : "Back"))'
    )
    pairs = list(compiled_pairs([source]))
    assert pairs == [
        ("Meals from $5", "Les repas dès 5\u00a0$"),
        ('Say "yes"', 'Dit "oui"'),
        ("Back", "Retour"),
    ]
    words = Translation.from_catalogs({"x": "Back"}, {"x": "Précédent"}, pairs)
    assert words.table["Meals from $5"] == "Les repas dès 5\u00a0$"
    assert "Back" in words.ambiguous
    out = french_page(b"<p>Meals from $5</p><p>Say &quot;yes&quot;</p>", words)
    assert out == "<p>Les repas dès 5\u00a0$</p><p>Dit &quot;oui&quot;</p>".encode()
