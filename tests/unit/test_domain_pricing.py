import pytest

from hotmeals.domain.errors import DomainError
from hotmeals.domain.pricing import (
    MAX_QUANTITY,
    MEAL_PRICE_MAX_CENTS,
    MEAL_PRICE_MIN_CENTS,
    NUTRITION_GIVEBACK_CENTS,
    SCHOOL_GIVEBACK_CENTS,
    SPECIAL_NOTE_FEE_CENTS,
    LineInput,
    LinePrice,
    Portion,
    PortionSize,
    PriceTier,
    giveback,
    has_special_note,
    price_line,
    unit_price,
    validate_quantity,
    validate_tiers,
)

SMALL = (PriceTier(1, 500),)
TIERED = (PriceTier(1, 725), PriceTier(5, 650), PriceTier(10, 600))


def test_spec_constants():
    assert MEAL_PRICE_MIN_CENTS == 500
    assert MEAL_PRICE_MAX_CENTS == 725
    assert SPECIAL_NOTE_FEE_CENTS == 100
    assert SCHOOL_GIVEBACK_CENTS == 50
    assert NUTRITION_GIVEBACK_CENTS == 20
    assert MAX_QUANTITY == 50


def test_portion_sizes_have_label_keys():
    assert PortionSize("small") is PortionSize.SMALL
    assert PortionSize.LARGE.label_key == "portion_large"
    assert Portion(PortionSize.SMALL, SMALL).tiers == SMALL


@pytest.mark.parametrize(
    ("quantity", "expected"),
    [(1, 725), (4, 725), (5, 650), (9, 650), (10, 600), (50, 600)],
)
def test_unit_price_picks_greatest_tier_not_above_quantity(quantity, expected):
    assert unit_price(TIERED, quantity) == expected


def test_unit_price_does_not_depend_on_tier_order():
    assert unit_price(tuple(reversed(TIERED)), 7) == 650


def test_unit_price_without_a_matching_tier_is_unavailable():
    with pytest.raises(DomainError) as info:
        unit_price((PriceTier(3, 600),), 2)
    assert info.value.code == "price_unavailable"


def test_unit_price_with_no_tiers_is_unavailable():
    with pytest.raises(DomainError) as info:
        unit_price((), 1)
    assert info.value.code == "price_unavailable"


@pytest.mark.parametrize("quantity", [1, 2, 49, 50])
def test_quantity_from_1_to_50_is_valid(quantity):
    assert validate_quantity(quantity) == quantity


@pytest.mark.parametrize("quantity", [0, -1, 51, 1000, 1.0, "1", None, True])
def test_quantity_outside_1_to_50_is_rejected(quantity):
    with pytest.raises(DomainError) as info:
        validate_quantity(quantity)
    assert info.value.code == "invalid_quantity"
    assert info.value.field == "quantity"
    assert info.value.params == {"min": 1, "max": 50}


def test_valid_tiers_pass():
    validate_tiers(TIERED)
    validate_tiers((PriceTier(1, MEAL_PRICE_MIN_CENTS),))
    validate_tiers((PriceTier(1, MEAL_PRICE_MAX_CENTS),))


@pytest.mark.parametrize(
    "tiers",
    [(), (PriceTier(2, 600),), (PriceTier(1, 600), PriceTier(1, 650)), (PriceTier(0, 600),)],
)
def test_tiers_must_start_at_one_and_not_repeat(tiers):
    with pytest.raises(DomainError) as info:
        validate_tiers(tiers)
    assert info.value.code == "invalid_price_tiers"


@pytest.mark.parametrize("price", [0, 499, 726, 1000])
def test_tier_price_outside_5_to_7_25_is_rejected(price):
    with pytest.raises(DomainError) as info:
        validate_tiers((PriceTier(1, 600), PriceTier(5, price)))
    assert info.value.code == "price_out_of_range"


def test_price_line_multiplies_unit_and_surcharges_by_quantity():
    line = LineInput(TIERED, 3, option_cents=[50, 25], addon_cents=[100])
    assert price_line(line) == LinePrice(
        unit_cents=725,
        meal_cents=(725 + 50 + 25 + 100) * 3,
        special_note_fee_cents=0,
        total_cents=2700,
    )


def test_price_line_uses_the_tier_for_the_line_quantity():
    assert price_line(LineInput(TIERED, 10)).meal_cents == 6000


def test_price_line_without_options_is_unit_times_quantity():
    price = price_line(LineInput(SMALL, 2))
    assert (price.unit_cents, price.meal_cents, price.total_cents) == (500, 1000, 1000)


def test_special_note_costs_one_dollar_per_line_whatever_the_quantity():
    one = price_line(LineInput(SMALL, 1, special_note="Happy birthday!"))
    many = price_line(LineInput(SMALL, 50, special_note="Happy birthday!"))
    assert one.special_note_fee_cents == many.special_note_fee_cents == 100
    assert one.total_cents == 600
    assert many.total_cents == 500 * 50 + 100


@pytest.mark.parametrize("note", [None, "", "   ", "\n\t"])
def test_blank_special_note_is_free(note):
    assert price_line(LineInput(SMALL, 1, special_note=note)).special_note_fee_cents == 0
    assert not has_special_note(note)


def test_price_line_rejects_invalid_quantity():
    with pytest.raises(DomainError) as info:
        price_line(LineInput(SMALL, 51))
    assert info.value.code == "invalid_quantity"


def test_price_line_rejects_zero_quantity():
    with pytest.raises(DomainError) as info:
        price_line(LineInput(SMALL, 0))
    assert info.value.code == "invalid_quantity"


@pytest.mark.parametrize(
    ("options", "addons"), [([-1], []), ([], [-50]), ([1.5], []), ([], [True])]
)
def test_negative_or_non_int_surcharges_are_rejected(options, addons):
    with pytest.raises(DomainError) as info:
        price_line(LineInput(SMALL, 1, option_cents=options, addon_cents=addons))
    assert info.value.code == "invalid_amount"


def test_zero_surcharges_are_allowed():
    assert price_line(LineInput(SMALL, 1, option_cents=[0], addon_cents=[0])).meal_cents == 500


@pytest.mark.parametrize(("meals", "expected"), [(0, (0, 0)), (1, (50, 20)), (13, (650, 260))])
def test_giveback_is_50_and_20_cents_per_meal(meals, expected):
    assert giveback(meals) == expected


@pytest.mark.parametrize("bad", [-1, 1.0, True, None])
def test_giveback_rejects_bad_meal_counts(bad):
    with pytest.raises(ValueError):
        giveback(bad)
