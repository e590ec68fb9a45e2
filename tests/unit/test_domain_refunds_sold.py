"""Refunds re-price an order with what it stored at payment, never with today's catalogue."""

from __future__ import annotations

from hotmeals.domain.charges import ChargeRates, OrderTerms, Promo, compute_charges
from hotmeals.domain.pricing import PriceTier, price_line, tiers_from_text, tiers_to_text
from hotmeals.domain.refunds import plan_cancel_refund, sold_line


def _stored_line(**over):
    values = dict(
        price_tiers="1:650,5:600",
        quantity=6,
        menu_option_cents=50,
        meal_option_cents=25,
        addon_cents=(75,),
        special_note="Happy birthday",
        special_note_fee_cents=100,
    )
    values.update(over)
    return sold_line(**values)


def test_tiers_survive_storage():
    tiers = (PriceTier(5, 600), PriceTier(1, 650))
    assert tiers_to_text(tiers) == "1:650,5:600"
    assert tiers_from_text("1:650,5:600") == (PriceTier(1, 650), PriceTier(5, 600))


def test_a_cancel_refunds_from_the_stored_prices_and_terms():
    stored = OrderTerms.from_stored(
        tax_bps=1300,
        processing_fee_bps=0,
        processing_fee_fixed_cents=0,
        promo_code="SPRING",
        promo_kind="percent",
        promo_value=1000,
        promo_min_order_cents=0,
    )
    line = _stored_line()
    paid = compute_charges([price_line(line)], stored.rates, stored.promo).total_pay_cents
    # 6 x (600 + 50 + 25 + 75) = 4500, -10 % = 4050, + 100 note = 4150, + 13 % = 4690 (rounded)
    assert paid == 4690
    # Cancel 2 of 6: the 4 left fall below the 5-meal tier, so the dearer 1:650 tier applies.
    plan = plan_cancel_refund(
        lines=[line], cancel_quantities=[2], paid_cents=paid, refunded_cents=0, terms=stored
    )
    remaining = 4 * (650 + 50 + 25 + 75)  # 3200
    after = round((remaining - 320 + 100) * 1.13)  # 3277.4 -> 3277
    assert plan.refund_cents == paid - after
    # The same cancel with today's (changed) tax and no promo would differ: the order's own
    # terms are what count.
    today = plan_cancel_refund(
        lines=[line],
        cancel_quantities=[2],
        paid_cents=paid,
        refunded_cents=0,
        rates=ChargeRates(tax_bps=1500),
        promo=None,
    )
    assert today.refund_cents != plan.refund_cents


def test_the_stored_note_fee_is_refunded_with_the_line_not_todays_fee():
    line = _stored_line(quantity=1, special_note_fee_cents=150)  # the fee was $1.50 then
    terms = OrderTerms(ChargeRates(tax_bps=0), Promo.fixed(0))
    paid = compute_charges([price_line(line)], terms.rates, terms.promo).total_pay_cents
    assert paid == 650 + 50 + 25 + 75 + 150
    plan = plan_cancel_refund(
        lines=[line], cancel_quantities=[1], paid_cents=paid, refunded_cents=0, terms=terms
    )
    assert plan.refund_cents == paid
