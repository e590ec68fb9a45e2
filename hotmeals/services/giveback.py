"""The give-back dashboard: what a family's meals and donations gave this school
year, per school, and each school's total so far from every family.

Each meal gives $0.50 to the school community and $0.20 to nutrition programs
(``domain.pricing.giveback``; order lines store no give-back of their own, so the constants
apply to every meal). A meal counts when its order was paid (placed, partly cancelled,
delivered) and its line is active or delivered, for the quantity not cancelled, on a meal date
in the school year, at the school whose menu it was booked from. Donations count when paid:
gifts from the donate screen (to the school they name) and the optional donation at checkout
(to the school of the order's first meal; never refunded with a meal), made within the school
year; and meals a family gave to the school when its child was away (``MealDonation``, their value).

Two queries whatever the family's size or the number of orders: the family's children, then
one aggregate over the three sources.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, Subquery, case, func, literal, or_, union_all
from sqlalchemy import select as select_columns
from sqlmodel import Session, col, select

from hotmeals.db.models import Child, Donation, MealDonation, MenuDay, Order, OrderLine, School
from hotmeals.domain.orders import KEPT_LINE_STATUSES, ORDERED_STATUSES
from hotmeals.domain.payment_states import DonationStatus
from hotmeals.domain.pricing import giveback
from hotmeals.domain.school_year import SchoolYear
from hotmeals.services import school_year

COUNTED = [str(s) for s in ORDERED_STATUSES]
"""Orders whose meals give back: paid, not (wholly) cancelled, delivered ones included."""


Given = Select[int, int, int, int]
"""(school_id, parent_id, meals, cents) rows."""


def _given(school_id: Any, parent_id: Any, meals: Any, cents: Any) -> Given:
    """One part of the give-back union: its four columns under the union's names."""
    return select_columns(
        school_id.label("school_id"),
        parent_id.label("parent_id"),
        meals.label("meals"),
        cents.label("cents"),
    )


def _sources(year: SchoolYear) -> Subquery:
    """(school_id, parent_id, meals, donation_cents) rows of the school year."""
    meals = (
        _given(
            col(MenuDay.school_id),
            col(Order.parent_id),
            col(OrderLine.quantity) - col(OrderLine.cancelled_quantity),
            literal(0),
        )
        .select_from(OrderLine)
        .join(Order, col(Order.id) == OrderLine.order_id)
        .join(MenuDay, col(MenuDay.id) == OrderLine.menu_day_id)
        .where(
            col(Order.status).in_(COUNTED),
            col(OrderLine.status).in_([str(s) for s in KEPT_LINE_STATUSES]),
            col(OrderLine.meal_date) >= year.first_day,
            col(OrderLine.meal_date) < year.next_first_day,
        )
    )
    gifts = _given(
        col(Donation.school_id), col(Donation.parent_id), literal(0), col(Donation.amount_cents)
    ).where(
        col(Donation.status) == DonationStatus.PAID,
        col(Donation.school_id).is_not(None),
        col(Donation.created_at) >= year.starts_at,
        col(Donation.created_at) < year.ends_at,
    )
    first_school = (
        select(MenuDay.school_id)
        .join(OrderLine, col(OrderLine.menu_day_id) == MenuDay.id)
        .where(OrderLine.order_id == Order.id)
        .order_by(col(OrderLine.id))
        .limit(1)
        .correlate(Order)
        .scalar_subquery()
    )
    at_checkout = _given(
        first_school, col(Order.parent_id), literal(0), col(Order.school_donation_cents)
    ).where(
        col(Order.status).in_(COUNTED),
        col(Order.school_donation_cents) > 0,
        col(Order.placed_at) >= year.starts_at,
        col(Order.placed_at) < year.ends_at,
    )
    # A meal past its cut-off that a family whose child was away gave to the school's
    # student-nutrition program (services/away.py): its value, as a gift to that school.
    given_meals = _given(
        col(MealDonation.school_id),
        col(MealDonation.parent_id),
        literal(0),
        col(MealDonation.value_cents),
    ).where(
        col(MealDonation.created_at) >= year.starts_at,
        col(MealDonation.created_at) < year.ends_at,
    )
    return union_all(meals, gifts, at_checkout, given_meals).subquery("given")


