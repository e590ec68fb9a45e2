"""Message catalogs. Every user-visible string has a key in EN and FR.

Each module in ``hotmeals.i18n.catalog`` defines two dicts, ``EN`` and ``FR``, with the same keys;
they are merged here. A message that counts is written once per CLDR plural form, ``key.one``
and ``key.other`` (``tn`` picks the form with Babel: French says "0 repas annulé" and "1 repas
annulé", English "0 meals" and "1 meal"). Areas own their module (validation, shell,
accounts, payments, ...) so that parallel work never edits the same file.
``tests/unit/test_i18n.py`` fails on a missing key.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from babel import Locale

from hotmeals.i18n import catalog as _catalog

LANGS = ("en", "fr")
DEFAULT_LANG = "en"

EN: dict[str, str] = {}
FR: dict[str, str] = {}
for _mod_info in sorted(pkgutil.iter_modules(_catalog.__path__), key=lambda m: m.name):
    _mod = importlib.import_module(f"{_catalog.__name__}.{_mod_info.name}")
    for _key in _mod.EN:
        if _key in EN:
            raise RuntimeError(f"duplicate message key {_key!r} in {_mod_info.name}")
    EN.update(_mod.EN)
    FR.update(_mod.FR)

CATALOGS = {"en": EN, "fr": FR}


def normalize_lang(lang: str | None) -> str:
    """'fr', 'fr-CA', 'FR' -> 'fr'; anything else -> 'en'."""
    if lang and lang.strip().lower()[:2] == "fr":
        return "fr"
    return DEFAULT_LANG


def t(key: str, lang: str | None = DEFAULT_LANG, **params: object) -> str:
    """The message for ``key`` in ``lang``, with ``{name}`` placeholders filled."""
    catalog = CATALOGS[normalize_lang(lang)]
    text = catalog.get(key) or EN[key]
    return text.format(**params) if params else text


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse("fr_CA" if lang == "fr" else "en_CA")


def plural_form(count: int, lang: str | None) -> str:
    """The CLDR plural category of ``count`` in ``lang`` (Babel): "one", "other", "many"..."""
    return str(_locale(normalize_lang(lang)).plural_form(abs(count)))


def tn(key: str, count: int, lang: str | None = DEFAULT_LANG, **params: object) -> str:
    """The message ``key`` for ``count`` (``{count}`` in it) in its CLDR plural form:
    ``key.one`` or ``key.other`` (a form the catalogue does not write, such as French "many"
    for a million, reads as ``key.other``)."""
    lang = normalize_lang(lang)
    form = f"{key}.{plural_form(count, lang)}"
    return t(form if form in EN else f"{key}.other", lang, count=count, **params)
