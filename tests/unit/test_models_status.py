"""The domain's enums are the column values: each model with a status, built with its
defaults, stored and read back, answers through the enum (and the guards accept it)."""

from __future__ import annotations

from datetime import date

import pytest
from sqlmodel import Session, SQLModel, create_engine

import hotmeals.db.models  # noqa: F401  (every table)
from hotmeals.db.models import Donation, Order, OrderLine, Payment, Refund
from hotmeals.domain.charges import ChargeRates, OrderTerms
from hotmeals.domain.orders import LineStatus, OrderStatus, can_cancel, can_transition
from hotmeals.domain.payment_states import (
    DonationStatus,
    PaymentState,
    Purpose,
    RefundKind,
    RefundState,
)


@pytest.fixture
def session():
    # No foreign keys in SQLite by default: the rows stand alone, only their columns matter.
    engine = create_engine("sqlite://")
    SQLModel.metadata.create_all(engine)
    with Session(engine) as s:
        yield s
    engine.dispose()


def _round_trip(session: Session, row):
    session.add(row)
    session.commit()
    session.expire_all()
    return session.get(type(row), row.id)


def test_a_new_order_reads_back_as_pending_payment_and_can_be_placed(session):
    order = _round_trip(
        session, Order(number="HM-1", parent_id=1, **OrderTerms(ChargeRates()).to_stored())
    )
    assert OrderStatus(order.status) is OrderStatus.PENDING_PAYMENT
    assert can_transition(order.status, OrderStatus.PLACED)
    assert can_cancel(OrderStatus(order.status)) is False  # nothing paid, nothing to cancel


def test_a_new_order_line_reads_back_as_active(session):
    line = _round_trip(
        session,
        OrderLine(
            order_id=1,
            child_id=1,
            menu_day_id=1,
            vendor_id=1,
            meal_id=1,
            portion_id=1,
            meal_date=date(2026, 3, 4),
            meal_name="Pasta",
            size="small",
            quantity=1,
            price_tiers="1:650",
            unit_price_cents=650,
            line_total_cents=650,
        ),
    )
    assert LineStatus(line.status) is LineStatus.ACTIVE


def test_payment_refund_and_donation_read_back_through_their_enums(session):
    payment = _round_trip(session, Payment(parent_id=1, invoice_number="HMD-1", amount_cents=500))
    assert PaymentState(payment.state) is PaymentState.CREATED
    assert Purpose(payment.purpose) is Purpose.ORDER
    refund = _round_trip(
        session, Refund(payment_id=payment.id, amount_cents=100, kind=RefundKind.RETURN)
    )
    assert RefundState(refund.state) is RefundState.PENDING
    assert RefundKind(refund.kind) is RefundKind.RETURN
    donation = _round_trip(session, Donation(parent_id=1, amount_cents=500))
    assert DonationStatus(donation.status) is DonationStatus.PENDING


def test_stored_order_terms_come_back_as_the_same_rates_and_promo(session):
    from hotmeals.domain.charges import Promo

    terms = OrderTerms(
        ChargeRates(processing_fee_bps=250, processing_fee_fixed_cents=30),
        Promo.percent(1000, min_order_cents=2000, code="SPRING"),
    )
    order = _round_trip(session, Order(number="HM-2", parent_id=1, **terms.to_stored()))
    stored = {k: getattr(order, k) for k in terms.to_stored()}
    assert OrderTerms.from_stored(**stored) == terms
