import pytest

from hotmeals.domain.charges import ChargeRates, Promo, compute_charges
from hotmeals.domain.errors import DomainError
from hotmeals.domain.pricing import LineInput, PriceTier, price_line
from hotmeals.domain.refunds import (
    plan_cancel_refund,
    refund_for_cancel,
    remaining_charges,
    remaining_lines,
)

SMALL = (PriceTier(1, 500),)
TIERED = (PriceTier(1, 725), PriceTier(5, 650), PriceTier(10, 600))
HST = ChargeRates()
NO_TAX = ChargeRates(tax_bps=0)
CARD_FEE = ChargeRates(processing_fee_bps=290, processing_fee_fixed_cents=30)


def total_of(lines, rates, promo=None, donation=0):
    return compute_charges([price_line(x) for x in lines], rates, promo, donation).total_pay_cents


@pytest.mark.parametrize(
    ("paid", "refunded", "remaining", "expected"),
    [
        (2000, 0, 1200, 800),
        (2000, 0, 0, 2000),
        (2000, 0, 2000, 0),
        (2000, 500, 1200, 300),
        (2000, 800, 1200, 0),
        (2000, 2000, 0, 0),
        (0, 0, 0, 0),
    ],
)
def test_refund_is_net_paid_minus_what_remains(paid, refunded, remaining, expected):
    assert refund_for_cancel(paid, refunded, remaining) == expected


def test_refund_is_zero_when_what_remains_costs_more_than_is_left():
    assert refund_for_cancel(1000, 400, 900) == 0


def test_refund_is_never_more_than_what_is_left_to_refund():
    assert refund_for_cancel(1000, 400, 0) == 600


def test_more_refunded_than_paid_is_an_inconsistency():
    with pytest.raises(ValueError):
        refund_for_cancel(1000, 1001, 0)


@pytest.mark.parametrize(
    ("paid", "refunded", "remaining"), [(-1, 0, 0), (0, -1, 0), (0, 0, -1), (1.5, 0, 0)]
)
def test_refund_inputs_must_be_non_negative_int_cents(paid, refunded, remaining):
    with pytest.raises(ValueError):
        refund_for_cancel(paid, refunded, remaining)


def test_remaining_lines_reduces_quantities_and_drops_empty_lines():
    lines = [LineInput(SMALL, 3), LineInput(SMALL, 1, special_note="Hi"), LineInput(TIERED, 2)]
    kept = remaining_lines(lines, [1, 1, 0])
    assert [x.quantity for x in kept] == [2, 2]
    assert kept[0].portion_tiers == SMALL
    assert kept[1].portion_tiers == TIERED


@pytest.mark.parametrize("cancel", [-1, 3, 1.0, True, None])
def test_cancel_quantity_outside_0_to_line_quantity_is_rejected(cancel):
    with pytest.raises(DomainError) as info:
        remaining_lines([LineInput(SMALL, 2)], [cancel])
    assert info.value.code == "invalid_cancel_quantity"
    assert info.value.params == {"max": 2}


def test_one_cancel_quantity_per_line_is_required():
    with pytest.raises(ValueError):
        remaining_lines([LineInput(SMALL, 2)], [1, 0])


def test_partial_cancel_refunds_the_difference_including_tax():
    lines = [LineInput(SMALL, 2), LineInput(SMALL, 1, special_note="Hi")]
    paid = total_of(lines, HST)
    assert paid == 1808  # 1500 + 100 note + 13 % of 1600
    plan = plan_cancel_refund(
        lines=lines, cancel_quantities=[1, 0], paid_cents=paid, refunded_cents=0, rates=HST
    )
    assert plan.remaining.total_pay_cents == 1243  # 1000 + 100 + 143
    assert plan.refund_cents == 565
    assert plan.remaining.total_refund_cents == 565
    assert [x.quantity for x in plan.remaining_lines] == [1, 1]


