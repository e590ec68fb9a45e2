"""The parent's language, kept in browser storage (default en), and ``t()`` for components.

``t(key)`` compiles to a JavaScript ternary over the two catalog strings, so switching language
is instant and no catalog is held in state. Backend text (toasts, e-mails) uses
``hotmeals.i18n.t(key, await self.lang_value())``.
"""

from __future__ import annotations

import reflex as rx
from reflex.vars.number import NumberVar

from hotmeals.i18n import EN, FR


class I18nState(rx.State):
    lang: str = rx.LocalStorage("en", name="lang", sync=True)

    @rx.event
    def set_lang(self, lang: str) -> None:
        self.lang = "fr" if lang == "fr" else "en"

    @rx.event
    def toggle_lang(self) -> None:
        self.lang = "en" if self.lang == "fr" else "fr"

    @rx.var
    def is_fr(self) -> bool:
        return self.lang == "fr"

    @rx.var
    def html_lang(self) -> str:
        return "fr-CA" if self.lang == "fr" else "en-CA"


def t(key: str) -> rx.Var:
    """The catalog text for ``key`` in the current language (a Var)."""
    return rx.cond(I18nState.lang == "fr", FR[key], EN[key])


def t_count(key: str, count: NumberVar) -> rx.Var:
    """``key.one`` or ``key.other`` for the whole ``count`` (>= 0) in the current language, as
    ``i18n.tn`` picks it on the server: CLDR's "one" is 1 alone in English, 0 and 1 in French
    ("0 article"); tests/unit/test_i18n.py checks that rule against Babel's."""
    one = rx.cond(I18nState.lang == "fr", count <= 1, count == 1)
    return rx.cond(one, t(f"{key}.one"), t(f"{key}.other"))
