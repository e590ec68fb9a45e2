"""How the order screens and e-mails name a day, a portion and a meal, in the parent's
language."""

from __future__ import annotations

from hotmeals.db.models import Meal, MenuDay
from hotmeals.domain.dates import full_day
from hotmeals.i18n import normalize_lang, t

order_day = full_day  # ``Monday, March 2, 2026`` / ``lundi 2 mars 2026``: every order message


def is_french(lang: str | None) -> bool:
    """Whether the parent reads French (any other language reads English)."""
    return normalize_lang(lang) == "fr"


def size_label(size: str, lang: str) -> str:
    return t(f"portion_{size}", lang) if size in ("small", "large") else size


def meal_name(meal: Meal | None, fallback: str, lang: str) -> str:
    """The catalogue's name of ``meal`` in ``lang``; ``fallback`` (as sold) without one."""
    if meal is None:
        return fallback
    return meal.name_fr if is_french(lang) else meal.name_en


def closed_reason(menu_day: MenuDay, lang: str) -> str:
    """Why the menu day is closed (a PA day, a closure), in ``lang``; blank when it says not."""
    return (menu_day.closed_reason_fr if is_french(lang) else menu_day.closed_reason_en) or ""
