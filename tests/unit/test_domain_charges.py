import dataclasses

import pytest

from hotmeals.domain.charges import (
    ONTARIO_HST_BPS,
    ChargeRates,
    OrderCharges,
    Promo,
    PromoKind,
    check_promo,
    compute_charges,
)
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import NBSP
from hotmeals.domain.pricing import LinePrice

NO_FEE = ChargeRates()
CARD_FEE = ChargeRates(processing_fee_bps=290, processing_fee_fixed_cents=30)


def line(meal_cents: int, note_fee: int = 0) -> LinePrice:
    return LinePrice(
        unit_cents=meal_cents,
        meal_cents=meal_cents,
        special_note_fee_cents=note_fee,
        total_cents=meal_cents + note_fee,
    )


def test_order_charges_has_the_nine_fields_of_the_spec():
    assert [f.name for f in dataclasses.fields(OrderCharges)] == [
        "meal_net_cents",
        "special_note_fees_cents",
        "processing_fee_cents",
        "tax_cents",
        "discount_cents",
        "school_donation_cents",
        "additional_charge_cents",
        "total_pay_cents",
        "total_refund_cents",
    ]


def test_default_rates_are_ontario_hst_and_no_card_fee():
    assert ChargeRates() == ChargeRates(0, 0, 1300)
    assert ONTARIO_HST_BPS == 1300


def test_hst_applies_to_meals_and_note_fees():
    charges = compute_charges([line(1000, 100)], NO_FEE)
    assert charges == OrderCharges(
        meal_net_cents=1000,
        special_note_fees_cents=100,
        tax_cents=143,
        total_pay_cents=1243,
    )


def test_lines_are_summed():
    charges = compute_charges([line(500), line(725, 100), line(1450)], ChargeRates(tax_bps=0))
    assert charges.meal_net_cents == 2675
    assert charges.special_note_fees_cents == 100
    assert charges.total_pay_cents == 2775


def test_card_fee_is_on_the_pre_tax_charge_and_is_taxed():
    charges = compute_charges([line(1000, 100)], CARD_FEE, school_donation_cents=200)
    # card base 1100 + 200 = 1300; fee 37.7 -> 38 + 30 = 68; tax 13 % of 1168 = 151.84 -> 152
    assert charges.processing_fee_cents == 68
    assert charges.tax_cents == 152
    assert charges.school_donation_cents == 200
    assert charges.total_pay_cents == 1300 + 68 + 152


def test_donation_and_additional_charge_are_not_taxed():
    base = compute_charges([line(1000)], NO_FEE)
    more = compute_charges(
        [line(1000)], NO_FEE, school_donation_cents=500, additional_charge_cents=300
    )
    assert more.tax_cents == base.tax_cents == 130
    assert more.additional_charge_cents == 300
    assert more.total_pay_cents == base.total_pay_cents + 800


def test_tax_rate_is_configurable_including_zero():
    assert compute_charges([line(1000)], ChargeRates(tax_bps=0)).tax_cents == 0
    assert compute_charges([line(1000)], ChargeRates(tax_bps=500)).tax_cents == 50


@pytest.mark.parametrize(("goods", "tax"), [(50, 7), (150, 20), (250, 33), (49, 6), (1, 0)])
def test_tax_rounds_half_cents_up(goods, tax):
    # 13 % of 50 = 6.5, of 150 = 19.5, of 250 = 32.5: each half cent goes up.
    assert compute_charges([line(goods)], NO_FEE).tax_cents == tax


def test_processing_fee_rounds_half_cents_up():
    rates = ChargeRates(processing_fee_bps=250, tax_bps=0)
    # 2.5 % of 1300 = 32.5 -> 33
    assert compute_charges([line(1300)], rates).processing_fee_cents == 33


def test_percent_discount_rounds_half_cents_up():
    # 10 % of 1005 = 100.5 -> 101
    charges = compute_charges([line(1005)], ChargeRates(tax_bps=0), Promo.percent(1000))
    assert charges.discount_cents == 101
    assert charges.total_pay_cents == 904


def test_total_adds_up_from_the_rounded_charges():
    charges = compute_charges([line(1333, 100), line(777)], CARD_FEE, Promo.percent(1500), 250, 125)
    assert charges.total_pay_cents == (
        charges.meal_net_cents
        - charges.discount_cents
        + charges.special_note_fees_cents
        + charges.processing_fee_cents
        + charges.tax_cents
        + charges.school_donation_cents
        + charges.additional_charge_cents
    )


