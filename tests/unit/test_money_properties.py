"""Money's properties over any input (hypothesis), on the pure rules: cents written and read
back exactly (hotmeals/domain/money.py and Converge's wire amounts, hotmeals/converge/gateway.py),
half-cents rounded up as Decimal does, an order's charges never negative and adding up
(domain/charges.py), refunds over any sequence of cancels never beyond what was paid and adding
up to it (domain/refunds.py), family credit paying first and each source getting back what it
paid, never more (domain/credit.py). The same rules against a real database and the simulator:
tests/integration/test_money_against_converge.py."""

from __future__ import annotations

import dataclasses
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hotmeals.converge.gateway import MAX_CENTS, amount_to_cents, cents_to_amount
from hotmeals.domain.charges import ChargeRates, Promo, PromoKind, compute_charges
from hotmeals.domain.credit import RefundDestination, payment_split, refund_split
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import parse_decimal_string, round_half_up, to_decimal_string
from hotmeals.domain.pricing import LineInput, LinePrice, PriceTier, price_line
from hotmeals.domain.refunds import plan_cancel_refund

# -- cents, written and read back ----------------------------------------------------------------


@given(st.integers(min_value=0, max_value=999_999_999_999))
def test_decimal_string_round_trips(cents):
    assert parse_decimal_string(to_decimal_string(cents)) == cents


@given(st.integers(-(10**12), 10**12), st.integers(1, 10**6))
def test_round_half_up_matches_decimal_round_half_up(numerator, denominator):
    expected = int(
        (Decimal(numerator) / Decimal(denominator)).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    )
    assert round_half_up(numerator, denominator) == expected


@given(st.integers(min_value=0, max_value=MAX_CENTS))
def test_converge_amount_round_trip_is_exact(cents: int) -> None:
    assert amount_to_cents(cents_to_amount(cents)) == cents


# -- an order's charges (domain/charges.py) ---------------------------------------------------


def _meal_line(meal_cents: int, note_fee: int = 0) -> LinePrice:
    return LinePrice(
        unit_cents=meal_cents,
        meal_cents=meal_cents,
        special_note_fee_cents=note_fee,
        total_cents=meal_cents + note_fee,
    )


charge_lines = st.lists(
    st.builds(_meal_line, st.integers(500, 36_250), st.sampled_from([0, 100])), max_size=8
)


charge_rates = st.builds(
    ChargeRates,
    processing_fee_bps=st.integers(0, 500),
    processing_fee_fixed_cents=st.integers(0, 50),
    tax_bps=st.sampled_from([0, 500, 1300]),
)


charge_promos = st.none() | st.builds(
    Promo,
    kind=st.sampled_from(PromoKind),
    value=st.integers(0, 10_000),
    min_order_cents=st.integers(0, 5000),
)


@given(charge_lines, charge_rates, charge_promos, st.integers(0, 5000), st.integers(0, 5000))
def test_charges_are_never_negative_and_always_add_up(lines, rates, promo, donation, extra):
    charges = compute_charges(lines, rates, promo, donation, extra)
    assert all(value >= 0 for value in dataclasses.asdict(charges).values())
    assert charges.discount_cents <= charges.meal_net_cents
    assert charges.total_pay_cents == (
        charges.meal_net_cents
        - charges.discount_cents
        + charges.special_note_fees_cents
        + charges.processing_fee_cents
        + charges.tax_cents
        + charges.school_donation_cents
        + charges.additional_charge_cents
    )


# -- refunds over a sequence of cancels (domain/refunds.py) -------------------------------------


refund_tiers = st.sampled_from(
    [
        (PriceTier(1, 500),),
        (PriceTier(1, 725), PriceTier(5, 650), PriceTier(10, 600)),
        (PriceTier(1, 700), PriceTier(3, 500)),
    ]
)


refund_lines = st.builds(
    LineInput,
    portion_tiers=refund_tiers,
    quantity=st.integers(1, 50),
    option_cents=st.lists(st.integers(0, 150), max_size=2),
    addon_cents=st.lists(st.integers(0, 300), max_size=2),
    special_note=st.sampled_from([None, "", "Happy birthday"]),
)


