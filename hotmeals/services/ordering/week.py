"""The days a parent chooses from on the many-days screen: for each child, each school day of a
range, open or not (closed with its reason, past its cut-off), what is already in the cart or
ordered, and that day's meals with their sizes, prices, allergy verdict and dietary fit for
the child.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import func
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from hotmeals import clock
from hotmeals.db.models import (
    AllergenIngredient,
    CartLine,
    Child,
    ChildAllergy,
    Meal,
    MealAllergen,
    MenuDay,
    MenuDayMeal,
    Order,
    OrderLine,
    Vendor,
)
from hotmeals.domain.allergy import (
    MealVerdict,
    meal_verdict,
)
from hotmeals.domain.cutoff import before_cutoff, cutoff_at
from hotmeals.domain.dates import long_day
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import KEPT_LINE_STATUSES, ORDERED_STATUSES
from hotmeals.i18n import t
from hotmeals.services import menu_cache
from hotmeals.services.children import child_diets
from hotmeals.services.menu_cache import MEAL, PortionPrices
from hotmeals.services.ordering.days import (
    asked_days,
    cutoff_rule,
    week_start,
)
from hotmeals.services.ordering.diets import DietFit, fit, item_marks
from hotmeals.services.ordering.labels import closed_reason, is_french
from hotmeals.services.ordering.menu import portions_of


@dataclass(frozen=True)
class WeekMeal:
    """A meal a child can be booked on a day: its sizes with prices and its allergy verdict
    for the child (``allergy``: the sentence saying why, "" when safe)."""

    meal_id: int
    menu_day_id: int
    vendor: str
    name: str  # in the parent's language
    verdict: MealVerdict
    allergy: str
    portions: tuple[PortionPrices, ...]  # small first
    diet: DietFit | None = None  # its fit for the child's dietary needs (None: no needs)


@dataclass(frozen=True)
class WeekDay:
    """A school day of a child: open, past its cut-off or closed (``note`` says why), the
    cut-off, what is in the cart or ordered for the child, and the day's meals (open
    days)."""

    day: date
    state: str  # "open", "past_cutoff" or "closed"
    note: str  # "" when open
    cutoff_at: datetime
    cart_quantity: int
    ordered_quantity: int
    meals: tuple[WeekMeal, ...]


@dataclass(frozen=True)
class ChildWeek:
    child_id: int
    child_name: str  # first and last name
    school_id: int
    days: tuple[WeekDay, ...]


@dataclass(frozen=True)
class WeekChoices:
    """The days asked (``first`` to ``last``) of each child, the default child first."""

    first: date
    last: date
    children: tuple[ChildWeek, ...]


def week_choices(
    *,
    session: Session,
    parent_id: int,
    child_ids: Sequence[int],
    from_date: str = "",
    to_date: str = "",
    lang: str = "en",
) -> WeekChoices:
    """For one or more (ten at most) of the parent's children, each school day from
    ``from_date`` (the client's text; default today) to ``to_date`` (default the end of next
    week): open or not (closed with its reason, past its cut-off), the cut-off, what is
    already in the cart or ordered, and the meals of that day with their sizes, prices and
    allergy verdict and dietary fit for the child. Eight statements whatever the number of
    children, days and meals."""
    now = clock.now()
    keys = sorted(set(child_ids))
    if not keys or len(keys) > 10 or keys[0] < 1:
        raise DomainError("child_not_found", field="child_id")
    # By default, to the end of next week.
    start, end = asked_days(
        from_date, to_date, now, lambda first: week_start(first) + timedelta(days=13)
    )
    children = session.exec(
        select(Child).where(col(Child.id).in_(keys), Child.parent_id == parent_id, Child.is_active)
    ).all()
    if len(children) != len(keys):
        raise DomainError("child_not_found", field="child_id")
    schools = sorted({c.school_id for c in children})
    days = session.exec(
        select(MenuDay, Vendor)
        .join(Vendor, col(Vendor.id) == MenuDay.vendor_id)
        .where(
            col(MenuDay.school_id).in_(schools),
            MenuDay.meal_date >= start,
            MenuDay.meal_date <= end,
        )
        .order_by(col(MenuDay.meal_date), col(Vendor.name))
    ).all()
    day_ids = [d.id for d, _ in days]
    meals_of: dict[int, list[Meal]] = {}
    if day_ids:
        for menu_day_id, meal in session.exec(
            select(col(MenuDayMeal.menu_day_id), Meal)
            .join(Meal, col(Meal.id) == MenuDayMeal.meal_id)
            .where(col(MenuDayMeal.menu_day_id).in_(day_ids), Meal.is_active)
            .order_by(col(Meal.name_en))
        ).all():
            meals_of.setdefault(menu_day_id, []).append(meal)
    meal_ids = sorted({m.id for found in meals_of.values() for m in found if m.id is not None})
    portions = portions_of(session, meal_ids)
    needs = child_diets(session, keys)
    marks = menu_cache.catalog(session).diets
    matches = _matches(
        session, {(c.id, m) for c in children if c.id is not None for m in meal_ids}, lang
    )
    in_cart: dict[tuple[int, date], int] = {}
    ordered: dict[tuple[int, date], int] = {}
    for child_key, day, qty in session.exec(
        select(col(CartLine.child_id), col(MenuDay.meal_date), func.sum(col(CartLine.quantity)))
        .join(MenuDay, col(MenuDay.id) == CartLine.menu_day_id)
        .where(
            CartLine.parent_id == parent_id,
            col(CartLine.child_id).in_(keys),
            MenuDay.meal_date >= start,
            MenuDay.meal_date <= end,
        )
        .group_by(col(CartLine.child_id), col(MenuDay.meal_date))
    ).all():
        in_cart[(child_key, day)] = int(qty or 0)
    for child_key, day, qty in session.exec(
        select(
            col(OrderLine.child_id),
            col(OrderLine.meal_date),
            func.sum(col(OrderLine.quantity) - col(OrderLine.cancelled_quantity)),
        )
        .join(Order, col(Order.id) == OrderLine.order_id)
        .where(
            col(OrderLine.child_id).in_(keys),
            OrderLine.meal_date >= start,
            OrderLine.meal_date <= end,
            col(OrderLine.status).in_([str(s) for s in KEPT_LINE_STATUSES]),
            col(Order.status).in_([str(s) for s in ORDERED_STATUSES]),
        )
        .group_by(col(OrderLine.child_id), col(OrderLine.meal_date))
    ).all():
        ordered[(child_key, day)] = int(qty or 0)

    french = is_french(lang)
    by_school: dict[tuple[int, date], list[tuple[MenuDay, Vendor]]] = {}
    for menu_day, vendor in days:
        by_school.setdefault((menu_day.school_id, menu_day.meal_date), []).append(
            (menu_day, vendor)
        )
    out = []
    for child in sorted(children, key=lambda c: (not c.is_default, c.first_name, c.id or 0)):
        assert child.id is not None
        child_days = []
        for (school_id, day), served in sorted(by_school.items(), key=lambda kv: kv[0][1]):
            if school_id != child.school_id:
                continue
            open_pairs = [(d, v) for d, v in served if not d.is_closed and v.is_active]
            first_day, first_vendor = (open_pairs or served)[0]
            closes = cutoff_at(cutoff_rule(first_vendor), day)
            state, note = "open", ""
            if not open_pairs:
                state = "closed"
                note = t(
                    "menu_day_closed",
                    lang,
                    date=long_day(day, lang),
                    reason=closed_reason(first_day, lang),
                )
            elif not before_cutoff(closes, now):
                state = "past_cutoff"
                note = t("meal_day_closed", lang, date=long_day(day, lang))
            meals = []
            for menu_day, vendor in open_pairs:
                for meal in meals_of.get(menu_day.id or 0, []):
                    sizes = portions.get(meal.id or 0, [])
                    if not sizes:
                        continue
                    found = matches.get((child.id, meal.id or 0), [])
                    verdict = meal_verdict(level for _, level in found)
                    named = ", ".join(n for n, _ in found)
                    allergy = ""
                    if verdict is MealVerdict.REFUSED:
                        allergy = t("allergy_refused", lang, allergens=named)
                    elif verdict is MealVerdict.ACKNOWLEDGE:
                        allergy = t("allergy_ack_text", lang, allergens=named)
                    elif verdict is MealVerdict.NOTICE:
                        allergy = t("allergy_notice", lang, allergens=named)
                    meals.append(
                        WeekMeal(
                            meal_id=meal.id or 0,
                            menu_day_id=menu_day.id or 0,
                            vendor=vendor.name,
                            name=meal.name_fr if french else meal.name_en,
                            verdict=verdict,
                            allergy=allergy,
                            portions=tuple(sizes),
                            diet=fit(
                                needs.get(child.id, frozenset()),
                                item_marks(marks, MEAL, meal.id),
                            ),
                        )
                    )
            child_days.append(
                WeekDay(
                    day=day,
                    state=state,
                    note=note,
                    cutoff_at=closes,
                    cart_quantity=in_cart.get((child.id, day), 0),
                    ordered_quantity=ordered.get((child.id, day), 0),
                    meals=tuple(meals),
                )
            )
        out.append(
            ChildWeek(
                child_id=child.id,
                child_name=f"{child.first_name} {child.last_name}",
                school_id=child.school_id,
                days=tuple(child_days),
            )
        )
    return WeekChoices(first=start, last=end, children=tuple(out))


def _matches(
    session: Session, pairs: Iterable[tuple[int, int]], lang: str
) -> dict[tuple[int, int], list[tuple[str, str]]]:
    """For (child, meal) pairs: the child's allergens the meal contains with the child's level,
    in one statement for any number of children and meals."""
    pairs = set(pairs)
    if not pairs:
        return {}
    child_ids = sorted({c for c, _ in pairs})
    meal_ids = sorted({m for _, m in pairs})
    rows = session.exec(
        # five columns: sqlmodel's ``select`` is typed for four at most
        Select[int, int, str, str, str](
            col(ChildAllergy.child_id),
            col(MealAllergen.meal_id),
            col(AllergenIngredient.name_en),
            col(AllergenIngredient.name_fr),
            col(ChildAllergy.alert_level),
        )
        .join(MealAllergen, col(MealAllergen.ingredient_id) == ChildAllergy.ingredient_id)
        .join(AllergenIngredient, col(AllergenIngredient.id) == ChildAllergy.ingredient_id)
        .where(col(ChildAllergy.child_id).in_(child_ids), col(MealAllergen.meal_id).in_(meal_ids))
        .order_by(col(AllergenIngredient.name_en))
    ).all()
    french = is_french(lang)
    found: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for child_id, meal_id, name_en, name_fr, level in rows:
        if (child_id, meal_id) in pairs:
            found.setdefault((child_id, meal_id), []).append(
                (name_fr if french else name_en, level)
            )
    return found


def quick_range(name: str, today: date) -> tuple[date, date]:
    """The quick picks of the many-days screen: 'this_week' (today to Friday), 'next_week'
    (Monday to Friday), 'month' (today to the month's last day)."""
    monday = week_start(today)
    if name == "next_week":
        return monday + timedelta(days=7), monday + timedelta(days=11)
    if name == "month":
        first_next = (today.replace(day=28) + timedelta(days=4)).replace(day=1)
        return today, first_next - timedelta(days=1)
    return today, max(today, monday + timedelta(days=4))