def test_discount_applies_before_tax():
    charges = compute_charges([line(1000)], NO_FEE, Promo.fixed(200))
    assert charges.discount_cents == 200
    assert charges.tax_cents == 104
    assert charges.total_pay_cents == 904


def test_discount_is_on_meals_only_not_on_note_fees():
    charges = compute_charges([line(1000, 100)], ChargeRates(tax_bps=0), Promo.percent(10_000))
    assert charges.discount_cents == 1000
    assert charges.total_pay_cents == 100


def test_fixed_discount_never_exceeds_meal_net():
    charges = compute_charges([line(1000)], NO_FEE, Promo.fixed(5000))
    assert charges.discount_cents == 1000
    assert charges.tax_cents == 0
    assert charges.total_pay_cents == 0


def test_free_order_has_no_card_fee():
    charges = compute_charges([line(1000)], CARD_FEE, Promo.fixed(1000))
    assert charges.processing_fee_cents == 0
    assert charges.total_pay_cents == 0


def test_promo_below_minimum_order_gives_no_discount():
    promo = Promo.fixed(300, min_order_cents=1000)
    assert compute_charges([line(999)], NO_FEE, promo).discount_cents == 0
    assert compute_charges([line(1000)], NO_FEE, promo).discount_cents == 300


def test_promo_minimum_is_on_meal_net_not_on_note_fees():
    promo = Promo.fixed(300, min_order_cents=1000)
    assert compute_charges([line(950, 100)], NO_FEE, promo).discount_cents == 0


def test_no_lines_means_every_charge_is_zero_even_the_donation():
    charges = compute_charges(
        [], CARD_FEE, Promo.fixed(500), school_donation_cents=500, additional_charge_cents=300
    )
    assert charges == OrderCharges()
    assert all(value == 0 for value in dataclasses.asdict(charges).values())


def test_total_refund_is_zero_when_computing_charges():
    assert compute_charges([line(1000)], CARD_FEE).total_refund_cents == 0


@pytest.mark.parametrize("bad", [-1, 1.5, True, None])
def test_donation_must_be_non_negative_int_cents(bad):
    with pytest.raises(DomainError) as info:
        compute_charges([line(1000)], NO_FEE, school_donation_cents=bad)
    assert (info.value.code, info.value.field) == ("invalid_amount", "school_donation")


def test_additional_charge_must_be_non_negative():
    with pytest.raises(DomainError) as info:
        compute_charges([line(1000)], NO_FEE, additional_charge_cents=-5)
    assert (info.value.code, info.value.field) == ("invalid_amount", "additional_charge")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"processing_fee_bps": -1},
        {"processing_fee_fixed_cents": -1},
        {"tax_bps": -1},
        {"tax_bps": 10_001},
        {"processing_fee_bps": 10_001},
        {"tax_bps": 13.0},
    ],
)
def test_charge_rates_refuse_nonsense(kwargs):
    with pytest.raises(ValueError):
        ChargeRates(**kwargs)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Promo.percent(10_001),
        lambda: Promo.percent(-1),
        lambda: Promo.fixed(-1),
        lambda: Promo.fixed(100, min_order_cents=-1),
        lambda: Promo(PromoKind.FIXED, 1.5),
    ],
)
def test_promo_refuses_nonsense(make):
    with pytest.raises(ValueError):
        make()


def test_promo_constructors_set_kind_and_code():
    assert Promo.percent(1000, code="SAVE10") == Promo(PromoKind.PERCENT, 1000, 0, "SAVE10")
    assert Promo.fixed(500, min_order_cents=2000).min_order_cents == 2000


def test_check_promo_passes_when_the_minimum_is_met():
    check_promo(Promo.fixed(300, min_order_cents=1000), 1000)


def test_check_promo_reports_the_minimum_in_the_parents_language():
    promo = Promo.fixed(300, min_order_cents=2500)
    with pytest.raises(DomainError) as info:
        check_promo(promo, 2499)
    assert info.value.code == "promo_min_order_not_met"
    assert info.value.field == "promo_code"
    assert info.value.message("en") == "This promo code needs a minimum order of $25.00"
    with pytest.raises(DomainError) as info:
        check_promo(promo, 0, "fr")
    assert info.value.params == {"minimum": f"25,00{NBSP}$"}
