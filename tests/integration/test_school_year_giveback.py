"""The start of the school year and the give-back dashboard, on migrated SQLite and PostgreSQL
with the clock given.

The start of the school year (services/school_year.py): after 1 August a child added last year
must be confirmed before any booking service takes it (the cart, Book meal's many days, the
checkout), with the grade one up offered; a child added this year needs nothing; an archived
child is hidden from booking and its orders stay in the history.

The give-back dashboard (services/giveback.py): the family's and the school's sums to the cent
(cancelled meals, refunded and last year's donations left out), in two statements whatever the
number of orders.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

import pytest
from sqlmodel import select

from hotmeals import clock
from hotmeals.api.school_year import giveback_out
from hotmeals.db.engine import session_scope
from hotmeals.db.models import Child, ChildSchoolYear, Donation, Order, OrderLine
from hotmeals.domain.errors import DomainError
from hotmeals.domain.school_year import TORONTO
from hotmeals.services import (
    children,
    giveback,
    reference,
    school_year,
)
from hotmeals.services.ordering import booking, cart, queries
from hotmeals.services.ordering.changing import modify
from hotmeals.services.ordering.lines import LineRequest
from tests import factories as f
from tests.querycount import count_queries


def local(day: date, hour: int = 12) -> datetime:
    return datetime.combine(day, time(hour), tzinfo=TORONTO)


LAST_SPRING = local(date(2026, 3, 2))  # school year 2025-2026
JULY_31 = local(date(2026, 7, 31), 23)
AUG_1 = local(date(2026, 8, 1), 0)  # school year 2026-2027 starts
SEPTEMBER = local(date(2026, 9, 10))


@pytest.fixture(autouse=True)
def _fresh_reference():
    reference.invalidate()
    yield
    reference.invalidate()


def _family(s, *, created_at=LAST_SPRING, grade_code="3", **child):
    parent = f.make_parent(s, language="fr")
    f.get_grade(s, "4")
    kid = f.make_child(s, parent, grade_code=grade_code, **child)
    kid.created_at = created_at
    s.add(kid)
    s.flush()
    return parent, kid


def _refused_code(call) -> str:
    with pytest.raises(DomainError) as info:
        call()
    return info.value.code


# --- start of the school year ------------------------------------------------------------------


def test_rollover_on_the_first_of_august_gates_every_booking_service(engine):
    with session_scope(engine) as s:
        parent, kid = _family(s, first_name="Emma")
        pid, cid = parent.id, kid.id
    with session_scope(engine) as s:
        clock.set_now(JULY_31)
        assert school_year.pending_count(session=s, parent_id=pid) == 0
        school_year.require_confirmed(s, parent_id=pid, child_ids=[cid], now=JULY_31)
        clock.set_now(AUG_1)
        assert school_year.pending_count(session=s, parent_id=pid) == 1
    with session_scope(engine) as s:
        with pytest.raises(DomainError) as info:
            cart.add_to_cart(session=s, parent_id=pid, child_id=cid, meal_id=1, date="2026-09-14")
        assert info.value.code == "school_year_unconfirmed"
        message = info.value.message("fr")
        assert "Emma" in message and "2026-2027" in message and "Réserver un repas" in message
    with session_scope(engine) as s:
        items = [LineRequest(child_id=cid, meal_id=1, date="2026-09-14")]
        clock.set_now(SEPTEMBER)
        code = _refused_code(lambda: booking.add_many(session=s, parent_id=pid, items=items))
        assert code == "school_year_unconfirmed"


def test_adding_a_meal_to_a_paid_order_is_gated_too(engine, monkeypatch):
    with session_scope(engine) as s:
        parent, kid = _family(s)
        order = _order(s, parent, kid, date(2026, 3, 10), quantity=1)
        pid, cid, oid = parent.id, kid.id, order.id
    clock.set_now(SEPTEMBER)
    with session_scope(engine) as s:
        code = _refused_code(
            lambda: modify.add_to_my_order(
                session=s, parent_id=pid, order_id=oid, child_id=cid, meal_id=1, date="2026-09-14"
            )
        )
        assert code == "school_year_unconfirmed"


def test_a_child_added_this_school_year_needs_no_confirmation(engine):
    with session_scope(engine) as s:
        parent, kid = _family(s, created_at=AUG_1 + timedelta(days=3))
        pid, cid = parent.id, kid.id
    with session_scope(engine) as s:
        clock.set_now(SEPTEMBER)
        assert school_year.pending_count(session=s, parent_id=pid) == 0
        school_year.require_confirmed(s, parent_id=pid, child_ids=[cid], now=SEPTEMBER)


def test_confirming_offers_the_next_grade_and_unlocks_booking(engine):
    with session_scope(engine) as s:
        parent, kid = _family(s, first_name="Lucas", allergies={"Peanuts": "Major"})
        pid, cid = parent.id, kid.id
        new_teacher = f.make_teacher(s, f.child_school(s, kid), grade_code="4", name="Mme Roy")
        teacher_id, school_id = new_teacher.id, kid.school_id
    with session_scope(engine) as s:
        clock.set_now(SEPTEMBER)
        state = school_year.status(session=s, parent_id=pid)
        assert state.year.label == "2026-2027"
        (pending,) = state.pending
        assert pending.child.grade("fr") == "3e année"
        assert pending.offered_grade is not None
        assert pending.offered_grade.label("fr") == "4e année"
        assert pending.graduating is False
        assert pending.child.allergies[0].alert_level == "Major"
        assert (teacher_id, "Mme Roy", school_id) in [
            (t.id, t.name, t.school_id) for t in pending.teachers
        ]
        offered = pending.offered_grade.id
    with session_scope(engine) as s:
        code = _refused_code(
            lambda: school_year.confirm_child(
                session=s,
                parent_id=pid,
                child_id=cid,
                school_id=school_id,
                teacher_id=teacher_id,
                grade_id=offered,
                allergies_reviewed=False,
            )
        )
        assert code == "allergies_review_required"
    with session_scope(engine) as s:
        done = school_year.confirm_child(
            session=s,
            parent_id=pid,
            child_id=cid,
            school_id=school_id,
            teacher_id=teacher_id,
            grade_id=offered,
            allergies_reviewed=True,
        )
        assert done.pending_count == 0 and done.year.year == 2026
        assert done.child.teacher == "Mme Roy"
    with session_scope(engine) as s:
        row = s.exec(select(ChildSchoolYear).where(ChildSchoolYear.child_id == cid)).one()
        assert row.school_year == 2026
        assert s.get(Child, cid).grade_id == offered
        school_year.require_confirmed(s, parent_id=pid, child_ids=[cid], now=SEPTEMBER)
        # A year later the question comes back.
        next_year = SEPTEMBER + timedelta(days=365)
        clock.set_now(next_year)
        assert school_year.pending_count(session=s, parent_id=pid) == 1


def test_the_last_grade_graduates(engine):
    with session_scope(engine) as s:
        parent, _kid = _family(s, grade_code="8")
        pid = parent.id
    with session_scope(engine) as s:
        clock.set_now(SEPTEMBER)
        (pending,) = school_year.status(session=s, parent_id=pid).pending
        assert pending.graduating is True and pending.offered_grade is not None
        assert pending.offered_grade.id == pending.child.grade_id


def test_archive_hides_from_booking_and_keeps_the_history(engine):
    with session_scope(engine) as s:
        parent, kid = _family(s)
        pid, cid = parent.id, kid.id
        _order(s, parent, kid, date(2026, 3, 10), quantity=1)
    with session_scope(engine) as s:
        clock.set_now(SEPTEMBER)
        assert school_year.archive_child(session=s, parent_id=pid, child_id=cid) == 0
    with session_scope(engine) as s:
        assert children.list_children(session=s, parent_id=pid) == []
        code = _refused_code(
            lambda: cart.add_to_cart(
                session=s, parent_id=pid, child_id=cid, meal_id=1, date="2026-09-14"
            )
        )
        assert code == "child_not_found"
        past = queries.order_history(s, parent_id=pid, tab="past")
        assert len(past.orders) == 1


# --- give-back ---------------------------------------------------------------------------------


_n = iter(range(1, 10_000))


def _order(
    s,
    parent,
    kid,
    day: date,
    *,
    quantity: int,
    cancelled: int = 0,
    status: str = "placed",
    line_status: str = "active",
    donation: int = 0,
    lines: int = 1,
) -> Order:
    school = f.child_school(s, kid)
    vendor = f.make_vendor(s)
    meal = f.make_meal(s, vendor)
    menu_day = f.make_menu_day(s, school, vendor, day, [meal])
    order = Order(
        number=f"HM-GB{next(_n)}",
        parent_id=parent.id,
        status=status,
        tax_bps=1300,
        processing_fee_bps=0,
        processing_fee_fixed_cents=0,
        school_donation_cents=donation,
        placed_at=local(day) - timedelta(days=3),
    )
    s.add(order)
    s.flush()
    for _ in range(lines):
        s.add(
            OrderLine(
                order_id=order.id,
                child_id=kid.id,
                menu_day_id=menu_day.id,
                vendor_id=vendor.id,
                meal_id=meal.id,
                portion_id=f.portion_of(s, meal).id,
                meal_date=day,
                meal_name=meal.name_en,
                size="small",
                quantity=quantity,
                cancelled_quantity=cancelled,
                price_tiers="1:650",
                unit_price_cents=650,
                line_total_cents=650 * quantity,
                status=line_status,
            )
        )
    s.flush()
    return order


def _gift(s, parent, school_id, cents, *, status="PAID", when=SEPTEMBER):
    s.add(
        Donation(
            parent_id=parent.id,
            school_id=school_id,
            amount_cents=cents,
            status=status,
            created_at=when,
        )
    )
    s.flush()


def test_giveback_sums_to_the_cent_for_a_family_and_its_school(engine):
    sept, oct_ = date(2026, 9, 14), date(2026, 10, 5)
    with session_scope(engine) as s:
        parent, emma = _family(s, created_at=AUG_1, first_name="Emma")
        school = f.child_school(s, emma)
        lucas = f.make_child(s, parent, school=school, first_name="Lucas")
        _order(s, parent, emma, sept, quantity=3)  # 3 meals
        _order(s, parent, lucas, oct_, quantity=4, cancelled=1, status="partially_cancelled")  # 3
        _order(
            s,
            parent,
            lucas,
            oct_,
            quantity=2,
            line_status="cancelled",
            status="partially_cancelled",
        )  # 0: the line was cancelled
        _order(s, parent, emma, oct_, quantity=5, status="cancelled")  # 0: refunded
        _order(s, parent, emma, oct_, quantity=5, status="pending_payment")  # 0: not paid
        _order(s, parent, emma, date(2026, 6, 1), quantity=7)  # 0: last school year
        _order(s, parent, emma, sept, quantity=1, donation=300)  # 1 meal + $3 at checkout
        _gift(s, parent, school.id, 1000)  # $10
        _gift(s, parent, school.id, 2000, status="REFUNDED")  # no
        _gift(s, parent, school.id, 500, when=local(date(2026, 7, 1)))  # last year: no
        # Another family at the same school: 2 meals and $5; a third at another school.
        other, other_kid = _family(s, created_at=AUG_1)
        other_kid.school_id = school.id
        s.add(other_kid)
        _order(s, other, other_kid, sept, quantity=2)
        _gift(s, other, school.id, 500)
        far, far_kid = _family(s, created_at=AUG_1)
        _order(s, far, far_kid, sept, quantity=9)
        pid, school_id, school_name = parent.id, school.id, school.name
    clock.set_now(SEPTEMBER)
    with session_scope(engine) as s:
        figures = giveback.family_giveback(session=s, parent_id=pid)
    got = giveback_out(figures, "fr")  # as /api/v1 shows it
    assert got["school_year_label"] == "2026-2027"
    assert got["meals"] == 7
    assert (got["school_cents"], got["nutrition_cents"], got["donation_cents"]) == (350, 140, 1300)
    assert got["total_cents"] == 1790
    assert got["total"] == "17,90\xa0$"
    (row,) = got["schools"]
    assert row["school_id"] == school_id and row["school"] == school_name
    assert row["children"] == ["Emma", "Lucas"]
    assert row["given_cents"] == 350 + 1300  # to the school: meals x $0.50 + donations
    assert row["school_meals"] == 9  # 7 + the other family's 2
    assert row["school_total_cents"] == 9 * 50 + 1300 + 500
    assert row["school_total"] == "22,50\xa0$"


def test_a_family_without_meals_sees_its_school_at_zero(engine):
    with session_scope(engine) as s:
        parent, kid = _family(s, created_at=AUG_1)
        pid, school_id = parent.id, kid.school_id
    clock.set_now(SEPTEMBER)
    with session_scope(engine) as s:
        got = giveback_out(giveback.family_giveback(session=s, parent_id=pid), "en")
    assert got["total_cents"] == 0 and got["total"] == "$0.00"
    assert [
        (r["school_id"], r["total_cents"], r["school_total_cents"]) for r in got["schools"]
    ] == [(school_id, 0, 0)]


@pytest.mark.parametrize("count", [1, 12])
def test_giveback_statements_do_not_grow_with_orders(engine, count):
    with session_scope(engine) as s:
        parent, kid = _family(s, created_at=AUG_1)
        for n in range(count):
            _order(s, parent, kid, date(2026, 9, 1) + timedelta(days=n), quantity=1, donation=100)
            _gift(s, parent, kid.school_id, 100)
        pid = parent.id
    clock.set_now(SEPTEMBER)
    with session_scope(engine) as s, count_queries(engine) as queries:
        got = giveback.family_giveback(session=s, parent_id=pid)
    assert got.meals == count and got.donation_cents == 200 * count
    assert queries.count == 2, queries.report()
