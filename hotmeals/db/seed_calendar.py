"""Which meal days the demo data offers: pure date arithmetic, no database.

Everything is derived from the date alone (and the school's position in the demo list), so any
run, whatever its ``today``, plans the same vendor, meals and PA days for a given school and
date. That is what lets a later run add new days that fit the ones already there.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from zoneinfo import ZoneInfo

TORONTO = ZoneInfo("America/Toronto")
SCHOOL_WEEKS = 6  # full weeks of meal days ahead, after the rest of the current week
PA_DAY_EN = "PA Day – no school"
PA_DAY_FR = "Journée pédagogique"
WINTER_BREAK_EN = "Winter break – no school"
WINTER_BREAK_FR = "Congé d'hiver"


@dataclass(frozen=True)
class PlannedDay:
    meal_date: date
    vendor_index: int  # into seed_vendors.VENDORS
    meal_indexes: tuple[int, ...]  # into that vendor's meals; empty when closed
    is_closed: bool
    closed_reason_en: str = ""
    closed_reason_fr: str = ""


def is_winter_break(day: date) -> bool:
    """Ontario boards close from about December 21 to January 1."""
    return (day.month == 12 and day.day >= 21) or (day.month == 1 and day.day <= 1)


def school_days(today: date) -> list[date]:
    """The meal dates offered from ``today``: the rest of this week, then ``SCHOOL_WEEKS``
    full weeks, Monday to Friday."""
    monday = today - timedelta(days=today.weekday())
    last = monday + timedelta(weeks=SCHOOL_WEEKS, days=4)
    days = (today + timedelta(days=n) for n in range((last - today).days + 1))
    return [d for d in days if d.weekday() < 5]


def is_pa_day(city_index: int, day: date) -> bool:
    """One PA day every six weeks per city, as Ontario boards set them board-wide: a Friday,
    or a Monday in the second city. Any six consecutive full weeks hold exactly one."""
    week = (day.toordinal() - 1) // 7  # date(1, 1, 1) is a Monday
    weekday = 0 if city_index % 2 else 4
    return week % SCHOOL_WEEKS == (2 * city_index) % SCHOOL_WEEKS and day.weekday() == weekday


def plan_day(
    day: date, *, school_index: int, city_index: int, vendor_count: int, meal_count: int
) -> PlannedDay:
    """A weekly menu, as schools run them: the vendor of a weekday is the same every week,
    offset per school, so a school sees three vendors each week and the two schools of a city
    are served by different vendors on the same day. Each weekday serves the same first four of
    that vendor's meals every week, plus zero to two more that change from week to week, so
    'Repeat last week' copies most days and reports the meals that are not back."""
    weekday = day.weekday()
    week = day.toordinal() // 7
    vendor_index = (weekday + school_index) % vendor_count
    if is_winter_break(day):
        return PlannedDay(day, vendor_index, (), True, WINTER_BREAK_EN, WINTER_BREAK_FR)
    if is_pa_day(city_index, day):
        return PlannedDay(day, vendor_index, (), True, PA_DAY_EN, PA_DAY_FR)
    count = min(4 + (week + weekday) % 3, meal_count)
    start = (2 * weekday + school_index) % meal_count
    meals = tuple((start + k) % meal_count for k in range(count))
    return PlannedDay(day, vendor_index, meals, False)
