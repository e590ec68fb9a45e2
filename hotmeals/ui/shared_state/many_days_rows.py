"""The rows of 'Book several days': a day of a child with the meals the service offers for
it, the weeks 'Repeat last week' offers, and the report of what was added. Pure functions of
the services' answers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

from hotmeals.domain import diet
from hotmeals.domain.allergy import MealVerdict
from hotmeals.domain.dates import long_day
from hotmeals.domain.money import format_money
from hotmeals.i18n import t as tr
from hotmeals.services.ordering.labels import size_label
from hotmeals.services.ordering.week import WeekMeal


@dataclass
class Choice:
    value: str = ""
    label: str = ""
    disabled: bool = False


@dataclass
class DayRow:
    key: str = ""  # "<child id>|<YYYY-MM-DD>"
    child_name: str = ""
    date: str = ""
    label: str = ""
    state: str = ""  # open, past_cutoff, closed
    note: str = ""
    marks: str = ""  # '1 in cart', '2 ordered'
    picked: bool = False
    meal_id: str = ""
    size: str = "small"
    meals: list[Choice] = field(default_factory=list)
    sizes: list[Choice] = field(default_factory=list)
    allergy: str = ""
    needs_ack: bool = False
    ack: bool = False
    diet: str = ""  # "Book it anyway: not vegetarian" when the meal misses the child's needs
    diet_ack: bool = False


@dataclass
class ReportLine:
    who: str = ""
    day: str = ""
    meal: str = ""
    reason: str = ""


def week_choices(monday: date, lang: str) -> tuple[list[Choice], list[Choice]]:
    """The weeks to repeat from (last week first; this week and next week too) and to (this
    week and the three after), by their Monday."""

    def week(n: int) -> Choice:
        day = monday + timedelta(days=7 * n)
        return Choice(day.isoformat(), tr("ui.many.week_of", lang, day=long_day(day, lang)))

    return [week(n) for n in (-1, -2, -3, 0, 1)], [week(n) for n in (0, 1, 2, 3)]


def fill_row(row: DayRow, meals: Sequence[WeekMeal], meal_id: str, size: str, lang: str) -> None:
    """The row's meal list, its chosen meal (kept if still served; else the first meal the
    child can have), sizes with prices and the allergy line."""
    refused = MealVerdict.REFUSED
    row.meals = [
        Choice(
            str(m.meal_id),
            m.name + (" — " + tr("ui.many.not_for_child", lang) if m.verdict is refused else ""),
            m.verdict is refused,
        )
        for m in meals
    ]
    allowed = [m for m in meals if m.verdict is not refused]
    chosen = next((m for m in allowed if str(m.meal_id) == meal_id), None)
    if chosen is None:
        chosen = next((m for m in allowed if m.verdict is MealVerdict.SAFE), None) or (
            allowed[0] if allowed else None
        )
    if chosen is None:
        row.meal_id, row.sizes, row.allergy, row.needs_ack = "", [], "", False
        row.diet, row.diet_ack = "", False
        row.picked = False
        return
    row.meal_id = str(chosen.meal_id)
    row.sizes = [
        Choice(
            p.size,
            f"{size_label(p.size, lang)} · {format_money(p.tiers[0].unit_price_cents, lang)}",
        )
        for p in chosen.portions
    ]
    sizes = [p.size for p in chosen.portions]
    row.size = size if size in sizes else (sizes[0] if sizes else "small")
    row.allergy = chosen.allergy
    row.needs_ack = chosen.verdict is MealVerdict.ACKNOWLEDGE
    if not row.needs_ack:
        row.ack = False
    found = chosen.diet
    missing = diet.missing_text(found.unmet, lang) if found is not None and not found.fits else ""
    row.diet = tr("ui.diet.many_ack", lang, missing=missing) if missing else ""
    if not row.diet:
        row.diet_ack = False