def test_cancelling_everything_refunds_the_whole_remaining_total():
    lines = [LineInput(SMALL, 2), LineInput(TIERED, 5, special_note="Hi")]
    paid = total_of(lines, CARD_FEE, donation=300)
    plan = plan_cancel_refund(
        lines=lines,
        cancel_quantities=[2, 5],
        paid_cents=paid,
        refunded_cents=0,
        rates=CARD_FEE,
        school_donation_cents=300,
    )
    assert plan.refund_cents == paid
    assert plan.remaining.total_pay_cents == 0
    assert plan.remaining_lines == []


def test_cancel_after_an_earlier_partial_cancel_adds_up_to_total_pay():
    lines = [LineInput(SMALL, 2), LineInput(SMALL, 1, special_note="Hi")]
    paid = total_of(lines, HST)
    first = plan_cancel_refund(
        lines=lines, cancel_quantities=[1, 0], paid_cents=paid, refunded_cents=0, rates=HST
    )
    second = plan_cancel_refund(
        lines=first.remaining_lines,
        cancel_quantities=[1, 1],
        paid_cents=paid,
        refunded_cents=first.refund_cents,
        rates=HST,
    )
    assert second.refund_cents == 1243
    assert first.refund_cents + second.refund_cents == paid
    assert second.remaining.total_refund_cents == paid


def test_cancelling_nothing_refunds_nothing():
    lines = [LineInput(SMALL, 2)]
    paid = total_of(lines, HST)
    plan = plan_cancel_refund(
        lines=lines, cancel_quantities=[0], paid_cents=paid, refunded_cents=0, rates=HST
    )
    assert plan.refund_cents == 0


def test_partial_cancel_into_a_dearer_tier_refunds_less_than_the_cancelled_meals():
    lines = [LineInput(TIERED, 10)]  # 10 x 6.00 = 60.00
    paid = total_of(lines, NO_TAX)
    plan = plan_cancel_refund(
        lines=lines, cancel_quantities=[6], paid_cents=paid, refunded_cents=0, rates=NO_TAX
    )
    assert plan.remaining.meal_net_cents == 4 * 725
    assert plan.refund_cents == 6000 - 2900


def test_promo_lost_below_its_minimum_never_makes_the_parent_pay_more():
    promo = Promo.fixed(500, min_order_cents=1000)
    lines = [LineInput(SMALL, 2)]
    paid = total_of(lines, NO_TAX, promo)
    assert paid == 500
    first = plan_cancel_refund(
        lines=lines,
        cancel_quantities=[1],
        paid_cents=paid,
        refunded_cents=0,
        rates=NO_TAX,
        promo=promo,
    )
    assert first.remaining.discount_cents == 0
    assert first.refund_cents == 0
    last = plan_cancel_refund(
        lines=first.remaining_lines,
        cancel_quantities=[1],
        paid_cents=paid,
        refunded_cents=0,
        rates=NO_TAX,
        promo=promo,
    )
    assert last.refund_cents == 500


def test_special_note_fee_is_refunded_only_with_the_lines_last_meal():
    lines = [LineInput(SMALL, 3, special_note="Hi")]
    paid = total_of(lines, NO_TAX)
    partial = remaining_charges(lines, [2], NO_TAX)
    assert partial.special_note_fees_cents == 100
    assert refund_for_cancel(paid, 0, partial.total_pay_cents) == 1000
    whole = remaining_charges(lines, [3], NO_TAX)
    assert refund_for_cancel(paid, 0, whole.total_pay_cents) == paid


def test_donation_and_fixed_card_fee_are_refunded_only_when_the_last_line_goes():
    lines = [LineInput(SMALL, 1), LineInput(SMALL, 1)]
    kept = remaining_charges(lines, [1, 0], CARD_FEE, school_donation_cents=300)
    assert kept.school_donation_cents == 300
    assert kept.processing_fee_cents >= 30
    gone = remaining_charges(lines, [1, 1], CARD_FEE, school_donation_cents=300)
    assert gone.school_donation_cents == 0
    assert gone.total_pay_cents == 0