refund_promos = st.none() | st.builds(
    Promo,
    kind=st.sampled_from(PromoKind),
    value=st.integers(0, 10_000),
    min_order_cents=st.integers(0, 20_000),
)


refund_rates = st.builds(
    ChargeRates,
    processing_fee_bps=st.integers(0, 400),
    processing_fee_fixed_cents=st.integers(0, 50),
    tax_bps=st.sampled_from([0, 1300]),
)


# Pure arithmetic: hypothesis's default 100 examples a run (each run draws new ones).
@settings(max_examples=100)
@given(
    lines=st.lists(refund_lines, min_size=1, max_size=5),
    rates=refund_rates,
    promo=refund_promos,
    donation=st.integers(0, 2000),
    data=st.data(),
)
def test_sequential_refunds_never_exceed_paid_and_add_up_when_all_cancelled(
    lines, rates, promo, donation, data
):
    paid = compute_charges([price_line(x) for x in lines], rates, promo, donation).total_pay_cents
    refunded = 0
    current = list(lines)
    partial_steps = data.draw(st.integers(0, 4), label="partial cancels")
    for step in range(partial_steps + 1):
        if not current:
            break
        if step == partial_steps:  # finally, cancel everything that is left
            cancels = [x.quantity for x in current]
        else:
            cancels = [data.draw(st.integers(0, x.quantity), label="cancel") for x in current]
        plan = plan_cancel_refund(
            lines=current,
            cancel_quantities=cancels,
            paid_cents=paid,
            refunded_cents=refunded,
            rates=rates,
            promo=promo,
            school_donation_cents=donation,
        )
        assert 0 <= plan.refund_cents <= paid - refunded
        refunded += plan.refund_cents
        assert refunded <= paid
        assert plan.remaining.total_refund_cents == refunded
        current = plan.remaining_lines
    assert current == []
    assert refunded == paid


# -- family credit (domain/credit.py) ---------------------------------------------------------


cents = st.integers(min_value=0, max_value=100_000)


@given(total=cents, balance=st.integers(min_value=-5_000, max_value=100_000))
def test_credit_pays_first_and_the_card_the_rest(total, balance):
    split = payment_split(total, balance)
    assert split.credit_cents + split.card_cents == total
    assert 0 <= split.credit_cents <= max(balance, 0)
    assert split.card_cents == 0 or split.credit_cents == max(balance, 0)
    assert payment_split(total, balance, use_credit=False).card_cents == total


@given(
    credit=cents,
    card=cents,
    refunds=st.lists(st.integers(min_value=0, max_value=50_000), max_size=8),
    to_credit=st.lists(st.booleans(), min_size=8, max_size=8),
)
def test_refunds_go_back_to_their_sources_and_never_exceed_them(credit, card, refunds, to_credit):
    back_to_credit = from_card = 0
    for amount, choice in zip(refunds, to_credit, strict=False):
        destination = RefundDestination.CREDIT if choice else RefundDestination.CARD
        left = credit - back_to_credit + card - from_card
        if amount > left:
            with pytest.raises(DomainError):
                refund_split(
                    amount,
                    paid_by_credit=credit,
                    paid_by_card=card,
                    refunded_to_credit=back_to_credit,
                    refunded_from_card=from_card,
                    destination=destination,
                )
            continue
        split = refund_split(
            amount,
            paid_by_credit=credit,
            paid_by_card=card,
            refunded_to_credit=back_to_credit,
            refunded_from_card=from_card,
            destination=destination,
        )
        assert split.to_credit_cents + split.card_share_cents == amount
        assert split.card_refund_cents + split.credit_cents == amount
        # credit first: the card's share is touched only once credit's is all back
        assert split.card_share_cents == 0 or back_to_credit + split.to_credit_cents == credit
        back_to_credit += split.to_credit_cents
        from_card += split.card_share_cents
        assert back_to_credit <= credit and from_card <= card