@dataclass(frozen=True)
class SchoolGiveBack:
    """What a family gave one school this school year (``meals``' share to the school
    community and to nutrition, its donations), and the school's total from every family."""

    school_id: int
    school: str
    children: tuple[str, ...]  # the family's active children at the school
    meals: int
    school_cents: int
    nutrition_cents: int
    donation_cents: int
    school_meals: int  # every family's
    school_nutrition_cents: int  # every family's
    school_total_cents: int  # every family's: to the school community and donations

    @property
    def total_cents(self) -> int:
        return self.school_cents + self.nutrition_cents + self.donation_cents

    @property
    def given_cents(self) -> int:
        """What the school community got from this family: its meals' share and donations."""
        return self.school_cents + self.donation_cents


@dataclass(frozen=True)
class FamilyGiveBack:
    """This school year's give-back of a family: the totals, then per school."""

    year: SchoolYear
    meals: int
    school_cents: int
    nutrition_cents: int
    donation_cents: int
    schools: tuple[SchoolGiveBack, ...]

    @property
    def total_cents(self) -> int:
        return self.school_cents + self.nutrition_cents + self.donation_cents


def family_giveback(*, session: Session, parent_id: int) -> FamilyGiveBack:
    """This school year's give-back of the family, per school (the schools of its active
    children first, then any other it gave to), with each school's total from all families."""
    year = school_year.current()
    kids = session.exec(
        select(Child.first_name, Child.school_id, School.name)
        .join(School, col(School.id) == Child.school_id)
        .where(Child.parent_id == parent_id, Child.is_active)
        .order_by(col(Child.is_default).desc(), col(Child.first_name), col(Child.id))
    ).all()
    names: dict[int, list[str]] = {}
    school_names: dict[int, str] = {}
    for first_name, school_id, school_name in kids:
        names.setdefault(school_id, []).append(first_name)
        school_names[school_id] = school_name
    sources = _sources(year)
    mine = sources.c.parent_id == parent_id
    fam_meals = func.sum(case((mine, sources.c.meals), else_=0))
    fam_cents = func.sum(case((mine, sources.c.cents), else_=0))
    keep = [fam_meals > 0, fam_cents > 0]
    if names:
        keep.append(sources.c.school_id.in_(sorted(names)))
    rows = session.execute(
        select_columns(
            sources.c.school_id,
            col(School.name),
            fam_meals,
            fam_cents,
            func.sum(sources.c.meals),
            func.sum(sources.c.cents),
        )
        .join(School, col(School.id) == sources.c.school_id)
        .group_by(sources.c.school_id, School.name)
        .having(or_(*keep))
    ).all()
    found = {int(r[0]): r for r in rows}
    order = [sid for sid in names if sid in found] + sorted(
        (sid for sid in found if sid not in names), key=lambda sid: found[sid][1]
    )
    # Schools of the children with nothing given yet still appear (at zero), by name.
    empty = [sid for sid in names if sid not in found]
    schools = []
    for sid in [*order, *empty]:
        row = found.get(sid)
        meals, cents, all_meals, all_cents = (
            (int(row[2] or 0), int(row[3] or 0), int(row[4] or 0), int(row[5] or 0))
            if row
            else (0, 0, 0, 0)
        )
        to_school, to_nutrition = giveback(meals)
        all_school, all_nutrition = giveback(all_meals)
        schools.append(
            SchoolGiveBack(
                school_id=sid,
                school=row[1] if row else school_names.get(sid, ""),
                children=tuple(names.get(sid, [])),
                meals=meals,
                school_cents=to_school,
                nutrition_cents=to_nutrition,
                donation_cents=cents,
                school_meals=all_meals,
                school_nutrition_cents=all_nutrition,
                school_total_cents=all_school + all_cents,
            )
        )
    return FamilyGiveBack(
        year=year,
        meals=sum(school.meals for school in schools),
        school_cents=sum(school.school_cents for school in schools),
        nutrition_cents=sum(school.nutrition_cents for school in schools),
        donation_cents=sum(school.donation_cents for school in schools),
        schools=tuple(schools),
    )
