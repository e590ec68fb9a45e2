"""The /api/v1 answers of the menu reads: GetDates' days, GetMenu's meals, MenuDetail's
meal, AddsOn's add-ons and a portion's price tiers, built from what ``services.ordering.days``
and ``.menu`` answer (money as ``format_money`` writes it, labels in the parent's language)."""

from __future__ import annotations

from typing import Any

from hotmeals.domain import diet
from hotmeals.domain.diet import Diet
from hotmeals.domain.money import format_money
from hotmeals.i18n import t
from hotmeals.services.menu_cache import PortionPrices
from hotmeals.services.ordering.allergens import AllergyMark
from hotmeals.services.ordering.days import ChildDates, MealDay
from hotmeals.services.ordering.diets import DietFit
from hotmeals.services.ordering.labels import size_label
from hotmeals.services.ordering.menu import (
    AddOnView,
    DayMenu,
    Extra,
    MealDetail,
    MenuMeal,
    OptionView,
)


def meal_day_out(day: MealDay) -> dict[str, Any]:
    return {
        "date": day.day.isoformat(),
        "menu_day_id": day.menu_day_id,
        "vendor_id": day.vendor_id,
        "vendor": day.vendor,
        "is_closed": day.is_closed,
        "closed_reason": day.closed_reason,
        "cutoff_at": day.cutoff_at.isoformat(),
        "is_open": day.is_open,
        "ordered_quantity": day.ordered_quantity,
        "cart_quantity": day.cart_quantity,
        "moved_to": day.moved_to.isoformat() if day.moved_to is not None else "",
        "is_away": day.is_away,
        "away_label": day.away_label,
    }


def child_dates_out(dates: ChildDates) -> dict[str, Any]:
    """GetDates: the child, the days asked and each meal day."""
    return {
        "child_id": dates.child_id,
        "from_date": dates.first.isoformat(),
        "to_date": dates.last.isoformat(),
        "days": [meal_day_out(d) for d in dates.days],
    }


def allergy_mark_out(mark: AllergyMark) -> dict[str, Any]:
    """An AllergyMark: the verdict, the child's allergens named, the message, the levels."""
    return {
        "verdict": mark.verdict.value,
        "allergens": list(mark.allergens),
        "message": mark.message,
        "levels": [[name, level] for name, level in mark.levels],
    }


def portion_out(portion: PortionPrices, lang: str) -> dict[str, Any]:
    """A size with its label, its first tier's price and every tier."""
    return {
        "id": portion.portion_id,
        "size": portion.size,
        "label": size_label(portion.size, lang),
        "unit_price_cents": portion.tiers[0].unit_price_cents,
        "price": format_money(portion.tiers[0].unit_price_cents, lang),
        "tiers": [
            {
                "min_quantity": tier.min_quantity,
                "unit_price_cents": tier.unit_price_cents,
                "price": format_money(tier.unit_price_cents, lang),
            }
            for tier in portion.tiers
        ],
    }


def price_tiers_out(portion: PortionPrices, lang: str) -> dict[str, Any]:
    """GetPriceTiersByPortionId: the portion's meal and the portion."""
    return {"meal_id": portion.meal_id, **portion_out(portion, lang)}


def codes(marks: tuple[Diet, ...]) -> list[str]:
    return [mark.value for mark in marks]


def diet_fit_out(found: DietFit | None, lang: str) -> dict[str, Any] | None:
    """A fit for the child's dietary needs: whether it fits, the needs it misses and what it
    misses said ("Not vegetarian, not halal"); None for no child or a child without needs."""
    if found is None:
        return None
    return {
        "fits": found.fits,
        "unmet": codes(found.unmet),
        "message": diet.missing_text(found.unmet, lang),
    }


def extra_out(extra: Extra) -> dict[str, Any]:
    return {
        "kind": extra.kind,
        "id": extra.id,
        "name": extra.name,
        "allergens": list(extra.allergens),
        "verdict": extra.verdict.value,
    }


def menu_meal_out(meal: MenuMeal, lang: str) -> dict[str, Any]:
    return {
        "menu_day_id": meal.menu_day_id,
        "vendor_id": meal.vendor_id,
        "vendor": meal.vendor,
        "meal_id": meal.meal_id,
        "name": meal.name,
        "description": meal.description,
        "image": meal.image,
        "price_from_cents": meal.price_from_cents,
        "price_from": format_money(meal.price_from_cents, lang),
        "portions": [portion_out(p, lang) for p in meal.portions],
        "allergens": list(meal.allergens),
        "allergy": allergy_mark_out(meal.allergy),
        "extras": [extra_out(e) for e in meal.extras],
        "extras_allergens": list(meal.extras_allergens),
        "in_cart_quantity": meal.in_cart_quantity,
        "cutoff_at": meal.cutoff_at.isoformat(),
        "is_open": meal.is_open,
        "diets": codes(meal.diets),
        "diet": diet_fit_out(meal.diet, lang),
        "safe_for_child": meal.safe_for_child,
    }


def day_menu_out(menu: DayMenu, lang: str) -> dict[str, Any]:
    """GetMenu: the child, the day and its meals."""
    return {
        "child_id": menu.child_id,
        "date": menu.day.isoformat(),
        "meals": [menu_meal_out(m, lang) for m in menu.meals],
        "needs": codes(menu.needs),
    }


def _mark_out(mark: AllergyMark | None) -> dict[str, Any] | None:
    return allergy_mark_out(mark) if mark is not None else None


def option_out(option: OptionView, lang: str) -> dict[str, Any]:
    return {
        "id": option.id,
        "name": option.name,
        "price_cents": option.price_cents,
        "price": format_money(option.price_cents, lang),
        "allergens": list(option.allergens),
        "allergy": _mark_out(option.allergy),
        "diets": codes(option.diets),
        "diet": diet_fit_out(option.diet, lang),
    }


def addon_out(addon: AddOnView, lang: str) -> dict[str, Any]:
    return {
        "id": addon.id,
        "vendor_id": addon.vendor_id,
        "name": addon.name,
        "price_cents": addon.price_cents,
        "price": format_money(addon.price_cents, lang),
        "image": addon.image,
        "allergens": list(addon.allergens),
        "allergy": _mark_out(addon.allergy),
        "diets": codes(addon.diets),
        "diet": diet_fit_out(addon.diet, lang),
    }


def meal_detail_out(meal: MealDetail, lang: str) -> dict[str, Any]:
    """MenuDetail: one meal in full."""
    return {
        "meal_id": meal.meal_id,
        "vendor_id": meal.vendor_id,
        "vendor": meal.vendor,
        "name": meal.name,
        "description": meal.description,
        "image": meal.image,
        "ingredients": meal.ingredients,
        "cooking_method": meal.cooking_method,
        "nutrition": [
            {
                "key": n.key,
                "label": t(f"nutrition_{n.key}", lang),
                "value": n.value,
                "unit": n.unit,
            }
            for n in meal.nutrition
        ],
        "allergens": list(meal.allergens),
        "allergy": _mark_out(meal.allergy),
        "portions": [portion_out(p, lang) for p in meal.portions],
        "menu_options": [option_out(o, lang) for o in meal.menu_options],
        "meal_options": [option_out(o, lang) for o in meal.meal_options],
        "addons": [addon_out(a, lang) for a in meal.addons],
        "diets": codes(meal.diets),
        "diet": diet_fit_out(meal.diet, lang),
        "needs": codes(meal.needs),
    }
