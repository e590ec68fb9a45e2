"""ordering/cart.py against a migrated database (SQLite and PostgreSQL), with the clock given:
the cut-off instant itself, school-day cut-offs, and carts priced to the cent (tiers, sizes,
options, add-ons, note, promo, tax, donation)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import AddOn, CartLine, MealOption
from hotmeals.domain.charges import ChargeRates, Promo
from hotmeals.domain.errors import DomainError
from hotmeals.domain.pricing import giveback_summary
from hotmeals.services.ordering import cart, lines
from tests import factories as f

MONDAY = date(2026, 3, 2)
# 1 day before at 10:00 Toronto (EST, UTC-5): Sunday 2026-03-01 15:00 UTC
CUTOFF = datetime(2026, 3, 1, 15, 0, tzinfo=UTC)


def _shop(session, *, skip_weekends: bool = False):
    parent = f.make_parent(session)
    child = f.make_child(session, parent)
    vendor = f.make_vendor(
        session, cutoff_days_before=1, cutoff_time="10:00", skip_weekends=skip_weekends
    )
    meal = f.make_meal(session, vendor, bulk={5: 25}, meal_options={"Gluten-free bun": 75})
    addon = AddOn(vendor_id=vendor.id, name_en="Apple", name_fr="Pomme", price_cents=125)
    session.add(addon)
    day = f.make_menu_day(session, f.child_school(session, child), vendor, MONDAY, [meal])
    session.flush()
    option = session.query(MealOption).filter(MealOption.meal_id == meal.id).one()
    return parent, child, meal, addon, day, option


def _add(session, parent, child, meal, day, now, **extra):
    clock.set_now(now)
    return cart.add_to_cart(
        session=session,
        parent_id=parent.id,
        child_id=child.id,
        meal_id=meal.id,
        menu_day_id=day.id,
        **extra,
    )


def test_the_day_closes_at_the_cutoff_instant(engine):
    with session_scope(engine) as session:
        parent, child, meal, _, day, _ = _shop(session)
        _add(session, parent, child, meal, day, CUTOFF - timedelta(microseconds=1))
        with pytest.raises(DomainError) as err:
            _add(session, parent, child, meal, day, CUTOFF)
        assert err.value.code == "meal_day_closed"
        clock.set_now(CUTOFF)
        summary = cart.cart_summary(session=session, parent_id=parent.id)
        line = summary.groups[0].lines[0]
        assert line.payable is False and summary.charges.total_pay_cents == 0
        clock.set_now(CUTOFF - timedelta(seconds=1))
        before = cart.cart_summary(session=session, parent_id=parent.id)
        assert before.groups[0].lines[0].payable is True


def test_a_school_day_cutoff_before_monday_is_on_friday(engine):
    with session_scope(engine) as session:
        parent, child, meal, _, day, _ = _shop(session, skip_weekends=True)
        friday_cutoff = datetime(2026, 2, 27, 15, 0, tzinfo=UTC)
        with pytest.raises(DomainError):
            _add(session, parent, child, meal, day, friday_cutoff)
        _add(session, parent, child, meal, day, friday_cutoff - timedelta(minutes=1))


def test_a_cart_is_priced_to_the_cent(engine):
    now = CUTOFF - timedelta(days=3)
    with session_scope(engine) as session:
        parent, child, meal, addon, day, option = _shop(session)
        line = _add(
            session,
            parent,
            child,
            meal,
            day,
            now,
            quantity=5,
            meal_option_id=option.id,
            addons=[addon.id],
            special_note_text="  Peanut-free table,   please ",
        )
        # tier 5+: 5.50 - 0.25 = 5.25; + 0.75 bun + 1.25 apple = 7.25 a meal; x 5 + $1 note
        assert (line.unit_price_cents, line.line_total_cents) == (525, 3725)
        large = _add(session, parent, child, meal, day, now, size="large", quantity=1)
        assert large.line_total_cents == 700
        stored = session.get(CartLine, line.cart_id)
        assert stored.special_note == "Peanut-free table, please"

        plain = cart.summary_at(
            session, parent_id=parent.id, now=now, rates=ChargeRates(tax_bps=1300)
        ).charges
        # meals 36.25 + 7.00 = 43.25, note 1.00; HST 13 % of 44.25 = 5.7525 -> 5.75
        assert plain.meal_net_cents == 4325 and plain.special_note_fees_cents == 100
        assert plain.tax_cents == 575 and plain.total_pay_cents == 4325 + 100 + 575

        summary = cart.summary_at(
            session,
            parent_id=parent.id,
            now=now,
            rates=ChargeRates(processing_fee_bps=250, processing_fee_fixed_cents=30, tax_bps=1300),
            promo=Promo.percent(1000, code="TEN"),
            school_donation_cents=500,
        )
        charges = summary.charges
        # discount 10 % of 43.25 = 4.325 -> 4.33; goods 43.25 - 4.33 + 1.00 = 39.92
        # card fee 2.5 % of (39.92 + 5.00 gift) = 1.123 -> 1.12, + 0.30 = 1.42
        # HST 13 % of (39.92 + 1.42) = 5.3742 -> 5.37; total 39.92 + 1.42 + 5.37 + 5.00
        assert charges.discount_cents == 433
        assert charges.processing_fee_cents == 142
        assert charges.tax_cents == 537
        assert charges.total_pay_cents == 3992 + 142 + 537 + 500 == 5171
        assert summary.meal_count == 6
        shares = giveback_summary(summary.meal_count, "en")
        assert (shares["school_cents"], shares["nutrition_cents"]) == (300, 120)


def test_a_note_over_120_characters_is_refused_and_blank_is_none():
    assert lines.special_note("   ") is None
    assert lines.special_note("x" * 120) == "x" * 120
    with pytest.raises(DomainError) as err:
        lines.special_note("x" * 121)
    assert err.value.code == "special_note_too_long"
