"""How the order screens and e-mails name a day, a portion and a meal, in the parent's
language."""

from __future__ import annotations

from hotmeals.db.models import Meal
from hotmeals.domain.dates import full_day
from hotmeals.i18n import normalize_lang, t

order_day = full_day  # ``Monday, March 2, 2026`` / ``lundi 2 mars 2026``: every order message


def size_label(size: str, lang: str) -> str:
    return t(f"portion_{size}", lang) if size in ("small", "large") else size


def meal_name(meal: Meal | None, fallback: str, lang: str) -> str:
    """The catalogue's name of ``meal`` in ``lang``; ``fallback`` (as sold) without one."""
    if meal is None:
        return fallback
    return meal.name_fr if normalize_lang(lang) == "fr" else meal.name_en
